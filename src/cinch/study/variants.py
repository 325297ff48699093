"""Variant statistics: how a rule set plays out when bots play it against themselves.

For each rule set the same bot sits in all four seats and plays whole matches, dealt
from the run's seed (match ``m``'s deal ``k`` has the same deck under every rule set, so
the rule sets are compared on the same cards).  Every deal is recorded (who dealt, the
contract, the points and who took each point card) and :class:`VariantFigures` reduces
them to the figures of ``cinch study``: the make rate per bid level, the average winning
bid, the points per deal, who captures each point card, the seats' and the dealer's
advantage, the throw-in rate and the length of a match, with 95% intervals.

Seats are counted from the dealer: ``dealer``, ``left`` (the dealer's left, first to
bid), ``partner`` and ``right`` (the last to bid before the dealer).

A rule set may seat 2 to 6 players (``players=3``).  At a cut-throat table each player is
his own side, so the figures "by side" are by player: the defenders' figures are per
defender (the mean over the players against the maker), the dealer's net is his change less
the others' mean, and the seats counted from the dealer are ``dealer``, ``left``, ``left2``
... ``right`` (:func:`positions`).

A rule set may play two packs (``decks=2``): every point card is there twice, and its figures count
copies, as shares of the copies dealt with a contract (two a deal).

>>> study = run_study([Rules.preset("pagat")], deals=8, seed=1, bot="basic", workers=1)
>>> figures = study.figures[0]
>>> figures.deals >= 8, 0.0 <= figures.contract_figures()["make_rate"] <= 1.0
(True, True)
"""

from __future__ import annotations

import html
import json
import math
import random
import re
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from cinch.arena import MAX_MATCH_DEALS, BotSpec, derive_seed, ratio_interval, seeded_deck, wilson_interval
from cinch.backends import Backend, backend_for
from cinch.cards import Seat
from cinch.deal import Deal
from cinch.errors import CinchError, quoted
from cinch.match import Match
from cinch.rules import Rules
from cinch.scoring import Award, PointTable
from cinch.seating import seating

__all__ = [
    "POSITIONS", "DealFacts", "MatchFacts", "StudyResult", "VariantFigures", "award_seat", "check_study",
    "parse_rule_set", "position_words", "positions",
    "rule_set_label", "run_study",
]

FORMAT = "cinch-study/1"
POSITIONS = ("dealer", "left", "partner", "right")  # a seat counted from the dealer, to the left
POSITION_WORDS = {"dealer": "dealer", "left": "dealer's left", "partner": "dealer's partner",
                  "right": "dealer's right"}
ORDINALS = ("", "", "2nd", "3rd", "4th")


def positions(players: int = 4) -> tuple[str, ...]:
    """The seats of a table counted from the dealer, to the left: ``partner`` only at four players.

    >>> positions(4), positions(3)
    (('dealer', 'left', 'partner', 'right'), ('dealer', 'left', 'right'))
    >>> positions(6)
    ('dealer', 'left', 'left2', 'left3', 'left4', 'right')
    """
    if players == 4:
        return POSITIONS
    if players == 2:
        return ("dealer", "left")
    return ("dealer", "left", *(f"left{k}" for k in range(2, players - 1)), "right")


def position_words(position: str) -> str:
    """How the report names a seat counted from the dealer.

    >>> position_words("left"), position_words("left3")
    ("dealer's left", "3rd to the dealer's left")
    """
    if position in POSITION_WORDS:
        return POSITION_WORDS[position]
    return f"{ORDINALS[int(position[4:])]} to the dealer's left"


def _position_order(position: str) -> int:
    """Where a seat counted from the dealer goes in a plot over tables of several sizes."""
    order = {"dealer": 0, "left": 1, "partner": 2, "right": 9}
    return order[position] if position in order else int(position[4:])


CARD_ORDER = ("High", "Low", "Jack", "Game", "Right Pedro", "Left Pedro", "Sancho", "Dom")
FIRST_WAVE_DEALS_PER_MATCH = 9  # a guess for the first wave; later waves use the lengths seen


# ---------------------------------------------------------------------------
# Rule sets from the command line
# ---------------------------------------------------------------------------
def parse_rule_set(text: str, extra: Sequence[str] = ()) -> Rules:
    """``"pagat"``, ``"pagat,target=62,sancho=true"``: a preset and its overrides, comma-separated.

    ``extra`` (``-o KEY=VALUE`` of the command line) applies after the rule set's own overrides.

    >>> parse_rule_set("pagat,all_pass=throw-in,sancho=true").sancho
    True
    """
    preset, *options = [part.strip() for part in text.split(",")]
    if not preset:
        raise CinchError(f"--rules {quoted(text)}: start with a preset, as in --rules pagat,target=62")
    empty = [o for o in options if not o]
    if empty:
        raise CinchError(f"--rules {quoted(text)} has an empty option: write PRESET,KEY=VALUE,KEY=VALUE")
    return Rules.from_text(preset, [*options, *extra])


def rule_set_label(rules: Rules) -> str:
    """The rule set as ``--rules`` takes it: ``pagat`` or ``pagat,target=42,sancho=true``.

    >>> rule_set_label(Rules.preset("additive").with_options(target=42))
    'additive,target=42'
    """
    spec = rules.to_json()
    if isinstance(spec, str):
        return spec
    parts = [rules.preset_name]
    for key, value in spec.items():
        if key != "preset":
            shown = "none" if value is None else str(value).lower() if isinstance(value, bool) else str(value)
            parts.append(f"{key}={shown}")
    return ",".join(parts)


# ---------------------------------------------------------------------------
# What a deal and a match leave behind
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class DealFacts:
    """One deal of self-play, as plain numbers (cheap to send back from a worker)."""

    dealer: int  # the seat (0 N, 1 E, 2 S, 3 W; cut-throat 0 to n-1 for seats 1 to n)
    thrown_in: bool
    maker: int | None
    bid: int | None
    made: bool | None
    points: tuple[int, ...]  # taken by each side: NS and EW, or each player cut-throat (0s when thrown in)
    change: tuple[int, ...]  # the score change of each side
    awards: tuple[tuple[str, int, int], ...]  # (point card, the seat it scored for, points); one for each copy
    unscored: tuple[tuple[str, int], ...]  # point cards (each copy, with two packs) that scored for nobody
    players: int = 4  # the table's size

    def position(self, seat: int) -> str:
        """``seat`` counted from this deal's dealer: ``dealer``, ``left``, ``partner`` or ``right`` at four
        players (:func:`positions` at the others)."""
        return positions(self.players)[(seat - self.dealer) % self.players]

    def side(self, seat: int) -> int:
        """The side ``seat`` plays for: its partnership (0 NS, 1 EW) at four players, itself cut-throat."""
        return seating(self.players).side_of[seat]

    @property
    def maker_side(self) -> int | None:
        return None if self.maker is None else self.side(self.maker)

    def defenders_mean(self, values: Sequence[int]) -> float | None:
        """What a defending side has of ``values`` (by side): the one other side at four players, the mean of
        the players against the maker cut-throat (None when thrown in)."""
        s = self.maker_side
        if s is None:
            return None
        return _others_mean(values, s)


def _others_mean(values: Sequence[float], skip: int) -> float:
    """The mean of ``values`` but the one at ``skip``: the one other side's at four players, the other
    players' cut-throat."""
    others = [v for i, v in enumerate(values) if i != skip]
    return others[0] if len(others) == 1 else math.fsum(others) / len(others)


@dataclass(frozen=True)
class MatchFacts:
    """One match of self-play: its deals in order and which side won (0 NS, 1 EW; None: unfinished)."""

    index: int
    deals: tuple[DealFacts, ...]
    winner: int | None
    score: tuple[int, ...]

    @property
    def first_dealer(self) -> int:
        return self.deals[0].dealer


def award_seat(deal: Deal, award: Award) -> Seat:
    """The seat a point card scored for: who won the trick that took it, who held it (Low to the
    holder, 000) or the defender who threw it (003)."""
    card = award.card
    if award.how == "thrown by a defender":
        for seat in deal.rules.seating.seats:
            if deal.shown[seat] >> card & 1:
                return seat
    for trick in deal.tricks:
        for played in trick.plays:
            if played.card == card:
                return played.seat if award.how == "held" else trick.winner
    raise CinchError(f"{award} was not found in the deal's tricks or shown cards")  # pragma: no cover


def _point_values(table: PointTable) -> dict[str, int]:
    """Every point card that can score under these rules, with its points."""
    values = {name: points for name, _, points in table.captured_cards}
    if table.relative_high:
        values["High"] = 1
    if table.relative_low or table.holder_low:
        values["Low"] = 1
    return values


def deal_facts(deal: Deal) -> DealFacts:
    """The facts of a finished deal."""
    r = deal.result
    if r is None:
        raise CinchError("the deal is not finished")
    n = deal.rules.players
    if r.thrown_in:
        return DealFacts(deal.dealer, True, None, None, None, (0,) * len(r.score_change), r.score_change, (), (), n)
    assert r.maker is not None and r.points is not None and deal.point_table is not None
    awards = tuple((w.name, int(award_seat(deal, w)), w.points) for w in r.awards)
    scored = Counter(w.name for w in r.awards)  # with two packs a card scores once for each copy that scored
    unscored = tuple((name, points) for name, points in _point_values(deal.point_table).items()
                     for _ in range(deal.rules.decks - scored[name]))
    return DealFacts(deal.dealer, False, r.maker, r.bid, r.made, r.points, r.score_change, awards, unscored, n)


# ---------------------------------------------------------------------------
# Playing (in the workers)
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class _StudyJob:
    rules: Any  # Rules.to_json(): plain data, cheap to send
    bot: BotSpec
    seed: int


def play_match(rules: Rules, bot: BotSpec, seed: int, index: int) -> MatchFacts:
    """Match ``index`` of the run: the same bot in every seat, its decks and seeds from ``seed`` and ``index``."""
    table = rules.seating
    bots = {seat: bot.make(derive_seed(seed, "study", "bot", index, int(seat))) for seat in table.seats}
    match = Match(rules, first_dealer=table.seats[index % table.players], rng=0)
    facts = []
    while not match.is_over and len(match.deals) < MAX_MATCH_DEALS:
        k = len(match.deals)
        match.rng = random.Random(derive_seed(seed, "study", "restock", index, k))
        deal = match.start_deal(deck=seeded_deck(rules.decks, seed, "study", "deck", index, k))
        for seat in match.turns():
            match.apply(bots[seat].choose(match.view(seat)), seat)
        facts.append(deal_facts(deal))
    winner = None if match.winner is None else int(match.winner)
    return MatchFacts(index, tuple(facts), winner, match.score)


def _play_chunk(job: _StudyJob, start: int, stop: int) -> list[MatchFacts]:
    rules = Rules.from_json(job.rules)
    return [play_match(rules, job.bot, job.seed, index) for index in range(start, stop)]


# ---------------------------------------------------------------------------
# The figures of one rule set
# ---------------------------------------------------------------------------
def _interval(mean: float, ci: tuple[float, float] | tuple[None, None]) -> dict[str, Any]:
    return {"mean": mean, "ci95": list(ci)}


def _rate(k: int, n: int) -> dict[str, Any]:
    """A proportion with its 95% Wilson interval (None for no trials)."""
    if n == 0:
        return {"count": 0, "of": 0, "rate": None, "ci95": [None, None]}
    return {"count": k, "of": n, "rate": k / n, "ci95": list(wilson_interval(k / n, n))}


def _per_match(matches: Sequence[MatchFacts], value: Callable[[DealFacts], float | None]) -> dict[str, Any]:
    """The mean of ``value`` over the deals where it is not None, with its 95% interval over the matches.

    A match's deals share a score (and a bot's view of it), so the matches, not the deals,
    are the independent units: the interval is the ratio estimator's (:func:`cinch.arena.ratio_interval`).
    """
    totals: list[float] = []
    counts: list[int] = []
    for m in matches:
        values = [v for v in map(value, m.deals) if v is not None]
        if values:
            totals.append(math.fsum(values))
            counts.append(len(values))
    if not counts:
        return {"mean": None, "ci95": [None, None], "deals": 0}
    mean, ci = ratio_interval(totals, counts)
    return {**_interval(mean, ci), "deals": sum(counts)}


@dataclass
class VariantFigures:
    """The statistics of one rule set's self-play."""

    rules: Rules
    matches: list[MatchFacts]

    @property
    def label(self) -> str:
        return rule_set_label(self.rules)

    @property
    def positions(self) -> tuple[str, ...]:
        """The seats counted from the dealer at this rule set's table."""
        return positions(self.rules.players)

    @cached_property
    def all_deals(self) -> list[DealFacts]:
        return [d for m in self.matches for d in m.deals]

    @property
    def deals(self) -> int:
        return len(self.all_deals)

    @cached_property
    def contracts(self) -> list[DealFacts]:
        return [d for d in self.all_deals if not d.thrown_in]

    # ---- bidding ---------------------------------------------------------
    def throw_in_figures(self) -> dict[str, Any]:
        return _rate(self.deals - len(self.contracts), self.deals)

    def contract_figures(self) -> dict[str, Any]:
        """How often the makers made their bid, the winning bid, and both per bid level."""
        made = sum(1 for d in self.contracts if d.made)
        overall = _rate(made, len(self.contracts))
        levels = Counter(d.bid for d in self.contracts)
        made_at = Counter(d.bid for d in self.contracts if d.made)
        by_bid = [{"bid": bid, **_rate(made_at[bid], n)} for bid, n in sorted(levels.items()) if bid is not None]
        return {
            "contracts": len(self.contracts),
            "made": made,
            "make_rate": overall["rate"],
            "ci95": overall["ci95"],
            "by_bid": by_bid,
            "winning_bid": _per_match(self.matches, lambda d: d.bid),
        }

    # ---- points ----------------------------------------------------------
    def point_figures(self) -> dict[str, Any]:
        """Points taken and score change per deal, by the makers and by the defenders (deals with a contract)."""

        def of(values: Callable[[DealFacts], tuple[int, ...]], makers: bool) -> Callable[[DealFacts], float | None]:
            def value(d: DealFacts) -> float | None:
                if d.thrown_in or d.maker_side is None:
                    return None
                return values(d)[d.maker_side] if makers else d.defenders_mean(values(d))
            return value

        def taken(makers: bool) -> Callable[[DealFacts], float | None]:
            return of(lambda d: d.points, makers)

        def change(makers: bool) -> Callable[[DealFacts], float | None]:
            return of(lambda d: d.change, makers)

        return {
            "taken": {"makers": _per_match(self.matches, taken(True)),
                      "defenders": _per_match(self.matches, taken(False)),
                      "all": _per_match(self.matches, lambda d: None if d.thrown_in else sum(d.points))},
            "score_change": {"makers": _per_match(self.matches, change(True)),
                             "defenders": _per_match(self.matches, change(False))},
            "points_in_a_deal": self.rules.total_points,
        }

    def card_figures(self) -> dict[str, dict[str, Any]]:
        """For each point card: the deals it scored in, for the makers or the defenders, and for which seat
        (counted from the dealer); and the deals it scored for nobody (left in the stock, dead, no trump in play).
        With two packs each copy counts (``copies``: two a deal)."""
        out: dict[str, dict[str, Any]] = {}

        def entry(name: str, points: int) -> dict[str, Any]:
            if name not in out:
                out[name] = {"points": points, "copies": self.rules.decks, "scored": 0, "not_scored": 0, "makers": 0,
                             "defenders": 0, "by_position": dict.fromkeys(self.positions, 0)}
            return out[name]

        for d in self.contracts:
            for name, seat, points in d.awards:
                e = entry(name, points)
                e["scored"] += 1
                e["makers" if d.side(seat) == d.maker_side else "defenders"] += 1
                e["by_position"][d.position(seat)] += 1
            for name, points in d.unscored:
                entry(name, points)["not_scored"] += 1
        order = {name: i for i, name in enumerate(CARD_ORDER)}
        return {name: out[name] for name in sorted(out, key=lambda n: order.get(n, len(order)))}

    # ---- seats -----------------------------------------------------------
    def seat_figures(self) -> dict[str, dict[str, Any]]:
        """Per seat counted from the dealer: how often it won the bid, made it, and the points it took."""
        out: dict[str, dict[str, Any]] = {}
        n = self.rules.players
        for k, pos in enumerate(self.positions):
            as_maker = [d for d in self.contracts if d.position(d.maker) == pos]  # type: ignore[arg-type]

            def took(d: DealFacts, k: int = k) -> float | None:
                if d.thrown_in:
                    return None
                return sum(points for _, seat, points in d.awards if (seat - d.dealer) % n == k)

            out[pos] = {
                "won_the_bid": _rate(len(as_maker), len(self.contracts)),
                "made": _rate(sum(1 for d in as_maker if d.made), len(as_maker)),
                "average_bid": (sum(d.bid for d in as_maker if d.bid is not None) / len(as_maker)
                                if as_maker else None),
                "card_points_per_deal": _per_match(self.matches, took),
            }
        return out

    def dealer_figures(self) -> dict[str, Any]:
        """The dealer's side's score change minus the other side's, per deal (all deals), and how often the
        side that dealt first won the match.  Cut-throat, the dealer's own change less the others' mean."""
        table = seating(self.rules.players)

        def net(d: DealFacts) -> float:
            mine = table.side_of[d.dealer]
            return d.change[mine] - _others_mean(d.change, mine)

        first_won = [m for m in self.matches if m.winner is not None]
        wins = sum(1 for m in first_won if m.winner == table.side_of[m.first_dealer])
        return {
            "net_per_deal": _per_match(self.matches, net),
            "first_dealer_side_wins": _rate(wins, len(first_won)),
        }

    # ---- matches ---------------------------------------------------------
    def match_figures(self) -> dict[str, Any]:
        lengths = sorted(len(m.deals) for m in self.matches if m.winner is not None)
        n = len(lengths)
        if n:
            mean, ci = ratio_interval([float(x) for x in lengths], [1] * n)
        else:
            mean, ci = 0.0, (None, None)
        return {
            "matches": len(self.matches),
            "finished": n,
            "deals": _interval(mean, ci),
            "median": _median(lengths),
            "min": lengths[0] if lengths else None,
            "max": lengths[-1] if lengths else None,
            "histogram": {str(k): v for k, v in sorted(Counter(lengths).items())},
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "rules": self.rules.to_json(),
            "target": self.rules.target,
            "matches": len(self.matches),
            "deals": self.deals,
            "throw_in": self.throw_in_figures(),
            "contracts": self.contract_figures(),
            "points_per_deal": self.point_figures(),
            "point_cards": self.card_figures(),
            "seats": self.seat_figures(),
            "dealer": self.dealer_figures(),
            "match_length": self.match_figures(),
        }


def _median(data: Sequence[int]) -> float | None:
    if not data:
        return None
    mid = len(data) // 2
    return float(data[mid]) if len(data) % 2 else (data[mid - 1] + data[mid]) / 2


# ---------------------------------------------------------------------------
# A run
# ---------------------------------------------------------------------------
@dataclass
class StudyResult:
    """Every rule set's figures, and how the run was made."""

    figures: list[VariantFigures]
    bot: BotSpec
    seed: int
    deals_asked: int | None
    matches_asked: int | None
    workers: int
    backend: str
    where: str
    elapsed_s: float = 0.0
    waves: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def command(self) -> str:
        """The command line that repeats this run."""
        parts = ["cinch", "study"]
        for f in self.figures:
            parts += ["--rules", f.label]
        parts += ["--deals", str(self.deals_asked)] if self.deals_asked is not None else [
            "--matches", str(self.matches_asked)]
        parts += ["--bot", self.bot.name, "--seed", str(self.seed)]
        for key, value in self.bot.options:
            parts += ["--bot-option", f"{key}={value}"]
        return " ".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "bot": self.bot.name,
            "bot_options": dict(self.bot.options),
            "seed": self.seed,
            "deals_asked": self.deals_asked,
            "matches_asked": self.matches_asked,
            "rule_sets": [f.to_json() for f in self.figures],
            "workers": self.workers,
            "backend": self.backend,
            "elapsed_s": self.elapsed_s,
            "command": self.command,
        }


ProgressFn = Callable[[int, int], None]
"""``progress(matches_done, deals_played)``, over every rule set."""


def run_study(
    rule_sets: Sequence[Rules | str],
    deals: int | None = 1000,
    seed: int = 0,
    bot: str | BotSpec = "heuristic",
    workers: int | None = None,
    *,
    matches: int | None = None,
    bot_options: Mapping[str, Any] | None = None,
    backend: str | Backend = "process",
    address: str | None = None,
    progress: ProgressFn | None = None,
) -> StudyResult:
    """Self-play of every rule set: whole matches until each has at least ``deals`` deals (or exactly
    ``matches`` matches), the same bot in every seat.

    Match ``m`` is dealt and seeded from ``seed`` and ``m`` alone, and a rule set keeps the
    shortest run of matches 0, 1, 2, ... that reaches ``deals``: the figures are the same on any
    backend and any number of workers.
    """
    rules_list, spec = check_study(rule_sets, deals, matches, bot, bot_options)
    started = time.perf_counter()
    kept: list[list[MatchFacts]] = [[] for _ in rules_list]
    jobs = [_StudyJob(r.to_json(), spec, seed) for r in rules_list]
    tally = [0, 0]
    waves = 0

    def done(_: int, res: list[MatchFacts]) -> None:
        tally[0] += len(res)
        tally[1] += sum(len(m.deals) for m in res)
        if progress is not None:
            progress(tally[0], tally[1])

    def tick() -> None:
        if progress is not None:
            progress(tally[0], tally[1])

    with backend_for(backend, workers, address) as runner:
        while True:
            wave = _next_wave(kept, deals, matches, runner.workers)
            if not wave:
                break
            waves += 1
            results = runner.run(_play_chunk, [(jobs[k], a, b) for k, a, b in wave], done=done, tick=tick)
            for (k, _, _), res in zip(wave, results):
                kept[k].extend(res)
            if deals is not None:
                kept = [_shortest_prefix(ms, deals) for ms in kept]
        name, where, used = runner.name, runner.describe(), runner.workers
    figures = [VariantFigures(r, ms) for r, ms in zip(rules_list, kept)]
    return StudyResult(figures, spec, seed, deals, matches, used, name, where, time.perf_counter() - started, waves)


def check_study(rule_sets: Sequence[Rules | str], deals: int | None, matches: int | None, bot: str | BotSpec,
                bot_options: Mapping[str, Any] | None = None) -> tuple[list[Rules], BotSpec]:
    """Refuse a study that cannot run (CinchError), before any match is played; the rules and the bot to use."""
    rules_list = [Rules.preset(r) if isinstance(r, str) else r for r in rule_sets]
    if not rules_list:
        raise CinchError("give at least one rule set, as in --rules pagat")
    labels = [rule_set_label(r) for r in rules_list]
    twice = sorted({x for x in labels if labels.count(x) > 1})
    if twice:
        raise CinchError(f"the rule set {twice[0]} is given twice; give each rule set once")
    if (deals is None) == (matches is None):
        raise CinchError("give the number of deals or the number of matches, not both")
    if deals is not None and deals < 1:
        raise CinchError(f"--deals must be at least 1, not {deals}")
    if matches is not None and matches < 1:
        raise CinchError(f"--matches must be at least 1, not {matches}")
    spec = BotSpec.of(bot, bot_options)
    spec.check()
    return rules_list, spec


def _shortest_prefix(matches: list[MatchFacts], deals: int) -> list[MatchFacts]:
    """Matches 0, 1, ... up to the first at which ``deals`` deals are reached (all of them if never)."""
    total = 0
    for i, m in enumerate(matches):
        total += len(m.deals)
        if total >= deals:
            return matches[: i + 1]
    return matches


def _next_wave(kept: list[list[MatchFacts]], deals: int | None, matches: int | None,
               workers: int) -> list[tuple[int, int, int]]:
    """The chunks to play next: ``(rule set, first match, stop)``; empty when every rule set has enough."""
    wanted: list[tuple[int, int, int]] = []  # rule set, first match, how many
    for k, played in enumerate(kept):
        start = len(played)
        if matches is not None:
            if start < matches:
                wanted.append((k, start, matches - start))
            continue
        assert deals is not None
        have = sum(len(m.deals) for m in played)
        if have >= deals:
            continue
        per_match = have / start if start else FIRST_WAVE_DEALS_PER_MATCH
        # A little more than the lengths seen ask for, so that a second wave is rarely needed.
        wanted.append((k, start, max(1, math.ceil((deals - have) / per_match * 1.1))))
    total = sum(n for _, _, n in wanted)
    size = max(1, min(8, total // (workers * 4)))
    return [(k, s, min(s + size, start + n)) for k, start, n in wanted for s in range(start, start + n, size)]


# ---------------------------------------------------------------------------
# The report: Markdown or HTML, with plots beside it
# ---------------------------------------------------------------------------
REPORT_FORMATS = ("markdown", "html")
PLOTS = ("bidding.png", "point_cards.png", "seats.png", "match_length.png")
PLOT_DPI = 80  # small files: the report is read on a screen


def _pct(r: Mapping[str, Any]) -> str:
    """``71.1% (64.5–76.9)``; ``-`` without trials."""
    if r.get("rate") is None:
        return "-"
    low, high = r["ci95"]
    return f"{100 * r['rate']:.1f}% ({100 * low:.1f}\u2013{100 * high:.1f})"


def _mean(m: Mapping[str, Any], digits: int = 2) -> str:
    """``7.39 (7.30–7.48)``; no interval from one match."""
    if m.get("mean") is None:
        return "-"
    low, high = m["ci95"]
    text = f"{m['mean']:.{digits}f}"
    if low is None or high is None:
        return text
    return f"{text} ({low:.{digits}f} to {high:.{digits}f})"


def _share(k: int, n: int) -> str:
    return f"{100 * k / n:.1f}%" if n else "-"


Block = tuple[str, Any]
"""A piece of the report: ("h1" | "h2" | "p", text), ("table", (header, rows)) or ("img", (file, alt))."""


def report_blocks(study: StudyResult, plots: Sequence[str] = PLOTS) -> list[Block]:
    """The report as headings, paragraphs, tables and plots, for :func:`render_markdown` and :func:`render_html`."""
    data = [f.to_json() for f in study.figures]
    labels = [d["label"] for d in data]
    n = len(data)
    cut_throat = any(f.rules.cut_throat for f in study.figures)

    def say(four: str, cut: str) -> str:
        """The partnership game's words, or those of a run with a cut-throat table in it."""
        return cut if cut_throat else four

    # The defenders' figure is the defending pair's at four players and per defender at a cut-throat table:
    # the row says which, and in a run with both kinds of table, which columns are which.
    every_cut_throat = all(f.rules.cut_throat for f in study.figures)
    per_defender = ("" if not cut_throat else " (per defender)" if every_cut_throat else
                    " (the pair's at four players, per defender at the others)")

    blocks: list[Block] = [
        ("h1", f"Variant statistics: {n} rule set{'s' if n != 1 else ''}, {study.bot.name} self-play"),
        ("p", f"Made by `{study.command}` ({study.where}, {study.elapsed_s:.0f} s). The same bot plays "
              f"{say('all four seats', 'every seat')}; every rule set plays the same decks (match m, deal k). In "
              "brackets, 95% intervals: Wilson's for rates (deals counted as independent), and for means the ratio "
              "estimator over the matches (a match's deals share its score). Seats are counted from the dealer: the "
              "dealer's left bids first."
              + say("", " At a cut-throat table (players other than 4) each player is his own side: a side's "
                        "figure is the player's, the defenders' figures are per defender (the mean of the players "
                        "against the maker), and the dealer's net is his change less the others' mean.")),
    ]
    rows = [
        ["rule set", *labels],
        ["deals (matches)", *(f"{d['deals']} ({d['matches']})" for d in data)],
        ["thrown in (all passed)", *(_pct(d["throw_in"]) for d in data)],
        ["contracts made", *(_pct({"rate": d["contracts"]["make_rate"], "ci95": d["contracts"]["ci95"]})
                             for d in data)],
        ["average winning bid", *(_mean(d["contracts"]["winning_bid"]) for d in data)],
        ["points taken per contract: makers", *(_mean(d["points_per_deal"]["taken"]["makers"]) for d in data)],
        ["points taken per contract: defenders" + per_defender,
         *(_mean(d["points_per_deal"]["taken"]["defenders"]) for d in data)],
        ["score change per contract: makers", *(_mean(d["points_per_deal"]["score_change"]["makers"]) for d in data)],
        ["score change per contract: defenders" + per_defender,
         *(_mean(d["points_per_deal"]["score_change"]["defenders"]) for d in data)],
        [say("dealer's side net per deal (all deals)", "dealer's side (or player) net per deal (all deals)"),
         *(_mean(d["dealer"]["net_per_deal"]) for d in data)],
        [say("side that dealt first wins the match", "side (or player) that dealt first wins the match"),
         *(_pct(d["dealer"]["first_dealer_side_wins"]) for d in data)],
        ["deals per match: mean", *(_mean(d["match_length"]["deals"], 1) for d in data)],
        ["deals per match: median (range)", *(f"{d['match_length']['median']} ({d['match_length']['min']}"
                                              f"\u2013{d['match_length']['max']})" for d in data)],
    ]
    blocks += [("h2", "Summary"), ("table", (rows[0], rows[1:]))]

    bids = sorted({b["bid"] for d in data for b in d["contracts"]["by_bid"]})
    by_bid = [{b["bid"]: b for b in d["contracts"]["by_bid"]} for d in data]
    bid_rows = [[str(bid), *(f"{x[bid]['count']}/{x[bid]['of']}, {_pct(x[bid])}" if bid in x else "-"
                             for x in by_bid)] for bid in bids]
    blocks += [("h2", "Bidding"), ("img", (plots[0], "Winning bids and the make rate per bid level")),
               ("p", "Contracts made of contracts won at each bid, and the make rate:"),
               ("table", (["bid", *labels], bid_rows))]

    blocks += [("h2", "Point cards"), ("img", (plots[1], "Who took each point card, by seat from the dealer")),
               ("p", "Of the deals with a contract: how often each point card scored, for the makers' side"
                     f"{say('', ' (the maker alone at a cut-throat table)')}, for each seat counted from the "
                     "dealer, and for nobody (left in the stock, dead, or no trump in play)."
                     + (" With two packs (decks=2) every point card is there twice: the shares are of its copies, "
                        "two a deal." if any(f.rules.decks > 1 for f in study.figures) else ""))]
    for d in data:
        contracts = d["contracts"]["contracts"]
        seats = list(d["seats"])  # this rule set's table, counted from the dealer
        card_rows = [[name, *(_share(c[k], contracts * c.get("copies", 1)) for k in ("scored", "makers")),
                      *(_share(c["by_position"][p], contracts * c.get("copies", 1)) for p in seats),
                      _share(c["not_scored"], contracts * c.get("copies", 1))]
                     for name, c in d["point_cards"].items()]
        blocks += [("p", f"**{d['label']}** ({contracts} contracts):"),
                   ("table", (["card", "scored", "makers", *(position_words(p) for p in seats), "nobody"],
                              card_rows))]

    blocks += [("h2", "Seats and the dealer"), ("img", (plots[2], "Bids won and points taken by seat")),
               ("p", "Per seat counted from the dealer: the share of contracts it won, how often it made them, its "
                     "average winning bid, and the point-card points it captured per deal with a contract.")]
    for d in data:
        seat_rows = [[position_words(p), _pct(s["won_the_bid"]), _pct(s["made"]),
                      "-" if s["average_bid"] is None else f"{s['average_bid']:.2f}", _mean(s["card_points_per_deal"])]
                     for p, s in d["seats"].items()]
        blocks += [("p", f"**{d['label']}**:"),
                   ("table", (["seat", "won the bid", "made", "average bid", "card points per contract"], seat_rows))]

    blocks += [("h2", "Match length"), ("img", (plots[3], "Deals per match")),
               ("p", "Deals in a finished match; a match still undecided after "
                     f"{MAX_MATCH_DEALS} deals would count as unfinished (unfinished here: "
                     f"{', '.join(str(d['match_length']['matches'] - d['match_length']['finished']) for d in data)}).")]
    return blocks


def render_markdown(blocks: Sequence[Block]) -> str:
    lines: list[str] = []
    for kind, content in blocks:
        if kind == "h1":
            lines += [f"# {content}", ""]
        elif kind == "h2":
            lines += [f"## {content}", ""]
        elif kind == "p":
            lines += [content, ""]
        elif kind == "img":
            file, alt = content
            lines += [f"![{alt}]({file})", ""]
        elif kind == "table":
            header, rows = content
            lines.append("| " + " | ".join(header) + " |")
            lines.append("| --- |" + " ---: |" * (len(header) - 1))
            lines += ["| " + " | ".join(row) + " |" for row in rows]
            lines.append("")
    return "\n".join(lines)


def render_html(blocks: Sequence[Block]) -> str:
    def inline(text: str) -> str:
        text = html.escape(text)
        text = re.sub(r"`([^`]+)`", r"<code>\1</code>", text)
        return re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", text)

    title = next((c for k, c in blocks if k == "h1"), "Variant statistics")
    out = ["<!doctype html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           f"<title>{html.escape(title)}</title>",
           "<style>body{font-family:sans-serif;max-width:60em;margin:1em auto;padding:0 1em}"
           "table{border-collapse:collapse;margin:.5em 0 1em}td,th{border:1px solid #ccc;padding:.2em .5em}"
           "td:not(:first-child){text-align:right}img{max-width:100%}</style>", "</head>", "<body>"]
    for kind, content in blocks:
        if kind in ("h1", "h2"):
            out.append(f"<{kind}>{inline(content)}</{kind}>")
        elif kind == "p":
            out.append(f"<p>{inline(content)}</p>")
        elif kind == "img":
            file, alt = content
            out.append(f'<p><img src="{html.escape(file)}" alt="{html.escape(alt)}"></p>')
        elif kind == "table":
            header, rows = content
            out.append("<table>")
            out.append("<tr>" + "".join(f"<th>{inline(h)}</th>" for h in header) + "</tr>")
            out += ["<tr>" + "".join(f"<td>{inline(c)}</td>" for c in row) + "</tr>" for row in rows]
            out.append("</table>")
    out += ["</body>", "</html>", ""]
    return "\n".join(out)


def _errorbars(value: float | None, ci: Sequence[float | None]) -> tuple[float, float]:
    low, high = ci
    if value is None or low is None or high is None:
        return 0.0, 0.0
    return max(0.0, value - low), max(0.0, high - value)


def write_plots(study: StudyResult, out_dir: str | Path) -> list[str]:
    """Draw the report's four plots (PNG, Matplotlib's Agg) into ``out_dir``; returns their file names."""
    from matplotlib.figure import Figure  # only here: the workers never draw
    from matplotlib.ticker import MaxNLocator

    out = Path(out_dir)
    data = [f.to_json() for f in study.figures]
    n = len(data)
    width = 0.8 / n
    metadata = {"Software": None}  # the same run draws the same bytes

    # Bidding: the winning bids' distribution and the make rate per level.
    fig = Figure(figsize=(9, 3.6), layout="constrained")
    left, right = fig.subplots(1, 2)
    for i, d in enumerate(data):
        levels = d["contracts"]["by_bid"]
        total = max(1, d["contracts"]["contracts"])
        xs = [b["bid"] + (i - (n - 1) / 2) * width for b in levels]
        left.bar(xs, [b["of"] / total for b in levels], width=width, label=d["label"])
        shown = [b for b in levels if b["of"] >= 5]  # a rate from fewer contracts says little
        errs = [_errorbars(b["rate"], b["ci95"]) for b in shown]
        right.errorbar([b["bid"] + (i - (n - 1) / 2) * width for b in shown], [b["rate"] for b in shown],
                       yerr=[[e[0] for e in errs], [e[1] for e in errs]], fmt="o-", capsize=3, label=d["label"])
    left.set(title="Winning bids", xlabel="bid", ylabel="share of contracts")
    right.set(title="Make rate per bid (5+ contracts)", xlabel="bid", ylabel="made", ylim=(0, 1.02))
    for ax in (left, right):  # a bid is a whole number: no tick at 6.5
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    left.legend(fontsize="small")
    fig.savefig(out / PLOTS[0], dpi=PLOT_DPI, metadata=metadata)

    # Point cards: who took each, by seat from the dealer, one panel per rule set.
    fig = Figure(figsize=(4.2 * min(n, 3), 3.4 * math.ceil(n / 3)), layout="constrained")
    axes = fig.subplots(math.ceil(n / 3), min(n, 3), squeeze=False).ravel()
    slots = sorted({p for d in data for p in d["seats"]}, key=_position_order)  # every table's seats
    colour = {part: f"C{i}" for i, part in enumerate((*slots, "nobody"))}  # one seat, one colour in every panel
    legend: dict[str, Any] = {}
    for ax, d in zip(axes, data):
        cards = list(d["point_cards"])
        total = max(1, d["contracts"]["contracts"])
        left_edge = [0.0] * len(cards)
        for part in (*d["seats"], "nobody"):
            shares = [(d["point_cards"][c]["not_scored"] if part == "nobody" else
                       d["point_cards"][c]["by_position"][part]) / (total * d["point_cards"][c].get("copies", 1))
                      for c in cards]
            legend[part] = ax.barh(cards, shares, left=left_edge, color=colour[part],
                                   label="nobody" if part == "nobody" else position_words(part))
            left_edge = [a + b for a, b in zip(left_edge, shares)]
        ax.invert_yaxis()
        ax.set(title=d["label"], xlabel="share of deals with a contract", xlim=(0, 1))
    for ax in axes[n:]:
        ax.set_visible(False)
    parts = [p for p in (*slots, "nobody") if p in legend]
    names = ["nobody" if p == "nobody" else position_words(p) for p in parts]
    fig.legend([legend[p] for p in parts], names, loc="outside lower center", ncols=min(len(names), 5),
               fontsize="small")
    fig.savefig(out / PLOTS[1], dpi=PLOT_DPI, metadata=metadata)

    # Seats: bids won and point-card points per deal, by seat from the dealer.
    fig = Figure(figsize=(9, 3.4), layout="constrained")
    left, right = fig.subplots(1, 2)
    for i, d in enumerate(data):
        sat = [k for k, p in enumerate(slots) if p in d["seats"]]  # a table of three has no partner
        seats = [d["seats"][slots[k]] for k in sat]
        at = [x + (i - (n - 1) / 2) * width for x in sat]
        won = [s["won_the_bid"] for s in seats]
        errs = [_errorbars(w["rate"], w["ci95"]) for w in won]
        left.bar(at, [w["rate"] or 0.0 for w in won], width=width, label=d["label"],
                 yerr=[[e[0] for e in errs], [e[1] for e in errs]], capsize=2)
        took = [s["card_points_per_deal"] for s in seats]
        errs = [_errorbars(t["mean"], t["ci95"]) for t in took]
        right.bar(at, [t["mean"] or 0.0 for t in took], width=width, label=d["label"],
                  yerr=[[e[0] for e in errs], [e[1] for e in errs]], capsize=2)
    for ax in (left, right):
        # the report's words fit four slots; more (cut-throat tables) take the short names (left2: 2nd to the left)
        ticks = [position_words(p) for p in slots] if len(slots) <= len(POSITIONS) else list(slots)
        ax.set_xticks(list(range(len(slots))), ticks, fontsize="small")
    left.set(title="Contracts won", ylabel="share of contracts")
    right.set(title="Point-card points captured", ylabel="points per contract")
    left.legend(fontsize="small")
    fig.savefig(out / PLOTS[2], dpi=PLOT_DPI, metadata=metadata)

    # Match length.
    fig = Figure(figsize=(6, 3.2), layout="constrained")
    ax = fig.subplots()
    hists = [{int(k): v for k, v in d["match_length"]["histogram"].items()} for d in data]
    # A rare endless match (all pass, deal after deal) would squeeze the rest into one corner: cut the axis
    # at the 95th percentile of the longest rule set, and say how many matches went beyond.
    cut = max((_percentile(h, 0.95) for h in hists if h), default=1)
    beyond = sum(v for h in hists for k, v in h.items() if k > cut)
    for d, hist in zip(data, hists):
        if not hist:
            continue
        lengths = range(min(hist), min(max(hist), cut) + 1)
        finished = max(1, d["match_length"]["finished"])
        ax.step(list(lengths), [hist.get(k, 0) / finished for k in lengths], where="mid", label=d["label"])
    title = "Deals per match" + (f" ({beyond} longer than {cut} not drawn)" if beyond else "")
    ax.set(title=title, xlabel="deals", ylabel="share of matches")
    ax.legend(fontsize="small")
    fig.savefig(out / PLOTS[3], dpi=PLOT_DPI, metadata=metadata)
    return list(PLOTS)


def _percentile(hist: Mapping[int, int], q: float) -> int:
    """The smallest value with at least ``q`` of a histogram's counts at or below it."""
    total, seen = sum(hist.values()), 0
    for value in sorted(hist):
        seen += hist[value]
        if seen >= q * total:
            return value
    return max(hist)


def write_report(study: StudyResult, out_dir: str | Path, fmt: str = "markdown") -> Path:
    """Write ``report.md`` (or ``report.html``), its plots and ``figures.json`` into ``out_dir``; returns the
    report's path."""
    if fmt not in REPORT_FORMATS:
        raise CinchError(f"unknown report format {quoted(fmt)}; the formats are {', '.join(REPORT_FORMATS)}")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    plots = write_plots(study, out)
    blocks = report_blocks(study, plots)
    path = out / ("report.md" if fmt == "markdown" else "report.html")
    path.write_text(render_markdown(blocks) if fmt == "markdown" else render_html(blocks), encoding="utf-8")
    (out / "figures.json").write_text(json.dumps(study.to_json(), indent=2) + "\n", encoding="utf-8")
    return path
