"""Game analysis speed: a whole match, every decision judged (``cinch analyze``).

    .venv/bin/python benchmarks/analyze.py [--preset official] [--seed 5] [--worlds 16] [--workers 2] [--widening 4]

Plays one match to its target by heuristic self-play (``Match.play_out``, the seed deals the
decks), then analyses it as ``cinch analyze`` does (:func:`cinch.study.analysis.analyze`) and
prints the match (deals, decisions with a choice), the wall time of the whole analysis with
``--workers`` processes, and per decision: the CPU time of each kind (the bidding, the trump,
discards and robs, the first trick and the later tricks: the decision's own timer in its
worker, with the double-dummy par of a play), median and total.  The target is a 51-point
match in under a minute at the default setting on a 2-core machine.  The first line says
which build runs (``cinch.native``: pure Python or compiled with mypyc).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

from cinch import Rules, native  # noqa: E402
from cinch.bots import make_bot  # noqa: E402
from cinch.match import Match  # noqa: E402
from cinch.study.analysis import (  # noqa: E402
    DEFAULT_WORLDS,
    MAX_WIDENING,
    Judgement,
    Settings,
    analyze,
    default_workers,
)


def self_play(preset: str, seed: int) -> Match:
    """One match to the target, the heuristic bot in every seat."""
    bot = make_bot("heuristic", seed=seed)
    match = Match(Rules.preset(preset), rng=seed)
    match.play_out(bot.choose)
    return match


def kind(j: Judgement) -> str:
    if j.phase != "play":
        return j.phase
    return "first trick" if j.trick == 1 else "later tricks"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--preset", default="official", help="a 51-point preset (default official)")
    ap.add_argument("--seed", type=int, default=5, help="the seed of the match's decks and bots")
    ap.add_argument("--worlds", type=int, default=DEFAULT_WORLDS, help="worlds per play decision (as cinch analyze)")
    ap.add_argument("--workers", type=int, default=default_workers(), help="processes (default: every core)")
    ap.add_argument("--widening", type=int, default=MAX_WIDENING,
                    help=f"the most times a decision in doubt is searched wider (default {MAX_WIDENING}; 1: never)")
    args = ap.parse_args()
    print(native.describe())
    match = self_play(args.preset, args.seed)
    print(f"match: {args.preset}, seed {args.seed}: {len(match.deals)} deals, {match.score[0]} to {match.score[1]}")
    started = time.perf_counter()
    cpu = time.process_time()
    analysis = analyze(match, Settings(worlds=args.worlds, widening=args.widening), workers=args.workers)
    wall = time.perf_counter() - started
    judged = analysis.judgements
    wider = sum(1 for j in judged if j.worlds > args.worlds * (1 if j.phase == "play" else 2))
    print(f"analysis: {len(judged)} decisions with a choice, worlds {args.worlds}, widening {args.widening} "
          f"({wider} searched wider), {args.workers} workers: "
          f"{wall:.1f} s wall (this process {time.process_time() - cpu:.1f} s CPU)")
    kinds: dict[str, list[float]] = {}
    for j in judged:
        kinds.setdefault(kind(j), []).append(j.seconds)
    print(f"{'decision':<14} {'count':>5} {'median ms':>10} {'total s':>8}")
    for name in ("bid", "trump", "discard", "rob", "first trick", "later tricks"):
        times = kinds.get(name)
        if times:
            print(f"{name:<14} {len(times):>5} {1000 * statistics.median(times):>10.0f} {sum(times):>8.1f}")
    total = sum(j.seconds for j in judged)
    print(f"{'all':<14} {len(judged):>5} {1000 * statistics.median(j.seconds for j in judged):>10.0f} {total:>8.1f}")
    marks = sum(1 for j in judged if j.mark is not None)
    print(f"marked: {marks} of {len(judged)}; accuracy " +
          ", ".join(f"{s.seat.name} {s.accuracy:.0f}%" for s in analysis.summaries() if s.accuracy is not None))


if __name__ == "__main__":
    main()
