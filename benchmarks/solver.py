"""Double-dummy solver speed on full six-trick positions (right after the draw, maker to lead).

    .venv/bin/python benchmarks/solver.py [--positions 200] [--preset pagat ...] [--seed 1]

For each preset, builds random positions by playing random legal bids, trumps, discards and
robs on shuffled decks (``Deal.shuffled``) until the play begins, then times, per position:

- ``solve``: the par and the exact value of every legal card of the player to act (what a
  sampling bot asks of each world);
- ``par``: the par value alone (``cinch.solver.par``);

and prints the median, 90th percentile and maximum milliseconds of each, as CPU time of this
process (``time.process_time``: the machine may be shared) with the wall-clock median beside
it, and the nodes searched by ``solve`` (trick-boundary nodes plus the inside-trick nodes of
the generic path; a full trick is searched inline from its leader and counts once).
Positions whose trick 1 holds burials (pagat, a hand above six) are included as they come.
The first line says which build runs (``cinch.native``: pure Python or compiled with mypyc).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

from cinch import PRESET_NAMES, Deal, Phase, Rules, Seat, native  # noqa: E402
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


def stats(values: list[float]) -> str:
    return f"{statistics.median(values):7.1f} {pct(values, .9):7.1f} {max(values):7.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--preset", action="append", choices=PRESET_NAMES)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-par", action="store_true", help="time solve only")
    args = parser.parse_args()
    print(f"cinch build: {native.describe()} (CINCH_PURE=1 for pure Python)")
    print("milliseconds of CPU time (process_time; the wall-clock median follows in brackets), "
          "median / p90 / max")
    print(f"{'preset':<13} | {'solve':^23} {'[wall]':>7} | {'par':^23} {'[wall]':>7} | "
          f"{'nodes (solve)':^23} | burials")
    for name in args.preset or PRESET_NAMES:
        rules = Rules.preset(name)
        rng = random.Random(f"{args.seed}-{name}")
        pos = positions(rules, args.positions, rng)
        cpu_solve, wall_solve, cpu_par, wall_par, nodes = [], [], [], [], []
        for p in pos:
            w0, c0 = time.perf_counter(), time.process_time()
            res = solve(p)
            cpu_solve.append((time.process_time() - c0) * 1000)
            wall_solve.append((time.perf_counter() - w0) * 1000)
            nodes.append(res.nodes)
            if not args.no_par:
                w0, c0 = time.perf_counter(), time.process_time()
                v = par(p)
                cpu_par.append((time.process_time() - c0) * 1000)
                wall_par.append((time.perf_counter() - w0) * 1000)
                assert v == res.value, (p.describe(), v, res.value)
        bury = sum(p.bury_pending() for p in pos)
        par_cols = f"{stats(cpu_par)} [{statistics.median(wall_par):5.1f}]" if cpu_par else f"{'-':^31}"
        print(f"{name:<13} | {stats(cpu_solve)} [{statistics.median(wall_solve):5.1f}] | {par_cols} | "
              f"{statistics.median(nodes):7.0f} {pct(nodes, .9):7d} {max(nodes):7d} | {bury}", flush=True)


if __name__ == "__main__":
    main()
