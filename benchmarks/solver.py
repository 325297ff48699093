"""Double-dummy solver speed on full six-trick positions (right after the draw, maker to lead).

    .venv/bin/python benchmarks/solver.py [--positions 200] [--preset pagat ...] [--seed 1]

For each preset, builds random positions by playing random legal bids, trumps, discards and
robs on shuffled decks (``Deal.shuffled``) until the play begins, then times, per position:

- ``solve``: the par and the exact value of every legal card of the player to act (what a
  sampling bot asks of each world);
- ``par``: the par value alone (``cinch.solver.par``);

and prints the median, 90th percentile and maximum milliseconds of each, with the nodes
searched by ``solve`` (trick-boundary nodes plus the inside-trick nodes of the generic path;
the four plays of a full trick are searched inline and count once).  Positions whose trick 1
holds burials (pagat, a hand above six) are included as they come.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

from cinch import PRESET_NAMES, Deal, Phase, Rules, Seat  # noqa: E402
from cinch.solver import Position, par, solve  # noqa: E402


def positions(rules: Rules, count: int, rng: random.Random) -> list[Position]:
    out = []
    while len(out) < count:
        deal = Deal.shuffled(rules, Seat(rng.randrange(4)), rng)
        while deal.phase not in (Phase.PLAY, Phase.DONE):
            deal.apply(rng.choice(deal.legal_actions()))
        if deal.phase is Phase.PLAY:
            out.append(Position.from_deal(deal))
    return out


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--preset", action="append", choices=PRESET_NAMES)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-par", action="store_true", help="time solve only")
    args = parser.parse_args()
    print(f"{'preset':<13} {'solve ms: median':>16} {'p90':>7} {'max':>7} | {'par ms: median':>14} {'p90':>7} "
          f"{'max':>7} | {'nodes: median':>13} {'p90':>7} {'max':>7} | burials")
    for name in args.preset or PRESET_NAMES:
        rules = Rules.preset(name)
        rng = random.Random(f"{args.seed}-{name}")
        pos = positions(rules, args.positions, rng)
        t_solve, t_par, nodes = [], [], []
        for p in pos:
            t0 = time.perf_counter()
            res = solve(p)
            t1 = time.perf_counter()
            t_solve.append((t1 - t0) * 1000)
            nodes.append(res.nodes)
            if not args.no_par:
                t2 = time.perf_counter()
                v = par(p)
                t_par.append((time.perf_counter() - t2) * 1000)
                assert v == res.value, (p.describe(), v, res.value)
        bury = sum(p.bury_pending() for p in pos)
        par_cols = (f"{statistics.median(t_par):14.1f} {pct(t_par, .9):7.1f} {max(t_par):7.1f}" if t_par
                    else f"{'-':>14} {'-':>7} {'-':>7}")
        print(f"{name:<13} {statistics.median(t_solve):16.1f} {pct(t_solve, .9):7.1f} {max(t_solve):7.1f} | "
              f"{par_cols} | {statistics.median(nodes):13.0f} {pct(nodes, .9):7d} {max(nodes):7d} | {bury}",
              flush=True)


if __name__ == "__main__":
    main()
