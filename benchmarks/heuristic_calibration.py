"""Calibrate the heuristic bot's hand evaluation on playouts, and measure its strength.

    .venv/bin/python benchmarks/heuristic_calibration.py fit [--deals 20000] [--preset pagat ...]
    .venv/bin/python benchmarks/heuristic_calibration.py duplicate [--pairs 2000] [--opponent basic]
        [--preset pagat ...]

``fit`` deals random hands and, for each, makes one seat the maker (every position relative
to the dealer in turn, at the lowest bid), names the suit the bot's evaluation likes best,
and plays the deal out with the heuristic bot in all four seats (its own discard, rob and
card play: imperfect information, nobody sees another hand).  It then fits, by least
squares, the points the maker's partnership took on the evaluation features of the maker's
nine dealt cards (``cinch.bots.heuristic.FEATURES``), and prints the weights, the spread of
the points around the fit, and how well the fitted chance of making each bid matches the
playouts.  The printed table is what ``COEFFICIENTS`` / ``VARIANT_COEFFICIENTS`` in
``src/cinch/bots/heuristic.py`` hold.  The two-deck rows (``TWO_DECK_COEFFICIENTS``) are fitted
the same way by ``benchmarks/two_deck_fit.py``.

``duplicate`` plays each random deck twice with the teams swapped (heuristic as NS against
the opponent as EW, then the reverse) and reports the heuristic's mean score-change
advantage per deal with a 95% interval.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Sequence

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

from cinch import CARDS, PASS, Bid, Deal, NameTrump, Phase, Rules, Seat  # noqa: E402
from cinch.bots import make_bot  # noqa: E402
from cinch.bots.heuristic import (  # noqa: E402
    FEATURES,
    best_suit,
    hand_features,
    make_chance,
    point_distribution,
    spread_at,
)
from cinch.cards import ALL_CARDS  # noqa: E402

# The models the bot holds: the five presets, and variants on top of "difference".
VARIANTS = {
    "no-draw": dict(no_draw=True),
    "sancho": dict(sancho=True),
    "dom": dict(dom_pedro=True),
    "sancho-dom": dict(sancho=True, dom_pedro=True),
}


def rules_for(name: str) -> Rules:
    if name in VARIANTS:
        return Rules.preset("difference").with_options(**VARIANTS[name])
    return Rules.preset(name)


def forced_playout(rules: Rules, dealer: int, deck: list, maker: int, seed: int) -> tuple[tuple, int]:
    """``maker`` bids the lowest bid, the others pass; the heuristic plays it out, at any table and with
    one pack or two: (features of the maker's dealt hand, his side's points)."""
    table = rules.seating
    bot = make_bot("heuristic", seed=seed)
    d = Deal(rules, table.seats[dealer], deck, rng=random.Random(seed))
    while d.phase is Phase.BIDDING:
        legal = d.legal_actions()
        if d.to_act == maker:
            d.apply(next(a for a in legal if isinstance(a, Bid)))
        else:
            d.apply(PASS if PASS in legal else legal[0])
    assert d.maker == maker
    position = (maker - dealer) % table.players
    hand = int(d.hand(table.seats[maker]))
    suit, _ = best_suit(hand, rules, position)
    features = hand_features(hand, suit, rules, position)
    d.apply(NameTrump(suit))
    while d.phase is not Phase.DONE:
        seat = d.to_act
        assert seat is not None
        d.apply(bot.choose(d.view(seat)))
    assert d.result is not None and d.result.points is not None
    return features, d.result.points[table.side_of[maker]]


def forced_playouts(rules: Rules, deals: int, seed: int) -> tuple[list[tuple[float, ...]], list[float]]:
    """The features of each forced maker's hand and the points his side took, over ``deals`` deals.

    Deal ``i`` is dealt by seat ``i mod n``; the maker moves one seat on every ``n`` deals, so every
    position relative to the dealer is fitted alike.
    """
    n = rules.players
    rng = random.Random(seed)
    xs: list[tuple[float, ...]] = []
    ys: list[float] = []
    for i in range(deals):
        deck = list(ALL_CARDS[: rules.seating.deck])
        rng.shuffle(deck)
        dealer = i % n
        maker = (dealer + 1 + i // n) % n
        x, y = forced_playout(rules, dealer, deck, maker, seed * 1_000_003 + i)
        xs.append(x)
        ys.append(y)
    return xs, ys


def least_squares(xs: list[tuple], ys: Sequence[float], ridge: float = 1e-3) -> list[float]:
    """Weights minimising the squared error (normal equations, a touch of ridge for empty features)."""
    n = len(xs[0])
    a = [[0.0] * n for _ in range(n)]
    b = [0.0] * n
    for x, y in zip(xs, ys):
        for i in range(n):
            xi = x[i]
            if not xi:
                continue
            b[i] += xi * y
            row = a[i]
            for j in range(n):
                row[j] += xi * x[j]
    for i in range(n):
        a[i][i] += ridge * len(xs)
    # Gaussian elimination with partial pivoting.
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        if abs(m[col][col]) < 1e-12:
            continue
        for r in range(n):
            if r != col and m[r][col]:
                f = m[r][col] / m[col][col]
                for c in range(col, n + 1):
                    m[r][c] -= f * m[col][c]
    return [m[i][n] / m[i][i] if abs(m[i][i]) > 1e-12 else 0.0 for i in range(n)]


def fit(name: str, deals: int, seed: int) -> tuple[list[float], float]:
    rules = rules_for(name)
    start = time.time()
    xs, ys = forced_playouts(rules, deals, seed)
    w = least_squares(xs, ys)
    preds = [sum(a * b for a, b in zip(w, x)) for x in xs]
    res = [y - p for y, p in zip(ys, preds)]
    sd = statistics.pstdev(res)
    var_y = statistics.pvariance(ys)
    r2 = 1 - sd * sd / var_y if var_y else 0.0
    print(f"\n== {name}: {deals} forced-maker playouts in {time.time() - start:.0f}s; "
          f"mean points {statistics.mean(ys):.2f}, R^2 {r2:.3f}, residual sd {sd:.2f}")
    for f, v in zip(FEATURES, w):
        print(f"  {f:<14} {v:+.3f}")
    # How well the fitted chance of making a bid matches the playouts.
    total = rules.total_points
    print("  bid  predicted-make  actual-make  (hands whose fitted mean is within 1.5 of the bid + 1)")
    for bid in range(max(rules.min_bid, 5), min(total, 12) + 1):
        sel = [(p, y) for p, y in zip(preds, ys) if abs(p - (bid + 1)) <= 1.5]
        if len(sel) < 50:
            continue
        pred = statistics.mean(make_chance(point_distribution(p, spread_at(sd, total, p), total), bid)
                               for p, _ in sel)
        act = sum(1 for _, y in sel if y >= bid) / len(sel)
        print(f"  {bid:>3}  {pred:>14.2f}  {act:>11.2f}  (n={len(sel)})")
    # Spread by fitted level (is one sd enough?).
    bins: dict[int, list[float]] = {}
    for p, r in zip(preds, res):
        bins.setdefault(min(12, max(2, round(p))), []).append(r)
    print("  sd by fitted points: " + ", ".join(f"{k}:{statistics.pstdev(v):.1f}(n={len(v)})"
                                                for k, v in sorted(bins.items()) if len(v) >= 50))
    return w, sd


def play_deal(rules: Rules, dealer: Seat, deck: list, bots: tuple, seed: int) -> tuple[int, ...]:
    d = Deal(rules, dealer, deck, rng=random.Random(seed))
    while d.phase is not Phase.DONE:
        seat = d.to_act
        assert seat is not None
        d.apply(bots[seat & 1].choose(d.view(seat, score=(0, 0), target=rules.target)))
    assert d.result is not None
    return d.result.score_change


def duplicate(preset: str, opponent: str, pairs: int, seed: int, options: dict | None = None) -> tuple[float, float]:
    rules = Rules.preset(preset)
    if options:
        rules = rules.with_options(**options)
    rng = random.Random(seed)
    diffs = []
    start = time.time()
    for i in range(pairs):
        deck = list(CARDS)
        rng.shuffle(deck)
        dealer = Seat(i & 3)
        h, o = make_bot("heuristic", seed=i), make_bot(opponent, seed=i)
        a = play_deal(rules, dealer, deck, (h, o), i)
        h, o = make_bot("heuristic", seed=i), make_bot(opponent, seed=i)
        b = play_deal(rules, dealer, deck, (o, h), i)
        diffs.append(((a[0] - a[1]) + (b[1] - b[0])) / 2)
    mean = statistics.mean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
    print(f"heuristic vs {opponent:<7} {rules.name:<13} {pairs} deal pairs: {mean:+.2f} points per deal, "
          f"95% CI [{mean - half:+.2f}, {mean + half:+.2f}]  ({time.time() - start:.0f}s)")
    return mean, half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_fit = sub.add_parser("fit", help="fit the hand evaluation on playouts")
    p_fit.add_argument("--deals", type=int, default=20000)
    p_fit.add_argument("--preset", action="append", help="presets or variants (default: all)")
    p_fit.add_argument("--seed", type=int, default=1)
    p_dup = sub.add_parser("duplicate", help="duplicate deals against another bot")
    p_dup.add_argument("--pairs", type=int, default=2000)
    p_dup.add_argument("--opponent", action="append", help="bots to play (default: random and basic)")
    p_dup.add_argument("--preset", action="append", help="presets (default: pagat and difference)")
    p_dup.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    if args.command == "fit":
        names = args.preset or ["pagat", "difference", "additive", "official", "double-pedro", *VARIANTS]
        table = {}
        for name in names:
            w, sd = fit(name, args.deals, args.seed)
            table[name] = (*w, sd)
        print("\n# fitted table (weights of FEATURES, then the residual sd):")
        for name, row in table.items():
            print(f'    "{name}": (' + ", ".join(f"{v:.2f}" for v in row) + "),")
    else:
        for preset in args.preset or ["pagat", "difference"]:
            for opponent in args.opponent or ["random", "basic"]:
                duplicate(preset, opponent, args.pairs, args.seed)


if __name__ == "__main__":
    main()
