"""Duplicate fields on the server: boards that everyone in a field plays, its entrants and their results.

A **field** is a set of boards (a :class:`~cinch.duplicate.DealSet`) and the entrants who play them: the day's
set of a preset (:mod:`cinch.server.daily`), or a private event.  An **entrant** is a person (a daily session:
one player in South), a partnership at an event's table (two players, or bots), or the robot table; the players
behind an entrant are kept by id only (``duplicate_members``), and their names are joined from the players'
table each time they are shown, so that a deleted account's name is gone from every field at once.  A
**result** is one entrant's play of one board: its number (NS's score change less EW's, what matchpoints
compare), its summary and its ``cinch/1`` record; the key ``(field, board, entrant)`` counts it once, however
often it is sent (a retry, a process killed and started again, two processes of a cluster).

:class:`FieldStore` reads and writes the tables of :data:`cinch.library.FIELD_TABLES` through any store of the
players' shape (the SQLite game library, or :class:`cinch.server.postgres.PgLibrary`): one SQL for both.  Times
are seconds since 1970, given by the caller's clock.  Inside a table's change on PostgreSQL, a result is written
in that change's own transaction (:meth:`PgLibrary.field_change`), so that the board's last action and its result
are committed together or not at all.

>>> import tempfile, os
>>> from cinch.library import Library
>>> store = FieldStore(Library.open(os.path.join(tempfile.mkdtemp(), "games.sqlite3")))
>>> store.open_field("event/X", kind="event", family="pagat", deal_set={"deals": 1}, data={}, now=0.0)[0].status
'open'
>>> store.enter("event/X", "robots", kind=ROBOTS_KIND, label="robot table", now=0.0)[1]
True
>>> store.add_result("event/X", 1, "robots", 15, {"result": 15}, "{}", now=1.0, boards=1)
True
>>> store.add_result("event/X", 1, "robots", 15, {"result": 15}, "{}", now=2.0, boards=1)  # counted once
False
>>> store.entry("event/X", "robots").status, store.scores("event/X")
('finished', {'robots': [(1, 15)]})
"""

from __future__ import annotations

import builtins
import contextlib
import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from cinch.library import ACCOUNT, DELETED, FORMER_PLAYER, Run

OPEN, FINAL = "open", "final"
PLAYING, FINISHED = "playing", "finished"
PERSON_KIND, PAIR_KIND, ROBOTS_KIND = "person", "pair", "robots"

_FIELD = "id, kind, family, created, closes, status, final, deal_set, data"
_ENTRY = ("e.field_id, e.entrant, e.kind, e.label, e.table_code, e.created, e.updated, e.status, e.boards, e.rank, "
          "e.percentage, e.total")
_RESULT = "field_id, board, entrant, result, match_id, created, data"


@dataclass(frozen=True)
class Member:
    """A player behind an entrant, in one seat: the id, and the name and kind the players' table has now."""

    seat: str
    player_id: str
    name: str | None  # None once the player is deleted
    kind: str | None  # guest, account, deleted (None: no such player)

    @property
    def shown(self) -> str:
        return self.name if self.name is not None and self.kind != DELETED else FORMER_PLAYER


@dataclass(frozen=True)
class StoredField:
    id: str
    kind: str
    family: str
    created: float
    closes: float | None
    status: str  # OPEN or FINAL
    final: float | None
    deal_set: dict[str, Any]  # the set as published (commitments, no salts)
    data: dict[str, Any]

    @property
    def is_final(self) -> bool:
        return self.status == FINAL


@dataclass(frozen=True)
class StoredEntry:
    field_id: str
    entrant: str
    kind: str  # PERSON_KIND, PAIR_KIND or ROBOTS_KIND
    label: str | None
    table_code: str | None
    created: float
    updated: float
    status: str  # PLAYING or FINISHED
    boards: int
    rank: int | None = None  # once the field is final
    percentage: float | None = None
    total: int | None = None
    members: tuple[Member, ...] = field(default=())

    @property
    def name(self) -> str:
        """How the entrant is shown: its members' names now (``Ann & Bo``), or its label (the robot table)."""
        if self.members:
            return " & ".join(m.shown for m in self.members)
        return self.label or self.entrant

    @property
    def profile(self) -> str | None:
        """A person's profile page, when the person is an account."""
        if len(self.members) == 1 and self.members[0].kind == ACCOUNT and self.members[0].name is not None:
            from urllib.parse import quote

            return "/players/" + quote(self.members[0].name, safe="")
        return None


@dataclass(frozen=True)
class StoredResult:
    field_id: str
    board: int
    entrant: str
    result: int
    match_id: int | None
    created: float
    data: dict[str, Any]  # cinch.duplicate.BoardResult.to_json() without its record


def _json(text: Any, default: Any) -> Any:
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        return default
    return value if isinstance(value, type(default)) else default


def _field(row: tuple[Any, ...]) -> StoredField:
    return StoredField(str(row[0]), str(row[1]), str(row[2]), float(row[3]), None if row[4] is None else float(row[4]),
                       str(row[5]), None if row[6] is None else float(row[6]), _json(row[7], {}), _json(row[8], {}))


def _entry(row: tuple[Any, ...], members: tuple[Member, ...] = ()) -> StoredEntry:
    return StoredEntry(str(row[0]), str(row[1]), str(row[2]), row[3], row[4], float(row[5]), float(row[6]),
                       str(row[7]), int(row[8]), None if row[9] is None else int(row[9]),
                       None if row[10] is None else float(row[10]), None if row[11] is None else int(row[11]), members)


def _result(row: tuple[Any, ...]) -> StoredResult:
    return StoredResult(str(row[0]), int(row[1]), str(row[2]), int(row[3]), None if row[4] is None else int(row[4]),
                        float(row[5]), _json(row[6], {}))


Ranker = Callable[[dict[str, list[tuple[int, int]]]], Iterable[tuple[str, int, float, int]]]
"""Ranks a field from each finished entrant's (board, result) pairs: (entrant, rank, percentage, total) each."""


class FieldStore:
    """The duplicate fields in a store of the players' shape (see the module's docstring)."""

    def __init__(self, library: Any):
        self.library = library

    def _rows(self, sql: str, args: tuple[Any, ...] = ()) -> builtins.list[tuple[Any, ...]]:
        rows: builtins.list[tuple[Any, ...]] = self.library._player_rows(sql, args)
        return rows

    @contextlib.contextmanager
    def _change(self) -> Iterator[Run]:
        """One transaction; within a table's change on PostgreSQL, that change's transaction."""
        joined = getattr(self.library, "field_change", None)
        with (joined() if joined is not None else self.library._player_change()) as run:
            yield run

    # ---- the server's secrets ------------------------------------------------------------------------------
    def secret(self, name: str, fresh: str) -> str:
        """The secret called ``name``: the one stored, or ``fresh``, stored now (the first process to ask makes
        it; every other process of a cluster reads the same)."""
        with self._change() as run:
            run("INSERT INTO duplicate_secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
                (name, fresh))
            rows = run("SELECT value FROM duplicate_secrets WHERE name = ?", (name,))
        return str(rows[0][0])

    # ---- fields ------------------------------------------------------------------------------------------------
    def open_field(self, field_id: str, *, kind: str, family: str, deal_set: Mapping[str, Any],
                   data: Mapping[str, Any], now: float, closes: float | None = None) -> tuple[StoredField, bool]:
        """The field ``field_id``, made now if it is new (else as it was made: the first process wins); whether this
        call made it."""
        with self._change() as run:
            row = (field_id, kind, family, now, closes, OPEN, None, json.dumps(deal_set), json.dumps(data))
            made = run(f"INSERT INTO duplicate_fields ({_FIELD}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) "
                       "DO NOTHING RETURNING id", row)
            rows = run(f"SELECT {_FIELD} FROM duplicate_fields WHERE id = ?", (field_id,))
        return _field(rows[0]), bool(made)

    def field(self, field_id: str) -> StoredField | None:
        rows = self._rows(f"SELECT {_FIELD} FROM duplicate_fields WHERE id = ?", (field_id,))
        return _field(rows[0]) if rows else None

    def fields(self, kind: str | None = None, status: str | None = None, closing_by: float | None = None,
               limit: int = 200) -> builtins.list[StoredField]:
        """The fields (of a kind, with a status, closing by a time), the newest first."""
        where: builtins.list[str] = []
        args: builtins.list[Any] = []
        for column, value in (("kind", kind), ("status", status)):
            if value is not None:
                where.append(f"{column} = ?")
                args.append(value)
        if closing_by is not None:
            where.append("closes IS NOT NULL AND closes <= ?")
            args.append(closing_by)
        sql = f"SELECT {_FIELD} FROM duplicate_fields" + (" WHERE " + " AND ".join(where) if where else "")
        return [_field(r) for r in self._rows(sql + " ORDER BY created DESC, id LIMIT ?", (*args, int(limit)))]

    def save_field_data(self, field_id: str, data: Mapping[str, Any]) -> None:
        with self._change() as run:
            run("UPDATE duplicate_fields SET data = ? WHERE id = ?", (json.dumps(data), field_id))

    def finalize(self, field_id: str, now: float, rank: Ranker) -> bool:
        """Make the field's results final, once: its finished entrants ranked (``rank``) and their ranks kept.
        True for the one caller that made it final (the one to rate it); False if it was final already."""
        with self._change() as run:
            if not run("UPDATE duplicate_fields SET status = ?, final = ? WHERE id = ? AND status = ? RETURNING id",
                       (FINAL, now, field_id, OPEN)):
                return False
            scores = self._scores(run, field_id)
            for entrant, place, percentage, total in rank(scores):
                run("UPDATE duplicate_entries SET rank = ?, percentage = ?, total = ? WHERE field_id = ? AND "
                    "entrant = ?", (place, percentage, total, field_id, entrant))
        return True

    # ---- entrants ----------------------------------------------------------------------------------------------
    def enter(self, field_id: str, entrant: str, *, kind: str, now: float, members: Mapping[str, str] | None = None,
              label: str | None = None, table_code: str | None = None) -> tuple[StoredEntry, bool]:
        """The entrant in the field, entered now if new (``members``: player ids by seat); whether it is new.
        An entrant enters a field once: a second call finds the first's entry, its table's code included."""
        with self._change() as run:
            made = run("INSERT INTO duplicate_entries (field_id, entrant, kind, label, table_code, created, updated, "
                       "status, boards) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0) ON CONFLICT (field_id, entrant) DO NOTHING "
                       "RETURNING entrant", (field_id, entrant, kind, label, table_code, now, now, PLAYING))
            if made:
                for seat, player_id in (members or {}).items():
                    run("INSERT INTO duplicate_members (field_id, entrant, seat, player_id) VALUES (?, ?, ?, ?) "
                        "ON CONFLICT DO NOTHING", (field_id, entrant, seat, player_id))
        found = self.entry(field_id, entrant)
        assert found is not None
        return found, bool(made)

    def entry(self, field_id: str, entrant: str) -> StoredEntry | None:
        found = self.entries(field_id, entrant=entrant)
        return found[0] if found else None

    def entries(self, field_id: str, *, status: str | None = None,
                entrant: str | None = None) -> builtins.list[StoredEntry]:
        """The field's entrants (with a status), each with its members' names as the players' table has them now;
        the first entered first."""
        where, args = ["e.field_id = ?"], [field_id]
        for column, value in (("e.status", status), ("e.entrant", entrant)):
            if value is not None:
                where.append(f"{column} = ?")
                args.append(value)
        rows = self._rows(f"SELECT {_ENTRY} FROM duplicate_entries e WHERE {' AND '.join(where)} "
                          "ORDER BY e.created, e.entrant", tuple(args))
        members = self._members(field_id, None if entrant is None else [entrant])
        return [_entry(r, members.get(str(r[1]), ())) for r in rows]

    def _members(self, field_id: str, entrants: builtins.list[str] | None) -> dict[str, tuple[Member, ...]]:
        sql = ("SELECT m.entrant, m.seat, m.player_id, p.name, p.kind FROM duplicate_members m LEFT JOIN players p "
               "ON p.id = m.player_id WHERE m.field_id = ?")
        args: tuple[Any, ...] = (field_id,)
        if entrants is not None:
            sql += f" AND m.entrant IN ({', '.join('?' * len(entrants))})"
            args += tuple(entrants)
        out: dict[str, builtins.list[Member]] = {}
        for entrant, seat, player_id, name, kind in self._rows(sql + " ORDER BY m.entrant, m.seat", args):
            out.setdefault(str(entrant), []).append(Member(str(seat), str(player_id), name, kind))
        return {k: tuple(v) for k, v in out.items()}

    def player_entries(self, player_id: str, kind: str | None = None,
                       limit: int = 60) -> builtins.list[tuple[StoredField, StoredEntry]]:
        """The fields a player entered (of a kind), the newest first, each with the player's entry."""
        sql = (f"SELECT {', '.join('f.' + c for c in _FIELD.split(', '))}, {_ENTRY} FROM duplicate_members m "
               "JOIN duplicate_entries e ON e.field_id = m.field_id AND e.entrant = m.entrant "
               "JOIN duplicate_fields f ON f.id = m.field_id WHERE m.player_id = ?")
        args: tuple[Any, ...] = (player_id,)
        if kind is not None:
            sql += " AND f.kind = ?"
            args += (kind,)
        rows = self._rows(sql + " ORDER BY f.created DESC, f.id LIMIT ?", (*args, int(limit)))
        width = len(_FIELD.split(", "))
        return [(_field(r[:width]), _entry(r[width:])) for r in rows]

    def ranked(self, field_ids: Iterable[str]) -> dict[str, int]:
        """How many entrants each final field ranked."""
        ids = builtins.list(field_ids)
        if not ids:
            return {}
        rows = self._rows(f"SELECT field_id, count(*) FROM duplicate_entries WHERE rank IS NOT NULL AND field_id IN "
                          f"({', '.join('?' * len(ids))}) GROUP BY field_id", tuple(ids))
        return {str(f): int(n) for f, n in rows}

    # ---- results -----------------------------------------------------------------------------------------------
    def add_result(self, field_id: str, board: int, entrant: str, result: int, data: Mapping[str, Any], record: str,
                   *, now: float, boards: int, match_id: int | None = None) -> bool:
        """The entrant's result on ``board``, counted once: False if it had one already (nothing changes).  The
        entrant is finished once it has a result on every one of the field's ``boards``."""
        with self._change() as run:
            if not run("INSERT INTO duplicate_results (field_id, board, entrant, result, match_id, created, data, "
                       "record) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (field_id, board, entrant) DO NOTHING "
                       "RETURNING board", (field_id, board, entrant, int(result), match_id, now, json.dumps(data),
                                           record)):
                return False
            run("UPDATE duplicate_entries SET boards = boards + 1, updated = ?, status = CASE WHEN boards + 1 >= ? "
                "THEN ? ELSE status END WHERE field_id = ? AND entrant = ?", (now, boards, FINISHED, field_id, entrant))
        return True

    def result(self, field_id: str, board: int, entrant: str) -> StoredResult | None:
        rows = self._rows(f"SELECT {_RESULT} FROM duplicate_results WHERE field_id = ? AND board = ? AND entrant = ?",
                          (field_id, board, entrant))
        return _result(rows[0]) if rows else None

    def board_results(self, field_id: str, board: int) -> builtins.list[StoredResult]:
        """Every result on a board so far (without the records), the first played first."""
        rows = self._rows(f"SELECT {_RESULT} FROM duplicate_results WHERE field_id = ? AND board = ? "
                          "ORDER BY created, entrant", (field_id, board))
        return [_result(r) for r in rows]

    def record(self, field_id: str, board: int, entrant: str) -> str | None:
        """The ``cinch/1`` record of an entrant's board."""
        rows = self._rows("SELECT record FROM duplicate_results WHERE field_id = ? AND board = ? AND entrant = ?",
                          (field_id, board, entrant))
        return str(rows[0][0]) if rows else None

    def scores(self, field_id: str) -> dict[str, builtins.list[tuple[int, int]]]:
        """What ranks the field: each finished entrant's (board, result) pairs."""
        return self._scores(self._rows, field_id)

    @staticmethod
    def _scores(run: Run, field_id: str) -> dict[str, builtins.list[tuple[int, int]]]:
        out: dict[str, builtins.list[tuple[int, int]]] = {}
        for entrant, board, result in run(
                "SELECT r.entrant, r.board, r.result FROM duplicate_results r JOIN duplicate_entries e ON "
                "e.field_id = r.field_id AND e.entrant = r.entrant WHERE r.field_id = ? AND e.status = ? "
                "ORDER BY r.entrant, r.board", (field_id, FINISHED)):
            out.setdefault(str(entrant), []).append((int(board), int(result)))
        return out


__all__ = ["FINAL", "FINISHED", "FieldStore", "Member", "OPEN", "PAIR_KIND", "PERSON_KIND", "PLAYING", "ROBOTS_KIND",
           "Ranker", "StoredEntry", "StoredField", "StoredResult"]
