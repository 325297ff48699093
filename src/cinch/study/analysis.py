"""Game analysis: every decision of a game judged by the expert's search, with the double-dummy par beside it.

For each decision with more than one legal action, the deciding seat's view at that point
(its cards and what it has seen, with the match score, as at the table) goes to the
expert (:meth:`cinch.bots.expert.ExpertBot.evaluate`), with the action actually played
searched among its candidates.  The candidates share their worlds, so the cost of the
played action is measured against the best candidate on the same worlds, with its
standard error.  Everything is in **points of the deal**: the deciding side's score
change less the other side's, as the preset settles the deal (a Pedro lost to the other
side costs 10 in the additive presets: 5 fewer for you and 5 more for them).  At a cut-throat
table of three to six, each for himself, a point is the player's own score change less the
average of the others' (the expert's own objective there: :func:`deal_value`); at two players
it is his change less his opponent's.

A decision is marked when its loss is at least a threshold *and* at least ``NOISE_Z``
standard errors (more against several candidates, and Student's t for few worlds:
:func:`noise_factor`): a loss the worlds cannot tell from noise is not a mistake.  The loss's
interval is that many standard errors either side of it (:func:`loss_interval`); where it
straddles a mark's threshold, so that other worlds could give another mark, the decision is
searched again with twice the worlds, up to ``MAX_WIDENING`` times the settings' (64 worlds a
card by default), before it is marked: the mark then depends on the position, not on the seed.

========== ==================
mark       loss, in points
========== ==================
inaccuracy ``INACCURACY`` (1)
mistake    ``MISTAKE`` (2.5)
blunder    ``BLUNDER`` (5)
========== ==================

A player's accuracy is the mean over their judged decisions of
``100 * exp(-max(0, loss - error) / ACCURACY_SCALE)``: 100 for the best choice, about 82
for a one-point slip, 37 for a five-point blunder; a loss within one standard error of
nothing counts as nothing.  In the play, the double-dummy par is beside each decision: the
value of the card played and of the best card with every hand known
(:mod:`cinch.solver`), in the same points, for the last six tricks (four at five or six
players, whose searches are slower: :func:`par_tricks`); cut-throat, the maker is searched
alone against the others together and a defender's own points by a second search, him alone
against everyone else, as the expert searches.  The search sees only the seat's view; only the
par sees the whole deal.

>>> from cinch.deal import EXAMPLE_DECK
>>> record = {"format": "cinch/1", "rules": "pagat",
...           "deals": [{"dealer": "W", "deck": EXAMPLE_DECK, "actions": ["bid 7", "pass", "pass", "pass"]}]}
>>> specs = deal_specs(load_match(record))
>>> specs[0].number, decision_steps(specs[0])   # N's bid 7 and E's pass had choices; S and W too
(1, [1, 2, 3, 4])
"""

from __future__ import annotations

import functools
import math
import os
import statistics
import threading
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from cinch.actions import Action, Bid, Keep, NameTrump, Play, parse_action
from cinch.bots.expert import Evaluation, ExpertBot
from cinch.cards import TRUMP_TABLES, Card, Seat, Suit, TrumpTables, trump_tables
from cinch.deal import Deal
from cinch.errors import CinchError
from cinch.match import Match
from cinch.record import replay
from cinch.rules import Rules
from cinch.scoring import settle
from cinch.seating import FOUR, Seating
from cinch.solver import Position, solve
from cinch.study.prefilter import Prefilter, prefiltered
from cinch.view import Phase, SeatView

__all__ = [
    "ACCURACY_SCALE", "BLUNDER", "DEFAULT_WORLDS", "INACCURACY", "MAX_WIDENING", "MISTAKE", "NOISE_Z", "Analysis",
    "AnalysisError", "DealAnalysis", "DealSpec", "Judgement", "Mark", "Par", "PrefilteredExpert", "SeatSummary",
    "Settings", "Verdict", "analyze", "analyze_deal", "choice_words", "deal_specs", "deal_value", "decision_accuracy",
    "decision_steps", "default_workers", "in_doubt", "judge", "load_match", "loss_interval", "mark_of", "noise_factor",
    "par_tricks", "summarise",
]

FORMAT = "cinch-analysis/1"
DEFAULT_WORLDS = 16  # worlds per play decision; the bidding, trump, discard and rob get 2 (below) times as many
PLAYOUTS_PER_WORLD = 2
INACCURACY = 1.0  # points of the deal lost (ours less theirs): about half a small point card's swing
MISTAKE = 2.5  # more than a small point card's swing (Game, Jack, Low: 2 either way)
BLUNDER = 5.0  # half a Pedro's swing, or a fair chance of a set contract thrown away
NOISE_Z = 2.0  # a loss is marked only if it is this many standard errors above nothing (many worlds)
MAX_WIDENING = 4  # a verdict in doubt is searched again with 2, then 4 times the worlds (a cap on the cost)
ACCURACY_SCALE = 5.0  # points: a decision's accuracy is 100 exp(-loss / scale)
DD_TRICKS = 6  # the most tricks left for the double-dummy par (longer hands take the solver seconds)
DD_TRICKS_BIG_TABLE = 4  # the same at five or six players (their searches are slower; the expert's limit too)


class AnalysisError(CinchError):
    """A game that cannot be analysed (no cards to play through, bad settings): one line for the user."""


class Mark(StrEnum):
    """How bad a decision was, by the points it cost."""

    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


def noise_factor(worlds: int | None = None, candidates: int = 2) -> float:
    """Standard errors a loss must exceed to be marked, measured on ``worlds`` worlds against the best
    of ``candidates``.

    ``NOISE_Z`` for one rival and many worlds.  The best of several noisy estimates looks better
    than it is, so with more candidates the level is divided among the rivals (Bonferroni, as the
    expert's own margin); with few worlds the standard error is itself a rough guess, so the factor
    is Student's t at that level (Cornish-Fisher's expansion); with two worlds or fewer nothing is marked.

    >>> noise_factor(), round(noise_factor(candidates=6), 2), round(noise_factor(16), 2), noise_factor(2)
    (2.0, 2.61, 2.18, inf)
    """
    if worlds is not None and worlds <= 2:
        return math.inf
    z = NOISE_Z
    if candidates > 2:
        normal = statistics.NormalDist()
        z = normal.inv_cdf(1 - (1 - normal.cdf(NOISE_Z)) / (candidates - 1))
    if worlds is None:
        return z
    v = worlds - 1
    return (z + (z ** 3 + z) / (4 * v) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * v ** 2)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * v ** 3))


def mark_of(loss: float, error: float, worlds: int | None = None, candidates: int = 2) -> Mark | None:
    """The mark of a loss of ``loss`` points with standard error ``error`` (over ``worlds`` worlds, against the
    best of ``candidates``); None for none.

    >>> mark_of(6.0, 1.0), mark_of(6.0, 4.0), mark_of(0.5, 0.0), mark_of(3.0, 0.0), mark_of(9.0, 1.0, worlds=2)
    (<Mark.BLUNDER: 'blunder'>, None, None, <Mark.MISTAKE: 'mistake'>, None)
    """
    if loss < INACCURACY or loss < noise_factor(worlds, candidates) * error:
        return None
    if loss >= BLUNDER:
        return Mark.BLUNDER
    return Mark.MISTAKE if loss >= MISTAKE else Mark.INACCURACY


def loss_interval(loss: float, error: float, worlds: int | None = None, candidates: int = 2) -> tuple[float, float]:
    """The interval a mark is judged on: the loss, less and more :func:`noise_factor` standard errors.

    >>> loss_interval(3.0, 0.5), loss_interval(0.0, 0.0, worlds=2)
    ((2.0, 4.0), (0.0, 0.0))
    """
    if error <= 0:
        return loss, loss
    half = noise_factor(worlds, candidates) * error
    return loss - half, loss + half


def in_doubt(loss: float, error: float, worlds: int | None = None, candidates: int = 2) -> bool:
    """Whether the loss's interval straddles a mark's threshold: other worlds could give another mark.

    >>> in_doubt(3.3, 1.7, 16, 3), in_doubt(9.0, 1.0, 128, 3), in_doubt(0.2, 0.1, 16)
    (True, False, False)
    """
    low, high = loss_interval(loss, error, worlds, candidates)
    return any(low < threshold < high for threshold in (INACCURACY, MISTAKE, BLUNDER))


def decision_accuracy(loss: float, error: float) -> float:
    """A decision's accuracy in percent: 100 for no loss beyond its noise, falling as the loss grows.

    >>> round(decision_accuracy(0.0, 0.0)), round(decision_accuracy(1.0, 0.0)), round(decision_accuracy(6.0, 1.0))
    (100, 82, 37)
    """
    return 100.0 * math.exp(-max(0.0, loss - error) / ACCURACY_SCALE)


# ---- settings ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Settings:
    """How hard the expert searches each decision.

    ``worlds``: a fixed number of worlds per play decision (and ``PLAYOUTS_PER_WORLD`` times
    as many playouts for the other decisions), which makes the analysis exactly repeatable;
    ``seconds``: a time budget per decision instead (the expert's ``time_budget``; repeatable
    only as far as the machine's speed is); ``seed``: the seed of the worlds; ``widening``: the most
    times a decision whose verdict is in doubt (:func:`in_doubt`) is searched with more worlds (or
    time) than these, doubling each time (1: never).  The same seed searches the same worlds first,
    so a wider search adds worlds to those of the narrower one.  ``prefilter``: the bidding's calls compared are
    only those the learned policy ranks best, this many, with the pass and the call played
    (:mod:`cinch.study.prefilter`; the others are ranked by the model only); ``weights``: the models'
    folder, default the package's.
    """

    worlds: int | None = DEFAULT_WORLDS
    seconds: float | None = None
    seed: int = 0
    widening: int = MAX_WIDENING
    prefilter: int | None = None
    weights: str | None = None

    def __post_init__(self) -> None:
        if self.worlds is not None and self.worlds < 1:
            raise AnalysisError(f"worlds must be at least 1, not {self.worlds}")
        if self.seconds is not None and not self.seconds > 0:
            raise AnalysisError(f"the time per decision must be more than 0 seconds, not {self.seconds}")
        if self.widening < 1:
            raise AnalysisError(f"the widening must be at least 1 (never wider), not {self.widening}")
        if self.prefilter is not None and self.prefilter < 1:
            raise AnalysisError(f"the prefilter searches at least 1 choice, not {self.prefilter}")

    def searches(self) -> Iterator[Settings]:
        """The settings of each search a decision in doubt may get: these, then twice the worlds (or the
        time), and so on up to ``widening`` times."""
        factor = 1
        while factor <= self.widening:
            if self.seconds is not None:
                yield replace(self, seconds=self.seconds * factor, widening=1)
            else:
                yield replace(self, worlds=(self.worlds or DEFAULT_WORLDS) * factor, widening=1)
            factor *= 2

    def bot(self) -> ExpertBot:
        """The expert that judges: by points of the deal, never by the chance to win the match."""
        kind = ExpertBot if self.prefilter is None else PrefilteredExpert
        if self.seconds is not None:
            return kind(seed=self.seed, time_budget=self.seconds, match_equity=False)
        worlds = self.worlds or DEFAULT_WORLDS
        # No time cap: a fixed number of worlds must be searched in full, however busy the machine.
        return kind(seed=self.seed, worlds=worlds, playouts=PLAYOUTS_PER_WORLD * worlds, max_seconds=3600.0,
                    match_equity=False)

    def to_json(self) -> dict[str, Any]:
        prefilter = {} if self.prefilter is None else {"prefilter": self.prefilter}
        if self.seconds is not None:
            return {"seconds": self.seconds, "worlds": None, "playouts": None, "seed": self.seed,
                    "widening": self.widening, **prefilter}
        worlds = self.worlds or DEFAULT_WORLDS
        return {"seconds": None, "worlds": worlds, "playouts": PLAYOUTS_PER_WORLD * worlds, "seed": self.seed,
                "widening": self.widening, **prefilter}


class PrefilteredExpert(ExpertBot):
    """The expert comparing the calls a prefilter leaves it (:mod:`cinch.study.prefilter`), in place of those its own
    rule would choose; every other decision, and a bid without a prefilter (``calls`` None), as the expert."""

    calls: tuple[Action, ...] | None = None

    def _bid_candidates(self, view: SeatView, heuristic: Action) -> list[Action]:  # type: ignore[override]
        if self.calls is None:
            return ExpertBot._bid_candidates(view, heuristic)
        return list(self.calls)


_LOCAL = threading.local()


def _bot(settings: Settings) -> ExpertBot:
    """One expert per settings in each thread (a worker analyses many decisions; a bot's search is not
    to be shared by two threads at once)."""
    bots: dict[Settings, ExpertBot] = _LOCAL.__dict__.setdefault("bots", {})
    bot = bots.get(settings)
    if bot is None:
        if len(bots) >= 8:  # (a few settings, each with its wider searches)
            bots.clear()
        bot = bots[settings] = settings.bot()
    return bot


# ---- the deals of a game ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class DealSpec:
    """One deal of a game as plain values, enough to rebuild every position in it (and to send to a worker).

    ``score`` is the match score before the deal; ``actions`` the record's actions, in notation.
    """

    rules: Any  # the rules as a record writes them (a preset name, or a tuple of option pairs)
    number: int
    dealer: str
    deck: str
    restock: str | None
    actions: tuple[str, ...]
    score: tuple[int, ...] = (0, 0)
    bidder_goes_out: bool = False
    players: tuple[str, ...] | None = None

    @classmethod
    def of(cls, match: Match, index: int) -> DealSpec:
        """Deal ``index`` (from 0) of ``match``, with the score it was played at."""
        played = match.deals[index]
        summary = match.summaries[index] if index < len(match.summaries) else None
        score = match.summaries[index - 1].score if index else (0,) * match.table.sides
        bgo = summary.bidder_goes_out if summary is not None else match.bidder_goes_out_applies()
        rules = match.rules.to_json()
        names = tuple(match.players.get(s, "") for s in match.table.seats) if match.players else None
        return cls(
            rules=tuple(sorted(rules.items())) if isinstance(rules, dict) else rules,
            number=index + 1, dealer=played.dealer.name, deck=" ".join(str(c) for c in played.deck),
            restock=None if played.restock is None else " ".join(str(c) for c in played.restock),
            actions=tuple(str(a) for a in played.history), score=score, bidder_goes_out=bgo, players=names,
        )

    @functools.cached_property
    def game_rules(self) -> Rules:
        return Rules.from_json(dict(self.rules) if isinstance(self.rules, tuple) else self.rules)

    @property
    def table(self) -> Seating:
        """Who sits at the table: the seats ``N E S W``, or ``1`` to ``n`` cut-throat."""
        return self.game_rules.seating

    @property
    def dealer_seat(self) -> Seat:
        return self.table.parse_seat(self.dealer)

    def start(self) -> Deal:
        """The deal before its first action."""
        return Deal(self.game_rules, self.dealer_seat, self.deck, restock=self.restock)

    def context(self) -> dict[str, Any]:
        """The match around the deal, as :meth:`cinch.match.Match.view` gives it to a seat."""
        return {"score": self.score, "target": self.game_rules.target, "deal_number": self.number,
                "bidder_goes_out": self.bidder_goes_out, "players": self.players}

    def headline(self) -> str:
        """The deal in one line: ``E dealt; S bid 7 in hearts. NS bid 7, took 8: made; NS add 8``."""
        deal = self.start()
        for text in self.actions:
            deal.apply(parse_action(text))
        head = f"{self.dealer} dealt"
        if deal.maker is not None and deal.trump is not None:
            head += f"; {deal.maker} bid {deal.high_bid} in {deal.trump.name.lower()}"
        if deal.result is not None:
            return f"{head}. {deal.result.describe().rstrip('.')}"
        return f"{head}; in progress"

    def positions(self) -> Iterator[tuple[int, Deal, Action]]:
        """(step from 1, the deal just before that action, the action) for every action of the deal.

        The deal is the same object throughout, moved on after each yield: copy it to keep it.
        """
        deal = self.start()
        for step, text in enumerate(self.actions, start=1):
            action = parse_action(text)
            yield step, deal, action
            deal.apply(action)


def load_match(record: dict[str, Any]) -> Match:
    """A record's match, replayed; a record that does not replay raises the record's own clear error."""
    return replay(record).match


def deal_specs(match: Match) -> list[DealSpec]:
    """Every deal of a match (the last one too if it is still being played)."""
    return [DealSpec.of(match, i) for i in range(len(match.deals))]


def decision_steps(spec: DealSpec) -> list[int]:
    """The steps of a deal at which the player had a choice (forced actions are not judged)."""
    return [step for step, deal, _ in spec.positions() if len(deal.legal_actions()) > 1]


# ---- one decision ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Par:
    """The double-dummy values of a play decision, every hand known: the card played and the best card.

    In points of the deal for the player's side, less the other side's (the mean of the others'
    cut-throat), as the analysis; whole numbers at four players, halves or thirds cut-throat.
    """

    played: float
    best: float
    best_cards: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"played": _number(self.played), "best": _number(self.best), "best_cards": list(self.best_cards)}


def _number(x: float) -> int | float:
    """A whole number as an int (``3``, not ``3.0``), else rounded to three places."""
    return int(x) if float(x).is_integer() else round(x, 3)


def _signed(x: float) -> str:
    """``+3``, ``-2``, or ``+1.5`` for a value that is not whole."""
    return f"{int(x):+d}" if float(x).is_integer() else f"{x:+.1f}"


@dataclass(frozen=True)
class Verdict:
    """What one search says of the action played: the expert's best, the points lost and how sure that is.

    ``played_value`` and ``best_value`` are the expert's estimates (points of the deal, ours
    less theirs); ``loss`` is the best's gain over the played action in the ``worlds`` both were
    searched in, and ``error`` its standard error, against the best of ``candidates``.  ``searched``
    is false when the expert had nothing to compare (a single sensible choice): such a decision is
    neither marked nor counted.
    """

    best: Action
    played_value: float
    best_value: float
    loss: float
    error: float
    worlds: int
    candidates: int
    searched: bool

    @property
    def interval(self) -> tuple[float, float]:
        """The loss's interval the mark is judged on (:func:`loss_interval`)."""
        return loss_interval(self.loss, self.error, self.worlds, self.candidates)

    @property
    def doubtful(self) -> bool:
        """Whether more worlds could give another mark (:func:`in_doubt`)."""
        return self.searched and in_doubt(self.loss, self.error, self.worlds, self.candidates)


@dataclass(frozen=True)
class Judgement(Verdict):
    """One decision judged: where it was, what was played, and the search's :class:`Verdict` with its mark."""

    deal: int
    step: int
    seat: Seat
    phase: str  # bid, trump, discard, rob or play
    trick: int | None  # in the play, the trick's number
    trump: Suit | None
    played: Action
    par: Par | None = None
    seconds: float = 0.0  # CPU time of the judgement, in its process
    bowers: bool = False  # all-hands Pedro (the rules' option): the left bower is the trump, not the other five
    ranked: tuple[Action, ...] = ()  # the legal choices a prefilter left to the model only, its likeliest first

    @property
    def tables(self) -> TrumpTables | None:
        """The trump tables the cards are named by (a flag, not the tables, travels between processes)."""
        return None if self.trump is None else trump_tables(self.bowers)[self.trump]

    @property
    def mark(self) -> Mark | None:
        return mark_of(self.loss, self.error, self.worlds, self.candidates) if self.searched else None

    @property
    def accuracy(self) -> float:
        return decision_accuracy(self.loss, self.error)

    @property
    def where(self) -> str:
        """``trick 3`` in the play, else the phase: ``the bidding``."""
        if self.trick is not None:
            return f"trick {self.trick}"
        return {"bid": "the bidding", "trump": "the naming of trumps", "discard": "the discard",
                "rob": "the rob"}.get(self.phase, self.phase)

    def text(self, hide_keeps: bool = False) -> str:
        """The decision in words: ``trick 2, S: play K♠: a blunder, about 6.1 points lost (4.2 to 8.0 in 16
        worlds); better: play 4♠ ...``: the loss with its interval (:attr:`interval`) and the worlds searched.

        ``hide_keeps`` leaves out the cards of a discard or rob (another seat's hidden cards at a table).
        """
        keep = isinstance(self.played, Keep)
        played = "a discard" if keep and hide_keeps else choice_words(self.played, self.tables)
        head = f"{self.where}, {self.seat}: {played}"
        if not self.searched:
            return f"{head}: not judged (the expert had a single sensible choice)"
        mark = self.mark
        low, high = self.interval
        spread = f"{low:.1f} to {high:.1f} in {self.worlds} worlds"
        article = "an" if mark is Mark.INACCURACY else "a"
        verdict = (f"{article} {mark}, about {_points(self.loss)} lost ({spread})" if mark is not None else
                   "the best choice" if self.loss < 0.05 else
                   f"fine ({self.loss:.1f} points, {spread}: within the noise)")
        if mark is not None:
            better = "another discard" if keep and hide_keeps else choice_words(self.best, self.tables)
            verdict += f"; better: {better} ({self.best_value:+.1f} against {self.played_value:+.1f})"
        par = self.par
        if par is not None:
            verdict += f"; double-dummy {_signed(par.played)}" + (
                ", as good as any" if par.played == par.best else
                f", the best {_signed(par.best)} with {self._cards(par)}")
        if self.ranked:
            count = len(self.ranked)
            verdict += f"; {count} other choice{'s' * (count != 1)} ranked by the model only, not searched"
        return f"{head}: {verdict}"

    def _cards(self, par: Par) -> str:
        return " ".join(_card(Card.parse(c), self.tables) for c in par.best_cards)

    def to_json(self) -> dict[str, Any]:
        mark = self.mark
        return {
            "deal": self.deal, "step": self.step, "seat": self.seat.name, "phase": self.phase, "trick": self.trick,
            "played": str(self.played), "best": str(self.best),
            "played_words": choice_words(self.played, self.tables), "best_words": choice_words(self.best, self.tables),
            "played_value": round(self.played_value, 3), "best_value": round(self.best_value, 3),
            "loss": round(self.loss, 3), "error": round(self.error, 3),
            "interval": [round(x, 3) if math.isfinite(x) else None for x in self.interval], "worlds": self.worlds,
            "candidates": self.candidates, "searched": self.searched, "mark": None if mark is None else str(mark),
            "accuracy": round(self.accuracy, 1), "par": None if self.par is None else self.par.to_json(),
            "text": self.text(), **({"ranked_only": [str(a) for a in self.ranked]} if self.ranked else {}),
        }


_PHASES = {Phase.BIDDING: "bid", Phase.TRUMP: "trump", Phase.DISCARD: "discard", Phase.ROB: "rob", Phase.PLAY: "play"}


def judge(spec: DealSpec, step: int, settings: Settings = Settings()) -> Judgement:
    """(Also in a worker process.)  The judgement of action ``step`` (from 1) of a deal."""
    for at, deal, action in spec.positions():
        if at == step:
            return _judge(spec, step, deal, action, settings)
    raise AnalysisError(f"deal {spec.number} has no action {step} (it has {len(spec.actions)})")


def _judge(spec: DealSpec, step: int, deal: Deal, action: Action, settings: Settings) -> Judgement:
    started = time.process_time()
    seat = deal.to_act
    assert seat is not None  # every action of a record is some seat's
    view = deal.view(seat, **spec.context())
    chosen = Prefilter() if settings.prefilter is None else prefiltered(view, settings.prefilter, settings.weights,
                                                                         also=[action])
    for wider in settings.searches():  # more worlds while the verdict is in doubt, up to the widening
        bot = _bot(wider)
        if isinstance(bot, PrefilteredExpert):  # the calls the policy ranks best (and the pass and the played)
            bot.calls = chosen.searched
        found = _verdict(bot.evaluate(view, [action]), action)
        if not found.doubtful:
            break
    par = _par(deal, action) if deal.phase is Phase.PLAY else None
    return Judgement(
        **vars(found), deal=spec.number, step=step, seat=seat, phase=_PHASES.get(deal.phase, deal.phase.value),
        trick=len(deal.tricks) + 1 if deal.phase is Phase.PLAY else None, trump=deal.trump, played=action, par=par,
        seconds=time.process_time() - started, bowers=deal.rules.bowers, ranked=tuple(a for a, _ in chosen.ranked))


def _verdict(evaluation: Evaluation, action: Action) -> Verdict:
    """The played action against the search's best candidate, in the worlds both were searched in."""
    played = evaluation.index(action)
    count = len(evaluation.candidates)
    if played is None or count <= 1:
        estimate = evaluation.decision.estimate or 0.0
        return Verdict(evaluation.decision.action, estimate, estimate, 0.0, 0.0, evaluation.decision.samples, count,
                       False)
    best = _best(evaluation)
    means = evaluation.means()
    loss, error, worlds = evaluation.gain(best, played) if best != played else (0.0, 0.0, len(evaluation.weights))
    if loss <= 0:  # the best by its mean, yet no better than the played action where both were searched
        best, loss, error = played, 0.0, 0.0
    return Verdict(evaluation.candidates[best], means[played], means[best], loss, error, worlds, count, True)


def _best(evaluation: Evaluation) -> int:
    """The candidate with the best mean among those searched in every world (one dropped from a race
    early had fewer worlds, where a lucky start may flatter it)."""
    full = max(len(v) for v in evaluation.values)
    means = evaluation.means()
    return max((i for i, v in enumerate(evaluation.values) if len(v) == full), key=means.__getitem__)


def deal_value(rules: Rules, seat: Seat, maker: Seat, bid: int, points: Sequence[int]) -> float:
    """A deal's value for ``seat``, in points: his side's score change less the mean of the other sides'.

    ``points`` are the points each side took (by side: NS and EW at four players, by player
    cut-throat), settled as the preset settles them (:func:`cinch.scoring.settle`).  At four
    players (and two) that is our change less theirs; at three to six the player's own change
    less the average of the others', as the expert judges (:mod:`cinch.bots.expert`).

    >>> three = Rules.preset("official").with_options(players=3)
    >>> seats = three.seating.seats  # 1 took 4; 2 bid 7 and took 5, set: -7; 3 took 5
    >>> deal_value(three, seats[0], seats[1], 7, (4, 5, 5)), deal_value(three, seats[1], seats[1], 7, (4, 5, 5))
    (5.0, -11.5)
    """
    table = rules.seating
    side = table.side_of[seat]
    _, change = settle(rules, table.side(maker), bid, tuple(points))
    others = [c for s, c in enumerate(change) if s != side]
    return change[side] - sum(others) / len(others)


def par_tricks(rules: Rules) -> int:
    """The most tricks left for the double-dummy par: fewer at five or six, whose hands make long searches."""
    return DD_TRICKS_BIG_TABLE if rules.players > FOUR.players else DD_TRICKS


def _par(deal: Deal, action: Action) -> Par | None:
    """The double-dummy value of the card played and of the best card (None for a hand too long to solve).

    At a cut-throat table of three or more the maker is searched alone against the others together;
    a defender's own points come from a second search, him alone against everyone else (as the expert's).
    """
    rules = deal.rules
    if not isinstance(action, Play) or rules.tricks - len(deal.tricks) > par_tricks(rules):
        return None
    seat = deal.to_act
    maker = deal.maker
    assert seat is not None and maker is not None and deal.high_bid is not None
    table = rules.seating
    bid = deal.high_bid
    try:
        position = Position.from_deal(deal)
        result = solve(position)
        lone_defender = table.sides > 2 and seat != maker
        mine = solve(position, alone=seat) if lone_defender else None
    except (ValueError, KeyError, IndexError, AssertionError):  # a position the solver refuses: no par
        return None

    def by_side(card: Card) -> list[int]:
        """The points each side takes after ``card``, as far as the seat's value depends on them."""
        if table.partnership:
            return list(result.points_after(card))
        makers_points, rest = result.points_after(card)  # the maker's, and the others' together
        points = [0] * table.sides
        points[table.side_of[maker]] = makers_points
        others = [s for s in range(table.sides) if s != table.side_of[maker]]
        if mine is not None:
            own, theirs = mine.points_after(card)  # this defender's, and everyone else's
            points[table.side_of[seat]] = own
            others.remove(table.side_of[seat])
            rest = theirs - makers_points
        if others:
            points[others[0]] += rest  # how the rest is split among the others does not change the seat's value
        return points

    # With two packs a card and its twin are worth the same: the card played is looked up by either copy.
    values = {card.printed: deal_value(rules, seat, maker, bid, by_side(card)) for card in result.card_values}
    played = values.get(action.card.printed)
    if played is None:
        return None
    top = max(values.values())
    best = tuple(str(c) for c, v in values.items() if v == top)
    return Par(played, top, best)


# ---- words -------------------------------------------------------------------------------------------------
def choice_words(action: Action, trump: Suit | TrumpTables | None = None) -> str:
    """An action in words, trumps starred: ``play K♠*``, ``bid 8``, ``pass``, ``hearts as trumps``, ``keep A♥ 5♦``.

    >>> choice_words(parse_action("play KS"), Suit.SPADES), choice_words(parse_action("trump H"))
    ('play K♠*', 'hearts as trumps')
    """
    if isinstance(action, Play):
        text = "play " + _card(action.card, trump)
        if action.bury:
            text += " burying " + " ".join(_card(c, trump) for c in action.bury)
        return text
    if isinstance(action, Bid):
        return f"bid {action.amount}"
    if isinstance(action, NameTrump):
        return f"{action.suit.name.lower()} as trumps"
    if isinstance(action, Keep):
        return "keep " + (" ".join(_card(c, trump) for c in action.cards) if action.cards else "nothing")
    return "pass"


def _card(card: Card, trump: Suit | TrumpTables | None) -> str:
    """The card with a ``*`` when it is a trump (``trump`` a suit, or the deal's tables, which know the bowers)."""
    tables = trump if isinstance(trump, TrumpTables) or trump is None else TRUMP_TABLES[trump]
    # (a twin of the second pack is a trump when its first-pack card is: one pack's tables answer for both)
    return card.symbol + ("*" if tables is not None and tables.is_trump(card.printed) else "")


def _points(x: float) -> str:
    return f"{x:.1f} point{'s' * (round(x, 1) != 1)}"


# ---- a deal, a game ---------------------------------------------------------------------------------------
@dataclass
class DealAnalysis:
    """The judgements of one deal's decisions (those with a choice), in the order played."""

    number: int
    dealer: Seat
    actions: int  # every action of the deal, forced ones included
    judgements: list[Judgement] = field(default_factory=list)
    headline: str = ""  # the deal in one line (DealSpec.headline)

    @property
    def marked(self) -> list[Judgement]:
        return [j for j in self.judgements if j.mark is not None]

    @property
    def seats(self) -> tuple[Seat, ...]:
        """Every seat at the table, in order: ``N E S W``, or ``1`` to ``n`` cut-throat (the dealer's kind)."""
        return tuple(type(self.dealer))

    def summaries(self, players: dict[Seat, str] | None = None) -> list[SeatSummary]:
        """Each seat's figures over this deal."""
        return [summarise(s, (players or {}).get(s, ""), self.judgements) for s in self.seats]

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "dealer": self.dealer.name, "headline": self.headline, "actions": self.actions,
                "decisions": len(self.judgements), "judgements": [j.to_json() for j in self.judgements]}


@dataclass(frozen=True)
class SeatSummary:
    """One seat's figures over a game: decisions judged, accuracy, average loss, marks."""

    seat: Seat
    name: str
    decisions: int
    accuracy: float | None
    average_loss: float | None
    marks: dict[Mark, int]

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat.name, "name": self.name, "decisions": self.decisions,
                "accuracy": None if self.accuracy is None else round(self.accuracy, 1),
                "average_loss": None if self.average_loss is None else round(self.average_loss, 3),
                "inaccuracies": self.marks[Mark.INACCURACY], "mistakes": self.marks[Mark.MISTAKE],
                "blunders": self.marks[Mark.BLUNDER]}


def summarise(seat: Seat, name: str, judgements: Sequence[Judgement]) -> SeatSummary:
    mine = [j for j in judgements if j.seat == seat and j.searched]
    marks = {m: sum(1 for j in mine if j.mark is m) for m in Mark}
    if not mine:
        return SeatSummary(seat, name, 0, None, None, marks)
    accuracy = sum(j.accuracy for j in mine) / len(mine)
    return SeatSummary(seat, name, len(mine), accuracy, sum(j.loss for j in mine) / len(mine), marks)


@dataclass
class Analysis:
    """A whole game analysed: each deal's judgements and each seat's summary."""

    rules: Rules
    players: dict[Seat, str]
    settings: Settings
    deals: list[DealAnalysis]
    seconds: float = 0.0  # wall time of the analysis

    @property
    def judgements(self) -> list[Judgement]:
        return [j for d in self.deals for j in d.judgements]

    def summaries(self) -> list[SeatSummary]:
        judged = self.judgements
        return [summarise(s, self.players.get(s, ""), judged) for s in self.rules.seating.seats]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "rules": self.rules.to_json(),
            "players": {s.name: self.players.get(s, "") for s in self.rules.seating.seats},
            "unit": "points",
            "settings": self.settings.to_json(),
            "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER, "noise_z": NOISE_Z,
                           "accuracy_scale": ACCURACY_SCALE},
            "seats": {s.seat.name: s.to_json() for s in self.summaries()},
            "deals": [d.to_json() for d in self.deals],
            "seconds": round(self.seconds, 2),
        }


Progress = Callable[[int, int], None]
"""``progress(decisions_done, decisions_total)``."""


def analyze_deal(spec: DealSpec, settings: Settings = Settings(), progress: Progress | None = None,
                 stop: Callable[[], bool] | None = None) -> DealAnalysis:
    """Judge every decision of one deal in this process (the terminal table's end-of-deal analysis).

    ``stop()`` true ends the work early (the judgements so far are returned).
    """
    steps = set(decision_steps(spec))
    out = DealAnalysis(spec.number, spec.dealer_seat, len(spec.actions), headline=spec.headline())
    for step, deal, action in spec.positions():
        if step not in steps:
            continue
        if stop is not None and stop():
            break
        out.judgements.append(_judge(spec, step, deal, action, settings))
        if progress is not None:
            progress(len(out.judgements), len(steps))
    return out


def analyze(match: Match, settings: Settings = Settings(), workers: int = 1, progress: Progress | None = None,
            executor: Executor | None = None, deals: Collection[int] | None = None) -> Analysis:
    """Judge every decision of a match, in ``workers`` processes (or ``executor``, a pool of the caller's).

    ``deals``: the numbers (from 1) of the deals to analyse, all by default.  The result is the
    same for any number of workers with a fixed number of worlds.
    """
    if workers < 1:
        raise AnalysisError(f"workers must be at least 1, not {workers}")
    count = len(match.deals)
    for number in deals or ():
        if not 1 <= number <= count:
            raise AnalysisError(f"there is no deal {number}: the game has deals 1 to {count}" if count else
                                f"there is no deal {number}: the game has no deals")
    started = time.perf_counter()
    specs = [spec for spec in deal_specs(match) if deals is None or spec.number in deals]
    jobs = [(spec, step) for spec in specs for step in decision_steps(spec)]
    results: dict[tuple[int, int], Judgement] = {}
    if executor is None and workers > 1 and len(jobs) > 1:
        with ProcessPoolExecutor(max_workers=min(workers, len(jobs))) as pool:
            _run(pool, jobs, settings, results, progress)
    elif executor is not None:
        _run(executor, jobs, settings, results, progress)
    else:
        for spec in specs:
            done = len(results)
            tell = None if progress is None else (lambda n, _, done=done: progress(done + n, len(jobs)))
            for j in analyze_deal(spec, settings, tell).judgements:
                results[spec.number, j.step] = j
    analysed = []
    for spec in specs:
        judged = sorted((j for (n, _), j in results.items() if n == spec.number), key=lambda j: j.step)
        analysed.append(DealAnalysis(spec.number, spec.dealer_seat, len(spec.actions), judged,
                                     spec.headline()))
    return Analysis(match.rules, dict(match.players), settings, analysed, time.perf_counter() - started)


def _run(pool: Executor, jobs: list[tuple[DealSpec, int]], settings: Settings,
         results: dict[tuple[int, int], Judgement], progress: Progress | None) -> None:
    # The slow decisions (the bidding and the discards, judged by playouts) first, so that no worker is
    # left with one at the end while the others wait.
    order = sorted(jobs, key=lambda job: _cost(job[0], job[1]), reverse=True)
    pending: dict[Future[Judgement], tuple[int, int]] = {
        pool.submit(judge, spec, step, settings): (spec.number, step) for spec, step in order}
    try:
        while pending:
            finished, _ = wait(pending, timeout=0.5)
            for future in finished:
                results[pending.pop(future)] = future.result()
            if finished and progress is not None:
                progress(len(results), len(jobs))
    except BaseException:
        for future in pending:
            future.cancel()
        raise


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def _cost(spec: DealSpec, step: int) -> int:
    """A rough order of a decision's cost: the actions before the first play are judged by playouts."""
    first_play = next((i for i, a in enumerate(spec.actions, start=1) if a.startswith("play")), len(spec.actions) + 1)
    return 1 if step < first_play else 0

