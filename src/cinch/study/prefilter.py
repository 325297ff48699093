"""Calls ranked by the learned policy before a search: only the ``K`` it ranks best are searched.

The advisor (``cinch advise --prefilter K``) plays out every legal call, and the analysis (``cinch analyze
--prefilter K``) has the expert compare its few candidate calls; with a prefilter the policy network
(:meth:`cinch.neural.models.Models.policy`, distilled from the expert's choices and values) ranks the calls
first, in about a millisecond, and only its ``K`` best are searched, with those that must be (the pass,
against which every call is measured; the call played, which the analysis judges).  The others are *ranked
by the model only*: the tools say so and name them.

Only the bidding is prefiltered, where each call searched is a playout of its own in every world.  A card is
not: the expert's double-dummy solver values every card of a world at once, so a card left out would save
nothing; nor the trump (four suits) or the keep (a few keeps).  Rules the models do not cover
(:func:`cinch.neural.features.coverage`: other table sizes, two packs, the honour rule) are searched whole,
saying why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cinch.actions import Action, Pass
from cinch.view import Phase, SeatView

__all__ = ["PREFILTERED", "Prefilter", "prefiltered"]

PREFILTERED = (Phase.BIDDING,)
"""The decisions a prefilter ranks: the bidding's calls."""


@dataclass(frozen=True)
class Prefilter:
    """What a prefilter leaves to the search.

    ``searched``: the legal actions to search, the policy's best first, then the pass and those that must be
    searched (None: every one, nothing was left out); ``ranked``: the others with the policy's probability,
    most likely first (ranked by the model only); ``note``: why every action is searched although a prefilter
    was asked for (rules the models do not cover), else None."""

    searched: tuple[Action, ...] | None = None
    ranked: tuple[tuple[Action, float], ...] = ()
    note: str | None = None


def prefiltered(view: SeatView, k: int, weights: str | None = None, also: Sequence[Action] = ()) -> Prefilter:
    """The ``k`` legal calls of ``view`` the policy ranks best, the pass and ``also`` with them, to be searched.

    ``weights``: a folder of weights (``cinch train``'s), default the package's; weights that are missing or
    damaged raise :class:`~cinch.neural.models.WeightsError`, one line."""
    if k < 1:
        raise ValueError(f"a prefilter searches at least 1 choice, not {k}")
    if view.phase not in PREFILTERED or len(view.legal) <= k:
        return Prefilter()
    from cinch.neural.features import coverage
    from cinch.neural.models import Models

    uncovered = coverage(view.rules)
    if uncovered is not None:
        return Prefilter(note=f"the models do not cover {uncovered}: every choice was searched")
    legal = tuple(view.legal)
    ranking = Models.load(weights).policy(view)
    chosen = [a for a, _ in ranking[:k]] + [a for a in legal if isinstance(a, Pass)] + list(also)
    searched = tuple(a for a in dict.fromkeys(chosen) if a in legal)
    ranked = tuple((a, p) for a, p in ranking if a not in searched)
    return Prefilter(searched if ranked else None, ranked)
