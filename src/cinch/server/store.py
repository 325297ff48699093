"""Where a room's state lives, and who else may change it: one process on SQLite, or a cluster.

A :class:`~cinch.server.rooms.Room` (any :class:`~cinch.server.tables.ServerTable`) decides what a
message does (the same code for every store) inside :meth:`Room._change`, which asks its store to

- ``begin``: make the change exclusive and bring the room up to date (a cluster locks the
  room's row and reloads the room if another process has moved it on since);
- ``commit``: make what the change wrote durable, then tell the other processes;
- ``rollback``: forget it (the room then reloads what the store holds).

:class:`LocalStore` is the single process on the SQLite game library: it is the only writer of
its rooms, its writes go straight to the library as the room makes them (each its own
transaction, as before there were stores), and it drives every room's timers and bots.
:class:`cinch.server.cluster.ClusterStore` is PostgreSQL and Redis shared by several processes.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Protocol

from cinch.actions import parse_action
from cinch.cards import Card, Seat
from cinch.errors import CinchError
from cinch.match import Match
from cinch.record import loads, replay
from cinch.shuffle import Shuffle
from cinch.view import Phase

if TYPE_CHECKING:
    from cinch.server.tables import ServerTable


class StorageFailed(CinchError):
    """A change of a room could not be made durable: nothing of it stands (the room reloaded the store's state)."""


class NotDriver(CinchError):
    """A timer or a bot of a room fired in a process that no longer drives the room (another took it over)."""


SEAT_LETTERS = "NESW123456"
"""Every seat's name at every table size: one character each (N E S W at four, 1 to 6 cut-throat)."""


class Presence:
    """Who one process has in one room: the names of the seats with a connection there (the room knows its
    table's seats), and how many spectators."""

    __slots__ = ("seats", "spectators")

    def __init__(self, seats: frozenset[str] = frozenset(), spectators: int = 0):
        self.seats = seats
        self.spectators = spectators

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Presence) and (self.seats, self.spectators) == (other.seats, other.spectators)

    def __hash__(self) -> int:
        return hash((self.seats, self.spectators))

    def __repr__(self) -> str:
        return f"Presence({''.join(sorted(self.seats))!r}, {self.spectators})"

    def to_json(self) -> dict[str, Any]:
        return {"seats": "".join(sorted(self.seats)), "spectators": self.spectators}

    @classmethod
    def from_json(cls, data: Any) -> Presence:
        seats = data.get("seats", "") if isinstance(data, dict) else ""
        count = data.get("spectators", 0) if isinstance(data, dict) else 0
        return cls(frozenset(c for c in str(seats) if c in SEAT_LETTERS),
                   count if isinstance(count, int) and count >= 0 else 0)


NOBODY: dict[str, Presence] = {}


class Store(Protocol):
    """What a room needs of the place its state is kept (see the module's docstring)."""

    cluster: bool  # several processes share the rooms
    library: Any  # the game library the rooms' matches are saved in (Library or PgLibrary)

    def begin(self, room: ServerTable, driver: bool) -> None: ...

    def commit(self, room: ServerTable) -> None: ...

    def rollback(self, room: ServerTable) -> bool:
        """Forget the change; True if the room must reload (what it holds may now differ from the store)."""
        ...

    def reload(self, room: ServerTable) -> None:
        """Bring the room back to what the store holds (after a change that failed)."""
        ...

    def create_room(self, room: ServerTable) -> bool:
        """Store a new room; False if its code is taken already (the caller draws another)."""
        ...

    def drives(self, room: ServerTable) -> bool:
        """Whether this process runs the room's timers and bots."""
        ...

    def elsewhere(self, code: str) -> dict[str, Presence]:
        """The room's connections in other processes, by process."""
        ...

    def presence_changed(self, room: ServerTable) -> None:
        """This process's connections to the room changed: tell the others."""
        ...

    def relay(self, room: ServerTable, message: dict[str, Any], seat: Seat | None) -> None:
        """Send a message (a chat line; a hint, to ``seat``'s connections) to the room's connections elsewhere."""
        ...

    def load_match(self, match_id: int) -> Match: ...

    async def start(self, server: Any) -> None:
        """(On the event loop, as the server starts.)  Join the other processes."""
        ...

    async def stop(self) -> None:
        """(As the server stops.)  Leave them."""
        ...


class LocalStore:
    """One process, the SQLite game library: the current behaviour, with nothing to lock or to tell."""

    cluster = False

    def __init__(self, library: Any):
        self.library = library

    def begin(self, room: ServerTable, driver: bool) -> None:
        pass

    def commit(self, room: ServerTable) -> None:
        pass

    def rollback(self, room: ServerTable) -> bool:
        return False  # the library's writes were each committed as they were made; the room reloads if it must

    def reload(self, room: ServerTable) -> None:
        if room.match_id is not None:
            room.resume_table()  # (the narrators go on: nothing is told twice)

    def create_room(self, room: ServerTable) -> bool:
        room.save()  # (the only process: no code is taken behind its back)
        return True

    def drives(self, room: ServerTable) -> bool:
        return True

    def elsewhere(self, code: str) -> dict[str, Presence]:
        return NOBODY

    def presence_changed(self, room: ServerTable) -> None:
        pass

    def relay(self, room: ServerTable, message: dict[str, Any], seat: Seat | None) -> None:
        pass

    def load_match(self, match_id: int) -> Match:
        if self.library.get(match_id).is_finished:  # (a room over, kept for a rematch: nothing to go on with)
            return self.library.replay(match_id)
        return self.library.resume(match_id)

    async def start(self, server: Any) -> None:
        pass

    async def stop(self) -> None:
        pass


# ---- a room's match from its stored record ----------------------------------------------------------------
def match_from_record(text: str, first_dealer: str | None, match_id: int | None = None) -> Match:
    """The stored record of a room's match, replayed (finished or not): what another process saved."""
    try:
        match = replay(loads(text)).match
    except CinchError as e:
        raise StorageFailed(f"match {match_id}: the stored record does not replay: {e}") from None
    if not match.deals and first_dealer is not None and first_dealer in match.table.names:
        match.first_dealer = match.table.parse_seat(first_dealer)
    match.rng = random.Random()  # (a server's deals come from its shuffles; the rng only backs a record without)
    return match


def catch_up(match: Match, record: dict[str, Any]) -> bool:
    """Bring ``match`` forward to its stored ``record`` in place, action by action; False if the record is not
    ``match`` carried further (then the caller replays the record whole).

    A room's match only grows while it is played (a server has no undo): the deals it holds are a
    prefix of the record's, and the last of them a prefix of the record's entry.  Applying the few
    new actions costs microseconds where replaying a long match costs a millisecond, and another
    process's every action is caught up this way.
    """
    deals = record.get("deals")
    if not isinstance(deals, list) or len(deals) < len(match.deals):
        return False
    table = match.table
    try:
        if not match.deals and deals:
            match.first_dealer = table.parse_seat(deals[0]["dealer"])  # (a match not dealt yet does not say who deals)
        if match.deals:
            index = len(match.deals) - 1
            if not _same_deal(match, index, deals[index]):
                return False
            _apply(match, index, deals[index])
        for index in range(len(match.deals), len(deals)):
            entry = deals[index]
            shuffle = (Shuffle.from_json(entry["shuffle"], index + 1, decks=match.rules.decks)
                       if "shuffle" in entry else None)
            restock = [Card.parse(c) for c in entry["restock"].split()] if "restock" in entry else None
            match.start_deal([Card.parse(c) for c in entry["deck"].split()], restock=restock,
                             dealer=table.parse_seat(entry["dealer"]), shuffle=shuffle)
            _apply(match, index, entry)
    except (CinchError, KeyError, TypeError, ValueError, AttributeError):
        return False
    players = record.get("players")
    if isinstance(players, dict):
        match.players = {table.parse_seat(k): str(v) for k, v in players.items() if k in table.names}
    match.metadata = {k: v for k, v in record.items() if k not in ("format", "rules", "players", "deals")}
    last = deals[-1] if deals else None
    return last is None or len(match.deals[-1].history) == len(last.get("actions", ()))


def _same_deal(match: Match, index: int, entry: Any) -> bool:
    deal = match.deals[index]
    if not isinstance(entry, dict) or entry.get("dealer") != deal.dealer.name:
        return False
    actions = entry.get("actions")
    if not isinstance(actions, list) or len(actions) < len(deal.history):
        return False
    shuffle = match.shuffles.get(index)
    stored = entry.get("shuffle")
    if shuffle is not None:
        return isinstance(stored, dict) and stored.get("commitment") == shuffle.commitment
    return stored is None


def _apply(match: Match, index: int, entry: dict[str, Any]) -> None:
    deal = match.deals[index]
    for text in entry["actions"][len(deal.history):]:
        _form_stock(match, index)  # an action after a new stock's chance: the stock was formed first
        match.apply(parse_action(text))
    if "restock" in entry:  # a stock formed after the last action the record holds (the room formed it then)
        _form_stock(match, index)


def _form_stock(match: Match, index: int) -> None:
    """The new stock the deal's shuffle forms, if the deal waits for one (as in a replay)."""
    if index in match.shuffles and match.deals[index].phase is Phase.RESTOCK:
        match.resolve_chance()


__all__ = ["LocalStore", "NotDriver", "Presence", "Store", "StorageFailed", "catch_up", "match_from_record"]
