"""An exact double-dummy solver for the play phase: every hand open, both sides perfect.

The value of a position is the final ``NS points - EW points`` of the deal with best play
from here on, counted exactly as the deal's rules count them (relative High and Low, Low to
the holder, Sancho and Dom, the official preset's thrown point cards).  Cinch is zero-sum in
that difference, and any settlement is monotone in it for a fixed bid, so the par line is
the same whatever a side finally scores.

How the search is kept small enough for pure Python:

- Every card still in a hand will be played (the buried excess of trick 1 aside), so at the
  root the identity of a relative High or Low is already known, and so is the side that
  will hold the 2 under "Low to holder".  Each card still to be captured then carries a
  fixed number of points for its capturer; what is already decided is a constant.  The
  value of the rest of the play is a sum over the remaining tricks, and a position at a
  trick boundary is fully described by the cards left in hands (each card's owner is fixed)
  and the leader: one int keys the transposition table, which stores bounds and the best
  lead.
- Cards are relabelled so that each effective suit is a contiguous run of bits, low card to
  high card, the trump block on top.  Trick strength is then the label itself, and the cards
  of one hand that are adjacent among the cards still live, with equal points, are found
  with one addition per hand; so are the cards of plain suits that only one hand still
  holds (equivalence pruning: one card of each class is searched).
- Alpha-beta, fail-soft, driven by narrow-window searches (MTD(f): every value has the
  parity of the points still out, so a window ``(g-1, g+1)`` proves ``g`` in one pass).  A
  cut as soon as the points left cannot move the result past the window, or the points a
  side surely keeps (its point trumps above every trump of the other side) already do;
  the transposition table's best lead first, then cheap guesses (second hand low, win as
  cheaply as possible, smear the Pedros on a partner's winning card).
- A whole trick of four players is searched inline from its leader, and the last two
  tricks are a dedicated routine, both without function calls per card; the last trick is
  counted without search.

At a cut-throat table (two, three, five or six players, each for himself) the maker plays
alone against a coalition of all the others: the value is the maker's points less the others'
together, which the maker maximises and everyone else minimises (the others' aim in common is
to hold the maker down; their split among themselves is not searched).  At two players that
is the two-side game.  That search (:class:`_TableCore`) is a plainer one, chosen once per
position; the four-player search above is untouched by it.

With two decks (two-deck Cinch: a second pack, every card twice) every table is searched by
:class:`_TwinCore`, :class:`_TableCore`'s plain search on labels that put each card beside
its twin (:class:`_TwinLayout`): in strength a twin is its first-pack card, the first played
of two equal cards wins the trick, and both copies stay in the hands, each with its own
points.  It is meant for endings (the expert gives it the last few of twelve tricks): its
time grows several times with each trick, 5 ms for the median five-trick ending at four players
compiled.  The one-deck searches are untouched by it.

Trick 1 under the buried-excess rule (a hand above six cards buries the excess under its
first card) is searched move by move with the Deal's own legality for the burials; the
search proper takes over at the end of the trick, once it is known which cards are buried
(so which trumps are in play).

>>> from cinch import Deal, Phase, Rules, Seat
>>> deal = Deal.shuffled(Rules.preset("official"), Seat.N, rng=4)
>>> import random; rng = random.Random(4)
>>> while deal.phase is not Phase.PLAY:
...     deal.apply(rng.choice(deal.legal_actions()))
>>> result = solve(Position.from_deal(deal))
>>> sum(result.points) <= 14 and result.value == result.points[0] - result.points[1]
True
>>> best = result.best_cards[0]
>>> result.card_values[best] == result.value
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from cinch.cards import (
    ALL_CARDS,
    BOWER_TABLES,
    CARDS,
    DECK_SIZE,
    TRUMP_TABLES,
    Card,
    CardSet,
    FollowRule,
    Seat,
    Suit,
    Team,
    TrumpTables,
    bits,
    trump_tables,
)
from cinch.deal import bury_options as deal_bury_options
from cinch.rules import Follow, Rules
from cinch.scoring import LIVE, PointTable, settle

__all__ = [
    "Position", "SolveResult", "solve", "best_cards", "par", "window", "can_reach", "makers_can_make",
]

# Final: compiled, a final name is a constant (any other module name is looked up by name at each use).
INF: Final = 1 << 12
_KEY_SHIFT: Final = 56  # internal card labels use bits 0..54; the leader sits above them
_TRUMP_BLOCK: Final = 3


# ---------------------------------------------------------------------------------------------
# The relabelled deck of one trump suit
# ---------------------------------------------------------------------------------------------
class _Layout:
    """Card labels for one trump suit: each effective suit a run of bits, low card first.

    Plain suits take blocks 0..2, trumps block 3 (on top, so any trump label beats any plain
    label); one empty bit separates blocks so that carries stop at a block's end.
    """

    __slots__ = ("trump", "to_int", "to_real", "block", "block_mask", "all", "strength", "size", "follow_rules")

    def __init__(self, t: TrumpTables):
        trump = t.suit
        to_int = [0] * 52
        to_real = [-1] * 56
        block = [-1] * 56
        block_mask = [0, 0, 0, 0]
        pos = 0
        b = 0
        runs = []
        for s in range(4):
            if s == trump:
                continue
            # The plain suit of the trump colour lends its left Pedro (or left bower) to the trumps.
            runs.append((b, [s * 13 + r for r in range(12, -1, -1) if s * 13 + r != t.left_pedro]))
            b += 1
        runs.append((_TRUMP_BLOCK, list(reversed(t.order))))
        suit_of_block = [s for s in range(4) if s != trump] + [trump]
        for b, cards in runs:
            for c in cards:
                to_int[c] = pos
                to_real[pos] = c
                block[pos] = b
                block_mask[b] |= 1 << pos
                pos += 1
            pos += 1  # the barrier bit
        self.trump = trump
        self.size = pos
        self.to_int = tuple(to_int)
        self.to_real = tuple(to_real)
        self.block = tuple(block)
        self.block_mask = tuple(block_mask)
        self.all = block_mask[0] | block_mask[1] | block_mask[2] | block_mask[3]
        self.strength = tuple(
            tuple(i if block[i] == _TRUMP_BLOCK or (block[i] == led and block[i] >= 0) else -1 for i in range(56))
            for led in range(4)
        )
        # The deal's follow rule (cinch.cards.FollowRule), by led block, in labels.
        self.follow_rules = tuple(
            tuple(FollowRule(*(self.mask_in(m) for m in t.follow_rules[strict][suit_of_block[b]])) for b in range(4))
            for strict in (0, 1)
        )

    def mask_in(self, real_mask: int) -> int:
        to_int = self.to_int
        m = 0
        while real_mask:
            low = real_mask & -real_mask
            m |= 1 << to_int[low.bit_length() - 1]
            real_mask ^= low
        return m

    def mask_out(self, int_mask: int) -> int:
        to_real = self.to_real
        m = 0
        while int_mask:
            low = int_mask & -int_mask
            m |= 1 << to_real[low.bit_length() - 1]
            int_mask ^= low
        return m


_LAYOUTS: Final = tuple(_Layout(t) for t in TRUMP_TABLES)
_BOWER_LAYOUTS: Final = tuple(_Layout(t) for t in BOWER_TABLES)  # all-hands Pedro (Rules.bowers)


class _TwinLayout(_Layout):
    """The labels of two packs (two-deck Cinch): each card's two copies side by side, the first
    pack's on the even label, so a label's rank is ``label >> 1`` and the top label of a rank is
    ``label | 1``.  Two barrier bits close each block, so every block starts on an even label.

    A card beats the trick's best when it is of the led block or a trump and its label is above
    the best's top label: a twin of the winning card, equal to it, does not take the trick (the
    first played of two equal cards wins).

    >>> lay = _TWIN_LAYOUTS[Suit.HEARTS]
    >>> ah = Card.parse("AH")
    >>> lay.to_int[ah.twin] == lay.to_int[ah] + 1, lay.to_int[ah] % 2
    (True, 0)
    """

    __slots__ = ()

    def __init__(self, t: TrumpTables):  # the one-pack layout's fields, built for two packs (no super())
        trump = t.suit
        size = 2 * DECK_SIZE + 8
        to_int = [0] * (2 * DECK_SIZE)
        to_real = [-1] * size
        block = [-1] * size
        block_mask = [0, 0, 0, 0]
        pos = 0
        runs = []
        b = 0
        for s in range(4):
            if s == trump:
                continue
            runs.append((b, [s * 13 + r for r in range(12, -1, -1) if s * 13 + r != t.left_pedro]))
            b += 1
        runs.append((_TRUMP_BLOCK, list(reversed(t.order))))
        suit_of_block = [s for s in range(4) if s != trump] + [trump]
        for b, cards in runs:
            for c in cards:
                for copy in (c, c + DECK_SIZE):
                    to_int[copy] = pos
                    to_real[pos] = copy
                    block[pos] = b
                    block_mask[b] |= 1 << pos
                    pos += 1
            pos += 2  # the barrier: two bits, so the next block starts on an even label
        self.trump = trump
        self.size = pos
        self.to_int = tuple(to_int)
        self.to_real = tuple(to_real)
        self.block = tuple(block)
        self.block_mask = tuple(block_mask)
        self.all = block_mask[0] | block_mask[1] | block_mask[2] | block_mask[3]
        # strength[led][label]: the top label of its rank when it can win a trick led in that block, else -1
        self.strength = tuple(
            tuple(i | 1 if block[i] == _TRUMP_BLOCK or (block[i] == led and block[i] >= 0) else -1 for i in range(size))
            for led in range(4)
        )
        two_packs = trump_tables(t.bowers, 2)[trump]  # the follow rule over both packs
        self.follow_rules = tuple(
            tuple(FollowRule(*(self.mask_in(m) for m in two_packs.follow_rules[strict][suit_of_block[b]]))
                  for b in range(4))
            for strict in (0, 1)
        )


_TWIN_LAYOUTS: Final = tuple(_TwinLayout(t) for t in TRUMP_TABLES)
_TWIN_BOWER_LAYOUTS: Final = tuple(_TwinLayout(t) for t in BOWER_TABLES)
_TWIN_KEY_SHIFT: Final = 2 * DECK_SIZE + 8  # the leader above the labels of two packs
_EVEN: Final = sum(1 << i for i in range(0, 2 * DECK_SIZE + 8, 2))  # the first pack's labels (two decks)


# ---------------------------------------------------------------------------------------------
# Positions
# ---------------------------------------------------------------------------------------------
def _next_seat(hands: Sequence[int], seat: int) -> int:
    """The next seat clockwise that still holds cards (at a table of ``len(hands)``)."""
    n = len(hands)
    seat = (seat + 1) % n
    while not hands[seat]:
        seat = (seat + 1) % n
    return seat


@dataclass(frozen=True, slots=True)
class Position:
    """A play-phase position with every hand open.

    ``hands`` are card masks by seat (four, or the table's number of players); ``trick`` the
    cards of the unfinished trick in the order played, as ``(seat, card)``, and ``trick_buried``
    the cards buried under them (trick 1 under the buried-excess rule); ``captured`` the cards
    each side (NS, EW; cut-throat each player) took in finished tricks, buried ones included;
    ``in_play`` every card played to a trick as a competing card (the current trick's too);
    ``low_holder`` the side that played the 2 of trumps in a finished trick (Low to holder), and
    ``low_twin`` the side that played the second pack's 2 (two decks); ``thrown`` the trumps the
    defenders threw out (shown and dead), which the official preset counts for the makers.

    Build one with :meth:`from_deal`, :meth:`from_view` (a seat's view plus guessed hands for
    everyone, for search bots) or :meth:`build` (explicit hands and tricks).
    """

    rules: Rules
    trump: Suit
    maker: Seat
    hands: tuple[int, ...]
    leader: Seat
    trick: tuple[tuple[int, int], ...] = ()
    trick_buried: int = 0
    tricks_done: int = 0
    captured: tuple[int, ...] = (0, 0)
    in_play: int = 0
    low_holder: Team | None = None
    thrown: int = 0
    bid: int | None = None
    low_twin: int | None = None

    def __reduce__(self) -> tuple[type[Position], tuple[object, ...]]:
        # Spelled out for the compiled build (cinch.native): a compiled frozen dataclass cannot be
        # unpickled field by field.
        return Position, (self.rules, self.trump, self.maker, self.hands, self.leader, self.trick, self.trick_buried,
                          self.tricks_done, self.captured, self.in_play, self.low_holder, self.thrown, self.bid,
                          self.low_twin)

    # ---- construction ---------------------------------------------------------------------
    @classmethod
    def from_deal(cls, deal) -> Position:
        """The position of a deal in the play phase."""
        from cinch.view import Phase

        if deal.phase is not Phase.PLAY:
            raise ValueError(f"a position is taken in the play phase, not the {deal.phase.value} phase")
        buried = 0
        for p in deal.trick:
            buried |= int(p.buried)
        low_twin = None
        if deal.rules.decks == 2:  # the deal keeps who held the first pack's 2; the second's is read from the tricks
            twin_two = PointTable.of(deal.rules, deal.trump).twin_two
            for p in [p for t in deal.tricks for p in t.plays] + list(deal.trick):
                if p.card == twin_two:
                    low_twin = deal.rules.seating.side_of[p.seat]
        return cls(
            rules=deal.rules,
            trump=Suit(deal.trump),
            maker=deal.maker,
            hands=tuple(deal.hands),
            leader=deal.leader,
            trick=tuple((int(p.seat), int(p.card)) for p in deal.trick),
            trick_buried=buried,
            tricks_done=len(deal.tricks),
            captured=tuple(deal.captured),
            in_play=deal.in_play,
            low_holder=deal.low_holder,
            thrown=deal.thrown_by_defenders(),
            bid=deal.high_bid,
            low_twin=low_twin,
        )

    @classmethod
    def build(
        cls,
        rules: Rules,
        trump: Suit | int | str,
        maker: Seat | int,
        hands: Sequence[int],
        *,
        tricks: Iterable = (),
        trick: Iterable = (),
        leader: Seat | int | None = None,
        thrown: int = 0,
        bid: int | None = None,
    ) -> Position:
        """A position from explicit hands (masks or card sets, by seat) and the play so far.

        ``tricks``: the finished tricks (:class:`~cinch.view.Trick`); ``trick``: the current
        trick's cards in order, as :class:`~cinch.view.PlayedCard` or ``(seat, card)``;
        ``leader``: who led (or leads) the current trick, by default the winner of the last
        finished trick, or the maker on trick 1 (passing left from an empty hand).
        """
        trump = Suit.parse(trump) if isinstance(trump, str) else Suit(trump)
        table = PointTable.of(rules, trump)
        seating = rules.seating
        two = table.two
        twin_two = table.twin_two if table.twins else -1
        watch_two = table.holder_low
        captured = [0] * seating.sides
        in_play = 0
        low_holder = None
        low_twin = None
        done = 0
        last_winner = None
        for t in tricks:
            done += 1
            taken = 0
            for p in t.plays:
                taken |= 1 << p.card | int(p.buried)
                in_play |= 1 << p.card
                if watch_two and p.card == two:
                    low_holder = seating.side(p.seat)
                elif watch_two and p.card == twin_two:
                    low_twin = seating.side_of[p.seat]
            captured[seating.side_of[t.winner]] |= taken
            last_winner = t.winner
        cur = []
        buried = 0
        for p in trick:
            if hasattr(p, "seat"):  # a PlayedCard
                seat, card, extra = p.seat, p.card, int(p.buried)
            else:  # (seat, card) or (seat, card, buried)
                seat, card = p[0], p[1]
                extra = int(p[2]) if len(p) > 2 else 0
            cur.append((int(seat), int(card)))
            buried |= extra
            in_play |= 1 << card
        hands_t = tuple(int(h) for h in hands)
        if len(hands_t) != seating.players:
            raise ValueError(f"a position needs {seating.players} hands, {' '.join(seating.names)}")
        if leader is None:
            if cur:
                leader = cur[0][0]
            else:
                leader = last_winner if last_winner is not None else maker
                if any(hands_t):
                    while not hands_t[leader]:
                        leader = seating.left[leader]
        return cls(
            rules=rules, trump=trump, maker=seating.seats[maker], hands=hands_t, leader=seating.seats[leader],
            trick=tuple(cur), trick_buried=buried, tricks_done=done, captured=tuple(captured),
            in_play=in_play, low_holder=low_holder, thrown=thrown, bid=bid, low_twin=low_twin,
        )

    @classmethod
    def from_view(cls, view, hands: Sequence[int]) -> Position:
        """A seat's view of the play with every hand filled in (a sampled world for a search bot).

        ``hands`` must hold the viewer's own hand and cards consistent with the view.
        """
        assert view.maker is not None and view.trump is not None
        thrown = 0
        for seat in view.rules.seating.defenders(view.maker):
            thrown |= int(view.shown_trumps[seat])
        return cls.build(
            view.rules, view.trump, view.maker, hands, tricks=view.tricks, trick=view.current_trick,
            leader=view.trick_leader, thrown=thrown, bid=view.bid,
        )

    # ---- queries ------------------------------------------------------------------------------
    @property
    def to_act(self) -> Seat | None:
        """The seat to play, or None when every hand is empty."""
        hands = self.hands
        if not any(hands):
            return None
        seats = self.rules.seating.seats
        if not self.trick:
            seat: int = self.leader
            while not hands[seat]:
                seat = (seat + 1) % len(hands)
            return seats[seat]
        if not self._yet_to_play():
            return None
        return seats[_next_seat(hands, self.trick[-1][0])]

    def _yet_to_play(self) -> int:
        played = 0
        for seat, _ in self.trick:
            played |= 1 << seat
        return sum(1 for s in range(len(self.hands)) if self.hands[s] and not played >> s & 1)

    @property
    def makers(self) -> Team:
        """The maker's side: NS or EW, or at a cut-throat table the maker himself."""
        return self.rules.seating.side(self.maker)

    @property
    def tricks_left(self) -> int:
        """Tricks still to finish, the current one included."""
        played = {seat for seat, _ in self.trick}
        sizes = [self.hands[s].bit_count() + (1 if s in played else 0) for s in range(len(self.hands))]
        return max(sizes)

    def legal_mask(self) -> int:
        """Cards the player to act may play (as the Deal's ``legal_play_mask``)."""
        seat = self.to_act
        if seat is None:
            return 0
        hand = self.hands[seat]
        if not self.trick:
            return hand
        t = self.rules.trump_tables[self.trump]
        return t.follow_rule(t.effective_suit[self.trick[0][1]], self.rules.follow is Follow.STRICT).playable(hand)

    def excess(self, seat: int) -> int:
        """Cards ``seat`` must bury with its next card (trick 1 of the buried-excess rule)."""
        if self.tricks_done:
            return 0
        return self.hands[seat].bit_count() - self.rules.tricks

    def bury_pending(self) -> bool:
        """Whether someone still to play in the current trick must bury cards."""
        if self.tricks_done:
            return False
        played = 0
        for seat, _ in self.trick:
            played |= 1 << seat
        return any(self.excess(s) > 0 for s in range(len(self.hands)) if self.hands[s] and not played >> s & 1)

    def describe(self) -> str:
        seats = self.rules.seating.seats
        lines = [f"trump {self.trump.letter}, maker {self.maker}, trick {self.tricks_done + 1}, leader {self.leader}"]
        for s in seats:
            lines.append(f"  {s}: {CardSet(self.hands[s])}")
        if self.trick:
            lines.append("  trick: " + " ".join(f"{seats[s]}:{ALL_CARDS[c]}" for s, c in self.trick))
        return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Points: what each card still to be captured is worth, and what is already decided
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _PointModel:
    val: tuple[int, ...]  # by real card: points to the side that captures it
    const: tuple[int, int]  # points already decided: NS, EW (cut-throat: the maker, the others together)
    by_side: tuple[int, ...] = ()  # points already decided, by side (NS, EW; cut-throat by player)


def _point_model(pos: Position, table: PointTable, buried_later: int = 0) -> _PointModel:
    """Card values and constants, given the cards still to be buried on trick 1.

    Every card still in a hand will be played (but ``buried_later``), so the trumps in play
    at the end are known: the deal's :meth:`~cinch.scoring.PointTable.claims` judge them
    now, and a claim still to be captured is a value of its card.
    """
    hands = pos.hands
    hands_all = 0
    for h in hands:
        hands_all |= h
    seating = pos.rules.seating
    trick_cards = 0
    for _, c in pos.trick:
        trick_cards |= 1 << c
    live = hands_all | trick_cards | pos.trick_buried
    low_holder: int | None = pos.low_holder
    if low_holder is None and table.holder_low:  # who will have played the 2 of trumps
        low_holder = _two_holder(pos, table.two, hands_all & ~buried_later)
    low_twin: int | None = None
    if table.twins:  # two decks: each 2 of trumps scores for its own holder
        low_twin = pos.low_twin
        if low_twin is None and table.holder_low:
            low_twin = _two_holder(pos, table.twin_two, hands_all & ~buried_later)
    in_play_final = pos.in_play | (hands_all & ~buried_later)
    val = [0] * (2 * DECK_SIZE if table.twins else DECK_SIZE)
    const = [0] * seating.sides
    makers = seating.side_of[pos.maker]
    for _, card, side, points, _ in table.claims(pos.captured, in_play_final, low_holder, pos.thrown,
                                                 makers, live, low_twin=low_twin):
        if side == LIVE:
            val[card] += points
        else:
            const[side] += points
    if seating.partnership:
        return _PointModel(tuple(val), (const[0], const[1]), tuple(const))
    # Cut-throat: the maker against the others together.
    return _PointModel(tuple(val), (const[makers], sum(const) - const[makers]), tuple(const))


def _two_holder(pos: Position, two: int, to_play: int) -> int | None:
    """The side that will have played ``two`` (a 2 of trumps): from the current trick or a hand
    (``to_play``: the cards still to be played), or None when it will not be played."""
    holder = next((s for s, c in pos.trick if c == two), None)
    if holder is None and to_play >> two & 1:
        holder = next(s for s in range(len(pos.hands)) if pos.hands[s] >> two & 1)
    return None if holder is None else pos.rules.seating.side_of[holder]


# ---------------------------------------------------------------------------------------------
# The search proper
# ---------------------------------------------------------------------------------------------
class _Core:
    """Alpha-beta over the remaining tricks for one table of card values.

    A position is the int ``rem`` of the cards still in hands (each card's owner is fixed, so
    ``rem & own[seat]`` is a hand), their points ``pts``, and inside a trick the led suit,
    the winning card so far, its seat and the points in the trick.  ``lead`` searches from a
    trick boundary (with the transposition table; a full trick inline, the last two tricks
    by ``end2``); ``follow`` and ``last`` from inside a trick (the root's trick, and tricks
    with empty hands).  Each returns the value of the rest of the play, NS minus EW points
    still to be captured, fail-soft in the window ``(alpha, beta)``.

    The near-copies here are deliberate: the alpha-beta step after each card (``if maxi: ...
    else: ...``), the move ordering and the transposition table's store are written out at each
    place they stand (``end2``, ``lead``'s inline trick, ``follow``, ``last``), because a shared
    helper would be a call per card searched, the cost this search is built to avoid.
    """

    def __init__(self, lay: _Layout, val_int: Sequence[int], strict: bool, own: Sequence[int]):
        self.lay = lay
        val = self.val = tuple(val_int)
        own_ = self.own = tuple(own)
        self.tt: dict[int, tuple[int, int, int, int]] = {}
        self.nodes = 0
        # The tables of the search, named as the methods name them: each method loads those it
        # uses into locals (pure Python reads a local fastest; compiled, a field is as fast).
        self.NS = own_[0] | own_[2]
        self.block = lay.block
        fmask = self.fmask = lay.block_mask
        TR = self.TR = fmask[_TRUMP_BLOCK]
        rules = lay.follow_rules[strict]  # the follow rule, by led block
        self.FOLLOW = tuple(r.follow for r in rules)
        self.ALLOWED = tuple(r.allowed for r in rules)
        self.PLAIN = fmask[:_TRUMP_BLOCK]
        ALL = self.ALL = lay.all
        classes: dict[int, int] = {}
        for i, v in enumerate(val):
            if lay.to_real[i] >= 0:
                classes[v] = classes.get(v, 0) | 1 << i
        PT = 0  # the cards worth points
        for i, v in enumerate(val):
            if v:
                PT |= 1 << i
        self.PT = PT
        self.NPT = ~PT
        self.PVM = tuple(m for v, m in classes.items() if v)  # the cards of each point value
        self.PLAINS = ALL & ~TR
        BIG = 0  # the cards worth the most (the Pedros, Sancho): smeared first on a partner's trick
        for i, v in enumerate(val):
            if v >= 5:
                BIG |= 1 << i
        self.BIG = BIG
        self.WM = tuple(TR | fmask[b] for b in range(4))  # the cards that can win a trick led in each suit
        self.PTNS = PT & self.NS & TR
        self.PTEW = PT & ~self.NS & TR

    def node_count(self) -> int:
        return self.nodes

    def points(self, rem: int) -> int:
        val = self.val
        p = 0
        while rem:
            low = rem & -rem
            p += val[low.bit_length() - 1]
            rem ^= low
        return p

    def equivalents(self, rem: int, live: int) -> int:
        """The cards not worth searching: each is equivalent to another card of its hand.

        A card is redundant when a lower card of the same hand and the same points has
        nothing live between them in its suit; and the cards of the plain suits that only
        one hand still holds are all alike (nobody can follow them or be beaten by them), so
        only one of them is kept.
        """
        ALL = self.ALL
        own = self.own
        NPT = self.NPT
        PT = self.PT
        PVM = self.PVM
        PLAINS = self.PLAINS
        PLAIN = self.PLAIN
        dead = ALL & ~live
        red = 0
        for o in own:
            h = rem & o
            if h & (h - 1):
                z = h & NPT  # the cards worth nothing: one class
                if z & (z - 1):
                    red |= (dead + (z << 1)) & z
                z = h & PT
                if z & (z - 1):
                    for vm in PVM:
                        hv = z & vm
                        if hv & (hv - 1):
                            red |= (dead + (hv << 1)) & hv
                z = h & PLAINS
                if z & (z - 1):
                    excl = 0
                    for bm in PLAIN:
                        lb = live & bm
                        if lb and h & lb == lb:
                            excl |= lb
                    if excl & (excl - 1):
                        red |= excl & (excl - 1)
        return red

    def end2(self, leader: int, rem: int, p: int, alpha: int, beta: int) -> int:
        """Two tricks left, four hands of at most two cards: the whole tree without calls."""
        own = self.own
        val = self.val
        block = self.block
        fmask = self.fmask
        TR = self.TR
        NS = self.NS
        FOLLOW = self.FOLLOW
        ALLOWED = self.ALLOWED
        WM = self.WM
        s1 = (leader + 1) & 3
        s2 = (leader + 2) & 3
        s3 = (leader + 3) & 3
        h1 = rem & own[s1]
        h2 = rem & own[s2]
        h3 = rem & own[s3]
        mx = not leader & 1  # the leader's side maximises; s1 and s3 are the other side
        vL = -INF if mx else INF
        mL = rem & own[leader]
        while mL:
            a = mL.bit_length() - 1
            ba = 1 << a
            mL ^= ba
            va = val[a]
            led = block[a]
            fm = FOLLOW[led]
            wm = WM[led]
            fx = ALLOWED[led]
            m1 = h1 & fx if h1 & fm else h1
            l2 = h2 & fx if h2 & fm else h2
            l3 = h3 & fx if h3 & fm else h3
            v1 = INF if mx else -INF
            a1 = alpha
            b1 = beta
            while m1:
                c1 = m1 & -m1
                m1 ^= c1
                x1 = c1.bit_length() - 1
                if wm >> x1 & 1 and x1 > a:
                    best1 = x1
                    w1 = s1
                else:
                    best1 = a
                    w1 = leader
                t1 = va + val[x1]
                m2 = l2
                v2 = -INF if mx else INF
                a2 = a1
                b2 = b1
                while m2:
                    c2 = m2 & -m2
                    m2 ^= c2
                    x2 = c2.bit_length() - 1
                    if wm >> x2 & 1 and x2 > best1:
                        best2 = x2
                        w2 = s2
                    else:
                        best2 = best1
                        w2 = w1
                    t2 = t1 + val[x2]
                    m3 = l3
                    v3 = INF if mx else -INF
                    r2 = rem ^ (ba | c1 | c2)
                    while m3:
                        c3 = m3 & -m3
                        m3 ^= c3
                        x3 = c3.bit_length() - 1
                        w = s3 if wm >> x3 & 1 and x3 > best2 else w2
                        tv = t2 + val[x3]
                        r = r2 ^ c3
                        q = p - tv
                        if q:  # the last trick
                            x = r & TR
                            if not x:
                                ld = w
                                hw = r & own[ld]
                                while not hw:
                                    ld = (ld + 1) & 3
                                    hw = r & own[ld]
                                x = r & fmask[block[hw.bit_length() - 1]]
                            if not NS >> (x.bit_length() - 1) & 1:
                                q = -q
                        v = q - tv if w & 1 else q + tv
                        if mx:  # s3 minimises
                            if v < v3:
                                v3 = v
                                if v <= a2:
                                    break
                        elif v > v3:
                            v3 = v
                            if v >= b2:
                                break
                    if mx:  # s2 maximises
                        if v3 > v2:
                            v2 = v3
                            if v3 > a2:
                                a2 = v3
                                if a2 >= b2:
                                    break
                    elif v3 < v2:
                        v2 = v3
                        if v3 < b2:
                            b2 = v3
                            if a2 >= b2:
                                break
                if mx:  # s1 minimises
                    if v2 < v1:
                        v1 = v2
                        if v2 < b1:
                            b1 = v2
                            if a1 >= b1:
                                break
                elif v2 > v1:
                    v1 = v2
                    if v2 > a1:
                        a1 = v2
                        if a1 >= b1:
                            break
            if mx:
                if v1 > vL:
                    vL = v1
                    if v1 > alpha:
                        alpha = v1
                        if alpha >= beta:
                            break
            elif v1 < vL:
                vL = v1
                if v1 < beta:
                    beta = v1
                    if alpha >= beta:
                        break
        return vL

    def lead(self, leader: int, rem: int, p: int, tl: int, alpha: int, beta: int) -> int:
        if not p:
            return 0
        if p <= alpha:
            return p
        if -p >= beta:
            return -p
        own = self.own
        if tl == 1:  # the last trick: one card each, all the points in it
            x = rem & self.TR
            if not x:
                hl = rem & own[leader]
                while not hl:
                    leader = (leader + 1) & 3
                    hl = rem & own[leader]
                x = rem & self.fmask[self.block[hl.bit_length() - 1]]
            return p if self.NS >> (x.bit_length() - 1) & 1 else -p
        hl = rem & own[leader]
        while not hl:
            leader = (leader + 1) & 3
            hl = rem & own[leader]
        key = rem | leader << _KEY_SHIFT
        tt = self.tt
        e = tt.get(key)
        if e is None:
            lo = -INF
            hi = INF
            bm = -1
            red = -1
        else:
            lo, hi, bm, red = e
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        # Points sure for a side: its point trumps above every trump of the other side.
        TR = self.TR
        NS = self.NS
        val = self.val
        ns = rem & NS & TR
        ew = rem & TR & ~NS
        x = ns & self.PTNS & -(1 << ew.bit_length())
        lo_b = -p
        while x:
            low = x & -x
            lo_b += 2 * val[low.bit_length() - 1]
            x ^= low
        if lo_b >= beta:
            return lo_b
        x = ew & self.PTEW & -(1 << ns.bit_length())
        hi_b = p
        while x:
            low = x & -x
            hi_b -= 2 * val[low.bit_length() - 1]
            x ^= low
        if hi_b <= alpha or hi_b == lo_b:
            return hi_b
        O0, O1, O2, O3 = own
        block = self.block
        FOLLOW = self.FOLLOW
        ALLOWED = self.ALLOWED
        WM = self.WM
        NPT = self.NPT
        BIG = self.BIG
        PT = self.PT
        self.nodes += 1
        a0 = alpha
        b0 = beta
        ts = (rem & O0 != 0) + (rem & O1 != 0) + (rem & O2 != 0) + (rem & O3 != 0)
        if tl == 2 and ts == 4:
            vbest = self.end2(leader, rem, p, alpha, beta)
            if vbest <= a0:
                if vbest < hi:
                    hi = vbest
            elif vbest >= b0:
                if vbest > lo:
                    lo = vbest
            else:
                lo = hi = vbest
            tt[key] = (lo, hi, -1, 0)
            return vbest
        if red < 0:
            red = self.equivalents(rem, rem)
        moves = hl & ~red
        maxi = not leader & 1
        vbest = -INF if maxi else INF
        best_move = -1
        if bm >= 0 and moves >> bm & 1:
            c = bm
        else:
            c = moves.bit_length() - 1
        if ts == 4:
            # A whole trick of four players, inline: the leader, s1, s2 (leader's partner), s3.
            s1 = (leader + 1) & 3
            s2 = (leader + 2) & 3
            s3 = (leader + 3) & 3
            h1 = rem & own[s1]
            h2 = rem & own[s2]
            h3 = rem & own[s3]
            nred = ~red
            tl1 = tl - 1
            while True:
                ba = 1 << c
                moves ^= ba
                va = val[c]
                led = block[c]
                fm = FOLLOW[led]
                wm = WM[led]
                fx = ALLOWED[led]
                m1 = (h1 & fx if h1 & fm else h1) & nred
                l2 = (h2 & fx if h2 & fm else h2) & nred
                l3 = (h3 & fx if h3 & fm else h3) & nred
                win1 = m1 & -(2 << c) & wm
                x = m1 & NPT or m1
                x1 = (x & -x).bit_length() - 1
                v1 = INF if maxi else -INF
                a1 = alpha
                b1 = beta
                while True:
                    c1 = 1 << x1
                    m1 ^= c1
                    if win1 & c1:
                        best1 = x1
                        w1 = s1
                    else:
                        best1 = c
                        w1 = leader
                    t1 = va + val[x1]
                    m2 = l2
                    win2 = m2 & -(2 << best1) & wm
                    if w1 == s1:  # the other side wins so far
                        x = (win2 & NPT or win2) if win2 else (m2 & NPT or m2)
                    elif not l3 & -(2 << best1) & wm and m2 & BIG & ~win2:  # the partner's card stands
                        x = m2 & BIG & ~win2
                    else:
                        x = m2 & ~win2 & NPT or m2 & NPT or m2
                    x2 = (x & -x).bit_length() - 1
                    v2 = -INF if maxi else INF
                    a2 = a1
                    b2 = b1
                    while True:
                        c2 = 1 << x2
                        m2 ^= c2
                        if win2 & c2:
                            best2 = x2
                            w2 = s2
                        else:
                            best2 = best1
                            w2 = w1
                        t2 = t1 + val[x2]
                        m3 = l3
                        win3 = m3 & -(2 << best2) & wm
                        if (w2 ^ s3) & 1:
                            x = (win3 & NPT or win3) if win3 else (m3 & NPT or m3)
                            x3 = (x & -x).bit_length() - 1
                        else:
                            x = m3 & BIG or m3 & PT
                            x3 = x.bit_length() - 1 if x else (m3 & -m3).bit_length() - 1
                        v3 = INF if maxi else -INF
                        a3 = a2
                        b3 = b2
                        r2 = rem ^ (ba | c1 | c2)
                        q2 = p - t2
                        while True:
                            c3 = 1 << x3
                            m3 ^= c3
                            w = s3 if win3 & c3 else w2
                            vx = val[x3]
                            tv = t2 + vx
                            q = q2 - vx
                            if w & 1:
                                tv = -tv
                            lo_c = a3 - tv
                            hi_c = b3 - tv
                            # the next trick's cheap exits, without the call
                            if q <= lo_c:
                                v = tv + q
                            elif -q >= hi_c:
                                v = tv - q
                            else:
                                v = tv + self.lead(w, r2 ^ c3, q, tl1, lo_c, hi_c)
                            if maxi:  # s3 minimises
                                if v < v3:
                                    v3 = v
                                    if v < b3:
                                        b3 = v
                                        if a3 >= b3:
                                            break
                            elif v > v3:
                                v3 = v
                                if v > a3:
                                    a3 = v
                                    if a3 >= b3:
                                        break
                            if not m3:
                                break
                            x3 = (m3 & -m3).bit_length() - 1
                        if maxi:  # s2 maximises
                            if v3 > v2:
                                v2 = v3
                                if v3 > a2:
                                    a2 = v3
                                    if a2 >= b2:
                                        break
                        elif v3 < v2:
                            v2 = v3
                            if v3 < b2:
                                b2 = v3
                                if a2 >= b2:
                                    break
                        if not m2:
                            break
                        x2 = (m2 & -m2).bit_length() - 1
                    if maxi:  # s1 minimises
                        if v2 < v1:
                            v1 = v2
                            if v2 < b1:
                                b1 = v2
                                if a1 >= b1:
                                    break
                    elif v2 > v1:
                        v1 = v2
                        if v2 > a1:
                            a1 = v2
                            if a1 >= b1:
                                break
                    if not m1:
                        break
                    x1 = (m1 & -m1).bit_length() - 1
                if maxi:
                    if v1 > vbest:
                        vbest = v1
                        best_move = c
                        if v1 > alpha:
                            alpha = v1
                            if alpha >= beta:
                                break
                elif v1 < vbest:
                    vbest = v1
                    best_move = c
                    if v1 < beta:
                        beta = v1
                        if alpha >= beta:
                            break
                if not moves:
                    break
                c = moves.bit_length() - 1
        else:
            nxt = (leader + 1) & 3
            if ts > 1:
                while not rem & own[nxt]:
                    nxt = (nxt + 1) & 3
            while True:
                b = 1 << c
                moves ^= b
                vc = val[c]
                led = block[c]
                if ts > 2:
                    v = self.follow(nxt, rem ^ b, p - vc, ts - 1, led, c, leader, vc, red, tl, alpha, beta)
                elif ts == 2:
                    v = self.last(nxt, rem ^ b, p - vc, led, c, leader, vc, red, tl, alpha, beta)
                elif leader & 1:
                    v = -vc + self.lead(leader, rem ^ b, p - vc, tl - 1, alpha + vc, beta + vc)
                else:
                    v = vc + self.lead(leader, rem ^ b, p - vc, tl - 1, alpha - vc, beta - vc)
                if maxi:
                    if v > vbest:
                        vbest = v
                        best_move = c
                        if v > alpha:
                            alpha = v
                            if v >= beta:
                                break
                else:
                    if v < vbest:
                        vbest = v
                        best_move = c
                        if v < beta:
                            beta = v
                            if v <= alpha:
                                break
                if not moves:
                    break
                c = moves.bit_length() - 1
        if vbest <= a0:
            if vbest < hi:
                hi = vbest
        elif vbest >= b0:
            if vbest > lo:
                lo = vbest
        else:
            lo = hi = vbest
        tt[key] = (lo, hi, best_move, red)
        return vbest

    def follow(self, seat: int, rem: int, p: int, nleft: int, led: int, best: int, winner: int, tval: int,
               red: int, tl: int, alpha: int, beta: int) -> int:
        """A player who is neither first nor last to the trick."""
        self.nodes += 1
        own = self.own
        hs = rem & own[seat]
        moves = (hs & self.ALLOWED[led] if hs & self.FOLLOW[led] else hs) & ~red  # FollowRule.playable()
        maxi = not seat & 1
        vbest = -INF if maxi else INF
        nxt = (seat + 1) & 3
        while not rem & own[nxt]:
            nxt = (nxt + 1) & 3
        # first move: a cheap guess at the best card, then the rest lowest first
        win = moves & -(2 << best) & self.WM[led]
        NPT = self.NPT
        if (winner ^ seat) & 1:  # the other side is winning the trick
            x = (win & NPT or win) if win else (moves & NPT or moves)
        else:
            x = moves & ~win & NPT or moves & NPT or moves
        c = (x & -x).bit_length() - 1
        nl = nleft - 1
        val = self.val
        while True:
            b = 1 << c
            moves ^= b
            vc = val[c]
            if win >> c & 1:
                if nl > 1:
                    v = self.follow(nxt, rem ^ b, p - vc, nl, led, c, seat, tval + vc, red, tl, alpha, beta)
                else:
                    v = self.last(nxt, rem ^ b, p - vc, led, c, seat, tval + vc, red, tl, alpha, beta)
            elif nl > 1:
                v = self.follow(nxt, rem ^ b, p - vc, nl, led, best, winner, tval + vc, red, tl, alpha, beta)
            else:
                v = self.last(nxt, rem ^ b, p - vc, led, best, winner, tval + vc, red, tl, alpha, beta)
            if maxi:
                if v > vbest:
                    vbest = v
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            break
            else:
                if v < vbest:
                    vbest = v
                    if v < beta:
                        beta = v
                        if v <= alpha:
                            break
            if not moves:
                break
            c = (moves & -moves).bit_length() - 1
        return vbest

    def last(self, seat: int, rem: int, p: int, led: int, best: int, winner: int, tval: int, red: int, tl: int,
             alpha: int, beta: int) -> int:
        """The last player to the trick; with one trick to follow, that trick is counted here."""
        self.nodes += 1
        own = self.own
        hs = rem & own[seat]
        moves = (hs & self.ALLOWED[led] if hs & self.FOLLOW[led] else hs) & ~red  # FollowRule.playable()
        maxi = not seat & 1
        vbest = -INF if maxi else INF
        win = moves & -(2 << best) & self.WM[led]
        if (winner ^ seat) & 1:
            NPT = self.NPT
            x = (win & NPT or win) if win else (moves & NPT or moves)
            c = (x & -x).bit_length() - 1
        else:
            x = moves & self.BIG or moves & self.PT
            c = x.bit_length() - 1 if x else (moves & -moves).bit_length() - 1
        final = tl == 2
        if final:
            TR = self.TR
            fmask = self.fmask
            block = self.block
            NS = self.NS
        val = self.val
        while True:
            b = 1 << c
            moves ^= b
            vc = val[c]
            tv = tval + vc
            w = seat if win >> c & 1 else winner
            r = rem ^ b
            q = p - vc
            if final:  # the last trick follows: count it without a search
                if q:
                    x = r & TR
                    if not x:
                        ld = w
                        hw = r & own[ld]
                        while not hw:
                            ld = (ld + 1) & 3
                            hw = r & own[ld]
                        x = r & fmask[block[hw.bit_length() - 1]]
                    if not NS >> (x.bit_length() - 1) & 1:
                        q = -q
                v = q - tv if w & 1 else q + tv
            elif w & 1:
                v = -tv + self.lead(w, r, q, tl - 1, alpha + tv, beta + tv)
            else:
                v = tv + self.lead(w, r, q, tl - 1, alpha - tv, beta - tv)
            if maxi:
                if v > vbest:
                    vbest = v
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            break
            else:
                if v < vbest:
                    vbest = v
                    if v < beta:
                        beta = v
                        if v <= alpha:
                            break
            if not moves:
                break
            c = (moves & -moves).bit_length() - 1
        return vbest


# ---------------------------------------------------------------------------------------------
# The search at a cut-throat table: the maker against all the others
# ---------------------------------------------------------------------------------------------
class _TableCore(_Core):
    """Alpha-beta at a cut-throat table (two, three, five or six players, each for himself).

    The maker plays alone against a coalition of all the others: every card's points go to
    whoever captures it, and the value is the maker's points still to be captured less the
    others' together, which the maker maximises and every other player minimises (the
    others share the aim of holding the maker down; how they would split their points
    among themselves is not searched).  At two players that is the two-side game itself.

    Written for clarity rather than the last factor of speed: one method per card
    (``open`` at a lead, ``answer`` inside a trick), a transposition table at trick
    boundaries keyed as the four-player search's (the cards left and the leader), the
    same equivalence pruning, and its best lead first.  The four-player search
    (:class:`_Core`) is not touched by it: :func:`solve` picks one search per position.
    """

    def __init__(self, lay: _Layout, val_int: Sequence[int], strict: bool, own: Sequence[int], maker: int,
                 left: Sequence[int]):
        self.lay = lay
        val = self.val = tuple(val_int)
        self.own = tuple(own)
        self.tt = {}
        self.nodes = 0
        self.block = lay.block
        fmask = self.fmask = lay.block_mask
        self.TR = fmask[_TRUMP_BLOCK]
        rules = lay.follow_rules[strict]
        self.FOLLOW = tuple(r.follow for r in rules)
        self.ALLOWED = tuple(r.allowed for r in rules)
        self.PLAIN = fmask[:_TRUMP_BLOCK]
        self.ALL = lay.all
        classes: dict[int, int] = {}
        PT = 0
        for i, v in enumerate(val):
            if lay.to_real[i] >= 0:
                classes[v] = classes.get(v, 0) | 1 << i
            if v:
                PT |= 1 << i
        self.PT = PT
        self.NPT = ~PT
        self.PVM = tuple(m for v, m in classes.items() if v)
        self.PLAINS = self.ALL & ~self.TR
        self.maker = maker
        self.left = tuple(left)

    def holders(self, rem: int) -> int:
        """How many players still hold cards."""
        n = 0
        for o in self.own:
            if rem & o:
                n += 1
        return n

    def after(self, seat: int, rem: int, pts: int, led: int, best: int, winner: int, tval: int, togo: int,
              alpha: int, beta: int) -> int:
        """The value of the rest once ``seat`` has played (``togo`` players still to play to this trick)."""
        if not togo:  # the trick is over: its points go to its winner's side
            if winner == self.maker:
                return tval + self.open(winner, rem, pts, alpha - tval, beta - tval)
            return -tval + self.open(winner, rem, pts, alpha + tval, beta + tval)
        own = self.own
        left = self.left
        nxt = left[seat]
        while not rem & own[nxt]:
            nxt = left[nxt]
        return self.answer(nxt, rem, pts, led, best, winner, tval, togo, alpha, beta)

    def open(self, leader: int, rem: int, pts: int, alpha: int, beta: int) -> int:
        """The value of the rest of the play from a trick's lead, fail-soft in ``(alpha, beta)``."""
        if not pts:
            return 0
        if pts <= alpha:
            return pts
        if -pts >= beta:
            return -pts
        own = self.own
        left = self.left
        while not rem & own[leader]:
            leader = left[leader]
        last = True  # the last trick (one card each at most): all the points go to its winner, no search
        for o in own:
            h = rem & o
            if h & (h - 1):
                last = False
                break
        if last:
            lead = rem & own[leader]
            x = rem & self.TR or rem & self.fmask[self.block[lead.bit_length() - 1]]
            top = 1 << (x.bit_length() - 1)
            return pts if top & own[self.maker] else -pts
        key = rem | leader << _KEY_SHIFT
        tt = self.tt
        e = tt.get(key)
        lo, hi, bm = -INF, INF, -1
        if e is not None:
            lo, hi, bm, _ = e
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        self.nodes += 1
        a0, b0 = alpha, beta
        hand = rem & own[leader]
        moves = hand & ~self.same(hand, rem)
        maxi = leader == self.maker
        togo = self.holders(rem) - 1
        block = self.block
        val = self.val
        vbest = -INF if maxi else INF
        best_move = -1
        order = _order(moves)
        if bm >= 0 and moves >> bm & 1:
            order.remove(bm)
            order.insert(0, bm)
        for c in order:
            v = self.after(leader, rem ^ 1 << c, pts - val[c], block[c], c, leader, val[c], togo, alpha, beta)
            if maxi:
                if v > vbest:
                    vbest, best_move = v, c
                    if v > alpha:
                        alpha = v
            elif v < vbest:
                vbest, best_move = v, c
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        if vbest <= a0:
            hi = min(hi, vbest)
        elif vbest >= b0:
            lo = max(lo, vbest)
        else:
            lo = hi = vbest
        tt[key] = (lo, hi, best_move, 0)
        return vbest

    def answer(self, seat: int, rem: int, pts: int, led: int, best: int, winner: int, tval: int, togo: int,
               alpha: int, beta: int) -> int:
        """The value of the rest of the play with ``seat`` to play to a trick led in block ``led``,
        ``best`` (a label) winning it for ``winner`` so far and ``tval`` points in it."""
        out = pts + tval
        if out <= alpha:
            return out
        if -out >= beta:
            return -out
        self.nodes += 1
        hand = rem & self.own[seat]
        moves = hand & self.ALLOWED[led] if hand & self.FOLLOW[led] else hand
        moves &= ~self.same(moves, rem | 1 << best)
        maxi = seat == self.maker
        block = self.block
        val = self.val
        TRUMP = _TRUMP_BLOCK
        # The cheapest card that takes the trick first, then the lowest of the others.
        wins = []
        rest = []
        m = moves
        while m:
            low = m & -m
            m ^= low
            c = low.bit_length() - 1
            b = block[c]
            if b in (led, TRUMP) and c > best:
                wins.append(c)
            else:
                rest.append(c)
        vbest = -INF if maxi else INF
        togo -= 1
        for c in wins + rest:
            if c > best and block[c] in (led, TRUMP):
                nb, nw = c, seat
            else:
                nb, nw = best, winner
            v = self.after(seat, rem ^ 1 << c, pts - val[c], led, nb, nw, tval + val[c], togo, alpha, beta)
            if maxi:
                if v > vbest:
                    vbest = v
                    if v > alpha:
                        alpha = v
            elif v < vbest:
                vbest = v
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        return vbest

    def same(self, h: int, live: int) -> int:
        """The cards of hand ``h`` not worth searching: each is equivalent to another of them (as
        :meth:`_Core.equivalents`, for one hand: same points, nothing live between them)."""
        if not h & (h - 1):
            return 0
        dead = self.ALL & ~live
        red = 0
        z = h & self.NPT
        if z & (z - 1):
            red |= (dead + (z << 1)) & z
        z = h & self.PT
        if z & (z - 1):
            for vm in self.PVM:
                hv = z & vm
                if hv & (hv - 1):
                    red |= (dead + (hv << 1)) & hv
        return red


# ---------------------------------------------------------------------------------------------
# The search with two decks: twins are equal cards, the first played wins
# ---------------------------------------------------------------------------------------------
class _TwinCore(_TableCore):
    """Alpha-beta over the cards of two packs (two-deck Cinch), at any table.

    :class:`_TableCore`'s search on :class:`_TwinLayout`'s labels, with three changes: the
    seats that maximise are a mask (``side``: N and S in partnership, else the seat searched
    alone), the trick's best card is kept as the top label of its rank (``label | 1``), so the
    twin of the winning card, played later, does not beat it, and two cards of a hand are
    alike only if no copy of a rank between them (theirs included) is live in another hand:
    a card tied by an opponent's twin wins or loses by the order of play.
    """

    def __init__(self, lay: _Layout, val_int: Sequence[int], strict: bool, own: Sequence[int], side: int,
                 left: Sequence[int]):
        super().__init__(lay, val_int, strict, own, -1, left)
        self.side = side

    def after(self, seat: int, rem: int, pts: int, led: int, best: int, winner: int, tval: int, togo: int,
              alpha: int, beta: int) -> int:
        if not togo:
            if self.side >> winner & 1:
                return tval + self.open(winner, rem, pts, alpha - tval, beta - tval)
            return -tval + self.open(winner, rem, pts, alpha + tval, beta + tval)
        own = self.own
        left = self.left
        nxt = left[seat]
        while not rem & own[nxt]:
            nxt = left[nxt]
        return self.answer(nxt, rem, pts, led, best, winner, tval, togo, alpha, beta)

    def last_trick(self, leader: int, rem: int) -> int:
        """The winner of the last trick, one card in each hand that still holds one."""
        own = self.own
        left = self.left
        block = self.block
        card = (rem & own[leader]).bit_length() - 1
        led = block[card]
        best = card | 1
        winner = leader
        seat = left[leader]
        while seat != leader:
            h = rem & own[seat]
            if h:
                c = h.bit_length() - 1
                if c > best and (block[c] == led or block[c] == _TRUMP_BLOCK):
                    best = c | 1
                    winner = seat
            seat = left[seat]
        return winner

    def open(self, leader: int, rem: int, pts: int, alpha: int, beta: int) -> int:
        if not pts:
            return 0
        if pts <= alpha:
            return pts
        if -pts >= beta:
            return -pts
        own = self.own
        left = self.left
        while not rem & own[leader]:
            leader = left[leader]
        last = True
        for o in own:
            h = rem & o
            if h & (h - 1):
                last = False
                break
        if last:
            return pts if self.side >> self.last_trick(leader, rem) & 1 else -pts
        key = rem | leader << _TWIN_KEY_SHIFT
        tt = self.tt
        e = tt.get(key)
        lo, hi, bm = -INF, INF, -1
        if e is not None:
            lo, hi, bm, _ = e
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        self.nodes += 1
        a0, b0 = alpha, beta
        hand = rem & own[leader]
        moves = hand & ~self.same(hand, rem)
        maxi = bool(self.side >> leader & 1)
        togo = self.holders(rem) - 1
        block = self.block
        val = self.val
        vbest = -INF if maxi else INF
        best_move = -1
        order = _order(moves)
        if bm >= 0 and moves >> bm & 1:
            order.remove(bm)
            order.insert(0, bm)
        for c in order:
            v = self.after(leader, rem ^ 1 << c, pts - val[c], block[c], c | 1, leader, val[c], togo, alpha, beta)
            if maxi:
                if v > vbest:
                    vbest, best_move = v, c
                    if v > alpha:
                        alpha = v
            elif v < vbest:
                vbest, best_move = v, c
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        if vbest <= a0:
            hi = min(hi, vbest)
        elif vbest >= b0:
            lo = max(lo, vbest)
        else:
            lo = hi = vbest
        tt[key] = (lo, hi, best_move, 0)
        return vbest

    def answer(self, seat: int, rem: int, pts: int, led: int, best: int, winner: int, tval: int, togo: int,
               alpha: int, beta: int) -> int:
        """As :meth:`_TableCore.answer`; ``best`` is the top label of the winning card's rank."""
        out = pts + tval
        if out <= alpha:
            return out
        if -out >= beta:
            return -out
        self.nodes += 1
        hand = rem & self.own[seat]
        moves = hand & self.ALLOWED[led] if hand & self.FOLLOW[led] else hand
        moves &= ~self.same(moves, rem | 3 << (best - 1))  # the winning card's rank is live
        maxi = bool(self.side >> seat & 1)
        block = self.block
        val = self.val
        TRUMP = _TRUMP_BLOCK
        wins = []
        rest = []
        m = moves
        while m:
            low = m & -m
            m ^= low
            c = low.bit_length() - 1
            b = block[c]
            if c > best and b in (led, TRUMP):
                wins.append(c)
            else:
                rest.append(c)
        vbest = -INF if maxi else INF
        togo -= 1
        for c in wins + rest:  # the cheapest card that takes the trick first, then the lowest of the others
            if c > best and (block[c] == led or block[c] == TRUMP):
                nb, nw = c | 1, seat
            else:
                nb, nw = best, winner
            v = self.after(seat, rem ^ 1 << c, pts - val[c], led, nb, nw, tval + val[c], togo, alpha, beta)
            if maxi:
                if v > vbest:
                    vbest = v
                    if v > alpha:
                        alpha = v
            elif v < vbest:
                vbest = v
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        return vbest

    def same(self, h: int, live: int) -> int:
        """The cards of hand ``h`` not worth searching: a card is alike the next lower live card of
        the hand when they have the same points and no other hand holds a live copy of their ranks
        or of one between (each card's twin sits beside it, so a rank is a pair of labels)."""
        if not h & (h - 1):
            return 0
        dead = self.ALL & ~live
        others = live & ~h
        ranks = (others | others >> 1) & _EVEN
        blocked = ranks | ranks << 1  # both labels of every rank another hand holds a copy of
        red = 0
        z = h & self.NPT & ~blocked
        if z & (z - 1):
            red |= (dead + (z << 1)) & z
        z = h & self.PT & ~blocked
        if z & (z - 1):
            for vm in self.PVM:
                hv = z & vm
                if hv & (hv - 1):
                    red |= (dead + (hv << 1)) & hv
        return red


# ---------------------------------------------------------------------------------------------
# Solving
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SolveResult:
    """The par of a position.

    ``value``: final NS points minus EW points with best play from here; ``points``: the
    final points (NS, EW) that implies; ``card_values``: for each legal card of the player to
    act, the value after playing it (then best play), in the same NS-minus-EW terms (empty
    when the solve was asked for the par only; with two decks one per card as it reads, the
    copy ``legal_actions`` names); ``buries``: on trick 1 under the buried-excess rule, the
    best cards to bury with each card.

    At a cut-throat table (two, three, five or six players) the maker plays alone against
    all the others together: ``value`` is the maker's final points less the others' together
    (the maker maximises it, everyone else minimises it), and ``points`` are by player, along
    one line of best play (the others' split among themselves is that line's; the search
    does not choose between their splits).  ``maximisers`` holds the seats that maximise
    ``value`` (a mask): N and S at four, the maker cut-throat.
    """

    value: int
    points: tuple[int, ...]
    to_act: Seat | None
    makers: Team
    bid: int | None
    card_values: dict[Card, int] = field(default_factory=dict)
    buries: dict[Card, CardSet] = field(default_factory=dict)
    nodes: int = 0
    rules: Rules | None = None
    totals: dict[Card, int] = field(default_factory=dict, repr=False)
    maximisers: int = 0b0101

    def __reduce__(self) -> tuple[type[SolveResult], tuple[object, ...]]:
        # As Position's (the compiled build).
        return SolveResult, (self.value, self.points, self.to_act, self.makers, self.bid, self.card_values,
                             self.buries, self.nodes, self.rules, self.totals, self.maximisers)

    @property
    def best_cards(self) -> list[Card]:
        """The legal cards that keep the par for the side to act."""
        if not self.card_values or self.to_act is None:
            return []
        pick = max if self.maximisers >> self.to_act & 1 else min
        best = pick(self.card_values.values())
        return [c for c, v in self.card_values.items() if v == best]

    def points_after(self, card: Card | int) -> tuple[int, ...]:
        """The final points (NS, EW) after ``card`` and best play; at a cut-throat table the
        maker's (the seat searched alone) and the others' together (the two sides of the search)."""
        c = ALL_CARDS[card]
        v = self.card_values[c]
        total = self.totals[c]
        return (total + v) // 2, (total - v) // 2

    @property
    def made(self) -> bool | None:
        """Whether the makers reach their bid with best play (None without a bid)."""
        if self.bid is None:
            return None
        return self.points[self.makers] >= self.bid  # a cut-throat maker's side is his own seat

    @property
    def score_change(self) -> tuple[int, ...] | None:
        """What the settlement adds to each running score (NS, EW) with best play."""
        if self.bid is None or self.rules is None:
            return None
        return settle(self.rules, self.makers, self.bid, self.points)[1]


class _Solver:
    """Everything about one root position that the searches share."""

    def __init__(self, pos: Position):
        self.pos = pos
        rules = pos.rules
        self.scheme = PointTable.of(rules, pos.trump)
        self.lay = (_BOWER_LAYOUTS if rules.bowers else _LAYOUTS)[pos.trump]
        self.strict = rules.follow is Follow.STRICT
        self._cores: dict[tuple[int, ...], _Core] = {}
        self._models: dict[int, _PointModel] = {}
        self.maximisers = 0b0101  # the seats that maximise the value: N and S

    def maximises(self, seat: int) -> bool:
        return bool(self.maximisers >> seat & 1)

    def lead_value(self, model: _PointModel, leader: int, hands: Sequence[int], tl: int, alpha: int,
                   beta: int) -> int:
        """The value of the rest of the play from a lead by ``leader`` (after trick 1's burials)."""
        core = self.core(model)
        rem = self.lay.mask_in(hands[0] | hands[1] | hands[2] | hands[3])
        return core.lead(leader, rem, core.points(rem), tl, alpha, beta)

    def model(self, buried_later: int = 0) -> _PointModel:
        m = self._models.get(buried_later)
        if m is None:
            m = self._models[buried_later] = _point_model(self.pos, self.scheme, buried_later)
        return m

    def core(self, model: _PointModel) -> _Core:
        """The search for one table of card values (burials may give trick 1 several)."""
        core = self._cores.get(model.val)
        if core is None:
            val_int, own = self.core_inputs(model)
            core = self._cores[model.val] = _Core(self.lay, val_int, self.strict, own)
        return core

    def core_inputs(self, model: _PointModel) -> tuple[list[int], list[int]]:
        """A search's card values and hands, by internal card index."""
        lay = self.lay
        val_int = [0] * 56
        for c in range(52):
            val_int[lay.to_int[c]] = model.val[c]
        return val_int, [lay.mask_in(h) for h in self.pos.hands]

    def nodes(self) -> int:
        return sum(c.node_count() for c in self._cores.values())

    # ---- the ordinary case: no burial pending -----------------------------------------------
    def root_state(self):
        """The root trick state in internal labels."""
        pos = self.pos
        lay = self.lay
        to_int = lay.to_int
        hands = [lay.mask_in(h) for h in pos.hands]
        to_act = pos.to_act
        assert to_act is not None
        tl = pos.tricks_left
        if not pos.trick:
            return hands, int(to_act), None, tl
        seats = 0
        trick_live = 0
        led = lay.block[to_int[pos.trick[0][1]]]
        st = lay.strength[led]
        best = -2
        winner = 0
        for seat, card in pos.trick:
            ci = to_int[card]
            seats |= 1 << seat
            trick_live |= 1 << ci
            if st[ci] > best:
                best = st[ci]
                winner = seat
        nleft = sum(1 for s in range(4) if hands[s] and not seats >> s & 1)
        return hands, int(to_act), (led, best, winner, nleft, trick_live, lay.mask_in(pos.trick_buried)), tl

    def child(self, core: _Core, hands, seat: int, trick, tl: int, ci: int, red: int, alpha: int, beta: int) -> int:
        """Value of the rest of the play (from the root trick on) after ``seat`` plays ``ci``."""
        val = core.val
        lay = self.lay
        new = list(hands)
        new[seat] ^= 1 << ci
        rem = new[0] | new[1] | new[2] | new[3]
        pts = core.points(rem)
        if trick is None:
            led = lay.block[ci]
            best = lay.strength[led][ci]
            winner = seat
            tval = val[ci]
            nleft = sum(1 for s in range(4) if hands[s]) - 1
        else:
            led, best, winner, nleft, trick_live, buried = trick
            tval = val[ci] + core.points(trick_live | buried)
            s = lay.strength[led][ci]
            if s > best:
                best = s
                winner = seat
            nleft -= 1
        if nleft == 0:
            sign = -1 if winner & 1 else 1
            return sign * tval + core.lead(winner, rem, pts, tl - 1, alpha - sign * tval, beta - sign * tval)
        if nleft == 1:
            return core.last(_next_seat(new, seat), rem, pts, led, best, winner, tval, red, tl, alpha, beta)
        return core.follow(_next_seat(new, seat), rem, pts, nleft, led, best, winner, tval, red, tl, alpha, beta)

    def root_moves(self, core: _Core, hands, seat: int, trick) -> tuple[int, int]:
        """The legal moves at the root (internal mask) and the equivalence mask."""
        lay = self.lay
        hs = hands[seat]
        rem = hands[0] | hands[1] | hands[2] | hands[3]
        if trick is None:
            return hs, core.equivalents(rem, rem)
        moves = lay.follow_rules[self.strict][trick[0]].playable(hs)
        return moves, core.equivalents(rem, rem | trick[4])

    def solve_plain(self, card_values: bool, alpha: int, beta: int) -> tuple[int, dict[Card, int]]:
        """Absolute value (final NS-EW), and per-card values when asked (full window then)."""
        model = self.model(0)
        core = self.core(model)
        base = model.const[0] - model.const[1]
        hands, seat, trick, tl = self.root_state()
        moves, red = self.root_moves(core, hands, seat, trick)
        lay = self.lay
        reps = moves & ~red
        maxi = not seat & 1
        values: dict[int, int] = {}
        if card_values:
            guess = 0
            for ci in _order(reps):
                v = _mtdf(lambda a, b, ci=ci: self.child(core, hands, seat, trick, tl, ci, red, a, b), guess)
                values[ci] = base + v
                guess = v
            best = (max if maxi else min)(values.values())
            # equivalent cards share their representative's value
            live = hands[0] | hands[1] | hands[2] | hands[3] | (trick[4] if trick else 0)
            excl = 0
            for b in range(_TRUMP_BLOCK):
                lb = live & lay.block_mask[b]
                if lb and hands[seat] & lb == lb:
                    excl |= lb
            out = {}
            for ci in bits(moves):
                rep = ci
                if excl >> ci & 1:
                    rep = (excl & -excl).bit_length() - 1
                while not reps >> rep & 1:  # down the run of equivalent cards
                    rep -= 1
                    while not moves >> rep & 1:
                        rep -= 1
                out[CARDS[lay.to_real[ci]]] = values[rep]
            return best, dict(sorted(out.items()))

        def root(a: int, b: int) -> int:
            return _root_value(reps, maxi, lambda ci, a, b: self.child(core, hands, seat, trick, tl, ci, red, a, b),
                               a, b)

        if alpha <= -INF and beta >= INF:
            return base + _mtdf(root, 0), {}
        return base + root(alpha - base, beta - base), {}

    # ---- trick 1 with burials ------------------------------------------------------------
    def solve_bury(self, card_values: bool, alpha: int, beta: int):
        """Search the rest of trick 1 move by move, burials included; the core takes over after.

        Returns the value (final NS-EW), the total points of the par line (which burials may
        change: a buried 2 under Low to holder, or the trumps in play for relative High/Low),
        and, with ``card_values``, ``{card: (value, best burial, total)}``.
        """
        pos = self.pos
        rules = pos.rules
        t = rules.trump_tables[pos.trump]
        point_mask = self.scheme.point_mask
        strict = self.strict
        hands = list(pos.hands)
        trick = list(pos.trick)
        root_live = pos.trick_buried
        for h in hands:
            root_live |= h
        for _, c in trick:
            root_live |= 1 << c

        def legal(seat: int) -> int:
            hand = hands[seat]
            if not trick:
                return hand
            return t.follow_rule(t.effective_suit[trick[0][1]], strict).playable(hand)

        def bury_options(seat: int, card: int) -> list[int]:
            excess = hands[seat].bit_count() - rules.tricks
            if excess <= 0:
                return [0]
            return deal_bury_options(hands[seat], card, excess, point_mask, legal(seat))

        def finish(buried: int, alpha: int, beta: int) -> tuple[int, int]:
            model = self.model(buried)
            val = model.val
            led = t.effective_suit[trick[0][1]]
            st = t.strength[led]
            best = -1
            winner = 0
            tval = 0
            for s, c in trick:
                tval += val[c]
                if st[c] > best:
                    best = st[c]
                    winner = s
            for c in bits(pos.trick_buried | buried):
                tval += val[c]
            total = model.const[0] + model.const[1] + sum(val[c] for c in bits(root_live))
            base = model.const[0] - model.const[1] + (tval if self.maximises(winner) else -tval)
            tl = max(h.bit_count() for h in hands)
            if not tl:
                return base, total
            return base + self.lead_value(model, winner, hands, tl, alpha - base, beta - base), total

        def rec(seat: int, buried: int, alpha: int, beta: int, root: bool):
            maxi = self.maximises(seat)
            vbest = -INF if maxi else INF
            tbest = 0
            per_card: dict[int, tuple[int, int, int]] = {}
            played = 1 << seat
            for s, _ in trick:
                played |= 1 << s
            more = any(hands[s] and not played >> s & 1 for s in range(len(hands)))
            for card in bits(legal(seat)):
                for bury in bury_options(seat, card):
                    hands[seat] &= ~(1 << card | bury)
                    trick.append((seat, card))
                    if more:
                        v, total, _ = rec(_next_seat(hands, seat), buried | bury, alpha, beta, False)
                    else:
                        v, total = finish(buried | bury, alpha, beta)
                    trick.pop()
                    hands[seat] |= 1 << card | bury
                    if root:
                        prev = per_card.get(card)
                        if prev is None or (v > prev[0] if maxi else v < prev[0]):
                            per_card[card] = (v, bury, total)
                    if maxi:
                        if v > vbest:
                            vbest, tbest = v, total
                            if not root and v > alpha:
                                alpha = v
                    elif v < vbest:
                        vbest, tbest = v, total
                        if not root and v < beta:
                            beta = v
                    if alpha >= beta and not root:
                        return vbest, tbest, per_card
            return vbest, tbest, per_card

        seat = pos.to_act
        assert seat is not None
        if card_values:
            return rec(int(seat), 0, -INF, INF, True)
        return rec(int(seat), 0, alpha, beta, False)


class _CutThroatSolver(_Solver):
    """:class:`_Solver` at a cut-throat table: the maker (maximising) against all the others
    together (minimising), searched by :class:`_TableCore`."""

    def __init__(self, pos: Position, alone: int | None = None):
        super().__init__(pos)
        self.table = pos.rules.seating
        self.maker = int(pos.maker)
        # The seat searched alone against all the others: the maker, or a defender asking what he
        # can take for himself if everyone else plays against him.
        self.alone = self.maker if alone is None else alone
        self.maximisers = 1 << self.alone
        self._table_cores: dict[tuple[int, ...], _TableCore] = {}

    def model(self, buried_later: int = 0) -> _PointModel:
        m = super().model(buried_later)
        if self.alone == self.maker:
            return m
        mine = m.by_side[self.alone]  # the two sides of the search: this seat, and all the others
        return replace(m, const=(mine, sum(m.by_side) - mine))

    def table_core(self, model: _PointModel) -> _TableCore:
        core = self._table_cores.get(model.val)
        if core is None:
            val_int, own = self.core_inputs(model)
            core = self._table_cores[model.val] = _TableCore(self.lay, val_int, self.strict, own, self.alone,
                                                             self.table.left)
        return core

    def nodes(self) -> int:
        return sum(c.node_count() for c in self._table_cores.values())

    def lead_value(self, model: _PointModel, leader: int, hands: Sequence[int], tl: int, alpha: int,
                   beta: int) -> int:
        core = self.table_core(model)
        rem = 0
        for h in hands:
            rem |= self.lay.mask_in(h)
        return core.open(leader, rem, core.points(rem), alpha, beta)

    def root(self, core: _TableCore) -> tuple[int, int, int, int, int, int, int, int]:
        """The root in labels: the seat to act, the cards left, their points, the led block (-1 at a
        lead), the winning label, its seat, the trick's points and the players still to play to it."""
        pos = self.pos
        lay = self.lay
        to_int = lay.to_int
        rem = 0
        for h in pos.hands:
            rem |= lay.mask_in(h)
        to_act = pos.to_act
        assert to_act is not None
        pts = core.points(rem)
        if not pos.trick:
            return int(to_act), rem, pts, -1, -1, int(to_act), 0, core.holders(rem)
        played = 0
        led = lay.block[to_int[pos.trick[0][1]]]
        best, winner, tval = -1, 0, core.points(lay.mask_in(pos.trick_buried))
        for seat, card in pos.trick:
            ci = to_int[card]
            played |= 1 << seat
            tval += core.val[ci]
            if ci > best and lay.block[ci] in (led, _TRUMP_BLOCK):
                best, winner = ci, seat
        togo = sum(1 for s, h in enumerate(pos.hands) if h and not played >> s & 1)
        return int(to_act), rem, pts, led, best, winner, tval, togo

    @staticmethod
    def play(core: _TableCore, state: tuple[int, int, int, int, int, int, int, int],
             ci: int) -> tuple[int, int, int, int, int, int, int]:
        """The state after the seat to act plays label ``ci``: (cards left, their points, led block,
        winning label, its seat, trick points, players still to play)."""
        seat, rem, pts, led, best, winner, tval, togo = state
        block = core.block[ci]
        if led < 0:
            led, best, winner = block, ci, seat
        elif ci > best and block in (led, _TRUMP_BLOCK):
            best, winner = ci, seat
        return rem ^ 1 << ci, pts - core.val[ci], led, best, winner, tval + core.val[ci], togo - 1

    def moves(self, core: _TableCore, state: tuple[int, int, int, int, int, int, int, int]) -> int:
        seat, rem, _, led, _, _, _, _ = state
        hand = rem & core.own[seat]
        if led < 0:
            return hand
        return hand & core.ALLOWED[led] if hand & core.FOLLOW[led] else hand

    def after_root(self, core: _TableCore, state: tuple[int, int, int, int, int, int, int, int], ci: int,
                   alpha: int, beta: int) -> int:
        """The value of the rest of the play after the seat to act at ``state`` plays label ``ci``."""
        rem, pts, led, best, winner, tval, togo = self.play(core, state, ci)
        return core.after(state[0], rem, pts, led, best, winner, tval, togo, alpha, beta)

    def solve_plain(self, card_values: bool, alpha: int, beta: int) -> tuple[int, dict[Card, int]]:
        model = self.model(0)
        core = self.table_core(model)
        base = model.const[0] - model.const[1]
        state = self.root(core)
        moves = self.moves(core, state)
        maxi = self.maximises(state[0])
        if card_values:
            values: dict[Card, int] = {}
            guess = 0
            for ci in _order(moves):
                v = _mtdf(lambda a, b, ci=ci: self.after_root(core, state, ci, a, b), guess)
                values[ALL_CARDS[self.lay.to_real[ci]]] = base + v
                guess = v
            best = (max if maxi else min)(values.values())
            return best, dict(sorted(values.items()))

        def root(a: int, b: int) -> int:
            return _root_value(moves, maxi, lambda ci, a, b: self.after_root(core, state, ci, a, b), a, b)

        if alpha <= -INF and beta >= INF:
            return base + _mtdf(root, 0), {}
        return base + root(alpha - base, beta - base), {}

    def line_points(self, value: int) -> tuple[int, ...]:
        """Each player's final points along one line of best play worth ``value`` (no burial pending)."""
        model = self.model(0)
        core = self.table_core(model)
        points = list(model.by_side)
        state = self.root(core)
        target = value - (model.const[0] - model.const[1])  # the value of the rest of the play
        left = self.table.left
        own = core.own
        while state[1]:
            seat = state[0]
            chosen = None
            for ci in _order(self.moves(core, state)):
                if self.after_root(core, state, ci, target - 1, target + 1) == target:
                    chosen = ci
                    break
            assert chosen is not None, "no card keeps the par"
            rem, pts, led, best, winner, tval, togo = self.play(core, state, chosen)
            if togo:
                nxt = left[seat]
                while not rem & own[nxt]:
                    nxt = left[nxt]
                state = (nxt, rem, pts, led, best, winner, tval, togo)
                continue
            points[winner] += tval
            target -= tval if winner == self.alone else -tval
            if rem:
                while not rem & own[winner]:
                    winner = left[winner]
            state = (winner, rem, pts, -1, -1, winner, 0, core.holders(rem))
        return tuple(points)


class _TwinSolver(_CutThroatSolver):
    """:class:`_CutThroatSolver` for two decks, at every table: the search is :class:`_TwinCore`'s on
    :class:`_TwinLayout`'s labels; in partnership N and S maximise (the value is NS less EW, as
    :class:`_Solver`'s), cut-throat the seat searched alone.

    The legal cards of the player to act are valued once per card as it reads: of two copies in
    the hand, the first pack's (the one the deal's ``legal_actions`` names; the two are alike).
    """

    def __init__(self, pos: Position, alone: int | None = None):
        super().__init__(pos, alone)
        self.lay = (_TWIN_BOWER_LAYOUTS if pos.rules.bowers else _TWIN_LAYOUTS)[pos.trump]
        if self.table.partnership:
            self.maximisers = 0b0101

    def table_core(self, model: _PointModel) -> _TableCore:
        core = self._table_cores.get(model.val)
        if core is None:
            val_int, own = self.core_inputs(model)
            core = self._table_cores[model.val] = _TwinCore(self.lay, val_int, self.strict, own, self.maximisers,
                                                            self.table.left)
        return core

    def core_inputs(self, model: _PointModel) -> tuple[list[int], list[int]]:
        lay = self.lay
        val_int = [0] * lay.size
        for c in range(2 * DECK_SIZE):
            val_int[lay.to_int[c]] = model.val[c]
        return val_int, [lay.mask_in(h) for h in self.pos.hands]

    def root(self, core: _TableCore) -> tuple[int, int, int, int, int, int, int, int]:
        pos = self.pos
        lay = self.lay
        to_int = lay.to_int
        rem = 0
        for h in pos.hands:
            rem |= lay.mask_in(h)
        to_act = pos.to_act
        assert to_act is not None
        pts = core.points(rem)
        if not pos.trick:
            return int(to_act), rem, pts, -1, -1, int(to_act), 0, core.holders(rem)
        played = 0
        led = lay.block[to_int[pos.trick[0][1]]]
        best, winner, tval = -1, 0, core.points(lay.mask_in(pos.trick_buried))
        for seat, card in pos.trick:
            ci = to_int[card]
            played |= 1 << seat
            tval += core.val[ci]
            if ci > best and lay.block[ci] in (led, _TRUMP_BLOCK):
                best, winner = ci | 1, seat  # the top label of its rank: its twin, played later, does not beat it
        togo = sum(1 for s, h in enumerate(pos.hands) if h and not played >> s & 1)
        return int(to_act), rem, pts, led, best, winner, tval, togo

    @staticmethod
    def play(core: _TableCore, state: tuple[int, int, int, int, int, int, int, int],
             ci: int) -> tuple[int, int, int, int, int, int, int]:
        seat, rem, pts, led, best, winner, tval, togo = state
        block = core.block[ci]
        if led < 0:
            led, best, winner = block, ci | 1, seat
        elif ci > best and block in (led, _TRUMP_BLOCK):
            best, winner = ci | 1, seat
        return rem ^ 1 << ci, pts - core.val[ci], led, best, winner, tval + core.val[ci], togo - 1

    def moves(self, core: _TableCore, state: tuple[int, int, int, int, int, int, int, int]) -> int:
        """The legal cards, one copy of each: a twin whose first-pack copy is legal too is left out."""
        moves = super().moves(core, state)
        return moves & ~((moves & _EVEN) << 1)


def _solver(position: Position, alone: Seat | int | None = None) -> _Solver:
    """The search for this table: the partnership game's, or one seat (the maker by default) against the
    others; with two decks the twins' search at every table."""
    seating = position.rules.seating
    if alone is not None:
        if seating.partnership:
            raise ValueError("alone is for a cut-throat table: at four players the sides are the partnerships")
        if not 0 <= int(alone) < seating.players:
            raise ValueError(f"alone must be a seat of the table, not {alone}")
    if position.rules.decks == 2:
        return _TwinSolver(position, None if alone is None else int(alone))
    if seating.partnership:
        return _Solver(position)
    return _CutThroatSolver(position, None if alone is None else int(alone))


def _root_value(moves: int, maxi: bool, child, a: int, b: int) -> int:
    """Alpha-beta over the root's moves (the cards of ``moves``, best first): ``child(card, a, b)`` values one."""
    vbest = -INF if maxi else INF
    for ci in _order(moves):
        v = child(ci, a, b)
        if maxi:
            if v > vbest:
                vbest = v
                a = max(a, v)
        elif v < vbest:
            vbest = v
            b = min(b, v)
        if a >= b:
            break
    return vbest


def _mtdf(search, guess: int) -> int:
    """The exact value by narrow-window searches (MTD(f) with parity).

    Every value a search returns has the parity of the points still to be captured, so a
    search in the window ``(g-1, g+1)`` either returns ``g`` exactly or a bound at least two
    away, which is the next guess.
    """
    lo, hi = -INF, INF
    g = guess
    while True:
        r = search(g - 1, g + 1)
        if r <= g - 1:
            hi = r
        elif r >= g + 1:
            lo = r
        else:
            return r
        if lo >= hi:
            return hi
        g = r


def _order(mask: int) -> list[int]:
    """Root move order: high labels (trumps, high cards) first."""
    out = []
    while mask:
        c = mask.bit_length() - 1
        out.append(c)
        mask ^= 1 << c
    return out


def _total_points(solver: _Solver) -> int:
    """Points the deal will award in all (decided ones plus those still to capture)."""
    pos = solver.pos
    if pos.bury_pending():
        return -1
    model = solver.model(0)
    live = pos.trick_buried
    for h in pos.hands:
        live |= h
    for _, c in pos.trick:
        live |= 1 << c
    return model.const[0] + model.const[1] + sum(model.val[c] for c in bits(live))


def solve(position: Position, *, card_values: bool = True, alone: Seat | int | None = None) -> SolveResult:
    """The par of ``position`` and, unless ``card_values=False``, the value of each legal card.

    At four players the value is NS points less EW points; at a cut-throat table the maker's
    points less the others' together, the others searched as one side (see :class:`SolveResult`).
    ``alone`` (cut-throat only) searches another seat alone against all the others instead: a
    defender's own points when every other player, the maker and the other defenders, plays
    against him (the value is his points less the others', ``points_after`` his and theirs).
    """
    pos = position
    to_act = pos.to_act
    makers = pos.makers
    if to_act is None:
        raise ValueError("the position has no player to act: the play is over")
    solver = _solver(pos, alone)
    if pos.bury_pending():
        value, total, per_card = solver.solve_bury(card_values, -INF, INF)
        values = {ALL_CARDS[c]: v for c, (v, _, _) in sorted(per_card.items())}
        buries = {ALL_CARDS[c]: CardSet(b) for c, (_, b, _) in sorted(per_card.items()) if b}
        totals = {ALL_CARDS[c]: tot for c, (_, _, tot) in per_card.items()}
    else:
        value, values = solver.solve_plain(card_values, -INF, INF)
        buries = {}
        total = _total_points(solver)
        totals = {c: total for c in values}
    points: tuple[int, ...] = ((total + value) // 2, (total - value) // 2)
    if isinstance(solver, _CutThroatSolver) and not pos.rules.seating.partnership:
        if pos.bury_pending():  # the line goes on from the best card and burial of trick 1
            pick = max if solver.maximises(to_act) else min
            card, (_, bury, _) = pick(per_card.items(), key=lambda item: item[1][0])
            points = solve(_after_card(pos, card, bury), card_values=False, alone=alone).points
        else:
            points = solver.line_points(value)
    return SolveResult(
        value=value, points=points, to_act=to_act, makers=makers, bid=pos.bid, card_values=values,
        buries=buries, nodes=solver.nodes(), rules=pos.rules, totals=totals, maximisers=solver.maximisers,
    )


def _after_card(pos: Position, card: int, bury: int) -> Position:
    """The position after the player to act plays ``card`` burying ``bury`` (trick 1), the
    trick gathered by its winner when it is complete."""
    seat = pos.to_act
    assert seat is not None
    seating = pos.rules.seating
    hands = list(pos.hands)
    hands[seat] &= ~(1 << card | bury)
    trick = pos.trick + ((int(seat), card),)
    buried = pos.trick_buried | bury
    in_play = pos.in_play | 1 << card
    played = 0
    for s, _ in trick:
        played |= 1 << s
    if any(h and not played >> s & 1 for s, h in enumerate(hands)):
        return replace(pos, hands=tuple(hands), trick=trick, trick_buried=buried, in_play=in_play)
    t = pos.rules.trump_tables[pos.trump]
    strength = t.strength[t.effective_suit[trick[0][1]]]
    winner = max(trick, key=lambda p: strength[p[1]])[0]
    captured = list(pos.captured)
    taken = buried
    low_holder = pos.low_holder
    low_twin = pos.low_twin
    two = PointTable.of(pos.rules, pos.trump)
    for s, c in trick:
        taken |= 1 << c
        if two.holder_low and c == two.two:
            low_holder = seating.side(s)
        elif two.holder_low and two.twins and c == two.twin_two:
            low_twin = seating.side_of[s]
    captured[seating.side_of[winner]] |= taken
    return replace(pos, hands=tuple(hands), leader=seating.seats[winner], trick=(), trick_buried=0,
                   tricks_done=pos.tricks_done + 1, captured=tuple(captured), in_play=in_play,
                   low_holder=low_holder, low_twin=low_twin)


def par(position: Position) -> int:
    """The par value only (final NS-EW points), without per-card values: the fastest query."""
    return window(position, -INF, INF)


def window(position: Position, alpha: int, beta: int) -> int:
    """Fail-soft alpha-beta value of the position (final NS-EW) in the window (alpha, beta).

    A result ``v`` with ``alpha < v < beta`` is exact; ``v <= alpha`` means the par is at
    most ``v``, ``v >= beta`` that it is at least ``v``.  Cut-throat: the maker's final points
    less the others' together.
    """
    solver = _solver(position)
    if position.to_act is None:
        raise ValueError("the position has no player to act: the play is over")
    if position.bury_pending():
        return solver.solve_bury(False, alpha, beta)[0]
    return solver.solve_plain(False, alpha, beta)[0]


def can_reach(position: Position, team: Team | int, points: int) -> bool:
    """Whether ``team`` can take at least ``points`` points in the deal against best defence.

    At a cut-throat table ``team`` is a seat: the maker against all the others, or for any
    other seat, whether the others together can keep that many points from the maker.
    """
    solver = _solver(position)
    cut_throat = isinstance(solver, _CutThroatSolver) and not position.rules.seating.partnership
    if isinstance(solver, _CutThroatSolver) and cut_throat:
        maximising = int(team) == solver.maker  # a defender's question is the coalition's
    else:
        team = Team(team)
        maximising = team is Team.NS
    if position.bury_pending():
        # totals may depend on burials: fall back to the exact value of every line
        res = solve(position, card_values=False)
        if not isinstance(solver, _CutThroatSolver) or not cut_throat:
            return res.points[team] >= points
        total = sum(res.points)
        mine = res.points[solver.maker]
        return (mine if maximising else total - mine) >= points
    total = _total_points(solver)
    # points[team] >= P  <=>  (total + s*v)/2 >= P  <=>  s*v >= 2P - total, s = +1 for NS (the maker cut-throat)
    need = 2 * points - total
    if maximising:
        return window(position, need - 1, need) >= need
    return window(position, -need, -need + 1) <= -need


def makers_can_make(position: Position, bid: int | None = None) -> bool:
    """Whether the makers reach ``bid`` (by default the position's bid) against best defence."""
    b = position.bid if bid is None else bid
    if b is None:
        raise ValueError("no bid given")
    return can_reach(position, position.makers, b)


def best_cards(position: Position) -> list[Card]:
    """The legal cards of the player to act that keep the par."""
    return solve(position).best_cards
