"""The expert, guided: each learned part's gain alone, in duplicate pairs against the plain expert.

    .venv/bin/python benchmarks/guided.py --rules official --pairs 300 --seed 2601 --time 0.25 \
        [--parts locations,likelihood,rollout,bidding,guided] [--weights DIR] [--workers 1] [--cheater 50] [--json]
    .venv/bin/python benchmarks/guided.py --costs [--time 0.25]

For each part (``locations=1``, ``likelihood=1``, ``rollout=policy``, ``bidding=policy``, and
``guided=1``: every part measured to help) the arena (``cinch.arena.run_duplicate``) plays
``--pairs`` duplicate pairs of the expert with that part alone (A) against the plain expert
(B), both at ``--time`` seconds a decision (or ``--worlds N``: a fixed number of worlds,
repeatable), on the same decks; it prints A's net per deal with its 95% interval, each side's
think time and the run's wall time.  ``cinch arena`` cannot give an option to one of two
bots of the same name, hence this script.  ``--cheater N`` also plays the all-seeing player
(``tests/bots/cheater.py``) against the plain expert and against the guided one on N pairs: the
gap before and after.  ``--costs`` instead counts the worlds each part searches in a decision at
``--time`` (North's decisions in four official deals played by the heuristic, seeds 100 to 103).

Seeds: use seeds not used in training (the weights' manifest names the data's seed; the
arena derives its decks from ``--seed`` through ``cinch.arena.derive_seed``, so any other seed
than the data's gives other decks).  The networks run with one BLAS thread (set here before
NumPy is imported): several threads on a busy machine make a forward pass twenty times slower.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from typing import Any  # noqa: E402

ROOT = os.path.join(os.path.dirname(__file__), "..")
sys.path.insert(0, os.path.join(ROOT, "src"))

from cinch.arena import ratio_interval, run_duplicate  # noqa: E402
from cinch.rules import Rules  # noqa: E402

PARTS: dict[str, dict[str, Any]] = {
    "locations": {"locations": 1},
    "likelihood": {"likelihood": 1},
    "rollout": {"rollout": "policy"},
    "bidding": {"bidding": "policy"},
    "guided": {"guided": 1},
}


def _budget(args: argparse.Namespace) -> dict[str, Any]:
    if args.worlds:
        return {"worlds": args.worlds}
    return {"time_budget": args.time}


def measure(part: str, args: argparse.Namespace) -> dict[str, Any]:
    """One part alone against the plain expert: the arena's figures."""
    extra = {"weights": args.weights} if args.weights else {}
    options_a = {**_budget(args), **PARTS[part], **extra}
    options_b = _budget(args)
    started = time.perf_counter()
    result = run_duplicate("expert", "expert", Rules.preset(args.rules), deals=args.pairs, seed=args.seed,
                           workers=args.workers, options_a=options_a, options_b=options_b, save_records=False)
    data = result.to_json()
    return {
        "part": part,
        "options_a": options_a,
        "pairs": data["pairs"],
        "net_per_deal": data["net_points_per_deal"],
        "ci95": data["ci95"],
        "think_ms": data["think_time_ms"],
        "problems": data["problems"],
        "wall_s": time.perf_counter() - started,
    }


def cheater_gap(args: argparse.Namespace) -> list[dict[str, Any]]:
    """The all-seeing player against the plain expert and against the guided one, on the same decks."""
    sys.path.insert(0, os.path.join(ROOT, "tests", "bots"))
    from cheater import play_duplicate  # type: ignore[import-not-found]  # a test-only player: it reads every hand

    extra = {"weights": args.weights} if args.weights else {}
    out = []
    for name, options in (("expert", _budget(args)), ("expert, guided", {**_budget(args), "guided": 1, **extra})):
        started = time.perf_counter()
        nets = play_duplicate("expert", args.rules, pairs=args.cheater, seed=args.seed, options=options)
        mean, ci = ratio_interval([n * 2 for n in nets], [2] * len(nets))
        out.append({"against": name, "pairs": len(nets), "cheater_net_per_deal": mean, "ci95": list(ci),
                    "wall_s": time.perf_counter() - started})
    return out


def costs(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Worlds searched a decision, by kind of decision, for the plain expert and each part alone."""
    from cinch import Deal, Seat
    from cinch.bots import make_bot
    from cinch.view import Phase

    heuristic = make_bot("heuristic", seed=0)
    views = []
    for seed in range(100, 104):
        deal = Deal.shuffled(Rules.preset("official"), Seat.W, rng=seed)
        while not deal.is_over:
            seat = deal.to_act
            assert seat is not None
            view = deal.view(seat)
            if len(view.legal) > 1 and seat == Seat.N:
                views.append(view)
            deal.apply(heuristic.choose(view))
    out = []
    extra = {"weights": args.weights} if args.weights else {}
    for part, options in [("plain", {}), *PARTS.items()]:
        bot = make_bot("expert", seed=1, time_budget=args.time, **options, **(extra if options else {}))
        worlds: dict[str, list[int]] = {}
        for view in views:
            kind = {Phase.BIDDING: "a call", Phase.TRUMP: "the trump"}.get(view.phase, "a keep")
            if view.phase is Phase.PLAY:
                kind = "trick 1" if not view.tricks else "later tricks"
            worlds.setdefault(kind, []).append(bot.decide(view).samples)  # type: ignore[attr-defined]
        out.append({"part": part, "worlds": {k: sum(v) / len(v) for k, v in worlds.items()}, "decisions": len(views)})
    return out


def _interval(ci: list[float | None]) -> str:
    if ci[0] is None or ci[1] is None:
        return "n/a"
    return f"{ci[0]:+.2f} to {ci[1]:+.2f}"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="official")
    p.add_argument("--pairs", type=int, default=300)
    p.add_argument("--seed", type=int, default=2601)
    p.add_argument("--time", type=float, default=0.25, help="seconds a decision, both sides")
    p.add_argument("--worlds", type=int, default=0, help="a fixed number of worlds instead of --time")
    p.add_argument("--parts", default=",".join(PARTS))
    p.add_argument("--weights", default="", help="a weights folder (default: the package's)")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--cheater", type=int, default=0, help="pairs against the all-seeing player, before and after")
    p.add_argument("--costs", action="store_true", help="count the worlds a decision instead")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    if args.costs:
        table = costs(args)
        if args.json:
            print(json.dumps(table))
            return
        kinds = list(table[0]["worlds"])
        print(f"Worlds searched a decision at {args.time} s ({table[0]['decisions']} decisions)\n")
        print("| expert | " + " | ".join(kinds) + " |")
        print("| --- | " + " | ".join("---" for _ in kinds) + " |")
        for row in table:
            print(f"| {row['part']} | " + " | ".join(f"{row['worlds'].get(k, 0):.0f}" for k in kinds) + " |")
        print(f"\nRun: `benchmarks/guided.py --costs --time {args.time}`")
        return
    parts = [x.strip() for x in args.parts.split(",") if x.strip()]
    unknown = [x for x in parts if x not in PARTS]
    if unknown:
        p.error(f"--parts takes {', '.join(PARTS)}; not {', '.join(unknown)}")
    rows = [measure(part, args) for part in parts]
    gap = cheater_gap(args) if args.cheater else []
    budget = f"--worlds {args.worlds}" if args.worlds else f"--time {args.time}"
    cmd = (f"benchmarks/guided.py --rules {args.rules} --pairs {args.pairs} --seed {args.seed} {budget} "
           f"--parts {','.join(parts)} --workers {args.workers}"
           + (f" --weights {args.weights}" if args.weights else "") + (f" --cheater {args.cheater}" if args.cheater
                                                                       else ""))
    if args.json:
        print(json.dumps({"parts": rows, "cheater": gap, "command": cmd}))
        return
    print(f"Guided expert (A) against the plain expert (B), {args.rules}, {budget}, seed {args.seed}\n")
    print("| part | pairs | A's net per deal | 95% interval | A's think ms (mean, p99) | B's (mean, p99) | wall s |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        a, b = r["think_ms"]["a"], r["think_ms"]["b"]
        print(f"| {r['part']} | {r['pairs']} | {r['net_per_deal']:+.2f} | {_interval(r['ci95'])} | "
              f"{a['mean']:.0f}, {a['p99']:.0f} | {b['mean']:.0f}, {b['p99']:.0f} | {r['wall_s']:.0f} |")
    for r in rows:
        bad = {side: n for side, counts in r["problems"].items() for n in counts.values() if n}
        if bad:
            print(f"\n{r['part']}: crashed or illegal decisions {r['problems']}")
    for g in gap:
        print(f"\nThe all-seeing player against {g['against']}: {g['cheater_net_per_deal']:+.2f} a deal "
              f"({_interval(g['ci95'])}), {g['pairs']} pairs, {g['wall_s']:.0f} s")
    print(f"\nRun: `{cmd}`")


if __name__ == "__main__":
    main()
