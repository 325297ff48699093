"""What several commands share: the rules options, the game library's path, one-line errors.

Every command module imports from here and nothing from :mod:`cinch.cli` itself, so the
commands are registered on the group without an import loop.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click

from cinch.backends import BACKENDS
from cinch.errors import CinchError, cut_quotes, quoted
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


def check_save_file(path: str, db: str | None) -> None:
    """``--save FILE`` of ``cinch play``, ``resume`` and ``score``, checked before the first deal.

    The file may not be the game library (``db``, as ``--db`` names it) nor any SQLite file, and a file
    must be creatable beside it, as every save makes one there and renames it into place: a record
    that cannot be written is refused now rather than found out once the match is under way.
    """
    import os
    import tempfile

    from cinch.library import refuse_overwriting_library

    refuse_overwriting_library(path, db, what="the game record")
    target = Path(path).expanduser()
    folder = target.parent if str(target.parent) else Path(".")
    try:
        fd, probe = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as e:
        raise CinchError(f"cannot save to {path}: {folder} is not a writable folder ({e.strerror or e})") from None
    os.close(fd)
    os.unlink(probe)


GIVEN = "cinch.given"  # the command line's arguments, kept in the context's meta for the messages that quote them


def fail(message: str) -> NoReturn:
    """One line on standard error, exit status 2: how every command refuses bad input.  A long argument
    of the command line quoted in it is cut (:func:`cinch.errors.cut_quotes`)."""
    ctx = click.get_current_context(silent=True)
    given = ctx.meta.get(GIVEN, ()) if ctx is not None else ()
    click.echo(cut_quotes(message, given), err=True)
    sys.exit(2)


class CinchGroup(click.Group):
    """Turns the engine's deliberate errors into one clear line and exit status 2, and cuts any long
    argument a message quotes (Click's own messages quote a bad value whole)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta[GIVEN] = list(args)  # the meta is shared with the command's own context
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        given = ctx.meta.get(GIVEN, ())
        try:
            return super().invoke(ctx)
        except CinchError as e:
            fail(f"cinch: {e}")
        except click.UsageError as e:  # the same error, its message cut
            raise click.UsageError(cut_quotes(e.format_message(), given), ctx=e.ctx) from None


class OneLineCommand(click.Command):
    """A command-line mistake is one line on standard error and exit status 2, never a usage dump: one the
    parser finds (a bad value, a missing argument) or one the command finds itself (``click.UsageError``,
    ``click.BadParameter``: two options that clash, a seat that is not one)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        given = list(args)  # the parser consumes ``args``
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as e:
            self.refuse(e, given)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as e:
            self.refuse(e, list(ctx.meta.get(GIVEN, ())))

    def refuse(self, error: click.UsageError, given: list[str]) -> NoReturn:
        click.echo(cut_quotes(f"cinch: {self.explain(error, given)} (see `cinch {self.name} --help`)", given),
                   err=True)
        sys.exit(2)

    def explain(self, error: click.UsageError, args: list[str]) -> str:
        """The message for ``error``; a command may add what the mistake probably was."""
        return error.format_message()


def bot_option_values(items: tuple[str, ...]) -> dict[str, Any]:
    """``--bot-option KEY=VALUE`` (repeated) as a dict, each value read as a number, a truth value or text."""
    from cinch.arena import parse_option_value

    values: dict[str, Any] = {}
    for item in items:
        if "=" not in item:
            raise CinchError(f"--bot-option {quoted(item)} must be written KEY=VALUE, for example simulations=200")
        key, value = item.split("=", 1)
        key = key.strip().replace("-", "_")
        if not key.isidentifier():
            raise CinchError(f"--bot-option {quoted(item)}: {quoted(key)} is not an option name")
        values[key] = parse_option_value(value)
    return values


def fresh_folder(parent: str, name: str = "") -> Path:
    """A folder that does not exist yet: ``parent/STAMP[-name]``, with -2, -3 ... when taken."""
    base = Path(parent) / (time.strftime("%Y%m%d-%H%M%S") + (f"-{name}" if name else ""))
    out, n = base, 2
    while out.exists():
        out = base.with_name(f"{base.name}-{n}")
        n += 1
    return out


def backend_options(f: F) -> F:
    """--backend process|ray and --address, for the commands that play many deals (arena, study)."""
    f = click.option("--address", default=None, metavar="ADDRESS",
                     help="An existing Ray cluster to run on (auto, or ray://HEAD:10001); implies --backend ray.")(f)
    f = click.option("--backend", type=click.Choice(BACKENDS, case_sensitive=False), default=None,
                     help="Where the chunks run: a process pool on this machine, or Ray (pip install "
                          "'cinch[cluster]'); the same seed gives the same results on both  [default: process]")(f)
    return f


def backend_choice(backend: str | None, address: str | None) -> str:
    """The backend to use: --address alone means Ray; --address with --backend process is refused."""
    if address is not None and not address.strip():
        raise CinchError("--address is empty: give the Ray cluster's address, e.g. auto or ray://HEAD:10001")
    if backend is None:
        return "ray" if address is not None else "process"
    if backend.lower() == "process" and address is not None:
        raise CinchError(f"--address {address} is for a Ray cluster: use --backend ray, or leave out --address")
    return backend.lower()
