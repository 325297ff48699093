"""Where the expert's edge lies: the expert makes one kind of decision for the neural bot, in duplicate pairs.

    .venv/bin/python benchmarks/expert_kinds.py --rules pagat --pairs 300 --seed 4100 \
        --kinds bid,trump,keep [--time 0.25] [--json]

Bot A is the ``neural`` bot except for the decisions of ``--kinds`` (bid, trump, keep, play, joined
by commas), which the expert makes at ``--time`` seconds a decision; bot B is the plain ``neural``
bot.  Both play the same decks (``cinch.arena.run_duplicate``, one worker, in this process), so A's
net per deal is what the expert's decisions of those kinds are worth over the network's.  It told
``cinch train`` where to spend the labelling expert's time: the expert's bids, trumps and keeps at
0.25 s gained nothing over the network's (docs/learning.md), so their labels get few playouts and
the play's get more worlds.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # a forward pass on a busy machine: one BLAS thread

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

from cinch.actions import Action  # noqa: E402
from cinch.arena import run_duplicate  # noqa: E402
from cinch.bots.base import Bot, make_bot, register  # noqa: E402
from cinch.neural.features import KINDS, kind_of  # noqa: E402
from cinch.rules import Rules  # noqa: E402
from cinch.view import SeatView  # noqa: E402
from strength import print_result  # noqa: E402  (beside this script)


@register("neural-with-expert")
class NeuralWithExpert(Bot):
    """The neural bot, but the expert (``time_budget`` seconds) makes the decisions of ``kinds`` ("bid,keep")."""

    def __init__(self, seed: int | None = None, kinds: str = "bid", time_budget: float = 0.25):
        super().__init__(seed)
        self.kinds = set(kinds.split(","))
        self.neural = make_bot("neural", seed=seed)
        self.expert = make_bot("expert", seed=seed, time_budget=time_budget)

    def choose(self, view: SeatView) -> Action:
        return (self.expert if kind_of(view) in self.kinds else self.neural).choose(view)


def kinds_of(text: str) -> str:
    """``--kinds``, checked: decision kinds of the models, joined by commas."""
    kinds = [k.strip() for k in text.split(",") if k.strip()]
    wrong = [k for k in kinds if k not in KINDS]
    if not kinds or wrong:
        raise argparse.ArgumentTypeError(f"--kinds takes {', '.join(KINDS)} joined by commas, not {text!r}")
    return ",".join(kinds)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="pagat")
    p.add_argument("--pairs", type=int, default=300)
    p.add_argument("--seed", type=int, default=4100)
    p.add_argument("--kinds", type=kinds_of, default="bid,trump,keep")
    p.add_argument("--time", type=float, default=0.25, help="the expert's seconds a decision")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    started = time.perf_counter()
    result = run_duplicate("neural-with-expert", "neural", Rules.preset(args.rules), deals=args.pairs,
                           seed=args.seed, workers=1, options_a={"kinds": args.kinds, "time_budget": args.time},
                           options_b={}, save_records=False)
    wall = time.perf_counter() - started
    cmd = (f"benchmarks/expert_kinds.py --rules {args.rules} --pairs {args.pairs} --seed {args.seed} "
           f"--kinds {args.kinds} --time {args.time}")
    print_result(result, wall, cmd, args.json)


if __name__ == "__main__":
    main()
