"""Who took which point card, and what a deal adds to the running scores.

>>> from cinch.rules import Rules
>>> settle(Rules.preset("pagat"), Team.NS, 10, (9, 5))   # 000: bid 10, took 9
(False, (-10, 5))
>>> settle(Rules.preset("official"), Team.NS, 8, (7, 7))  # 003: bid 8, 7 against 7
(False, (0, 15))
"""

from __future__ import annotations

from typing import NamedTuple

from cinch.cards import CARDS, TRUMP_TABLES, Card, Suit, Team
from cinch.rules import DOM_POINTS, SANCHO_POINTS, High, Low, Rules, Settlement, ThrownPoints


class Award(NamedTuple):
    """One point card's points going to one side."""

    name: str  # High, Low, Jack, Game, Right Pedro, Left Pedro, Sancho, Dom
    card: Card
    team: Team
    points: int
    how: str  # "captured", "held", "thrown by a defender"

    def __str__(self) -> str:
        return f"{self.name} ({self.card}) {self.points} to {self.team}, {self.how}"


class PointScheme:
    """The point cards of one deal, fixed once trumps are named.

    *Fixed* point cards are known by identity (Jack, Game, the Pedros, and High
    or Low when they are the ace and the 2); High and Low can instead be
    *relative*: the highest or lowest trump that went into the tricks.
    """

    @classmethod
    def of(cls, rules: Rules, trump: Suit) -> PointScheme:
        """The scheme for these rules and trump, built once and kept with the rules."""
        # Rules are frozen; the cache lives in the instance dict, outside the compared fields.
        cache = rules.__dict__.get("_point_schemes")
        if cache is None:
            cache = [None, None, None, None]
            object.__setattr__(rules, "_point_schemes", cache)
        scheme = cache[trump]
        if scheme is None:
            scheme = cache[trump] = cls(rules, trump)
        return scheme

    def __init__(self, rules: Rules, trump: Suit):
        t = TRUMP_TABLES[trump]
        self.tables = t
        base = trump * 13
        ace, king, jack, ten, nine, three, two = (base + i for i in (0, 1, 3, 4, 5, 11, 12))
        del king
        fixed: list[tuple[str, int, int]] = []
        if rules.high is High.ACE:
            fixed.append(("High", ace, 1))
        fixed += [("Jack", jack, 1), ("Game", ten, 1), ("Right Pedro", t.right_pedro, 5),
                  ("Left Pedro", t.left_pedro, 5)]
        if rules.sancho:
            fixed.append(("Sancho", nine, SANCHO_POINTS))
        if rules.dom_pedro:
            fixed.append(("Dom", three, DOM_POINTS))
        if rules.low is Low.TWO_CAPTURER:
            fixed.append(("Low", two, 1))
        self.captured_cards = tuple(fixed)  # scored by whoever captures them
        self.two = two
        self.low_rule = rules.low
        self.relative_high = rules.high is High.HIGHEST
        identity = 0
        for _, card, _ in fixed:
            identity |= 1 << card
        if rules.low is Low.TWO_HOLDER:
            identity |= 1 << two
        self.point_mask = identity  # cards that are point cards by identity (never buried)
        self.defenders_throw_to_makers = rules.thrown_points is ThrownPoints.DEFENDERS_TO_MAKERS

    def awards(
        self,
        captured: tuple[int, int],
        in_play: int,
        low_holder: Team | None,
        thrown_by_defenders: int,
        makers: Team,
    ) -> list[Award]:
        """Every award of the deal.

        ``captured``: each side's trick cards (buried ones included, but only cards
        in play score); ``in_play``: the cards played to tricks as competing cards; ``low_holder``: the side
        that played the 2 of trumps; ``thrown_by_defenders``: trumps the
        defenders threw out (dead).
        """
        out: list[Award] = []
        ns, ew = captured[0] & in_play, captured[1] & in_play  # a buried card is not in play: nobody's
        for name, card, points in self.captured_cards:
            bit = 1 << card
            if ns & bit:
                out.append(Award(name, CARDS[card], Team.NS, points, "captured"))
            elif ew & bit:
                out.append(Award(name, CARDS[card], Team.EW, points, "captured"))
            elif self.defenders_throw_to_makers and thrown_by_defenders & bit:
                out.append(Award(name, CARDS[card], makers, points, "thrown by a defender"))
        trumps_in_play = in_play & self.tables.trumps
        if self.relative_high and trumps_in_play:
            high = next(c for c in self.tables.order if trumps_in_play >> c & 1)
            out.append(Award("High", CARDS[high], Team.NS if ns >> high & 1 else Team.EW, 1, "captured"))
        if self.low_rule is Low.LOWEST_CAPTURER and trumps_in_play:
            low = next(c for c in reversed(self.tables.order) if trumps_in_play >> c & 1)
            out.append(Award("Low", CARDS[low], Team.NS if ns >> low & 1 else Team.EW, 1, "captured"))
        elif self.low_rule is Low.TWO_HOLDER:
            if low_holder is not None:
                out.append(Award("Low", CARDS[self.two], low_holder, 1, "held"))
            elif self.defenders_throw_to_makers and thrown_by_defenders >> self.two & 1:
                out.append(Award("Low", CARDS[self.two], makers, 1, "thrown by a defender"))
        return out


    def totals(
        self, ns: int, ew: int, in_play: int, low_holder: int | None, thrown_by_defenders: int, makers: int
    ) -> tuple[int, int]:
        """The points per side (NS, EW) that :meth:`awards` adds up to, without building awards (for search)."""
        pts = [0, 0]
        ns, ew = ns & in_play, ew & in_play  # a buried card is not in play: nobody's
        for _, card, points in self.captured_cards:
            bit = 1 << card
            if ns & bit:
                pts[0] += points
            elif ew & bit:
                pts[1] += points
            elif self.defenders_throw_to_makers and thrown_by_defenders & bit:
                pts[makers] += points
        trumps_in_play = in_play & self.tables.trumps
        if trumps_in_play:
            order = self.tables.order
            if self.relative_high:
                high = next(c for c in order if trumps_in_play >> c & 1)
                pts[0 if ns >> high & 1 else 1] += 1
            if self.low_rule is Low.LOWEST_CAPTURER:
                low = next(c for c in reversed(order) if trumps_in_play >> c & 1)
                pts[0 if ns >> low & 1 else 1] += 1
        if self.low_rule is Low.TWO_HOLDER:
            if low_holder is not None:
                pts[low_holder] += 1
            elif self.defenders_throw_to_makers and thrown_by_defenders >> self.two & 1:
                pts[makers] += 1
        return pts[0], pts[1]


def totals(awards: list[Award]) -> tuple[int, int]:
    """Points per side (NS, EW)."""
    ns = sum(a.points for a in awards if a.team is Team.NS)
    ew = sum(a.points for a in awards if a.team is Team.EW)
    return ns, ew


def settle(rules: Rules, makers: Team, bid: int, points: tuple[int, int]) -> tuple[bool, tuple[int, int]]:
    """Whether the makers made their bid, and the change to each side's score (NS, EW)."""
    taken_by_makers = points[makers]
    taken_by_defenders = points[makers.other]
    made = taken_by_makers >= bid
    change = [0, 0]
    if rules.settlement is Settlement.ADDITIVE:
        change[makers.other] = taken_by_defenders
        change[makers] = taken_by_makers if made else -bid
    elif made:
        diff = taken_by_makers - taken_by_defenders
        if diff > 0:
            change[makers] = diff
        elif diff < 0:
            change[makers.other] = -diff
    else:
        change[makers.other] = rules.total_points + (bid - taken_by_makers)
    return made, (change[0], change[1])
