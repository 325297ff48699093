"""The table in words: cards, hands and actions for people, and the narration of a deal.

Plain mode prints these lines, the Textual table writes them to its log, and the web
table sends them to each seat: all three tell a deal in the same words, from one seat's
view only.

>>> from cinch.cards import Card, CardSet, Seat, Suit
>>> card_text(Card.parse("TH"), Suit.HEARTS), card_text(Card.parse("5D"), Suit.HEARTS), card_text(Card.parse("AS"))
('10♥*', '5♦*', 'A♠')
>>> seat_name(Seat.N, me=Seat.S), team_name(Seat.E.team, me=Seat.S)
('N (partner)', 'EW')
>>> from cinch.seating import seating
>>> three = seating(3).seats  # cut-throat: seats 1 to 3, each his own side
>>> seat_name(three[0], me=three[0]), seat_name(three[2], me=three[0]), team_name(three[0].team, me=three[0])
('1 (you)', '3', '1 (you)')
>>> [str(c) for c in hand_order(CardSet.parse("AS 5D 2H KH"), Suit.HEARTS)]
['KH', '5D', '2H', 'AS']
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import cast

from cinch.actions import Action, Bid, Claim, Keep, NameTrump, OutOfTurn, Pass, Play, Waive
from cinch.cards import DECK_SIZE, TRUMP_TABLES, Card, CardSet, Seat, Suit, Team, TrumpTables
from cinch.deal import DealResult
from cinch.irregularities import penalty_text
from cinch.keep import KeepOptions
from cinch.match import DealSummary
from cinch.rules import Rules, StockOut
from cinch.scoring import PointTable
from cinch.seating import MAX_PLAYERS, Seating
from cinch.view import Phase, PlayedCard, SeatView


# ---- who -------------------------------------------------------------------------------------------
def seat_name(seat: Seat, me: Seat | None) -> str:
    """``S (you)``, ``N (partner)``, ``E`` (``me`` None: a spectator's words); cut-throat ``1 (you)``, ``3``."""
    if me is None:
        return str(seat)
    if seat == me:
        return f"{seat} (you)"
    if seat == me.partner:  # (a cut-throat seat is its own partner: caught just above)
        return f"{seat} (partner)"
    return str(seat)


def team_name(team: Team, me: Seat | None) -> str:
    """``NS (you)`` or ``EW``; cut-throat each player is a side: ``2 (you)`` or ``3``."""
    return f"{team} (you)" if me is not None and team == me.team else str(team)


def counts_text(table: Seating, counts: Sequence[tuple[str, int]]) -> str:
    """A number per seat: ``E 3, S (you) 2`` at four; ``2: 3, 1 (you): 2`` where seats are numbers.

    >>> from cinch.seating import seating
    >>> counts_text(seating(3), [("2", 3), ("1 (you)", 2)])
    '2: 3, 1 (you): 2'
    """
    sep = " " if table.partnership else ": "  # "2 3" would read as two seats
    return ", ".join(f"{who}{sep}{n}" for who, n in counts)


Trump = Suit | TrumpTables
"""The trump suit as the narration takes it: a suit, or its tables (``Rules.trump_tables[suit]``),
which a caller that knows the rules passes so that the bowers of all-hands Pedro show as trumps."""


def tables_of(trump: Trump) -> TrumpTables:
    """The tables of ``trump``: given, or the ordinary ones of a suit."""
    return trump if isinstance(trump, TrumpTables) else TRUMP_TABLES[trump]


def view_trump(view: SeatView) -> Trump | None:
    """The trump tables of a view's deal once trumps are named: the bowers' under all-hands Pedro, so that
    every word drawn from the view stars the left bower, not the other five."""
    return None if view.trump is None else view.rules.trump_tables[view.trump]


def hand_order(cards: int, trump: Trump | None) -> list[Card]:
    """Cards as a hand is laid out: trumps first once named (high to low, the left Pedro or the
    bowers among them), then the plain suits."""
    items = list(CardSet(cards))  # (two decks: each twin right after its first-pack card)
    if trump is not None:
        t = tables_of(trump)
        items.sort(key=lambda c: t.sort_key(c.printed))  # a twin sorts as its card: the copies stay side by side
    return items


# ---- cards and actions ---------------------------------------------------------------------------
def card_text(card: int, trump: Trump | None = None, symbols: bool = True) -> str:
    """``10♥``, with a ``*`` after a trump once trumps are named."""
    card = Card(card)
    text = card.symbol if symbols else str(card)
    if trump is not None and tables_of(trump).is_trump(card.printed):  # (a twin is a trump as its card is)
        text += "*"
    return text


def cards_text(cards: int, trump: Trump | None = None, symbols: bool = True) -> str:
    items = hand_order(cards, trump)
    return " ".join(card_text(c, trump, symbols) for c in items) if items else "none"


def hand_text(hand: int, trump: Trump | None, symbols: bool = True) -> str:
    """The hand by suit; once trumps are named, a ``trumps:`` group first.  With two decks a card held
    twice is written twice.

    >>> hand_text(CardSet.parse("AH AH 5D KS", decks=2), Suit.HEARTS, symbols=False)
    'trumps: AH AH 5D;  others: KS'
    """
    hand = CardSet(hand)
    if not hand:
        return "no cards"
    if trump is None:
        return _by_suit(hand, symbols)
    t = tables_of(trump)
    trumps = CardSet(c for c in hand if t.is_trump(c.printed))
    others = hand - trumps
    text = "trumps: " + (" ".join(card_text(c, None, symbols) for c in hand_order(trumps, trump)) or "none")
    if others:
        text += ";  others: " + _by_suit(others, symbols)
    return text


def _by_suit(cards: CardSet, symbols: bool) -> str:
    """``A♠;  10♥ 9♥`` : the cards a suit at a time (a second pack's copy in its suit too)."""
    groups = []
    for suit in Suit:
        part = cards & (suit.mask | suit.mask << DECK_SIZE)
        if part:
            groups.append(" ".join(card_text(c, None, symbols) for c in part))
    return ";  ".join(groups)


def suit_text(suit: Suit, symbols: bool = True) -> str:
    name = suit.name.lower()
    return f"{name} {suit.symbol}" if symbols else name


def action_text(action: Action, trump: Trump | None, symbols: bool = True, bowers: bool = False) -> str:
    """An action as the list shows it."""
    if isinstance(action, Play):
        text = card_text(action.card, trump, symbols)
        if action.bury:
            text += ", bury " + cards_text(action.bury, trump, symbols)
        return text
    if isinstance(action, Keep):
        return "keep " + cards_text(action.cards, trump, symbols)
    if isinstance(action, NameTrump):
        left = Card.of("J" if bowers else "5", action.suit.partner)
        return f"{suit_text(action.suit, symbols)} (with {card_text(left, None, symbols)})"
    return str(action)


_CARD_IN_TEXT = re.compile(r"\b([AKQJT98765432])([SHDC])\b")


def rule_words(text: str, trump: Trump | None = None) -> str:
    """An engine message for a screen that shows suit symbols: its cards as ``A♥*``, not ``AH``.

    >>> rule_words("a trump was led (AH) and S holds trumps, so must play a trump", Suit.HEARTS)
    'a trump was led (A♥*) and S holds trumps, so must play a trump'
    """
    return _CARD_IN_TEXT.sub(lambda m: card_text(Card.parse(m.group(0)), trump), text)


def keep_words(options: KeepOptions, trump: Trump | None) -> str:
    """A keep decision's constraints in words, with suit symbols (as ``KeepOptions.describe()``)."""
    size = str(options.lo) if options.lo == options.hi else f"{options.lo} to {options.hi}"
    text = f"keep {size} of {cards_text(options.pool, trump)}"
    if options.must:
        text += ", including " + cards_text(options.must, trump)
    if options.min_trumps and options.min_trumps > (options.must & options.trumps).bit_count():
        text += f", with at least {options.min_trumps} trumps"
    return text


def action_words(action: Action, trump: Trump | None = None) -> str:
    """An action for people: ``play 10♥*``, ``bid 8``, ``hearts ♥``, ``keep A♥ 5♦``; under the honour rule
    ``claim the revoke``, ``waive it``, ``S out of turn: bid 8``."""
    if isinstance(action, Play):
        return "play " + action_text(action, trump)
    if isinstance(action, NameTrump):
        return f"trumps {suit_text(action.suit)}"
    if isinstance(action, (Claim, Waive)):
        return answer_words(action)
    if isinstance(action, OutOfTurn):
        return f"{action.seat} out of turn: {action_words(action.action, trump)}"
    return action_text(action, trump)


# ---- the honour rule -----------------------------------------------------------------------------------
_CLAIMED = {"revoke": "the revoke", "bid": "the bid out of turn", "lead": "the lead out of turn",
            "misdeal": "a misdeal"}
_LEAD_WORDS = {"trumps": ", and require a trump lead", "no-trumps": ", and forbid a trump lead"}
_OFFENCE = re.compile(r"^[NESW] (revoked on trick|bid out of turn|led \S+ out of turn)")


def answer_words(action: Claim | Waive) -> str:
    """A claim or a waiver in words: ``claim the revoke``, ``claim the lead out of turn, and require a
    trump lead``, ``waive it (let it stand)``.

    >>> answer_words(Claim("lead", "no-trumps")), answer_words(Waive())
    ('claim the lead out of turn, and forbid a trump lead', 'waive it (let it stand)')
    """
    if isinstance(action, Waive):
        return "waive it (let it stand)"
    return f"claim {_CLAIMED.get(action.kind, action.kind)}{_LEAD_WORDS.get(action.lead, '')}"


def asked_offence(view: SeatView) -> str:
    """The irregularity ``view``'s seat is asked about, as the engine describes it (``E revoked on trick 3
    (played 9C)``): the last one told without an outcome; empty if none."""
    for line in reversed(view.irregularities):
        if _OFFENCE.match(line) and not line.endswith((": claimed.", ": waived.")):
            return line.rstrip(".")
    return ""


def asked_words(view: SeatView, trump: Trump | None = None, symbols: bool = True) -> str:
    """The question put to a seat asked to claim (honour rule): what happened, whose rulings apply.

    ``E revoked on trick 3 (played 9♣). Claim it (the rulings of 003 apply) or waive it.``
    """
    offence = asked_offence(view) or "An irregularity was committed"
    offence = rule_words(offence, trump) if symbols else offence
    return f"{offence}. Claim it (the rulings of {penalty_text(view.rules)} apply) or waive it."


def out_of_turn_words(view: SeatView, action: Bid | Play | None = None, symbols: bool = True) -> str:
    """What acting out of turn now would be (honour rule, 003), from ``view``'s seat while another player is
    to act: the irregularity, whose turn it is and what a claim does.  ``action``: the bid or the card
    meant (None: the kind of action only, as a question before the choice).

    ``Leading 2♥ now is a lead out of turn (003): it is W's lead. If W, on your left, claims it, the card is
    taken back and W leads.``
    """
    assert view.to_act is not None
    me = view.seat
    other = seat_name(view.to_act, me)
    claimant = f"{seat_name(me.left, me)}, on your left,"
    trump = view_trump(view)
    if view.phase is Phase.BIDDING:
        what = f"Bidding {action.amount} now is" if isinstance(action, Bid) else "That is"
        return (f"{what} a bid out of turn (003): it is {other}'s turn to bid. The bid is void, and if {claimant} "
                "claims it your side may not bid again this deal.")
    shown = card_text(action.card, trump, symbols) if isinstance(action, Play) else ""
    if view.current_trick:
        what = f"Playing {shown} now is" if shown else "That is"
        return (f"{what} a play out of turn (003): it is {other}'s turn to play. If {claimant} claims it, the card "
                f"is taken back and {other} plays.")
    what = f"Leading {shown} now is" if shown else "That is"
    partner = view.to_act == me.partner and view.to_act != me  # led in the partner's turn
    return (f"{what} a lead out of turn (003): it is {other}'s lead. If {claimant} claims it, the card is taken "
            f"back and {other} leads" + (", perhaps with a trump lead required or forbidden." if partner else "."))


# ---- the narration ----------------------------------------------------------------------------------
class Narrator:
    """Tells what happened since it last looked, from one seat's views only (``seat`` None: a spectator's,
    told from public views)."""

    def __init__(self, seat: Seat | None, symbols: bool = True):
        self.seat = seat
        self.symbols = symbols
        self.deal_number: int | None = None
        self._reset()

    def _reset(self) -> None:
        self.auction = 0
        self.contract_told = False
        self.own_discards = 0
        self.face_up = [0] * MAX_PLAYERS  # by seat
        self.shown = [0] * MAX_PLAYERS
        self.draws_told = False
        self.rob_told = False
        self.play_told = False
        self.tricks = 0
        self.plays = 0
        self.lead: PlayedCard | None = None  # the current trick's lead as told (a lead out of turn may go back)
        self.irregular: set[str] = set()  # the honour rule's irregularities and rulings told

    def who(self, seat: Seat) -> str:
        return seat_name(seat, self.seat)

    def cards(self, cards: int, trump: Trump | None) -> str:
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
            lines.append(
                f"{self.who(v.maker)} wins the bidding at {v.bid} and names {suit_text(trump, self.symbols)} trumps"
                f" ({self.left_words(v.rules.trump_tables[trump])})."
            )
            lines.append(self.contract(v))
        tables = None if trump is None else v.rules.trump_tables[trump]  # the bowers' under all-hands Pedro
        if tables is not None:
            lines += self.discards(v, tables)
            if not v.rules.no_draw:
                lines += self.draws(v, tables)
        if v.phase in (Phase.PLAY, Phase.DONE) and not self.play_told and v.maker is not None:
            self.play_told = True
            sizes = [n + self._count_played(v, v.seats[s]) for s, n in enumerate(v.hand_sizes)]
            if len(set(sizes)) > 1:
                lines.append("Cards held: " + counts_text(v.rules.seating, [(self.who(v.seats[s]), n)
                                                                            for s, n in enumerate(sizes)]))
            lines.append(f"The play: {self.who(v.maker)} leads to trick 1.")
        lines += self.plays_since(v, tables)
        lines += self.irregularities(v, tables)
        return lines

    def irregularities(self, v: SeatView, trump: Trump | None) -> list[str]:
        """The honour rule's irregularities as every seat learns of them (a revoke once it shows), their
        claims or waivers, and the rulings: each line once."""
        lines = []
        for line in v.irregularities:
            if line not in self.irregular:
                self.irregular.add(line)
                lines.append(rule_words(line, trump) if self.symbols else line)
        return lines

    def deal_header(self, v: SeatView) -> list[str]:
        table = v.rules.seating
        score = v.score or (0,) * table.sides
        lines = [
            "",
            f"=== Deal {v.deal_number}: {self.who(v.dealer)} deals.  Score {table.score_text(score)};"
            f" target {v.target}. ===",
        ]
        if not table.partnership and v.deal_number == 1:
            lines.append(f"{table.players} players, each for himself: the maker plays alone against all the others.")
        if v.bidder_goes_out:
            lines.append(self.going_out_words(v))
        lo, hi = v.rules.min_bid, v.rules.highest_bid
        lines.append(f"Bidding from {self.who(v.dealer.left)}; the dealer, {self.who(v.dealer)}, bids last."
                     f" Bids {lo} to {hi}.")
        return lines

    def going_out_words(self, v: SeatView) -> str:
        """Who wins the match by making his bid this deal: every side, or only those at the target."""
        table = v.rules.seating
        if not v.going_out or len(v.going_out) == table.sides:
            return "Bidder goes out: makers who make their bid this deal win the match."
        names = [self.who(cast(Seat, table.side_list[i])) if not table.partnership
                 else team_name(table.side_list[i], self.seat) for i in v.going_out]
        return (f"Bidder goes out among those at the target: {' and '.join(names)} win the match by making"
                " their bid this deal; any other maker scores his bid and wins nothing.")

    def contract(self, v: SeatView) -> str:
        assert v.maker is not None and v.trump is not None
        if not v.rules.seating.partnership:  # the maker plays alone against all the others
            return (f"Contract: {self.who(v.maker)} alone against all the others, bid {v.bid},"
                    f" trumps {suit_text(v.trump, self.symbols)}.")
        return (f"Contract: {self.who(v.maker)} for {team_name(v.maker.team, self.seat)}, bid {v.bid},"
                f" trumps {suit_text(v.trump, self.symbols)}.")

    def left_words(self, t: TrumpTables) -> str:
        """The card of the same colour that the trumps take in, in words."""
        left = card_text(t.left_pedro, None, self.symbols)
        if t.bowers:
            right = card_text(t.right_bower, None, self.symbols)
            return f"the right bower {right} and the left bower {left} are the highest trumps"
        return f"the left Pedro {left} is a trump too"

    def discards(self, v: SeatView, trump: Trump) -> list[str]:
        lines = []
        shown_mine = 0 if self.seat is None else int(v.shown_trumps[self.seat])
        new = int(v.own_discards) & ~self.own_discards & ~shown_mine
        if new and self.seat is not None:  # (trumps thrown out are told below, as shown)
            self.own_discards |= new
            lines.append(f"{self.who(self.seat)} throws {self.cards(new, trump)}.")
        for s in v.seats:
            up = int(v.face_up_discards[s]) & ~self.face_up[s]
            if up and s != self.seat:
                lines.append(f"{self.who(s)} throws face up: {self.cards(up, trump)}.")
            self.face_up[s] |= up
            shown = int(v.shown_trumps[s]) & ~self.shown[s]
            if shown:
                lines.append(f"{self.who(s)} shows the trumps thrown out (dead): {self.cards(shown, trump)}.")
            self.shown[s] |= shown
        return lines

    def draws(self, v: SeatView, trump: Trump) -> list[str]:
        lines = []
        dealer = v.dealer
        table = v.rules.seating
        if v.phase in (Phase.ROB, Phase.PLAY, Phase.DONE) and not self.draws_told:
            self.draws_told = True
            # From the dealer's left round; the dealer robs the pack after (at two or three he draws last).
            order = [s for s in table.turns(dealer) if s != dealer or not table.dealer_robs]
            counts = counts_text(table, [(self.who(s), v.drawn_counts[s]) for s in order])
            lines.append(f"The draw from the stock: {counts}.")
            if self.seat is not None and (self.seat != dealer or not table.dealer_robs):
                mine = v.own_drawn
                lines.append(f"{self.who(self.seat)} drew {self.cards(mine, trump)}." if mine else
                             f"{self.who(self.seat)} drew nothing.")
            drawn = sum(v.drawn_counts[s] for s in order)
            if drawn > table.stock:
                lines.append("The stock ran out: the non-trump discards were shuffled into a new stock.")
            elif v.rules.stock_out is StockOut.SHARE and any(v.hand_sizes[s] < table.hand for s in order):
                lines.append("The stock ran out: what was left was shared out one card at a time.")
        if v.phase in (Phase.PLAY, Phase.DONE) and not self.rob_told and table.dealer_robs:
            self.rob_told = True
            taken = v.drawn_counts[dealer]
            lines.append(f"The dealer, {self.who(dealer)}, robs the pack, taking {taken} card{'s' * (taken != 1)}.")
            if self.seat == dealer and v.own_drawn:
                lines.append(f"{self.who(self.seat)} took {self.cards(v.own_drawn, trump)}.")
        return lines

    def plays_since(self, v: SeatView, trump: Trump | None) -> list[str]:
        lines = []
        told = v.tricks[self.tricks].plays if len(v.tricks) > self.tricks else v.current_trick
        if self.plays and (not told or told[0] != self.lead):
            self.plays = 0  # a lead out of turn was taken back (honour rule, 003): the trick starts again
        for number, trick in enumerate(v.tricks[self.tricks:], start=self.tricks + 1):
            lines += self.play_lines(trick.plays, number, trump)
            win = next(p.card for p in trick.plays if p.seat == trick.winner)
            lines.append(f"{self.who(trick.winner)} wins trick {number} with {card_text(win, trump, self.symbols)}.")
            self.tricks += 1
            self.plays = 0
        lines += self.play_lines(v.current_trick, len(v.tricks) + 1, trump)
        self.lead = v.current_trick[0] if v.current_trick else None
        return lines

    def play_lines(self, plays: Sequence[PlayedCard], number: int, trump: Trump | None) -> list[str]:
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


def match_won_words(table: Seating, winner: Team, me: Seat, score: tuple[int, ...]) -> str:
    """The end of the match told to ``me``: ``NS win the match, NS 52 to EW 40. You and your partner N win!``,
    or at a cut-throat table ``2 wins the match: 1: 30, 2: 63, 3: 12. You (1) lose.``"""
    mine = winner == me.team
    if table.partnership:
        return (f"{winner} win the match, NS {score[0]} to EW {score[1]}. "
                + (f"You and your partner {me.partner} win!" if mine
                   else f"You ({me}) and your partner {me.partner} lose."))
    return (f"{winner} wins the match: {table.score_text(score)}. "
            + ("You win!" if mine else f"You ({me}) lose."))


def result_lines(summary: DealSummary, me: Seat | None, rules: Rules, score: tuple[int, ...],
                 symbols: bool = True) -> list[str]:
    """The end of a deal: who took which point card, the settlement in words, the score."""
    r = summary.result
    lines = [f"Deal {summary.number} is over."]
    if r.thrown_in or r.points is None:  # a misdeal, or a revoke claimed under 002: the ruling settles it
        lines.append(r.describe())
    else:
        assert r.trump is not None and r.points is not None
        lines.append("Point cards:")
        for a in r.awards:
            how = "" if a.how == "captured" else f", {a.how}"
            lines.append(f"  {a.name} {card_text(a.card, rules.trump_tables[r.trump], symbols)}: {a.points} to "
                         f"{team_name(a.team, me)}{how}")
        missing = _unscored(r, rules, symbols)
        if missing:
            lines.append(f"  Not in play, scoring for nobody: {missing}")
        lines.append(f"Points taken: {rules.seating.score_text(r.points)}.")
        lines.append(r.describe() + ".")
    lines.append(f"Score: {rules.seating.score_text(score)}; target {rules.target}.")
    return lines


def _unscored(result: DealResult, rules: Rules, symbols: bool) -> str:
    trump = result.trump
    assert trump is not None  # a deal played out
    gone = PointTable.of(rules, trump).unscored(result.awards)
    return ", ".join(f"{name} {card_text(card, rules.trump_tables[trump], symbols)}" for name, card in gone)


