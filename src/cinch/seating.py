"""Who sits at the table: the seats, who is on whose side, and how many cards each is dealt.

Four players sit in two partnerships, partners opposite, as every rule text plays: the seats
are ``N E S W`` and the sides ``NS`` and ``EW`` (:class:`~cinch.cards.Seat`, :class:`~cinch.cards.Team`).
Two, three, five or six play cut-throat, each for himself (002's "individual variants";
docs/rule-readings.md): the seats are numbered ``1`` to ``n`` clockwise and each player is his
own side, so a cut-throat seat's ``team`` is the seat itself and it has no partner.

>>> four, three = seating(4), seating(3)
>>> [str(s) for s in three.seats], str(three.seats[2].left), str(three.seats[1].team)
(['1', '2', '3'], '1', '2')
>>> four.sides, three.sides, three.dealt, seating(6).dealt, seating(6).stock
(2, 3, 9, 6, 16)
>>> three.dealer_robs, seating(5).dealer_robs
(False, True)
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any, Final, cast

from cinch.cards import SEATS, TEAMS, Seat, Team, enum_repr
from cinch.constants import BATCH, DECK, HAND
from cinch.errors import NotationError, quoted

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 6
PARTNERSHIP_PLAYERS: Final = 4


class Chair(IntEnum):
    """A seat at a cut-throat table: each player is his own side.  Subclassed per table size,
    so that ``left`` goes round that table."""

    __repr__ = enum_repr

    @property
    def left(self) -> Any:
        """The next seat clockwise."""
        members = type(self)._CHAIRS  # type: ignore[attr-defined]
        return members[(self + 1) % len(members)]

    @property
    def partner(self) -> Any:
        """Nobody else is on this player's side: the seat itself."""
        return self

    @property
    def team(self) -> Any:
        """The player's own side: the seat itself."""
        return self

    @property
    def other(self) -> Any:
        """The one other side; only a table of two has one."""
        members = type(self)._CHAIRS  # type: ignore[attr-defined]
        if len(members) != 2:
            raise ValueError(f"{len(members)} players each play for himself: there is no one other side")
        return members[1 - self]

    @property
    def seats(self) -> tuple[Any, ...]:
        return (self,)

    def __str__(self) -> str:
        return str(self.value + 1)


def _chairs(n: int) -> tuple[Chair, ...]:
    """The chairs of a cut-throat table of ``n``: one enum per size, shared by one pack and two."""
    known = _CHAIRS.get(n)
    if known is not None:
        return known
    name = f"Players{n}"
    cls: Any = Chair(name, [(str(i + 1), i) for i in range(n)], module=__name__, qualname=name)  # type: ignore[call-arg, arg-type]
    members: tuple[Chair, ...] = tuple(cls)
    cls._CHAIRS = members
    globals()[name] = cls  # module-level, so that a seat pickles to a worker process
    _CHAIRS[n] = members
    return members


_CHAIRS: dict[int, tuple[Chair, ...]] = {}


class Seating:
    """One table size: its seats, sides, and the numbers of its deal.

    ``seats`` and ``side_of`` are typed as the partnership game's :class:`Seat` and
    :class:`Team`: a cut-throat :class:`Chair` answers the same questions (``left``, ``team``,
    ``partner``, ``str``), so every layer reads a seat the same way at every table.
    """

    def __init__(self, players: int, decks: int = 1) -> None:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"{players} players: Cinch is played by 2 to 6")
        self.players = players
        self.decks = decks  # two-deck Cinch (002) doubles the pack, the hands and the deal
        self.partnership = players == PARTNERSHIP_PLAYERS
        if self.partnership:
            self.seats: tuple[Seat, ...] = SEATS
            self.side_list: tuple[Team, ...] = TEAMS
        else:
            chairs = _chairs(players)
            self.seats = cast(tuple[Seat, ...], chairs)
            self.side_list = cast(tuple[Team, ...], chairs)
        self.sides = len(self.side_list)
        self.side_of: tuple[int, ...] = tuple(int(s.team) for s in self.seats)
        self.left: tuple[int, ...] = tuple((s + 1) % players for s in range(players))
        self.names: tuple[str, ...] = tuple(str(s) for s in self.seats)
        self.side_names: tuple[str, ...] = tuple(str(t) for t in self.side_list)
        # Five or six are dealt six cards each (Foster 1897, "Five or Six Players"); fewer are dealt nine.
        self.dealt = (6 if players > PARTNERSHIP_PLAYERS else 9) * decks
        self.batches = players * self.dealt // BATCH
        self.deck = DECK * decks
        self.stock = self.deck - players * self.dealt
        self.hand = HAND * decks  # cards held after the discard and draw, and tricks played
        # With two or three the dealer discards and draws like the others (Foster 1897, "Two or Three Players").
        self.dealer_robs = players >= PARTNERSHIP_PLAYERS
        self.others_text = "the first three" if self.partnership else "all the others"  # before a stuck dealer
        self.all_text = "all four" if self.partnership else "all"

    def __repr__(self) -> str:
        return f"seating({self.players})" if self.decks == 1 else f"seating({self.players}, decks={self.decks})"

    def __reduce__(self) -> tuple[Any, tuple[int, int]]:
        return seating, (self.players, self.decks)  # one seating per size, in a worker process too

    def turns(self, dealer: int) -> tuple[Seat, ...]:
        """Every seat once, from the dealer's left round to the dealer."""
        n = self.players
        return tuple(self.seats[(dealer + i) % n] for i in range(1, n + 1))

    def seat(self, index: int) -> Seat:
        return self.seats[index]

    def has_seat(self, who: object) -> bool:
        """Whether ``who`` is one of this table's seats, by identity: seat 1 of a table of three
        equals N as a number, and is not N."""
        return any(who is s for s in self.seats)

    def side(self, seat: int) -> Team:
        """The side a seat plays for."""
        return self.side_list[self.side_of[seat]]

    def defenders(self, maker: int) -> tuple[Seat, ...]:
        """The seats not on the maker's side."""
        side = self.side_of[maker]
        return tuple(s for s in self.seats if self.side_of[s] != side)

    def parse_seat(self, text: str) -> Seat:
        """A seat by name: ``N E S W`` at four, ``1`` to ``n`` cut-throat."""
        t = str(text).strip().upper()
        if t in self.names:
            return self.seats[self.names.index(t)]
        if self.partnership and t[:1] in self.names and t.isalpha():
            return self.seats[self.names.index(t[:1])]  # "North", "west"
        raise NotationError(f"{quoted(text)} is not a seat at this table; the seats are {' '.join(self.names)}")

    def parse_side(self, text: str) -> Team:
        """A side by name: ``NS EW`` at four, a seat's number cut-throat."""
        t = str(text).strip().upper()
        if t in self.side_names:
            return self.side_list[self.side_names.index(t)]
        raise NotationError(f"{quoted(text)} is not a side at this table; the sides are {' '.join(self.side_names)}")

    def score_text(self, values: tuple[int, ...] | list[int]) -> str:
        """``NS 13, EW 1``, or by player: ``1: 4, 2: -7, 3: 5``."""
        sep = " " if self.partnership else ": "
        return ", ".join(f"{name}{sep}{v}" for name, v in zip(self.side_names, values, strict=True))

    def side_json(self, values: tuple[int, ...] | list[int]) -> dict[str, int]:
        """Per-side numbers as a record writes them: ``{"NS": 13, "EW": 1}`` or ``{"1": 4, ...}``."""
        return {name: int(v) for name, v in zip(self.side_names, values, strict=True)}


SEATINGS: Final = {n: Seating(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)}
_TWO_DECK_SEATINGS: Final = {n: Seating(n, decks=2) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)}


def seating(players: int, decks: int = 1) -> Seating:
    """The seating of a table of ``players`` (2 to 6), playing one pack or two (``decks``).

    >>> seating(4, decks=2).dealt, seating(4, decks=2).stock, seating(4, decks=2).hand
    (18, 32, 12)
    """
    try:
        return (_TWO_DECK_SEATINGS if decks == 2 else SEATINGS)[players]
    except KeyError:
        raise ValueError(f"{players} players: Cinch is played by 2 to 6") from None


FOUR: Final = SEATINGS[PARTNERSHIP_PLAYERS]
