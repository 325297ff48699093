"""The scorekeeper's questions and answers (``cinch score``), for any front end.

:class:`ScoreDialogue` asks one thing at a time (who deals first, the bidding, trumps, who took
the points), reads one line of answer, and answers in lines of text.  The plain prompt
(:mod:`cinch.score_plain`) prints them; the Textual screen (:mod:`cinch.tui.score`) writes them to
its log and shows the sheet beside.  The rules themselves are
:class:`~cinch.scorekeeper.ScoreSheet`'s; :class:`SheetSaver` keeps the sheet in the game library
(and a record file) after every deal entered or taken back.  It lives in the table layer, under
both front ends, because it saves to the library.

>>> from cinch import Rules
>>> from cinch.scorekeeper import ScoreSheet
>>> talk = ScoreDialogue(ScoreSheet(Rules.preset("pagat")))
>>> talk.question()
'Who deals the first deal? N, E, S or W (Enter: N).'
>>> [talk.answer(line).asked for line in ("W", "N 7", "H")]
[True, True, True]
>>> talk.answer("NS 13 EW 1").lines[:2]
['Deal 1:', '  N bid 7 in hearts: NS took 13, EW 1: made.']
>>> talk.sheet.score_text()
'NS 13, EW 1'

An answer the rules refuse is one line, and the question stands:

>>> talk.answer("E 20").lines
['A bid of 20 is out of range: bids run from 7 to 14 under pagat.']
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from cinch.actions import PASS, Call
from cinch.cards import Seat, Suit, Team
from cinch.errors import NotationError, quoted
from cinch.rules import AllPass, Rules
from cinch.scorekeeper import (
    MISDEAL,
    PENALTY_TEXTS,
    REVOKE,
    DealEntry,
    EntryError,
    IncorrectHand,
    Irregularity,
    ScoreSheet,
    SettledDeal,
    Taker,
    cards_text,
    default_penalty_text,
    every_card_scores,
    honour_refusal,
    parse_calls,
    parse_point_card,
    parse_taker,
    point_cards,
)
from cinch.seating import FOUR, Seating

if TYPE_CHECKING:
    from cinch.library import Library

DEALER, BIDS, TRUMP, POINTS, OVER = "dealer", "bids", "trump", "points", "over"

COMMANDS = {
    "help": "help", "?": "help", "h?": "help",
    "undo": "undo", "back": "back",
    "sheet": "sheet", "score": "sheet",
    "rules": "rules", "cards": "cards",
    "quit": "quit", "exit": "quit", "q": "quit",
}
"""Words that are commands at every question."""

COMMAND_HELP = """\
Commands, at any question:
  help    this help, and the answers the question takes
  undo    take back the last deal entered (a mistyped one), to enter it again
  back    go back one question in the deal being entered
  sheet   every deal so far, with its ruling in one line, and the score
  cards   the point cards of these rules and what each scores
  rules   the rules of this match in plain words
  quit    stop here (every deal entered is already saved)"""


_NOT_A_MAKER = ("p", "pass", "bid", "bids", "revoke", "incorrect", "trump", "misdeal")
"""Words that may come before a number at the bidding without naming a maker: calls, other questions' words."""


class Quit(Exception):
    """The person asked to stop."""


@dataclass
class Reply:
    """What an answer did: lines to show, and whether a new question is now asked."""

    lines: list[str] = field(default_factory=list)
    asked: bool = False
    settled: SettledDeal | None = None


@dataclass
class _Draft:
    """The deal being entered, question by question."""

    dealer: Seat | None = None
    calls: tuple[Call, ...] = ()
    maker: Seat | None = None
    bid: int | None = None
    trump: Suit | None = None
    irregularity: Irregularity | None = None
    incorrect_hands: list[IncorrectHand] = field(default_factory=list)


class SheetSaver:
    """Keeps a score sheet in the game library and, if asked, in a record file, after every change.

    A save that fails says why in a line and loses nothing: the sheet stays in memory and the
    next change saves it all again.
    """

    def __init__(self, library: Library | None = None, save_path: str | os.PathLike[str] | None = None,
                 match_id: int | None = None) -> None:
        self.library = library
        self.save_path = None if save_path is None else Path(save_path)
        self.match_id = match_id

    def start(self, sheet: ScoreSheet) -> list[str]:
        """Store a new sheet in the library (a resumed one is stored already) and write the file."""
        from cinch.library import LibraryError

        if self.library is not None and self.match_id is None:
            try:
                self.match_id = self.library.new_sheet(sheet)
            except LibraryError as e:
                self.library = None
                return [f"The game library cannot keep this match ({e}); the sheet is kept only here."]
        return self._write_file(sheet)

    def save(self, sheet: ScoreSheet) -> list[str]:
        """Save the sheet after a change; lines that say what failed, if anything did."""
        from cinch.library import LibraryError

        problems = []
        if self.library is not None and self.match_id is not None:
            try:
                self.library.save_sheet(self.match_id, sheet)
            except LibraryError as e:
                problems.append(f"Could not save to the game library: {e}. The sheet is kept here; the next deal "
                                "entered saves it all again.")
        return problems + self._write_file(sheet)

    def _write_file(self, sheet: ScoreSheet) -> list[str]:
        if self.save_path is None:
            return []
        from cinch.record import sheet_text

        path = self.save_path
        try:
            # Written whole to a file beside it, then renamed: a crash never leaves half a record.
            fd, tmp = tempfile.mkstemp(prefix=".cinch-", suffix=".json", dir=path.parent if str(path.parent) else ".")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(sheet_text(sheet))
            os.replace(tmp, path)
        except OSError as e:
            with contextlib.suppress(OSError, UnboundLocalError):
                os.unlink(tmp)
            return [f"Could not write {path}: {e.strerror or e}."]
        return []

    def where(self) -> list[str]:
        lines = []
        if self.match_id is not None:
            lines.append(f"This is match {self.match_id} of your game library, saved after every deal: "
                         f"`cinch score --resume {self.match_id}` goes on with it, `cinch replay {self.match_id}` "
                         "shows it.")
        if self.save_path is not None:
            lines.append(f"The record is also written to {self.save_path} after every deal.")
        return lines


class ScoreDialogue:
    """The scorekeeper's questions and answers, one line at a time, for any front end.

    ``on_change`` is called with the sheet after every deal entered or taken back (to save it)
    and returns lines to show (problems), if any.
    """

    def __init__(self, sheet: ScoreSheet, *, on_change: Callable[[ScoreSheet], list[str]] | None = None):
        self.sheet = sheet
        self.on_change = on_change
        self.draft = _Draft()
        self.step = DEALER
        self._begin_deal()

    @property
    def rules(self) -> Rules:
        return self.sheet.rules

    @property
    def table(self) -> Seating:
        return self.sheet.table

    # ---- the question in front of the person ------------------------------------------------------------
    def _begin_deal(self) -> None:
        sheet = self.sheet
        if sheet.is_over:
            self.step = OVER
            return
        dealer = sheet.next_dealer
        self.draft = _Draft(dealer=dealer)
        self.step = DEALER if dealer is None else BIDS

    @property
    def number(self) -> int:
        return len(self.sheet.deals) + 1

    def question(self) -> str:
        """The question now asked, in one line."""
        d = self.draft
        rules = self.rules
        table = self.table
        if self.step == OVER:
            winner = self.sheet.winner
            assert winner is not None
            return (f"The match is over: {self.sheet.side_name(winner)} won. Type undo to take back the last deal, "
                    "sheet to see every deal, or quit.")
        if self.step == DEALER:
            return f"Who deals the first deal? {_or(table.names)} (Enter: {table.names[0]})."
        assert d.dealer is not None
        if self.step == BIDS:
            pass_words = " Enter alone: all passed." if rules.all_pass is AllPass.THROW_IN else ""
            bid = _example_bid(rules)
            maker = f"{d.dealer.left} bid {bid}" if not table.partnership else f"N {bid}"
            return (f"Deal {self.number}, {d.dealer} deals. The bidding from {d.dealer.left}: the calls "
                    f"({_example_calls(rules)}), or the maker and bid ({maker}).{pass_words}")
        if self.step == TRUMP:
            assert d.maker is not None
            side = f" for {d.maker.team}" if table.partnership else ""
            return f"{d.maker} bid {d.bid}{side}. Trumps? S H D C (Enter: leave them out)."
        noted = ([d.irregularity.describe()] if d.irregularity is not None else []) + [
            f"incorrect hand {hand.describe()}" for hand in d.incorrect_hands]
        extra = f" (noted: {'; '.join(noted)})" if noted else ""
        copies = ", a word for each copy" if rules.decks > 1 else ""
        if not table.partnership:
            return (f"Who took the points? Each player's, {_example_points(rules)} ({_in_order(table)}) or "
                    f"{_example_labelled(rules)}, or by card{copies}: 1 high jack, 2 rest.{extra}")
        example = _example_sides(rules)
        cards = "NS high jack jack" if rules.decks > 1 else "NS high jack"
        return f"Who took the points? {example}, or by card{copies}: {cards}, EW rest.{extra}"

    def prompt(self) -> str:
        """A short prompt for the input line."""
        return {DEALER: "First dealer", BIDS: "Bidding", TRUMP: "Trumps", POINTS: "Points",
                OVER: "Match over"}[self.step] + " [help]: "

    def opening(self) -> list[str]:
        """What a front end says before the first question."""
        sheet = self.sheet
        rules = sheet.rules
        table = sheet.table
        first = "first side" if table.partnership else "first player"
        lines = [f"Cinch scorekeeper, {rules.name} rules: {first} to {rules.target} wins. The point cards are "
                 f"{cards_text(rules)}."]
        if not table.partnership:
            lines.append(f"{table.players} players, each for himself, in seats {_and_words(table.names)} clockwise; "
                         "the maker plays alone against all the others." if table.players > 2 else
                         "2 players, each for himself, in seats 1 and 2.")
        if sheet.players and table.partnership:
            lines.append(f"{sheet.side_name(Team.NS)} against {sheet.side_name(Team.EW)}.")
        elif sheet.players:
            lines.append("Players: " + ", ".join(sheet.side_name(side) for side in table.side_list) + ".")
        if sheet.deals:
            lines.append(f"Going on after deal {len(sheet.deals)}: score {sheet.score_text()}.")
        lines.append("Type help at any question for the answers it takes and the commands.")
        return lines

    # ---- answers --------------------------------------------------------------------------------------------
    def answer(self, text: str) -> Reply:
        """Read one line of answer; raises :class:`Quit` on quit."""
        t = text.strip()
        command = COMMANDS.get(t.lower())
        if command is not None:
            return self._command(command)
        try:
            words = t.lower().split()
            if words and words[0] == MISDEAL and self.step in (BIDS, TRUMP, POINTS):
                # Found at any point of the deal: what was entered of it no longer counts.
                dealer = self.draft.dealer
                assert dealer is not None
                return self._enter(DealEntry(dealer, irregularity=Irregularity.misdeal(_text_word(words[1:]))))
            answer: dict[str, Callable[[str], Reply]] = {
                DEALER: self._answer_dealer, BIDS: self._answer_bids, TRUMP: self._answer_trump,
                POINTS: self._answer_points, OVER: self._answer_over}
            return answer[self.step](t)
        except (EntryError, NotationError) as e:
            return Reply([sentence(str(e))])

    def _answer_over(self, text: str) -> Reply:
        return Reply([f"The match is over: {self.sheet.over_words()}. Type undo to take back the last deal, or quit."])

    def _answer_dealer(self, text: str) -> Reply:
        table = self.table
        if text and text.strip().upper() not in table.names:
            raise EntryError(f"{quoted(text)} is not a seat; the first dealer is one of {' '.join(table.names)}")
        self.draft.dealer = table.parse_seat(text) if text else table.seats[0]
        self.step = BIDS
        return Reply(asked=True)

    def _answer_bids(self, text: str) -> Reply:
        d = self.draft
        assert d.dealer is not None
        table = self.table
        low = text.lower()
        words = low.split()
        if words and words[0] in ("ns", "ew") and table.partnership:
            raise EntryError(f"name the maker by seat, as {words[0][0].upper()} {_example_bid(self.rules)} (the side "
                             f"follows from the seat), or give the calls, as {_example_calls(self.rules)}")
        if table.partnership:
            maker_bid = re.fullmatch(r"([nesw])\s*(?:bid\s*|bids\s*)?(\d{1,3})", low)
        else:  # seats are numbers too, so the maker and bid need a word between them: "2 bid 7", "2: 7"
            maker_bid = re.fullmatch(r"(\d)\s*(?:bids?|:)\s*(\d{1,3})", low)
        # The same shape with a word for the maker ("X 7", "north bid 7"; "n bid 7" at seats 1 to n): no seat here.
        between = r"(?:bids?|:)?" if table.partnership else r"(?:bids?|:)"
        named = re.fullmatch(rf"([a-z]+)\s*{between}\s*(\d{{1,3}})", text, re.IGNORECASE)
        if maker_bid is None and named is not None and named[1].lower() not in _NOT_A_MAKER:
            raise EntryError(_not_a_seat(named[1], table))
        if not text and self.rules.all_pass is not AllPass.THROW_IN:
            raise EntryError(f"type the calls or the maker and bid: under {self.rules.name} the dealer is stuck "
                             f"when {table.others_text} pass, so a deal is never thrown in")
        if not text or low in ("all pass", "all passed", "allpass", "thrown in"):
            given = DealEntry(d.dealer, calls=(PASS,) * table.players)
        elif maker_bid:  # only the maker and the bid: no calls
            given = DealEntry(d.dealer, maker=_seat(maker_bid[1], table), bid=int(maker_bid[2]))
        else:
            given = DealEntry(d.dealer, calls=parse_calls(text))
        try:
            entry = self.sheet.contract(given)
        except EntryError as e:
            seat_and_bid = re.fullmatch(r"(\d)\s+(\d{1,3})", low)
            if table.partnership or seat_and_bid is None or seat_and_bid[1] not in table.names:
                raise
            # "2 7" reads as two calls; the person may have meant seat 2 and his bid of 7.
            raise EntryError(f"{e}; for a maker and his bid write '{seat_and_bid[1]} bid {seat_and_bid[2]}'") from None
        if entry.maker is None:
            return self._enter(entry)
        d.calls, d.maker, d.bid = entry.calls, entry.maker, entry.bid
        self.step = TRUMP
        return Reply(asked=True)

    def _answer_trump(self, text: str) -> Reply:
        words = text.split()
        if words and words[0].lower() == "trump" and len(words) == 2:
            text = words[1]
        self.draft.trump = Suit.parse(text) if text else None
        self.step = POINTS
        return Reply(asked=True)

    def _answer_points(self, text: str) -> Reply:
        d = self.draft
        assert d.dealer is not None
        words = text.split()
        if words and words[0].lower() in ("incorrect", REVOKE) and not self.table.partnership:
            raise EntryError(honour_refusal(self.table))
        if words and words[0].lower() == "incorrect":
            hand = parse_incorrect_hand(words[1:])
            if any(h.seat == hand.seat for h in d.incorrect_hands):
                raise EntryError(f"{hand.seat}'s incorrect hand is noted already; 'back' clears the notes")
            d.incorrect_hands.append(hand)
            ruling = hand.ruling(self.rules)
            return Reply([f"Noted: {ruling} Now who took the points?"], asked=True)
        if words and words[0].lower() == REVOKE:
            if len(words) < 2:
                raise EntryError("say who revoked: revoke NS, revoke EW, or a player, as revoke E")
            d.irregularity = Irregularity.revoke(words[1], _text_word(words[2:]))
            text_used = d.irregularity.text or default_penalty_text(self.rules)
            if text_used == "002":  # the deal's points do not count: it is settled now
                return self._enter(self._entry())
            return Reply([f"Noted: a revoke by {words[1].upper()}, with 003's penalty: the offenders score nothing "
                          "and a defender's revoke cannot set the makers. Now who took the points?"], asked=True)
        if not text and not self.table.partnership:
            raise EntryError(f"type each player's points, {_example_points(self.rules)} ({_in_order(self.table)}), "
                             "or who took each point card (1 high jack, 2 rest)")
        if not text:
            raise EntryError(f"type each side's points ({_example_sides(self.rules)}) or who took each point card "
                             "(NS high jack, EW rest)")
        points = parse_points(text, self.rules)
        if points is not None:
            return self._enter(self._entry(points=points))
        return self._enter(self._entry(took=parse_took(text, self.rules)))

    def _entry(self, *, points: tuple[int, ...] | None = None,
               took: tuple[tuple[str, Taker], ...] | None = None) -> DealEntry:
        d = self.draft
        assert d.dealer is not None
        return DealEntry(d.dealer, d.calls, d.maker, d.bid, d.trump, took, points, d.irregularity,
                         tuple(d.incorrect_hands))

    def _enter(self, entry: DealEntry) -> Reply:
        settled = self.sheet.add(entry)
        lines = [f"Deal {settled.number}:"] + [f"  {line}" for line in settled.ruling]
        if settled.winner is not None and not self.table.partnership:
            lines.append(f"*** {self.sheet.final_words(settled.score, settled.winner)}. ***")
        elif settled.winner is not None:
            ns, ew = settled.score
            lines.append(f"*** {self.sheet.side_name(settled.winner)} win the match, {settled.score[settled.winner]} "
                         f"to {settled.score[settled.winner.other]} (NS {ns}, EW {ew}). ***")
        lines += self._changed()
        self._begin_deal()
        return Reply(lines, asked=True, settled=settled)

    def _changed(self) -> list[str]:
        return self.on_change(self.sheet) if self.on_change is not None else []

    # ---- commands -------------------------------------------------------------------------------------------
    def _command(self, name: str) -> Reply:
        if name == "quit":
            raise Quit()
        if name == "help":
            return Reply([self.question(), *self.forms(), COMMAND_HELP])
        if name == "sheet":
            return Reply(self.sheet_lines())
        if name == "cards":
            return Reply(self.cards_lines())
        if name == "rules":
            return Reply([f"Rules: {self.rules.name}", *(f"  - {line}" for line in self.rules.describe())])
        if name == "back":
            return self._back()
        return self._undo()

    def _undo(self) -> Reply:
        sheet = self.sheet
        if not sheet.deals:
            return Reply(["There is no deal to take back yet."])
        dropped = self.step not in (BIDS, DEALER, OVER) or (self.step == BIDS and self.draft.calls)
        removed = sheet.undo()
        lines = [f"Took back deal {removed.number}: {removed.summary()}"]
        if dropped:
            lines.append("The deal you were entering is dropped too.")
        lines += self._changed()
        lines.append(f"Score: {sheet.score_text()}. Enter deal {removed.number} again.")
        self._begin_deal()
        if self.step == DEALER:  # the first deal taken back: its dealer stands ('back' changes him)
            self.draft.dealer, self.step = removed.dealer, BIDS
        return Reply(lines, asked=True)

    def _back(self) -> Reply:
        d = self.draft
        if self.step == POINTS:
            d.trump, d.irregularity, d.incorrect_hands = None, None, []
            self.step = TRUMP
        elif self.step == TRUMP:
            d.calls, d.maker, d.bid = (), None, None
            self.step = BIDS
        elif self.step == BIDS and not self.sheet.deals and self.sheet.first_dealer is None:
            self.step = DEALER
        else:
            return Reply(["Nothing to go back to in this deal; undo takes back the last deal entered."])
        return Reply(asked=True)

    # ---- what the commands show -------------------------------------------------------------------------
    def forms(self) -> list[str]:
        """The answers the current question takes."""
        if self.step == TRUMP:
            return [_TRUMP_FORM]
        if self.step not in (DEALER, BIDS, POINTS):
            return ["Answers: undo, sheet or quit."]
        return self._partnership_forms() if self.table.partnership else self._players_forms()

    def _partnership_forms(self) -> list[str]:
        """:meth:`forms` of the dealer, the bidding and the points at four players in partnerships."""
        rules = self.rules
        if self.step == DEALER:
            return ["Answer: a seat, N E S or W. The deal then passes to the left by itself."]
        if self.step == BIDS:
            return [
                "Answers: the calls in order from the dealer's left, each 'p' (pass) or a number (a bid):",
                f"  'p {_example_bid(rules)} p {_example_bid(rules) + 1}'; or only the maker and the bid: "
                f"'N {_example_bid(rules) + 1}';",
                _all_pass_form(rules),
                f"  'misdeal' when the cards are dealt again ({_misdeal_words(rules)}; 'misdeal 002' or "
                "'misdeal 003' picks the text).",
                f"Bids run from {rules.min_bid} to {rules.highest_bid}.",
            ]
        nobody = _nobody_form(rules)
        return [
            f"Answers: each side's points, '{_example_sides(rules)}' or '{_example_sides(rules, named=False)}' "
            "(NS first)" + (f", or one side's ('NS {_side_points(rules)[0]}'): the other side has the rest."
                            if every_card_scores(rules) else "."),
            "  Or who took each point card: a side (NS, EW) or a player (N E S W), then its cards:",
            f"  'NS high jack game rp, EW {'rest' if rules.decks > 1 else 'low lp'}'; 'rest' stands for every card "
            "not yet named." + nobody,
            *_copies_forms(rules, "NS"),
            _cards_form(rules),
            f"  'revoke EW' (or a player: 'revoke E') when a side revoked ({_revoke_words(rules)}; "
            "'revoke EW 002' or '003' picks the text).",
            f"  'incorrect E +2' (or 'incorrect E 2 too many', 'incorrect N -1') when a hand held too many or "
            f"too few cards ({_incorrect_words(rules)}; '002' or '003' after it picks the text).",
        ]

    def _players_forms(self) -> list[str]:
        """:meth:`forms` of the dealer, the bidding and the points at a cut-throat table: seats 1 to n, each
        player's points."""
        rules, table = self.rules, self.table
        seats = _or(table.names)
        if self.step == DEALER:
            return [f"Answer: a seat, {seats}. The deal then passes to the left by itself."]
        if self.step == BIDS:
            raised = _example_bid(rules) + 1
            return [
                "Answers: the calls in order from the dealer's left, each 'p' (pass) or a number (a bid): "
                f"'{_example_calls(rules)}';",
                f"  or only the maker and the bid, with 'bid' between: '2 bid {raised}' (or '2: {raised}');",
                _all_pass_form(rules),
                f"Bids run from {rules.min_bid} to {rules.highest_bid}.",
            ]
        nobody = _nobody_form(rules)
        return [
            f"Answers: each player's points in seat order, {_example_points(rules)} ({_in_order(table)}),",
            f"  or by seat, {_example_labelled(rules)} (a player left out took nothing).",
            f"  Or who took each point card: a player ({seats}), then his cards: '1 high jack game, 2 rest';",
            "  'rest' stands for every card not yet named." + nobody,
            *_copies_forms(rules, "1"),
            _cards_form(rules),
            "  Misdeals, revokes and incorrect hands are ruled on only at four players in partnerships.",
        ]

    def sheet_lines(self) -> list[str]:
        sheet = self.sheet
        table = sheet.table
        first = "first side" if table.partnership else "first player"
        lines = [f"{sheet.rules.name} rules, {first} to {sheet.rules.target} wins."]
        if not sheet.deals:
            lines.append("No deal entered yet.")
        lines += [d.line() for d in sheet.deals]
        score = sheet.score
        if table.partnership:
            tail = f"Score: {sheet.side_name(Team.NS)} {score[0]}, {sheet.side_name(Team.EW)} {score[1]}."
        else:
            tail = "Score: " + ", ".join(f"{sheet.side_name(side)}: {score[side]}" for side in table.side_list) + "."
        if sheet.winner is not None:
            tail += f" {sheet.winner} won the match."
        elif sheet.next_dealer is not None:
            tail += f" {sheet.next_dealer} deals next."
        if sheet.bidder_goes_out_applies() and not sheet.is_over:
            tail += " Bidder goes out applies to the next deal."
        return lines + [tail]

    def cards_lines(self) -> list[str]:
        rules = self.rules
        lines = [f"The point cards under {rules.name} ({rules.total_points} points in all):"]
        lines += [f"  {c.name}: {c.what}, {c.points}" + (" for each copy (two packs hold two)" if c.copies > 1 else "")
                  for c in point_cards(rules)]
        if every_card_scores(rules):
            who = "a side" if self.table.partnership else "a player"
            lines.append(f"Every trump is in play under these rules, so every point card scores for {who}.")
        return lines


_TRUMP_FORM = "Answer: the trump suit, as S H D C, a symbol, or a name (hearts). Enter alone leaves it out."


def _all_pass_form(rules: Rules) -> str:
    return "  'all pass' when everyone passed" + (" (or Enter alone)." if rules.all_pass is AllPass.THROW_IN
                                                 else " (never under these rules: the dealer is stuck).")


def _nobody_form(rules: Rules) -> str:
    return ("" if every_card_scores(rules) else
            " 'nobody' (or '-') for a card that scored for no one (dead, or left in the stock).")


def _cards_form(rules: Rules) -> str:
    """The point cards' names and short forms, for the help of the points question."""
    return (f"  The cards: {', '.join(c.name for c in point_cards(rules))} (short: h l j g rp lp"
            + (" sancho" if rules.sancho else "") + (" dom" if rules.dom_pedro else "") + ", pedros for both).")


def _copies_forms(rules: Rules, taker: str) -> list[str]:
    """How the cards are named with two packs: a word for each copy (nothing to add with one pack)."""
    if rules.decks == 1:
        return []
    return [f"  Two packs: every point card is there twice, and each word is one copy: '{taker} jack jack' when "
            f"{taker} took both Jacks, 'pedros' is one Right and one Left Pedro; 'rest' takes every copy not yet "
            "named."]


def sentence(text: str) -> str:
    """A message as a sentence: a capital first, a full stop last (a front end's one line of refusal)."""
    text = text[0].upper() + text[1:] if text else text
    return text if text.endswith((".", "!", "?")) else text + "."


def _text_word(words: list[str]) -> str | None:
    if not words:
        return None
    if len(words) > 1 or words[0] not in PENALTY_TEXTS:
        raise EntryError(f"after the irregularity give at most the text whose penalty applies, 002 or 003, not "
                         f"{quoted(' '.join(words))}")
    return words[0]


def parse_incorrect_hand(words: list[str]) -> IncorrectHand:
    """An incorrect hand from the words after ``incorrect``: ``E +2``, ``hand E 2 too many``, ``N -1 003``.

    >>> parse_incorrect_hand("hand e 2 too many".split()), parse_incorrect_hand(["N", "-1", "002"]).describe()
    (IncorrectHand(seat=Seat.E, cards=2, text=None), 'N 1 too few (002)')
    """
    form = "as 'incorrect E +2' (two cards too many) or 'incorrect N -1' (one too few)"
    given = words[1:] if words[:1] and words[0].lower() == "hand" else words
    if not given:
        raise EntryError(f"say whose hand was wrong and by how many cards, {form}")
    if given[0].upper() not in FOUR.names:  # incorrect hands are ruled on only at four
        raise EntryError(f"{_not_a_seat(given[0], FOUR)}; say whose hand was wrong, {form}")
    seat = FOUR.parse_seat(given[0])
    rest = [w.lower() for w in given[1:]]
    if not rest or not re.fullmatch(r"[+-]?\d{1,2}", rest[0]):
        raise EntryError(f"say by how many cards {seat}'s hand was wrong, {form}")
    signed = rest[0].startswith(("+", "-"))
    count = int(rest[0])
    rest = rest[1:]
    if rest[:1] == ["too"]:
        rest = rest[1:]
    if rest and rest[0] in ("many", "few"):
        count = abs(count) if rest[0] == "many" else -abs(count)
        rest = rest[1:]
    elif not signed:
        raise EntryError(f"say whether {seat} held too many or too few, {form}")
    return IncorrectHand.of(seat, count, _text_word(rest))


def _incorrect_words(rules: Rules) -> str:
    if default_penalty_text(rules) == "002":
        return "002 has no ruling on it: the deal is settled as entered"
    return "under 003 too few: play goes on; too many: an opponent draws the excess and it goes back to the pack"


def _misdeal_words(rules: Rules) -> str:
    return ("under 002 the same dealer deals again" if default_penalty_text(rules) == "002"
            else "under 003 the dealer loses the deal")


def _revoke_words(rules: Rules) -> str:
    if default_penalty_text(rules) == "002":
        return "under 002 the other side scores the deal's points and a revoking maker side loses its bid"
    return "under 003 the deal is settled as played, the offenders score nothing, and a defender's revoke " \
           "cannot set the makers"


# ---- words for a table of any size -------------------------------------------------------------------------
def _or(names: tuple[str, ...]) -> str:
    """``N, E, S or W``; ``1, 2 or 3``."""
    return ", ".join(names[:-1]) + " or " + names[-1]


def _and_words(names: tuple[str, ...]) -> str:
    return ", ".join(names[:-1]) + " and " + names[-1]


# An example must be an answer the table takes: two packs hold twice the points, so every number doubles,
# and a bid is one the rules allow (pagat's two-pack bids start at 14).
def _example_bid(rules: Rules) -> int:
    """A bid for an example: 7 where the rules allow it, else their lowest, with room for one above."""
    return min(max(7, rules.min_bid), rules.highest_bid - 1)


def _example_calls(rules: Rules) -> str:
    """A whole auction for an example, one call a player: ``p 7 p p`` at four, ``p 7 p`` at three."""
    return " ".join(["p", str(_example_bid(rules))] + ["p"] * (rules.seating.players - 2))


def _side_points(rules: Rules) -> tuple[int, int]:
    """Each side's points for an example: NS 9, EW 5; NS 18, EW 10 with two packs."""
    return 9 * rules.decks, 5 * rules.decks


def _example_sides(rules: Rules, *, named: bool = True) -> str:
    """Each side's points, for an example: ``NS 9 EW 5`` (``9 5`` unnamed); ``NS 18 EW 10`` with two packs."""
    ns, ew = _side_points(rules)
    return f"NS {ns} EW {ew}" if named else f"{ns} {ew}"


def _example_points(rules: Rules) -> str:
    """Each player's points in seat order, for an example: ``4 0 10``; ``8 0 20`` with two packs."""
    return " ".join(str(p * rules.decks) for p in (4, 0, 10, 0, 0, 0)[:rules.seating.players])


def _example_labelled(rules: Rules) -> str:
    """The same by seat, for an example: ``1:4 3:10``; ``1:8 3:20`` with two packs."""
    return f"1:{4 * rules.decks} {3 if rules.seating.players > 2 else 2}:{10 * rules.decks}"


def _not_a_seat(word: str, table: Seating) -> str:
    """Why ``word`` names no seat, and the seats there are: the same words at every table size."""
    return f"{quoted(word)} is not a seat at this table; the seats are {' '.join(table.names)}"


def _seat(word: str, table: Seating) -> Seat:
    """A seat named as every question names it, by its letter (``N``) or number (``3``) alone."""
    if word.strip().upper() not in table.names:
        raise EntryError(_not_a_seat(word, table))
    return table.parse_seat(word)


def _in_order(table: Seating) -> str:
    """How positional points are read: seat 1 first, then round the table."""
    return "seat 1 first"


# ---- reading points ---------------------------------------------------------------------------------------
def parse_points(text: str, rules: Rules) -> tuple[int, ...] | None:
    """Each side's points from ``NS 9 EW 5``, ``9 5`` (NS first) or, when every card scores, ``NS 9``;
    None when the text is not points (it names cards).  At a cut-throat table each player's points, in
    seat order (``4 0 10``) or by seat (``1:4 3:10``, a player left out took nothing).

    >>> from cinch import Rules
    >>> parse_points("ew 5, ns 9", Rules.preset("pagat")), parse_points("NS 9", Rules.preset("pagat"))
    ((9, 5), (9, 5))
    >>> parse_points("NS high jack", Rules.preset("pagat")) is None
    True
    >>> three = Rules.preset("official").with_options(players=3)
    >>> parse_points("4 0 10", three), parse_points("3:10, 1:4", three), parse_points("1 high 3 rest", three)
    ((4, 0, 10), (4, 0, 10), None)
    """
    table = rules.seating
    if not table.partnership:
        return _players_points(text, rules)
    tokens = re.findall(r"[A-Za-z]+|-?\d+", text)
    if not tokens or not any(t.lstrip("-").isdigit() for t in tokens):
        return None
    if any(len(t.lstrip("-")) > 4 for t in tokens if t.lstrip("-").isdigit()):  # int() refuses thousands of digits
        raise EntryError(f"{quoted(text)}: a side's points are a number of a few digits, as {_example_sides(rules)}")
    if len(tokens) == 2 and all(t.lstrip("-").isdigit() for t in tokens):
        return int(tokens[0]), int(tokens[1])
    pairs: dict[Team, int] = {}
    i = 0
    while i + 1 < len(tokens) and tokens[i].upper() in ("NS", "EW") and tokens[i + 1].lstrip("-").isdigit():
        team = Team[tokens[i].upper()]
        if team in pairs:
            raise EntryError(f"{team} is given twice; give each side's points once, as {_example_sides(rules)}")
        pairs[team] = int(tokens[i + 1])
        i += 2
    if i != len(tokens) or not pairs:
        raise EntryError(f"{quoted(text)} is neither points nor cards; type {_example_sides(rules)} "
                         f"(or {_example_sides(rules, named=False)}), or the cards, as "
                         "NS high jack, EW rest")
    if len(pairs) == 1:
        (team, value), = pairs.items()
        if not every_card_scores(rules):
            raise EntryError(f"give both sides' points, as {_example_sides(rules)}: under {rules.name} a point card "
                             "may score for nobody, so the other side's points do not follow")
        pairs[team.other] = rules.total_points - value
    return pairs[Team.NS], pairs[Team.EW]


def _players_points(text: str, rules: Rules) -> tuple[int, ...] | None:
    """:func:`parse_points` at a cut-throat table (None: the text names cards)."""
    table = rules.seating
    tokens = [t for t in re.split(r"[\s,;]+", text.strip()) if t]
    by_seat = [re.fullmatch(r"(\w+)[:=](-?\d{1,4})", t) for t in tokens]
    if re.search(r"[A-Za-z]", text) and not any(by_seat):  # cards; "n:4" is points given to a seat misnamed
        return None
    form = f"type each player's points in seat order, as {_example_points(rules)}, or by seat, as " \
           f"{_example_labelled(rules)}"
    if all(":" not in t and "=" not in t for t in tokens):
        if len(tokens) != table.players or not all(re.fullmatch(r"-?\d{1,4}", t) for t in tokens):
            raise EntryError(f"{quoted(text)} gives {len(tokens)} numbers for {table.players} players; {form}")
        return tuple(int(t) for t in tokens)
    points = [0] * table.players
    given: set[int] = set()
    for token, m in zip(tokens, by_seat, strict=True):
        if m is None:
            raise EntryError(f"{quoted(token)} is not a seat and its points; {form}")
        seat = _seat(m[1], table)
        if seat in given:
            raise EntryError(f"{seat} is given twice; give each player's points once")
        given.add(seat)
        points[seat] = int(m[2])
    return tuple(points)


_REST = ("rest", "others", "other", "all", "everything")
_BOTH_PEDROS = ("pedros", "pedro", "both")


def _names_cards(word: str) -> bool:
    """Whether ``word`` names point cards (one, both Pedros, or the rest)."""
    if word in _REST or word in _BOTH_PEDROS:
        return True
    try:
        parse_point_card(word)
    except EntryError:
        return False
    return True


def _not_a_taker(word: str, table: Seating) -> str:
    """Why ``word`` takes no cards at this table: no seat (and at four no side either), and which there are."""
    if not table.partnership:
        return _not_a_seat(word, table)
    return (f"{quoted(word)} is not a side or a seat at this table; the sides are NS EW, the seats "
            f"{' '.join(table.names)}")


def parse_took(text: str, rules: Rules) -> tuple[tuple[str, Taker], ...]:
    """Who took each point card, from ``NS high jack game rp, EW rest`` (a taker, then its cards).  With two
    packs each word is one copy (``NS jack jack``: both Jacks), and ``rest`` every copy not yet named.

    >>> from cinch import Rules
    >>> parse_took("EW low pedros; N high - game, S rest", Rules.preset("official"))[:3]
    (('Low', Team.EW), ('Right Pedro', Team.EW), ('Left Pedro', Team.EW))
    >>> two_packs = Rules.preset("pagat").with_options(decks=2)
    >>> [(name, str(who)) for name, who in parse_took("NS jack, EW rest", two_packs)][:3]
    [('Jack', 'NS'), ('High', 'EW'), ('High', 'EW')]
    """
    table = rules.seating
    tokens = [t for t in re.split(r"[\s,;:.]+", text.strip().lower()) if t]
    pairs: list[tuple[str, Taker]] = []
    rest: list[Taker] = []
    taker: Taker = None
    have_taker = False
    i = 0
    while i < len(tokens):
        word = tokens[i]
        if word in ("right", "left", "dom") and i + 1 < len(tokens) and tokens[i + 1] == "pedro":
            word += " pedro"
            i += 1
        i += 1
        try:
            taker = parse_taker(word, table)
            have_taker = True
            continue
        except EntryError:
            if word.isdigit() and not table.partnership:  # a seat number no one sits in
                raise EntryError(_not_a_seat(word, table)) from None
        if not have_taker:
            example = "NS high jack, EW rest" if table.partnership else "1 high jack, 2 rest"
            if not _names_cards(word):  # where the taker stands: a side or a seat this table has not
                raise EntryError(f"{_not_a_taker(word, table)}; say whose the cards are first, as {example}")
            raise EntryError(f"say whose the cards are first, as {example} (not {quoted(word)} first)")
        if word in _REST:
            rest.append(taker)
        elif word in _BOTH_PEDROS:
            pairs += [("Right Pedro", taker), ("Left Pedro", taker)]
        else:
            pairs.append((parse_point_card(word), taker))
    if len(rest) > 1:
        raise EntryError("'rest' may stand for the cards not named only once")
    if rest:  # every copy not named yet (one of each card, or two with two packs)
        named = Counter(name for name, _ in pairs)
        pairs += [(c.name, rest[0]) for c in point_cards(rules) for _ in range(c.copies - named[c.name])]
    return tuple(pairs)


__all__ = ["COMMANDS", "Quit", "Reply", "ScoreDialogue", "SheetSaver", "parse_incorrect_hand", "parse_points",
           "parse_took", "sentence"]
