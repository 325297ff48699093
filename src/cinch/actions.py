"""Actions: every decision a player makes, and their record notation.

>>> parse_action("bid 7"), parse_action("trump hearts"), parse_action("play 10h")
(Bid(amount=7), NameTrump(suit=Suit.HEARTS), Play(card=Card.parse('TH'), bury=CardSet.parse('')))
>>> str(parse_action("keep 5h 2h ad"))
'keep 5H 2H AD'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from cinch.cards import ALL_CARDS, DECK_SIZE, Card, CardSet, Seat, Suit, fold
from cinch.errors import NotationError, quoted


@dataclass(frozen=True, slots=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Bid:
    amount: int

    def __str__(self) -> str:
        return f"bid {self.amount}"


@dataclass(frozen=True, slots=True)
class NameTrump:
    suit: Suit

    def __str__(self) -> str:
        return f"trump {self.suit.letter}"


@dataclass(frozen=True, slots=True)
class Keep:
    """A player's whole hand after a discard or a rob."""

    cards: CardSet

    def __str__(self) -> str:
        return "keep " + str(self.cards) if self.cards else "keep"


@dataclass(frozen=True, slots=True, eq=False)
class Play:
    """A card to the trick; on trick 1 under the buried-excess rule, with the cards buried under it.

    Plays are equal when they read the same: with two decks, a card and its twin (the deal plays
    the copy the player holds).
    """

    card: Card
    bury: CardSet = CardSet(0)

    def __eq__(self, other: object) -> bool:
        if type(other) is not Play:
            return NotImplemented
        return self.card % DECK_SIZE == other.card % DECK_SIZE and (
            self.bury == other.bury or _as_read(self.bury) == _as_read(other.bury))

    def __hash__(self) -> int:
        return hash((self.card % DECK_SIZE, _as_read(self.bury) if self.bury else 0))

    def __str__(self) -> str:
        if self.bury:
            return f"play {self.card} bury {self.bury}"
        return f"play {self.card}"


def _as_read(cards: int) -> tuple[int, int]:
    """A set of cards as its text reads: the cards named, and those named twice (two decks)."""
    return fold(cards), cards & cards >> DECK_SIZE


CLAIMS = ("revoke", "bid", "lead", "play", "misdeal")
"""What a claim names: a revoke, a bid, a lead or a play out of turn, a misdeal (honour rule)."""
LEAD_RULES = ("", "trumps", "no-trumps")
"""After a lead out of turn in the partner's turn (003): nothing more, require a trump lead, forbid one."""


@dataclass(frozen=True, slots=True)
class Claim:
    """The other side claims an irregularity under the honour rule (002, 003): ``claim revoke``.

    ``lead`` (a lead out of turn in the partner's turn only): require (``trumps``) or forbid
    (``no-trumps``) a trump lead.
    """

    kind: str
    lead: str = ""

    def __str__(self) -> str:
        return f"claim {self.kind}" + (f" {self.lead}" if self.lead else "")


@dataclass(frozen=True, slots=True)
class Waive:
    """The other side lets an irregularity stand without a claim (honour rule)."""

    def __str__(self) -> str:
        return "waive"


@dataclass(frozen=True, slots=True)
class OutOfTurn:
    """A bid, a lead or a play made out of turn by ``seat`` (honour rule, 003): ``E out of turn: bid 8``."""

    seat: Seat
    action: Bid | Play

    def __str__(self) -> str:
        return f"{self.seat} out of turn: {self.action}"


Action: TypeAlias = Pass | Bid | NameTrump | Keep | Play | Claim | Waive | OutOfTurn
"""Every decision a player makes: the five kinds of the game, and under the honour rule a claim, a waiver
or an action out of turn.  ``str(action)`` is its record notation."""

Call: TypeAlias = Pass | Bid
"""A turn in the auction: a pass or a bid."""

PASS = Pass()
BIDS = {n: Bid(n) for n in range(1, 53)}  # up to two decks' 52 points with Sancho and Dom
TRUMPS = tuple(NameTrump(s) for s in Suit)
PLAYS = tuple(Play(c) for c in ALL_CARDS)  # the second pack's too (two decks)

VERBS = ("pass, bid N, trump SUIT, keep CARDS, play CARD [bury CARDS]; under the honour rule also "
         "claim revoke|bid|lead [trumps|no-trumps]|play|misdeal, waive, SEAT out of turn: bid N|play CARD")
WAIVE = Waive()


_PARSED: dict[str, Action] = {}  # replays read the same few texts again and again


def parse_action(text: str) -> Action:
    """Read one action in record notation (lenient on case, ``10`` and suit symbols)."""
    if type(text) is str:
        known = _PARSED.get(text)
        if known is not None:
            return known
    action = _parse(text)
    if not isinstance(action, Keep) and len(_PARSED) < 4096:
        _PARSED[text] = action
    return action


def _parse(text: str) -> Action:
    if not isinstance(text, str):
        raise NotationError(f"an action must be text, not {type(text).__name__}; actions are {VERBS}")
    words = text.split()
    if not words:
        raise NotationError(f"an empty action; actions are {VERBS}")
    verb, rest = words[0].lower(), words[1:]
    if verb == "pass" and not rest:
        return PASS
    if verb == "bid" and len(rest) == 1:
        digits = rest[0]
        # int() would also read "٧", "+7" and "1_0": a record has one spelling, ASCII digits.
        if not (digits.isascii() and digits.isdigit()):
            raise NotationError(f"{quoted(text)}: a bid is a whole number in the digits 0-9, as 'bid 7'")
        if len(digits) > 9:  # no deal holds that many points, and int() refuses thousands of digits
            raise NotationError(f"{quoted(text)}: the bid has {len(digits)} digits; bids run to a few dozen at most")
        amount = int(digits)
        return BIDS.get(amount) or Bid(amount)
    if verb == "trump" and len(rest) == 1:
        return TRUMPS[Suit.parse(rest[0])]
    if verb == "keep":
        return Keep(CardSet.parse(" ".join(rest), decks=2))  # two decks: a card named twice is both copies
    if verb == "claim" and rest:
        return _claim(text, [w.lower() for w in rest])
    if verb == "waive" and not rest:
        return WAIVE
    if len(words) > 4 and [w.lower() for w in words[1:4]] == ["out", "of", "turn:"]:
        inner = _parse(" ".join(words[4:]))
        if not isinstance(inner, (Bid, Play)):
            raise NotationError(f"{quoted(text)}: only a bid or a play is made out of turn, as 'E out of turn: bid 8'")
        return OutOfTurn(Seat.parse(words[0]), inner)
    if verb == "play" and rest:
        card = Card.parse(rest[0])
        if len(rest) == 1:
            return PLAYS[card]
        if rest[1].lower() == "bury" and len(rest) > 2:
            bury = CardSet.parse(" ".join(rest[2:]), decks=2)
            if card in bury:
                # Two decks: one copy played and the other buried ("play KD bury KD"); the deal refuses
                # a second copy with one pack.
                if card.twin in bury:
                    raise NotationError(f"{quoted(text)}: {card} is named three times; two packs hold two of "
                                        "each card")
                bury = CardSet(bury & ~(1 << card) | 1 << card.twin)
            return Play(card, bury)
    raise NotationError(f"{quoted(text)} is not an action; actions are {VERBS}")


def _claim(text: str, rest: list[str]) -> Claim:
    kind, lead = rest[0], " ".join(rest[1:])
    if kind not in CLAIMS:
        raise NotationError(f"{quoted(text)}: a claim names {', '.join(CLAIMS)}, as 'claim revoke'")
    if lead and (kind != "lead" or lead not in LEAD_RULES):
        raise NotationError(f"{quoted(text)}: only a lead claim adds trumps or no-trumps, as 'claim lead trumps'")
    return Claim(kind, lead)
