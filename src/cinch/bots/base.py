"""The one small interface every computer player implements."""

from __future__ import annotations

import functools
import importlib
import random
from abc import ABC, abstractmethod
from collections.abc import Callable

from cinch.actions import Action, Claim
from cinch.errors import CinchError, quoted
from cinch.rules import Rules
from cinch.view import SeatView


class Bot(ABC):
    """Given a seat's view (never the full state), return one of ``view.legal``.

    A bot is deterministic for its seed: the same views in the same order give
    the same actions.  Under the honour rule every bot claims an irregularity it is asked
    about (:func:`claim_seen`, wrapped around each bot's ``choose``), and never commits one:
    it chooses from ``view.legal``, which holds no irregular action.
    """

    name = "bot"

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("choose")
        if own is not None and not getattr(own, "__isabstractmethod__", False):
            cls.choose = _claiming(own)  # type: ignore[method-assign,assignment]  # every bot's own choose, wrapped once

    def __init__(self, seed: int | None = None):
        self.seed = seed
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, view: SeatView) -> Action:
        """The action to take; ``view.legal`` is non-empty and this seat is to act."""

    @classmethod
    def check_rules(cls, rules: Rules) -> None:
        """Refuse, in one line (a :class:`~cinch.errors.RulesError`), rules this bot cannot play, so that
        a match or an arena run says so before its first deal.  Every bot of the package plays all rules
        but the OpenSpiel search, which plays one pack."""
        return

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"


def claim_seen(view: SeatView) -> Action | None:
    """The claim a bot makes: when its seat is asked about an irregularity it has seen (honour rule),
    the first claim offered, which takes the plain ruling (a lead out of turn taken back, with no
    trump lead required or forbidden); None when no claim is open."""
    legal = view.legal
    if view.irregularities and legal and type(legal[0]) is Claim:  # claims come first, before the waiver
        return legal[0]
    return None


def _claiming(choose: Callable[[Bot, SeatView], Action]) -> Callable[[Bot, SeatView], Action]:
    @functools.wraps(choose)
    def claim_first(self: Bot, view: SeatView) -> Action:
        claim = claim_seen(view)
        return choose(self, view) if claim is None else claim

    return claim_first


BOTS: dict[str, Callable[..., Bot]] = {}

# The partners and opponents a new match seats unless told otherwise: strong and instant
# (the expert thinks up to half a second a decision; a player picks it per seat at the table).
DEFAULT_BOT = "heuristic"

# Where each bot lives: importing the module registers it.  Modules load on first use,
# so a bot with optional dependencies (OpenSpiel) costs nothing until it is asked for.
BOT_MODULES = {
    "random": "cinch.bots.random_bot",
    "basic": "cinch.bots.basic",
    "heuristic": "cinch.bots.heuristic",
    "expert": "cinch.bots.expert",
    "neural": "cinch.bots.neural",
    "openspiel-ismcts": "cinch.adapters.ismcts_bot",
}


def register(name: str):
    """Class decorator: make a bot available to ``make_bot`` and the command line by name."""

    def wrap(cls):
        cls.name = name
        BOTS[name] = cls
        return cls

    return wrap


def bot_names() -> list[str]:
    """Every bot this installation can make."""
    return sorted(set(BOT_MODULES) | set(BOTS))


def make_bot(name: str, seed: int | None = None, **options) -> Bot:
    """A bot by name (``random``, ``basic``, ``heuristic``, ``expert``, ...)."""
    key = name.strip().lower()
    if key not in BOTS and key in BOT_MODULES:
        try:
            importlib.import_module(BOT_MODULES[key])
        except ImportError as e:
            raise CinchError(f"bot {quoted(name)} needs a package that is not installed ({e.name}); "
                             "pip install 'cinch[rl]'") from None
    if key not in BOTS:
        raise CinchError(f"unknown bot {quoted(name)}; the bots are {', '.join(bot_names())}")
    return BOTS[key](seed=seed, **options)
