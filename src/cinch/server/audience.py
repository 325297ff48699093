"""The audience: who is connected to a table, and what each seat and the spectators are shown.

:class:`Audience` is one part of a table on the server (:mod:`cinch.server.tables` lists the others).
It holds the table's connections in this process (a :class:`Client` is anything with ``send()``
and a seat), knows which seats have a connection open in the other processes of a cluster, and
turns the game into each audience's ``state`` message: a seat's from its own
:class:`~cinch.view.SeatView` (its hand, its legal actions), the spectators' (``seat`` None) from the
public view only (:func:`cinch.server.views.public_view`).  Each seat and the spectators have a
:class:`SeatLog`: the deal told in words from their view, so that each is told what happened since
it last looked, and a newcomer gets the recent lines.

A table composes it so (:class:`~cinch.server.tables.ServerTable` does, for every kind of table): it
is a :class:`Stage` (its code, store, seats, clocks, table, ``seq`` and ``info()``), holds
``Audience(self)``, adds and removes its connections in ``clients``, and after every change calls
:meth:`Audience.broadcast_now` (inside a change, through the change's outbox:
:mod:`cinch.server.changes`).  A table without spectators (a daily table) refuses a connection
without a seat before it reaches ``clients``; the spectators' view is then never made.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson

from cinch.cards import Seat
from cinch.server.clocks import Clocks
from cinch.server.seats import Seats
from cinch.server.store import Presence, Store
from cinch.server.views import match_json, private_deal_json, public_deal_json, public_view
from cinch.table import Table
from cinch.table.narrate import Narrator, result_lines
from cinch.view import Phase, SeatView

LOG_LINES = 60


def encode(message: dict[str, Any]) -> str:
    """A message as JSON text (orjson: the server writes thousands a second)."""
    return orjson.dumps(message).decode()


class Client(Protocol):
    """One connection, as a table sees it."""

    seat: Seat | None
    host: bool
    room: Any  # the table it opened (a Room), or None

    def send(self, message: dict[str, Any] | str) -> None: ...


@dataclass
class SeatLog:
    """What one seat (or the spectators, ``seat`` None) has been told: its narrator and log."""

    seat: Seat | None
    narrator: Narrator
    log: deque[str] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    new: list[str] = field(default_factory=list)
    told_deals: int = 0


class Stage(Protocol):
    """What the audience needs of its table to show it."""

    @property
    def code(self) -> str: ...

    @property
    def store(self) -> Store: ...

    @property
    def seats(self) -> Seats: ...

    @property
    def clocks(self) -> Clocks: ...

    @property
    def table(self) -> Table | None: ...

    @property
    def seq(self) -> int: ...

    def info(self) -> dict[str, Any]:
        """The table as every connection sees it alike: its seats, settings, status."""
        ...


class Audience:
    """The connections to one table here, and what each seat and the spectators have been told."""

    def __init__(self, stage: Stage):
        self.stage = stage
        self.clients: set[Client] = set()
        self.logs: dict[Seat | None, SeatLog] = {}
        self._summary_cache: dict[tuple[int, Seat | None], dict[str, Any]] = {}
        self.reset()

    def reset(self) -> None:
        """A new match: every seat and the spectators start a new log."""
        self.logs = {s: SeatLog(s, Narrator(s)) for s in (*self.stage.seats.seating.seats, None)}
        self._summary_cache = {}

    # ---- who is here ---------------------------------------------------------------------------------------
    def _elsewhere(self) -> dict[str, Presence]:
        return self.stage.store.elsewhere(self.stage.code)

    def connected(self, seat: Seat) -> bool:
        """Whether the seat has a connection open, in this process or (a cluster) in another."""
        return any(c.seat == seat for c in self.clients) or any(
            seat.name in p.seats for p in self._elsewhere().values())

    def here(self) -> set[Seat | None]:
        """The seats with a connection open anywhere (None: some spectator's)."""
        seats: set[Seat | None] = {c.seat for c in self.clients}
        for presence in self._elsewhere().values():
            seats |= self.stage.seats.named(presence.seats)
        return seats

    def spectators(self) -> int:
        """How many spectators watch, here and elsewhere."""
        return sum(1 for c in self.clients if c.seat is None) + sum(p.spectators for p in self._elsewhere().values())

    def presence(self) -> Presence:
        """This process's connections to the table, as the other processes of a cluster are told them."""
        return Presence(frozenset(c.seat.name for c in self.clients if c.seat is not None),
                        sum(1 for c in self.clients if c.seat is None))

    # ---- what each is shown ----------------------------------------------------------------------------------
    def views(self) -> dict[Seat | None, SeatView]:
        """Every seat's view of the current (or last) deal, and the spectators' (None): made once a change."""
        table = self.stage.table
        if table is None or not table.match.deals:
            return {}
        m = table.match
        seats = self.stage.seats.seating.seats
        first = seats[0]  # (its view gives the public part of the deal: the same from every seat)
        if self.stage.store.cluster:  # the seats connected here (and the first's): the others are elsewhere
            here = {c.seat for c in self.clients}
            seats = tuple(s for s in seats if s is first or s in here)
        views: dict[Seat | None, SeatView] = {s: m.view(s) for s in seats}
        if any(c.seat is None for c in self.clients) or m.deals[-1].is_over:  # (a spectator's view: when needed)
            views[None] = public_view(views[first])
        return views

    def tell(self, views: dict[Seat | None, SeatView]) -> None:
        """Narrate what each seat and the spectators have not been told yet."""
        table = self.stage.table
        if not views or table is None:
            return
        m = table.match
        listening = {c.seat for c in self.clients}
        listening |= {s for s, p in self.stage.seats.places.items() if p.kind == "human"}  # (back soon: keep logs)
        deal_over = m.deals[-1].is_over
        for seat, told in self.logs.items():
            if (seat not in listening and not deal_over) or seat not in views:
                continue  # nobody to tell: a narrator catches up on the whole deal when next asked
            lines = told.narrator.update(views[seat])
            while told.told_deals < len(m.summaries):
                summary = m.summaries[told.told_deals]
                lines += result_lines(summary, seat, m.rules, summary.score)
                told.told_deals += 1
            lines = [line for line in lines if line]
            told.new = lines
            told.log.extend(lines)

    def shared(self, views: dict[Seat | None, SeatView], info: dict[str, Any] | None = None) -> dict[str, Any]:
        """The parts of a state that every connection gets alike: the table, the clocks, the public deal."""
        stage = self.stage
        shared: dict[str, Any] = {"room": info or stage.info(), "clocks": stage.clocks.to_json(time.time()),
                                  "deal": None}
        table = stage.table
        if views and table is not None:
            m = table.match
            shuffle = m.shuffles.get(len(m.deals) - 1)
            first = views[stage.seats.seating.seats[0]]  # (the public part: the same from every seat's view)
            deal = public_deal_json(first, None if shuffle is None else shuffle.commitment)
            if m.deals[-1].is_over and shuffle is not None:
                deal["reveal"] = {"deck": " ".join(map(str, m.deals[-1].deck)), **shuffle.to_json()}
            shared["deal"] = deal
        return shared

    def state(self, seat: Seat | None, *, views: dict[Seat | None, SeatView] | None = None,
              shared: dict[str, Any] | None = None, full: bool = True) -> dict[str, Any]:
        """The ``state`` message for ``seat`` (None: a spectator); ``full`` adds the recent ``log``, which a
        connection gets with its first state (afterwards each state's ``narration`` adds to it)."""
        told = self.logs[seat]
        views = self.views() if views is None else views
        shared = self.shared(views) if shared is None else shared
        out: dict[str, Any] = {"type": "state", "seq": self.stage.seq, "room": shared["room"],
                               "you": {"seat": None if seat is None else seat.name},
                               "match": None, "deal": None, "clocks": shared["clocks"],
                               "narration": list(told.new)}
        if full:
            out["log"] = list(told.log)
        table = self.stage.table
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

    def broadcast_now(self, newcomers: list[Client]) -> None:
        """Send every connection its state (one JSON text per seat, shared by that seat's connections); a
        newcomer (a connection that just opened the table or sat down) gets its seat's log as well."""
        views = self.views()
        self.tell(views)
        if self.clients:
            texts: dict[Seat | None, str] = {}
            shared = self.shared(views)
            for client in list(self.clients):
                seat = client.seat
                if client in newcomers:
                    client.send(encode(self.state(seat, views=views, shared=shared, full=True)))
                    continue
                if seat not in texts:
                    texts[seat] = encode(self.state(seat, views=views, shared=shared, full=False))
                client.send(texts[seat])
        for told in self.logs.values():
            told.new = []

    def deliver(self, message: dict[str, Any], seat: Seat | None = None) -> None:
        """A chat line to every connection here, or a hint (``seat``) to that seat's, unless it is stale."""
        if message.get("type") == "hint" and message.get("seq") != self.stage.seq:
            return
        for c in list(self.clients):
            if seat is None or c.seat == seat:
                c.send(message)
