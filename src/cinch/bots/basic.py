"""A legal, sensible rule of thumb: the opponents in the first way to play.

Values its hand in its best suit and bids the lowest legal amount within that
value (so it opens at the minimum and overcalls one step at a time, never past its
value), keeps trumps, draws trumps when it holds the top one, feeds points to a
partner who holds the trick, wins a trick worth taking as cheaply as it can, and
never throws a point card under an opponent's winning card when it has anything else.

At a cut-throat table (two, three, five or six players) it plays each for himself: no partner
brings anything to its bid, and every other player is an opponent in the play.
"""

from __future__ import annotations

from cinch.actions import Action, Bid, Keep, NameTrump, Pass, Play
from cinch.bots.base import Bot, register
from cinch.cards import DECK_SIZE, CardSet, Seat, Suit, TrumpTables, bits
from cinch.keep import KeepOptions
from cinch.rules import Low, Rules
from cinch.scoring import PointTable
from cinch.view import Phase, SeatView


def point_values(rules: Rules, trump: Suit) -> list[int]:
    """Points each card is worth if captured (High and Low counted as the ace and the 2; with two
    decks, each copy)."""
    table = PointTable.of(rules, trump)
    values = list(table.value)
    top = table.tables.order[0]  # the top trump: the ace, or under bowers the right bower
    for copy in range(rules.decks):
        if table.relative_high:
            values[top + copy * DECK_SIZE] += 1
        if not table.value[table.two]:
            values[table.two + copy * DECK_SIZE] += 1
    return values


def hand_value(hand: int, suit: Suit, rules: Rules, dealer: bool) -> float:
    """A rough count of the points the makers take with ``suit`` as trumps (a partnership at four,
    a lone maker cut-throat).

    With two decks each copy of a card counts (twice the cards, twice the points), and so do a
    partner's help and the rob: a two-deck hand is valued about as two one-deck hands.
    """
    t = rules.trump_tables[suit]
    trumps = hand & t.trumps
    decks = rules.decks
    held = [0] * 15  # copies held of each trump, by power (1 the lowest .. 14 the highest)
    for c in bits(trumps):
        held[t.power[c]] += 1
    top = min(3, sum(held[p] for p in (14, 13, 12)))
    value = 1.5 * held[14] + 0.75 * held[13] + 0.5 * held[12] + 1.0 * held[11] + 0.75 * held[10]
    keep_pedro = (0.4, 0.6, 0.85, 0.95)[top]
    pedros = sum(1 for c in bits(trumps) if c % DECK_SIZE in (t.right_pedro, t.left_pedro))
    value += 5 * keep_pedro * pedros
    value += (1.0 if rules.low is Low.TWO_HOLDER else 0.4) * held[1]
    value += 0.5 * max(0, trumps.bit_count() - 2 * decks)
    if rules.seating.partnership:
        value += 2.0 * decks  # what a partner brings on average
    if dealer and rules.seating.dealer_robs:
        value += 1.0 * decks  # robbing the pack
    return value * rules.total_points / (14 * decks)


def choose_keep(options: KeepOptions, values: list[int], tables: TrumpTables) -> Keep:
    """A good legal hand: point trumps, high trumps, then side aces; the rest thrown."""

    def worth(c: int) -> float:
        if tables.power[c]:
            return 100 + 10 * values[c] + tables.power[c]
        return 20 if c % 13 == 0 else 13 - c % 13  # a side ace is worth keeping

    kept = options.must
    free = sorted(bits(options.pool & ~kept), key=worth, reverse=True)
    need_trumps = options.min_trumps - (kept & options.trumps).bit_count()
    for c in free:
        n = kept.bit_count()
        if n >= options.hi:
            break
        is_trump = bool(options.trumps >> c & 1)
        if n >= options.lo and worth(c) < 20:
            break
        if need_trumps > 0 and not is_trump and options.hi - n <= need_trumps:
            continue
        kept |= 1 << c
        need_trumps -= is_trump
    if options.violation(kept) is None:
        return Keep(CardSet(kept))
    return options[0]


class TableReading:
    """What the seat can tell about the trick in front of it."""

    def __init__(self, view: SeatView):
        assert view.trump is not None
        self.view = view
        self.t = view.rules.trump_tables[view.trump]
        self.values = point_values(view.rules, view.trump)
        self.hand = int(view.hand)
        seen = int(view.played) | self.hand
        for s in range(len(view.hand_sizes)):
            seen |= view.shown_trumps[s]
        self.outstanding_trumps = self.t.trumps & ~seen & ~int(view.stock_seen) & ~int(view.own_discards)
        self.trick = view.current_trick
        self.points_in_trick = sum(self.values[p.card] for p in self.trick)
        others = len(view.hand_sizes) - 1
        self.players_left = sum(1 for n in view.hand_sizes if n) - 1 if self.trick else others
        self.strength: tuple[int, ...] | None  # the cards' strength in the suit led (no trick: None)
        self.winner: Seat | None
        if self.trick:
            led = self.t.effective_suit[self.trick[0].card]
            strength = self.strength = self.t.strength[led]
            best = max(self.trick, key=lambda p: strength[p.card])
            self.winner, self.win_strength = best.seat, strength[best.card]
        else:
            self.strength = None
            self.winner, self.win_strength = None, -1

    def beats_outstanding(self, card: int) -> bool:
        """No trump still hidden can beat this card (a plain card loses to any trump)."""
        power = self.t.power[card]
        if not power:
            return not self.outstanding_trumps
        return all(self.t.power[c] < power for c in bits(self.outstanding_trumps))

    def cheap_key(self, card: int) -> tuple[int, int, int]:
        """Least valuable first: non-points, non-trumps, low cards."""
        return (self.values[card], self.t.power[card] > 0, self.t.power[card] or 13 - card % 13)


@register("basic")
class BasicBot(Bot):
    def choose(self, view: SeatView) -> Action:
        legal = view.legal
        if view.phase is Phase.BIDDING:
            return self._bid(view)
        if view.phase is Phase.TRUMP:
            best = max(Suit, key=lambda s: hand_value(int(view.hand), s, view.rules, view.seat == view.dealer))
            return NameTrump(best)
        if isinstance(legal, KeepOptions):
            assert view.trump is not None
            return choose_keep(legal, point_values(view.rules, view.trump), view.rules.trump_tables[view.trump])
        return self._play(view)

    def _bid(self, view: SeatView) -> Action:
        bids = [a for a in view.legal if isinstance(a, Bid)]
        if not bids:
            return view.legal[0]
        hand = int(view.hand)
        value = max(hand_value(hand, s, view.rules, view.seat == view.dealer) for s in Suit)
        affordable = [b for b in bids if b.amount <= value]
        if affordable:
            return affordable[0]
        return next((a for a in view.legal if isinstance(a, Pass)), bids[0])

    def _play(self, view: SeatView) -> Action:
        r = TableReading(view)
        plays = [a for a in view.legal if isinstance(a, Play)]
        cards = sorted({int(p.card) for p in plays}, key=r.cheap_key)
        card = self._lead(r, cards) if not r.trick else self._follow(r, view, cards)
        options = [p for p in plays if p.card == card]
        # Bury the least valuable cards under the card played.
        return min(options, key=lambda p: sorted((r.cheap_key(c) for c in p.bury), reverse=True))

    def _lead(self, r: TableReading, cards: list[int]) -> int:
        trumps = [c for c in cards if r.t.power[c]]
        if trumps and r.outstanding_trumps:
            top = max(trumps, key=lambda c: r.t.power[c])
            if r.beats_outstanding(top):
                return top  # draw trumps with the top one
        return cards[0]

    def _follow(self, r: TableReading, view: SeatView, cards: list[int]) -> int:
        strength = r.strength
        assert strength is not None
        last = r.players_left == 0
        partner_holds = r.winner == view.seat.partner
        winning_card = next(p.card for p in r.trick if p.seat == r.winner)
        if partner_holds:
            if last or r.beats_outstanding(winning_card):
                feed = max(cards, key=lambda c: r.values[c])
                if r.values[feed]:
                    return feed  # feed a point card to the partner's trick
            return cards[0]
        winners = [c for c in cards if strength[c] > r.win_strength]
        if winners:
            if last:
                return max(winners, key=lambda c: (r.values[c], -strength[c]))
            safe = [c for c in winners if r.beats_outstanding(c)]
            if safe and (r.points_in_trick or any(r.values[c] for c in safe)):
                return min(safe, key=lambda c: (strength[c] - 20 * r.values[c]))
            if r.points_in_trick:
                return min(winners, key=lambda c: strength[c])
        return cards[0]
