"""Engine speed on one core, and the same run's OpenSpiel euchre rate for scale.

    .venv/bin/python benchmarks/engine.py [--seconds 3] [--preset pagat ...]

Prints, per preset:
- random full deals per second through the public API (shuffle, then
  ``legal_actions()`` and ``apply()`` with a random legal choice at every step);
- random play-phase playouts per second from positions right after the draw
  (the search bots' path: ``Deal.random_playout``, which leaves the deal as it was);
- replayed deals per second (``cinch.record.replay`` on saved records of random matches);
and, when ``open_spiel`` is installed, OpenSpiel's euchre (C++ core) random games per
second, with each of ours as a ratio to it.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

from cinch import PRESET_NAMES, Deal, Phase, Rules, Seat  # noqa: E402
from cinch.match import Match  # noqa: E402
from cinch.record import replay, to_record  # noqa: E402


def rate(step, seconds: float) -> float:
    """Calls of ``step`` per second, timed over about ``seconds``."""
    step()  # warm up
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        n += step()
        now = time.perf_counter()
        if now >= deadline:
            return n / (now - start)


def full_deals(rules: Rules, seconds: float) -> float:
    rng = random.Random(1)
    random_ = rng.random

    def batch() -> int:
        for i in range(20):
            deal = Deal.shuffled(rules, Seat(i & 3), rng)
            while deal.phase is not Phase.DONE:
                legal = deal.legal_actions()
                deal.apply(legal[int(random_() * len(legal))])
        return 20

    return rate(batch, seconds)


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


def playouts(rules: Rules, seconds: float) -> float:
    rng = random.Random(3)
    deals = positions_after_draw(rules, 200)

    def batch() -> int:
        for deal in deals:
            deal.random_playout(rng)
        return len(deals)

    return rate(batch, seconds)


def replays(rules: Rules, seconds: float) -> float:
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

    return rate(batch, seconds)


def euchre(seconds: float) -> float | None:
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

    return rate(batch, seconds)


TARGETS = {"full deals": 0.5, "playouts": 1.0, "replay": 0.2}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--preset", action="append", choices=PRESET_NAMES, help="presets to time (default all)")
    args = parser.parse_args()
    presets = args.preset or list(PRESET_NAMES)
    base = euchre(args.seconds)
    if base is None:
        print("open_spiel is not installed: no euchre baseline (pip install '.[rl]')")
    else:
        print(f"OpenSpiel euchre (C++ core, random games via pyspiel): {base:,.0f} games/s")
    print(f"{'preset':<13} {'measure':<11} {'per second':>11} {'x euchre':>9} {'target':>7}")
    for name in presets:
        rules = Rules.preset(name)
        for label, fn in (("full deals", full_deals), ("playouts", playouts), ("replay", replays)):
            value = fn(rules, args.seconds)
            ratio = f"{value / base:.2f}" if base else "-"
            ok = "" if not base else ("ok" if value / base >= TARGETS[label] else "MISS")
            print(f"{name:<13} {label:<11} {value:>11,.0f} {ratio:>9} {TARGETS[label]:>5.1f}x {ok}")


if __name__ == "__main__":
    main()
