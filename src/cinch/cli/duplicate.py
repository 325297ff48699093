"""``cinch duplicate``: a set of duplicate boards against three bots, each compared with the field.

You sit South with three bots and play a set of deals (``--deals 8``) derived from a seed or a name
(:class:`~cinch.duplicate.DealSet`); after each board its traveller shows every result on it: the robot
table's (four bots on the same cards) and your own earlier attempts' at the same set, kept in the game
library.  The attempt is kept after every move: ``--resume`` (or the offer at the start) goes on at the
same action.  ``cinch duplicate export ID`` writes a finished set (or ``--board N``'s ``cinch/1`` record);
``cinch duplicate list`` lists the attempts.  docs/duplicate.md has the format and the scoring.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import click
from click.core import ParameterSource

from cinch.cli.options import OneLineCommand, db_option, make_rules, rules_options
from cinch.duplicate import (
    DEFAULT_DEALS,
    DEFAULT_ROBOTS,
    MAX_DEALS,
    ROBOTS,
    Attempt,
    DealSet,
    DuplicateError,
    DuplicateStore,
    LibraryStore,
    MemoryStore,
    export_json,
    robot_result,
    standings,
)
from cinch.errors import CinchError, quoted
from cinch.library import Library, LibraryError, refuse_overwriting_library
from cinch.record import dumps

SET_OPTIONS = ("deals", "seed", "set_name", "preset", "options", "bots")


class DuplicateGroup(OneLineCommand, click.Group):
    """``cinch duplicate`` plays, and has its subcommands; a mistake on its command line is one line."""


@click.group("duplicate", cls=DuplicateGroup, invoke_without_command=True)
@rules_options
@click.option("--deals", type=click.IntRange(1, MAX_DEALS), default=DEFAULT_DEALS, show_default=True, metavar="N",
              help=f"How many boards the set holds (1 to {MAX_DEALS}).")
@click.option("--seed", default=None, metavar="N",
              help="Derive the set from this seed: the same seed (and rules and --deals) deals the same boards. "
                   "Without it or --set, a random seed, which is shown.")
@click.option("--set", "set_name", default=None, metavar="NAME",
              help="The set's name (default 'seed N'); without --seed the boards derive from the name, so anyone "
                   "who types the same name plays the same boards.")
@click.option("--bots", default=DEFAULT_ROBOTS, show_default=True, metavar="NAME",
              help="The bot of your partner and opponents, and of the robot table: random, basic, heuristic or "
                   "expert (about five seconds a board at the robot table).")
@click.option("--plain", is_flag=True, help="A plain line prompt: for screen readers and scripts.")
@click.option("--table", "table", is_flag=True, help="The card table (the default; it needs a terminal).")
@db_option
@click.option("--no-library", "no_library", is_flag=True, help="Keep nothing: no earlier attempts, no resuming.")
@click.option("--resume", "resume", is_flag=False, flag_value="latest", default=None, metavar="[ID]",
              help="Go on with an unfinished attempt (the latest, or attempt ID) at the action where it stopped.")
@click.option("--new", "new", is_flag=True, help="Start a new set without offering to resume one.")
@click.option("--export", "export", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Once the set is finished, write it to FILE (as `cinch duplicate export` does).")
@click.option("--pause", type=click.FloatRange(0, 10), default=0.6, show_default=True, metavar="SECONDS",
              help="At the table: the pause between two bot plays.")
@click.pass_context
def duplicate_command(ctx: click.Context, preset: str, options: tuple[str, ...], deals: int, seed: str | None,
                      set_name: str | None, bots: str, plain: bool, table: bool, db: str | None, no_library: bool,
                      resume: str | None, new: bool, export: str | None, pause: float) -> None:
    """Play a set of duplicate boards against three bots; after each, its traveller against the field."""
    if ctx.invoked_subcommand is not None:
        return
    if plain and table:
        raise click.UsageError("--plain and --table ask for two front ends: choose one")
    given = [name for name in SET_OPTIONS if ctx.get_parameter_source(name) is not ParameterSource.DEFAULT]
    if resume is not None and given:
        raise click.UsageError("--resume goes on with a set as it was begun: leave out --seed, --set, --deals, "
                               "--rules, -o and --bots")
    if resume is not None and no_library:
        raise click.UsageError("--resume goes on with an attempt kept in the game library: leave out --no-library")
    if export is not None:
        refuse_overwriting_library(export, db, what="the duplicate set")
    deal_set = None if resume is not None else _deal_set(preset, options, deals, seed, set_name, bots)
    library = None
    if not no_library:
        try:
            library = Library.open(db)
        except LibraryError as e:
            raise LibraryError(f"{e} (--no-library plays without it)") from None
    try:
        store: DuplicateStore = MemoryStore() if library is None else LibraryStore(library)
        status = _play(store, deal_set, resume, new=new, plain=plain, pause=pause)
        if export is not None:
            _export_after(store, status[1], export)
    finally:
        if library is not None:
            library.close()
    sys.exit(status[0])


def _deal_set(preset: str, options: tuple[str, ...], deals: int, seed: str | None, set_name: str | None,
              bots: str) -> DealSet:
    from cinch.bots import make_bot

    rules = make_rules(preset, options)
    kind = bots.strip().lower()
    make_bot(kind)  # an unknown bot fails here, before anything is kept
    if seed is None and set_name is None:
        seed = str(random.SystemRandom().randrange(1_000_000))
    if seed is not None:
        value: int | str = int(seed) if seed.strip().lstrip("-").isdigit() and len(seed) < 19 else seed.strip()
        if not str(value):
            raise DuplicateError("--seed needs a number or a word (as 7 or club-night)")
        return DealSet.from_seed(value, rules, deals, name=set_name, bots=kind)
    assert set_name is not None
    return DealSet.derive(set_name, rules, deals, bots=kind)


def _play(store: DuplicateStore, deal_set: DealSet | None, resume: str | None, *, new: bool, plain: bool,
          pause: float) -> tuple[int, int]:
    """Start or resume the attempt and play it: (exit status, attempt id)."""
    from cinch.table.duplicate import DuplicateSession

    if resume is not None:
        attempt_id = None if resume == "latest" else _attempt_id(resume)
        session = DuplicateSession.resume(store, attempt_id)
    else:
        assert deal_set is not None
        offered = _offer_resume(store) if not new and not isinstance(store, MemoryStore) and _terminal() else None
        if offered is not None:
            session = DuplicateSession.resume(store, offered)
        else:  # (a script starts the set it asked for; an unfinished one waits for --resume)
            session = DuplicateSession.start(store, deal_set)
    if plain or not (_terminal() and _isatty(sys.stdout)):
        return _run_plain(session), session.attempt.id
    from cinch.tui.duplicate import run
    from cinch.tui.screens import Settings

    return run(session, settings=Settings(pause=pause)), session.attempt.id


def _run_plain(session) -> int:
    from cinch.duplicate_plain import play_set

    try:
        play_set(session, inp=sys.stdin, out=sys.stdout)
    except KeyboardInterrupt:
        click.echo("\nInterrupted." + session.stopped_words())
        return 130
    return 0


def _offer_resume(store: DuplicateStore) -> int | None:
    """Ask whether to go on with the latest unfinished attempt; its id, or None (it is then marked abandoned)."""
    from cinch.table.duplicate import DuplicateSession, unfinished

    waiting = unfinished(store)
    if not waiting:
        return None
    last = waiting[0]
    if click.confirm(f"Resume {describe(last)}?", default=True, prompt_suffix=" "):
        return last.id
    DuplicateSession(store, last).abandon()
    return None


def describe(attempt: Attempt) -> str:
    """``attempt 3 (set 'seed 7', official, board 4 of 8)``."""
    s = attempt.deal_set
    where = f"board {attempt.next_board} of {s.deals}" if attempt.next_board is not None else f"{s.deals} boards"
    return f"attempt {attempt.id} (set {quoted(s.name)}, {s.rules.name}, {where})"


def _export_after(store: DuplicateStore, attempt_id: int, path: str) -> None:
    attempt = store.attempt(attempt_id)
    if not attempt.is_finished:
        click.echo(f"The set is not finished, so nothing is written to {path}: once it is, `cinch duplicate "
                   f"export {attempt.id} -o {path}` writes it.")
        return
    _write(path, _export_text(store, attempt))
    click.echo(f"The set is written to {path}.")


def _export_text(store: DuplicateStore, attempt: Attempt) -> str:
    robots = []
    for board in range(1, attempt.deal_set.deals + 1):
        found = store.robot_result(attempt.deal_set, board, attempt.deal_set.bots)
        robots.append(found if found is not None else robot_result(attempt.deal_set, board))
    return json.dumps(export_json(attempt, robots), ensure_ascii=False, indent=1) + "\n"


def _write(path: str, text: str) -> None:
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as e:
        raise CinchError(f"cannot write {path}: {e.strerror or e}") from None


def _attempt_id(text: str) -> int:
    t = text.strip().removeprefix("#")
    if not t.isdigit() or len(t) > 18:
        raise DuplicateError(f"{quoted(text)} is not an attempt id (a number, as 3; `cinch duplicate list` lists them)")
    return int(t)


def _terminal() -> bool:
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


def _isatty(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError):
        return False


# ---- cinch duplicate export ------------------------------------------------------------------------------------------
@click.command("duplicate export", cls=OneLineCommand)
@click.argument("attempt_id", metavar="ID")
@db_option
@click.option("-o", "--output", "output", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write to FILE (default: standard output).")
@click.option("--board", "board", type=int, default=None, metavar="N",
              help="Only board N's cinch/1 game record (which `cinch replay` replays, checking its shuffle).")
def export_command(attempt_id: str, db: str | None, output: str | None, board: int | None) -> None:
    """Write a finished attempt: the set (commitments and salts), every result with its record, the robot table's."""
    if output is not None:
        refuse_overwriting_library(output, db, what="the duplicate set" if board is None else "the record")
    number = _attempt_id(attempt_id)
    with Library.open(db, readonly=True) as lib:
        store = LibraryStore(lib)
        attempt = store.attempt(number)
        if board is None:
            text = _export_text(store, attempt)
        else:
            attempt.deal_set.check_board(board)
            if board > len(attempt.results):
                raise DuplicateError(f"board {board} of attempt {number} is not played yet "
                                     f"({len(attempt.results)} of {attempt.deal_set.deals} are)")
            text = dumps(attempt.results[board - 1].record)
    if output is None:
        click.echo(text, nl=False)
    else:
        _write(output, text)


# ---- cinch duplicate list --------------------------------------------------------------------------------------------
@click.command("duplicate list", cls=OneLineCommand)
@db_option
def list_command(db: str | None) -> None:
    """List your attempts at duplicate sets, the most recently played first, with the percentage against the robots."""
    with Library.open(db, readonly=True) as lib:
        store = LibraryStore(lib)
        attempts = store.attempts()
        rows = [("ID", "Date", "Set", "Rules", "Boards", "Status", "vs robots")]
        for a in attempts:
            pairs = [(r, robots) for r in a.results
                     if (robots := store.robot_result(a.deal_set, r.board, a.deal_set.bots)) is not None]
            mine = standings({a.player: [p[0] for p in pairs], ROBOTS: [p[1] for p in pairs]}) if pairs else []
            pct = next((f"{s.percentage:.1f}%" for s in mine if s.entrant == a.player), "-")
            rows.append((str(a.id), a.created.astimezone().strftime("%Y-%m-%d %H:%M"), a.deal_set.name,
                         a.deal_set.rules.name, f"{len(a.results)}/{a.deal_set.deals}", a.status.replace("_", " "),
                         pct))
    if len(rows) == 1:
        click.echo("No duplicate sets yet; `cinch duplicate` plays one.")
        return
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        click.echo("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())


duplicate_command.add_command(export_command, "export")
duplicate_command.add_command(list_command, "list")
