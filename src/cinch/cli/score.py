"""``cinch score``: keep the score of a match played with real cards.

The table deals and plays with its own pack; after each deal someone enters the bidding,
trumps and who took the points, and the program settles the deal by the chosen rule text,
explains the ruling, keeps the running score and names the winner.  The Textual screen
(:mod:`cinch.tui.score`) is the default; ``--plain`` (or a standard input or output that
is not a terminal) asks at a line prompt (:mod:`cinch.score_plain`).  Every match is kept
in the game library after every deal, as a ``cinch/1`` record of deals played with real
cards; ``--resume ID`` goes on with one.  ``-o players=3`` (2 to 6, or ``-o heasly=true``) keeps
the score of a cut-throat table: seats ``1`` to ``n``, each player for himself; ``-o decks=2`` that of
two-deck Cinch, each copy of a point card entered (``NS jack jack``).
"""

from __future__ import annotations

import sys

import click
from click.core import ParameterSource

from cinch.cards import Seat
from cinch.cli.options import check_save_file, db_option, make_rules, rules_options
from cinch.errors import quoted
from cinch.seating import FOUR, Seating


def _players(values: tuple[str, ...], table: Seating = FOUR) -> dict[Seat, str]:
    """``--player N=Ann`` (repeated; ``1=Ann`` at a cut-throat table) as names by seat."""
    out: dict[Seat, str] = {}
    seats = " ".join(table.names)
    for value in values:
        seat, sep, name = value.partition("=")
        key = seat.strip().upper()
        if not sep or key not in table.names or not name.strip():
            raise click.BadParameter(f"{quoted(value)}: write SEAT=NAME with a seat {seats}, as {table.names[0]}=Ann",
                                     param_hint="--player")
        out[table.parse_seat(key)] = name.strip()
    return out


def _dealer(value: str | None, table: Seating) -> Seat | None:
    """``--dealer``: a seat at this table, or None (the first question asks)."""
    if value is None:
        return None
    if value.strip().upper() not in table.names:
        raise click.BadParameter(f"{quoted(value)} is not a seat at this table; the seats are {' '.join(table.names)}",
                                 param_hint="--dealer")
    return table.parse_seat(value)


@click.command("score")
@rules_options
@click.option("--player", "players", multiple=True, metavar="SEAT=NAME",
              help="A player's name, as N=Ann (repeat for each seat; partners sit opposite: N-S against E-W; "
                   "at a cut-throat table the seats are 1 to n, as 1=Ann).")
@click.option("--dealer", "dealer", default=None, metavar="SEAT",
              help="Who deals first: N E S W, or 1 to n at a cut-throat table (without it the first question asks).")
@click.option("--plain", "plain", is_flag=True, help="A plain line prompt: for screen readers and scripts.")
@click.option("--resume", "resume", default=None, metavar="ID",
              help="Go on with a score sheet of the game library (`cinch history` lists them).")
@click.option("--new", "new", is_flag=True, help="Start a new sheet without offering to go on with the last one.")
@click.option("--save", "save", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Also write the cinch/1 record to FILE after every deal.")
@db_option
@click.option("--no-library", "no_library", is_flag=True, help="Keep this match out of the game library.")
@click.pass_context
def score_command(ctx: click.Context, preset: str, options: tuple[str, ...], players: tuple[str, ...],
                  dealer: str | None, plain: bool, resume: str | None, new: bool, save: str | None, db: str | None,
                  no_library: bool) -> None:
    """Keep the score of a match played with real cards: enter each deal, get the ruling."""
    from cinch.cli.library import _match_id
    from cinch.cli.play import _isatty, _stdin_is_terminal, offer_resume
    from cinch.library import Library, LibraryError
    from cinch.score_plain import run_plain
    from cinch.scorekeeper import ScoreSheet
    from cinch.table.score_dialogue import ScoreDialogue, SheetSaver

    given = [p for p in ("preset", "options", "players", "dealer")
             if ctx.get_parameter_source(p) is ParameterSource.COMMANDLINE]
    if resume is not None and given:
        raise click.UsageError("--resume goes on with the stored match, its rules and players: leave out "
                               + ", ".join({"preset": "--rules", "options": "-o", "players": "--player",
                                            "dealer": "--dealer"}[p] for p in given))
    if resume is not None and no_library:
        raise click.UsageError("--resume reads the game library: leave out --no-library")
    if save is not None:
        check_save_file(save, db)  # before the library is opened: --save may name it
    rules = make_rules(preset, options)
    names = _players(players, rules.seating)
    first_dealer = _dealer(dealer, rules.seating)
    library = None
    if not no_library:
        try:
            library = Library.open(db, create=resume is None)
        except LibraryError as e:  # exit 2, before anything is asked
            raise LibraryError(f"{e} (--no-library keeps the score without it)") from None
    try:
        match_id = None if resume is None else _match_id(resume)
        if match_id is None and library is not None and not new and _stdin_is_terminal():
            match_id = offer_resume(library, sheets=True)
        if match_id is not None:
            assert library is not None
            sheet = library.sheet(match_id)
            if sheet.is_over:
                raise LibraryError(f"match {match_id} is over: {sheet.over_words()}; `cinch replay {match_id}` "
                                   "shows it")
        else:
            sheet = ScoreSheet(rules, names, first_dealer)
        saver = SheetSaver(library, save, match_id)
        notes = saver.start(sheet)
        dialogue = ScoreDialogue(sheet, on_change=saver.save)
        intro = notes + saver.where()
        if plain or not (_stdin_is_terminal() and _isatty(sys.stdout)):
            try:
                run_plain(dialogue, sys.stdin, sys.stdout, intro=intro)
            except KeyboardInterrupt:
                click.echo("\nInterrupted; every deal entered is saved.")
                sys.exit(130)
        else:
            from cinch.tui.score import ScoreApp

            ScoreApp(dialogue, intro=intro).run()
            for line in saver.where():
                click.echo(line)
    finally:
        if library is not None:
            library.close()

