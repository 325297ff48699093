"""The screens over the table: the end of a deal, rules, keys, tricks, settings, a new match, resume."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Checkbox, Input, Label, OptionList, Select, Static

from cinch.bots import DEFAULT_BOT
from cinch.cards import Card, Seat, Team
from cinch.errors import CinchError, quoted
from cinch.match import DealSummary, Match
from cinch.rules import PRESET_NAMES, Rules
from cinch.scoring import Award, PointTable
from cinch.study.analysis import DealAnalysis, DealSpec, Judgement, Mark, analyze_deal, summarise
from cinch.study.analysis import Settings as AnalysisSettings
from cinch.table.advice import available_bots
from cinch.table.narrate import match_won_words, view_trump
from cinch.table.narrate import seat_name as seat_label
from cinch.table.narrate import team_name as team_label
from cinch.tui.game import TableSetup
from cinch.tui.render import PALETTES, THEME_ORDER, Palette, chip, chips
from cinch.view import SeatView, Trick

PAUSES = (0.0, 0.3, 0.6, 1.0, 1.5)
ANALYSIS_SETTINGS = AnalysisSettings()  # the end-of-deal analysis searches as `cinch analyze` does by default


@dataclass
class Settings:
    """What the settings screen changes (for this session)."""

    hints: bool = True
    par: bool = True
    undo: bool = True
    pause: float = 0.6  # seconds between two bot actions, so a person can follow
    theme: str = "classic"
    stops: bool = False  # honour rule (003): stop before each turn at which you could act out of turn


class Dialog(ModalScreen):
    """A box over the table; Escape closes it."""

    BINDINGS = [Binding("escape", "close", "Close")]

    def action_close(self) -> None:
        self.dismiss(None)


class ConfirmScreen(Dialog):
    """A yes-or-no question over the table (a revoke played on purpose, under the honour rule): y or Enter
    answers yes, n or Escape no."""

    BINDINGS = [Binding("y", "answer(True)", "Yes"), Binding("enter", "answer(True)", "Yes", show=False),
                Binding("n", "answer(False)", "No"), Binding("escape", "answer(False)", "No", show=False)]
    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Vertical { width: 64; height: auto; border: thick $warning; padding: 1 2; background: $panel; }
    """

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.question, id="question")
            yield Static("y: yes, play it    n / Escape: no", id="answer-keys")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class OutOfTurnScreen(Dialog):
    """The bids or the cards you may put forward out of turn (honour rule, 003), under the words that name
    the irregularity: choosing one commits it (Enter, or its number); Escape commits nothing.

    Dismissed with the action chosen, or None.
    """

    BINDINGS = [Binding("escape", "close", "Not now")]
    DEFAULT_CSS = """
    OutOfTurnScreen { align: center middle; }
    OutOfTurnScreen > Vertical { width: 70; height: auto; border: thick $warning; padding: 1 2; background: $panel; }
    OutOfTurnScreen OptionList { height: auto; max-height: 12; }
    """

    def __init__(self, question: str, choices: list[tuple[str, Any]]) -> None:
        super().__init__()
        self.question = question
        self.choices = choices

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.question, id="question")
            yield OptionList(*(f"{i}) {label}" if i <= 9 else label
                               for i, (label, _) in enumerate(self.choices, start=1)), id="choices")
            yield Static("↑/↓ choose, Enter or 1-9: do it out of turn    Escape: nothing", id="answer-keys")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.choices[event.option_index][1])

    def on_key(self, event) -> None:
        if event.character and event.character.isdigit():
            n = int(event.character)
            if 1 <= n <= min(len(self.choices), 9):
                event.stop()
                self.dismiss(self.choices[n - 1][1])


# ---- the end of a deal ------------------------------------------------------------------------------------
def deal_over_text(summary: DealSummary, me: Seat, rules: Rules, palette: Palette, winner: Team | None,
                   final: tuple[int, ...]) -> Text:
    r = summary.result
    out = Text()
    if r.thrown_in or r.points is None:  # a misdeal, or a revoke claimed under 002: the ruling is the settlement
        out.append(r.describe() + "\n")
    else:
        assert r.trump is not None and r.points is not None and r.maker is not None
        out.append(f"{seat_label(r.maker, me)} bid {r.bid} in {r.trump.name.lower()} {r.trump.symbol}.\n")
        out.append("Point cards:\n", style="bold")
        tables = rules.trump_tables[r.trump]  # the stars: the left bower is the trump under all-hands Pedro
        for (name, _, team, how), cards, points in awards_by_line(r.awards):
            out.append(f"  {name:<12}")
            for i, copy in enumerate(cards):  # (two decks: both copies, when one side took both)
                out.append(" " if i else "")
                out.append_text(chip(copy, tables, palette))
            style = f"bold {palette.mine}" if team == me.team else f"bold {palette.theirs}"
            out.append(f"  {points} to ")
            out.append(team_label(team, me), style=style)
            if how != "captured":
                out.append(f", {how}")
            out.append("\n")
        missing = _unscored(summary, rules)
        if missing:
            out.append("  Not in play, scoring for nobody: ")
            for i, (name, card) in enumerate(missing):
                out.append(", " if i else "")
                out.append(f"{name} ")
                out.append_text(chip(card, tables, palette))
            out.append("\n")
        out.append(f"Points taken: {_by_side(rules, r.points, me)}.\n")
        out.append(r.describe() + ".\n", style="bold")
    out.append(f"Score: {_by_side(rules, summary.score, me)}; target {rules.target}.")
    if winner is not None:
        mine = winner == me.team
        words = match_won_words(rules.seating, winner, me, final)
        out.append(f"\n\n*** {words} ***", style=f"bold {palette.mine if mine else palette.theirs}")
    return out


def awards_by_line(awards: Sequence[Award]) -> list[tuple[tuple[str, int, Team, str], list[Card], int]]:
    """The point cards a line each, in the order scored: with two decks, both copies of a card that went
    the same way share a line (their points added), so the end of a deal fits a small terminal.

    >>> jack = Card.parse("JS")
    >>> both = [Award("Jack", jack, Team.NS, 1, "captured"), Award("Jack", jack.twin, Team.NS, 1, "captured")]
    >>> [(key[0], [str(c) for c in cards], points) for key, cards, points in awards_by_line(both)]
    [('Jack', ['JS', 'JS'], 2)]
    """
    lines: dict[tuple[str, int, Team, str], tuple[list[Card], int]] = {}
    for a in awards:
        key = (a.name, a.card.printed, a.team, a.how)
        cards, points = lines.get(key, ([], 0))
        lines[key] = ([*cards, a.card], points + a.points)
    return [(key, cards, points) for key, (cards, points) in lines.items()]


def _by_side(rules: Rules, values: tuple[int, ...], me: Seat) -> str:
    """``NS (you) 8, EW 6``; cut-throat ``1 (you) 4, 2 0, 3 5``."""
    sides = rules.seating.side_list
    return ", ".join(f"{team_label(side, me)} {v}" for side, v in zip(sides, values, strict=True))


def _unscored(summary: DealSummary, rules: Rules) -> list[tuple[str, int]]:
    r = summary.result
    assert r.trump is not None
    return list(PointTable.of(rules, r.trump).unscored(r.awards))


class DealOverScreen(Dialog):
    """Who took which point card, the settlement in words, the new score, the par, and (a) the analysis.

    Given the ``match``, ``a`` judges the deal's decisions in a worker
    thread (the table stays responsive; the figures show when ready), and ``a`` again lists them.
    """

    BINDINGS = [
        Binding("enter", "next", "Next deal"),
        Binding("space", "next", "Next deal", show=False),
        Binding("u", "undo", "Undo"),
        Binding("l", "tricks", "Tricks"),
        Binding("a", "analysis", "Analysis"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, summary: DealSummary, me: Seat, rules: Rules, palette: Palette, *, winner: Team | None,
                 final: tuple[int, ...], can_undo: bool, par: str, view: SeatView | None,
                 match: Match | None = None, analysis_settings: AnalysisSettings | None = None) -> None:
        super().__init__()
        # The deal as the analysis takes it, built now: the match moves on to the next deal meanwhile.
        self.spec = DealSpec.of(match, summary.number - 1) if match is not None else None
        self.analysis_settings = analysis_settings or ANALYSIS_SETTINGS
        self.analysis: DealAnalysis | None = None
        self.analysing = False
        self._closed = False
        self.summary = summary
        self.me = me
        self.rules = rules
        self.palette = palette
        self.winner = winner
        self.final = final
        self.can_undo = can_undo
        self.par_text = par
        self.view = view

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="dealover"):
            over = "The match is over" if self.winner is not None else f"Deal {self.summary.number} is over"
            yield Label(over, classes="title")
            yield Static(deal_over_text(self.summary, self.me, self.rules, self.palette, self.winner, self.final),
                         id="dealover-body")
            yield Static(self.par_text, id="par")
            analysis = Static("", id="analysis")
            analysis.display = False  # until asked for
            yield analysis
            nxt = "Enter: a new match" if self.winner is not None else "Enter: the next deal"
            keys = [nxt, "l: the tricks"] + (["a: analysis"] if self.spec is not None else [])
            keys += (["u: take back your last move"] if self.can_undo else []) + ["q: quit"]
            yield Static("   ".join(keys), classes="keys")

    def set_par(self, text: str) -> None:
        self.par_text = text
        self.query_one("#par", Static).update(text)

    def action_next(self) -> None:
        self.dismiss("next")

    def action_undo(self) -> None:
        if self.can_undo:
            self.dismiss("undo")
        else:
            self.query_one("#par", Static).update(Text("Nothing of yours to take back in this deal."))

    def action_close(self) -> None:
        self.dismiss("next")

    def action_tricks(self) -> None:
        if self.view is not None:
            self.app.push_screen(TricksScreen(self.view, self.me, self.palette))

    # ---- the analysis: judged in a worker thread, shown when ready -------------------------------------------
    def action_analysis(self) -> None:
        if self.spec is None:
            return
        if self.analysis is not None:
            self.app.push_screen(AnalysisScreen(self.analysis, self.me))
            return
        if self.analysing:
            return
        self.analysing = True
        self._show_analysis(Text("Analysis: judging the deal's decisions…"))
        spec, settings = self.spec, self.analysis_settings
        self.run_worker(lambda: self._analysis_thread(spec, settings), thread=True, group="analysis",
                        exit_on_error=False)

    def _analysis_thread(self, spec: DealSpec, settings: AnalysisSettings) -> None:
        def progress(done: int, total: int) -> None:
            self._from_thread(self._show_analysis, Text(f"Analysis: {done} of {total} decisions judged…"))

        try:
            result: DealAnalysis | None = analyze_deal(spec, settings, progress, stop=lambda: self._closed)
        except Exception:  # a bug in a search: the deal-over screen stays usable
            result = None
        if not self._closed:
            self._from_thread(self._analysis_done, result)

    def _from_thread(self, callback, *args) -> None:
        with contextlib.suppress(RuntimeError):  # the app has closed
            self.app.call_from_thread(callback, *args)

    def _analysis_done(self, result: DealAnalysis | None) -> None:
        self.analysing = False
        if result is None:
            self._show_analysis(Text("Analysis: the search failed on this deal."))
            return
        self.analysis = result
        self._show_analysis(analysis_summary(result, self.me, self.palette))

    def _show_analysis(self, text: Text) -> None:
        if not self.is_attached:
            return
        box = self.query_one("#analysis", Static)
        box.display = True
        box.update(text)

    def on_unmount(self) -> None:
        self._closed = True  # a worker still judging stops at its next decision


# ---- the analysis of this deal ----------------------------------------------------------------------------
MARK_WORDS = {Mark.INACCURACY: ("inaccuracy", "inaccuracies"), Mark.MISTAKE: ("mistake", "mistakes"),
              Mark.BLUNDER: ("blunder", "blunders")}


def _marks_words(judgements: list[Judgement]) -> str:
    counts = [(sum(1 for j in judgements if j.mark is m), m) for m in Mark]
    parts = [f"{n} {MARK_WORDS[m][n != 1]}" for n, m in counts if n]
    return ", ".join(parts) if parts else "no inaccuracy, mistake or blunder"


def analysis_summary(analysis: DealAnalysis, me: Seat, palette: Palette) -> Text:
    """The analysis in two lines: your marks, and every seat's accuracy."""
    mine = [j for j in analysis.judgements if j.seat == me]
    out = Text("Analysis: ", style="bold")
    out.append(f"your decisions: {_marks_words(mine)}. Accuracy ")
    seats = rules_seats(analysis, me)
    for i, seat in enumerate(seats):
        summary = summarise(seat, "", analysis.judgements)
        out.append(", " if i else "")
        out.append(seat_label(seat, me), style=f"bold {palette.mine if seat.team == me.team else palette.theirs}")
        out.append(" -" if summary.accuracy is None else f" {summary.accuracy:.0f}%")
    out.append(". a: each decision as judged")
    return out


def rules_seats(analysis: DealAnalysis, me: Seat) -> tuple[Seat, ...]:
    """The seats as the accuracy line names them: you, your partner, then the others clockwise."""
    seats = tuple(sorted({j.seat for j in analysis.judgements} | {me}, key=lambda s: (s - me) % 6))
    if me.partner != me and me.partner in seats:  # at four, the partner right after you
        seats = (me, me.partner, *(s for s in seats if s not in (me, me.partner)))
    return seats


def analysis_text(analysis: DealAnalysis, me: Seat) -> Text:
    """Every judged decision of the deal, the marked ones in colour; another seat's discard keeps its cards hidden."""
    styles = {Mark.INACCURACY: "yellow", Mark.MISTAKE: "dark_orange", Mark.BLUNDER: "bold red"}
    out = Text()
    if not analysis.judgements:
        out.append("No decision of this deal had a choice.")
    for j in analysis.judgements:
        mark = j.mark
        line = j.text(hide_keeps=j.seat != me)
        out.append(("• " if mark is not None else "  ") + line + "\n", style=styles[mark] if mark else "")
    # Cut-throat at three or more, each plays for himself: the loss is his change against the others' average.
    unit = ("the player's own change less the average of the others'" if len(analysis.seats) in (3, 5, 6)
            else "the side's less the other side's")
    out.append(f"\nPoints lost are the deal's points, {unit}, judged by the expert from "
               "the player's own view; the double-dummy values see every hand.", style="italic")
    return out


class AnalysisScreen(Dialog):
    """The deal's decisions as the expert judged them, each with its mark, the better choice and the par."""

    BINDINGS = [Binding("a", "close", "Close"), Binding("enter", "close", "Close", show=False)]

    def __init__(self, analysis: DealAnalysis, me: Seat) -> None:
        super().__init__()
        self.analysis = analysis
        self.me = me

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="analysis-list"):
            judged = self.analysis.judgements
            yield Label(f"Deal {self.analysis.number}: {_marks_words(judged)} in {len(judged)} decisions",
                        classes="title")
            with VerticalScroll():
                yield Static(analysis_text(self.analysis, self.me), id="analysis-body")
            yield Static("Escape or a: back", classes="keys")


# ---- the tricks of this deal --------------------------------------------------------------------------------
def trick_text(number: int, trick: Trick, view: SeatView, me: Seat, palette: Palette) -> Text:
    out = Text(f"Trick {number}, led by {seat_label(trick.leader, me)}: ")
    trump = view_trump(view)  # (the bowers' tables under all-hands Pedro)
    for i, p in enumerate(trick.plays):
        out.append(", " if i else "")
        out.append(f"{p.seat} ")
        out.append_text(chip(p.card, trump, palette))
        if p.buried:
            out.append(" burying ")
            out.append_text(chips(p.buried, trump, palette))
    out.append(f"; won by {seat_label(trick.winner, me)}.")
    return out


class TricksScreen(Dialog):
    """The last trick first, then the earlier ones of this deal."""

    BINDINGS = [Binding("l", "close", "Close"), Binding("enter", "close", "Close", show=False)]

    def __init__(self, view: SeatView, me: Seat, palette: Palette) -> None:
        super().__init__()
        self.view = view
        self.me = me
        self.palette = palette

    def compose(self) -> ComposeResult:
        v = self.view
        with Vertical(classes="dialog", id="tricks"):
            yield Label("The last trick" if v.tricks else "No trick is finished yet", classes="title")
            body = Text()
            for number in range(len(v.tricks), 0, -1):
                body.append_text(trick_text(number, v.tricks[number - 1], v, self.me, self.palette))
                if number == len(v.tricks) and number > 1:
                    body.append("\n\nEarlier tricks:")
                body.append("\n")
            if v.current_trick:
                body.append("On the table now: ")
                for i, p in enumerate(v.current_trick):
                    body.append(", " if i else "")
                    body.append(f"{p.seat} ")
                    body.append_text(chip(p.card, view_trump(v), self.palette))
            with VerticalScroll():
                yield Static(body)
            yield Static("Escape or l: back to the table", classes="keys")


# ---- rules and keys -----------------------------------------------------------------------------------------
class RulesScreen(Dialog):
    """The rules of this match in plain words (Rules.describe())."""

    BINDINGS = [Binding("r", "close", "Close")]

    def __init__(self, rules: Rules) -> None:
        super().__init__()
        self.rules = rules

    def compose(self) -> ComposeResult:
        rules = self.rules
        with Vertical(classes="dialog", id="rules"):
            yield Label(f"Rules: {rules.name} (first to {rules.target})", classes="title")
            body = Text()
            if rules.overrides:
                body.append(f"Changed from the {rules.preset_name} preset: {', '.join(rules.overrides)}.\n",
                            style="italic")
            body.append("\n".join(f"• {line}" for line in rules.describe()))
            with VerticalScroll():
                yield Static(body, id="rules-body")
            yield Static("Escape or r: back to the table", classes="keys")


KEYS = (
    ("Your bid", "type its digits (1 2 for 12), p to pass, ←/→ to move; Enter bids. A bid refused leaves the "
                 "cursor where it was, and Enter then asks again. A click picks, a second click bids."),
    ("Trumps", "s h d c (or ←/→) choose the suit, Enter names it; your hand shows it as trumps meanwhile."),
    ("Discard, rob", "←/→ move, Space keeps or throws the card (or click it), a the suggested hand; Enter "
                     "keeps the hand once it is legal."),
    ("Your card", "←/→ move among the legal cards, digits the card numbered above it (1 2 for card 12 in a "
                  "hand of ten or more), s h d c the next of a suit; Enter plays. A click picks a card, a second "
                  "click plays it."),
    ("Burying", "on trick 1 with more than six cards: after the card, Space marks the cards to bury, Enter "
                "plays, Escape picks another card."),
    ("End of deal", "Enter the next deal, l the tricks, u take back your last move, a analyse the deal."),
    ("Out of turn", "honour rule with 003's rulings: x while another player is to bid, lead or play stops the "
                    "table before he acts and offers your bids or cards out of turn (Enter commits one, Escape "
                    "none); Enter then lets him act. o: the table can stop before every such turn."),
    ("Any time", "? hint, u take back your last move, l last trick, r rules, o settings, t colours, "
                 "n new match, F1 these keys, q quit (the match is saved after every move; the terminal then "
                 "says how to resume it)."),
)


class KeysScreen(Dialog):
    BINDINGS = [Binding("f1", "close", "Close")]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="keys"):
            yield Label("Keys", classes="title")
            body = Text()
            for i, (moment, keys) in enumerate(KEYS):
                body.append("\n" if i else "")
                body.append(f"{moment}: ", style="bold")
                body.append(keys)
            with VerticalScroll():
                yield Static(body, id="keys-body")
            yield Static("Escape or F1: back to the table", classes="keys")


# ---- settings -----------------------------------------------------------------------------------------------
class SettingsScreen(Dialog):
    """Hints, the par, undo, the pause between bot plays, the colours."""

    BINDINGS = [Binding("o", "close", "Close")]

    def __init__(self, settings: Settings) -> None:
        super().__init__()
        self.settings = settings

    def compose(self) -> ComposeResult:
        s = self.settings
        with Vertical(classes="dialog", id="settings-form"):
            yield Label("Settings", classes="title")
            yield Checkbox("Hints: ? asks a strong bot", s.hints, compact=True, id="set-hints", classes="row")
            yield Checkbox("The par at the end of a deal", s.par, compact=True, id="set-par", classes="row")
            yield Checkbox("Undo: u takes back your last move", s.undo, compact=True, id="set-undo", classes="row")
            yield Checkbox("Honour rule (003): stop before each turn you could act out of turn", s.stops,
                           compact=True, id="set-stops", classes="row")
            with Horizontal(classes="row"):
                yield Label("Pause between bot plays", classes="label")
                options = [(f"{p:g} s", p) for p in sorted(set(PAUSES) | {s.pause})]
                yield Select(options, value=s.pause, allow_blank=False, compact=True, id="set-pause")
            with Horizontal(classes="row"):
                yield Label("Colours", classes="label")
                yield Select([(PALETTES[n].label, n) for n in THEME_ORDER], value=s.theme, allow_blank=False,
                             compact=True, id="set-theme")
            yield Static("Tab moves, Space switches, Enter opens a list; Escape or o: back", classes="keys")

    def on_mount(self) -> None:
        self.query_one("#set-hints", Checkbox).focus()

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        name = (event.checkbox.id or "").removeprefix("set-")
        setattr(self.settings, name, event.value)

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.value is Select.NULL:
            return
        if event.select.id == "set-pause":
            self.settings.pause = float(event.value)  # type: ignore[arg-type]
        elif event.select.id == "set-theme":
            self.settings.theme = str(event.value)
            apply = getattr(self.app, "apply_theme", None)
            if apply is not None:
                apply()


# ---- resume -------------------------------------------------------------------------------------------------
class ResumeScreen(Dialog):
    """Offer the unfinished matches of the library: Enter resumes the most recent, n starts a new one.

    Dismissed with the id of the match to resume, or None for a new match.
    """

    BINDINGS = [Binding("enter", "pick(0)", "Resume"), Binding("n", "new", "New match"),
                Binding("escape", "new", "New match", show=False)]

    def __init__(self, entries: list) -> None:
        super().__init__()
        self.entries = entries[:9]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="resume"):
            many = len(self.entries) > 1
            yield Label("Unfinished matches" if many else "An unfinished match", classes="title")
            body = Text()
            for i, e in enumerate(self.entries, start=1):
                when = e.updated.astimezone().strftime("%Y-%m-%d %H:%M") if hasattr(e, "updated") else ""
                seat = f", you sit {e.human_seat}" if getattr(e, "human_seat", None) is not None else ""
                line = f"{e.describe()}{seat}, last played {when}"
                body.append(f"{i}) {line}\n" if many else f"Resume {line}?\n")
            yield Static(body)
            keys = ("Enter: resume the first   1-9: resume that one" if many else "Enter: resume it")
            keys += "   n: a new match (the first is then marked abandoned; `cinch resume ID` still continues it)"
            yield Static(keys, classes="keys")

    def on_key(self, event) -> None:
        if event.character and event.character.isdigit():
            n = int(event.character)
            if 1 <= n <= len(self.entries):
                event.stop()
                self.dismiss(self.entries[n - 1].id)

    def action_pick(self, index: int) -> None:
        self.dismiss(self.entries[index].id)

    def action_new(self) -> None:
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)


# ---- a new match --------------------------------------------------------------------------------------------
class NewMatchScreen(Screen):
    """The preset and its options, your seat, the bot of every other seat, the seed."""

    BINDINGS = [Binding("escape", "cancel", "Back to the table"), Binding("ctrl+s", "start", "Start")]

    def __init__(self, defaults: TableSetup, *, can_cancel: bool, last_seed: int | None = None) -> None:
        super().__init__(id="newmatch")
        self.defaults = defaults
        self.can_cancel = can_cancel
        self.last_seed = last_seed if last_seed is not None else defaults.seed

    def compose(self) -> ComposeResult:
        d = self.defaults
        rules = d.rules
        me = d.seat if rules.seating.partnership else Seat.S  # the form's rows are the four seats' (see setup())
        bots = available_bots()
        overrides = []
        spec = rules.to_json()
        if isinstance(spec, dict):
            overrides = [f"{k}={'none' if v is None else str(v).lower() if isinstance(v, bool) else v}"
                         for k, v in spec.items() if k != "preset"]
        with Vertical(id="newmatch-form"):
            yield Label("A new match", classes="title")
            with Horizontal(classes="row"):
                yield Label("Rules preset", classes="label")
                yield Select([(f"{n} (first to {Rules.preset(n).target})", n) for n in PRESET_NAMES],
                             value=rules.preset_name, allow_blank=False, compact=True, id="nm-preset")
            with Horizontal(classes="row"):
                yield Label("Options KEY=VALUE", classes="label")
                yield Input(" ".join(overrides), placeholder="follow=strict sancho=true (cinch rules lists them)",
                            compact=True, id="nm-options")
            with Horizontal(classes="row"):
                yield Label("Your seat", classes="label")  # (cut-throat, players=N: you are 1; see setup())
                yield Select([(f"{s} ({'NS' if s in (Seat.N, Seat.S) else 'EW'})", s.name) for s in Seat],
                             value=me.name, allow_blank=False, compact=True, id="nm-seat")
            for s in Seat:
                with Horizontal(classes="row"):
                    yield Label(self._bot_label(s, me), classes="label", id=f"nm-label-{s.name}")
                    given = d.bots[s] if s < len(d.bots) else DEFAULT_BOT
                    name = given if given in bots else (DEFAULT_BOT if DEFAULT_BOT in bots else bots[0])
                    choice = Select([(b, b) for b in bots], value=name, allow_blank=False, compact=True,
                                    id=f"nm-bot-{s.name}")
                    choice.display = s != me  # your own seat has no bot
                    yield choice
            with Horizontal(classes="row"):
                yield Label("Seed (blank: random)", classes="label")
                # A new match deals new cards: the last seed is only shown, for a player who wants it again.
                last = f"random (the last match was seed {self.last_seed})" if self.last_seed is not None else "random"
                yield Input("", placeholder=last, compact=True, id="nm-seed")
            yield Static("", id="newmatch-error")
            with Horizontal(id="newmatch-buttons"):
                if self.can_cancel:
                    yield Button("Back", id="nm-cancel", compact=True)
                yield Button("Start", id="nm-start", variant="primary", compact=True)
            yield Static("Tab moves; Enter in a text box or on Start begins; Escape goes back.\n"
                         "With players=2, 3, 5 or 6 (each for himself) you sit at 1 and the bots above take "
                         "seats 2 on, in turn.", classes="keys")

    @staticmethod
    def _bot_label(seat: Seat, me: Seat) -> str:
        if seat == me:
            return f"{seat}: you"
        role = "partner" if seat == me.partner else ("left opponent" if seat == me.left else "right opponent")
        return f"{seat} bot ({role})"

    def on_mount(self) -> None:
        self.query_one("#nm-start", Button).focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "nm-seat" and event.value is not Select.NULL:
            me = Seat.parse(str(event.value))
            for s in Seat:
                self.query_one(f"#nm-label-{s.name}", Label).update(self._bot_label(s, me))
                self.query_one(f"#nm-bot-{s.name}", Select).display = s != me

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_start()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "nm-start":
            self.action_start()
        else:
            self.action_cancel()

    def setup(self) -> TableSetup:
        """The form as a setup; raises CinchError (or ValueError) saying what is wrong."""
        preset = str(self.query_one("#nm-preset", Select).value)
        words = self.query_one("#nm-options", Input).value.replace(",", " ").split()
        rules = Rules.from_text(preset, words)
        seat = Seat.parse(str(self.query_one("#nm-seat", Select).value))
        bots = tuple(str(self.query_one(f"#nm-bot-{s.name}", Select).value) for s in Seat)
        table = rules.seating
        if not table.partnership:
            # The form names the four seats of the partnership game: at a cut-throat table you sit at 1 and
            # the bots chosen for the other three rows take seats 2 to n in turn.
            others = [bots[s] for s in (seat.left, seat.partner, seat.partner.left)]
            chairs = table.seats
            return TableSetup(rules, chairs[0], (others[0], *(others[(i - 1) % 3] for i in range(1, table.players))),
                              self._seed())
        return TableSetup(rules, seat, bots, self._seed())

    def _seed(self) -> int | None:
        seed_text = self.query_one("#nm-seed", Input).value.strip()
        if seed_text and not seed_text.lstrip("-").isdigit():
            raise ValueError(f"the seed must be a whole number, not {quoted(seed_text)}")
        return int(seed_text) if seed_text else None

    def action_start(self) -> None:
        try:
            setup = self.setup()
        except (CinchError, ValueError) as e:
            self.query_one("#newmatch-error", Static).update(Text(str(e)))
            return
        self.dismiss(setup)

    def action_cancel(self) -> None:
        if self.can_cancel:
            self.dismiss(None)
        else:
            self.query_one("#newmatch-error", Static).update("Start a match, or press q to quit.")
