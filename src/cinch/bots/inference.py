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
from collections.abc import Sequence

from cinch.actions import Action, Bid, Play
from cinch.bots.base import Bot, make_bot
from cinch.bots.play_history import play_choices
from cinch.cards import DECK_SIZE, CardSet, Seat
from cinch.deal import legal_bids
from cinch.view import Phase, SeatView

__all__ = ["BidLikelihood", "PlayLikelihood", "legal_bids_after", "bid_level"]

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
    tolerance.  ``latest``: only the latest so many choices are compared (0: every one), each
    costing one decision of the model, so that a search with a few milliseconds can afford it.
    """

    def __init__(self, mismatch: float = 0.3, model: Bot | None = None, latest: int = 0):
        self.mismatch = mismatch
        self.model = model if model is not None else make_bot("heuristic", seed=0)
        self.latest = latest

    def __call__(self, view: SeatView, hands: Sequence[int]) -> float:
        if self.mismatch >= 1 or view.trump is None:
            return 1.0
        weight = 1.0
        for v, card in play_choices(view, hands, self.latest):
            guess = self.model.choose(v)
            assert isinstance(guess, Play)  # one of the legal plays
            if guess.card % DECK_SIZE != card % DECK_SIZE:  # either copy of a card is the same choice
                weight *= self.mismatch
        return weight
