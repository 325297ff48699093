"""How well the race model of match equity (cinch.bots.equity) predicts whole matches.

    .venv/bin/python benchmarks/equity.py [--preset difference] [--matches 200] [--workers 2] [--fit]

From each of a grid of scores, heuristic self-play finishes ``--matches`` matches (the
heuristic in all four seats, new decks each time) and counts how often NS wins; beside it
is what :func:`cinch.bots.equity.race` predicts.  ``--fit`` also searches the model's two
constants (RATE, SPREAD) for the least squared error over the grid and prints them.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import sys
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

from cinch import Rules, Seat  # noqa: E402
from cinch.arena import derive_seed  # noqa: E402
from cinch.bots import equity, make_bot  # noqa: E402
from cinch.match import Match  # noqa: E402

GRID = [(0, 0), (10, 0), (20, 0), (30, 20), (40, 30), (45, 40), (0, 20), (25, 40), (40, 10), (30, 45)]


def wins_from(args) -> int:
    preset, score, seed, matches = args
    rules = Rules.preset(preset)
    bot = make_bot("heuristic", seed=seed)
    won = 0
    for k in range(matches):
        match = Match(rules, first_dealer=Seat(k % 4), rng=derive_seed(seed, "equity", score, k), score=score)
        while not match.is_over and len(match.deals) < 200:
            deal = match.current or match.start_deal()
            while not deal.is_over:
                seat = deal.to_act
                match.apply(bot.choose(match.view(seat)), seat)
        won += match.winner == 0
    return won


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--preset", default="difference")
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--fit", action="store_true")
    args = parser.parse_args()
    rules = Rules.preset(args.preset)
    grid = [(a * rules.target // 51, b * rules.target // 51) for a, b in GRID]
    chunks = 4
    jobs = [(args.preset, s, args.seed + c, args.matches // chunks) for s in grid for c in range(chunks)]
    with ProcessPoolExecutor(args.workers) as pool:
        counts = list(pool.map(wins_from, jobs))
    n = chunks * (args.matches // chunks)
    observed = {s: sum(counts[i * chunks:(i + 1) * chunks]) / n for i, s in enumerate(grid)}
    total = rules.total_points

    def error(rate: float, spread: float) -> float:
        equity.RATE, equity.SPREAD = rate, spread
        return sum((equity.race(a, b, rules.target, total) - observed[(a, b)]) ** 2 for a, b in grid)

    base = (equity.RATE, equity.SPREAD)
    print(f"{args.preset}: NS wins from each score over {n} heuristic self-play matches, and the race model")
    print("| score | observed (± 1 s.e.) | model |\n| --- | ---: | ---: |")
    for a, b in grid:
        p = observed[(a, b)]
        equity.RATE, equity.SPREAD = base
        print(f"| {a}-{b} | {p:.2f} ± {math.sqrt(max(p * (1 - p), 0.01) / n):.2f} "
              f"| {equity.race(a, b, rules.target, total):.2f} |")
    print(f"squared error with RATE={base[0]}, SPREAD={base[1]}: {error(*base):.4f}")
    if args.fit:
        best = min(itertools.product([x / 100 for x in range(15, 61, 5)], [x / 100 for x in range(20, 91, 5)]),
                   key=lambda rs: error(*rs))
        print(f"best fit: RATE={best[0]}, SPREAD={best[1]}, squared error {error(*best):.4f}")


if __name__ == "__main__":
    main()
