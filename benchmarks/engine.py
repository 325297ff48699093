"""Engine speed on one core, and OpenSpiel euchre's rate in the same run for scale.

    .venv/bin/python benchmarks/engine.py [--seconds 3] [--preset pagat ...] [--slice 0.02]

Prints, per preset:
- random full deals per second through the public API (shuffle, then
  ``legal_actions()`` and ``apply()`` with a random legal choice at every step);
- random play-phase playouts per second from positions right after the draw
  (the search bots' path: ``Deal.random_playout``, which leaves the deal as it was);
- replayed deals per second (``cinch.record.replay`` on saved records of random matches);
and, when ``open_spiel`` is installed, OpenSpiel's euchre (C++ core) random games per
second, with each of ours as a ratio to it.

The machine may be shared, and its speed changes within a run, by half from one tenth of a
second to the next on the development machine: each measurement alternates short slices of
ours and of euchre (``--slice``, 20 ms), so that each pair of slices sees the machine alike,
and prints the median of our slices' rates and the median of the pairs' ratios.  The first
line says which build of the engine runs (``cinch.native``): pure Python, or the modules
compiled with mypyc (``make compile``; ``CINCH_PURE=1`` forces pure Python).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

from cinch import PRESET_NAMES, Deal, Phase, Rules, Seat, native  # noqa: E402
from cinch.match import Match  # noqa: E402
from cinch.record import replay, to_record  # noqa: E402

Batch = Callable[[], int]


def rate(step: Batch, seconds: float) -> float:
    """Calls of ``step`` per second (each returns how many it did), timed over about ``seconds``."""
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        n += step()
        now = time.perf_counter()
        if now >= deadline:
            return n / (now - start)


def full_deals(rules: Rules) -> Batch:
    rng = random.Random(1)
    random_ = rng.random

    def batch() -> int:
        for i in range(20):
            deal = Deal.shuffled(rules, Seat(i & 3), rng)
            while deal.phase is not Phase.DONE:
                legal = deal.legal_actions()
                deal.apply(legal[int(random_() * len(legal))])
        return 20

    return batch


def positions_after_draw(rules: Rules, count: int, seed: int = 2) -> list[Deal]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        deal = Deal.shuffled(rules, Seat(len(out) & 3), rng)
        while deal.phase not in (Phase.PLAY, Phase.DONE):
            deal.apply(rng.choice(deal.legal_actions()))
        if deal.phase is Phase.PLAY:
            out.append(deal)
    return out


def playouts(rules: Rules) -> Batch:
    rng = random.Random(3)
    deals = positions_after_draw(rules, 200)

    def batch() -> int:
        for deal in deals:
            deal.random_playout(rng)
        return len(deals)

    return batch


def replays(rules: Rules) -> Batch:
    """Records of 24 deals each, played with random legal choices (random play rarely ends a match)."""
    records = []
    for seed in range(8):
        rng = random.Random(seed)
        match = Match(rules, first_dealer=Seat(seed & 3), rng=seed)
        while len(match.deals) < 24 and not match.is_over:
            deal = match.start_deal()
            while not deal.is_over:
                match.apply(rng.choice(deal.legal_actions()))
        records.append((to_record(match), len(match.deals)))

    def batch() -> int:
        n = 0
        for record, deals in records:
            replay(record)
            n += deals
        return n

    return batch


def euchre() -> Batch | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("euchre")
    random_ = random.Random(4).random

    def batch() -> int:  # the same random choice as ours (chance outcomes are uniform in euchre)
        for _ in range(20):
            state = game.new_initial_state()
            while not state.is_terminal():
                legal = state.chance_outcomes() if state.is_chance_node() else state.legal_actions()
                choice = legal[int(random_() * len(legal))]
                state.apply_action(choice[0] if state.is_chance_node() else choice)
        return 20

    return batch


def measure(ours: Batch, base: Batch | None, seconds: float, slice_s: float) -> tuple[float, float | None, list[float]]:
    """Our median rate, the median ratio to the base over pairs of slices next to each other (None
    without a base), and the base's rates."""
    ours()  # warm up: caches, the first shuffles
    if base is not None:
        base()
    mine: list[float] = []
    theirs: list[float] = []
    ratios: list[float] = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline or not mine:
        if base is None:
            mine.append(rate(ours, slice_s))
            continue
        if len(mine) % 2:  # each goes first in every other pair
            r, b = rate(ours, slice_s), rate(base, slice_s)
        else:
            b, r = rate(base, slice_s), rate(ours, slice_s)
        mine.append(r)
        theirs.append(b)
        ratios.append(r / b)
    return statistics.median(mine), (statistics.median(ratios) if ratios else None), theirs


# Targets (ratio to euchre) of the pure-Python build and of the compiled one.
TARGETS = {"full deals": (0.6, 1.0), "playouts": (1.0, 8.0), "replay": (0.2, 0.2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement (ours and euchre's)")
    parser.add_argument("--slice", type=float, default=0.02, help="seconds of each slice, ours or euchre's")
    parser.add_argument("--preset", action="append", choices=PRESET_NAMES, help="presets to time (default all)")
    args = parser.parse_args()
    presets = args.preset or list(PRESET_NAMES)
    compiled = native.compiled_modules()
    build = "compiled (mypyc: " + ", ".join(compiled) + ")" if compiled else "pure Python"
    print(f"cinch engine build: {build}")
    base = euchre()
    if base is None:
        print("open_spiel is not installed: no euchre baseline (pip install '.[rl]')")
    target_of = 1 if compiled else 0
    print(f"{'preset':<13} {'measure':<11} {'per second':>11} {'x euchre':>9} {'target':>7}")
    euchre_rates: list[float] = []
    for name in presets:
        rules = Rules.preset(name)
        for label, make in (("full deals", full_deals), ("playouts", playouts), ("replay", replays)):
            value, ratio, theirs = measure(make(rules), base, args.seconds, args.slice)
            euchre_rates += theirs
            target = TARGETS[label][target_of]
            shown = f"{ratio:.2f}" if ratio is not None else "-"
            ok = "" if ratio is None else ("ok" if ratio >= target else "MISS")
            print(f"{name:<13} {label:<11} {value:>11,.0f} {shown:>9} {target:>5.1f}x {ok}", flush=True)
    if euchre_rates:
        print(f"OpenSpiel euchre (C++ core, random games via pyspiel): {statistics.median(euchre_rates):,.0f} games/s "
              f"(median of {len(euchre_rates)} slices)")


if __name__ == "__main__":
    main()
