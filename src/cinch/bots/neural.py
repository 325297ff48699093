"""The neural bot: plays at once from the learned policy, with no search.

Every decision is one pass of the networks of its kind (:mod:`cinch.neural.models`; the play's
is a committee of eight, averaged) over the seat's view: the legal action the policy scores
highest (a keep: the cards it scores above zero, within the rule).  About 0.7 ms on one core,
the features included.

The models cover the five presets at four players with one pack (:func:`cinch.neural.features.coverage`);
under any other rules (another table size, two decks, the honour rule, a changed option of the deal)
the bot plays as the heuristic bot and says so once per process, on standard error.

>>> from cinch import Deal, Rules, Seat
>>> from cinch.bots import make_bot
>>> view = Deal.shuffled(Rules.preset("official"), Seat.W, rng=4).view(Seat.N)
>>> make_bot("neural", seed=1).choose(view) in view.legal
True
"""

from __future__ import annotations

import sys

from cinch.actions import Action
from cinch.bots.base import Bot, make_bot, register
from cinch.neural.features import coverage
from cinch.neural.models import Models
from cinch.rules import Rules
from cinch.view import SeatView

__all__ = ["NeuralBot", "fallback_said"]

_SAID: set[str] = set()  # the fallbacks already said in this process


def fallback_said() -> set[str]:
    """The fallback warnings this process has written (one a reason)."""
    return _SAID


@register("neural")
class NeuralBot(Bot):
    """The learned policy, one pass of its networks a decision; ``weights``: a folder of other weights than the
    package's (as ``cinch train --weights`` writes); ``margin``: keep the heuristic's bid, trump or card
    unless the policy scores another that much higher (in the play, points of the expert's values)."""

    def __init__(self, seed: int | None = None, weights: str = "", margin: float = 0.0):
        super().__init__(seed)
        if margin < 0:
            raise ValueError("margin must be 0 or more")
        self.margin = margin
        self.models = Models.load(weights or None)
        self._heuristic = make_bot("heuristic", seed=seed)
        self._covered: dict[Rules, str | None] = {}
        self.fallback: str | None = None  # why the last decision was the heuristic's, if it was

    def choose(self, view: SeatView) -> Action:
        rules = view.rules
        if rules not in self._covered:
            self._covered[rules] = coverage(rules)
        reason = self._covered[rules]
        self.fallback = reason
        if reason is not None:
            _say(reason)
            return self._heuristic.choose(view)
        return self.models.choose(view, self.margin)


def _say(reason: str) -> None:
    if reason not in _SAID:
        _SAID.add(reason)
        print(f"cinch: the neural bot does not cover {reason}; the heuristic plays its seats", file=sys.stderr)
