"""The bots the server chooses by itself: the strongest that the CPU of a bot's turn allows.

Where nobody names a bot (the daily deals' partners, opponents and robot table; the bot a room's page
offers first), the server seats the strongest bot whose decision costs no more than ``cinch serve
--bot-time MS`` allows (:func:`strongest_bot`), from one table (:data:`BOT_COSTS`) that orders the
bots by their measured strength and cost.  The same table says which bots think in the process pool
and which on the event loop (:data:`SLOW_BOTS`).

>>> strongest_bot(DEFAULT_BOT_TIME, ["random", "basic", "heuristic", "expert"])
'expert'
>>> strongest_bot(5, ["random", "basic", "heuristic", "expert"])
'heuristic'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["BOT_COSTS", "DEFAULT_BOT_TIME", "EVENT_LOOP_MS", "FLOOR", "SLOW_BOTS", "BotCost", "strongest_bot"]


@dataclass(frozen=True)
class BotCost:
    """One bot's measured strength and the CPU a decision takes.

    ``strength``: points a deal over the heuristic bot in duplicate pairs (docs/strength.md), None while it is
    not measured (such a bot is never chosen by itself); ``ms``: the CPU of a decision in milliseconds, as a
    server budgets it (the median, or the bot's own time budget where it plays to a clock)."""

    name: str
    strength: float | None
    ms: float


BOT_COSTS: tuple[BotCost, ...] = (
    BotCost("random", -20.45, 0.01),
    BotCost("basic", -5.59, 0.05),
    BotCost("heuristic", 0.0, 0.1),
    BotCost("neural", 1.37, 1.0),
    BotCost("openspiel-ismcts", None, 50.0),
    BotCost("expert", 1.41, 250.0),
)
"""The bots, weakest first, with their source (docs/strength.md, "Results" and "Learned bots"):

- strength, points a deal over the heuristic in duplicate pairs: random -20.45 and basic -5.59 (the heuristic's
  margins over them, pagat, 2000 pairs); the expert +1.41 (pagat, 2000 pairs; +1.50 under difference, +1.56
  at 0.2 s a decision); the neural bot +1.37 (+1.30 official, +1.45 pagat, 2000 pairs each, seed 5000, both
  intervals above zero).  OpenSpiel's ISMCTS is not measured against the heuristic (the expert beats it by
  +12.24 at 0.05 s each).
- cost, ms a decision as a server budgets it: the expert plays to its clock, 0.25 s by default (p50 188 ms,
  p95 446 ms); ISMCTS about 50 ms at its 100 simulations; the heuristic p50 0.05 ms, p99 0.13 ms, basic and
  random less (the arena's think times); the neural bot 1 ms, for its tail on a busy machine: p50 0.38 ms,
  p99 0.69 ms, worst 6 ms (official, 2000 pairs, two arenas on two cores; the play's committee of eight computed
  as one network, NumPy on one thread: before that, p50 0.74 to 0.81 ms and p99 1.7 to 2.2 ms, worst 19 ms; with
  OpenBLAS's own threads on a busy machine a single network's p95 was 12 ms and p99 19 ms)."""

DEFAULT_BOT_TIME = 250
"""``cinch serve --bot-time``'s default, in ms: the expert's own budget, so the server seats the expert."""

EVENT_LOOP_MS = 20.0
"""A bot whose decision costs more thinks in the server's process pool; a cheaper one on the event loop, where
sending its view to another process would cost more than the decision itself."""

FLOOR = "heuristic"
"""The bot the server seats when the budget allows none of those it may choose from: instant, and strong."""

SLOW_BOTS = frozenset(b.name for b in BOT_COSTS if b.ms > EVENT_LOOP_MS)
"""Bots that think for a noticeable time: they think in the process pool, never on the event loop."""


def strongest_bot(budget_ms: float, available: Iterable[str], costs: Sequence[BotCost] = BOT_COSTS) -> str:
    """The strongest measured bot of ``available`` whose decision costs at most ``budget_ms``; among bots of the
    same strength the cheaper.  A bot whose strength is not measured is never chosen; if none fits, the
    heuristic (:data:`FLOOR`).

    >>> costs = (BotCost("heuristic", 0.0, 0.1), BotCost("neural", 1.6, 2.0), BotCost("expert", 1.4, 250.0))
    >>> [strongest_bot(ms, ["heuristic", "neural", "expert"], costs) for ms in (1, 5, 1000)]
    ['heuristic', 'neural', 'neural']
    """
    names = set(available)
    fits = [b for b in costs if b.name in names and b.strength is not None and b.ms <= budget_ms]
    if not fits:
        return FLOOR
    return max(fits, key=lambda b: (b.strength, -b.ms)).name
