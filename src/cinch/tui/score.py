"""``cinch score`` in the terminal (Textual): the score sheet of a match played with real cards.

One column, so that it fits a phone's terminal as well as a wide one: the score (and the
winner) at the top, the sheet of deals, the rulings in words, and at the bottom the question
with its input line.  The questions and answers are the scorekeeper's dialogue
(:class:`~cinch.table.score_dialogue.ScoreDialogue`), which the plain mode shares; this screen
shows them and draws the sheet.

>>> from cinch import Rules
>>> from cinch.scorekeeper import DealEntry, ScoreSheet
>>> sheet = ScoreSheet(Rules.preset("official"))
>>> _ = sheet.add(DealEntry.of("W", maker="N", bid=6, trump="S", points=(6, 8)))
>>> contract_cell(sheet.deals[0])
'W: N 6♠ made'

At a cut-throat table (``-o players=3``) the sheet has a column for each player, ``1`` to ``n``.
"""

from __future__ import annotations

from rich import box
from rich.padding import Padding
from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Footer, Input, Static

from cinch.cards import Team
from cinch.errors import CinchError
from cinch.scorekeeper import MISDEAL, SettledDeal
from cinch.table.score_dialogue import Quit, ScoreDialogue
from cinch.tui.theme import THEMES
from cinch.tui.widgets import EventLog

CSS = """
Screen { background: $background; color: $foreground; }
#title { height: 1; background: $panel; padding: 0 1; }
#score { height: auto; padding: 0 1; text-style: bold; }
#score.over { color: $accent; }
#sheet-box { height: auto; max-height: 40%; scrollbar-size-vertical: 1; }
#sheet { height: auto; padding: 0 1; }
#log { height: 1fr; min-height: 3; padding: 0 1; background: $background; scrollbar-size-vertical: 1; }
#question { height: auto; padding: 0 1; background: $surface; color: $accent; }
#entry { width: 1fr; height: 1; border: none; padding: 0 1; background: $surface; }
"""

SHOWN_DEALS = 200  # the sheet draws the latest deals; `sheet` in the log lists every one


def contract_cell(deal: SettledDeal) -> str:
    """One deal in a few characters, for a narrow sheet: ``W: N 6♠ made``, ``N: thrown in``."""
    e = deal.entry
    head = f"{e.dealer}: "
    irregularity = e.irregularity
    if irregularity is not None and irregularity.kind == MISDEAL:
        return head + "misdeal"
    if e.maker is None:
        return head + "thrown in"
    trump = e.trump.symbol if e.trump is not None else ""
    what = "made" if deal.made else "set"
    notes = (["revoke"] if irregularity is not None else []) + (["incorrect hand"] if e.incorrect_hands else [])
    if notes:
        what += f" ({', '.join(notes)})"
    return f"{head}{e.maker} {e.bid}{trump} {what}"


class ScoreApp(App):
    """The scorekeeper's screen: ``ScoreApp(dialogue).run()``; typing ``quit`` (or Ctrl+Q) ends it."""

    CSS = CSS
    TITLE = "cinch score"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [
        Binding("f1", "say('help')", "Help"),
        Binding("f2", "say('undo')", "Undo"),
        Binding("f3", "say('sheet')", "Sheet"),
        Binding("ctrl+q", "quit", "Quit"),
    ]

    def __init__(self, dialogue: ScoreDialogue, *, intro: list[str] | None = None) -> None:
        super().__init__()
        self.dialogue = dialogue
        self.intro = list(intro or [])
        for theme in THEMES:
            self.register_theme(theme)

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        yield Static(id="score")
        with VerticalScroll(id="sheet-box"):
            yield Static(id="sheet")
        yield EventLog(id="log", wrap=True, markup=False, max_lines=2000, min_width=10)
        yield Static(id="question")
        yield Input(id="entry", placeholder="an answer, or help")
        yield Footer()

    def on_mount(self) -> None:
        self.theme = "cinch"
        for line in self.intro + self.dialogue.opening():
            self._note(line)
        self.show()
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value
        event.input.value = ""
        self.action_say(text)

    def action_say(self, text: str) -> None:
        """Answer the question (or run a command) as if ``text`` had been typed."""
        self._note(f"> {text}")
        try:
            reply = self.dialogue.answer(text)
        except Quit:
            self.exit()
            return
        except CinchError as e:  # a refusal the dialogue did not word itself: one line, never a traceback
            self._note(str(e))
            return
        for line in reply.lines:
            self._note(line)
        self.show()

    def _note(self, line: str) -> None:
        """Write a line to the log; an indented one keeps its indent on every line it wraps to."""
        body = line.lstrip(" ")
        indent = len(line) - len(body)
        self.query_one(EventLog).write(Padding(Text(body), (0, 0, 0, indent)) if indent else line)

    # ---- drawing -------------------------------------------------------------------------------------------
    def show(self) -> None:
        sheet = self.dialogue.sheet
        rules = sheet.rules
        table = sheet.table
        self.query_one("#title", Static).update(f"Scorekeeper · {rules.name} · first to {rules.target}")
        if table.partnership:
            ns, ew = sheet.score
            score = Text(f"{sheet.side_name(Team.NS)} {ns}  ·  {sheet.side_name(Team.EW)} {ew}")
        else:  # "1: 12  ·  2 (Bo): -7  ·  3: 0"
            score = Text("  ·  ".join(f"{sheet.side_name(side)}: {sheet.score[side]}" for side in table.side_list))
        head = self.query_one("#score", Static)
        winner = sheet.winner
        if winner is not None:
            score.append(f"\n{sheet.side_name(winner)} {'win' if table.partnership else 'wins'} the match!")
        elif sheet.bidder_goes_out_applies():
            score.append("\nBidder goes out applies to this deal.")
        head.set_class(winner is not None, "over")
        head.update(score)
        self.query_one("#sheet", Static).update(self._sheet_table())
        self.query_one("#sheet-box", VerticalScroll).scroll_end(animate=False)
        self.query_one("#question", Static).update(self.dialogue.question())

    def _sheet_table(self) -> Table | Text:
        sheet = self.dialogue.sheet
        deals = sheet.deals
        if not deals:
            return Text("No deal entered yet.", style="dim")
        sides = sheet.table.side_list
        many = len(sides) > 2  # a column for each of three to six players: closer together, to fit a phone
        # As wide as its cells, not the screen: on a wide terminal the scores stay beside their deal.
        table = Table(box=box.SIMPLE_HEAD, padding=(0, 0 if many else 1), pad_edge=False)
        table.add_column("#", justify="right", no_wrap=True)
        table.add_column("Dealer: bid")
        for side in sides:  # NS and EW, or a column for each player
            table.add_column(str(side), justify="right", no_wrap=True, min_width=3 if many else None)
        for deal in deals[-SHOWN_DEALS:]:
            table.add_row(str(deal.number), contract_cell(deal), *(_cell(deal, side, below=many) for side in sides))
        return table


def _cell(deal: SettledDeal, team: Team, *, below: bool = False) -> str:
    """The running score and the deal's change: ``13 (+4)``, or with ``below`` (a column for each of
    three to six players, narrow enough for a phone) the change under the score."""
    change = deal.score_change[team]
    if below:
        return f"{deal.score[team]}" + (f"\n{change:+d}" if change else "")
    return f"{deal.score[team]}" + (f" ({change:+d})" if change else "")
