"""``cinch replay FILE...``: replay game records (or matches of the library) and show where each stands."""

from __future__ import annotations

import json
import sys
from pathlib import Path

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

    A FILE that is no file but a match id (12 or #12) is a match of the game library.
    """
    from cinch.library import parse_match_id

    failed = False
    for name in files:
        try:
            if parse_match_id(name) is not None and not Path(name).exists():
                from cinch.cli.library import library_record

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
