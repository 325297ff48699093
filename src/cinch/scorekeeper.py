"""The scorekeeper: a match played with real cards, entered deal by deal and settled by the rules.

A table that plays with a real pack enters each deal as a :class:`DealEntry`: the dealer, the
auction (or only the maker and the bid), trumps, who took each point card or only each
side's points, and any irregularity (a misdeal, a revoke).  A :class:`ScoreSheet` checks the
entry against the rules and settles it with the engine's own rules code: the bidding through
a :class:`~cinch.deal.Deal`, the point values from :class:`~cinch.scoring.PointTable`, the
settlement by :func:`~cinch.scoring.settle` and going out by :func:`~cinch.match.decide`.  It
explains each ruling in words, keeps the running score and the winner, and takes back the
last deal.

>>> from cinch import Rules
>>> sheet = ScoreSheet(Rules.preset("pagat"))
>>> done = sheet.add(DealEntry.of("W", maker="N", bid=7, trump="H", points=(13, 1)))
>>> done.ruling[0]
'N bid 7 in hearts: NS took 13, EW 1: made.'
>>> done.ruling[1]
'Additive scoring: each side adds the points it took: NS +13, EW +1.'
>>> sheet.score, sheet.next_dealer
((13, 1), Seat.N)
>>> sheet.add(DealEntry.of("W", maker="E", bid=10, points=(5, 9)))
Traceback (most recent call last):
...
cinch.scorekeeper.EntryError: W cannot deal deal 2: the deal passes to the left, and N deals now

At a cut-throat table (two, three, five or six players, each for himself) the seats are ``1``
to ``n``, every player is his own side, and the points are entered per player:

>>> three = ScoreSheet(Rules.preset("official").with_options(players=3))
>>> done = three.add(DealEntry.of("3", maker="2", bid=7, points=(12, 2, 0), table=three.table))
>>> done.ruling[0], done.score
('2 bid 7: 2 took 2, 3 0, 1 12: set.', (12, -7, 0))

With two packs (``-o decks=2``) every point card is there twice and each copy scores: a card
is named once for each copy, and the points double (28 under official):

>>> two = ScoreSheet(Rules.preset("official").with_options(decks=2))
>>> took = {name: ("NS", "EW") for name in ("High", "Low", "Jack", "Game", "Right Pedro", "Left Pedro")}
>>> two.add(DealEntry.of("W", maker="N", bid=14, trump="H", took=took)).ruling[0]
'N bid 14 in hearts: NS took 14, EW 14: made.'
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

from cinch.actions import BIDS, PASS, Bid, Call, Pass
from cinch.cards import Seat, Suit, Team
from cinch.deal import EXAMPLE_DECK, Deal, DealResult
from cinch.errors import CinchError, IllegalAction, NotationError, json_kind, quoted
from cinch.irregularities import PENALTY_TEXTS as PENALTY_TEXTS  # the penalties' one home, re-exported
from cinch.irregularities import changes_text, incorrect_hand_ruling, misdeal_ruling, revoke_ruling
from cinch.irregularities import default_penalty_text as default_penalty_text
from cinch.match import DealSummary, bidder_goes_out_applies, decide, going_out_sides, teams_json
from cinch.rules import TWO_DECKS, AboveSix, AllPass, Bidding, High, Low, Rob, Rules, Settlement
from cinch.scoring import PointTable, settle
from cinch.seating import FOUR, Seating, seating
from cinch.view import Phase


class EntryError(CinchError, ValueError):
    """An entry the rules refuse: the message names what is wrong and what is allowed."""


Taker: TypeAlias = Team | Seat | None
"""Who scored a point card: a side, a player (who scores for his side), or None for nobody.
At a cut-throat table a taker is a player: his seat is his side."""

CARD_ORDER = ("High", "Low", "Jack", "Game", "Right Pedro", "Left Pedro", "Left Bower", "Sancho", "Dom")
"""The point cards in the order a score sheet lists them (their names as :class:`PointTable` gives them)."""

MISDEAL: Literal["misdeal"] = "misdeal"
REVOKE: Literal["revoke"] = "revoke"


# ---- the table: four in partnerships, or two to six each for himself ----------------------------------------
def table_of(seat: Seat) -> Seating:
    """The table a seat sits at: four for ``N E S W``, else as many players as its seats number.

    >>> table_of(Seat.E).players, table_of(seating(5).seats[0]).players
    (4, 5)
    """
    return seating(len(type(seat)))


def at_table(table: Seating, who: object) -> bool:
    """Whether ``who`` is a seat or a side of ``table`` (by identity: seat 1 of three equals N as a number)."""
    return table.has_seat(who) or any(who is t for t in table.side_list)


def honour_refusal(table: Seating) -> str:
    """Why a misdeal, a revoke or an incorrect hand is refused at a cut-throat table, in one line."""
    return (f"misdeals, revokes and incorrect hands are ruled on only at four players in partnerships (the honour "
            f"rule is a four-player rule); at this table of {table.players}, each for himself, enter the deal as it "
            "was scored")


def _seats_text(table: Seating) -> str:
    """``N E S W``, or ``1 2 3``: the seats' names, for a message."""
    return " ".join(table.names)


def _side_word(table: Seating) -> str:
    """What each share of the points belongs to: a side, or at a cut-throat table a player."""
    return "side" if table.partnership else "player"


# ---- the point cards of a rules -----------------------------------------------------------------------
@dataclass(frozen=True)
class PointCard:
    """One point card under some rules: its name, its points (for each copy) and what it is, in words;
    ``copies``: how many of it a deal holds (two with two packs, each scoring for whoever took it)."""

    name: str
    points: int
    what: str
    copies: int = 1


@functools.lru_cache(maxsize=64)
def point_cards(rules: Rules) -> tuple[PointCard, ...]:
    """The point cards these rules score, with their points, read from the point table.

    >>> [(c.name, c.points) for c in point_cards(Rules.preset("additive").with_options(sancho=True))][-3:]
    [('Right Pedro', 5), ('Left Pedro', 5), ('Sancho', 9)]
    >>> [(c.name, c.copies) for c in point_cards(Rules.preset("official").with_options(decks=2))][:2]
    [('High', 2), ('Low', 2)]
    """
    # Every trump captured by NS, the 2s held by NS: the table then claims each point card (each copy) once.
    table = PointTable.of(rules, Suit.SPADES)
    trumps = table.tables.trumps
    points = {name: pts for name, _, _, pts, _ in table.claims((trumps, 0), trumps, 0, 0, 0, low_twin=0)}
    return tuple(PointCard(name, points[name], _card_words(rules, name), rules.decks)
                 for name in CARD_ORDER if name in points)


def _card_words(rules: Rules, name: str) -> str:
    if name == "High":
        return "the ace of trumps" if rules.high is High.ACE else "the highest trump in play"
    if name == "Low":
        return {Low.TWO_HOLDER: "the 2 of trumps, to the side that held it",
                Low.TWO_CAPTURER: "the 2 of trumps, to its capturer",
                Low.LOWEST_CAPTURER: "the lowest trump in play, to its capturer"}[rules.low]
    return {"Jack": "the jack of trumps", "Game": "the ten of trumps", "Right Pedro": "the five of trumps",
            "Left Pedro": "the other five of the same colour", "Left Bower": "the other jack of the same colour",
            "Sancho": "the nine of trumps",
            "Dom": "the three of trumps"}[name]


def is_relative(rules: Rules, name: str) -> bool:
    """Whether High or Low is the highest or lowest trump in play (002-004), rather than a fixed card."""
    return (name == "High" and rules.high is High.HIGHEST) or (name == "Low" and rules.low is Low.LOWEST_CAPTURER)


def every_card_scores(rules: Rules) -> bool:
    """Whether every point card always scores for a side, so that none can go to nobody.

    Under 000's draw every trump is in play: a player keeps all his trumps, the dealer takes
    every trump left in the stock, and a hand above six buries only non-point cards.
    Elsewhere a point card can be dead (thrown under keep-six, left in the stock by the
    dealer's rob, never dealt under no-draw), and with Sancho or Dom a hand short of other
    cards may bury one (docs/rule-readings.md).  At two or three players the dealer does not
    rob (he draws like the others), so trumps may stay in the stock under any rules.

    >>> every_card_scores(Rules.preset("pagat")), every_card_scores(Rules.preset("official"))
    (True, False)
    >>> every_card_scores(Rules.preset("pagat").with_options(players=3))
    False
    """
    return (rules.seating.dealer_robs and rules.rob is Rob.ALL_TRUMPS and rules.above_six is AboveSix.BURIED
            and not rules.no_draw and not rules.sancho and not rules.dom_pedro)


def cards_text(rules: Rules) -> str:
    """The point cards and their points in words.

    >>> cards_text(Rules.preset("pagat"))
    'High, Low, Jack and Game 1 each, Right Pedro and Left Pedro 5 each: 14 in all'
    >>> cards_text(Rules.preset("pagat").with_options(decks=2))[-45:]
    '5 each, for every copy (two packs): 28 in all'
    """
    groups: dict[int, list[str]] = {}
    for card in point_cards(rules):
        groups.setdefault(card.points, []).append(card.name)
    parts = []
    for points, names in groups.items():
        parts.append(f"{_and(names)} {points}" + (" each" if len(names) > 1 else ""))
    copies = ", for every copy (two packs)" if rules.decks == TWO_DECKS else ""
    return ", ".join(parts) + f"{copies}: {rules.total_points} in all"


# ---- reading the notation ---------------------------------------------------------------------------
_CARD_ALIASES = {
    "high": "High", "h": "High", "hi": "High",
    "low": "Low", "l": "Low", "lo": "Low",
    "jack": "Jack", "j": "Jack",
    "game": "Game", "g": "Game", "ten": "Game",
    "right pedro": "Right Pedro", "right": "Right Pedro", "rp": "Right Pedro", "r": "Right Pedro",
    "left pedro": "Left Pedro", "left": "Left Pedro", "lp": "Left Pedro",
    "left bower": "Left Bower", "lb": "Left Bower",
    "sancho": "Sancho", "nine": "Sancho", "dom": "Dom", "dom pedro": "Dom", "three": "Dom",
}


def parse_point_card(text: str) -> str:
    """A point card's name from its name or a short form (``rp``, ``ten``), any case.

    >>> parse_point_card("right pedro"), parse_point_card("J"), parse_point_card("ten")
    ('Right Pedro', 'Jack', 'Game')
    """
    key = " ".join(text.lower().replace("-", " ").replace("_", " ").split())
    if key in _CARD_ALIASES:
        return _CARD_ALIASES[key]
    raise EntryError(f"{quoted(text)} is not a point card; the point cards are {_and(list(CARD_ORDER))} "
                     "(short forms: h, l, j, g or ten, rp, lp)")


_NOBODY = ("nobody", "none", "-", "dead", "null")


def parse_taker(text: str, table: Seating = FOUR) -> Taker:
    """A side (``NS``, ``EW``), a player (``N`` ... ``W``) or nobody (``nobody``, ``-``); at a cut-throat
    table a player (``1`` ... ``n``) or nobody.

    >>> parse_taker("ew"), parse_taker("S"), parse_taker("nobody"), str(parse_taker("3", seating(3)))
    (Team.EW, Seat.S, None, '3')
    """
    t = text.strip().upper()
    if not table.partnership:
        if t in table.names:
            return table.parse_seat(t)
        if t.lower() in _NOBODY:
            return None
        raise EntryError(f"{quoted(text)} is not a player at this table or nobody; write one of {_seats_text(table)}, "
                         "or nobody")
    if t in ("NS", "EW"):
        return Team[t]
    if t in ("SN", "WE"):
        return Team[t[::-1]]
    if t in ("N", "E", "S", "W"):
        return Seat.parse(t)
    if t.lower() in _NOBODY:
        return None
    raise EntryError(f"{quoted(text)} is not a side, a player or nobody; write NS or EW, one of N E S W, or nobody")


def taker_text(taker: Taker) -> str:
    return "nobody" if taker is None else taker.name


def team_of(taker: Team | Seat) -> Team:
    return taker.team if isinstance(taker, Seat) else taker


def parse_calls(text: str | Iterable[Call | str]) -> tuple[Call, ...]:
    """The auction's calls in order, from ``"pass bid 7 pass pass"``, the short ``"p 7 p p"``, or a list.

    >>> [str(c) for c in parse_calls("p 7 - bid 9")]
    ['pass', 'bid 7', 'pass', 'bid 9']
    """
    if isinstance(text, str):
        words = text.replace(",", " ").split()
        calls: list[Call] = []
        i = 0
        while i < len(words):
            word = words[i].lower()
            if word == "bid" and i + 1 < len(words):
                word = words[i + 1]
                i += 1
            calls.append(_call(word))
            i += 1
        return tuple(calls)
    out: list[Call] = []
    for item in text:
        if isinstance(item, (Pass, Bid)):
            out.append(item)
        elif isinstance(item, str):
            out.extend(parse_calls(item))
        else:
            raise EntryError(f"a call is a pass or a bid, not {quoted(item)}")
    return tuple(out)


def _call(word: str) -> Call:
    if word.lower() in ("p", "pass", "-"):
        return PASS
    if word.isascii() and word.isdigit() and len(word) <= 3:
        amount = int(word)
        return BIDS.get(amount) or Bid(amount)
    raise EntryError(f"{quoted(word)} is not a call; a call is pass (p) or a bid (7, or bid 7)")


# ---- entries ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Irregularity:
    """A misdeal or a revoke, with the rule text whose penalty applies (002 or 003; None: the
    preset's, :func:`default_penalty_text`).

    ``by`` is who revoked: a side or a player.

    >>> Irregularity.revoke("EW", text="002").describe()
    'revoke by EW (002)'
    """

    kind: Literal["misdeal", "revoke"]
    by: Team | Seat | None = None
    text: str | None = None

    @classmethod
    def misdeal(cls, text: str | None = None) -> Irregularity:
        return cls(MISDEAL, None, _penalty_text(text))

    @classmethod
    def revoke(cls, by: Team | Seat | str, text: str | None = None) -> Irregularity:
        try:
            who = parse_taker(by) if isinstance(by, str) else by
        except EntryError:  # parse_taker's own words offer "nobody", which no revoke is
            raise EntryError(f"{quoted(by)} is not a side or a seat; say who revoked: a side (NS, EW) or a player "
                             "(N E S W)") from None
        if who is None:
            raise EntryError("say who revoked: a side (NS, EW) or a player (N E S W)")
        return cls(REVOKE, who, _penalty_text(text))

    def describe(self) -> str:
        who = f" by {self.by.name}" if self.by is not None else ""
        return f"{self.kind}{who}" + (f" ({self.text})" if self.text else "")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.by is not None:
            out["by"] = self.by.name
        if self.text is not None:
            out["text"] = self.text
        return out

    @classmethod
    def from_json(cls, value: Any) -> Irregularity:
        if not isinstance(value, dict):
            raise EntryError(f'"irregularity" must be an object, as {{"kind": "revoke", "by": "EW"}}, '
                             f"not {json_kind(value)}")
        unknown = set(value) - {"kind", "by", "text"}
        if unknown:
            raise EntryError(f'"irregularity" has an unknown field {quoted(sorted(unknown)[0])}; it has kind, by '
                             "and text")
        kind, by, text = value.get("kind"), value.get("by"), value.get("text")
        if text is not None and not isinstance(text, str):
            raise EntryError(f'"irregularity": "text" must be "002" or "003", not {json_kind(text)}')
        if kind == MISDEAL:
            if by is not None:
                raise EntryError('"irregularity": a misdeal has no "by"')
            return cls.misdeal(text)
        if kind == REVOKE:
            if not isinstance(by, str):
                raise EntryError('"irregularity": a revoke needs "by", a side (NS, EW) or a seat (N E S W)')
            return cls.revoke(by, text)
        raise EntryError(f'"irregularity": "kind" must be "misdeal" or "revoke", not {quoted(kind)}')


MAX_WRONG = 9
"""The most cards a hand can be wrong by (a hand of nine dealt)."""


@dataclass(frozen=True)
class IncorrectHand:
    """A hand found with the wrong number of cards in play (003's incorrect hand): ``seat`` held ``cards``
    too many (above 0) or too few (below 0).  It changes no score: the deal is settled as entered, and
    the ruling says what 003 makes of it (or that 002 has no such ruling).  ``text``: whose ruling
    (None: the preset's, :func:`default_penalty_text`).

    >>> IncorrectHand.of("E", 2).describe(), IncorrectHand.of("N", -1, "002").describe()
    ('E 2 too many', 'N 1 too few (002)')
    >>> IncorrectHand.of("N", -1).to_json()
    {'seat': 'N', 'too_few': 1}
    """

    seat: Seat
    cards: int
    text: str | None = None

    @classmethod
    def of(cls, seat: Seat | str, cards: int, text: str | None = None) -> IncorrectHand:
        who = Seat.parse(seat) if isinstance(seat, str) else Seat(seat)
        hand = cls(who, cards, _penalty_text(text))
        hand.check()
        return hand

    def check(self) -> None:
        """Refuse a count no hand can be wrong by (one built by hand)."""
        if not isinstance(self.seat, Seat):
            raise EntryError("say whose hand was wrong: one of N E S W")
        if isinstance(self.cards, bool) or not isinstance(self.cards, int) or not 1 <= abs(self.cards) <= MAX_WRONG:
            raise EntryError(f"an incorrect hand holds 1 to {MAX_WRONG} cards too many or too few, "
                             f"not {quoted(self.cards)}")
        _penalty_text(self.text)

    @property
    def too_many(self) -> bool:
        return self.cards > 0

    def describe(self) -> str:
        return (f"{self.seat} {abs(self.cards)} too {'many' if self.too_many else 'few'}"
                + (f" ({self.text})" if self.text else ""))

    def ruling(self, rules: Rules) -> str:
        """The ruling in words, under this hand's text or the preset's."""
        return incorrect_hand_ruling(self.seat, self.cards, self.text or default_penalty_text(rules))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat.name, "too_many" if self.too_many else "too_few": abs(self.cards)}
        if self.text is not None:
            out["text"] = self.text
        return out

    @classmethod
    def from_json(cls, value: Any) -> IncorrectHand:
        example = '{"seat": "E", "too_many": 1} or {"seat": "N", "too_few": 1}'
        if not isinstance(value, dict):
            raise EntryError(f'an incorrect hand must be an object, as {example}, not {json_kind(value)}')
        unknown = set(value) - {"seat", "too_many", "too_few", "text"}
        if unknown:
            raise EntryError(f'an incorrect hand has an unknown field {quoted(sorted(unknown)[0])}; it has seat, '
                             "too_many or too_few, and text")
        seat, text = value.get("seat"), value.get("text")
        if not isinstance(seat, str) or seat not in ("N", "E", "S", "W"):
            raise EntryError(f'an incorrect hand\'s "seat" must be one of "N" "E" "S" "W", not {quoted(seat)}')
        counts = [k for k in ("too_many", "too_few") if k in value]
        if len(counts) != 1:
            raise EntryError(f"an incorrect hand gives one of too_many and too_few, as {example}")
        count = value[counts[0]]
        if isinstance(count, bool) or not isinstance(count, int):
            raise EntryError(f'an incorrect hand\'s "{counts[0]}" must be a whole number, not {json_kind(count)}')
        if text is not None and not isinstance(text, str):
            raise EntryError(f'an incorrect hand\'s "text" must be "002" or "003", not {json_kind(text)}')
        return cls.of(seat, count if counts[0] == "too_many" else -count, text)


def _penalty_text(text: str | None) -> str | None:
    if text is not None and text not in PENALTY_TEXTS:
        raise EntryError(f"penalties come from text 002 or 003, not {quoted(text)}")
    return text


@dataclass(frozen=True)
class DealEntry:
    """One deal played with real cards, as the table reports it.

    ``calls``: the auction from the dealer's left, or empty when only ``maker`` and ``bid``
    are given; with calls, ``maker`` and ``bid`` may be left out (the calls give them).  No
    maker and no bid: all passed and the deal is thrown in.  ``took``: who scored each
    point card (pairs of name and :data:`Taker`; with two packs a name comes once for each copy);
    or ``points``: only each side's points (NS, EW; at a cut-throat table each player's, 1 to n).
    ``irregularity``: a misdeal or a revoke.
    ``incorrect_hands``: hands found with too many or too few cards (003), which change no score.
    The irregularities are four-player only.  The seats say the table: ``N E S W``, or a
    cut-throat table's seats (:attr:`table`).

    >>> DealEntry.of("N", calls="p p 8 p", trump="S", took={"High": "NS", "Low": "E", "Jack": "nobody",
    ...     "Game": "EW", "Right Pedro": "S", "Left Pedro": "W"}).took[:2]
    (('High', Team.NS), ('Low', Seat.E))
    """

    dealer: Seat
    calls: tuple[Call, ...] = ()
    maker: Seat | None = None
    bid: int | None = None
    trump: Suit | None = None
    took: tuple[tuple[str, Taker], ...] | None = None
    points: tuple[int, ...] | None = None
    irregularity: Irregularity | None = None
    incorrect_hands: tuple[IncorrectHand, ...] = ()  # 003's incorrect hand: noted, no score changes

    @classmethod
    def of(cls, dealer: Seat | str, *, calls: str | Iterable[Call | str] = (), maker: Seat | str | None = None,
           bid: int | None = None, trump: Suit | str | None = None,
           took: Mapping[str, Taker | str | Sequence[Taker | str]] | Iterable[tuple[str, Taker | str]] | None = None,
           points: Sequence[int] | None = None, irregularity: Irregularity | None = None,
           incorrect_hands: Iterable[IncorrectHand] = (), table: Seating = FOUR) -> DealEntry:
        """An entry from text or values: seats as ``"N"`` (at a cut-throat ``table``, ``"1"``), suits as ``"H"``
        or ``"hearts"``, calls as ``"p 7 p p"``, takers as ``"NS"``, ``"E"`` or ``"nobody"``; with two packs
        ``took`` may give a card's takers together, one a copy: ``{"Jack": ("NS", "EW")}``."""
        try:
            pairs = None
            if took is not None:
                items = took.items() if isinstance(took, Mapping) else took
                pairs = tuple((parse_point_card(name), parse_taker(who, table) if isinstance(who, str) else who)
                              for name, whom in items
                              for who in (whom if isinstance(whom, list | tuple) else (whom,)))
            return cls(
                dealer=table.parse_seat(dealer) if isinstance(dealer, str) else table.seats[dealer],
                calls=parse_calls(calls),
                maker=table.parse_seat(maker) if isinstance(maker, str) else maker,
                bid=bid, trump=Suit.parse(trump) if isinstance(trump, str) else trump,
                took=pairs, points=None if points is None else _points_of(points, table),
                irregularity=irregularity, incorrect_hands=tuple(incorrect_hands),
            )
        except EntryError:
            raise
        except NotationError as e:
            raise EntryError(str(e)) from None
        except (TypeError, ValueError, IndexError):
            if table.partnership:
                raise EntryError(f"points are two whole numbers, NS then EW, as (9, 5), not {quoted(points)}") from None
            raise EntryError(f"points are {table.players} whole numbers, one for each player from 1 to "
                             f"{table.players}, as {_example_points(table)}, not {quoted(points)}") from None

    @property
    def table(self) -> Seating:
        """The table the deal was played at, as its dealer's seat says."""
        return table_of(self.dealer)

    def taker(self, name: str) -> Taker:
        """Who took the point card ``name`` (None: nobody, or not entered)."""
        return dict(self.took or ()).get(name)

    def to_json(self) -> dict[str, Any]:
        """The ``real_cards`` object of a record's deal (docs/record-format.md)."""
        out: dict[str, Any] = {}
        if self.calls:
            out["calls"] = [str(c) for c in self.calls]
        out["maker"] = None if self.maker is None else self.maker.name
        if self.bid is not None:
            out["bid"] = self.bid
        if self.trump is not None:
            out["trump"] = self.trump.letter
        if self.took is not None:
            out["took"] = took_json(self.took)
        if self.points is not None:
            out["points"] = teams_json(self.points, self.table)
        if self.irregularity is not None:
            out["irregularity"] = self.irregularity.to_json()
        if self.incorrect_hands:
            out["incorrect_hands"] = [hand.to_json() for hand in self.incorrect_hands]
        return out

    @classmethod
    def from_json(cls, dealer: Seat, value: Any) -> DealEntry:
        """Read a record's ``real_cards`` object, at the table of ``dealer``'s seat; :class:`EntryError` names
        the field that is wrong.

        >>> three = seating(3)
        >>> DealEntry.from_json(three.seats[0], {"maker": "2", "bid": 6, "points": {"1": 4, "2": 7, "3": 3}}).points
        (4, 7, 3)
        """
        table = table_of(dealer)
        if not isinstance(value, dict):
            raise EntryError(f"must be an object with maker, bid, trump and took or points, not {json_kind(value)}")
        unknown = set(value) - {"calls", "maker", "bid", "trump", "took", "points", "irregularity", "incorrect_hands"}
        if unknown:
            raise EntryError(f"unknown field {quoted(sorted(unknown)[0])}; a deal played with real cards has calls, "
                             "maker, bid, trump, took, points, irregularity and incorrect_hands")
        calls: tuple[Call, ...] = ()
        if "calls" in value:
            raw = value["calls"]
            if not isinstance(raw, list) or not all(isinstance(c, str) for c in raw):
                raise EntryError('"calls" must be a list of calls, as ["pass", "bid 7"]')
            calls = parse_calls(raw)
        maker = value.get("maker")
        if maker is not None and (not isinstance(maker, str) or maker.strip().upper() not in table.names):
            raise EntryError(f'"maker" must be one of {_seats_text(table)} or null, not {quoted(maker)}')
        bid = value.get("bid")
        if bid is not None and (not isinstance(bid, int) or isinstance(bid, bool)):
            raise EntryError(f'"bid" must be a whole number, not {json_kind(bid)}')
        trump = value.get("trump")
        if trump is not None and not isinstance(trump, str):
            raise EntryError(f'"trump" must be a suit letter (S H D C), not {json_kind(trump)}')
        took = value.get("took")
        pairs: list[tuple[str, Taker]] | None = None
        if took is not None:
            if not isinstance(took, dict):
                raise EntryError(f'"took" must be an object naming a side for each point card, not {json_kind(took)}')
            pairs = []
            for name, who in took.items():
                if name not in CARD_ORDER:
                    raise EntryError(f'"took" names {quoted(name)}, which is not a point card; they are '
                                     f"{_and(list(CARD_ORDER))}")
                copies = who if isinstance(who, list) and who else [who]  # two packs: a taker for each copy
                for one in copies:
                    if one is not None and not isinstance(one, str):
                        where = '"NS", "EW", a seat' if table.partnership else "a player's seat"
                        raise EntryError(f'"took": {name} must go to {where} or null (with two packs a list of '
                                         f'them, one for each copy, as ["NS", null]), not {json_kind(one)}')
                    pairs.append((name, None if one is None else _taker_json(one, name, table)))
        points = value.get("points")
        pair = None
        if points is not None:
            if (not isinstance(points, dict) or set(points) != set(table.side_names)
                    or not all(isinstance(v, int) and not isinstance(v, bool) for v in points.values())):
                shape = ", ".join(f'"{name}": n' for name in table.side_names)
                raise EntryError(f'"points" must be {{{shape}}} with whole numbers')
            pair = tuple(points[name] for name in table.side_names)
        if not table.partnership and (value.get("irregularity") is not None or value.get("incorrect_hands")):
            raise EntryError(honour_refusal(table))
        irregularity = None if value.get("irregularity") is None else Irregularity.from_json(value["irregularity"])
        hands = value.get("incorrect_hands", [])
        if not isinstance(hands, list):
            raise EntryError(f'"incorrect_hands" must be a list, as [{{"seat": "E", "too_many": 1}}], '
                             f"not {json_kind(hands)}")
        incorrect = tuple(IncorrectHand.from_json(h) for h in hands)
        try:
            return cls(dealer, calls, None if maker is None else table.parse_seat(maker), bid,
                       None if trump is None else Suit.parse(trump), None if pairs is None else tuple(pairs), pair,
                       irregularity, incorrect)
        except NotationError as e:
            raise EntryError(str(e)) from None


def took_json(took: Iterable[tuple[str, Taker]]) -> dict[str, Any]:
    """``took`` as a record writes it: each point card with whoever took it, or with two packs the list
    of whoever took each copy.

    >>> took_json([("High", Team.NS), ("Jack", None), ("Jack", Seat.E)])
    {'High': 'NS', 'Jack': [None, 'E']}
    """
    takers: dict[str, list[str | None]] = {}
    for name, who in took:
        takers.setdefault(name, []).append(None if who is None else who.name)
    return {name: whom[0] if len(whom) == 1 else whom for name, whom in takers.items()}


def _taker_json(text: str, name: str, table: Seating = FOUR) -> Taker:
    if table.partnership and text not in ("NS", "EW", "N", "E", "S", "W"):
        raise EntryError(f'"took": {name} must go to "NS", "EW", one of "N" "E" "S" "W", or null, not {quoted(text)}')
    if not table.partnership and text not in table.names:
        seats = " ".join(f'"{n}"' for n in table.names)
        raise EntryError(f'"took": {name} must go to one of {seats}, or null, not {quoted(text)}')
    return parse_taker(text, table)


def _points_of(points: Sequence[int], table: Seating) -> tuple[int, ...]:
    """Points as whole numbers, one per side of the table (ValueError otherwise)."""
    if isinstance(points, str | bytes) or len(points) != table.sides:
        raise ValueError(points)
    if any(isinstance(p, bool) or not isinstance(p, int | str) for p in points):
        raise ValueError(points)
    return tuple(int(p) for p in points)


def _example_points(table: Seating) -> str:
    """An example of each player's points at a cut-throat table: ``(4, 0, 10)``."""
    return "(" + ", ".join(str(p) for p in (4, 0, 10, 0, 0, 0)[:table.players]) + ")"


# ---- a settled deal -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class SettledDeal:
    """A deal of the sheet once settled: the entry (with the maker and bid its calls give, and the
    penalty text resolved), the points, the settlement, the score after it and the ruling in words."""

    number: int
    entry: DealEntry
    points: tuple[int, ...] | None  # what each side took (None: not entered, a revoke under 002)
    made: bool | None
    score_change: tuple[int, ...]
    score: tuple[int, ...]  # the running score after the deal (NS, EW; cut-throat by player)
    bidder_goes_out: bool  # the deal was played under bidder goes out
    winner: Team | None  # the match's winner after this deal
    decider_pending: bool  # both sides reached the target together: bidder-goes-out deals follow
    next_dealer: Seat
    ruling: tuple[str, ...] = field(compare=False)

    @property
    def dealer(self) -> Seat:
        return self.entry.dealer

    @property
    def makers(self) -> Team | None:
        return None if self.entry.maker is None else self.entry.maker.team

    @property
    def table(self) -> Seating:
        return self.entry.table

    @property
    def result(self) -> DealResult:
        """The deal's result in the engine's terms (no awards: no cards were recorded)."""
        e = self.entry
        thrown_in = e.maker is None and e.irregularity is None
        return DealResult(thrown_in, e.maker, e.bid, e.trump, (), self.points, self.made, self.score_change,
                          seating=self.table)

    def result_json(self) -> dict[str, Any]:
        """The ``result`` of a record's deal: what the rules made of the entry."""
        table = self.table
        return {"points": None if self.points is None else teams_json(self.points, table), "made": self.made,
                "score_change": teams_json(self.score_change, table), "score": teams_json(self.score, table)}

    def to_json(self) -> dict[str, Any]:
        """As ``cinch replay --json`` reports a deal, with its irregularity (or null)."""
        out = DealSummary(self.number, self.dealer, self.result, self.bidder_goes_out, self.score).to_json()
        irregularity = self.entry.irregularity
        out["irregularity"] = None if irregularity is None else irregularity.to_json()
        if self.entry.incorrect_hands:  # (absent otherwise: every other sheet reads as before)
            out["incorrect_hands"] = [hand.to_json() for hand in self.entry.incorrect_hands]
            out["ruling"] = list(self.ruling)
        return out

    def line(self) -> str:
        """One line for ``cinch replay``: ``1. W dealt: N bid 7 in hearts; took NS 13, EW 1; ...``."""
        return f"{self.number:>3}. {self.summary()}  Score {self.table.score_text(self.score)}"

    def summary(self) -> str:
        """The deal in one sentence, without its number or the score after it:
        ``W dealt: N bid 7 in hearts; took NS 13, EW 1; ...``."""
        e = self.entry
        head = f"{e.dealer} dealt"
        irregularity = e.irregularity
        if irregularity is not None and irregularity.kind == MISDEAL:
            return f"{head}: misdeal ({irregularity.text}), no score."
        if e.maker is None:
            return f"{head}: thrown in."
        trump = f" in {_suit_word(e.trump)}" if e.trump is not None else ""
        bgo = " [bidder goes out]" if self.bidder_goes_out else ""
        table = self.table
        took = "" if self.points is None else \
            f"{'took' if table.partnership else 'points'} {table.score_text(self.points)}; "
        what = (self.result.describe() if irregularity is None
                else f"{irregularity.describe()}: {_changes(self.score_change)}")
        hands = "".join(f" {self.ruling[i]}" for i in self.incorrect_hand_lines())
        return f"{head}: {e.maker} bid {e.bid}{trump}{bgo}; {took}{what}.{hands}"

    def incorrect_hand_lines(self) -> range:
        """Where the incorrect hands' rulings stand in :attr:`ruling` (right after the contract's line)."""
        return range(1, 1 + len(self.entry.incorrect_hands))


def _suit_word(suit: Suit) -> str:
    return suit.name.lower()


def _changes(change: tuple[int, ...]) -> str:
    return changes_text(change)


def _and(names: Sequence[str]) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# ---- checking an entry -----------------------------------------------------------------------------------
def read_auction(rules: Rules, dealer: Seat, calls: Sequence[Call]) -> tuple[Seat, int] | None:
    """The maker and bid the calls give, or None when all passed; the calls are checked by the
    deal's own bidding (turns, range, each bid beating the last, the stuck dealer, the auction).

    >>> read_auction(Rules.preset("pagat"), Seat.W, parse_calls("p 8 p p"))
    (Seat.E, 8)
    """
    # The bidding's one home is the Deal: any deck will do, as no call depends on the cards (with two
    # packs the text twice: the second time the twins).
    deal = Deal(rules, dealer, " ".join([EXAMPLE_DECK] * rules.decks))
    for index, call in enumerate(calls, start=1):
        if deal.phase is not Phase.BIDDING:
            raise EntryError(f"call {index}, {call}, comes after the auction is over (it ended with call "
                             f"{index - 1}); give only the calls made")
        seat = deal.to_act
        try:
            deal.apply(call)
        except IllegalAction as e:
            raise EntryError(f"call {index} ({seat}'s), {call}, is illegal: {e.rule}. Legal there: "
                             f"{e.legal_summary}") from None
    if deal.phase is Phase.BIDDING:
        how = ("each player calls once, from the dealer's left, the dealer last" if rules.bidding is Bidding.ONE_CIRCUIT
               else "the auction goes on until the others pass")
        raise EntryError(f"the auction is not over after {len(calls)} calls: {deal.to_act} is still to call "
                         f"({how})")
    if deal.maker is None:
        return None
    return deal.maker, deal.high_bid


def check_took(rules: Rules, took: Sequence[tuple[str, Taker]]) -> tuple[int, ...]:
    """Each side's points (at a cut-throat table each player's) from who took each point card, after
    checking that every point card of the rules is named once (with two packs once for each copy, so
    twice), to someone at the table, and that the nobodies are possible.

    >>> rules = Rules.preset("official")
    >>> check_took(rules, [("High", Team.NS), ("Low", Seat.E), ("Jack", None), ("Game", Team.NS),
    ...                    ("Right Pedro", Team.EW), ("Left Pedro", Seat.S)])
    (7, 6)
    """
    cards = point_cards(rules)
    table = rules.seating
    by_name = {c.name: c for c in cards}
    seen: dict[str, list[Taker]] = {}
    for name, taker in took:
        if name not in by_name:
            raise EntryError(_not_a_point_card(rules, name))
        if taker is not None and not at_table(table, taker):
            raise EntryError(f"{name} is given to {taker}, who is not at this table: the players are "
                             f"{_seats_text(table)}")
        given = seen.setdefault(name, [])
        if len(given) == by_name[name].copies:
            raise EntryError(_given_too_often(name, [*given, taker], table))
        given.append(taker)
    missing = [(c, c.copies - len(seen.get(c.name, ()))) for c in cards if len(seen.get(c.name, ())) < c.copies]
    if missing:
        whom = "a side (NS, EW), a player (N E S W)" if table.partnership else f"a player ({_seats_text(table)})"
        packs = " (two packs: each copy of a point card is given)" if rules.decks == TWO_DECKS else ""
        raise EntryError(f"say who took {_missing_words(missing)}: {whom} or nobody{packs}")
    nobody = [c.name for c in cards if None in seen[c.name]]
    if nobody and every_card_scores(rules):
        raise EntryError(
            f"{_and(nobody)} cannot go to nobody under {rules.name}: there every trump is in play (players keep "
            "their trumps, the dealer takes every trump left in the stock, and no point card is buried), so "
            f"every point card scores for a {_side_word(table)}"
        )
    for name in ("High", "Low"):
        if is_relative(rules, name) and all(taker is None for taker in seen[name]):
            taken = [c.name for c in cards if any(taker is not None for taker in seen[c.name])]
            if taken:
                which = "either copy of it" if by_name[name].copies > 1 else "it"
                raise EntryError(
                    f"under {rules.name} {name} is {by_name[name].what}: if nobody took {which} no trump was "
                    f"played, yet {_and(taken)} went to a {_side_word(table)}; say who took {name}"
                )
    points = [0] * table.sides
    for card in cards:
        for taker in seen[card.name]:
            if taker is not None:
                points[team_of(taker)] += card.points
    return tuple(points)


def _given_too_often(name: str, takers: list[Taker], table: Seating) -> str:
    """Why a point card named once too often is refused: each copy scores for one side only."""
    if len(takers) == 2:
        first, second = (taker_text(t) for t in takers)
        return f"{name} is given twice (to {first} and to {second}): a point card scores for one " \
               f"{_side_word(table)} only"
    times = {3: "three", 4: "four"}.get(len(takers), str(len(takers)))
    return (f"{name} is given {times} times (to {_and([taker_text(t) for t in takers])}): two packs hold two, and "
            f"each copy scores for one {_side_word(table)} only")


def _missing_words(missing: Sequence[tuple[PointCard, int]]) -> str:
    """The copies no one was given yet: ``Jack and Game``, or with two packs ``both Highs and the other Jack``."""
    words = []
    for card, left in missing:
        if card.copies == 1:
            words.append(card.name)
        else:
            words.append(f"both {card.name}s" if left == card.copies else f"the other {card.name}")
    return _and(words)


def _not_a_point_card(rules: Rules, name: str) -> str:
    known = _and([c.name for c in point_cards(rules)])
    text = f"{name} is not a point card under {rules.name}; the point cards are {known}"
    if name == "Sancho":
        text += " (-o sancho=true makes the nine of trumps Sancho, 9 points)"
    elif name == "Dom":
        text += " (-o dom_pedro=true makes the three of trumps Dom, 3 points)"
    return text


@functools.lru_cache(maxsize=64)
def possible_points(rules: Rules) -> frozenset[tuple[int, ...]]:
    """Every split of points between two sides (NS, EW; or the two players of a table of two) a deal can
    give: the totals of every assignment of the point cards that :func:`check_took` accepts.

    Built card by card (its copies to one side, the other, or nobody where a card may die), keeping
    whether any card was taken and whether a relative High or Low went to nobody: once any card is
    taken, High and Low "in play" were taken too.

    >>> sorted(possible_points(Rules.preset("pagat")))[:3]
    [(0, 14), (1, 13), (2, 12)]
    """
    may_die = not every_card_scores(rules)
    # (the first side's points, the second's, any card taken, a relative High or Low taken by nobody)
    states: set[tuple[int, int, bool, bool]] = {(0, 0, False, False)}
    for card in point_cards(rules):
        shares = [(a, b) for a in range(card.copies + 1) for b in range(card.copies + 1 - a)
                  if may_die or a + b == card.copies]
        relative = is_relative(rules, card.name)
        states = {(x + a * card.points, y + b * card.points, taken or a + b > 0, missed or (relative and a + b == 0))
                  for x, y, taken, missed in states for a, b in shares}
    return frozenset((x, y) for x, y, taken, missed in states if not (taken and missed))


def can_share(rules: Rules, points: Sequence[int]) -> bool:
    """Whether the point cards can be shared out to give each player ``points`` (a cut-throat table),
    under the same limits as :func:`check_took`: a card may go to nobody only where the rules let it,
    and once any card is taken High and Low "in play" are taken too.

    >>> three = Rules.preset("official").with_options(players=3)
    >>> can_share(three, (4, 0, 10)), can_share(three, (2, 2, 2))
    (True, False)
    """
    # Each copy of each card, the big ones first (they fit fewest ways), with whether it must be taken once
    # anyone took a card: High or Low "in play" (with two packs one copy of it; the other may be out of play).
    cards = sorted(((c.points, i == 0 and is_relative(rules, c.name)) for c in point_cards(rules)
                    for i in range(c.copies)), key=lambda card: -card[0])
    may_be_dead = not every_card_scores(rules)
    anyone = any(points)

    @functools.cache
    def fits(index: int, needs: tuple[int, ...]) -> bool:  # needs: what each player still has to take, sorted
        if index == len(cards):
            return not any(needs)
        value, in_play = cards[index]
        if may_be_dead and not (anyone and in_play) and fits(index + 1, needs):
            return True
        for i, need in enumerate(needs):
            if need >= value and (i == 0 or needs[i - 1] != need):  # (equal needs: one try does)
                rest = (*needs[:i], need - value, *needs[i + 1:])
                if fits(index + 1, tuple(sorted(rest))):
                    return True
        return False

    return fits(0, tuple(sorted(points)))


def check_points(rules: Rules, points: Sequence[int]) -> None:
    """Refuse a split of points no deal can give under the rules, saying why.

    >>> check_points(Rules.preset("pagat"), (4, 4))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cinch.scorekeeper.EntryError: NS 4 and EW 4 make 8, but under pagat every point card scores for a side: ...
    """
    table = rules.seating
    if len(points) != table.sides:
        raise EntryError(f"give the points of each {_side_word(table)}: {table.sides} numbers "
                         f"({', '.join(table.side_names)}), not {len(points)}")
    if not table.partnership:
        _check_players_points(rules, table, tuple(points))
        return
    ns, ew = points
    total = rules.total_points
    if ns < 0 or ew < 0:
        raise EntryError(f"the points taken cannot be negative (NS {ns}, EW {ew}); a set is scored by the rules, "
                         "enter what each side took")
    if ns + ew > total:
        raise EntryError(f"NS {ns} and EW {ew} make {ns + ew}, but the point cards hold only {total} under "
                         f"{rules.name} ({cards_text(rules)})")
    if (ns, ew) in possible_points(rules):
        return
    if every_card_scores(rules):
        raise EntryError(f"NS {ns} and EW {ew} make {ns + ew}, but under {rules.name} every point card scores for "
                         f"a side: the points add up to {total}")
    raise EntryError(f"NS {ns} and EW {ew} cannot be taken together: the point cards are {cards_text(rules)}, "
                     f"and no share of them gives NS {ns} and EW {ew}")


def _check_players_points(rules: Rules, table: Seating, points: tuple[int, ...]) -> None:
    """:func:`check_points` at a cut-throat table, where each player took his own points."""
    total = rules.total_points
    shown = _and([f"{name}: {p}" for name, p in zip(table.side_names, points, strict=True)])
    if any(p < 0 for p in points):
        raise EntryError(f"the points taken cannot be negative ({shown}); a set is scored by the rules, enter what "
                         "each player took")
    taken = sum(points)
    if taken > total:
        raise EntryError(f"{shown} make {taken}, but the point cards hold only {total} under {rules.name} "
                         f"({cards_text(rules)})")
    if every_card_scores(rules) and taken != total:
        raise EntryError(f"{shown} make {taken}, but under {rules.name} at {table.players} players every point card "
                         f"scores for a player: the points add up to {total}")
    if (points in possible_points(rules)) if table.sides == 2 else can_share(rules, points):
        return
    raise EntryError(f"{shown} cannot be taken together: the point cards are {cards_text(rules)}, and no share of "
                     "them gives each player those points")


# ---- the score sheet --------------------------------------------------------------------------------------
class ScoreSheet:
    """A match with real cards: its entries settled one by one, the running score, the winner, undo.

    ``first_dealer`` fixes who deals first (None: the first entry says).  ``players`` names the
    players by seat, as a record does.  ``metadata`` holds a record's other top-level keys.
    The table is the rules' (:attr:`table`): four in partnerships, or two to six each for himself,
    whose entries name seats ``1`` to ``n`` and give each player's points.

    >>> from cinch import Rules
    >>> sheet = ScoreSheet(Rules.preset("difference"), first_dealer=Seat.S)
    >>> sheet.add(DealEntry.of("S", calls="p p p 4", trump="C", points=(5, 9))).ruling[1]
    'Difference scoring: the side that took more scores the difference, 9 - 5: EW +4.'
    """

    def __init__(self, rules: Rules, players: Mapping[Seat, str] | None = None, first_dealer: Seat | None = None):
        self.rules = rules
        self.table = table = rules.seating
        for seat in [*(players or {}), *([first_dealer] if first_dealer is not None else [])]:
            if not table.has_seat(seat):
                raise EntryError(f"{seat} is not a seat at this table; the seats are {_seats_text(table)}")
        self.players = dict(players or {})
        self.first_dealer = first_dealer
        self.metadata: dict[str, Any] = {}
        self._deals: list[SettledDeal] = []

    def __repr__(self) -> str:
        score = self.table.score_text(self.score).replace(",", "")
        return f"<ScoreSheet {self.rules.name}: {len(self._deals)} deals, {score}>"

    # ---- state ---------------------------------------------------------------------------------------------
    @property
    def deals(self) -> tuple[SettledDeal, ...]:
        return tuple(self._deals)

    @property
    def score(self) -> tuple[int, ...]:
        return self._deals[-1].score if self._deals else (0,) * self.table.sides

    @property
    def winner(self) -> Team | None:
        return self._deals[-1].winner if self._deals else None

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def next_dealer(self) -> Seat | None:
        """Who deals next: the player on the last dealer's left (the same dealer after a misdeal under
        002); before the first deal the first dealer, or None when any player may deal first."""
        return self._deals[-1].next_dealer if self._deals else self.first_dealer

    @property
    def decider_pending(self) -> bool:
        return bool(self._deals) and self._deals[-1].decider_pending

    def bidder_goes_out_applies(self) -> bool:
        """Whether the next deal is played under bidder goes out (000): every side at the threshold or
        more, or a tie at the target waiting for a decider (as :meth:`Match.bidder_goes_out_applies`)."""
        return bidder_goes_out_applies(self.rules, self.score, self.decider_pending)

    def side_name(self, team: Team) -> str:
        """``NS`` or, when the players have names, ``NS (Ann & Cy)``; at a cut-throat table ``2`` or
        ``2 (Bo)``."""
        names = [self.players[s] for s in team.seats if self.players.get(s)]
        return f"{team} ({' & '.join(names)})" if names else str(team)

    def score_text(self, score: Sequence[int] | None = None) -> str:
        """The score (the running one unless given) by side: ``NS 13, EW 1`` or ``1: 4, 2: -7, 3: 5``."""
        return self.table.score_text(tuple(self.score if score is None else score))

    def final_words(self, score: Sequence[int] | None = None, winner: Team | None = None) -> str:
        """How the match ended, for a line: ``NS win the match, 65 to 0`` (the winner's score first), or
        at a cut-throat table ``3 wins the match with 64 (1: 52, 2: 40, 3: 64)``."""
        score = tuple(self.score if score is None else score)
        winner = self.winner if winner is None else winner
        assert winner is not None
        return _final_words(self.table, score, winner, self.side_name(winner))

    def over_words(self) -> str:
        """Who won a finished match, for a refusal: ``NS won, 65 to 0``, or ``3 won with 64 (1: 52, ...)``."""
        assert self.winner is not None
        return _over_words(self.table, self.score, self.winner)

    # ---- entering -------------------------------------------------------------------------------------------
    def check(self, entry: DealEntry) -> SettledDeal:
        """Settle ``entry`` as the next deal without adding it; :class:`EntryError` says what is wrong."""
        rules = self.rules
        number = len(self._deals) + 1
        table = self.table
        if self.winner is not None:
            raise EntryError(f"the match is over: {self.over_words()}; undo takes back the last deal")
        expected = self.next_dealer
        dealer = entry.dealer
        self._check_seats(entry)
        if not table.partnership and (entry.irregularity is not None or entry.incorrect_hands):
            raise EntryError(honour_refusal(table))
        if expected is not None and dealer != expected:
            why = ("after a misdeal under 002 the same dealer deals again" if self._deals and expected ==
                   self._deals[-1].dealer else "the deal passes to the left")
            raise EntryError(f"{dealer} cannot deal deal {number}: {why}, and {expected} deals now")
        if entry.incorrect_hands:
            entry = self._incorrect_hands(entry)
        irregularity = entry.irregularity
        if irregularity is not None:
            _check_irregularity(irregularity)
            if irregularity.text is None:
                irregularity = dataclasses.replace(irregularity, text=default_penalty_text(rules))
                entry = dataclasses.replace(entry, irregularity=irregularity)
            if irregularity.kind == MISDEAL:
                return self._misdeal(number, entry, irregularity)
        entry = self.contract(entry)
        if entry.maker is None:
            return self._thrown_in(number, entry)
        return self._played(number, entry)

    def add(self, entry: DealEntry) -> SettledDeal:
        """Settle ``entry`` as the next deal and add it to the sheet."""
        settled = self.check(entry)
        self._deals.append(settled)
        return settled

    def _check_seats(self, entry: DealEntry) -> None:
        """Refuse a seat or a side that is not at this table (an entry made for another table)."""
        table = self.table
        for what, who in (("dealer", entry.dealer), ("maker", entry.maker)):
            if who is not None and not table.has_seat(who):
                raise EntryError(f"the {what}, {who}, is not a seat at this table; the seats are {_seats_text(table)}")

    def undo(self) -> SettledDeal:
        """Take back the last deal (a mistyped one); returns it."""
        if not self._deals:
            raise EntryError("there is no deal to take back yet")
        return self._deals.pop()

    # ---- settling ---------------------------------------------------------------------------------------------
    def contract(self, entry: DealEntry) -> DealEntry:
        """The entry with the maker and bid its calls give, after checking the bidding (a front end
        checks the bidding this way before it asks for trumps and points).

        >>> sheet = ScoreSheet(Rules.preset("official"))
        >>> e = sheet.contract(DealEntry.of("N", calls="p 5 p 6"))
        >>> e.maker, e.bid
        (Seat.N, 6)
        """
        rules = self.rules
        maker, bid = entry.maker, entry.bid
        if entry.calls:
            got = read_auction(rules, entry.dealer, entry.calls)
            if got is None:
                if maker is not None or bid is not None:
                    raise EntryError("the calls are all passes, so nobody is the maker; leave out the maker "
                                     "and bid, or give the calls made")
            else:
                high, amount = got
                if maker is not None and maker != high:
                    raise EntryError(f"{maker} did not bid highest: the calls make {high} the maker with a bid "
                                     f"of {amount}")
                if bid is not None and bid != amount:
                    raise EntryError(f"the bid is given as {bid}, but the calls end with {high}'s bid of {amount}")
                maker, bid = high, amount
        elif maker is None and bid is not None:
            raise EntryError(f"a bid of {bid} needs its maker: say who bid it ({_seats_text(rules.seating)})")
        elif maker is not None and bid is None:
            raise EntryError(f"say what {maker} bid: from {rules.min_bid} to {rules.highest_bid} under {rules.name}")
        elif bid is not None and not rules.min_bid <= bid <= rules.highest_bid:
            raise EntryError(f"a bid of {bid} is out of range: bids run from {rules.min_bid} to "
                             f"{rules.highest_bid} under {rules.name}")
        return dataclasses.replace(entry, maker=maker, bid=bid)

    def _incorrect_hands(self, entry: DealEntry) -> DealEntry:
        """The incorrect hands checked (one per seat), each with the text whose ruling applies."""
        seen: set[Seat] = set()
        hands = []
        for hand in entry.incorrect_hands:
            if not isinstance(hand, IncorrectHand):
                raise EntryError(f"an incorrect hand is an IncorrectHand, not {quoted(hand)}")
            hand.check()
            if hand.seat in seen:
                raise EntryError(f"{hand.seat}'s incorrect hand is given twice: give it once, with the cards too "
                                 "many or too few")
            seen.add(hand.seat)
            hands.append(hand if hand.text is not None else dataclasses.replace(
                hand, text=default_penalty_text(self.rules)))
        return dataclasses.replace(entry, incorrect_hands=tuple(hands))

    def _misdeal(self, number: int, entry: DealEntry, irregularity: Irregularity) -> SettledDeal:
        if entry.calls or entry.maker is not None or entry.bid is not None or entry.trump is not None \
                or entry.took is not None or entry.points is not None or entry.incorrect_hands:
            raise EntryError("a misdeal is dealt again: it has no bidding, trumps, points or incorrect hand to enter")
        nxt, words = misdeal_ruling(entry.dealer, irregularity.text or default_penalty_text(self.rules))
        return self._settled(number, entry, None, None, (0,) * self.table.sides, nxt, [words], scored=False)

    def _thrown_in(self, number: int, entry: DealEntry) -> SettledDeal:
        rules = self.rules
        if rules.all_pass is AllPass.STUCK_DEALER:
            raise EntryError(f"under {rules.name} a deal is never thrown in: when {self.table.others_text} pass the "
                             f"dealer is stuck and must bid {rules.min_bid}; give the maker and the bid")
        if entry.irregularity is not None:
            raise EntryError("a revoke needs a contract: give the maker and the bid")
        if entry.incorrect_hands:
            raise EntryError("an incorrect hand is ruled on in play, and all passed: leave it out, or give the "
                             "maker and the bid")
        if entry.trump is not None or entry.took is not None or entry.points is not None:
            raise EntryError("all passed, so the deal is thrown in: it has no trumps and no points; give the "
                             "maker and the bid if someone bid")
        words = f"All passed: the deal is thrown in, no score. {entry.dealer.left} deals next."
        return self._settled(number, entry, None, None, (0,) * self.table.sides, entry.dealer.left, [words],
                             scored=False)

    def _played(self, number: int, entry: DealEntry) -> SettledDeal:
        rules = self.rules
        maker, bid = entry.maker, entry.bid
        assert maker is not None and bid is not None
        table = self.table
        each = f"each {_side_word(table)}'s points"
        if entry.took is not None and entry.points is not None:
            raise EntryError(f"give either who took each point card or {each}, not both")
        points: tuple[int, ...] | None = None
        if entry.took is not None:
            points = check_took(rules, entry.took)
        elif entry.points is not None:
            check_points(rules, entry.points)
            points = tuple(entry.points)
        irregularity = entry.irregularity
        revoke_002 = irregularity is not None and irregularity.kind == REVOKE and irregularity.text == "002"
        if points is None and not revoke_002:
            raise EntryError(f"say who took the points: {each} (they add up to at most "
                             f"{rules.total_points}), or who took each point card ({_and(_names(rules))})")
        makers = maker.team
        words = [_contract_words(entry, points)]
        hands = [hand.ruling(rules) for hand in entry.incorrect_hands]  # they change no score
        if irregularity is not None:
            assert irregularity.by is not None
            made, change, more = revoke_ruling(rules, makers, bid, points, team_of(irregularity.by), irregularity.text)
            words[0] += "."
            words += hands + more
        else:
            assert points is not None
            made, change = settle(rules, makers, bid, points)
            words[0] += ": made." if made else ": set."
            words += hands
            if table.partnership:
                words.append(_settlement_words(rules, makers, bid, points, made, change))
            elif table.sides == 2:
                words.append(_two_players_words(rules, makers, bid, points, made, change))
            else:
                words.append(_cut_throat_words(table, maker, made, change))
        return self._settled(number, entry, points, made, change, entry.dealer.left, words, scored=True)

    def _settled(self, number: int, entry: DealEntry, points: tuple[int, ...] | None, made: bool | None,
                 change: tuple[int, ...], next_dealer: Seat, words: list[str], *, scored: bool) -> SettledDeal:
        rules = self.rules
        table = self.table
        before = self.score
        bgo = self.bidder_goes_out_applies()
        pending = self.decider_pending
        winner: Team | None = None
        score = tuple(b + c for b, c in zip(before, change, strict=True))
        if scored:
            assert entry.maker is not None and made is not None
            makers = entry.maker.team
            # Only the sides standing at the target may go out on a deciding deal (as the match plays it).
            winner, tied = decide(rules, score, makers, made, bgo, going_out_sides(rules, before, pending))
            # As the match keeps it: a win ends the decider, a tie at the target starts one.
            pending = False if winner is not None else (True if tied else pending)
            words.append(f"Score: {table.score_text(score)} (first to {rules.target} wins).")
            if table.partnership:
                words += _going_out_words(rules, score, makers, made, bgo, winner, tied)
            else:
                words += _players_going_out_words(rules, score, makers, made, bgo, winner, tied)
            if winner is None and not bgo and not tied and bidder_goes_out_applies(rules, score, False):
                words.append(f"Bidder goes out from the next deal: both sides stand at {rules.bidder_goes_out} or "
                             "more, and makers who make their bid win outright." if table.partnership else
                             f"Bidder goes out from the next deal: every player stands at {rules.bidder_goes_out} "
                             "or more, and a maker who makes his bid wins outright.")
        else:
            words.append(f"Score: {table.score_text(score)}.")
        return SettledDeal(number, entry, points, made, change, score, bgo, winner, pending, next_dealer,
                           tuple(words))


def _check_irregularity(irregularity: Irregularity) -> None:
    """Refuse an irregularity built by hand that the classmethods would not have built."""
    if irregularity.kind not in (MISDEAL, REVOKE):
        raise EntryError(f"an irregularity is a misdeal or a revoke, not {quoted(irregularity.kind)}")
    _penalty_text(irregularity.text)
    if irregularity.kind == REVOKE and irregularity.by is None:
        raise EntryError("say who revoked: a side (NS, EW) or a player (N E S W)")
    if irregularity.kind == MISDEAL and irregularity.by is not None:
        raise EntryError("a misdeal is nobody's revoke: leave out who")


def _names(rules: Rules) -> list[str]:
    return [c.name for c in point_cards(rules)]


def _contract_words(entry: DealEntry, points: tuple[int, ...] | None) -> str:
    maker = entry.maker
    assert maker is not None
    makers = maker.team
    trump = f" in {_suit_word(entry.trump)}" if entry.trump is not None else ""
    head = f"{maker} bid {entry.bid}{trump}"
    if points is None:
        return head
    if len(points) != 2:  # each for himself: the maker first, then the others from his left
        others = ", ".join(f"{seat} {points[seat]}" for seat in entry.table.turns(maker)[:-1])
        return f"{head}: {maker} took {points[maker]}, {others}"
    return f"{head}: {makers} took {points[makers]}, {makers.other} {points[makers.other]}"


def _cut_throat_words(table: Seating, maker: Seat, made: bool, change: tuple[int, ...]) -> str:
    """How a deal scores at three to six players, each for himself; the figures are ``settle()``'s."""
    figures = ", ".join(f"{seat} {change[seat]:+d}" for seat in (maker, *table.turns(maker)[:-1]))
    if made:
        return f"Cut-throat scoring: every player adds the points he took: {figures}."
    return ("Cut-throat scoring: every player adds the points he took, but a maker short of his bid loses it: "
            f"{figures}.")


def _settlement_words(rules: Rules, makers: Team, bid: int, points: tuple[int, ...], made: bool,
                      change: tuple[int, ...]) -> str:
    """How the deal scores, in the words of the preset's own scoring; the figures are ``settle()``'s."""
    return _two_sides_words(rules, makers, bid, points, made, change, _SIDES_WORDS)


def _two_players_words(rules: Rules, maker: Team, bid: int, points: tuple[int, ...], made: bool,
                       change: tuple[int, ...]) -> str:
    """:func:`_settlement_words` at a table of two, each for himself: the preset's own scoring, with a
    maker and his opponent for the two sides."""
    return _two_sides_words(rules, maker, bid, points, made, change, _PLAYERS_WORDS)


# The words of a two-side settlement: partnerships, or the two players of a table of two.
_SIDES_WORDS = {
    "made": "each side adds the points it took",
    "set": "makers who fall short lose their bid, and the defenders add the points they took",
    "more": "the side that took more", "gets": "the defenders score", "short": "the makers fell short",
}
_PLAYERS_WORDS = {
    "made": "each player adds the points he took",
    "set": "a maker who falls short loses his bid, and his opponent adds the points he took",
    "more": "the player who took more", "gets": "the opponent scores", "short": "the maker fell short",
}


def _two_sides_words(rules: Rules, makers: Team, bid: int, points: tuple[int, ...], made: bool,
                     change: tuple[int, ...], words: dict[str, str]) -> str:
    other = makers.other
    took, against = points[makers], points[other]
    if rules.settlement is Settlement.ADDITIVE:
        return (f"Additive scoring: {words['made' if made else 'set']}: {makers} {change[makers]:+d}, "
                f"{other} {change[other]:+d}.")
    if made:
        if took == against:
            return f"Difference scoring: {took} against {against}, no difference: no score."
        more, fewer = (makers, other) if took > against else (other, makers)
        return (f"Difference scoring: {words['more']} scores the difference, {points[more]} - "
                f"{points[fewer]}: {more} {change[more]:+d}.")
    return (f"Difference scoring: {words['gets']} the deal's {rules.total_points} points plus the "
            f"{bid - took} {words['short']}: {other} {change[other]:+d}.")


def _going_out_words(rules: Rules, score: tuple[int, ...], makers: Team, made: bool, bgo: bool,
                     winner: Team | None, tied: bool) -> list[str]:
    """Why the match ends here, or why not, in words; who wins is ``decide()``'s answer."""
    target = rules.target
    over = [s >= target for s in score]
    words = []
    if bgo and not made:
        words.append(f"Bidder goes out applied, but {makers} were set: the deal scores as usual.")
    if winner is not None:
        final = f"{winner} win the match, {score[winner]} to {score[winner.other]}."
        if bgo and made and winner == makers:
            words.append(f"Bidder goes out: {makers} made their bid on a bidder-goes-out deal: {final}")
        elif all(over) and rules.makers_count_first:
            words.append(f"Both sides reach {target} on this deal: the makers count first, and {makers} "
                         f"{'made their bid' if made else 'were set'}: {final}")
        elif all(over):
            words.append(f"Both sides reach {target}: the higher score wins: {final}")
        elif any(over):
            words.append(f"{winner} reach {target}, the target: {final}")
        else:
            floor = rules.negative_floor
            words.append(f"{winner.other} stand at {score[winner.other]}, at or below the floor of {floor}: {final}")
    elif tied:
        words.append(f"Both sides reach {target} together: bidder-goes-out deals follow until one decides (a made "
                     "bid wins; a set leaves it to the target).")
    elif all(over):
        words.append(f"Both sides stand at {target} or more with equal scores: another deal decides.")
    return words


def _final_words(table: Seating, score: tuple[int, ...], winner: Team, name: str) -> str:
    """``NS win the match, 65 to 0``, or each for himself ``3 wins the match with 64 (1: 52, 2: 40, 3: 64)``;
    ``name`` is the winner as the sheet names him."""
    if table.partnership:
        return f"{name} win the match, {score[winner]} to {score[winner.other]}"
    return f"{name} wins the match with {score[winner]} ({table.score_text(score)})"


def _over_words(table: Seating, score: tuple[int, ...], winner: Team) -> str:
    """``NS won, 65 to 0``, or ``3 won with 64 (1: 52, 2: 40, 3: 64)``: a finished match, in a refusal."""
    if table.partnership:
        return f"{winner} won, {score[0]} to {score[1]}"
    return f"{winner} won with {score[winner]} ({table.score_text(score)})"


def _players_going_out_words(rules: Rules, score: tuple[int, ...], maker: Team, made: bool, bgo: bool,
                             winner: Team | None, tied: bool) -> list[str]:
    """:func:`_going_out_words` at a table where each plays for himself (two to six players)."""
    table = rules.seating
    target = rules.target
    over = [side for side, s in zip(table.side_list, score, strict=True) if s >= target]
    words = []
    if bgo and not made:
        words.append(f"Bidder goes out applied, but {maker} was set: the deal scores as usual.")
    if winner is not None:
        final = _final_words(table, score, winner, str(winner)) + "."
        if bgo and made and winner == maker:
            words.append(f"Bidder goes out: {maker} made his bid on a bidder-goes-out deal: {final}")
        elif len(over) > 1 and rules.makers_count_first:
            words.append(f"{_and([str(s) for s in over])} reach {target} on this deal: the maker counts first, and "
                         f"{maker} {'made his bid' if made else 'was set'}: {final}")
        elif len(over) > 1:
            words.append(f"{_and([str(s) for s in over])} reach {target}: the highest score wins: {final}")
        elif over:
            words.append(f"{winner} reaches {target}, the target: {final}")
        else:
            floor = rules.negative_floor
            down = [str(side) for side, s in zip(table.side_list, score, strict=True)
                    if floor is not None and s <= floor]
            words.append(f"{_and(down)} {'stands' if len(down) == 1 else 'stand'} at or below the floor of {floor}: "
                         f"the best of the others wins: {final}")
    elif tied:
        words.append(f"{_and([str(s) for s in over])} reach {target} together: bidder-goes-out deals follow until "
                     "one decides (a made bid wins; a set leaves it to the target).")
    elif len(over) > 1:
        words.append(f"{_and([str(s) for s in over])} stand at {target} or more, the highest with equal scores: "
                     "another deal decides.")
    return words
