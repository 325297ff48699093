"""Duplicate Cinch: the same deals played at every table, each result scored against the others.

A **deal set** (:class:`DealSet`) is N boards derived from a name and a secret: board ``n``'s deck
comes from the fair shuffle (:mod:`cinch.shuffle`) with a salt of its own, so the set's
**commitments** (one per board) can be published before anyone plays and the salts revealed
after, for anyone (and ``cinch replay``) to check.  Boards are dealt by N, E, S, W in turn.
A **board** is one deal, not a match: it ends with its deal (a match's first deal, scored from 0 to 0).

A board's **result** (:class:`BoardResult`) at a table is South's side's score change under the
preset less the other side's.  On each board every result scores **matchpoints**: 2 for each
other result it beats and 1 for each it ties, as a percentage of the most possible
(:func:`matchpoints`); a session's percentage is the mean over its boards, and the ranking goes
by percentage, then total points (:func:`standings`).  The **robot table** (:func:`robot_result`)
plays each board with four bots, so the field is never empty.  Everything here is a value that
goes to JSON and back; a person's attempts are kept behind :class:`DuplicateStore`.

>>> from cinch.rules import Rules
>>> deal_set = DealSet.from_seed(7, Rules.preset("official"), deals=4, bots="basic")
>>> deal_set.name, deal_set.deals, [str(deal_set.dealer(n)) for n in (1, 2, 3, 4)]
('seed 7', 4, ['N', 'E', 'S', 'W'])
>>> DealSet.from_seed(7, Rules.preset("official"), deals=4).commitments == deal_set.commitments
True
>>> robots = robot_result(deal_set, 1)
>>> robots.player, robots.result == robots.score_change[0] - robots.score_change[1]
('robots', True)
>>> [m.percent for m in matchpoints([5, 2, 2, -3])]
[100.0, 50.0, 50.0, 0.0]
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol

from cinch.actions import parse_action
from cinch.bots import make_bot
from cinch.cards import Card, CardSet, Seat, Suit
from cinch.deal import Deal
from cinch.errors import CinchError, NotationError, RecordError, RulesError, json_kind, quoted
from cinch.match import Match
from cinch.record import dumps, loads, replay, to_record
from cinch.rules import Rules
from cinch.shuffle import Shuffle, commitment, deck_text
from cinch.view import Phase

if TYPE_CHECKING:
    from cinch.library import Library

DEFAULT_DEALS = 8
MAX_DEALS = 64
DEFAULT_ROBOTS = "expert"  # the robot table's bots (and a person's partner and opponents) unless a set says
ROBOTS = "robots"  # who played at the robot table
SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)  # board 1 is dealt by N, board 2 by E, ...
ENTROPY = ("", "", "", "")  # every table must get the same deck: no seat adds entropy to a board's shuffle
SECRET_DIGITS = 64
NAME_LIMIT = 100
SET_FORMAT = "cinch/1 duplicate set"
EXPORT_FORMAT = "cinch/1 duplicate"
_SEED_TAG = "cinch/1 duplicate seed\n"
_SALT_TAG = "cinch/1 duplicate salt\n"
_HEX = re.compile(r"[0-9a-f]*")

IN_PROGRESS = "in_progress"
FINISHED = "finished"
ABANDONED = "abandoned"
STATUSES = (IN_PROGRESS, FINISHED, ABANDONED)


class DuplicateError(CinchError):
    """A deal set, a result or a traveller that cannot be: the message names what and what is allowed."""


# ---- the deal set -------------------------------------------------------------------------------------------
def secret_of(seed: int | str) -> str:
    """The secret of a set derived from a seed or a name: anyone with the same seed gets the same deals.

    >>> secret_of(7)[:16]
    'b2f7b8052a7f919b'
    """
    return hashlib.sha256((_SEED_TAG + str(seed)).encode("utf-8")).hexdigest()


def board_salt(secret: str, name: str, board: int) -> str:
    """Board ``board``'s shuffle salt: 32 hex digits from the set's secret, its name and the board's number."""
    text = f"{_SALT_TAG}{secret}\n{name}\n{board}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def dealer_of(board: int) -> Seat:
    """The dealer of ``board``: N, E, S, W in turn from board 1."""
    return SEATS[(board - 1) % len(SEATS)]


def check_rules(rules: Rules) -> None:
    """Refuse rules a duplicate board cannot be played under, in one line."""
    table = rules.seating
    if not table.partnership:
        raise DuplicateError(f"duplicate Cinch is played by four players in two partnerships (N-S against E-W), "
                             f"not at a table of {table.players} each for himself; leave out -o players")
    if rules.honour_rule:
        raise DuplicateError("duplicate boards are played by the rules: the honour rule (a misdeal redealt, a "
                             "revoke ruled) would change a board from table to table; leave out -o honour_rule")


def _name_problem(name: object) -> str | None:
    if not isinstance(name, str) or not name.strip():
        return f"a deal set's name is a line of text (as 'seed 7' or '2026-12-05/official'), not {quoted(name)}"
    if len(name) > NAME_LIMIT or "\n" in name:
        return f"a deal set's name is one line of at most {NAME_LIMIT} characters, not {quoted(name, length=True)}"
    return None


def _hex_problem(what: str, value: object, digits: int) -> str | None:
    if isinstance(value, str) and len(value) == digits and _HEX.fullmatch(value):
        return None
    shown = quoted(value) if isinstance(value, str) else json_kind(value)
    return f"{what} must be {digits} lower-case hex digits (0-9, a-f), not {shown}"


@dataclass(frozen=True)
class DealSet:
    """N boards for a preset (and options): a ``name``, the ``commitments`` to the boards' decks, and the
    ``salts`` that deal them once known (None: published, not yet revealed).  ``secret`` derives the salts
    and is never written unless asked for; ``bots`` is the kind of bot at the robot table and at a
    person's table.

    >>> s = DealSet.derive("club night", Rules.preset("pagat"), deals=2)
    >>> s.published().salts is None, s.published().commitments == s.commitments
    (True, True)
    >>> s.published().deck(1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cinch.duplicate.DuplicateError: the decks of deal set 'club night' are not revealed yet: only its ...
    >>> s.revealed().verify()  # every salt deals the deck its commitment promised
    >>> DealSet.from_json(s.to_json()) == s.revealed()
    True
    """

    name: str
    rules: Rules
    commitments: tuple[str, ...]
    salts: tuple[str, ...] | None = None
    bots: str = DEFAULT_ROBOTS
    secret: str | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        problem = _name_problem(self.name)
        if problem:
            raise DuplicateError(problem)
        check_rules(self.rules)
        object.__setattr__(self, "commitments", tuple(self.commitments))
        if not 1 <= len(self.commitments) <= MAX_DEALS:
            raise DuplicateError(f"a deal set holds 1 to {MAX_DEALS} boards, not {len(self.commitments)}")
        for n, c in enumerate(self.commitments, start=1):
            problem = _hex_problem(f"board {n}'s commitment", c, 64)
            if problem:
                raise DuplicateError(problem)
        if self.salts is not None:
            object.__setattr__(self, "salts", tuple(self.salts))
            if len(self.salts) != len(self.commitments):
                raise DuplicateError(f"a deal set of {len(self.commitments)} boards reveals as many salts, "
                                     f"not {len(self.salts)}")
            for n, s in enumerate(self.salts, start=1):
                problem = _hex_problem(f"board {n}'s salt", s, 32)
                if problem:
                    raise DuplicateError(problem)
        if self.secret is not None:
            problem = _hex_problem("a deal set's secret", self.secret, SECRET_DIGITS)
            if problem:
                raise DuplicateError(problem)
        if not isinstance(self.bots, str) or not self.bots.strip():
            raise DuplicateError(f"a deal set names the bots of its robot table, as 'expert', not {quoted(self.bots)}")

    # ---- making one ----------------------------------------------------------------------------------------
    @classmethod
    def derive(cls, name: str, rules: Rules, deals: int = DEFAULT_DEALS, *, secret: str | None = None,
               bots: str = DEFAULT_ROBOTS) -> DealSet:
        """The set called ``name`` with ``deals`` boards, from ``secret`` (64 hex digits; None: from the
        name alone, so that anyone who types the name gets the same deals)."""
        problem = _name_problem(name)
        if problem:
            raise DuplicateError(problem)
        if isinstance(deals, bool) or not isinstance(deals, int) or not 1 <= deals <= MAX_DEALS:
            raise DuplicateError(f"a deal set holds 1 to {MAX_DEALS} boards, not {quoted(deals)}")
        secret = secret_of(name) if secret is None else secret
        problem = _hex_problem("a deal set's secret", secret, SECRET_DIGITS)
        if problem:
            raise DuplicateError(problem)
        check_rules(rules)
        salts = tuple(board_salt(secret, name, n) for n in range(1, deals + 1))
        commitments = tuple(_shuffle(salt, rules).commitment for salt in salts)
        return cls(name, rules, commitments, salts, bots=bots, secret=secret)

    @classmethod
    def from_seed(cls, seed: int | str, rules: Rules, deals: int = DEFAULT_DEALS, *, name: str | None = None,
                  bots: str = DEFAULT_ROBOTS) -> DealSet:
        """The set of ``seed`` (``cinch duplicate --seed 7``), called ``seed 7`` unless named."""
        return cls.derive(f"seed {seed}" if name is None else name, rules, deals, secret=secret_of(seed), bots=bots)

    @classmethod
    def new(cls, name: str, rules: Rules, deals: int = DEFAULT_DEALS, *, bots: str = DEFAULT_ROBOTS) -> DealSet:
        """A set with a fresh random secret: its commitments may be published, its salts revealed later."""
        return cls.derive(name, rules, deals, secret=secrets.token_hex(SECRET_DIGITS // 2), bots=bots)

    # ---- what it holds -----------------------------------------------------------------------------------------
    @property
    def deals(self) -> int:
        return len(self.commitments)

    @property
    def key(self) -> str:
        """What tells this set from any other (its name, rules and commitments): 16 hex digits."""
        text = json.dumps([self.name, self.rules.to_json(), list(self.commitments)], sort_keys=True)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    def check_board(self, board: object) -> int:
        if isinstance(board, bool) or not isinstance(board, int) or not 1 <= board <= self.deals:
            raise DuplicateError(f"deal set {quoted(self.name)} has boards 1 to {self.deals}, not {quoted(board)}")
        return board

    def dealer(self, board: int) -> Seat:
        return dealer_of(self.check_board(board))

    def shuffle(self, board: int) -> Shuffle:
        """Board ``board``'s fair shuffle (numbered 1: a board is a match of one deal)."""
        n = self.check_board(board)
        if self.salts is None:
            raise DuplicateError(f"the decks of deal set {quoted(self.name)} are not revealed yet: only its "
                                 "commitments are known")
        return _shuffle(self.salts[n - 1], self.rules)

    def deck(self, board: int) -> tuple[Card, ...]:
        return self.shuffle(board).deck()

    def board_match(self, board: int, players: Mapping[Seat, str] | None = None) -> Match:
        """Board ``board`` as a match whose one deal is the board (not yet dealt: its table's ``shuffles`` deal
        it); a board ends with that deal, whatever the match's score."""
        return Match(self.rules, first_dealer=self.dealer(board), players=dict(players or {}), rng=0)

    def dealt(self, board: int, players: Mapping[Seat, str] | None = None) -> Match:
        """Board ``board`` dealt: its one deal started from the board's shuffle."""
        match = self.board_match(board, players)
        match.start_deal(shuffle=self.shuffle(board))
        return match

    def published(self) -> DealSet:
        """The set as it may be shown before anyone plays: its commitments, no salt and no secret."""
        return replace(self, salts=None, secret=None)

    def revealed(self) -> DealSet:
        """The set once its boards are over: commitments and salts, the secret kept."""
        return replace(self, secret=None)

    def verify(self) -> None:
        """Check every revealed salt against its board's commitment (a :class:`DuplicateError` naming the board)."""
        if self.salts is None:
            raise DuplicateError(f"deal set {quoted(self.name)} reveals no salts yet: nothing to check")
        for n, (salt, promised) in enumerate(zip(self.salts, self.commitments, strict=True), start=1):
            dealt = _shuffle(salt, self.rules).commitment
            if dealt != promised:
                raise DuplicateError(f"board {n} of {quoted(self.name)}: the salt revealed deals a deck whose "
                                     f"commitment is {dealt}, not the {promised} published")

    # ---- JSON ---------------------------------------------------------------------------------------------------
    def to_json(self, *, secret: bool = False) -> dict[str, Any]:
        """``{"format", "name", "rules", "deals", "bots", "commitments", "salts"}`` (``salts`` only once
        known; ``secret`` only when asked for: a player's own library keeps it to play the set again)."""
        out: dict[str, Any] = {"format": SET_FORMAT, "name": self.name, "rules": self.rules.to_json(),
                               "deals": self.deals, "bots": self.bots, "commitments": list(self.commitments)}
        if self.salts is not None:
            out["salts"] = list(self.salts)
        if secret and self.secret is not None:
            out["secret"] = self.secret
        return out

    @classmethod
    def from_json(cls, obj: Any) -> DealSet:
        """Read :meth:`to_json`'s object; a :class:`DuplicateError` naming the field that is wrong."""
        if not isinstance(obj, Mapping):
            raise DuplicateError(f"a deal set is a JSON object, not {json_kind(obj)}")
        if obj.get("format", SET_FORMAT) != SET_FORMAT:
            raise DuplicateError(f'a deal set\'s "format" is "{SET_FORMAT}", not {quoted(obj.get("format"))}')
        known = {"format", "name", "rules", "deals", "bots", "commitments", "salts", "secret"}
        unknown = sorted(str(k) for k in obj if k not in known)
        if unknown:
            raise DuplicateError(f"a deal set has no field {quoted(unknown[0])}; it has {', '.join(sorted(known))}")
        for key in ("name", "rules", "commitments"):
            if key not in obj:
                raise DuplicateError(f'the deal set has no "{key}"')
        try:
            rules = Rules.from_json(obj["rules"])
        except RulesError as e:
            raise DuplicateError(f"the deal set's rules: {e}") from None
        commitments, salts = obj["commitments"], obj.get("salts")
        if not isinstance(commitments, list) or (salts is not None and not isinstance(salts, list)):
            raise DuplicateError('a deal set\'s "commitments" and "salts" are lists of hex strings')
        if "deals" in obj and obj["deals"] != len(commitments):
            raise DuplicateError(f'the deal set says "deals": {quoted(obj["deals"])} but holds {len(commitments)} '
                                 "commitments")
        deal_set = cls(obj["name"], rules, tuple(commitments), None if salts is None else tuple(salts),
                       bots=obj.get("bots", DEFAULT_ROBOTS), secret=obj.get("secret"))
        if deal_set.secret is not None:  # a secret must derive the very salts written
            derived = cls.derive(deal_set.name, rules, deal_set.deals, secret=deal_set.secret, bots=deal_set.bots)
            if derived.commitments != deal_set.commitments:
                raise DuplicateError(f"the secret of deal set {quoted(deal_set.name)} does not derive its commitments")
            deal_set = replace(deal_set, salts=derived.salts)
        if deal_set.salts is not None:
            deal_set.verify()
        return deal_set


def _shuffle(salt: str, rules: Rules) -> Shuffle:
    return Shuffle(salt, ENTROPY, 1, decks=rules.decks)


def bot_seed(deal_set: DealSet, board: int, seat: Seat, position: int = 0) -> int:
    """The seed of the bot in ``seat`` on ``board``: the same at every table (so a person who plays as the
    robot South would meets the same play), and anew where a board is resumed at ``position``."""
    text = f"cinch/1 duplicate bot\n{deal_set.commitments[deal_set.check_board(board) - 1]}\n{seat.name}\n{position}"
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "big") >> 1


# ---- a board's result -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class BoardPar:
    """Best play with every card open from a table's first lead: each side's points, the bid made or set."""

    points: tuple[int, int]
    made: bool | None

    def to_json(self) -> dict[str, Any]:
        return {"points": {"NS": self.points[0], "EW": self.points[1]}, "made": self.made}


def board_par(deal: Deal) -> BoardPar | None:
    """The par of a played deal from its first lead, by the double-dummy solver (None: no play, two decks,
    which it does not search quickly, or a solver failure)."""
    if deal.trump is None or deal.rules.decks != 1:
        return None
    start = Deal(deal.rules, deal.dealer, deal.deck, restock=deal.restock)
    for action in deal.history:
        if start.phase is Phase.PLAY:
            break
        start.apply(action)
    if start.phase is not Phase.PLAY:
        return None
    from cinch.solver import Position, solve  # the solver is big: loaded when a par is asked for

    try:
        solved = solve(Position.from_deal(start), card_values=False)
    except Exception:
        return None
    return BoardPar((int(solved.points[0]), int(solved.points[1])), solved.made)


@dataclass(frozen=True)
class BoardResult:
    """One table's play of a board: who sat South (``player``: a name, a player id, or ``robots``), the bots
    beside him, the contract and what came of it, and the board's ``cinch/1`` record.

    ``result`` is what matchpoints compare: NS's score change under the preset less EW's.

    >>> from cinch.rules import Rules
    >>> r = robot_result(DealSet.from_seed(3, Rules.preset("pagat"), deals=1, bots="basic"), 1)
    >>> r.contract_text(symbols=False), r.result
    ('W 7 diamonds, set', 19)
    >>> BoardResult.from_json(r.to_json()) == r
    True
    """

    board: int
    player: str
    bots: str
    dealer: Seat
    thrown_in: bool
    maker: Seat | None
    bid: int | None
    trump: Suit | None
    points: tuple[int, int] | None
    made: bool | None
    score_change: tuple[int, int]
    record_text: str = field(repr=False)
    par: BoardPar | None = None

    @property
    def result(self) -> int:
        return self.score_change[0] - self.score_change[1]

    @property
    def record(self) -> dict[str, Any]:
        return loads(self.record_text)

    @classmethod
    def of(cls, match: Match, board: int, player: str, bots: str, *, par: bool = True,
           set_name: str | None = None) -> BoardResult:
        """The result of a board played to its end in ``match`` (its one deal)."""
        if not match.deals or not match.deals[0].is_over or len(match.deals) != 1:
            raise DuplicateError(f"board {board} is not over: a result is taken once its one deal ends")
        deal = match.deals[0]
        r = deal.result
        assert r is not None
        meta: dict[str, Any] = {"board": board, "player": player, "bots": bots}
        if set_name is not None:
            meta = {"set": set_name, **meta}
        text = dumps(to_record(match, duplicate=meta))
        return cls(board, player, bots, deal.dealer, r.thrown_in, r.maker, r.bid, r.trump,
                   None if r.points is None else (r.points[0], r.points[1]), r.made,
                   (r.score_change[0], r.score_change[1]), text, board_par(deal) if par else None)

    def contract_text(self, symbols: bool = True) -> str:
        """``N 7 ♥, made``, ``E 9 ♣, set`` or ``thrown in``."""
        if self.thrown_in or self.maker is None or self.trump is None:
            return "thrown in"
        suit = self.trump.symbol if symbols else self.trump.name.lower()
        return f"{self.maker} {self.bid} {suit}, {'made' if self.made else 'set'}"

    def to_json(self) -> dict[str, Any]:
        return {
            "board": self.board, "player": self.player, "bots": self.bots, "dealer": self.dealer.name,
            "thrown_in": self.thrown_in, "maker": None if self.maker is None else self.maker.name, "bid": self.bid,
            "trump": None if self.trump is None else self.trump.letter,
            "points": None if self.points is None else {"NS": self.points[0], "EW": self.points[1]},
            "made": self.made, "score_change": {"NS": self.score_change[0], "EW": self.score_change[1]},
            "result": self.result, "par": None if self.par is None else self.par.to_json(),
            "record": self.record,
        }

    @classmethod
    def from_json(cls, obj: Any) -> BoardResult:
        """Read :meth:`to_json`'s object: the record is replayed and every written fact checked against it."""
        if not isinstance(obj, Mapping):
            raise DuplicateError(f"a board's result is a JSON object, not {json_kind(obj)}")
        for key in ("board", "player", "record"):
            if key not in obj:
                raise DuplicateError(f'the board\'s result has no "{key}"')
        board, player = obj["board"], obj["player"]
        if isinstance(board, bool) or not isinstance(board, int) or board < 1:
            raise DuplicateError(f'a result\'s "board" is a number from 1, not {quoted(board)}')
        if not isinstance(player, str):
            raise DuplicateError(f'a result\'s "player" is a name, not {json_kind(player)}')
        record = obj["record"]
        if not isinstance(record, dict):
            raise DuplicateError(f"board {board}'s record is a cinch/1 record (a JSON object), not {json_kind(record)}")
        try:
            match = replay(record).match
        except RecordError as e:
            raise DuplicateError(f"board {board}'s record does not replay: {e}") from None
        par = _par_from_json(obj.get("par"), board)
        built = cls.of(match, board, player, str(obj.get("bots", DEFAULT_ROBOTS)), par=False)
        built = replace(built, record_text=dumps(record), par=par)
        written = {k: v for k, v in obj.items() if k not in ("record", "par")}
        for key, value in built.to_json().items():
            if key in written and key not in ("record", "par") and written[key] != value:
                raise DuplicateError(f"board {board}'s result says {key} {json.dumps(written[key])}, but its record "
                                     f"gives {json.dumps(value)}")
        return built


def _par_from_json(value: Any, board: int) -> BoardPar | None:
    if value is None:
        return None
    try:
        points = value["points"]
        made = value["made"]
        pair = (points["NS"], points["EW"])
    except (KeyError, TypeError):
        raise DuplicateError(f'board {board}\'s "par" is {{"points": {{"NS": n, "EW": n}}, "made": true, false or '
                             f"null}} or null, not {quoted(value)}") from None
    if not all(isinstance(p, int) and not isinstance(p, bool) for p in pair) or made not in (True, False, None):
        raise DuplicateError(f"board {board}'s par holds numbers of points and made true, false or null")
    return BoardPar((pair[0], pair[1]), made)


# ---- the robot table ------------------------------------------------------------------------------------------
def robot_result(deal_set: DealSet, board: int, bots: str | None = None, *, par: bool = True) -> BoardResult:
    """Board ``board`` played by four bots of the set's kind (or ``bots``): the same every time."""
    kind = deal_set.bots if bots is None else bots
    match = deal_set.dealt(board, {s: kind for s in SEATS})
    robots = {s: make_bot(kind, seed=bot_seed(deal_set, board, s)) for s in SEATS}
    deal = match.deals[0]
    for seat in match.turns():
        view = match.view(seat)
        try:
            action = robots[seat].choose(view)
            legal = deal.is_legal(action)
        except Exception:  # a broken bot must not stop the field: the first legal choice, as at a table
            legal = False
        if not legal:
            action = next(iter(view.legal))
        match.apply(action, seat)
    return BoardResult.of(match, board, ROBOTS, kind, par=par, set_name=deal_set.name)


# ---- matchpoints and the ranking --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Matchpoints:
    """A result's matchpoints on a board: ``points`` (2 per result beaten, 1 per tie) out of ``top`` (2 per other
    result); with no other result, 50%."""

    points: int
    top: int

    @property
    def score(self) -> Fraction:
        """The share of the top, exactly (1/2 with no other result)."""
        return Fraction(1, 2) if self.top == 0 else Fraction(self.points, self.top)

    @property
    def percent(self) -> float:
        return float(self.score * 100)


def _value(result: int | BoardResult) -> int:
    return result.result if isinstance(result, BoardResult) else int(result)


def matchpoints(results: Sequence[int | BoardResult]) -> tuple[Matchpoints, ...]:
    """Each result's matchpoints against all the others on the same board, in the order given.

    >>> [(m.points, m.top) for m in matchpoints([3, 3, 0])]
    [(3, 4), (3, 4), (0, 4)]
    >>> matchpoints([7])[0].percent
    50.0
    """
    values = [_value(r) for r in results]
    top = 2 * (len(values) - 1)
    return tuple(Matchpoints(sum(2 if v > o else 1 if v == o else 0 for o in values) - 1, top) for v in values)


def session_score(scores: Iterable[Fraction]) -> Fraction | None:
    """The mean of a session's board scores (each a share of the top), exactly; None with no board."""
    items = list(scores)
    return sum(items, Fraction(0)) / len(items) if items else None


def session_percentage(percents: Iterable[float]) -> float | None:
    """A session's percentage: the mean of its boards' percentages (None with no board).

    >>> session_percentage([100.0, 50.0, 25.0])
    58.333333333333336
    """
    items = list(percents)
    return sum(items) / len(items) if items else None


@dataclass(frozen=True)
class Standing:
    """One entrant's line in a ranking: ``rank`` (shared by entrants equal on both counts), the boards played,
    the session's score (a share of the top; ``percentage`` in percent) and the total of its results."""

    rank: int
    entrant: str
    boards: int
    score: Fraction
    total: int

    @property
    def percentage(self) -> float:
        return float(self.score * 100)

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "entrant": self.entrant, "boards": self.boards,
                "percentage": round(self.percentage, 2), "total": self.total}


def standings(field: Mapping[str, Sequence[BoardResult]]) -> list[Standing]:
    """The ranking of a field (each entrant's results, by board): each board matchpointed among every
    result on it, then by session percentage, then by total points, best first.

    >>> from cinch.rules import Rules
    >>> s = DealSet.from_seed(1, Rules.preset("official"), deals=1, bots="basic")
    >>> robots = robot_result(s, 1, par=False)
    >>> [(x.rank, x.entrant, x.percentage) for x in standings({"robots": [robots], "again": [robots]})]
    [(1, 'again', 50.0), (1, 'robots', 50.0)]
    """
    return ranking({entrant: [(r.board, r.result) for r in results] for entrant, results in field.items()})


def ranking(field: Mapping[str, Sequence[tuple[int, int]]]) -> list[Standing]:
    """:func:`standings` from each entrant's (board, result) pairs alone: what a server that keeps the results
    as numbers ranks without reading their records.

    >>> [(x.rank, x.entrant, x.percentage, x.total) for x in ranking({"a": [(1, 5), (2, 0)], "b": [(1, 3), (2, 0)]})]
    [(1, 'a', 75.0, 5), (2, 'b', 25.0, 3)]
    """
    by_board: dict[int, list[tuple[str, int]]] = {}
    for entrant, results in field.items():
        for board, result in results:
            by_board.setdefault(board, []).append((entrant, result))
    scores: dict[str, list[Fraction]] = {entrant: [] for entrant in field}
    for entries in by_board.values():
        for (entrant, _), mp in zip(entries, matchpoints([r for _, r in entries]), strict=True):
            scores[entrant].append(mp.score)
    rows = []
    for entrant, results in field.items():
        score = session_score(scores[entrant])
        if score is not None:
            rows.append((entrant, len(results), score, sum(result for _, result in results)))
    rows.sort(key=lambda row: (-row[2], -row[3], row[0]))
    out: list[Standing] = []
    for i, (entrant, boards, score, total) in enumerate(rows):
        tied = out and out[-1].score == score and out[-1].total == total
        out.append(Standing(out[-1].rank if tied else i + 1, entrant, boards, score, total))
    return out


# ---- the traveller -----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TravellerLine:
    """One result on a traveller: who (``entrant``), the result, its matchpoints, whether it is the viewer's own."""

    entrant: str
    result: BoardResult
    matchpoints: Matchpoints
    mine: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"entrant": self.entrant, "mine": self.mine, "matchpoints": self.matchpoints.points,
                "top": self.matchpoints.top, "percent": round(self.matchpoints.percent, 2),
                "result": self.result.to_json(),
                # The replay viewer opens the record (its deal 1 is the board); "Analyse this deal" the same.
                "replay": {"record": self.result.record, "deal": 1}}


@dataclass(frozen=True)
class Traveller:
    """Every result on a board so far, best for NS first, with their matchpoints, the hands as dealt and each
    table's par: what a person sees after playing the board, and only then.

    >>> from cinch.rules import Rules
    >>> s = DealSet.from_seed(2, Rules.preset("official"), deals=2, bots="basic")
    >>> t = Traveller.of(s, 2, [("robots", robot_result(s, 2, par=False))])
    >>> t.dealer, len(t.hands), t.lines[0].matchpoints.percent
    (Seat.E, 4, 50.0)
    """

    set_name: str
    set_key: str
    board: int
    dealer: Seat
    rules: Rules
    hands: tuple[CardSet, ...]  # as dealt, N E S W
    lines: tuple[TravellerLine, ...]

    @classmethod
    def of(cls, deal_set: DealSet, board: int, entries: Sequence[tuple[str, BoardResult]],
           mine: str | None = None) -> Traveller:
        """The traveller of ``board`` from its results (each with its entrant's label); ``mine`` marks the
        viewer's own line.  Every result must be of this set's board: its deck the one committed to."""
        deal_set.check_board(board)
        if not entries:
            raise DuplicateError(f"board {board} has no result yet: a traveller shows once the board is played")
        hands: tuple[CardSet, ...] = ()
        for entrant, r in entries:
            deck, dealt = _deck_of(r, deal_set, board)
            if r.board != board or commitment(deck, _salt_of(r)) != deal_set.commitments[board - 1]:
                raise DuplicateError(f"{entrant}'s result is not of board {board} of {quoted(deal_set.name)}: its deck "
                                     "is not the one the set committed to")
            hands = hands or dealt
        mps = matchpoints([r for _, r in entries])
        lines = [TravellerLine(entrant, r, mp, entrant == mine) for (entrant, r), mp in zip(entries, mps, strict=True)]
        lines.sort(key=lambda line: (-line.result.result, not line.mine, line.entrant))
        return cls(deal_set.name, deal_set.key, board, deal_set.dealer(board), deal_set.rules, hands, tuple(lines))

    def line_of(self, entrant: str) -> TravellerLine | None:
        return next((line for line in self.lines if line.entrant == entrant), None)

    def to_json(self) -> dict[str, Any]:
        return {"set": self.set_name, "key": self.set_key, "board": self.board, "dealer": self.dealer.name,
                "rules": self.rules.to_json(),
                "hands": {s.name: str(h) for s, h in zip(SEATS, self.hands, strict=True)},
                "results": [line.to_json() for line in self.lines]}


def _deck_of(result: BoardResult, deal_set: DealSet, board: int) -> tuple[str, tuple[CardSet, ...]]:
    try:
        entry = result.record["deals"][0]
        deal = Deal(deal_set.rules, deal_set.dealer(board), [Card.parse(c) for c in entry["deck"].split()])
    except (KeyError, IndexError, TypeError, AttributeError, NotationError, CinchError):
        raise DuplicateError(f"a result of board {board} holds no readable deck") from None
    return deck_text(deal.deck), deal.dealt


def _salt_of(result: BoardResult) -> str:
    try:
        return str(result.record["deals"][0]["shuffle"]["salt"])
    except (KeyError, IndexError, TypeError):
        raise DuplicateError(f"a result of board {result.board} holds no shuffle: its deck cannot be checked") from None


# ---- a person's attempts, and where they are kept ---------------------------------------------------------------
@dataclass(frozen=True)
class Attempt:
    """One person's play of a deal set: the boards played (``results``, in order), the record of the board
    being played (``playing``: None between boards) and where it stands (``status``)."""

    id: int
    deal_set: DealSet
    player: str
    status: str = IN_PROGRESS
    results: tuple[BoardResult, ...] = ()
    playing: str | None = None
    created: datetime = field(default_factory=lambda: datetime.now(UTC), compare=False)
    updated: datetime = field(default_factory=lambda: datetime.now(UTC), compare=False)

    @property
    def next_board(self) -> int | None:
        """The board to play next (the one in play, if any); None once every board is played."""
        n = len(self.results) + 1
        return n if n <= self.deal_set.deals else None

    @property
    def is_finished(self) -> bool:
        return self.next_board is None

    def data(self) -> dict[str, Any]:
        """What a store keeps of it (the set with its secret, so the set can be played again)."""
        return {"set": self.deal_set.to_json(secret=True), "player": self.player,
                "results": [r.to_json() for r in self.results], "playing": self.playing}

    @classmethod
    def from_data(cls, attempt_id: int, status: str, data: Any, created: datetime | None = None,
                  updated: datetime | None = None) -> Attempt:
        if not isinstance(data, Mapping):
            raise DuplicateError(f"duplicate attempt {attempt_id} is damaged: its data is not a JSON object")
        try:
            deal_set = DealSet.from_json(data.get("set"))
            results = tuple(BoardResult.from_json(r) for r in data.get("results", []))
        except DuplicateError as e:
            raise DuplicateError(f"duplicate attempt {attempt_id} is damaged: {e}") from None
        playing = data.get("playing")
        now = datetime.now(UTC)
        return cls(attempt_id, deal_set, str(data.get("player", "you")), status, results,
                   playing if isinstance(playing, str) else None, created or now, updated or now)


class DuplicateStore(Protocol):
    """Where a person's attempts and the robot tables are kept: the game library (:class:`LibraryStore`), a
    server's database, or memory (:class:`MemoryStore`).  Every call is one transaction."""

    def new_attempt(self, deal_set: DealSet, player: str) -> Attempt: ...

    def save_attempt(self, attempt: Attempt) -> None: ...

    def attempt(self, attempt_id: int) -> Attempt: ...

    def attempts(self, set_key: str | None = None, status: str | None = None) -> list[Attempt]:
        """The attempts (at one set, with one status), the most recently played first."""
        ...

    def robot_result(self, deal_set: DealSet, board: int, bots: str) -> BoardResult | None: ...

    def save_robot_result(self, deal_set: DealSet, result: BoardResult) -> None: ...


class MemoryStore:
    """A :class:`DuplicateStore` that keeps nothing past the process (``cinch duplicate --no-library``, tests)."""

    def __init__(self) -> None:
        self._attempts: dict[int, Attempt] = {}
        self._robots: dict[tuple[str, int, str], BoardResult] = {}
        self._lock = threading.Lock()

    def new_attempt(self, deal_set: DealSet, player: str) -> Attempt:
        with self._lock:
            attempt = Attempt(len(self._attempts) + 1, deal_set, player)
            self._attempts[attempt.id] = attempt
        return attempt

    def save_attempt(self, attempt: Attempt) -> None:
        with self._lock:
            if attempt.id not in self._attempts:
                raise DuplicateError(f"no duplicate attempt {attempt.id}")
            self._attempts[attempt.id] = replace(attempt, updated=datetime.now(UTC))

    def attempt(self, attempt_id: int) -> Attempt:
        try:
            return self._attempts[attempt_id]
        except KeyError:
            raise DuplicateError(f"no duplicate attempt {attempt_id}") from None

    def attempts(self, set_key: str | None = None, status: str | None = None) -> list[Attempt]:
        found = [a for a in self._attempts.values()
                 if (set_key is None or a.deal_set.key == set_key) and (status is None or a.status == status)]
        return sorted(found, key=lambda a: a.id, reverse=True)

    def robot_result(self, deal_set: DealSet, board: int, bots: str) -> BoardResult | None:
        return self._robots.get((deal_set.key, board, bots))

    def save_robot_result(self, deal_set: DealSet, result: BoardResult) -> None:
        with self._lock:
            self._robots[(deal_set.key, result.board, result.bots)] = result


class LibraryStore:
    """A :class:`DuplicateStore` in the game library (:mod:`cinch.library`, its ``duplicate_*`` tables)."""

    def __init__(self, library: Library) -> None:
        self.library = library

    def new_attempt(self, deal_set: DealSet, player: str) -> Attempt:
        draft = Attempt(0, deal_set, player)
        attempt_id = self.library.new_duplicate_attempt(deal_set.key, deal_set.name, player, draft.data())
        return self.attempt(attempt_id)

    def save_attempt(self, attempt: Attempt) -> None:
        self.library.save_duplicate_attempt(attempt.id, status=attempt.status, data=attempt.data())

    def attempt(self, attempt_id: int) -> Attempt:
        return _attempt_of(self.library.duplicate_attempt(attempt_id))

    def attempts(self, set_key: str | None = None, status: str | None = None) -> list[Attempt]:
        """(An attempt whose stored data is damaged is left out, so that it hides none of the others;
        :meth:`attempt` says what is wrong with it.)"""
        found = []
        for row in self.library.duplicate_attempts(set_key, status):
            try:
                found.append(_attempt_of(row))
            except DuplicateError:
                continue
        return found

    def robot_result(self, deal_set: DealSet, board: int, bots: str) -> BoardResult | None:
        found = self.library.duplicate_robot(deal_set.key, board, bots)
        if found is None:
            return None
        try:
            return BoardResult.from_json(found)
        except DuplicateError:
            return None  # a damaged row: the robot table plays the board again

    def save_robot_result(self, deal_set: DealSet, result: BoardResult) -> None:
        self.library.save_duplicate_robot(deal_set.key, result.board, result.bots, result.to_json())


def _attempt_of(row: Mapping[str, Any]) -> Attempt:
    return Attempt.from_data(int(row["id"]), str(row["status"]), row["data"], _time(row.get("created")),
                             _time(row.get("updated")))


def _time(text: Any) -> datetime | None:
    try:
        return datetime.fromisoformat(str(text))
    except ValueError:
        return None


# ---- export ------------------------------------------------------------------------------------------------------
def export_json(attempt: Attempt, robots: Sequence[BoardResult]) -> dict[str, Any]:
    """A finished attempt as one JSON document: the set (commitments and salts, never the secret), each
    board's result with its ``cinch/1`` record, the robot table's beside it, and the percentage against it."""
    if not attempt.is_finished:
        raise DuplicateError(f"attempt {attempt.id} is not finished (board {attempt.next_board} of "
                             f"{attempt.deal_set.deals} is to play): only a finished set is exported")
    field_ = {attempt.player: list(attempt.results), ROBOTS: list(robots)}
    mine = next(s for s in standings(field_) if s.entrant == attempt.player)
    return {"format": EXPORT_FORMAT, "set": attempt.deal_set.revealed().to_json(), "attempt": attempt.id,
            "player": attempt.player, "played": attempt.created.isoformat(timespec="seconds"),
            "against_robots": {"percentage": round(mine.percentage, 2), "total": mine.total},
            "results": [r.to_json() for r in attempt.results], "robots": [r.to_json() for r in robots]}


def replayed_board(deal_set: DealSet, board: int, record_text: str, players: Mapping[Seat, str]) -> Match:
    """A board in play rebuilt from its saved record, dealt from the set's shuffle (whose deck it must hold)."""
    record = loads(record_text)
    match = deal_set.dealt(board, players)
    deal = match.deals[0]
    try:
        entry = record["deals"][0]
        if entry["dealer"] != deal.dealer.name or entry["deck"] != deck_text(deal.deck):
            raise DuplicateError(f"the saved record of board {board} is not of this set's board: another deck")
        for text in entry["actions"]:
            while deal.to_act is None and not deal.is_over:
                match.resolve_chance()
            match.apply(parse_action(text))
    except (KeyError, IndexError, TypeError) as e:
        raise DuplicateError(f"the saved record of board {board} is damaged ({e})") from None
    except CinchError as e:
        if isinstance(e, DuplicateError):
            raise
        raise DuplicateError(f"the saved record of board {board} does not replay: {e}") from None
    match.resolve_chance()
    return match


__all__ = [
    "ABANDONED", "Attempt", "BoardPar", "BoardResult", "DEFAULT_DEALS", "DEFAULT_ROBOTS", "DealSet",
    "DuplicateError", "DuplicateStore", "EXPORT_FORMAT", "FINISHED", "IN_PROGRESS", "LibraryStore", "MemoryStore",
    "Matchpoints", "ROBOTS", "Standing", "Traveller", "TravellerLine", "board_par", "bot_seed", "dealer_of",
    "export_json", "matchpoints", "ranking", "replayed_board", "robot_result", "secret_of", "session_percentage",
    "session_score", "standings",
]
