"""``cinch study``: variant statistics from self-play, one or more rule sets side by side.

The work is done by :mod:`cinch.study.variants`; this module reads the command line,
writes the report (Markdown or HTML, with its plots and ``figures.json``) into the
output folder and prints the Markdown report (or, with ``--json``, the figures).
"""

from __future__ import annotations

import json
import re
import secrets
import sys
from pathlib import Path

import click

from cinch.cli.options import OneLineCommand, backend_choice, backend_options, bot_option_values, fresh_folder
from cinch.errors import CinchError


@click.command("study", cls=OneLineCommand)
@click.option("--rules", "rule_sets", multiple=True, metavar="PRESET[,KEY=VALUE...]",
              help="A rule set to study: a preset and its overrides, comma-separated, e.g. --rules pagat "
                   "--rules pagat,all_pass=throw-in --rules difference,target=62, or a table size, --rules "
                   "official,players=3 --rules official (repeatable; see `cinch rules`) "
                   " [default: pagat]")
@click.option("-o", "--option", "options", multiple=True, metavar="KEY=VALUE",
              help="An override for every rule set, e.g. -o sancho=true.")
@click.option("--deals", type=int, default=None, metavar="N",
              help="Play whole matches until each rule set has at least N deals  [default: 1000]")
@click.option("--matches", type=int, default=None, metavar="M", help="Play exactly M matches of each rule set instead.")
@click.option("--bot", default="heuristic", show_default=True, metavar="BOT", help="The bot in every seat.")
@click.option("--bot-option", "bot_options", multiple=True, metavar="KEY=VALUE",
              help="An option for the bot, e.g. simulations=200 (repeatable).")
@click.option("--seed", type=int, default=None, metavar="S",
              help="Seed of the decks and the bots; the same seed repeats the run  [default: a random one, reported]")
@click.option("--workers", type=int, default=None, metavar="K",
              help="Processes to play on  [default: every core; on a Ray cluster, its CPUs]")
@backend_options
@click.option("--out", "out", type=click.Path(file_okay=False), default=None, metavar="DIR",
              help="Where to write the report, its plots and figures.json  [default: study-out/<time>/]")
@click.option("--format", "fmt", type=click.Choice(["markdown", "html"], case_sensitive=False), default="markdown",
              show_default=True, help="The report's format.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as one JSON object instead of the report.")
def study_command(rule_sets: tuple[str, ...], options: tuple[str, ...], deals: int | None, matches: int | None,
                  bot: str, bot_options: tuple[str, ...], seed: int | None, workers: int | None,
                  backend: str | None, address: str | None, out: str | None, fmt: str, as_json: bool) -> None:
    """Variant statistics: the same bot plays whole matches of each rule set against itself, on the same
    decks, and the report compares them: make rate per bid level, average winning bid, points per deal,
    who captures each point card, seat and dealer advantage, throw-ins and match length, with 95% intervals."""
    try:
        _study(rule_sets, options, deals, matches, bot, bot_options, seed, workers, backend, address, out, fmt,
               as_json)
    except CinchError as e:
        click.echo(f"cinch: {e}", err=True)
        sys.exit(2)


def _study(rule_sets: tuple[str, ...], options: tuple[str, ...], deals: int | None, matches: int | None, bot: str,
           bot_options: tuple[str, ...], seed: int | None, workers: int | None, backend: str | None,
           address: str | None, out: str | None, fmt: str, as_json: bool) -> None:
    from cinch.library import refuse_writing_into
    from cinch.study.variants import PLOTS, check_study, parse_rule_set, run_study, write_report

    chosen = backend_choice(backend, address)
    rules = [parse_rule_set(text, options) for text in (rule_sets or ("pagat",))]
    if deals is not None and matches is not None:
        raise CinchError(f"--deals {deals} and --matches {matches} both say how much to play; give one")
    if deals is None and matches is None:
        deals = 1000
    if workers is not None and workers < 1:
        raise CinchError(f"--workers must be at least 1, not {workers}")
    rules, spec = check_study(rules, deals, matches, bot, bot_option_values(bot_options))
    if seed is None:
        seed = secrets.randbelow(2**31)
    out_dir = Path(out) if out is not None else fresh_folder("study-out")
    refuse_writing_into(out_dir, ("report.md", "report.html", "figures.json", *PLOTS), what="the study's report")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise CinchError(f"cannot write to {out_dir}: {e.strerror or e}") from None
    how_much = f"at least {deals} deals" if deals is not None else f"{matches} matches"
    click.echo(f"cinch: {bot} self-play, {how_much} of each of {len(rules)} rule set"
               f"{'s' if len(rules) != 1 else ''}, seed {seed}", err=True)
    try:
        study = run_study(rules, deals, seed, spec, workers, matches=matches, backend=chosen, address=address)
    except KeyboardInterrupt:
        click.echo("\nInterrupted: no report written.", err=True)
        sys.exit(130)
    try:
        path = write_report(study, out_dir, fmt.lower())
    except OSError as e:
        raise CinchError(f"cannot write the report in {out_dir}: {e.strerror or e}") from None
    if as_json:
        click.echo(json.dumps(study.to_json()))
    elif path.suffix == ".md":
        click.echo(path.read_text(encoding="utf-8"), nl=False)
    click.echo(f"cinch: report saved in {path} ({_files(out_dir)})", err=True)


def _files(out_dir: Path) -> str:
    names = sorted(p.name for p in out_dir.iterdir() if re.search(r"\.(png|json)$", p.name))
    return ", ".join(names)
