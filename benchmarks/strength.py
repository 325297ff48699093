"""Duplicate strength runs of the expert bot (the table in docs/strength.md).

    .venv/bin/python benchmarks/strength.py expert heuristic --rules pagat --deals 200 --seed 1 \
        --workers 2 -a worlds=8 [-b simulations=100] [--out DIR]

Like ``cinch arena``, but the options are given to each bot separately (``-a`` for A,
``-b`` for B): the heuristic bot accepts any keyword as a tuning parameter, so
``--bot-option`` cannot tell it apart from the expert.  Prints the arena's Markdown report
(or ``--json``) and the command that reproduces it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

from cinch.arena import parse_option_value, run_duplicate  # noqa: E402
from cinch.rules import Rules  # noqa: E402


def options(items: list[str]) -> dict:
    out = {}
    for item in items:
        key, value = item.split("=", 1)
        out[key.strip()] = parse_option_value(value.strip())
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("bot_a")
    p.add_argument("bot_b")
    p.add_argument("--rules", default="pagat")
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("-a", action="append", default=[], help="KEY=VALUE option of bot A")
    p.add_argument("-b", action="append", default=[], help="KEY=VALUE option of bot B")
    p.add_argument("--out", default=None)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    started = time.perf_counter()
    result = run_duplicate(args.bot_a, args.bot_b, Rules.preset(args.rules), deals=args.deals, seed=args.seed,
                           workers=args.workers, options_a=options(args.a), options_b=options(args.b),
                           out_dir=args.out, save_records=False)
    wall = time.perf_counter() - started
    cmd = " ".join(["benchmarks/strength.py", args.bot_a, args.bot_b, "--rules", args.rules, "--deals",
                    str(args.deals), "--seed", str(args.seed), "--workers", str(args.workers)]
                   + [f"-a {x}" for x in args.a] + [f"-b {x}" for x in args.b])
    print_result(result, wall, cmd, args.json)


def print_result(result: Any, wall: float, cmd: str, as_json: bool) -> None:
    """The arena's result as JSON (with the wall time and the command) or as its Markdown report."""
    if as_json:
        data = result.to_json()
        data["wall_s"] = wall
        data["script"] = cmd
        print(json.dumps(data))
    else:
        print(result.to_markdown())
        print(f"\nWall time {wall:.0f} s. Run: `{cmd}`")


if __name__ == "__main__":
    main()
