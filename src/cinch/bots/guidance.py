"""The expert, guided: the learned models (:mod:`cinch.neural.models`) inside the expert's search.

Four parts, each a bot option of the expert (:class:`~cinch.bots.expert.ExpertBot`), all off
unless asked, so the plain expert searches as it always has:

- ``locations=1``: worlds drawn from the **card-location model** (for each card the seat has
  not seen, the chance that each other seat holds it, or no hand) instead of the hand-made
  bid and play inference.  The sampler (:func:`cinch.worlds.sample_weighted`) keeps every hard
  constraint (the cards seen, the voids shown, the hand sizes, the discard and rob rules) and
  leans its matching towards the model's chances; a place the model all but rules out keeps
  :data:`LOCATION_FLOOR`, so one confident mistake of the network cannot empty a world.
- ``likelihood=1``: worlds weighted by the **policy's likelihood** of every action the other
  seats took (partner's included): each bid and pass, the trump named, and the latest
  :data:`LIKELY_PLAYS` cards chosen from more than one.  For a world, each earlier decision's
  view is rebuilt as that seat saw it with the cards the world gives it
  (:class:`~cinch.bots.inference.BidLikelihood`'s and :func:`~cinch.bots.play_history.play_choices`'
  rebuilding), and the policy's probabilities of the actions actually taken are multiplied,
  tempered: each at least :data:`LIKELIHOOD_FLOOR`, the product raised to
  :data:`LIKELIHOOD_POWER`, so that one action the policy finds unlikely (a person's, the
  expert's own departures) lowers a world without ruling it out.  It replaces the hand-made
  inference too (both would count the same evidence twice).
- ``rollout=policy``: the playouts that judge calls, trumps, keeps and the early tricks of long
  hands are played by the policy (the ``neural`` bot) in every seat instead of the heuristic:
  a better model of the players, about five times the cost of a playout.
- ``bidding=policy``: the bids the policy likes best (:data:`POLICY_BIDS` of them) join the
  calls the auction compares.

``guided=1`` turns on the parts in :data:`GUIDED`: the location model and the likelihood,
the two the Skat results are about.  Measured at 0.25 s a decision (docs/learning.md), no part
plays better than the plain expert, alone or together: the guidance is for study, off unless
asked.  A part named as well overrides it (``guided=1 likelihood=0``).
``weights=FOLDER`` reads other weights than the package's.  The models cover the five presets
at four players with one pack (:func:`cinch.neural.features.coverage`); elsewhere the expert
searches as without guidance, and says so once on standard error.
"""

from __future__ import annotations

import dataclasses
import math
import sys
from dataclasses import dataclass

import numpy as np

from cinch.actions import PLAYS, TRUMPS, Action, Bid
from cinch.bots.base import Bot
from cinch.bots.inference import BidLikelihood, legal_bids_after
from cinch.bots.play_history import play_choices
from cinch.errors import CinchError
from cinch.neural.features import action_slot, coverage, encode
from cinch.neural.models import MASKED, Models, softmax
from cinch.rules import Rules
from cinch.view import Phase, SeatView
from cinch.worlds import World

__all__ = ["GUIDED", "Guidance", "Guided", "PolicyLikelihood", "guidance", "location_preferences", "policy_bids"]

PARTS = ("locations", "likelihood", "rollout", "bidding")
GUIDED: frozenset[str] = frozenset({"locations", "likelihood"})  # what ``guided=1`` turns on (set by measurement)
CHOICES = {"rollout": ("heuristic", "policy"), "bidding": ("heuristic", "policy")}

LOCATION_FLOOR = 0.02  # the least chance the sampler gives a place the view allows
LIKELIHOOD_FLOOR = 0.05  # the least probability an action seen counts for
LIKELIHOOD_POWER = 0.5  # the product of the probabilities is tempered by this power
LIKELY_PLAYS = 8  # the latest cards chosen by the others that the likelihood reads (each a policy pass)
POLICY_BIDS = 2  # the policy's best bids added to the auction's candidates

_SAID: set[str] = set()  # the fallbacks already said in this process


def _switch(name: str, value: object) -> bool | None:
    """An on/off option: 1, 0, true or false (None: not given)."""
    if value is None or isinstance(value, bool):
        return value
    if value in (0, 1):
        return bool(value)
    raise CinchError(f"the expert's option {name} takes 1 or 0 (true or false), not {value!r}")


def _choice(name: str, value: object) -> str | None:
    if value is None:
        return None
    allowed = CHOICES[name]
    text = str(value).strip().lower()
    if text not in allowed:
        raise CinchError(f"the expert's option {name} takes {' or '.join(allowed)}, not {value!r}")
    return text


@dataclass(frozen=True)
class Guidance:
    """Which learned parts the expert uses, and the models they read."""

    locations: bool
    likelihood: bool
    rollout: bool  # playouts by the policy
    bidding: bool  # the policy's bids among the candidates
    models: Models
    weights: str = ""

    @property
    def replaces_inference(self) -> bool:
        """Whether the hand-made bid and play inference is off (the models read the same evidence)."""
        return self.locations or self.likelihood

    def covers(self, rules: Rules) -> bool:
        """Whether the models cover ``rules``; if not, says so once (the expert searches unguided there)."""
        reason = _coverage(rules)
        if reason is not None and reason not in _SAID:
            _SAID.add(reason)
            print(f"cinch: the guided expert's models do not cover {reason}; it searches unguided there",
                  file=sys.stderr)
        return reason is None

    def at(self, view: SeatView) -> Guided | None:
        """This decision's guidance (None outside the models' cover)."""
        if not self.covers(view.rules):
            return None
        prefer = location_preferences(self.models, view) if self.locations else None
        weigh = PolicyLikelihood(self.models) if self.likelihood else None
        return Guided(self, prefer, weigh)


@dataclass(frozen=True)
class Guided:
    """One decision's guidance: the location preferences for the sampler and the likelihood of a world."""

    guidance: Guidance
    locations: list[list[float]] | None
    likelihood: PolicyLikelihood | None

    def weight(self, view: SeatView, world: World) -> float:
        return self.likelihood(view, world) if self.likelihood is not None else 1.0


def guidance(guided: object = None, locations: object = None, likelihood: object = None, rollout: object = None,
             bidding: object = None, weights: str = "") -> Guidance | None:
    """The expert's options as a :class:`Guidance` (None: every part off); a bad value is one line (CinchError)."""
    base = _switch("guided", guided) or False
    on = {
        "locations": _switch("locations", locations),
        "likelihood": _switch("likelihood", likelihood),
        "rollout": None if rollout is None else _choice("rollout", rollout) == "policy",
        "bidding": None if bidding is None else _choice("bidding", bidding) == "policy",
    }
    parts = {k: (v if v is not None else base and k in GUIDED) for k, v in on.items()}
    if not any(parts.values()):
        return None
    return Guidance(models=Models.load(weights or None), weights=weights, **parts)


def _coverage(rules: Rules) -> str | None:
    return _COVERAGE[rules] if rules in _COVERAGE else _COVERAGE.setdefault(rules, coverage(rules))


_COVERAGE: dict[Rules, str | None] = {}


# ---- where the cards are ---------------------------------------------------------------------------
def location_preferences(models: Models, view: SeatView) -> list[list[float]]:
    """The card-location model's chances as the sampler's preferences (:data:`cinch.worlds.Locations`):
    by card, for each seat and no hand (the last column); each place at least :data:`LOCATION_FLOOR`
    (the view's own rules decide what is possible); a card the seat has seen is indifferent (ones)."""
    probs = models.card_locations(view)
    unseen = probs.sum(axis=1) > 0
    prefer = np.where(unseen[:, None], np.maximum(probs, LOCATION_FLOOR), 1.0)
    return prefer.tolist()


# ---- the likelihood of the actions seen ------------------------------------------------------------
class PolicyLikelihood:
    """``weight(view, world)``: how likely the policy finds the others' bids, trump and cards in this world.

    The product over the actions read of ``max(p, LIKELIHOOD_FLOOR)``, raised to
    ``LIKELIHOOD_POWER``; an action with one legal choice says nothing and is skipped.
    """

    def __init__(self, models: Models, power: float = LIKELIHOOD_POWER, floor: float = LIKELIHOOD_FLOOR,
                 plays: int = LIKELY_PLAYS):
        self.models = models
        self.power = power
        self.floor = floor
        self.plays = plays

    def __call__(self, view: SeatView, world: World) -> float:
        log = 0.0
        for p in self.probabilities(view, world):
            log += math.log(max(p, self.floor))
        return math.exp(self.power * log)

    def probabilities(self, view: SeatView, world: World) -> list[float]:
        """The policy's probability of each action read, in the order seen (one network pass per kind)."""
        by_kind: dict[str, list[tuple[int, np.ndarray, np.ndarray, int]]] = {}
        for i, (v, action) in enumerate(self.decisions(view, world)):
            e = encode(v)
            slot = action_slot(e.kind, action, e.cards, e.suits)
            if slot is not None and e.legal[slot]:
                by_kind.setdefault(e.kind, []).append((i, e.x, e.legal, slot))
        out: dict[int, float] = {}
        for kind, rows in by_kind.items():
            scores, _, _ = self.models.networks[kind].forward(np.stack([r[1] for r in rows]))
            probs = softmax(np.where(np.stack([r[2] for r in rows]), scores, MASKED))
            for (i, _, _, slot), row in zip(rows, probs):
                out[i] = float(row[slot])
        return [out[i] for i in sorted(out)]

    def decisions(self, view: SeatView, world: World) -> list[tuple[SeatView, Action]]:
        """The others' decisions this likelihood reads, each with the view its seat had in ``world``."""
        out: list[tuple[SeatView, Action]] = []
        auction = view.auction
        for i, (seat, action) in enumerate(auction):
            if seat == view.seat:
                continue
            prefix = auction[:i]
            legal = legal_bids_after(view, prefix, seat)
            if len(legal) > 1:
                out.append((BidLikelihood._view(view, seat, world.dealt[seat], prefix, legal), action))
        maker = view.maker
        if view.trump is not None and maker is not None and maker != view.seat and view.bid is not None:
            bidding = BidLikelihood._view(view, maker, world.dealt[maker], auction, TRUMPS)
            out.append((dataclasses.replace(bidding, phase=Phase.TRUMP, maker=maker, bid=view.bid),
                        TRUMPS[int(view.trump)]))
        if self.plays > 0:
            out.extend((v, PLAYS[card]) for v, card in play_choices(view, world.hands, self.plays))
        return out


# ---- the bidding --------------------------------------------------------------------------------
def policy_bids(models: Models, view: SeatView, count: int = POLICY_BIDS) -> list[Action]:
    """The ``count`` bids the policy finds likeliest in ``view`` (a pass is not a bid)."""
    bids: list[Action] = [a for a, _ in models.policy(view) if isinstance(a, Bid)]
    return bids[:count]


class PolicyPlayer(Bot):
    """The policy in every seat of a playout (the guided expert's ``rollout=policy``)."""

    def __init__(self, models: Models, seed: int | None = 0):
        super().__init__(seed)
        self.models = models

    def choose(self, view: SeatView) -> Action:
        return self.models.choose(view)
