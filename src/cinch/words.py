"""How the table's things are named for people, shared by the line mode and the Textual table.

>>> from cinch.cards import Seat, Suit
>>> seat_name(Seat.N, me=Seat.S), team_name(Seat.E.team, me=Seat.S)
('N (partner)', 'EW')
>>> [str(c) for c in hand_order(CardSet.parse("AS 5D 2H KH"), Suit.HEARTS)]
['KH', '5D', '2H', 'AS']
"""

from __future__ import annotations

from cinch.cards import TRUMP_TABLES, Card, CardSet, Seat, Suit, Team


def seat_name(seat: Seat, me: Seat) -> str:
    """``S (you)``, ``N (partner)``, ``E``."""
    if seat == me:
        return f"{seat} (you)"
    if seat == me.partner:
        return f"{seat} (partner)"
    return str(seat)


def team_name(team: Team, me: Seat) -> str:
    """``NS (you)`` or ``EW``."""
    return f"{team} (you)" if team == me.team else str(team)


def hand_order(cards: int, trump: Suit | None) -> list[Card]:
    """Cards as a hand is laid out: trumps first once named (high to low, the left Pedro among
    them), then the plain suits."""
    items = list(CardSet(cards))
    if trump is not None:
        items.sort(key=TRUMP_TABLES[trump].sort_key)
    return items
