"""The ``cinch`` command line."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from cinch.errors import CinchError
from cinch.record import loads, replay
from cinch.rules import OPTION_NAMES, PRESET_NAMES, Rules, option_values


class CinchGroup(click.Group):
    """Turns the engine's deliberate errors into one clear line and exit status 2."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except CinchError as e:
            click.echo(f"cinch: {e}", err=True)
            sys.exit(2)


@click.group(cls=CinchGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cinch")
def main() -> None:
    """Cinch (Double Pedro, High Five): play, replay and study the game."""


def rules_options(f):
    """--rules PRESET and -o KEY=VALUE, shared by every command that plays."""
    f = click.option(
        "-o", "--option", "options", multiple=True, metavar="KEY=VALUE",
        help="Override one option of the preset, e.g. -o target=42 -o follow=strict (see `cinch rules`).",
    )(f)
    f = click.option(
        "--rules", "preset", default="pagat", show_default=True, metavar="PRESET",
        help=f"Rule preset: {', '.join(PRESET_NAMES)}.",
    )(f)
    return f


def make_rules(preset: str, options: tuple[str, ...]) -> Rules:
    return Rules.from_text(preset, list(options))


@main.command("replay")
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per file, one per line.")
@click.option("--db", "db", type=click.Path(dir_okay=False), default=None, metavar="PATH",
              help="The game library for match ids (default: $CINCH_DB, else your data folder).")
def replay_command(files: tuple[str, ...], as_json: bool, db: str | None) -> None:
    """Replay game records and show where each stands.

    A FILE that is no file but a match id (12 or #12) is a match of the game library.
    """
    from cinch.library import parse_match_id

    failed = False
    for name in files:
        try:
            if parse_match_id(name) is not None and not Path(name).exists():
                from cinch.library_cli import library_record

                text = library_record(name, db)
            else:
                text = Path(name).read_text(encoding="utf-8")
        except CinchError as e:
            click.echo(f"{name}: {e}", err=True)
            failed = True
            continue
        except OSError as e:
            click.echo(f"{name}: cannot read the file: {e.strerror or e}", err=True)
            failed = True
            continue
        except UnicodeDecodeError:
            click.echo(f"{name}: not a text file (a record is UTF-8 JSON)", err=True)
            failed = True
            continue
        try:
            result = replay(loads(text))
        except CinchError as e:
            click.echo(f"{name}: {e}", err=True)
            failed = True
            continue
        except Exception as e:  # a bug in the engine: one line, and the other files still replay
            click.echo(f"{name}: internal error while replaying ({type(e).__name__}: {e}); "
                       "please report it with this record", err=True)
            failed = True
            continue
        if as_json:
            click.echo(json.dumps(result.to_json(), ensure_ascii=False))
        else:
            if len(files) > 1:
                click.echo(f"== {name}")
            click.echo(result.describe())
    if failed:
        sys.exit(2)


@main.command("rules")
@click.argument("preset", required=False)
@click.option("-o", "--option", "options", multiple=True, metavar="KEY=VALUE", help="Override one option.")
def rules_command(preset: str | None, options: tuple[str, ...]) -> None:
    """Explain a preset's rules in plain words, or list the presets and options."""
    if preset is None and not options:
        click.echo("Presets (one per rule text):")
        for name in PRESET_NAMES:
            click.echo(f"  {name:<13} target {Rules.preset(name).target}")
        click.echo("\nOptions (-o KEY=VALUE on top of a preset):")
        for key in OPTION_NAMES:
            click.echo(f"  {key:<19} {option_values(key)}")
        click.echo("\n`cinch rules PRESET` explains one preset in plain words.")
        return
    rules = make_rules(preset or "pagat", options)
    click.echo(f"{rules.name}:")
    for line in rules.describe():
        click.echo(f"  - {line}")


if __name__ == "__main__":  # pragma: no cover
    main()
from cinch.play_cli import play_command; main.add_command(play_command)  # noqa: E402, E702, I001
from cinch.solve_cli import solve_command; main.add_command(solve_command)  # noqa: E402, E702, I001
from cinch.library_cli import add_commands; add_commands(main)  # noqa: E402, E702, I001
from cinch.arena_cli import arena_command; main.add_command(arena_command)  # noqa: E402, E702, I001
