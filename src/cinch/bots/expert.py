"""The expert player: search over the cards it cannot see, judged by the preset's settlement.

Every decision starts from worlds: full deals consistent with the seat's view
(:mod:`cinch.worlds`: the cards seen, the voids shown, discards and draws counted, shown
trumps), weighted by what the bidding says about the hands dealt
(:class:`~cinch.bots.inference.BidLikelihood`: the others are assumed to bid roughly as the
heuristic bot would with the cards the world gives them; :func:`cinch.worlds.sample_weighted`
keeps the likely worlds and returns the unlikely ones less often with a weight, so few draws
are thrown away).  In the play each world is also weighted by how well it explains the cards
the others chose so far (:class:`~cinch.bots.inference.PlayLikelihood`); every average is
weighted by the product.

**The play** is perfect-information Monte Carlo: for each world, the exact double-dummy
solver (:mod:`cinch.solver`) gives every legal card's final points with best play; the
points are turned into the score change the preset's settlement gives (our side's change
less the other side's, for the contract being played), and the card with the best average
over the (weighted) worlds is played.  Exact ties go to the heuristic bot's card.  On trick 1 under
the buried-excess rule the solver also says which cards to bury with each card; the burial
most worlds chose is buried.

**The bidding, the trump, the discard and the rob** are judged by playouts with
imperfect-information play, not by the solver: the solver sees every hand, so a bot that
bids on its par overbids.  For each world, each candidate action is applied and the rest of
the deal is played by the heuristic bot in every seat (its bidding for the others' later
bids, passes included, its trump, discards and card play), and the result is judged.
The candidates share the worlds (common random numbers), so their differences are measured
much more precisely than their values.  The bidding compares few calls: the heuristic's,
the pass, the lowest bid and the levels around the hand's value; a world's playout is cached
per maker, since the heuristic's play does not depend on the bid.  Keep decisions search the
heuristic's keep and its neighbours (one card swapped, added or dropped).  The candidates
race (:class:`_Race`): every few worlds those clearly behind the leader drop out, and a
timed decision ends when one is left.  A candidate replaces the default (the heuristic's
call, trump or keep) only if its gain over it in the same worlds exceeds ``caution``
standard errors, widened for the number of candidates compared (Bonferroni) and, for a bid,
by half an error more: a difference the worlds cannot tell from noise is not acted on, so
the same hand gets the same call whatever the seed.

**What is maximised.**  With a match score in the view, every decision maximises the chance
to win the match (:mod:`cinch.bots.equity`: the deal settled exactly, going out, makers
count first, bidder goes out and the negative floor by the match's rule, then a race to the
target); estimates are then percentages.  Without a score (``match_equity=False``, or a
lone deal) it maximises the deal's points, ours less theirs.

**Every table size.**  Two players play the two-side game (match equity as at four).  At a
cut-throat table of three to six, where the maker plays alone against all the others, match
equity (a two-sided race) is not modelled and every decision is judged by the deal's points:
the seat's own score change less the average of the others' (each defender adds what he took;
the maker his points, or minus his bid when set).  For the maker that is his points against
everyone's; for a defender it is mostly his own points, since another defender's points count
against him as the maker's do, plus a share of the maker's loss when the maker is set (not the
defenders' common aim of holding the maker down: a Pedro fed to another defender is a gift to
a rival).  In the solver's tricks a defender's card is judged by two searches
(:mod:`cinch.solver`): the maker alone against the others together (his points, so whether he
is set) and the defender alone against everyone else (``solve(..., alone=seat)``: his own
points).  At five or six players the solver takes the last four tricks (a whole deal of thirty
or more cards is too long for it in a decision's time); the tricks before are judged by
heuristic playouts.

**Two decks** (two-deck Cinch, ``-o decks=2``: 104 cards, twelve tricks).  The worlds are
two-pack deals (:mod:`cinch.worlds`: a card's text may be held twice, every one of the 104
cards is dealt once, and a player seen playing the second pack's copy of a card did not hold
the first's).  Twelve tricks are far too many for the solver, so it takes only the last few,
about twenty cards (:data:`TWO_DECK_TRICKS`: five tricks at four players, eight at two, six
at three, four at five or six); there a twin is its first-pack card in strength and the first
played of two equal cards wins the trick (:mod:`cinch.solver`).  The tricks before, like the
bidding, the trump and the keeps, are judged by heuristic playouts, which cost about four times
a one-deck playout, among fewer cards (in each suit the highest, the lowest and the point
cards).  At the default budget an early trick sees about four worlds, too few to trust their
standard errors (in the arena such searches lost contracts): another card replaces the
heuristic's only after :data:`TWO_DECK_TRUST` worlds, which a budget of about two seconds a
decision, or ``playouts=8``, reaches.  A keep that swaps a card for its twin reads the same,
so it is not searched twice.

**Budget.**  ``time_budget`` seconds (0.25 s by default) is the budget of an ordinary
decision; a bid gets twice it, the trump and the first trick one and a half times, a keep
1.25 (:data:`PHASE_TIME`): the auction and the first trick decide most of a deal.  The next
world is started only if the average so far says it will end in time, with a 10% margin,
and a timed search of the play ends early once one card is clearly best or every card
scores the same (:class:`_EarlyStop`).  ``worlds=N`` instead fixes N worlds per play
decision and ``playouts`` (default ``4 N``, at least 16) the worlds of the other decisions,
which makes the bot exactly repeatable for its seed.  ``max_seconds`` (2.2 budgets by
default) is a hard cap in every mode.  A decision's worlds come from one generator seeded
by the bot's seed and the position, so asking again on the same cards searches the same
worlds, and a time budget only decides how many of them are used.

**Guided** (``guided=1``, or each part alone: ``locations=1``, ``likelihood=1``,
``rollout=policy``, ``bidding=policy``; :mod:`cinch.bots.guidance`): the learned models
(:mod:`cinch.neural.models`) draw the worlds from the card-location model, weight them by the
policy's likelihood of the actions seen, play the playouts, and add the policy's bids to
the calls compared.  Every part is off unless asked.

``explain(view)`` returns the action with its estimate (the expected score change for the
seat's side less the other side's), for the hint key of the table.  ``evaluate(view, actions)``
returns the search itself (:class:`Evaluation`): every candidate's result in each world, with
``actions`` searched among the candidates, for the analysis of a game (:mod:`cinch.study.analysis`).
"""

from __future__ import annotations

import hashlib
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from cinch.actions import PLAYS, TRUMPS, Action, Bid, Keep, NameTrump, Play
from cinch.bots.base import Bot, make_bot, register
from cinch.bots.equity import MatchEquity
from cinch.bots.guidance import Guided, PolicyPlayer, guidance, policy_bids
from cinch.bots.heuristic import best_suit
from cinch.bots.inference import BidLikelihood, PlayLikelihood
from cinch.bots.playout import bid_out, play_out
from cinch.cards import DECK_SIZE, CardSet, Team, TrumpTables, bit_list, fold
from cinch.deal import Deal, DealResult
from cinch.keep import KeepOptions
from cinch.rules import AboveSix
from cinch.scoring import PointTable, settle
from cinch.seating import PARTNERSHIP_PLAYERS
from cinch.solver import Position, solve
from cinch.view import Phase, SeatView
from cinch.worlds import Sample, sample_weighted

__all__ = ["ExpertBot", "Decision", "Evaluation", "call_caution", "pick_call"]


@dataclass(frozen=True)
class Decision:
    """An action with what the search thinks of it."""

    action: Action
    estimate: float | None  # expected (our side's score change - the other side's), None if not searched
    samples: int  # worlds searched
    detail: str  # the figures behind it: the estimate, the method, the worlds
    text: str = ""  # the choice in a player's words: how far ahead of the next best it keeps you
    unit: str = "points"  # of the estimate: "points" (this deal's, ours less theirs) or "%" (chance to win the match)
    scores: tuple[tuple[Action, float], ...] = ()  # every candidate searched with its estimate, in ``unit``


@dataclass(frozen=True)
class Evaluation:
    """A searched decision in full: the candidates, each one's result in every world, the worlds' weights.

    ``values[i][k]`` is candidate i's result (in ``decision.unit``) in world k.  A candidate
    dropped from a race early has results for the first worlds only; any two are compared on
    the worlds they share (:meth:`gain`).  No candidates: the decision was not searched (a
    single sensible choice, or the heuristic's fallback).
    """

    decision: Decision
    candidates: tuple[Action, ...] = ()
    values: tuple[tuple[float, ...], ...] = ()
    weights: tuple[float, ...] = ()

    def index(self, action: Action) -> int | None:
        """The candidate that is ``action``: the same action, or in the play the same card (whatever is buried)."""
        if action in self.candidates:
            return self.candidates.index(action)
        if isinstance(action, Play):
            for i, c in enumerate(self.candidates):
                if isinstance(c, Play) and c.card == action.card:
                    return i
        return None

    def means(self) -> list[float]:
        """Each candidate's mean result over the worlds it was searched in."""
        return [_means([list(v)], list(self.weights[: len(v)]))[0] if v else float("-inf") for v in self.values]

    def gain(self, i: int, j: int) -> tuple[float, float, int]:
        """Candidate i's mean gain over candidate j in the worlds both were searched in, its standard error
        and the number of those worlds."""
        n = min(len(self.values[i]), len(self.values[j]))
        if n == 0:
            return 0.0, 0.0, 0
        mean, error = _gain(list(self.values[i][:n]), list(self.values[j][:n]), list(self.weights[:n]))
        return mean, error, n


DEFAULT_TIME = 0.25  # seconds: the budget of an ordinary decision (the auction gets twice this)
CAUTION = 1.0  # standard errors a candidate must gain over the default (``caution``)
BID_CAUTION = 0.5  # standard errors a bid must gain beyond ``caution``
JUMP_CAUTION = 0.5  # and per level beyond the first between it and the heuristic's call
CAP = 2.2  # the hard cap of a decision, in time budgets
BIG_TABLE_TRICKS = 4  # at five or six players the solver takes this many tricks at most (measured: 0.2 s a world)
# With two decks (twelve tricks) the solver takes the last few tricks, by players at the table: about
# twenty cards, 5 to 20 ms a world for the median position (measured compiled; a sixth trick at four
# players is 10 ms median but up to ten times more); the tricks before are playouts.
TWO_DECK_TRICKS = {2: 8, 3: 6, 4: 5, 5: 4, 6: 4}
TWO_DECK_TRUST = 8  # worlds an early two-deck trick must see before another card replaces the heuristic's

# How much of ``time_budget`` each kind of decision gets: the auction and the first trick decide
# most of a deal, a late trick little (and its search ends early when one card is clearly best).
PHASE_TIME = {"bid": 2.0, "trump": 1.5, "keep": 1.25, "first trick": 1.5, "play": 1.0}


class _Budget:
    """How many worlds one decision may use: a fixed number, or as many as fit in the time."""

    def __init__(self, seconds: float, count: int | None, maximum: int, minimum: int = 1,
                 deadline: float | None = None):
        self.seconds = seconds
        self.count = count
        self.maximum = maximum
        self.minimum = minimum
        self.start = time.perf_counter()
        self.deadline = deadline  # (perf_counter) the hard cap of the whole decision, in every mode
        self.done = 0

    def more(self) -> bool:
        n = self.done
        if self.deadline is not None and n >= self.minimum and time.perf_counter() >= self.deadline:
            return False
        if self.count is not None:
            return n < self.count
        if n < self.minimum:
            return True
        if n >= self.maximum:
            return False
        elapsed = time.perf_counter() - self.start
        return elapsed + elapsed / n <= 0.9 * self.seconds  # the next world should end in time, with a margin

    def tick(self) -> None:
        self.done += 1


class _Objective:
    """What one decision maximises: the chance to win the match when the view has a score, else
    the deal's points (our side's score change less the other side's).

    Chances are in percent, so an estimate reads "62" for a 62% chance to win the match.
    """

    def __init__(self, view: SeatView, match_equity: bool):
        self.rules = view.rules
        self.team = view.seat.team
        table = view.rules.seating
        self.partnership = table.partnership
        self.lone = table.sides > 2  # cut-throat at three to six: the maker alone against several others
        self.others = table.players - 1
        self.equity: MatchEquity | None = None
        if match_equity and not self.lone and view.score is not None and view.target is not None:
            self.equity = MatchEquity(view.rules, view.score, self.team, target=view.target,
                                      bidder_goes_out=view.bidder_goes_out)
        self.unit = "points" if self.equity is None else "%"
        self._cache: dict[tuple[int, int, tuple[int, ...]], float] = {}

    def contract(self, makers: int, bid: int, points: tuple[int, ...]) -> float:
        """The value of a deal in which team ``makers`` bid ``bid`` and the sides took ``points`` (by side)."""
        if self.lone:
            return self.lone_value(makers, bid, points[makers], points[self.team], sum(points))
        key = (makers, bid, points)
        value = self._cache.get(key)
        if value is None:
            if self.equity is not None:
                value = 100.0 * self.equity.of(makers, bid, points)
            else:
                _, change = settle(self.rules, Team(makers), bid, points)
                value = float(change[self.team] - change[1 - self.team])
            self._cache[key] = value
        return value

    def split(self, makers: int, bid: int, makers_points: int, others_points: int) -> float:
        """:meth:`contract` from the solver's two sides at two players: the maker's points and
        the other's (:meth:`cinch.solver.SolveResult.points_after`)."""
        by_side = (makers_points, others_points) if makers == 0 else (others_points, makers_points)
        return self.contract(makers, bid, by_side)

    def lone_value(self, maker: int, bid: int, makers_points: int, own_points: int, total: int) -> float:
        """A cut-throat deal's value for this seat: his score change less the average of the others'.

        Each defender adds what he took; the maker adds his points, or loses his bid when short
        of it.  For a defender that is mostly his own points (another defender's points count
        against him, as the maker's do), plus a share of the bid and of the maker's points when
        the maker is set.  At six players, a maker who bid 5 and took 3 against a defender who
        took 4 of the 14 points: the maker -5, the defender 4, the four others 7 together, so the
        defender's value is 4 - (-5 + 7) / 5 = 3.6.
        """
        change = makers_points if makers_points >= bid else -bid
        k = self.others
        if self.team == maker:
            return change - (total - makers_points) / k
        return own_points * (1 + 1 / k) - total / k - (change - makers_points) / k

    def thrown_in(self) -> float:
        return 0.0 if self.equity is None else 100.0 * self.equity.now

    def result(self, result: DealResult) -> float:
        if result.thrown_in:
            return self.thrown_in()
        assert result.makers is not None and result.points is not None and result.bid is not None
        return self.contract(result.makers, result.bid, result.points)


def call_caution(calls: Sequence[Action], baseline: int, min_bid: int,
                 caution: float = CAUTION) -> tuple[float, list[float]]:
    """The expert's rule for calls: the standard errors a call must gain over ``calls[baseline]`` (the
    call kept unless beaten) in the same worlds to replace it, and each call's added margin.

    ``caution`` and :data:`BID_CAUTION` more (a call's playouts are the noisiest), widened for the
    number of calls compared (:class:`_Race`, :func:`pick_call`); and :data:`JUMP_CAUTION` per level
    beyond the first between a call and the baseline, so that a far call needs more.
    """
    level = _level(calls[baseline], min_bid)
    return caution + BID_CAUTION, [JUMP_CAUTION * max(0, abs(_level(c, min_bid) - level) - 1) for c in calls]


def pick_call(calls: Sequence[Action], values: list[list[float]], weights: list[float], baseline: int, min_bid: int,
              caution: float = CAUTION) -> int:
    """The call the expert's rule (:func:`call_caution`) picks among ``calls``, each with its result in the
    same worlds (``values[i][k]``, worlds weighted by ``weights``): ``baseline`` unless another gains over it by
    the margin; the index.  The bid advisor (:mod:`cinch.study.advise`) judges its calls by it, the pass kept."""
    caution, extra = call_caution(calls, baseline, min_bid, caution)
    return _pick(values, baseline, _margin(caution, len(calls)), weights, extra)[0]


def _margin(caution: float, count: int) -> float:
    """Standard errors a candidate must gain over the default when ``count`` candidates are compared.

    ``caution`` is the margin for one comparison; with more candidates the best of several
    noisy estimates looks better than it is, so the margin grows as Bonferroni's correction
    says (the chance that any of ``count - 1`` rivals passes by luck stays that of one).
    """
    if count <= 2:
        return caution
    normal = statistics.NormalDist()
    alpha = 1 - normal.cdf(caution)
    return normal.inv_cdf(1 - alpha / (count - 1))


class _Race:
    """Candidates compared on the same worlds; those clearly behind drop out as the worlds come.

    Successive elimination: every few worlds, a candidate whose gain on the leader is below
    zero by more than ``margin + 1`` standard errors is dropped (the extra error covers the
    repeated looks), so the worlds go to the candidates still in doubt; a timed decision ends
    when one is left.  ``eliminate`` off keeps every candidate (a fixed number of worlds).
    """

    LOOK_FROM = 12  # worlds before the first look
    LOOK_EVERY = 4

    def __init__(self, count: int, baseline: int, caution: float, eliminate: bool,
                 extra: Sequence[float] | None = None, trust: int = 0):
        self.values: list[list[float]] = [[] for _ in range(count)]
        self.extra = list(extra) if extra is not None else [0.0] * count  # each candidate's added margin
        self.weights: list[float] = []  # each world's importance weight (the sampler's)
        self.alive = list(range(count))
        self.baseline = baseline
        self.margin = _margin(caution, count)
        self.eliminate = eliminate
        self.worlds = 0
        self.trust = trust  # worlds below which the baseline is kept, whatever the others' errors say

    @property
    def settled(self) -> bool:
        return len(self.alive) == 1

    def add(self, results: dict[int, float], weight: float = 1.0) -> None:
        """One world's result for every candidate still in the race, and the world's weight."""
        for i in self.alive:
            self.values[i].append(results[i])
        self.weights.append(weight)
        self.worlds += 1
        n = self.worlds
        if not self.eliminate or n < self.LOOK_FROM or (n - self.LOOK_FROM) % self.LOOK_EVERY:
            return
        values, weights = self.values, self.weights
        means = _means([values[i] for i in self.alive], weights)
        leader = self.alive[max(range(len(means)), key=means.__getitem__)]
        out = self.margin + 1
        kept = []
        for i in self.alive:
            if i != leader:
                mean, error = _gain(values[i], values[leader], weights)
                if mean + out * error < 0:
                    continue
            kept.append(i)
        self.alive = kept

    def pick(self) -> tuple[int, list[float]]:
        """The chosen candidate (the baseline unless beaten by the margin) and every candidate's mean."""
        weights = self.weights
        means = _means(self.values, weights)
        if self.worlds < self.trust:
            return self.baseline, means
        if self.baseline in self.alive:
            alive = self.alive
            best, _ = _pick([self.values[i] for i in alive], alive.index(self.baseline), self.margin, weights,
                            [self.extra[i] for i in alive])
            return alive[best], means
        return max(self.alive, key=lambda i: means[i]), means


@register("expert")
class ExpertBot(Bot):
    """Searches worlds consistent with its view: the solver in the play, heuristic playouts elsewhere.

    ``time_budget``: seconds per decision (default 1); ``worlds``: a fixed number of worlds per
    play decision instead (deterministic); ``playouts``: worlds per bidding, trump, discard or
    rob decision with ``worlds`` (default ``max(16, 4 * worlds)``); ``inference``: the
    sharpness of the bid inference (0 turns it off); ``play_inference``: the weight of a world
    per card another player chose that the heuristic would not have (1 turns it off);
    ``play_latest``: that inference reads only the latest so many of those choices (0, the default:
    all of them; fewer cost less, as the neural bot's last tricks need);
    ``caution``: standard errors a candidate must gain over the default; ``solver_tricks``: the
    most tricks left for the solver (longer hands, without the draw, use playouts);
    ``max_candidates``: keeps searched; ``max_worlds``: the most worlds a timed decision uses;
    ``max_seconds``: the hard cap of one decision in every mode (default twice ``time_budget``); ``search``: the
    decisions searched, of ``bid,trump,keep,play`` (the others are the heuristic's; for
    experiments).  The learned guidance (:mod:`cinch.bots.guidance`): ``guided`` (1: the parts meant
    to help, :data:`cinch.bots.guidance.GUIDED`), ``locations`` and ``likelihood`` (1 or 0), ``rollout`` and ``bidding``
    (``policy`` or ``heuristic``), ``weights`` (a folder of other weights than the package's).
    """

    def __init__(self, seed: int | None = None, time_budget: float | None = DEFAULT_TIME, worlds: int | None = None,
                 playouts: int | None = None, inference: float = 1.0, max_candidates: int = 16,
                 max_worlds: int = 400, search: str = "bid,trump,keep,play", caution: float = CAUTION,
                 play_inference: float = 0.3, solver_tricks: int = 6, max_seconds: float | None = None,
                 match_equity: bool = True, guided: bool | int = False, locations: bool | int | None = None,
                 likelihood: bool | int | None = None, rollout: str | None = None, bidding: str | None = None,
                 weights: str = "", play_latest: int = 0):
        super().__init__(seed)
        if max_seconds is not None and max_seconds <= 0:
            raise ValueError("max_seconds must be positive")
        if time_budget is not None and time_budget <= 0:
            raise ValueError("time_budget must be positive")
        if worlds is not None and worlds < 1:
            raise ValueError("worlds must be at least 1")
        if playouts is not None and playouts < 1:
            raise ValueError("playouts must be at least 1")
        if play_latest < 0:
            raise ValueError("play_latest must be 0 (every choice) or more (the latest so many)")
        self.time_budget = DEFAULT_TIME if time_budget is None else time_budget
        # The hard cap of one decision in every mode (a fixed number of worlds too): it stops searching
        # once this is spent, with what it has (at least the minimum of worlds).
        self.max_seconds = max_seconds if max_seconds is not None else CAP * self.time_budget
        self.match_equity = match_equity
        self._base = self.rng.getrandbits(64)
        self._deadline: float | None = None
        self.worlds = worlds
        self.playouts = playouts if playouts is not None else (max(16, 4 * worlds) if worlds else None)
        self.inference = inference
        self.max_candidates = max_candidates
        self.max_worlds = max_worlds
        self.caution = caution
        self.solver_tricks = solver_tricks
        self.search = frozenset(x.strip() for x in search.split(",") if x.strip())
        unknown = self.search - {"bid", "trump", "keep", "play"}
        if unknown:
            raise ValueError(f"search takes bid, trump, keep, play; not {', '.join(sorted(unknown))}")
        self._heuristic = make_bot("heuristic", seed=0)
        self.last_error: Exception | None = None  # why the last fallback to the heuristic happened
        self._weight = BidLikelihood(inference, model=self._heuristic) if inference > 0 else None
        self._play_weight = (PlayLikelihood(play_inference, model=self._heuristic, latest=play_latest)
                             if play_inference < 1 else None)
        self._include: tuple[Action, ...] = ()  # actions to search among the candidates (evaluate)
        self._evaluating = False  # keep the search in full (evaluate)
        self._searched: Evaluation | None = None  # the last search in full (evaluate)
        self._guidance = guidance(guided, locations, likelihood, rollout, bidding, weights)
        g = self._guidance
        self._policy_player = PolicyPlayer(g.models) if g is not None and g.rollout else None
        self._now: Guided | None = None  # this decision's guidance (None: unguided, or outside the models' cover)

    # ---- the interface -------------------------------------------------------------------------
    def choose(self, view: SeatView) -> Action:
        return self.decide(view).action

    def explain(self, view: SeatView) -> Decision:
        """The decision with the reason in a player's words (``text``) and the figures (``detail``), for hints."""
        return self.decide(view)

    def evaluate(self, view: SeatView, actions: Sequence[Action] = ()) -> Evaluation:
        """The decision and its search in full, with the legal ``actions`` searched among the candidates.

        The search is :meth:`decide`'s (the same worlds for the same seed and position), with
        ``actions`` added to the candidates a bid or a keep would compare; the play and the trump
        search every legal choice anyway.  An unsearched decision has no candidates.
        """
        self._include = tuple(a for a in actions if a in view.legal)
        self._evaluating = True
        self._searched = None
        try:
            decision = self.decide(view)
            searched = self._searched
        finally:
            self._include = ()
            self._evaluating = False
            self._searched = None
        if searched is None:
            return Evaluation(decision)
        return Evaluation(decision, searched.candidates, searched.values, searched.weights)

    def _included(self, candidates: Sequence[Action]) -> list[Action]:
        """``candidates`` and, after them, the actions :meth:`evaluate` was asked to search."""
        return list(candidates) + [a for a in self._include if a not in candidates]

    def decide(self, view: SeatView) -> Decision:
        legal = view.legal
        if len(legal) == 1:
            return Decision(legal[0], None, 0, "the only legal action", "the only legal choice")
        rng = random.Random(self._worlds_seed(view))  # this decision's worlds, whatever the budget
        self._deadline = time.perf_counter() + self.max_seconds
        phase = view.phase
        try:
            self._now = self._guidance.at(view) if self._guidance is not None else None
            search = self.search
            if phase is Phase.PLAY:
                if "play" in search:
                    return self._play(view, rng)
            elif phase is Phase.BIDDING:
                if "bid" in search:
                    return self._bid(view, rng)
            elif phase is Phase.TRUMP:
                if "trump" in search:
                    return self._trump(view, rng)
            elif isinstance(legal, KeepOptions) and "keep" in search:
                return self._keep(view, legal, rng)
        except Exception as e:  # no world could be built (should not happen): fall back on the heuristic
            self.last_error = e
        return Decision(self._heuristic.choose(view), None, 0, "the heuristic's choice, without a search")

    def _worlds_seed(self, view: SeatView) -> int:
        """The seed of a decision's worlds: the bot's seed and the position, so asking again
        (a second hint on the same cards) searches the same worlds and gives the same answer."""
        key = repr((self._base, view.seat, view.dealer, view.phase, int(view.hand), view.auction, view.trump,
                    int(view.own_discards), view.face_up_discards, view.shown_trumps, view.drawn_counts,
                    int(view.own_drawn), int(view.stock_seen), view.tricks, view.current_trick, view.score,
                    view.target, view.deal_number, view.bidder_goes_out))
        return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big")

    # ---- budgets ---------------------------------------------------------------------------------
    def _play_budget(self, phase: str) -> _Budget:
        return _Budget(self.time_budget * PHASE_TIME[phase], self.worlds, self.max_worlds, deadline=self._deadline)

    def _sim_budget(self, phase: str) -> _Budget:
        return _Budget(self.time_budget * PHASE_TIME[phase], self.playouts, self.max_worlds, minimum=4,
                       deadline=self._deadline)

    # ---- helpers -----------------------------------------------------------------------------------
    @staticmethod
    def _context(view: SeatView) -> dict:
        if view.score is None:
            return {}
        return {"score": view.score, "target": view.target, "bidder_goes_out": view.bidder_goes_out}

    def _finish(self, deal: Deal, rng: random.Random, context: dict) -> DealResult:
        """Play ``deal`` to its end with the heuristic bot (or the policy: ``rollout``) in every seat (``deal`` is
        changed)."""
        return play_out(deal, rng, self._player(), context)

    def _player(self) -> Bot:
        """Who plays the playouts: the policy with ``rollout=policy`` where the models cover the rules, else the
        heuristic."""
        return self._policy_player if self._policy_player is not None and self._now is not None else self._heuristic

    def _sample(self, view: SeatView, rng: random.Random, verify: bool = True) -> tuple[Sample, float]:
        """A world consistent with the view and its weight: the bids' likelihood (the sampler's importance
        weight), or with ``locations`` / ``likelihood`` the model's worlds and the policy's likelihood."""
        now = self._now
        if now is None:
            sample = sample_weighted(view, rng, weight=self._weight, verify=verify)
            return sample, sample.weight
        weight = None if now.guidance.replaces_inference else self._weight
        sample = sample_weighted(view, rng, weight=weight, verify=verify, locations=now.locations)
        return sample, sample.weight * now.weight(view, sample.world)

    def _play_inference(self) -> PlayLikelihood | None:
        """The hand-made inference from the cards played (off where the learned guidance replaces it)."""
        now = self._now
        return self._play_weight if now is None or not now.guidance.replaces_inference else None

    def _decision(self, view: SeatView, candidates: Sequence[Action], means: Sequence[float], best: int,
                  samples: int, what: str, objective: _Objective, values: Sequence[Sequence[float]] = (),
                  weights: Sequence[float] = ()) -> Decision:
        """The chosen candidate, with its figures and a player's words for them (``values`` and
        ``weights``, each candidate's result per world, are kept for :meth:`evaluate`)."""
        team = view.seat.team
        estimate = means[best]
        if objective.unit == "%":
            score = view.score or (0, 0)
            detail = (f"{estimate:.0f}% chance for {team} to win the match from {score[0]}-{score[1]} "
                      f"({what}, {samples} worlds)")
        else:
            against = "the others" if objective.lone else str(team.other)
            detail = (f"{estimate:+.1f} points for {team} against {against} on average this deal "
                      f"({what}, {samples} worlds)")
        action = candidates[best]
        others = [(m, a) for i, (m, a) in enumerate(zip(means, candidates)) if i != best]
        decision = Decision(action, estimate, samples, detail, _words(view, action, estimate, others, objective.unit),
                            objective.unit, tuple(zip(candidates, means)))
        if values and self._evaluating:
            self._searched = Evaluation(decision, tuple(candidates), tuple(tuple(v) for v in values), tuple(weights))
        return decision

    def _world(self, view: SeatView, rng: random.Random) -> tuple[Deal, float]:
        """A world consistent with the view, replayed, and its importance weight (the bids' likelihood)."""
        sample, weight = self._sample(view, rng)
        assert sample.deal is not None  # verified worlds are replayed
        return sample.deal, weight

    def _timed(self) -> bool:
        """Whether a decision may end early (a fixed number of worlds is kept exactly)."""
        return self.worlds is None and self.playouts is None

    # ---- bidding ---------------------------------------------------------------------------------------
    def _bid(self, view: SeatView, rng: random.Random) -> Decision:
        heuristic = self._heuristic.choose(view)
        candidates = self._included(self._bid_candidates(view, heuristic))
        if self._now is not None and self._now.guidance.bidding:  # the policy's best bids join the calls compared
            candidates += [a for a in policy_bids(self._now.guidance.models, view) if a not in candidates]
        objective = _Objective(view, self.match_equity)
        if len(candidates) == 1:
            return self._decision(view, candidates, [0.0], 0, 0, "the only sensible call", objective)
        context = self._context(view)
        choose = self._player().choose
        # The heuristic's call unless beaten, by a wider margin than other decisions: a whole deal's
        # outcome rides on the bid, so its playouts are the noisiest, and a call should not flip with the seed.
        # A call far from the heuristic's needs more: its gains are the most heavy-tailed (a pre-empt that
        # works in a few worlds), so a sample's standard error flatters it.
        caution, extra = call_caution(candidates, 0, view.rules.min_bid, self.caution)
        race = _Race(len(candidates), 0, caution, self._timed(), extra)
        budget = self._sim_budget("bid")
        while budget.more() and not race.settled:
            world, weight = self._world(view, rng)
            seed = rng.getrandbits(32)
            points: dict[int, tuple[int, ...]] = {}  # maker -> the points of the heuristic's playout
            results: dict[int, float] = {}
            for i in race.alive:
                d = world.copy()
                d.apply(candidates[i])
                bid_out(d, choose, context)  # the others bid as the heuristic does, passing included
                if d.phase is Phase.DONE:  # thrown in
                    results[i] = objective.thrown_in()
                    continue
                maker = d.maker
                assert maker is not None
                pts = points.get(maker)
                if pts is None:
                    result = self._finish(d.copy(), random.Random(seed), context)
                    assert result.points is not None
                    pts = points[maker] = result.points
                results[i] = objective.contract(maker.team, d.high_bid, pts)
            race.add(results, weight)
            budget.tick()
        best, means = race.pick()
        return self._decision(view, candidates, means, best, race.worlds, "bidding playouts", objective,
                              race.values, race.weights)

    @staticmethod
    def _bid_candidates(view: SeatView, heuristic: Action) -> list[Action]:
        """The heuristic's call first, then the pass, the lowest bid and the levels around the hand's value.

        Few candidates: each extra one is another chance for noise to look like a gain.
        """
        legal = list(view.legal)
        out = [heuristic]
        bids = {a.amount: a for a in legal if isinstance(a, Bid)}
        others: list[Action] = [a for a in legal if not isinstance(a, Bid)]  # the pass (none for a stuck dealer)
        if bids:
            _, value = best_suit(int(view.hand), view.rules, (view.seat - view.dealer) % view.players_count)
            level = round(value)
            others.append(bids[min(bids)])
            others.extend(bids[k] for k in (level - 1, level, level + 1) if k in bids)
        for a in others:
            if a not in out:
                out.append(a)
        return out

    # ---- trumps ------------------------------------------------------------------------------------
    def _trump(self, view: SeatView, rng: random.Random) -> Decision:
        preferred = self._heuristic.choose(view)
        assert isinstance(preferred, NameTrump)
        candidates = [preferred] + [a for a in TRUMPS if a != preferred]
        return self._race(view, candidates, rng, "trump", "trump playouts")

    def _race(self, view: SeatView, candidates: Sequence[Action], rng: random.Random, phase: str,
              what: str) -> Decision:
        """Candidates (the default first) applied in the same worlds, the rest played out by the heuristic.

        In the play each world is also weighted by the cards the others chose so far, and every
        candidate plays every world (no elimination: the cards of a long hand are close).
        """
        objective = _Objective(view, self.match_equity)
        context = self._context(view)
        in_play = phase == "play"
        # Two decks: an early trick's few worlds (four in a quarter second) give standard errors too
        # rough to leave the heuristic's card on (measured in the arena: it lost contracts).
        trust = TWO_DECK_TRUST if in_play and view.rules.decks == 2 else 0
        race = _Race(len(candidates), 0, self.caution, self._timed() and not in_play, trust=trust)
        budget = self._sim_budget(phase)
        while budget.more() and not race.settled:
            world, weight = self._world(view, rng)
            play_weight = self._play_inference()
            if in_play and play_weight is not None:
                weight *= play_weight(view, world.hands)
            seed = rng.getrandbits(32)
            results = {}
            for i in race.alive:
                d = world.copy()
                d.apply(candidates[i])
                results[i] = objective.result(self._finish(d, random.Random(seed), context))
            race.add(results, weight)
            budget.tick()
        best, means = race.pick()
        return self._decision(view, candidates, means, best, race.worlds, what, objective, race.values, race.weights)

    # ---- discard and rob -------------------------------------------------------------------------------
    def _keep(self, view: SeatView, options: KeepOptions, rng: random.Random) -> Decision:
        forced = options.forced
        if forced is not None:
            return Decision(forced, None, 0, "the only legal keep", "the only legal hand")
        candidates = self._included(self._keep_candidates(view, options))
        if len(candidates) == 1:
            return Decision(candidates[0], None, 0, "the heuristic's choice, without a search")
        what = "rob playouts" if view.phase is Phase.ROB else "discard playouts"
        return self._race(view, candidates, rng, "keep", what)  # the heuristic's keep unless beaten

    def _keep_candidates(self, view: SeatView, options: KeepOptions) -> list[Keep]:
        """The heuristic's keep first, then its neighbours: one card swapped, added or dropped."""
        assert view.trump is not None
        t = view.rules.trump_tables[view.trump]
        values = PointTable.of(view.rules, view.trump).value

        def worth(c: int) -> float:
            if t.power[c]:
                return 100 + 10 * values[c] + t.power[c]
            rank = c % 13
            return 13 - rank + (6 if rank == 0 else 0)

        first = self._heuristic.choose(view)
        assert isinstance(first, Keep)
        base = int(first.cards)
        out = [first]
        seen = {_as_read(base)}

        def add(mask: int) -> None:
            read = _as_read(mask)  # two decks: a card swapped for its twin is the same keep
            if read not in seen and options.violation(mask) is None:
                seen.add(read)
                out.append(Keep(CardSet(mask)))

        droppable = sorted(bit_list(base & ~options.must), key=worth)[:5]
        takeable = sorted(bit_list(options.pool & ~base), key=worth, reverse=True)[:6]
        size = base.bit_count()
        pairs = [(worth(y) - worth(x), x, y) for x in droppable for y in takeable]
        pairs.sort(key=lambda p: -p[0])
        for _, x, y in pairs:
            add(base & ~(1 << x) | 1 << y)
        if size < options.hi:
            for y in takeable:
                add(base | 1 << y)
        if size > options.lo:
            for x in droppable:
                add(base & ~(1 << x))
        if len(out) > self.max_candidates:
            # Keep the closest in worth to the heuristic's keep (a swap of near-equal cards first).
            head, rest = out[:1], out[1:]
            base_worth = sum(worth(c) for c in bit_list(base))
            rest.sort(key=lambda k: abs(sum(worth(c) for c in bit_list(int(k.cards))) - base_worth))
            out = head + rest[: self.max_candidates - 1]
        return out

    # ---- the play ------------------------------------------------------------------------------------
    def _play(self, view: SeatView, rng: random.Random) -> Decision:
        legal = cast("Sequence[Play]", view.legal)  # the play phase offers plays only
        assert view.maker is not None and view.bid is not None
        rules = view.rules
        makers = view.maker.team
        bid = view.bid
        table = rules.seating
        # Five or six hands of six are too many cards for the solver in a decision's time: the last four tricks only.
        limit = self.solver_tricks
        if table.decks == 2:
            limit = min(limit, TWO_DECK_TRICKS[table.players])
        elif table.players > PARTNERSHIP_PLAYERS:
            limit = min(limit, BIG_TABLE_TRICKS)
        if rules.tricks - len(view.tricks) > limit:
            return self._play_by_playouts(view, rng)
        objective = _Objective(view, self.match_equity)
        seat = int(view.seat)
        cards = sorted({int(a.card) for a in legal})
        burying = any(a.bury for a in legal)
        verify = (rules.above_six is AboveSix.BURIED and not view.tricks
                  and any(n > rules.tricks for n in view.hand_sizes))
        lone_defender = objective.lone and seat != int(view.maker)
        heuristic = self._heuristic.choose(view)
        values: dict[int, list[float]] = {c: [] for c in cards}
        weights: list[float] = []
        diffs = dict.fromkeys(cards, 0.0)
        votes: dict[int, dict[int, float]] = {c: {} for c in cards}
        budget = self._play_budget("first trick" if not view.tricks else "play")
        early = _EarlyStop(len(cards), self.caution) if self._timed() else None
        while budget.more():
            sample, weight = self._sample(view, rng, verify)
            hands = sample.hands
            budget.tick()
            try:
                position = Position.from_view(view, hands)
                result = solve(position)
                # A cut-throat defender's own points: a second search, him alone against everyone else.
                mine = solve(position, alone=seat) if lone_defender else None
            except (ValueError, KeyError, IndexError, AssertionError):  # a world the solver refuses
                continue
            play_weight = self._play_inference()
            w = weight * (play_weight(view, hands) if play_weight is not None else 1.0)
            weights.append(w)
            own_search = result if mine is None else mine  # the tie-break: the search for this seat's side
            sign = w if own_search.maximisers >> seat & 1 else -w  # its value is NS's (the lone seat's cut-throat)
            for card, value in own_search.card_values.items():
                c = int(card)
                if table.partnership:
                    values[c].append(objective.contract(makers, bid, result.points_after(card)))
                elif mine is not None:
                    makers_points, _ = result.points_after(card)
                    own, rest = mine.points_after(card)
                    values[c].append(objective.lone_value(makers, bid, makers_points, own, own + rest))
                elif objective.lone:
                    makers_points, rest = result.points_after(card)
                    values[c].append(objective.lone_value(makers, bid, makers_points, makers_points,
                                                          makers_points + rest))
                else:
                    values[c].append(objective.split(makers, bid, *result.points_after(card)))
                diffs[c] += sign * value
                if burying:
                    b = int(result.buries.get(card, CardSet(0)))
                    votes[c][b] = votes[c].get(b, 0) + w
            if early is not None and early.done([values[c] for c in cards], weights):
                break
        n = len(weights)
        if n == 0:
            return Decision(heuristic, None, 0, "the heuristic's choice, without a search")
        assert isinstance(heuristic, Play)
        preferred = int(heuristic.card)
        means = _means([values[c] for c in cards], weights)
        mean_of = dict(zip(cards, means))
        best = max(cards, key=lambda c: (mean_of[c], diffs[c], c == preferred))
        action = self._with_burial(legal, best, votes[best], heuristic)
        candidates = [action if c == best else PLAYS[c] for c in cards]
        return self._decision(view, candidates, means, cards.index(best), n, "double-dummy worlds", objective,
                              [values[c] for c in cards], weights)

    def _play_by_playouts(self, view: SeatView, rng: random.Random) -> Decision:
        """Long hands (nine tricks without the draw, the early tricks of two decks): each card
        judged by heuristic playouts.

        The solver's time grows steeply with the tricks left; above ``solver_tricks`` it
        could take seconds on one world, so the cards are judged like the other decisions.
        With two decks a hand of twelve offers many cards alike (the small cards of a suit),
        and a world's playouts cost four times a one-deck world's: the cards raced are the
        heuristic's and those of :func:`_distinct_plays`.
        """
        heuristic = self._heuristic.choose(view)
        legal = _distinct_plays(view) if view.rules.decks == 2 else list(view.legal)
        candidates = [heuristic] + [a for a in legal if a != heuristic]
        return self._race(view, candidates, rng, "play", "playouts")

    @staticmethod
    def _with_burial(legal: Sequence[Play], card: int, votes: dict[int, float], heuristic: Action) -> Action:
        options = [a for a in legal if int(a.card) == card]
        if len(options) == 1:
            return options[0]
        if not any(a.bury for a in options):
            return PLAYS[card]
        by_bury = {int(a.bury): a for a in options}
        ranked = sorted(votes.items(), key=lambda kv: -kv[1])
        for bury, _ in ranked:
            if bury in by_bury:
                return by_bury[bury]
        if isinstance(heuristic, Play) and int(heuristic.card) == card:
            return heuristic
        return options[0]


def _distinct_plays(view: SeatView) -> list[Action]:
    """The plays worth comparing in a long hand: in each suit (trumps as one) the highest and the
    lowest card and every card worth points by itself; the cards between, without points, seldom
    play differently.  With cards to bury (trick 1 of the buried excess) every play is kept.

    A play of cards in the order ``legal`` lists them.
    """
    legal = list(view.legal)
    assert view.trump is not None
    if any(isinstance(a, Play) and a.bury for a in legal):
        return legal
    t = view.rules.trump_tables[view.trump]
    values = PointTable.of(view.rules, view.trump).value
    by_suit: dict[int, list[int]] = {}
    for a in legal:
        assert isinstance(a, Play)
        by_suit.setdefault(t.effective_suit[a.card], []).append(int(a.card))
    keep: set[int] = set()
    for cards in by_suit.values():
        strength = t.strength[t.effective_suit[cards[0]]]
        keep.add(max(cards, key=lambda c: strength[c]))
        keep.add(min(cards, key=lambda c: strength[c]))
        keep.update(c for c in cards if values[c])
    return [a for a in legal if isinstance(a, Play) and int(a.card) in keep]


def _as_read(cards: int) -> tuple[int, int]:
    """A set of cards as its text reads (two decks: which copy of a card is not said): the cards
    named, and those named twice.  One pack: the cards themselves.

    >>> _as_read(int(CardSet.parse("AH"))) == _as_read(int(CardSet.parse("AH")) << DECK_SIZE)
    True
    """
    return fold(cards), cards & cards >> DECK_SIZE


def _means(values: list[list[float]], weights: list[float] | None = None) -> list[float]:
    """Each candidate's mean result over the worlds (weighted by ``weights``)."""
    out = []
    for vals in values:
        w = weights if weights is not None else [1.0] * len(vals)
        total = sum(w)
        out.append(sum(x * v for x, v in zip(w, vals)) / total if total > 0 else 0.0)
    return out


def _words(view: SeatView, action: Action, estimate: float, others: list[tuple[float, Action]],
           unit: str = "points") -> str:
    """A hint as a player says it: ``playing the K♠* keeps you about 2 points ahead of the other cards``.

    With ``unit`` "%" the figures are chances to win the match, in percent.
    """
    trump = None if view.trump is None else view.rules.trump_tables[view.trump]
    doing = _doing(action, trump)
    if not others:
        return f"{doing}: the only sensible choice"
    margin, runner_up = max(others, key=lambda o: o[0])
    gap = estimate - margin
    if gap < -0.5:  # the search kept the safer choice: say what it gives up
        more = f"score about {_points(-gap)} more" if unit == "points" else f"win the match {_percent(-gap)} more often"
        lead = f"{doing} is the safe choice; {_doing(runner_up, trump)} may {more}"
    elif gap < 0.5:
        lead = f"{doing} is about as good as {_doing(runner_up, trump)}"
    else:
        rest = "the other choices" if len(others) > 1 else _doing(runner_up, trump)
        lead = (f"{doing} keeps you about {_points(gap)} ahead of {rest}" if unit == "points"
                else f"{doing} wins the match about {_percent(gap)} more often than {rest}")
    if unit == "%":
        outlook = f"your side's chance to win the match is about {round(min(100.0, max(0.0, estimate)))}%"
    elif abs(estimate) < 0.5:
        outlook = "the deal looks even"
    elif estimate > 0:
        outlook = f"your side should come out about {_points(estimate)} ahead this deal"
    else:
        outlook = f"your side should lose about {_points(-estimate)} on this deal"
    return f"{lead}; {outlook}"


def _doing(action: Action, trump: TrumpTables | None) -> str:
    if isinstance(action, Play):
        return "playing the " + action.card.symbol + ("*" if trump is not None and trump.is_trump(action.card) else "")
    if isinstance(action, Bid):
        return f"bidding {action.amount}"
    if isinstance(action, NameTrump):
        return f"{action.suit.name.lower()} as trumps"
    if isinstance(action, Keep):
        return "keeping " + " ".join(c.symbol for c in action.cards)
    return "passing"


def _points(x: float) -> str:
    n = max(1, round(x))
    return f"{n} point{'s' * (n != 1)}"


def _level(call: Action, min_bid: int) -> int:
    """A call's level in the auction: a bid its amount, the pass the level below the lowest bid."""
    return call.amount if isinstance(call, Bid) else min_bid - 1


def _gain(values: list[float], base: list[float], weights: list[float] | None = None) -> tuple[float, float]:
    """The mean gain of ``values`` over ``base`` in the same worlds, and its standard error."""
    n = len(base)
    w = weights if weights is not None else [1.0] * n
    total = sum(w)
    if total <= 0:
        w, total = [1.0] * n, float(n)
    gains = [a - b for a, b in zip(values, base)]
    mean = sum(x * g for x, g in zip(w, gains)) / total
    if n < 2:
        return mean, 0.0
    spread = sum((x * (g - mean)) ** 2 for x, g in zip(w, gains)) ** 0.5 / total
    return mean, spread * (n / (n - 1)) ** 0.5


class _EarlyStop:
    """Ends a timed search of the play once one card is clearly best, or every card scores the same.

    An obvious card (a Pedro fed to a partner who holds the trick, a forced follow) should not
    take the time of a close one.  A look every few worlds; the margin covers the number of
    cards compared and the repeated looks.
    """

    FROM = 8
    EVERY = 4

    def __init__(self, count: int, caution: float):
        self.margin = _margin(caution, count) + 1

    def done(self, values: list[list[float]], weights: list[float]) -> bool:
        n = len(weights)
        if n < self.FROM or (n - self.FROM) % self.EVERY:
            return False
        if all(v == values[0] for v in values):
            return True  # every card scores the same in every world so far
        means = _means(values, weights)
        leader = max(range(len(values)), key=lambda i: means[i])
        for i, v in enumerate(values):
            if i != leader:
                mean, error = _gain(values[leader], v, weights)
                if mean - self.margin * error <= 0:
                    return False
        return True


def _percent(x: float) -> str:
    return f"{max(1, round(x))}%"


def _pick(values: list[list[float]], baseline: int, caution: float,
          weights: list[float] | None = None, extra: Sequence[float] | None = None) -> tuple[int, float]:
    """The candidate with the best mean, each judged against ``baseline`` with ``caution`` standard errors.

    ``values[i]`` holds candidate i's result in each world (the same worlds for all), and
    ``weights`` the worlds' importance weights (equal by default).  A candidate's score is
    its mean gain over the baseline less ``caution`` times the standard error of that gain,
    so a difference the worlds cannot tell from noise keeps the baseline (the pass, the
    heuristic's trump or keep); ``extra`` adds to the margin of each candidate.  Returns the
    index and its mean result.
    """
    base = values[baseline]
    if not base:
        return baseline, 0.0
    best, best_score = baseline, 0.0
    for i, vals in enumerate(values):
        if i == baseline:
            continue
        mean, error = _gain(vals, base, weights)
        score = mean - (caution + (extra[i] if extra is not None else 0.0)) * error
        if score > best_score:
            best, best_score = i, score
    return best, _means([values[best]], weights)[0]
