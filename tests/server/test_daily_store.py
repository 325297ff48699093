"""The duplicate fields' storage (cinch.server.fields) in both back ends: SQLite and PostgreSQL (migration 0004).

A result is counted once however often it is sent, by one connection or two (two processes of a cluster); a field is
made final once, by whichever connection gets there first, and only that one is told to rate it; the server's
secret is made once and read alike by every connection; entrants are kept by player id, their names joined from the
players when shown, so that a deleted player is "former player" everywhere at once.  PostgreSQL comes from the
``postgres`` fixture (tests/server/conftest.py); without it those runs are skipped.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from cinch.library import Library
from cinch.server.daily import rank_rows
from cinch.server.fields import FINAL, PAIR_KIND, PERSON_KIND, ROBOTS_KIND, FieldStore

FIELD = "daily/2026-12-05/official"


@pytest.fixture(params=["sqlite", "postgres"])
def stores(request, tmp_path) -> Iterator[tuple[FieldStore, FieldStore]]:
    """Two stores over one database, as two processes hold it (two connections)."""
    if request.param == "postgres":
        from cinch.server.postgres import PgLibrary

        url = request.getfixturevalue("database_url")
        libraries: list[Any] = [PgLibrary.open(url), PgLibrary.open(url, migrate_schema=False)]
    else:
        path = tmp_path / "games.sqlite3"
        libraries = [Library.open(path), Library.open(path)]
    try:
        yield FieldStore(libraries[0]), FieldStore(libraries[1])
    finally:
        for library in libraries:
            library.close()


def player(store: FieldStore, player_id: str, name: str) -> None:
    store.library.new_guest(player_id, name, f"device-{player_id}", 0.0)


def test_a_result_is_counted_once_by_one_connection_or_two(stores):
    a, b = stores
    made = [a.open_field(FIELD, kind="daily", family="official", deal_set={"deals": 2}, data={}, now=1.0),
            b.open_field(FIELD, kind="daily", family="official", deal_set={"deals": 9}, data={}, now=2.0)]
    assert [m for _, m in made] == [True, False] and made[1][0].deal_set == {"deals": 2}  # (the first wins)
    player(a, "p1", "Ann")
    assert a.enter(FIELD, "p1", kind=PERSON_KIND, members={"S": "p1"}, table_code="DAYX", now=3.0)[1]
    again, new = b.enter(FIELD, "p1", kind=PERSON_KIND, members={"S": "p1"}, table_code="DAYY", now=4.0)
    assert not new and again.table_code == "DAYX"  # (an entrant enters once: the first's table stands)
    for store in (a, b, a):
        store.add_result(FIELD, 1, "p1", 7, {"result": 7}, '{"format": "cinch/1"}', now=5.0, boards=2, match_id=11)
    entry = b.entry(FIELD, "p1")
    assert entry is not None and (entry.boards, entry.status, entry.name) == (1, "playing", "Ann")
    assert b.add_result(FIELD, 2, "p1", -3, {"result": -3}, "{}", now=6.0, boards=2)
    assert not a.add_result(FIELD, 2, "p1", 99, {"result": 99}, "{}", now=7.0, boards=2)
    entry = a.entry(FIELD, "p1")
    assert entry is not None and (entry.boards, entry.status) == (2, "finished")
    assert a.scores(FIELD) == {"p1": [(1, 7), (2, -3)]}
    assert [r.result for r in b.board_results(FIELD, 2)] == [-3]
    assert a.record(FIELD, 1, "p1") == '{"format": "cinch/1"}' and a.result(FIELD, 1, "p1").match_id == 11


def test_a_field_is_made_final_once_and_its_ranks_kept(stores):
    a, b = stores
    a.open_field(FIELD, kind="daily", family="official", deal_set={}, data={"day": "2026-12-05"}, now=0.0,
                 closes=100.0)
    for pid, name in (("p1", "Ann"), ("p2", "Bo")):
        player(a, pid, name)
        a.enter(FIELD, pid, kind=PERSON_KIND, members={"S": pid}, now=1.0)
    a.enter(FIELD, "robots", kind=ROBOTS_KIND, label="Robot table (basic)", now=1.0)
    a.enter(FIELD, "T1:NS", kind=PAIR_KIND, members={"N": "p1", "S": "p2"}, now=1.0)  # (an event's partnership)
    for board, results in ((1, {"p1": 5, "p2": 0, "robots": 0}), (2, {"p1": -2, "p2": 4, "robots": -2})):
        for entrant, result in results.items():
            a.add_result(FIELD, board, entrant, result, {}, "{}", now=2.0, boards=2)
    a.add_result(FIELD, 1, "T1:NS", 1, {}, "{}", now=2.0, boards=2)  # (not finished: not ranked)
    assert [f.id for f in b.fields("daily", "open", 100.0)] == [FIELD] and b.fields("daily", "open", 99.0) == []
    assert [a.finalize(FIELD, 200.0, rank_rows), b.finalize(FIELD, 201.0, rank_rows)] == [True, False]
    stored = b.field(FIELD)
    assert stored is not None and stored.status == FINAL and stored.final == 200.0
    ranked = {e.entrant: (e.rank, e.percentage, e.total) for e in b.entries(FIELD)}
    # (board 1: Ann 100%, Bo and the robots 25%; board 2: Bo 100%, Ann and the robots 25%: equal percentages, and
    # Bo's total is the higher)
    assert ranked == {"p2": (1, 62.5, 4), "p1": (2, 62.5, 3), "robots": (3, 25.0, -2), "T1:NS": (None, None, None)}
    assert b.ranked([FIELD]) == {FIELD: 3}
    assert sorted(e.name for e in b.entries(FIELD)) == ["Ann", "Ann & Bo", "Bo", "Robot table (basic)"]
    assert {(f.id, e.entrant, e.rank) for f, e in b.player_entries("p2", "daily")} == {(FIELD, "p2", 1),
                                                                                     (FIELD, "T1:NS", None)}


def test_names_are_joined_when_shown_and_a_deleted_player_is_a_former_one(stores):
    a, b = stores
    a.open_field(FIELD, kind="daily", family="official", deal_set={}, data={}, now=0.0)
    player(a, "p1", "Ann")
    a.library.new_account("p2", "Bodkin", "bodkin", "hash", 0.0)
    a.enter(FIELD, "p1", kind=PERSON_KIND, members={"S": "p1"}, now=1.0)
    a.enter(FIELD, "p2", kind=PERSON_KIND, members={"S": "p2"}, now=1.0)
    shown = {e.entrant: (e.name, e.profile) for e in b.entries(FIELD)}
    assert shown == {"p1": ("Ann", None), "p2": ("Bodkin", "/players/Bodkin")}
    a.library.erase_player("p2", 2.0)
    shown = {e.entrant: (e.name, e.profile) for e in b.entries(FIELD)}
    assert shown == {"p1": ("Ann", None), "p2": ("former player", None)}


def test_the_servers_secret_is_made_once_and_read_alike(stores):
    a, b = stores
    first = a.secret("daily", "1" * 64)
    assert first == "1" * 64 and b.secret("daily", "2" * 64) == first and a.secret("daily", "3" * 64) == first
