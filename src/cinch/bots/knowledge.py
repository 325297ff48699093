"""What one seat can work out about the cards it cannot see: a card tracker for bots.

:class:`Knowledge` reads a :class:`~cinch.view.SeatView` taken after trumps are named
and keeps, for the other three players:

- the cards nobody has shown this seat (``unseen``): in another hand, or dead (left in
  the stock, thrown face down);
The other players are two, three, five at a table of six: every count below is by seat, for
however many sit at the table.

- suits each player is known to be void in, from the play: on a trump lead a non-trump
  means no trumps; on a plain lead a card of a third suit means none of the suit led (not
  "no trumps" too: a player void in the suit led may play anything, trumps in hand, as
  the engine and texts 000 and 004 read the rule); under strict following a trump on a
  plain lead also means none of the suit led;
- the fewest trumps each player still holds: when every non-trump is thrown, the cards a
  player did not draw are trumps he kept (``hand before the play - cards drawn``);
- a rough chance for each unseen card to sit in each hand, from those counts, so a bot
  can ask "can anyone after me beat this card?" and get a probability (exactly 0 when
  the cards tell it so).

It also knows what each card is worth when captured under the rules (``values``), with
Low under "lowest trump in play" given to the trump that must end up lowest.

With two decks (``decks=2``) it tracks all 104 cards: a card is out while either copy is
unseen, and a card is beaten only by a strictly stronger one (of two equal cards in a trick
the first played wins), so a trump is the boss once nothing above it is out, whether or not
its twin is.

>>> from cinch import Card, Deal, Rules, Seat, parse_action
>>> from cinch.deal import EXAMPLE_DECK
>>> d = Deal(Rules.preset("pagat"), Seat.W, EXAMPLE_DECK)
>>> for a in ["bid 7", "pass", "pass", "pass", "trump H", "keep 5H 2H 3H 7H 4H AD"]:
...     d.apply(parse_action(a))
>>> k = Knowledge(d.view(Seat.N))
>>> k.is_boss(Card.parse("AH")), round(k.p_holds_any(Seat.E, Card.parse("JH").bit), 2)
(True, 0.33)
"""

from __future__ import annotations

from collections.abc import Iterable

from cinch.cards import DECK_SIZE, Seat, bit_list, deck_mask, fold
from cinch.rules import Discard, Follow, Low, Rob
from cinch.scoring import PointTable
from cinch.view import SeatView

__all__ = ["Knowledge", "capture_values", "chance_of_none", "float_product", "float_sum", "seat_order_after"]


def capture_values(rules, trump) -> list[int]:
    """Points each card scores for the side that captures it (High and Low by identity only).

    High under "ace" is counted on the ace; Low under "2 to its capturer" on the 2.  A
    relative High or Low, or Low to the holder, is not a capture value of a fixed card.
    """
    return list(PointTable.of(rules, trump).value)


# math.prod() and sum() over floats, written out: the compiled build takes the built-ins' for ints (a
# TypeError at run time).  The same products and sums, in the same order, as the built-ins make.
def float_product(factors: Iterable[float]) -> float:
    """The product of ``factors``, as ``math.prod`` makes it."""
    out = 1.0
    for f in factors:
        out *= f
    return out


def float_sum(terms: Iterable[float]) -> float:
    """The sum of ``terms``, as ``sum`` makes it."""
    out = 0.0
    for x in terms:
        out += x
    return out


def chance_of_none(total: int, bad: int, drawn: float) -> float:
    """Chance that ``drawn`` cards taken from ``total`` (``bad`` of them marked) hold no marked card.

    A fractional ``drawn`` is interpolated between its neighbours.
    """
    if bad <= 0 or drawn <= 0:
        return 1.0
    if total <= 0 or bad >= total and drawn >= 1:
        return 0.0
    lo = int(drawn)
    frac = drawn - lo
    p = 1.0
    for i in range(lo):
        if total - i <= 0:
            return 0.0
        p *= max(0.0, (total - bad - i) / (total - i))
    if frac:
        nxt = max(0.0, (total - bad - lo) / (total - lo)) if total - lo > 0 else 0.0
        p *= 1 - frac + frac * nxt
    return p


class Knowledge:
    """Card tracking for one seat, built from its view once trumps are named."""

    def __init__(self, view: SeatView):
        assert view.trump is not None
        rules = view.rules
        t = view.rules.trump_tables[view.trump]
        self.view = view
        self.rules = rules
        self.t = t
        self.seat = view.seat
        self.trump_suit = int(view.trump)
        trumps = t.trumps
        self.trumps = trumps
        self.hand = int(view.hand)
        self.values = capture_values(rules, view.trump)
        eff = t.effective_suit
        strict = rules.follow.value == "strict"

        n = len(view.hand_sizes)
        self.players = n
        by_seat = [0] * n
        void = [0] * n  # bit per effective suit (the trump suit's bit: no trumps)
        in_play = 0
        for plays in [tr.plays for tr in view.tricks] + [view.current_trick]:
            if not plays:
                continue
            led = eff[plays[0].card]
            for i, p in enumerate(plays):
                c = p.card
                by_seat[p.seat] |= 1 << c | int(p.buried)
                in_play |= 1 << c
                if i == 0:
                    continue
                e = eff[c]
                if e == led:
                    continue
                if led == t.suit or strict or e != t.suit:
                    void[p.seat] |= 1 << led
        self.by_seat = by_seat
        self.in_play = in_play
        played = 0
        for m in by_seat:
            played |= m
        self.played = played

        seen = self.hand | played | int(view.own_discards) | int(view.stock_seen)
        for s in range(n):
            seen |= int(view.face_up_discards[s]) | int(view.shown_trumps[s])
        self.seen = seen
        self.unseen = deck_mask(rules.decks) & ~seen  # both packs' cards with two decks
        self.unseen_trumps = self.unseen & trumps

        # The fewest trumps each other player still holds.
        sizes = view.hand_sizes
        start = [sizes[s] + by_seat[s].bit_count() for s in range(n)]
        min_trumps = [0] * n
        robs = rules.seating.dealer_robs  # at two or three the dealer discards and draws like the others
        if not rules.no_draw and rules.discard is not Discard.CHOOSE_CONCEALED:
            for s in range(n):
                if s == self.seat or (s == view.dealer and not rules.dealer_discards):
                    continue
                kept = start[s] - view.drawn_counts[s]
                min_trumps[s] = max(0, kept - (by_seat[s] & trumps).bit_count())
        for s in range(n):
            if void[s] >> t.suit & 1:
                min_trumps[s] = 0
            min_trumps[s] = min(min_trumps[s], sizes[s])
        self.void = void
        self.min_trumps = min_trumps

        # Where the unseen cards may be: the other hands, or dead.
        others = [s for s in range(n) if s != self.seat]
        self.others = others
        n_ut = self.unseen_trumps.bit_count()
        n_unseen = self.unseen.bit_count()
        in_hands = sum(sizes[s] for s in others)
        dead = max(0, n_unseen - in_hands)
        dead_trump_room = 0.0
        if rules.no_draw or not robs:
            # Nobody robbed: the cards left in the stock are as likely trumps as any unseen card.
            dead_trump_room = float(dead)
        elif view.seat != view.dealer and rules.rob is not Rob.ALL_TRUMPS:
            dead_trump_room = 0.05 * dead  # a dealer rarely leaves a trump in the stock
        sure = sum(min_trumps[s] for s in others)
        extra = max(0, n_ut - sure)
        room = {s: (0 if void[s] >> t.suit & 1 else sizes[s] - min_trumps[s]) for s in others}
        total_room = sum(room.values()) + dead_trump_room
        exp_t = [0.0] * n
        for s in others:
            share = extra * room[s] / total_room if total_room > 0 else 0.0
            exp_t[s] = min(float(sizes[s]), min_trumps[s] + share)
        self.exp_trumps = exp_t
        self.n_unseen_trumps = n_ut
        exp_dead_t = max(0.0, n_ut - float_sum(exp_t))
        exp_n = [max(0.0, sizes[s] - exp_t[s]) if s in others else 0.0 for s in range(n)]
        self.exp_plain = exp_n
        self.dead_plain = max(0.0, dead - exp_dead_t)
        self.sizes = sizes

    # ---- where a card may be --------------------------------------------------
    def p_plain_card(self, seat: int, suit: int) -> float:
        """Chance that one given unseen non-trump of ``suit`` is in ``seat``'s hand."""
        if self.void[seat] >> suit & 1 or seat == self.seat:
            return 0.0
        denom = self.dead_plain
        for s in self.others:
            if not self.void[s] >> suit & 1:
                denom += self.exp_plain[s]
        return self.exp_plain[seat] / denom if denom > 0 else 0.0

    def p_card(self, seat: int, card: int) -> float:
        """Chance that ``seat`` holds one given card (1 or 0 for this seat's own hand)."""
        if seat == self.seat:
            return float(self.hand >> card & 1)
        if not self.unseen >> card & 1:
            return 0.0
        if self.trumps >> card & 1:
            if self.void[seat] >> self.t.suit & 1 or not self.n_unseen_trumps:
                return 0.0
            return min(1.0, self.exp_trumps[seat] / self.n_unseen_trumps)
        return self.p_plain_card(seat, self.t.effective_suit[card])

    def p_holds_any(self, seat: int, cards: int) -> float:
        """Chance that ``seat`` holds at least one of ``cards`` (cards seen elsewhere are ignored)."""
        if seat == self.seat:
            return 1.0 if self.hand & cards else 0.0
        cards &= self.unseen
        if not cards or not self.sizes[seat]:
            return 0.0
        t_cards = cards & self.trumps
        p_none = 1.0
        if t_cards:
            if self.void[seat] >> self.t.suit & 1:
                pass
            else:
                p_none *= chance_of_none(self.n_unseen_trumps, t_cards.bit_count(), self.exp_trumps[seat])
        plain = cards & ~self.trumps
        while plain:
            low = plain & -plain
            c = low.bit_length() - 1
            plain ^= low
            p_none *= 1 - self.p_plain_card(seat, self.t.effective_suit[c])
        return 1 - p_none

    def p_has_trump(self, seat: int) -> float:
        """Chance that ``seat`` still holds a trump."""
        if seat == self.seat:
            return 1.0 if self.hand & self.trumps else 0.0
        if self.min_trumps[seat]:
            return 1.0
        return self.p_holds_any(seat, self.unseen_trumps)

    def higher_trumps(self, card: int) -> int:
        """Unseen trumps that beat ``card`` (every unseen trump when ``card`` is not a trump)."""
        power = self.t.power
        p = power[card]
        m = 0
        for c in bit_list(self.unseen_trumps):
            if power[c] > p:
                m |= 1 << c
        return m

    def is_boss(self, card: int) -> bool:
        """A trump no unseen trump can beat."""
        return bool(self.t.power[card]) and not self.higher_trumps(card)

    def p_beats(self, seat: int, card: int, led: int) -> float:
        """Chance that ``seat`` holds a card that beats ``card`` in a trick led in suit ``led`` and may play it."""
        t = self.t
        if seat == self.seat or not self.sizes[seat]:
            return 0.0
        if t.power[card]:
            p = self.p_holds_any(seat, self.higher_trumps(card))
            rule = t.follow_rule(led, self.rules.follow is Follow.STRICT)
            if not rule.allowed & t.trumps:  # may trump only when void in the suit led
                p *= 1 - self.p_holds_any(seat, self.unseen & rule.follow)
            return p
        strength = t.strength[led]
        higher = 0
        for c in bit_list(self.unseen & ~self.trumps):
            if strength[c] > strength[card]:
                higher |= 1 << c
        p_suit = self.p_holds_any(seat, higher)
        p_trump = self.p_has_trump(seat)
        rule = t.follow_rule(led, self.rules.follow is Follow.STRICT)
        if not rule.allowed & t.trumps:  # may trump only when void in the suit led
            p_trump *= 1 - self.p_holds_any(seat, self.unseen & rule.follow)
        return 1 - (1 - p_suit) * (1 - p_trump)

    def p_any_beats(self, seats, card: int, led: int) -> float:
        """Chance that at least one of ``seats`` can beat ``card``."""
        p_none = 1.0
        for s in seats:
            p_none *= 1 - self.p_beats(s, card, led)
        return 1 - p_none

    # ---- points ---------------------------------------------------------------
    def low_card(self) -> int | None:
        """Under "lowest trump in play": the trump that will be Low, if the cards tell (else None)."""
        rules = self.rules
        if rules.low is not Low.LOWEST_CAPTURER:
            return None
        live = (self.in_play | self.hand | self.unseen) & self.trumps
        if not live:
            return None
        if self.rules.decks == 2:
            live = fold(live)  # either copy of a trump may be the lowest in play
        order = self.t.order
        for c in reversed(order):
            if live >> c & 1:
                return c
        return None  # pragma: no cover

    def trick_values(self) -> list[int]:
        """Capture values for this position: ``values`` with Low given to the trump that will be Low.

        The ace (High by identity) always wins its own trick, so it is never at risk; it keeps its
        value here for counting what a trick holds.  With two decks each copy of the Low scores.
        """
        values = list(self.values)
        low = self.low_card()
        if low is not None:
            values[low] += 1
            if self.rules.decks == 2:
                values[low + DECK_SIZE] += 1
        return values


def seat_order_after(view: SeatView) -> list[Seat]:
    """The players still to play to the current trick after this seat, in order."""
    trick = view.current_trick
    if not trick:
        return []
    played = {p.seat for p in trick}
    out = []
    s = view.seat.left
    while s != view.seat:
        if s not in played and view.hand_sizes[s]:
            out.append(s)
        s = s.left
    return out

