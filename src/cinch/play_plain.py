"""A whole match at a plain line prompt: the screen-reader and scripting way to play.

Everything here reads and writes plain text streams, so a test (or a script) drives a
match with lines of input and reads the transcript.  The match itself is a
:class:`~cinch.table.Table`; this front end only asks the person for decisions, in
numbered lists and the record notation, and tells the deal from the person's seat
(:mod:`cinch.table.narrate`).

>>> from cinch import Card, Suit
>>> card_text(Card.parse("TH"), Suit.HEARTS), card_text(Card.parse("5D"), Suit.HEARTS), card_text(Card.parse("AS"))
('10♥*', '5♦*', 'A♠')
"""

from __future__ import annotations

import contextlib
import os
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO

from cinch.actions import Action, Bid, Keep, NameTrump, OutOfTurn, Pass, Play, parse_action
from cinch.bots.base import DEFAULT_BOT
from cinch.cards import DECK_SIZE, Card, CardSet, Seat, Suit, fold
from cinch.errors import IllegalAction, NotationError, cut, quoted
from cinch.irregularities import penalty_text
from cinch.keep import KeepOptions
from cinch.rules import Rules
from cinch.table import Pending, Saver, Table, answer_choices
from cinch.table.advice import Hint, cheapest_bury
from cinch.table.narrate import (
    Narrator,
    Trump,
    action_text,
    action_words,
    asked_words,
    card_text,
    cards_text,
    hand_text,
    match_won_words,
    out_of_turn_words,
    result_lines,
    suit_text,
    tables_of,
)
from cinch.table.session import default_seat, seat_at
from cinch.view import Phase, SeatView

if TYPE_CHECKING:
    from cinch.library import Library

MAX_LISTED = 60  # longer lists of legal actions are described, not numbered
MAX_KEEPS_LISTED = 12  # a keep decision with more legal hands lists only the suggestion
WIDTH = 78

COMMANDS = {
    "help": "help", "?": "help", "h?": "help",
    "hand": "hand",
    "score": "score",
    "rules": "rules",
    "tricks": "tricks",
    "hint": "hint",
    "why": "why",
    "list": "list", "choices": "list",
    "quit": "quit", "exit": "quit", "q": "quit",
}
"""Words that are commands at every prompt (never actions)."""

STOPS_COMMANDS = ("stops", "stops on", "stops off")
"""Under the honour rule with 003: whether to stop before the others' turns to let you act out of turn."""

COMMAND_HELP = """\
Commands, at any prompt:
  help    this help, and the input forms for the decision in front of you
  hand    your hand, the contract and the trick on the table
  score   the match score and the target
  rules   the rules of this match in plain words
  tricks  the tricks played so far in this deal
  hint    what the strongest bot would do in your place, and why
  why     the figures behind the last hint
  list    the legal choices again
  quit    stop here (the game record is saved if you gave --save)"""

INPUT_HELP = {
    Phase.BIDDING: "Bid: a number picks from the list; or type 'pass' or 'bid 8' (a bare number is a list choice).",
    Phase.TRUMP: "Trumps: a number from the list; or a suit: 'h', 'hearts', '♥', or 'trump hearts'.",
    Phase.DISCARD: (
        "Keep: press Enter for the suggested hand, or a number from the list, or type the cards to keep:\n"
        "  'keep AH 5D 2C' or just 'AH 5D 2C' (10 may be written T or 10; suits S H D C or ♠ ♥ ♦ ♣)."
    ),
    Phase.PLAY: (
        "Play: a number from the list, or a card: '5h', '10♥', 'play TH'.  On trick 1 with more than six\n"
        "  cards, bury the excess under it: 'play 5H bury 3C 4C' (or '5h bury 3c 4c')."
    ),
}
INPUT_HELP[Phase.ROB] = INPUT_HELP[Phase.DISCARD]

HONOUR_HELP = """\
Under the honour rule (this match lets a player break a rule, as at a real table):
  play 7C!   or  revoke 7C   play a card that does not follow suit, on purpose: a revoke
  claim revoke, claim bid, claim lead [trumps|no-trumps]   when you are asked about an irregularity
  waive      let it stand, unpunished
  claim misdeal   on your turn before the first call: the deal is void
  Under 003, before another player acts where you could act out of turn, you are asked first:
  Enter lets him act; 'bid 8' bids out of turn, a card ('7c') leads or plays it out of turn
  stops off, stops on   end these questions (the others then act at once), or ask them again"""
"""Shown by ``help`` when the match is played under the honour rule."""

OUT_OF_TURN_HELP = """\
Another player is to act, and the honour rule (003) lets you act before him, on purpose:
  Enter       let him act (the usual answer)
  bid 8       a bid out of turn: void, and if claimed your side may not bid again this deal
  7c          a card led or played out of turn (it must follow suit): if claimed it is taken back
  stops off   no more of these questions this match (stops on, at any of your prompts, asks again)
  hand, score, rules, tricks, quit   as at every prompt"""
"""Shown by ``help`` at the out-of-turn prompt."""



# ---- listing -------------------------------------------------------------------------------------
def numbered(items: Sequence[str], width: int = WIDTH) -> list[str]:
    """``1) pass   2) bid 8 ...`` wrapped to the width."""
    entries = [f"{i}) {text}".replace(" ", "\u00a0") for i, text in enumerate(items, start=1)]
    lines = textwrap.wrap("   ".join(entries), width=width, initial_indent="  ", subsequent_indent="  ",
                          break_on_hyphens=False, break_long_words=False)
    return [line.replace("\u00a0", " ") for line in lines]


def encodes_symbols(stream: TextIO) -> bool:
    """Whether the stream can write the suit symbols (else cards are written ``TH``)."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        "♠♥♦♣".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


# ---- reading the player's input ---------------------------------------------------------------------
@dataclass(frozen=True)
class Command:
    name: str


@dataclass(frozen=True)
class Choice:
    action: Action
    irregular: bool = False  # meant against the rules (a revoke under the honour rule): 'play 7C!'


@dataclass(frozen=True)
class Problem:
    message: str


Reading = Command | Choice | Problem


def interpret(text: str, view: SeatView, listed: Sequence[Action], default: Action | None) -> Reading:
    """What one line of input means at this decision (nothing is applied here).

    Numbers pick from ``listed``; ``default`` is what Enter alone takes (or None).
    """
    t = text.strip()
    if not t:
        if default is not None:
            return Choice(default)
        return Problem(f"Type a number from 1 to {len(listed)}, or help." if listed else "Type a choice, or help.")
    low = t.lower()
    name = command_name(t)
    if name is not None:
        return Command(name)
    if low.startswith("revoke ") or (t.endswith("!") and len(t) > 1):
        # A card played on purpose against the follow rule (honour rule): 'revoke 7C', 'play 7C!', '7c!'.
        rest = t[len("revoke "):] if low.startswith("revoke ") else t[:-1]
        reading = interpret(rest, view, listed, None)
        if isinstance(reading, Choice) and isinstance(reading.action, Play):
            return Choice(reading.action, irregular=True)
        return reading if isinstance(reading, Problem) else Problem(f"{quoted(t)}: only a card is played as a revoke, "
                                                                   "as 'play 7C!' or 'revoke 7C'.")
    if t.isdigit():
        n = int(t) if len(t) <= 9 else 0  # no list is that long, and int() refuses thousands of digits
        if not listed:
            return Problem(f"There is no numbered list here; {_forms(view.phase)}")
        if not 1 <= n <= len(listed):
            return Problem(f"There is no choice {cut(t)}: pick a number from 1 to {len(listed)}.")
        return Choice(listed[n - 1])
    words = t.split()
    verb = words[0].lower()
    try:
        if verb in ("pass", "bid", "trump", "keep", "play", "claim", "waive"):
            return Choice(parse_action(t))
        phase = view.phase
        if phase is Phase.TRUMP and len(words) == 1:
            return Choice(NameTrump(Suit.parse(t)))
        if phase is Phase.PLAY:
            Card.parse(words[0])  # a bare card, perhaps with 'bury ...'
            return Choice(parse_action("play " + t))
        if phase in (Phase.DISCARD, Phase.ROB):  # (two decks: a card named twice keeps both copies)
            return Choice(Keep(CardSet.parse(t, decks=view.rules.decks)))
    except NotationError as e:
        return Problem(f"{e}.")
    return Problem(f"{quoted(t)} is not understood here; {_forms(view.phase)} Type help for more.")


def command_name(text: str) -> str | None:
    """The command a line names (``help``, ``stops off`` ...), or None when it is no command.

    >>> command_name(" ? "), command_name("Stops  OFF"), command_name("pass")
    ('help', 'stops off', None)
    """
    low = " ".join(text.lower().split())
    if low in COMMANDS:
        return COMMANDS[low]
    return low if low in STOPS_COMMANDS else None


def stops_possible(rules: Rules) -> bool:
    """Whether this match lets a player act out of turn: the honour rule with 003's rulings."""
    return rules.honour_rule and penalty_text(rules) == "003"


def _forms(phase: Phase) -> str:
    return {
        Phase.BIDDING: "type a number from the list, 'pass' or 'bid N'.",
        Phase.TRUMP: "type a number from the list or a suit, as 'hearts' or 'h'.",
        Phase.DISCARD: "press Enter for the suggestion, or type the cards to keep.",
        Phase.ROB: "press Enter for the suggestion, or type the cards to keep.",
        Phase.PLAY: "type a number from the list or a card, as '10h'.",
    }.get(phase, "type help.")


def illegal_text(action: Action, error: IllegalAction, examples: Sequence[Action] = ()) -> str:
    """The one-line reason an action was refused: ``5H is illegal: a trump was led ...``.

    A bare card where a bury is due gets an example from ``examples`` (the listed choices).
    """
    shown = str(action.card) if isinstance(action, Play) and not action.bury else str(action)
    text = f"{shown} is illegal: {error.rule}."
    if isinstance(action, Play) and not action.bury:
        example = next((a for a in examples if isinstance(a, Play) and a.card == action.card and a.bury), None)
        if example is not None:
            text += f" For example: {example}"
    return text


def _doing(view: SeatView) -> str:
    """What the player to act is about to do, in a word: ``bid``, ``lead`` or ``play``."""
    if view.phase is Phase.BIDDING:
        return "bid"
    return "play" if view.current_trick else "lead"


def _tables(view: SeatView) -> Trump | None:
    """The trump tables of the view's deal (the bowers' under all-hands Pedro), once trumps are named."""
    return None if view.trump is None else view.rules.trump_tables[view.trump]


def play_choices(legal: Sequence[Action], trump: Trump, suggestion: Action | None = None) -> list[Play]:
    """The plays to number, trumps first.  With a bury due (trick 1, buried-excess rule) there can be
    hundreds of legal plays: list one per card, burying the cheapest cards (the suggestion's bury for its
    card); any other bury may still be typed in full."""
    t = tables_of(trump)
    plays = [a for a in legal if isinstance(a, Play)]
    if any(p.bury for p in plays):
        plays = list(cheapest_bury(plays, trump, prefer=suggestion).values())
    return sorted(plays, key=lambda a: t.sort_key(a.card))


def keeps_as_read(options: KeepOptions) -> list[Keep]:
    """The legal keeps, one per hand as it reads (with two decks :class:`KeepOptions` lists a card held
    twice once per number of copies kept, never once per copy)."""
    return list(options)


def hands_count(options: KeepOptions) -> int:
    """How many different hands a keep may leave, as they read: with two decks a card held once and
    its twin in the stock make one hand, not two.

    >>> pool = int(CardSet.parse("AH AH KH", decks=2))
    >>> hands_count(KeepOptions(pool=pool, must=0, trumps=0, lo=2, hi=2))  # AH AH, AH KH (either copy of AH)
    2
    """
    return len(options)


# ---- the game loop ----------------------------------------------------------------------------------
class Stop(Exception):
    """The player quit, or the input ended."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why


class PlainGame:
    """A match at a line prompt: one person's seat at a :class:`~cinch.table.Table`, bots in the others.

    ``inp`` and ``out`` are text streams.  :meth:`run` returns ``"over"``, ``"quit"`` or
    ``"eof"``; a KeyboardInterrupt passes through (every action before it is saved).
    ``stops``: under the honour rule with 003, ask before each other player's bid, lead or play
    whether you act out of turn first (``stops off`` at a prompt turns it off).
    """

    def __init__(self, table: Table, seat: Seat, *, inp: TextIO, out: TextIO, echo: bool | None = None,
                 symbols: bool | None = None, intro: Sequence[str] = (), stops: bool = True):
        self.table = table
        self.seat = seat
        if table.people != (self.seat,):
            raise ValueError(f"a table for one person at {self.seat}, not {', '.join(map(str, table.people))}")
        self.inp = inp
        self.out = out
        self.echo = (not _isatty(inp)) if echo is None else echo
        self.symbols = encodes_symbols(out) if symbols is None else symbols
        self.intro = list(intro)
        self.narrator = Narrator(self.seat, self.symbols)
        self.hint: Hint | None = None  # the last hint, for `why`
        self.stops = stops
        self._interactive = is_interactive(inp, out)

    @property
    def match(self):
        return self.table.match

    @property
    def saver(self) -> Saver:
        return self.table.saver

    # ---- output -------------------------------------------------------------------------------
    def say(self, *lines: str) -> None:
        for line in lines:
            self.out.write(line + "\n")
        self.out.flush()

    def read(self, prompt: str) -> str:
        """One line of input (without its newline); raises Stop at the end of input."""
        line = read_line(self.inp, self.out, prompt, interactive=self._interactive, echo=self.echo)
        if line is None:
            raise Stop("eof")
        return line

    # ---- the match ------------------------------------------------------------------------------
    def run(self) -> str:
        table = self.table
        self.say(*self.intro)
        try:
            while True:
                pending = table.advance()
                self.tell()
                if pending is Pending.HUMAN:
                    view = table.view(self.seat)
                    assert view is not None  # the person is to act in a deal
                    self.decide(view)
                elif pending is Pending.BOT:
                    if self.stops and table.irregular_actions(self.seat) and self.offer_out_of_turn():
                        continue  # you acted out of turn: the turn has moved (to the seat asked to claim)
                    turn = table.bot_turn()
                    assert turn is not None
                    table.play_bot(turn, *turn.decide())
                elif pending is Pending.DEAL_OVER:
                    self.deal_over()
                    table.acknowledge()
                else:
                    break
        except Stop as stop:
            self.stopped(stop.why)
            return stop.why
        self.match_over()
        return "over"

    def tell(self) -> None:
        lines = self.narrator.update(self.match.view(self.seat)) if self.match.deals else []
        lines += self.table.take_notes()
        if lines:
            self.say(*lines)

    def deal_over(self) -> None:
        summary = self.match.summaries[-1]
        self.say(*result_lines(summary, self.seat, self.match.rules, summary.score, self.symbols))

    def saved_lines(self) -> list[str]:
        """Where the match is kept, as far as the saves succeeded."""
        lines = []
        if self.saver.saved_to:
            lines.append(f"The game record is saved in {self.saver.saved_to}.")
        if self.saver.match_id is not None:
            lines.append(f"The match is match {self.saver.match_id} of your game library (`cinch history`).")
        return lines

    def match_over(self) -> None:
        m = self.match
        winner = m.winner
        assert winner is not None
        self.say("", f"*** {match_won_words(m.table, winner, self.seat, m.score)} ***", *self.saved_lines())

    def stopped(self, why: str) -> None:
        self.say(("You quit." if why == "quit" else "End of input.") + self.saver.stopped_words(self.match))

    # ---- one decision of the human ----------------------------------------------------------------------
    def decide(self, view: SeatView) -> None:
        """Ask until the player gives a legal action, and apply it."""
        self.hint = None
        suggestion = self.table.suggestion(self.seat)
        listed = self.listed(view, suggestion)
        default = suggestion if isinstance(view.legal, KeepOptions) else (
            view.legal[0] if len(view.legal) == 1 else None)
        self.show_decision(view, listed, suggestion)
        prompt = self.prompt(view, listed, default)
        while True:
            reading = interpret(self.read(prompt), view, listed, default)
            if isinstance(reading, Problem):
                self.say(reading.message)
                continue
            if isinstance(reading, Command):
                self.command(reading.name, view, listed, suggestion)
                continue
            action = reading.action
            try:
                self.table.act(self.seat, action, irregular=reading.irregular)
            except IllegalAction as e:
                text = illegal_text(action, e, listed)
                if isinstance(action, Play) and action in self.table.revokes(self.seat):
                    text += f" To play it anyway, type 'play {action.card}!' (or 'revoke {action.card}')."
                self.say(text)
                continue
            return

    # ---- out of turn (honour rule, 003) ------------------------------------------------------------------------
    def offer_out_of_turn(self) -> bool:
        """Before a bot acts where you could act out of turn (003): Enter lets it act; a bid or a card is
        made out of turn once confirmed.  True when you acted (the bot's turn has passed to the claim)."""
        view = self.table.view(self.seat)
        assert view is not None and view.to_act is not None
        other = self.narrator.who(view.to_act)
        doing = _doing(view)
        form = "'bid 8'" if view.phase is Phase.BIDDING else "a card, as '7c'"
        prompt = f"{other} to {doing} — press Enter, or {doing} out of turn ({form}) [help]: "
        while True:
            text = self.read(prompt).strip()
            if not text:
                return False
            if command_name(text) in STOPS_COMMANDS:
                self.switch_stops(command_name(text) or "")
                if not self.stops:
                    return False  # turned off: this player acts at once too
                continue
            action = self.out_of_turn_reading(text, view)
            if action is None:
                continue
            if not self.confirm_out_of_turn(view, action):
                self.say(f"Nothing done out of turn; press Enter to let {other} {doing}.")
                continue
            try:
                self.table.act(self.seat, action)
            except IllegalAction as e:
                self.say(illegal_text(action, e))
                continue
            return True

    def out_of_turn_reading(self, text: str, view: SeatView) -> OutOfTurn | None:
        """The action out of turn that ``text`` names, or None once the line is answered (a command, a problem)."""
        assert view.to_act is not None
        name = command_name(text)
        if name is not None:
            if name == "help":
                self.say(OUT_OF_TURN_HELP)
            elif name in ("hint", "why", "list"):
                self.say(f"It is {self.narrator.who(view.to_act)}'s turn: {name} is for your own decisions.")
            else:
                self.command(name, view, [], Pass())
            return None
        if text.isdigit():
            self.say(f"Type {quoted(f'bid {text}')} to bid out of turn, or press Enter." if view.phase is Phase.BIDDING
                     else "Type the card, as '7c', to play it out of turn, or press Enter.")
            return None
        reading = interpret(text, view, [], None)
        if isinstance(reading, Problem):
            self.say(reading.message)
            return None
        if isinstance(reading, Choice) and isinstance(reading.action, (Bid, Play)) and not reading.irregular:
            return OutOfTurn(self.seat, reading.action)
        self.say(f"{quoted(text)}: out of turn only a bid ('bid 8') or a card ('7c') is made; press Enter to let "
                 f"{self.narrator.who(view.to_act)} act.")
        return None

    def confirm_out_of_turn(self, view: SeatView, action: OutOfTurn) -> bool:
        """Name the irregularity and ask whether it is meant: ``y`` commits it."""
        self.say(out_of_turn_words(view, action.action, self.symbols))
        return self.read("Do it anyway? [y/N]: ").strip().lower() in ("y", "yes")

    def listed(self, view: SeatView, suggestion: Action) -> Sequence[Action]:
        legal = view.legal
        answers = answer_choices(view)
        if answers:  # asked to claim an irregularity, or to waive it (honour rule)
            return answers
        if isinstance(legal, KeepOptions):
            if hands_count(legal) <= MAX_KEEPS_LISTED:
                return keeps_as_read(legal)
            return [suggestion]
        if view.phase is Phase.PLAY and view.trump is not None:
            return play_choices(legal, view.rules.trump_tables[view.trump], suggestion)
        if len(legal) > MAX_LISTED:
            return [suggestion]
        return list(legal)

    def prompt(self, view: SeatView, listed: Sequence[Action], default: Action | None) -> str:
        label = {Phase.BIDDING: "Your bid", Phase.TRUMP: "Name trumps", Phase.DISCARD: "Your discard: keep",
                 Phase.ROB: "Rob the pack: keep", Phase.PLAY: "Your play"}[view.phase]
        if answer_choices(view):
            label = "Claim or waive"
        span = f"1-{len(listed)}" if len(listed) > 1 else "1"
        extra = ", Enter = suggested" if default is not None and isinstance(view.legal, KeepOptions) else (
            ", Enter = the only choice" if default is not None else "")
        return f"{label} [{span}{extra}, help]: "

    def show_decision(self, view: SeatView, listed: Sequence[Action], suggestion: Action) -> None:
        trump = _tables(view)
        bowers = view.rules.bowers
        lines = [""]
        if answer_choices(view):
            offence = asked_words(view, trump, self.symbols)
            lines += [f"You are asked about an irregularity: {offence}", "You may (type 'claim ...' or 'waive'):"]
            lines += numbered([action_words(a) for a in listed])
            self.say(*lines)
            return
        phase = view.phase
        if phase is Phase.BIDDING:
            so_far = ", ".join(f"{s} " + ("pass" if isinstance(a, Pass) else f"bid {a.amount}")
                               for s, a in view.auction) or "no bids yet"
            lines.append(f"Your turn to bid ({self.seat}; dealer {view.dealer}). Bidding so far: {so_far}.")
        elif phase is Phase.TRUMP:
            lines.append(f"You won the bidding at {view.bid}: name trumps.")
        elif phase is Phase.DISCARD:
            lines.append("Your discard: say which cards to keep.")
        elif phase is Phase.ROB:
            lines.append("You are the dealer: rob the pack, saying which cards to keep.")
            lines.append(f"The stock: {cards_text(view.stock_seen, trump, self.symbols)}")
        elif phase is Phase.PLAY:
            lines.append(self.trick_line(view))
        lines.append(f"Your hand: {hand_text(view.hand, trump, self.symbols)}")
        legal = view.legal
        if isinstance(legal, KeepOptions):
            lines.append(f"The choice: {legal.describe()} ({hands_count(legal)} possible hands).")
            sugg = suggestion.cards if isinstance(suggestion, Keep) else CardSet(0)
            lines.append(f"Suggested: keep {cards_text(sugg, trump, self.symbols)} (press Enter).")
            if len(listed) > 1:
                lines.append("The hands you may keep:")
                lines += numbered([action_text(a, trump, self.symbols, bowers) for a in listed])
            else:
                lines.append("  1) the suggested hand;  or type the cards to keep, as 'keep AH 5D 2C'.")
            twice = fold(legal.pool & legal.pool >> DECK_SIZE)  # two decks: cards both copies of which may be kept
            if twice:
                card = CardSet(twice & -twice)
                lines.append(f"A card named twice keeps both copies, as 'keep {card} {card} ...'.")
        else:
            bury = next((a.bury for a in listed if isinstance(a, Play) and a.bury), None)
            if bury is not None:
                lines.append(f"You hold {len(view.hand)} cards: play one and bury {len(bury)} under it"
                             " (they go with the trick; point cards may not be buried).")
                lines.append(f"The list buries the cheapest cards; for another choice type it in full,"
                             f" as '{listed[0]}'.")
            elif len(listed) < len(legal):
                lines.append(f"{len(legal)} legal choices, for example {listed[0]}; type one in full.")
            title = {Phase.BIDDING: "You may (a number picks from this list; 'bid 8' bids 8):",
                     Phase.TRUMP: "Trumps:", Phase.PLAY: "You may play:"}[phase]
            lines.append(title + ("  (* = trump)" if trump is not None else ""))
            lines += numbered([action_text(a, trump, self.symbols, bowers) for a in listed])
            revokes = self.table.revokes(self.seat)
            if revokes:
                lines.append(f"Honour rule: another card may be played on purpose as a revoke, as 'play "
                             f"{revokes[0].card}!'.")
        self.say(*lines)

    def trick_line(self, view: SeatView) -> str:
        number = len(view.tricks) + 1
        total = view.rules.tricks
        trump = view.trump
        contract = f"{view.maker} bid {view.bid} in {suit_text(trump, self.symbols)}" if trump is not None else ""
        if not view.current_trick:
            return f"Trick {number} of {total}: your lead.  ({contract})"
        played = ", ".join(f"{p.seat} {card_text(p.card, _tables(view), self.symbols)}" for p in view.current_trick)
        return f"Trick {number} of {total}: {played}; your turn.  ({contract})"

    def switch_stops(self, name: str) -> None:
        """``stops on`` / ``stops off`` / ``stops``: turn the out-of-turn questions on or off, or tell which."""
        if not stops_possible(self.table.rules):
            self.say("There is nothing to stop for: acting out of turn needs the honour rule with 003's rulings "
                     "(-o honour_rule=true -o irregularities=003).")
            return
        if name != "stops":
            self.stops = name == "stops on"
        self.say(stops_words(self.stops))

    # ---- commands -------------------------------------------------------------------------------------
    def command(self, name: str, view: SeatView, listed: Sequence[Action], suggestion: Action) -> None:
        trump = _tables(view)
        if name == "quit":
            raise Stop("quit")
        if name in STOPS_COMMANDS:
            self.switch_stops(name)
        elif name == "help":
            self.say(INPUT_HELP.get(view.phase, ""), COMMAND_HELP)
            if view.rules.honour_rule:
                self.say(HONOUR_HELP)
        elif name == "hand":
            partner = f", partner {self.seat.partner}" if self.table.rules.seating.partnership else ""
            lines = [f"Your hand ({self.seat}{partner}; dealer {view.dealer}):"
                     f" {hand_text(view.hand, trump, self.symbols)}"]
            if trump is not None and view.maker is not None:
                lines.append(self.narrator.contract(view))
            if view.phase is Phase.PLAY:
                lines.append(self.trick_line(view))
            self.say(*lines)
        elif name == "score":
            score = view.score or self.match.score
            table = self.table.rules.seating
            self.say(f"Score: {table.score_text(score)}; target {view.target}; this is deal {view.deal_number}."
                     f" You are {self.seat.team}."
                     + (" Bidder goes out applies this deal." if view.bidder_goes_out else ""))
        elif name == "rules":
            self.say(f"Rules: {view.rules.name}", *(f"  - {line}" for line in view.rules.describe()))
        elif name == "tricks":
            if not view.tricks:
                self.say("No trick is finished yet in this deal.")
            for number, t in enumerate(view.tricks, start=1):
                cards = ", ".join(f"{p.seat} {card_text(p.card, trump, self.symbols)}" for p in t.plays)
                self.say(f"Trick {number}: {cards}; won by {self.narrator.who(t.winner)}.")
        elif name == "hint":
            hint = self.hint = self.table.hint(self.seat)
            text = f"The {hint.bot} bot would choose: {action_text(hint.action, trump, self.symbols)}"
            text += f"  (type: {hint.action})."
            if hint.estimate:
                text += f" {hint.estimate[0].upper()}{hint.estimate[1:]}."
            self.say(text + (" Type why for the figures." if hint.detail else ""))
        elif name == "why":
            if self.hint is None or not self.hint.detail:
                self.say("Ask for a hint first; why then shows the figures behind it.")
            else:
                self.say(f"The {self.hint.bot} bot's figures: {self.hint.detail}.")
        elif name == "list":
            self.show_decision(view, listed, suggestion)


def stops_words(stops: bool) -> str:
    """What the out-of-turn stops now do, and how to change them."""
    if stops:
        return ("Out-of-turn stops are on: before each other player's bid, lead or play you are asked whether to act "
                "out of turn first (Enter lets him act); 'stops off' turns them off.")
    return ("Out-of-turn stops are off: the other players act without asking you; 'stops on' asks again before "
            "each of their turns, to let you act out of turn.")


def is_interactive(inp: TextIO, out: TextIO) -> bool:
    """Whether ``inp`` and ``out`` are the terminal's standard input and output (read with input())."""
    return inp is _stdin() and _isatty(inp) and out is _stdout() and _isatty(out)


def read_line(inp: TextIO, out: TextIO, prompt: str, *, interactive: bool, echo: bool) -> str | None:
    """One line typed at ``prompt``, without its newline; None at the end of input (after ending the line).

    ``interactive``: read with input(), with line editing where the platform has it.  Otherwise the
    prompt is written to ``out``, a line read from ``inp`` and, with ``echo``, written back, so that
    a transcript reads as a session.
    """
    if interactive:
        with contextlib.suppress(ImportError):  # line editing for input(), where the platform has it
            import readline  # noqa: F401
        try:
            return input(prompt)
        except EOFError:
            out.write("\n")
            out.flush()
            return None
    out.write(prompt)
    out.flush()
    raw = inp.readline()
    if not raw:
        out.write("\n")
        out.flush()
        return None
    line = raw.rstrip("\r\n")
    if echo:
        out.write(line + "\n")
        out.flush()
    return line


def _isatty(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError):
        return False


def _stdin():
    import sys

    return sys.stdin


def _stdout():
    import sys

    return sys.stdout


def new_game(
    rules: Rules,
    *,
    seat: Seat | None = None,
    bots: str | Mapping[Seat, str] = DEFAULT_BOT,
    seed: int | None = None,
    inp: TextIO,
    out: TextIO,
    save_path: str | os.PathLike[str] | None = None,
    symbols: bool | None = None,
    library: Library | None = None,
    hints: str | None = None,
    stops: bool = True,
) -> PlainGame:
    """A fresh match with ``bots`` in the other seats (one name, or one per seat), deterministic
    for ``seed``.  ``seat`` is the person's: S at four by default, 1 at a cut-throat table.
    ``stops``: see :class:`PlainGame`.

    With a ``library`` the match is stored in it at once and saved after every action.
    """
    seat = default_seat(rules) if seat is None else seat_at(rules, seat)
    saver = Saver(library, save_path=save_path, frontend="plain")
    table = Table.new(rules, people={seat: "you"}, bots=bots, seed=seed, saver=saver, hints=hints)
    intro = [
        f"Cinch, {rules.name} rules: first {'side' if rules.seating.partnership else 'player'} to {rules.target}"
        f" wins.  Seed {table.seed}.",
        _seating_line(seat, table.bot_names),
        "Type help at any prompt for the input forms and commands.",
    ]
    intro += _stops_lines(rules, stops) + _saving_lines(saver)
    return PlainGame(table, seat, inp=inp, out=out, symbols=symbols, intro=intro, stops=stops)


def resume_game(
    library: Library,
    match_id: int,
    *,
    inp: TextIO,
    out: TextIO,
    save_path: str | os.PathLike[str] | None = None,
    symbols: bool | None = None,
    hints: str | None = None,
    stops: bool = True,
) -> PlainGame:
    """A stored match, at the exact action where it stopped, with the same bots in the same seats."""
    from cinch.library import LibraryError

    stored = library.get(match_id)
    if stored.human_seat is None:
        raise LibraryError(f"match {match_id} has no human seat: nothing to resume at a prompt")
    saver = Saver(library, save_path=save_path, frontend="plain")
    table = Table.resume(saver, match_id, hints=hints)
    match = table.match
    seat = stored.human_seat
    rules = match.rules
    deal = match.current
    where = (f"deal {len(match.deals)}, action {len(deal.history) + 1}" if deal is not None
             else f"before deal {len(match.deals) + 1}")
    intro = [
        f"Resuming match {match_id}: {rules.name} rules, first {'side' if match.table.partnership else 'player'}"
        f" to {rules.target} wins; {where}.  Score {match.table.score_text(match.score)}.",
        _seating_line(seat, table.bot_names),
        "Type help at any prompt for the input forms and commands.",
    ]
    intro += _stops_lines(rules, stops) + _saving_lines(saver)
    return PlainGame(table, seat, inp=inp, out=out, symbols=symbols, intro=intro, stops=stops)


def _seating_line(seat: Seat, bots: Mapping[Seat, str]) -> str:
    """``You sit S; your partner N and the opponents W and E are played by the heuristic bot.``

    Cut-throat: ``You are 1, each for himself; 2 and 3 are played by the basic bot.``
    """
    if seat.partner == seat:  # a cut-throat seat: no partner, every other seat an opponent
        others = sorted(bots)
        names = " and ".join(map(str, others)) if len(others) < 3 else (
            ", ".join(map(str, others[:-1])) + f" and {others[-1]}")
        kinds = sorted(set(bots.values()))
        played = f"the {kinds[0]} bot" if len(kinds) == 1 else "the " + ", ".join(
            f"{bots[s]} ({s})" for s in others) + " bots"
        return f"You are {seat}, each for himself; {names} {'is' if len(others) == 1 else 'are'} played by {played}."
    partner, left, right = seat.partner, seat.left, seat.partner.left
    if bots[partner] == bots[left] == bots[right]:
        return (f"You sit {seat}; your partner {partner} and the opponents {left} and {right}"
                f" are played by the {bots[partner]} bot.")
    opponents = (f"the {bots[left]} bot" if bots[left] == bots[right]
                 else f"the {bots[left]} and {bots[right]} bots")
    return (f"You sit {seat}; your partner {partner} is played by the {bots[partner]} bot, the opponents"
            f" {left} and {right} by {opponents}.")


def _stops_lines(rules: Rules, stops: bool) -> list[str]:
    """Under 003's honour rule: that the prompt stops before the others' turns, and how to turn that off."""
    if not stops_possible(rules):
        return []
    return [f"Honour rule (003): you may bid, lead or play out of turn. {stops_words(stops)}"]


def _saving_lines(saver: Saver) -> list[str]:
    lines = []
    if saver.saved_to is not None:
        lines.append(f"The game record is saved to {saver.saved_to} after every move.")
    if saver.match_id is not None:
        lines.append(f"This is match {saver.match_id} of your game library: `cinch resume {saver.match_id}` "
                     "continues it if it stops.")
    return lines


__all__ = [
    "Command", "Choice", "Narrator", "PlainGame", "Problem", "Stop", "action_text", "card_text", "cards_text",
    "hand_text", "interpret", "new_game", "result_lines", "resume_game",
]
