"""Private duplicate events: a host's tables of four, every one playing the same boards in the same order.

A host creates an event (``POST /api/events``: the rules, the number of boards and of tables, the robot table's
bots); each table is a :class:`EventTable`, a :class:`~cinch.server.tables.ServerTable` that plays the event's deal
set board by board (:class:`~cinch.server.boards.BoardsTable`).  People take its seats by its invite link (a table's
link, any empty seat; or a seat's link) as players (a guest or an account: the results are kept by player); the host
fills the others with bots and starts the event, every table at once.  The tables then go at their own pace.

**Movement and ranking.**  Nobody moves: each table's North-South pair plays every board North-South, its East-West
pair East-West.  A board's result at a table is NS's score change less EW's (:mod:`cinch.duplicate`); the NS pair
scores that number and the EW pair its opposite.  Pairs are ranked as bridge ranks a session without a movement, in
**two fields** (a two-winner event): every NS pair against the other NS pairs on the same cards, every EW pair against
the other EW pairs, by matchpoints, then total points (:func:`rank_pairs`).  NS and EW hold different cards, so a
pair is never compared with one of the other direction.  The robot table (the same boards played by four bots of
the host's choice; none if the host says so) has a pair in each field.

**What is hidden, and when.**  A board's traveller (every table's result on it, the hands, the pars, the records)
opens only to the pairs who have played it, and to everyone once the event is over.  The ranking a player sees counts
only the boards their own pair has played (every table's results on them); anyone else (a spectator, the host who
does not play) sees it over the boards every table has finished.  A spectator may watch any table, and sees it as a
room's spectator does; a player of the event may watch another table only once the event is over (a player at table
2 must not watch table 1 play the board they are about to play).  When every pair has played every board the event
is over: its ranking final (kept in the field), the deal set's salts revealed, the ranking rated once.

The storage is the duplicate fields' (:mod:`cinch.server.fields`): the event is a field of kind ``event`` (its data:
the host's token's hash, the tables, the rules, who sat where at the start), each pair an entrant (``T1:NS``, its
players by seat), the robot table's pairs ``robots:NS`` and ``robots:EW``.  The tables are kept as rooms are, under
their codes, so a restarted server, or another process of a cluster, goes on with them.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import secrets as stdlib_secrets
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

import cinch.server.rooms as rooms
from cinch.cards import Seat
from cinch.deal import Deal
from cinch.duplicate import DEFAULT_ROBOTS, MAX_DEALS, SEATS, BoardResult, DealSet, DuplicateError, matchpoints, ranking
from cinch.errors import CinchError
from cinch.library import ACCOUNT, LibraryError
from cinch.match import Match
from cinch.record import dumps, loads
from cinch.rules import Rules
from cinch.server.audience import Client
from cinch.server.boards import (
    BoardsTable,
    answering,
    fresh,
    in_pool,
    named_record,
    result_line,
    robot_board,
    split_result,
)
from cinch.server.fields import FINISHED, PAIR_KIND, ROBOTS_KIND, FieldStore, StoredEntry, StoredField
from cinch.server.games import BETWEEN, OVER, WAITING
from cinch.server.pages import page, read_json
from cinch.server.players import profile_path
from cinch.server.protocol import Refusal
from cinch.server.ratings import Entrant, family_of
from cinch.server.seats import Place, Seats, seat_info, seat_named, table_json, token_hash
from cinch.server.store import StorageFailed, Store
from cinch.server.tables import Settings
from cinch.server.turns import Thinker
from cinch.table.advice import available_bots

log = logging.getLogger("cinch.server")

STATIC = Path(__file__).parent / "static" / "events"
KIND = "event"  # a field's kind, an event table's stored kind, and the front end its boards are saved under
ID_LETTERS = rooms.CODE_LETTERS
ID_LENGTH = 8
MAX_TABLES = 16
DEFAULT_DEALS = 8
MAX_NAME = 60
MAX_BODY = 16 * 1024  # bytes: the most an event's creation (or a host's order) reads
SIDES = ("NS", "EW")
SIDE_SEATS = {"NS": (Seat.N, Seat.S), "EW": (Seat.E, Seat.W)}
ROBOT_TABLE = "robots"  # the robot table's pairs are robots:NS and robots:EW
NO_ROBOTS = "none"


def field_id(event_id: str) -> str:
    return f"{KIND}/{event_id}"


def pair_of(table: int | None, side: str) -> str:
    """A pair's entrant: ``T2:EW`` (table 2's East-West pair), or ``robots:NS`` (``table`` None: the robot table)."""
    return f"{ROBOT_TABLE if table is None else f'T{table}'}:{side}"


def side_of(entrant: str) -> str:
    return entrant.rsplit(":", 1)[-1]


def table_number(entrant: str) -> int | None:
    """The table a pair sits at (None: the robot table)."""
    head = entrant.split(":", 1)[0]
    return int(head[1:]) if head.startswith("T") and head[1:].isdigit() else None


def side_of_seat(seat: Seat) -> str:
    return "NS" if seat in SIDE_SEATS["NS"] else "EW"


def rank_pairs(scores: dict[str, list[tuple[int, int]]]) -> list[tuple[str, int, float, int]]:
    """(:meth:`FieldStore.finalize`.)  A two-winner ranking: the NS pairs among themselves, the EW pairs among
    themselves, each by matchpoints then total points; rows of entrant, rank in its field, percentage, total.

    >>> rank_pairs({"T1:NS": [(1, 5)], "T2:NS": [(1, -5)], "T1:EW": [(1, -5)], "T2:EW": [(1, 5)]})
    [('T1:NS', 1, 100.0, 5), ('T2:NS', 2, 0.0, -5), ('T2:EW', 1, 100.0, 5), ('T1:EW', 2, 0.0, -5)]
    """
    rows = []
    for side in SIDES:
        rows += [(s.entrant, s.rank, round(s.percentage, 4), s.total)
                 for s in ranking({e: r for e, r in scores.items() if side_of(e) == side})]
    return rows


def overall_places(rows: Iterable[tuple[str, int, float, int]]) -> list[tuple[str, int]]:
    """Every pair of both fields in one order, by percentage then total points (equal on both share a place): how
    an event is rated, a ranking of its pairs by their final percentage.

    >>> overall_places([("T1:NS", 1, 75.0, 5), ("T1:EW", 1, 75.0, 5), ("T2:NS", 2, 25.0, -5)])
    [('T1:EW', 1), ('T1:NS', 1), ('T2:NS', 3)]
    """
    ordered = sorted(rows, key=lambda r: (-r[2], -r[3], r[0]))
    return [(e, 1 + sum(1 for _, _, p2, t2 in ordered if (p2, t2) > (p, t))) for e, _, p, t in ordered]


def listed_seat(place: Place, here: set[Seat | None], code: str, player_id: str | None) -> dict[str, Any]:
    """A seat as the event's page lists it: as a room's ``info`` shows it, its side, whether it is the viewer's, and
    an empty seat's link (which takes it)."""
    link = f"/events/table/{code}?seat={place.seat.name}" if place.kind == "empty" else None
    return {**seat_info(place, here), "side": side_of_seat(place.seat), "link": link,
            "mine": player_id is not None and place.kind == "human" and place.player == player_id}


def _hmac(secret: str, text: str) -> bytes:
    return hmac.new(bytes.fromhex(secret), text.encode("utf-8"), hashlib.sha256).digest()


# ---- an event ----------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Event:
    """An event as its field keeps it: the host's token's hash, the tables' codes, the rules and the boards, the
    robot table's bots (None: no robot table), when it started and who sat where then (``pairs``: each pair's two
    seats, a bot's kind, or None for a person, whose id the field's members hold)."""

    id: str
    name: str
    rules: Rules
    deals: int
    tables: tuple[str, ...]
    host_hash: str
    robots: str | None
    created: float
    started: float | None = None
    pairs: dict[str, dict[str, str | None]] = field(default_factory=dict)
    final: bool = False

    @classmethod
    def of(cls, stored: StoredField) -> Event:
        data = stored.data
        try:
            return cls(str(data["id"]), str(data.get("name") or ""), Rules.from_json(data["rules"]), int(data["deals"]),
                       tuple(str(c) for c in data["tables"]), str(data["host_hash"]),
                       None if data.get("robots") is None else str(data["robots"]), stored.created,
                       None if data.get("started") is None else float(data["started"]),
                       {str(k): dict(v) for k, v in (data.get("pairs") or {}).items()}, stored.is_final)
        except (KeyError, TypeError, ValueError, CinchError) as e:
            raise LibraryError(f"event {stored.id} is damaged: {e}") from None

    def data(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "rules": self.rules.to_json(), "deals": self.deals,
                "tables": list(self.tables), "host_hash": self.host_hash, "robots": self.robots,
                "started": self.started, "pairs": self.pairs}

    @property
    def field_id(self) -> str:
        return field_id(self.id)

    @property
    def link(self) -> str:
        return f"/events/{self.id}"

    def is_host(self, host_token: Any) -> bool:
        return isinstance(host_token, str) and stdlib_secrets.compare_digest(token_hash(host_token), self.host_hash)

    def entrants(self) -> list[str]:
        """Every pair that plays, the robot table's last."""
        tables = [pair_of(n, side) for n in range(1, len(self.tables) + 1) for side in SIDES]
        return tables + ([pair_of(None, side) for side in SIDES] if self.robots else [])


def _known(value: Any, what: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise Refusal("bad-request", f"{what} must be a whole number from {low} to {high}, not {str(value)[:20]!r}")
    return value


# ---- the service -------------------------------------------------------------------------------------------------
class EventService:
    """The private events of one server process (its tables are the ``server``'s rooms).

    ``fields`` is the field store the HTTP routes and the background work use, in worker threads (on PostgreSQL a
    connection of its own); ``table_fields`` the one a table's change writes a board's result through, on the event
    loop, in the change's own transaction."""

    def __init__(self, server: Any, fields: FieldStore, *, owns_fields: bool = False, ratings: Any = None,
                 max_rooms: int = 5000):
        self.server = server
        self.max_rooms = max_rooms  # the tables not over a server holds at most (its rooms' limit)
        self.fields = fields
        self.owns_fields = owns_fields
        self.table_fields = FieldStore(server.store.library)
        self.ratings = ratings  # cinch.server.ratings.Ratings: an event's final ranking is rated once
        self._secret: str | None = None
        self._sets: dict[tuple[str, str, int], DealSet] = {}
        self._events: dict[str, Event] = {}
        self._robots: dict[str, asyncio.Task[None]] = {}
        self._finishing: asyncio.Lock | None = None

    def now(self) -> float:
        return time.time()

    # ---- the sets ------------------------------------------------------------------------------------------
    def secret(self) -> str:
        """The server's secret the events' salts derive from: made once, kept in the store, never shown."""
        if self._secret is None:
            self._secret = self.table_fields.secret("events", rooms.secrets.token_hex(32))
        return self._secret

    def deal_set(self, event_id: str, rules: Rules, deals: int, robots: str | None) -> DealSet:
        """The event's set, with its salts (shown only once the event is over)."""
        key = (event_id, rules.name, deals)
        found = self._sets.get(key)
        if found is None:
            secret = _hmac(self.secret(), f"cinch/1 event set\n{field_id(event_id)}").hex()
            found = DealSet.derive(f"event {event_id}", rules, deals, secret=secret, bots=robots or DEFAULT_ROBOTS)
            if len(self._sets) > 256:
                self._sets.clear()
            self._sets[key] = found
        return found

    def set_of(self, event: Event) -> DealSet:
        return self.deal_set(event.id, event.rules, event.deals, event.robots)

    # ---- the events -----------------------------------------------------------------------------------------
    def load(self, event_id: str) -> Event:
        """(In a worker thread.)  The event as its field holds it now; refused if there is none."""
        stored = self.fields.field(field_id(event_id)) if len(event_id) <= 16 else None
        if stored is None or stored.kind != KIND:
            raise Refusal("unknown-event", f"there is no event {event_id[:20]!r} on this server (the link names it)")
        event = Event.of(stored)
        self._events[event.id] = event
        return event

    def cached(self, event_id: str) -> Event | None:
        """(On the event loop.)  The event as this process last read it (read now if it never did)."""
        found = self._events.get(event_id)
        if found is None:
            stored = self.table_fields.field(field_id(event_id))
            if stored is not None and stored.kind == KIND:
                found = self._events[event_id] = Event.of(stored)
        return found

    def is_final(self, event_id: str) -> bool:
        found = self._events.get(event_id)
        return found is not None and found.final

    def tables(self, event: Event) -> list[EventTable | None]:
        """(On the event loop.)  The event's tables, held here or (a cluster) loaded from the database; None for a
        table let go (one left waiting a day, as a room is)."""
        out: list[EventTable | None] = []
        for code in event.tables:
            try:
                found = self.server.room_for(code)
            except Refusal:
                found = None
            out.append(found if isinstance(found, EventTable) else None)
        return out

    def stored_summary(self, code: str, player_id: str | None) -> dict[str, Any] | None:
        """(In a worker thread.)  A table as the event's page lists it, from its stored row alone: a table this
        process no longer holds (over for an hour, as a room is let go) still shows how it ended."""
        rows = self.fields.library._player_rows("SELECT status, data FROM rooms WHERE code = ?", (code,))
        if not rows:
            return None
        status, data = rows[0]
        data = json.loads(data) if isinstance(data, str) else data
        settings = Settings.from_json(data["settings"])
        places = [Place.from_json(entry, settings.rules.seating) for entry in data["places"]]
        seats = [listed_seat(place, set(), code, player_id) for place in places]
        return {"number": int(data["number"]), "code": code, "link": f"/events/table/{code}", "status": status,
                "board": len(data["matches"]), "boards": int(data["deals"]), "seats": seats, "spectators": 0}

    def seat_of_player(self, event_id: str, player_id: str) -> tuple[int, Seat] | None:
        """(On the event loop.)  Where a player sits in the event: its table's number and seat; None if nowhere."""
        event = self.cached(event_id)
        if event is None:
            return None
        for number, table in enumerate(self.tables(event), start=1):
            held = None if table is None else table.seats.held_by(player_id)
            if held is not None:
                return number, held
        return None

    # ---- making one ---------------------------------------------------------------------------------------
    async def create(self, body: Any) -> dict[str, Any]:
        """A new event from the host's choices: its tables made (empty), its field opened with the set's
        commitments; the host's token, given once."""
        if not isinstance(body, dict):
            raise Refusal("bad-request", 'send a JSON object: {"rules": "official", "deals": 8, "tables": 2}')
        allowed = {"name", "rules", "options", "target", "deals", "tables", "robots", "grace", "between_deals",
                   "bot_delay", "trick_pause", "substitute"}
        unknown = sorted(set(body) - allowed)
        if unknown:
            raise Refusal("bad-request",
                          f"unknown field {', '.join(unknown)}; the fields are {', '.join(sorted(allowed))}")
        settings, deals, count, robots, name = self._choices(body)
        server = self.server
        forget = getattr(server, "forget_idle", None)
        if callable(forget):
            forget()
        if sum(1 for r in server.rooms.values() if r.status != OVER) + count > self.max_rooms:
            raise Refusal("full", "the server holds as many tables as it can; try later")
        event_id = await self._fresh_id()
        host_token = rooms.new_token()
        event = Event(event_id, name, settings.rules, deals, (), token_hash(host_token), robots, self.now())
        published = self.deal_set(event_id, settings.rules, deals, robots).published().to_json()
        try:
            codes = tuple(self._new_table(event, number, count, settings).code for number in range(1, count + 1))
        except StorageFailed as e:
            raise Refusal("storage", f"the event's tables could not be saved ({e}); try again") from None
        event = replace(event, tables=codes)
        stored, made = await asyncio.to_thread(self.fields.open_field, event.field_id, kind=KIND,
                                               family=family_of(settings.rules), deal_set=published,
                                               data=event.data(), now=event.created)
        if not made:
            raise Refusal("storage", "the event could not be made just now; try again")
        self._events[event_id] = event
        return {"id": event_id, "link": event.link, "host_token": host_token, "tables": list(codes)}

    def _choices(self, body: dict[str, Any]) -> tuple[Settings, int, int, str | None, str]:
        rules = rooms.rules_of(body, "official")
        try:
            DealSet.derive("check", rules, 1, secret="0" * 64)  # (a duplicate board's rules: four in partnerships)
        except DuplicateError as e:
            raise Refusal("bad-rules", str(e)) from None
        deals = _known(body.get("deals", DEFAULT_DEALS), "deals (the boards every table plays)", 1, MAX_DEALS)
        count = _known(body.get("tables", 2), "tables", 1, MAX_TABLES)
        bots = available_bots()
        robots = body.get("robots") if "robots" in body else self.server.default_bot()  # (unnamed: the server's bot)
        if robots is None or robots == NO_ROBOTS:
            robots = None
        elif robots not in bots:
            raise Refusal("bad-request", f"robots is the robot table's bot ({', '.join(bots)}) or \"{NO_ROBOTS}\" "
                                         f"for no robot table, not {str(robots)[:20]!r}")
        name = body.get("name") or ""
        if not isinstance(name, str) or len(name) > MAX_NAME or any(not c.isprintable() for c in name):
            raise Refusal("bad-request", f"name is a line of at most {MAX_NAME} printable characters")
        settings = Settings(rules, grace=60.0, between_deals=15.0, bot_delay=0.6, hints=False, listed=False)
        # (the server's defaults for its tables' pace, as its rooms take them: `cinch serve`, a test's server)
        defaults = getattr(self.server, "room_defaults", {})
        rooms.set_paces(settings, {**{key: defaults[key] for key, _, _ in rooms.PACES if key in defaults}, **body})
        if "substitute" in body:
            if body["substitute"] not in bots:
                raise Refusal("bad-request", f"substitute must be a bot: {', '.join(bots)}")
            settings.substitute = body["substitute"]
        return settings, deals, count, robots, name.strip()

    async def _fresh_id(self) -> str:
        while True:
            event_id = "".join(rooms.secrets.choice(ID_LETTERS) for _ in range(ID_LENGTH))
            if await asyncio.to_thread(self.fields.field, field_id(event_id)) is None:
                return event_id

    def _new_table(self, event: Event, number: int, count: int, settings: Settings) -> EventTable:
        server = self.server
        while True:
            code = rooms.new_code(lambda c: c in server.rooms)
            table = EventTable(code, Settings.from_json(settings.to_json()), server.library, service=self,
                               event_id=event.id, number=number, tables=count, name=event.name, deals=event.deals,
                               robots=event.robots, host_hash=event.host_hash, thinker=server.thinker,
                               store=server.store)
            if server.store.create_room(table):
                break  # (else another process took the code a moment ago: draw again)
        server.rooms[code] = table
        return table

    def load_table(self, row: dict[str, Any], thinker: Thinker | None, store: Store) -> EventTable:
        """A stored event table (a restart, or a process of a cluster taking it up)."""
        data = row["data"]
        table = EventTable(row["code"], Settings.from_json(data["settings"]), store.library, service=self,
                           event_id=str(data["event"]), number=int(data["number"]), tables=int(data["tables"]),
                           name=str(data.get("name") or ""), deals=int(data["deals"]),
                           robots=None if data.get("robots") is None else str(data["robots"]),
                           host_hash=str(data["host_hash"]), thinker=thinker, store=store)
        table.restore(row)
        return table

    # ---- the host's orders ----------------------------------------------------------------------------------
    async def host_event(self, event_id: str, host_token: Any) -> Event:
        event = await asyncio.to_thread(self.load, event_id)
        if not event.is_host(host_token):
            raise Refusal("not-host", "only the event's host may do that: the host's token is kept in the browser "
                                      "that created the event")
        return event

    async def fill(self, event_id: str, body: Any) -> dict[str, Any]:
        """The host seats a bot in a seat (``table`` and ``seat``), or in every empty seat of a table or of the
        event (either left out), before the start."""
        if not isinstance(body, dict):
            raise Refusal("bad-request", 'send {"host_token": ..., "bot": "heuristic", "table": 1, "seat": "N"}')
        event = await self.host_event(event_id, body.get("host_token"))
        if event.started is not None:
            raise Refusal("started", "the event has started: its seats stay as they were at the start")
        number = body.get("table")
        if number is not None:
            _known(number, "table", 1, len(event.tables))
        seat = body.get("seat")
        if seat is not None and not isinstance(seat, str):
            raise Refusal("bad-request", "seat is N, E, S or W")
        filled = 0
        for n, table in enumerate(self.tables(event), start=1):
            if number is not None and n != number:
                continue
            if table is None:
                raise Refusal("lapsed", f"table {n} was let go (left waiting a day): this event can no longer start")
            filled += table.fill_seat(seat, body.get("bot"))
        return {"filled": filled}

    async def start(self, event_id: str, body: Any) -> dict[str, Any]:
        """The host starts the event: every seat of every table taken (a person or a bot), its pairs entered with
        their players, and every table deals its first board."""
        if not isinstance(body, dict):
            raise Refusal("bad-request", 'send {"host_token": ...}')
        event = await self.host_event(event_id, body.get("host_token"))
        if event.final:
            raise Refusal("over", "the event is over")
        tables = self.tables(event)
        lapsed = [str(n) for n, t in enumerate(tables, start=1) if t is None]
        if lapsed:
            raise Refusal("lapsed", f"table {', '.join(lapsed)} was let go (left waiting a day): this event can no "
                                    "longer start")
        ready = [t for t in tables if t is not None]
        empty = [f"table {t.number} seat {s.name}" for t in ready for s, p in t.places.items() if p.kind == "empty"]
        if empty and event.started is None:
            raise Refusal("empty-seats", f"{', '.join(empty)} {'is' if len(empty) == 1 else 'are'} empty: a person "
                                         "must take it by its link, or the host fill it with a bot")
        if event.started is None:
            event = await self._enter_pairs(event, ready)
        for table in ready:
            with table._change():
                if table.table is None:  # (another process, or a second press, may have dealt it a moment ago)
                    table.start_board(1)
        if event.robots:
            self.robots(event)
        return {"started": True}

    async def _enter_pairs(self, event: Event, tables: list[EventTable]) -> Event:
        """Every pair into the field with its players by seat, who sat where kept with the event."""
        pairs: dict[str, dict[str, str | None]] = {}
        now = self.now()
        for table in tables:
            for side in SIDES:
                entrant = pair_of(table.number, side)
                members = {s.name: table.places[s].player for s in SIDE_SEATS[side]
                           if table.places[s].kind == "human" and table.places[s].player is not None}
                pairs[entrant] = {s.name: (table.places[s].bot if table.places[s].kind == "bot" else None)
                                  for s in SIDE_SEATS[side]}
                await asyncio.to_thread(self.fields.enter, event.field_id, entrant, kind=PAIR_KIND, now=now,
                                        members={k: v for k, v in members.items() if v is not None},
                                        label=f"table {table.number} {side}", table_code=table.code)
        for side in SIDES if event.robots else ():
            await asyncio.to_thread(self.fields.enter, event.field_id, pair_of(None, side), kind=ROBOTS_KIND, now=now,
                                    label=f"Robot table ({event.robots})")
        started = replace(event, started=now, pairs=pairs)
        await asyncio.to_thread(self.fields.save_field_data, event.field_id, started.data())
        self._events[event.id] = started
        return started

    # ---- the robot table ----------------------------------------------------------------------------------------
    def robots(self, event: Event) -> asyncio.Task[None]:
        """The task that plays the robot table's boards not yet in the store (one per event in this process)."""
        task = self._robots.get(event.id)
        if task is None or (task.done() and (task.cancelled() or task.exception() is not None)):
            task = asyncio.get_running_loop().create_task(self._play_robots(event))
            self._robots[event.id] = task
        return task

    async def _play_robots(self, event: Event) -> None:
        deal_set = self.set_of(event)
        set_json = deal_set.to_json(secret=True)
        for board in range(1, deal_set.deals + 1):
            if await asyncio.to_thread(self.fields.result, event.field_id, board, pair_of(None, "EW")) is not None:
                continue
            result = BoardResult.from_json(await in_pool(self.server, robot_board, set_json, board))
            summary, record = split_result(result)
            for side, value in (("NS", result.result), ("EW", -result.result)):
                await asyncio.to_thread(self.fields.add_result, event.field_id, board, pair_of(None, side), value,
                                        summary, record, now=self.now(), boards=deal_set.deals)
        await self.maybe_finish(event.id)

    async def robot_ready(self, event: Event, board: int) -> None:
        """Wait until the robot table's result of ``board`` is in the store (playing it here if no process is)."""
        if not event.robots:
            return
        for _ in range(2):
            if await asyncio.to_thread(self.fields.result, event.field_id, board, pair_of(None, "EW")) is not None:
                return
            with contextlib.suppress(Exception):
                await asyncio.shield(self.robots(event))

    # ---- the end --------------------------------------------------------------------------------------------------
    async def maybe_finish(self, event_id: str) -> bool:
        """Once every pair has played every board: the event made final (once, in whichever process gets there
        first), its ranking kept and rated, its tables told.  Whether it is over."""
        if self._finishing is None:
            self._finishing = asyncio.Lock()
        async with self._finishing:
            event = await asyncio.to_thread(self.load, event_id)
            if event.final:
                return True
            if event.started is None:
                return False
            entries = await asyncio.to_thread(self.fields.entries, event.field_id)
            if {e.entrant for e in entries} != set(event.entrants()) or any(e.status != FINISHED for e in entries):
                return False
            won = await asyncio.to_thread(self.fields.finalize, event.field_id, self.now(), rank_pairs)
            self._events[event_id] = replace(event, final=True)
            if won:
                await self._rate(event)
        for table in self.tables(event):
            if table is not None and table.clients:
                table.broadcast()  # (its page learns the event is over)
        return True

    async def _rate(self, event: Event) -> None:
        """The final ranking to the ratings: every pair, both fields in one order by percentage (then points), each a
        side of its two players (a bot's seat an anchor at its level, the robot table's both)."""
        scores = await asyncio.to_thread(self.fields.scores, event.field_id)
        entries = {e.entrant: e for e in await asyncio.to_thread(self.fields.entries, event.field_id)}
        sides, places = [], []
        for entrant, place in overall_places(rank_pairs(scores)):
            entry = entries.get(entrant)
            members = {m.seat: m.player_id for m in (entry.members if entry is not None else ())}
            bots = event.pairs.get(entrant, {})
            side = []
            for seat in SIDE_SEATS[side_of(entrant)]:
                if seat.name in members:
                    side.append(Entrant(player=members[seat.name]))
                else:
                    side.append(Entrant(bot=bots.get(seat.name) or event.robots))
            sides.append(side)
            places.append(place)
        if self.ratings is None:
            return
        try:
            await asyncio.to_thread(self.ratings.record_event, event.id, family_of(event.rules), sides, places)
        except Exception:
            log.exception("event %s: the ratings could not take its ranking", event.id)

    # ---- what a person may see ------------------------------------------------------------------------------------
    def viewer(self, event: Event, player_id: str | None) -> tuple[str | None, int]:
        """(In a worker thread.)  The pair a player plays in (None: none) and the boards it has played."""
        if player_id is None or event.started is None:
            return None, 0
        for entry in self.fields.entries(event.field_id):
            if any(m.player_id == player_id for m in entry.members):
                return entry.entrant, entry.boards
        return None, 0

    def shown_boards(self, event: Event, mine: str | None, played: int) -> int:
        """(In a worker thread.)  The boards whose results a viewer's ranking counts: all once the event is over; a
        player's, those their pair has played; anyone else's, those every table has finished."""
        if event.final:
            return event.deals
        if mine is not None:
            return played
        if event.started is None:
            return 0
        entries = [e for e in self.fields.entries(event.field_id) if e.kind == PAIR_KIND]
        return min((e.boards for e in entries), default=0)

    @staticmethod
    def pair_json(event: Event, entrant: str, entry: StoredEntry | None, mine: str | None) -> dict[str, Any]:
        """A pair as the pages show it: its players by seat (a person's name as the players' table has it now, a
        bot's kind), who they are together, and whether it is the viewer's."""
        number = table_number(entrant)
        members = {m.seat: m for m in (entry.members if entry is not None else ())}
        bots = event.pairs.get(entrant, {})
        players = []
        for seat in SIDE_SEATS[side_of(entrant)]:
            member = members.get(seat.name)
            if member is not None:
                profile = profile_path(member.name) if member.kind == ACCOUNT and member.name is not None else None
                players.append({"seat": seat.name, "name": member.shown, "profile": profile, "bot": None})
            else:
                bot = bots.get(seat.name) or event.robots or "?"
                players.append({"seat": seat.name, "name": f"{bot} bot", "profile": None, "bot": bot})
        name = f"Robot table ({event.robots})" if number is None else " & ".join(str(p["name"]) for p in players)
        return {"entrant": entrant, "table": number, "side": side_of(entrant), "robots": number is None,
                "name": name, "players": players, "mine": entrant == mine}

    def traveller(self, event: Event, board: int, mine: str | None) -> dict[str, Any]:
        """(In a worker thread.)  Every table's result on ``board`` so far, best for NS first: each line the table's
        NS and EW pairs, the contract and result, the NS pair's matchpoints against the other NS pairs and the EW
        pair's against the other EW pairs (the one mirrors the other), the par and the record; then the hands."""
        deal_set = self.set_of(event)
        results = [r for r in self.fields.board_results(event.field_id, board) if side_of(r.entrant) == "NS"]
        entries = {e.entrant: e for e in self.fields.entries(event.field_id)}
        lines = []
        for r, mp in zip(results, matchpoints([r.result for r in results]), strict=True):
            number = table_number(r.entrant)
            ew = pair_of(number, "EW")
            record = f"/api/events/{event.id}/boards/{board}/records/{number or ROBOT_TABLE}"
            line = {"table": number, "robots": number is None,
                    "ns": self.pair_json(event, r.entrant, entries.get(r.entrant), mine),
                    "ew": self.pair_json(event, ew, entries.get(ew), mine),
                    "mine": side_of(mine) if mine in (r.entrant, ew) and mine is not None else None,
                    **result_line(r.data, r.result, mp, record),
                    "ew_matchpoints": mp.top - mp.points, "ew_percent": round(100 - mp.percent, 2)}
            line["name"] = f"{line['ns']['name']} v {line['ew']['name']}"
            lines.append(line)
        lines.sort(key=lambda line: (-int(line["result"]), line["mine"] is None, line["table"] or 0))
        deal = Deal(deal_set.rules, deal_set.dealer(board), deal_set.deck(board))
        return {"event": event.id, "set": deal_set.name, "board": board, "boards": deal_set.deals,
                "dealer": deal_set.dealer(board).name,
                "hands": {seat.name: [str(c) for c in hand] for seat, hand in zip(SEATS, deal.dealt, strict=True)},
                "results": lines}

    def record(self, event: Event, board: int, table: str) -> dict[str, Any] | None:
        """(In a worker thread.)  The record of a table's board (``table``: its number, or ``robots``), its players
        named as they are now."""
        number = None if table == ROBOT_TABLE else int(table) if table.isdigit() else -1
        if number is not None and not 1 <= number <= len(event.tables):
            return None
        text = self.fields.record(event.field_id, board, pair_of(number, "NS"))
        if text is None:
            return None
        names = {}
        for side in SIDES:
            entry = self.fields.entry(event.field_id, pair_of(number, side))
            for m in entry.members if entry is not None else ():
                names[m.player_id] = m.shown
        return named_record(loads(text), names)

    def ranking_json(self, event: Event, boards: int, mine: str | None) -> dict[str, Any]:
        """(In a worker thread.)  The two fields' rankings over the first ``boards`` boards: every pair's results on
        them, each board matchpointed within its field, then the mean percentage and the total points."""
        scores: dict[str, list[tuple[int, int]]] = {}
        for board in range(1, boards + 1):
            for r in self.fields.board_results(event.field_id, board):
                scores.setdefault(r.entrant, []).append((board, r.result))
        entries = {e.entrant: e for e in self.fields.entries(event.field_id)}
        out: dict[str, Any] = {"boards": boards, "of": event.deals, "final": event.final and boards >= event.deals}
        for side in SIDES:
            rows = []
            for s in ranking({e: r for e, r in scores.items() if side_of(e) == side}):
                pair = self.pair_json(event, s.entrant, entries.get(s.entrant), mine)
                named = pair["name"] if pair["robots"] else f"Table {pair['table']}: {pair['name']}"
                rows.append({**pair, "name": named, "rank": s.rank, "boards": s.boards,
                             "percentage": round(s.percentage, 2), "total": s.total, "profile": None})
            out[side] = rows
        return out

    def event_json(self, event: Event, player: Any, tables: list[dict[str, Any] | None]) -> dict[str, Any]:
        """(In a worker thread.)  What the event's page shows: its rules, tables and seats (with their links), where
        the viewer sits, the ranking the viewer may see, the travellers they may open, and the set (its salts once
        the event is over)."""
        mine, played = self.viewer(event, None if player is None else player.id)
        shown = self.shown_boards(event, mine, played)
        deal_set = self.set_of(event)
        status = "over" if event.final else WAITING if event.started is None else "playing"
        you = None
        if player is not None:
            for number, table in enumerate(tables, start=1):
                for seat in (table or {}).get("seats", ()):
                    if seat.get("mine"):
                        you = {"table": number, "seat": seat["seat"], "side": seat["side"],
                               "link": (table or {}).get("link")}
        if you is not None:
            you["played"] = played
        return {"id": event.id, "name": event.name, "link": event.link, "rules": event.rules.to_json(),
                "rules_name": event.rules.name, "target": event.rules.target, "deals": event.deals,
                "robots": event.robots, "status": status, "final": event.final,
                "player": None if player is None else {"name": player.name, "kind": player.kind},
                "set": (deal_set.revealed() if event.final else deal_set.published()).to_json(),
                "tables": tables, "you": you,
                "ranking": self.ranking_json(event, shown, mine) if shown else None,
                "travellers": [f"/api/events/{event.id}/boards/{n}"
                               for n in range(1, (event.deals if event.final else played) + 1)]}

    def may_see(self, event: Event, board: int, player: Any) -> str | None:
        """(In a worker thread.)  Whether a viewer may open ``board``'s traveller: once their pair has played it, or
        once the event is over; their pair (or None); refused otherwise."""
        mine, played = self.viewer(event, None if player is None else player.id)
        if event.final or (mine is not None and board <= played):
            return mine
        raise Refusal("not-played", f"board {board} of this event is shown to the pairs who have played it, and to "
                                    "everyone once the event is over")

    def stop(self) -> None:
        for task in self._robots.values():
            task.cancel()
        if self.owns_fields:
            close = getattr(self.fields.library, "close", None)
            if close is not None:
                close()


# ---- a table -----------------------------------------------------------------------------------------------------
class EventSeats(Seats):
    """An event table's seats: a person is known to the boards' records by their player's id, never by name (the
    name is joined when a record is shown, so a deleted player's is gone from every board at once)."""

    def players(self) -> dict[Seat, str]:
        return {s: ((p.player or p.name) if p.kind == "human" else p.bot) or "" for s, p in self.places.items()}


class EventTable(BoardsTable):
    """One table of an event: four seats (people by its invite links, bots by kind), the event's boards one after
    another.  Before the start people take and leave seats and the host fills them; from the start the seats stay
    as they are (a person away is played for by a substitute after the grace, as in a room)."""

    frontend = KIND

    def __init__(self, code: str, settings: Settings, library: Any, *, service: EventService, event_id: str,
                 number: int, tables: int, name: str, deals: int, robots: str | None, host_hash: str,
                 thinker: Thinker | None = None, store: Store | None = None):
        self.service = service
        self.event_id = event_id
        self.number = number
        self.tables = tables
        self.name = name
        self._deals = deals
        self.robots = robots
        self.host_hash = host_hash
        super().__init__(code, settings, library, thinker=thinker, store=store)
        self.seats = EventSeats(self.seating)

    # ---- what it plays -----------------------------------------------------------------------------------------
    @property
    def deal_set(self) -> DealSet:
        return self.service.deal_set(self.event_id, self.settings.rules, self._deals, self.robots)

    def start_board(self, board: int, meta: Mapping[str, Any] | None = None) -> None:
        super().start_board(board, {"event": self.event_id, "table": self.number, **(meta or {})})

    def result_of(self, match: Match, board: int) -> BoardResult:
        bots = sorted({b for b in self.seats.bots().values() if b})
        return BoardResult.of(match, board, f"table {self.number}", ", ".join(bots) or "none",
                              set_name=self.deal_set.name)

    def report(self, result: BoardResult) -> None:
        """Both pairs' results: NS's score change less EW's for the NS pair, its opposite for the EW pair."""
        summary, record = split_result(result)
        for side, value in (("NS", result.result), ("EW", -result.result)):
            self.service.table_fields.add_result(field_id(self.event_id), result.board, pair_of(self.number, side),
                                                 value, summary, record, now=self.service.now(), boards=self.deals,
                                                 match_id=self.match_id)

    # ---- what it shows and keeps ------------------------------------------------------------------------------
    def info(self) -> dict[str, Any]:
        rules = self.settings.rules
        status = self.status
        return {"code": self.code, "link": f"/events/table/{self.code}", "status": status, "rules": rules.to_json(),
                "rules_name": rules.name, "target": rules.target, **table_json(self.seating),
                "seats": self.seats.info(self.here()), "spectators": self.audience.spectators(),
                "grace": self.settings.grace, "between_deals": self.settings.between_deals,
                "trick_pause": self.settings.trick_pause, "hints": False,
                "match_id": self.board or None,  # (the board: an event board's match is never listed)
                "ready": self.between.ready_names(self.seating) if status == BETWEEN else [],
                "event": {"id": self.event_id, "link": f"/events/{self.event_id}", "name": self.name,
                          "table": self.number, "tables": self.tables, "board": self.board, "boards": self._deals,
                          "robots": self.robots, "final": self.service.is_final(self.event_id)}}

    def summary(self, player_id: str | None) -> dict[str, Any]:
        """The table as the event's page lists it: its seats (a link to each empty one), where it stands."""
        here = self.here()
        seats = [listed_seat(self.places[seat], here, self.code, player_id) for seat in self.seating.seats]
        return {"number": self.number, "code": self.code, "link": f"/events/table/{self.code}",
                "status": self.status, "board": self.board, "boards": self._deals, "seats": seats,
                "spectators": self.audience.spectators()}

    def to_json(self) -> dict[str, Any]:
        return {"kind": KIND, "settings": self.settings.to_json(), "event": self.event_id, "number": self.number,
                "tables": self.tables, "name": self.name, "deals": self._deals, "robots": self.robots,
                "host_hash": self.host_hash, **self.kept_json()}

    def record(self) -> dict[str, Any]:
        raise Refusal("no-record", "an event table's boards are shown to the pairs who have played them, as "
                                   f"travellers on /events/{self.event_id}")

    # ---- who may open it ------------------------------------------------------------------------------------
    def attach(self, client: Client, token: str | None, host_token: str | None) -> None:
        """A connection opens the table: in the seat its token names, as the host, or as a spectator; a player who
        sits at another table of the event watches none until the event is over."""
        seat, host = rooms.opener(self, token, host_token, self.host_hash, f"table {self.code}", "the event's")
        self.service.cached(self.event_id)  # (read here, outside any change, if this process never did)
        player = getattr(client, "player", None)
        if seat is None and player is not None and not self.service.is_final(self.event_id):
            held = self.service.seat_of_player(self.event_id, player.id)
            if held is not None and held[0] != self.number:
                raise Refusal("plays-elsewhere", f"you play at table {held[0]} of this event: its other tables may be "
                                                 "watched by its players once the event is over")
        self.open(client, seat, token, host)

    # ---- its messages ----------------------------------------------------------------------------------------
    def _before_start(self) -> None:
        if self.table is not None:
            raise Refusal("started", "the event has started: its seats stay as they were at the start (a person "
                                     "away comes back by the same link; meanwhile a bot plays for them)")

    def join(self, client: Client, seat_name: str, name: str, entropy: str, *, take: bool = False) -> None:
        with self._change():
            self._join(client, seat_name, entropy, take)
        self.store.presence_changed(self)

    def _join(self, client: Client, seat_name: str, entropy: str, take: bool) -> None:
        seat = seat_named(self.seating, seat_name)
        player = getattr(client, "player", None)
        if player is None:
            raise Refusal("signed-out", "a seat at an event is a player's: play as a guest or sign in (on the "
                                        f"event's page, /events/{self.event_id}) and open the link again")
        self._before_start()
        if client.seat is not None:
            raise Refusal("already-seated", f"you already sit at {client.seat}: leave it first")
        held = self.service.seat_of_player(self.event_id, player.id)
        if held is not None:
            raise Refusal("already-seated", f"{player.name} already sits at table {held[0]}, seat {held[1]}, of this "
                                            "event: one seat a player")
        place = self.places[seat]
        wanted = "bot" if take else "empty"
        if place.kind != wanted:
            raise Refusal("seat-taken", f"{seat} is {self.seats.describe(seat)}; "
                                        f"{self.seats.free(wanted) or 'no seat is ' + wanted}")
        token = rooms.new_token()
        self.seats.sit(seat, player.name, token_hash(token), entropy, player.id, player.kind)
        self.save()
        rooms.seated(self, client, seat, token)

    def leave(self, client: Client) -> None:
        with self._change():
            seat = self._seated(client)
            self._before_start()
            for c in list(self.clients):
                if c.seat == seat:
                    c.seat = None
            self.seats.empty(seat)
            self.save()
            self.broadcast()
        self.store.presence_changed(self)

    def fill(self, client: Client, seat_name: str, bot: str) -> None:
        if not client.host:
            raise Refusal("not-host", "only the event's host may do that (open the table with the host's token)")
        self.fill_seat(seat_name, bot)

    def fill_seat(self, seat_name: str | None, bot: Any) -> int:
        """(The host, before the start.)  A bot in the seat (or in every empty seat: ``seat_name`` None); how many
        seats it took."""
        bots = available_bots()
        if bot not in bots:
            raise Refusal("unknown-bot", f"there is no bot {str(bot)[:20]!r}; the bots are {', '.join(bots)}")
        with self._change():
            self._before_start()
            if seat_name is None:
                seats = [s for s, p in self.places.items() if p.kind == "empty"]
            else:
                seats = [seat_named(self.seating, seat_name)]
                place = self.places[seats[0]]
                if place.kind == "human" and self.connected(seats[0]):
                    raise Refusal("seat-taken", f"{seats[0]} is taken by {place.name}, who is here")
            for seat in seats:
                for c in list(self.clients):
                    if c.seat == seat:
                        c.seat = None
                self.seats.give_to_bot(seat, str(bot))
            if seats:
                self.save()
                self.broadcast()
        return len(seats)

    def start(self, client: Client) -> None:
        raise Refusal("event-start", f"every table of an event starts together: the host starts it on the event's "
                                     f"page, /events/{self.event_id}")

    def rematch(self, client: Client) -> None:
        raise Refusal("event-table", "an event's tables play its boards once: there is no rematch")

    def hint(self, client: Client) -> None:
        raise Refusal("hints-off", "an event table gives no hints: every table plays the same boards alike")

    def forget_player(self, player_id: str, label: str = "former player") -> bool:
        """A player is deleted: the seat it holds here is named ``label`` at once (its boards' records hold its id
        only).  Whether it sat here."""
        if self.seats.held_by(player_id) is None:
            return False
        with self._change():
            self.seats.forget(player_id, label)
            self.save()
            self.broadcast()
        return True

    # ---- the traveller, to the pairs who played the board --------------------------------------------------------
    async def tell_board(self, board: int, clients: list[Client]) -> bool:
        service = self.service
        event = await asyncio.to_thread(service.load, self.event_id)
        await service.robot_ready(event, board)
        if board >= self.deals:
            await service.maybe_finish(self.event_id)
            event = await asyncio.to_thread(service.load, self.event_id)
        for side in SIDES:
            group = [c for c in clients if c.seat is not None and side_of_seat(c.seat) == side]
            if not group:
                continue
            mine = pair_of(self.number, side)
            if await asyncio.to_thread(service.fields.result, event.field_id, board, mine) is None:
                return False  # (the change that ended the board did not stand)
            traveller = await asyncio.to_thread(service.traveller, event, board, mine)
            shown = event.deals if event.final else board
            standings = await asyncio.to_thread(service.ranking_json, event, shown, mine)
            message = {"type": "event", "board": board, "traveller": traveller, "ranking": standings,
                       "final": event.final}
            for c in group:
                if c in self.clients and c.seat is not None and side_of_seat(c.seat) == side:
                    c.send(message)  # (the table may have dealt the next board meanwhile: this one is still theirs)
        return True


# ---- the routes ---------------------------------------------------------------------------------------------------
def add_event_routes(routes: list[Any], server: Any, *, ratings: Any = None, max_rooms: int = 5000) -> EventService:
    """The private events' pages and API (``/events``, ``/api/events``); ``ratings`` takes each event's final
    ranking (:meth:`cinch.server.ratings.Ratings.record_event`); ``max_rooms``: the server's limit of tables not
    over, which an event's tables count against as rooms do."""
    from cinch.server.players import open_store, player_of

    store, owned = open_store(server)
    service = EventService(server, FieldStore(store), owns_fields=owned, ratings=ratings, max_rooms=max_rooms)

    answer = answering("the event", {"unknown-event": 404, "no-board": 404, "not-played": 403, "not-host": 403,
                                     "full": 503, "started": 409, "over": 409, "empty-seats": 409, "lapsed": 410,
                                     "storage": 503})

    async def body_of(request: Request) -> Any:
        return await read_json(request, MAX_BODY, '{"rules": "official", "deals": 8, "tables": 2}')

    async def create(request: Request) -> Response:
        return fresh(await service.create(await body_of(request)), 201)

    async def event_of(request: Request) -> Event:
        return await asyncio.to_thread(service.load, request.path_params["id"].strip().upper())

    async def show(request: Request) -> Response:
        event = await event_of(request)
        if event.started is not None and not event.final:
            await service.maybe_finish(event.id)  # (a restart, or the robot table last: the end noticed here)
            event = await event_of(request)
        if event.robots and event.started is not None and not event.final:
            service.robots(event)  # (after a restart: the robot table's boards still to play)
        player = await player_of(request)
        pid = None if player is None else player.id
        tables = [None if t is None else t.summary(pid) for t in service.tables(event)]
        for n, code in enumerate(event.tables):
            if tables[n] is None:
                tables[n] = await asyncio.to_thread(service.stored_summary, code, pid)
        return fresh(await asyncio.to_thread(service.event_json, event, player, tables))

    async def fill(request: Request) -> Response:
        return fresh(await service.fill(request.path_params["id"].strip().upper(), await body_of(request)))

    async def start(request: Request) -> Response:
        return fresh(await service.start(request.path_params["id"].strip().upper(), await body_of(request)))

    async def board_of(request: Request) -> tuple[Event, int, str | None]:
        event = await event_of(request)
        raw = request.path_params["board"]
        if not raw.isdigit() or not 1 <= int(raw) <= event.deals:
            raise Refusal("no-board", f"this event has boards 1 to {event.deals}, not {raw[:10]!r}")
        board = int(raw)
        mine = await asyncio.to_thread(service.may_see, event, board, await player_of(request))
        await service.robot_ready(event, board)
        return event, board, mine

    async def traveller(request: Request) -> Response:
        event, board, mine = await board_of(request)
        return fresh(await asyncio.to_thread(service.traveller, event, board, mine))

    async def record(request: Request) -> Response:
        event, board, _ = await board_of(request)
        found = await asyncio.to_thread(service.record, event, board, request.path_params["table"][:8])
        if found is None:
            raise Refusal("no-board", f"board {board} has no result of that table yet")
        return Response(dumps(found), media_type="application/json", headers={"Cache-Control": "no-store"})

    routes.extend([
        Route("/events", page(STATIC / "index.html")),
        Route("/events/table/{code}", page(STATIC / "table.html")),
        Route("/events/{id}", page(STATIC / "event.html")),
        Route("/api/events", answer(create), methods=["POST"]),
        Route("/api/events/{id}", answer(show), methods=["GET"]),
        Route("/api/events/{id}/fill", answer(fill), methods=["POST"]),
        Route("/api/events/{id}/start", answer(start), methods=["POST"]),
        Route("/api/events/{id}/boards/{board}", answer(traveller), methods=["GET"]),
        Route("/api/events/{id}/boards/{board}/records/{table}", answer(record), methods=["GET"]),
    ])
    server.events = service
    return service


def events_section(library: Any, player_id: str) -> dict[str, Any]:
    """(The profile's ``events`` section.)  The private events a player played that are over, the newest first: the
    event (its name and page), the pair (its table, its side, its two players), its percentage and total points, and
    its rank in its own field (the NS pairs, or the EW pairs).  An event under way is not listed: its ranking so far
    is shown only to those who have played its boards."""
    fields = FieldStore(library)
    out = []
    for stored, entry in fields.player_entries(player_id, KIND):
        if not stored.is_final or entry.rank is None:
            continue
        try:
            event = Event.of(stored)
        except LibraryError as e:
            log.warning("a profile's events: %s", e)
            continue
        entries = fields.entries(stored.id)
        ours = next((e for e in entries if e.entrant == entry.entrant), entry)
        side = side_of(entry.entrant)
        out.append({"id": event.id, "name": event.name, "link": event.link, "rules": event.rules.name,
                    "date": day_of(stored.final or stored.created), "boards": event.deals,
                    "pair": EventService.pair_json(event, entry.entrant, ours, entry.entrant),
                    "percentage": entry.percentage, "total": entry.total, "rank": entry.rank,
                    "of": sum(1 for e in entries if e.rank is not None and side_of(e.entrant) == side)})
    return {"events": out}


def day_of(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).date().isoformat()


__all__ = ["Event", "EventService", "EventTable", "KIND", "add_event_routes", "events_section", "field_id",
           "overall_places", "pair_of", "rank_pairs", "side_of"]
