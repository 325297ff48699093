"""The local game library: every match played, finished or not, in one SQLite file.

Each match is kept as its ``cinch/1`` record (``shared/RECORD.md``) with a row of
metadata beside it: when it was played, the rules, who sat where, the seed, the
front end, its status, the score, the winner and the position last saved.  The
record is rewritten after every action, each write one transaction, so a crash
or Ctrl-C loses nothing and two programs may use the library at once (the file
is in WAL mode and a writer waits for another's transaction to end).

>>> import tempfile, os
>>> from cinch import Rules, Seat
>>> from cinch.match import Match
>>> lib = Library.open(os.path.join(tempfile.mkdtemp(), "games.sqlite3"))
>>> m = Match(Rules.preset("pagat"), players={s: "you" if s is Seat.S else "basic" for s in Seat}, rng=3)
>>> match_id = lib.new_match(m, human_seat=Seat.S, seed=3, frontend="plain", players=m.players)
>>> _ = m.start_deal(); lib.save(match_id, m)
>>> stored = lib.get(match_id)
>>> stored.status, stored.position, stored.score, stored.record["format"]
('in_progress', (1, 0), (0, 0), 'cinch/1')
>>> lib.resume(match_id).current.to_act == m.current.to_act
True
>>> lib.close()
"""

from __future__ import annotations

import builtins
import contextlib
import json
import os
import random
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cinch.cards import Seat, Team
from cinch.errors import CinchError, RecordError, RulesError, quoted
from cinch.match import Match
from cinch.record import dumps as record_dumps
from cinch.record import loads, record_text, replay, sheet_text
from cinch.rules import Rules
from cinch.scorekeeper import ScoreSheet
from cinch.seating import FOUR, Seating

SCHEMA_VERSION = 6
SCORES_VERSION = 3  # the schema that added matches.scores
READS_FROM = 2  # a reader also reads a library of this schema or later unchanged (a writer migrates it)
ENV_VAR = "CINCH_DB"
FILE_NAME = "games.sqlite3"
BUSY_TIMEOUT_MS = 15_000  # how long a writer waits for another program's transaction

IN_PROGRESS = "in_progress"
FINISHED = "finished"
ABANDONED = "abandoned"
STATUSES = (IN_PROGRESS, FINISHED, ABANDONED)
STATUS_WORDS = {IN_PROGRESS: "in progress", FINISHED: "finished", ABANDONED: "abandoned"}
SCOREKEEPER = "score"  # the front end of a match played with real cards and kept by `cinch score`


# ---- errors ----------------------------------------------------------------------------------------
class LibraryError(CinchError):
    """The game library cannot be opened, read or written."""


class UnknownMatch(LibraryError):
    """No match with that id is in the library."""


class DamagedRecord(LibraryError):
    """A stored record that is not valid JSON or does not replay."""


class NoLibrary(LibraryError):
    """No library file at the path, and the command only reads (it never creates one)."""


class _CannotOpen(Exception):
    """SQLite could not read the file as asked: a WAL library whose -shm file it may not create."""


def _cannot_open_shared_memory(e: sqlite3.Error) -> bool:
    # SQLite says SQLITE_READONLY for a folder the user may not write, SQLITE_CANTOPEN on a read-only mount.
    name = getattr(e, "sqlite_errorname", "")
    return name.startswith("SQLITE_READONLY") or name.startswith("SQLITE_CANTOPEN")


# ---- where the library lives ---------------------------------------------------------------------------
def default_path() -> Path:
    """``$CINCH_DB`` if set, else ``games.sqlite3`` in the user's data folder for cinch."""
    env = os.environ.get(ENV_VAR, "").strip()
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("cinch", appauthor=False)) / FILE_NAME


def resolve_path(path: str | os.PathLike[str] | None = None) -> Path:
    """The library file: ``path`` if given (``--db``), else :func:`default_path`.

    An empty ``path`` is refused rather than read as "not given": ``--db ''`` is most
    likely a variable that was meant to hold a path.
    """
    if path is None:
        return default_path()
    if not str(path).strip():
        raise LibraryError("--db needs a path to the game library file (leave --db out to use $CINCH_DB "
                           "or the default library)")
    return Path(path).expanduser()


# ---- never writing over a library ---------------------------------------------------------------------------
SQLITE_HEADER = b"SQLite format 3\x00"  # the first 16 bytes of every SQLite database
SIDE_FILES = ("-wal", "-shm", "-journal")  # SQLite's files beside a database, part of it while it is in use


def refuse_overwriting_library(out_path: str | os.PathLike[str], library_path: str | os.PathLike[str] | None = None,
                               *, what: str = "the file") -> None:
    """Refuse to write ``what`` (a record, a plot, a dataset ...) to ``out_path`` where that would destroy
    a game library: a :class:`LibraryError` naming both paths.

    Refused: the library in use (``library_path``, as ``--db`` takes it; None: ``$CINCH_DB`` or the
    default), however the two are named (a relative path, a symlink, another hard link), whether or
    not it exists yet; its ``-wal``, ``-shm`` and ``-journal`` files; and any file that begins with the
    SQLite header (another library, another program's database).  Every command that writes a file
    the user names asks here first, before it opens the library or plays anything.
    """
    out = Path(out_path).expanduser()
    library = resolve_path(library_path)
    for suffix in ("", *SIDE_FILES):
        if _same_file(out, Path(f"{library}{suffix}")):
            whose = "the game library" if not suffix else f"the {suffix} file of the game library"
            raise LibraryError(f"will not write {what} to {out_path}: it is {whose} {library}; "
                               "give another file name")
    if _is_sqlite(out):
        raise LibraryError(f"will not write {what} to {out_path}: it is an SQLite database, perhaps a game "
                           f"library (the one in use is {library}); give another file name")


def refuse_writing_into(folder: str | os.PathLike[str], names: Iterable[str],
                        library_path: str | os.PathLike[str] | None = None, *, what: str = "the files") -> None:
    """:func:`refuse_overwriting_library` for a command that writes ``names`` into ``folder`` (``cinch arena``,
    ``cinch study``): neither the folder itself nor any of those files may be a library or an SQLite file,
    and a folder among ``names`` (the arena's ``records``) may not hold the library in use."""
    refuse_overwriting_library(folder, library_path, what=what)
    library = _resolved(resolve_path(library_path))
    for name in names:
        target = Path(folder).expanduser() / name
        if target.is_dir():
            if library.is_relative_to(_resolved(target)):
                raise LibraryError(f"will not write {what} into {target}: the game library {library} is in it; "
                                   "give another folder")
        else:
            refuse_overwriting_library(target, library_path, what=what)


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # a symlink loop, a folder that cannot be entered
        return path.absolute()


def _same_file(a: Path, b: Path) -> bool:
    """Whether ``a`` and ``b`` name one file: the same path once resolved (it may not exist yet), or the
    same file on disk (hard links, a case-insensitive file system)."""
    if _resolved(a) == _resolved(b):
        return True
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):  # one of them does not exist (yet)
        return False


def _is_sqlite(path: Path) -> bool:
    """Whether ``path`` is a regular file that begins with the SQLite header (a FIFO or device is not read)."""
    try:
        if not path.is_file():
            return False
        with open(path, "rb") as f:
            return f.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except (OSError, ValueError):  # unreadable: writing it will fail too, and say why
        return False


# ---- schema ------------------------------------------------------------------------------------------
def _migrate_0_to_1(conn: sqlite3.Connection) -> None:
    conn.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    conn.execute(
        """CREATE TABLE matches (
            id INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused, so `cinch replay 12` stays 12
            created TEXT NOT NULL,                 -- ISO 8601, UTC
            updated TEXT NOT NULL,
            rules TEXT NOT NULL,                   -- the rules' name: a preset, with + when options change
            rules_json TEXT NOT NULL,              -- the record's "rules": a preset name or an object
            players TEXT NOT NULL,                 -- JSON {"N": "basic", "S": "you", ...}
            human_seat TEXT,                       -- N E S W, or NULL when no one plays
            seed INTEGER,
            frontend TEXT NOT NULL,                -- plain, tui, ...
            status TEXT NOT NULL,                  -- in_progress, finished, abandoned
            score_ns INTEGER NOT NULL,
            score_ew INTEGER NOT NULL,
            winner TEXT,                           -- NS, EW or NULL
            deals INTEGER NOT NULL,
            deal_number INTEGER NOT NULL,          -- the position last saved: the deal ...
            action_number INTEGER NOT NULL,        -- ... and the number of its actions
            first_dealer TEXT,                     -- N E S W: a record with no deal yet does not say
            record TEXT NOT NULL                   -- the cinch/1 record
        )"""
    )
    conn.execute("CREATE INDEX matches_by_update ON matches (status, updated)")


def _migrate_1_to_2(conn: sqlite3.Connection) -> None:
    # The rooms of `cinch serve`: their seats, settings and matches, so that a restarted server goes on.
    conn.execute(
        """CREATE TABLE rooms (
            code TEXT PRIMARY KEY,                 -- the invite code
            created TEXT NOT NULL,
            updated TEXT NOT NULL,
            status TEXT NOT NULL,                  -- waiting, playing, between-deals, over, closed
            match_id INTEGER,                      -- the match being played (matches.id), NULL before the start
            data TEXT NOT NULL                     -- JSON: settings, seats (token hashes, never tokens), matches
        )"""
    )


def _migrate_2_to_3(conn: sqlite3.Connection) -> None:
    # Every table size: the score by side as JSON, {"NS": 8, "EW": 3} or cut-throat by player {"1": 4, "2": -7,
    # "3": 5}.  score_ns and score_ew stay for the partnership game (0 at a cut-throat table); a row written
    # before has NULL here and its NS and EW columns say its score.
    conn.execute("ALTER TABLE matches ADD COLUMN scores TEXT")


def _migrate_3_to_4(conn: sqlite3.Connection) -> None:
    # The players of `cinch serve` (docs/players.md): guests and accounts, their sessions, the limits on repeated
    # attempts, and which seat of which match each played.  The same tables are in PostgreSQL (migration 0003).
    for statement in PLAYER_TABLES:
        conn.execute(statement)


def _migrate_4_to_5(conn: sqlite3.Connection) -> None:
    # `cinch duplicate` (docs/duplicate.md): each attempt at a deal set, with its boards' results and records and
    # the record of the board in play (JSON, rewritten after every action), and the robot table's result of each
    # board, played once per set and kind of bot.
    conn.execute(
        """CREATE TABLE IF NOT EXISTS duplicate_attempts (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            created TEXT NOT NULL,
            updated TEXT NOT NULL,
            set_key TEXT NOT NULL,                 -- the deal set (DealSet.key: its name, rules and commitments)
            set_name TEXT NOT NULL,
            player TEXT NOT NULL,
            status TEXT NOT NULL,                  -- in_progress, finished, abandoned
            data TEXT NOT NULL                     -- JSON: the set (with its secret), the results, the board in play
        )"""
    )
    conn.execute("CREATE INDEX IF NOT EXISTS duplicate_attempts_by_set ON duplicate_attempts (set_key, updated)")
    conn.execute(
        """CREATE TABLE IF NOT EXISTS duplicate_robots (
            set_key TEXT NOT NULL,
            board INTEGER NOT NULL,
            bots TEXT NOT NULL,
            result TEXT NOT NULL,                  -- JSON: the robot table's result, with its record
            PRIMARY KEY (set_key, board, bots)
        )"""
    )


FIELD_TABLES: tuple[str, ...] = (
    # A field: boards that everyone in it plays (a day's set of a preset, a private event), and whether its results
    # are final.  Its deal set is kept published (commitments only): the salts derive from the server's secret.
    """CREATE TABLE IF NOT EXISTS duplicate_fields (
        id TEXT PRIMARY KEY,                   -- 'daily/2026-12-05/official', 'event/K7P2QX'
        kind TEXT NOT NULL,                    -- daily, event
        family TEXT NOT NULL,                  -- the preset family its ratings go to
        created DOUBLE PRECISION NOT NULL,     -- seconds since 1970 (UTC)
        closes DOUBLE PRECISION,               -- when play ends (a day's end); NULL: when its host says
        status TEXT NOT NULL,                  -- open, final
        final DOUBLE PRECISION,                -- when its results became final (and were rated, once)
        deal_set TEXT NOT NULL,                -- JSON: the set as published (cinch.duplicate.DealSet, no salts)
        data TEXT NOT NULL                     -- JSON: what its kind keeps (an event's host, tables, options)
    )""",
    "CREATE INDEX IF NOT EXISTS duplicate_fields_by_kind ON duplicate_fields (kind, status, closes)",
    # An entrant: a person (a daily session), a partnership at an event's table, or the robot table; each once.
    """CREATE TABLE IF NOT EXISTS duplicate_entries (
        field_id TEXT NOT NULL,
        entrant TEXT NOT NULL,                 -- a player's id, 'robots', or an event's 'T1:NS'
        kind TEXT NOT NULL,                    -- person, pair, robots
        label TEXT,                            -- the name of an entrant without players (the robot table's bots)
        table_code TEXT,                       -- the server table it plays at (rooms.code)
        created DOUBLE PRECISION NOT NULL,
        updated DOUBLE PRECISION NOT NULL,
        status TEXT NOT NULL,                  -- playing, finished
        boards INTEGER NOT NULL,               -- boards with a result
        rank INTEGER,                          -- once the field is final: its rank, percentage and total points
        percentage DOUBLE PRECISION,
        total INTEGER,
        PRIMARY KEY (field_id, entrant)
    )""",
    # Who plays for an entrant, by seat: player ids only, the names joined from players when shown (a deleted
    # player's name is then gone from every field).
    """CREATE TABLE IF NOT EXISTS duplicate_members (
        field_id TEXT NOT NULL,
        entrant TEXT NOT NULL,
        seat TEXT NOT NULL,                    -- N E S W
        player_id TEXT NOT NULL,               -- players.id
        PRIMARY KEY (field_id, entrant, seat)
    )""",
    "CREATE INDEX IF NOT EXISTS duplicate_members_by_player ON duplicate_members (player_id)",
    # A result on a board, counted once: the key refuses a second (a retry, another process).
    """CREATE TABLE IF NOT EXISTS duplicate_results (
        field_id TEXT NOT NULL,
        board INTEGER NOT NULL,
        entrant TEXT NOT NULL,
        result INTEGER NOT NULL,               -- NS's score change less EW's: what matchpoints compare
        match_id BIGINT,                       -- the board's match (matches.id); NULL for the robot table
        created DOUBLE PRECISION NOT NULL,
        data TEXT NOT NULL,                    -- JSON: the contract, points, settlement and par (no record)
        record TEXT NOT NULL,                  -- the board's cinch/1 record
        PRIMARY KEY (field_id, board, entrant)
    )""",
    # The server's secrets (the one the daily sets' salts derive from), made once and shared by every process.
    """CREATE TABLE IF NOT EXISTS duplicate_secrets (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL
    )""",
)
"""The duplicate fields of `cinch serve` (docs/duplicate.md): the daily deals and private events, their entrants
and board results, in SQL that SQLite and PostgreSQL both take (`cinch.server.fields` reads and writes them); the
same tables as PostgreSQL's migration 0004."""

RATING_TABLES: tuple[str, ...] = (
    # Each game rated, once: its key makes a match (a day, an event) rated once, however often it is reported.
    """CREATE TABLE IF NOT EXISTS rated_games (
        key TEXT PRIMARY KEY,                  -- 'match:ID', 'daily:FAMILY:DAY' or 'event:ID'
        family TEXT NOT NULL,                  -- the preset family (cinch.server.ratings.family_of)
        kind TEXT NOT NULL,                    -- match, daily or event
        match_id BIGINT,                       -- a room's match (matches.id); NULL for a day or an event
        day TEXT,                              -- a daily session's day (YYYY-MM-DD, UTC); NULL for a match or an event
        played DOUBLE PRECISION NOT NULL,      -- seconds since 1970
        sides INTEGER NOT NULL                 -- how many sides were ranked
    )""",
    # A player's rating now, per family: ids only, never a name (a deleted player's rows are then nobody's).
    """CREATE TABLE IF NOT EXISTS ratings (
        family TEXT NOT NULL,
        player_id TEXT NOT NULL,               -- players.id
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        games INTEGER NOT NULL,                -- games rated in the family
        updated DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (family, player_id)
    )""",
    "CREATE INDEX IF NOT EXISTS ratings_by_player ON ratings (player_id)",
    # Every rating change: the player's place in the game, and the rating before and after it.
    """CREATE TABLE IF NOT EXISTS rating_history (
        game TEXT NOT NULL,                    -- rated_games.key
        player_id TEXT NOT NULL,
        family TEXT NOT NULL,
        played DOUBLE PRECISION NOT NULL,
        place INTEGER NOT NULL,                -- 1 for the winners; sides tied share a place
        sides INTEGER NOT NULL,
        mu_before DOUBLE PRECISION NOT NULL,
        sigma_before DOUBLE PRECISION NOT NULL,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game, player_id)
    )""",
    "CREATE INDEX IF NOT EXISTS rating_history_by_player ON rating_history (player_id, family, played)",
)
"""The players' ratings (docs/players.md): each rated game and each rating after it; the same tables as
PostgreSQL's migration 0005 (SQL that SQLite and PostgreSQL both take)."""


def _migrate_5_to_6(conn: sqlite3.Connection) -> None:
    # The server's duplicate fields and the ratings, in one step (both came with the daily deals).
    for statement in FIELD_TABLES + RATING_TABLES:
        conn.execute(statement)


MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_migrate_0_to_1, _migrate_1_to_2, _migrate_2_to_3,
                                                          _migrate_3_to_4, _migrate_4_to_5, _migrate_5_to_6]
"""``MIGRATIONS[i]`` takes a library from schema version ``i`` to ``i + 1``: a new version appends
a step (``ALTER TABLE ...``) here and raises :data:`SCHEMA_VERSION`; :func:`migrate` runs the steps
a library lacks when it is opened."""
assert len(MIGRATIONS) == SCHEMA_VERSION


def schema_version(conn: sqlite3.Connection) -> int:
    """The version written in ``meta``; 0 for an empty file."""
    has_meta = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").fetchone()
    if not has_meta:
        others = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'")
        if others.fetchone():
            raise LibraryError("the file is an SQLite database but not a cinch game library (it has no meta table)")
        return 0
    row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    try:
        return int(row[0]) if row else 0
    except (TypeError, ValueError):
        raise LibraryError(f"the library's schema_version is {quoted(row[0])}, not a number") from None


def usable_version(conn: sqlite3.Connection) -> int:
    """The schema version of a file this cinch may write, found by reading alone; a :class:`LibraryError`
    for another program's database or a library of a newer schema.  :meth:`Library.open` asks before
    its first write (a refused file stays byte for byte), :func:`migrate` again inside its transaction."""
    found = schema_version(conn)
    if found > SCHEMA_VERSION:
        raise LibraryError(f"the library has schema version {found}, newer than this cinch knows "
                           f"({SCHEMA_VERSION}): upgrade cinch to use it")
    return found


def migrate(conn: sqlite3.Connection) -> int:
    """Bring the schema to :data:`SCHEMA_VERSION`, in one transaction; returns the version found before."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        found = usable_version(conn)
        for step in MIGRATIONS[found:]:
            step(conn)
        if found < SCHEMA_VERSION:
            conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)",
                         (str(SCHEMA_VERSION),))
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return found


# ---- what a row holds ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class StoredMatch:
    """One match of the library: its metadata and its ``cinch/1`` record."""

    id: int
    created: datetime
    updated: datetime
    rules: str  # the rules' name: "pagat", "official+" (options changed)
    rules_json: Any  # the record's "rules": a preset name or {"preset": NAME, ...}
    players: dict[Seat, str]
    human_seat: Seat | None
    seed: int | None
    frontend: str
    status: str  # IN_PROGRESS, FINISHED or ABANDONED
    score: tuple[int, ...]  # by side: (NS, EW), or cut-throat by player
    winner: Team | None  # NS or EW, or cut-throat the winning seat
    deals: int
    position: tuple[int, int]  # (deal number, number of actions in that deal) last saved
    first_dealer: Seat | None
    record_text: str = field(repr=False)

    @property
    def record(self) -> dict[str, Any]:
        """The record as a dict; :class:`DamagedRecord` if the stored text is not a record."""
        try:
            return loads(self.record_text)
        except RecordError as e:
            raise DamagedRecord(f"match {self.id}: the stored record is damaged: {e}") from None

    @property
    def is_finished(self) -> bool:
        return self.status == FINISHED

    @property
    def preset(self) -> str:
        spec = self.rules_json
        return spec.get("preset", self.rules) if isinstance(spec, dict) else str(spec)

    @property
    def table(self) -> Seating:
        """Who sat at the match's table: four in partnerships, or 2, 3, 5 or 6 each for himself."""
        return table_of(self.rules_json)

    def score_text(self) -> str:
        """``NS 20 EW 14``, or by player at a cut-throat table: ``1: 4, 2: 0, 3: 11``."""
        table = self.table
        if table.partnership and len(self.score) == 2:
            return f"NS {self.score[0]} EW {self.score[1]}"
        return table.score_text(self.score) if len(self.score) == table.sides else "?"

    def describe(self) -> str:
        """``match 12 (pagat, deal 3, NS 20 EW 14)``: the deal is the one a resumed match goes on with."""
        return f"match {self.id} ({self.rules}, deal {self.deal_to_play()}, {self.score_text()})"

    def deal_to_play(self) -> int:
        """The number of the deal that going on with the match plays (or, for a score sheet, enters):
        the deal it stopped in, or the next one when it stopped between deals, as a score sheet always
        does; a finished match's last deal."""
        saved = self.position[0]
        if self.is_finished:
            return max(saved, 1)
        if saved == 0 or self.frontend == SCOREKEEPER or self._stopped_between_deals():
            return saved + 1
        return saved

    def _stopped_between_deals(self) -> bool:
        """Whether the last saved deal is over (the row does not say: the record, replayed, does)."""
        try:
            match = replay(self.record).match
        except CinchError:  # a damaged record: `cinch resume` will say so; here the saved deal stands
            return False
        return bool(match.deals) and match.deals[-1].is_over and not match.is_over

    def to_json(self) -> dict[str, Any]:
        """The metadata (not the record) as JSON, for ``cinch history --json``."""
        return {
            "id": self.id,
            "created": self.created.isoformat(),
            "updated": self.updated.isoformat(),
            "rules": self.rules_json,
            "players": {s.name: self.players[s] for s in self.table.seats if s in self.players},
            "human_seat": None if self.human_seat is None else self.human_seat.name,
            "seed": self.seed,
            "frontend": self.frontend,
            "status": self.status,
            "score": dict(zip(self.table.side_names, self.score, strict=False)),
            "winner": None if self.winner is None else self.winner.name,
            "deals": self.deals,
            "position": {"deal": self.position[0], "action": self.position[1]},
        }


_COLUMNS = ("id, created, updated, rules, rules_json, players, human_seat, seed, frontend, status, score_ns, "
            "score_ew, winner, deals, deal_number, action_number, first_dealer, record, scores")


def _row_to_match(row: tuple) -> StoredMatch:
    (id_, created, updated, rules, rules_json, players, human, seed, frontend, status, ns, ew, winner, deals,
     deal_number, action_number, first_dealer, record, scores) = row
    # The metadata is read leniently: a damaged field must not hide the rest of the library.
    spec = _json_or(rules_json, str(rules))
    table = table_of(spec)
    return StoredMatch(
        id=int(id_), created=_time(created), updated=_time(updated), rules=str(rules),
        rules_json=spec, players=_players(players, table), human_seat=_seat_or_none(human, table),
        seed=seed if isinstance(seed, int) else None, frontend=str(frontend), status=str(status),
        score=_score(scores, table, (_int(ns), _int(ew))), winner=_side_or_none(winner, table), deals=_int(deals),
        position=(_int(deal_number), _int(action_number)), first_dealer=_seat_or_none(first_dealer, table),
        record_text=record if isinstance(record, str) else "",
    )


def table_of(rules_json: Any) -> Seating:
    """The seating of a stored match's rules (the record's ``"rules"``); four players if they do not read."""
    try:
        return Rules.from_json(rules_json).seating
    except (CinchError, KeyError, TypeError, ValueError, AttributeError):
        return FOUR


def _score(scores: Any, table: Seating, columns: tuple[int, int]) -> tuple[int, ...]:
    """The score by side: the JSON column if it reads for this table, else the NS and EW columns."""
    value = _json_or(scores, None)
    if isinstance(value, dict) and all(isinstance(value.get(name), int) for name in table.side_names):
        return tuple(value[name] for name in table.side_names)
    return columns if table.sides == 2 else (0,) * table.sides


def _time(text: Any) -> datetime:
    try:
        return datetime.fromisoformat(str(text))
    except ValueError:
        return datetime.fromtimestamp(0, UTC)


def _json_or(text: Any, default: Any) -> Any:
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return default


def _players(text: Any, table: Seating = FOUR) -> dict[Seat, str]:
    value = _json_or(text, {})
    if not isinstance(value, dict):
        return {}
    return {table.seats[table.names.index(k)]: str(v) for k, v in value.items() if k in table.names}


def _seat_or_none(text: Any, table: Seating = FOUR) -> Seat | None:
    """A stored seat name (``S``, or ``2`` at a cut-throat table) as a seat of the table."""
    return table.seats[table.names.index(text)] if text in table.names else None


def _side_or_none(text: Any, table: Seating) -> Team | None:
    return table.side_list[table.side_names.index(text)] if text in table.side_names else None


def _int(value: Any) -> int:
    return value if isinstance(value, int) else 0


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def position_of(match: Match) -> tuple[int, int]:
    """(deal number, number of actions in it): where the match stands."""
    if not match.deals:
        return (0, 0)
    return (len(match.deals), len(match.deals[-1].history))


def match_row(match: Match) -> dict[str, Any]:
    """The columns of a match's row that change as it is played (this library's and the server's PostgreSQL one)."""
    deal, action = position_of(match)
    table = match.table
    return {
        "players": json.dumps({s.name: str(match.players[s]) for s in table.seats if s in match.players}),
        "status": FINISHED if match.is_over else IN_PROGRESS,
        **_score_columns(table, match.score),
        "winner": None if match.winner is None else match.winner.name,
        "deals": len(match.deals), "deal_number": deal, "action_number": action,
        "record": record_text(match),
    }


def _score_columns(table: Seating, score: tuple[int, ...]) -> dict[str, Any]:
    """The score as the row keeps it: NS and EW columns (0 cut-throat) and the JSON by side."""
    ns, ew = (score[0], score[1]) if table.partnership else (0, 0)
    return {"score_ns": ns, "score_ew": ew, "scores": json.dumps(table.side_json(score))}


def resume_seed(seed: int | None, match_id: int, position: tuple[int, int], what: str = "match") -> int:
    """A seed for the match's shuffles (or a bot) from the stored seed and the position resumed at.

    Resuming the same stored position twice gives the same continuation.
    """
    base = seed if seed is not None else f"id{match_id}"
    return random.Random(f"cinch-resume:{base}:{position[0]}:{position[1]}:{what}").randrange(2**31)


# ---- the players of `cinch serve` (docs/players.md) -----------------------------------------------------------
GUEST = "guest"
ACCOUNT = "account"
DELETED = "deleted"  # an account or guest deleted: its id stays (its results with it), its name is gone
FORMER_PLAYER = "former player"  # what a deleted player's seat is called in the matches kept

PLAYER_TABLES = (
    """CREATE TABLE IF NOT EXISTS players (
        id TEXT PRIMARY KEY,                   -- random, never reused: results attach to it
        created REAL NOT NULL,                 -- seconds since 1970 (UTC)
        updated REAL NOT NULL,
        kind TEXT NOT NULL,                    -- guest, account, deleted
        name TEXT,                             -- the name shown; NULL once deleted
        name_key TEXT UNIQUE,                  -- an account's name folded (NFKC, casefold); NULL for the others
        password TEXT,                         -- an account's Argon2id hash; NULL for the others
        device TEXT UNIQUE                     -- a guest's device key, as its SHA-256; NULL for the others
    )""",
    """CREATE TABLE IF NOT EXISTS player_sessions (
        token TEXT PRIMARY KEY,                -- the session cookie's SHA-256, never the cookie
        player_id TEXT NOT NULL,
        created REAL NOT NULL,
        seen REAL NOT NULL,                    -- when its expiry was last pushed back
        expires REAL NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS player_sessions_by_player ON player_sessions (player_id)",
    """CREATE TABLE IF NOT EXISTS player_limits (
        key TEXT PRIMARY KEY,                  -- SHA-256 of what is counted and of whom (a name, an address)
        since REAL NOT NULL,                   -- the start of the window
        count INTEGER NOT NULL                 -- attempts in it
    )""",
    """CREATE TABLE IF NOT EXISTS player_games (
        player_id TEXT NOT NULL,
        match_id INTEGER NOT NULL,             -- matches.id
        seat TEXT NOT NULL,                    -- the seat the player held in it
        PRIMARY KEY (player_id, match_id, seat)
    )""",
    "CREATE INDEX IF NOT EXISTS player_games_by_match ON player_games (match_id)",
)
"""The players' tables, in SQL that SQLite and PostgreSQL both take (``cinch.server.migrations`` 0003 makes the
same with PostgreSQL's types)."""


class NameTaken(LibraryError):
    """An account of that name (folded) exists already."""


@dataclass(frozen=True)
class StoredPlayer:
    """A player of the server: a guest (a display name on one device), an account, or one deleted."""

    id: str
    kind: str  # GUEST, ACCOUNT or DELETED
    name: str | None  # None once deleted
    created: float  # seconds since 1970
    password: str | None = field(default=None, repr=False)  # an account's Argon2id hash: never leaves the server


_PLAYER = "id, kind, name, created, password"
Run = Callable[[str, tuple[Any, ...]], builtins.list[tuple[Any, ...]]]


def _player(row: Any) -> StoredPlayer:
    return StoredPlayer(id=str(row[0]), kind=str(row[1]), name=row[2], created=float(row[3]), password=row[4])


class PlayerTables:
    """The players' storage (``cinch.server.players``' ``PlayerStore``), one SQL for SQLite and PostgreSQL.

    The game library (SQLite) and ``cinch.server.postgres.PgLibrary`` each give :meth:`_player_rows` (one
    statement, its rows) and :meth:`_player_change` (a transaction); the SQL is written with ``?`` for its
    parameters and no ``%``.  Times are seconds since 1970, given by the caller (its clock).
    """

    def _player_rows(self, sql: str, args: tuple[Any, ...] = ()) -> builtins.list[tuple[Any, ...]]:
        raise NotImplementedError

    def _player_change(self) -> contextlib.AbstractContextManager[Run]:
        raise NotImplementedError

    # ---- players ------------------------------------------------------------------------------------------------
    def new_guest(self, player_id: str, name: str, device: str, now: float) -> StoredPlayer:
        """A new guest: its display name and the SHA-256 of its device key."""
        with self._player_change() as run:
            run("INSERT INTO players (id, created, updated, kind, name, device) VALUES (?, ?, ?, ?, ?, ?)",
                (player_id, now, now, GUEST, name, device))
        return StoredPlayer(player_id, GUEST, name, now)

    def guest_by_device(self, device: str) -> StoredPlayer | None:
        rows = self._player_rows(f"SELECT {_PLAYER} FROM players WHERE device = ? AND kind = ?", (device, GUEST))
        return _player(rows[0]) if rows else None

    def player(self, player_id: str) -> StoredPlayer | None:
        rows = self._player_rows(f"SELECT {_PLAYER} FROM players WHERE id = ?", (player_id,))
        return _player(rows[0]) if rows else None

    def account_named(self, name_key: str) -> StoredPlayer | None:
        """The account whose folded name is ``name_key``; None if there is none."""
        rows = self._player_rows(f"SELECT {_PLAYER} FROM players WHERE name_key = ? AND kind = ?",
                                 (name_key, ACCOUNT))
        return _player(rows[0]) if rows else None

    def new_account(self, player_id: str, name: str, name_key: str, password: str, now: float) -> StoredPlayer:
        """An account named ``name`` with the password's hash: the guest ``player_id`` registering (its id, and
        with it its games, kept; its device key no longer signs in), or else a new player of that id.
        :class:`NameTaken` if the folded name is an account's already."""
        try:
            with self._player_change() as run:
                if run("SELECT 1 FROM players WHERE name_key = ?", (name_key,)):
                    raise NameTaken(f"the name {name!r} is taken")
                rows = run(f"UPDATE players SET kind = ?, name = ?, name_key = ?, password = ?, device = NULL, "
                           f"updated = ? WHERE id = ? AND kind = ? RETURNING {_PLAYER}",
                           (ACCOUNT, name, name_key, password, now, player_id, GUEST))
                if not rows:
                    rows = run(f"INSERT INTO players (id, created, updated, kind, name, name_key, password) "
                               f"VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING {_PLAYER}",
                               (player_id, now, now, ACCOUNT, name, name_key, password))
        except NameTaken:
            raise
        except LibraryError:
            if self.account_named(name_key) is not None:  # (another process took the name a moment ago)
                raise NameTaken(f"the name {name!r} is taken") from None
            raise
        return _player(rows[0])

    def set_password(self, player_id: str, password: str, now: float) -> None:
        with self._player_change() as run:
            run("UPDATE players SET password = ?, updated = ? WHERE id = ? AND kind = ?",
                (password, now, player_id, ACCOUNT))

    def erase_player(self, player_id: str, now: float, label: str = FORMER_PLAYER) -> None:
        """Delete a player: its name out of everything kept (its row, its seat in every match it played, the
        record's names too, and in every room's stored seats), its password, device key and sessions gone; its
        id stays, and its results with it, under no name (the ratings keep ids only)."""
        with self._player_change() as run:
            seats: dict[int, builtins.list[str]] = {}
            for match_id, seat in run("SELECT match_id, seat FROM player_games WHERE player_id = ?", (player_id,)):
                seats.setdefault(int(match_id), []).append(str(seat))
            for match_id, names in seats.items():
                for players, record in run("SELECT players, record FROM matches WHERE id = ?", (match_id,)):
                    run("UPDATE matches SET players = ?, record = ? WHERE id = ?",
                        (_unnamed_players(players, names, label), _unnamed_record(record, names, label), match_id))
            for code, data in run("SELECT code, data FROM rooms WHERE data LIKE ?", (f"%{player_id}%",)):
                unnamed = _unnamed_room(data, player_id, label)  # (LIKE finds more than the id: checked here)
                if unnamed is not None:
                    run("UPDATE rooms SET data = ? WHERE code = ?", (unnamed, code))
            run("UPDATE players SET kind = ?, name = NULL, name_key = NULL, password = NULL, device = NULL, "
                "updated = ? WHERE id = ?", (DELETED, now, player_id))
            run("DELETE FROM player_sessions WHERE player_id = ?", (player_id,))

    def player_rooms(self, player_id: str) -> builtins.list[str]:
        """The codes of the rooms not closed where the player holds a seat (or held one in their match)."""
        rows = self._player_rows("SELECT code, data FROM rooms WHERE status <> 'closed' AND data LIKE ?",
                                 (f"%{player_id}%",))
        return [str(code) for code, data in rows if _unnamed_room(data, player_id, "") is not None]

    def accounts(self, limit: int = 500) -> builtins.list[tuple[StoredPlayer, int]]:
        """The accounts, by name, each with the number of matches it played."""
        rows = self._player_rows(
            f"SELECT {', '.join('p.' + c for c in _PLAYER.split(', '))}, (SELECT count(DISTINCT g.match_id) FROM "
            "player_games g WHERE g.player_id = p.id) FROM players p WHERE p.kind = ? ORDER BY p.name_key LIMIT ?",
            (ACCOUNT, int(limit)))
        return [(_player(row), int(row[5])) for row in rows]

    # ---- sessions -----------------------------------------------------------------------------------------------
    def new_session(self, token: str, player_id: str, now: float, lifetime: float) -> None:
        """A session (its token's SHA-256) for the player, for ``lifetime`` seconds from ``now``."""
        with self._player_change() as run:
            run("INSERT INTO player_sessions (token, player_id, created, seen, expires) VALUES (?, ?, ?, ?, ?)",
                (token, player_id, now, now, now + lifetime))

    def session_player(self, token: str, now: float, lifetime: float, refresh_after: float) -> StoredPlayer | None:
        """The player of a live session (its token's SHA-256); None if it is unknown or expired.  A session used
        ``refresh_after`` seconds after it was last pushed back lives ``lifetime`` seconds from now."""
        rows = self._player_rows(
            f"SELECT {', '.join('p.' + c for c in _PLAYER.split(', '))}, s.seen FROM player_sessions s JOIN players p "
            "ON p.id = s.player_id WHERE s.token = ? AND s.expires > ? AND p.kind <> ?", (token, now, DELETED))
        if not rows:
            return None
        if now - float(rows[0][5]) > refresh_after:
            with self._player_change() as run:
                run("UPDATE player_sessions SET seen = ?, expires = ? WHERE token = ?", (now, now + lifetime, token))
        return _player(rows[0])

    def end_session(self, token: str) -> None:
        with self._player_change() as run:
            run("DELETE FROM player_sessions WHERE token = ?", (token,))

    def end_sessions(self, player_id: str, keep: str | None = None) -> None:
        """End every session of the player (but ``keep``)."""
        with self._player_change() as run:
            run("DELETE FROM player_sessions WHERE player_id = ? AND token <> ?", (player_id, keep or ""))

    # ---- limits on attempts -------------------------------------------------------------------------------------
    def hit_limit(self, key: str, now: float, window: float) -> tuple[int, float]:
        """Count one attempt under ``key`` in its window of ``window`` seconds (a new window if the last one is
        over): the attempts in the window so far, this one included, and when the window began."""
        with self._player_change() as run:
            rows = run("INSERT INTO player_limits (key, since, count) VALUES (?, ?, 1) ON CONFLICT (key) DO UPDATE "
                       "SET count = CASE WHEN player_limits.since <= ? THEN 1 ELSE player_limits.count + 1 END, "
                       "since = CASE WHEN player_limits.since <= ? THEN excluded.since ELSE player_limits.since END "
                       "RETURNING count, since", (key, now, now - window, now - window))
        return int(rows[0][0]), float(rows[0][1])

    def limit_count(self, key: str, now: float, window: float) -> tuple[int, float]:
        """The attempts under ``key`` in its window now (0 if it is over), and when the window began."""
        rows = self._player_rows("SELECT count, since FROM player_limits WHERE key = ? AND since > ?",
                                 (key, now - window))
        return (int(rows[0][0]), float(rows[0][1])) if rows else (0, now)

    def clear_limits(self, keys: Iterable[str]) -> None:
        with self._player_change() as run:
            for key in keys:
                run("DELETE FROM player_limits WHERE key = ?", (key,))

    def purge_players(self, now: float, longest_window: float) -> None:
        """Forget the expired sessions, and the windows of attempts older than the longest limit's."""
        with self._player_change() as run:
            run("DELETE FROM player_sessions WHERE expires <= ?", (now,))
            run("DELETE FROM player_limits WHERE since <= ?", (now - longest_window,))

    # ---- the matches a player played ------------------------------------------------------------------------------
    def add_player_game(self, player_id: str, match_id: int, seat: str) -> None:
        """The player sat at ``seat`` in the match (each pair once)."""
        with self._player_change() as run:
            run("INSERT INTO player_games (player_id, match_id, seat) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                (player_id, int(match_id), seat))

    def player_games(self, player_id: str, limit: int = 20) -> builtins.list[tuple[int, str]]:
        """The matches the player played, the latest first: (match id, seat)."""
        rows = self._player_rows("SELECT match_id, seat FROM player_games WHERE player_id = ? ORDER BY match_id DESC, "
                                 "seat LIMIT ?", (player_id, int(limit)))
        return [(int(m), str(s)) for m, s in rows]

    def player_game_count(self, player_id: str) -> int:
        rows = self._player_rows("SELECT count(DISTINCT match_id) FROM player_games WHERE player_id = ?", (player_id,))
        return int(rows[0][0]) if rows else 0


def _unnamed_players(text: Any, seats: builtins.list[str], label: str) -> Any:
    """A match row's ``players`` (JSON by seat) with ``seats`` named ``label``."""
    value = _json_or(text, None)
    if not isinstance(value, dict):
        return text
    value.update({seat: label for seat in seats if seat in value})
    return json.dumps(value)


def _unnamed_room(text: Any, player_id: str, label: str) -> str | None:
    """A stored room's data with the seats the player holds named ``label`` and no longer linked to a profile;
    None if no seat is the player's."""
    value = _json_or(text, None)
    places = value.get("places") if isinstance(value, dict) else None
    mine = [p for p in places or () if isinstance(p, dict) and p.get("player") == player_id]
    if not mine:
        return None
    for place in mine:
        place["name"], place["player_kind"] = label, None
    return json.dumps(value)


def _unnamed_record(text: Any, seats: builtins.list[str], label: str) -> Any:
    """A stored record with ``seats`` named ``label``: its ``players``, and its ``seating`` (who sat where when)."""
    value = _json_or(text, None)
    if not isinstance(value, dict):
        return text
    players = value.get("players")
    if isinstance(players, dict):
        players.update({seat: label for seat in seats if seat in players})
    for entry in value.get("seating") or ():
        if isinstance(entry, dict) and entry.get("seat") in seats and "name" in entry:
            entry["name"] = label
    return record_dumps(value)


# ---- the library -------------------------------------------------------------------------------------------
class Library(PlayerTables):
    """An open game library.  Use :meth:`open`; close it with :meth:`close` (or ``with``)."""

    def __init__(self, conn: sqlite3.Connection, path: Path, *, readonly: bool = False, empty: bool = False,
                 version: int = SCHEMA_VERSION):
        self._conn = conn
        # An older schema read as it is (read-only): the columns it lacks read as NULL.
        self._columns = _COLUMNS if version >= SCORES_VERSION else _COLUMNS.replace(", scores", ", NULL")
        self.path = path
        self.readonly = readonly
        self._empty = empty  # a read-only file with no tables yet: an empty library, nothing to read
        self._lock = threading.RLock()  # one connection, usable from a front end's worker threads

    # ---- opening --------------------------------------------------------------------------------------
    @classmethod
    def open(cls, path: str | os.PathLike[str] | None = None, *, readonly: bool = False,
             create: bool = True) -> Library:
        """Open the library at ``path``, ``$CINCH_DB`` or the default.

        A writer (``readonly=False``) creates the file and its folders if need be (unless
        ``create=False``) and brings an older schema up to date.  A reader (``readonly=True``)
        never creates nor changes anything, so it also reads a library it may not write:
        a file it cannot write, or one in a folder it cannot write.
        Every failure is a :class:`LibraryError` naming the path; :class:`NoLibrary` when the
        file does not exist and may not be created.
        """
        target = resolve_path(path)
        try:
            if target.is_dir():
                raise LibraryError(f"cannot open the game library {target}: it is a folder")
            exists = target.exists()
        except OSError as e:
            raise LibraryError(f"cannot open the game library {target}: {_os_reason(e, target)}") from None
        if not exists and (readonly or not create):
            raise NoLibrary(f"no game library at {target} yet; `cinch play` makes one")
        if readonly:
            return cls._open_readonly(target)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise LibraryError(
                f"cannot create the folder for the game library {target}: {_os_reason(e, target)}"
            ) from None
        try:
            conn = sqlite3.connect(target, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                                   check_same_thread=False)
        except sqlite3.Error as e:
            raise LibraryError(f"cannot open the game library {target}: {e}") from None
        try:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            usable_version(conn)  # before the first write: a file refused here is left byte for byte
            _wal(conn)
            conn.execute("PRAGMA synchronous = NORMAL")  # with WAL: safe against a crash of the program
            migrate(conn)
            _try_write(conn)
        except LibraryError as e:
            conn.close()
            raise LibraryError(f"cannot use the game library {target}: {e}") from None
        except sqlite3.Error as e:
            conn.close()
            raise LibraryError(f"cannot use the game library {target}: {_sqlite_reason(e)}") from None
        return cls(conn, target)

    @classmethod
    def _open_readonly(cls, target: Path) -> Library:
        try:
            return cls._open_readonly_as(target, immutable=False)
        except _CannotOpen:
            # A WAL library needs its -shm file beside it; in a folder we cannot write, with none
            # left there, SQLite reads the file only as immutable (unlocked).  A folder closed to
            # writing makes another program writing the library meanwhile unlikely.
            try:
                return cls._open_readonly_as(target, immutable=True)
            except _CannotOpen as e:
                raise LibraryError(f"cannot open the game library {target}: {e}; check that the file and its "
                                   "folder can be read") from None

    @classmethod
    def _open_readonly_as(cls, target: Path, *, immutable: bool) -> Library:
        try:
            # mode=ro: SQLite writes nothing, so a file or folder without write permission still reads.
            uri = target.absolute().as_uri() + "?mode=ro" + ("&immutable=1" if immutable else "")
            conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                                   check_same_thread=False)
        except sqlite3.Error as e:
            if _cannot_open_shared_memory(e):
                raise _CannotOpen(str(e)) from None
            raise LibraryError(f"cannot open the game library {target}: {_sqlite_reason(e)}") from None
        except (OSError, ValueError) as e:
            raise LibraryError(f"cannot open the game library {target}: {e}") from None
        try:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            found = schema_version(conn)
            if found > SCHEMA_VERSION:
                raise LibraryError(f"the library has schema version {found}, newer than this cinch knows "
                                   f"({SCHEMA_VERSION}): upgrade cinch to read it")
            if 0 < found < READS_FROM:
                raise LibraryError(f"the library has schema version {found}, older than this cinch writes "
                                   f"({SCHEMA_VERSION}): `cinch play` or `cinch resume` brings it up to date, "
                                   "after which it reads (they need to write the file)")
        except LibraryError as e:
            conn.close()
            raise LibraryError(f"cannot use the game library {target}: {e}") from None
        except sqlite3.Error as e:
            conn.close()
            if _cannot_open_shared_memory(e):
                raise _CannotOpen(str(e)) from None
            raise LibraryError(f"cannot use the game library {target}: {_sqlite_reason(e)}") from None
        return cls(conn, target, readonly=True, empty=found == 0, version=found)

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Library({str(self.path)!r})"

    # ---- transactions -------------------------------------------------------------------------------------
    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: all of it is saved, or (on any error) none of it."""
        if self.readonly:
            raise LibraryError(f"the game library {self.path} was opened read-only: it cannot be written")
        with self._lock, self._errors():
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    self._conn.execute("ROLLBACK")
                raise
            try:
                self._conn.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    self._conn.execute("ROLLBACK")
                raise

    @contextlib.contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        with self._lock, self._errors():
            yield self._conn

    @contextlib.contextmanager
    def _errors(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as e:
            raise LibraryError(f"the game library {self.path}: {_sqlite_reason(e)}") from None

    # ---- writing ------------------------------------------------------------------------------------------
    def new_match(
        self, match: Match, *, human_seat: Seat | None, seed: int | None, frontend: str,
        players: Mapping[Seat, str] | None = None,
    ) -> int:
        """Store a match just begun (or any match); returns its id."""
        names = dict(players if players is not None else match.players)
        now = _now()
        row = match_row(match)
        with self._write() as conn:
            cur = conn.execute(
                "INSERT INTO matches (created, updated, rules, rules_json, players, human_seat, seed, frontend, "
                "status, score_ns, score_ew, winner, deals, deal_number, action_number, first_dealer, record, scores) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (now, now, match.rules.name, json.dumps(match.rules.to_json()),
                 json.dumps({s.name: str(names[s]) for s in match.table.seats if s in names}),
                 None if human_seat is None else match.table.seats[human_seat].name, seed, frontend, row["status"],
                 row["score_ns"], row["score_ew"], row["winner"], row["deals"], row["deal_number"],
                 row["action_number"], match.first_dealer.name, row["record"], row["scores"]),
            )
            match_id = cur.lastrowid
        assert match_id is not None
        return int(match_id)

    def save(self, match_id: int, match: Match) -> None:
        """Rewrite the match's record and metadata (call after every action).  One transaction."""
        self._update(match_id, match_row(match))

    def finish(self, match_id: int, match: Match) -> None:
        """Save a match that is over, with its winner."""
        if not match.is_over:
            raise LibraryError(f"match {match_id} is not over: it cannot be marked finished")
        self._update(match_id, match_row(match))

    def abandon(self, match_id: int) -> None:
        """Mark an unfinished match abandoned (``cinch resume`` still continues it)."""
        with self._write() as conn:
            status = self._status(conn, match_id)
            if status != FINISHED:
                conn.execute("UPDATE matches SET status = ?, updated = ? WHERE id = ?", (ABANDONED, _now(), match_id))

    def delete(self, match_id: int) -> None:
        with self._write() as conn:
            self._status(conn, match_id)
            conn.execute("DELETE FROM matches WHERE id = ?", (match_id,))

    # ---- score sheets (`cinch score`) -------------------------------------------------------------------
    def new_sheet(self, sheet: ScoreSheet) -> int:
        """Store a score sheet (a match played with real cards) just begun; returns its id."""
        now = _now()
        row = self._sheet_row(sheet)
        first = sheet.deals[0].dealer if sheet.deals else sheet.first_dealer
        with self._write() as conn:
            cur = conn.execute(
                "INSERT INTO matches (created, updated, rules, rules_json, players, human_seat, seed, frontend, "
                "status, score_ns, score_ew, winner, deals, deal_number, action_number, first_dealer, record, scores) "
                "VALUES (?, ?, ?, ?, ?, NULL, NULL, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?)",
                (now, now, sheet.rules.name, json.dumps(sheet.rules.to_json()), row["players"], SCOREKEEPER,
                 row["status"], row["score_ns"], row["score_ew"], row["winner"], row["deals"], row["deal_number"],
                 None if first is None else first.name, row["record"], row["scores"]),
            )
            match_id = cur.lastrowid
        assert match_id is not None
        return int(match_id)

    def save_sheet(self, match_id: int, sheet: ScoreSheet) -> None:
        """Rewrite a score sheet after a deal is entered or taken back.  One transaction."""
        self._update(match_id, self._sheet_row(sheet))

    def sheet(self, match_id: int) -> ScoreSheet:
        """A stored score sheet, settled again deal by deal, to go on with (`cinch score --resume`)."""
        stored = self.get(match_id)
        if stored.frontend != SCOREKEEPER:
            raise LibraryError(f"match {match_id} was played at a card table, not kept by `cinch score`: "
                               f"`cinch resume {match_id}` goes on with it")
        with _damaged_if_bad(stored):
            sheet = replay(stored.record).sheet
        if sheet is None:  # no deal entered yet: the record alone does not say it is a sheet
            with _damaged_if_bad(stored):
                rules = Rules.from_json(stored.record.get("rules"))
            sheet = ScoreSheet(rules, stored.players, stored.first_dealer)
        elif not sheet.deals:
            sheet.first_dealer = stored.first_dealer
        return sheet

    def unfinished_sheets(self) -> builtins.list[StoredMatch]:
        """The score sheets in progress, the most recently entered first."""
        return [m for m in self.list(status=IN_PROGRESS) if m.frontend == SCOREKEEPER]

    def _sheet_row(self, sheet: ScoreSheet) -> dict[str, Any]:
        return {
            "players": json.dumps({s.name: str(sheet.players[s]) for s in sheet.table.seats if s in sheet.players}),
            "status": FINISHED if sheet.is_over else IN_PROGRESS,
            **_score_columns(sheet.rules.seating, sheet.score),
            "winner": None if sheet.winner is None else sheet.winner.name,
            "deals": len(sheet.deals), "deal_number": len(sheet.deals), "action_number": 0,
            "record": sheet_text(sheet),
        }

    def _update(self, match_id: int, row: dict[str, Any]) -> None:
        with self._write() as conn:
            done = conn.execute(
                "UPDATE matches SET updated = ?, players = ?, status = ?, score_ns = ?, score_ew = ?, winner = ?, "
                "deals = ?, deal_number = ?, action_number = ?, record = ?, scores = ? WHERE id = ?",
                (_now(), row["players"], row["status"], row["score_ns"], row["score_ew"], row["winner"], row["deals"],
                 row["deal_number"], row["action_number"], row["record"], row["scores"], _id(match_id)),
            )
            if done.rowcount == 0:
                raise UnknownMatch(f"no match {match_id} in the game library {self.path}")

    # ---- the server's rooms -------------------------------------------------------------------------------
    def save_room(self, code: str, *, status: str, match_id: int | None, data: Mapping[str, Any]) -> None:
        """Store a room of ``cinch serve`` (created or changed).  One transaction."""
        now = _now()
        with self._write() as conn:
            conn.execute(
                "INSERT INTO rooms (code, created, updated, status, match_id, data) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (code) DO UPDATE SET updated = excluded.updated, status = excluded.status, "
                "match_id = excluded.match_id, data = excluded.data",
                (code, now, now, status, match_id, json.dumps(data)),
            )

    def rooms(self, statuses: tuple[str, ...] | None = None) -> builtins.list[dict[str, Any]]:
        """The stored rooms (those with one of ``statuses``), oldest first: each row as a dict with its
        ``data`` decoded."""
        query = "SELECT code, created, updated, status, match_id, data FROM rooms"
        args: tuple[str, ...] = ()
        if statuses is not None:
            query += f" WHERE status IN ({', '.join('?' * len(statuses))})"
            args = statuses
        with self._read() as conn:
            rows = conn.execute(query + " ORDER BY created, code", args).fetchall()
        return [{"code": r[0], "created": r[1], "updated": r[2], "status": r[3], "match_id": r[4],
                 "data": _json_or(r[5], {})} for r in rows]

    def _status(self, conn: sqlite3.Connection, match_id: int) -> str:
        found = conn.execute("SELECT status FROM matches WHERE id = ?", (_id(match_id),)).fetchone()
        if found is None:
            raise UnknownMatch(f"no match {match_id} in the game library {self.path}")
        return found[0]

    # ---- the players of `cinch serve` (PlayerTables: the SQL is shared with PostgreSQL) ----------------------
    def _player_rows(self, sql: str, args: tuple[Any, ...] = ()) -> builtins.list[tuple[Any, ...]]:
        with self._read() as conn:
            return conn.execute(sql, args).fetchall()

    @contextlib.contextmanager
    def _player_change(self) -> Iterator[Run]:
        with self._write() as conn:
            yield lambda sql, args: conn.execute(sql, args).fetchall()

    # ---- duplicate sets (`cinch duplicate`; cinch.duplicate.LibraryStore turns the JSON into values) ----------
    def new_duplicate_attempt(self, set_key: str, set_name: str, player: str, data: Mapping[str, Any]) -> int:
        """Store a new attempt at a deal set; returns its id.  One transaction."""
        now = _now()
        with self._write() as conn:
            cur = conn.execute(
                "INSERT INTO duplicate_attempts (created, updated, set_key, set_name, player, status, data) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)", (now, now, set_key, set_name, player, IN_PROGRESS, json.dumps(data)))
            attempt_id = cur.lastrowid
        assert attempt_id is not None
        return int(attempt_id)

    def save_duplicate_attempt(self, attempt_id: int, *, status: str, data: Mapping[str, Any]) -> None:
        """Rewrite an attempt (after every action of the board in play).  One transaction."""
        if status not in STATUSES:
            raise LibraryError(f"unknown status {quoted(status)}; the statuses are {', '.join(STATUSES)}")
        with self._write() as conn:
            done = conn.execute("UPDATE duplicate_attempts SET updated = ?, status = ?, data = ? WHERE id = ?",
                                (_now(), status, json.dumps(data), _id(attempt_id)))
            if done.rowcount == 0:
                raise LibraryError(f"no duplicate attempt {attempt_id} in the game library {self.path}")

    def duplicate_attempt(self, attempt_id: int) -> dict[str, Any]:
        """One attempt as a dict (``id``, ``created``, ``updated``, ``set_key``, ``set_name``, ``player``,
        ``status`` and its ``data`` decoded); a :class:`LibraryError` if there is none."""
        found = self.duplicate_attempts(attempt_id=attempt_id)
        if not found:
            raise LibraryError(f"no duplicate attempt {attempt_id} in the game library {self.path}; "
                               "`cinch duplicate list` lists them")
        return found[0]

    def duplicate_attempts(self, set_key: str | None = None, status: str | None = None, *,
                           attempt_id: int | None = None) -> builtins.list[dict[str, Any]]:
        """The attempts (at one set, with one status), the most recently played first."""
        if self._empty or not self._has_table("duplicate_attempts"):
            return []
        sql = "SELECT id, created, updated, set_key, set_name, player, status, data FROM duplicate_attempts"
        where, args = [], []
        for column, value in (("set_key", set_key), ("status", status), ("id", attempt_id)):
            if value is not None:
                where.append(f"{column} = ?")
                args.append(_id(value) if column == "id" else value)
        if where:
            sql += " WHERE " + " AND ".join(where)
        with self._read() as conn:
            rows = conn.execute(sql + " ORDER BY updated DESC, id DESC", args).fetchall()
        keys = ("id", "created", "updated", "set_key", "set_name", "player", "status")
        return [{**dict(zip(keys, r[:7], strict=True)), "data": _json_or(r[7], {})} for r in rows]

    def duplicate_robot(self, set_key: str, board: int, bots: str) -> dict[str, Any] | None:
        """The robot table's result of a board (JSON), if it was played already."""
        if self._empty or not self._has_table("duplicate_robots"):
            return None
        with self._read() as conn:
            row = conn.execute("SELECT result FROM duplicate_robots WHERE set_key = ? AND board = ? AND bots = ?",
                               (set_key, board, bots)).fetchone()
        return None if row is None else _json_or(row[0], None)

    def save_duplicate_robot(self, set_key: str, board: int, bots: str, result: Mapping[str, Any]) -> None:
        with self._write() as conn:
            conn.execute("INSERT OR REPLACE INTO duplicate_robots (set_key, board, bots, result) VALUES (?, ?, ?, ?)",
                         (set_key, board, bots, json.dumps(result)))

    def _has_table(self, name: str) -> bool:
        """Whether the file has table ``name`` (a library of an older schema, read as it is, may not)."""
        with self._read() as conn:
            return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                                (name,)).fetchone() is not None

    # ---- reading ------------------------------------------------------------------------------------------
    def get(self, match_id: int) -> StoredMatch:
        if self._empty:
            raise UnknownMatch(f"no match {_id(match_id)} in the game library {self.path}")
        with self._read() as conn:
            row = conn.execute(f"SELECT {self._columns} FROM matches WHERE id = ?", (_id(match_id),)).fetchone()
        if row is None:
            raise UnknownMatch(f"no match {match_id} in the game library {self.path}")
        return _row_to_match(row)

    def list(self, limit: int | None = None, status: str | None = None) -> list[StoredMatch]:
        """Matches, the most recently played first; ``status`` keeps only those with that status."""
        if status is not None and status not in STATUSES:
            raise LibraryError(f"unknown status {quoted(status)}; the statuses are {', '.join(STATUSES)}")
        sql = f"SELECT {self._columns} FROM matches"
        args: list[Any] = []
        if status is not None:
            sql += " WHERE status = ?"
            args.append(status)
        sql += " ORDER BY updated DESC, id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(int(limit))
        if self._empty:
            return []
        with self._read() as conn:
            rows = conn.execute(sql, args).fetchall()
        return [_row_to_match(r) for r in rows]

    def unfinished(self) -> builtins.list[StoredMatch]:  # builtins: `list` here is the method above
        """The matches in progress that a card table can go on with, the most recently played first
        (score sheets, which have no cards, are :meth:`unfinished_sheets`)."""
        return [m for m in self.list(status=IN_PROGRESS) if m.frontend != SCOREKEEPER]

    def count(self) -> int:
        if self._empty:
            return 0
        with self._read() as conn:
            return int(conn.execute("SELECT count(*) FROM matches").fetchone()[0])

    def record_text(self, match_id: int) -> str:
        """The stored ``cinch/1`` record, checked to be a JSON object (``cinch export``)."""
        stored = self.get(match_id)
        stored.record  # noqa: B018 -- raises DamagedRecord if it is not
        return stored.record_text

    def replay(self, match_id: int) -> Match:
        """The stored match, replayed to where it was saved (finished or not)."""
        return self._replayed(self.get(match_id))

    def _replayed(self, stored: StoredMatch) -> Match:
        if stored.frontend == SCOREKEEPER:
            raise LibraryError(f"match {stored.id} was played with real cards and kept by `cinch score`: it has no "
                               f"cards to play on; `cinch score --resume {stored.id}` goes on with it and "
                               f"`cinch replay {stored.id}` shows it")
        with _damaged_if_bad(stored):
            match = replay(stored.record).match
        if not match.deals and stored.first_dealer is not None:
            match.first_dealer = stored.first_dealer
        return match

    def resume(self, match_id: int) -> Match:
        """The stored match, ready to go on from the exact action where it stopped.

        Its rng (for the next shuffles) is derived from the stored seed and the position, so
        resuming the same position twice deals the same cards.  If the deal waits for a new
        stock's order, it is shuffled now.  An abandoned match is marked in progress again.
        """
        stored = self.get(match_id)
        match = self._replayed(stored)
        if match.is_over:
            assert match.winner is not None
            score = (f"{match.score[0]} to {match.score[1]}" if match.table.partnership
                     else match.table.score_text(match.score))
            raise LibraryError(f"match {match_id} is over: {match.winner} won, {score}; "
                               f"`cinch replay {match_id}` shows it")
        match.rng = random.Random(resume_seed(stored.seed, stored.id, position_of(match)))
        match.resolve_chance()
        if stored.status != IN_PROGRESS:
            with self._write() as conn:
                conn.execute("UPDATE matches SET status = ?, updated = ? WHERE id = ?",
                             (IN_PROGRESS, _now(), stored.id))
        return match


def _id(match_id: Any) -> int:
    try:
        return int(match_id)
    except (TypeError, ValueError):
        raise UnknownMatch(f"{quoted(match_id)} is not a match id (a number, as 12)") from None


def parse_match_id(text: str) -> int | None:
    """``12`` or ``#12`` as a match id; None for anything else."""
    t = text.strip()
    if t.startswith("#"):
        t = t[1:]
    return int(t) if t.isdigit() and len(t) < 19 else None


def _try_write(conn: sqlite3.Connection) -> None:
    """Fail now, not at the first save of a match, if SQLite opened the file read-only (its permissions)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute("UPDATE meta SET value = value WHERE key = 'schema_version'")
    finally:
        conn.execute("ROLLBACK")


def _wal(conn: sqlite3.Connection) -> None:
    """Switch to WAL (kept in the file); a file system without it keeps the rollback journal."""
    mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
    if str(mode).lower() != "wal":
        conn.execute("PRAGMA journal_mode = WAL").fetchone()


def _os_reason(e: OSError, target: Path) -> str:
    """``Permission denied`` rather than ``[Errno 13] Permission denied: '...'``: the message names the path."""
    reason = e.strerror or str(e)
    if e.filename not in (None, "") and str(e.filename) != str(target):
        reason += f" ({e.filename})"  # a folder above the library, say
    return reason


@contextlib.contextmanager
def _damaged_if_bad(stored: StoredMatch) -> Iterator[None]:
    """A stored record that does not replay, or whose rules do not read, as a :class:`DamagedRecord`."""
    try:
        yield
    except RecordError as e:
        raise DamagedRecord(f"match {stored.id}: the stored record does not replay: {e}") from None
    except RulesError as e:
        raise DamagedRecord(f"match {stored.id}: the stored record's rules: {e}") from None


def _sqlite_reason(e: sqlite3.Error) -> str:
    text = str(e)
    if "file is not a database" in text or "malformed" in text:
        return f"the file is damaged or not a cinch game library ({text})"
    if "locked" in text or "busy" in text:
        return f"another program holds the library too long ({text}); try again"
    if "unable to open" in text:
        return f"{text}; check that the file and its folder can be read and written"
    if "readonly" in text or "read-only" in text:
        return f"the library cannot be written ({text}); check the permissions of the file and its folder"
    return text


__all__ = [
    "ABANDONED", "ACCOUNT", "DELETED", "DamagedRecord", "FINISHED", "FORMER_PLAYER", "GUEST", "IN_PROGRESS",
    "Library", "LibraryError", "NameTaken", "NoLibrary", "PLAYER_TABLES", "PlayerTables", "SCHEMA_VERSION",
    "SCOREKEEPER", "StoredMatch", "StoredPlayer", "UnknownMatch", "default_path", "migrate", "parse_match_id",
    "position_of", "refuse_overwriting_library", "refuse_writing_into", "resolve_path", "resume_seed",
]
