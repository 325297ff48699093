"""``cinch play``: a whole match against the computer, in the terminal.

The way the match is shown is a *front end*: the card table drawn with Textual
(``table``, :mod:`cinch.tui`, the default) or ``--plain``, a line prompt for
screen readers and scripts.  The table needs a terminal: when standard input or
output is not one (a pipe, a script, a test runner) the match is played at the
line prompt instead.

Every match is kept in the game library (:mod:`cinch.library`) as it is played;
a front end given ``PlaySetup.resume`` continues that stored match instead of
dealing a new one (``cinch resume ID`` and the offer at the start of ``cinch play``).
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import click

from cinch.bots.base import DEFAULT_BOT
from cinch.cards import Seat
from cinch.cli.options import check_save_file, make_rules, rules_options
from cinch.errors import CinchError
from cinch.rules import Rules

if TYPE_CHECKING:
    from cinch.library import Library


@dataclass(frozen=True)
class PlaySetup:
    """Everything ``cinch play`` was asked for, whatever the front end."""

    rules: Rules
    seat: Seat
    bots: dict[Seat, str]  # the bot of every other seat, by seat
    seed: int | None
    save: str | None
    library: Library | None = None  # where the match is kept as it is played (None: nowhere)
    resume: int | None = None  # a match of the library to continue instead of dealing a new one
    offer_resume: bool = False  # the front end offers the library's unfinished matches itself (the table)
    pause: float = 0.6  # at the table: seconds between two bot plays
    theme: str = "classic"  # at the table: "classic" or "colour-blind"
    # Honour rule with 003: stop before every other player's turn to offer acting out of turn.
    # None: each front end's own default (on at the line prompt, off at the table; docs/playing.md says why).
    stops: bool | None = None


def run_plain(setup: PlaySetup) -> int:
    """The line-prompt front end on standard input and output; returns the exit status."""
    from cinch.play_plain import new_game, resume_game

    stops = True if setup.stops is None else setup.stops  # a line prompt has no other moment to act out of turn
    if setup.resume is not None:
        assert setup.library is not None
        game = resume_game(setup.library, setup.resume, inp=sys.stdin, out=sys.stdout, save_path=setup.save,
                           stops=stops)
    else:
        game = new_game(setup.rules, seat=setup.seat, bots=setup.bots, seed=setup.seed,
                        inp=sys.stdin, out=sys.stdout, save_path=setup.save, library=setup.library, stops=stops)
    try:
        game.run()
    except KeyboardInterrupt:
        saved = f" The game record is saved in {game.saver.saved_to}." if game.saver.saved_to else ""
        if game.saver.match_id is not None:
            saved += f" `cinch resume {game.saver.match_id}` continues the match."
        click.echo(f"\nInterrupted.{saved}")
        return 130
    return 0


def run_table(setup: PlaySetup) -> int:
    """The Textual card table; the line prompt when standard input or output is not a terminal."""
    if not (_stdin_is_terminal() and _isatty(sys.stdout)):
        if setup.offer_resume and setup.library is not None and _stdin_is_terminal():
            setup = dataclasses.replace(setup, resume=offer_resume(setup.library), offer_resume=False)
        return run_plain(setup)
    from cinch.table import Saver
    from cinch.tui.app import run
    from cinch.tui.game import TableSetup
    from cinch.tui.screens import Settings

    # (a resumed match brings its own bots)
    seats = setup.rules.seating.seats
    bots = tuple(setup.bots.get(s, DEFAULT_BOT) if setup.resume is None else DEFAULT_BOT for s in seats)
    table = TableSetup(setup.rules, setup.seat, bots, setup.seed)
    saver = Saver(setup.library, save_path=setup.save)
    # (the table says on closing where the match is kept, as the line prompt does on quitting)
    return run(table, saver=saver, settings=Settings(pause=setup.pause, theme=setup.theme, stops=bool(setup.stops)),
               offer_resume=setup.offer_resume, resume_id=setup.resume)


def _isatty(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError):
        return False


FRONTENDS: dict[str, Callable[[PlaySetup], int]] = {"plain": run_plain, "table": run_table}
DEFAULT_FRONTEND = "table"


@click.command("play")
@rules_options
@click.option("--seed", type=int, default=None, metavar="N",
              help="Shuffle the decks and drive the bots from this seed (a match is repeatable).")
@click.option("--save", "save", type=click.Path(dir_okay=False, writable=True), default=None, metavar="FILE",
              help="Keep the cinch/1 game record in FILE, saved after every move.")
@click.option("--seat", default=None, metavar="SEAT",
              help="Your seat: N E S or W at four (default S; your partner sits opposite), 1 to n at a cut-throat "
                   "table of n players (default 1).")
@click.option("--bots", "bots", default=DEFAULT_BOT, show_default=True, metavar="NAME",
              help="The bot that plays the other seats: random, basic, heuristic or expert (searches, about "
                   "a quarter second a decision).")
@click.option("--partner", "partner", default=None, metavar="NAME",
              help="The bot that plays your partner (default: the --bots one).")
@click.option("--opponents", "opponents", default=None, metavar="NAME",
              help="The bot that plays the opponents (every other seat at a cut-throat table; default: --bots).")
@click.option("--plain", "plain", is_flag=True, help="A plain line prompt: for screen readers and scripts.")
@click.option("--db", "db", type=click.Path(dir_okay=False), default=None, metavar="PATH",
              help="The game library that keeps every match (default: $CINCH_DB, else your data folder).")
@click.option("--no-library", "no_library", is_flag=True, help="Keep this match out of the game library.")
@click.option("--new", "new", is_flag=True, help="Start a new match without offering to resume one.")
@click.option("--table", "table", is_flag=True, help="The card table (the default; it needs a terminal).")
@click.option("--pause", type=click.FloatRange(0, 10), default=0.6, show_default=True, metavar="SECONDS",
              callback=lambda ctx, param, value: _a_number(value, "--pause"),
              help="At the table: the pause between two bot plays, so you can follow them.")
@click.option("--theme", type=click.Choice(["classic", "colour-blind"], case_sensitive=False), default="classic",
              show_default=True, help="At the table: the card colours (colour-blind: four colour-blind-safe suits).")
@click.option("--stops/--no-stops", "stops", default=None,
              help="Honour rule with 003's rulings: stop before every other player's bid, lead or play to let you "
                   "act out of turn (default: on at the line prompt, off at the table, where x asks for one stop).")
def play_command(preset: str, options: tuple[str, ...], seed: int | None, save: str | None, seat: str | None,
                 bots: str, partner: str | None, opponents: str | None, plain: bool, db: str | None,
                 no_library: bool, new: bool, table: bool, pause: float, theme: str, stops: bool | None) -> None:
    """Play a match against the computer: you type bids, trumps and cards."""
    from cinch.bots import make_bot
    from cinch.library import Library, LibraryError
    from cinch.table.session import default_seat

    if plain and table:
        raise click.UsageError("--plain and --table ask for two front ends: choose one")
    frontend = "plain" if plain else "table" if table else DEFAULT_FRONTEND
    rules = make_rules(preset, options)
    table_seats = rules.seating
    me = default_seat(rules) if seat is None else _parse_seat(rules, seat)
    if table_seats.partnership:
        names = {me.partner: partner or bots, me.left: opponents or bots, me.partner.left: opponents or bots}
    elif partner is not None:
        raise click.UsageError(f"--partner: at a table of {table_seats.players} each plays for himself, nobody is "
                               "your partner (--opponents or --bots names the bot of the other seats)")
    else:
        names = {s: opponents or bots for s in table_seats.seats if s != me}
    names = {s: name.strip().lower() for s, name in names.items()}
    for name in set(names.values()):
        make_bot(name)  # an unknown bot name fails here, before the match starts
    if save is not None:
        check_save_file(save, db)  # before the library is opened: --save may name it
    library = None
    if not no_library:
        try:
            library = Library.open(db)
        except LibraryError as e:  # exit 2, before the match
            raise LibraryError(f"{e} (--no-library plays without it)") from None
    try:
        resume = None
        table_offers = frontend == "table"  # the table offers the unfinished matches on its own screen
        if library is not None and not new and not table_offers and _stdin_is_terminal():
            resume = offer_resume(library)
        setup = PlaySetup(rules=rules, seat=me, bots=names, seed=seed, save=save,
                          library=library, resume=resume, offer_resume=table_offers and library is not None and not new,
                          pause=pause, theme=theme.lower(), stops=stops)
        status = FRONTENDS[frontend](setup)
    finally:
        if library is not None:
            library.close()
    sys.exit(status)


def _parse_seat(rules: Rules, text: str) -> Seat:
    """``--seat`` as a seat of this table; a usage error naming the table's seats otherwise."""
    try:
        return rules.seating.parse_seat(text)
    except CinchError:
        raise click.UsageError(f"--seat {text}: the seats at this table are {' '.join(rules.seating.names)}"
                               + ("" if rules.seating.partnership else
                                  f" ({rules.seating.players} players, each for himself)")) from None


def offer_resume(library: Library, *, sheets: bool = False) -> int | None:
    """Ask whether to continue the most recent unfinished match; its id, or None for a new match.

    A match the player declines is marked abandoned, so it is not offered again
    (``cinch resume ID`` still continues it).  ``sheets``: offer a score sheet of ``cinch score``
    (``cinch score --resume ID``) instead.
    """
    waiting = library.unfinished_sheets() if sheets else library.unfinished()
    if not waiting:
        return None
    last = waiting[0]
    question = f"Go on with the score sheet of {last.describe()}?" if sheets else f"Resume {last.describe()}?"
    if click.confirm(question, default=True, prompt_suffix=" "):
        return last.id
    library.abandon(last.id)
    return None


def _a_number(value: float, option: str) -> float:
    if value != value:  # NaN: no pause at all is 0
        raise click.BadParameter(f"{option} takes a number of seconds from 0 to 10, not nan")
    return value


def _stdin_is_terminal() -> bool:
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False
