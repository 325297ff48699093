"""The heuristic at cut-throat tables (2, 3, 5, 6 players): fit its bidding model, measure its strength.

    .venv/bin/python benchmarks/cut_throat_strength.py fit [--players 2 3 5 6] [--deals 3000]
    .venv/bin/python benchmarks/cut_throat_strength.py measure [--players 3 6] [--deals 300]
        [--a heuristic] [--b random] [--preset difference]

``fit`` deals random hands at each table size, makes one seat the maker at the lowest bid (every
position relative to the dealer in turn), names the suit the bot's evaluation likes best, and plays
the deal out with the heuristic in every seat (imperfect information).  It fits the points the lone
maker took on the evaluation features of his dealt cards (``cinch.bots.heuristic.FEATURES``) and
prints the row that ``TABLE_COEFFICIENTS`` in ``src/cinch/bots/heuristic.py`` holds for that size.
The models are fitted under "difference" and serve every preset (scaled to the points held).
The two-deck rows (``TWO_DECK_TABLE_COEFFICIENTS``) come from ``benchmarks/two_deck_fit.py``.

``measure`` runs the arena's duplicate format (:mod:`cinch.arena`: A in one seat, B in all the
others, each deck replayed with A in every seat) and prints A's score change per deal less the
mean of the others', with its 95% interval: what ``docs/strength.md`` reports.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))
sys.path.insert(0, os.path.dirname(__file__))

from cinch import Rules  # noqa: E402
from cinch.arena import run_duplicate  # noqa: E402
from cinch.bots.heuristic import FEATURES  # noqa: E402
from heuristic_calibration import forced_playouts, least_squares  # noqa: E402


def fit(players: int, deals: int, seed: int, preset: str) -> None:
    rules = Rules.preset(preset).with_options(players=players)
    start = time.time()
    xs, ys = forced_playouts(rules, deals, seed)
    w = least_squares(xs, ys)
    preds = [sum(a * b for a, b in zip(w, x)) for x in xs]
    sd = statistics.pstdev([y - p for y, p in zip(ys, preds)])
    var_y = statistics.pvariance(ys)
    r2 = 1 - sd * sd / var_y if var_y else 0.0
    print(f"== {players} players ({preset}): {deals} forced-maker playouts in {time.time() - start:.0f}s; "
          f"mean points {statistics.mean(ys):.2f}, R^2 {r2:.3f}, residual sd {sd:.2f}")
    print("  " + ", ".join(f"{f} {v:+.2f}" for f, v in zip(FEATURES, w)))
    print(f"    {players}: ({', '.join(f'{v:.2f}' for v in w)}, {sd:.2f}),")


def measure(players: int, deals: int, seed: int, preset: str, a: str, b: str, workers: int | None) -> None:
    rules = Rules.preset(preset).with_options(players=players)
    result = run_duplicate(a, b, rules, deals=deals, seed=seed, workers=workers)
    low, high = result.ci95
    interval = "-" if low is None or high is None else f"{low:+.2f} to {high:+.2f}"
    print(f"{players} players, {a} vs {b}: {result.net_points_per_deal:+.2f} a deal (95% CI {interval}), "
          f"{result.deals} deals, {result.elapsed_s:.0f}s; run: {result.command}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("fit")
    f.add_argument("--players", type=int, nargs="+", default=[2, 3, 5, 6])
    f.add_argument("--deals", type=int, default=3000)
    f.add_argument("--preset", default="difference")
    f.add_argument("--seed", type=int, default=1)
    m = sub.add_parser("measure")
    m.add_argument("--players", type=int, nargs="+", default=[3, 6])
    m.add_argument("--deals", type=int, default=300, help="decks; each is played once with A in every seat")
    m.add_argument("--preset", default="difference")
    m.add_argument("--a", default="heuristic")
    m.add_argument("--b", default="random")
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("--workers", type=int, default=None)
    args = ap.parse_args()
    for n in args.players:
        if args.cmd == "fit":
            fit(n, args.deals, args.seed, args.preset)
        else:
            measure(n, args.deals, args.seed, args.preset, args.a, args.b, args.workers)


if __name__ == "__main__":
    main()
