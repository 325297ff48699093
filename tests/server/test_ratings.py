"""The ratings (``cinch.server.ratings``) in both back ends: Plackett–Luce worked by hand against openskill's own
numbers, a partnership match, a cut-throat table, a daily ranking with the robot table, each game rated once
(twice told, or by two connections at once), the leaderboard's minimum and accounts only, a deleted account's
ratings under no name, and migration 0005 down and up again.

PostgreSQL comes from the ``postgres`` fixture (tests/server/conftest.py); without it those runs are skipped.
"""

from __future__ import annotations

import math
import threading

import pytest
from openskill.models import PlackettLuce

from cinch import Rules
from cinch.library import Library
from cinch.match import Match
from cinch.server.ratings import (
    ANCHOR_SIGMA,
    ANCHORS,
    MINIMUM_GAMES,
    Entrant,
    Ratings,
    family_of,
    leaderboard_json,
    match_sides,
    ordinal,
)

T = 1_800_000_000.0  # a moment, in seconds since 1970 (2027-01-15)
MU, SIGMA, BETA, TAU = 25.0, 25.0 / 3, 25.0 / 6, 25.0 / 300  # openskill's defaults


def open_pg(url: str, migrate: bool = True):
    from cinch.server.postgres import PgLibrary

    return PgLibrary.open(url, migrate_schema=migrate)


@pytest.fixture(params=["sqlite", "postgres"])
def store(request, tmp_path):
    if request.param == "sqlite":
        with Library.open(tmp_path / "games.sqlite3") as lib:
            yield lib
        return
    lib = open_pg(request.getfixturevalue("database_url"))
    try:
        yield lib
    finally:
        lib.close()


def rating_of(store, player: str, family: str = "pagat") -> tuple[float, float, int]:
    rows = store._player_rows("SELECT mu, sigma, games FROM ratings WHERE player_id = ? AND family = ?",
                              (player, family))
    assert len(rows) == 1, rows
    return float(rows[0][0]), float(rows[0][1]), int(rows[0][2])


# ---- the model, by hand ------------------------------------------------------------------------------------------
def by_hand_two_sides(winners: list[tuple[float, float]], losers: list[tuple[float, float]]):
    """Weng and Lin's Plackett–Luce update (their Algorithm 4) for two sides, the first winning, written out: tau
    added to every sigma first; gamma = the side's sigma over c.  Each side's players' new (mu, sigma)."""
    def side(players):
        players = [(mu, math.sqrt(sigma**2 + TAU**2)) for mu, sigma in players]
        return players, sum(mu for mu, _ in players), sum(sigma**2 for _, sigma in players)

    win, mu_w, s2_w = side(winners)
    lose, mu_l, s2_l = side(losers)
    c = math.sqrt(s2_w + BETA**2 + s2_l + BETA**2)
    p_w = math.exp(mu_w / c) / (math.exp(mu_w / c) + math.exp(mu_l / c))  # the winners drawn first
    p_l = 1 - p_w
    out = []
    for players, s2, omega, delta in ((win, s2_w, 1 - p_w, p_w * (1 - p_w)), (lose, s2_l, -p_l, p_l * (1 - p_l))):
        omega *= s2 / c
        delta *= (s2 / c**2) * (math.sqrt(s2) / c)
        out.append([(mu + sigma**2 / s2 * omega, sigma * math.sqrt(max(1 - sigma**2 / s2 * delta, 1e-4)))
                    for mu, sigma in players])
    return out


def test_a_person_pair_beating_a_bot_pair_moves_the_people_up_and_the_bots_not_at_all(store):
    ratings = Ratings(store)
    heuristic = ANCHORS["heuristic"]
    changes = ratings.record_match(7, "pagat", [[Entrant("ann"), Entrant("bob")],
                                                [Entrant(bot="heuristic"), Entrant(bot="heuristic")]], [0, 1], when=T)
    [(ann_mu, ann_sigma), _], _ = by_hand_two_sides([(MU, SIGMA), (MU, SIGMA)],
                                                    [(heuristic, ANCHOR_SIGMA), (heuristic, ANCHOR_SIGMA)])
    # openskill's own numbers, the same inputs.
    model = PlackettLuce()
    own = model.rate([[model.rating(), model.rating()], [model.rating(mu=heuristic, sigma=ANCHOR_SIGMA),
                                                          model.rating(mu=heuristic, sigma=ANCHOR_SIGMA)]],
                     ranks=[0.0, 1.0])
    assert own[0][0].mu == pytest.approx(ann_mu, abs=1e-9) and own[0][0].sigma == pytest.approx(ann_sigma, abs=1e-9)
    # The worked numbers: beating a pair of heuristic bots takes a newcomer from 0 (25 - 3 x 8.33) to 3.54.
    assert ann_mu == pytest.approx(27.4229, abs=1e-4) and ann_sigma == pytest.approx(7.9612, abs=1e-4)
    assert ordinal(ann_mu, ann_sigma) == pytest.approx(3.5393, abs=1e-4)
    for player in ("ann", "bob"):
        mu, sigma, games = rating_of(store, player)
        assert (mu, sigma, games) == (pytest.approx(ann_mu, abs=1e-9), pytest.approx(ann_sigma, abs=1e-9), 1)
    assert [(c.player, c.place, round(c.before, 6), round(c.after, 2)) for c in changes] == [
        ("ann", 1, 0.0, round(ordinal(ann_mu, ann_sigma), 2)), ("bob", 1, 0.0, round(ordinal(ann_mu, ann_sigma), 2))]
    # The bots: no row of their own, and the anchor the next game is given is the same as this one's.
    assert store._player_rows("SELECT count(*) FROM ratings")[0][0] == 2
    assert ANCHORS["heuristic"] == heuristic
    again = ratings.record_match(8, "pagat", [[Entrant("ann"), Entrant(bot="heuristic")],
                                              [Entrant(bot="heuristic"), Entrant(bot="heuristic")]], [1, 0], when=T + 1)
    assert again[0].mu < ann_mu  # (a loss, alongside a bot: Ann alone moves, down)
    assert store._player_rows("SELECT count(*) FROM ratings")[0][0] == 2


def test_a_cut_throat_table_ranks_each_seat_by_its_score(store):
    rules = Rules.preset("pagat").with_options(players=3)
    match = Match(rules, players={s: str(s) for s in rules.seating.seats}, rng=1)
    # The end of a match, set by hand: seat 2 went out first; seats 1 and 3 are ranked by their scores.
    match._score = [40, 63, 51]
    match.winner = rules.seating.side_list[1]
    one, two, three = rules.seating.seats
    sides, ranks = match_sides(match, {one: Entrant("cy"), two: Entrant(bot="basic"), three: Entrant("dee")})
    assert sides == [[Entrant("cy")], [Entrant(bot="basic")], [Entrant("dee")]] and ranks == [2, 0, 1]
    family = family_of(rules)
    assert family == "pagat-cut-throat"
    Ratings(store).record_match(9, family, sides, ranks, when=T)
    model = PlackettLuce()
    cy, basic, dee = model.rate([[model.rating()], [model.rating(mu=ANCHORS["basic"], sigma=ANCHOR_SIGMA)],
                                 [model.rating()]], ranks=[2.0, 0.0, 1.0])
    assert rating_of(store, "cy", family)[:2] == (pytest.approx(cy[0].mu), pytest.approx(cy[0].sigma))
    assert rating_of(store, "dee", family)[:2] == (pytest.approx(dee[0].mu), pytest.approx(dee[0].sigma))
    assert rating_of(store, "dee", family)[0] > MU > rating_of(store, "cy", family)[0]
    places = store._player_rows("SELECT player_id, place, sides FROM rating_history ORDER BY player_id")
    assert [tuple(r) for r in places] == [("cy", 3, 3), ("dee", 2, 3)]
    # Equal scores share a rank.
    match._score = [40, 63, 40]
    assert match_sides(match, {one: Entrant(), two: Entrant(), three: Entrant()})[1] == [1, 0, 1]


def test_a_daily_ranking_of_three_people_and_the_robot_table(store):
    ratings = Ratings(store)
    standings = [("p1", 1), ("robots", 2), ("p2", 3), ("p3", 3)]  # (p2 and p3 tied)
    changes = ratings.record_daily("official", "2026-12-05", standings, robots="expert", when=T)
    model = PlackettLuce()
    own = model.rate([[model.rating()], [model.rating(mu=ANCHORS["expert"], sigma=ANCHOR_SIGMA)], [model.rating()],
                      [model.rating()]], ranks=[1.0, 2.0, 3.0, 3.0])
    for player, side in (("p1", 0), ("p2", 2), ("p3", 3)):
        mu, sigma, games = rating_of(store, player, "official")
        assert (mu, sigma, games) == (pytest.approx(own[side][0].mu), pytest.approx(own[side][0].sigma), 1)
    assert rating_of(store, "p2", "official") == rating_of(store, "p3", "official")  # a tie moves both alike
    assert rating_of(store, "p1", "official")[0] > MU > rating_of(store, "p2", "official")[0]
    assert [(c.player, c.place) for c in changes] == [("p1", 1), ("p2", 3), ("p3", 3)]
    assert store._player_rows("SELECT count(*) FROM ratings WHERE player_id = 'robots'")[0][0] == 0
    # The same day told again is not rated again; the next day is.
    assert ratings.record_daily("official", "2026-12-05", standings, when=T + 5) is None
    assert rating_of(store, "p1", "official")[2] == 1
    assert ratings.record_daily("official", "2026-12-06", [("p1", 2), ("robots", 1)], when=T + 86400)
    assert rating_of(store, "p1", "official")[2] == 2
    # A day's standings as cinch.duplicate gives them (objects with .entrant and .rank) are taken alike.
    from cinch.duplicate import Standing

    rows = [Standing(1, "p2", 8, 1, 30), Standing(2, "robots", 8, 0, 10)]
    assert [c.player for c in ratings.record_daily("official", "2026-12-07", rows, when=T + 2 * 86400)] == ["p2"]
    profile = ratings.of_player("p1")
    assert [(f["family"], f["games"], [h.get("day") for h in f["history"]]) for f in profile] == [
        ("official", 2, ["2026-12-05", "2026-12-06"])]


def test_a_match_is_rated_once_however_often_it_is_told(store):
    ratings = Ratings(store)
    sides = [[Entrant("ann"), Entrant(bot="expert")], [Entrant(bot="expert"), Entrant(bot="expert")]]
    assert ratings.record_match(11, "pagat", sides, [0, 1], when=T)
    before = rating_of(store, "ann")
    assert ratings.record_match(11, "pagat", sides, [0, 1], when=T + 1) is None
    assert ratings.record_match(11, "pagat", sides, [1, 0], when=T + 2) is None  # (even told otherwise)
    assert rating_of(store, "ann") == before
    assert store._player_rows("SELECT count(*) FROM rating_history")[0][0] == 1
    # A game of bots alone, or of people the server does not know, rates nobody and is not kept.
    assert ratings.record_match(12, "pagat", [[Entrant(bot="basic")] * 2, [Entrant(), Entrant()]], [0, 1]) is None
    assert store._player_rows("SELECT count(*) FROM rated_games")[0][0] == 1
    # A player counted in two seats of one match answers for the first only.
    twice = ratings.record_match(13, "pagat", [[Entrant("bob"), Entrant(bot="basic")],
                                               [Entrant("bob"), Entrant(bot="basic")]], [0, 1], when=T + 3)
    assert [(c.player, c.place) for c in twice] == [("bob", 1)]
    with pytest.raises(ValueError, match="no family 'pinochle'"):
        ratings.record_match(14, "pinochle", sides, [0, 1])


def test_two_processes_rating_at_once_rate_each_match_once_and_lose_nothing(database_url):
    """Two connections (two processes of a cluster) at once: the same match told by both is rated once; two
    matches of the same player, rated together, both count."""
    stores = [open_pg(database_url), open_pg(database_url, migrate=False)]
    try:
        barrier = threading.Barrier(2)
        results: dict[int, object] = {}

        def tell(i: int, match_id: int) -> None:
            barrier.wait()
            results[i] = Ratings(stores[i]).record_match(
                match_id, "pagat", [[Entrant("ann"), Entrant("bob")], [Entrant(bot="basic")] * 2], [0, 1], when=T)

        for ids in ((21, 21), (22, 23)):
            threads = [threading.Thread(target=tell, args=(i, ids[i])) for i in range(2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(30)
            if ids == (21, 21):
                assert sorted(r is None for r in results.values()) == [False, True]
        assert rating_of(stores[0], "ann")[2] == 3 and rating_of(stores[0], "bob")[2] == 3
        assert stores[0]._player_rows("SELECT count(*) FROM rated_games")[0][0] == 3
        # The three wins applied one after another: the rating is what three in a row give, in any order.
        mu, sigma = MU, SIGMA
        model = PlackettLuce()
        for _ in range(3):
            new = model.rate([[model.rating(mu=mu, sigma=sigma) for _ in "AB"],
                              [model.rating(mu=ANCHORS["basic"], sigma=ANCHOR_SIGMA) for _ in "AB"]], ranks=[0.0, 1.0])
            mu, sigma = new[0][0].mu, new[0][0].sigma
        assert rating_of(stores[0], "ann")[:2] == (pytest.approx(mu), pytest.approx(sigma))
    finally:
        for s in stores:
            s.close()


# ---- what is shown -------------------------------------------------------------------------------------------------
def test_the_leaderboard_lists_accounts_after_the_minimum_of_games(store):
    ann = store.new_account("id-ann", "Ann", "ann", "$argon2id$x", T)
    bob = store.new_account("id-bob", "Bob", "bob", "$argon2id$y", T)
    guest = store.new_guest("id-cy", "Cy the guest", "device", T)
    ratings = Ratings(store)
    for n in range(MINIMUM_GAMES):
        for player, match_id in ((ann.id, 100 + n), (guest.id, 200 + n), (bob.id, 300 + n)):
            if player == bob.id and n == MINIMUM_GAMES - 1:
                continue  # (Bob one game short)
            ratings.record_match(match_id, "pagat", [[Entrant(player), Entrant(bot="heuristic")],
                                                     [Entrant(bot="heuristic")] * 2], [0, 1], when=T + n)
    board = ratings.leaderboard("pagat")
    assert [(row["place"], row["name"], row["profile"], row["games"]) for row in board] == [
        (1, "Ann", "/players/Ann", MINIMUM_GAMES)]
    assert board[0]["rating"] == round(ordinal(*rating_of(store, ann.id)[:2]), 1)
    assert ratings.leaderboard("pagat", minimum=MINIMUM_GAMES - 1)[1]["name"] == "Bob"
    assert ratings.leaderboard("official") == []
    shown = leaderboard_json(ratings, None)
    assert shown["family"] == "pagat" and shown["minimum"] == MINIMUM_GAMES
    assert [b["bot"] for b in shown["bots"]][:3] == ["expert", "neural", "heuristic"]
    assert {f["family"]: f["rated"] for f in shown["families"]}["pagat"] is True
    # A profile's section: the rating, the games, the changes oldest first (each with its match's replay).
    [family] = ratings.of_player(ann.id)
    assert family["games"] == MINIMUM_GAMES and family["listed"] is True
    assert [h["match"] for h in family["history"]] == [100, 101, 102, 103, 104]
    assert family["history"][0]["replay"] == "/replay?game=100" and family["history"][0]["change"] > 0
    assert family["history"][-1]["rating"] == family["rating"]

    # Deleting the account: off the leaderboard, no name anywhere in the ratings; its results stay under its id.
    store.erase_player(ann.id, T + 100)
    assert ratings.leaderboard("pagat", minimum=1) == [row for row in ratings.leaderboard("pagat", minimum=1)
                                                       if row["name"] != "Ann"]
    assert [row["name"] for row in ratings.leaderboard("pagat", minimum=1)] == ["Bob"]
    assert rating_of(store, ann.id)[2] == MINIMUM_GAMES
    for table in ("ratings", "rating_history", "rated_games"):
        assert "Ann" not in str(store._player_rows(f"SELECT * FROM {table}"))


def test_migration_0005_goes_down_and_up_again(database_url):
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine

    from cinch.server.postgres import MIGRATIONS, sqlalchemy_url

    lib = open_pg(database_url)
    Ratings(lib).record_match(1, "pagat", [[Entrant("ann")] , [Entrant(bot="basic")]], [0, 1], when=T)
    engine = create_engine(sqlalchemy_url(database_url))

    def to(revision: str, down: bool = False) -> None:
        with engine.begin() as conn:
            config = Config()
            config.set_main_option("script_location", str(MIGRATIONS))
            config.attributes["connection"] = conn
            (command.downgrade if down else command.upgrade)(config, revision)

    def tables() -> set[str]:
        return {r[0] for r in lib._player_rows("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}

    try:
        to("0004", down=True)
        assert not {"ratings", "rating_history", "rated_games"} & tables()
        to("head")
        assert {"ratings", "rating_history", "rated_games"} <= tables()
        assert Ratings(lib).record_match(1, "pagat", [[Entrant("ann")], [Entrant(bot="basic")]], [0, 1], when=T)
    finally:
        engine.dispose()
        lib.close()
