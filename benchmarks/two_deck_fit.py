"""Fit the heuristic bot's two-deck hand evaluation on forced-maker playouts.

    .venv/bin/python benchmarks/two_deck_fit.py [--deals 4000] [--preset official ...] [--players 2 3 5 6]
        [--seed 1] [--rounds 1]

The two-deck rows of ``src/cinch/bots/heuristic.py`` (``TWO_DECK_COEFFICIENTS`` by preset at four
players, with "no-draw" as "difference" without the draw, and ``TWO_DECK_TABLE_COEFFICIENTS`` by
cut-throat size, under "difference") come from this script.  It does what
``heuristic_calibration.py fit`` and ``cut_throat_strength.py fit`` do for one deck, with two packs:
it shuffles 104 cards, makes one seat the maker at the lowest bid (every position relative to the
dealer in turn), names the suit the bot's evaluation likes best, and plays the deal out with the
heuristic in every seat (the deal's own random generator orders any new stock made from the
discards).  It then fits, by least squares, the points the maker's side took (of 28) on the
features of the maker's dealt cards (``cinch.bots.heuristic.two_deck_features``).

A feature seen in under 1% of the playouts is not fitted and keeps the weight 0: a weight fitted on
a handful of hands is noise.  With two packs that is a bare Pedro (a hand named in a suit nearly
always holds a trump above its Pedros) and Sancho and Dom, which these rules do not play; where
nobody robs (no draw, two or three players) also the dealer's and his partner's deal, always 0 there.

The suit is named by the weights the bot holds now, so a run with the weights of ``heuristic.py``
is a check of them: the same deals and seeds give back the same rows while the suits named and
the bots' play stay as they were when the rows were fitted.
``--rounds 2`` fits again with the suit named by the first round's rows (in this process only), the
way new features are fitted: a first fit, then a second on the suits it names.

The rows in ``heuristic.py`` are those of ``--deals 4000 --seed 1``, but 3000 deals for "no-draw";
``--deals`` left out gives exactly these counts (the whole run takes about eight minutes on one
core).  A quick check of every row: ``--deals 200``, about half a minute.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from dataclasses import dataclass

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))
sys.path.insert(0, os.path.dirname(__file__))

from cinch import PRESET_NAMES, Rules  # noqa: E402
from cinch.bots import heuristic  # noqa: E402
from cinch.bots.heuristic import FEATURES, make_chance, point_distribution, spread_at  # noqa: E402
from heuristic_calibration import forced_playouts, least_squares  # noqa: E402

# The fits at four players: the presets, and nine tricks without the draw on "difference".
FOUR_PLAYER_FITS = (*PRESET_NAMES, "no-draw")
CUT_THROAT_SIZES = (2, 3, 5, 6)
# How many deals each row in heuristic.py was fitted on (when --deals is not given).
ORIGINAL_DEALS = 4000
ORIGINAL_DEALS_BY_FIT = {"no-draw": 3000}
# A feature present in fewer playouts than this share is left at 0 (see the module's docstring).
RARE = 0.01


@dataclass
class Fit:
    """One fitted row: the weights of FEATURES and the spread of the points around them."""

    name: str
    weights: list[float]
    spread: float
    not_fitted: list[str]

    @property
    def row(self) -> tuple[float, ...]:
        """The row as ``heuristic.py`` holds it: the weights, then the spread."""
        return (*self.weights, self.spread)


def rules_for(fit: str | int) -> Rules:
    """The two-deck rules of one fit: a preset (or "no-draw") at four, or a cut-throat size.

    >>> rules_for("no-draw").no_draw, rules_for(3).players, rules_for(3).decks
    (True, 3, 2)
    """
    if isinstance(fit, int):
        return Rules.preset("difference").with_options(decks=2, players=fit)
    if fit == "no-draw":
        return Rules.preset("difference").with_options(decks=2, players=4, no_draw=True)
    return Rules.preset(fit).with_options(decks=2, players=4)


def fit_rare_aside(xs: list[tuple[float, ...]], ys: list[float]) -> tuple[list[float], list[int]]:
    """Least-squares weights of FEATURES, a rare feature left at 0; and the indices of those left at 0.

    >>> xs = [(1, i % 3, 0) for i in range(300)] + [(1, 0, 1)]  # the third seen once in 301
    >>> w, rare = fit_rare_aside(xs, [2.0 + 0.5 * x[1] for x in xs])
    >>> [round(v, 2) for v in w], rare
    ([2.0, 0.5, 0.0], [2])
    """
    rare = [j for j in range(1, len(xs[0])) if sum(1 for x in xs if x[j]) < RARE * len(xs)]
    kept = [j for j in range(len(xs[0])) if j not in rare]
    fitted = least_squares([tuple(x[j] for j in kept) for x in xs], ys)
    weights = [0.0] * len(xs[0])
    for j, v in zip(kept, fitted):
        weights[j] = v
    return weights, rare


def fit(name: str | int, deals: int, seed: int) -> Fit:
    """Fit one row, and print how it fits: the spread, R^2, and the fitted chance of making a bid."""
    rules = rules_for(name)
    label = f"{name} at four" if isinstance(name, str) else f"{name} players (difference)"
    start = time.time()
    xs, ys = forced_playouts(rules, deals, seed)
    weights, rare = fit_rare_aside(xs, ys)
    not_fitted = [FEATURES[j] for j in rare]
    preds = [sum(w * v for w, v in zip(weights, x)) for x in xs]
    spread = statistics.pstdev([y - p for y, p in zip(ys, preds)])
    var_y = statistics.pvariance(ys)
    r2 = 1 - spread * spread / var_y if var_y else 0.0
    print(f"\n== {label}: {deals} forced-maker playouts in {time.time() - start:.0f}s; mean points "
          f"{statistics.mean(ys):.2f} of {rules.total_points} (sd {statistics.pstdev(ys):.2f}), R^2 {r2:.3f}, "
          f"residual sd {spread:.2f}")
    print("  not fitted (rare): " + (", ".join(not_fitted) or "none"))
    print("  " + ", ".join(f"{f} {v:+.2f}" for f, v in zip(FEATURES, weights)))
    # How well the fitted chance of making a bid matches the playouts (hands fitted near bid + 2).
    total = rules.total_points
    for bid in range(max(rules.min_bid, 6), total - 4, 2):
        near = [(p, y) for p, y in zip(preds, ys) if abs(p - (bid + 2)) <= 2]
        if len(near) < 50:
            continue
        predicted = statistics.mean(make_chance(point_distribution(p, spread_at(spread, total, p), total), bid)
                                    for p, _ in near)
        actual = sum(1 for _, y in near if y >= bid) / len(near)
        print(f"   bid {bid:>3}  predicted make {predicted:.2f}  actual {actual:.2f}  (n={len(near)})")
    return Fit(str(name), weights, spread, not_fitted)


def source_lines(key: str, row: tuple[float, ...], width: int = 120) -> list[str]:
    """One table entry as ``heuristic.py`` writes it: two decimals, wrapped under the parenthesis.

    >>> source_lines('"pagat"', (1.0, -0.5, 2.0), width=30)
    ['    "pagat": (1.00, -0.50,', '              2.00),']
    """
    head = f"    {key}: ("
    values = [f"{v:.2f}" for v in row]
    lines: list[str] = []
    line = head
    for i, text in enumerate(values):
        text += ")," if i == len(values) - 1 else ","
        if line.strip() and line != head and len(line) + 1 + len(text) > width:
            lines.append(line)
            line = " " * len(head) + text
        else:
            line += text if line == head else " " + text
    lines.append(line)
    return lines


def print_tables(four: list[Fit], cut_throat: list[Fit]) -> None:
    """The fitted rows, ready to paste over the two-deck tables of ``heuristic.py``."""
    if four:
        print("\nTWO_DECK_COEFFICIENTS: dict[str, tuple[float, ...]] = {")
        for f in four:
            print("\n".join(source_lines(f'"{f.name}"', f.row)))
        print("}")
    if cut_throat:
        print("TWO_DECK_TABLE_COEFFICIENTS: dict[int, tuple[float, ...]] = {")
        for f in cut_throat:
            print("\n".join(source_lines(f.name, f.row)))
        print("}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, help=f"deals per row (default: {ORIGINAL_DEALS}, "
                    f"{ORIGINAL_DEALS_BY_FIT['no-draw']} for no-draw, as in heuristic.py)")
    ap.add_argument("--preset", action="append", choices=FOUR_PLAYER_FITS,
                    help="fits at four players (default: all; none if only --players is given)")
    ap.add_argument("--players", type=int, nargs="+", choices=CUT_THROAT_SIZES,
                    help="cut-throat sizes (default: all; none if only --preset is given)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=1, help="fit again with the suits the last round's rows name")
    args = ap.parse_args()
    if args.deals is not None and args.deals < 10:
        ap.error(f"--deals must be at least 10 (a fit of {len(FEATURES)} weights), not {args.deals}")
    if args.rounds < 1:
        ap.error(f"--rounds must be at least 1, not {args.rounds}")
    everything = args.preset is None and args.players is None
    presets = list(FOUR_PLAYER_FITS) if everything else args.preset or []
    sizes = list(CUT_THROAT_SIZES) if everything else args.players or []

    def deals_for(name: str | int) -> int:
        if args.deals is not None:
            return int(args.deals)
        return ORIGINAL_DEALS_BY_FIT.get(str(name), ORIGINAL_DEALS)

    four: list[Fit] = []
    cut_throat: list[Fit] = []
    for round_ in range(1, args.rounds + 1):
        if args.rounds > 1:
            print(f"\n#### round {round_} of {args.rounds}")
        four = [fit(name, deals_for(name), args.seed) for name in presets]
        cut_throat = [fit(n, deals_for(n), args.seed) for n in sizes]
        if round_ < args.rounds:  # the next round names its suits by these rows (in this process only)
            heuristic.TWO_DECK_COEFFICIENTS.update({f.name: f.row for f in four})
            heuristic.TWO_DECK_TABLE_COEFFICIENTS.update({int(f.name): f.row for f in cut_throat})
    print_tables(four, cut_throat)


if __name__ == "__main__":
    main()
