"""``cinch train OUT``: the learned bots' weights from scratch, the data and the fit, with a report.

The work is done by :mod:`cinch.study.learning`; this module reads the command line, checks it
before anything is played, shows a progress bar on standard error and says where everything went.
docs/learning.md has the pipeline and the figures.
"""

from __future__ import annotations

import shlex
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import click

from cinch.cli.options import OneLineCommand, fail
from cinch.cli.progress import terminal_progress
from cinch.errors import CinchError

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

    from cinch.study.learning import DataPlan, FitConfig

STAGES = ("all", "data", "fit")
# The shipped weights' plan: the defaults reproduce them.
DEALS, SEED, WORLDS, ROUNDS, ROUND_DEALS = 5120, 26, 16, 3, 2560
# The labelling expert's playouts for a bid, a trump or a keep.  Those labels teach nothing the heuristic does
# not: the expert at 0.25 s making the neural bot's bids, trumps and keeps gained nothing over it.  At 2 playouts
# they take a tenth of the data's time, and that time goes to the play's worlds, where the teacher's strength is:
# at 16 worlds it beat itself at 8 by +0.29 (official) and +0.78 (pagat) a deal (docs/learning.md).
PLAYOUTS = 2
ROUND_WEIGHTS = "weights-{}"  # under OUT: the weights of a round the next round's neural bots play with


class Bar:
    """A Rich progress bar on standard error, one task at a time (nothing when it is not a terminal)."""

    def __init__(self) -> None:
        self.progress: Progress | Literal[False] | None = None
        self.tasks: dict[str, TaskID] = {}

    def __call__(self, name: str, done: int, total: int, text: str) -> None:
        from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn

        if self.progress is None:
            self.progress = terminal_progress(
                TextColumn("{task.description:>8}"), BarColumn(bar_width=24), MofNCompleteColumn(),
                TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(), TextColumn("{task.fields[text]}"),
            ) or False
        if self.progress is False:
            return
        if name not in self.tasks:
            self.tasks[name] = self.progress.add_task(name, total=total, text="")
        self.progress.update(self.tasks[name], completed=done, total=total, text=text)
        self.progress.refresh()

    def close(self) -> None:
        if self.progress:
            self.progress.stop()


@click.command("train", cls=OneLineCommand)
@click.argument("out", metavar="OUT", type=click.Path(file_okay=False))
@click.option("--deals", type=int, default=DEALS, show_default=True, metavar="N",
              help="Self-play deals to learn from, shared among the five presets.")
@click.option("--seed", type=int, default=SEED, show_default=True, metavar="S",
              help="Seed of the data and the fit; the same seed makes the same weights.")
@click.option("--worlds", type=int, default=WORLDS, show_default=True, metavar="W",
              help="The labelling expert's worlds per play decision.")
@click.option("--playouts", type=int, default=PLAYOUTS, show_default=True, metavar="P",
              help="The labelling expert's playouts for each bid, trump and keep.")
@click.option("--rounds", type=int, default=ROUNDS, show_default=True, metavar="R",
              help="Rounds of data: the first of the expert's self-play, each later one of the neural bot fitted "
                   "on the rounds before, every decision labelled by the expert.")
@click.option("--round-deals", type=int, default=ROUND_DEALS, show_default=True, metavar="N",
              help="Deals of each round after the first.")
@click.option("--workers", type=int, default=None, metavar="K", help="Processes to use  [default: every core]")
@click.option("--stage", type=click.Choice(STAGES, case_sensitive=False), default="all", show_default=True,
              help="data: make (or finish) the data only; fit: fit on the data already made; all: both.")
@click.option("--epochs", type=int, default=None, metavar="E", help="Epochs of the fit  [default: 24]")
@click.option("--weights", "weights", type=click.Path(file_okay=False), default=None, metavar="DIR",
              help="Where to write the weights  [default: OUT/weights; the package's own: src/cinch/neural/weights]")
@click.option("--force", is_flag=True, help="Overwrite weights already in the weights folder.")
def train_command(out: str, deals: int, seed: int, worlds: int, playouts: int | None, rounds: int,
                  round_deals: int, workers: int | None, stage: str, epochs: int | None, weights: str | None,
                  force: bool) -> None:
    """Make the neural bot's weights from scratch: self-play of the five presets valued by the expert
    (written to OUT/data, one file a chunk; a stopped run goes on from where it was), then the networks
    fitted in NumPy (the play's: a committee of eight, from eight seeds; the fits share the workers), the
    weights (OUT/weights unless --weights) and a report with the training curves
    (OUT/report).  With --rounds 2 or more, each later round is the neural bot of the round before
    (OUT/weights-1, ...) playing itself, its decisions labelled by the expert (OUT/data-2, ...), and the
    last fit reads every round.  The defaults reproduce the shipped weights, in about 98 minutes on two cores.

    \b
    cinch train build/train                                   # OUT/weights, OUT/report
    cinch train build/train --weights src/cinch/neural/weights --force   # replace the package's weights
    cinch train build/small --deals 40 --epochs 4             # a quick look
    """
    try:
        from cinch.study.learning import DataPlan

        _train(out, DataPlan(deals=deals, seed=seed, worlds=worlds, playouts=playouts), rounds, round_deals,
               workers, stage.lower(), epochs, weights, force)
    except CinchError as e:
        fail(f"cinch: {e}")
    except KeyboardInterrupt:
        click.echo("\ncinch: interrupted; the data chunks written so far are kept (run again to go on)", err=True)
        sys.exit(130)


def _train(out: str, plan: DataPlan, rounds: int, round_deals: int, workers: int | None, stage: str,
           epochs: int | None, weights: str | None, force: bool) -> None:
    from cinch.backends import default_workers
    from cinch.library import refuse_writing_into
    from cinch.neural.models import MANIFEST, WEIGHTS
    from cinch.study.learning import DATA_DIR, REPORT_DIR, REPORT_FILES, FitConfig, fit

    if workers is not None and workers < 1:
        raise CinchError(f"--workers must be at least 1, not {workers}")
    if epochs is not None and epochs < 1:
        raise CinchError(f"--epochs must be at least 1, not {epochs}")
    if rounds < 1:
        raise CinchError(f"--rounds must be at least 1, not {rounds}")
    if rounds > 1 and round_deals < 1:
        raise CinchError(f"--round-deals must be at least 1, not {round_deals}")
    workers = workers or default_workers()
    config = FitConfig(seed=plan.seed) if epochs is None else FitConfig(seed=plan.seed, epochs=epochs)
    target = Path(weights) if weights is not None else Path(out) / "weights"
    later = [replace(plan, deals=round_deals, round=r, weights=str(Path(out) / ROUND_WEIGHTS.format(r - 1)))
             for r in range(2, rounds + 1)]
    folders = (DATA_DIR, REPORT_DIR, *(p.folder for p in later), *(ROUND_WEIGHTS.format(r) for r in range(1, rounds)))
    refuse_writing_into(out, folders, what="the training data and report")
    refuse_writing_into(Path(out) / REPORT_DIR, REPORT_FILES, what="the training report")
    if stage != "data":
        refuse_writing_into(target, (WEIGHTS, MANIFEST), what="the weights")
        present = [name for name in (WEIGHTS, MANIFEST) if (target / name).exists()]
        if present and not force:
            raise CinchError(f"{target} already holds weights ({', '.join(present)}); add --force to overwrite "
                             "them, or give another --weights folder")
    bar = Bar()
    began = time.perf_counter()
    try:
        if stage in ("all", "data"):
            for r, round_plan in enumerate([plan, *later], start=1):
                if r > 1:  # the players of this round: the fit of the rounds before, unless already made
                    _round_weights(out, r - 1, config, workers, bar)
                _data(out, round_plan, workers, bar)
        if stage in ("all", "fit"):
            report = fit(out, target, config, rounds=rounds, workers=workers, command=_command(),
                         progress=lambda kind, done, total, text: bar(kind, done, total, text))
    finally:
        bar.close()
    if stage in ("all", "fit"):
        click.echo(f"cinch: weights in {report.weights} ({report.weights_bytes / 1e6:.2f} MB); report in "
                   f"{Path(out) / REPORT_DIR} (summary.md, curves.png); {(time.perf_counter() - began) / 60:.1f} min",
                   err=True)
        for line in _figures(report.to_json()):
            click.echo(line)


def _data(out: str, plan: DataPlan, workers: int, bar: Bar) -> None:
    from cinch.study.learning import make_data

    name = "data" if plan.round == 1 else f"data {plan.round}"
    summary = make_data(out, plan, workers,
                        lambda done, total, rows: bar(name, done, total, f"deals, {rows:,} decisions"))
    bar(name, plan.deals, plan.deals, "deals")
    click.echo(f"cinch: {name}: {plan.deals} deals in {Path(out) / plan.folder} ({summary.reused} of "
               f"{summary.chunks} chunks already made; {summary.seconds / 60:.1f} min)", err=True)


def _round_weights(out: str, rounds: int, config: FitConfig, workers: int, bar: Bar) -> None:
    """The weights fitted on the first ``rounds`` rounds, in OUT/weights-N, each kind one network: made once (a
    stopped run keeps them, like the data, so a round's players never change under it)."""
    from cinch.neural.models import WEIGHTS
    from cinch.study.learning import fit

    folder = Path(out) / ROUND_WEIGHTS.format(rounds)
    if (folder / WEIGHTS).exists():
        return
    # A round's players are lone networks: a committee would cost its members' fits again for each round,
    # and the data needs players as good as the student, not the best the fit can make.
    fit(out, folder, replace(config, members=()), rounds=rounds, workers=workers, command=_command(), report=False,
        progress=lambda kind, done, total, text: bar(f"{kind} {rounds}", done, total, text))
    click.echo(f"cinch: round {rounds}'s weights in {folder}", err=True)


def _figures(report: dict[str, Any]) -> list[str]:
    out = []
    for kind, curve in report["curves"].items():
        f = curve["figures"]
        out.append(f"{kind}: picks the expert's choice {f.get('agreement', 0):.1%} (the heuristic "
                   f"{f.get('heuristic_agreement', 0):.1%}), value error {f.get('value_rmse', 0):.2f} points, "
                   f"locations {f.get('location', 0):.3f} nats a card")
    return out


def _command() -> str:
    return "cinch " + " ".join(shlex.quote(a) for a in sys.argv[1:]) if sys.argv[1:] else "cinch train"
