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
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import combinations
from typing import Any, Final, NamedTuple

from cinch.actions import (
    BIDS,
    PASS,
    PLAYS,
    TRUMPS,
    WAIVE,
    Action,
    Bid,
    Call,
    Claim,
    Keep,
    NameTrump,
    OutOfTurn,
    Pass,
    Play,
    Waive,
    parse_action,
)
from cinch.cards import (
    ALL_CARDS,
    DECK_SIZE,
    SEATS,
    SUITS,
    Card,
    CardSet,
    Seat,
    Suit,
    Team,
    TrumpTables,
    bits,
    deck_mask,
    fold,
    mask_of,
    own_copies,
)
from cinch.constants import BATCH, DECK, HAND
from cinch.errors import IllegalAction, NotationError
from cinch.irregularities import (
    BID_OUT_OF_TURN,
    LEAD_OUT_OF_TURN,
    MISDEAL,
    PLAY_OUT_OF_TURN,
    REVOKE,
    HonourState,
    Offence,
    bid_out_of_turn_words,
    lead_out_of_turn_words,
    misdeal_ruling,
    penalty_text,
    play_out_of_turn_words,
    revokes_ruling,
)
from cinch.keep import KeepOptions
from cinch.rules import AboveSix, AllPass, Bidding, Discard, Follow, Low, Rob, Rules, StockOut, for_hands_of
from cinch.scoring import Award, PointTable, per_rules, settle, totals
from cinch.seating import FOUR, Seating
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
    points: tuple[int, ...] | None  # by side (NS, EW; cut-throat by player), by the preset's counting
    made: bool | None
    score_change: tuple[int, ...]
    ruling: tuple[str, ...] = ()  # the honour rule's rulings on irregularities, in words (002, 003)
    seating: Seating = FOUR

    @property
    def makers(self) -> Team | None:
        return None if self.maker is None else self.maker.team

    def describe(self) -> str:
        """The settlement in words: ``EW bid 9, took 7: set, lose 9; NS add 7``, then any ruling."""
        if not self.seating.partnership and not self.thrown_in and self.points is not None:
            return self._describe_cut_throat()
        ruling = " ".join(self.ruling)
        if self.ruling and (self.thrown_in or self.points is None):
            return ruling  # a misdeal, or a revoke claimed under 002: the ruling is the whole settlement
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
        tail = ". " + ruling.rstrip(".") if ruling else ""
        return head + ("; " + "; ".join(parts) if parts else "; no score") + tail

    def _describe_cut_throat(self) -> str:
        """``2 bid 7, took 5: set, loses 7; 1 adds 4; 3 adds 5``."""
        assert self.maker is not None and self.points is not None
        maker = self.maker
        head = f"{maker} bid {self.bid}, took {self.points[maker]}: " + ("made" if self.made else "set")
        parts = []
        for seat in (maker, *(s for s in self.seating.seats if s != maker)):
            change = self.score_change[seat]
            if change:
                parts.append(f"{seat} {'adds' if change > 0 else 'loses'} {abs(change)}")
        return head + ("; " + "; ".join(parts) if parts else "; no score")


def parse_deck(deck: str | Iterable[int | str], decks: int = 1) -> tuple[Card, ...]:
    """A 52-card order (104 with two decks, where each card is named twice, the second time
    standing for its twin): a space-separated string, or cards or card texts."""
    items = deck.split() if isinstance(deck, str) else list(deck)
    cards = [c if type(c) is Card else ALL_CARDS[c] if isinstance(c, int) else Card.parse(c) for c in items]
    size = DECK * decks
    if len(cards) != size:
        packs = "two packs hold" if decks == 2 else "a deck holds"
        raise NotationError(f"{packs} {size} cards, this one {len(cards)}")
    if decks == 2:
        cards = own_copies(cards, deck_mask(decks))
    seen = 0
    for c in cards:
        if seen >> c & 1:
            raise NotationError(f"the deck holds {c} {'three times' if decks == 2 else 'twice'}")
        seen |= 1 << c
    return tuple(cards)


class _Shuffled:
    """A deck known to hold each card once (from a shuffle), so it needs no checking."""

    __slots__ = ("cards",)

    def __init__(self, cards: list[Card]) -> None:
        self.cards = cards

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)


class _RuleFacts:
    """What a deal reads of its rules on every step, worked out once per rules (rules are frozen).

    The deal asks these at every bid, discard and trick; read through ``Rules``' properties
    (``highest_bid`` -> ``total_points`` -> three fields) they cost more than the step itself.
    """

    __slots__ = ("rules", "min_bid", "highest_bid", "stuck_dealer", "one_circuit", "tricks", "no_draw",
                 "dealer_discards", "strict", "keep_six", "buried", "choose", "reshuffle", "rob", "face_up",
                 "forced_discard", "bids", "stuck_bids", "honour", "penalty", "players", "seats", "sides",
                 "side_of", "left", "turns", "dealt", "batches", "stock", "dealer_robs", "played", "others",
                 "others_text", "decks", "hand", "holder_low_twin", "texts")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules  # for pickling
        self.min_bid = rules.min_bid
        self.highest_bid = rules.highest_bid
        self.stuck_dealer = rules.all_pass is AllPass.STUCK_DEALER
        self.one_circuit = rules.bidding is Bidding.ONE_CIRCUIT
        self.tricks = rules.tricks
        self.no_draw = rules.no_draw
        self.dealer_discards = rules.dealer_discards
        self.strict = rules.follow is Follow.STRICT
        self.keep_six = rules.above_six is AboveSix.KEEP_SIX
        self.buried = rules.above_six is AboveSix.BURIED
        self.choose = rules.discard is Discard.CHOOSE_CONCEALED
        self.reshuffle = rules.stock_out is StockOut.RESHUFFLE
        self.rob = rules.rob
        self.face_up = rules.discard is Discard.ALL_FACE_UP
        # by trumps held: whether the discard is no choice (see discard_is_forced)
        self.decks = rules.decks
        self.hand = rules.seating.hand  # six, or twelve with two decks
        self.texts = _keep_texts(self.hand)
        # Two decks under Low to the holder: who held the second 2 of trumps is read from the tricks.
        self.holder_low_twin = rules.decks == 2 and rules.low is Low.TWO_HOLDER
        self.forced_discard = tuple(discard_is_forced(rules, n) for n in range(rules.seating.deck + 1))
        # by the high bid so far: what the next bidder may say (a stuck dealer aside)
        self.bids: tuple[tuple[Action, ...], ...] = tuple(
            (PASS, *(BIDS[n] for n in range(max(self.min_bid, high + 1), self.highest_bid + 1)))
            for high in range(max(self.highest_bid, 0) + 1)
        )
        self.stuck_bids: tuple[Action, ...] = (BIDS[self.min_bid],)
        self.honour = rules.honour_rule  # irregularities may be committed and claimed (002, 003)
        self.penalty = penalty_text(rules)
        table = rules.seating
        self.players = table.players
        self.seats = table.seats
        self.sides = table.side_list
        self.side_of = table.side_of
        self.left = table.left
        self.turns = tuple(table.turns(d) for d in range(table.players))  # from the dealer's left
        self.dealt = table.dealt
        self.batches = table.batches
        self.stock = table.stock
        self.dealer_robs = table.dealer_robs
        # Every card a seat may play without burials, as the trick records it: one object each, made once.
        self.played = _PLAYED if table.partnership else tuple(
            _played(PlayedCard, (seat, c, CardSet(0))) for seat in table.seats for c in ALL_CARDS)
        # by seat: the seats on other sides (the maker's defenders)
        self.others = tuple(table.defenders(s) for s in range(table.players))
        self.others_text = table.others_text  # "the first three" at four players, "all the others" otherwise

    def __reduce__(self) -> tuple[Callable[[Rules], _RuleFacts], tuple[Rules]]:
        # Spelled out for the compiled build (cinch.native), whose classes pickle no fields by themselves.
        return _facts, (self.rules,)


def _facts(rules: Rules) -> _RuleFacts:
    """The facts of ``rules``, worked out once for them."""
    return per_rules(_FACTS, rules, _RuleFacts)


# Every field of a deal: its slots, and what pickling writes.
_FIELDS: Final = (
    "rules", "_f", "dealer", "deck", "_restock_given", "_rng", "restock", "hands", "_dealt", "_stock", "_stock_pos",
    "history", "actors", "auction", "high_bid", "maker", "_passed", "_turns", "trump", "_t", "_scheme", "discards",
    "shown", "drawn", "draw_counts", "_pending", "_options", "stock_seen", "stock_left", "leader", "trick", "tricks",
    "captured", "in_play", "low_holder", "_effective", "_strengths", "_follows", "_alloweds", "_led_strength",
    "_led", "_best", "_winner", "_trick_size", "_watch_two", "_burying", "_mask", "_follow", "_allowed", "_buried",
    "_before", "_result", "phase", "to_act", "_honour",
)


class Deal:
    """One deal, from the first bid to the settlement."""

    # Slots: a deal has more fields than CPython 3.11 shares in an instance dict's keys (30), and
    # past that every field is looked up by name; a slot is read at a fixed offset.
    __slots__ = _FIELDS

    def __init__(
        self,
        rules: Rules,
        dealer: int,
        deck: str | Iterable[int | str],
        *,
        restock: Iterable[int | str] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        if deck is _BLANK:  # copy() and unpickling set every field themselves
            return
        self.rules = rules
        self._f = _facts(rules)
        f = self._f
        self.dealer: Seat = f.seats[dealer]
        self.deck: tuple[Card, ...] = tuple(deck.cards) if isinstance(deck, _Shuffled) else parse_deck(deck, f.decks)
        self._restock_given: tuple[int, ...] | None = None if restock is None else tuple(
            c if isinstance(c, int) else Card.parse(c) for c in restock
        )
        self._rng = rng
        self.restock: tuple[Card, ...] | None = None  # the new stock actually used, top first
        deck_ = self.deck
        bit = _BIT
        n = f.players
        first = self.dealer + 1
        hands = [0] * n
        for batch in range(f.batches):  # batches of three, from the dealer's left
            i = BATCH * batch
            hands[(first + batch) % n] |= bit[deck_[i]] | bit[deck_[i + 1]] | bit[deck_[i + 2]]
        self.hands = hands
        self._dealt = tuple(hands)
        self._stock: tuple[Card, ...] = deck_[n * f.dealt:]  # never changed in place: copies share it
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
        self.discards = [0] * n
        self.shown = [0] * n
        self.drawn = [0] * n
        self.draw_counts = [0] * n
        self._pending: list[Seat] = []
        self._options: KeepOptions | None = None  # the keep decision now pending
        self.stock_seen = 0
        self.stock_left = 0
        self.leader: Seat | None = None
        self.trick: list[PlayedCard] = []
        self.tricks: list[Trick] = []
        self.captured = [0] * len(f.sides)  # by side
        self.in_play = 0
        self.low_holder: Team | None = None
        # The play's tables for the trump named (TrumpTables'), by led suit or card.
        self._effective: tuple[int, ...] = ()
        self._strengths: tuple[tuple[int, ...], ...] = ()
        self._follows: tuple[int, ...] = ()
        self._alloweds: tuple[int, ...] = ()
        self._led_strength: tuple[int, ...] = ()
        self._led = -1
        self._best = -1
        self._winner = 0
        self._trick_size = n
        self._watch_two = -1
        self._burying = False  # trick 1 with a hand above six (buried-excess rule)
        self._mask = 0  # in the play: the cards the player to act may play
        self._follow = 0  # the follow rule of the trick in progress (FollowRule's two masks)
        self._allowed = 0
        self._buried = 0  # cards buried in the trick in progress
        self._before = 0  # in_play when the trick in progress was led
        self._result: DealResult | None = None  # worked out when first asked for (see result)
        self.phase = _BIDDING
        self.to_act: Seat | None = f.seats[f.left[dealer]]
        # Under the honour rule, its irregularities; None otherwise, and then no check reads more than this field.
        self._honour: HonourState | None = HonourState(self._f.penalty) if self._f.honour else None

    @classmethod
    def from_actions(
        cls,
        rules: Rules,
        dealer: int,
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
        dealer = repr(self.dealer) if self._f.players == 4 else str(int(self.dealer))  # a cut-throat seat's index
        args = [repr(self.rules), dealer, repr(" ".join(map(str, self.deck))),
                repr([str(a) for a in self.history])]
        if self.restock is not None:
            args.append(f"restock={' '.join(map(str, self.restock))!r}")
        return f"Deal.from_actions({', '.join(args)})"

    @property
    def dealt(self) -> tuple[CardSet, ...]:
        """The cards each seat was dealt (nine, or six at five or six players)."""
        return tuple(CardSet(d) for d in self._dealt)

    @classmethod
    def shuffled(cls, rules: Rules, dealer: int, rng: random.Random | int | None = None) -> Deal:
        """A deal from a shuffled deck; ``rng`` (or its seed) also shuffles any new stock."""
        if not isinstance(rng, random.Random):
            rng = random.Random(rng)
        deck = list(ALL_CARDS[:rules.seating.deck])
        shuffle(rng, deck)
        return cls(rules, dealer, _Shuffled(deck), rng=rng)

    def copy(self) -> Deal:
        """An independent copy, cheap enough for search (lists are copied, values shared)."""
        # Every field of _FIELDS, spelled out: a loop of getattr/setattr over the names (as pickling
        # does) costs several times as much, and search copies a deal per world and per playout.
        new = Deal(self.rules, self.dealer, _BLANK)
        new.rules = self.rules
        new._f = self._f
        new.dealer = self.dealer
        new.deck = self.deck
        new._restock_given = self._restock_given
        rng = self._rng
        if rng is not None and self.phase is not _PLAY:
            # A new stock may still be shuffled: each copy gets its own generator, in the same state.
            clone = random.Random()
            clone.setstate(rng.getstate())
            rng = clone
        new._rng = rng
        new.restock = self.restock
        new.hands = self.hands[:]
        new._dealt = self._dealt
        new._stock = self._stock
        new._stock_pos = self._stock_pos
        new.history = self.history[:]
        new.actors = self.actors[:]
        new.auction = self.auction[:]
        new.high_bid = self.high_bid
        new.maker = self.maker
        new._passed = self._passed
        new._turns = self._turns
        new.trump = self.trump
        new._t = self._t
        new._scheme = self._scheme
        new.discards = self.discards[:]
        new.shown = self.shown[:]
        new.drawn = self.drawn[:]
        new.draw_counts = self.draw_counts[:]
        new._pending = self._pending[:]
        new._options = self._options
        new.stock_seen = self.stock_seen
        new.stock_left = self.stock_left
        new.leader = self.leader
        new.trick = self.trick[:]
        new.tricks = self.tricks[:]
        new.captured = self.captured[:]
        new.in_play = self.in_play
        new.low_holder = self.low_holder
        new._effective = self._effective
        new._strengths = self._strengths
        new._follows = self._follows
        new._alloweds = self._alloweds
        new._led_strength = self._led_strength
        new._led = self._led
        new._best = self._best
        new._winner = self._winner
        new._trick_size = self._trick_size
        new._watch_two = self._watch_two
        new._burying = self._burying
        new._mask = self._mask
        new._follow = self._follow
        new._allowed = self._allowed
        new._buried = self._buried
        new._before = self._before
        new._result = self._result
        new.phase = self.phase
        new.to_act = self.to_act
        honour = self._honour
        new._honour = None if honour is None else honour.copy()
        return new

    def __reduce__(self) -> tuple[Callable[[Rules, int, tuple[object, ...]], Deal], tuple[Rules, int,
                                                                                          tuple[object, ...]]]:
        # Spelled out for the compiled build (cinch.native), whose classes pickle no fields by themselves.
        return _unpickle, (self.rules, self.dealer, tuple(getattr(self, name) for name in _FIELDS))

    # ---- public queries ---------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.phase is _DONE

    @property
    def result(self) -> DealResult | None:
        """How the deal ended (None until it has): the settlement is worked out when first asked for,
        so that searches that play deals to the end and read only the points never build its awards."""
        result = self._result
        if result is None and self.phase is _DONE:
            result = self._result = self._settle()
        return result

    @property
    def tables(self) -> TrumpTables | None:
        return self._t

    @property
    def point_table(self) -> PointTable | None:
        return self._scheme

    @property
    def stock(self) -> CardSet:
        """The undealt cards still in the stock (concealed at the table)."""
        if (self.phase is _PLAY or self.phase is _DONE) and self.trump is not None and not self._f.no_draw:
            return CardSet(self.stock_left)
        m = 0
        for c in self._stock[self._stock_pos:]:
            m |= 1 << c
        return CardSet(m)

    def hand(self, seat: int) -> CardSet:
        return CardSet(self.hands[seat])

    def legal_actions(self) -> Sequence[Action]:
        """What the player to act may do (a lazy sequence for keeps, a list otherwise)."""
        phase = self.phase
        if phase is _PLAY:
            if not self._burying:
                m = self._mask
                if m >> DECK_SIZE:
                    return _twin_plays(m)
                return _plays_of(m)
            return self._legal_plays()
        if phase is _BIDDING:
            return self._legal_bids()
        if phase is _TRUMP:
            return TRUMPS
        if phase is _DISCARD or phase is _ROB:
            assert self._options is not None
            return self._options
        return []

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is legal now: under the honour rule an irregular action is not (see
        :meth:`irregular_actions`), a claim or a waiver is when the other side is asked."""
        if type(action) is Claim or type(action) is Waive or type(action) is OutOfTurn:
            return action in self.legal_actions()
        try:
            self._check(self._own_copies(action))
        except IllegalAction:
            return False
        return True

    # ---- applying actions ---------------------------------------------------
    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply one action of the player to act; ``seat``, if given, must be that player."""
        actor = self.to_act
        if seat is not None and seat != actor:
            if self._honour is not None:  # a bid, a lead or a play out of turn, or a misdeal found by anyone
                self._honour_apply(action, SEATS[seat])
                return
            who = "nobody" if actor is None else str(actor)
            raise IllegalAction(action, f"it is {who}'s turn, not {self._f.seats[seat]}'s", self._legal_strings(),
                                legal_summary=self._legal_summary())
        phase = self.phase
        if phase is _PLAY and type(action) is Play and actor is not None:
            # A card to the trick: the hot path of every search, written out in one place.
            card: int = action.card
            bury: int = action.bury
            if bury or self._burying or not self._mask >> card & 1:
                if self._f.decks != 1:
                    action = own = self._own_play(action)  # the copy of the card the player holds
                    card = own.card
                    bury = own.bury
                self._check_play(action, True)  # explains the refusal, or checks what is buried (or a revoke)
                if self._honour is not None and self._honour.around:
                    self._play_around(action, self._honour)
                    return
            self.history.append(action)
            self.actors.append(actor)
            bit = _BIT[card]
            hands = self.hands
            if bury:
                gone = bit | bury
                played = _played(PlayedCard, (actor, action.card, action.bury))
                self._buried |= bury
            else:
                gone = bit
                played = self._f.played[actor * _STRIDE + card]
            hands[actor] &= ~gone
            trick = self.trick
            in_play = self.in_play
            if trick:
                s = self._led_strength[card]
                if s > self._best:
                    self._best = s
                    self._winner = actor
            else:
                led = self._effective[card]
                self._led = led
                strength = self._led_strength = self._strengths[led]
                self._best = strength[card]
                self._winner = actor
                self._follow = self._follows[led]
                self._allowed = self._alloweds[led]
                self._before = in_play  # what the trick takes is what comes into play after
            trick.append(played)
            self.in_play = in_play | bit
            if card == self._watch_two:
                # Low to holder (000): whoever plays the 2 held it
                self.low_holder = self._f.sides[self._f.side_of[actor]]
            if len(trick) < self._trick_size:
                left = self._f.left
                nxt = left[actor]
                while not hands[nxt]:
                    nxt = left[nxt]
                self.to_act = self._f.seats[nxt]
                hand = hands[nxt]
                self._mask = hand & self._allowed if hand & self._follow else hand  # FollowRule.playable()
            else:
                self._end_trick()
            return
        if phase is _BIDDING and (type(action) is Bid or type(action) is Pass) and actor is not None:
            self._check_bid(action)
            self.history.append(action)
            self.actors.append(actor)
            self._bid(actor, action)
            return
        options = self._options  # set in the discard and the rob: the keep they wait for
        if type(action) is Keep and options is not None and actor is not None:
            if self._f.decks != 1:
                action = self._own_keep(action)
            kept = self._check_keep(action, options)
            self.history.append(action)
            self.actors.append(actor)
            if phase is _DISCARD:
                self._pending.pop(0)
                self._keep(actor, kept)
                self._next_discard()
            else:
                self._options = None
                self._rob(kept)
                self._start_play()
            return
        if self._honour is not None and (type(action) is Claim or type(action) is Waive or type(action) is OutOfTurn):
            self._honour_apply(action, actor)
            return
        self._check(action)  # refuses an action of another kind than the phase asks for
        assert actor is not None
        self.history.append(action)
        self.actors.append(actor)
        if isinstance(action, NameTrump):
            self._name_trump(action.suit)

    def apply_restock(self, order: Iterable[int | str]) -> None:
        """Resolve the chance event of a new stock: its order, top first."""
        if self.phase is not _RESTOCK:
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
    def _own_copies(self, action: Action) -> Action:
        """``action`` with each card named taken as the copy the player has (two decks: a card's text
        names either copy); with one deck, ``action`` itself."""
        if self._f.decks == 1 or self.to_act is None:
            return action
        if type(action) is Play:
            return self._own_play(action)
        if type(action) is Keep:
            return self._own_keep(action)
        return action

    def _own_play(self, action: Play) -> Play:
        """The play of the copy the player holds (two decks)."""
        if self.to_act is None:
            return action
        hand = self.hands[self.to_act]
        card = own_copies([action.card], hand)[0]
        bury = action.bury
        if bury:
            bury = CardSet(own_copies(action.bury, hand & ~(1 << card)))
        return action if card == action.card and bury == action.bury else Play(card, bury)

    def _own_keep(self, action: Keep) -> Keep:
        """The keep of the copies its text means (two decks, see _kept_copies)."""
        if self._options is None or self.to_act is None:
            return action
        cards = CardSet(_kept_copies(int(action.cards), self._options.pool, self.hands[self.to_act]))
        return action if cards == action.cards else Keep(cards)

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
        if phase is _DONE:
            raise IllegalAction(action, "the deal is over", ())
        if phase is _RESTOCK:
            raise IllegalAction(action, "the stock ran out: a new stock must be formed first", ())
        if not isinstance(action, _EXPECTED[phase]):
            raise self._illegal(action, _PHASE_DUTY[phase].format(seat=self.to_act))
        if isinstance(action, Play):
            self._check_play(action)
        elif phase is _BIDDING:
            self._check_bid(action)
        elif isinstance(action, Keep):
            assert self._options is not None  # the discard and the rob wait for a keep
            self._check_keep(action, self._options)

    def _check_keep(self, action: Keep, options: KeepOptions) -> int:
        """The cards ``action`` keeps, as a plain int (the hands are plain masks), if ``options`` allow them."""
        kept = int(action.cards)
        if kept >> DECK_SIZE and self._f.decks == 1:
            twice = CardSet(kept >> DECK_SIZE)
            raise self._illegal(action, f"{twice} named twice: one pack holds one of each card")
        why = options.violation(kept)
        if why:
            raise self._illegal(action, why)
        return kept

    # ---- bidding --------------------------------------------------------------
    def _stuck(self) -> bool:
        """All the others passed and the dealer must bid (see dealer_is_stuck)."""
        return _is_stuck(self._f, self.dealer, self.to_act, self.high_bid, self._passed)

    def _legal_bids(self) -> tuple[Action, ...]:
        honour = self._honour
        if honour is not None:
            if honour.pending is not None:
                return (*self._claim_options(honour.pending), WAIVE)
            to_act = self.to_act
            if to_act is not None and honour.barred >> (to_act & 1) & 1 and not self._stuck():
                return (PASS,)  # a side barred after a bid out of turn (003)
        return _open_bids(self._f, self.dealer, self.to_act, self.high_bid, self._passed)

    def _check_bid(self, action: Action) -> None:
        f = self._f
        stuck = self._stuck()
        if self._honour is not None:
            self._check_honour_bid(action, stuck)
        if not isinstance(action, Bid):
            if stuck:
                raise self._illegal(
                    action, f"{f.others_text} passed, so the dealer is stuck and must bid {f.min_bid}"
                )
            return
        amount = action.amount
        if stuck and amount != f.min_bid:
            raise self._illegal(action, f"a stuck dealer must bid {f.min_bid}")
        if not f.min_bid <= amount <= f.highest_bid:
            raise self._illegal(action, f"bids run from {f.min_bid} to {f.highest_bid} under {self.rules.name}")
        if amount <= self.high_bid:
            raise self._illegal(action, f"each bid must beat the one before ({self.maker} bid {self.high_bid})")

    def _bid(self, seat: Seat, action: Call) -> None:
        self.auction.append((seat, action))
        if type(action) is Bid:
            self.high_bid = action.amount
            self.maker = seat
        else:
            self._passed |= 1 << seat
        self._turns += 1
        f = self._f
        n = f.players
        if f.one_circuit:
            if self._turns < n:
                self.to_act = f.seats[f.left[seat]]
                return
        else:
            passed = self._passed.bit_count()
            if passed < n and not (self.maker is not None and passed == n - 1):
                nxt = f.left[seat]
                while self._passed >> nxt & 1:
                    nxt = f.left[nxt]
                self.to_act = f.seats[nxt]
                return
        self._end_bidding()

    def _end_bidding(self) -> None:
        if self.maker is None:
            self.phase = _DONE
            self.to_act = None
            ruling = () if self._honour is None else tuple(self._honour.ruling)
            self._result = DealResult(True, None, None, None, (), None, None, (0,) * len(self._f.sides), ruling,
                                      self.rules.seating)
            return
        self.phase = _TRUMP
        self.to_act = self.maker

    def _name_trump(self, suit: Suit) -> None:
        self.trump = SUITS[suit]
        t = self._t = self.rules.trump_tables[suit]
        scheme = self._scheme = PointTable.of(self.rules, self.trump)
        self._watch_two = scheme.two if scheme.holder_low else -1
        self._effective = t.effective_suit
        self._strengths = t.strength
        rules = t.follow_rules[self._f.strict]
        self._follows = (rules[0].follow, rules[1].follow, rules[2].follow, rules[3].follow)
        self._alloweds = (rules[0].allowed, rules[1].allowed, rules[2].allowed, rules[3].allowed)
        if self._f.no_draw:
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
        full = self._f.hand
        texts = self._f.texts
        if n > full and self._f.keep_six:
            return KeepOptions(held, 0, trumps, full, full, rules_text=texts["keep_six"])
        if self._f.choose and n <= full:
            return KeepOptions(hand, held, trumps, n, full, rules_text=texts["choose"])
        return KeepOptions(held, held, trumps, n, n, rules_text=_FORCED_TEXT)

    def _start_discard(self) -> None:
        f = self._f
        order = f.turns[self.dealer] if f.dealer_discards else f.turns[self.dealer][:-1]
        pending = []
        assert self._t is not None
        trumps = self._t.trumps
        forced = f.forced_discard
        hands = self.hands
        for seat in order:
            held = hands[seat] & trumps
            if forced[held.bit_count()]:
                self._keep(seat, held)  # every non-trump goes: no choice to make
            else:
                pending.append(seat)
        self._pending = pending
        self._next_discard()

    def _next_discard(self) -> None:
        if self._pending:
            self.phase = _DISCARD
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
        full = self._f.hand
        for s in self._f.turns[self.dealer]:
            n = full - hands[s].bit_count()
            needs.append((s, n if n > 0 else 0))
        return needs

    def _refill(self) -> None:
        needs = self._needs()
        short = sum(n for _, n in needs) > len(self._stock) - self._stock_pos
        if short and self._f.reshuffle:
            if self._restock_given is not None:
                self._set_restock(self._restock_given)
            elif self._rng is not None:
                order = list(self.restock_pool)
                shuffle(self._rng, order)
                self._set_restock(tuple(order))
            else:
                self.phase = _RESTOCK
                self.to_act = None
                return
        self._finish_refill(needs)

    def _set_restock(self, order: tuple[int, ...]) -> None:
        pool = int(self.restock_pool)
        if self._f.decks != 1:
            order = tuple(own_copies(order, pool))  # a card named twice: both copies
        given = 0
        for c in order:
            given |= 1 << c
        if len(order) != pool.bit_count() or given != pool:
            raise IllegalAction(
                "restock " + " ".join(str(ALL_CARDS[c]) for c in order),
                "the new stock is made of exactly the non-trump discards",
                legal_summary=f"an order of {CardSet(pool)}",
            )
        restock = self.restock = tuple(ALL_CARDS[c] for c in order)
        self._stock = self._stock[self._stock_pos:] + restock
        self._stock_pos = 0
        # The discards are the new stock now: they leave the discard piles (and the face-up views).
        self.discards = [d & ~pool for d in self.discards]

    def _draw(self, seat: Seat, count: int) -> None:
        """``seat`` takes ``count`` cards from the top of the stock."""
        pos = self._stock_pos
        stock = self._stock
        bit = _BIT
        taken = 0
        for i in range(pos, pos + count):
            taken |= bit[stock[i]]
        self._stock_pos = pos + count
        self.hands[seat] |= taken
        self.drawn[seat] |= taken
        self.draw_counts[seat] += count

    def _finish_refill(self, needs: list[tuple[Seat, int]] | None = None) -> None:
        if needs is None:
            needs = self._needs()
        left = len(self._stock) - self._stock_pos
        robs = self._f.dealer_robs
        if sum(n for _, n in needs) <= left:
            for seat, n in needs[:-1] if robs else needs:
                if n:
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
        stock = self._stock
        for i in range(self._stock_pos, len(stock)):
            seen |= _BIT[stock[i]]
        if not robs:  # two or three players: nobody robs, and the rest of the stock stays unseen
            self.stock_left = seen
            self._start_play()
            return
        self.stock_seen = seen
        options = self._rob_options()
        forced = options.forced
        if forced is not None:
            self._rob(int(forced.cards))
            self._start_play()
        else:
            self.phase = _ROB
            self.to_act = self.dealer
            self._options = options

    def _rob_options(self) -> KeepOptions:
        assert self._t is not None
        trumps = self._t.trumps
        hand = self.hands[self.dealer]
        pool = hand | self.stock_seen
        held = pool & trumps
        n = held.bit_count()
        in_pool = pool.bit_count()
        full = self._f.hand
        texts = self._f.texts
        size = full if in_pool > full else in_pool
        rob = self._f.rob
        if rob is _ALL_TRUMPS:
            if self._f.buried:
                k = min(in_pool, max(full, n))
                return KeepOptions(pool, held, trumps, k, k, rules_text=texts["all_trumps"])
            if n > full:
                return KeepOptions(held, 0, trumps, full, full, rules_text=texts["keep_six"])
            return KeepOptions(pool, held, trumps, size, size, rules_text=texts["all_trumps"])
        if rob is _TRUMPS_FIRST:
            return KeepOptions(pool, 0, trumps, size, size, min(size, n), rules_text=texts["trumps_first"])
        return KeepOptions(pool, 0, trumps, size, size, rules_text=texts["any_six"])

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
        self.phase = _PLAY
        assert self.maker is not None
        limit = self._f.tricks
        self._burying = any(hand.bit_count() > limit for hand in self.hands)
        self._start_trick(self.maker)

    def _start_trick(self, leader: Seat) -> None:
        hands = self.hands
        f = self._f
        while not hands[leader]:
            leader = f.seats[f.left[leader]]
        self.leader = self.to_act = leader
        self._mask = hands[leader]  # the leader may lead anything
        self.trick = []
        size = 0
        for hand in hands:
            if hand:
                size += 1
        self._trick_size = size

    def _excess(self, seat: int) -> int:
        """Cards to bury with this play: a hand above six on trick 1 (buried-excess rule)."""
        return self.hands[seat].bit_count() - (self._f.tricks - len(self.tricks))

    def legal_play_mask(self) -> int:
        """The cards the player to act may play, as a mask (the fast path for search)."""
        return self._mask

    def _bury_options(self, seat: int, card: int, excess: int) -> list[int]:
        assert self._scheme is not None
        return bury_options(self.hands[seat], card, excess, self._scheme.point_mask, self._mask)

    def _legal_plays(self) -> Sequence[Action]:
        honour = self._honour
        if honour is not None and honour.pending is not None:
            return [*self._claim_options(honour.pending), WAIVE]
        seat = self.to_act
        assert seat is not None
        mask = self._mask
        excess = self._excess(seat) if self._burying else 0
        if excess <= 0:
            return _twin_plays(mask) if mask >> DECK_SIZE else _plays_of(mask)
        plays = [Play(ALL_CARDS[c], CardSet(b)) for c in bits(mask) for b in self._bury_options(seat, c, excess)]
        return list(dict.fromkeys(plays)) if self._f.decks != 1 else plays  # twins read the same: one of each

    def _check_play(self, action: Play, commit: bool = False) -> None:
        """Refuse ``action`` naming the rule; ``commit``: it is being played, and under the honour rule a
        revoke is then played and kept (is_legal asks without ``commit``)."""
        seat = self.to_act
        t = self._t
        assert seat is not None and t is not None
        honour = self._honour
        if honour is not None and honour.pending is not None:
            raise self._illegal(action, f"{self._asked(honour.pending)}: {seat} must first claim it or waive")
        card = action.card
        hand = self.hands[seat]
        if not hand >> card & 1:
            raise self._illegal(action, f"{seat} does not hold {card}")
        if not self._mask >> card & 1:
            if not self.trick:  # a lead restricted by a claim (003)
                assert honour is not None
                raise self._illegal(action, f"after the lead out of turn was claimed, {seat} {honour.required}")
            if commit and honour is not None and (not self._burying or honour.around):
                # A revoke at the honour-rule table: the card is played, and the offence kept for a claim.
                honour.offences.append(Offence(REVOKE, seat, len(self.tricks), card, hand & self._follow))
                return
            led = ALL_CARDS[self.trick[0].card]
            if self._led == t.suit:
                rule = f"a trump was led ({led}) and {seat} holds trumps, so must play a trump"
            elif self._f.strict:
                suit = Suit(self._led).name.lower()
                rule = f"{led} was led and {seat} holds {suit}: under strict following {seat} must follow suit"
            else:  # all-fours: trumping is always allowed, so the fault is a card of a third suit
                suit = Suit(self._led).name.lower()
                rule = f"{led} was led and {seat} holds {suit}, so must follow suit or play a trump"
            raise self._illegal(action, rule)
        excess = self._excess(seat) if not self.tricks else 0
        bury = int(action.bury)
        if bury >> DECK_SIZE and self._f.decks == 1:  # "play KD bury KD" names a second copy
            raise self._illegal(action, f"{CardSet(bury >> DECK_SIZE)} named twice: one pack holds one of each card")
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

    def _end_trick(self) -> None:
        f = self._f
        winner = f.seats[self._winner]
        self.captured[f.side_of[winner]] |= self.in_play & ~self._before | self._buried
        self._buried = 0
        self.tricks.append(_played(Trick, (self.leader, tuple(self.trick), winner)))
        self._burying = False
        if any(self.hands):
            self._start_trick(winner)
        else:
            self.trick = []
            self.phase = _DONE  # the settlement waits until the result is asked for
            self.to_act = None
        if self._honour is not None:
            self._after_trick(self._honour)

    def random_playout(self, rng: random.Random) -> tuple[int, ...]:
        """Points by side (NS, EW; or by player, cut-throat) after the rest of the play with uniformly
        random legal cards.

        The search bots' fast path: the deal itself is left unchanged.
        """
        if self.phase is not _PLAY:
            raise ValueError("a playout starts in the play phase")
        if self._burying or self._f.holder_low_twin:
            return self._slow_playout(rng)  # trick 1 with cards to bury, or two 2s of trumps to follow
        hands = self.hands[:]
        strengths = self._strengths
        effective = self._effective
        follows = self._follows
        alloweds = self._alloweds
        follow = self._follow
        allowed = self._allowed
        watch_two = self._watch_two
        low_holder: int | None = self.low_holder
        captured = self.captured[:]
        in_play = self.in_play
        f = self._f
        left = f.left
        side_of = f.side_of
        random = rng.random
        to_act = self.to_act
        assert to_act is not None
        seat: int = to_act
        count = len(self.trick)
        size = self._trick_size
        best = self._best
        winner = self._winner
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
                low_holder = side_of[seat]
            if count:
                s = strength[card]
                if s > best:
                    best = s
                    winner = seat
            else:
                led = effective[card]
                strength = strengths[led]
                best = strength[card]
                winner = seat
                follow = follows[led]
                allowed = alloweds[led]
            count += 1
            if count == size:
                captured[side_of[winner]] |= taken
                size = 0
                for h in hands:
                    if h:
                        size += 1
                if not size:
                    break
                taken = count = 0
                seat = winner
            else:
                seat = left[seat]
            while not hands[seat]:
                seat = left[seat]
        return self._points(captured, in_play, low_holder)

    def _slow_playout(self, rng: random.Random) -> tuple[int, ...]:
        deal = self.copy()
        while deal.phase is _PLAY:
            deal.apply(rng.choice(deal.legal_actions()))
        assert deal.maker is not None
        return deal._points(deal.captured, deal.in_play, deal.low_holder)

    def thrown_by_defenders(self) -> int:
        """The trumps the maker's opponents threw out, shown (what 003 counts for the makers)."""
        assert self.maker is not None
        shown = self.shown
        thrown = 0
        for s in self._f.others[self.maker]:
            thrown |= shown[s]
        return thrown

    def _points(self, captured: list[int], in_play: int, low_holder: int | None) -> tuple[int, ...]:
        assert self._scheme is not None and self.maker is not None
        makers = self._f.side_of[self.maker]
        return self._scheme.totals(captured, in_play, low_holder, self.thrown_by_defenders(), makers,
                                   self._twin_low_holder())

    def _twin_low_holder(self) -> int | None:
        """With two decks under Low to the holder: the side that played the second pack's 2 of trumps."""
        if not self._f.holder_low_twin or self._scheme is None:
            return None
        two = self._scheme.twin_two
        for trick in (*(t.plays for t in self.tricks), self.trick):
            for p in trick:
                if p.card == two:
                    return self._f.side_of[p.seat]
        return None

    def _settle(self) -> DealResult:
        assert self._scheme is not None and self.maker is not None
        makers = self.maker.team
        awards = self._scheme.awards(
            tuple(self.captured), self.in_play, self.low_holder, self.thrown_by_defenders(), makers,
            self._f.sides, self._twin_low_holder(),
        )
        points = totals(awards, len(self._f.sides))
        made, change = settle(self.rules, makers, self.high_bid, points)
        ruling: tuple[str, ...] = ()
        honour = self._honour
        if honour is not None:
            words: list[str] = []
            if honour.revokers and honour.penalty_003:  # revokes claimed under 003: settled now, with the points
                made, change, words = revokes_ruling(self.rules, makers, self.high_bid, points, honour.revokers)
            ruling = (*honour.ruling, *words)
        return DealResult(False, self.maker, self.high_bid, self.trump, tuple(awards), points, made, change, ruling,
                          self.rules.seating)

    # ---- the honour rule (002, 003) -------------------------------------------------
    # With ``honour_rule`` on, a player may act against the rules as at a real table: revoke (play a card
    # the follow rule forbids), and under 003 bid, lead or play out of turn.  The other side is asked at once
    # about a call or a lead out of turn, and about a revoke once it shows (the revoker later plays or
    # buries a card of the suit he failed to follow, or the deal's last trick is turned): the player on
    # the offender's left claims it or waives it, and the chosen text's ruling applies.  A misdeal is
    # claimed before the first call.  While a claim waits, ``_burying`` is set, so the play's legal
    # actions and cards take the slow path (where the claim is answered); with the option off no step
    # reads more than ``_honour is None``.
    @property
    def next_dealer(self) -> Seat:
        """Who deals the next deal: the dealer's left, or the same dealer after a misdeal under 002."""
        honour = self._honour
        if honour is not None and honour.next_dealer is not None:
            return honour.next_dealer
        return self._f.seats[self._f.left[self.dealer]]

    @property
    def irregularities(self) -> tuple[str, ...]:
        """Every irregularity the table knows of so far, with the rulings, in words (honour rule)."""
        return () if self._honour is None else self._honour.public()

    def irregular_actions(self, seat: int | None = None) -> list[Action]:
        """What ``seat`` (the player to act, if not given) may do against the rules now, under the honour rule:
        a revoke (a card the follow rule forbids, by the player to act); under 003 also a bid out of turn
        (``E out of turn: bid 8``) or a lead out of turn.  Empty with the option off.

        >>> rules = Rules.preset("official").with_options(honour_rule=True)
        >>> deal = Deal.from_actions(rules, Seat.W, EXAMPLE_DECK)
        >>> [str(a) for a in deal.irregular_actions(Seat.S)][:2]
        ['S out of turn: bid 1', 'S out of turn: bid 2']
        """
        honour = self._honour
        if honour is None or honour.pending is not None or self.phase is _DONE:
            return []
        who = self.to_act if seat is None else SEATS[seat]
        if who is None:
            return []
        free = not self._burying or honour.around  # not while cards are buried under trick 1
        if who == self.to_act:
            if self.phase is _PLAY and self.trick and free:
                return [PLAYS[c] for c in bits(self.hands[who] & ~self._mask)]
            return []
        if honour.penalty_003:
            if self.phase is _BIDDING and not honour.barred >> (who & 1) & 1:
                return [OutOfTurn(who, b) for b in self._f.bids[self.high_bid] if type(b) is Bid]
            if self.phase is _PLAY and not self.trick and free:
                return [OutOfTurn(who, PLAYS[c]) for c in bits(self.hands[who])]
            if self.phase is _PLAY and free and self._may_play_out_of_turn(who):
                return [OutOfTurn(who, PLAYS[c]) for c in bits(self._playable(who))]
        return []

    def _may_play_out_of_turn(self, seat: Seat) -> bool:
        """Whether ``seat`` may play out of turn to the trick being played: it holds cards and has not played to it."""
        return bool(self.hands[seat]) and all(p.seat != seat for p in self.trick)

    def _playable(self, seat: int) -> int:
        """The cards ``seat`` may play to the trick led (the follow rule), as a mask."""
        hand = self.hands[seat]
        return hand & self._allowed if hand & self._follow else hand

    def claims(self, seat: int | None = None) -> list[Action]:
        """The claims open to ``seat`` (the player to act, if not given) now, under the honour rule: those of
        the irregularity the other side is asked about, and before the first call a misdeal, for anyone."""
        honour = self._honour
        if honour is None or self.phase is _DONE:
            return []
        who = self.to_act if seat is None else SEATS[seat]
        if honour.pending is not None:
            return self._claim_options(honour.pending) if who == self.to_act else []
        if self.phase is _BIDDING and not self.history:
            return [Claim("misdeal")]
        return []

    def _claim_options(self, offence: Offence) -> list[Action]:
        if offence.kind == REVOKE:
            return [Claim("revoke")]
        if offence.kind == BID_OUT_OF_TURN:
            return [Claim("bid")]
        if offence.kind == PLAY_OUT_OF_TURN:
            return [Claim("play")]
        options: list[Action] = [Claim("lead")]
        honour = self._honour
        assert honour is not None and honour.taken_back is not None
        if offence.seat == honour.taken_back[2].partner:  # led in his partner's turn (003)
            options += [Claim("lead", "trumps"), Claim("lead", "no-trumps")]
        return options

    def _asked(self, offence: Offence) -> str:
        return f"{offence.describe()}, and {self.to_act} is asked to claim it"

    def _honour_apply(self, action: Action, seat: Seat | None) -> None:
        """An action of the honour rule: out of turn, a claim or a waiver (``seat``: who makes it)."""
        honour = self._honour
        assert honour is not None
        if self.phase is _DONE:
            raise IllegalAction(action, "the deal is over", ())
        if type(action) is OutOfTurn:
            if seat is not None and seat != self.to_act and seat != action.seat:
                raise self._illegal(action, f"{action.seat}'s action out of turn cannot come from {seat}")
            self._out_of_turn(action.action, action.seat, honour)
        elif (type(action) is Bid or type(action) is Play) and seat is not None and seat != self.to_act:
            self._out_of_turn(action, seat, honour)
        elif type(action) is Claim and action.kind == "misdeal":
            self._misdeal(action, seat, honour)
        elif type(action) is Claim or type(action) is Waive:
            self._answer(action, seat, honour)
        else:
            who = "nobody" if self.to_act is None else str(self.to_act)
            raise self._illegal(action, f"it is {who}'s turn, not {seat}'s; out of turn only a bid, a lead or a play "
                                        "is made (003), and the other side claims")

    def _out_of_turn(self, action: Bid | Play, seat: Seat, honour: HonourState) -> None:
        text = OutOfTurn(seat, action)
        if not honour.penalty_003:
            raise self._illegal(text, "a bid, a lead or a play out of turn has a ruling only under 003; under 002 "
                                      "only a revoke or a misdeal is claimed")
        if honour.pending is not None:
            raise self._illegal(text, f"{self._asked(honour.pending)} first")
        if seat == self.to_act:
            raise self._illegal(text, f"it is {seat}'s turn: the action is not out of turn")
        if type(action) is Bid:
            if self.phase is not _BIDDING:
                raise self._illegal(text, "a bid out of turn is made in the bidding")
            if honour.barred >> (seat & 1) & 1:
                raise self._illegal(text, f"{seat.team} bid out of turn before and may not bid again this deal (003)")
            if action not in self._f.bids[self.high_bid]:
                raise self._illegal(text, f"even out of turn a bid runs from {self._f.min_bid} to "
                                          f"{self._f.highest_bid} and beats the one before")
            self.history.append(text)
            self.actors.append(seat)
            offence = Offence(BID_OUT_OF_TURN, seat)  # void: it never enters the auction
            honour.offences.append(offence)
            self._ask(offence, self.to_act, honour)
            return
        assert type(action) is Play
        if self.phase is not _PLAY or (self._burying and not honour.around) or action.bury:
            raise self._illegal(text, "a card is played out of turn in the play, to a trick not yet led or to the "
                                      "trick being played (and not while cards are buried under trick 1)")
        if self.trick:
            self._play_out_of_turn(action, seat, honour)
            return
        card: int = action.card
        if not self.hands[seat] >> card & 1:
            raise self._illegal(text, f"{seat} does not hold {action.card}")
        leader = self.to_act
        assert leader is not None
        honour.taken_back = (card, self.low_holder, leader)
        self.to_act = seat
        self._mask = self.hands[seat]  # the card goes to the trick as any lead does
        self.apply(action)
        self.history[-1] = text
        offence = Offence(LEAD_OUT_OF_TURN, seat, len(self.tricks), action.card)
        honour.offences.append(offence)
        self._ask(offence, self.to_act, honour)

    def _play_out_of_turn(self, action: Play, seat: Seat, honour: HonourState) -> None:
        """A card to the trick being played before ``seat``'s turn (003).  It must follow the rule: one
        irregularity at a time, so a card out of turn that would also revoke is refused."""
        text = OutOfTurn(seat, action)
        if not self._may_play_out_of_turn(seat):
            raise self._illegal(text, f"{seat} has already played to this trick")
        card: int = action.card
        if not self.hands[seat] >> card & 1:
            raise self._illegal(text, f"{seat} does not hold {action.card}")
        if not self._playable(seat) >> card & 1:
            raise self._illegal(text, f"{action.card} would also revoke: even out of turn a card follows the rule "
                                      f"({CardSet(self._playable(seat))})")
        resume = self.to_act
        assert resume is not None
        honour.play_back = (card, self.low_holder, resume, self._best, self._winner)
        slow = self._burying
        self._burying = False  # the card goes to the trick as any card in turn does
        self.to_act = seat
        self._mask = 1 << card
        self.apply(action)  # cannot end the trick: the seat whose turn it was has not played
        self._burying = slow
        self.history[-1] = text
        offence = Offence(PLAY_OUT_OF_TURN, seat, len(self.tricks), action.card)
        honour.offences.append(offence)
        self._ask(offence, resume, honour)

    def _play_around(self, action: Play, honour: HonourState) -> None:
        """A card in turn while a waived play out of turn stands in the trick: played as usual, then the
        turn passes over the seats that already played (the slow path, so the hot loop has no such check)."""
        self._burying = False
        self._mask = 1 << action.card  # _check_play has passed it (a revoke is kept there)
        tricks = len(self.tricks)
        self.apply(action)
        if len(self.tricks) != tricks or self.phase is not _PLAY:  # the trick is over: nobody to skip
            honour.around = False
            return
        self._burying = True
        nxt = self.to_act
        assert nxt is not None
        while not self._may_play_out_of_turn(nxt):
            nxt = nxt.left
        self.to_act = nxt
        self._mask = self._playable(nxt)

    def _ask(self, offence: Offence, resume: Seat | None, honour: HonourState) -> None:
        """The other side is asked about ``offence`` now: the offender's left-hand opponent claims or waives."""
        honour.pending = offence
        honour.resume = resume
        honour.slow = self._burying
        self._burying = True  # the play's legal actions and cards take the slow path until it is answered
        self.to_act = offence.seat.left

    def _answer(self, action: Claim | Waive, seat: Seat | None, honour: HonourState) -> None:
        offence = honour.pending
        if offence is None:
            raise self._illegal(action, "no irregularity waits for a claim")
        asked = self.to_act
        assert asked is not None
        if seat is not None and seat != asked:
            raise self._illegal(action, f"{asked} is asked about it: {offence.describe()}")
        if type(action) is Claim and action not in self._claim_options(offence):
            raise self._illegal(action, f"{offence.describe()}: the claim does not fit it")
        self.history.append(action)
        self.actors.append(asked)
        honour.pending = None
        self._burying = honour.slow
        self.to_act = honour.resume
        if type(action) is Waive:
            offence.outcome = "waived"
            if offence.kind == LEAD_OUT_OF_TURN:
                self.leader = offence.seat  # the lead stands: the offender leads this trick
            elif offence.kind == PLAY_OUT_OF_TURN:
                self._play_stands(honour)
        else:
            offence.outcome = "claimed"
            if offence.kind == REVOKE:
                self._claim_revoke(offence, honour)
            elif offence.kind == BID_OUT_OF_TURN:
                honour.barred |= 1 << (offence.seat & 1)
                honour.ruling.append(bid_out_of_turn_words(offence.seat.team))
            elif offence.kind == PLAY_OUT_OF_TURN:
                self._take_back_play(offence, honour)
            else:
                self._take_back(offence, action.lead if type(action) is Claim else "", honour)
        # Every revoke that shows is asked about, one at a time; the last answered once the play is over ends it.
        if self.phase is _PLAY and not self._ask_next(honour) and self.to_act is None:
            self._end_after_claims(honour)

    def _claim_revoke(self, offence: Offence, honour: HonourState) -> None:
        honour.revokers.append(offence.seat.team)  # settled when the deal ends (revokes_ruling)
        if honour.penalty_003:
            return  # play goes on
        # 002: the penalty is the whole settlement, so the play ends with the claim.  The tricks are then
        # examined: a revoke of the other side is asked about too before the deal ends (_ask_next).
        self.to_act = None
        for other in honour.offences:
            if other.kind == REVOKE and not other.outcome and other.seat.team not in honour.revokers:
                other.shown = True

    def _end_after_claims(self, honour: HonourState) -> None:
        """The play is over and every revoke has been answered: the deal ends.  Under 002 a claimed revoke
        is the whole settlement (the play may have ended with the claim); under 003 _settle rules on it."""
        self.phase = _DONE
        if honour.penalty_003 or not honour.revokers:
            return
        makers = self.maker
        assert makers is not None
        made, change, words = revokes_ruling(self.rules, makers.team, self.high_bid, None, honour.revokers, "002")
        honour.ruling.extend(words)
        self._result = DealResult(False, makers, self.high_bid, self.trump, (), None, made, change,
                                  tuple(honour.ruling))

    def _take_back(self, offence: Offence, lead: str, honour: HonourState) -> None:
        """A lead out of turn claimed (003): the card goes back to the hand, and the right player leads."""
        assert honour.taken_back is not None and self._t is not None
        card, low, leader = honour.taken_back
        bit = 1 << card
        self.hands[offence.seat] |= bit
        self.in_play &= ~bit
        self.low_holder = low
        self._start_trick(leader)
        hand = self.hands[leader]
        trumps = hand & self._t.trumps
        if lead == "trumps" and trumps:
            self._mask = trumps
            honour.required = "must lead a trump"
        elif lead == "no-trumps" and hand & ~trumps:
            self._mask = hand & ~trumps
            honour.required = "may not lead a trump"
        honour.ruling.append(lead_out_of_turn_words(ALL_CARDS[card], leader, lead))

    def _play_stands(self, honour: HonourState) -> None:
        """A play out of turn waived: the card stands, the seat whose turn it was plays, and the seats
        skipped play in turn after it; the offender, who has played, is passed over."""
        assert honour.play_back is not None
        player = honour.play_back[2]
        self._mask = self._playable(player)
        honour.around = True
        self._burying = True  # the slow path, where the turn passes over the seats that played

    def _take_back_play(self, offence: Offence, honour: HonourState) -> None:
        """A play out of turn claimed (003): the card goes back to the hand, and the seat whose turn it was plays."""
        assert honour.play_back is not None
        card, low, player, best, winner = honour.play_back
        bit = 1 << card
        self.hands[offence.seat] |= bit
        self.in_play &= ~bit
        self.low_holder = low
        self.trick = [p for p in self.trick if p.seat != offence.seat]
        self._best, self._winner = best, winner
        self._mask = self._playable(player)
        honour.ruling.append(play_out_of_turn_words(ALL_CARDS[card], player))

    def _after_trick(self, honour: HonourState) -> None:
        """A revoke shows when its trick's successors show the revoker held the suit: the other side is asked."""
        honour.around = False  # a waived play out of turn stood in the trick just ended
        last = self.tricks[-1]
        over = self.phase is _DONE
        for offence in honour.offences:
            if offence.kind == REVOKE and not offence.shown:
                shown = 0
                for p in last.plays:
                    if p.seat == offence.seat:
                        shown |= 1 << p.card | p.buried
                offence.shown = over or bool(shown & offence.bound)  # at the end every trick is examined
        self._ask_next(honour)

    def _ask_next(self, honour: HonourState) -> bool:
        """Ask about the first revoke shown and not yet answered, if any (whether one is asked)."""
        settled = () if honour.penalty_003 else honour.revokers  # 002: a side claimed once has its penalty
        for offence in honour.offences:
            if offence.kind == REVOKE and offence.shown and not offence.outcome and offence.seat.team not in settled:
                if self.phase is _DONE:  # after the last trick: the deal waits for the answer
                    self.phase = _PLAY
                self._ask(offence, self.to_act, honour)
                return True
        return False

    def _misdeal(self, action: Claim, seat: Seat | None, honour: HonourState) -> None:
        if self.phase is not _BIDDING or self.history:
            raise self._illegal(action, "a misdeal is claimed when the cards are dealt, before the first call "
                                        "(002, 003)")
        self.history.append(action)
        who = seat if seat is not None else self.to_act
        assert who is not None
        self.actors.append(who)
        nxt, words = misdeal_ruling(self.dealer, honour.text)
        honour.next_dealer = nxt
        honour.ruling.append(words)
        honour.offences.append(Offence(MISDEAL, self.dealer, outcome="claimed"))
        self.phase = _DONE
        self.to_act = None
        self._result = DealResult(True, None, None, None, (), None, None, (0, 0), (words,))

    def _check_honour_bid(self, action: Action, stuck: bool) -> None:
        honour = self._honour
        assert honour is not None
        if honour.pending is not None:
            raise self._illegal(action, f"{self._asked(honour.pending)} first")
        to_act = self.to_act
        if type(action) is Bid and to_act is not None and honour.barred >> (to_act & 1) & 1 and not stuck:
            raise self._illegal(action, f"{to_act.team} bid out of turn and may not bid again this deal (003)")

    # ---- views -------------------------------------------------------------
    def view(self, seat: int, **match_context: Any) -> SeatView:
        """What ``seat`` may know now; ``match_context`` adds score, target and the like."""
        me = self._f.seats[seat]  # a new name: compiled, a variable declared int holds a plain int, not the Seat
        face_up = self._f.face_up
        empty = CardSet(0)
        legal: Sequence[Action] = self.legal_actions() if self.to_act == me else ()
        is_dealer = me == self.dealer
        hands = self.hands
        return SeatView(
            seat=me,
            rules=self.rules,
            dealer=self.dealer,
            phase=self.phase,
            to_act=self.to_act,
            hand=CardSet(hands[me]),
            hand_sizes=tuple(h.bit_count() for h in hands),
            auction=tuple(self.auction),
            maker=self.maker if self.phase is not _BIDDING else None,
            bid=self.high_bid if self.maker is not None and self.phase is not _BIDDING else None,
            trump=self.trump,
            own_discards=CardSet(self.discards[me]),
            face_up_discards=tuple(
                CardSet(self.discards[s] & ~self.shown[s]) if face_up else empty for s in range(len(hands))
            ),
            shown_trumps=tuple(CardSet(m) for m in self.shown),
            drawn_counts=tuple(self.draw_counts),
            own_drawn=CardSet(self.drawn[me]),
            stock_seen=CardSet(self.stock_seen & ~self.hands[me]) if is_dealer else empty,
            tricks=tuple(self.tricks),
            trick_leader=self.leader if self.phase is _PLAY else None,
            current_trick=tuple(self.trick),
            legal=legal,
            irregularities=() if self._honour is None else self._honour.public(),
            asked="" if self._honour is None or self._honour.pending is None else self._honour.pending.kind,
            **match_context,
        )


def _unpickle(rules: Rules, dealer: int, values: tuple[object, ...]) -> Deal:
    deal = Deal(rules, dealer, _BLANK)
    for name, value in zip(_FIELDS, values, strict=True):
        setattr(deal, name, value)
    return deal


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """``rng.shuffle(items)``.  For a ``random.Random`` itself, its steps written out: the same draws
    from ``getrandbits`` (``Random._randbelow``), so the same order and the generator left in the
    same state, at a fraction of the cost in the compiled build (the deck's shuffle, the world
    sampler's); a generator of its own kind uses its own shuffle.

    >>> a, b = list(range(10)), list(range(10))
    >>> shuffle(random.Random(3), a); random.Random(3).shuffle(b); a == b
    True
    """
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
    for n in range(len(items), 1, -1):
        j = _below(rng, n)
        i = n - 1
        items[i], items[j] = items[j], items[i]


def randbelow(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n`` above 0, drawn as :func:`shuffle` draws (the same number, the
    generator left in the same state)."""
    if n <= 0 or type(rng) is not random.Random:
        return rng.randrange(n)  # nothing below 0 to draw: randrange's own error says so
    return _below(rng, n)


def _below(rng: random.Random, n: int) -> int:
    """``Random._randbelow(n)`` for ``n`` above 0: bits enough for ``n``, drawn again until below it."""
    k = _BIT_LENGTH[n] if n <= 2 * DECK_SIZE else n.bit_length()
    j = rng.getrandbits(k)
    while j >= n:
        j = rng.getrandbits(k)
    return j


def dealer_is_stuck(rules: Rules, dealer: int, seat: int | None, high_bid: int, passed: int) -> bool:
    """All the others passed (``passed``: a bit per seat) and the rules leave the dealer stuck
    with the minimum bid (000)."""
    return _is_stuck(_facts(rules), dealer, seat, high_bid, passed)


def legal_bids(rules: Rules, dealer: int, seat: int | None, high_bid: int, passed: int) -> tuple[Action, ...]:
    """The bidding actions open to ``seat`` when the high bid is ``high_bid`` (0: none yet)."""
    return _open_bids(_facts(rules), dealer, seat, high_bid, passed)


def _is_stuck(facts: _RuleFacts, dealer: int, seat: int | None, high_bid: int, passed: int) -> bool:
    everyone = (1 << facts.players) - 1
    return facts.stuck_dealer and high_bid == 0 and seat == dealer and passed == everyone & ~(1 << dealer)


def _open_bids(facts: _RuleFacts, dealer: int, seat: int | None, high_bid: int, passed: int) -> tuple[Action, ...]:
    if _is_stuck(facts, dealer, seat, high_bid, passed):
        return facts.stuck_bids
    return facts.bids[high_bid]


def discard_is_forced(rules: Rules, trumps_held: int) -> bool:
    """Whether a player holding ``trumps_held`` trumps has no choice at the discard: he throws
    every non-trump and keeps every trump.
    """
    free = rules.discard is not Discard.CHOOSE_CONCEALED  # all non-trumps go
    buried = rules.above_six is AboveSix.BURIED  # above six, all trumps stay
    full = rules.seating.hand
    return (trumps_held <= full or buried) and (free or trumps_held >= full)


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


# Enum members as module constants: CPython 3.11 reads a member (Phase.PLAY) through the enum type's
# __getattr__ hook, a lookup along the class's MRO every time; a module constant is one cached load.
_BIDDING: Final = Phase.BIDDING
_TRUMP: Final = Phase.TRUMP
_DISCARD: Final = Phase.DISCARD
_RESTOCK: Final = Phase.RESTOCK
_ROB: Final = Phase.ROB
_PLAY: Final = Phase.PLAY
_DONE: Final = Phase.DONE
_ALL_TRUMPS: Final = Rob.ALL_TRUMPS
_TRUMPS_FIRST: Final = Rob.TRUMPS_FIRST
# Compiled (mypyc), a module's Final names are constants, and any other name (an imported one too)
# is looked up by name at each use: the play reads these.
_BIT: Final = tuple(1 << c for c in range(2 * DECK_SIZE))
_BIT_LENGTH: Final = tuple(n.bit_length() for n in range(2 * DECK_SIZE + 1))
_played: Final = tuple.__new__  # PlayedCard and Trick without the NamedTuple constructor's overhead
# Every card a seat may play without burials, as the trick records it: one object each, made once.
_PLAYED: Final = tuple(_played(PlayedCard, (SEATS[s], c, CardSet(0))) for s in range(4) for c in ALL_CARDS)
_STRIDE: Final = 2 * DECK_SIZE  # a seat's row of _PLAYED: every card of two packs
_FACTS: Final[dict[int, tuple[Rules, _RuleFacts]]] = {}
_BLANK: Final = _Shuffled([])  # the deck of a deal whose fields are filled in by copy() or unpickling
_SUIT_RANKS: Final = 0x1FFF
# The plays of each suit's cards, by the suit's 13 bits of a mask: filled as masks come.
_SUIT_PLAYS: Final[tuple[list[tuple[Play, ...] | None], ...]] = tuple([None] * (1 << 13) for _ in range(4))


def _suit_plays(suit: int, ranks: int) -> tuple[Play, ...]:
    """The plays of the cards of ``suit`` whose ranks are the bits of ``ranks`` (ace first), kept."""
    out = []
    base = 13 * suit
    m = ranks
    while m:
        low = m & -m
        out.append(PLAYS[base + low.bit_length() - 1])
        m ^= low
    plays = _SUIT_PLAYS[suit][ranks] = tuple(out)
    return plays


def _plays_of(mask: int) -> tuple[Play, ...]:
    """The plays of the cards in ``mask``: its suits' plays from the per-suit tables, put together.

    A table by the whole mask missed a third of the time (hands rarely recur between deals);
    thirteen bits of one suit always recur."""
    spades, hearts, diamonds, clubs = _SUIT_PLAYS
    s = spades[mask & _SUIT_RANKS]
    if s is None:
        s = _suit_plays(0, mask & _SUIT_RANKS)
    h = hearts[mask >> 13 & _SUIT_RANKS]
    if h is None:
        h = _suit_plays(1, mask >> 13 & _SUIT_RANKS)
    d = diamonds[mask >> 26 & _SUIT_RANKS]
    if d is None:
        d = _suit_plays(2, mask >> 26 & _SUIT_RANKS)
    c = clubs[mask >> 39]
    if c is None:
        c = _suit_plays(3, mask >> 39)
    return s + h + d + c


def _kept_copies(kept: int, pool: int, hand: int) -> int:
    """The cards a keep of ``kept`` means (two decks): a card named twice is both copies; named once,
    the copy in the hand if there is one (the dealer keeps his own card and leaves the stock's),
    else the one in ``pool``.  So a keep means what its text says, whichever copy was picked.

    >>> from cinch.cards import Card
    >>> js = Card.parse("JS")
    >>> _kept_copies(1 << js, 1 << js | 1 << js.twin, 1 << js.twin) == 1 << js.twin
    True
    """
    out = 0
    for c in bits(fold(kept)):
        twin = c + DECK_SIZE
        if kept >> c & 1 and kept >> twin & 1:
            out |= 1 << c | 1 << twin
        elif hand >> c & 1 or (not hand >> twin & 1 and pool >> c & 1):
            out |= 1 << c
        elif hand >> twin & 1 or pool >> twin & 1:
            out |= 1 << twin
        else:
            out |= kept & (1 << c | 1 << twin)  # in neither: the check names it
    return out


def _twin_plays(mask: int) -> list[Play]:
    """The plays of the cards in ``mask`` when it holds second-pack cards (two decks): one play per card
    as it reads, the first pack's copy when both are there."""
    return [PLAYS[c] if mask >> c & 1 else PLAYS[c + DECK_SIZE] for c in bits(fold(mask))]


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


def _keep_texts(hand: int) -> dict[str, dict[str, str]]:
    """The rules of each keep in words, for hands of ``hand`` cards (six, or twelve with two decks)."""
    texts = {"keep_six": _KEEP_SIX_TEXT, "choose": _CHOOSE_TEXT, "all_trumps": _ALL_TRUMPS_TEXT,
             "any_six": _ANY_SIX_TEXT, "trumps_first": _TRUMPS_FIRST_TEXT}
    if hand == HAND:
        return texts
    return {name: {key: for_hands_of(words, hand) for key, words in text.items()} for name, text in texts.items()}
