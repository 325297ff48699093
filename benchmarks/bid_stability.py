"""Bid stability: does the expert call the same hand the same way, whatever its seed?

    .venv/bin/python benchmarks/bid_stability.py [--preset difference] [--hands 20] [--seeds 10]
        [--seed 7] [-x time_budget=0.25] [--workers 2]

Twenty fixed hands (the first bidder's hand of twenty shuffled decks, nobody has bid yet,
score 0-0) are each bid by the expert with ten different seeds, and ten times by one hint
bot (as the table's hint key asks it: one bot, its generator running on).  For each hand
it prints the calls, the number of levels they span (the pass counts as the level below
the lowest bid: pass and 2 span two levels) and whether the hint named one call each time.
The target (issue 13): every hand within two levels, and the hint steady.  The think time
of each call is summarised too (p50, p95).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

from cinch import Deal, Rules, Seat  # noqa: E402
from cinch.actions import Bid  # noqa: E402
from cinch.arena import derive_seed, parse_option_value  # noqa: E402
from cinch.bots import make_bot  # noqa: E402


def level(action) -> int:
    return action.amount if isinstance(action, Bid) else 0


def one_hand(args):
    preset, seed, index, seeds, options = args
    rules = Rules.preset(preset)
    dealer = Seat(index % 4)
    deal = Deal.shuffled(rules, dealer, random.Random(derive_seed(seed, "stability", index)))
    seat = deal.to_act
    view = deal.view(seat, score=(0, 0), target=rules.target)
    calls, times = [], []
    for s in range(seeds):
        bot = make_bot("expert", seed=derive_seed(seed, "bot", index, s), **options)
        start = time.perf_counter()
        calls.append(bot.choose(view))
        times.append(time.perf_counter() - start)
    hinter = make_bot("expert", seed=0, **options)
    hints = [hinter.explain(view).action for _ in range(seeds)]
    return str(view.hand), [str(c) for c in calls], [str(h) for h in hints], times, \
        [level(c) for c in calls], [level(h) for h in hints]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--preset", default="difference")
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("-x", action="append", default=[], metavar="KEY=VALUE", help="an expert option")
    args = parser.parse_args()
    options = {}
    for item in args.x:
        key, _, value = item.partition("=")
        options[key] = parse_option_value(value)
    jobs = [(args.preset, args.seed, i, args.seeds, options) for i in range(args.hands)]
    steady = within = 0
    times: list[float] = []
    with ProcessPoolExecutor(args.workers) as pool:
        for i, (hand, calls, hints, t, levels, _) in enumerate(pool.map(one_hand, jobs)):
            lo, hi = min(levels), max(levels)
            span = (hi - lo + 1) if lo > 0 else (1 if hi == 0 else hi - Rules.preset(args.preset).min_bid + 2)
            ok = span <= 2
            hint_ok = len(set(hints)) == 1
            within += ok
            steady += hint_ok
            times.extend(t)
            print(f"{i:2d} {hand:28s} calls {' '.join(calls):40s} span {span} {'ok' if ok else 'WIDE'}; "
                  f"hint {'/'.join(sorted(set(hints)))} {'steady' if hint_ok else 'VARIES'}")
    times.sort()
    print(f"\n{args.preset}: {within}/{args.hands} hands within two levels, hint steady on {steady}/{args.hands}; "
          f"think time p50 {statistics.median(times):.3f} s, p95 {times[int(0.95 * (len(times) - 1))]:.3f} s")


if __name__ == "__main__":
    main()
