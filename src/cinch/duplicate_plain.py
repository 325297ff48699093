"""``cinch duplicate --plain``: a duplicate deal set at the line prompt, a board at a time.

Each board is played as ``cinch play --plain`` plays a deal (:class:`~cinch.play_plain.PlainGame`, the same
prompts, lists and commands), told as a board of the set; when it ends, its traveller (every result on it so
far: the robot table's, this attempt's and the person's earlier attempts') is printed, and the next board
begins.  After the last board the ranking of the field.  Everything goes to plain text streams, so a script
(or a test) plays a set with lines of input.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from cinch.actions import Action
from cinch.errors import CinchError
from cinch.play_plain import PlainGame, Stop, encodes_symbols
from cinch.table import Table
from cinch.table.duplicate import (
    ME,
    BoardNarrator,
    DuplicateSession,
    board_over_lines,
    standings_lines,
    traveller_lines,
)
from cinch.view import SeatView

NO_HINTS = ("No hints in duplicate: each board is your own play, to compare with the field; once it is over its "
            "traveller shows every table's par.")


class BoardGame(PlainGame):
    """One board of a set at the prompt: a :class:`PlainGame` whose match is the board's one deal."""

    def __init__(self, table: Table, session: DuplicateSession, board: int, *, inp: TextIO, out: TextIO,
                 echo: bool | None = None, symbols: bool | None = None, intro: Sequence[str] = ()):
        super().__init__(table, ME, inp=inp, out=out, echo=echo, symbols=symbols, intro=intro, stops=False)
        self.session = session
        self.board = board
        self.narrator = BoardNarrator(ME, board, session.deal_set.deals, self.symbols)

    def deal_over(self) -> None:
        summary = self.match.summaries[-1]
        self.say(*board_over_lines(summary, self.board, self.match.rules, self.symbols))

    def match_over(self) -> None:
        """(A board's end is its deal's: told by :meth:`deal_over`.)"""

    def command(self, name: str, view: SeatView, listed: Sequence[Action], suggestion: Action) -> None:
        if name in ("hint", "why"):
            self.say(NO_HINTS)
        elif name == "score":
            self.say(f"Board {self.board} of {self.session.deal_set.deals}: a board is scored alone, by the result "
                     "of its deal (NS's score change less EW's), then matchpointed against the other tables'.")
        else:
            super().command(name, view, listed, suggestion)

    def stopped(self, why: str) -> None:
        self.say(("You quit." if why == "quit" else "End of input.") + self.session.stopped_words())


def play_set(session: DuplicateSession, *, inp: TextIO, out: TextIO, echo: bool | None = None,
             symbols: bool | None = None) -> str:
    """Play the set's boards from where the attempt stands: ``"over"`` once every board is played, ``"quit"`` or
    ``"eof"`` when the person stops (the board in play is kept at its last action).  A KeyboardInterrupt passes
    through, with everything before it kept."""
    symbols = encodes_symbols(out) if symbols is None else symbols
    intro = session.intro_lines()
    while session.board is not None:
        board = session.board
        game = BoardGame(session.table(), session, board, inp=inp, out=out, echo=echo, symbols=symbols, intro=intro)
        intro = []
        how = game.run()
        if how != "over":
            return how
        session.finish(game.table)
        _say(out, *_problems(session))
        if not session.robot_known(board):
            _say(out, f"The robot table plays board {board} ({session.deal_set.bots} bots)...")
        try:
            _say(out, "", *traveller_lines(session.traveller(board), symbols))
        except CinchError as e:  # a store that fails: the board is played, its traveller not shown
            _say(out, f"The traveller of board {board} cannot be shown: {e}.")
    _say(out, "", *standings_lines(session.standings(), session.player), *_problems(session))
    words = session.stopped_words()
    _say(out, "Every board of the set is played." + words)
    return "over"


def _problems(session: DuplicateSession) -> list[str]:
    problem = session.take_problem()
    return [problem] if problem else []


def _say(out: TextIO, *lines: str) -> None:
    for line in lines:
        out.write(line + "\n")
    out.flush()


__all__ = ["BoardGame", "Stop", "play_set"]
