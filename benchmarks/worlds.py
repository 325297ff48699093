"""World sampling with the expert's bid inference: worlds drawn per world kept, and time per world.

    .venv/bin/python benchmarks/worlds.py [--preset pagat ...] [--deals 6] [--views 20] [--worlds 6]
                                          [--floor 0.25 ...] [--seed 1]

For each preset, deals are played by four heuristic bots; at each decision with a choice
after the first bid (so the bid weight has something to weigh), the seat's view is kept,
at most ``--views`` of them spread over the deals.  Each view is sampled ``--worlds``
times by each method, as the expert samples (:mod:`cinch.bots.expert`): a full deal
(``sample_deal``) before the play, the hands only (``sample_hands``) in the play, with
:class:`~cinch.bots.inference.BidLikelihood` (sharpness 1, the heuristic as the model).

The methods:

- ``rejection``: ``sample_deal`` / ``sample_hands``: every world kept with probability
  ``weight`` (the worlds of the loop before rejection control, for the same seed: see
  ``tests/test_worlds.py``), the bid weight computed to the end for every world;
- ``rejection+stop``: the same, with the bid weight stopping once the world is refused anyway
  (``BidLikelihood``'s ``stop_below``);
- ``floor F``: ``sample_weighted(floor=F)``: every world kept once its weight reaches F,
  with an importance weight; ``floor F+stop`` with the early-stopping weight;
- ``no inference``: ``sample_weighted`` without a weight, every world drawn kept (the expert
  with ``inference=0``, the ``neural`` bot's last tricks): the cost of a draw itself.

Columns: worlds drawn per world returned; CPU microseconds per world returned (this
process's time, ``time.process_time``: the machine may be shared); the effective sample
size per world returned (Kish's, per view: ``(sum w)^2 / sum w^2`` over the view's worlds;
1 for an exact draw), and CPU microseconds per *effective* world, the figure to compare.
A world a search bot then solves or plays out costs it the same whatever the method, so
what a method saves is (draws per world) x (the cost of a draw).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

import cinch.worlds as worlds  # noqa: E402
from cinch import PRESET_NAMES, Deal, Phase, Rules, Seat  # noqa: E402
from cinch.bots.base import make_bot  # noqa: E402
from cinch.bots.inference import BidLikelihood  # noqa: E402
from cinch.view import SeatView  # noqa: E402


class WholeLikelihood(BidLikelihood):
    """:class:`BidLikelihood` computed to the end for every world (as before it could stop early)."""

    stops_early = False


def views(rules: Rules, deals: int, limit: int, seed: int) -> list[SeatView]:
    rng = random.Random(seed)
    bots = {s: make_bot("heuristic", seed=seed + int(s)) for s in Seat}
    out = []
    for k in range(deals):
        deal = Deal.shuffled(rules, Seat(k % 4), rng)
        while not deal.is_over:
            if deal.phase is Phase.RESTOCK:
                order = list(deal.restock_pool)
                rng.shuffle(order)
                deal.apply_restock(order)
                continue
            seat = deal.to_act
            assert seat is not None
            view = deal.view(seat)
            if len(view.legal) > 1 and view.auction:
                out.append(view)
            deal.apply(bots[seat].choose(view))
    step = max(1, len(out) // limit)
    return out[::step][:limit]


Method = Callable[[SeatView, random.Random], tuple[Any, float, int]]  # (the world's hands, its weight, draws)


def methods(floors: list[float]) -> dict[str, Method]:
    plain = WholeLikelihood(1.0, model=make_bot("heuristic", seed=0))
    early = BidLikelihood(1.0, model=make_bot("heuristic", seed=0))

    def rejection(weight) -> Method:
        def run(view: SeatView, rng: random.Random) -> tuple[Any, float, int]:
            # sample_hands in the play, sample_deal before it: the same loop, which counts its draws.
            s = worlds._sample(view, rng, weight, 400, do_replay=view.phase is not Phase.PLAY)
            return s.hands, 1.0, s.draws
        return run

    def weighted(weight, floor: float) -> Method:
        def run(view: SeatView, rng: random.Random) -> tuple[Any, float, int]:
            s = worlds.sample_weighted(view, rng, weight=weight, floor=floor, verify=view.phase is not Phase.PLAY)
            return s.hands, s.weight, s.draws
        return run

    out: dict[str, Method] = {"rejection": rejection(plain), "rejection+stop": rejection(early),
                              "no inference": weighted(None, 1.0)}
    for f in floors:
        out[f"floor {f:g}"] = weighted(plain, f)
        out[f"floor {f:g}+stop"] = weighted(early, f)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", action="append", choices=PRESET_NAMES)
    parser.add_argument("--deals", type=int, default=6, help="deals played per preset to collect views")
    parser.add_argument("--views", type=int, default=20, help="views sampled per preset")
    parser.add_argument("--worlds", type=int, default=6, help="worlds per view and method")
    parser.add_argument("--floor", type=float, action="append", help="sample_weighted floors (default 0.25)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    floors = args.floor or [worlds.DEFAULT_FLOOR]
    print(f"{'preset':13s} {'method':16s} {'draws/world':>11s} {'us/world':>9s} {'ESS/world':>9s} "
          f"{'us/eff. world':>13s}")
    for preset in args.preset or PRESET_NAMES:
        sample = views(Rules.preset(preset), args.deals, args.views, args.seed)
        reference = None
        for name, method in methods(floors).items():
            drawn = 0
            got = []
            ess = 0.0
            cpu = time.process_time()
            for i, view in enumerate(sample):
                rng = random.Random(args.seed * 1000 + i)
                ws = []
                for _ in range(args.worlds):
                    hands, w, draws = method(view, rng)
                    drawn += draws
                    got.append(hands)
                    ws.append(w)
                ess += sum(ws) ** 2 / sum(w * w for w in ws)
            cpu = time.process_time() - cpu
            n = len(got)
            if name == "rejection":
                reference = got
            same = ""
            if name == "rejection+stop":  # stopping early must not change which worlds are kept
                same = "  same worlds" if got == reference else "  OTHER WORLDS THAN REJECTION"
            print(f"{preset:13s} {name:16s} {drawn / n:11.2f} {1e6 * cpu / n:9.0f} {ess / n:9.3f} "
                  f"{1e6 * cpu / ess if ess else math.inf:13.0f}{same}")
        print(f"{'':13s} ({len(sample)} views x {args.worlds} worlds)")


if __name__ == "__main__":
    main()
