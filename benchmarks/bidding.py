"""Bidding accuracy: how often a bot's contracts are made, and its bids against the points it takes.

    .venv/bin/python benchmarks/bidding.py [--preset pagat --preset difference] [--deals 100] [--seed 1]
        [--workers 2] [--bots expert,heuristic] [-x worlds=8]

For each preset and each bot, the same shuffled decks are played twice, the bot in N and S
against the heuristic bot in E and W, then the other way round (a duplicate pair, as in the
arena; for the heuristic bot itself this is plain self-play).  Of the contracts the bot's side
wins, it prints: how many, the share made, the average bid, the average points the makers
take, the average surplus (points taken - bid; negative when the bot overbids), and the
average settlement the makers score (their score change less the defenders').  ``-x``
passes options to the expert.  A bot that judged its bids by the double-dummy solver would
show a low made share and a negative surplus: the solver's par assumes every card is known.
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

from cinch import PRESET_NAMES, Deal, Phase, Rules, Seat  # noqa: E402
from cinch.arena import derive_seed, parse_option_value  # noqa: E402
from cinch.bots import make_bot  # noqa: E402


def play_pair(args) -> list[tuple[int, int, bool, int]]:
    """The contracts the bot's side won in one duplicate pair: (bid, points taken, made, settlement)."""
    preset, bot_name, options, seed, index = args
    rules = Rules.preset(preset)
    out = []
    for bot_team in (0, 1):
        bots = {}
        for seat in Seat:
            name = bot_name if seat & 1 == bot_team else "heuristic"
            opts = options if name == "expert" else {}
            bots[seat] = make_bot(name, seed=derive_seed(seed, "bidding", index, int(seat)), **opts)
        deal = Deal.shuffled(rules, Seat(index % 4), random.Random(derive_seed(seed, "deck", index)))
        while not deal.is_over:
            if deal.phase is Phase.RESTOCK:  # pragma: no cover - shuffled decks resolve it themselves
                break
            seat = deal.to_act
            deal.apply(bots[seat].choose(deal.view(seat, score=(0, 0), target=rules.target)))
        r = deal.result
        if r is None or r.thrown_in or r.maker is None or r.maker & 1 != bot_team:
            continue
        makers = r.maker & 1
        taken = r.points[makers]
        net = r.score_change[makers] - r.score_change[1 - makers]
        out.append((r.bid, taken, bool(r.made), net))
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--preset", action="append", choices=PRESET_NAMES)
    p.add_argument("--deals", type=int, default=100, help="duplicate pairs per preset and bot")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--bots", default="expert,heuristic")
    p.add_argument("-x", action="append", default=[], help="KEY=VALUE option of the expert")
    args = p.parse_args()
    options = {}
    for item in args.x:
        k, v = item.split("=", 1)
        options[k] = parse_option_value(v)
    shown = " ".join(f"-x {x}" for x in args.x)
    print(f"Bidding accuracy: {args.deals} duplicate pairs per row against the heuristic bot, seed {args.seed}"
          + (f", expert options {shown}" if shown else ""))
    print()
    print("| preset | bot | contracts | made | average bid | points taken | surplus | makers' net |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for preset in args.preset or ["pagat", "difference"]:
            for bot in args.bots.split(","):
                started = time.perf_counter()
                jobs = [(preset, bot, options, args.seed, i) for i in range(args.deals)]
                rows = [c for chunk in pool.map(play_pair, jobs, chunksize=4) for c in chunk]
                wall = time.perf_counter() - started
                if not rows:
                    print(f"| {preset} | {bot} | 0 | | | | | |")
                    continue
                bids = [b for b, _, _, _ in rows]
                taken = [t for _, t, _, _ in rows]
                made = sum(m for _, _, m, _ in rows)
                nets = [n for _, _, _, n in rows]
                print(f"| {preset} | {bot} | {len(rows)} | {100 * made / len(rows):.1f}% | "
                      f"{statistics.mean(bids):.2f} | {statistics.mean(taken):.2f} | "
                      f"{statistics.mean(t - b for b, t, _, _ in rows):+.2f} | {statistics.mean(nets):+.2f} |",
                      flush=True)
                print(f"<!-- {preset} {bot}: {wall:.0f} s -->", file=sys.stderr)
    cmd = f"benchmarks/bidding.py --deals {args.deals} --seed {args.seed}" + (f" {shown}" if shown else "")
    print(f"\nRun: `{cmd}`")


if __name__ == "__main__":
    main()
