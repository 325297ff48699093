"""Who took which point card, and what a deal adds to the running scores.

>>> from cinch.rules import Rules
>>> settle(Rules.preset("pagat"), Team.NS, 10, (9, 5))   # 000: bid 10, took 9
(False, (-10, 5))
>>> settle(Rules.preset("official"), Team.NS, 8, (7, 7))  # 003: bid 8, 7 against 7
(False, (0, 15))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final, NamedTuple, TypeAlias, TypeVar

from cinch.cards import ALL_CARDS, DECK_SIZE, TEAMS, Card, Team
from cinch.rules import DOM_POINTS, SANCHO_POINTS, High, Low, Rules, Settlement, ThrownPoints


class Award(NamedTuple):
    """One point card's points going to one side."""

    name: str  # High, Low, Jack, Game, Right Pedro, Left Pedro (Left Bower under bowers), Sancho, Dom
    card: Card
    team: Team
    points: int
    how: str  # "captured", "held", "thrown by a defender"

    def __str__(self) -> str:
        return f"{self.name} ({self.card}) {self.points} to {self.team}, {self.how}"


LIVE: Final = -1
"""The side of a :class:`Claim` whose card is still to be captured: it goes to its capturer."""


Claim: TypeAlias = tuple[str, int, int, int, str]
"""A point card's claim: ``(name, card, side, points, how)``, the side 0 (NS), 1 (EW) or :data:`LIVE`.

A plain tuple: the search bots' playouts count points with it thousands of times a second."""


class PointTable:
    """Which card is worth what to whom, for one rules and trump: every count of points reads it.

    *Fixed* point cards are known by identity (Jack, Game, the Pedros, Sancho and Dom, and
    High or Low when they are the ace and the 2); High and Low can instead be *relative*:
    the highest or lowest trump that went into the tricks.  Under "Low to the holder" (000)
    the 2 scores for the side that held it, whoever captures it.  Under all-hands Pedro
    (``bowers``) the left bower takes the left Pedro's 5 points and the Jack of trumps, the
    right bower, is still Jack (docs/rule-readings.md).

    >>> from cinch.cards import Suit
    >>> from cinch.rules import Rules
    >>> table = PointTable.of(Rules.preset("official"), Suit.HEARTS)
    >>> [name for name, _, _ in table.captured_cards], table.relative_high, table.relative_low
    (['Jack', 'Game', 'Right Pedro', 'Left Pedro'], True, True)
    >>> table = PointTable.of(Rules.preset("official").with_options(bowers=True), Suit.HEARTS)
    >>> [(name, str(ALL_CARDS[card]), points) for name, card, points in table.captured_cards][2:]
    [('Right Pedro', '5H', 5), ('Left Bower', 'JD', 5)]
    """

    @classmethod
    def of(cls, rules: Rules, trump: int) -> PointTable:
        """The table for these rules and trump, built once and kept for these rules."""
        # Not in the rules themselves: they are pickled to worker processes, and the tables would go with them.
        tables = per_rules(_TABLES, rules, _no_tables)
        table = tables[trump]
        if table is None:
            table = tables[trump] = cls(rules, trump)
        return table

    def __init__(self, rules: Rules, trump: int):
        self.rules = rules
        self.trump = trump
        t = rules.trump_tables[trump]
        self.tables = t
        base = trump * 13
        ace, jack, ten, nine, three, two = (base + i for i in (0, 3, 4, 5, 11, 12))
        fixed: list[tuple[str, int, int]] = []
        if rules.high is High.ACE:
            fixed.append(("High", ace, 1))
        # Under bowers the left bower stands in the left Pedro's place, 5 points (t.left_pedro is that card).
        fixed += [("Jack", jack, 1), ("Game", ten, 1), ("Right Pedro", t.right_pedro, 5),
                  ("Left Bower" if t.bowers else "Left Pedro", t.left_pedro, 5)]
        if rules.sancho:
            fixed.append(("Sancho", nine, SANCHO_POINTS))
        if rules.dom_pedro:
            fixed.append(("Dom", three, DOM_POINTS))
        if rules.low is Low.TWO_CAPTURER:
            fixed.append(("Low", two, 1))
        self.twins = rules.decks == 2  # two decks: every copy of a point card scores (docs/rule-readings.md)
        if self.twins:
            fixed = [(name, copy, points) for name, card, points in fixed for copy in (card, card + DECK_SIZE)]
        self.captured_cards = tuple(fixed)  # scored by whoever captures them
        self.two = two
        self.twin_two = two + DECK_SIZE
        self.holder_low = rules.low is Low.TWO_HOLDER  # the 2 scores for the side that held it (000)
        self.relative_high = rules.high is High.HIGHEST
        self.relative_low = rules.low is Low.LOWEST_CAPTURER
        held_low = (("Low", two),) + ((("Low", two + DECK_SIZE),) if self.twins else ())
        self.named_cards = tuple((name, card) for name, card, _ in fixed) + (held_low if self.holder_low else ())
        identity = 0
        for _, card in self.named_cards:
            identity |= 1 << card
        self.point_mask = identity  # cards that are point cards by identity (never buried)
        value = [0] * (2 * DECK_SIZE)
        for _, card, points in fixed:
            value[card] = points
        self.value = tuple(value)  # by card: what a fixed point card scores for its capturer
        self.thrown_to_makers = rules.thrown_points is ThrownPoints.DEFENDERS_TO_MAKERS

    def __reduce__(self) -> tuple[Callable[[Rules, int], PointTable], tuple[Rules, int]]:
        # Spelled out for the compiled build (cinch.native), whose classes pickle no fields by themselves.
        return PointTable.of, (self.rules, self.trump)

    def claims(self, captured: tuple[int, ...] | list[int], in_play: int, low_holder: int | None, thrown: int,
               makers: int, live: int = 0, *, relative: bool = True, low_twin: int | None = None) -> list[Claim]:
        """Every point card's claim: the one place where points are attributed.

        ``captured``: each side's trick cards (buried ones included: only cards in play score);
        ``in_play``: the cards that go to tricks as competing cards, by the end of the deal
        as far as it is known; ``low_holder``: the side that held the 2 of trumps (Low to
        the holder); ``thrown``: trumps the defenders threw out (shown and dead); ``live``:
        cards still to be captured, whose claims have side :data:`LIVE`.  With
        ``relative=False`` the highest and lowest trump in play are not judged (the play is
        not over: they are known only at its end).  ``low_twin``: with two decks, the side that
        held the second pack's 2 of trumps (Low to the holder).
        """
        if len(captured) != 2 or self.twins:
            return self._claims_by_player(captured, in_play, low_holder, thrown, makers, live, relative, low_twin)
        out: list[Claim] = []
        ns, ew, live = captured[0] & in_play, captured[1] & in_play, live & in_play  # buried: nobody's
        to_makers = self.thrown_to_makers
        for name, card, points in self.captured_cards:
            bit = 1 << card
            if ns & bit:
                out.append((name, card, 0, points, "captured"))
            elif ew & bit:
                out.append((name, card, 1, points, "captured"))
            elif live & bit:
                out.append((name, card, LIVE, points, "captured"))
            elif to_makers and thrown & bit:
                out.append((name, card, makers, points, "thrown by a defender"))
        if relative and in_play & self.tables.trumps:
            if self.relative_high:
                high = self.tables.highest(in_play)
                side = 0 if ns >> high & 1 else 1 if ew >> high & 1 else LIVE
                out.append(("High", high, side, 1, "captured"))
            if self.relative_low:
                low = self.tables.lowest(in_play)
                side = 0 if ns >> low & 1 else 1 if ew >> low & 1 else LIVE
                out.append(("Low", low, side, 1, "captured"))
        if self.holder_low:
            if low_holder is not None:
                out.append(("Low", self.two, low_holder, 1, "held"))
            elif to_makers and thrown >> self.two & 1:
                out.append(("Low", self.two, makers, 1, "thrown by a defender"))
        return out

    def _claims_by_player(self, captured: tuple[int, ...] | list[int], in_play: int, low_holder: int | None,
                          thrown: int, makers: int, live: int, relative: bool, low_twin: int | None) -> list[Claim]:
        """:meth:`claims` at a cut-throat table, where every player is a side, and with two decks."""
        out: list[Claim] = []
        taken = [c & in_play for c in captured]
        live &= in_play

        def side_of(card: int) -> int | None:
            for side, cards in enumerate(taken):
                if cards >> card & 1:
                    return side
            return LIVE if live >> card & 1 else None

        for name, card, points in self.captured_cards:
            side = side_of(card)
            if side is not None:
                out.append((name, card, side, points, "captured"))
            elif self.thrown_to_makers and thrown >> card & 1:
                out.append((name, card, makers, points, "thrown by a defender"))
        if relative and in_play & self.tables.trumps:
            for wanted, name, card in ((self.relative_high, "High", self.tables.highest(in_play)),
                                       (self.relative_low, "Low", self.tables.lowest(in_play))):
                # With two decks each copy in play of the highest (lowest) trump scores.
                for copy in (card, card + DECK_SIZE) if self.twins else (card,):
                    if wanted and in_play >> copy & 1:
                        side = side_of(copy)
                        out.append((name, copy, LIVE if side is None else side, 1, "captured"))
        if self.holder_low:
            for two, holder in ((self.two, low_holder), (self.twin_two, low_twin)) if self.twins else (
                    (self.two, low_holder),):
                if holder is not None:
                    out.append(("Low", two, holder, 1, "held"))
                elif self.thrown_to_makers and thrown >> two & 1:
                    out.append(("Low", two, makers, 1, "thrown by a defender"))
        return out

    def awards(self, captured: tuple[int, ...], in_play: int, low_holder: Team | None, thrown_by_defenders: int,
               makers: Team, sides: tuple[Team, ...] = TEAMS, low_twin: int | None = None) -> list[Award]:
        """Every award of a finished deal (see :meth:`claims` for the arguments; ``sides``: the table's)."""
        return [Award(name, ALL_CARDS[card], sides[side], points, how)
                for name, card, side, points, how in self.claims(captured, in_play, low_holder, thrown_by_defenders,
                                                                 makers, low_twin=low_twin)]

    def totals(self, captured: tuple[int, ...] | list[int], in_play: int, low_holder: int | None,
               thrown_by_defenders: int, makers: int, low_twin: int | None = None) -> tuple[int, ...]:
        """The points per side (NS, EW; cut-throat by player) of a finished deal, without building awards
        (for search)."""
        pts = [0] * len(captured)
        for _, _, side, points, _ in self.claims(captured, in_play, low_holder, thrown_by_defenders, makers,
                                                 low_twin=low_twin):
            pts[side] += points
        return tuple(pts)

    def unscored(self, awards: Iterable[Award]) -> list[tuple[str, Card]]:
        """The point cards known by identity that scored for nobody (dead, buried or left in the stock)."""
        named = {(a.name, int(a.card)) for a in awards}
        return [(name, ALL_CARDS[card]) for name, card in self.named_cards if (name, card) not in named]


_T = TypeVar("_T")


def per_rules(cache: dict[int, tuple[Rules, _T]], rules: Rules, make: Callable[[Rules], _T]) -> _T:
    """What ``make(rules)`` made for these rules, kept in ``cache`` by the rules' identity (hashing a
    ``Rules`` reads every field) beside the rules themselves, which keeps the identity theirs."""
    entry = cache.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(cache) > 64:
            cache.clear()
        entry = cache[id(rules)] = (rules, make(rules))
    return entry[1]


def _no_tables(rules: Rules) -> list[PointTable | None]:
    return [None, None, None, None]


_TABLES: Final[dict[int, tuple[Rules, list[PointTable | None]]]] = {}


def totals(awards: list[Award], sides: int = 2) -> tuple[int, ...]:
    """Points per side (NS, EW; cut-throat by player)."""
    pts = [0] * sides
    for a in awards:
        pts[a.team] += a.points
    return tuple(pts)


def settle(rules: Rules, makers: Team, bid: int, points: tuple[int, ...]) -> tuple[bool, tuple[int, ...]]:
    """Whether the makers made their bid, and the change to each side's score (NS, EW; cut-throat by player).

    With three to six players, each for himself, every player adds what he took and a maker
    short of his bid loses it instead, whatever the preset's settlement (docs/rule-readings.md):
    the difference settlement is between two sides.  Two players settle as two sides.

    >>> settle(Rules.preset("official").with_options(players=3), Team.EW, 7, (4, 5, 5))
    (False, (4, -7, 5))
    """
    if len(points) != 2:
        made = points[makers] >= bid
        return made, tuple(-bid if side == makers and not made else p for side, p in enumerate(points))
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
