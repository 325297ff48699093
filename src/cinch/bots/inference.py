"""Bid inference: how likely each player's bids and passes were, given the hand he was dealt.

A search bot samples worlds consistent with its view (:mod:`cinch.worlds`); every such
world agrees with the cards seen, but not all agree equally with the bidding.  A player who
bid 11 probably holds the top trumps and a guarded Pedro; a player who passed probably
does not.  :class:`BidLikelihood` is a ``weight(view, dealt)`` hook for the world sampler
(rejection sampling keeps a world with that probability).

The model: the other players bid like the heuristic bot (:mod:`cinch.bots.heuristic`, whose
hand evaluation was fitted on playouts), with some noise.  For each bid or pass another
player made, the heuristic is asked what it would have done with that player's sampled
nine cards at that point of the auction; the likelihood falls off exponentially with the
distance, in bid levels, between that answer and what the player did::

    weight = prod over the others' actions of exp(-sharpness * |level(heuristic) - level(actual)|)

where ``level(bid n) = n`` and ``level(pass) = max(high bid then, min_bid - 1)``.  The noise
(``sharpness``, 1.0 by default) keeps the model tolerant of players who bid otherwise (the
expert bot itself, people): a bid one level above what the heuristic would make costs a
factor e^-1, a pass with a hand the heuristic would bid 10 on a factor e^-4 (pagat).
With two decks the bids go in the same steps over twice the points, so a level counts half.
The seat's own actions carry no information about the hidden cards and are skipped.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

from cinch.actions import PLAYS, Action, Bid, Play
from cinch.bots.base import Bot, make_bot
from cinch.cards import DECK_SIZE, CardSet, Seat, bit_list, fold
from cinch.deal import legal_bids
from cinch.rules import AboveSix, Follow
from cinch.view import Phase, PlayedCard, SeatView

__all__ = ["BidLikelihood", "PlayLikelihood", "legal_bids_after", "bid_level", "play_choices"]

_EMPTY = CardSet(0)


def legal_bids_after(view: SeatView, auction: Sequence[tuple[Seat, Action]], seat: Seat) -> tuple[Action, ...]:
    """The legal bidding actions of ``seat`` after ``auction`` (the engine's rules, one circuit or auction)."""
    high = 0
    passed = 0
    for s, a in auction:
        if isinstance(a, Bid):
            high = a.amount
        else:
            passed |= 1 << s
    return legal_bids(view.rules, view.dealer, seat, high, passed)


def bid_level(action: Action, high: int, min_bid: int) -> int:
    """A bid's amount; a pass as the level just below any bid the player could make."""
    if isinstance(action, Bid):
        return action.amount
    return max(high, min_bid - 1)


class BidLikelihood:
    """``weight(view, dealt)``: the likelihood of the others' bidding given the dealt hands.

    ``model``: the bot whose bidding the others are assumed to follow (the heuristic);
    ``sharpness``: how fast the likelihood falls per bid level of disagreement.
    """

    stops_early = True  # the sampler may pass ``stop_below``: a world it will refuse anyway is not finished

    def __init__(self, sharpness: float = 1.0, model: Bot | None = None):
        self.sharpness = sharpness
        self.model = model if model is not None else make_bot("heuristic", seed=0)
        self._factor = [math.exp(-sharpness * k) for k in range(32)]
        # Two decks bid in the same steps over twice the points: a step counts half as much.
        self._factor_two_decks = [math.exp(-sharpness * k / 2) for k in range(64)]

    def __call__(self, view: SeatView, dealt: Sequence[int], stop_below: float = 0.0) -> float:
        auction = view.auction
        if not auction or self.sharpness <= 0:
            return 1.0
        rules = view.rules
        min_bid = rules.min_bid
        factor = self._factor_two_decks if rules.decks == 2 else self._factor
        limit = len(factor) - 1
        weight = 1.0
        high = 0
        for i, (seat, action) in enumerate(auction):
            if seat != view.seat:
                prefix = auction[:i]
                legal = legal_bids_after(view, prefix, seat)
                if len(legal) > 1:
                    guess = self.model.choose(self._view(view, seat, dealt[seat], prefix, legal))
                    gap = abs(bid_level(guess, high, min_bid) - bid_level(action, high, min_bid))
                    if gap:
                        weight *= factor[min(gap, limit)]
                        if weight < stop_below:
                            return weight  # the bids to come can only lower it
            if isinstance(action, Bid):
                high = action.amount
        return weight

    @staticmethod
    def _view(view: SeatView, seat: Seat, hand: int, prefix, legal) -> SeatView:
        """What ``seat`` saw when it was its turn to bid, holding ``hand``."""
        table = view.rules.seating
        empty = (_EMPTY,) * table.players
        return SeatView(
            seat=table.seats[seat], rules=view.rules, dealer=view.dealer, phase=Phase.BIDDING,
            to_act=table.seats[seat], hand=CardSet(hand), hand_sizes=(table.dealt,) * table.players,
            auction=tuple(prefix), maker=None, bid=None, trump=None,
            own_discards=_EMPTY, face_up_discards=empty, shown_trumps=empty, drawn_counts=(0,) * table.players,
            own_drawn=_EMPTY, stock_seen=_EMPTY, tricks=(), trick_leader=None, current_trick=(), legal=legal,
            score=view.score, target=view.target, deal_number=view.deal_number,
            bidder_goes_out=view.bidder_goes_out,
        )


class PlayLikelihood:
    """``weight(view, hands)``: how likely the others' card play so far was, given the hands of a world.

    The same idea as :class:`BidLikelihood`, for the tricks: each card another player chose
    (where he had a choice) is compared with what the heuristic bot would have played from
    the hand the world gives him at that moment; a different card multiplies the weight by
    ``mismatch`` (0.3 by default).  The weight is used for importance weighting of the
    worlds (a world's vote counts in proportion), not for rejection: with several tricks
    played the product gets small, and rejection would throw nearly every world away.

    The reconstructed view is approximate (the world does not say what the player threw
    face down or, for the dealer, what the stock held), which is one more reason for the
    tolerance.
    """

    def __init__(self, mismatch: float = 0.3, model: Bot | None = None):
        self.mismatch = mismatch
        self.model = model if model is not None else make_bot("heuristic", seed=0)

    def __call__(self, view: SeatView, hands: Sequence[int]) -> float:
        if self.mismatch >= 1 or view.trump is None:
            return 1.0
        weight = 1.0
        for v, card in play_choices(view, hands):
            guess = self.model.choose(v)
            assert isinstance(guess, Play)  # one of the legal plays
            if guess.card % DECK_SIZE != card % DECK_SIZE:  # either copy of a card is the same choice
                weight *= self.mismatch
        return weight


def play_choices(view: SeatView, hands: Sequence[int]) -> Iterator[tuple[SeatView, int]]:
    """Each card another player chose so far where he had a choice: the view he had then, as far as a
    world with ``hands`` (every hand now, by seat) tells it, and the card he played.

    The view is approximate: the world does not say what the player threw face down or, for the
    dealer, what the stock held.  Skipped: the seat's own plays, burials, and a trick-1 play of
    the buried-excess rule with cards to bury (a burial to choose as well).
    """
    if view.trump is None:
        return
    rules = view.rules
    t = view.rules.trump_tables[view.trump]
    strict = rules.follow is Follow.STRICT
    tricks = list(view.tricks)
    sequences: list[tuple[Seat | None, tuple[PlayedCard, ...]]] = [(tr.leader, tr.plays) for tr in tricks]
    if view.current_trick:
        sequences.append((view.trick_leader, view.current_trick))
    # The cards each seat plays from each point of the play on (walking backwards).
    n = len(view.hand_sizes)
    seats = view.seats
    later = [0] * n
    steps = []
    for ti, (_, plays) in enumerate(sequences):
        for pi, p in enumerate(plays):
            steps.append((ti, pi, p))
    n_steps = len(steps)
    after: list[tuple[int, ...]] = [()] * n_steps
    for k in range(n_steps - 1, -1, -1):
        p = steps[k][2]
        later[p.seat] |= 1 << p.card | int(p.buried)
        after[k] = tuple(later)
    buried_rule = rules.above_six is AboveSix.BURIED
    for k, (ti, pi, p) in enumerate(steps):
        seat = p.seat
        if seat == view.seat or p.buried:
            continue
        held = after[k]
        hand = int(hands[seat]) | held[seat]
        if buried_rule and ti == 0 and hand.bit_count() > rules.tricks:
            continue  # a burial to choose as well: not modelled
        plays = sequences[ti][1][:pi]
        if plays:
            legal_mask = t.follow_rule(t.effective_suit[plays[0].card], strict).playable(hand)
        else:
            legal_mask = hand
        if rules.decks == 2:
            # Two decks: a card and its twin are one choice, offered as the copy held (as the deal does).
            printed = fold(legal_mask)
            if printed & (printed - 1) == 0:
                continue  # no choice: no information
            legal = tuple(PLAYS[c] if legal_mask >> c & 1 else PLAYS[c + DECK_SIZE] for c in bit_list(printed))
        elif legal_mask & (legal_mask - 1) == 0:
            continue  # no choice: no information
        else:
            legal = tuple(PLAYS[c] for c in bit_list(legal_mask))
        sizes = tuple(int(hands[s]).bit_count() + held[s].bit_count() for s in range(n))
        past = tuple(tricks[:ti])
        v = SeatView(
            seat=seats[seat], rules=rules, dealer=view.dealer, phase=Phase.PLAY, to_act=seats[seat],
            hand=CardSet(hand), hand_sizes=sizes, auction=view.auction, maker=view.maker, bid=view.bid,
            trump=view.trump, own_discards=CardSet(int(view.face_up_discards[seat]) | int(view.shown_trumps[seat])),
            face_up_discards=view.face_up_discards, shown_trumps=view.shown_trumps,
            drawn_counts=view.drawn_counts, own_drawn=_EMPTY, stock_seen=_EMPTY, tricks=past,
            trick_leader=sequences[ti][0], current_trick=tuple(plays), legal=legal,
        )
        yield v, p.card
