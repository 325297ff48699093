"""``cinch replay FILE...``: replay game records (or matches of the library) and show where each stands."""

from __future__ import annotations

import json
import sys

import click

from cinch.cli.options import db_option
from cinch.errors import CinchError
from cinch.record import loads, replay


@click.command("replay")
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per file, one per line.")
@db_option
def replay_command(files: tuple[str, ...], as_json: bool, db: str | None) -> None:
    """Replay game records and show where each stands.

    A FILE of - is standard input; a FILE that is no file but a match id (12 or #12) is a
    match of the game library.
    """
    from cinch.cli.library import read_record

    failed = False
    for name in files:
        try:
            text = read_record(name, db)
        except CinchError as e:
            click.echo(f"{name}: {e}", err=True)
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
