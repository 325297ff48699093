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
from cinch.errors import CinchError, NotationError
from cinch.rules import Follow, Rules
from cinch.solver import Position, solve
from cinch.study import one_pack_only, partnership_only
from cinch.view import Phase, PlayedCard, SeatView, Trick
from cinch.worlds import Sample, sample_weighted

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


def _seat(name: str | None) -> Seat | None:
    return None if name is None else Seat[name]


def _plays_json(plays: Sequence[PlayedCard]) -> list[list[str]]:
    return [[p.seat.name, str(p.card)] + ([_cards(p.buried)] if p.buried else []) for p in plays]


def _plays(data: Sequence[Sequence[str]]) -> tuple[PlayedCard, ...]:
    return tuple(PlayedCard(Seat[p[0]], Card.parse(p[1]), CardSet.parse(p[2]) if len(p) > 2 else CardSet(0))
                 for p in data)


def view_json(view: SeatView) -> dict[str, Any]:
    """Everything a seat's view holds (its match context aside), in record notation.

    >>> from cinch import Deal, Rules, Seat
    >>> view = Deal.shuffled(Rules.preset("pagat"), Seat.W, rng=5).view(Seat.N)
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


def view_from_json(data: dict[str, Any]) -> SeatView:
    """The view :func:`view_json` wrote (raises KeyError, ValueError or a CinchError on a malformed one)."""
    def four(key: str) -> tuple[CardSet, CardSet, CardSet, CardSet]:
        a, b, c, d = (CardSet.parse(text) for text in data[key])
        return a, b, c, d

    def counts(key: str) -> tuple[int, int, int, int]:
        a, b, c, d = (int(n) for n in data[key])
        return a, b, c, d

    auction = []
    for seat, text in data["auction"]:
        call = parse_action(text)
        if not isinstance(call, Pass | Bid):
            raise ValueError(f"{text!r} is not a bid or a pass")
        auction.append((Seat[seat], call))
    trump = data["trump"]
    return SeatView(
        seat=Seat[data["seat"]], rules=Rules.from_json(data["rules"]), dealer=Seat[data["dealer"]],
        phase=Phase(data["phase"]), to_act=_seat(data["to_act"]), hand=CardSet.parse(data["hand"]),
        hand_sizes=counts("hand_sizes"), auction=tuple(auction),
        maker=_seat(data["maker"]), bid=data["bid"], trump=None if trump is None else Suit.parse(trump),
        own_discards=CardSet.parse(data["own_discards"]), face_up_discards=four("face_up_discards"),
        shown_trumps=four("shown_trumps"), drawn_counts=counts("drawn_counts"),
        own_drawn=CardSet.parse(data["own_drawn"]), stock_seen=CardSet.parse(data["stock_seen"]),
        tricks=tuple(Trick(Seat[t["leader"]], _plays(t["plays"]), Seat[t["winner"]]) for t in data["tricks"]),
        trick_leader=_seat(data["trick_leader"]), current_trick=_plays(data["current_trick"]),
        legal=tuple(parse_action(a) for a in data["legal"]),
    )


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
    samples: list[Sample] = []
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
        samples.append(sample)
    assert answer is not None
    return Judgement(answer, tuple(table), tuple(samples))


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
        return cls(float(data["mean"]), int(data["fewest"]), int(data["most"]), int(data["lost_least"]),
                   int(data["lost_most"]), float(data["lost_mean"]))


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


def _par_line(world: Deal, card: Card) -> DealResult:
    """The deal played to its end from ``world`` after ``card``, every later card the solver's first best one."""
    deal = world.copy()
    deal.apply(Play(card))
    while not deal.is_over:
        result = solve(Position.from_deal(deal))
        best = result.best_cards[0]
        deal.apply(Play(best, result.buries.get(best, CardSet(0))))
    assert deal.result is not None
    return deal.result


def _taken(results: Sequence[DealResult], team: int) -> dict[str, int]:
    """In how many of the lines the seat's side took each point award (by its name)."""
    out: dict[str, int] = {}
    for r in results:
        for a in r.awards:
            out.setdefault(a.name, 0)
            out[a.name] += a.team == team
    return out


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
    High and Low go by name, the other point cards by the card every world agrees on."""
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
           f"ends the deal with {_range(mine.fewest, mine.most, mine.mean)}."]
    others = sorted((c for c in figures if c != answer), key=lambda c: (figures[c].lost_mean, str(c)))
    for card in others:
        out.append(f"{card} gives away {lost_words(figures[card])} in every world.")
    played = [s.deal for s in judgement.samples[:lines] if s.deal is not None]
    if played:
        out += _swings(played, answer, others[0], team, view.rules.trump_tables[view.trump])
    return out


def _swings(worlds: Sequence[Deal], answer: Card, runner: Card, team: int, trump: TrumpTables) -> list[str]:
    """The point cards that change hands between the answer and the next best card, in the best play that
    follows in each of ``worlds``."""
    with_answer = _taken([_par_line(d, answer) for d in worlds], team)
    with_runner = _taken([_par_line(d, runner) for d in worlds], team)
    k = len(worlds)
    parts: list[str] = []
    won: list[str] = []
    lost: list[str] = []
    for name in sorted(set(with_answer) | set(with_runner)):
        a, b = with_answer.get(name, 0), with_runner.get(name, 0)
        if abs(a - b) * 2 < k:  # told only when it changes hands in at least half of the lines
            continue
        words = _award_words(name, trump)
        parts.append(f"{words} in {a} of {k} after {answer}, {b} of {k} after {runner}")
        (won if a > b else lost).append(words)
    if not parts:
        return []
    out = [f"Played out with best play in {k} of the worlds, your side takes " + "; ".join(parts) + "."]
    summary = f"In short, against {runner}, {answer} wins " + (" and ".join(won) if won else "no point card")
    if lost:
        summary += " but gives up " + " and ".join(lost)
    return out + [summary + "."]


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
        trick = self.view.current_trick
        assert self.view.trump is not None
        if not trick:
            return "you lead: any card"
        t = self.view.rules.trump_tables[self.view.trump]
        led = t.effective_suit[trick[0].card]
        if led == self.view.trump:
            return "trumps were led: you must play a trump"
        suit = Suit(led).name.lower()
        if self.rules.follow is Follow.STRICT:
            return f"{suit} were led: you must follow suit"
        return f"{suit} were led: you must follow suit or trump"

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
    def from_json(cls, data: Any) -> Puzzle:
        """A puzzle as :meth:`to_json` wrote it; a PuzzleError naming what is wrong otherwise."""
        where = f"puzzle {data.get('id')!r}" if isinstance(data, dict) else "a puzzle"
        try:
            view = view_from_json(data["view"])
            puzzle = cls(
                id=str(data["id"]), level=str(data["level"]), view=view, answer=Card.parse(data["answer"]),
                worlds=int(data["worlds"]), distinct=int(data["distinct"]),
                figures={Card.parse(c): CardFigures.from_json(f) for c, f in data["figures"].items()},
                bots={str(k): Card.parse(v) for k, v in data["bots"].items()},
                explanation=tuple(str(line) for line in data["explanation"]),
            )
        except KeyError as e:
            raise PuzzleError(f"{where}: the field {e} is missing") from None
        except (TypeError, ValueError, AttributeError, CinchError) as e:
            raise PuzzleError(f"{where}: {e}") from None
        if view.rules.decks != 1:  # (the miner never makes one: a file edited by hand)
            raise PuzzleError(f"{where}: its rules play two packs (decks=2), and puzzles are one-pack games")
        cards = play_cards(view)
        if cards is None:
            raise PuzzleError(f"{where}: the view is not a play with a choice of cards for its seat")
        if puzzle.level not in LEVELS:
            raise PuzzleError(f"{where}: level {puzzle.level!r} is not one of {', '.join(LEVELS)}")
        if puzzle.answer not in cards or set(puzzle.figures) != set(cards):
            raise PuzzleError(f"{where}: the answer and the figures must be the legal cards "
                              f"({' '.join(str(c) for c in cards)})")
        return puzzle


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
    puzzles = [Puzzle.from_json(p) for p in data["puzzles"]]
    seen: set[str] = set()
    for p in puzzles:
        if p.id in seen:
            raise PuzzleError(f"{source}: the id {p.id!r} is used twice")
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
    raise PuzzleError(f"there is no puzzle {puzzle_id!r}; the ids are like {sample} (`cinch puzzle --list`)")


__all__ = [
    "BUNDLED", "FORMAT", "LEVELS", "MARGIN", "WORLDS", "CardFigures", "Judgement", "Puzzle", "PuzzleError",
    "Verdict", "dumps", "explain", "figures_of", "find", "judge", "level_of", "load_puzzles", "loads",
    "mine_deal", "mine_deals", "play_cards", "view_cards", "view_from_json", "view_json",
]
