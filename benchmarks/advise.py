"""The bid advisor's time per hand: every suit and level in under 2 s, with intervals.

    .venv/bin/python benchmarks/advise.py [--preset pagat ...] [--hands 4] [--time 1.2] [--seed 1] [--no-command]

For each preset, ``--hands`` deals are shuffled from the seed; in each, a seat at random
waits for its turn to bid while the seats before it call as the heuristic bot does.  The
advice is asked from that seat's view exactly as ``cinch advise`` asks it (the position
rebuilt from the hand and the calls, :func:`cinch.study.advise.advise` with the command's
default time, the text printed to nowhere), and timed on the wall clock (what a player
waits for) and in this process's CPU time (the machine may be shared).  Columns: the
worlds played out, their effective number, the half-width of the 95% interval of the
recommended call's value, the wall and CPU seconds.

Last, unless ``--no-command``, one hand through the ``cinch`` command itself in a fresh
process (Python's start and the imports included).  The target: p50 and max under 2 s.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

from cinch import PRESET_NAMES, Deal, Phase, Rules, Seat  # noqa: E402
from cinch.bots.base import make_bot  # noqa: E402
from cinch.cli.advise import describe  # noqa: E402
from cinch.study.advise import DEFAULT_SECONDS, advise, position  # noqa: E402

TARGET = 2.0


def hands(rules: Rules, count: int, rng: random.Random) -> list[tuple[Seat, Seat, str, list[str]]]:
    """(seat, dealer, hand, calls before it) for ``count`` deals, the calls the heuristic's."""
    bot = make_bot("heuristic", seed=0)
    out = []
    while len(out) < count:
        dealer = Seat(rng.randrange(4))
        deal = Deal.shuffled(rules, dealer, rng=rng.randrange(1 << 30))
        seat = Seat(rng.randrange(4))
        calls = []
        while deal.to_act != seat:
            bidder = deal.to_act
            assert bidder is not None
            call = bot.choose(deal.view(bidder))
            calls.append(str(call))
            deal.apply(call)
        if deal.phase is Phase.BIDDING:
            out.append((seat, dealer, str(deal.hand(seat)), calls))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--preset", nargs="*", default=list(PRESET_NAMES))
    parser.add_argument("--hands", type=int, default=4)
    parser.add_argument("--time", type=float, default=DEFAULT_SECONDS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-command", action="store_true")
    args = parser.parse_args()
    import cinch

    print(f"build: {', '.join(cinch.compiled_modules()) or 'pure Python'}; search time {args.time} s per hand")
    print(f"{'preset':<13} {'seat':>4} {'calls':<22} {'worlds':>6} {'eff.':>5} {'±best':>6} {'wall s':>7} "
          f"{'cpu s':>6}  advice")
    rng = random.Random(args.seed)
    walls, cpus = [], []
    for preset in args.preset:
        rules = Rules.preset(preset)
        for seat, dealer, hand, calls in hands(rules, args.hands, rng):
            wall, cpu = time.perf_counter(), time.process_time()
            advice = advise(position(rules, hand, seat, dealer, calls), seconds=args.time)
            describe(advice)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            walls.append(wall)
            cpus.append(cpu)
            value = advice.best_advice.value
            print(f"{preset:<13} {seat.name:>4} {', '.join(calls) or '-':<22} {advice.worlds:>6} "
                  f"{advice.effective:>5.0f} {(value.high - value.low) / 2:>6.2f} {wall:>7.2f} {cpu:>6.2f}  "
                  f"{advice.best}")
    ok = max(walls) < TARGET
    print(f"\n{len(walls)} hands: wall p50 {statistics.median(walls):.2f} s, max {max(walls):.2f} s; "
          f"CPU p50 {statistics.median(cpus):.2f} s, max {max(cpus):.2f} s; "
          f"target {TARGET:.0f} s: {'met' if ok else 'MISSED'}")
    if not args.no_command:
        seat, dealer, hand, calls = hands(Rules.preset(args.preset[0]), 1, rng)[0]
        command = [os.path.join(os.path.dirname(sys.executable), "cinch"), "advise", *hand.split(),
                   "--rules", args.preset[0], "--seat", seat.name, "--dealer", dealer.name,
                   "--bids", ", ".join(calls), "--time", str(args.time)]
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        whole = time.perf_counter() - start
        print(f"the whole command (a fresh process, {args.preset[0]}): {whole:.2f} s; target "
              f"{TARGET:.0f} s: {'met' if whole < TARGET else 'MISSED'}")


if __name__ == "__main__":
    main()
