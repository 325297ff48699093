"""One deal of Cinch as a state machine: bidding, trump, discard and draw, the rob, the tricks.

At every step ``to_act`` says whose turn it is, ``legal_actions()`` what they
may do, and ``apply(action)`` does it; anything else raises
:class:`~cinch.errors.IllegalAction` naming the rule.  Chance is explicit: the
deck order is given (or shuffled from a seed), and so is the order of a new
stock made from the discards when the old one runs out.

>>> from cinch import Rules, Seat, parse_action
>>> deal = Deal(Rules.preset("pagat"), Seat.W, EXAMPLE_DECK)
>>> deal.to_act, [str(a) for a in deal.legal_actions()][:3]
(Seat.N, ['pass', 'bid 7', 'bid 8'])
>>> for text in ["bid 7", "pass", "pass", "pass", "trump H"]:
...     deal.apply(parse_action(text))
>>> deal.phase, deal.legal_actions().describe()
(Phase.ROB, 'keep 6 of 5S 7H 5H 4H 3H 2H AD KD QD TD, including 7H 5H 4H 3H 2H')
>>> deal.apply(parse_action("keep 5H 2H 3H 7H 4H AD"))
>>> deal.to_act, str(deal.hand(Seat.N))
(Seat.N, 'AH KH QH 2D KC 9C')
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any, NamedTuple

from cinch.actions import BIDS, PASS, PLAYS, TRUMPS, Action, Bid, Call, Keep, NameTrump, Pass, Play, parse_action
from cinch.cards import (
    CARDS,
    SEATS,
    SUITS,
    TEAMS,
    TRUMP_TABLES,
    Card,
    CardSet,
    FollowRule,
    Seat,
    Suit,
    Team,
    TrumpTables,
    bits,
    mask_of,
)
from cinch.constants import BATCH, DEAL_BATCHES, DEALT, DECK, HAND, PLAYERS
from cinch.errors import IllegalAction, NotationError
from cinch.keep import KeepOptions
from cinch.rules import AboveSix, AllPass, Bidding, Discard, Follow, Rob, Rules, StockOut
from cinch.scoring import Award, PointTable, settle, totals
from cinch.view import Phase, PlayedCard, SeatView, Trick

EXAMPLE_DECK = (
    "AH KH QH 5D JH TH 6H 9H 8H 5H 2H 3H 7S 8S 9S 2S 3S 4S TS JS QS KS AS 6S 7D 8D 9D 2C 3C 4C TC JC QC 6D "
    "7C 8C KC 9C 2D AC 6C 3D 5C 4D JD 7H 4H 5S AD KD QD TD"
)


class DealResult(NamedTuple):
    """How a deal ended: the points each side took and what the settlement adds."""

    thrown_in: bool
    maker: Seat | None
    bid: int | None
    trump: Suit | None
    awards: tuple[Award, ...]
    points: tuple[int, int] | None  # NS, EW, by the preset's counting
    made: bool | None
    score_change: tuple[int, int]

    @property
    def makers(self) -> Team | None:
        return None if self.maker is None else self.maker.team

    def describe(self) -> str:
        """The settlement in words: ``EW bid 9, took 7: set, lose 9; NS add 7``."""
        if self.thrown_in:
            return "All passed: the deal is thrown in, no score."
        makers = self.makers
        assert makers is not None and self.points is not None
        took = self.points[makers]
        head = f"{makers} bid {self.bid}, took {took}: " + ("made" if self.made else "set")
        parts = []
        for team in (makers, makers.other):
            change = self.score_change[team]
            if change > 0:
                parts.append(f"{team} add {change}")
            elif change < 0:
                parts.append(f"{team} lose {-change}")
        return head + ("; " + "; ".join(parts) if parts else "; no score")


def parse_deck(deck: str | Iterable[int | str]) -> tuple[Card, ...]:
    """A 52-card order: a space-separated string, or cards or card texts."""
    items = deck.split() if isinstance(deck, str) else list(deck)
    cards = [c if type(c) is Card else CARDS[c] if isinstance(c, int) else Card.parse(c) for c in items]
    if len(cards) != DECK:
        raise NotationError(f"a deck holds {DECK} cards, this one {len(cards)}")
    seen = 0
    for c in cards:
        if seen >> c & 1:
            raise NotationError(f"the deck holds {c} twice")
        seen |= 1 << c
    return tuple(cards)


class _Shuffled(list[Card]):
    """A deck known to hold each card once (from a shuffle), so it needs no checking."""


class Deal:
    """One deal, from the first bid to the settlement."""

    def __init__(
        self,
        rules: Rules,
        dealer: Seat,
        deck: str | Iterable[int | str],
        *,
        restock: Iterable[int | str] | None = None,
        rng: random.Random | None = None,
    ):
        self.rules = rules
        self.dealer = SEATS[dealer]
        self.deck = tuple(deck) if type(deck) is _Shuffled else parse_deck(deck)
        self._restock_given = None if restock is None else tuple(
            c if isinstance(c, int) else Card.parse(c) for c in restock
        )
        self._rng = rng
        self.restock: tuple[Card, ...] | None = None  # the new stock actually used, top first
        hands = [0, 0, 0, 0]
        deck = self.deck
        first = self.dealer + 1
        for batch in range(DEAL_BATCHES):  # batches of three, from the dealer's left
            i = BATCH * batch
            hands[(first + batch) & 3] |= _BIT[deck[i]] | _BIT[deck[i + 1]] | _BIT[deck[i + 2]]
        self.hands = hands
        self._dealt = tuple(hands)
        self._stock = list(self.deck[PLAYERS * DEALT:])
        self._stock_pos = 0
        self.history: list[Action] = []
        self.actors: list[Seat] = []
        self.auction: list[tuple[Seat, Call]] = []
        self.high_bid = 0
        self.maker: Seat | None = None
        self._passed = 0  # bit per seat
        self._turns = 0
        self.trump: Suit | None = None
        self._t: TrumpTables | None = None
        self._scheme: PointTable | None = None
        self.discards = [0, 0, 0, 0]
        self.shown = [0, 0, 0, 0]
        self.drawn = [0, 0, 0, 0]
        self.draw_counts = [0, 0, 0, 0]
        self._pending: list[Seat] = []
        self._options: KeepOptions | None = None  # the keep decision now pending
        self.stock_seen = 0
        self.stock_left = 0
        self.leader: Seat | None = None
        self.trick: list[PlayedCard] = []
        self.tricks: list[Trick] = []
        self.captured = [0, 0]
        self.in_play = 0
        self.low_holder: Team | None = None
        self._led_strength: tuple[int, ...] = ()
        self._led = -1
        self._best = -1
        self._winner = 0
        self._trick_size = 4
        self._watch_two = -1
        self._stuck_rule = rules.all_pass is AllPass.STUCK_DEALER
        self._strict = rules.follow is Follow.STRICT
        self._burying = False  # trick 1 with a hand above six (buried-excess rule)
        self._mask = 0  # in the play: the cards the player to act may play
        self._rule = _NO_RULE  # the follow rule of the trick in progress
        self._taken = 0  # cards in the trick in progress, buried ones included
        self.result: DealResult | None = None
        self.phase = Phase.BIDDING
        self.to_act: Seat | None = self.dealer.left

    @classmethod
    def from_actions(
        cls,
        rules: Rules,
        dealer: Seat,
        deck: str | Iterable[int | str],
        actions: Iterable[Action | str] = (),
        *,
        restock: str | Iterable[int | str] | None = None,
    ) -> Deal:
        """A deal from its deck, played through ``actions`` (record notation or actions), as a record's deal.

        >>> deal = Deal.from_actions(Rules.preset("pagat"), Seat.W, EXAMPLE_DECK, ["bid 7", "pass"])
        >>> deal.to_act, deal.high_bid
        (Seat.S, 7)
        >>> eval(repr(deal)).history == deal.history
        True
        """
        if isinstance(restock, str):
            restock = restock.split()
        deal = cls(rules, dealer, deck, restock=restock)
        for action in actions:
            deal.apply(parse_action(action) if isinstance(action, str) else action)
        return deal

    def __repr__(self) -> str:
        """Python that rebuilds this deal at this point: ``Deal.from_actions(Rules.preset('pagat'), ...)``."""
        args = [repr(self.rules), repr(self.dealer), repr(" ".join(map(str, self.deck))),
                repr([str(a) for a in self.history])]
        if self.restock is not None:
            args.append(f"restock={' '.join(map(str, self.restock))!r}")
        return f"Deal.from_actions({', '.join(args)})"

    @property
    def dealt(self) -> tuple[CardSet, CardSet, CardSet, CardSet]:
        """The nine cards each seat was dealt."""
        return tuple(CardSet(h) for h in self._dealt)  # type: ignore[return-value]

    @classmethod
    def shuffled(cls, rules: Rules, dealer: Seat, rng: random.Random | int | None = None) -> Deal:
        """A deal from a shuffled deck; ``rng`` (or its seed) also shuffles any new stock."""
        if not isinstance(rng, random.Random):
            rng = random.Random(rng)
        deck = list(CARDS)
        rng.shuffle(deck)
        return cls(rules, dealer, _Shuffled(deck), rng=rng)

    def copy(self) -> Deal:
        """An independent copy, cheap enough for search (lists are copied, values shared)."""
        new = object.__new__(Deal)
        d = self.__dict__.copy()
        for key in ("hands", "history", "actors", "auction", "discards", "shown", "drawn", "draw_counts",
                    "_pending", "trick", "tricks", "captured", "_stock"):
            d[key] = list(d[key])
        if d["_rng"] is not None and d["phase"] is not _PLAY:
            # A new stock may still be shuffled: each copy gets its own generator, in the same state.
            rng = random.Random()
            rng.setstate(d["_rng"].getstate())
            d["_rng"] = rng
        new.__dict__ = d
        return new

    # ---- public queries ---------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.phase is Phase.DONE

    @property
    def tables(self) -> TrumpTables | None:
        return self._t

    @property
    def point_table(self) -> PointTable | None:
        return self._scheme

    @property
    def stock(self) -> CardSet:
        """The undealt cards still in the stock (concealed at the table)."""
        if self.phase in (Phase.PLAY, Phase.DONE) and self.trump is not None and not self.rules.no_draw:
            return CardSet(self.stock_left)
        m = 0
        for c in self._stock[self._stock_pos:]:
            m |= 1 << c
        return CardSet(m)

    def hand(self, seat: Seat) -> CardSet:
        return CardSet(self.hands[seat])

    def legal_actions(self) -> Sequence[Action]:
        """What the player to act may do (a lazy sequence for keeps, a list otherwise)."""
        phase = self.phase
        if phase is _PLAY:
            if not self._burying:
                m = self._mask
                return _PLAY_TUPLES.get(m) or _plays_of(m)
            return self._legal_plays()
        if phase is Phase.BIDDING:
            return self._legal_bids()
        if phase is Phase.TRUMP:
            return TRUMPS
        if phase is Phase.DISCARD or phase is Phase.ROB:
            assert self._options is not None
            return self._options
        return []

    def is_legal(self, action: Action) -> bool:
        try:
            self._check(action)
        except IllegalAction:
            return False
        return True

    # ---- applying actions ---------------------------------------------------
    def apply(self, action: Action, seat: Seat | None = None) -> None:
        """Apply one action of the player to act; ``seat``, if given, must be that player."""
        actor = self.to_act
        if seat is not None and seat != actor:
            who = "nobody" if actor is None else str(actor)
            raise IllegalAction(action, f"it is {who}'s turn, not {Seat(seat)}'s", self._legal_strings(),
                                legal_summary=self._legal_summary())
        phase = self.phase
        if phase is _PLAY and type(action) is Play and actor is not None:
            card = action.card
            bury = action.bury
            if bury or self._burying or not self._mask >> card & 1:
                self._check_play(action)  # explains the refusal, or checks what is buried
            self.history.append(action)
            self.actors.append(actor)
            self._play(actor, card, bury)
            return
        if phase is Phase.BIDDING and (type(action) is Bid or type(action) is Pass) and actor is not None:
            self._check_bid(action)
            self.history.append(action)
            self.actors.append(actor)
            self._bid(actor, action)
            return
        self._check(action)  # refuses an action of another kind than the phase asks for
        assert actor is not None
        self.history.append(action)
        self.actors.append(actor)
        if isinstance(action, NameTrump):
            self._name_trump(action.suit)
        elif isinstance(action, Keep) and phase is Phase.DISCARD:
            self._pending.pop(0)
            self._keep(actor, int(action.cards))
            self._next_discard()
        elif isinstance(action, Keep):
            self._options = None
            self._rob(int(action.cards))
            self._start_play()

    def apply_restock(self, order: Iterable[int | str]) -> None:
        """Resolve the chance event of a new stock: its order, top first."""
        if self.phase is not Phase.RESTOCK:
            raise IllegalAction("restock", "no new stock is being formed now")
        self._set_restock(tuple(c if isinstance(c, int) else Card.parse(c) for c in order))
        self._finish_refill()

    @property
    def restock_pool(self) -> CardSet:
        """The cards that form a new stock: every non-trump discard."""
        assert self._t is not None
        m = 0
        for d in self.discards:
            m |= d
        return CardSet(m & ~self._t.trumps)

    # ---- checking -------------------------------------------------------------
    def _illegal(self, action: Action, rule: str) -> IllegalAction:
        return IllegalAction(action, rule, self._legal_strings(), legal_summary=self._legal_summary())

    def _legal_strings(self) -> list[str]:
        legal = self.legal_actions()
        if isinstance(legal, KeepOptions) and len(legal) > 64:
            return []
        return [str(a) for a in legal]

    def _legal_summary(self) -> str:
        legal = self.legal_actions()
        if isinstance(legal, KeepOptions) and len(legal) > 24:
            return legal.describe()
        return ""

    def _check(self, action: Action) -> None:
        phase = self.phase
        if phase is Phase.DONE:
            raise IllegalAction(action, "the deal is over", ())
        if phase is Phase.RESTOCK:
            raise IllegalAction(action, "the stock ran out: a new stock must be formed first", ())
        if not isinstance(action, _EXPECTED[phase]):
            raise self._illegal(action, _PHASE_DUTY[phase].format(seat=self.to_act))
        if isinstance(action, Play):
            self._check_play(action)
        elif phase is Phase.BIDDING:
            self._check_bid(action)
        elif isinstance(action, Keep):
            options = self.legal_actions()
            assert isinstance(options, KeepOptions)
            why = options.violation(int(action.cards))
            if why:
                raise self._illegal(action, why)

    # ---- bidding --------------------------------------------------------------
    def _stuck(self) -> bool:
        return self._stuck_rule and dealer_is_stuck(self.rules, self.dealer, self.to_act, self.high_bid, self._passed)

    def _legal_bids(self) -> Sequence[Action]:
        return legal_bids(self.rules, self.dealer, self.to_act, self.high_bid, self._passed)

    def _check_bid(self, action: Action) -> None:
        rules = self.rules
        stuck = self._stuck()
        if not isinstance(action, Bid):
            if stuck:
                raise self._illegal(
                    action, f"the first three passed, so the dealer is stuck and must bid {rules.min_bid}"
                )
            return
        amount = action.amount
        if stuck and amount != rules.min_bid:
            raise self._illegal(action, f"a stuck dealer must bid {rules.min_bid}")
        if not rules.min_bid <= amount <= rules.highest_bid:
            raise self._illegal(action, f"bids run from {rules.min_bid} to {rules.highest_bid} under {rules.name}")
        if amount <= self.high_bid:
            raise self._illegal(action, f"each bid must beat the one before ({self.maker} bid {self.high_bid})")

    def _bid(self, seat: Seat, action: Call) -> None:
        self.auction.append((seat, action))
        if isinstance(action, Bid):
            self.high_bid = action.amount
            self.maker = seat
        else:
            self._passed |= 1 << seat
        self._turns += 1
        if self.rules.bidding is Bidding.ONE_CIRCUIT:
            if self._turns < 4:
                self.to_act = SEATS[(seat + 1) & 3]
                return
        else:
            passed = self._passed.bit_count()
            if passed < 4 and not (self.maker is not None and passed == 3):
                nxt = seat.left
                while self._passed >> nxt & 1:
                    nxt = nxt.left
                self.to_act = nxt
                return
        self._end_bidding()

    def _end_bidding(self) -> None:
        if self.maker is None:
            self.phase = Phase.DONE
            self.to_act = None
            self.result = DealResult(True, None, None, None, (), None, None, (0, 0))
            return
        self.phase = Phase.TRUMP
        self.to_act = self.maker

    def _name_trump(self, suit: Suit) -> None:
        self.trump = SUITS[suit]
        self._t = TRUMP_TABLES[suit]
        self._scheme = PointTable.of(self.rules, self.trump)
        self._watch_two = self._scheme.two if self._scheme.holder_low else -1
        if self.rules.no_draw:
            self._start_play()
        else:
            self._start_discard()

    # ---- discard, refill, rob ---------------------------------------------------
    def _discard_options(self, seat: Seat) -> KeepOptions:
        assert self._t is not None
        hand = self.hands[seat]
        trumps = self._t.trumps
        held = hand & trumps
        n = held.bit_count()
        if n > HAND and self.rules.above_six is AboveSix.KEEP_SIX:
            return KeepOptions(held, 0, trumps, HAND, HAND, rules_text=_KEEP_SIX_TEXT)
        if self.rules.discard is Discard.CHOOSE_CONCEALED and n <= HAND:
            return KeepOptions(hand, held, trumps, n, HAND, rules_text=_CHOOSE_TEXT)
        return KeepOptions(held, held, trumps, n, n, rules_text=_FORCED_TEXT)

    def _start_discard(self) -> None:
        order = _TURNS[self.dealer] if self.rules.dealer_discards else _TURNS[self.dealer][:3]
        pending = []
        trumps = self._t.trumps  # type: ignore[union-attr]
        for seat in order:
            held = self.hands[seat] & trumps
            if discard_is_forced(self.rules, held.bit_count()):
                self._keep(seat, held)  # every non-trump goes: no choice to make
            else:
                pending.append(seat)
        self._pending = pending
        self._next_discard()

    def _next_discard(self) -> None:
        if self._pending:
            self.phase = Phase.DISCARD
            self.to_act = self._pending[0]
            self._options = self._discard_options(self._pending[0])
        else:
            self._options = None
            self._refill()

    def _keep(self, seat: Seat, kept: int) -> None:
        assert self._t is not None
        thrown = self.hands[seat] & ~kept
        self.hands[seat] = kept
        self.discards[seat] |= thrown
        self.shown[seat] |= thrown & self._t.trumps

    def _needs(self) -> list[tuple[Seat, int]]:
        """Cards each player is short of six, in turn from the dealer's left, dealer last.

        The dealer fills his hand by robbing what the stock has left, so his need
        counts when deciding whether the stock runs out.
        """
        hands = self.hands
        needs = []
        for s in _TURNS[self.dealer]:
            n = HAND - hands[s].bit_count()
            needs.append((s, n if n > 0 else 0))
        return needs

    def _refill(self) -> None:
        needs = self._needs()
        short = needs[0][1] + needs[1][1] + needs[2][1] + needs[3][1] > len(self._stock) - self._stock_pos
        if short and self.rules.stock_out is StockOut.RESHUFFLE:
            if self._restock_given is not None:
                self._set_restock(self._restock_given)
            elif self._rng is not None:
                order = list(self.restock_pool)
                self._rng.shuffle(order)
                self._set_restock(tuple(order))
            else:
                self.phase = Phase.RESTOCK
                self.to_act = None
                return
        self._finish_refill(needs)

    def _set_restock(self, order: tuple[int, ...]) -> None:
        pool = int(self.restock_pool)
        given = 0
        for c in order:
            given |= 1 << c
        if len(order) != pool.bit_count() or given != pool:
            raise IllegalAction(
                "restock " + " ".join(str(CARDS[c]) for c in order),
                "the new stock is made of exactly the non-trump discards",
                legal_summary=f"an order of {CardSet(pool)}",
            )
        self.restock = tuple(CARDS[c] for c in order)
        self._stock = self._stock[self._stock_pos:] + list(self.restock)
        self._stock_pos = 0
        # The discards are the new stock now: they leave the discard piles (and the face-up views).
        self.discards = [d & ~pool for d in self.discards]

    def _draw(self, seat: Seat, count: int) -> None:
        """``seat`` takes ``count`` cards from the top of the stock."""
        pos = self._stock_pos
        taken = 0
        for card in self._stock[pos:pos + count]:
            taken |= _BIT[card]
        self._stock_pos = pos + count
        self.hands[seat] |= taken
        self.drawn[seat] |= taken
        self.draw_counts[seat] += count

    def _finish_refill(self, needs: list[tuple[Seat, int]] | None = None) -> None:
        if needs is None:
            needs = self._needs()
        left = len(self._stock) - self._stock_pos
        if needs[0][1] + needs[1][1] + needs[2][1] + needs[3][1] <= left:
            for seat, n in needs[:3]:
                self._draw(seat, n)  # the dealer takes his from the stock when he robs
        else:  # share what is left one card at a time, in turn, to those still short (002)
            short = [n for _, n in needs]
            while left:
                for i, (seat, _) in enumerate(needs):
                    if short[i] and left:
                        self._draw(seat, 1)
                        short[i] -= 1
                        left -= 1
        seen = 0
        for card in self._stock[self._stock_pos:]:
            seen |= _BIT[card]
        self.stock_seen = seen
        options = self._rob_options()
        forced = options.forced
        if forced is not None:
            self._rob(int(forced.cards))
            self._start_play()
        else:
            self.phase = Phase.ROB
            self.to_act = self.dealer
            self._options = options

    def _rob_options(self) -> KeepOptions:
        assert self._t is not None
        trumps = self._t.trumps
        hand = self.hands[self.dealer]
        pool = hand | self.stock_seen
        held = pool & trumps
        n = held.bit_count()
        size = min(HAND, pool.bit_count())
        rob = self.rules.rob
        if rob is Rob.ALL_TRUMPS:
            if self.rules.above_six is AboveSix.BURIED:
                k = min(pool.bit_count(), max(HAND, n))
                return KeepOptions(pool, held, trumps, k, k, rules_text=_ALL_TRUMPS_TEXT)
            if n > HAND:
                return KeepOptions(held, 0, trumps, HAND, HAND, rules_text=_KEEP_SIX_TEXT)
            return KeepOptions(pool, held, trumps, size, size, rules_text=_ALL_TRUMPS_TEXT)
        if rob is Rob.TRUMPS_FIRST:
            return KeepOptions(pool, 0, trumps, size, size, min(size, n), rules_text=_TRUMPS_FIRST_TEXT)
        return KeepOptions(pool, 0, trumps, size, size, rules_text=_ANY_SIX_TEXT)

    def _rob(self, kept: int) -> None:
        assert self._t is not None
        dealer = self.dealer
        hand = self.hands[dealer]
        thrown = hand & ~kept
        taken = kept & ~hand
        self.hands[dealer] = kept
        self.discards[dealer] |= thrown
        self.shown[dealer] |= thrown & self._t.trumps
        self.drawn[dealer] |= taken
        self.draw_counts[dealer] += taken.bit_count()
        self.stock_left = self.stock_seen & ~kept

    # ---- the play ----------------------------------------------------------------
    def _start_play(self) -> None:
        self.phase = Phase.PLAY
        assert self.maker is not None
        limit = self.rules.tricks
        hands = self.hands
        self._burying = (hands[0].bit_count() > limit or hands[1].bit_count() > limit
                         or hands[2].bit_count() > limit or hands[3].bit_count() > limit)
        self._start_trick(self.maker)

    def _start_trick(self, leader: Seat) -> None:
        hands = self.hands
        while not hands[leader]:
            leader = SEATS[(leader + 1) & 3]
        self.leader = self.to_act = leader
        self._mask = hands[leader]  # the leader may lead anything
        self.trick = []
        if hands[0] and hands[1] and hands[2] and hands[3]:
            self._trick_size = 4
        else:
            self._trick_size = (hands[0] > 0) + (hands[1] > 0) + (hands[2] > 0) + (hands[3] > 0)

    def _excess(self, seat: Seat) -> int:
        """Cards to bury with this play: a hand above six on trick 1 (buried-excess rule)."""
        return self.hands[seat].bit_count() - (self.rules.tricks - len(self.tricks))

    def legal_play_mask(self) -> int:
        """The cards the player to act may play, as a mask (the fast path for search)."""
        return self._mask

    def _bury_options(self, seat: Seat, card: int, excess: int) -> list[int]:
        assert self._scheme is not None
        return bury_options(self.hands[seat], card, excess, self._scheme.point_mask, self._mask)

    def _legal_plays(self) -> Sequence[Action]:
        seat = self.to_act
        assert seat is not None
        mask = self.legal_play_mask()
        excess = self._excess(seat) if self._burying else 0
        if excess <= 0:
            return _PLAY_TUPLES.get(mask) or _plays_of(mask)
        return [Play(CARDS[c], CardSet(b)) for c in bits(mask) for b in self._bury_options(seat, c, excess)]

    def _check_play(self, action: Play) -> None:
        seat = self.to_act
        t = self._t
        assert seat is not None and t is not None
        card = action.card
        hand = self.hands[seat]
        if not hand >> card & 1:
            raise self._illegal(action, f"{seat} does not hold {card}")
        if not self.legal_play_mask() >> card & 1:
            led = CARDS[self.trick[0].card]
            if self._led == t.suit:
                rule = f"a trump was led ({led}) and {seat} holds trumps, so must play a trump"
            elif self.rules.follow is Follow.STRICT:
                suit = Suit(self._led).name.lower()
                rule = f"{led} was led and {seat} holds {suit}: under strict following {seat} must follow suit"
            else:  # all-fours: trumping is always allowed, so the fault is a card of a third suit
                suit = Suit(self._led).name.lower()
                rule = f"{led} was led and {seat} holds {suit}, so must follow suit or play a trump"
            raise self._illegal(action, rule)
        excess = self._excess(seat) if not self.tricks else 0
        bury = int(action.bury)
        if excess <= 0:
            if bury:
                raise self._illegal(action, "cards are buried only on trick 1, by a player holding more than six")
            return
        if bury.bit_count() != excess:
            raise self._illegal(
                action, f"{seat} holds {hand.bit_count()} cards and must bury {excess} under the first card played"
            )
        if bury & ~hand:
            raise self._illegal(action, f"{seat} does not hold {CardSet(bury & ~hand)}")
        if bury not in self._bury_options(seat, card, excess):
            assert self._scheme is not None
            points = CardSet(bury & self._scheme.point_mask)
            raise self._illegal(action, f"burying a point card ({points}) is forbidden")

    def _play(self, seat: Seat, card: Card, bury: CardSet) -> None:
        """Play a checked card (the hot path of every search: keep it lean)."""
        hands = self.hands
        bit = _BIT[card]
        gone = bit | int(bury) if bury else bit
        hands[seat] &= ~gone
        trick = self.trick
        if trick:
            s = self._led_strength[card]
            if s > self._best:
                self._best = s
                self._winner = seat
        else:
            t = self._t
            assert t is not None
            led = t.effective_suit[card]
            self._led = led
            self._led_strength = strength = t.strength[led]
            self._best = strength[card]
            self._winner = seat
            self._rule = t.follow_rules[self._strict][led]
        trick.append(_played(PlayedCard, (seat, card, bury)))
        self._taken |= gone
        self.in_play |= bit
        if card == self._watch_two:
            self.low_holder = TEAMS[seat & 1]  # Low to holder (000): whoever plays the 2 held it
        if len(trick) < self._trick_size:
            nxt = (seat + 1) & 3
            while not hands[nxt]:
                nxt = (nxt + 1) & 3
            self.to_act = SEATS[nxt]
            self._mask = self._rule.playable(hands[nxt])
        else:
            self._end_trick()

    def _end_trick(self) -> None:
        winner = SEATS[self._winner]
        self.captured[winner & 1] |= self._taken
        self._taken = 0
        self.tricks.append(_played(Trick, (self.leader, tuple(self.trick), winner)))
        self._burying = False
        hands = self.hands
        if hands[0] | hands[1] | hands[2] | hands[3]:
            self._start_trick(winner)
        else:
            self.trick = []
            self._finish()

    def random_playout(self, rng: random.Random) -> tuple[int, int]:
        """Points (NS, EW) after the rest of the play with uniformly random legal cards.

        The search bots' fast path: the deal itself is left unchanged.
        """
        if self.phase is not Phase.PLAY:
            raise ValueError("a playout starts in the play phase")
        if self._burying:
            return self._slow_playout(rng)  # trick 1 with cards to bury
        t = self._t
        scheme = self._scheme
        assert t is not None and scheme is not None and self.to_act is not None
        hands = self.hands[:]
        strengths, effective, follow_rules = t.strength, t.effective_suit, t.follow_rules[self._strict]
        follow, allowed = self._rule
        watch_two = self._watch_two
        low_holder: int | None = self.low_holder
        captured = [self.captured[0], self.captured[1]]
        in_play = self.in_play
        random = rng.random
        seat = int(self.to_act)
        count = len(self.trick)
        size = self._trick_size
        led, best, winner = self._led, self._best, self._winner
        strength = self._led_strength
        taken = 0
        for p in self.trick:
            taken |= 1 << p.card | p.buried
        while True:
            hand = hands[seat]
            # FollowRule.playable(), written out on the search bots' hot path:
            legal = hand & allowed if count and hand & follow else hand
            k = int(random() * legal.bit_count())
            while k:
                legal &= legal - 1
                k -= 1
            bit = legal & -legal
            card = bit.bit_length() - 1
            hands[seat] = hand ^ bit
            taken |= bit
            in_play |= bit
            if card == watch_two:
                low_holder = seat & 1
            if count:
                s = strength[card]
                if s > best:
                    best, winner = s, seat
            else:
                led = effective[card]
                strength = strengths[led]
                best, winner = strength[card], seat
                follow, allowed = follow_rules[led]
            count += 1
            if count == size:
                captured[winner & 1] |= taken
                if not (hands[0] | hands[1] | hands[2] | hands[3]):
                    break
                taken = count = 0
                size = (hands[0] > 0) + (hands[1] > 0) + (hands[2] > 0) + (hands[3] > 0)
                seat = winner
            else:
                seat = (seat + 1) & 3
            while not hands[seat]:
                seat = (seat + 1) & 3
        return self._points(captured[0], captured[1], in_play, low_holder)

    def _slow_playout(self, rng: random.Random) -> tuple[int, int]:
        deal = self.copy()
        while deal.phase is Phase.PLAY:
            deal.apply(rng.choice(deal.legal_actions()))
        assert deal.result is not None and deal.result.points is not None
        return deal.result.points

    def _points(self, ns: int, ew: int, in_play: int, low_holder: int | None) -> tuple[int, int]:
        assert self._scheme is not None and self.maker is not None
        makers = self.maker & 1
        thrown = self.shown[1 - makers] | self.shown[3 - makers]
        return self._scheme.totals(ns, ew, in_play, low_holder, thrown, makers)

    def _finish(self) -> None:
        assert self._scheme is not None and self.maker is not None
        makers = self.maker.team
        thrown = self.shown[makers.other] | self.shown[makers.other + 2]
        awards = self._scheme.awards(
            (self.captured[0], self.captured[1]), self.in_play, self.low_holder, thrown, makers
        )
        points = totals(awards)
        made, change = settle(self.rules, makers, self.high_bid, points)
        self.result = DealResult(False, self.maker, self.high_bid, self.trump, tuple(awards), points, made, change)
        self.phase = Phase.DONE
        self.to_act = None

    # ---- views -------------------------------------------------------------
    def view(self, seat: Seat, **match_context: Any) -> SeatView:
        """What ``seat`` may know now; ``match_context`` adds score, target and the like."""
        seat = Seat(seat)
        face_up = self.rules.discard is Discard.ALL_FACE_UP
        empty = CardSet(0)
        legal: Sequence[Action] = self.legal_actions() if self.to_act == seat else ()
        is_dealer = seat == self.dealer
        return SeatView(
            seat=seat,
            rules=self.rules,
            dealer=self.dealer,
            phase=self.phase,
            to_act=self.to_act,
            hand=CardSet(self.hands[seat]),
            hand_sizes=tuple(h.bit_count() for h in self.hands),  # type: ignore[arg-type]
            auction=tuple(self.auction),
            maker=self.maker if self.phase is not Phase.BIDDING else None,
            bid=self.high_bid if self.maker is not None and self.phase is not Phase.BIDDING else None,
            trump=self.trump,
            own_discards=CardSet(self.discards[seat]),
            face_up_discards=tuple(  # type: ignore[arg-type]
                CardSet(self.discards[s] & ~self.shown[s]) if face_up else empty for s in range(4)
            ),
            shown_trumps=tuple(CardSet(m) for m in self.shown),  # type: ignore[arg-type]
            drawn_counts=tuple(self.draw_counts),  # type: ignore[arg-type]
            own_drawn=CardSet(self.drawn[seat]),
            stock_seen=CardSet(self.stock_seen & ~self.hands[seat]) if is_dealer else empty,
            tricks=tuple(self.tricks),
            trick_leader=self.leader if self.phase is Phase.PLAY else None,
            current_trick=tuple(self.trick),
            legal=legal,
            **match_context,
        )


def dealer_is_stuck(rules: Rules, dealer: int, seat: int | None, high_bid: int, passed: int) -> bool:
    """The first three passed (``passed``: a bit per seat) and the rules leave the dealer stuck
    with the minimum bid (000)."""
    return (rules.all_pass is AllPass.STUCK_DEALER and high_bid == 0 and seat == dealer
            and passed == 15 & ~(1 << dealer))


def legal_bids(rules: Rules, dealer: int, seat: int | None, high_bid: int, passed: int) -> tuple[Action, ...]:
    """The bidding actions open to ``seat`` when the high bid is ``high_bid`` (0: none yet)."""
    if dealer_is_stuck(rules, dealer, seat, high_bid, passed):
        return (BIDS[rules.min_bid],)
    key = (max(rules.min_bid, high_bid + 1), rules.highest_bid)
    bids = _BID_TUPLES.get(key)
    if bids is None:
        bids = _BID_TUPLES[key] = (PASS, *(BIDS[n] for n in range(key[0], key[1] + 1)))
    return bids


def discard_is_forced(rules: Rules, trumps_held: int) -> bool:
    """Whether a player holding ``trumps_held`` trumps has no choice at the discard: he throws
    every non-trump and keeps every trump.
    """
    free = rules.discard is not Discard.CHOOSE_CONCEALED  # all non-trumps go
    buried = rules.above_six is AboveSix.BURIED  # above six, all trumps stay
    return (trumps_held <= HAND or buried) and (free or trumps_held >= HAND)


def bury_options(hand: int, card: int, excess: int, point_mask: int, playable_mask: int) -> list[int]:
    """The sets of ``excess`` cards a hand may bury under ``card`` on trick 1 (000's buried excess).

    Burying a point card is forbidden: only a hand short of other cards buries the fewest it
    can, so a plain competing card that would push one more point card under is not allowed.
    """
    rest = hand & ~(1 << card)
    plain = rest & ~point_mask
    short = excess - plain.bit_count()
    if short <= 0:
        return [mask_of(combo) for combo in combinations(bits(plain), excess)]
    others = hand & ~point_mask
    fewest = min(max(0, excess - (others & ~(1 << c)).bit_count()) for c in bits(playable_mask))
    if short > fewest:
        return []
    return [plain | mask_of(combo) for combo in combinations(bits(rest & ~plain), short)]


_NO_CARDS = CardSet(0)
_NO_RULE = FollowRule(0, 0)
_PLAY = Phase.PLAY
_TURNS = tuple(tuple(SEATS[(d + i) & 3] for i in (1, 2, 3, 4)) for d in range(4))  # from the dealer's left
_BIT = tuple(1 << c for c in range(DECK))
_played = tuple.__new__  # PlayedCard without the NamedTuple constructor's overhead
_PLAY_TUPLES: dict[int, tuple[Play, ...]] = {}
_BID_TUPLES: dict[tuple[int, int], tuple[Action, ...]] = {}


def _plays_of(mask: int) -> tuple[Play, ...]:
    """The plays of the cards in ``mask``, cached: hands recur across deals and searches."""
    if len(_PLAY_TUPLES) > 1 << 17:
        _PLAY_TUPLES.clear()
    out = []
    m = mask
    while m:
        low = m & -m
        out.append(PLAYS[low.bit_length() - 1])
        m ^= low
    plays = _PLAY_TUPLES[mask] = tuple(out)
    return plays


_EXPECTED = {Phase.BIDDING: (Pass, Bid), Phase.TRUMP: (NameTrump,), Phase.DISCARD: (Keep,),
             Phase.ROB: (Keep,), Phase.PLAY: (Play,)}
_PHASE_DUTY = {
    Phase.BIDDING: "it is the bidding: {seat} must pass or bid",
    Phase.TRUMP: "the maker ({seat}) must name trumps first",
    Phase.DISCARD: "it is the discard: {seat} must say which cards to keep",
    Phase.ROB: "the dealer ({seat}) must rob the pack: say which cards to keep",
    Phase.PLAY: "it is the play: {seat} must play a card",
}
_FORCED_TEXT = {"must": "every trump must be kept", "pool": "every non-trump must be thrown"}
_KEEP_SIX_TEXT = {
    "pool": "a player with more than six trumps keeps six of them",
    "size": "a player with more than six trumps keeps exactly six and shows the rest (keep-six rule)",
}
_CHOOSE_TEXT = {
    "pool": "you may keep only cards you hold",
    "must": "every trump must be kept; only non-trumps are thrown",
    "size": "a hand after the discard holds at most six cards",
}
_ALL_TRUMPS_TEXT = {
    "pool": "the dealer keeps cards from his hand and the stock",
    "must": "the dealer must take every trump left in the stock (all-trumps rob)",
    "size": "the dealer fills his hand to six with non-trumps, or keeps every trump if he has more",
}
_ANY_SIX_TEXT = {
    "pool": "the dealer keeps cards from his hand and the stock",
    "size": "the dealer keeps exactly six cards",
}
_TRUMPS_FIRST_TEXT = {
    "pool": "the dealer keeps cards from his hand and the stock",
    "size": "the dealer keeps exactly six cards",
    "trumps": "the dealer takes trumps first and may keep a non-trump only when no trump is left to take",
}
