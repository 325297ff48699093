"""A match: deals in sequence, the dealer passing left, running scores, the winner.

>>> from cinch import Rules, Seat
>>> m = Match(Rules.preset("difference"), first_dealer=Seat.W, rng=3)
>>> deal = m.start_deal()
>>> deal.dealer, m.score, m.winner
(Seat.W, (0, 0), None)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from cinch.actions import Action
from cinch.cards import Seat, Team
from cinch.deal import Deal, DealResult
from cinch.errors import IllegalAction
from cinch.rules import Rules
from cinch.seating import FOUR, Seating
from cinch.shuffle import Shuffle
from cinch.view import Phase, SeatView


@dataclass(frozen=True)
class DealSummary:
    """One finished deal as the match saw it."""

    number: int
    dealer: Seat
    result: DealResult
    bidder_goes_out: bool  # the deal was played under bidder goes out
    score: tuple[int, ...]  # running score after the deal (NS, EW; cut-throat by player)

    def to_json(self) -> dict[str, Any]:
        r = self.result
        table = r.seating
        return {
            "dealer": self.dealer.name,
            "thrown_in": r.thrown_in,
            "maker": None if r.maker is None else r.maker.name,
            "bid": r.bid,
            "trump": None if r.trump is None else r.trump.letter,
            "points": None if r.points is None else teams_json(r.points, table),
            "made": r.made,
            "score_change": teams_json(r.score_change, table),
            "score": teams_json(self.score, table),
        }


def decide(rules: Rules, score: tuple[int, ...], makers: Team, made: bool,
           bidder_goes_out: bool, may_go_out: Collection[int] | None = None) -> tuple[Team | None, bool]:
    """Who has won once a deal is scored, and whether both sides reached the target together.

    ``score`` is the running score after the deal (NS, EW); ``makers`` bid it and ``made`` says
    whether they made it; ``bidder_goes_out`` whether the deal was played under that rule, and
    ``may_go_out`` which sides it lets go out (:func:`going_out_sides`; None: every side).  A tie
    at the target under the bidder-goes-out rule (second value True) is decided by
    bidder-goes-out deals.  This
    is the match's one home for going out (the target, makers count first, bidder goes out,
    the negative floor), which the bots' match equity reads too.

    >>> from cinch import Rules
    >>> decide(Rules.preset("pagat"), (63, 40), Team.EW, False, False)  # NS reached 62
    (Team.NS, False)
    """
    if bidder_goes_out and made and (may_go_out is None or makers in may_go_out):
        return makers, False  # bidder goes out: makers who make their bid win outright
    sides = rules.seating.side_list
    over = [side for side, s in enumerate(score) if s >= rules.target]
    winner: Team | None = None
    if len(over) == 1:
        winner = sides[over[0]]
    elif over:
        if rules.makers_count_first:
            if made and makers in over:
                return makers, False
            over = [side for side in over if side != makers]  # makers who failed count first, and lose
            winner = _highest(sides, score, over)
        elif rules.bidder_goes_out is not None:
            return None, True  # bidder-goes-out deals decide it
        else:
            winner = _highest(sides, score, over)
    if winner is None and rules.negative_floor is not None:
        low = [s <= rules.negative_floor for s in score]
        if any(low) and not all(low):  # a side at the floor loses: the best of the rest wins
            winner = _highest(sides, score, [side for side, down in enumerate(low) if not down])
    return winner, False


def _highest(sides: tuple[Team, ...], score: tuple[int, ...], among: list[int]) -> Team | None:
    """The one side of ``among`` with the highest score; None on a tie (the match goes on)."""
    best = max(score[side] for side in among)
    top = [side for side in among if score[side] == best]
    return sides[top[0]] if len(top) == 1 else None


def bidder_goes_out_applies(rules: Rules, score: tuple[int, ...], decider_pending: bool) -> bool:
    """Whether a deal from ``score`` is played under bidder goes out (000): every side at the
    rule's threshold or more, or a tie at the target waiting for its decider."""
    return bool(going_out_sides(rules, score, decider_pending))


def going_out_sides(rules: Rules, score: tuple[int, ...], decider_pending: bool) -> tuple[int, ...]:
    """The sides (by index) whose made bid wins a deal from ``score`` under bidder goes out (000); none
    when the rule does not apply.

    000 applies it "if both had at least 55 before a deal": every side at the threshold, and every one
    of them may go out.  After a deal took several sides to the target together, the deals that decide
    it are among those near the target: only the sides standing at the target before the deal may go
    out, and a maker far behind who makes his bid scores it and wins nothing (docs/rule-readings.md).

    >>> from cinch import Rules
    >>> going_out_sides(Rules.preset("pagat").with_options(players=3), (64, -12, 70), True)
    (0, 2)
    """
    threshold = rules.bidder_goes_out
    if threshold is None:
        return ()
    if decider_pending:
        return tuple(side for side, s in enumerate(score) if s >= rules.target)
    if min(score) >= threshold:
        return tuple(range(len(score)))
    return ()


def teams_json(values: tuple[int, ...] | list[int], table: Seating = FOUR) -> dict[str, int]:
    """Numbers by side, as records and reports write them: ``{"NS": 13, "EW": 1}``, or by player
    at a cut-throat table: ``{"1": 4, "2": -7, "3": 5}``."""
    return table.side_json(values)


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
        score: tuple[int, ...] | None = None,
    ):
        self.rules = rules
        table = self.table = rules.seating
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)
        self.first_dealer = table.seats[first_dealer if first_dealer is not None
                                        else self.rng.randrange(table.players)]
        self.players = dict(players or {})
        self.metadata: dict[str, Any] = {}  # a record's other top-level keys, kept as they are (JSON values)
        self.deals: list[Deal] = []
        self.summaries: list[DealSummary] = []
        self.shuffles: dict[int, Shuffle] = {}  # by index in ``deals``: the deals dealt from a Shuffle
        if score is None:
            score = (0,) * table.sides
        if len(score) != table.sides:
            raise ValueError(f"a score of {len(score)} numbers for {table.sides} sides")
        self._score = list(score)  # a match may begin at a score (the arena's deals from a score)
        self.winner: Team | None = None
        self._decider_pending = False  # both sides reached the target together: bidder-goes-out deals follow
        self._bgo_sides: tuple[int, ...] = ()  # the sides that may go out on the deal being played
        self._bgo_now = False

    # ---- state -------------------------------------------------------------
    @property
    def score(self) -> tuple[int, ...]:
        return tuple(self._score)

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

    def going_out_sides(self) -> tuple[int, ...]:
        """The sides that may go out by making their bid on the next deal (see :func:`going_out_sides`)."""
        return going_out_sides(self.rules, self.score, self._decider_pending)

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
        if dealer is not None and dealer != expected:
            raise IllegalAction(f"{self.table.seats[dealer]} to deal",
                                f"the deal passes to the left: {expected} deals now")
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
        self._bgo_sides = self.going_out_sides()
        self._bgo_now = bool(self._bgo_sides)
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
            for side, change in enumerate(r.score_change):
                self._score[side] += change
            self.winner = self._decide(r, bgo)
        self.summaries.append(DealSummary(len(self.deals), deal.dealer, r, bgo, self.score))

    def _decide(self, r: DealResult, bgo: bool) -> Team | None:
        makers = r.makers
        assert makers is not None
        winner, tied = decide(self.rules, self.score, makers, bool(r.made), bgo, self._bgo_sides)
        if winner is not None:
            self._decider_pending = False
        elif tied:
            self._decider_pending = True
        return winner

    def view(self, seat: Seat) -> SeatView:
        """What ``seat`` may know of the current (or last) deal, with the match score."""
        deal = self.deals[-1]
        score = self.summaries[-2].score if deal.is_over and len(self.summaries) > 1 else (
            (0,) * self.table.sides if deal.is_over else self.score)
        names = tuple(self.players.get(s, "") for s in self.table.seats) if self.players else None
        return deal.view(
            seat, score=score, target=self.rules.target, deal_number=len(self.deals),
            bidder_goes_out=self._bgo_now, going_out=self._bgo_sides, players=names,
        )

    def play_out(self, choose: Callable[[SeatView], Action]) -> None:
        """Play to the end, asking ``choose(view) -> action`` for every decision (new deals shuffled)."""
        while not self.is_over:
            deal = self.current or self.start_deal()
            while not deal.is_over:
                seat = deal.to_act
                assert seat is not None
                self.apply(choose(self.view(seat)), seat)
