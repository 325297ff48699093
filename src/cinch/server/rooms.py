"""Rooms: the seats around a :class:`~cinch.table.Table`, the people and bots in them, and who watches.

A room seats as many as its rules' ``players`` option says (2 to 6, :mod:`cinch.seating`): ``N E S W`` in
two partnerships at four, ``1`` to ``n`` each for himself at any other size (Heasly is six).

A :class:`Room` takes the clients' checked messages (``join``, ``act``, ...), changes the
table, saves, and then tells every connection what it may see.  It knows nothing of
websockets: a connection is anything with ``send(message)`` and the fields of
:class:`Client`, so the tests drive rooms directly.  Everything here runs on the
server's event loop; a bot that thinks for long thinks in a :class:`Thinker`'s process.

Every change of a room is one :meth:`Room._change`: its store makes it exclusive and brings
the room up to date first, the room decides (the same code whatever the store), the store
makes it durable, and only then is anyone told (:mod:`cinch.server.store`).  With several
server processes (:mod:`cinch.server.cluster`) a room is a cache of what PostgreSQL holds,
refreshed when another process moves it on; one process drives its timers and bots.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import random
import secrets
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson

from cinch.actions import Action, Claim, OutOfTurn, parse_action
from cinch.bots.base import Bot
from cinch.cards import Seat
from cinch.errors import CinchError, IllegalAction, NotationError, RulesError
from cinch.irregularities import penalty_text
from cinch.library import Library
from cinch.match import Match
from cinch.record import finished_deals, to_record
from cinch.rules import Rules
from cinch.seating import FOUR, Seating
from cinch.server.protocol import Refusal
from cinch.server.store import LocalStore, NotDriver, Presence, StorageFailed, Store, catch_up, match_from_record
from cinch.server.views import match_json, private_deal_json, public_deal_json, public_view
from cinch.shuffle import SALT_DIGITS, Shuffle
from cinch.table import Pending, Saver, Table
from cinch.table.advice import available_bots
from cinch.table.narrate import Narrator, action_words, result_lines, view_trump
from cinch.view import Phase, SeatView

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread
CODE_LENGTH = 6
SLOW_BOTS = frozenset({"expert", "openspiel-ismcts"})
"""Bots that think for about a second: they think in the process pool, never on the event loop."""
LOG_LINES = 60
RETRY_SECONDS = 3.0  # after a save failed, the bots wait this long before they try again
WAITING, PLAYING, BETWEEN, OVER = "waiting", "playing", "between-deals", "over"


def encode(message: dict[str, Any]) -> str:
    """A message as JSON text (orjson: the server writes thousands a second)."""
    return orjson.dumps(message).decode()


def token_hash(token: str) -> str:
    """What the server keeps of a token: its SHA-256 (a leaked library gives no seat away)."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    """A seat or host token: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


class Client(Protocol):
    """One connection, as a room sees it."""

    seat: Seat | None
    host: bool
    room: Room | None

    def send(self, message: dict[str, Any] | str) -> None: ...


@dataclass
class Settings:
    """A room's settings, chosen when it is created."""

    rules: Rules
    grace: float = 60.0  # seconds a dropped seat keeps its clock paused before a bot plays for it
    between_deals: float = 8.0  # seconds the end of a deal is shown (unless every person is ready sooner)
    bot_delay: float = 0.6  # seconds a bot waits before it acts, so that people can follow
    trick_pause: float = 1.2  # seconds a finished trick stays on view before a bot leads to the next
    hints: bool = True
    listed: bool = True  # shown in the lobby
    substitute: str = "heuristic"  # the bot that plays for a person who is away or left

    def to_json(self) -> dict[str, Any]:
        return {"rules": self.rules.to_json(), "grace": self.grace, "between_deals": self.between_deals,
                "bot_delay": self.bot_delay, "trick_pause": self.trick_pause, "hints": self.hints,
                "listed": self.listed, "substitute": self.substitute}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Settings:
        return cls(rules=Rules.from_json(data["rules"]), grace=float(data["grace"]),
                   between_deals=float(data["between_deals"]), bot_delay=float(data["bot_delay"]),
                   trick_pause=float(data.get("trick_pause", cls.trick_pause)),  # (rooms saved before it)
                   hints=bool(data["hints"]), listed=bool(data["listed"]), substitute=str(data["substitute"]))

    def waits_for_next(self, people: int) -> bool:
        """Whether the end of a deal waits for the people's Next with no timer: at a table of one person
        (with three bots, say), whose Next alone deals on, unless the room deals on at once
        (``between_deals`` 0).  With two or more people the timer keeps one slow reader from holding the
        others; with nobody but bots it deals on by itself.

        >>> from cinch.rules import Rules
        >>> s = Settings(Rules.preset("pagat"))
        >>> s.waits_for_next(1), s.waits_for_next(2), s.waits_for_next(0)
        (True, False, False)
        """
        return people == 1 and self.between_deals > 0

    def pause_before(self, view: SeatView) -> float:
        """How long a bot waits before its decision: the room's pace, and before leading to a new trick at
        least ``trick_pause``, so that the trick just won stays on view with its fourth card (a room whose
        bots act at once, ``bot_delay`` 0, keeps no pause at all)."""
        if self.bot_delay <= 0:
            return 0.0
        if view.phase is Phase.PLAY and not view.current_trick and view.tricks:
            return max(self.bot_delay, self.trick_pause)
        return self.bot_delay


@dataclass
class Place:
    """One seat of the room: empty, a person (known by the hash of their token), or a bot."""

    seat: Seat
    kind: str = "empty"  # empty, human, bot
    name: str | None = None
    bot: str | None = None  # the bot's kind; for a person, the substitute now playing for them (else None)
    token_hash: str | None = None
    entropy: str = ""

    @property
    def away(self) -> bool:
        """A person whose seat a substitute bot plays."""
        return self.kind == "human" and self.bot is not None

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat.name, "kind": self.kind, "name": self.name, "bot": self.bot,
                "token_hash": self.token_hash, "entropy": self.entropy}

    @classmethod
    def from_json(cls, data: dict[str, Any], table: Seating = FOUR) -> Place:
        return cls(table.parse_seat(data["seat"]), data["kind"], data["name"], data["bot"], data["token_hash"],
                   data["entropy"])


@dataclass
class Clock:
    """Seconds a seat has spent on its decisions this match; paused while its person is away.

    The times are the wall clock's (``time.time()``), so that every process of a cluster shows the
    same running clock."""

    used: float = 0.0
    since: float | None = None

    def run(self, now: float) -> None:
        if self.since is None:
            self.since = now

    def stop(self, now: float) -> None:
        if self.since is not None:
            self.used += now - self.since
            self.since = None

    def to_json(self, now: float) -> dict[str, Any]:
        running = self.since is not None
        return {"used": round(self.used + (now - self.since if self.since is not None else 0.0), 1),
                "running": running}


def seat_named(table: Seating, name: str) -> Seat:
    """The seat a message names, exactly as the table names it (``N E S W``, or ``1`` to ``n``).

    >>> from cinch.seating import seating
    >>> str(seat_named(seating(3), "2"))
    '2'
    >>> try:
    ...     seat_named(seating(3), "N")
    ... except Refusal as e:
    ...     print(e.code, e.message)
    no-such-seat this table has no seat 'N': its seats are 1 2 3
    """
    if name in table.names:
        return table.seats[table.names.index(name)]
    raise Refusal("no-such-seat", f"this table has no seat {name!r}: its seats are {' '.join(table.names)}")


def table_json(table: Seating) -> dict[str, Any]:
    """What a page needs to lay out the table: how many play, in partnerships or not, the sides' names.

    >>> from cinch.seating import seating
    >>> table_json(seating(3))
    {'players': 3, 'partnership': False, 'sides': ['1', '2', '3']}
    """
    return {"players": table.players, "partnership": table.partnership, "sides": list(table.side_names)}


def seat_info(place: Place, here: set[Seat | None]) -> dict[str, Any]:
    """A seat in a room's ``info``: ``here``, the seats with a connection open anywhere."""
    return {"seat": place.seat.name, "name": place.name, "kind": "substitute" if place.away else place.kind,
            "bot": place.bot, "connected": place.kind == "bot" or place.seat in here, "entropy": place.entropy}


class Thinker(Protocol):
    """Runs a slow bot's decision off the event loop (a process pool in the server)."""

    async def think(self, bot: str, seed: int, view: Any) -> tuple[Action | None, Exception | None]: ...

    async def hint(self, bot: str, view: Any) -> tuple[str, str, str]:
        """The hint bot's (action in record notation, estimate, detail) for the view."""
        ...


@dataclass
class _Audience:
    """What one seat (or the spectators, ``seat`` None) has been told: its narrator and log."""

    seat: Seat | None
    narrator: Narrator
    log: deque[str] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    new: list[str] = field(default_factory=list)
    told_deals: int = 0


class Room:
    """A room: its settings, seats, the table once started, and the connections watching it."""

    def __init__(self, code: str, settings: Settings, host_hash: str, library: Library, *,
                 link: str = "", thinker: Thinker | None = None, store: Store | None = None,
                 chance: random.Random | None = None):
        self.code = code
        # Where the room's chance comes from (the salts of its shuffles, the first dealer, the bots' seeds):
        # fresh secrets, or (a test's server) a seeded generator, so that a test plays the same deals every run.
        self.chance = chance
        self.settings = settings
        self.host_hash = host_hash
        self.store: Store = store if store is not None else LocalStore(library)
        self.library = self.store.library
        self.link = link
        self.thinker = thinker
        self.seating = settings.rules.seating  # the table's seats and sides (N E S W, or 1..n cut-throat)
        self.places = {s: Place(s) for s in self.seating.seats}
        self._rules_json = settings.rules.to_json()
        self._rules_name = settings.rules.name
        self.table: Table | None = None
        self.match_id: int | None = None
        self.matches: list[int] = []  # every match played here, oldest first
        self.seq_base = 0  # the seq numbers of earlier matches, so that seq only ever grows
        self.substitutes: list[dict[str, Any]] = []  # when a bot played for whom, for the record
        self.clients: set[Client] = set()
        self.clocks = {s: Clock() for s in self.seating.seats}
        self.ready: set[Seat] = set()
        self.ready_for = 0  # the number of finished deals whose end ``ready`` answers
        self.audiences: dict[Seat | None, _Audience] = {}
        self._reset_audiences()
        self.grace_timers: dict[Seat, asyncio.TimerHandle] = {}
        self.next_deal_timer: asyncio.TimerHandle | None = None
        self.bot_task: asyncio.Task[None] | None = None
        self.retry_pending = False  # the bots wait after a failed save
        self._seq_cache: tuple[Match | None, int, int] = (None, 0, 0)
        self.hints_given: dict[Seat, dict[str, Any]] = {}  # the last hint per seat (for its seq)
        self.hints_pending: set[Seat] = set()
        self.closed = False
        self.last_change = time.monotonic()
        # The change in progress (Room._change): how deep, and what it will send once it is durable.
        self._depth = 0
        self._outbox: list[tuple[Client | None, dict[str, Any] | str | None]] = []  # (None, newcomer): a state
        self._reload_wanted = False
        self._refreshed = False  # the change began by taking another process's state: show it even if refused
        self.rev = 0  # the store's revision of the room that this process holds (a cluster counts every change)
        self._rev_shown = 0
        self.stale = False  # (a cluster) another process changed the room and nobody here has looked yet

    # ---- what the room is ------------------------------------------------------------------------------------
    @property
    def status(self) -> str:
        table = self.table
        if table is None:
            return WAITING
        if table.match.is_over:
            return OVER
        pending = table.pending()
        return BETWEEN if pending in (Pending.DEAL_OVER, Pending.NEW_DEAL) else PLAYING

    @property
    def seq(self) -> int:
        """The number of the game's state: it grows with every deal and action (``act`` must name it)."""
        if self.table is None:
            return self.seq_base
        m = self.table.match
        n = len(m.deals)
        if self._seq_cache[0] is not m or self._seq_cache[1] != n:  # (the earlier deals' actions, counted once)
            self._seq_cache = (m, n, sum(len(d.history) for d in m.deals[:-1]))
        return self.seq_base + n + self._seq_cache[2] + (len(m.deals[-1].history) if n else 0)

    def seat_of(self, token: str) -> Seat | None:
        digest = token_hash(token)
        for place in self.places.values():
            if place.token_hash is not None and secrets.compare_digest(place.token_hash, digest):
                return place.seat
        return None

    def connected(self, seat: Seat) -> bool:
        """Whether the seat has a connection open, in this process or (a cluster) in another."""
        return any(c.seat == seat for c in self.clients) or any(
            seat.name in p.seats for p in self.store.elsewhere(self.code).values())

    def here(self) -> set[Seat | None]:
        """The seats with a connection open anywhere (None: some spectator's)."""
        seats: set[Seat | None] = {c.seat for c in self.clients}
        for presence in self.store.elsewhere(self.code).values():
            seats |= self._seats_named(presence.seats)
        return seats

    def _seats_named(self, names: Any) -> set[Seat | None]:
        """The seats of these names at this table (a name the table lacks is left out)."""
        table = self.seating
        return {table.seats[table.names.index(n)] for n in names if n in table.names}

    def presence(self) -> Presence:
        """This process's connections to the room, as the other processes of a cluster are told them."""
        return Presence(frozenset(c.seat.name for c in self.clients if c.seat is not None),
                        sum(1 for c in self.clients if c.seat is None))

    def info(self) -> dict[str, Any]:
        rules = self.settings.rules
        here = self.here()
        elsewhere = self.store.elsewhere(self.code)
        return {
            "code": self.code, "link": self.link, "status": self.status, "rules": self._rules_json,
            "rules_name": self._rules_name, "target": rules.target, **table_json(self.seating),
            "seats": [seat_info(self.places[s], here) for s in self.seating.seats],
            "spectators": sum(1 for c in self.clients if c.seat is None)
            + sum(p.spectators for p in elsewhere.values()),
            "grace": self.settings.grace, "between_deals": self.settings.between_deals,
            "trick_pause": self.settings.trick_pause, "hints": self.settings.hints, "match_id": self.match_id,
            # Between deals: who has pressed Next (the page says whom the table still waits for).
            "ready": [s.name for s in self.seating.seats if s in self.ready] if self.status == BETWEEN else [],
            # The honour rule: whose rulings a claimed irregularity takes, for the page to say before a revoke.
            **({"rulings": penalty_text(rules)} if rules.honour_rule else {}),
        }

    # ---- saving ------------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        table = self.table
        return {"settings": self.settings.to_json(), "host_hash": self.host_hash,
                "places": [self.places[s].to_json() for s in self.seating.seats], "matches": self.matches,
                "seq_base": self.seq_base, "substitutes": self.substitutes,
                "clocks": {s.name: self.clocks[s].used for s in self.seating.seats},
                # What a process that takes the room over must know to show the same table (a restart
                # ignores them: its clocks start paused and it deals the next deal at once).
                "running": {s.name: c.since for s, c in self.clocks.items() if c.since is not None},
                "ready": [s.name for s in self.seating.seats if s in self.ready],
                "acknowledged": None if table is None else table.acknowledged}

    def save(self) -> None:
        """Store the room (its seats and settings; the match saves itself after every action)."""
        self.library.save_room(self.code, status=self.status, match_id=self.match_id, data=self.to_json())

    @classmethod
    def load(cls, row: dict[str, Any], library: Library, *, link: str = "", thinker: Thinker | None = None,
             store: Store | None = None, chance: random.Random | None = None) -> Room:
        """A stored room, its table rebuilt at the last saved action (people's seats wait for them)."""
        data = row["data"]
        room = cls(row["code"], Settings.from_json(data["settings"]), data["host_hash"], library, link=link,
                   thinker=thinker, store=store, chance=chance)
        room._places_from(data)
        for name, used in data.get("clocks", {}).items():
            room.clocks[room.seating.parse_seat(name)].used = float(used)
        room.match_id = row["match_id"]
        room.rev = int(row.get("rev", 0))
        if room.match_id is not None:
            text = row.get("record")
            match = room.store.load_match(room.match_id) if text is None else match_from_record(
                text, row.get("first_dealer"), room.match_id)
            room.table = room._table_for(room.match_id, match)
            if room.store.cluster:
                room._adopt_table_state(data)  # (another process may be playing it: as it stands, not dealt on)
            room._reset_audiences()
            room._tell(room._views())
        return room

    def _places_from(self, data: dict[str, Any]) -> None:
        for entry in data["places"]:
            place = Place.from_json(entry, self.seating)
            self.places[place.seat] = place
        self.matches = list(data["matches"])
        self.seq_base = int(data["seq_base"])
        self.substitutes = list(data["substitutes"])

    def _adopt_table_state(self, data: dict[str, Any]) -> None:
        """What the stored room says beyond its match: who is ready, which deal's end was shown, the clocks."""
        self.ready = {s for s in self._seats_named(data.get("ready", ())) if s is not None}
        self.ready_for = 0 if self.table is None else len(self.table.match.summaries)
        for seat, clock in self.clocks.items():
            clock.used = float(data.get("clocks", {}).get(seat.name, clock.used))
            since = data.get("running", {}).get(seat.name)
            clock.since = float(since) if isinstance(since, int | float) else None
        acknowledged = data.get("acknowledged")
        if self.table is not None and isinstance(acknowledged, int):
            self.table.acknowledged = min(acknowledged, len(self.table.match.summaries))

    def resume_table(self) -> None:
        """The match as the library holds it (a single process's reload: its save failed)."""
        assert self.match_id is not None
        self.table = self._table_for(self.match_id, self.store.load_match(self.match_id))

    def _table_for(self, match_id: int, match: Match) -> Table:
        saver = StrictSaver(self.library, frontend="server")
        saver.attach(match_id, match)
        bots = {}
        for place in self.places.values():
            if place.bot is not None:
                bots[place.seat] = _factory(place.bot, self._seed())
        table = Table(match, bots, names={s: self.places[s].bot or "" for s in bots}, saver=saver, undo=False,
                      shuffles=self._shuffle, bot_factory=_factory)
        table.acknowledge()
        return table

    # ---- changes --------------------------------------------------------------------------------------------
    @contextlib.contextmanager
    def _change(self, *, driver: bool = False) -> Iterator[None]:
        """One change of the room, all of it or nothing: the store makes it exclusive and brings the room up to
        date, the body decides and saves, the store makes it durable, and only then is anyone told.

        Messages and states the body sends wait in an outbox until the change is durable; a change that
        fails sends none of them (a refusal goes back to its sender alone).  ``driver``: a timer's or a bot's
        change, which only the process that drives the room may make (:class:`NotDriver` otherwise).
        Changes nest: the outermost one commits.
        """
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        self._refreshed = False
        self._rev_shown = self.rev
        try:
            self.store.begin(self, driver)
        except CinchError as e:
            self._finish_failed(self.store.rollback(self))
            if isinstance(e, StorageFailed) and not driver:
                raise Refusal("storage", f"the game library cannot be reached ({e}); nothing was changed") from None
            raise
        self._depth = 1
        try:
            yield
        except BaseException:
            self._depth = 0
            self._finish_failed(self.store.rollback(self))
            raise
        self._depth = 0
        try:
            self.store.commit(self)
        except CinchError as e:
            self._finish_failed(True)
            if driver:
                raise StorageFailed(str(e)) from None
            raise Refusal("storage", f"the change could not be saved ({e}); it was not made") from None
        if self._reload_wanted:
            self._reload_now()
        self._flush()
        if self._refreshed:
            self._settle_soon()

    def _finish_failed(self, reload: bool) -> None:
        self._outbox.clear()
        if reload or self._reload_wanted:
            self._reload_now()
            self._refreshed = True
        if self._refreshed and self.rev != self._rev_shown:  # the connections here were shown an older state
            self.broadcast()
            self._settle_soon()

    def _settle_soon(self) -> None:
        """(A cluster.)  The change took another process's state: once it is over, take up what that state
        asks of this process (its bots and timers, if it drives the room; a seat to take back)."""
        if not self.store.cluster:
            return
        with contextlib.suppress(RuntimeError):  # (no event loop: nothing runs timers here anyway)
            asyncio.get_running_loop().call_soon(self.settle)

    def settle(self) -> None:
        if not self.closed:
            self.reconcile()
            self.drive()

    def _as_driver(self, what: str, step: Callable[[], None]) -> None:
        """A timer's change, made only while this process drives the room; one that cannot be saved is tried
        again a few seconds later."""
        try:
            with self._change(driver=True):
                step()
        except NotDriver:
            return
        except CinchError as e:
            self._save_failed(e, what)

    def _send(self, client: Client, message: dict[str, Any]) -> None:
        """Send ``message`` to one connection once the change is durable (at once outside a change)."""
        if self._depth:
            self._outbox.append((client, message))
        else:
            client.send(message)

    def _flush(self) -> None:
        """Send what the change left in the outbox, in order; consecutive states go out as one."""
        outbox, self._outbox = self._outbox, []
        newcomers: list[Client] = []
        for i, (client, message) in enumerate(outbox):
            if message is None:  # a state for everyone (``client``: a newcomer, who gets the log as well)
                if client is not None:
                    newcomers.append(client)
                if i + 1 < len(outbox) and outbox[i + 1][1] is None:
                    continue  # a later state follows at once: it says all this one would
                self._broadcast_now(newcomers)
                newcomers = []
            elif client is not None:
                client.send(message)

    def _reload(self) -> None:
        """Back to what the store holds (a save failed, so the match in memory is ahead of it): within a
        change, once the change has been rolled back."""
        if self._depth:
            self._reload_wanted = True
        else:
            self._reload_now()

    def _reload_now(self) -> None:
        self._reload_wanted = False
        self.store.reload(self)

    def adopt(self, row: dict[str, Any]) -> None:
        """(A cluster.)  Take the state another process stored: ``row`` is the room's row with its match's
        record.  The match is carried forward in place when it can be (:func:`catch_up`); the narrators go
        on, so that each connection is told what happened since it last looked."""
        before = self._holders()
        self._places_from(row["data"])  # (first: a table built here seats the bots the store names)
        match_id = row["match_id"]
        table = self.table
        if match_id is None:
            self.table = None
        elif table is None or match_id != self.match_id:
            self.table = self._table_for(match_id, match_from_record(row["record"], row.get("first_dealer"),
                                                                     match_id))
            self._reset_audiences()
        elif not catch_up(table.match, orjson.loads(row["record"])):
            table.match = match_from_record(row["record"], row.get("first_dealer"), match_id)
        self._took(row, before)

    def take_news(self, rev: int, news: dict[str, Any]) -> bool:
        """(A cluster.)  Another process's change as it told it on Redis: the room's stored data and its
        match's deals from the one this process holds on.  False if it cannot be taken so (this process is
        not at the revision just before, or the match is another): the caller reads the database."""
        table = self.table
        if self.stale or rev != self.rev + 1 or table is None or news.get("match_id") != self.match_id \
                or not isinstance(news.get("from"), int) or len(table.match.deals) - 1 > news["from"]:
            return False
        record = {**news["header"], "deals": [{}] * news["from"] + news["deals"]}
        if not catch_up(table.match, record):
            return False  # (the match may be half carried: the database's record mends it)
        before = self._holders()
        self._places_from(news["data"])
        self._took({"data": news["data"], "match_id": self.match_id, "rev": rev}, before)
        return True

    def _holders(self) -> dict[Seat, tuple[str, str | None]]:
        return {s: (p.kind, p.token_hash) for s, p in self.places.items()}

    def _took(self, row: dict[str, Any], before: dict[Seat, tuple[str, str | None]]) -> None:
        """The rest of taking a stored state, its places and match in hand: the bots, the room's own state."""
        data = row["data"]
        table = self.table
        if table is not None and row["match_id"] is not None:
            table.saver.attach(row["match_id"], table.match)
            for seat, place in self.places.items():  # the seats' bots as the store says
                if place.bot is not None and table.bot_names.get(seat) != place.bot:
                    table.seat_bot(seat, place.bot, self._seed())
                elif place.bot is None and seat in table.bots:
                    table.seat_person(seat)
            table.generation += 1  # a bot's turn thought before this is stale
        self.match_id = row["match_id"]
        self._adopt_table_state(data)
        self.rev = int(row["rev"])
        self.stale = False
        self._seq_cache = (None, 0, 0)
        self._refreshed = True
        for client in list(self.clients):  # a seat given to someone else, or to a bot, elsewhere
            held = client.seat
            if held is not None and (self.places[held].kind, self.places[held].token_hash) != before[held]:
                client.seat = None

    # ---- connections -----------------------------------------------------------------------------------
    def attach(self, client: Client, token: str | None, host_token: str | None) -> None:
        """A connection opens the room: as a spectator, or in the seat its token names, or as the host."""
        seat = None
        if token is not None:
            seat = self.seat_of(token)
            if seat is None:
                raise Refusal("bad-token", f"that token is no seat's in room {self.code}: open the room without one "
                                           "to watch, or join an empty seat")
        host = False
        if host_token is not None:
            host = secrets.compare_digest(token_hash(host_token), self.host_hash)
            if not host:
                raise Refusal("bad-token", f"that is not room {self.code}'s host token")
        if client.room is not None:
            client.room.detach(client)
        try:
            with self._change():
                if seat is not None and self.seat_of(token or "") != seat:  # (another process gave the seat away)
                    raise Refusal("bad-token", f"that token is no longer a seat's in room {self.code}")
                client.room, client.seat, client.host = self, seat, host
                self.clients.add(client)
                self._send(client, {"type": "welcome", "room": self.code, "seat": None if seat is None else seat.name,
                                    "host": host})
                if seat is not None:
                    self._returned(seat)
                self.broadcast(newcomer=client)
        except BaseException:  # (the room could not be saved: the connection is in no room, and may try again)
            if client.room is self:
                self.clients.discard(client)
                client.room, client.seat, client.host = None, None, False
            raise
        self.store.presence_changed(self)

    def detach(self, client: Client) -> None:
        """A connection closes (or moves to another room)."""
        if client.room is not self or client not in self.clients:
            return
        self.clients.discard(client)
        seat = client.seat
        client.room, client.seat = None, None
        self.store.presence_changed(self)
        if seat is not None and not self.connected(seat):
            self._dropped(seat)
        self.broadcast()

    def _dropped(self, seat: Seat) -> None:
        """A seated person's last connection closed: pause the clock; a bot takes over after the grace."""
        self.clocks[seat].stop(time.time())
        if self.table is None or self.status == OVER:
            return
        self._start_grace(seat)

    def _start_grace(self, seat: Seat) -> None:
        if seat in self.grace_timers or self.places[seat].kind != "human" or self.places[seat].away \
                or self.closed or not self.store.drives(self):
            return
        loop = asyncio.get_running_loop()
        self.grace_timers[seat] = loop.call_later(self.settings.grace, self._substitute, seat)

    def _stop_grace(self, seat: Seat) -> None:
        timer = self.grace_timers.pop(seat, None)
        if timer is not None:
            timer.cancel()

    def _substitute(self, seat: Seat) -> None:
        self.grace_timers.pop(seat, None)
        self._as_driver("a substitute for an absent player", lambda: self._substitute_now(seat))

    def _substitute_now(self, seat: Seat) -> None:
        place = self.places[seat]
        if self.table is None or self.connected(seat) or place.kind != "human" or place.away \
                or self.closed or self.status == OVER:
            return
        place.bot = self.settings.substitute
        self.table.seat_bot(seat, place.bot, self._seed())
        self._mark_substitute(seat, start=True)
        self.save()
        self._changed()

    def _returned(self, seat: Seat) -> None:
        self._stop_grace(seat)
        place = self.places[seat]
        if place.away and self.table is not None:
            place.bot = None
            self.table.seat_person(seat)
            self._mark_substitute(seat, start=False)
            self.save()
        self._run_clocks()
        self._repace()
        self._kick()

    def _repace(self) -> None:
        """Who sits changed: between deals, the timer to the next deal runs or stops as the people now
        seated want it (:meth:`Settings.waits_for_next`)."""
        table = self.table
        if table is not None and self.status == BETWEEN and table.pending() is Pending.DEAL_OVER:
            self._wait_for_next_deal()

    def presence_moved(self) -> None:
        """(A cluster.)  Connections to the room opened or closed in another process: show who is here, and
        (driving the room) start or stop the grace of the seats concerned."""
        self._run_clocks()
        self.broadcast()
        self.drive()

    def reconcile(self) -> None:
        """(A cluster.)  After another process's change: a person connected here whose seat a substitute took
        meanwhile (the grace ran out elsewhere while they came back here) takes it back."""
        if self.table is None or self.closed:
            return
        back = [s for s, p in self.places.items() if p.away and any(c.seat == s for c in self.clients)]
        if not back:
            return
        with contextlib.suppress(Refusal, CinchError), self._change():
            for seat in back:
                self._returned(seat)
            self.broadcast()

    def _mark_substitute(self, seat: Seat, *, start: bool) -> None:
        table = self.table
        assert table is not None
        m = table.match
        where = {"deal": len(m.deals), "action": len(m.deals[-1].history) if m.deals else 0}
        if start:
            self.substitutes.append({"match": self.match_id, "seat": seat.name, "bot": self.places[seat].bot or
                                     self.settings.substitute, "from": where, "until": None})
        else:
            for entry in reversed(self.substitutes):
                if entry["seat"] == seat.name and entry["until"] is None and entry["match"] == self.match_id:
                    entry["until"] = where
                    break
        m.metadata["substitutes"] = [s for s in self.substitutes if s["match"] == self.match_id]
        table.saver.save(m)  # (the record says who played for whom as the room does, for the other processes)

    # ---- the messages --------------------------------------------------------------------------------------
    def join(self, client: Client, seat_name: str, name: str, entropy: str, *, take: bool = False) -> None:
        """Sit down: in an empty seat before the start (``join``), or in a bot's seat between deals (``take``)."""
        with self._change():
            self._join(client, seat_name, name, entropy, take)
        self.store.presence_changed(self)

    def _join(self, client: Client, seat_name: str, name: str, entropy: str, take: bool) -> None:
        seat = seat_named(self.seating, seat_name)
        place = self.places[seat]
        if client.seat is not None:
            raise Refusal("already-seated", f"you already sit at {client.seat}: leave it first")
        if take:
            if place.kind != "bot":
                raise Refusal("not-a-bot", f"{seat} is {self._describe(place)}: take-seat takes a bot's seat; "
                                           f"{self._free_seats('bot') or 'no seat has a bot'}")
            if self.status not in (WAITING, BETWEEN, OVER):
                raise Refusal("not-between-deals", "a bot's seat may be taken before the start or between deals, "
                                                   "not during one")
        elif place.kind != "empty":
            raise Refusal("seat-taken", f"{seat} is {self._describe(place)}; "
                                        f"{self._free_seats('empty') or 'no seat is empty'}")
        token = new_token()
        place.kind, place.name, place.bot = "human", name, None
        place.token_hash, place.entropy = token_hash(token), entropy
        self._seat_changed(seat, name)
        self.save()
        client.seat = seat
        self._send(client, {"type": "seated", "room": self.code, "seat": seat.name, "token": token})
        self._returned(seat)
        self.broadcast(newcomer=client)

    def _describe(self, place: Place) -> str:
        if place.kind == "empty":
            return "empty"
        if place.kind == "bot":
            return f"played by the {place.bot} bot"
        return f"taken by {place.name}"

    def _free_seats(self, kind: str) -> str:
        seats = [s.name for s in self.seating.seats if self.places[s].kind == kind]
        what = "empty" if kind == "empty" else "with a bot"
        return f"seats {what}: {' '.join(seats)}" if seats else ""

    def leave(self, client: Client) -> None:
        """Give up the seat: it is empty again before the start; afterwards the room's substitute bot keeps it."""
        with self._change():
            self._leave(client)
        self.store.presence_changed(self)

    def _leave(self, client: Client) -> None:
        seat = self._seated(client)
        place = self.places[seat]
        for c in list(self.clients):
            if c.seat == seat:
                c.seat = None
        self._stop_grace(seat)
        self.clocks[seat].stop(time.time())
        if self.table is None:
            self.places[seat] = Place(seat)
        else:
            bot = place.bot or self.settings.substitute
            self.places[seat] = Place(seat, "bot", bot, bot)
            if place.away:
                self._mark_substitute(seat, start=False)
            self._seat_changed(seat, bot)
        self.ready.discard(seat)
        self.save()
        self._changed()

    def fill(self, client: Client, seat_name: str, bot: str) -> None:
        """The host seats a bot in an empty seat (or changes a bot), before the start or between deals."""
        with self._change():
            self._fill(client, seat_name, bot)

    def _fill(self, client: Client, seat_name: str, bot: str) -> None:
        self._host(client)
        seat = seat_named(self.seating, seat_name)
        place = self.places[seat]
        bots = available_bots()
        if bot not in bots:
            raise Refusal("unknown-bot", f"there is no bot {bot!r}; the bots are {', '.join(bots)}")
        if place.kind == "human" and self.connected(seat):
            raise Refusal("seat-taken", f"{seat} is taken by {place.name}, who is here")
        if self.status not in (WAITING, BETWEEN, OVER):
            raise Refusal("not-between-deals", "seats change before the start or between deals, not during one")
        # (a person who is away, or lost the token, gives the seat up to the bot for good)
        self._stop_grace(seat)
        if place.away:
            self._mark_substitute(seat, start=False)
        self.places[seat] = Place(seat, "bot", bot, bot)
        self._seat_changed(seat, bot)
        self.save()
        self._repace()
        self.broadcast()

    def _seat_changed(self, seat: Seat, name: str) -> None:
        """Someone new plays ``seat`` in the running match: the table, the record's players and its
        ``seating`` (who sat where from which deal) say so."""
        table = self.table
        if table is None:
            return
        if self.places[seat].kind == "bot":
            table.seat_bot(seat, self.places[seat].bot or name, self._seed())
        else:
            table.seat_person(seat)
        m = table.match
        m.players[seat] = name
        m.metadata.setdefault("seating", []).append(
            {"seat": seat.name, "name": name, "kind": self.places[seat].kind,
             "from_deal": len(m.deals) + (0 if m.current is not None else 1)})
        table.saver.save(m)

    def start(self, client: Client) -> None:
        """The host starts the match: every seat must be taken."""
        with self._change():
            self._start(client)

    def _start(self, client: Client) -> None:
        self._host(client)
        if self.table is not None:
            raise Refusal("started", "the match has already started")
        empty = [s.name for s in self.seating.seats if self.places[s].kind == "empty"]
        if empty:
            raise Refusal("empty-seats", f"seat {' '.join(empty)} {'is' if len(empty) == 1 else 'are'} empty: "
                                         "a person must join or the host fill it with a bot")
        self._new_match(first_dealer=None)

    def rematch(self, client: Client) -> None:
        """A new match with the same seats once this one is over; the deal passes to the left."""
        with self._change():
            self._rematch(client)

    def _rematch(self, client: Client) -> None:
        if client.seat is None and not client.host:
            raise Refusal("not-seated", "only a seated player or the host may call a rematch")
        table = self.table
        if table is None or not table.match.is_over:
            raise Refusal("not-over", "a rematch follows a finished match")
        last = table.match.deals[-1].dealer
        self.seq_base = self.seq + 1
        self._new_match(first_dealer=last.left)

    def _new_match(self, first_dealer: Seat | None) -> None:
        players = {s: (p.name if p.kind == "human" else p.bot) or "" for s, p in self.places.items()}
        match = Match(self.settings.rules, players=players, first_dealer=first_dealer,
                      rng=self._seed())
        match.metadata["server"] = {"room": self.code}
        saver = StrictSaver(self.library, frontend="server")
        bots = {s: _factory(p.bot, self._seed()) for s, p in self.places.items() if p.bot is not None}
        table = Table(match, bots, names={s: self.places[s].bot or "" for s in bots}, saver=saver, undo=False,
                      shuffles=self._shuffle, bot_factory=_factory)
        saver.start(match, human_seat=None, seed=None, players=players)
        assert saver.match_id is not None
        self.table, self.match_id = table, saver.match_id
        self.matches.append(saver.match_id)
        self.clocks = {s: Clock() for s in self.seating.seats}
        self.ready.clear()
        self.ready_for = 0
        self._reset_audiences()
        match.metadata["seating"] = [{"seat": s.name, "name": players[s], "kind": p.kind, "from_deal": 1}
                                     for s, p in self.places.items()]
        for seat, place in self.places.items():
            if place.away:  # a substitute goes on playing for a person still away
                self._mark_substitute(seat, start=True)
        self.save()
        for seat, place in self.places.items():
            if place.kind == "human" and not self.connected(seat):
                self._start_grace(seat)
        self._changed()

    def _shuffle(self, number: int) -> Shuffle:
        """Deal ``number``'s deck (both packs in two-deck Cinch): from a fresh secret salt and every seat's
        entropy (docs/protocol.md)."""
        entropy = tuple(self.places[s].entropy for s in self.seating.seats)
        if self.chance is not None:
            return Shuffle(f"{self.chance.getrandbits(4 * SALT_DIGITS):0{SALT_DIGITS}x}", entropy, number,
                           decks=self.settings.rules.decks)
        return Shuffle.new(entropy, number, decks=self.settings.rules.decks)

    def _seed(self) -> int:
        """A seed for a bot or a match (the first dealer), from the room's chance."""
        return self.chance.randrange(2**31) if self.chance is not None else secrets.randbelow(2**31)

    def act(self, client: Client, seq: int, text: str, *, irregular: bool = False) -> None:
        """A person's decision, in the record notation, for the state numbered ``seq`` (``irregular``: meant
        against the rules, a revoke under the honour rule).

        Several processes may receive the same decision (two tabs of one seat): each checks ``seq`` within
        its change, after the store brought the room up to date, so that one takes it and the other finds
        it stale."""
        with self._change():
            self._act(client, seq, text, irregular)

    def _act(self, client: Client, seq: int, text: str, irregular: bool = False) -> None:
        seat = self._seated(client)
        table = self.table
        if table is None or self.status != PLAYING:
            raise Refusal("no-deal", f"no deal is being played (the room is {self.status})")
        if seq != self.seq:
            raise Refusal("stale", f"seq {seq} is not the current state ({self.seq}): the table has moved on or the "
                                   "action was sent twice; look again and send the current seq")
        deal = table.match.current
        assert deal is not None
        honour = table.rules.honour_rule
        if deal.to_act != seat and not honour:
            who = "nobody (a new stock is being shuffled)" if deal.to_act is None else deal.to_act.name
            raise Refusal("not-your-turn", f"it is {who}'s turn, not yours ({seat})")
        if self.places[seat].away:
            raise Refusal("not-your-turn", "a bot plays for you while you are away")
        try:
            action = parse_action(text)
        except NotationError as e:
            legal = deal.legal_actions()
            raise Refusal("bad-action", f"{e}; legal now: {_legal_summary(legal)}", legal=_legal_list(legal)) from None
        if deal.to_act != seat and not isinstance(action, (OutOfTurn, Claim)):
            # The honour rule: out of turn only a bid or a lead made on purpose, or a misdeal claimed.
            who = "nobody (a new stock is being shuffled)" if deal.to_act is None else deal.to_act.name
            raise Refusal("not-your-turn", f"it is {who}'s turn, not yours ({seat}); under the honour rule a bid or "
                                           f"a lead out of turn is sent as '{seat.name} out of turn: bid 8' (003)")
        try:
            # A revoke is taken only when it is sent as meant, and only under the honour rule (without the
            # option the engine refuses the card as it refuses any illegal one).
            table.act(seat, action, irregular=irregular)
        except IllegalAction as e:
            legal = deal.legal_actions()
            raise Refusal("illegal", f"{action} is not allowed: {e.rule}; legal now: {_legal_summary(legal)}",
                          legal=_legal_list(legal)) from None
        except CinchError as e:  # the library refused the save: the action is taken back
            self._reload()
            raise Refusal("storage", f"the action could not be saved ({e}); it was not taken") from None
        self._changed()

    def ready_now(self, client: Client) -> None:
        """A person has seen the end of the deal."""
        with self._change():
            self._ready(client)

    def _ready(self, client: Client) -> None:
        seat = self._seated(client)
        if self.status != BETWEEN:
            raise Refusal("not-between-deals", "ready answers the end of a deal")
        self.ready.add(seat)
        people = {s for s, p in self.places.items() if p.kind == "human" and not p.away and self.connected(s)}
        if people <= self.ready:
            self._next_deal()
        else:
            self.save()  # (who is ready, for the other processes of a cluster)
            self.broadcast()

    def hint(self, client: Client) -> None:
        """What the hint bot would do for the client's seat now; the answer (a ``hint`` message) may take
        a second, and goes to that seat's connections if the table has not moved on meanwhile."""
        seat = self._seated(client)
        if not self.settings.hints:
            raise Refusal("hints-off", "the host turned hints off in this room")
        table = self.table
        if table is None or self.status != PLAYING or table.to_act != seat or self.places[seat].away:
            raise Refusal("not-your-turn", "a hint is for your own decision, when it is your turn")
        cached = self.hints_given.get(seat)
        if cached is not None and cached["seq"] == self.seq:
            client.send(cached)
            return
        if seat in self.hints_pending:
            return  # the answer is on its way to every connection of the seat
        view = table.view(seat)
        assert view is not None
        self.hints_pending.add(seat)
        asyncio.get_running_loop().create_task(self._hint(seat, self.seq, view))

    async def _hint(self, seat: Seat, seq: int, view: Any) -> None:
        name = hint_bot_name()
        try:
            if name in SLOW_BOTS and self.thinker is not None:
                text, estimate, detail = await self.thinker.hint(name, view)
            else:
                text, estimate, detail = hint_now(name, view)
            action = parse_action(text)
        except Exception as e:  # the hint bot failed: say so, the game goes on
            message: dict[str, Any] = {"type": "error", "code": "hint-failed", "message": f"no hint this time ({e})"}
        else:
            message = {"type": "hint", "seq": seq, "bot": name, "action": str(action),
                       "words": action_words(action, view_trump(view)), "estimate": estimate, "detail": detail}
            self.hints_given[seat] = message
        finally:
            self.hints_pending.discard(seat)
        if self.seq != seq or self.closed:
            return  # the table has moved on: the hint is of no use now
        self.deliver(message, seat)
        self.store.relay(self, message, seat)  # (a cluster: the seat's connections in other processes too)

    def deliver(self, message: dict[str, Any], seat: Seat | None = None) -> None:
        """A chat line to every connection here, or a hint (``seat``) to that seat's, unless it is stale."""
        if message.get("type") == "hint" and message.get("seq") != self.seq:
            return
        for c in list(self.clients):
            if seat is None or c.seat == seat:
                c.send(message)

    def chat(self, client: Client, text: str) -> None:
        text = "".join(ch for ch in text if ch.isprintable()).strip()
        if not text:
            raise Refusal("bad-message", "a chat line needs some printable text")
        seat = client.seat
        name = self.places[seat].name if seat is not None else "spectator"
        message = {"type": "chat", "name": name or "", "seat": None if seat is None else seat.name, "text": text,
                   "at": time.time()}
        self.deliver(message)
        self.store.relay(self, message, None)

    def _seated(self, client: Client) -> Seat:
        if client.seat is None:
            raise Refusal("not-seated", "only a seated player may do that: join a seat, or open the room with "
                                        "your seat token")
        return client.seat

    def _host(self, client: Client) -> None:
        if not client.host:
            raise Refusal("not-host", "only the room's host may do that (open the room with the host token)")

    # ---- moving on ------------------------------------------------------------------------------------------
    def _changed(self) -> None:
        """After every change of the game: deal on, run the clocks, start the bots, tell everyone."""
        table = self.table
        if table is not None:
            try:
                pending = table.advance()
            except CinchError as e:  # dealing on could not be saved: what was saved stands, and it tries again
                self._save_failed(e, "the next step of the game")
                return
            if pending is Pending.DEAL_OVER:
                self._deal_over()
        self._run_clocks()
        self.last_change = time.monotonic()
        self.broadcast()
        self._kick()

    def _deal_over(self) -> None:
        table = self.table
        assert table is not None
        if table.match.is_over:
            table.acknowledge()
            self.save()
            return
        ended = len(table.match.summaries)
        if self.ready_for != ended:  # (a deal newly over: nobody has pressed Next for it yet)
            self.ready.clear()
            self.ready_for = ended
        self.save()  # (the clocks, and the status the lobby shows)
        self._wait_for_next_deal()

    def people(self) -> int:
        """How many people sit at the table (a person a substitute plays for is not counted)."""
        return sum(1 for p in self.places.values() if p.kind == "human" and not p.away)

    def _wait_for_next_deal(self) -> None:
        """Between deals: run the timer that deals on, unless the room waits for its one person's Next
        (:meth:`Settings.waits_for_next`); called again whenever who sits changes."""
        if self.settings.waits_for_next(self.people()):
            self._stop_next_deal()
        elif self.next_deal_timer is None and not self.closed and self.store.drives(self):
            loop = asyncio.get_running_loop()
            self.next_deal_timer = loop.call_later(self.settings.between_deals, self._deal_on)

    def _deal_on(self) -> None:
        """(The driver's timer.)  The end of the deal has been shown long enough: the next deal."""
        self.next_deal_timer = None
        self._as_driver("the next deal", self._next_deal)

    def _stop_next_deal(self) -> None:
        if self.next_deal_timer is not None:
            self.next_deal_timer.cancel()
            self.next_deal_timer = None

    def _next_deal(self) -> None:
        self._stop_next_deal()
        table = self.table
        if table is None or self.closed or table.pending() is not Pending.DEAL_OVER:
            return
        table.acknowledge()
        self.ready.clear()
        self._changed()

    def drive(self) -> None:
        """(The process that drives the room.)  Start what the room's state waits for: a bot's turn, the grace
        of a person with no connection anywhere, the pause between deals; stop what it no longer waits for.
        A process calls it when it takes the room over and after another process moved the room on."""
        if self.closed or not self.store.drives(self):
            return
        table, status = self.table, self.status
        for seat, place in self.places.items():
            waiting = table is not None and status != OVER and place.kind == "human" and not place.away \
                and not self.connected(seat)
            if waiting:
                self._start_grace(seat)
            else:
                self._stop_grace(seat)
        if status == BETWEEN and table is not None and table.pending() is Pending.DEAL_OVER:
            self._wait_for_next_deal()
        else:
            self._stop_next_deal()
        if status == BETWEEN and table is not None and table.pending() is Pending.NEW_DEAL:
            self._as_driver("the next deal", self._changed)  # (the end of the deal was shown: deal on)
        self._kick()

    def abandon(self) -> None:
        """(A cluster.)  Another process drives the room now: stop its timers and bots here."""
        for timer in self.grace_timers.values():
            timer.cancel()
        self.grace_timers.clear()
        self._stop_next_deal()
        task = self.bot_task
        if task is not None and task is not _current_task():  # (a bot's own change may find it is no driver)
            task.cancel()
            self.bot_task = None

    def _run_clocks(self) -> None:
        now = time.time()
        to_act = self.table.to_act if self.table is not None and self.status == PLAYING else None
        here = self.here()
        for seat, clock in self.clocks.items():
            place = self.places[seat]
            running = seat == to_act and (place.kind == "bot" or place.away or seat in here)
            if running:
                clock.run(now)
            else:
                clock.stop(now)

    def _kick(self) -> None:
        """Start the bots' task if a bot is to act and none is running (in the process that drives the room)."""
        table = self.table
        if self.closed or self.retry_pending or table is None or self.bot_task is not None \
                or table.bot_turn() is None or not self.store.drives(self):
            return
        self.bot_task = asyncio.get_running_loop().create_task(self._run_bots())

    async def _run_bots(self) -> None:
        try:
            while not self.closed:
                table = self.table
                if table is None:
                    return
                turn = table.bot_turn()
                if turn is None:
                    return
                pause = self.settings.pause_before(turn.view)
                if pause > 0:
                    await asyncio.sleep(pause)
                if turn.bot.name in SLOW_BOTS and self.thinker is not None:
                    action, error = await self.thinker.think(turn.bot.name, self._seed(), turn.view)
                else:
                    action, error = turn.decide()
                if self.table is not table:
                    continue
                try:
                    with self._change(driver=True):  # (a cluster: the room may have moved on elsewhere)
                        if self.table is not table or not table.play_bot(turn, action, error):
                            continue
                        table.take_notes()
                        self._changed()  # (its _kick waits: this task is the bots')
                except NotDriver:  # another process drives the room now
                    return
                except CinchError as e:  # the library refused the save: back to what it holds, try again later
                    self._save_failed(e)
                    return
                await asyncio.sleep(0)  # let the people's messages in between the bots' plays
        finally:
            self.bot_task = None
            if not self.closed and not self.retry_pending and self.table is not None \
                    and self.table.bot_turn() is not None:
                self._kick()

    def _save_failed(self, error: Exception, what: str = "a bot's action") -> None:
        """Something the room did by itself (a bot's action, dealing on) could not be saved: the room goes
        back to the library's state, says so, and tries again in a few seconds."""
        self._reload()
        self.broadcast()
        notice = {"type": "error", "code": "storage",
                  "message": f"{what} could not be saved ({error}); the room tries again in a few seconds"}
        for c in list(self.clients):
            self._send(c, notice)
        if self.retry_pending or not self.store.drives(self):
            return
        self.retry_pending = True

        def retry() -> None:
            self.retry_pending = False
            if not self.closed:
                self._as_driver("the next step of the game", self._changed)

        asyncio.get_running_loop().call_later(RETRY_SECONDS, retry)

    # ---- telling everyone ----------------------------------------------------------------------------------
    def _reset_audiences(self) -> None:
        self.audiences = {s: _Audience(s, Narrator(s)) for s in (*self.seating.seats, None)}
        self._summary_cache: dict[tuple[int, Seat | None], dict[str, Any]] = {}

    def _views(self) -> dict[Seat | None, SeatView]:
        """Every seat's view of the current (or last) deal, and the spectators' (None): made once a change."""
        table = self.table
        if table is None or not table.match.deals:
            return {}
        m = table.match
        seats = self.seating.seats
        first = seats[0]  # (its view gives the public part of the deal: the same from every seat)
        if self.store.cluster:  # the seats connected here (and the first's): the others are elsewhere
            here = {c.seat for c in self.clients}
            seats = tuple(s for s in seats if s is first or s in here)
        views: dict[Seat | None, SeatView] = {s: m.view(s) for s in seats}
        if any(c.seat is None for c in self.clients) or m.deals[-1].is_over:  # (a spectator's view: when needed)
            views[None] = public_view(views[first])
        return views

    def _tell(self, views: dict[Seat | None, SeatView]) -> None:
        """Narrate what each seat and the spectators have not been told yet."""
        if not views:
            return
        assert self.table is not None
        m = self.table.match
        listening = {c.seat for c in self.clients}
        listening |= {s for s, p in self.places.items() if p.kind == "human"}  # (back soon: keep their log)
        deal_over = m.deals[-1].is_over
        for seat, audience in self.audiences.items():
            if (seat not in listening and not deal_over) or seat not in views:
                continue  # nobody to tell: a narrator catches up on the whole deal when next asked
            lines = audience.narrator.update(views[seat])
            while audience.told_deals < len(m.summaries):
                summary = m.summaries[audience.told_deals]
                lines += result_lines(summary, seat, m.rules, summary.score)
                audience.told_deals += 1
            lines = [line for line in lines if line]
            audience.new = lines
            audience.log.extend(lines)

    def _shared(self, views: dict[Seat | None, SeatView], info: dict[str, Any] | None = None) -> dict[str, Any]:
        """The parts of a state that every connection gets alike: the room, the clocks, the public deal."""
        now = time.time()
        shared: dict[str, Any] = {"room": info or self.info(),
                                  "clocks": {s.name: self.clocks[s].to_json(now) for s in self.seating.seats},
                                  "deal": None}
        if views:
            assert self.table is not None
            m = self.table.match
            shuffle = m.shuffles.get(len(m.deals) - 1)
            first = views[self.seating.seats[0]]  # (the public part: the same from every seat's view)
            deal = public_deal_json(first, None if shuffle is None else shuffle.commitment)
            if m.deals[-1].is_over and shuffle is not None:
                deal["reveal"] = {"deck": " ".join(map(str, m.deals[-1].deck)), **shuffle.to_json()}
            shared["deal"] = deal
        return shared

    def state(self, seat: Seat | None, *, views: dict[Seat | None, SeatView] | None = None,
              shared: dict[str, Any] | None = None, full: bool = True) -> dict[str, Any]:
        """The ``state`` message for ``seat`` (None: a spectator); ``full`` adds the recent ``log``, which a
        connection gets with its first state (afterwards each state's ``narration`` adds to it)."""
        audience = self.audiences[seat]
        views = self._views() if views is None else views
        shared = self._shared(views) if shared is None else shared
        out: dict[str, Any] = {"type": "state", "seq": self.seq, "room": shared["room"],
                               "you": {"seat": None if seat is None else seat.name},
                               "match": None, "deal": None, "clocks": shared["clocks"],
                               "narration": list(audience.new)}
        if full:
            out["log"] = list(audience.log)
        table = self.table
        if views and table is not None:
            out["match"] = match_json(table.match, seat, self._summary_cache)
            deal = dict(shared["deal"])
            if seat is not None:
                view = views[seat]
                suggestion = None
                if view.legal and view.phase in (Phase.DISCARD, Phase.ROB) and len(view.legal) > 1:
                    suggestion = table.suggestion(seat)
                irregular = table.irregular_actions(seat) if table.rules.honour_rule else ()
                deal.update(private_deal_json(view, suggestion, irregular))
            out["deal"] = deal
        return out

    def broadcast(self, newcomer: Client | None = None) -> None:
        """Send every connection its state (one JSON text per seat, shared by that seat's connections); a
        ``newcomer`` (a connection that just opened the room or sat down) gets its seat's log as well.
        Within a change, once the change is durable."""
        if self._depth:
            self._outbox.append((newcomer, None))
            return
        self._broadcast_now([] if newcomer is None else [newcomer])

    def _broadcast_now(self, newcomers: list[Client]) -> None:
        views = self._views()
        self._tell(views)
        if self.clients:
            texts: dict[Seat | None, str] = {}
            shared = self._shared(views)
            for client in list(self.clients):
                seat = client.seat
                if client in newcomers:
                    client.send(encode(self.state(seat, views=views, shared=shared, full=True)))
                    continue
                if seat not in texts:
                    texts[seat] = encode(self.state(seat, views=views, shared=shared, full=False))
                client.send(texts[seat])
        for audience in self.audiences.values():
            audience.new = []

    def close(self) -> None:
        """Stop the room's timers and tasks (the server is shutting down)."""
        self.closed = True
        self.abandon()

    def record(self) -> dict[str, Any]:
        """The ``cinch/1`` record of this match's finished deals (never the running deal's cards)."""
        if self.table is None:
            raise Refusal("no-record", f"room {self.code} has not started a match yet")
        m = self.table.match
        return finished_deals(to_record(m), m)


class StrictSaver(Saver):
    """The server's saver: a save that fails raises, so that no action is announced unsaved."""

    def save(self, match: Match) -> None:
        if self.library is None or self.match_id is None:
            raise CinchError("the room's match is not in the library")
        self.library.save(self.match_id, match)

    def start(self, match: Match, *, human_seat: Seat | None, seed: int | None, players: dict[Seat, str]) -> None:
        assert self.library is not None
        self.match_id = self.library.new_match(match, human_seat=human_seat, seed=seed, frontend=self.frontend,
                                               players=players)


def _current_task() -> asyncio.Task[Any] | None:
    try:
        return asyncio.current_task()
    except RuntimeError:  # no event loop running (a room closed by a test, or at exit)
        return None


_HINT_BOT: str | None = None


def hint_bot_name() -> str:
    """The bot that gives hints: the strongest installed (expert, else heuristic, else basic)."""
    global _HINT_BOT
    if _HINT_BOT is None:
        from cinch.table.advice import hint_bot

        _HINT_BOT = hint_bot()[0]
    return _HINT_BOT


def hint_now(name: str, view: Any) -> tuple[str, str, str]:
    """(Here, or in a worker process.)  The hint bot's action in record notation, with its reasons."""
    from cinch.table.advice import ask_hint

    hint = ask_hint(name, _factory(name, 0), view)
    return str(hint.action), hint.estimate, hint.detail


def _factory(name: str, seed: int) -> Bot:
    from cinch.bots import make_bot

    return make_bot(name, seed=seed)


def _legal_list(legal: Any) -> list[str] | None:
    return [str(a) for a in legal] if len(legal) <= 64 else None


def _legal_summary(legal: Any) -> str:
    from cinch.keep import KeepOptions

    if isinstance(legal, KeepOptions) and len(legal) > 1:
        return legal.describe()
    return ", ".join(str(a) for a in legal)


def new_code(taken: Callable[[str], bool]) -> str:
    """A fresh invite code: six letters and digits that do not look alike."""
    while True:
        code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
        if not taken(code):
            return code


def rules_from(spec: Any, target: int | None, options: dict[str, Any] | None = None) -> Rules:
    """A room's rules: a preset name or ``{"preset": ..., options}`` as in a record, then ``options`` given
    as text or JSON values (``{"sancho": "true"}``), and a target."""
    try:
        rules = Rules.from_json(spec)
        changes = {k: (str(v).lower() if isinstance(v, bool) else str(v)) for k, v in (options or {}).items()}
        if target is not None:
            changes["target"] = str(target)
        if changes:
            rules = rules.with_options(**changes)
    except (RulesError, CinchError, KeyError, TypeError, ValueError) as e:
        raise Refusal("bad-rules", str(e)) from None
    return rules
