"""The daily deals: every UTC day, for each preset the server offers, a set of boards that everyone plays.

At the day's start the server publishes the set's commitments (one per board, the fair shuffle's); at its end
it reveals the salts, so that anyone can deal the decks again and check them (docs/duplicate.md).  A person plays
the set once a day, sitting South with three bots (:attr:`DailyOptions.bots`: those named, else the server's
choice, :meth:`~cinch.server.app.Server.default_bot`), at their own pace within the day, leaving and resuming at
will.  Each board is a duplicate board: its result is NS's score change less EW's; once it is played (and only
then) the person sees its traveller, every result on it so far matchpointed, with the hands and each table's par.
The field always holds the robot table, the same boards played by four bots, worked out once per board and day in
the server's pool of processes.

- :class:`DailyService`: the days, their sets (derived from a secret the store keeps, never shown before the
  day ends), the robot table, the travellers and rankings, the end of a day (made final once, then rated);
- :class:`DailyTable`: a person's table for one day's set, a :class:`~cinch.server.tables.ServerTable`
  whose matches are the boards, one deal each, dealt from the set's shuffles.  Nobody but its player opens it:
  no spectators, no hints, no substitute when the player leaves (the board waits);
- :func:`add_daily_routes`: ``/daily`` (the day's sets, play or resume, the rankings, your past days) and the
  daily table's page, and their API under ``/api/daily``.

The storage is :mod:`cinch.server.fields` (a day's set of a preset is a field; each person's session, and the
robot table, an entrant).  The clock is :attr:`DailyOptions.clock`, so that a test sets "today".
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from cinch.cards import Seat
from cinch.deal import Deal
from cinch.duplicate import (
    DEFAULT_DEALS,
    MAX_DEALS,
    ROBOTS,
    SEATS,
    BoardResult,
    DealSet,
    DuplicateError,
    Standing,
    matchpoints,
    ranking,
)
from cinch.errors import CinchError
from cinch.match import Match
from cinch.record import dumps, loads
from cinch.rules import PRESET_NAMES, Rules
from cinch.server.audience import Client
from cinch.server.boards import (
    BoardsTable,
    answering,
    contract_words,
    fresh,
    in_pool,
    line_key,
    named_record,
    rank_rows,
    result_line,
    robot_board,
    split_result,
)
from cinch.server.fields import PERSON_KIND, ROBOTS_KIND, FieldStore, StoredEntry
from cinch.server.games import BETWEEN, OVER
from cinch.server.pages import page
from cinch.server.protocol import Refusal
from cinch.server.seats import table_json, token_hash
from cinch.server.store import Store
from cinch.server.tables import Settings
from cinch.server.turns import Thinker

log = logging.getLogger("cinch.server")

STATIC = Path(__file__).parent / "static" / "daily"
KIND = "daily"  # a field's kind, a daily table's stored kind, and the front end its boards are saved under
CLOSED = "closed"  # a daily table whose day is over: nothing more is played at it
DAY_SECONDS = 86400
TICK = 30.0  # seconds between looks at the clock: a day's end made final, the next day's sets opened
CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


@dataclass
class DailyOptions:
    """The server's settings for the daily deals (``cinch serve --daily-*``)."""

    presets: tuple[str, ...] = ("official", "pagat")  # the sets offered each day, one per preset
    bots: str = "expert"  # the partner and opponents at a person's table, and the robot table's four
    deals: int = DEFAULT_DEALS  # boards in a day's set
    pace: float = 0.6  # seconds a bot waits before it acts at a person's table (0: at once)
    clock: Callable[[], float] = field(default=time.time, repr=False)  # seconds since 1970; tests set "today"

    def __post_init__(self) -> None:
        unknown = [p for p in self.presets if p not in PRESET_NAMES]
        if unknown:
            raise DuplicateError(f"the daily deals are offered for presets, not {unknown[0]!r}; the presets are "
                                 f"{', '.join(PRESET_NAMES)}")
        if isinstance(self.deals, bool) or not 1 <= self.deals <= MAX_DEALS:
            raise DuplicateError(f"a day's set holds 1 to {MAX_DEALS} boards, not {self.deals}")
        for preset in self.presets:
            DealSet.derive("check", Rules.preset(preset), 1, secret="0" * 64)  # (a preset duplicate refuses)


# ---- days -------------------------------------------------------------------------------------------------------
def day_of(seconds: float) -> str:
    """The UTC day of a time, as ``2026-12-05``."""
    return datetime.fromtimestamp(seconds, UTC).date().isoformat()


def day_start(day: str) -> float:
    """When a day begins (its midnight, UTC), in seconds since 1970."""
    return datetime.fromisoformat(day).replace(tzinfo=UTC).timestamp()


def check_day(text: str) -> str:
    """A day named in a path (``2026-12-05``), or a refusal saying how one is written."""
    try:
        return date.fromisoformat(text).isoformat()
    except ValueError:
        raise Refusal("bad-day", f"a day is written YYYY-MM-DD (as 2026-12-05), not {text[:20]!r}") from None


def field_id(day: str, preset: str) -> str:
    return f"{KIND}/{day}/{preset}"


def _hmac(secret: str, text: str) -> bytes:
    return hmac.new(bytes.fromhex(secret), text.encode("utf-8"), hashlib.sha256).digest()


def standing_json(s: Standing, entry: StoredEntry | None, viewer: str | None) -> dict[str, Any]:
    return {"rank": s.rank, "name": entry.name if entry is not None else s.entrant, "boards": s.boards,
            "percentage": round(s.percentage, 2), "total": s.total, "mine": s.entrant == viewer,
            "robots": s.entrant == ROBOTS, "profile": None if entry is None else entry.profile}


# ---- the service ------------------------------------------------------------------------------------------------
class DailyService:
    """The daily deals of one server process (its rooms, its store and its pool are the ``server``'s).

    ``fields`` is the field store the HTTP routes and the background work use, in worker threads (on PostgreSQL
    a connection of its own); ``table_fields`` the one a table's change writes a board's result through, on the
    event loop, in the change's own transaction."""

    def __init__(self, server: Any, options: DailyOptions, fields: FieldStore, *, owns_fields: bool = False):
        self.server = server
        self.options = options
        self.fields = fields
        self.owns_fields = owns_fields
        self.table_fields = FieldStore(server.store.library)
        self._secret: str | None = None
        self._sets: dict[tuple[str, str], DealSet] = {}
        self._opened: set[str] = set()
        self._robots: dict[str, asyncio.Task[None]] = {}
        self._ticker: asyncio.Task[None] | None = None
        self._closing: asyncio.Lock | None = None
        self._final: dict[str, list[Standing]] = {}  # (a final field's ranking does not change)
        self.ratings: Any = None  # cinch.server.ratings.Ratings: a day's final ranking is rated once

    # ---- the clock and the sets ---------------------------------------------------------------------------
    def now(self) -> float:
        return self.options.clock()

    def today(self) -> str:
        return day_of(self.now())

    def is_over(self, day: str) -> bool:
        """Whether the day has ended (by the server's clock)."""
        return self.now() >= day_start(day) + DAY_SECONDS

    def check_preset(self, preset: str) -> str:
        if preset not in self.options.presets:
            raise Refusal("unknown-preset", f"the daily deals are played under {', '.join(self.options.presets)}, "
                                            f"not {preset[:30]!r}")
        return preset

    def secret(self) -> str:
        """The server's secret the sets' salts derive from: made once, kept in the store, never shown."""
        if self._secret is None:
            self._secret = self.table_fields.secret("daily", secrets.token_hex(32))
        return self._secret

    def deal_set(self, day: str, preset: str) -> DealSet:
        """The day's set of the preset, with its salts (the server's: shown only once the day is over)."""
        key = (day, preset)
        found = self._sets.get(key)
        if found is None:
            secret = _hmac(self.secret(), f"cinch/1 daily set\n{field_id(day, preset)}").hex()
            found = DealSet.derive(f"{day}/{preset}", Rules.preset(preset), self.options.deals, secret=secret,
                                   bots=self.options.bots)
            if len(self._sets) > 64:
                self._sets.clear()
            self._sets[key] = found
        return found

    def shown_set(self, day: str, preset: str) -> dict[str, Any]:
        """The set as anyone may see it now: its commitments, and once the day is over its salts."""
        deal_set = self.deal_set(day, preset)
        return (deal_set.revealed() if self.is_over(day) else deal_set.published()).to_json()

    def table_code(self, day: str, preset: str, player_id: str) -> str:
        """A person's daily table's code: the same for the same day, preset and player, anyone else's unguessable."""
        digest = _hmac(self.secret(), f"cinch/1 daily table\n{field_id(day, preset)}\n{player_id}")
        return "DAY" + "".join(CODE_LETTERS[b % len(CODE_LETTERS)] for b in digest[:9])

    def token(self, code: str) -> str:
        """The seat token of a daily table: given again to its player (known by the session) whenever asked."""
        return _hmac(self.secret(), f"cinch/1 daily seat\n{code}").hex()[:48]

    # ---- opening a day ------------------------------------------------------------------------------------
    async def open_day(self, day: str) -> None:
        """The day's fields, made if new (the published sets, the robot table entered), and the robot table's
        boards worked out in the background by the process that made them (any other on demand)."""
        for preset in self.options.presets:
            fid = field_id(day, preset)
            if fid in self._opened:
                continue
            published = self.deal_set(day, preset).published().to_json()
            stored, made = await asyncio.to_thread(
                self.fields.open_field, fid, kind=KIND, family=preset, deal_set=published, data={"preset": preset,
                                                                                                "day": day},
                now=self.now(), closes=day_start(day) + DAY_SECONDS)
            await asyncio.to_thread(self.fields.enter, fid, ROBOTS, kind=ROBOTS_KIND, now=self.now(),
                                    label=f"Robot table ({self.options.bots})")
            self._opened.add(fid)
            if made and not self.is_over(day):
                self.robots(day, preset)

    def robots(self, day: str, preset: str) -> asyncio.Task[None]:
        """The task that plays the robot table's boards not yet in the store (one per field in this process)."""
        fid = field_id(day, preset)
        task = self._robots.get(fid)
        if task is None or (task.done() and (task.cancelled() or task.exception() is not None)):
            task = asyncio.get_running_loop().create_task(self._play_robots(day, preset))
            self._robots[fid] = task
        return task

    async def _play_robots(self, day: str, preset: str) -> None:
        fid = field_id(day, preset)
        deal_set = self.deal_set(day, preset)
        set_json = deal_set.to_json(secret=True)
        for board in range(1, deal_set.deals + 1):
            if await asyncio.to_thread(self.fields.result, fid, board, ROBOTS) is not None:
                continue
            data = await in_pool(self.server, robot_board, set_json, board)
            result = BoardResult.from_json(data)
            summary, record = split_result(result)
            await asyncio.to_thread(self.fields.add_result, fid, board, ROBOTS, result.result, summary, record,
                                    now=self.now(), boards=deal_set.deals)

    async def robot_ready(self, day: str, preset: str, board: int) -> None:
        """Wait until the robot table's result of ``board`` is in the store (playing it here if no process is)."""
        fid = field_id(day, preset)
        for _ in range(2):
            if await asyncio.to_thread(self.fields.result, fid, board, ROBOTS) is not None:
                return
            task = self.robots(day, preset)
            with contextlib.suppress(Exception):
                await asyncio.shield(task)

    # ---- the end of a day -------------------------------------------------------------------------------------
    async def close_days(self) -> None:
        """Make every day that has ended final (once, in whichever process gets there first): its sessions
        ranked, its tables closed, and its ranking given to the ratings."""
        if self._closing is None:
            self._closing = asyncio.Lock()
        async with self._closing:
            ended = await asyncio.to_thread(self.fields.fields, KIND, "open", self.now())
            for stored in ended:
                day, preset = stored.data.get("day"), stored.data.get("preset")
                if not isinstance(day, str) or not isinstance(preset, str) or not self.is_over(day):
                    continue
                won = await asyncio.to_thread(self.fields.finalize, stored.id, self.now(), rank_rows)
                self._close_tables(day, preset)
                if won:
                    await self._rate(preset, day, stored.id)

    def _close_tables(self, day: str, preset: str) -> None:
        """The day's tables held here: their players told the day is over, the tables let go."""
        for code, table in list(self.server.rooms.items()):
            if isinstance(table, DailyTable) and table.day == day and table.preset == preset:
                table.broadcast()
                table.close()
                del self.server.rooms[code]
                with contextlib.suppress(CinchError):
                    self.server.library.save_room(code, status=CLOSED, match_id=table.match_id, data=table.to_json())

    async def _rate(self, preset: str, day: str, fid: str) -> None:
        """The final ranking to the ratings (``Ratings.record_daily``, cinch.server.ratings): each standing's entrant
        a player's id, or ``robots`` for the robot table, an anchor at the level of :attr:`DailyOptions.bots`."""
        scores = await asyncio.to_thread(self.fields.scores, fid)
        final = ranking(scores)
        self._final[fid] = final
        if self.ratings is None:
            return
        try:
            await asyncio.to_thread(self.ratings.record_daily, preset, day, final, robots=self.options.bots)
        except Exception:
            log.exception("daily %s: the ratings could not take the day's ranking", fid)

    async def tick(self) -> None:
        """Every :data:`TICK` seconds: the days that have ended made final.  (A day's sets are opened, and its robot
        table set going, by its first visitor: a server nobody visits spends nothing on them.)"""
        while True:
            try:
                await self.close_days()
            except (CinchError, OSError) as e:
                log.warning("daily: %s", e)
            except Exception:
                log.exception("daily: the look at the clock failed")
            await asyncio.sleep(TICK)

    def start(self) -> None:
        self._ticker = asyncio.get_running_loop().create_task(self.tick())

    def stop(self) -> None:
        for task in [self._ticker, *self._robots.values()]:
            if task is not None:
                task.cancel()
        if self.owns_fields:
            close = getattr(self.fields.library, "close", None)
            if close is not None:
                close()

    # ---- a person's table -------------------------------------------------------------------------------------
    def settings(self, preset: str) -> Settings:
        pace = self.options.pace
        return Settings(Rules.preset(preset), grace=0.0, between_deals=8.0, bot_delay=pace, trick_pause=2 * pace,
                        hints=False, listed=False, substitute=self.options.bots)

    async def seat(self, player: Any, preset: str) -> dict[str, Any]:
        """A person sits down at today's set of ``preset``: their table (made the first time, resumed after),
        with its code and seat token; refused once they have finished the day's set."""
        day = self.today()
        await self.open_day(day)
        fid = field_id(day, preset)
        code = self.table_code(day, preset, player.id)
        entry, _ = await asyncio.to_thread(self.fields.enter, fid, player.id, kind=PERSON_KIND, now=self.now(),
                                           members={"S": player.id}, table_code=code)
        if entry.status == "finished":
            raise Refusal("played", f"you have played today's {preset} set: its ranking and your travellers are on "
                                    "/daily, and a new set comes at midnight UTC")
        table = self.server.room_for(code)
        if table is None:
            table = self._new_table(code, day, preset, player.id)
        if not isinstance(table, DailyTable):
            raise Refusal("storage", "that table is not a daily table")
        table.shown_name = player.name
        if table.table is None:
            with table._change():
                if table.table is None:  # (another process may have dealt the first board a moment ago)
                    table.start_board(1)
        return {"code": code, "token": self.token(code), "seat": "S", "day": day, "preset": preset,
                "board": table.board, "boards": table.deals}

    def _new_table(self, code: str, day: str, preset: str, player_id: str) -> DailyTable:
        server = self.server
        table = DailyTable(code, self.settings(preset), server.library, service=self, day=day, preset=preset,
                           entrant=player_id, token_digest=token_hash(self.token(code)), thinker=server.thinker,
                           store=server.store)
        if not server.store.create_room(table):  # (another process made it a moment ago)
            found = server.room_for(code)
            if not isinstance(found, DailyTable):
                raise Refusal("storage", "the daily table could not be made; try again")
            return found
        server.rooms[code] = table
        return table

    def load_table(self, row: dict[str, Any], thinker: Thinker | None, store: Store) -> DailyTable:
        """A stored daily table (a restart, or a process of a cluster taking it up)."""
        data = row["data"]
        table = DailyTable(row["code"], Settings.from_json(data["settings"]), store.library, service=self,
                           day=str(data["day"]), preset=str(data["preset"]), entrant=str(data["entrant"]),
                           token_digest=None, thinker=thinker, store=store)
        table.restore(row)
        return table

    # ---- what a person may see --------------------------------------------------------------------------------
    def traveller(self, day: str, preset: str, board: int, viewer: str | None) -> dict[str, Any]:
        """(In a worker thread.)  Every result on ``board`` so far, best for NS first, matchpointed, with the hands
        as dealt; each line links to its record (replay, analysis)."""
        fid = field_id(day, preset)
        deal_set = self.deal_set(day, preset)
        results = self.fields.board_results(fid, board)
        entries = {e.entrant: e for e in self.fields.entries(fid)}
        lines: list[dict[str, Any]] = []
        for r, mp in zip(results, matchpoints([r.result for r in results]), strict=True):
            entry = entries.get(r.entrant)
            record = f"/api/daily/{day}/{preset}/boards/{board}/records/{line_key(r.entrant)}"
            lines.append({
                "name": entry.name if entry is not None else "?", "mine": r.entrant == viewer,
                "robots": r.entrant == ROBOTS, "profile": None if entry is None else entry.profile,
                **result_line(r.data, r.result, mp, record)})
        lines.sort(key=lambda line: (-int(line["result"]), not line["mine"], str(line["name"])))
        deal = Deal(deal_set.rules, deal_set.dealer(board), deal_set.deck(board))
        return {"day": day, "preset": preset, "set": deal_set.name, "board": board, "boards": deal_set.deals,
                "dealer": deal_set.dealer(board).name,
                "hands": {seat.name: [str(c) for c in hand] for seat, hand in zip(SEATS, deal.dealt, strict=True)},
                "results": lines}

    def record(self, day: str, preset: str, board: int, key: str) -> dict[str, Any] | None:
        """(In a worker thread.)  The record of the result ``key`` names on ``board``, its player named as now."""
        fid = field_id(day, preset)
        for r in self.fields.board_results(fid, board):
            if line_key(r.entrant) != key:
                continue
            text = self.fields.record(fid, board, r.entrant)
            entry = self.fields.entry(fid, r.entrant)
            if text is None:
                return None
            return named_record(loads(text), {r.entrant: entry.name if entry is not None else "?"})
        return None

    def standings(self, fid: str) -> list[Standing]:
        """(In a worker thread.)  The field's ranking: those who have finished its set, and the robot table."""
        final = self._final.get(fid)
        if final is not None:
            return final
        stored = self.fields.field(fid)
        found = ranking(self.fields.scores(fid))
        if stored is not None and stored.is_final:
            self._final[fid] = found
        return found

    def session(self, fid: str, entrant: str) -> dict[str, Any] | None:
        """(In a worker thread.)  A finished session's percentage, total points and rank among the finished."""
        ranked = self.standings(fid)
        mine = next((s for s in ranked if s.entrant == entrant), None)
        if mine is None:
            return None
        return {"percentage": round(mine.percentage, 2), "total": mine.total, "rank": mine.rank, "of": len(ranked)}

    def ranking_json(self, fid: str, viewer: str | None) -> list[dict[str, Any]]:
        entries = {e.entrant: e for e in self.fields.entries(fid)}
        return [standing_json(s, entries.get(s.entrant), viewer) for s in self.standings(fid)]

    def overview(self, player: Any) -> dict[str, Any]:
        """(In a worker thread.)  What /daily shows: today's sets (commitments, where the viewer stands, the
        ranking once they have finished), yesterday's sets revealed with their final rankings, and the viewer's
        past days with their ranks."""
        today = self.today()
        viewer = None if player is None else player.id
        sets = []
        for preset in self.options.presets:
            line = self.set_line(today, preset, viewer)
            fid = field_id(today, preset)
            sets.append({**line, "set": self.shown_set(today, preset), "bots": self.options.bots,
                         "ranking": self.ranking_json(fid, viewer) if line["status"] == "finished" else None})
        yesterday = day_of(day_start(today) - DAY_SECONDS)
        revealed = []
        for preset in self.options.presets:
            fid = field_id(yesterday, preset)
            if self.fields.field(fid) is None:
                continue
            revealed.append({"preset": preset, "day": yesterday, "set": self.shown_set(yesterday, preset),
                             "ranking": self.ranking_json(fid, viewer)})
        return {"day": today, "ends": datetime.fromtimestamp(day_start(today) + DAY_SECONDS, UTC).isoformat(),
                "bots": self.options.bots, "deals": self.options.deals,
                "player": None if player is None else {"name": player.name, "kind": player.kind},
                "sets": sets, "yesterday": revealed, "past": self.past_days(viewer) if viewer is not None else []}

    def set_line(self, day: str, preset: str, viewer: str | None) -> dict[str, Any]:
        """(In a worker thread.)  Where a day's set of a preset stands: its boards, how many people have played it
        (finished, and still playing), where the viewer stands (``new``, ``playing`` with the boards played, or
        ``finished`` with their score and rank), and where it is played."""
        fid = field_id(day, preset)
        entries = self.fields.entries(fid)
        mine = next((e for e in entries if e.entrant == viewer), None)
        finished = mine is not None and mine.status == "finished"
        people = [e for e in entries if e.kind == PERSON_KIND]
        return {"preset": preset, "rules": Rules.preset(preset).name, "day": day, "boards": self.options.deals,
                "status": "new" if mine is None else mine.status, "played": 0 if mine is None else mine.boards,
                "finished": sum(1 for e in people if e.status == "finished"),
                "playing": sum(1 for e in people if e.status != "finished"),
                "you": self.session(fid, viewer) if finished and viewer is not None else None,
                "play": f"/daily/play/{preset}"}

    def today_json(self, player: Any) -> dict[str, Any]:
        """(In a worker thread.)  What the lobby's card shows of today's sets (:meth:`set_line`), read without
        opening the day: a visit to the lobby sets no robot table going."""
        today = self.today()
        viewer = None if player is None else player.id
        return {"day": today, "ends": datetime.fromtimestamp(day_start(today) + DAY_SECONDS, UTC).isoformat(),
                "bots": self.options.bots, "deals": self.options.deals, "page": "/daily",
                "sets": [self.set_line(today, preset, viewer) for preset in self.options.presets]}

    def past_days(self, player_id: str, *, final_only: bool = False) -> list[dict[str, Any]]:
        """(In a worker thread.)  A player's days, the newest first: each set played, with its rank (among those
        who finished it; provisional until the day is over)."""
        out = []
        for stored, entry in self.fields.player_entries(player_id, KIND):
            if final_only and not stored.is_final:
                continue
            day, preset = stored.data.get("day"), stored.data.get("preset")
            item: dict[str, Any] = {"day": day, "preset": preset, "status": entry.status, "boards": entry.boards,
                                    "final": stored.is_final, "rank": None, "of": None, "percentage": None,
                                    "total": None, "set": f"/api/daily/{day}/{preset}"}
            if entry.status == "finished":
                session = self.session(stored.id, player_id)
                if session is not None:
                    item.update(rank=session["rank"], of=session["of"], percentage=session["percentage"],
                                total=session["total"])
            out.append(item)
        return out

    def day_json(self, day: str, preset: str, player: Any) -> dict[str, Any]:
        """(In a worker thread.)  One day's set of a preset: commitments (and salts once over), the viewer's
        boards and the travellers they may open, and the ranking (once over, or once the viewer has finished)."""
        fid = field_id(day, preset)
        stored = self.fields.field(fid)
        if stored is None:
            raise Refusal("no-set", f"there is no {preset} set of {day} on this server")
        viewer = None if player is None else player.id
        mine = None if viewer is None else self.fields.entry(fid, viewer)
        over = self.is_over(day)
        played = 0 if mine is None else mine.boards
        shown = over or (mine is not None and mine.status == "finished")
        return {"day": day, "preset": preset, "final": stored.is_final, "over": over,
                "set": self.shown_set(day, preset), "played": played,
                "travellers": [f"/api/daily/{day}/{preset}/boards/{n}"
                               for n in range(1, self.options.deals + 1) if over or n <= played],
                "ranking": self.ranking_json(fid, viewer) if shown else None,
                "you": self.session(fid, viewer) if shown and viewer is not None else None}


# ---- a person's table -------------------------------------------------------------------------------------------
class DailyTable(BoardsTable):
    """A person's table for one day's set of a preset: the person in South, three bots, one board at a time.

    Each board is a match of one deal (:class:`~cinch.server.boards.BoardsTable`: the boards as the private events'
    tables play them too), dealt from the set's shuffle and saved in the library under the front end ``daily``
    (never listed by the replay viewer).  When its deal ends, its result goes into the field within the same change
    (counted once); the person's Next deals the next board.  The seat's token is the service's, given to the player
    (known by the session) whenever they open the table; nobody else opens it."""

    frontend = KIND

    def __init__(self, code: str, settings: Settings, library: Any, *, service: DailyService, day: str, preset: str,
                 entrant: str, token_digest: str | None, thinker: Thinker | None = None, store: Store | None = None):
        self.service = service
        self.day = day
        self.preset = preset
        self.entrant = entrant  # the player's id: the field's entrant, and the name the stored records hold
        self.shown_name: str | None = None  # the player's name, as the page shows it (never stored here)
        super().__init__(code, settings, library, thinker=thinker, store=store)
        if token_digest is not None:
            for seat in self.seating.seats:
                if seat is Seat.S:
                    self.seats.sit(seat, entrant, token_digest, "")
                else:
                    self.seats.give_to_bot(seat, service.options.bots)

    # ---- what it plays ------------------------------------------------------------------------------------------
    @property
    def field_id(self) -> str:
        return field_id(self.day, self.preset)

    @property
    def deal_set(self) -> DealSet:
        return self.service.deal_set(self.day, self.preset)

    @property
    def status(self) -> str:
        return CLOSED if self.service.is_over(self.day) else self.board_status()

    def closed_now(self) -> bool:
        return self.service.is_over(self.day)

    # ---- what it shows and keeps ------------------------------------------------------------------------------
    def info(self) -> dict[str, Any]:
        rules = self.settings.rules
        seats = self.seats.info(self.here())
        for seat in seats:
            if seat["seat"] == "S":
                seat["name"] = self.shown_name or "you"
        status = self.status
        return {"code": self.code, "link": f"/daily/play/{self.preset}", "status": OVER if status == CLOSED else status,
                "rules": rules.to_json(), "rules_name": rules.name, "target": rules.target,
                **table_json(self.seating), "seats": seats, "spectators": 0, "grace": 0.0,
                "between_deals": self.settings.between_deals, "trick_pause": self.settings.trick_pause,
                "hints": False, "match_id": self.board or None,  # (the board: a daily board's match is never listed)
                "ready": self.between.ready_names(self.seating) if status == BETWEEN else [],
                "daily": {"day": self.day, "preset": self.preset, "board": self.board, "boards": self.deals,
                          "closed": status == CLOSED, "bots": self.service.options.bots}}

    def to_json(self) -> dict[str, Any]:
        return {"kind": KIND, "settings": self.settings.to_json(), "day": self.day, "preset": self.preset,
                "entrant": self.entrant, **self.kept_json()}

    def record(self) -> dict[str, Any]:
        raise Refusal("no-record", "a daily table's boards are shown to those who have played them, as travellers "
                                   "on /daily")

    # ---- who may open it, and what it refuses -----------------------------------------------------------------
    def attach(self, client: Client, token: str | None, host_token: str | None) -> None:
        seat = None if token is None else self.seat_of(token)
        if seat is None or host_token is not None:
            raise Refusal("no-spectators", "a daily table is its player's alone: nobody watches it; open your own "
                                           "from /daily")
        self.open(client, seat, token)

    def _refuse(self, *_: Any, **__: Any) -> None:
        raise Refusal("daily-table", "a daily table seats its player and three bots: nobody joins, leaves, fills a "
                                     "seat or starts it; press Next after a board for the next")

    join = leave = fill = start = rematch = _refuse

    def hint(self, client: Client) -> None:
        raise Refusal("hints-off", "a daily table gives no hints: every table plays the day's boards alike")

    def chat(self, client: Client, text: str) -> None:
        raise Refusal("no-chat", "a daily table has nobody to chat with")

    def _start_grace(self, seat: Seat) -> None:
        """No substitute: a person who leaves a daily table finds the board where they left it."""

    def bots_may_play(self) -> bool:
        return super().bots_may_play() and not self.service.is_over(self.day)

    # ---- the end of a board (cinch.server.boards) ---------------------------------------------------------------
    def result_of(self, match: Match, board: int) -> BoardResult:
        return BoardResult.of(match, board, self.entrant, self.service.options.bots, set_name=self.deal_set.name)

    def report(self, result: BoardResult) -> None:
        summary, record = split_result(result)
        self.service.table_fields.add_result(self.field_id, result.board, self.entrant, result.result, summary,
                                             record, now=self.service.now(), boards=self.deals, match_id=self.match_id)

    # ---- the traveller, to the player's connections -------------------------------------------------------------
    def listens(self, client: Client) -> bool:
        return client.seat is Seat.S

    async def tell_board(self, board: int, clients: list[Client]) -> bool:
        service = self.service
        await service.robot_ready(self.day, self.preset, board)
        traveller = await asyncio.to_thread(service.traveller, self.day, self.preset, board, self.entrant)
        session = None
        if board >= self.deals:
            session = await asyncio.to_thread(service.session, self.field_id, self.entrant)
        if not any(line["mine"] for line in traveller["results"]):  # (the change that ended it did not stand)
            return False
        message = {"type": "daily", "board": board, "traveller": traveller, "session": session}
        for c in clients:
            self.send_if_here(c, board, message)
        return True


# ---- the routes ---------------------------------------------------------------------------------------------------
def add_daily_routes(routes: list[Any], server: Any, options: DailyOptions | None, *,
                     ratings: Any = None) -> DailyService | None:
    """The daily deals' pages and API (nothing when ``options`` is None: a server without them); ``ratings`` takes
    each day's final ranking (:meth:`cinch.server.ratings.Ratings.record_daily`)."""
    if options is None:
        return None
    from cinch.server.players import open_store, player_of

    store, owned = open_store(server)
    service = DailyService(server, options, FieldStore(store), owns_fields=owned)
    service.ratings = ratings

    # (a day that has just ended is final before anything is shown of it)
    answer = answering("the daily deals", {"unknown-preset": 404, "no-set": 404, "no-board": 404, "not-played": 403,
                                           "signed-out": 401, "played": 409, "storage": 503}, before=service.close_days)

    async def overview(request: Request) -> Response:
        player = await player_of(request)
        await service.open_day(service.today())
        return fresh(await asyncio.to_thread(service.overview, player))

    async def today(request: Request) -> Response:
        return fresh(await asyncio.to_thread(service.today_json, await player_of(request)))

    async def day(request: Request) -> Response:
        day_, preset = check_day(request.path_params["day"]), service.check_preset(request.path_params["preset"])
        return fresh(await asyncio.to_thread(service.day_json, day_, preset, await player_of(request)))

    async def board_of(request: Request) -> tuple[str, str, int, Any]:
        """The day, preset and board a path names, checked: refused unless the viewer has played that board
        (or the day is over)."""
        day_, preset = check_day(request.path_params["day"]), service.check_preset(request.path_params["preset"])
        raw = request.path_params["board"]
        if not raw.isdigit() or not 1 <= int(raw) <= options.deals:
            raise Refusal("no-board", f"a day's set has boards 1 to {options.deals}, not {raw[:10]!r}")
        board = int(raw)
        player = await player_of(request)
        fid = field_id(day_, preset)
        stored = await asyncio.to_thread(service.fields.field, fid)
        if stored is None:
            raise Refusal("no-set", f"there is no {preset} set of {day_} on this server")
        mine = None if player is None else await asyncio.to_thread(service.fields.result, fid, board, player.id)
        if mine is None and not service.is_over(day_):
            raise Refusal("not-played", f"board {board} of the {preset} set of {day_} is shown to those who have "
                                        "played it, and to everyone once the day is over")
        return day_, preset, board, player

    async def traveller(request: Request) -> Response:
        day_, preset, board, player = await board_of(request)
        viewer = None if player is None else player.id
        await service.robot_ready(day_, preset, board)
        return fresh(await asyncio.to_thread(service.traveller, day_, preset, board, viewer))

    async def record(request: Request) -> Response:
        day_, preset, board, _ = await board_of(request)
        found = await asyncio.to_thread(service.record, day_, preset, board, request.path_params["line"][:32])
        if found is None:
            raise Refusal("no-board", f"board {board} has no such result")
        return Response(dumps(found), media_type="application/json", headers={"Cache-Control": "no-store"})

    async def play(request: Request) -> Response:
        player = await player_of(request)
        if player is None:
            raise Refusal("signed-out", "play as a guest or sign in first (the bar at the top of the page): a daily "
                                        "session belongs to a player")
        preset = service.check_preset(request.path_params["preset"])
        return fresh(await service.seat(player, preset))

    routes.extend([
        Route("/daily", page(STATIC / "index.html")),
        Route("/daily/play/{preset}", page(STATIC / "table.html")),
        Route("/api/daily", answer(overview), methods=["GET"]),
        Route("/api/daily/today", answer(today), methods=["GET"]),  # (the lobby's card)
        Route("/api/daily/{preset}/play", answer(play), methods=["POST"]),
        Route("/api/daily/{day}/{preset}", answer(day), methods=["GET"]),
        Route("/api/daily/{day}/{preset}/boards/{board}", answer(traveller), methods=["GET"]),
        Route("/api/daily/{day}/{preset}/boards/{board}/records/{line}", answer(record), methods=["GET"]),
    ])
    server.daily = service
    return service


def daily_section(library: Any, player_id: str) -> dict[str, Any]:
    """(The profile's ``daily`` section.)  A player's days that are over, the newest first, each with its rank among
    those who finished the set (the robot table counted), its percentage and total points."""
    fields = FieldStore(library)
    final = [(stored, entry) for stored, entry in fields.player_entries(player_id, KIND)
             if stored.is_final and entry.status == "finished" and entry.rank is not None]
    ranked = fields.ranked(stored.id for stored, _ in final)
    return {"days": [{"day": stored.data.get("day"), "preset": stored.data.get("preset"), "rank": entry.rank,
                      "of": ranked.get(stored.id), "percentage": entry.percentage, "total": entry.total,
                      "set": f"/api/daily/{stored.data.get('day')}/{stored.data.get('preset')}"}
                     for stored, entry in final]}


__all__ = ["CLOSED", "DailyOptions", "DailyService", "DailyTable", "KIND", "add_daily_routes", "contract_words",
           "daily_section", "day_of", "day_start", "field_id", "line_key", "named_record", "robot_board"]
