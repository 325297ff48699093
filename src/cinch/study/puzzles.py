"""Puzzles: positions from self-play where one card is clearly best in every world the seat cannot rule out.

Mining.  Four heuristic bots play deals; at each play decision with more than one legal
card (and no burial due: the buried-excess rule's trick 1 is left out), the deciding seat's
:class:`~cinch.view.SeatView` is judged.  Worlds consistent with that view are sampled
uniformly (:func:`cinch.worlds.sample_weighted`, no weighting by the bidding: the claim is
about every world the seat cannot rule out, likely or not) and each is solved double-dummy
(:func:`cinch.solver.solve`, every card's value).  The position is a puzzle when the same
card gives the seat's side the most points in every sampled world, at least ``margin``
points more than every other legal card.  The judging stops at the first world that breaks
the claim, so most positions cost one solve.

Difficulty: whether the rule-of-thumb bots would find the card.  ``easy``: both ``basic``
and ``heuristic`` play it; ``medium``: one of them does; ``hard``: neither.  Mining keeps
``medium`` and ``hard`` unless told otherwise.

Puzzles are four-player games of one pack: the miner refuses a cut-throat table and two-deck Cinch
(``decks=2``), in one line.

Only the card of the play is judged.  Bids, trumps and keeps are left out: their worth
depends on the rest of the match and on the other players' later choices, and the playouts
that judge them (the expert's) are noisy estimates, not a proof that one call is best in
every world.

What a puzzle stores is the seat's view only (its hand, the bidding, trumps, the discards
it saw, the tricks so far), the answer, the figures behind it and an explanation worked out
from the solver's results; never another seat's hand.  Cards in the explanation are in
record notation (``5D``); a screen that shows suit symbols rewrites them
(:func:`cinch.table.narrate.rule_words`).

>>> from cinch import Rules
>>> found = [p for p, _ in mine_deals(Rules.preset("pagat"), deals=4, seed=3, levels=LEVELS)]
>>> puzzle = found[0]
>>> puzzle.answer in puzzle.legal_cards and puzzle.verdict(puzzle.answer).correct
True
>>> Puzzle.from_json(puzzle.to_json()) == puzzle
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from cinch.actions import Bid, Pass, Play, parse_action
from cinch.bots import Bot, make_bot
from cinch.cards import Card, CardSet, Seat, Suit, TrumpTables
from cinch.deal import Deal, DealResult
from cinch.errors import CinchError, NotationError, json_kind, quoted
from cinch.rules import AboveSix, Follow, Rules
from cinch.scoring import settle
from cinch.solver import Position, solve
from cinch.study import one_pack_only, partnership_only
from cinch.view import Phase, PlayedCard, SeatView, Trick
from cinch.worlds import Sample, WorldError, sample_weighted

FORMAT = "cinch-puzzles/1"
WORLDS = 24  # worlds a puzzle's claim is checked in
MARGIN = 1  # points the answer must beat every other card by, in every world
LINES = 6  # worlds whose best play is played out to tell which point cards change hands
LEVELS = ("easy", "medium", "hard")
MINED_LEVELS = ("medium", "hard")
JUDGES = ("basic", "heuristic")  # the rule-of-thumb bots a puzzle's difficulty is rated by
BUNDLED = Path(__file__).with_name("puzzles.json")


class PuzzleError(CinchError):
    """A puzzle file that cannot be read, an unknown puzzle, or a guess that is not a legal card."""


# ---- the seat's view as JSON ----------------------------------------------------------------------
def _cards(mask: int) -> str:
    return str(CardSet(mask))


def _plays_json(plays: Sequence[PlayedCard]) -> list[list[str]]:
    return [[p.seat.name, str(p.card)] + ([_cards(p.buried)] if p.buried else []) for p in plays]


def view_json(view: SeatView) -> dict[str, Any]:
    """Everything a seat's view holds (its match context aside), in record notation.

    >>> view = load_puzzles()[0].view  # (a puzzle's view: a card to play, with a choice)
    >>> view_from_json(view_json(view)) == view
    True
    """
    return {
        "seat": view.seat.name, "rules": view.rules.to_json(), "dealer": view.dealer.name,
        "phase": view.phase.value, "to_act": None if view.to_act is None else view.to_act.name,
        "hand": _cards(view.hand), "hand_sizes": list(view.hand_sizes),
        "auction": [[s.name, str(call)] for s, call in view.auction],
        "maker": None if view.maker is None else view.maker.name, "bid": view.bid,
        "trump": None if view.trump is None else view.trump.letter,
        "own_discards": _cards(view.own_discards),
        "face_up_discards": [_cards(m) for m in view.face_up_discards],
        "shown_trumps": [_cards(m) for m in view.shown_trumps],
        "drawn_counts": list(view.drawn_counts), "own_drawn": _cards(view.own_drawn),
        "stock_seen": _cards(view.stock_seen),
        "tricks": [{"leader": t.leader.name, "plays": _plays_json(t.plays), "winner": t.winner.name}
                   for t in view.tricks],
        "trick_leader": None if view.trick_leader is None else view.trick_leader.name,
        "current_trick": _plays_json(view.current_trick),
        "legal": [str(a) for a in view.legal],
    }


def view_from_json(data: Any, where: str = "a puzzle") -> SeatView:
    """The view :func:`view_json` wrote, every field checked and every card in one place
    (:func:`check_view`); a PuzzleError naming ``where``, the field and what it should be otherwise."""
    f = _Fields(where)
    view = f.view(data, "view")
    check_view(view, where)
    return view


class _Fields:
    """Reads a puzzle's JSON field by field: an error names the puzzle and the field, and says what it should be."""

    def __init__(self, where: str):
        self.where = where

    def error(self, path: str, what: str) -> PuzzleError:
        return PuzzleError(f"{self.where}: {path} {what}")

    def object(self, data: Any, path: str) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise self.error(path, f"must be a JSON object, not {json_kind(data)}")
        return data

    def field(self, data: dict[str, Any], key: str, path: str) -> Any:
        if key not in data:
            raise PuzzleError(f"{self.where}: the field '{path}.{key}' is missing" if path else
                              f"{self.where}: the field '{key}' is missing")
        return data[key]

    def text(self, value: Any, path: str, example: str) -> str:
        if not isinstance(value, str):
            raise self.error(path, f"must be a string, as {example}, not {json_kind(value)}")
        return value

    def parsed(self, value: Any, path: str, example: str, parse: Any) -> Any:
        """``parse(value)`` of a string field, its NotationError named by the field."""
        text = self.text(value, path, example)
        try:
            return parse(text)
        except (NotationError, ValueError) as e:
            raise self.error(path, f"is {quoted(text)}: {e}") from None

    def cards(self, value: Any, path: str) -> CardSet:
        return self.parsed(value, path, '"AS 5D 2C" (cards separated by spaces; "" for none)', CardSet.parse)

    def seat(self, value: Any, path: str, optional: bool = False) -> Seat | None:
        if value is None and optional:
            return None
        return self.parsed(value, path, '"N" (a seat of N E S W' + (", or null)" if optional else ")"), Seat.parse)

    def number(self, value: Any, path: str, low: int = 0, high: int | None = None) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(path, f"must be a whole number, not {json_kind(value)}")
        if value < low or (high is not None and value > high):
            bounds = f"from {low} to {high}" if high is not None else f"at least {low}"
            raise self.error(path, f"is {value}; it must be {bounds}")
        return value

    def items(self, value: Any, path: str, count: int | None = None, what: str = "") -> list[Any]:
        if not isinstance(value, list):
            raise self.error(path, f"must be a list{what}, not {json_kind(value)}")
        if count is not None and len(value) != count:
            raise self.error(path, f"must have {count} entries, one per seat (N E S W), not {len(value)}")
        return value

    def by_seat(self, data: dict[str, Any], key: str, path: str) -> tuple[CardSet, ...]:
        name = f"{path}.{key}"
        return tuple(self.cards(v, f"{name}[{i}]") for i, v in enumerate(self.items(
            self.field(data, key, path), name, 4, " of four card strings, one per seat")))

    def plays(self, value: Any, path: str) -> tuple[PlayedCard, ...]:
        out = []
        for i, entry in enumerate(self.items(value, path, what=' of plays, as ["N", "5D"]')):
            at = f"{path}[{i}]"
            if not isinstance(entry, list) or len(entry) not in (2, 3):
                size = (json_kind(entry) if not isinstance(entry, list) else
                        f"{len(entry)} entr{'y' if len(entry) == 1 else 'ies'}")
                raise self.error(at, f'must be a play, as ["N", "5D"] (and the cards buried under it), not {size}')
            seat = self.seat(entry[0], f"{at}[0]")
            assert seat is not None
            card = self.parsed(entry[1], f"{at}[1]", '"5D" (one card)', Card.parse)
            buried = self.cards(entry[2], f"{at}[2]") if len(entry) > 2 else CardSet(0)
            out.append(PlayedCard(seat, card, buried))
        return tuple(out)

    def view(self, data: Any, path: str) -> SeatView:
        d = self.object(data, path)

        def get(key: str) -> Any:
            return self.field(d, key, path)

        try:
            rules = Rules.from_json(get("rules"))
        except PuzzleError:
            raise
        except (CinchError, TypeError, ValueError, AttributeError) as e:
            raise self.error(f"{path}.rules", f"are not rules cinch knows: {e}") from None
        if rules.decks != 1:  # (the miner never makes one: a file edited by hand)
            raise PuzzleError(f"{self.where}: its rules play two packs (decks=2), and puzzles are one-pack games")
        if rules.seating.players != 4:
            raise PuzzleError(f"{self.where}: its rules seat {rules.seating.players} players, and puzzles are "
                              "four-player games")
        phase = get("phase")
        if phase != Phase.PLAY.value:
            raise self.error(f"{path}.phase", f'must be "play" (a puzzle is a card to play), not {quoted(phase)}')
        auction = []
        for i, entry in enumerate(self.items(get("auction"), f"{path}.auction", what=' of calls, as ["N", "bid 7"]')):
            at = f"{path}.auction[{i}]"
            if not isinstance(entry, list) or len(entry) != 2:
                raise self.error(at, 'must be a call, as ["N", "bid 7"] or ["E", "pass"]')
            seat = self.seat(entry[0], f"{at}[0]")
            call = self.parsed(entry[1], f"{at}[1]", '"bid 7" or "pass"', parse_action)
            if not isinstance(call, Pass | Bid):
                raise self.error(f"{at}[1]", f"is {quoted(entry[1])}, which is not a bid or a pass")
            assert seat is not None
            auction.append((seat, call))
        trump = self.parsed(get("trump"), f"{path}.trump", '"H" (the trump suit)', Suit.parse)
        tricks = []
        for i, t in enumerate(self.items(get("tricks"), f"{path}.tricks", what=" of the tricks played")):
            at = f"{path}.tricks[{i}]"
            trick = self.object(t, at)
            leader, winner = (self.seat(self.field(trick, k, at), f"{at}.{k}") for k in ("leader", "winner"))
            assert leader is not None and winner is not None
            tricks.append(Trick(leader, self.plays(self.field(trick, "plays", at), f"{at}.plays"), winner))
        sizes = self.items(get("hand_sizes"), f"{path}.hand_sizes", 4, " of four numbers, one per seat")
        drawn = self.items(get("drawn_counts"), f"{path}.drawn_counts", 4, " of four numbers, one per seat")
        legal = [self.parsed(a, f"{path}.legal[{i}]", '"play 5D"', parse_action)
                 for i, a in enumerate(self.items(get("legal"), f"{path}.legal", what=' of plays, as "play 5D"'))]
        bid = get("bid")
        return SeatView(
            seat=_known(self.seat(get("seat"), f"{path}.seat")), rules=rules,
            dealer=_known(self.seat(get("dealer"), f"{path}.dealer")), phase=Phase.PLAY,
            to_act=self.seat(get("to_act"), f"{path}.to_act", optional=True),
            hand=self.cards(get("hand"), f"{path}.hand"),
            hand_sizes=tuple(self.number(n, f"{path}.hand_sizes[{i}]", 0, rules.seating.dealt)
                             for i, n in enumerate(sizes)),
            auction=tuple(auction), maker=self.seat(get("maker"), f"{path}.maker", optional=True),
            bid=None if bid is None else self.number(bid, f"{path}.bid", 1), trump=trump,
            own_discards=self.cards(get("own_discards"), f"{path}.own_discards"),
            face_up_discards=self.by_seat(d, "face_up_discards", path),
            shown_trumps=self.by_seat(d, "shown_trumps", path),
            drawn_counts=tuple(self.number(n, f"{path}.drawn_counts[{i}]", 0, rules.seating.dealt)
                               for i, n in enumerate(drawn)),
            own_drawn=self.cards(get("own_drawn"), f"{path}.own_drawn"),
            stock_seen=self.cards(get("stock_seen"), f"{path}.stock_seen"), tricks=tuple(tricks),
            trick_leader=self.seat(get("trick_leader"), f"{path}.trick_leader", optional=True),
            current_trick=self.plays(get("current_trick"), f"{path}.current_trick"), legal=tuple(legal),
        )


def _known(seat: Seat | None) -> Seat:
    assert seat is not None  # (read without ``optional``)
    return seat


def check_view(view: SeatView, where: str = "a puzzle") -> None:
    """Refuse a view no deal leads to, as ``cinch replay`` refuses a record: a card in two places, a hand of
    the wrong size, a list of legal cards that is not the hand's, a position that no deal of the rules gives
    (a PuzzleError naming ``where`` and the field)."""
    def error(path: str, what: str) -> PuzzleError:
        return PuzzleError(f"{where}: view.{path} {what}")

    if view.to_act != view.seat:
        raise error("to_act", f"is {view.to_act}, but a puzzle is the turn of its seat, {view.seat}")
    if view.maker is None or view.bid is None:
        raise error("maker" if view.maker is None else "bid", "is null, but the play has a maker and a bid")
    _one_place(view, error)
    _sizes(view, error)
    may = _playable(view)
    offered = CardSet(sum(1 << a.card for a in view.legal if isinstance(a, Play)))
    if any(not isinstance(a, Play) or a.bury for a in view.legal):
        raise error("legal", "must list plays of one card each, as \"play 5D\"")
    if offered != may:
        extra, missing = CardSet(int(offered) & ~int(may)), CardSet(int(may) & ~int(offered))
        why = (f"offers {extra}, " + ("which is not in view.hand" if not int(extra) & int(view.hand) else
                                      f"which may not be played ({_follow_words(view)})") if extra else
               f"leaves out {missing}, which may be played ({_follow_words(view)})")
        raise error("legal", f"{why}; the hand may play {may}")
    try:  # what the fields cannot say alone (the voids shown, the draw, the stock): a deal must lead here
        sample_weighted(view, random.Random(0), weight=_every_world)
    except WorldError as e:
        raise PuzzleError(f"{where}: no deal of {view.rules.name} leads to this view ({e})") from None


def _one_place(view: SeatView, error: Any) -> None:
    """Every card of the view in one place: the hand, a trick, a discard."""
    places: dict[int, str] = {}

    def put(cards: int, place: str) -> None:
        for c in CardSet(cards):
            if int(c) in places:
                raise error(place.split(" ")[0], f"holds {c}, which is also in view.{places[int(c)]}")
            places[int(c)] = place

    put(int(view.hand), "hand")
    put(int(view.own_discards), "own_discards")
    for s, cards in enumerate(view.face_up_discards):
        if s == view.seat:
            if int(cards) & ~int(view.own_discards):
                raise error(f"face_up_discards[{s}]", f"holds {CardSet(int(cards) & ~int(view.own_discards))}, "
                                                      "which the seat did not discard (view.own_discards)")
        else:
            put(int(cards), f"face_up_discards[{s}]")
    for i, trick in enumerate(view.tricks):
        for p in trick.plays:
            put(1 << p.card | int(p.buried), f"tricks[{i}] (trick {i + 1})")
    for p in view.current_trick:
        put(1 << p.card | int(p.buried), "current_trick")


def _sizes(view: SeatView, error: Any) -> None:
    """The hand as long as view.hand_sizes says, and every hand as long as the tricks played leave it."""
    seat = view.seat
    if len(view.hand) != view.hand_sizes[seat]:
        raise error("hand", f"holds {len(view.hand)} cards, but view.hand_sizes gives {seat} {view.hand_sizes[seat]}")
    rules = view.rules
    played = {p.seat for p in view.current_trick}
    burying = not view.tricks and rules.above_six is AboveSix.BURIED  # trick 1: a longer hand buries the excess
    for s, size in enumerate(view.hand_sizes):
        due = rules.tricks - len(view.tricks) - (Seat(s) in played)
        if size != due and not (burying and Seat(s) not in played and size > due):
            done = len(view.tricks)
            so_far = " and a card to this one" if Seat(s) in played else ""
            raise error(f"hand_sizes[{s}]", f"gives {Seat(s)} {size} cards, but {Seat(s)} holds {due} after "
                                            f"{done} trick{'s' * (done != 1)}{so_far}")


def _playable(view: SeatView) -> CardSet:
    """The cards of the hand the follow rule lets the seat play to the current trick."""
    if not view.current_trick:
        return view.hand
    assert view.trump is not None
    tables = view.rules.trump_tables[view.trump]
    led = tables.effective_suit[view.current_trick[0].card]
    return CardSet(tables.follow_rule(led, view.rules.follow is Follow.STRICT).playable(int(view.hand)))


def _follow_words(view: SeatView) -> str:
    """Why some cards of the hand may not be played: the suit led and the follow rule."""
    trick = view.current_trick
    assert view.trump is not None
    if not trick:
        return "you lead: any card"
    t = view.rules.trump_tables[view.trump]
    led = t.effective_suit[trick[0].card]
    if led == view.trump:
        return "trumps were led: you must play a trump"
    suit = Suit(led).name.lower()
    if view.rules.follow is Follow.STRICT:
        return f"{suit} were led: you must follow suit"
    return f"{suit} were led: you must follow suit or trump"


def view_cards(view: SeatView) -> CardSet:
    """Every card a view names: the seat's own cards and every card it saw."""
    return CardSet(int(view.known_elsewhere) | int(view.own_drawn))


# ---- judging a position ----------------------------------------------------------------------------
def _every_world(view: SeatView, dealt: tuple[int, ...]) -> float:
    """The uniform bid weight: every consistent world counts (and no bid inference installed elsewhere
    in the process is used)."""
    return 1.0


def play_cards(view: SeatView) -> list[Card] | None:
    """The distinct cards the seat may play, or None when this is not a card puzzle's kind of decision
    (not the play, a burial due, or a single card)."""
    if view.phase is not Phase.PLAY or view.to_act != view.seat or view.trump is None:
        return None
    plays = [a for a in view.legal if isinstance(a, Play)]
    if len(plays) != len(view.legal) or any(p.bury for p in plays):
        return None
    cards = sorted({p.card for p in plays}, key=view.rules.trump_tables[view.trump].sort_key)
    return cards if len(cards) > 1 else None


@dataclass(frozen=True)
class Judgement:
    """A position whose answer held in every world sampled: the side's points after each card, world by world."""

    answer: Card
    points: tuple[dict[Card, int], ...]  # per world: the final points of the seat's side after each legal card
    samples: tuple[Sample, ...] = field(repr=False, compare=False)
    made: tuple[dict[Card, bool], ...] = ()  # per world: whether the makers make their bid after each legal card

    @property
    def distinct(self) -> int:
        """How many different worlds (the four hands) were among those sampled."""
        return len({tuple(s.world.hands) for s in self.samples})


def judge(view: SeatView, rng: random.Random, *, worlds: int = WORLDS, margin: int = MARGIN) -> Judgement | None:
    """The card that gives the seat's side ``margin`` points more than every other card in each of ``worlds``
    sampled worlds, or None (stops at the first world that breaks it)."""
    cards = play_cards(view)
    if cards is None:
        return None
    team = view.seat.team
    answer: Card | None = None
    table: list[dict[Card, int]] = []
    made: list[dict[Card, bool]] = []
    samples: list[Sample] = []
    assert view.maker is not None and view.bid is not None  # (the play has a contract)
    makers, bid = view.maker.team, view.bid
    for _ in range(worlds):
        sample = sample_weighted(view, rng, weight=_every_world)
        result = solve(Position.from_view(view, sample.hands))
        points = {c: result.points_after(c)[team] for c in cards}
        best = max(cards, key=lambda c: points[c])
        if answer is not None and best != answer:
            return None
        if any(points[best] - points[c] < margin for c in cards if c != best):
            return None
        answer = best
        table.append(points)
        made.append({c: settle(view.rules, makers, bid, result.points_after(c))[0] for c in cards})
        samples.append(sample)
    assert answer is not None
    return Judgement(answer, tuple(table), tuple(samples), tuple(made))


def level_of(view: SeatView, answer: Card, judges: dict[str, Bot]) -> tuple[str, dict[str, Card]]:
    """The difficulty (how many of the rule-of-thumb bots miss the answer) and each bot's card."""
    chosen: dict[str, Card] = {}
    for name, bot in judges.items():
        action = bot.choose(view)
        assert isinstance(action, Play)
        chosen[name] = action.card
    missed = sum(card != answer for card in chosen.values())
    return LEVELS[min(missed, len(LEVELS) - 1)], chosen


# ---- the explanation ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class CardFigures:
    """One legal card over the worlds: the side's final points after it, and how many fewer than after the answer."""

    mean: float
    fewest: int
    most: int
    lost_least: int
    lost_most: int
    lost_mean: float

    def to_json(self) -> dict[str, Any]:
        return {"mean": self.mean, "fewest": self.fewest, "most": self.most, "lost_least": self.lost_least,
                "lost_most": self.lost_most, "lost_mean": self.lost_mean}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CardFigures:
        return cls.read(data, "figures", _Fields("a puzzle"))

    @classmethod
    def read(cls, data: Any, path: str, f: _Fields) -> CardFigures:
        """The figures of one card, each field checked (a PuzzleError naming the puzzle and the field)."""
        d = f.object(data, path)

        def number(key: str, whole: bool) -> float:
            value = f.field(d, key, path)
            if whole:
                return f.number(value, f"{path}.{key}", -1000)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise f.error(f"{path}.{key}", f"must be a number, not {json_kind(value)}")
            return float(value)

        return cls(number("mean", False), int(number("fewest", True)), int(number("most", True)),
                   int(number("lost_least", True)), int(number("lost_most", True)), number("lost_mean", False))


def figures_of(judgement: Judgement) -> dict[Card, CardFigures]:
    """Each card's figures over the judged worlds (means to one decimal)."""
    out = {}
    answer = judgement.answer
    for card in judgement.points[0]:
        got = [p[card] for p in judgement.points]
        lost = [p[answer] - p[card] for p in judgement.points]
        out[card] = CardFigures(round(sum(got) / len(got), 1), min(got), max(got), min(lost), max(lost),
                                round(sum(lost) / len(lost), 1))
    return out


def _par_line(world: Deal, card: Card, last: bool = False) -> DealResult:
    """The deal played to its end from ``world`` after ``card``, every later card the solver's first best one
    (``last``: its last best one, the other way to break the ties between cards of equal worth)."""
    deal = world.copy()
    deal.apply(Play(card))
    while not deal.is_over:
        result = solve(Position.from_deal(deal))
        best = result.best_cards[-1 if last else 0]
        deal.apply(Play(best, result.buries.get(best, CardSet(0))))
    assert deal.result is not None
    return deal.result


@dataclass(frozen=True)
class _Taken:
    """In how many of the lines the seat's side takes a point award: whichever way the ties between cards
    of equal worth are broken (``sure``), and one way or the other (``can``)."""

    sure: int
    can: int

    def text(self, k: int) -> str:
        return f"{self.sure} of {k}" if self.sure == self.can else f"{self.sure} to {self.can} of {k}"


def _taken(worlds: Sequence[Deal], card: Card, team: int) -> dict[str, _Taken]:
    """Per point award (by its name): in how many of ``worlds`` the seat's side takes it after ``card`` with
    best play, the ties between cards of equal worth broken both ways (the solver's first and last best card)."""
    sure: dict[str, int] = {}
    can: dict[str, int] = {}
    for world in worlds:
        first, last = (_par_line(world, card, way) for way in (False, True))
        names = {a.name for a in (*first.awards, *last.awards)}
        for name in names:
            ours = [any(a.name == name and a.team == team for a in r.awards) for r in (first, last)]
            sure[name] = sure.get(name, 0) + all(ours)
            can[name] = can.get(name, 0) + any(ours)
    return {name: _Taken(sure[name], can[name]) for name in sure}


def _award_words(name: str, t: TrumpTables) -> str:
    """``the Right Pedro (5H)``; High and Low by name alone (which card they are depends on the world)."""
    trump = t.suit
    cards = {"Jack": Card.of("J", trump), "Game": Card.of("T", trump), "Right Pedro": Card(t.right_pedro),
             "Left Pedro": Card(t.left_pedro), "Left Bower": Card(t.left_pedro), "Sancho": Card.of("9", trump),
             "Dom": Card.of("3", trump)}
    return f"the {name} ({cards[name]})" if name in cards else name


def _points(n: float) -> str:
    text = f"{n:g}"
    return f"{text} point" + ("" if n == 1 else "s")


def _range(least: int, most: int, mean: float) -> str:
    """``4 points`` or ``1 to 6 points (3.7 on average)``."""
    if least == most:
        return _points(least)
    return f"{least} to {_points(most)} ({mean:g} on average)"


def lost_words(f: CardFigures) -> str:
    """What a card gives away against the answer: ``1 to 6 points (3.7 on average)``."""
    return _range(f.lost_least, f.lost_most, f.lost_mean)


def explain(view: SeatView, judgement: Judgement, *, lines: int = LINES) -> list[str]:
    """Why the answer is best, in words, from the solver's results (and, for the point cards that change
    hands, the best play that follows in the first ``lines`` worlds).  Names no card of another seat:
    High and Low go by name, the other point cards by the card every world agrees on.  Says when a card
    makes or sets the contract, and where the players may choose which point card to give up."""
    assert view.trump is not None
    answer = judgement.answer
    figures = figures_of(judgement)
    team = view.seat.team
    n = len(judgement.points)
    mine = figures[answer]
    layouts = (f"{judgement.distinct} different layouts of the hidden cards" if judgement.distinct > 1
               else "every one the same layout of the hidden cards")
    out = [f"{answer} is the best card in all {n} worlds consistent with what you have seen "
           f"({layouts}): after it your side, {team}, "
           f"ends the deal with {_range(mine.fewest, mine.most, mine.mean)}{_contract_words(view, judgement)}."]
    others = sorted((c for c in figures if c != answer), key=lambda c: (figures[c].lost_mean, str(c)))
    for card in others:
        out.append(f"{card} gives away {lost_words(figures[card])} in every world"
                   f"{_contract_change(view, judgement, card)}.")
    played = [s.deal for s in judgement.samples[:lines] if s.deal is not None]
    if played:
        out += _swings(played, answer, others[0], team, view.rules.trump_tables[view.trump])
    return out


def _contract_words(view: SeatView, judgement: Judgement) -> str:
    """How the contract ends after the answer: ``, making its bid of 7`` (nothing without the figures)."""
    if not judgement.made or view.maker is None:
        return ""
    n = len(judgement.made)
    made = sum(m[judgement.answer] for m in judgement.made)
    share = "" if made in (0, n) else f" in {made} of the {n} worlds"
    if view.maker.team == view.seat.team:
        return f", making its bid of {view.bid}{share}" if made else f", short of its bid of {view.bid} (set)"
    makers = view.maker.team
    return (f"; {makers} make their bid of {view.bid}{share}" if made else
            f"; {makers} are set (they bid {view.bid})")


def _contract_change(view: SeatView, judgement: Judgement, card: Card) -> str:
    """What ``card`` does to the contract against the answer, where it turns made into set or set into made."""
    if not judgement.made or view.maker is None:
        return ""
    n = len(judgement.made)
    answer = judgement.answer
    to_set = sum(m[answer] and not m[card] for m in judgement.made)  # made after the answer, set after the card
    to_made = sum(m[card] and not m[answer] for m in judgement.made)
    whose = "your" if view.maker.team == view.seat.team else f"{view.maker.team}'s"

    def where(k: int) -> str:
        return "in every world" if k == n else f"in {k} of the {n} worlds"

    changes = ([f"turns {whose} made contract into a set {where(to_set)}"] if to_set else []) + (
        [f"turns {whose} set into a made contract {where(to_made)}"] if to_made else [])
    return "".join(f", and {c}" for c in changes)


def _swings(worlds: Sequence[Deal], answer: Card, runner: Card, team: int, trump: TrumpTables) -> list[str]:
    """The point cards that change hands between the answer and the next best card, in the best play that
    follows in each of ``worlds``; where the ties between cards of equal worth decide it, "at best"."""
    with_answer = _taken(worlds, answer, team)
    with_runner = _taken(worlds, runner, team)
    k = len(worlds)
    nothing = _Taken(0, 0)
    parts: list[str] = []
    won: list[tuple[str, bool]] = []  # (the award in words, whether it changes hands whatever the ties)
    lost: list[tuple[str, bool]] = []
    for name in sorted(set(with_answer) | set(with_runner)):
        a, b = with_answer.get(name, nothing), with_runner.get(name, nothing)
        gain = (a.sure + a.can) - (b.sure + b.can)  # in half-lines: each tie-break counts half
        if abs(gain) < k:  # told only when it changes hands in at least half of the lines
            continue
        words = _award_words(name, trump)
        parts.append(f"{words} in {a.text(k)} after {answer}, {b.text(k)} after {runner}")
        forced = a.sure == a.can and b.sure == b.can
        (won if gain > 0 else lost).append((words, forced))
    if not parts:
        return []
    out = [f"Played out with best play in {k} of the worlds, your side takes " + "; ".join(parts) + "."]
    sure_won = [w for w, forced in won if forced]
    sure_lost = [w for w, forced in lost if forced]
    choice = [w for w, forced in won + lost if not forced]
    if sure_won or sure_lost:
        summary = f"In short, against {runner}, {answer} " + (f"wins {_and(sure_won)}" if sure_won else
                                                             "wins no point card")
        out.append(summary + (f" but gives up {_and(sure_lost)}" if sure_lost else "") + ".")
    if choice:  # which point cards change hands is a choice between cards of equal worth: never told as forced
        which = (f"Which of {_and(choice)} your side takes" if len(choice) > 1 else
                 f"Whether your side takes {choice[0]}")
        out.append(f"{which} is the players' choice between cards of equal worth, for the same points "
                   "(a range counts the lines of best play either way).")
    return out


def _and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


# ---- puzzles -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Verdict:
    """A guess judged: right or wrong, the answer, and the explanation (with the guess's own cost first)."""

    guess: Card
    answer: Card
    correct: bool
    lines: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"guess": str(self.guess), "answer": str(self.answer), "correct": self.correct,
                "explanation": list(self.lines)}


@dataclass(frozen=True)
class Puzzle:
    """One seat's view where one card is clearly best, the answer, and why.

    ``view`` is all a puzzle shows before the answer; ``figures`` (each card's points over
    the worlds), ``bots`` (the card each judging bot plays) and ``explanation`` come after.
    """

    id: str
    level: str
    view: SeatView
    answer: Card
    worlds: int
    distinct: int
    figures: dict[Card, CardFigures]
    bots: dict[str, Card]
    explanation: tuple[str, ...]

    @property
    def rules(self) -> Rules:
        return self.view.rules

    @property
    def legal_cards(self) -> list[Card]:
        cards = play_cards(self.view)
        assert cards is not None  # checked when the puzzle was made or read
        return cards

    @property
    def trick_number(self) -> int:
        return len(self.view.tricks) + 1

    def read_guess(self, text: str) -> Card:
        """The card a guess names (``5h``, ``10♥``, ``play TH``); a clear PuzzleError for anything else."""
        words = text.strip().split()
        if words and words[0].lower() == "play":
            words = words[1:]
        if len(words) != 1:
            raise PuzzleError(f"type one card, as 5h or 10♥; {self.choices_text()}")
        try:
            card = Card.parse(words[0])
        except NotationError as e:
            raise PuzzleError(f"{e}; {self.choices_text()}") from None
        if card not in self.legal_cards:
            if card in self.view.hand:
                raise PuzzleError(f"{card} is in your hand but may not be played here ({self.follow_words()}); "
                                  f"{self.choices_text()}")
            raise PuzzleError(f"{card} is not in your hand; {self.choices_text()}")
        return card

    def choices_text(self) -> str:
        return "the cards you may play are " + " ".join(str(c) for c in self.legal_cards)

    def follow_words(self) -> str:
        """Why some cards of the hand may not be played: the suit led and the follow rule."""
        return _follow_words(self.view)

    def verdict(self, guess: Card) -> Verdict:
        """Right or wrong, and the explanation; a wrong card's own cost comes first."""
        if guess not in self.figures:
            raise PuzzleError(f"{guess} is not a card you may play; {self.choices_text()}")
        correct = guess == self.answer
        lines = list(self.explanation)
        if not correct:
            lines.insert(0, f"Your card, {guess}, gives away {lost_words(self.figures[guess])} against {self.answer}.")
        return Verdict(guess, self.answer, correct, tuple(lines))

    def question_json(self) -> dict[str, Any]:
        """What is shown before the answer: the view, the legal cards, the level.  No answer, no figures."""
        return {"id": self.id, "level": self.level, "rules": self.rules.to_json(), "preset": self.rules.preset_name,
                "seat": self.view.seat.name, "trick": self.trick_number, "view": view_json(self.view),
                "legal": [str(c) for c in self.legal_cards]}

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "level": self.level, "view": view_json(self.view), "answer": str(self.answer),
                "worlds": self.worlds, "distinct": self.distinct,
                "figures": {str(c): f.to_json() for c, f in self.figures.items()},
                "bots": {name: str(c) for name, c in self.bots.items()}, "explanation": list(self.explanation)}

    @classmethod
    def from_json(cls, data: Any, number: int | None = None) -> Puzzle:
        """A puzzle as :meth:`to_json` wrote it, every field checked (:func:`view_from_json`); a PuzzleError
        naming the puzzle (its id, else ``number``, its place in the file) and the field otherwise."""
        if not isinstance(data, dict):
            where = "a puzzle" if number is None else f"puzzle {number} of the file"
            raise PuzzleError(f"{where} must be a JSON object, not {json_kind(data)}")
        given = data.get("id")
        where = (f"puzzle {quoted(given)}" if isinstance(given, str) and given else
                 "a puzzle" if number is None else f"puzzle {number} of the file")
        f = _Fields(where)
        puzzle_id = f.text(f.field(data, "id", ""), "id", '"pagat-001"')
        level = f.text(f.field(data, "level", ""), "level", '"medium"')
        if level not in LEVELS:
            raise f.error("level", f"is {quoted(level)}; it must be one of {', '.join(LEVELS)}")
        view = view_from_json(f.field(data, "view", ""), where)
        cards = play_cards(view)
        if cards is None:
            raise PuzzleError(f"{where}: the view is not a play with a choice of cards for its seat")
        legal = " ".join(str(c) for c in cards)

        def legal_card(value: Any, path: str) -> Card:
            card = f.parsed(value, path, '"5D" (one card)', Card.parse)
            if card not in cards:
                raise f.error(path, f"is {card}, which is not a card the seat may play ({legal})")
            return card

        answer = legal_card(f.field(data, "answer", ""), "answer")
        worlds = f.number(f.field(data, "worlds", ""), "worlds", 1)
        distinct = f.number(f.field(data, "distinct", ""), "distinct", 1, worlds)
        figures_data = f.object(f.field(data, "figures", ""), "figures")
        figures = {legal_card(c, f"figures key {quoted(c)}"): CardFigures.read(v, f"figures.{c}", f)
                   for c, v in figures_data.items()}
        if set(figures) != set(cards):
            raise f.error("figures", f"must give the figures of every card the seat may play ({legal}), not "
                                     f"{' '.join(str(c) for c in figures) or 'none'}")
        bots = {f.text(k, "bots key", '"heuristic"'): legal_card(v, f"bots.{k}")
                for k, v in f.object(f.field(data, "bots", ""), "bots").items()}
        explanation = tuple(f.text(line, f"explanation[{i}]", '"5D is the best card ..."') for i, line in
                            enumerate(f.items(f.field(data, "explanation", ""), "explanation", what=" of lines")))
        return cls(id=puzzle_id, level=level, view=view, answer=answer, worlds=worlds, distinct=distinct,
                   figures=figures, bots=bots, explanation=explanation)


# ---- mining --------------------------------------------------------------------------------------------
def mine_deal(deal: Deal, players: Sequence[Bot], judges: dict[str, Bot], rng: random.Random, *,
              worlds: int = WORLDS, margin: int = MARGIN, levels: Iterable[str] = MINED_LEVELS,
              lines: int = LINES) -> Iterator[tuple[Puzzle, Deal]]:
    """Play ``deal`` to its end with ``players`` (by seat) and yield each puzzle met, with the deal as it
    stood then (for checks: the puzzle itself holds only the seat's view).  Puzzle ids are left empty."""
    wanted = set(levels)
    while not deal.is_over:
        seat = deal.to_act
        assert seat is not None  # (a deal not over has a seat to act: chance is dealt inside the engine)
        view = deal.view(seat)
        found = judge(view, rng, worlds=worlds, margin=margin) if play_cards(view) else None
        if found is not None:
            level, chosen = level_of(view, found.answer, judges)
            if level in wanted:
                puzzle = Puzzle("", level, view, found.answer, len(found.points), found.distinct, figures_of(found),
                                chosen, tuple(explain(view, found, lines=lines)))
                yield puzzle, deal
        deal.apply(players[seat].choose(view))


def mine_deals(rules: Rules, *, deals: int, seed: int, worlds: int = WORLDS, margin: int = MARGIN,
               levels: Iterable[str] = MINED_LEVELS, players: str = "heuristic",
               lines: int = LINES) -> Iterator[tuple[Puzzle, Deal]]:
    """Self-play ``deals`` deals under ``rules`` (the dealer passing left) and yield their puzzles, with ids
    ``preset-001`` ...  The same seed gives the same puzzles."""
    partnership_only(rules, "the puzzle miner")
    one_pack_only(rules, "the puzzle miner")
    levels = tuple(levels)
    judges = {name: make_bot(name, seed=seed) for name in JUDGES}
    count = 0
    for i in range(deals):
        tag = f"{seed}:{rules.preset_name}:{i}"
        deal = Deal.shuffled(rules, Seat(i % 4), rng=random.Random(tag))
        bots = [make_bot(players, seed=seed * 4 + s) for s in range(4)]
        for puzzle, at in mine_deal(deal, bots, judges, random.Random(tag + ":worlds"), worlds=worlds,
                                    margin=margin, levels=levels, lines=lines):
            count += 1
            yield _with_id(puzzle, f"{rules.preset_name}-{count:03d}"), at


def _with_id(puzzle: Puzzle, new_id: str) -> Puzzle:
    return replace(puzzle, id=new_id)


# ---- puzzle files --------------------------------------------------------------------------------------
def dumps(puzzles: Sequence[Puzzle], command: str = "") -> str:
    """A puzzle file: one puzzle a line, between a header and the end of the list."""
    head = json.dumps({"format": FORMAT, "command": command}, ensure_ascii=False)[:-1]
    body = ",\n".join(json.dumps(p.to_json(), ensure_ascii=False) for p in puzzles)
    return f'{head}, "puzzles": [\n{body}\n]}}\n'


def loads(text: str, source: str = "the puzzle file") -> list[Puzzle]:
    """The puzzles of a file :func:`dumps` wrote; a PuzzleError naming the problem otherwise."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise PuzzleError(f"{source} is not JSON (line {e.lineno}: {e.msg})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("puzzles"), list):
        raise PuzzleError(f"{source} is not a puzzle file (a JSON object with \"format\": \"{FORMAT}\" "
                          "and a list \"puzzles\")")
    puzzles = [Puzzle.from_json(p, number) for number, p in enumerate(data["puzzles"], start=1)]
    seen: set[str] = set()
    for p in puzzles:
        if p.id in seen:
            raise PuzzleError(f"{source}: the id {quoted(p.id)} is used twice")
        seen.add(p.id)
    return puzzles


def load_puzzles(path: str | Path | None = None) -> list[Puzzle]:
    """The puzzles of a file (by default the set bundled with cinch)."""
    where = Path(path) if path is not None else BUNDLED
    try:
        text = where.read_text(encoding="utf-8")
    except OSError as e:
        raise PuzzleError(f"cannot read the puzzle file {where}: {e.strerror or e}") from None
    return loads(text, str(where) if path is not None else "the bundled puzzle set")


def find(puzzles: Sequence[Puzzle], puzzle_id: str) -> Puzzle:
    """The puzzle with this id; a PuzzleError listing some of the ids otherwise."""
    for p in puzzles:
        if p.id == puzzle_id:
            return p
    sample = ", ".join(p.id for p in puzzles[:5])
    raise PuzzleError(f"there is no puzzle {quoted(puzzle_id)}; the ids are like {sample} (`cinch puzzle --list`)")


__all__ = [
    "BUNDLED", "FORMAT", "LEVELS", "MARGIN", "WORLDS", "CardFigures", "Judgement", "Puzzle", "PuzzleError",
    "Verdict", "dumps", "explain", "figures_of", "find", "judge", "level_of", "load_puzzles", "loads",
    "mine_deal", "mine_deals", "play_cards", "view_cards", "view_from_json", "view_json",
]
