"""The neural bot: plays at once from the learned policy, with no search (unless asked, in the last tricks).

Every decision is one pass of the networks of its kind (:mod:`cinch.neural.models`; the play's
is a committee of eight, averaged, computed as one network of their widths side by side) over the
seat's view: the legal action the policy scores highest (a keep: the cards it scores above zero, within
the rule).  About 0.4 ms on one core, the features included (p99 0.7 ms).

With ``endgame=3`` the plays of the last three tricks are the expert's solver over twelve worlds
instead (about 2 ms each with the compiled build; the bot's p99 about 3 ms): about +0.2 a deal
under pagat, +0.1 under official.  The search does not decide alone: each card's mean over the worlds
has the policy's score of it added, weighted by ``prior`` (a half by default, as if the policy, fitted on
many positions, were six more worlds): +0.03 to +0.06 a deal against the search alone, both presets.
With ``worlds=16 inference=1``, the expert's worlds as it draws them, about +0.35 under pagat and +0.25
under official (measured before the prior), at 20 to 80 ms a decision; with ``worlds=8 play_inference=0.3
play_latest=5 max_seconds=0.0035``, the inference from the latest five cards the others chose and no new
world after 3.5 ms, +1.51 to +1.57 over the heuristic under official and +1.77 under pagat at a p99 under
5 ms on this machine; against the expert it gains under official and loses under pagat, as that inference
models the others as the heuristic (docs/learning.md).

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
from typing import cast

from cinch.actions import Action
from cinch.bots.base import Bot, make_bot, register
from cinch.bots.expert import ExpertBot
from cinch.neural.features import coverage
from cinch.neural.models import Models
from cinch.rules import Rules
from cinch.view import Phase, SeatView

__all__ = ["NeuralBot", "fallback_said"]

_SAID: set[str] = set()  # the fallbacks already said in this process
WORLDS = 12  # the worlds of the last tricks' search (``endgame``): the bot's p99 about 3 ms, under the 5
PRIOR = 0.5  # the policy's weight beside the search's means (``prior``), measured against 0.1, 1 and 2


def fallback_said() -> set[str]:
    """The fallback warnings this process has written (one a reason)."""
    return _SAID


@register("neural")
class NeuralBot(Bot):
    """The learned policy, one pass of its networks a decision; ``weights``: a folder of other weights than the
    package's (as ``cinch train --weights`` writes); ``margin``: keep the heuristic's bid, trump or card
    unless the policy scores another that much higher (in the play, points of the expert's values).

    ``endgame``: with this many cards in hand or fewer, the play is the expert's search instead, its
    solver on ``worlds`` worlds (``inference=1``: drawn with the expert's inference, some twenty times
    the time a world; ``bid_inference`` and ``play_inference`` set its two parts alone, as the expert's
    ``inference`` and ``play_inference``, and ``play_latest`` the latest choices the second reads;
    ``max_seconds``: the search's hard cap, the expert's).  0, the
    default, is the policy alone.  ``prior``: the search's mean of a card plus this many times the policy's
    score of it decides (the two are in the same unit: the expert's values the policy learnt); 0, the search
    alone.
    """

    def __init__(self, seed: int | None = None, weights: str = "", margin: float = 0.0, endgame: int = 0,
                 worlds: int = WORLDS, inference: bool | int = False, bid_inference: float | None = None,
                 play_inference: float | None = None, max_seconds: float | None = None, prior: float = PRIOR,
                 play_latest: int | None = None):
        super().__init__(seed)
        if margin < 0:
            raise ValueError("margin must be 0 or more")
        if endgame < 0:
            raise ValueError("endgame must be 0 (no search) or more cards")
        if worlds < 1:
            raise ValueError("worlds must be at least 1")
        if prior < 0:
            raise ValueError("prior must be 0 (the search alone) or more (the policy's weight beside it)")
        if bid_inference is not None and bid_inference < 0:
            raise ValueError("bid_inference must be 0 (off) or more (the expert's is 1)")
        if play_inference is not None and not 0 < play_inference <= 1:
            raise ValueError("play_inference must be above 0 and at most 1 (1 is off; the expert's is 0.3)")
        self.margin = margin
        self.endgame = endgame
        self.prior = prior
        # The last tricks' search is the expert's, in worlds drawn without its inference from the bids and the
        # cards played unless asked: the inference costs a few milliseconds a world (docs/learning.md).
        search: dict[str, float | None] = {} if inference else {"inference": 0, "play_inference": 1}
        asked = {"inference": bid_inference, "play_inference": play_inference, "max_seconds": max_seconds,
                 "play_latest": play_latest}
        search.update((k, v) for k, v in asked.items() if v is not None)
        self._endgame = (cast(ExpertBot, make_bot("expert", seed=seed, worlds=worlds, search="play", **search))
                         if endgame else None)
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
        if self._endgame and view.phase is Phase.PLAY and len(view.legal) > 1 and len(view.hand) <= self.endgame:
            return self._last_tricks(view, self._endgame)
        return self.models.choose(view, self.margin)

    def _last_tricks(self, view: SeatView, search: ExpertBot) -> Action:
        """The searched card: each card's mean over the worlds plus ``prior`` times the policy's score of it."""
        if self.prior == 0:
            return search.choose(view)
        evaluation = search.evaluate(view)
        if not evaluation.candidates:  # not searched (no world could be drawn): the search's fallback
            return evaluation.decision.action
        cards = evaluation.candidates
        judged = [m + self.prior * s for m, s in zip(evaluation.means(), self.models.scores(view, cards))]
        return cards[judged.index(max(judged))]


def _say(reason: str) -> None:
    if reason not in _SAID:
        _SAID.add(reason)
        print(f"cinch: the neural bot does not cover {reason}; the heuristic plays its seats", file=sys.stderr)
