"""A whole match at a plain line prompt: the screen-reader and scripting way to play.

Everything here reads and writes plain text streams, so a test (or a script)
drives a match with lines of input and reads the transcript.  The human is
shown only what their seat may know: :meth:`Match.view` of that seat, plus the
public result of each finished deal (who took which point card, the
settlement, the score).  The computer players get only their own views too.

>>> from cinch import Card, Suit
>>> card_text(Card.parse("TH"), Suit.HEARTS), card_text(Card.parse("5D"), Suit.HEARTS), card_text(Card.parse("AS"))
('10♥*', '5♦*', 'A♠')
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from cinch.actions import Action, Keep, NameTrump, Pass, Play, parse_action
from cinch.bots.base import DEFAULT_BOT, Bot
from cinch.cards import TRUMP_TABLES, Card, CardSet, Seat, Suit
from cinch.constants import HAND, STOCK
from cinch.errors import CinchError, IllegalAction, NotationError
from cinch.keep import KeepOptions
from cinch.match import DealSummary, Match
from cinch.record import dumps, to_record
from cinch.rules import StockOut
from cinch.scoring import PointTable
from cinch.view import Phase, PlayedCard, SeatView
from cinch.words import hand_order, seat_name, team_name

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
    "list": "list", "choices": "list",
    "quit": "quit", "exit": "quit", "q": "quit",
}
"""Words that are commands at every prompt (never actions)."""

COMMAND_HELP = """\
Commands, at any prompt:
  help    this help, and the input forms for the decision in front of you
  hand    your hand, the contract and the trick on the table
  score   the match score and the target
  rules   the rules of this match in plain words
  tricks  the tricks played so far in this deal
  hint    what the heuristic bot would do in your place
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


# ---- formatting ---------------------------------------------------------------------------------
def card_text(card: int, trump: Suit | None = None, symbols: bool = True) -> str:
    """``10♥``, with a ``*`` after a trump once trumps are named."""
    card = Card(card)
    text = card.symbol if symbols else str(card)
    if trump is not None and TRUMP_TABLES[trump].is_trump(card):
        text += "*"
    return text


def cards_text(cards: int, trump: Suit | None = None, symbols: bool = True) -> str:
    items = hand_order(cards, trump)
    return " ".join(card_text(c, trump, symbols) for c in items) if items else "none"


def hand_text(hand: int, trump: Suit | None, symbols: bool = True) -> str:
    """The hand by suit; once trumps are named, a ``trumps:`` group first."""
    hand = CardSet(hand)
    if not hand:
        return "no cards"
    if trump is None:
        groups = []
        for suit in Suit:
            part = hand & suit.mask
            if part:
                groups.append(" ".join(card_text(c, None, symbols) for c in part))
        return ";  ".join(groups)
    t = TRUMP_TABLES[trump]
    trumps = hand & t.trumps
    others = hand - trumps
    text = "trumps: " + (" ".join(card_text(c, None, symbols) for c in hand_order(trumps, trump)) or "none")
    if others:
        groups = []
        for suit in Suit:
            part = others & suit.mask
            if part:
                groups.append(" ".join(card_text(c, None, symbols) for c in part))
        text += ";  others: " + ";  ".join(groups)
    return text


def suit_text(suit: Suit, symbols: bool = True) -> str:
    name = suit.name.lower()
    return f"{name} {suit.symbol}" if symbols else name


def action_text(action: Action, trump: Suit | None, symbols: bool = True) -> str:
    """An action as the list shows it."""
    if isinstance(action, Play):
        text = card_text(action.card, trump, symbols)
        if action.bury:
            text += ", bury " + cards_text(action.bury, trump, symbols)
        return text
    if isinstance(action, Keep):
        return "keep " + cards_text(action.cards, trump, symbols)
    if isinstance(action, NameTrump):
        left = Card.of("5", action.suit.partner)
        return f"{suit_text(action.suit, symbols)} (with {card_text(left, None, symbols)})"
    return str(action)


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


# ---- saving ---------------------------------------------------------------------------------------
def save_record(match: Match, path: str | os.PathLike[str]) -> None:
    """Write the match as a ``cinch/1`` record, atomically (a temporary file, then a rename)."""
    target = Path(path)
    text = dumps(to_record(match))
    directory = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, _file_mode(target))
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _file_mode(target: Path) -> int:
    """The mode the record keeps: the old file's, or what a newly created file would get."""
    try:
        return target.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


# ---- reading the player's input ---------------------------------------------------------------------
@dataclass(frozen=True)
class Command:
    name: str


@dataclass(frozen=True)
class Choice:
    action: Action


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
    if low in COMMANDS:
        return Command(COMMANDS[low])
    if t.isdigit():
        n = int(t)
        if not listed:
            return Problem(f"There is no numbered list here; {_forms(view.phase)}")
        if not 1 <= n <= len(listed):
            return Problem(f"There is no choice {n}: pick a number from 1 to {len(listed)}.")
        return Choice(listed[n - 1])
    words = t.split()
    verb = words[0].lower()
    try:
        if verb in ("pass", "bid", "trump", "keep", "play"):
            return Choice(parse_action(t))
        phase = view.phase
        if phase is Phase.TRUMP and len(words) == 1:
            return Choice(NameTrump(Suit.parse(t)))
        if phase is Phase.PLAY:
            Card.parse(words[0])  # a bare card, perhaps with 'bury ...'
            return Choice(parse_action("play " + t))
        if phase in (Phase.DISCARD, Phase.ROB):
            return Choice(Keep(CardSet.parse(t)))
    except NotationError as e:
        return Problem(f"{e}.")
    return Problem(f"{t!r} is not understood here; {_forms(view.phase)} Type help for more.")


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


def play_choices(legal: Sequence[Action], trump: Suit, suggestion: Action | None = None) -> list[Action]:
    """The plays to number, trumps first.  With a bury due (trick 1, buried-excess rule) there can be
    hundreds of legal plays: list one per card, burying the cheapest cards (the suggestion's bury for its
    card); any other bury may still be typed in full."""
    t = TRUMP_TABLES[trump]
    plays = [a for a in legal if isinstance(a, Play)]
    if not any(p.bury for p in plays):
        return sorted(plays, key=lambda a: t.sort_key(a.card))

    def cheapness(p: Play) -> list[tuple[int, int]]:
        # Bury plain cards before trumps, low before high.
        return sorted(((t.power[c] > 0, t.power[c] or 13 - c % 13) for c in p.bury), reverse=True)

    best: dict[int, Play] = {}
    for p in plays:
        if isinstance(suggestion, Play) and suggestion.card == p.card and suggestion in plays:
            best[p.card] = suggestion
        elif p.card not in best or cheapness(p) < cheapness(best[p.card]):
            best[p.card] = p
    return sorted(best.values(), key=lambda a: t.sort_key(a.card))


# ---- what the table shows ----------------------------------------------------------------------------
class Narrator:
    """Tells what happened since it last looked, from one seat's views only."""

    def __init__(self, seat: Seat, symbols: bool = True):
        self.seat = seat
        self.symbols = symbols
        self.deal_number: int | None = None
        self._reset()

    def _reset(self) -> None:
        self.auction = 0
        self.contract_told = False
        self.own_discards = 0
        self.face_up = [0, 0, 0, 0]
        self.shown = [0, 0, 0, 0]
        self.draws_told = False
        self.rob_told = False
        self.play_told = False
        self.tricks = 0
        self.plays = 0

    def who(self, seat: Seat) -> str:
        return seat_name(seat, self.seat)

    def cards(self, cards: int, trump: Suit | None) -> str:
        return cards_text(cards, trump, self.symbols)

    def update(self, v: SeatView) -> list[str]:
        lines: list[str] = []
        if v.deal_number != self.deal_number:
            self.deal_number = v.deal_number
            self._reset()
            lines += self.deal_header(v)
        trump = v.trump
        for seat, action in v.auction[self.auction:]:
            lines.append(f"{self.who(seat)} " + ("passes." if isinstance(action, Pass) else f"bids {action.amount}."))
        self.auction = len(v.auction)
        if trump is not None and not self.contract_told and v.maker is not None:
            self.contract_told = True
            left = Card.of("5", trump.partner)
            lines.append(
                f"{self.who(v.maker)} wins the bidding at {v.bid} and names {suit_text(trump, self.symbols)} trumps"
                f" (the left Pedro {card_text(left, None, self.symbols)} is a trump too)."
            )
            lines.append(self.contract(v))
        if trump is not None:
            lines += self.discards(v, trump)
            if not v.rules.no_draw:
                lines += self.draws(v, trump)
        if v.phase in (Phase.PLAY, Phase.DONE) and not self.play_told and v.maker is not None:
            self.play_told = True
            sizes = [n + self._count_played(v, Seat(s)) for s, n in enumerate(v.hand_sizes)]
            if len(set(sizes)) > 1:
                lines.append("Cards held: " + ", ".join(f"{self.who(Seat(s))} {n}" for s, n in enumerate(sizes)))
            lines.append(f"The play: {self.who(v.maker)} leads to trick 1.")
        lines += self.plays_since(v, trump)
        return lines

    def deal_header(self, v: SeatView) -> list[str]:
        score = v.score or (0, 0)
        lines = [
            "",
            f"=== Deal {v.deal_number}: {self.who(v.dealer)} deals.  Score NS {score[0]}, EW {score[1]};"
            f" target {v.target}. ===",
        ]
        if v.bidder_goes_out:
            lines.append("Bidder goes out: makers who make their bid this deal win the match.")
        lo, hi = v.rules.min_bid, v.rules.highest_bid
        lines.append(f"Bidding from {self.who(v.dealer.left)}; the dealer, {self.who(v.dealer)}, bids last."
                     f" Bids {lo} to {hi}.")
        return lines

    def contract(self, v: SeatView) -> str:
        assert v.maker is not None and v.trump is not None
        return (f"Contract: {self.who(v.maker)} for {team_name(v.maker.team, self.seat)}, bid {v.bid},"
                f" trumps {suit_text(v.trump, self.symbols)}.")

    def discards(self, v: SeatView, trump: Suit) -> list[str]:
        lines = []
        new = int(v.own_discards) & ~self.own_discards & ~int(v.shown_trumps[self.seat])
        if new:  # (trumps thrown out are told below, as shown)
            self.own_discards |= new
            lines.append(f"{self.who(self.seat)} throws {self.cards(new, trump)}.")
        for s in Seat:
            up = int(v.face_up_discards[s]) & ~self.face_up[s]
            if up and s != self.seat:
                lines.append(f"{self.who(s)} throws face up: {self.cards(up, trump)}.")
            self.face_up[s] |= up
            shown = int(v.shown_trumps[s]) & ~self.shown[s]
            if shown:
                lines.append(f"{self.who(s)} shows the trumps thrown out (dead): {self.cards(shown, trump)}.")
            self.shown[s] |= shown
        return lines

    def draws(self, v: SeatView, trump: Suit) -> list[str]:
        lines = []
        dealer = v.dealer
        if v.phase in (Phase.ROB, Phase.PLAY, Phase.DONE) and not self.draws_told:
            self.draws_told = True
            order = [dealer.left, dealer.partner, dealer.left.partner]
            counts = ", ".join(f"{self.who(s)} {v.drawn_counts[s]}" for s in order)
            lines.append(f"The draw from the stock: {counts}.")
            if self.seat != dealer:
                mine = v.own_drawn
                lines.append(f"{self.who(self.seat)} drew {self.cards(mine, trump)}." if mine else
                             f"{self.who(self.seat)} drew nothing.")
            drawn = sum(v.drawn_counts[s] for s in order)
            if drawn > STOCK:
                lines.append("The stock ran out: the non-trump discards were shuffled into a new stock.")
            elif v.rules.stock_out is StockOut.SHARE and any(v.hand_sizes[s] < HAND for s in order):
                lines.append("The stock ran out: what was left was shared out one card at a time.")
        if v.phase in (Phase.PLAY, Phase.DONE) and not self.rob_told:
            self.rob_told = True
            taken = v.drawn_counts[dealer]
            lines.append(f"The dealer, {self.who(dealer)}, robs the pack, taking {taken} card{'s' * (taken != 1)}.")
            if self.seat == dealer and v.own_drawn:
                lines.append(f"{self.who(self.seat)} took {self.cards(v.own_drawn, trump)}.")
        return lines

    def plays_since(self, v: SeatView, trump: Suit | None) -> list[str]:
        lines = []
        for number, trick in enumerate(v.tricks[self.tricks:], start=self.tricks + 1):
            lines += self.play_lines(trick.plays, number, trump)
            win = next(p.card for p in trick.plays if p.seat == trick.winner)
            lines.append(f"{self.who(trick.winner)} wins trick {number} with {card_text(win, trump, self.symbols)}.")
            self.tricks += 1
            self.plays = 0
        lines += self.play_lines(v.current_trick, len(v.tricks) + 1, trump)
        return lines

    def play_lines(self, plays: Sequence[PlayedCard], number: int, trump: Suit | None) -> list[str]:
        lines = []
        for i, p in enumerate(plays[self.plays:], start=self.plays):
            card = card_text(p.card, trump, self.symbols)
            text = f"Trick {number}: {self.who(p.seat)} leads {card}" if i == 0 else f"{self.who(p.seat)} plays {card}"
            if p.buried:
                text += f", burying {self.cards(p.buried, trump)}"
            lines.append(text + ".")
        self.plays = len(plays)
        return lines

    @staticmethod
    def _count_played(v: SeatView, seat: Seat) -> int:
        n = 0
        for p in [p for t in v.tricks for p in t.plays] + list(v.current_trick):
            if p.seat == seat:
                n += 1 + len(p.buried)
        return n


def result_lines(summary: DealSummary, me: Seat, rules, score: tuple[int, int], symbols: bool = True) -> list[str]:
    """The end of a deal: who took which point card, the settlement in words, the score."""
    r = summary.result
    lines = [f"Deal {summary.number} is over."]
    if r.thrown_in:
        lines.append(r.describe())
    else:
        assert r.trump is not None and r.points is not None
        lines.append("Point cards:")
        for a in r.awards:
            how = "" if a.how == "captured" else f", {a.how}"
            lines.append(f"  {a.name} {card_text(a.card, r.trump, symbols)}: {a.points} to "
                         f"{team_name(a.team, me)}{how}")
        missing = _unscored(r, rules, symbols)
        if missing:
            lines.append(f"  Not in play, scoring for nobody: {missing}")
        lines.append(f"Points taken: NS {r.points[0]}, EW {r.points[1]}.")
        lines.append(r.describe() + ".")
    lines.append(f"Score: NS {score[0]}, EW {score[1]}; target {rules.target}.")
    return lines


def _unscored(result, rules, symbols: bool) -> str:
    gone = PointTable.of(rules, result.trump).unscored(result.awards)
    return ", ".join(f"{name} {card_text(card, result.trump, symbols)}" for name, card in gone)


# ---- the game loop ----------------------------------------------------------------------------------
class Stop(Exception):
    """The player quit, or the input ended."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why


class PlainGame:
    """A match at a line prompt: one human seat, bots in the others.

    ``inp`` and ``out`` are text streams; ``save`` (if given) is called after
    every action with the match, and so is ``library.save(match_id, match)``
    (the game library, :mod:`cinch.library`).  :meth:`run` returns ``"over"``,
    ``"quit"`` or ``"eof"``; a KeyboardInterrupt passes through (the last save stands).
    """

    def __init__(
        self,
        match: Match,
        seat: Seat,
        bots: Mapping[Seat, Bot],
        *,
        inp: TextIO,
        out: TextIO,
        save: Callable[[Match], None] | None = None,
        save_name: str | None = None,
        echo: bool | None = None,
        symbols: bool | None = None,
        intro: Sequence[str] = (),
        advisor: Bot | None = None,
        library: Library | None = None,
        match_id: int | None = None,
    ):
        from cinch.bots import make_bot

        self.match = match
        self.seat = Seat(seat)
        self.bots = dict(bots)
        missing = [s for s in Seat if s != self.seat and s not in self.bots]
        if missing:
            raise ValueError(f"no bot for {', '.join(map(str, missing))}")
        self.inp = inp
        self.out = out
        self.save = save
        self.save_name = save_name
        self.library = library if match_id is not None else None
        self.match_id = match_id
        self.echo = (not _isatty(inp)) if echo is None else echo
        self.symbols = encodes_symbols(out) if symbols is None else symbols
        self.intro = list(intro)
        self.advisor = advisor or make_bot(DEFAULT_BOT, seed=0)
        self.narrator = Narrator(self.seat, self.symbols)
        self._interactive = inp is _stdin() and _isatty(inp) and out is _stdout() and _isatty(out)

    # ---- output -------------------------------------------------------------------------------
    def say(self, *lines: str) -> None:
        for line in lines:
            self.out.write(line + "\n")
        self.out.flush()

    def read(self, prompt: str) -> str:
        """One line of input (without its newline); raises Stop at the end of input."""
        if self._interactive:
            with contextlib.suppress(ImportError):  # line editing for input(), where the platform has it
                import readline  # noqa: F401
            try:
                return input(prompt)
            except EOFError:
                self.say("")
                raise Stop("eof") from None
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.say("")
            raise Stop("eof")
        line = line.rstrip("\r\n")
        if self.echo:
            self.say(line)
        return line

    def _save(self) -> None:
        if self.save is not None:
            try:
                self.save(self.match)
            except OSError as e:
                self.say(f"Cannot save the game record to {self.save_name or 'the file'}: {e.strerror or e}."
                         " The match goes on unsaved.")
                self.save = None
        if self.library is not None and self.match_id is not None:
            try:
                self.library.save(self.match_id, self.match)
            except CinchError as e:
                self.say(f"Cannot save to the game library: {e}. The match goes on without it.")
                self.library = None

    # ---- the match ------------------------------------------------------------------------------
    def run(self) -> str:
        match = self.match
        self.say(*self.intro)
        try:
            while not match.is_over:
                deal = match.current
                if deal is None:
                    deal = match.start_deal()
                    self._save()
                self.tell()
                while not deal.is_over:
                    seat = deal.to_act
                    if seat is None:  # a deal from a given deck, out of stock: chance orders the new one
                        match.resolve_chance()
                        self._save()
                        self.tell()
                        continue
                    view = match.view(seat)
                    if seat == self.seat:
                        self.decide(view)
                    else:
                        match.apply(self.bots[seat].choose(view), seat)
                    self._save()
                    self.tell()
                self.deal_over()
        except Stop as stop:
            self.stopped(stop.why)
            return stop.why
        self.match_over()
        return "over"

    def tell(self) -> None:
        lines = self.narrator.update(self.match.view(self.seat))
        if lines:
            self.say(*lines)

    def deal_over(self) -> None:
        summary = self.match.summaries[-1]
        self.say(*result_lines(summary, self.seat, self.match.rules, summary.score, self.symbols))

    def match_over(self) -> None:
        m = self.match
        winner = m.winner
        assert winner is not None
        ns, ew = m.score
        mine = winner == self.seat.team
        self.say(
            "",
            f"*** {winner} win the match, NS {ns} to EW {ew}. "
            + (f"You and your partner {self.seat.partner} win!" if mine
               else f"You ({self.seat}) and your partner {self.seat.partner} lose.")
            + " ***",
        )
        if self.save_name:
            self.say(f"The game record is saved in {self.save_name}.")
        if self.library is not None:
            self.say(f"The match is match {self.match_id} of your game library (`cinch history`).")

    def stopped(self, why: str) -> None:
        text = "You quit." if why == "quit" else "End of input."
        deal = self.match.current
        if deal is not None:
            text += f" The match stops in deal {len(self.match.deals)}."
        if self.save_name:
            text += f" The game record is saved in {self.save_name}; `cinch replay {self.save_name}` shows it."
        if self.library is not None:
            text += f" `cinch resume {self.match_id}` continues it."
        self.say(text)

    # ---- one decision of the human ----------------------------------------------------------------------
    def decide(self, view: SeatView) -> None:
        """Ask until the player gives a legal action, and apply it."""
        try:
            suggestion = self.advisor.choose(view)
        except Exception:  # advice only: a failing adviser must not stop the human's match
            suggestion = view.legal[0]
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
                self.match.apply(action, self.seat)
            except IllegalAction as e:
                self.say(illegal_text(action, e, listed))
                continue
            return

    def listed(self, view: SeatView, suggestion: Action) -> list[Action]:
        legal = view.legal
        if isinstance(legal, KeepOptions):
            if len(legal) <= MAX_KEEPS_LISTED:
                return list(legal)
            return [suggestion]
        if view.phase is Phase.PLAY and view.trump is not None:
            return play_choices(legal, view.trump, suggestion)
        if len(legal) > MAX_LISTED:
            return [suggestion]
        return list(legal)

    def prompt(self, view: SeatView, listed: Sequence[Action], default: Action | None) -> str:
        label = {Phase.BIDDING: "Your bid", Phase.TRUMP: "Name trumps", Phase.DISCARD: "Your discard: keep",
                 Phase.ROB: "Rob the pack: keep", Phase.PLAY: "Your play"}[view.phase]
        span = f"1-{len(listed)}" if len(listed) > 1 else "1"
        extra = ", Enter = suggested" if default is not None and isinstance(view.legal, KeepOptions) else (
            ", Enter = the only choice" if default is not None else "")
        return f"{label} [{span}{extra}, help]: "

    def show_decision(self, view: SeatView, listed: Sequence[Action], suggestion: Action) -> None:
        trump = view.trump
        lines = [""]
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
            lines.append(f"The choice: {legal.describe()} ({len(legal)} possible hands).")
            sugg = suggestion.cards if isinstance(suggestion, Keep) else CardSet(0)
            lines.append(f"Suggested: keep {cards_text(sugg, trump, self.symbols)} (press Enter).")
            if len(listed) > 1:
                lines.append("The hands you may keep:")
                lines += numbered([action_text(a, trump, self.symbols) for a in listed])
            else:
                lines.append("  1) the suggested hand;  or type the cards to keep, as 'keep AH 5D 2C'.")
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
            lines += numbered([action_text(a, trump, self.symbols) for a in listed])
        self.say(*lines)

    def trick_line(self, view: SeatView) -> str:
        number = len(view.tricks) + 1
        total = view.rules.tricks
        trump = view.trump
        contract = f"{view.maker} bid {view.bid} in {suit_text(trump, self.symbols)}" if trump is not None else ""
        if not view.current_trick:
            return f"Trick {number} of {total}: your lead.  ({contract})"
        played = ", ".join(f"{p.seat} {card_text(p.card, trump, self.symbols)}" for p in view.current_trick)
        return f"Trick {number} of {total}: {played}; your turn.  ({contract})"

    # ---- commands -------------------------------------------------------------------------------------
    def command(self, name: str, view: SeatView, listed: Sequence[Action], suggestion: Action) -> None:
        trump = view.trump
        if name == "quit":
            raise Stop("quit")
        if name == "help":
            self.say(INPUT_HELP.get(view.phase, ""), COMMAND_HELP)
        elif name == "hand":
            lines = [f"Your hand ({self.seat}, partner {self.seat.partner}; dealer {view.dealer}):"
                     f" {hand_text(view.hand, trump, self.symbols)}"]
            if trump is not None and view.maker is not None:
                lines.append(self.narrator.contract(view))
            if view.phase is Phase.PLAY:
                lines.append(self.trick_line(view))
            self.say(*lines)
        elif name == "score":
            score = view.score or self.match.score
            self.say(f"Score: NS {score[0]}, EW {score[1]}; target {view.target}; this is deal {view.deal_number}."
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
            self.say(f"The basic bot would choose: {action_text(suggestion, trump, self.symbols)}"
                     f"  (type: {suggestion})")
        elif name == "list":
            self.show_decision(view, listed, suggestion)


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
    rules,
    *,
    seat: Seat = Seat.S,
    bots: str = DEFAULT_BOT,
    seed: int | None = None,
    inp: TextIO,
    out: TextIO,
    save_path: str | os.PathLike[str] | None = None,
    symbols: bool | None = None,
    library: Library | None = None,
    frontend: str = "plain",
) -> PlainGame:
    """A fresh match with ``bots`` in the three other seats, deterministic for ``seed``.

    With a ``library`` the match is stored in it at once and saved after every action.
    """
    from cinch.bots import make_bot

    if seed is None:
        import random

        seed = random.SystemRandom().randrange(1_000_000)
    seat = Seat(seat)
    players = {s: ("you" if s == seat else bots) for s in Seat}
    match = Match(rules, players=players, rng=seed)
    robots = {s: make_bot(bots, seed=seed * 10 + 1 + s) for s in Seat if s != seat}
    save = None
    if save_path is not None:
        def save(m: Match, _path=save_path) -> None:
            save_record(m, _path)

    intro = [
        f"Cinch, {rules.name} rules: first side to {rules.target} wins.  Seed {seed}.",
        f"You sit {seat}; your partner {seat.partner} and the opponents {seat.left} and {seat.partner.left}"
        f" are played by the {bots} bot.",
        "Type help at any prompt for the input forms and commands.",
    ]
    if save_path is not None:
        intro.append(f"The game record is saved to {save_path} after every move.")
    match_id = None
    if library is not None:
        match_id = library.new_match(match, human_seat=seat, seed=seed, frontend=frontend, players=players)
        intro.append(f"This is match {match_id} of your game library: `cinch resume {match_id}` continues it"
                     " if it stops.")
    return PlainGame(match, seat, robots, inp=inp, out=out, save=save,
                     save_name=None if save_path is None else str(save_path), symbols=symbols, intro=intro,
                     library=library, match_id=match_id)


def resume_game(
    library: Library,
    match_id: int,
    *,
    inp: TextIO,
    out: TextIO,
    save_path: str | os.PathLike[str] | None = None,
    symbols: bool | None = None,
) -> PlainGame:
    """A stored match, at the exact action where it stopped, with the same bots in the same seats."""
    stored = library.get(match_id)
    if stored.human_seat is None:
        from cinch.library import LibraryError

        raise LibraryError(f"match {match_id} has no human seat: nothing to resume at a prompt")
    match = library.resume(match_id)
    bots = library.resume_bots(match_id, match)
    seat = stored.human_seat
    rules = match.rules
    names = sorted({stored.players[s] for s in bots})
    deal = match.current
    where = (f"deal {len(match.deals)}, action {len(deal.history) + 1}" if deal is not None
             else f"before deal {len(match.deals) + 1}")
    intro = [
        f"Resuming match {match_id}: {rules.name} rules, first side to {rules.target} wins; {where}."
        f"  Score NS {match.score[0]}, EW {match.score[1]}.",
        f"You sit {seat}; your partner {seat.partner} and the opponents {seat.left} and {seat.partner.left}"
        f" are played by the {' and '.join(names)} bot{'s' * (len(names) > 1)}.",
        "Type help at any prompt for the input forms and commands.",
    ]
    save = None
    if save_path is not None:
        def save(m: Match, _path=save_path) -> None:
            save_record(m, _path)

        intro.append(f"The game record is saved to {save_path} after every move.")
    return PlainGame(match, seat, bots, inp=inp, out=out, save=save,
                     save_name=None if save_path is None else str(save_path), symbols=symbols, intro=intro,
                     library=library, match_id=match_id)


__all__ = [
    "Command", "Choice", "Narrator", "PlainGame", "Problem", "Stop", "action_text", "card_text", "cards_text",
    "hand_text", "interpret", "new_game", "result_lines", "resume_game", "save_record",
]
