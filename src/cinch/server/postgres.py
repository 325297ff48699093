"""The game library in PostgreSQL, for several ``cinch serve`` processes (``--database-url``).

:class:`PgLibrary` keeps the same matches and rooms as the SQLite :class:`~cinch.library.Library`
(the replay viewer and the rooms use either through the same methods), and what a cluster
adds: the ``seq`` and ``rev`` of every room on its row, the log of every action keyed by
``(room, seq)``, and the server processes with the leases by which they drive rooms.  The
schema is Alembic's (:mod:`cinch.server.migrations`), brought up to date when a server opens
the database, under an advisory lock so that processes starting together migrate once.

Calls are synchronous (psycopg 3), made on the server's event loop, as the SQLite library's
are: a room's change is one short transaction on one connection, and nothing else runs on the
loop in the meantime, so that a process never interleaves two changes.  A change's writes
(:meth:`save`, :meth:`save_room`) wait in the transaction until :meth:`finish_change` writes them
with the room's row, so that a change costs one round trip for the lock, one for the writes and
the commit.  Session limits (``lock_timeout``, ``statement_timeout``) bound how long the loop
can wait on another process's lock.
"""

from __future__ import annotations

import builtins
import json
import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict

from cinch.cards import Seat
from cinch.library import (
    _COLUMNS,
    IN_PROGRESS,
    STATUSES,
    LibraryError,
    PlayerTables,
    Run,
    StoredMatch,
    UnknownMatch,
    _id,
    _players,
    _score,
    _seat_or_none,
    _side_or_none,
    match_row,
    table_of,
)
from cinch.match import Match
from cinch.server.store import match_from_record

MIGRATIONS = Path(__file__).parent / "migrations"
MIGRATION_LOCK = 0x63696E6368  # "cinch": the advisory lock under which one process migrates at a time
LIVE = ("playing", "between-deals")  # a room in these needs a process to drive it (bots, timers)
SESSION = {
    # A commit is in the database (every process sees it) before anyone is told, but its WAL reaches the
    # disk a moment later: the SQLite library's `synchronous = NORMAL`.  A server process killed loses
    # nothing; a crash of the database's machine may lose its last fraction of a second.  The URL may say
    # otherwise (``?options=-c%20synchronous_commit%3Don``): its options come after these and win.
    "synchronous_commit": "off",
    "lock_timeout": "5s",  # a change waits at most this long for another process's change of the same room
    "statement_timeout": "15s",
    "idle_in_transaction_session_timeout": "30s",  # a process stopped inside a change frees the room's row
    "application_name": "cinch-serve",
}
_ROOM_STATE = ("SELECT r.code, r.created, r.updated, r.status, r.match_id, r.data, r.seq, r.rev, m.record, "
               "m.first_dealer FROM rooms r LEFT JOIN matches m ON m.id = r.match_id WHERE r.code = %s")


def is_postgres_url(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://"))


def sqlalchemy_url(url: str) -> str:
    """The URL for SQLAlchemy (Alembic): psycopg 3 as the driver."""
    scheme, _, rest = url.partition("://")
    return f"postgresql+psycopg://{rest}"


def redacted(url: str) -> str:
    """The URL without its password, for messages."""
    scheme, sep, rest = url.partition("://")
    creds, at, host = rest.rpartition("@")
    if not at or ":" not in creds:
        return url
    return f"{scheme}{sep}{creds.split(':', 1)[0]}:***@{host}"


def migrate(url: str) -> str | None:
    """Bring the database's schema to the newest version (Alembic ``upgrade head``); the version found before
    (None for an empty database).  Processes that start together take turns (an advisory lock)."""
    from alembic import command
    from alembic.config import Config
    from alembic.runtime.migration import MigrationContext
    from sqlalchemy import create_engine, text
    from sqlalchemy.pool import NullPool

    engine = create_engine(sqlalchemy_url(url), poolclass=NullPool)
    try:
        with engine.begin() as conn:
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
            found = MigrationContext.configure(conn).get_current_revision()
            config = Config()
            config.set_main_option("script_location", str(MIGRATIONS))
            config.attributes["connection"] = conn
            command.upgrade(config, "head")
    finally:
        engine.dispose()
    return found


class PgLibrary(PlayerTables):
    """An open PostgreSQL game library.  Use :meth:`open`.

    The players' storage (:class:`~cinch.library.PlayerTables`) is here too, the SQL shared with SQLite; the
    server keeps it on a connection of its own (a second ``PgLibrary``), whose calls run in worker threads,
    never inside a room's change."""

    readonly = False

    def __init__(self, url: str):
        self.url = url
        self.path = redacted(url)  # (what messages name, as the SQLite library names its file)
        self._conn: psycopg.Connection[Any] | None = None
        self._lock = threading.RLock()
        self.in_change = False
        self.wrote = False  # the change in progress has written (or asked to write) something
        self._matches: dict[int, Match] = {}  # the change's match saves, written when it finishes

    @classmethod
    def open(cls, url: str, *, migrate_schema: bool = True) -> PgLibrary:
        """Connect (and migrate); a :class:`LibraryError` that says which database and why if it cannot."""
        if not is_postgres_url(url):
            raise LibraryError(f"{url!r} is not a PostgreSQL URL (postgresql://USER@HOST:PORT/DATABASE)")
        library = cls(url)
        library.connection()
        if migrate_schema:
            try:
                migrate(url)
            except Exception as e:
                library.close()
                raise LibraryError(f"cannot bring the database {library.path} up to date: {e}") from None
        return library

    @property
    def database(self) -> str:
        return str(self.connection().info.dbname)

    def connection(self) -> psycopg.Connection[Any]:
        """The connection, opened again if it was lost (never within a change: that change fails)."""
        conn = self._conn
        if conn is not None and not conn.closed and not conn.broken:
            return conn
        if self.in_change:
            raise LibraryError(f"the connection to the database {self.path} was lost during a change")
        try:
            ours = " ".join(f"-c {key}={value}" for key, value in SESSION.items())
            theirs = conninfo_to_dict(self.url).get("options") or ""
            conn = psycopg.connect(self.url, autocommit=True, connect_timeout=10, options=f"{ours} {theirs}".strip())
        except psycopg.Error as e:
            raise LibraryError(f"cannot connect to the database {self.path}: {_reason(e)}") from None
        self._conn = conn
        return conn

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __repr__(self) -> str:
        return f"PgLibrary({self.path!r})"

    @contextmanager
    def _errors(self) -> Iterator[None]:
        try:
            yield
        except psycopg.Error as e:
            raise LibraryError(f"the database {self.path}: {_reason(e)}") from None

    def _execute(self, query: str | sql.Composed, args: Any = None) -> psycopg.Cursor[Any]:
        with self._lock, self._errors():
            return self.connection().execute(query, args)

    def _batch(self, statements: builtins.list[tuple[str, tuple[Any, ...]]]) -> builtins.list[
            tuple[builtins.list[tuple[Any, ...]], int]]:
        """Several statements in one round trip to the server (bound on the client: psycopg quotes every
        value); each one's rows and row count.  A change is two such trips: the lock, then its writes with
        the commit."""
        query = "; ".join(q for q, _ in statements)
        args = [a for _, params in statements for a in params]
        out = []
        with self._lock, self._errors():
            cursor = psycopg.ClientCursor(self.connection())
            cursor.execute(query, args)
            while True:
                out.append((cursor.fetchall() if cursor.description else [], cursor.rowcount))
                if not cursor.nextset():
                    break
        return out

    # ---- the players (PlayerTables: the SQL, written with ?, is shared with SQLite) ---------------------------
    def _player_rows(self, query: str, args: tuple[Any, ...] = ()) -> builtins.list[tuple[Any, ...]]:
        cursor = self._execute(query.replace("?", "%s"), args)
        return cursor.fetchall() if cursor.description else []

    @contextmanager
    def _player_change(self) -> Iterator[Run]:
        with self._lock, self._errors():
            conn = self.connection()
            with conn.transaction():
                def run(query: str, args: tuple[Any, ...]) -> builtins.list[tuple[Any, ...]]:
                    cursor = conn.execute(query.replace("?", "%s"), args)
                    return cursor.fetchall() if cursor.description else []

                yield run

    @contextmanager
    def field_change(self) -> Iterator[Run]:
        """(:class:`cinch.server.fields.FieldStore`.)  A write to the duplicate fields: within a table's change, part
        of that change's transaction (the board's last action and its result commit together, or neither); else a
        transaction of its own."""
        if not self.in_change:
            with self._player_change() as run:
                yield run
            return
        self.wrote = True  # (the change then commits through finish_change)
        with self._lock, self._errors():
            conn = self.connection()

            def run(query: str, args: tuple[Any, ...]) -> builtins.list[tuple[Any, ...]]:
                cursor = conn.execute(query.replace("?", "%s"), args)
                return cursor.fetchall() if cursor.description else []

            yield run

    # ---- a room's change: one transaction -------------------------------------------------------------
    def begin(self, code: str, me: str) -> tuple[int, str | None, bool, bool] | None:
        """Begin a change of the room and lock its row: its rev, its driver, whether the driver's lease holds,
        and whether this process's does; None if there is no such room."""
        self._matches.clear()
        self.wrote = False
        self.connection()  # (opened again here if it was lost: never within the change)
        self.in_change = True
        try:
            (_, _), (rows, _) = self._batch([
                ("BEGIN", ()),
                ("SELECT r.rev, r.owner, "
                 "EXISTS (SELECT 1 FROM processes p WHERE p.id = r.owner AND p.alive_until > now()), "
                 "EXISTS (SELECT 1 FROM processes p WHERE p.id = %s AND p.alive_until > now()) "
                 "FROM rooms r WHERE r.code = %s FOR UPDATE", (me, code))])
        except LibraryError:
            self.rollback()
            raise
        if not rows:
            return None
        rev, owner, owner_alive, me_alive = rows[0]
        return int(rev), owner, bool(owner_alive), bool(me_alive)

    def commit(self) -> None:
        try:
            self._execute("COMMIT")
        finally:
            self._end()

    def rollback(self) -> None:
        try:
            conn = self._conn
            if conn is not None and not conn.closed and not conn.broken:
                with self._lock, self._errors():
                    conn.execute("ROLLBACK")
        except LibraryError:
            pass  # a broken connection: the server already rolled the transaction back
        finally:
            self._end()

    def _end(self) -> None:
        self.in_change = False
        self._matches.clear()

    def finish_change(self, code: str, *, status: str, match_id: int | None, seq: int, data: Mapping[str, Any],
                      me: str, actions: Iterable[tuple[int, int, int, str | None, str]]) -> tuple[int, str | None]:
        """(In a change that wrote.)  Write its match saves, its actions and the room's row (rev + 1; the
        driver: this process if the room needs one and its driver's lease ran out, none once the room needs
        none), and commit, in one round trip; the room's new rev and driver.  (On an error nothing is
        written: the caller rolls back.)"""
        statements: builtins.list[tuple[str, tuple[Any, ...]]] = []
        for mid, match in self._matches.items():
            statements.append(_update_match(mid, match))
        rows = builtins.list(actions)
        if rows:
            values = ", ".join(["(%s, %s, %s, %s, %s, %s)"] * len(rows))
            statements.append((f"INSERT INTO actions (room, seq, match_id, deal, seat, action) VALUES {values}",
                               tuple(x for row in rows for x in (code, *row))))
        statements.append((
            "UPDATE rooms SET rev = rev + 1, seq = %s, status = %s, match_id = %s, data = %s, updated = now(), "
            "owner = CASE WHEN %s NOT IN ('playing', 'between-deals') THEN NULL WHEN owner IS NOT NULL AND EXISTS "
            "(SELECT 1 FROM processes p WHERE p.id = owner AND p.alive_until > now()) THEN owner ELSE %s END "
            "WHERE code = %s RETURNING rev, owner", (seq, status, match_id, json.dumps(data), status, me, code)))
        statements.append(("COMMIT", ()))
        results = self._batch(statements)
        for mid, (_, count) in zip(self._matches, results, strict=False):
            if count == 0:  # (a match row gone: the commit went through without it; say so)
                raise UnknownMatch(f"no match {mid} in the database {self.path}")
        self._end()
        found = results[-2][0]
        if not found:
            raise LibraryError(f"room {code} is not in the database {self.path}")
        return int(found[0][0]), found[0][1]

    def room_state(self, code: str) -> dict[str, Any] | None:
        """The room's row with its match's record: what another process must take to hold the room as stored
        (one statement, so one snapshot of both)."""
        row = self._execute(_ROOM_STATE, (code,)).fetchone()
        return None if row is None else _room_row(row)

    def find_room(self, code: str, keep_over: float, keep_waiting: float) -> dict[str, Any] | None:
        """The room a client names, as :meth:`room_state`, unless it is closed or expired: over for longer
        than ``keep_over`` seconds, or waiting unstarted for longer than ``keep_waiting``."""
        row = self._execute(
            _ROOM_STATE + " AND r.status IN ('waiting', 'playing', 'between-deals', 'over') "
            "AND NOT (r.status = 'over' AND r.updated < now() - make_interval(secs => %s)) "
            "AND NOT (r.status = 'waiting' AND r.updated < now() - make_interval(secs => %s))",
            (code, keep_over, keep_waiting)).fetchone()
        return None if row is None else _room_row(row)

    def create_room(self, code: str, *, status: str, data: Mapping[str, Any]) -> bool:
        """A new room; False if the code is taken (by another process, a moment ago)."""
        row = self._execute(
            "INSERT INTO rooms (code, status, data) VALUES (%s, %s, %s) ON CONFLICT (code) DO NOTHING RETURNING rev",
            (code, status, json.dumps(data))).fetchone()
        return row is not None

    def lobby_rooms(self, keep_waiting: float, limit: int = 500) -> builtins.list[dict[str, Any]]:
        """The rooms not over and not expired, newest first (their data, not their records)."""
        rows = self._execute(
            "SELECT code, created, updated, status, match_id, data, seq, rev FROM rooms "
            "WHERE status IN ('playing', 'between-deals') OR (status = 'waiting' AND updated >= now() - "
            "make_interval(secs => %s)) ORDER BY created DESC LIMIT %s", (keep_waiting, limit)).fetchall()
        return [_room_row((*row, None, None)) for row in rows]

    def revs(self, codes: Iterable[str]) -> dict[str, int]:
        rows = self._execute("SELECT code, rev FROM rooms WHERE code = ANY(%s)", (builtins.list(codes),)).fetchall()
        return {code: int(rev) for code, rev in rows}

    # ---- the processes and who drives which room ---------------------------------------------------------
    def heartbeat(self, me: str, lease: float) -> None:
        """This process is alive for ``lease`` seconds more."""
        self._execute(
            "INSERT INTO processes (id, alive_until) VALUES (%s, now() + make_interval(secs => %s)) "
            "ON CONFLICT (id) DO UPDATE SET alive_until = excluded.alive_until", (me, lease))

    def live_processes(self) -> set[str]:
        rows = self._execute("SELECT id FROM processes WHERE alive_until > now()").fetchall()
        return {r[0] for r in rows}

    def claim_orphans(self, me: str, limit: int = 100) -> builtins.list[str]:
        """Take the rooms that need a driver and have none alive (its process died): ``SKIP LOCKED``, so
        that two processes sweeping at once never take the same room, and a room in the middle of a change
        is taken at the next sweep."""
        rows = self._execute(
            "UPDATE rooms SET owner = %(me)s WHERE code IN (SELECT r.code FROM rooms r "
            "WHERE r.status IN ('playing', 'between-deals') AND NOT EXISTS (SELECT 1 FROM processes p "
            "WHERE p.id = r.owner AND p.alive_until > now()) ORDER BY r.updated LIMIT %(limit)s "
            "FOR UPDATE SKIP LOCKED) RETURNING code", {"me": me, "limit": limit}).fetchall()
        return [r[0] for r in rows]

    def driven_by(self, me: str) -> set[str]:
        rows = self._execute("SELECT code FROM rooms WHERE owner = %s", (me,)).fetchall()
        return {r[0] for r in rows}

    def release(self, me: str, codes: Iterable[str] | None = None) -> None:
        """This process stops driving rooms (all of them: it is shutting down)."""
        if codes is None:
            self._execute("UPDATE rooms SET owner = NULL WHERE owner = %s", (me,))
        else:
            self._execute("UPDATE rooms SET owner = NULL WHERE owner = %s AND code = ANY(%s)",
                          (me, builtins.list(codes)))

    def leave(self, me: str) -> None:
        self.release(me)
        self._execute("DELETE FROM processes WHERE id = %s OR alive_until < now() - interval '1 day'", (me,))

    # ---- the Library's methods ------------------------------------------------------------------------------
    def new_match(self, match: Match, *, human_seat: Seat | None, seed: int | None, frontend: str,
                  players: Mapping[Seat, str] | None = None) -> int:
        names = dict(players if players is not None else match.players)
        row = match_row(match)
        self.wrote = True
        found = self._execute(
            "INSERT INTO matches (rules, rules_json, players, human_seat, seed, frontend, status, score_ns, "
            "score_ew, scores, winner, deals, deal_number, action_number, first_dealer, record) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING id",
            (match.rules.name, json.dumps(match.rules.to_json()),
             json.dumps({s.name: str(names[s]) for s in match.table.seats if s in names}),
             None if human_seat is None else match.table.seats[human_seat].name, seed, frontend, row["status"],
             row["score_ns"], row["score_ew"], row["scores"], row["winner"], row["deals"], row["deal_number"],
             row["action_number"], match.first_dealer.name, row["record"])).fetchone()
        assert found is not None
        return int(found[0])

    def save(self, match_id: int, match: Match) -> None:
        """Rewrite the match's record and metadata; within a change, when the change finishes."""
        if self.in_change:
            self.wrote = True
            self._matches[int(match_id)] = match
            return
        self._write_match(int(match_id), match)

    def finish(self, match_id: int, match: Match) -> None:
        if not match.is_over:
            raise LibraryError(f"match {match_id} is not over: it cannot be marked finished")
        self.save(match_id, match)

    def _write_match(self, match_id: int, match: Match) -> None:
        done = self._execute(*_update_match(match_id, match))
        if done.rowcount == 0:
            raise UnknownMatch(f"no match {match_id} in the database {self.path}")

    def save_room(self, code: str, *, status: str, match_id: int | None, data: Mapping[str, Any]) -> None:
        """Store a room; within a change, the room's row is written when the change finishes."""
        if self.in_change:
            self.wrote = True
            return
        self._execute(
            "INSERT INTO rooms (code, status, match_id, data) VALUES (%s, %s, %s, %s) ON CONFLICT (code) DO UPDATE "
            "SET updated = now(), status = excluded.status, match_id = excluded.match_id, data = excluded.data, "
            "rev = rooms.rev + 1", (code, status, match_id, json.dumps(data)))

    def rooms(self, statuses: tuple[str, ...] | None = None) -> builtins.list[dict[str, Any]]:
        query = "SELECT code, created, updated, status, match_id, data, seq, rev FROM rooms"
        args: tuple[Any, ...] = ()
        if statuses is not None:
            query += " WHERE status = ANY(%s)"
            args = (builtins.list(statuses),)
        rows = self._execute(query + " ORDER BY created, code", args).fetchall()
        return [_room_row((*row, None, None)) for row in rows]

    def get(self, match_id: int) -> StoredMatch:
        row = self._execute(f"SELECT {_COLUMNS} FROM matches WHERE id = %s", (_id(match_id),)).fetchone()
        if row is None:
            raise UnknownMatch(f"no match {match_id} in the database {self.path}")
        return _stored(row)

    def list(self, limit: int | None = None, status: str | None = None) -> builtins.list[StoredMatch]:
        if status is not None and status not in STATUSES:
            raise LibraryError(f"unknown status {status!r}; the statuses are {', '.join(STATUSES)}")
        query = f"SELECT {_COLUMNS} FROM matches"
        args: builtins.list[Any] = []
        if status is not None:
            query += " WHERE status = %s"
            args.append(status)
        query += " ORDER BY updated DESC, id DESC"
        if limit is not None:
            query += " LIMIT %s"
            args.append(int(limit))
        return [_stored(row) for row in self._execute(query, args).fetchall()]

    def unfinished(self) -> builtins.list[StoredMatch]:
        return self.list(status=IN_PROGRESS)

    def count(self) -> int:
        row = self._execute("SELECT count(*) FROM matches").fetchone()
        return int(row[0]) if row else 0

    def record_text(self, match_id: int) -> str:
        stored = self.get(match_id)
        stored.record  # noqa: B018 -- raises DamagedRecord if it is not a record
        return stored.record_text

    def replay(self, match_id: int) -> Match:
        stored = self.get(match_id)
        return match_from_record(stored.record_text, None if stored.first_dealer is None else stored.first_dealer.name,
                                 stored.id)

    def resume(self, match_id: int) -> Match:
        """The stored match where it stands (a room's match: finished or not, another process may hold it)."""
        return self.replay(match_id)

    load_match = resume


def _update_match(match_id: int, match: Match) -> tuple[str, tuple[Any, ...]]:
    row = match_row(match)
    return ("UPDATE matches SET updated = now(), players = %s, status = %s, score_ns = %s, score_ew = %s, "
            "scores = %s, winner = %s, deals = %s, deal_number = %s, action_number = %s, record = %s WHERE id = %s",
            (row["players"], row["status"], row["score_ns"], row["score_ew"], row["scores"], row["winner"],
             row["deals"], row["deal_number"], row["action_number"], row["record"], match_id))


def _room_row(row: tuple[Any, ...]) -> dict[str, Any]:
    code, created, updated, status, match_id, data, seq, rev, record, first_dealer = row
    try:
        decoded = orjson.loads(data)
    except (TypeError, ValueError):
        decoded = {}
    return {"code": code, "created": _iso(created), "updated": _iso(updated), "status": status,
            "match_id": None if match_id is None else int(match_id), "data": decoded, "seq": int(seq),
            "rev": int(rev), "record": record, "first_dealer": first_dealer}


def _iso(value: Any) -> str:
    return value.astimezone(UTC).isoformat(timespec="microseconds") if isinstance(value, datetime) else str(value)


def _stored(row: tuple[Any, ...]) -> StoredMatch:
    (id_, created, updated, rules, rules_json, players, human, seed, frontend, status, ns, ew, winner, deals,
     deal_number, action_number, first_dealer, record, scores) = row
    try:
        spec = json.loads(rules_json)
    except (TypeError, ValueError):
        spec = rules
    table = table_of(spec)  # (seats N E S W, or 1 to n at a cut-throat table; read as the SQLite library reads)
    return StoredMatch(
        id=int(id_), created=created, updated=updated, rules=str(rules), rules_json=spec,
        players=_players(players, table), human_seat=_seat_or_none(human, table), seed=seed, frontend=str(frontend),
        status=str(status), score=_score(scores, table, (int(ns), int(ew))), winner=_side_or_none(winner, table),
        deals=int(deals), position=(int(deal_number), int(action_number)),
        first_dealer=_seat_or_none(first_dealer, table), record_text=str(record))


def _reason(e: psycopg.Error) -> str:
    text = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    if isinstance(e, psycopg.errors.LockNotAvailable):
        return f"another server process held the room too long ({text}); try again"
    return text


__all__ = ["LIVE", "PgLibrary", "is_postgres_url", "migrate", "redacted", "sqlalchemy_url"]
