"""``cinch duplicate`` at the card table (Textual): a deal set board by board, the traveller after each.

Each board is played at the same table as ``cinch play`` (:class:`~cinch.tui.app.TableScreen`), told as a
board of the set, without hints or take-backs; when its deal ends the :class:`TravellerScreen` shows every
result on it so far (the robot table's, this attempt's, the earlier attempts'), and Enter deals the next board.
The robot table plays each board in a worker thread from the moment the board is dealt, so its result is
usually there when the person's deal ends.
"""

from __future__ import annotations

import contextlib
import dataclasses
from dataclasses import dataclass
from functools import partial

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Label, Static

from cinch.errors import CinchError
from cinch.table import Pending, Table
from cinch.table.duplicate import BoardNarrator, DuplicateSession, standings_lines, traveller_lines
from cinch.tui.app import CinchApp, TableScreen
from cinch.tui.game import TableSetup
from cinch.tui.panels import TableLook
from cinch.tui.screens import Dialog, Settings
from cinch.tui.widgets import EventLog
from cinch.view import SeatView

NO_HINTS = "No hints in duplicate: the board is your own play. Its traveller shows every table's par."
NO_UNDO = "No take-backs in duplicate: every table plays the board once."
NOT_OFFERED = ("hint", "undo", "new_match")


class TravellerScreen(Dialog):
    """A board's traveller: your table's settlement, every result on the board with its matchpoints, the hands;
    after the last board, the ranking.  Enter goes on (dismissed with ``"next"``)."""

    BINDINGS = [
        Binding("enter", "next", "Next board"),
        Binding("space", "next", "Next board", show=False),
        Binding("q", "app.quit", "Quit"),
    ]
    DEFAULT_CSS = """
    TravellerScreen #traveller { width: 78; }
    """

    def __init__(self, board: int, boards: int, head: str, *, last: bool) -> None:
        super().__init__()
        self.board = board
        self.boards = boards
        self.head = head
        self.last = last
        self.body = f"{head}\nThe robot table is playing board {board}..."

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="traveller"):
            yield Label(f"Board {self.board} of {self.boards}: the traveller", classes="title")
            with VerticalScroll():
                yield Static(Text(self.body), id="traveller-body")
            keys = "Enter: the end of the set" if self.last else f"Enter: board {self.board + 1}"
            yield Static(f"{keys}   ↑/↓: scroll   q: quit (the set is kept)", classes="keys")

    def show(self, text: str) -> None:
        self.body = f"{self.head}\n{text}"
        if self.is_mounted:
            self.query_one("#traveller-body", Static).update(Text(self.body))

    def action_next(self) -> None:
        self.dismiss("next")

    def action_close(self) -> None:
        self.dismiss("next")


@dataclass(frozen=True)
class BoardLook(TableLook):
    """The table's look for a board of a set: the line on top names the set and the board, not a match's score."""

    board: int = 1
    boards: int = 1
    set_name: str = ""

    def topbar(self, view: SeatView) -> tuple[list[Text], Text]:
        board = f"{view.rules.name} · board {self.board} of {self.boards}"
        dealer = f" · dealer {view.dealer}"
        forms = [Text("Cinch duplicate ", style="bold") + Text(f"{board} · set '{self.set_name}'{dealer}"),
                 Text(board + dealer), Text(board)]
        return forms, Text(" · no hints, no take-backs")


class DuplicateTableScreen(TableScreen):
    """The card table playing a session's boards one after the other."""

    # (hints, take-backs and a new match are not offered: their keys only say so, off the footer)
    BINDINGS = [dataclasses.replace(b, show=False) if isinstance(b, Binding) and b.action in NOT_OFFERED else b
                for b in TableScreen.BINDINGS]

    def __init__(self, session: DuplicateSession) -> None:
        super().__init__()
        self.session = session
        self.robots_running: set[int] = set()
        self.waiting: dict[int, TravellerScreen] = {}  # a traveller shown before its robot table was done
        self._told: Table | None = None  # the game whose board the log has introduced
        self.board_shown: int | None = None  # the board at the table (the session moves on once it is over)

    # ---- the boards --------------------------------------------------------------------------------------------
    def begin(self) -> None:
        self.play_board()

    def play_board(self) -> None:
        board = self.session.board
        if board is None:
            self.app.exit()
            return
        self._start_robots(board)
        self.board_shown = board
        self.start_game(self.session.table())

    def narrate(self) -> None:
        game = self.game
        if game is not None and self._told is not game:  # a new board: its own words, not a match's
            self._told = game
            board = self.board_shown or 0
            self.narrator = BoardNarrator(self.seat, board, self.session.deal_set.deals)
            log = self.query_one(EventLog)
            log.clear()
            s = self.session.deal_set
            log.write(f"Duplicate Cinch, {s.rules.name} rules: set '{s.name}', board {board} of {s.deals}. You sit S;"
                      f" N, E and W are played by the {s.bots} bot. No hints, no take-backs.")
        super().narrate()

    def advance(self) -> None:
        game = self.game
        if game is not None and self.board_shown is not None and self.board_shown == self.session.board \
                and game.pending() is Pending.MATCH_OVER:
            self.show_deal_over()  # a board whose deal ended just before the set stopped: scored now
            return
        super().advance()

    def show_deal_over(self) -> None:
        game = self.game
        assert game is not None
        summary = game.last_summary
        assert summary is not None
        game.acknowledge()
        self.decision.stop()
        board = self.session.board
        assert board is not None
        try:
            self.session.finish(game)
        except CinchError as e:
            self.say(f"Board {board} could not be scored: {e}")
            return
        problem = self.session.take_problem()
        if problem:
            self.say(problem)
        screen = TravellerScreen(board, self.session.deal_set.deals, f"Your table: {summary.result.describe()}.",
                                 last=self.session.board is None)
        self.app.push_screen(screen, self._traveller_closed)
        if board in self.robots_running:
            self.waiting[board] = screen
        elif self.session.robot_known(board):
            screen.show(self.traveller_text(board))
        else:  # (the robot table's worker failed: once more, then shown)
            self.waiting[board] = screen
            self._start_robots(board)

    def traveller_text(self, board: int) -> str:
        try:
            lines = traveller_lines(self.session.traveller(board))
        except CinchError as e:
            return f"The traveller cannot be shown: {e}."
        if self.session.board is None:
            lines += ["", *standings_lines(self.session.standings(), self.session.player)]
        return "\n".join(lines)

    def _traveller_closed(self, _: str | None) -> None:
        self.play_board()

    # ---- the robot table, off the UI thread --------------------------------------------------------------------------
    def _start_robots(self, board: int) -> None:
        if board in self.robots_running or self.session.robot_known(board):
            return
        self.robots_running.add(board)
        self.run_worker(partial(self._robots_thread, board), thread=True, group="robots", exit_on_error=False)

    def _robots_thread(self, board: int) -> None:
        error: Exception | None = None
        try:
            self.session.robot(board)
        except Exception as e:  # a broken bot: the traveller says so, the set goes on
            error = e
        with contextlib.suppress(RuntimeError):  # the app has closed
            self.app.call_from_thread(self._robots_done, board, error)

    def _robots_done(self, board: int, error: Exception | None) -> None:
        self.robots_running.discard(board)
        screen = self.waiting.pop(board, None)
        if screen is None or not screen.is_attached:
            return
        screen.show(self.traveller_text(board) if error is None else
                    f"The robot table could not play board {board} ({error}).")

    def look(self) -> TableLook:
        assert self.game is not None
        s = self.session.deal_set
        board = self.board_shown or 1
        return BoardLook(self.seat, self.palette, self.decision, self.game.match, self.thinking, board=board,
                         boards=s.deals, set_name=s.name)

    @property
    def ready(self) -> bool:
        return super().ready and not self.waiting

    # ---- what a duplicate board does not offer -----------------------------------------------------------------------
    def action_hint(self) -> None:
        self.say(NO_HINTS)

    def action_undo(self) -> None:
        self.say(NO_UNDO)

    def action_new_match(self) -> None:
        self.say("One set at a time: q quits (the set is kept), and `cinch duplicate` starts another.")


class DuplicateApp(CinchApp):
    """The Textual table for ``cinch duplicate``."""

    TITLE = "Cinch duplicate"

    def __init__(self, session: DuplicateSession, *, settings: Settings | None = None) -> None:
        settings = settings if settings is not None else Settings()
        settings.hints = False
        settings.undo = False
        super().__init__(TableSetup(session.deal_set.rules), settings=settings, offer_resume=False)
        self.session = session
        self.table = DuplicateTableScreen(session)

    def farewell(self) -> str:
        if self.game is None:
            return ""
        return ("The set is over." if self.session.board is None else "You quit.") + self.session.stopped_words()


def run(session: DuplicateSession, *, settings: Settings | None = None) -> int:
    """Play the session's boards at the table until the set ends or the person quits; the exit status."""
    app = DuplicateApp(session, settings=settings)
    app.run()
    words = app.farewell()
    if words:
        print(words)
    return 0


__all__ = ["DuplicateApp", "DuplicateTableScreen", "TravellerScreen", "run"]
