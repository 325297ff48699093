"""``cinch analyze RECORD|ID``: every decision of a game judged by the expert, marked by the points it cost.

The analysis itself is :mod:`cinch.study.analysis`; this module reads the game (a record
file, ``-`` for standard input, or a match id of the game library, as for ``cinch replay``),
runs it in a process pool with a progress bar on standard error, and prints the marked
decisions of each deal and each player's accuracy (or ``--json``).  docs/analysis.md says
what the marks and the accuracy mean.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Literal

import click

from cinch.cli.options import OneLineCommand, db_option, fail
from cinch.errors import CinchError
from cinch.study.analysis import MAX_WIDENING

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress, TaskID

    from cinch.rules import Rules
    from cinch.study.analysis import Analysis


class _Bar:
    """Decisions judged, on standard error, only on a terminal; started once the worker processes exist."""

    def __init__(self) -> None:
        self.progress: Progress | Literal[False] | None = None
        self.task: TaskID | None = None

    def __call__(self, done: int, total: int) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        if self.progress is None:
            console = Console(stderr=True)
            if not console.is_terminal:
                self.progress = False
                return
            self.progress = Progress(BarColumn(bar_width=24), MofNCompleteColumn(), TextColumn("decisions judged"),
                                     TimeElapsedColumn(), console=console, transient=True)
            self.progress.start()
            self.task = self.progress.add_task("analyze", total=total)
        if self.progress is False:
            return
        assert self.task is not None
        self.progress.update(self.task, completed=done)

    def close(self) -> None:
        if self.progress:
            self.progress.stop()


@click.command("analyze", cls=OneLineCommand)
@click.argument("record", metavar="RECORD|ID")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (docs/analysis.md has its shape).")
@click.option("--worlds", type=click.IntRange(min=1), default=None, metavar="N",
              help="Worlds per play decision, twice as many playouts for the others (default 16; the same every run).")
@click.option("--time", "seconds", type=click.FloatRange(min=0, min_open=True), default=None, metavar="SECONDS",
              help="A time budget per decision instead of a number of worlds (not exactly repeatable).")
@click.option("--workers", type=click.IntRange(min=1), default=None, metavar="N",
              help="Processes to use (default: every core).")
@click.option("--seed", type=int, default=0, show_default=True, help="The seed of the worlds.")
@click.option("--widening", type=click.IntRange(1, 64), default=MAX_WIDENING, show_default=True, metavar="N",
              help="A decision whose mark is in doubt is searched again with twice the worlds, up to N times "
                   "(1: never).")
@click.option("--prefilter", type=click.IntRange(1, 30), default=None, metavar="K",
              help="In the bidding, compare only the K calls the learned policy ranks best (with the pass and the "
                   "call played); the others are ranked by the model only (default: the expert's own calls).")
@click.option("--weights", type=click.Path(file_okay=False), default=None, metavar="DIR",
              help="With --prefilter: the learned models' folder (cinch train's weights; default: those shipped).")
@click.option("--deal", "deals", type=click.IntRange(min=1), multiple=True, metavar="N",
              help="Analyse only deal N (repeat for more).")
@click.option("--all", "show_all", is_flag=True, help="List every decision judged, not only the marked ones.")
@db_option
def analyze_command(record: str, as_json: bool, worlds: int | None, seconds: float | None, workers: int | None,
                    seed: int, widening: int, prefilter: int | None, weights: str | None, deals: tuple[int, ...],
                    show_all: bool, db: str | None) -> None:
    """Judge every decision of a game by the expert's search, with the double-dummy par beside it.

    RECORD is a cinch/1 record file, - for standard input, or a match id of the game library
    (12 or #12).  Every decision with a choice is judged from the deciding seat's own view;
    a decision that cost at least 1, 2.5 or 5 points of the deal (and clearly more than the
    search's noise) is an inaccuracy, a mistake or a blunder, with the better choice; one whose
    mark is in doubt (its interval straddles a threshold) is searched again with more worlds
    first.  Each player gets an accuracy (100: always the best choice).
    """
    from cinch.cli.library import read_record
    from cinch.record import loads
    from cinch.study.analysis import DEFAULT_WORLDS, Settings, analyze, default_workers, load_match

    if worlds is not None and seconds is not None:
        raise click.UsageError("give --worlds or --time, not both")
    try:
        text = read_record(record, db)
    except CinchError as e:
        fail(f"{record}: {e}")
    bar = _Bar()
    try:
        match = load_match(loads(text))
        depth = None if seconds is not None else worlds or DEFAULT_WORLDS
        settings = Settings(worlds=depth, seconds=seconds, seed=seed, widening=widening, prefilter=prefilter,
                            weights=None if weights is None else os.path.abspath(weights))
        if prefilter is not None:
            from cinch.neural.models import Models

            Models.load(settings.weights)  # (missing weights: one line now, not in every worker)
        analysis = analyze(match, settings, workers=workers or default_workers(), progress=bar,
                           deals=set(deals) if deals else None)
    except CinchError as e:
        bar.close()
        fail(f"{record}: {e}")
    except RecursionError:
        bar.close()
        fail(f"{record}: the record is nested too deeply to read")
    except Exception as e:  # a bug in a search: still one line, no traceback
        bar.close()
        fail(f"{record}: internal error while analysing ({type(e).__name__}: {e}); please report it with this record")
    bar.close()
    if as_json:
        click.echo(json.dumps(analysis.to_json(), ensure_ascii=False))
        return
    from rich.console import Console

    console = Console(highlight=False)
    if not console.is_terminal:
        console = Console(highlight=False, width=160)  # a file or a pipe: long lines, not wrapped at 80
    show(console, analysis, record, show_all)


def show(console: Console, analysis: Analysis, name: str, show_all: bool = False) -> None:
    """The analysis for people: each deal's marked decisions, then each player's figures."""
    from rich.table import Table

    from cinch.study.analysis import BLUNDER, INACCURACY, MISTAKE, Mark

    rules = analysis.rules
    settings = analysis.settings.to_json()
    judged = analysis.judgements
    how = (f"{settings['worlds']} worlds a card, {settings['playouts']} playouts a call, trump or keep"
           if settings["seconds"] is None else f"{settings['seconds']:g} s a decision")
    if settings["widening"] > 1:
        how += f", up to {settings['widening']} times as many where a mark is in doubt"
    console.print(f"[bold]Analysis of {name}[/bold]: {rules.name} (target {rules.target}), "
                  f"{len(analysis.deals)} deal{'s' * (len(analysis.deals) != 1)}, {len(judged)} decisions with a "
                  f"choice judged by the expert ({how}; seed {settings['seed']}; {analysis.seconds:.1f} s).")
    console.print(f"Points lost are points of the deal, {_unit_words(rules)}: an inaccuracy from "
                  f"{INACCURACY:g}, a mistake from {MISTAKE:g}, a blunder from {BLUNDER:g}.")
    if "prefilter" in settings:
        console.print(prefilter_words(rules, settings["prefilter"]))
    styles = {Mark.INACCURACY: "yellow", Mark.MISTAKE: "dark_orange", Mark.BLUNDER: "bold red"}
    for deal in analysis.deals:
        console.print()
        console.print(f"[bold]Deal {deal.number}[/bold]: {deal.headline}.")
        shown = deal.judgements if show_all else deal.marked
        if not shown:
            console.print("  No inaccuracy, mistake or blunder.")
        for j in shown:
            mark = j.mark
            style = styles[mark] if mark is not None else "dim"
            console.print(f"  {j.text()}", style=style)
    console.print()
    table = Table(title="Each player", title_justify="left")
    for column in ("Seat", "Player", "Decisions", "Accuracy", "Average loss", "Inaccuracies", "Mistakes",
                   "Blunders"):
        table.add_column(column, justify="left" if column in ("Seat", "Player") else "right")
    for s in analysis.summaries():
        table.add_row(s.seat.name, s.name or "-", str(s.decisions),
                      "-" if s.accuracy is None else f"{s.accuracy:.0f}%",
                      "-" if s.average_loss is None else f"{s.average_loss:.2f}",
                      str(s.marks[Mark.INACCURACY]), str(s.marks[Mark.MISTAKE]), str(s.marks[Mark.BLUNDER]))
    console.print(table)


def prefilter_words(rules: Rules, k: int) -> str:
    """What ``--prefilter K`` did, in a sentence."""
    from cinch.neural.features import coverage

    uncovered = coverage(rules)
    if uncovered is not None:
        return f"Prefilter {k}: the models do not cover {uncovered}: every choice was searched."
    return (f"Prefilter {k}: in the bidding, the expert compared only the {k} call{'s' * (k != 1)} the learned policy "
            "ranks best, with the pass and the call played; the others were ranked by the model only (each such "
            "decision says how many). The other decisions were searched whole.")


def _unit_words(rules: Rules) -> str:
    """What a point lost measures: two sides, or a player against the average of the others (cut-throat)."""
    if rules.seating.sides > 2:
        return "your own score change less the average of the others'"
    return "your side's less the other side's"


__all__ = ["analyze_command", "prefilter_words", "show"]
