"""Match equity: the chance to win the match from a score, before and after a deal.

A deal's points matter only through the match: 3 points that take a side from 48 to 51
win it, 3 points at 0–0 barely move it.  The bots that read the score (the heuristic near
the target, the expert always) judge a bid, a keep or a card by the chance to win the match
it leaves, computed here in two parts:

* **this deal, exactly**: the deal is settled by the preset (:func:`cinch.scoring.settle`) and
  the match's own rule says whether it ends the match (:func:`cinch.match.decide`: the
  target, makers count first, bidder goes out, the negative floor);
* **the deals after it, approximately** (:func:`race`): a race to the target in which each
  side gains points at the same average rate per deal with the same spread.  The logistic
  of the lead, scaled by the spread of the deals still to come, is the classic race model
  of match play; ``benchmarks/equity.py`` measures it against whole matches of heuristic
  self-play.

The race is measured in a deal's points (``rules.total_points``), so two-deck Cinch, twice the
points to a target twice as far (102 in the official game), is the same race at twice the scale:
a lead of 20 at two decks is worth what a lead of 10 is at one.

>>> one, two = Rules.preset("official"), Rules.preset("official").with_options(decks=2)
>>> race(30, 20, one.target, one.total_points) == race(60, 40, two.target, two.total_points)
True

The model is two-sided: the partnership game, and the two-player game (two sides of one).
A cut-throat table of three to six players is a race of several scores, which it does not
model: :class:`MatchEquity` refuses one, and the expert judges such a deal by its points
(:mod:`cinch.bots.expert`).

>>> from cinch import Rules, Team
>>> rules = Rules.preset("difference")
>>> round(race(0, 0, rules.target, rules.total_points), 2)
0.5
>>> after_deal(rules, (45, 49), Team.NS, Team.EW, 5, (3, 11))  # EW make 5 from 49: they go out
0.0
"""

from __future__ import annotations

import dataclasses
import math

from cinch.cards import Team
from cinch.match import decide
from cinch.rules import Rules
from cinch.scoring import settle

__all__ = ["race", "after_deal", "MatchEquity"]

# The race model's two shape constants: deals left are counted as the points still needed over
# RATE times a deal's points, and the lead is measured in SPREAD times a deal's points per
# square root of those deals.  Fitted by ``benchmarks/equity.py --fit`` to 400 heuristic
# self-play matches from each of ten scores under difference and pagat (root mean square
# error 0.028 in the chance to win, about one and a half standard errors of the matches).
RATE = 0.75
SPREAD = 0.7


def race(ours: int, theirs: int, target: int, total: int) -> float:
    """The chance to win from ``ours`` to ``theirs``, both short of ``target``, deals of ``total`` points.

    >>> race(40, 10, 51, 14) > race(10, 10, 51, 14) > race(10, 40, 51, 14)
    True
    """
    need_us, need_them = max(1, target - ours), max(1, target - theirs)
    deals_left = min(need_us, need_them) / (total * RATE) + 1
    scale = SPREAD * total * math.sqrt(deals_left)
    return 1 / (1 + math.exp(-(need_them - need_us) / scale))


def after_deal(rules: Rules, score: tuple[int, ...], us: Team, makers: Team, bid: int,
               points: tuple[int, ...], *, target: int | None = None, bidder_goes_out: bool = False) -> float:
    """The chance that ``us`` wins the match after a deal that took ``points`` (NS, EW).

    ``score`` is the score before the deal; ``makers`` bid ``bid``; ``target`` defaults to the
    rules' and ``bidder_goes_out`` says whether the deal is played under that rule.
    """
    made, change = settle(rules, makers, bid, points)
    return _from(rules, (score[0] + change[0], score[1] + change[1]), us, makers, made,
                 rules.target if target is None else target, bidder_goes_out)


def _from(rules: Rules, score: tuple[int, ...], us: Team, makers: Team, made: bool, target: int,
          bidder_goes_out: bool) -> float:
    if target != rules.target:
        rules = dataclasses.replace(rules, target=target)
    winner, tied = decide(rules, score, makers, made, bidder_goes_out)
    if winner is not None:
        return 1.0 if winner == us else 0.0
    if tied:
        return 0.5  # bidder-goes-out deals decide it: either side may bid and make first
    return race(score[us], score[us.other], target, rules.total_points)


class MatchEquity:
    """One decision's outcomes as chances to win the match, from a seat's score.

    >>> from cinch import Rules, Team
    >>> eq = MatchEquity(Rules.preset("difference"), (48, 30), Team.NS, target=51)
    >>> eq.of(Team.NS, 3, (11, 3))  # we bid 3 and take 11 of 14: out
    1.0
    """

    def __init__(self, rules: Rules, score: tuple[int, ...], us: Team, *, target: int | None = None,
                 bidder_goes_out: bool = False):
        if len(score) != 2:
            raise ValueError(f"match equity is a race of two sides, not of {len(score)} players each for himself")
        self.rules = rules
        self.score = score
        self.us = us
        self.target = rules.target if target is None else target
        self.bidder_goes_out = bidder_goes_out

    @property
    def now(self) -> float:
        """The chance to win as the score stands (a deal thrown in changes nothing)."""
        s, t = self.score, self.target
        if max(s) >= t:  # only after a decider tie: either side may still win it
            return 0.5
        return race(s[self.us], s[self.us.other], t, self.rules.total_points)

    def of(self, makers: int, bid: int, points: tuple[int, ...]) -> float:
        """The chance to win after a deal in which team ``makers`` bid ``bid`` and the sides took ``points``."""
        return after_deal(self.rules, self.score, self.us, Team(makers), bid, points,
                          target=self.target, bidder_goes_out=self.bidder_goes_out)
