"""``cinch puzzle``: find the one card that is best in every world you cannot rule out.

Solving: a puzzle of the bundled set (or ``--file``) is shown as the table tells a deal,
from the puzzle seat's view only (:mod:`cinch.table.narrate`), in a Rich panel or, with
``--plain``, as plain lines; the player types a card, gets another try after a bad one
(not a card, not in the hand, not legal), then the verdict and the explanation.
Mining (``--mine N``): self-play N deals per preset and write the puzzles found
(:mod:`cinch.study.puzzles`).
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

import click

from cinch.cli.options import OneLineCommand
from cinch.errors import CinchError
from cinch.rules import PRESET_NAMES, Rules
from cinch.study.puzzles import LEVELS, MARGIN, MINED_LEVELS, WORLDS, Puzzle, PuzzleError
from cinch.view import PlayedCard

QUIT = ("quit", "q", "exit")
SHOW = ("show", "hand", "position")
HELP = ("help", "?")
INPUT_HELP = ("Type the card you would play: 5h, 10♥ or TH (suits s h d c or ♠ ♥ ♦ ♣; 10 may be written T). "
              "'show' shows the position again, 'quit' stops.")


@click.command("puzzle", cls=OneLineCommand)
@click.option("--rules", "presets", multiple=True, metavar="PRESET",
              help=f"Only puzzles of this preset (repeatable); with --mine, the presets to mine. "
                   f"Presets: {', '.join(PRESET_NAMES)}.")
@click.option("--id", "puzzle_id", default=None, metavar="ID", help="The puzzle to show, as pagat-007.")
@click.option("--level", "levels", multiple=True, type=click.Choice(LEVELS), help="Only puzzles of this level.")
@click.option("--seed", type=int, default=None, help="Pick the puzzle with this seed (with --mine: the deals' seed).")
@click.option("--plain", is_flag=True, help="Plain lines, no panels or colour (screen readers, scripts).")
@click.option("--list", "list_only", is_flag=True, help="List the puzzles (id, preset, level, trick) and stop.")
@click.option("--file", "path", type=click.Path(dir_okay=False), default=None,
              help="A puzzle file of your own (from --mine) instead of the bundled set.")
@click.option("--mine", "deals", type=click.IntRange(min=1), default=None, metavar="N",
              help="Mine puzzles from N self-play deals per preset and write them to --out.")
@click.option("--out", type=click.Path(dir_okay=False, writable=True), default=None,
              help="With --mine: the puzzle file to write.")
@click.option("--worlds", type=click.IntRange(min=1), default=WORLDS, show_default=True,
              help="With --mine: the worlds a puzzle's answer must be best in.")
@click.option("--margin", type=click.IntRange(min=1), default=MARGIN, show_default=True,
              help="With --mine: points the answer must beat every other card by, in every world.")
@click.option("--easy", is_flag=True, help="With --mine: keep the puzzles both rule-of-thumb bots solve too.")
@click.option("-o", "--option", "options", multiple=True, metavar="KEY=VALUE",
              help="With --mine: override an option of each preset mined (see `cinch rules`).")
def puzzle_command(presets: tuple[str, ...], puzzle_id: str | None, levels: tuple[str, ...], seed: int | None,
                   plain: bool, list_only: bool, path: str | None, deals: int | None, out: str | None, worlds: int,
                   margin: int, easy: bool, options: tuple[str, ...]) -> None:
    """A card-play puzzle: one card is clearly best in every world consistent with what you have seen.

    \b
    cinch puzzle                          a puzzle at random; type your card
    cinch puzzle --rules pagat --level hard
    cinch puzzle --id pagat-003 --plain
    cinch puzzle --mine 200 --rules pagat --seed 1 --out mine.json
    """
    if deals is not None:
        clash = [name for name, given in (("--id", puzzle_id), ("--level", levels), ("--plain", plain),
                                          ("--list", list_only), ("--file", path)) if given]
        if clash:
            verb = "goes" if len(clash) == 1 else "go"
            raise click.UsageError(f"--mine writes a puzzle file; {', '.join(clash)} {verb} with solving a puzzle")
        _mine(presets or ("pagat",), options, deals, seed if seed is not None else 1, out, worlds, margin, easy)
        return
    if out is not None or options:
        raise click.UsageError("--out and -o go with --mine (mining puzzles), not with solving one")
    from cinch.study.puzzles import find, load_puzzles

    for name in presets:
        Rules.preset(name)  # an unknown preset is refused, naming the presets
    puzzles = load_puzzles(path)
    chosen = [p for p in puzzles if (not presets or p.rules.preset_name in presets)
              and (not levels or p.level in levels)]
    if list_only:
        for p in chosen:
            click.echo(f"{p.id}  {p.rules.name}  {p.level}  trick {p.trick_number}, {p.view.seat} to play")
        return
    if puzzle_id is not None:
        puzzle = find(puzzles, puzzle_id)
    elif not chosen:
        raise PuzzleError("no puzzle matches --rules and --level; `cinch puzzle --list` lists them")
    else:
        puzzle = random.Random(seed).choice(chosen)
    sys.exit(solve_puzzle(puzzle, sys.stdin, sys.stdout, plain=plain))


# ---- solving ---------------------------------------------------------------------------------------------
def position_lines(puzzle: Puzzle, symbols: bool) -> list[str]:
    """The puzzle's position in words, from its seat's view only: the bidding, discards and draw as the table
    tells them, then one line a trick, the hand and the cards it may play."""
    from cinch.table.narrate import Narrator, card_text, cards_text, hand_text, seat_name

    view = puzzle.view
    trump = view.trump
    me = view.seat
    told = Narrator(me, symbols).update(view)
    lines = [line for line in told[:next(i for i, line in enumerate(told) if line.startswith("The play:"))] if line]

    def plays(trick: Sequence[PlayedCard]) -> str:
        return ", ".join(f"{seat_name(p.seat, me)} {card_text(p.card, trump, symbols)}"
                         + (f" burying {cards_text(p.buried, trump, symbols)}" if p.buried else "") for p in trick)

    for number, trick in enumerate(view.tricks, start=1):
        lines.append(f"Trick {number}: {plays(trick.plays)}; {seat_name(trick.winner, me)} wins.")
    number = puzzle.trick_number
    lines.append(f"Trick {number} so far: {plays(view.current_trick)}." if view.current_trick
                 else f"Trick {number}: you lead.")
    lines.append(f"You are {me}; your partner is {me.partner}.")
    lines.append("Your hand: " + hand_text(view.hand, trump, symbols))
    lines.append("You may play: " + cards_text(sum(1 << c for c in puzzle.legal_cards), trump, symbols))
    return lines


def verdict_lines(puzzle: Puzzle, guess_text: str, symbols: bool) -> tuple[bool, list[str]]:
    """Right or wrong, the explanation and what the rule-of-thumb bots play, in screen words."""
    from cinch.table.narrate import card_text

    trump = puzzle.view.trump
    guess = puzzle.read_guess(guess_text)
    verdict = puzzle.verdict(guess)

    answer = card_text(verdict.answer, trump, symbols)
    head = (f"Right: {answer} is the best card." if verdict.correct
            else f"Not the best card: the answer is {answer}.")
    bots = ", ".join(f"{name} plays {card_text(card, trump, symbols)}" for name, card in puzzle.bots.items())
    return verdict.correct, [head] + [_words(line, puzzle, symbols) for line in verdict.lines] + [
        f"Level {puzzle.level}: {bots}."]


def _words(text: str, puzzle: Puzzle, symbols: bool) -> str:
    """A stored line for this screen: its cards as ``5♦*`` where the stream shows suit symbols."""
    from cinch.table.narrate import rule_words

    return rule_words(text, puzzle.view.trump) if symbols else text


def solve_puzzle(puzzle: Puzzle, inp: TextIO, out: TextIO, *, plain: bool) -> int:
    """Show the puzzle, read cards until one is legal, give the verdict; 0 when answered, 1 on quit or end of input."""
    from cinch.play_plain import encodes_symbols

    symbols = encodes_symbols(out)
    show = _plain_show if plain else _rich_show
    show(puzzle, out, symbols)
    while True:
        out.write("Your card: ")
        out.flush()
        try:
            line = inp.readline()
        except KeyboardInterrupt:
            line = ""
        if not line:
            out.write("\nNo card given.\n")
            return 1
        text = line.strip()
        if text.lower() in QUIT:
            out.write(f"The puzzle stays unsolved: `cinch puzzle --id {puzzle.id}` shows it again.\n")
            return 1
        if text.lower() in SHOW:
            show(puzzle, out, symbols)
            continue
        if text.lower() in HELP or not text:
            out.write(INPUT_HELP + "\n")
            continue
        try:
            correct, lines = verdict_lines(puzzle, text, symbols)
        except PuzzleError as e:
            out.write(f"{_words(str(e), puzzle, symbols)}.\n")
            continue
        _plain_verdict(lines, out) if plain else _rich_verdict(correct, lines, out)
        return 0


def _title(puzzle: Puzzle) -> str:
    return f"Puzzle {puzzle.id}: {puzzle.rules.name} rules, {puzzle.level}"


QUESTION = "Which card takes the most points for your side, whatever the hidden cards are?"


def _plain_show(puzzle: Puzzle, out: TextIO, symbols: bool) -> None:
    out.write("\n".join([_title(puzzle), *position_lines(puzzle, symbols), QUESTION]) + "\n")


def _plain_verdict(lines: Sequence[str], out: TextIO) -> None:
    out.write("\n".join(lines) + "\n")


def _console(out: TextIO):  # -> rich.console.Console (imported when used: plain mode never loads Rich)
    from rich.console import Console

    return Console(file=out, highlight=False, soft_wrap=False)


def _rich_show(puzzle: Puzzle, out: TextIO, symbols: bool) -> None:
    from rich.panel import Panel
    from rich.text import Text

    body = Text()
    lines = position_lines(puzzle, symbols)
    for i, line in enumerate(lines):
        style = "bold" if line.startswith(("Your hand", "You may play")) else ""
        body.append(line + ("\n" if i < len(lines) - 1 else ""), style=style)
    console = _console(out)
    console.print(Panel(body, title=_title(puzzle), title_align="left"))
    console.print(QUESTION)


def _rich_verdict(correct: bool, lines: Sequence[str], out: TextIO) -> None:
    from rich.panel import Panel
    from rich.text import Text

    body = Text()
    body.append(lines[0] + "\n", style="bold green" if correct else "bold red")
    body.append("\n".join(lines[1:]))
    _console(out).print(Panel(body, title="The answer", title_align="left"))


# ---- mining ------------------------------------------------------------------------------------------------
def _mine(presets: Sequence[str], options: Sequence[str], deals: int, seed: int, out: str | None, worlds: int,
          margin: int, easy: bool) -> None:
    from cinch.library import refuse_overwriting_library
    from cinch.study.puzzles import dumps

    if out is None:
        raise click.UsageError("--mine needs --out FILE, the puzzle file to write")
    refuse_overwriting_library(out, what="the puzzle file")
    levels = LEVELS if easy else MINED_LEVELS
    rules_list = [Rules.from_text(name, list(options)) for name in presets]
    # The file is opened before anything is mined (a path that cannot be written is refused at once), as
    # PATH.partial, renamed to PATH once written whole and removed if the mining fails (as export-dataset).
    partial = Path(out + ".partial")
    done = False
    try:
        with partial.open("w", encoding="utf-8") as handle:
            found = _mine_presets(rules_list, deals, seed, worlds, margin, levels)
            handle.write(dumps(found, _command(presets, options, deals, seed, out, worlds, margin, easy)))
        partial.replace(out)
        done = True
    except OSError as e:
        raise CinchError(f"cannot write {out}: {e.strerror or e}") from None
    finally:
        if not done:
            partial.unlink(missing_ok=True)
    click.echo(f"{_count(len(found), 'puzzle')} written to {out}", err=True)


def _mine_presets(rules_list: Sequence[Rules], deals: int, seed: int, worlds: int, margin: int,
                  levels: Sequence[str]) -> list[Puzzle]:
    """The puzzles of ``deals`` self-play deals of each rule set, with a line per rule set on standard error."""
    from cinch.study.puzzles import mine_deals

    found: list[Puzzle] = []
    for rules in rules_list:
        start = time.process_time()
        these = [p for p, _ in mine_deals(rules, deals=deals, seed=seed, worlds=worlds, margin=margin, levels=levels)]
        found += these
        counts = ", ".join(f"{sum(p.level == lv for p in these)} {lv}" for lv in reversed(levels))
        click.echo(f"{rules.name}: {_count(deals, 'deal')}, {_count(len(these), 'puzzle')} ({counts}), "
                   f"{time.process_time() - start:.0f} s of CPU", err=True)
    return found


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _command(presets: Sequence[str], options: Sequence[str], deals: int, seed: int, out: str, worlds: int,
             margin: int, easy: bool) -> str:
    """The command line that mines the same puzzles (written into the file)."""
    parts = ["cinch puzzle", f"--mine {deals}", *(f"--rules {p}" for p in presets), *(f"-o {o}" for o in options),
             f"--seed {seed}"]
    if worlds != WORLDS:
        parts.append(f"--worlds {worlds}")
    if margin != MARGIN:
        parts.append(f"--margin {margin}")
    if easy:
        parts.append("--easy")
    return " ".join(parts + [f"--out {out}"])
