"""The expert player: search over the cards it cannot see, judged by the preset's settlement.

Every decision starts from worlds: full deals consistent with the seat's view
(:mod:`cinch.worlds`: the cards seen, the voids shown, discards and draws counted, shown
trumps), drawn in proportion to what the bidding says about the hands dealt
(:class:`~cinch.bots.inference.BidLikelihood`: the others are assumed to bid roughly as the
heuristic bot would with the cards the world gives them).  In the play each world is also
weighted by how well it explains the cards the others chose so far
(:class:`~cinch.bots.inference.PlayLikelihood`, importance weights).

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
the deal is played by the heuristic bot in all four seats (its bidding for the others' later
bids, its trump, discards and card play), and the settlement of the result is averaged.
The candidates share the worlds (common random numbers), so their differences are measured
much more precisely than their values.  In the bidding, the rest of the auction is
simulated for each candidate (a pass lets the others bid; a bid may be overcalled), and a
world's playout is cached per maker, since the heuristic's play does not depend on the bid.
Keep decisions search the heuristic's keep and its neighbours (one card swapped, added or
dropped).  A candidate replaces the default (the pass, the heuristic's trump or keep) only
if its gain over it in the same worlds exceeds ``caution`` standard errors of that gain: a
difference the worlds cannot tell from noise is not acted on.

**Budget.**  ``time_budget`` seconds per decision (1 s by default) is spent on as many worlds
as fit (the next world is started only if the average so far says it will end in time);
with a 10% margin; ``worlds=N`` instead fixes N worlds per play decision and ``playouts`` (default ``4 N``,
at least 16) the worlds of the other decisions, which makes the bot exactly repeatable for
its seed.  In both modes the worlds of one decision come from one generator drawn from the
bot's seed, so a time budget only decides how many of the same worlds are used.

``explain(view)`` returns the action with its estimate (the expected score change for the
seat's side less the other side's), for the hint key of the table.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from cinch.actions import PLAYS, TRUMPS, Action, Bid, Keep, NameTrump, Play
from cinch.bots.base import Bot, make_bot, register
from cinch.bots.inference import BidLikelihood, PlayLikelihood
from cinch.cards import TRUMP_TABLES, CardSet, Suit, bit_list
from cinch.deal import Deal, DealResult
from cinch.keep import KeepOptions
from cinch.rules import AboveSix
from cinch.scoring import PointTable, settle
from cinch.solver import Position, solve
from cinch.view import Phase, SeatView
from cinch.worlds import sample_deal, sample_hands

__all__ = ["ExpertBot", "Decision"]


@dataclass(frozen=True)
class Decision:
    """An action with what the search thinks of it."""

    action: Action
    estimate: float | None  # expected (our side's score change - the other side's), None if not searched
    samples: int  # worlds searched
    detail: str  # the figures behind it: the estimate, the method, the worlds
    text: str = ""  # the choice in a player's words: how far ahead of the next best it keeps you


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


@register("expert")
class ExpertBot(Bot):
    """Searches worlds consistent with its view: the solver in the play, heuristic playouts elsewhere.

    ``time_budget``: seconds per decision (default 1); ``worlds``: a fixed number of worlds per
    play decision instead (deterministic); ``playouts``: worlds per bidding, trump, discard or
    rob decision with ``worlds`` (default ``max(16, 4 * worlds)``); ``inference``: the
    sharpness of the bid inference (0 turns it off); ``play_inference``: the weight of a world
    per card another player chose that the heuristic would not have (1 turns it off);
    ``caution``: standard errors a candidate must gain over the default; ``solver_tricks``: the
    most tricks left for the solver (longer hands, without the draw, use playouts);
    ``max_candidates``: keeps searched; ``max_worlds``: the most worlds a timed decision uses;
    ``max_seconds``: the hard cap of one decision in every mode (default twice ``time_budget``); ``search``: the
    decisions searched, of ``bid,trump,keep,play`` (the others are the heuristic's; for
    experiments).
    """

    def __init__(self, seed: int | None = None, time_budget: float | None = 1.0, worlds: int | None = None,
                 playouts: int | None = None, inference: float = 1.0, max_candidates: int = 16,
                 max_worlds: int = 400, search: str = "bid,trump,keep,play", caution: float = 1.0,
                 play_inference: float = 0.3, solver_tricks: int = 6, max_seconds: float | None = None):
        super().__init__(seed)
        if max_seconds is not None and max_seconds <= 0:
            raise ValueError("max_seconds must be positive")
        if time_budget is not None and time_budget <= 0:
            raise ValueError("time_budget must be positive")
        if worlds is not None and worlds < 1:
            raise ValueError("worlds must be at least 1")
        if playouts is not None and playouts < 1:
            raise ValueError("playouts must be at least 1")
        self.time_budget = 1.0 if time_budget is None else time_budget
        # The hard cap of one decision in every mode (a fixed number of worlds too): it stops searching
        # once this is spent, with what it has (at least the minimum of worlds).
        self.max_seconds = max_seconds if max_seconds is not None else 2 * self.time_budget
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
        self._play_weight = PlayLikelihood(play_inference, model=self._heuristic) if play_inference < 1 else None

    # ---- the interface -------------------------------------------------------------------------
    def choose(self, view: SeatView) -> Action:
        return self.decide(view).action

    def explain(self, view: SeatView) -> Decision:
        """The decision with the reason in a player's words (``text``) and the figures (``detail``), for hints."""
        return self.decide(view)

    def decide(self, view: SeatView) -> Decision:
        legal = view.legal
        if len(legal) == 1:
            return Decision(legal[0], None, 0, "the only legal action", "the only legal choice")
        rng = random.Random(self.rng.getrandbits(64))  # this decision's worlds, whatever the budget
        self._deadline = time.perf_counter() + self.max_seconds
        phase = view.phase
        try:
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

    # ---- budgets ---------------------------------------------------------------------------------
    def _play_budget(self) -> _Budget:
        return _Budget(self.time_budget, self.worlds, self.max_worlds, deadline=self._deadline)

    def _sim_budget(self) -> _Budget:
        return _Budget(self.time_budget, self.playouts, self.max_worlds, minimum=4, deadline=self._deadline)

    # ---- helpers -----------------------------------------------------------------------------------
    @staticmethod
    def _context(view: SeatView) -> dict:
        if view.score is None:
            return {}
        return {"score": view.score, "target": view.target, "bidder_goes_out": view.bidder_goes_out}

    def _finish(self, deal: Deal, rng: random.Random, context: dict) -> DealResult:
        """Play ``deal`` to its end with the heuristic bot in every seat (``deal`` is changed)."""
        choose = self._heuristic.choose
        while True:
            phase = deal.phase
            if phase is Phase.DONE:
                break
            if phase is Phase.RESTOCK:
                order = list(deal.restock_pool)
                rng.shuffle(order)
                deal.apply_restock(order)
                continue
            legal = deal.legal_actions()
            if len(legal) == 1:
                deal.apply(legal[0])
                continue
            seat = deal.to_act
            assert seat is not None  # someone acts in every phase but the restock and the end
            view = deal.view(seat, **context) if phase is Phase.BIDDING else deal.view(seat)
            deal.apply(choose(view))
        assert deal.result is not None
        return deal.result

    @staticmethod
    def _net(result: DealResult, team: int) -> int:
        if result.thrown_in:
            return 0
        change = result.score_change
        return change[team] - change[1 - team]

    def _decision(self, view: SeatView, candidates: Sequence[Action], means: Sequence[float], best: int,
                  samples: int, what: str) -> Decision:
        """The chosen candidate, with its figures and a player's words for them."""
        team = view.seat.team
        estimate = means[best]
        detail = (f"{estimate:+.1f} points for {team} against {team.other} on average this deal "
                  f"({what}, {samples} worlds)")
        action = candidates[best]
        others = [(m, a) for i, (m, a) in enumerate(zip(means, candidates)) if i != best]
        return Decision(action, estimate, samples, detail, _words(view, action, estimate, others))

    # ---- bidding ---------------------------------------------------------------------------------------
    def _bid(self, view: SeatView, rng: random.Random) -> Decision:
        legal = list(view.legal)
        team = view.seat & 1
        rules = view.rules
        context = self._context(view)
        choose = self._heuristic.choose
        values: list[list[float]] = [[] for _ in legal]
        budget = self._sim_budget()
        while budget.more():
            world = sample_deal(view, rng, weight=self._weight)
            seed = rng.getrandbits(32)
            points: dict[int, tuple[int, int]] = {}  # maker -> the points of the heuristic's playout
            for i, action in enumerate(legal):
                d = world.copy()
                d.apply(action)
                while d.phase is Phase.BIDDING:
                    options = d.legal_actions()
                    bidder = d.to_act
                    assert bidder is not None
                    d.apply(options[0] if len(options) == 1 else choose(d.view(bidder, **context)))
                if d.phase is Phase.DONE:  # thrown in
                    values[i].append(0.0)
                    continue
                maker = d.maker
                assert maker is not None
                pts = points.get(maker)
                if pts is None:
                    result = self._finish(d.copy(), random.Random(seed), context)
                    assert result.points is not None
                    pts = points[maker] = result.points
                _, change = settle(rules, maker.team, d.high_bid, pts)
                values[i].append(change[team] - change[1 - team])
            budget.tick()
        n = budget.done
        best, _ = _pick(values, 0, self.caution)  # the pass (or the lowest bid) unless beaten
        return self._decision(view, legal, _means(values), best, n, "bidding playouts")

    # ---- trumps ------------------------------------------------------------------------------------
    def _trump(self, view: SeatView, rng: random.Random) -> Decision:
        preferred = self._heuristic.choose(view)
        assert isinstance(preferred, NameTrump)
        values, _, n = self._playouts(view, TRUMPS, rng)
        best, _ = _pick(values, int(preferred.suit), self.caution)
        return self._decision(view, TRUMPS, _means(values), best, n, "trump playouts")

    def _playouts(self, view: SeatView, candidates: Sequence[Action], rng: random.Random,
                  weighted: bool = False) -> tuple[list[list[float]], list[float] | None, int]:
        """Each candidate applied in the same worlds, the rest played out by the heuristic bot.

        Returns each candidate's net result per world, the worlds' play-likelihood weights
        (with ``weighted``; else None) and the number of worlds.
        """
        team = view.seat & 1
        context = self._context(view)
        values: list[list[float]] = [[] for _ in candidates]
        weights: list[float] | None = [] if weighted else None
        budget = self._sim_budget()
        while budget.more():
            world = sample_deal(view, rng, weight=self._weight)
            if weights is not None:
                weights.append(self._play_weight(view, world.hands) if self._play_weight is not None else 1.0)
            seed = rng.getrandbits(32)
            for i, action in enumerate(candidates):
                d = world.copy()
                d.apply(action)
                values[i].append(self._net(self._finish(d, random.Random(seed), context), team))
            budget.tick()
        return values, weights, budget.done

    # ---- discard and rob -------------------------------------------------------------------------------
    def _keep(self, view: SeatView, options: KeepOptions, rng: random.Random) -> Decision:
        forced = options.forced
        if forced is not None:
            return Decision(forced, None, 0, "the only legal keep", "the only legal hand")
        candidates = self._keep_candidates(view, options)
        if len(candidates) == 1:
            return Decision(candidates[0], None, 0, "the heuristic's choice, without a search")
        values, _, n = self._playouts(view, candidates, rng)
        best, _ = _pick(values, 0, self.caution)  # the heuristic's keep unless beaten
        what = "rob playouts" if view.phase is Phase.ROB else "discard playouts"
        return self._decision(view, candidates, _means(values), best, n, what)

    def _keep_candidates(self, view: SeatView, options: KeepOptions) -> list[Keep]:
        """The heuristic's keep first, then its neighbours: one card swapped, added or dropped."""
        assert view.trump is not None
        t = TRUMP_TABLES[view.trump]
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
        seen = {base}

        def add(mask: int) -> None:
            if mask not in seen and options.violation(mask) is None:
                seen.add(mask)
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
        team = view.seat & 1
        makers = view.maker.team
        bid = view.bid
        if rules.tricks - len(view.tricks) > self.solver_tricks:
            return self._play_by_playouts(view, rng)
        cards = sorted({int(a.card) for a in legal})
        burying = any(a.bury for a in legal)
        verify = (rules.above_six is AboveSix.BURIED and not view.tricks
                  and any(n > rules.tricks for n in view.hand_sizes))
        heuristic = self._heuristic.choose(view)
        sums = dict.fromkeys(cards, 0.0)
        diffs = dict.fromkeys(cards, 0.0)
        votes: dict[int, dict[int, float]] = {c: {} for c in cards}
        net_of: dict[tuple[int, int], int] = {}
        budget = self._play_budget()
        n = 0
        total = 0.0
        while budget.more():
            hands = sample_hands(view, rng, weight=self._weight, verify=verify)
            budget.tick()
            try:
                result = solve(Position.from_view(view, hands))
            except (ValueError, KeyError, IndexError, AssertionError):  # a world the solver refuses
                continue
            n += 1
            w = self._play_weight(view, hands) if self._play_weight is not None else 1.0
            total += w
            for card, value in result.card_values.items():
                pts = result.points_after(card)
                net = net_of.get(pts)
                if net is None:
                    _, change = settle(rules, makers, bid, pts)
                    net = net_of[pts] = change[team] - change[1 - team]
                c = int(card)
                sums[c] += w * net
                diffs[c] += w * (value if team == 0 else -value)
                if burying:
                    b = int(result.buries.get(card, CardSet(0)))
                    votes[c][b] = votes[c].get(b, 0) + w
        if n == 0:
            return Decision(heuristic, None, 0, "the heuristic's choice, without a search")
        assert isinstance(heuristic, Play)
        preferred = int(heuristic.card)
        best = max(cards, key=lambda c: (sums[c], diffs[c], c == preferred))
        action = self._with_burial(legal, best, votes[best], heuristic)
        candidates = [action if c == best else PLAYS[c] for c in cards]
        means = [sums[c] / total if total > 0 else 0.0 for c in cards]
        return self._decision(view, candidates, means, cards.index(best), n, "double-dummy worlds")

    def _play_by_playouts(self, view: SeatView, rng: random.Random) -> Decision:
        """Long hands (nine tricks without the draw): each card judged by heuristic playouts.

        The solver's time grows steeply with the tricks left; above ``solver_tricks`` it
        could take seconds on one world, so the cards are judged like the other decisions.
        """
        heuristic = self._heuristic.choose(view)
        candidates = [heuristic] + [a for a in view.legal if a != heuristic]
        values, weights, n = self._playouts(view, candidates, rng, weighted=True)
        best, _ = _pick(values, 0, self.caution, weights)
        return self._decision(view, candidates, _means(values, weights), best, n, "playouts")

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


def _means(values: list[list[float]], weights: list[float] | None = None) -> list[float]:
    """Each candidate's mean result over the worlds (weighted by ``weights``)."""
    out = []
    for vals in values:
        w = weights if weights is not None else [1.0] * len(vals)
        total = sum(w)
        out.append(sum(x * v for x, v in zip(w, vals)) / total if total > 0 else 0.0)
    return out


def _words(view: SeatView, action: Action, estimate: float, others: list[tuple[float, Action]]) -> str:
    """A hint as a player says it: ``playing the K♠* keeps you about 2 points ahead of the other cards``."""
    trump = view.trump
    doing = _doing(action, trump)
    if not others:
        return f"{doing}: the only sensible choice"
    margin, runner_up = max(others, key=lambda o: o[0])
    gap = estimate - margin
    if gap < -0.5:  # the search kept the safer choice: say what it gives up
        lead = f"{doing} is the safe choice; {_doing(runner_up, trump)} may score about {_points(-gap)} more"
    elif gap < 0.5:
        lead = f"{doing} is about as good as {_doing(runner_up, trump)}"
    else:
        rest = "the other choices" if len(others) > 1 else _doing(runner_up, trump)
        lead = f"{doing} keeps you about {_points(gap)} ahead of {rest}"
    if abs(estimate) < 0.5:
        outlook = "the deal looks even"
    elif estimate > 0:
        outlook = f"your side should come out about {_points(estimate)} ahead this deal"
    else:
        outlook = f"your side should lose about {_points(-estimate)} on this deal"
    return f"{lead}; {outlook}"


def _doing(action: Action, trump: Suit | None) -> str:
    if isinstance(action, Play):
        return "playing the " + action.card.symbol + ("*" if trump is not None and TRUMP_TABLES[trump].is_trump(
            action.card) else "")
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


def _pick(values: list[list[float]], baseline: int, caution: float,
          weights: list[float] | None = None) -> tuple[int, float]:
    """The candidate with the best mean, each judged against ``baseline`` with ``caution`` standard errors.

    ``values[i]`` holds candidate i's result in each world (the same worlds for all), and
    ``weights`` the worlds' importance weights (equal by default).  A candidate's score is
    its mean gain over the baseline less ``caution`` times the standard error of that gain,
    so a difference the worlds cannot tell from noise keeps the baseline (the pass, the
    heuristic's trump or keep).  Returns the index and its mean result.
    """
    base = values[baseline]
    n = len(base)
    if n == 0:
        return baseline, 0.0
    w = weights if weights is not None else [1.0] * n
    total = sum(w)
    if total <= 0:
        w, total = [1.0] * n, float(n)
    best, best_score = baseline, 0.0
    for i, vals in enumerate(values):
        if i == baseline:
            continue
        gains = [a - b for a, b in zip(vals, base)]
        mean = sum(x * g for x, g in zip(w, gains)) / total
        if n > 1:
            spread = sum((x * (g - mean)) ** 2 for x, g in zip(w, gains)) ** 0.5 / total
            score = mean - caution * spread * (n / (n - 1)) ** 0.5
        else:
            score = mean
        if score > best_score:
            best, best_score = i, score
    return best, sum(x * v for x, v in zip(w, values[best])) / total
