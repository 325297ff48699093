"""A match: deals in sequence, the dealer passing left, running scores, the winner.

>>> from cinch import Rules, Seat
>>> m = Match(Rules.preset("difference"), first_dealer=Seat.W, rng=3)
>>> deal = m.start_deal()
>>> deal.dealer, m.score, m.winner
(Seat.W, (0, 0), None)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from cinch.actions import Action
from cinch.cards import SEATS, Seat, Team
from cinch.deal import Deal, DealResult
from cinch.errors import IllegalAction
from cinch.rules import Rules
from cinch.shuffle import Shuffle
from cinch.view import Phase, SeatView


@dataclass(frozen=True)
class DealSummary:
    """One finished deal as the match saw it."""

    number: int
    dealer: Seat
    result: DealResult
    bidder_goes_out: bool  # the deal was played under bidder goes out
    score: tuple[int, int]  # running score after the deal (NS, EW)

    def to_json(self) -> dict[str, Any]:
        r = self.result
        return {
            "dealer": self.dealer.name,
            "thrown_in": r.thrown_in,
            "maker": None if r.maker is None else r.maker.name,
            "bid": r.bid,
            "trump": None if r.trump is None else r.trump.letter,
            "points": None if r.points is None else teams_json(r.points),
            "made": r.made,
            "score_change": teams_json(r.score_change),
            "score": teams_json(self.score),
        }


def decide(rules: Rules, score: tuple[int, int], makers: Team, made: bool,
           bidder_goes_out: bool) -> tuple[Team | None, bool]:
    """Who has won once a deal is scored, and whether both sides reached the target together.

    ``score`` is the running score after the deal (NS, EW); ``makers`` bid it and ``made`` says
    whether they made it; ``bidder_goes_out`` whether the deal was played under that rule.  A tie
    at the target under the bidder-goes-out rule (second value True) is decided by
    bidder-goes-out deals.  This
    is the match's one home for going out (the target, makers count first, bidder goes out,
    the negative floor), which the bots' match equity reads too.

    >>> from cinch import Rules
    >>> decide(Rules.preset("pagat"), (63, 40), Team.EW, False, False)  # NS reached 62
    (Team.NS, False)
    """
    if bidder_goes_out and made:
        return makers, False  # bidder goes out: makers who make their bid win outright
    over = [s >= rules.target for s in score]
    winner: Team | None = None
    if all(over):
        if rules.makers_count_first:
            winner = makers if made else makers.other
        elif rules.bidder_goes_out is not None:
            return None, True  # bidder-goes-out deals decide it
        elif score[0] != score[1]:
            winner = Team.NS if score[0] > score[1] else Team.EW
    elif any(over):
        winner = Team.NS if over[0] else Team.EW
    if winner is None and rules.negative_floor is not None:
        low = [s <= rules.negative_floor for s in score]
        if any(low) and not all(low):
            winner = Team.EW if low[0] else Team.NS
    return winner, False


def bidder_goes_out_applies(rules: Rules, score: tuple[int, int], decider_pending: bool) -> bool:
    """Whether a deal from ``score`` is played under bidder goes out (000): both sides at the
    rule's threshold or more, or a tie at the target waiting for its decider."""
    threshold = rules.bidder_goes_out
    if threshold is None:
        return False
    return decider_pending or min(score) >= threshold


def teams_json(pair: tuple[int, int]) -> dict[str, int]:
    """A pair by side, as records and reports write it: ``{"NS": 13, "EW": 1}``."""
    return {"NS": pair[0], "EW": pair[1]}


class Match:
    """Deals until a side wins, under one set of rules.

    ``rng`` (a Random or a seed) shuffles the decks the match deals itself; ``score`` is
    where it begins (NS, EW), 0 to 0 unless a study starts it elsewhere (a record starts at 0);
    a record supplies its decks instead (``start_deal(deck=...)``), and a verifiable
    :class:`~cinch.shuffle.Shuffle` derives them (``start_deal(shuffle=...)``).
    """

    def __init__(
        self,
        rules: Rules,
        first_dealer: Seat | None = None,
        players: dict[Seat, str] | None = None,
        rng: random.Random | int | None = None,
        score: tuple[int, int] = (0, 0),
    ):
        self.rules = rules
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)
        self.first_dealer = Seat(first_dealer) if first_dealer is not None else Seat(self.rng.randrange(4))
        self.players = dict(players or {})
        self.metadata: dict[str, Any] = {}  # a record's other top-level keys, kept as they are (JSON values)
        self.deals: list[Deal] = []
        self.summaries: list[DealSummary] = []
        self.shuffles: dict[int, Shuffle] = {}  # by index in ``deals``: the deals dealt from a Shuffle
        self._score = [score[0], score[1]]  # a match may begin at a score (the arena's deals from a score)
        self.winner: Team | None = None
        self._decider_pending = False  # both sides reached the target together: bidder-goes-out deals follow
        self._bgo_now = False

    # ---- state -------------------------------------------------------------
    @property
    def score(self) -> tuple[int, int]:
        return (self._score[0], self._score[1])

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def current(self) -> Deal | None:
        """The deal being played, or None between deals."""
        if self.deals and not self.deals[-1].is_over:
            return self.deals[-1]
        return None

    @property
    def next_dealer(self) -> Seat:
        return self.deals[-1].next_dealer if self.deals else self.first_dealer  # (the same after a misdeal, 002)

    def bidder_goes_out_applies(self) -> bool:
        """Whether the next (or current) deal is played under bidder goes out (000)."""
        return bidder_goes_out_applies(self.rules, self.score, self._decider_pending)

    # ---- playing -------------------------------------------------------------
    def start_deal(
        self, deck: str | Iterable[int | str] | None = None, restock: Iterable[int | str] | None = None,
        dealer: Seat | None = None, shuffle: Shuffle | None = None,
    ) -> Deal:
        """Begin the next deal, from ``deck``, from ``shuffle`` or from a shuffle of the match's rng.

        With ``shuffle`` (whose ``number`` must be this deal's, counting from 1) the deck is
        ``shuffle.deck()``, and a new stock, if the rules form one, is ``shuffle.restock(...)``
        (:meth:`resolve_chance`).  Given ``deck`` as well, the match deals ``deck`` and keeps the
        shuffle unchecked: the caller has verified them (:meth:`Shuffle.verify`), as a replay does.
        """
        if self.winner is not None:
            raise IllegalAction("a new deal", f"the match is over: {self.winner} won")
        if self.current is not None:
            raise IllegalAction("a new deal", "the current deal is not finished")
        expected = self.next_dealer
        if dealer is not None and Seat(dealer) != expected:
            raise IllegalAction(f"{Seat(dealer)} to deal", f"the deal passes to the left: {expected} deals now")
        number = len(self.deals) + 1
        if shuffle is not None and shuffle.number != number:
            raise IllegalAction(f"a deal from the shuffle of deal {shuffle.number}", f"this is deal {number}",
                                legal_summary=f"a shuffle numbered {number}")
        if deck is None and shuffle is not None:
            # Dealt as a given deck: a new stock waits as a chance event, which resolve_chance forms.
            deal = Deal(self.rules, expected, shuffle.deck(), restock=restock)
        elif deck is None:
            deal = Deal.shuffled(self.rules, expected, self.rng)
        else:
            # A given deck comes from a record: its new stock, if any, must be given too.
            deal = Deal(self.rules, expected, deck, restock=restock)
        self._bgo_now = self.bidder_goes_out_applies()
        if shuffle is not None:
            self.shuffles[len(self.deals)] = shuffle
        self.deals.append(deal)
        self._after_action(deal)
        return deal

    def turns(self) -> Iterator[Seat]:
        """The seats to act in the current deal, one at a time until it is over; a new stock is
        shuffled on the way (:meth:`resolve_chance`).  Apply the seat's action before asking for
        the next: ``for seat in match.turns(): match.apply(bot.choose(match.view(seat)), seat)``.
        """
        deal = self.current
        while deal is not None and not deal.is_over:
            if deal.phase is Phase.RESTOCK:
                self.resolve_chance()
                continue
            seat = deal.to_act
            assert seat is not None  # someone acts in every phase but the restock and the end
            yield seat

    def resolve_chance(self) -> bool:
        """Shuffle a new stock with the match's rng if the current deal waits for one.

        Decks the match shuffles itself resolve this on their own; a deal from a
        given deck (a record being resumed) waits, so that a replay never invents
        a restock its record does not hold.  A deal dealt from a :class:`Shuffle`
        takes the new stock its shuffle forms, not the rng's.
        """
        deal = self.current
        if deal is None or deal.phase is not Phase.RESTOCK:
            return False
        shuffle = self.shuffles.get(len(self.deals) - 1)
        if shuffle is not None:
            order = list(shuffle.restock(deal.restock_pool))
        else:
            order = list(deal.restock_pool)
            self.rng.shuffle(order)
        deal.apply_restock(order)
        self._after_action(deal)
        return True

    def apply(self, action: Action, seat: Seat | None = None) -> None:
        deal = self.deals[-1] if self.deals else None
        if deal is None or deal.phase is Phase.DONE:
            why = f"the match is over: {self.winner} won" if self.winner is not None else "no deal is in progress"
            raise IllegalAction(action, why)
        deal.apply(action, seat)
        if deal.is_over:
            self._after_action(deal)

    def _after_action(self, deal: Deal) -> None:
        if deal.phase is Phase.DONE and len(self.summaries) < len(self.deals):
            self._settle(deal)

    def _settle(self, deal: Deal) -> None:
        r = deal.result
        assert r is not None
        bgo = self._bgo_now
        if not r.thrown_in:
            self._score[0] += r.score_change[0]
            self._score[1] += r.score_change[1]
            self.winner = self._decide(r, bgo)
        self.summaries.append(DealSummary(len(self.deals), deal.dealer, r, bgo, self.score))

    def _decide(self, r: DealResult, bgo: bool) -> Team | None:
        makers = r.makers
        assert makers is not None
        winner, tied = decide(self.rules, self.score, makers, bool(r.made), bgo)
        if winner is not None:
            self._decider_pending = False
        elif tied:
            self._decider_pending = True
        return winner

    def view(self, seat: Seat) -> SeatView:
        """What ``seat`` may know of the current (or last) deal, with the match score."""
        deal = self.deals[-1]
        score = self.summaries[-2].score if deal.is_over and len(self.summaries) > 1 else (
            (0, 0) if deal.is_over else self.score)
        names = tuple(self.players.get(s, "") for s in SEATS) if self.players else None
        return deal.view(
            seat, score=score, target=self.rules.target, deal_number=len(self.deals),
            bidder_goes_out=self._bgo_now, players=names,
        )

    def play_out(self, choose: Callable[[SeatView], Action]) -> None:
        """Play to the end, asking ``choose(view) -> action`` for every decision (new deals shuffled)."""
        while not self.is_over:
            deal = self.current or self.start_deal()
            while not deal.is_over:
                seat = deal.to_act
                assert seat is not None
                self.apply(choose(self.view(seat)), seat)
