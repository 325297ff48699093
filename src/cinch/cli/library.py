"""``cinch history``, ``cinch resume`` and ``cinch export``: the game library on the command line.

``cinch replay`` and ``cinch solve`` take a match id of the library as well as a file, or ``-``
for standard input (:func:`read_record`).  Only ``cinch play`` and ``cinch resume`` write the
library; the other commands open it read-only and never create it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from cinch.cli.options import check_save_file, db_option
from cinch.errors import CinchError, quoted
from cinch.library import (
    FINISHED,
    SCOREKEEPER,
    SQLITE_HEADER,
    STATUS_WORDS,
    Library,
    LibraryError,
    StoredMatch,
    parse_match_id,
    refuse_overwriting_library,
)

HISTORY_LIMIT = 20


def _match_id(text: str) -> int:
    match_id = parse_match_id(text)
    if match_id is None:
        raise LibraryError(f"{quoted(text)} is not a match id (a number, as 12 or #12; `cinch history` lists them)")
    return match_id


def library_record(name: str, db: str | None) -> str:
    """The stored record of match ``name`` (``12`` or ``#12``), read without writing the library."""
    with Library.open(db, readonly=True) as lib:
        return lib.record_text(_match_id(name))


def read_record(name: str, db: str | None) -> str:
    """The text of the record ``name`` names on the command line (``cinch replay``, ``cinch solve``).

    ``-`` is standard input; a match id (``12``, ``#12``) that is not also a file's name is a
    match of the library.  Raises :class:`CinchError` with the reason (not the name) in words.
    """
    if name == "-":
        if sys.stdin is None:
            raise CinchError("there is no standard input to read")
        stream = getattr(sys.stdin, "buffer", None)  # bytes, so a record that is not UTF-8 is told as such
        data = stream.read() if stream is not None else sys.stdin.read().encode("utf-8")
    elif parse_match_id(name) is not None and not Path(name).exists():
        return library_record(name, db)
    else:
        try:
            data = Path(name).read_bytes()
        except OSError as e:
            raise CinchError(f"cannot read the file: {e.strerror or e}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        if data.startswith(SQLITE_HEADER):
            raise CinchError("this is a game library (SQLite), not a record; give a match id (as 12) to replay a "
                             "match it keeps, with --db naming the library if it is not the default "
                             "(cinch history lists them)") from None
        raise CinchError("not a text file (a record is UTF-8 JSON)") from None


# ---- cinch history ------------------------------------------------------------------------------------
def players_text(stored: StoredMatch) -> tuple[str, str]:
    """(your seat, the others): ``("S", "basic")`` or ``("S", "N expert, E basic, W basic")``; cut-throat
    seats are numbers: ``("1", "2 expert, 3 basic")``.  A score sheet of ``cinch score`` has no bots and
    no seat of yours: ``("-", "real cards")``, with the players it names: ``("-", "real cards: N Ann, S Cy")``."""
    if stored.frontend == SCOREKEEPER:
        named = [f"{s.name} {stored.players[s]}" for s in stored.table.seats if stored.players.get(s)]
        return "-", "real cards" + (": " + ", ".join(named) if named else "")
    you = stored.human_seat
    others = [s for s in stored.table.seats if s != you]
    names = [stored.players.get(s, "?") for s in others]
    if you is not None and len(set(names)) == 1:
        return you.name, names[0]
    return ("-" if you is None else you.name), ", ".join(f"{s.name} {n}" for s, n in zip(others, names))


def status_text(stored: StoredMatch) -> str:
    if stored.status == FINISHED and stored.winner is not None:
        mine = stored.human_seat is not None and stored.human_seat.team == stored.winner
        return f"{stored.winner.name} won" + (" (you)" if mine else "")
    return STATUS_WORDS.get(stored.status, stored.status)


def history_lines(matches: list[StoredMatch]) -> list[str]:
    rows = [("ID", "Date", "Rules", "You", "Bots", "Score", "Status", "Deals")]
    for m in matches:
        you, bots = players_text(m)
        when = m.updated.astimezone().strftime("%Y-%m-%d %H:%M")
        rows.append((str(m.id), when, m.rules, you, bots, m.score_text(), status_text(m), str(m.deals)))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    right = {0, 7}
    lines = []
    for r in rows:
        cells = [c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))]
        lines.append("  ".join(cells).rstrip())
    return lines


@click.command("history")
@db_option
@click.option("--all", "show_all", is_flag=True, help=f"Every match (without it, the {HISTORY_LIMIT} latest).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per match, one per line.")
def history_command(db: str | None, show_all: bool, as_json: bool) -> None:
    """List the matches of your game library, the most recently played first."""
    with Library.open(db, readonly=True) as lib:
        matches = lib.list(limit=None if show_all else HISTORY_LIMIT)
        total = lib.count()
        path = lib.path
    if as_json:
        for m in matches:
            click.echo(json.dumps(m.to_json(), ensure_ascii=False))
        return
    if not matches:
        click.echo(f"No matches yet in the game library {path}; `cinch play` adds one.")
        return
    for line in history_lines(matches):
        click.echo(line)
    if len(matches) < total:
        click.echo(f"({len(matches)} of {total} matches; --all lists every one.)")


# ---- cinch resume ------------------------------------------------------------------------------------
@click.command("resume")
@click.argument("match_id", metavar="ID")
@db_option
@click.option("--plain", "frontend", flag_value="plain", default=None,
              help="A plain line prompt: for screen readers and scripts.")
@click.option("--save", "save", type=click.Path(dir_okay=False, writable=True), default=None, metavar="FILE",
              help="Also keep the cinch/1 game record in FILE, saved after every move.")
def resume_command(match_id: str, db: str | None, frontend: str | None, save: str | None) -> None:
    """Continue an unfinished match of the library at the exact action where it stopped."""
    from cinch.cli.play import DEFAULT_FRONTEND, FRONTENDS, PlaySetup

    number = _match_id(match_id)
    if save is not None:
        check_save_file(save, db)
    lib = Library.open(db, create=False)  # no library: nothing to resume, so none is made
    try:
        stored = lib.get(number)
        match = lib.replay(number)  # a damaged record fails here, before anything is shown
        if match.is_over:
            assert match.winner is not None
            raise LibraryError(f"match {number} is over: {match.winner} won, {match.score[0]} to "
                               f"{match.score[1]}; `cinch replay {number}` shows it")
        if stored.frontend == "server":
            raise LibraryError(f"match {number} is played in a room of `cinch serve`: it goes on there when the "
                               "server runs on this library, and its players reconnect")
        if stored.human_seat is None:
            raise LibraryError(f"match {number} has no human seat: nothing to resume at the table")
        bots = {s: name for s, name in stored.players.items() if s != stored.human_seat}
        setup = PlaySetup(rules=match.rules, seat=stored.human_seat, bots=bots, seed=stored.seed,
                          save=save, library=lib, resume=number)
        status = FRONTENDS[frontend or DEFAULT_FRONTEND](setup)
    finally:
        lib.close()
    sys.exit(status)


# ---- cinch export ------------------------------------------------------------------------------------
@click.command("export")
@click.argument("match_id", metavar="ID")
@db_option
@click.option("-o", "--output", "output", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write the record to FILE (default: standard output).")
def export_command(match_id: str, db: str | None, output: str | None) -> None:
    """Write a match's cinch/1 game record (to share it, or to attach it to a bug report)."""
    if output is not None:
        refuse_overwriting_library(output, db, what="the record")
    with Library.open(db, readonly=True) as lib:
        text = lib.record_text(_match_id(match_id))
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as e:
        raise LibraryError(f"cannot write {output}: {e.strerror or e}") from None

