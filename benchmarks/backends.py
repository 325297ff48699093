"""Throughput of the process pool and of Ray on the same job (the Ray figure in docs/variants.md).

    .venv/bin/python benchmarks/backends.py [--job arena|study] [--deals 400] [--workers 2] [--repeats 3]

The job is an arena run (``heuristic`` against ``basic``, duplicate deal pairs) or a study
(heuristic self-play of pagat), played once per repeat on each backend in turn, process
pool first.  Ray is started once before the runs (its start is timed and reported apart,
with a first small run that loads cinch into its workers): a Ray run then costs what a
run on a long-lived local Ray or a cluster costs.  Prints each run's deals per second,
the median of each backend, their ratio (the target is 0.9 or more) and whether both
gave the same results.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

from cinch.arena import run_duplicate  # noqa: E402
from cinch.backends import Backend, make_backend  # noqa: E402
from cinch.study.variants import run_study  # noqa: E402

ARENA_RUN_DEPENDENT = ("think_time_ms", "elapsed_s", "workers", "out_dir", "backend")
STUDY_RUN_DEPENDENT = ("elapsed_s", "workers", "backend")


def run(job: str, deals: int, seed: int, workers: int, backend: str | Backend) -> tuple[int, dict[str, Any]]:
    """Play the job once: the deals played and the results (without what may differ between runs)."""
    if job == "arena":
        result = run_duplicate("heuristic", "basic", "pagat", deals, seed, workers, backend=backend)
        data = result.to_json()
        return result.deals, {k: v for k, v in data.items() if k not in ARENA_RUN_DEPENDENT}
    study = run_study(["pagat"], deals=deals, seed=seed, workers=workers, backend=backend)
    data = study.to_json()
    return study.figures[0].deals, {k: v for k, v in data.items() if k not in STUDY_RUN_DEPENDENT}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--job", choices=("arena", "study"), default="arena")
    p.add_argument("--deals", type=int, default=400, help="deal pairs (arena) or deals (study) per run")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()

    started = time.perf_counter()
    ray = make_backend("ray", args.workers)
    ray_start = time.perf_counter() - started
    started = time.perf_counter()
    run(args.job, 2 * args.workers, args.seed + 1, args.workers, ray)  # load cinch into every Ray worker
    ray_warm = time.perf_counter() - started

    rates: dict[str, list[float]] = {"process": [], "ray": []}
    results: dict[str, dict[str, Any]] = {}
    try:
        for _ in range(args.repeats):
            for name, backend in (("process", "process"), ("ray", ray)):
                started = time.perf_counter()
                played, results[name] = run(args.job, args.deals, args.seed, args.workers, backend)
                wall = time.perf_counter() - started
                rates[name].append(played / wall)
                if not args.json:
                    print(f"{name:>7}: {played} deals in {wall:.2f} s, {played / wall:.0f} deals/s", flush=True)
    finally:
        ray.close()
    process, on_ray = statistics.median(rates["process"]), statistics.median(rates["ray"])
    summary = {
        "job": args.job, "deals": args.deals, "workers": args.workers, "repeats": args.repeats, "seed": args.seed,
        "process_deals_per_s": process, "ray_deals_per_s": on_ray, "ratio": on_ray / process,
        "runs": rates, "ray_start_s": ray_start, "ray_first_run_s": ray_warm,
        "same_results": results["process"] == results["ray"],
    }
    if args.json:
        print(json.dumps(summary))
        return
    print(f"median: process pool {process:.0f} deals/s, Ray {on_ray:.0f} deals/s, ratio {on_ray / process:.2f} "
          f"(target 0.9 or more); Ray started in {ray_start:.1f} s, its first run (loading cinch) {ray_warm:.1f} s; "
          f"same results: {'yes' if summary['same_results'] else 'NO'}")


if __name__ == "__main__":
    main()
