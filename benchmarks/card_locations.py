"""Where the unseen cards are: the card-location model against the expert's world sampler, on held-out views.

    .venv/bin/python benchmarks/card_locations.py [--preset official pagat ...] [--deals 20] [--every 2]
                                                  [--worlds 200] [--seed 2601] [--weights DIR] [--json FILE]

For each preset, ``--deals`` deals are played by the labelling expert of ``cinch train`` (the
expert at 8 worlds a play decision: the players of the training data) from a seed the training
never used; every ``--every``-th decision with a choice is a held-out view.  For every card the
seat has not seen, three distributions over where it is (the left-hand opponent, the partner, the
right-hand opponent, or in no hand: the stock, the discards) are scored by the log-loss of where it
really is (nats a card; lower is better):

- ``model``: the card-location head of the shipped networks (:meth:`cinch.neural.models.Models.card_locations`);
- ``sampler``: the distribution the expert's search implies: ``--worlds`` worlds drawn from the view by
  :func:`cinch.worlds.sample_weighted` with the expert's bid inference, each weighted as the expert
  weighs it (bids; in the play also the cards chosen), the card's places counted; a place no world gave
  gets half a world's weight, shared over the places the view allows, so that one miss is not infinite;
- ``even``: an even chance over the places the view allows (a shown void, a hand with no cards left).

The figures go to standard output as Markdown (and to ``--json``).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

from cinch import Deal, Rules
from cinch.arena import derive_seed
from cinch.bots import make_bot
from cinch.bots.inference import BidLikelihood, PlayLikelihood
from cinch.neural.features import encode, kind_of
from cinch.neural.models import Models
from cinch.study.dataset import SelfPlay, labelling_expert, play_self
from cinch.view import Phase
from cinch.worlds import sample_weighted

SMOOTH = 0.5  # pseudo-worlds shared over the places allowed


def sampler_distribution(view, worlds: int, rng: random.Random, bid_weight, play_weight) -> np.ndarray:
    """(52, 5): for each card, the weighted share of worlds that put it with each seat (N E S W) or in no hand."""
    counts = np.zeros((52, 5))
    total = 0.0
    for _ in range(worlds):
        sample = sample_weighted(view, rng, weight=bid_weight, verify=view.phase is not Phase.PLAY)
        hands = sample.hands
        w = sample.weight * (play_weight(view, hands) if view.phase is Phase.PLAY else 1.0)
        placed = 0
        for s, mask in enumerate(hands):
            m = mask
            while m:
                low = m & -m
                c = low.bit_length() - 1
                if c < 52:
                    counts[c, s] += w
                placed |= low
                m ^= low
        for c in range(52):
            if not placed >> c & 1:
                counts[c, 4] += w
        total += w
    return counts / max(total, 1e-12), total


def run(preset: str, deals: int, every: int, worlds: int, seed: int, models: Models) -> dict:
    rules = Rules.preset(preset)
    spec = SelfPlay(rules=rules, bots=("expert",) * 4, count=deals, seed=derive_seed(seed, "locations", preset),
                    options=tuple(labelling_expert(8).options))
    heuristic = make_bot("heuristic", seed=0)
    bid_weight = BidLikelihood(1.0, model=heuristic)
    play_weight = PlayLikelihood(0.3, model=heuristic)
    rng = random.Random(seed)
    losses: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    views = 0
    for i in range(deals):
        played = play_self(spec, i).deals[0]
        deal = Deal(rules, played.dealer, list(played.deck), restock=played.restock)
        decision = 0
        for action in played.history:
            seat = deal.to_act
            view = deal.view(seat)
            if len(view.legal) > 1 and kind_of(view) is not None:
                decision += 1
                if decision % every == 0:
                    views += 1
                    kind = kind_of(view)
                    e = encode(view)
                    model = models.card_locations(view)
                    sampled, _ = sampler_distribution(view, worlds, rng, bid_weight, play_weight)
                    me = int(seat)
                    for slot in np.flatnonzero(e.unseen):
                        card = e.cards[slot]
                        holder = next((s for s in range(4) if deal.hands[s] >> card & 1), None)
                        column = 4 if holder is None else holder
                        allowed_cols = [(me + 1 + r) % 4 for r in range(3) if e.allowed[slot, r]]
                        allowed_cols += [4] if e.allowed[slot, 3] else []
                        k = len(allowed_cols)
                        s_prob = sampled[card, column] * (1 - SMOOTH / (worlds + SMOOTH)) + \
                            (SMOOTH / (worlds + SMOOTH)) / k * (column in allowed_cols)
                        for name, p in (("model", model[card, column]), ("sampler", s_prob),
                                        ("even", 1 / k if column in allowed_cols else 0.0)):
                            loss = -math.log(max(p, 1e-12))
                            losses[kind][name].append(loss)
                            losses["all"][name].append(loss)
            deal.apply(action)
    out = {"preset": preset, "views": views, "deals": deals, "worlds": worlds}
    for kind, by_name in losses.items():
        out[kind] = {name: round(float(np.mean(v)), 4) for name, v in by_name.items()}
        out[kind]["cards"] = len(by_name["model"])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", nargs="+", default=["official", "pagat"])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--every", type=int, default=2)
    parser.add_argument("--worlds", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2601)
    parser.add_argument("--weights", default=None)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    models = Models.load(args.weights)
    results = []
    began = time.perf_counter()
    for preset in args.preset:
        results.append(run(preset, args.deals, args.every, args.worlds, args.seed, models))
        print(f"{preset}: done in {time.perf_counter() - began:.0f} s", file=sys.stderr)
    print(f"Card locations, nats a card (lower is better): {args.deals} deals a preset, one decision with a "
          f"choice in {args.every}, {args.worlds} worlds a view for the sampler, seed {args.seed}\n")
    print("| preset | decisions | views | cards | model | sampler | even chance |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for r in results:
        for kind in ("bid", "trump", "keep", "play", "all"):
            if kind in r:
                f = r[kind]
                print(f"| {r['preset']} | {kind} | {r['views'] if kind == 'all' else ''} | {f['cards']:,} | "
                      f"{f['model']:.3f} | {f['sampler']:.3f} | {f['even']:.3f} |")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
