"""Duplicate Cinch (cinch.duplicate): deal sets and their commitments, results, matchpoints, rankings, travellers,
the robot table, JSON, and the attempts kept in the game library.  Every set is seeded and played by cheap bots."""

from __future__ import annotations

import dataclasses
import json

import pytest

from cinch import Rules, Seat, Suit
from cinch.duplicate import (
    ROBOTS,
    Attempt,
    BoardResult,
    DealSet,
    DuplicateError,
    LibraryStore,
    MemoryStore,
    Traveller,
    bot_seed,
    dealer_of,
    matchpoints,
    robot_result,
    secret_of,
    session_percentage,
    standings,
)
from cinch.errors import RecordError
from cinch.library import Library
from cinch.record import replay
from cinch.shuffle import commitment, deck_text


def official(deals: int = 4, seed: int = 11) -> DealSet:
    return DealSet.from_seed(seed, Rules.preset("official"), deals, bots="basic")


def fake(board: int, result: int, player: str = "x") -> BoardResult:
    """A result worth ``result`` (NS's score change less EW's): what the ranking reads of it."""
    return BoardResult(board, player, "basic", dealer_of(board), False, Seat.N, 7, Suit.HEARTS, (7, 0), True,
                       (result, 0), "{}")


# ---- the deal set -------------------------------------------------------------------------------------------------
def test_a_deal_set_is_the_same_for_the_same_seed_and_rules_and_another_for_any_other():
    a, b = official(), official()
    assert a == b and a.key == b.key
    assert [a.deck(n) for n in range(1, 5)] == [b.deck(n) for n in range(1, 5)]
    assert [a.dealer(n) for n in range(1, 5)] == [Seat.N, Seat.E, Seat.S, Seat.W]
    assert official(deals=5).dealer(5) == Seat.N
    assert len({a.deck(n) for n in range(1, 5)}) == 4  # four different boards
    assert official(seed=12).commitments != a.commitments
    assert DealSet.from_seed(11, Rules.preset("official"), 4, name="club").commitments != a.commitments  # the name
    longer = official(deals=8)
    assert longer.commitments[:4] == a.commitments and longer.key != a.key  # another set, its first boards alike
    pagat = Rules.preset("pagat")
    assert DealSet.derive("club night", pagat, 2) == DealSet.derive("club night", pagat, 2)  # from the name alone
    assert a.name == "seed 11" and a.secret == secret_of(11)


def test_commitments_published_first_verify_against_the_salts_revealed_later():
    s = official()
    published = s.published()
    assert published.salts is None and published.secret is None and "salts" not in published.to_json()
    with pytest.raises(DuplicateError, match="not revealed yet"):
        published.deck(1)
    revealed = DealSet.from_json({**published.to_json(), "salts": list(s.salts)})
    revealed.verify()
    for n in range(1, 5):  # each commitment is the fair shuffle's, over the deck the salt deals
        assert commitment(deck_text(revealed.deck(n)), revealed.salts[n - 1]) == published.commitments[n - 1]
    forged = list(s.salts)
    forged[2] = "0" * 32
    with pytest.raises(DuplicateError, match="board 3 of 'seed 11': the salt revealed deals a deck whose commitment"):
        DealSet.from_json({**published.to_json(), "salts": forged})
    assert "secret" not in s.to_json() and s.to_json(secret=True)["secret"] == s.secret


def test_a_played_boards_record_is_checked_by_replay_against_its_commitment():
    s = official()
    record = robot_result(s, 2, par=False).record
    deal = record["deals"][0]
    assert deal["shuffle"]["commitment"] == s.commitments[1] and deal["dealer"] == "E"
    replay(record)  # `cinch replay` checks the deck against the commitment and the salt
    cards = deal["deck"].split()
    deal["deck"] = " ".join([cards[1], cards[0], *cards[2:]])
    with pytest.raises(RecordError, match="not the one its shuffle commitment promises"):
        replay(record)


@pytest.mark.parametrize(("options", "words"), [
    ({"players": 3}, "four players in two partnerships"),
    ({"players": 6}, "four players in two partnerships"),
    ({"honour_rule": True}, "the honour rule"),
])
def test_other_tables_and_the_honour_rule_are_refused_in_one_line(options, words):
    with pytest.raises(DuplicateError, match=words) as caught:
        DealSet.from_seed(1, Rules.preset("official").with_options(**options), 2)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(("change", "words"), [
    ({"deals": 0}, "1 to 64 boards"), ({"name": ""}, "a line of text"), ({"secret": "xyz"}, "64 lower-case hex"),
])
def test_a_bad_deal_set_is_refused_naming_the_field(change, words):
    args = {"name": "n", "rules": Rules.preset("pagat"), "deals": 2, **change}
    with pytest.raises(DuplicateError, match=words):
        DealSet.derive(args["name"], args["rules"], args["deals"], secret=args.get("secret"))


# ---- results -------------------------------------------------------------------------------------------------------
def test_a_result_is_south_sides_score_change_less_the_others_under_pagat():
    s = DealSet.from_seed(11, Rules.preset("pagat"), 2, bots="basic")
    set_, made = robot_result(s, 1, par=False), robot_result(s, 2, par=False)
    # Board 1: EW bid 7 and took 6, set: EW lose 7, NS add the 8 they took (additive) -> 8 - (-7) = 15.
    assert (set_.maker, set_.bid, set_.made, set_.points, set_.score_change) == (Seat.E, 7, False, (8, 6), (8, -7))
    assert set_.result == 15
    # Board 2: EW bid 7 and took 9, made: EW add 9, NS add 5 -> 5 - 9 = -4.
    assert (made.points, made.score_change, made.result) == ((5, 9), (5, 9), -4)
    assert set_.contract_text(symbols=False) == "E 7 diamonds, set"


def test_a_result_is_south_sides_score_change_less_the_others_under_official():
    s = official()
    made, set_ = robot_result(s, 1, par=False), robot_result(s, 4, par=False)
    # Board 1: N bid 4 and took 6, but EW took 8: the difference, 2, goes to EW -> 0 - 2 = -2.
    assert (made.maker, made.made, made.points, made.score_change, made.result) == (Seat.N, True, (6, 8), (0, 2), -2)
    # Board 4: W bid 4 and took 1: set, NS add 17 (003's settlement) -> +17.
    assert (set_.maker, set_.made, set_.points, set_.score_change, set_.result) == (Seat.W, False, (13, 1), (17, 0), 17)


def test_a_board_thrown_in_is_a_result_of_nothing():
    s = DealSet.from_seed(11, Rules.preset("difference"), 1, bots="basic")  # difference: all pass throws in
    match = s.dealt(1, {seat: "basic" for seat in Seat})
    for _ in range(4):
        match.apply(match.deals[0].legal_actions()[0])  # pass
    r = BoardResult.of(match, 1, "you", "basic")
    assert (r.thrown_in, r.result, r.par, r.contract_text()) == (True, 0, None, "thrown in")
    assert BoardResult.from_json(r.to_json()) == r


def test_a_result_is_taken_only_from_a_board_played_to_its_end():
    match = official().dealt(1)
    with pytest.raises(DuplicateError, match="board 1 is not over"):
        BoardResult.of(match, 1, "you", "basic")


def test_the_par_is_the_solvers_from_the_tables_first_lead():
    r = robot_result(official(), 1)
    assert r.par is not None and sum(r.par.points) == 14  # official: every point of the deck is in play or counts
    assert r.par.made in (True, False)


# ---- matchpoints and the ranking -----------------------------------------------------------------------------------
def test_matchpoints_by_hand_two_for_each_result_beaten_one_for_each_tie():
    # Four results on a board: +10 beats three (6 of 6), the two +4s beat one and tie one (3 of 6 each),
    # -2 beats none.
    mps = matchpoints([4, 10, -2, 4])
    assert [(m.points, m.top) for m in mps] == [(3, 6), (6, 6), (0, 6), (3, 6)]
    assert [m.percent for m in mps] == [50.0, 100.0, 0.0, 50.0]
    assert [m.percent for m in matchpoints([5])] == [50.0]  # alone on a board: half the top
    assert [m.percent for m in matchpoints([3, 3])] == [50.0, 50.0]
    assert matchpoints([fake(1, 7), fake(1, -1)])[0].points == 2  # results or numbers
    assert session_percentage([100.0, 50.0, 0.0, 25.0]) == 43.75 and session_percentage([]) is None


def test_the_ranking_goes_by_percentage_then_total_points_and_ties_share_a_rank():
    field = {"Ann": [fake(1, 10), fake(2, -5)], "Bo": [fake(1, 2), fake(2, 1)], "Cy": [fake(1, 2), fake(2, -5)],
             "Di": [fake(1, -6), fake(2, 0)]}
    # Board 1: 10, 2, 2, -6 -> Ann 6/6, Bo 3/6, Cy 3/6, Di 0/6.  Board 2: -5, 1, -5, 0 -> Ann 1/6, Bo 6/6, Cy 1/6,
    # Di 4/6.  Bo 9/12, Ann 7/12, then Cy and Di 4/12 each: Cy's total (-3) is above Di's (-6).
    ranked = standings(field)
    assert [(s.rank, s.entrant) for s in ranked] == [(1, "Bo"), (2, "Ann"), (3, "Cy"), (4, "Di")]
    assert [round(s.percentage, 2) for s in ranked] == [75.0, 58.33, 33.33, 33.33]
    assert [s.total for s in ranked] == [3, 5, -3, -6]
    twins = standings({"A": [fake(1, 3)], "B": [fake(1, 3)], "C": [fake(1, 0)]})
    assert [(s.rank, s.entrant) for s in twins] == [(1, "A"), (1, "B"), (3, "C")]
    assert standings({"alone": [fake(1, 9)]})[0].percentage == 50.0


# ---- the robot table and the traveller -----------------------------------------------------------------------------
def test_the_robot_table_is_the_same_every_time_from_the_sets_seed():
    a, b = robot_result(official(), 3, par=False), robot_result(official(), 3, par=False)
    assert a == b and a.record_text == b.record_text and a.player == ROBOTS
    assert bot_seed(official(), 3, Seat.N) == bot_seed(official(), 3, Seat.N) != bot_seed(official(), 3, Seat.E)
    assert json.loads(a.record_text)["duplicate"] == {"set": "seed 11", "board": 3, "player": "robots",
                                                      "bots": "basic"}


def test_a_traveller_lists_every_result_best_for_ns_first_with_its_matchpoints_and_the_hands():
    s = official()
    robots = robot_result(s, 4, par=False)  # +17
    worse = dataclasses.replace(robots, player="you", score_change=(0, 3))  # (a result worth -3)
    t = Traveller.of(s, 4, [("you", worse), (ROBOTS, robots)], mine="you")
    assert [(line.entrant, line.result.result, line.matchpoints.percent, line.mine) for line in t.lines] == [
        (ROBOTS, 17, 100.0, False), ("you", -3, 0.0, True)]
    assert t.dealer == Seat.W and [len(h) for h in t.hands] == [9, 9, 9, 9]
    data = t.to_json()
    assert data["results"][0]["replay"] == {"record": robots.record, "deal": 1}
    assert set(data["hands"]) == {"N", "E", "S", "W"}
    other = robot_result(official(seed=12), 4, par=False)
    with pytest.raises(DuplicateError, match="not of board 4 of 'seed 11'"):
        Traveller.of(s, 4, [("elsewhere", other)])
    with pytest.raises(DuplicateError, match="no result yet"):
        Traveller.of(s, 4, [])


# ---- JSON ----------------------------------------------------------------------------------------------------------
def test_sets_results_and_attempts_go_to_json_and_back():
    s = official()
    assert DealSet.from_json(json.loads(json.dumps(s.to_json(secret=True)))) == s
    assert DealSet.from_json(s.to_json(secret=True)).secret == s.secret
    r = robot_result(s, 1)
    back = BoardResult.from_json(json.loads(json.dumps(r.to_json())))
    assert back == r and back.par == r.par
    attempt = Attempt(3, s, "you", results=(r,), playing=None)
    assert Attempt.from_data(3, "in_progress", json.loads(json.dumps(attempt.data()))) == attempt


@pytest.mark.parametrize(("key", "value", "words"), [
    ("result", 99, "says result 99, but its record gives"),
    ("maker", "S", 'says maker "S"'),
    ("record", [], "is a cinch/1 record"),
    ("board", 0, "a number from 1"),
])
def test_a_result_whose_json_does_not_match_its_record_is_refused(key, value, words):
    data = {**robot_result(official(), 1, par=False).to_json(), key: value}
    with pytest.raises(DuplicateError, match=words):
        BoardResult.from_json(data)


# ---- the stores ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["memory", "library"])
def test_a_store_keeps_attempts_and_the_robot_tables(kind, tmp_path):
    library = Library.open(tmp_path / "g.sqlite3") if kind == "library" else None
    store = MemoryStore() if library is None else LibraryStore(library)
    s, other = official(), official(seed=12)
    first = store.new_attempt(s, "you")
    second = store.new_attempt(other, "you")
    r = robot_result(s, 1, par=False)
    store.save_attempt(dataclasses.replace(first, results=(dataclasses.replace(r, player="you"),), playing="{}"))
    assert store.attempt(first.id).results[0].result == r.result and store.attempt(first.id).playing == "{}"
    assert [a.id for a in store.attempts(s.key)] == [first.id]
    assert {a.id for a in store.attempts()} == {first.id, second.id}
    assert store.attempts(status="finished") == []
    assert store.robot_result(s, 1, "basic") is None
    store.save_robot_result(s, r)
    assert store.robot_result(s, 1, "basic") == r and store.robot_result(s, 1, "expert") is None
    if library is not None:
        damaged = library.new_duplicate_attempt("k", "broken", "you", {"set": {"name": "broken"}})
        assert [a.id for a in store.attempts()] == [first.id, second.id]  # a damaged attempt hides no other
        with pytest.raises(DuplicateError, match=f"duplicate attempt {damaged} is damaged"):
            store.attempt(damaged)
        library.close()
        with Library.open(tmp_path / "g.sqlite3", readonly=True) as reader:  # kept in the file
            again = LibraryStore(reader)
            assert again.attempt(first.id).deal_set == s and again.robot_result(s, 1, "basic") == r


def test_a_library_without_the_duplicate_tables_reads_as_having_no_attempts(tmp_path):
    import sqlite3

    from cinch.bots import make_bot
    from cinch.match import Match

    path = tmp_path / "old.sqlite3"
    three = Match(Rules.preset("official").with_options(players=3), rng=5)
    bot = make_bot("basic", seed=1)
    while not three.summaries or not any(three.score):
        deal = three.current or three.start_deal()
        three.apply(bot.choose(three.view(deal.to_act)), deal.to_act)
    with Library.open(path) as lib:
        match_id = lib.new_match(three, human_seat=None, seed=5, frontend="plain")
    conn = sqlite3.connect(path)  # as a cinch before `cinch duplicate` left it
    conn.execute("DROP TABLE duplicate_attempts")
    conn.execute("DROP TABLE duplicate_robots")
    conn.execute("UPDATE meta SET value = '4' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    with Library.open(path, readonly=True) as reader:
        assert LibraryStore(reader).attempts() == [] and reader.duplicate_robot("k", 1, "basic") is None
        assert reader.get(match_id).score == three.score  # read as it is: its cut-throat scores too
    with Library.open(path) as writer:  # a writer brings it up to date
        assert LibraryStore(writer).new_attempt(official(), "you").id == 1
