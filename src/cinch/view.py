"""What one seat may know at the table: the only thing bots and clients receive.

A :class:`SeatView` holds the seat's own hand and every public fact of the
deal (bids, trump, face-up discards, shown trumps, how many cards each player
drew and holds, every card played) and nothing concealed from that seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import NamedTuple

from cinch.actions import Action, Call
from cinch.cards import Card, CardSet, Seat, Suit, Team, enum_repr
from cinch.rules import Rules


class Phase(StrEnum):
    """Where a deal stands: whose kind of decision comes next."""

    __repr__ = enum_repr

    BIDDING = "bidding"
    TRUMP = "trump"
    DISCARD = "discard"
    RESTOCK = "restock"  # chance: the order of a new stock made from the discards
    ROB = "rob"
    PLAY = "play"
    DONE = "done"


class PlayedCard(NamedTuple):
    """A card played to a trick by a seat, with any cards buried under it (000)."""

    seat: Seat
    card: Card
    buried: CardSet = CardSet(0)


class Trick(NamedTuple):
    """A finished trick: who led, the cards in the order played, who won it."""

    leader: Seat
    plays: tuple[PlayedCard, ...]
    winner: Seat

    @property
    def cards(self) -> CardSet:
        m = 0
        for p in self.plays:
            m |= 1 << p.card | p.buried
        return CardSet(m)


@dataclass(frozen=True)
class SeatView:
    """One seat's knowledge of a deal (and of the match around it, when there is one).

    ``legal`` is filled only when this seat is to act.
    """

    seat: Seat
    rules: Rules
    dealer: Seat
    phase: Phase
    to_act: Seat | None
    hand: CardSet
    hand_sizes: tuple[int, ...]  # by seat
    auction: tuple[tuple[Seat, Call], ...]
    maker: Seat | None
    bid: int | None
    trump: Suit | None
    own_discards: CardSet
    face_up_discards: tuple[CardSet, ...]
    shown_trumps: tuple[CardSet, ...]
    drawn_counts: tuple[int, ...]
    own_drawn: CardSet
    stock_seen: CardSet  # the dealer saw the stock he robbed; empty for everyone else
    tricks: tuple[Trick, ...]
    trick_leader: Seat | None
    current_trick: tuple[PlayedCard, ...]
    legal: Sequence[Action] = ()
    irregularities: tuple[str, ...] = ()  # honour rule: the irregularities shown so far and the rulings, in words
    asked: str = ""  # honour rule: the kind of irregularity the other side is asked about now, else ""
    score: tuple[int, ...] | None = None  # running match score before this deal (NS, EW; cut-throat by player)
    target: int | None = None
    deal_number: int | None = None
    bidder_goes_out: bool = False  # this deal is played under bidder-goes-out
    going_out: tuple[int, ...] = ()  # under bidder goes out, the sides (by index) whose made bid wins
    players: tuple[str, ...] | None = field(default=None)

    @property
    def team(self) -> Team:
        return self.seat.team

    @property
    def seats(self) -> tuple[Seat, ...]:
        """Every seat at this table, clockwise (N E S W, or 1 to n cut-throat)."""
        return self.rules.seating.seats

    @property
    def players_count(self) -> int:
        return len(self.hand_sizes)

    @property
    def played(self) -> CardSet:
        """Every card already played to a trick (buried ones included)."""
        m = 0
        for t in self.tricks:
            m |= t.cards
        for p in self.current_trick:
            m |= 1 << p.card | p.buried
        return CardSet(m)

    def played_by(self) -> list[int]:
        """The cards each seat has played to tricks, buried ones included (masks by seat)."""
        out = [0] * len(self.hand_sizes)
        for trick in self.tricks:
            for p in trick.plays:
                out[p.seat] |= 1 << p.card | p.buried
        for p in self.current_trick:
            out[p.seat] |= 1 << p.card | p.buried
        return out

    @property
    def known_elsewhere(self) -> CardSet:
        """Cards this seat knows are not in any other player's hand."""
        m = int(self.hand) | self.played | self.own_discards | self.stock_seen
        for s in range(len(self.hand_sizes)):
            m |= self.face_up_discards[s] | self.shown_trumps[s]
        return CardSet(m)
