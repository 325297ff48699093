"""A table on the server: the parts that every kind of table has, composed.

:class:`ServerTable` is what a room (:class:`cinch.server.rooms.Room`), and tomorrow a daily table
or an event's table, is made of: parts with one job each, in modules of their own.

- ``seats`` (:mod:`cinch.server.seats`): the seats and who holds them, people by the hash of their
  token, bots by kind, and who played for an absent person;
- ``games`` (:mod:`cinch.server.games`): the match at the table and the earlier ones, the
  :class:`~cinch.table.Table` built with the server's saver and where its decks come from, and ``seq``;
- ``clocks`` and ``grace`` (:mod:`cinch.server.clocks`): each seat's clock, and the grace of a person
  whose connection is gone;
- ``turns`` (:mod:`cinch.server.turns`): the bots' turns (slow bots in the process pool), and a
  person's decision checked and taken (:func:`~cinch.server.turns.take_action`);
- ``hints`` (:mod:`cinch.server.hints`): hints, worked out off the event loop;
- ``audience`` (:mod:`cinch.server.audience`): the connections, and the state each seat and the
  spectators are shown, with the deal told in words;
- ``between`` (:mod:`cinch.server.between`): the end of a deal, until every person's Next or the
  timer deals on;
- ``changes`` (:mod:`cinch.server.changes`): every change all or nothing, durable in the store
  (:mod:`cinch.server.store`: SQLite, or PostgreSQL and Redis) before anyone is told.

This class is the glue between them, the same for every kind of table: a connection opening and
closing (:meth:`ServerTable.open`, :meth:`ServerTable.detach`), a person's grace and the substitute
that plays for them after it, the decisions (:meth:`ServerTable.act`), Next
(:meth:`ServerTable.ready_now`), hints, chat, the step after every change (:meth:`ServerTable._changed`:
deal on, the end of a deal, the clocks, the bots, everyone told), the timers and bots of the process
that drives it (:meth:`ServerTable.drive`), and taking another process's state (:meth:`ServerTable.adopt`).

A new kind of table subclasses it and adds what is its own:

- ``_seed()`` and ``_shuffle(number)``: where its chance comes from (a room: fresh secrets; a table
  that plays a fixed deal set: that set's decks);
- ``info()``: what every connection is shown of it, and ``to_json()``: its stored form, built on
  :meth:`ServerTable.kept_json` (with :meth:`ServerTable.restore` to load it), kept like a room's
  as a row of the library's rooms under its code, which both stores know how to lock and share;
- who may open it: its ``attach`` checks the connection's token and calls :meth:`ServerTable.open`
  (a table without spectators, a daily table, refuses a connection without a seat there);
- its messages (who may sit, how a match starts: :meth:`ServerTable.play` takes a new
  :class:`~cinch.match.Match`), each made inside ``with self._change():``; the game's own
  messages are here for every kind (``act``, ``ready``, ``hint``, ``chat``: :meth:`ServerTable.act`,
  :meth:`ServerTable.ready_now`, :meth:`ServerTable.hint`, :meth:`ServerTable.chat`);
- what a finished deal means to it: override :meth:`ServerTable._deal_over` (a daily table reports
  the board to its scorer) and call the base's.

Everything here runs on the server's event loop, and knows nothing of websockets: a connection is
anything with ``send()`` (:class:`~cinch.server.audience.Client`).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson

from cinch.actions import Action
from cinch.cards import Seat
from cinch.errors import CinchError
from cinch.match import Match
from cinch.record import finished_deals, to_record
from cinch.rules import Rules
from cinch.server.audience import Audience, Client
from cinch.server.between import BetweenDeals, waits_for_next
from cinch.server.changes import Changes
from cinch.server.clocks import Clocks, Grace
from cinch.server.games import BETWEEN, OVER, PLAYING, Games, status_of
from cinch.server.hints import Hints
from cinch.server.protocol import Refusal
from cinch.server.seats import Place, Seats
from cinch.server.store import LocalStore, NotDriver, Presence, Store, catch_up, match_from_record
from cinch.server.turns import BotTurns, Thinker, pause_before, take_action
from cinch.shuffle import Shuffle
from cinch.table import BotTurn, Pending, Table
from cinch.view import SeatView


@dataclass
class Settings:
    """A table's settings (a room's, chosen when it is created)."""

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
        (with three bots, say), whose Next alone deals on, unless the table deals on at once
        (``between_deals`` 0).  With two or more people the timer keeps one slow reader from holding the
        others; with nobody but bots it deals on by itself (:func:`cinch.server.between.waits_for_next`).

        >>> from cinch.rules import Rules
        >>> s = Settings(Rules.preset("pagat"))
        >>> s.waits_for_next(1), s.waits_for_next(2), s.waits_for_next(0)
        (True, False, False)
        """
        return waits_for_next(people, self.between_deals)

    def pause_before(self, view: SeatView) -> float:
        """How long a bot waits before its decision: the table's pace, and before leading to a new trick at
        least ``trick_pause`` (:func:`cinch.server.turns.pause_before`)."""
        return pause_before(view, self.bot_delay, self.trick_pause)


class ServerTable:
    """A table on the server: its settings, its parts (the module's docstring), and the glue between them."""

    def __init__(self, code: str, settings: Settings, library: Any, *, thinker: Thinker | None = None,
                 store: Store | None = None):
        self.code = code
        self.settings = settings
        self.store: Store = store if store is not None else LocalStore(library)
        self.library = self.store.library
        self.thinker = thinker
        self.seating = settings.rules.seating  # the table's seats and sides (N E S W, or 1..n cut-throat)
        self.closed = False
        self.last_change = time.monotonic()
        self.rev = 0  # the store's revision of the table that this process holds (a cluster counts every change)
        self.stale = False  # (a cluster) another process changed the table and nobody here has looked yet
        self.seats = Seats(self.seating)
        self.games = Games(self.library, shuffles=self._shuffle, seed=self._seed)
        self.clocks = Clocks(self.seating)
        self.grace = Grace()
        self.between = BetweenDeals()
        self.audience = Audience(self)
        self.turns = BotTurns(self)
        self.hints = Hints(self)
        self.changes = Changes(self, self._changed)

    # ---- what a kind of table says for itself -----------------------------------------------------------
    def _seed(self) -> int:
        """A seed for a bot or a match (the first dealer), from the table's chance."""
        raise NotImplementedError

    def _shuffle(self, number: int) -> Shuffle:
        """Deal ``number``'s deck."""
        raise NotImplementedError

    def info(self) -> dict[str, Any]:
        """The table as every connection is shown it alike (a state's ``room``)."""
        raise NotImplementedError

    def to_json(self) -> dict[str, Any]:
        """The table's stored form (built on :meth:`kept_json`)."""
        raise NotImplementedError

    # ---- what the table is (the parts' state, as the stores, the app and the tests read it) ---------------
    @property
    def table(self) -> Table | None:
        return self.games.table

    @property
    def match_id(self) -> int | None:
        return self.games.match_id

    @property
    def seq_base(self) -> int:
        return self.games.seq_base

    @property
    def places(self) -> dict[Seat, Place]:
        return self.seats.places

    @property
    def clients(self) -> set[Client]:
        return self.audience.clients

    @property
    def grace_timers(self) -> dict[Seat, asyncio.TimerHandle]:
        return self.grace.timers

    @property
    def bot_task(self) -> asyncio.Task[None] | None:
        return self.turns.task

    @property
    def retry_pending(self) -> bool:
        """The table waits a few seconds after a save failed before it tries its own next step again."""
        return self.changes.retrying

    @property
    def status(self) -> str:
        return status_of(self.table)

    @property
    def seq(self) -> int:
        """The number of the game's state: it grows with every deal and action (``act`` must name it)."""
        return self.games.seq

    def seat_of(self, token: str) -> Seat | None:
        return self.seats.seat_of(token)

    def connected(self, seat: Seat) -> bool:
        """Whether the seat has a connection open, in this process or (a cluster) in another."""
        return self.audience.connected(seat)

    def here(self) -> set[Seat | None]:
        """The seats with a connection open anywhere (None: some spectator's)."""
        return self.audience.here()

    def presence(self) -> Presence:
        """This process's connections to the table, as the other processes of a cluster are told them."""
        return self.audience.presence()

    def people(self) -> int:
        """How many people sit at the table (a person a substitute plays for is not counted)."""
        return self.seats.people()

    # ---- saving ------------------------------------------------------------------------------------------
    def kept_json(self) -> dict[str, Any]:
        """The stored form of the parts: the seats, the matches, the clocks, who is ready."""
        table = self.table
        return {"places": self.seats.to_json(), **self.games.to_json(), "substitutes": self.seats.substitutes,
                "entrants": self.seats.entrants_json(), "clocks": self.clocks.used_json(),
                # What a process that takes the table over must know to show the same table (a restart
                # ignores them: its clocks start paused and it deals the next deal at once).
                "running": self.clocks.running_json(), "ready": self.between.ready_names(self.seating),
                "acknowledged": None if table is None else table.acknowledged}

    def save(self) -> None:
        """Store the table (its seats and settings; the match saves itself after every action)."""
        self.library.save_room(self.code, status=self.status, match_id=self.match_id, data=self.to_json())

    def restore(self, row: dict[str, Any]) -> None:
        """(A table just built.)  Its stored state, its match rebuilt at the last saved action (people's seats
        wait for them)."""
        data = row["data"]
        self._places_from(data)
        self.clocks.take_used(data.get("clocks", {}))
        self.games.match_id = match_id = row["match_id"]
        self.rev = int(row.get("rev", 0))
        if match_id is not None:
            text = row.get("record")
            match = self.store.load_match(match_id) if text is None else match_from_record(
                text, row.get("first_dealer"), match_id)
            self.games.table = self._table_for(match_id, match)
            if self.store.cluster:
                self._adopt_table_state(data)  # (another process may be playing it: as it stands, not dealt on)
            self.audience.reset()
            self.audience.tell(self.audience.views())

    def _places_from(self, data: dict[str, Any]) -> None:
        self.seats.take_json(data)
        self.games.take_json(data)

    def _adopt_table_state(self, data: dict[str, Any]) -> None:
        """What the stored table says beyond its match: who is ready, which deal's end was shown, the clocks."""
        self.between.take_json(self.seats.named(data.get("ready", ())), self.table, data.get("acknowledged"))
        self.clocks.take_json(data.get("clocks", {}), data.get("running", {}))

    def resume_table(self) -> None:
        """The match as the library holds it (a single process's reload: its save failed)."""
        assert self.match_id is not None
        self.games.table = self._table_for(self.match_id, self.store.load_match(self.match_id))

    def _table_for(self, match_id: int, match: Match) -> Table:
        return self.games.table_for(match_id, match, self.seats.bots())

    # ---- changes (cinch.server.changes) ---------------------------------------------------------------------
    def _change(self, *, driver: bool = False) -> contextlib.AbstractContextManager[None]:
        """One change of the table, all of it or nothing (:meth:`Changes.change`)."""
        return self.changes.change(driver=driver)

    def settle(self) -> None:
        if not self.closed:
            self.reconcile()
            self.drive()

    def _as_driver(self, what: str, step: Callable[[], None]) -> None:
        self.changes.as_driver(what, step)

    def _save_failed(self, error: Exception, what: str = "a bot's action") -> None:
        self.changes.failed(error, what)

    def _send(self, client: Client, message: dict[str, Any]) -> None:
        self.changes.send(client, message)

    def broadcast(self, newcomer: Client | None = None) -> None:
        """Send every connection its state; a ``newcomer`` (a connection that just opened the table or sat
        down) gets its seat's log as well.  Within a change, once the change is durable."""
        self.changes.broadcast(newcomer)

    def _reload(self) -> None:
        self.changes.reload()

    def adopt(self, row: dict[str, Any]) -> None:
        """(A cluster.)  Take the state another process stored: ``row`` is the table's row with its match's
        record.  The match is carried forward in place when it can be (:func:`catch_up`); the narrators go
        on, so that each connection is told what happened since it last looked."""
        before = self.seats.holders()
        self._places_from(row["data"])  # (first: a table built here seats the bots the store names)
        match_id = row["match_id"]
        table = self.table
        if match_id is None:
            self.games.table = None
        elif table is None or match_id != self.match_id:
            self.games.table = self._table_for(match_id, match_from_record(row["record"], row.get("first_dealer"),
                                                                           match_id))
            self.audience.reset()
        elif not catch_up(table.match, orjson.loads(row["record"])):
            table.match = match_from_record(row["record"], row.get("first_dealer"), match_id)
        self._took(row, before)

    def take_news(self, rev: int, news: dict[str, Any]) -> bool:
        """(A cluster.)  Another process's change as it told it on Redis: the table's stored data and its
        match's deals from the one this process holds on.  False if it cannot be taken so (this process is
        not at the revision just before, or the match is another): the caller reads the database."""
        table = self.table
        if self.stale or rev != self.rev + 1 or table is None or news.get("match_id") != self.match_id \
                or not isinstance(news.get("from"), int) or len(table.match.deals) - 1 > news["from"]:
            return False
        record = {**news["header"], "deals": [{}] * news["from"] + news["deals"]}
        if not catch_up(table.match, record):
            return False  # (the match may be half carried: the database's record mends it)
        before = self.seats.holders()
        self._places_from(news["data"])
        self._took({"data": news["data"], "match_id": self.match_id, "rev": rev}, before)
        return True

    def _took(self, row: dict[str, Any], before: dict[Seat, tuple[str, str | None]]) -> None:
        """The rest of taking a stored state, its places and match in hand: the bots, the table's own state."""
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
        self.games.match_id = row["match_id"]
        self._adopt_table_state(data)
        self.rev = int(row["rev"])
        self.stale = False
        self.games.forget_seq()
        self.changes.refreshed = True
        now = self.seats.holders()
        for client in list(self.clients):  # a seat given to someone else, or to a bot, elsewhere
            held = client.seat
            if held is not None and now[held] != before[held]:
                client.seat = None

    # ---- connections -----------------------------------------------------------------------------------
    def open(self, client: Client, seat: Seat | None, token: str | None, host: bool = False) -> None:
        """A connection opens the table, in ``seat`` (held by ``token``; None: a spectator), as its host or not:
        it is welcomed and shown the table; a person back in their seat takes it back from a substitute."""
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
        except BaseException:  # (the table could not be saved: the connection is in no room, and may try again)
            if client.room is self:
                self.clients.discard(client)
                client.room, client.seat, client.host = None, None, False
            raise
        self.store.presence_changed(self)

    def detach(self, client: Client) -> None:
        """A connection closes (or moves to another table)."""
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
        self.clocks.stop(seat)
        if self.table is None or self.status == OVER:
            return
        self._start_grace(seat)

    def _start_grace(self, seat: Seat) -> None:
        place = self.places[seat]
        if place.kind != "human" or place.away or self.closed or not self.store.drives(self):
            return
        self.grace.start(seat, self.settings.grace, self._substitute)

    def _stop_grace(self, seat: Seat) -> None:
        self.grace.stop(seat)

    def _substitute(self, seat: Seat) -> None:
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
        """(A cluster.)  Connections to the table opened or closed in another process: show who is here, and
        (driving the table) start or stop the grace of the seats concerned."""
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
        assert self.table is not None
        self.seats.mark_substitute(self.table, self.match_id, seat, start=start, bot=self.settings.substitute)

    def _seat_changed(self, seat: Seat, name: str) -> None:
        """Someone new plays ``seat`` in the running match (:meth:`Seats.seat_changed`)."""
        if self.table is not None:
            self.seats.seat_changed(self.table, seat, name, self._seed)

    # ---- the game's messages ---------------------------------------------------------------------------
    def play(self, match: Match) -> None:
        """(Within a change.)  A new match at the table, with its seats as they are: saved, its clocks and logs
        new, a substitute going on for a person still away, and the game under way."""
        players = self.seats.players()
        self.games.start(match, self.seats.bots(), players)
        self.seats.new_match()
        self.clocks.reset()
        self.between.reset()
        self.audience.reset()
        match.metadata["seating"] = self.seats.first_seating(players)
        for seat, place in self.places.items():
            if place.away:  # a substitute goes on playing for a person still away
                self._mark_substitute(seat, start=True)
        self.save()
        for seat, place in self.places.items():
            if place.kind == "human" and not self.connected(seat):
                self._start_grace(seat)
        self._changed()

    def act(self, client: Client, seq: int, text: str, *, irregular: bool = False) -> None:
        """A person's decision, in the record notation, for the state numbered ``seq`` (``irregular``: meant
        against the rules, a revoke under the honour rule).

        Several processes may receive the same decision (two tabs of one seat): each checks ``seq`` within
        its change, after the store brought the table up to date, so that one takes it and the other finds
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
        try:
            take_action(table, seat, text, irregular=irregular, away=self.places[seat].away)
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
        if self.between.press(seat, self.seats.people_here(self.connected)):
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
        self.hints.ask(client, seat, table)

    def hinted(self, message: dict[str, Any], seat: Seat) -> None:
        """(:class:`Hints`.)  A hint's answer, to the seat's connections here and in the other processes."""
        self.deliver(message, seat)
        self.store.relay(self, message, seat)  # (a cluster: the seat's connections in other processes too)

    def deliver(self, message: dict[str, Any], seat: Seat | None = None) -> None:
        """A chat line to every connection here, or a hint (``seat``) to that seat's, unless it is stale."""
        self.audience.deliver(message, seat)

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
        """A deal is over (the match too, perhaps): its end stays on view until the next deal."""
        table = self.table
        assert table is not None
        if table.match.is_over:
            table.acknowledge()
            self.save()
            return
        self.between.deal_ended(len(table.match.summaries))  # (a deal newly over: nobody has pressed Next yet)
        self.save()  # (the clocks, and the status the lobby shows)
        self._wait_for_next_deal()

    def _wait_for_next_deal(self) -> None:
        """Between deals: run the timer that deals on, unless the table waits for its one person's Next
        (:meth:`Settings.waits_for_next`); called again whenever who sits changes."""
        self.between.wait(self.settings.between_deals, for_next=self.settings.waits_for_next(self.people()),
                          may_time=not self.closed and self.store.drives(self), then=self._deal_on)

    def _deal_on(self) -> None:
        """(The driver's timer.)  The end of the deal has been shown long enough: the next deal."""
        self._as_driver("the next deal", self._next_deal)

    def _next_deal(self) -> None:
        if self.between.deal_on(None if self.closed else self.table):
            self._changed()

    def resume(self) -> None:
        """(On the event loop, a table restored by a restart.)  The grace of every person not back yet, and
        the game goes on: the bots, the next deal."""
        if self.table is None or self.status == OVER:
            return
        for seat, place in self.places.items():
            if place.kind == "human" and not place.away:
                self._start_grace(seat)
        self._changed()

    def drive(self) -> None:
        """(The process that drives the table.)  Start what the table's state waits for: a bot's turn, the
        grace of a person with no connection anywhere, the pause between deals; stop what it no longer waits
        for.  A process calls it when it takes the table over and after another process moved the table on."""
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
            self.between.timer.stop()
        if status == BETWEEN and table is not None and table.pending() is Pending.NEW_DEAL:
            self._as_driver("the next deal", self._changed)  # (the end of the deal was shown: deal on)
        self._kick()

    def abandon(self) -> None:
        """(A cluster.)  Another process drives the table now: stop its timers and bots here."""
        self.grace.stop_all()
        self.between.timer.stop()
        self.turns.stop()  # (a bot's own change may find it is no driver: its task ends by itself)

    def _run_clocks(self) -> None:
        to_act = self.table.to_act if self.table is not None and self.status == PLAYING else None
        here = self.here()
        places = self.places
        self.clocks.run(to_act, lambda seat: places[seat].kind == "bot" or places[seat].away or seat in here)

    # ---- the bots' turns (cinch.server.turns) ---------------------------------------------------------------
    def _kick(self) -> None:
        """Start the bots' task if a bot is to act and none is running (in the process that drives the table)."""
        self.turns.kick()

    def bots_may_play(self) -> bool:
        return not self.changes.retrying and self.store.drives(self)

    def bot_seed(self) -> int:
        return self._seed()

    def bot_pause(self, view: SeatView) -> float:
        return self.settings.pause_before(view)

    def bot_acted(self, table: Table, turn: BotTurn, action: Action | None, error: Exception | None) -> bool | None:
        """(:class:`BotTurns`.)  A bot's decision as one change of the table."""
        try:
            with self._change(driver=True):  # (a cluster: the table may have moved on elsewhere)
                if self.table is not table or not table.play_bot(turn, action, error):
                    return False
                table.take_notes()
                self._changed()  # (its _kick waits: this task is the bots')
        except NotDriver:  # another process drives the table now
            return None
        except CinchError as e:  # the library refused the save: back to what it holds, try again later
            self._save_failed(e)
            return None
        return True

    # ---- what it shows (cinch.server.audience) ---------------------------------------------------------------
    def state(self, seat: Seat | None, *, views: dict[Seat | None, SeatView] | None = None,
              shared: dict[str, Any] | None = None, full: bool = True) -> dict[str, Any]:
        """The ``state`` message for ``seat`` (None: a spectator): :meth:`Audience.state`."""
        return self.audience.state(seat, views=views, shared=shared, full=full)

    def close(self) -> None:
        """Stop the table's timers and tasks (the server is shutting down)."""
        self.closed = True
        self.abandon()

    def record(self) -> dict[str, Any]:
        """The ``cinch/1`` record of this match's finished deals (never the running deal's cards)."""
        if self.table is None:
            raise Refusal("no-record", f"room {self.code} has not started a match yet")
        m = self.table.match
        return finished_deals(to_record(m), m)
