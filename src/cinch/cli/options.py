"""What several commands share: the rules options, the game library's path, one-line errors.

Every command module imports from here and nothing from :mod:`cinch.cli` itself, so the
commands are registered on the group without an import loop.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click

from cinch.errors import CinchError
from cinch.rules import PRESET_NAMES, Rules

F = TypeVar("F", bound=Callable[..., Any])


def rules_options(f: F) -> F:
    """--rules PRESET and -o KEY=VALUE, shared by every command that plays."""
    f = click.option(
        "-o", "--option", "options", multiple=True, metavar="KEY=VALUE",
        help="Override one option of the preset, e.g. -o follow=strict -o sancho=true (see `cinch rules`).",
    )(f)
    f = click.option(
        "--rules", "preset", default="pagat", show_default=True, metavar="PRESET",
        help=f"Rule preset: {', '.join(PRESET_NAMES)}.",
    )(f)
    return f


def make_rules(preset: str, options: tuple[str, ...]) -> Rules:
    return Rules.from_text(preset, list(options))


db_option = click.option(
    "--db", "db", type=click.Path(dir_okay=False), default=None, metavar="PATH",
    help="The game library (default: $CINCH_DB, else games.sqlite3 in your data folder).",
)


def fail(message: str) -> None:
    """One line on standard error, exit status 2: how every command refuses bad input."""
    click.echo(message, err=True)
    sys.exit(2)


class CinchGroup(click.Group):
    """Turns the engine's deliberate errors into one clear line and exit status 2."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except CinchError as e:
            fail(f"cinch: {e}")
