"""Seats and who holds them: a person (known by the hash of a token), a bot (by its kind), or nobody.

:class:`Seats` is one part of a table on the server (:mod:`cinch.server.tables` lists the others):
the places of a table of 2 to 6 (:mod:`cinch.seating`), who holds each, the substitutes that
played for people who were away, and what the running match's record says of them.  It keeps no
connection and starts no timer.

A table composes it so (:class:`~cinch.server.tables.ServerTable` does, for every kind of table):

- ``Seats(rules.seating)``; seat a person with :meth:`Seats.sit` (the hash of the token it hands
  out, :func:`token_hash`, never the token; and the player it is, a guest or an account, when the
  server knows it) and a bot with :meth:`Seats.give_to_bot`;
- find a returning person with :meth:`Seats.seat_of`, and refuse a seat with :meth:`Seats.describe`;
- as a match starts, :meth:`Seats.new_match`; once it runs, :meth:`Seats.seat_changed` when someone new
  plays a seat and :meth:`Seats.mark_substitute` when a bot starts or stops playing for an absent person;
  ``entrants`` says which known player answers for each seat in it (its ratings);
- save :meth:`Seats.to_json` with the table's data (``places``, ``substitutes`` and
  :meth:`Seats.entrants_json`) and take it back with :meth:`Seats.take_json`.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from cinch.cards import Seat
from cinch.seating import FOUR, Seating
from cinch.server.players import profile_path
from cinch.server.protocol import Refusal
from cinch.table import Table


def token_hash(token: str) -> str:
    """What the server keeps of a token: its SHA-256 (a leaked library gives no seat away)."""
    return hashlib.sha256(token.encode()).hexdigest()


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


@dataclass
class Place:
    """One seat of the table: empty, a person (known by the hash of their token), or a bot.  A person the
    server knows is a player (``player``: its id, never shown; ``player_kind``: guest or account); one who
    is neither sits under the name they typed."""

    seat: Seat
    kind: str = "empty"  # empty, human, bot
    name: str | None = None
    bot: str | None = None  # the bot's kind; for a person, the substitute now playing for them (else None)
    token_hash: str | None = None
    entropy: str = ""
    player: str | None = None
    player_kind: str | None = None  # "guest" or "account"; None for a person the server does not know

    @property
    def away(self) -> bool:
        """A person whose seat a substitute bot plays."""
        return self.kind == "human" and self.bot is not None

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat.name, "kind": self.kind, "name": self.name, "bot": self.bot,
                "token_hash": self.token_hash, "entropy": self.entropy, "player": self.player,
                "player_kind": self.player_kind}

    @classmethod
    def from_json(cls, data: dict[str, Any], table: Seating = FOUR) -> Place:
        return cls(table.parse_seat(data["seat"]), data["kind"], data["name"], data["bot"], data["token_hash"],
                   data["entropy"], data.get("player"), data.get("player_kind"))  # (rooms saved before players)


def seat_info(place: Place, here: set[Seat | None]) -> dict[str, Any]:
    """A seat in a room's ``info``: ``here``, the seats with a connection open anywhere.  A person's seat says
    whether it is a guest's or an account's, and an account's links its profile (the player's id stays
    here)."""
    known = place.player_kind if place.kind == "human" else None
    return {"seat": place.seat.name, "name": place.name, "kind": "substitute" if place.away else place.kind,
            "bot": place.bot, "connected": place.kind == "bot" or place.seat in here, "entropy": place.entropy,
            "player": known, "profile": profile_path(place.name or "") if known == "account" else None}


class Seats:
    """The places of one table, in its seats' order, and the record of who played for whom."""

    def __init__(self, seating: Seating):
        self.seating = seating
        self.places = {s: Place(s) for s in seating.seats}
        self.substitutes: list[dict[str, Any]] = []  # when a bot played for whom, for the record
        # The known player who answers for each seat in the running match (its ratings): the first to play it,
        # who answers for it still after leaving it.
        self.entrants: dict[Seat, str] = {}

    def __getitem__(self, seat: Seat) -> Place:
        return self.places[seat]

    # ---- who holds a seat -----------------------------------------------------------------------------------
    def seat_of(self, token: str) -> Seat | None:
        """The seat the token holds (None if it holds none)."""
        digest = token_hash(token)
        for place in self.places.values():
            if place.token_hash is not None and secrets.compare_digest(place.token_hash, digest):
                return place.seat
        return None

    def named(self, names: Iterable[str]) -> set[Seat | None]:
        """The seats of these names at this table (a name the table lacks is left out)."""
        table = self.seating
        return {table.seats[table.names.index(n)] for n in names if n in table.names}

    def people(self) -> int:
        """How many people sit at the table (a person a substitute plays for is not counted)."""
        return sum(1 for p in self.places.values() if p.kind == "human" and not p.away)

    def people_here(self, connected: Callable[[Seat], bool]) -> set[Seat]:
        """The seats of the people who play their own cards and have a connection open."""
        return {s for s, p in self.places.items() if p.kind == "human" and not p.away and connected(s)}

    def held_by(self, player_id: str) -> Seat | None:
        """The seat the player holds (a person's, a substitute playing for them or not); None if none."""
        for seat, place in self.places.items():
            if place.kind == "human" and place.player == player_id:
                return seat
        return None

    def holders(self) -> dict[Seat, tuple[str, str | None]]:
        """Who holds each seat, to compare before and after another process's change."""
        return {s: (p.kind, p.token_hash) for s, p in self.places.items()}

    def describe(self, seat: Seat) -> str:
        """The seat's holder in words, for a refusal."""
        place = self.places[seat]
        if place.kind == "empty":
            return "empty"
        if place.kind == "bot":
            return f"played by the {place.bot} bot"
        return f"taken by {place.name}"

    def free(self, kind: str) -> str:
        """The seats that are ``empty`` (or hold a ``bot``), for a refusal; "" if none."""
        seats = [s.name for s in self.seating.seats if self.places[s].kind == kind]
        what = "empty" if kind == "empty" else "with a bot"
        return f"seats {what}: {' '.join(seats)}" if seats else ""

    def info(self, here: set[Seat | None]) -> list[dict[str, Any]]:
        return [seat_info(self.places[s], here) for s in self.seating.seats]

    # ---- changing hands -----------------------------------------------------------------------------------
    def sit(self, seat: Seat, name: str, token_digest: str, entropy: str, player: str | None = None,
            player_kind: str | None = None) -> None:
        """A person takes the seat, known from now on by the hash of the token they were given; ``player``: the
        player it is (its id and kind), when the server knows it."""
        place = self.places[seat]
        place.kind, place.name, place.bot = "human", name, None
        place.token_hash, place.entropy = token_digest, entropy
        place.player, place.player_kind = player, player_kind

    def forget(self, player_id: str, label: str) -> list[Seat]:
        """A player is deleted: the seats it holds are named ``label`` and link no profile; the seats changed."""
        mine = [s for s, p in self.places.items() if p.kind == "human" and p.player == player_id]
        for seat in mine:
            self.places[seat].name, self.places[seat].player_kind = label, None
        return mine

    def give_to_bot(self, seat: Seat, bot: str) -> None:
        self.places[seat] = Place(seat, "bot", bot, bot)

    def empty(self, seat: Seat) -> None:
        self.places[seat] = Place(seat)

    def players(self) -> dict[Seat, str]:
        """The names a new match records: each person's, each bot's kind."""
        return {s: (p.name if p.kind == "human" else p.bot) or "" for s, p in self.places.items()}

    def bots(self) -> dict[Seat, str]:
        """The seats a bot plays (a substitute's too), by the bot's kind."""
        return {s: p.bot for s, p in self.places.items() if p.bot is not None}

    # ---- in the running match -------------------------------------------------------------------------------
    def seat_changed(self, table: Table, seat: Seat, name: str, seed: Callable[[], int]) -> None:
        """Someone new plays ``seat`` in the running match: the table, the record's players and its
        ``seating`` (who sat where from which deal) say so."""
        place = self.places[seat]
        if place.kind == "bot":
            table.seat_bot(seat, place.bot or name, seed())
        else:
            table.seat_person(seat)
            if place.player is not None:
                self.entrants.setdefault(seat, place.player)
        m = table.match
        m.players[seat] = name
        m.metadata.setdefault("seating", []).append(
            {"seat": seat.name, "name": name, "kind": place.kind,
             "from_deal": len(m.deals) + (0 if m.current is not None else 1)})
        table.saver.save(m)

    def new_match(self) -> None:
        """A match starts: the known players seated answer for their seats in it."""
        self.entrants = {s: p.player for s, p in self.places.items() if p.kind == "human" and p.player is not None}

    def entrants_json(self) -> dict[str, str]:
        return {s.name: player for s, player in self.entrants.items()}

    def first_seating(self, players: dict[Seat, str]) -> list[dict[str, Any]]:
        """The record's ``seating`` as a new match starts: who sits where from its first deal."""
        return [{"seat": s.name, "name": players[s], "kind": p.kind, "from_deal": 1} for s, p in self.places.items()]

    def mark_substitute(self, table: Table, match_id: int | None, seat: Seat, *, start: bool, bot: str) -> None:
        """A substitute (``bot``, unless the place names its own) starts or stops playing for the person in
        ``seat``: the record says who played for whom, as the table does, for the other processes."""
        m = table.match
        where = {"deal": len(m.deals), "action": len(m.deals[-1].history) if m.deals else 0}
        if start:
            self.substitutes.append({"match": match_id, "seat": seat.name, "bot": self.places[seat].bot or bot,
                                     "from": where, "until": None})
        else:
            for entry in reversed(self.substitutes):
                if entry["seat"] == seat.name and entry["until"] is None and entry["match"] == match_id:
                    entry["until"] = where
                    break
        m.metadata["substitutes"] = [s for s in self.substitutes if s["match"] == match_id]
        table.saver.save(m)

    # ---- saving ------------------------------------------------------------------------------------------
    def to_json(self) -> list[dict[str, Any]]:
        return [self.places[s].to_json() for s in self.seating.seats]

    def take_json(self, data: dict[str, Any]) -> None:
        """The places and substitutes of a stored table's data."""
        for entry in data["places"]:
            place = Place.from_json(entry, self.seating)
            self.places[place.seat] = place
        self.substitutes = list(data["substitutes"])
        entrants = data.get("entrants") or {}
        self.entrants = {s: str(entrants[s.name]) for s in self.seating.seats if s.name in entrants}
