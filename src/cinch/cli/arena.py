"""``cinch arena BOT_A BOT_B``: duplicate deals (or matches) between two bots, on every core, with the statistics.

The work is done by :mod:`cinch.arena`; this module reads the command line,
shows a progress bar on standard error and prints the report (Markdown, or one
JSON object with ``--json``) on standard output.
"""

from __future__ import annotations

import json
import re
import secrets
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import click

from cinch.cli.options import (
    OneLineCommand,
    backend_choice,
    backend_options,
    bot_option_values,
    fail,
    fresh_folder,
    make_rules,
    rules_options,
)
from cinch.cli.progress import terminal_progress
from cinch.errors import CinchError, quoted

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

F = TypeVar("F", bound=Callable[..., Any])
# What the arena writes into its --out folder (ArenaResult.save and each pair's record under records/): none
# of it may land on a game library.
OUT_FILES = ("summary.json", "summary.md", "pairs.jsonl", "problems.jsonl", "records")


class ArenaCommand(OneLineCommand):
    def explain(self, error: click.UsageError, args: list[str]) -> str:
        message = error.format_message()
        if isinstance(error, click.MissingParameter) and "--matches" in args:
            # `--matches BOT_A BOT_B` took BOT_A for the number of matches
            message = message.rstrip(".") + "; --matches takes the number of match pairs, as in --matches 50"
        return message


class RichProgress:
    """The progress bar: deal pairs done, deals, elapsed time, ETA and A's running net per deal.

    It starts on its first update, which the arena sends only once its worker
    processes exist (so no display thread is running when they are forked),
    and it refreshes only when updated (the arena updates it twice a second).
    """

    def __init__(self, unit: str):
        self.unit = unit
        self.progress: Progress | Literal[False] | None = None  # False: not a terminal, nothing to show
        self.task: TaskID | None = None

    def __call__(self, done: int, total: int, deals: int, net: float) -> None:
        from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn

        if self.progress is None:
            self.progress = terminal_progress(
                BarColumn(bar_width=24), MofNCompleteColumn(), TextColumn(f"{self.unit} pairs,"),
                TextColumn("{task.fields[deals]} deals"), TimeElapsedColumn(), TextColumn("ETA"),
                TimeRemainingColumn(), TextColumn("net A {task.fields[net]}"), transient=True,
            ) or False
            if self.progress:
                self.task = self.progress.add_task("arena", total=total, deals=0, net="-")
        if self.progress is False:
            return
        assert self.task is not None
        self.progress.update(self.task, completed=done, deals=deals, net=f"{net / deals:+.2f}/deal" if deals else "-")
        self.progress.refresh()

    def close(self) -> None:
        if self.progress:
            self.progress.stop()


def _pairs(deals: int | None, matches: str | None) -> tuple[int, bool]:
    """How many pairs to play and whether they are matches, from --deals N and --matches [N]."""
    if not matches:  # no --matches, or --matches alone (as before it took a number): --deals counts the pairs
        pairs = 100 if deals is None else deals
        if pairs < 1:
            raise CinchError(f"--deals must be at least 1, not {pairs}")
        return pairs, matches is not None
    try:
        pairs = int(matches)
    except ValueError:
        raise CinchError(f"--matches takes the number of match pairs, as in --matches 50, not "
                         f"{quoted(matches)}") from None
    if pairs < 1:
        raise CinchError(f"--matches must be at least 1, not {pairs}")
    if deals is not None:
        raise CinchError(f"--deals {deals} and --matches {pairs} both say how many pairs to play; give one")
    return pairs, True


def _safe(name: str) -> str:
    """A bot's name as part of a folder name."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name.strip().lower())


@click.command("arena", cls=ArenaCommand)
@click.argument("bot_a", metavar="BOT_A")
@click.argument("bot_b", metavar="BOT_B")
@rules_options
@click.option("--deals", type=int, default=None, metavar="N",
              help="Duplicate deal pairs to play: each deck twice, teams swapped  [default: 100]")
@click.option("--workers", type=int, default=None, metavar="K",
              help="Processes to play on  [default: every core; on a Ray cluster, its CPUs]")
@click.option("--seed", type=int, default=None, metavar="S",
              help="Seed of the decks and the bots; the same seed repeats the run  [default: a random one, "
                   "reported]")
@click.option("--out", "out", type=click.Path(file_okay=False), default=None, metavar="DIR",
              help="Where to save the records and the summary  [default: arena-out/<time>-<A>-vs-<B>/]")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the Markdown report.")
@click.option("--matches", default=None, is_flag=False, flag_value="", metavar="N",
              help="Play N duplicate pairs of whole matches to the target instead (same decks, teams swapped) and "
                   "report each bot's match wins, the win rate with a 95% Wilson interval and the matches' length.")
@click.option("--score", "score", default=None, metavar="A-B",
              help="Play each deal as the next deal of a match at this score, BOT_A's side first (e.g. 48-30); the "
                   "twin deal gives B's side the same cards at the same score.")
@click.option("--time-per-decision", "time_budget", type=float, default=None, metavar="SECONDS",
              help="Passed as time_budget to the bots that take one.")
@click.option("--bot-option", "bot_options", multiple=True, metavar="KEY=VALUE",
              help="An option for the bots that take it, e.g. simulations=200 (repeatable).")
@click.option("--no-records", is_flag=True, help="Save only the summary, not every deal's record.")
@backend_options
def arena_command(bot_a: str, bot_b: str, preset: str, options: tuple[str, ...], deals: int | None,
                  workers: int | None, seed: int | None, out: str | None, as_json: bool, matches: str | None,
                  score: str | None, time_budget: float | None, bot_options: tuple[str, ...], no_records: bool,
                  backend: str | None, address: str | None) -> None:
    """Duplicate deals between BOT_A and BOT_B: each deck is played twice, with the teams swapped,
    so the luck of the cards cancels.  Reports BOT_A's net points per deal with a 95% interval
    (with --matches N: whole matches, and BOT_A's match win rate)."""
    try:
        _arena(bot_a, bot_b, preset, options, deals, workers, seed, out, as_json, matches, score, time_budget,
               bot_options, no_records, backend_choice(backend, address), address)
    except CinchError as e:
        fail(f"cinch: {e}")


def _arena(bot_a: str, bot_b: str, preset: str, options: tuple[str, ...], deals: int | None, workers: int | None,
           seed: int | None, out: str | None, as_json: bool, matches_text: str | None, score_text: str | None,
           time_budget: float | None, bot_options: tuple[str, ...], no_records: bool, backend: str,
           address: str | None) -> None:
    from cinch.arena import check_start_score, parse_score, run_duplicate, split_bot_options
    from cinch.library import refuse_writing_into

    rules = make_rules(preset, options)
    pairs, matches = _pairs(deals, matches_text)
    score = None
    if score_text is not None:
        if matches:
            raise CinchError("--score is for single deals (a match starts at 0 to 0); leave out --matches")
        score = parse_score(score_text)
        check_start_score(rules, score)
    if workers is not None and workers < 1:
        raise CinchError(f"--workers must be at least 1, not {workers}")
    if time_budget is not None and not time_budget > 0:
        raise CinchError(f"--time-per-decision must be a positive number of seconds, not {time_budget}")
    opts_a, opts_b, notes = split_bot_options(bot_a, bot_b, bot_option_values(bot_options), time_budget)
    for note in notes:
        click.echo(f"cinch: note: {note}", err=True)
    if seed is None:
        seed = secrets.randbelow(2**31)
    out_dir = Path(out) if out is not None else fresh_folder("arena-out", f"{_safe(bot_a)}-vs-{_safe(bot_b)}")
    refuse_writing_into(out_dir, OUT_FILES, what="the arena's records and summary")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise CinchError(f"cannot write to {out_dir}: {e.strerror or e}") from None
    bar = RichProgress("match" if matches else "deal")
    try:
        result = run_duplicate(bot_a, bot_b, rules, pairs, seed, workers, matches=matches, out_dir=out_dir,
                               save_records=not no_records, options_a=opts_a, options_b=opts_b, progress=bar,
                               score=score, backend=backend, address=address)
    except KeyboardInterrupt:
        bar.close()  # before the message, so the bar does not overwrite it
        click.echo("\nInterrupted: no summary written.", err=True)
        sys.exit(130)
    except OSError as e:
        raise CinchError(f"cannot save the records in {out_dir}: {e.strerror or e}") from None
    finally:
        bar.close()
    if as_json:
        click.echo(json.dumps(result.to_json()))
    else:
        click.echo(result.to_markdown(), nl=False)
    bad = {side: sum(result.counts[side].values()) for side in ("a", "b")}
    for side, name in (("a", result.bot_a), ("b", result.bot_b)):
        if bad[side]:
            click.echo(f"cinch: warning: {name} ({side.upper()}) made {bad[side]} illegal or crashed decisions "
                       f"(played at random instead); see {out_dir / 'problems.jsonl'}", err=True)
    what = "summary" if no_records else "records and summary"
    click.echo(f"cinch: {what} saved in {out_dir}", err=True)

