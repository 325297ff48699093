"""The ``cinch`` command line: one group, one module per command.

The command modules share :mod:`cinch.cli.options` and never import this package's
``__init__``, which registers them: there is no import loop, and ``python -m cinch``
runs the same group as the ``cinch`` script.
"""

from __future__ import annotations

import click

from cinch.cli.advise import advise_command
from cinch.cli.analyze import analyze_command
from cinch.cli.arena import arena_command
from cinch.cli.dataset import dataset_command
from cinch.cli.duplicate import duplicate_command
from cinch.cli.library import export_command, history_command, resume_command
from cinch.cli.options import CinchGroup
from cinch.cli.play import play_command
from cinch.cli.puzzle import puzzle_command
from cinch.cli.replay import replay_command
from cinch.cli.rules import rules_command
from cinch.cli.score import score_command
from cinch.cli.serve import serve_command
from cinch.cli.solve import solve_command
from cinch.cli.study import study_command
from cinch.cli.train import train_command

COMMANDS = (play_command, resume_command, history_command, export_command, replay_command, rules_command,
            solve_command, arena_command, serve_command, score_command, advise_command, analyze_command,
            puzzle_command, study_command, dataset_command, duplicate_command, train_command)


@click.group(cls=CinchGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cinch")
def main() -> None:
    """Cinch (Double Pedro, High Five): play, replay and study the game."""


for _command in COMMANDS:
    main.add_command(_command)

__all__ = ["COMMANDS", "main"]
