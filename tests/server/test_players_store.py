"""The players' storage (``cinch.library.PlayerTables``) in both back ends, the same calls and the same answers:
the SQLite game library, and PostgreSQL (brought to Alembic's head from revision 0002, as a cluster that ran
before the players were added is).  Times are given, so expiry and windows are tested without waiting."""

from __future__ import annotations

import pytest

from cinch import Rules, Seat
from cinch.library import ACCOUNT, DELETED, FORMER_PLAYER, GUEST, Library, NameTaken
from cinch.match import Match

T = 1_800_000_000.0  # a moment, in seconds since 1970


@pytest.fixture(params=["sqlite", "postgres"])
def store(request, tmp_path):
    if request.param == "sqlite":
        with Library.open(tmp_path / "games.sqlite3") as lib:
            yield lib
        return
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine

    from cinch.server.postgres import MIGRATIONS, PgLibrary, sqlalchemy_url

    url = request.getfixturevalue("database_url")
    engine = create_engine(sqlalchemy_url(url))
    with engine.begin() as conn:  # a database as it stood before the players: revision 0002
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        config.attributes["connection"] = conn
        command.upgrade(config, "0002")
    engine.dispose()
    lib = PgLibrary.open(url)  # (migrates to the head: 0003, the players)
    try:
        yield lib
    finally:
        lib.close()


def test_a_guest_becomes_an_account_under_the_same_id(store):
    guest = store.new_guest("id-1", "Cy", "device-hash", T)
    assert (guest.kind, guest.name) == (GUEST, "Cy")
    assert store.guest_by_device("device-hash") == guest
    account = store.new_account("id-1", "Cyrus", "cyrus", "$argon2id$hash", T + 5)
    assert (account.id, account.kind, account.name, account.created) == ("id-1", ACCOUNT, "Cyrus", T)
    assert account.password == "$argon2id$hash"
    assert store.guest_by_device("device-hash") is None  # (an account is reached by its password alone)
    assert store.account_named("cyrus") == account
    with pytest.raises(NameTaken):
        store.new_account("id-2", "CYRUS", "cyrus", "$argon2id$other", T)
    assert store.player("id-2") is None
    fresh = store.new_account("id-3", "Ann", "ann", "$argon2id$ann", T)
    assert [(p.name, games) for p, games in store.accounts()] == [("Ann", 0), ("Cyrus", 0)]
    assert fresh.kind == ACCOUNT


def test_sessions_expire_and_are_pushed_back_when_used(store):
    store.new_guest("id-1", "Cy", "d", T)
    store.new_session("s1", "id-1", T, lifetime=100)
    assert store.session_player("s1", T + 50, 100, refresh_after=10).id == "id-1"  # (pushed back to T + 150)
    assert store.session_player("s1", T + 140, 100, refresh_after=1000).id == "id-1"
    assert store.session_player("s1", T + 151, 100, refresh_after=1000) is None
    store.new_session("s2", "id-1", T, lifetime=100)
    store.new_session("s3", "id-1", T, lifetime=100)
    store.end_sessions("id-1", keep="s3")
    assert store.session_player("s2", T, 100, 1000) is None and store.session_player("s3", T, 100, 1000) is not None
    store.end_session("s3")
    assert store.session_player("s3", T, 100, 1000) is None
    store.new_session("s4", "id-1", T, lifetime=100)
    store.purge_players(T + 101, longest_window=3600)
    assert store.session_player("s4", T, 100, 1000) is None  # (purged: expired at T + 100)


def test_limits_count_in_windows(store):
    assert store.limit_count("k", T, 60) == (0, T)
    assert [store.hit_limit("k", T + i, 60)[0] for i in range(3)] == [1, 2, 3]
    assert store.limit_count("k", T + 59, 60) == (3, T)
    assert store.limit_count("k", T + 60, 60) == (0, T + 60)  # (the window is over)
    assert store.hit_limit("k", T + 61, 60) == (1, T + 61)  # (a new window)
    store.hit_limit("other", T, 60)
    store.clear_limits(["k"])
    assert store.limit_count("k", T + 62, 60)[0] == 0 and store.limit_count("other", T, 60)[0] == 1
    store.purge_players(T + 3601, longest_window=3600)
    assert store.limit_count("other", T, 60)[0] == 0


def test_erasing_a_player_leaves_its_games_under_no_name(store):
    store.new_account("id-1", "Zed", "zed", "$argon2id$zed", T)
    players = {Seat.N: "Zed", Seat.E: "basic", Seat.S: "Ann", Seat.W: "basic"}
    match = Match(Rules.preset("pagat"), players=players, rng=1)
    match.metadata["seating"] = [{"seat": s.name, "name": players[s], "kind": "human", "from_deal": 1} for s in Seat]
    match_id = store.new_match(match, human_seat=Seat.N, seed=1, frontend="server", players=players)
    store.add_player_game("id-1", match_id, "N")
    store.add_player_game("id-1", match_id, "N")  # (once)
    store.new_session("s1", "id-1", T, 100)
    assert store.player_games("id-1") == [(match_id, "N")] and store.player_game_count("id-1") == 1
    store.erase_player("id-1", T + 1)
    gone = store.player("id-1")
    assert (gone.kind, gone.name, gone.password) == (DELETED, None, None)
    assert store.account_named("zed") is None and store.session_player("s1", T, 100, 1000) is None
    stored = store.get(match_id)
    assert stored.players == {Seat.N: FORMER_PLAYER, Seat.E: "basic", Seat.S: "Ann", Seat.W: "basic"}
    assert stored.record["players"]["N"] == FORMER_PLAYER and "Zed" not in stored.record_text
    assert store.player_games("id-1") == [(match_id, "N")]  # (its results stay, attached to its id)
    assert [p.name for p, _ in store.accounts()] == []
