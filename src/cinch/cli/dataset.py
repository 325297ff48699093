"""``cinch export-dataset OUT``: one row per decision of self-play or saved games, as JSONL or Parquet.

The rows are made by :mod:`cinch.study.dataset`; this module reads the command line, checks it
before anything is played, and says on standard error what was written.  docs/datasets.md lists
the columns.
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Iterable
from typing import Any

import click
from click.core import ParameterSource

from cinch.bots.base import DEFAULT_BOT
from cinch.cli.options import OneLineCommand, bot_option_values, db_option, make_rules, rules_options
from cinch.errors import CinchError

SELF_PLAY_OPTIONS = {"matches": "--matches", "bots": "--bots", "bot_options": "--bot-option", "preset": "--rules",
                     "options": "-o/--option", "seed": "--seed"}


@click.command("export-dataset", cls=OneLineCommand)
@click.argument("out", metavar="OUT")
@click.option("--self-play", "self_play", type=int, default=None, metavar="N",
              help="Play N deals with bots (N whole matches with --matches) and export their decisions.")
@click.option("--matches", is_flag=True, help="With --self-play: play whole matches to the target, not single deals.")
@click.option("--bots", "bots", default=DEFAULT_BOT, show_default=True, metavar="BOT|N,E,S,W",
              help="The self-play bots: one for every seat, or one per seat separated by commas, N E S W "
                   "(1,2,...,n at a cut-throat table, -o players=N).")
@click.option("--bot-option", "bot_options", multiple=True, metavar="KEY=VALUE",
              help="An option for the self-play bots that take it, e.g. simulations=200 (repeatable).")
@rules_options
@click.option("--seed", type=int, default=None, metavar="S",
              help="Seed of the self-play decks and bots; the same seed writes the same rows  [default: a random "
                   "one, reported]")
@click.option("--library", "library", default=None, metavar="all|ID,ID...",
              help="Export matches of the game library: all of them, or these ids.")
@db_option
@click.option("--record", "records", multiple=True, type=click.Path(dir_okay=False), metavar="FILE",
              help="Export a cinch/1 record file (repeatable).")
@click.option("--format", "fmt", type=click.Choice(["jsonl", "parquet"], case_sensitive=False), default=None,
              help="jsonl (one JSON object a line; gzipped if OUT ends with .gz) or parquet (needs pyarrow)  "
                   "[default: parquet if OUT ends with .parquet, else jsonl]")
@click.option("--skip-forced", is_flag=True, help="Leave out the decisions with only one legal action.")
@click.option("--no-vector", is_flag=True,
              help="Leave out the flat observation vector (1480 numbers a row at four players).")
@click.pass_context
def dataset_command(ctx: click.Context, out: str, self_play: int | None, matches: bool, bots: str,
                    bot_options: tuple[str, ...], preset: str, options: tuple[str, ...], seed: int | None,
                    library: str | None, db: str | None, records: tuple[str, ...], fmt: str | None,
                    skip_forced: bool, no_vector: bool) -> None:
    """Write one row per decision of self-play or saved games to OUT (- for standard output), for learning:
    the deciding seat's view (its own cards only), the legal actions, the choice and how the deal ended.

    \b
    cinch export-dataset train.jsonl.gz --self-play 1000 --bots expert,heuristic,expert,heuristic --seed 1
    cinch export-dataset games.parquet --library all
    cinch export-dataset one.jsonl --record match.json --skip-forced
    cinch export-dataset three.parquet --self-play 500 --rules official -o players=3 --seed 1

    One file holds one table size; export each size to its own file.
    """
    try:
        _export(ctx, out, self_play, matches, bots, bot_options, preset, options, seed, library, db, records, fmt,
                skip_forced, no_vector)
    except CinchError as e:
        click.echo(f"cinch: {e}", err=True)
        sys.exit(2)
    except KeyboardInterrupt:
        click.echo("\ncinch: interrupted; nothing written", err=True)
        sys.exit(130)


def _given(ctx: click.Context, name: str) -> bool:
    return ctx.get_parameter_source(name) not in (ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP, None)


def _export(ctx: click.Context, out: str, self_play: int | None, matches: bool, bots: str,
            bot_options: tuple[str, ...], preset: str, options: tuple[str, ...], seed: int | None,
            library: str | None, db: str | None, records: tuple[str, ...], fmt: str | None, skip_forced: bool,
            no_vector: bool) -> None:
    from cinch.library import refuse_overwriting_library
    from cinch.study.dataset import (
        SelfPlay,
        decision_rows,
        export,
        format_of,
        library_rows,
        parse_bots,
        parse_library_ids,
        record_rows,
        self_play_rows,
    )

    if self_play is None and library is None and not records:
        raise CinchError("nothing to export: give --self-play N, --library all (or ids) or --record FILE")
    if self_play is None:
        stray = [flag for name, flag in SELF_PLAY_OPTIONS.items() if _given(ctx, name)]
        if stray:
            raise CinchError(f"{', '.join(stray)} {'is' if len(stray) == 1 else 'are'} for --self-play, which is "
                             "not given (a saved game keeps its own rules and players)")
    if library is None and db is not None:
        raise CinchError("--db names the game library for --library, which is not given")
    if out != "-":
        refuse_overwriting_library(out, db, what="the dataset")
    fmt = format_of(out, fmt)
    vector = not no_vector
    sources: list[Iterable[dict[str, Any]]] = []
    if self_play is not None:
        chosen = seed if seed is not None else secrets.randbelow(2**31)
        rules = make_rules(preset, options)
        spec = SelfPlay(rules=rules, bots=parse_bots(bots, rules.players), count=self_play, seed=chosen,
                        matches=matches, options=tuple(bot_option_values(bot_options).items()))
        if seed is None:  # said once the rest is checked, so that a mistake is the only line
            click.echo(f"cinch: self-play seed {chosen} (--seed {chosen} writes the same rows)", err=True)
        sources.append(self_play_rows(spec, vector=vector, skip_forced=skip_forced))
    if library is not None:
        sources.append(library_rows(parse_library_ids(library), db, vector=vector, skip_forced=skip_forced))
    for path in records:
        sources.append(record_rows(path, vector=vector, skip_forced=skip_forced))
    summary = export(decision_rows(sources), out, fmt, vector=vector)
    where = "standard output" if out == "-" else out
    click.echo(f"cinch: {summary.rows} rows ({summary.deals} deals of {summary.games} games) written to {where} "
               f"as {summary.format}", err=True)

