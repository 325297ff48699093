"""The duplicate arena: two bots play the same deals from both sides, so the luck of the cards cancels.

Deal pair ``i`` shuffles one deck from the run's seed and plays it twice: first
with bot A in N and S and bot B in E and W, then with the teams swapped (A in E
and W).  A's *net* on the pair is the mean, over its two deals, of A's side's
score change minus B's side's.  A pair's deck, dealer (``Seat(i % 4)``), new
stock (when one is formed) and each seat's bot seed depend only on the seed, the
pair and the seat, never on which bot sits there nor on the worker that plays
it: a bot against itself nets exactly 0, and a run gives the same results on
any number of workers.

With ``score=(48, 30)`` each deal is played as the next deal of a match at that
score: A's side has 48 in the pair's first deal (A in N and S), and the score stays
with the seats in the twin (B in N and S has the 48), so both bots meet the same
cards at the same score.  The deal may end the match; who won it is counted.

At a cut-throat table (``players`` 2, 3, 5 or 6: each plays for himself) a "pair" is a
set of as many deals as there are seats: one deck played with bot A in one seat and bot B
in every other, once with A in each seat in turn (seats ``1`` to ``n``), the dealer, the new
stock and each seat's bot seed the same in every leg.  A's net on a deal is A's score
change minus the mean of the other players' (B's), so that every seat, the dealer's and
the maker's included, is played by A once on every deck and a bot against itself nets
exactly 0 (the means are summed as fractions).  At two players this is the four-player
format's pair: A's change minus B's, the seats swapped.  One B in the seats around A
measures A against a table of B's, which is what a player sitting down with B's meets;
a start score (``score``) is for two sides only.  Matches are played the same way, a
match set per sequence of decks, and A's match win rate is to be read against its fair
share, 1 in n.

:func:`run_matches` (``matches=True``) plays whole matches to the target instead,
each twice from the same sequence of decks with the teams swapped, and reports the
match wins with a 95% Wilson interval (:func:`match_win_interval`).

>>> result = run_duplicate("basic", "basic", "pagat", deals=2, seed=1, workers=1)
>>> result.net_points_per_deal, result.ci95
(0.0, (0.0, 0.0))
>>> at = run_duplicate("basic", "basic", "pagat", deals=2, seed=1, workers=1, score=(58, 40))
>>> at.score_figures()["ended"] <= at.deals
True
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import json
import math
import random
import re
import sys
import time
import types
import typing
from array import array
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from cinch.actions import Action
from cinch.backends import Backend, backend_for
from cinch.bots.base import BOT_MODULES, BOTS, Bot, make_bot
from cinch.cards import ALL_CARDS, DECK_SIZE, Card, Team
from cinch.deal import DealResult
from cinch.errors import CinchError, quoted
from cinch.match import Match, teams_json
from cinch.record import dumps, to_record
from cinch.rules import Rules

__all__ = [
    "ArenaResult", "BotSpec", "DealStat", "LegOutcome", "PairOutcome", "Problem",
    "bot_class", "bot_accepts", "bot_options", "check_bot_option", "check_start_score", "derive_seed",
    "match_win_interval", "parse_option_value", "parse_score", "run_duplicate", "run_matches",
    "split_bot_options", "wilson_interval",
]

SIDES = ("a", "b")
# The 5-point cards the "Pedros" count: under all-hands Pedro (bowers) the left bower replaces the left Pedro.
# Sancho and Dom (9 and 3 points) are not Pedros here.
PEDROS = ("Right Pedro", "Left Pedro", "Left Bower")
MAX_MATCH_DEALS = 1000  # a match still undecided after this many deals counts as unfinished
PROBLEMS_KEPT = 1000  # problems logged in full; the counts are always exact
FORMAT = "cinch-arena/1"


# ---------------------------------------------------------------------------
# Bots and their options
# ---------------------------------------------------------------------------
def bot_class(name: str) -> type[Bot]:
    """The class ``make_bot(name)`` would build, loading its module on first use (raises CinchError)."""
    key = name.strip().lower()
    if key not in BOTS and key in BOT_MODULES:
        try:
            importlib.import_module(BOT_MODULES[key])
        except ImportError as e:
            # The bots with optional dependencies (OpenSpiel, numpy) come with the rl extra.
            missing = e.name or str(e)
            raise CinchError(f"bot {quoted(name)} needs a package that is not installed ({missing}); "
                             "pip install 'cinch[rl]'") from None
    if key not in BOTS:
        names = sorted(set(BOT_MODULES) | set(BOTS))
        raise CinchError(f"unknown bot {quoted(name)}; the bots are {', '.join(names)}")
    return BOTS[key]  # type: ignore[return-value]


_ANY = object()  # an option whose type the constructor does not say


def bot_options(cls: Callable[..., Bot]) -> dict[str, Any]:
    """The options a bot's constructor declares by name, each with the type it expects.

    A keyword parameter declares itself (its annotation, else its default's type, gives the type).
    A catch-all ``**params`` declares only the names of a ``PARAMS`` mapping of the bot's class
    or module, which is how the heuristic lists its tuning constants: it takes nothing else, so
    it is never taken to accept every option.  ``seed`` is not an option: the arena seeds the bots.
    """
    try:
        params = inspect.signature(cls).parameters
    except (TypeError, ValueError):
        return {}
    hints = _type_hints(cls)
    out: dict[str, Any] = {}
    for name, p in params.items():
        if name == "seed":
            continue
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
            out[name] = hints.get(name, _ANY if p.default in (p.empty, None) else type(p.default))
        elif p.kind is p.VAR_KEYWORD:
            module = sys.modules.get(getattr(cls, "__module__", ""))
            declared = getattr(cls, "PARAMS", None) or getattr(module, "PARAMS", None)
            if isinstance(declared, Mapping):
                for key, default in declared.items():
                    out.setdefault(key, hints.get(name, type(default)))
    return out


def _type_hints(cls: Callable[..., Bot]) -> dict[str, Any]:
    init = getattr(cls, "__init__", None)
    try:
        return typing.get_type_hints(init) if init is not None else {}
    except Exception:  # an annotation naming what only a type checker imports: go by the defaults
        return {}


def bot_accepts(cls: Callable[..., Bot], key: str) -> bool:
    """Whether the bot's constructor declares the keyword ``key`` (see :func:`bot_options`)."""
    return key in bot_options(cls)


def _fits(value: Any, hint: Any) -> bool:
    if hint is _ANY or hint is Any:
        return True
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return any(_fits(value, h) for h in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if isinstance(hint, type):
        return isinstance(value, hint)
    return True  # a type too rich to check here: the constructor judges


def _type_words(hint: Any) -> str:
    """``float | None`` -> ``a number or none``."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return " or ".join(_type_words(h) for h in typing.get_args(hint))
    words = {int: "a whole number", float: "a number", str: "text", bool: "true or false", type(None): "none"}
    return words.get(hint, getattr(hint, "__name__", str(hint)))


def _value_text(value: Any) -> str:
    """A value as it is written on the command line: ``abc``, ``0.5``, ``true``, ``none``."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


def check_bot_option(name: str, key: str, value: Any) -> None:
    """Refuse an option the bot does not declare, or a value not of the type it declares (CinchError)."""
    if key == "seed":
        raise CinchError("bot option seed: the arena seeds every bot from --seed")
    declared = bot_options(bot_class(name))
    if key not in declared:
        raise CinchError(f"bot {quoted(name)} does not take the option {quoted(key)}; {_takes(name, declared)}")
    if not _fits(value, declared[key]):
        raise CinchError(f"bot option {key}={_value_text(value)}: {name} takes {_type_words(declared[key])} "
                         f"for {key}")


def _takes(name: str, declared: Mapping[str, Any]) -> str:
    return f"{name} takes {', '.join(declared)}" if declared else f"{name} takes no options"


def parse_option_value(text: str) -> Any:
    """``200`` -> 200, ``0.5`` -> 0.5, ``true`` -> True, ``none`` -> None, anything else stays text."""
    low = text.strip().lower()
    if low in ("none", "null"):
        return None
    if low in ("true", "false"):
        return low == "true"
    try:
        return json.loads(text)
    except ValueError:
        return text.strip()


def split_bot_options(
    name_a: str, name_b: str, options: Mapping[str, Any], time_budget: float | None = None,
) -> tuple[dict[str, Any], dict[str, Any], list[str]]:
    """Give each bot the options its constructor declares, checked against the types it declares.

    Returns A's options, B's options and notes for the user: an option that one bot takes and
    the other ignores is said so.  An option that neither bot takes is an error (a typo, most
    likely); a time budget that neither takes is only a note.
    """
    cls_a, cls_b = bot_class(name_a), bot_class(name_b)
    declared_a, declared_b = bot_options(cls_a), bot_options(cls_b)
    opts_a: dict[str, Any] = {}
    opts_b: dict[str, Any] = {}
    notes: list[str] = []
    wanted = dict(options)
    if time_budget is not None:
        wanted["time_budget"] = time_budget
    for key, value in wanted.items():
        if key == "seed":
            check_bot_option(name_a, key, value)  # refused: the arena seeds the bots
        from_flag = key == "time_budget" and time_budget is not None
        given = f"--time-per-decision {_value_text(value)}" if from_flag else f"--bot-option {key}={_value_text(value)}"
        takers = []
        for name, declared, opts, side in ((name_a, declared_a, opts_a, "A"), (name_b, declared_b, opts_b, "B")):
            if key in declared:
                check_bot_option(name, key, value)
                opts[key] = value
                takers.append((name, side))
        if not takers:
            if from_flag:
                notes.append(f"neither {name_a} nor {name_b} takes a time budget: --time-per-decision is ignored")
                continue
            raise CinchError(f"bot option {quoted(key)} is accepted by neither {name_a} nor {name_b} "
                             f"({_takes(name_a, declared_a)}; {_takes(name_b, declared_b)})")
        if len(takers) == 1 and name_a.strip().lower() != name_b.strip().lower():
            (taker, side), = takers
            other, other_side = (name_b, "B") if side == "A" else (name_a, "A")
            notes.append(f"{given} goes to {taker} ({side}); {other} ({other_side}) does not take it and plays "
                         "without it")
    return opts_a, opts_b, notes


@dataclass(frozen=True)
class BotSpec:
    """A bot by name with the options given to its constructor."""

    name: str
    options: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, bot: str | BotSpec, options: Mapping[str, Any] | None = None) -> BotSpec:
        if isinstance(bot, BotSpec):
            return bot if not options else cls(bot.name, tuple({**dict(bot.options), **options}.items()))
        return cls(bot.strip().lower(), tuple((options or {}).items()))

    def make(self, seed: int | None) -> Bot:
        return make_bot(self.name, seed=seed, **dict(self.options))

    def check(self, rules: Rules | None = None) -> None:
        """Check the options and build the bot once, so that a bad option fails before any deal is played;
        with ``rules``, also that the bot plays them."""
        cls = bot_class(self.name)
        if rules is not None:
            cls.check_rules(rules)
        for key, value in self.options:
            check_bot_option(self.name, key, value)
        try:
            self.make(0)
        except CinchError:
            raise
        except ValueError as e:  # a bot refusing an option value, in its own words
            shown = ", ".join(f"{k}={_value_text(v)}" for k, v in self.options) or "no options"
            raise CinchError(f"bot {quoted(self.name)} cannot be made with {shown}: {e}") from None
        except Exception as e:
            shown = ", ".join(f"{k}={_value_text(v)}" for k, v in self.options) or "no options"
            raise CinchError(f"bot {quoted(self.name)} cannot be made with {shown}: {type(e).__name__}: {e}") from None


# ---------------------------------------------------------------------------
# Seeds
# ---------------------------------------------------------------------------
def derive_seed(seed: int, *parts: object) -> int:
    """A 63-bit seed for one purpose of one run (``derive_seed(7, "deck", 12)``), the same on every machine."""
    text = ":".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> 1


def seeded_deck(decks: int, seed: int, *parts: object) -> list[Card]:
    """The deck of one pack (or two, ``decks=2``) shuffled by the seed of ``parts``, the same on every machine."""
    deck = list(ALL_CARDS[:DECK_SIZE * decks])
    random.Random(derive_seed(seed, *parts)).shuffle(deck)
    return deck


# ---------------------------------------------------------------------------
# Deals at a given score
# ---------------------------------------------------------------------------
_SCORE = re.compile(r"\s*([+-]?\d+)\s*[-:/, ]\s*([+-]?\d+)\s*")


def parse_score(text: str) -> tuple[int, int]:
    """``"48-30"`` -> (48, 30): A's side's score, then B's (also ``48:30``; ``-5:10`` for a negative score).

    >>> parse_score("48-30"), parse_score("-5--10"), parse_score("0:0")
    ((48, 30), (-5, -10), (0, 0))
    """
    m = _SCORE.fullmatch(text)
    if m is None:
        raise CinchError(f"--score {quoted(text)}: write the two sides' scores as A-B, A's side first, for example "
                         "48-30")
    return int(m.group(1)), int(m.group(2))


def check_start_score(rules: Rules, score: tuple[int, int]) -> None:
    """Refuse a score at which the match is already over under ``rules`` (CinchError), or a table
    of more than two sides, where two numbers cannot say everyone's score."""
    a, b = score
    if rules.seating.sides != 2:
        raise CinchError(f"a start score is for two sides (four players in partnerships, or two); at {rules.players} "
                         "players each plays for himself: leave out the score")
    for side, value in (("A", a), ("B", b)):
        if value >= rules.target:
            raise CinchError(f"score {a}-{b}: {side}'s side has reached the target ({rules.target}), so the match "
                             f"would be over; give scores below {rules.target}")
    floor = rules.negative_floor
    if floor is not None and (a <= floor) != (b <= floor):
        raise CinchError(f"score {a}-{b}: one side is at or below the floor ({floor}), so the match would be over")


# ---------------------------------------------------------------------------
# Outcomes
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class DealStat:
    """One deal seen from side A."""

    a_change: int  # A's side's score change
    b_total: int  # B's side's; cut-throat at three to six, the sum of the other players' (every other is a B)
    thrown_in: bool
    maker_side: str | None  # "a" or "b"
    bid: int | None
    made: bool | None
    pedros_a: int  # Pedros (the 5-point cards: under bowers the right Pedro and the left bower) awarded to A's side
    pedros_b: int
    others: int = 1  # the B sides: 1, or cut-throat at three to six the other players

    @property
    def b_change(self) -> float:
        """B's side's score change; cut-throat, the mean of the other players'."""
        return self.b_total if self.others == 1 else self.b_total / self.others

    @property
    def exact_net(self) -> Fraction:
        """A's change less B's, exactly (a mean of the others' need not be whole), so that sums cancel exactly."""
        return Fraction(self.a_change * self.others - self.b_total, self.others)

    @property
    def net(self) -> float:
        return float(self.exact_net)

    @classmethod
    def of(cls, r: DealResult, a_team: Team) -> DealStat:
        """The deal from side A's view; ``a_team`` is A's side (a team at four, A's own seat cut-throat).

        With more than two sides, B's change is the mean of the other players' (each a B).
        """
        a = r.score_change[a_team]
        others = [c for side, c in enumerate(r.score_change) if side != a_team]
        b, n = sum(others), len(others)
        if r.thrown_in:
            return cls(a, b, True, None, None, None, 0, 0, n)
        pa = sum(1 for w in r.awards if w.name in PEDROS and w.team == a_team)
        pb = sum(1 for w in r.awards if w.name in PEDROS and w.team != a_team)
        side = "a" if r.makers == a_team else "b"
        return cls(a, b, False, side, r.bid, r.made, pa, pb, n)


@dataclass(frozen=True)
class LegOutcome:
    """One of a pair's two plays: a deal (or a match) with A's side in ``a_seats``."""

    a_seats: str  # where A sat: "NS" or "EW" at four; cut-throat, A's seat ("1" to "n")
    deals: tuple[DealStat, ...]
    winner: str | None = None  # who won the match: "a", "b", or None (unfinished, or a deal that did not end it)
    record: str | None = None  # the record's path, relative to the output folder

    @property
    def net(self) -> float:
        return float(sum(d.exact_net for d in self.deals))


@dataclass(frozen=True)
class PairOutcome:
    """One deck (or one sequence of decks) played with A on every side in turn: two legs at four
    (A in N and S, then in E and W), one leg per seat cut-throat (A in seat 1, then 2, ...)."""

    index: int
    dealer: str  # the (first) dealer of every leg
    legs: tuple[LegOutcome, ...]

    @property
    def net(self) -> float:
        """A's score change minus B's, summed over every deal of every leg."""
        return float(sum(d.exact_net for leg in self.legs for d in leg.deals))

    @property
    def deals(self) -> int:
        return sum(len(leg.deals) for leg in self.legs)

    def to_json(self) -> dict[str, Any]:
        return {
            "pair": self.index,
            "dealer": self.dealer,
            "net_per_deal": self.net / self.deals,
            "deals": self.deals,
            "legs": [{"a_seats": leg.a_seats, "net": leg.net, "deals": len(leg.deals),
                      "a_change": sum(d.a_change for d in leg.deals),
                      "b_change": sum(d.b_change for d in leg.deals),
                      "winner": leg.winner, "record": leg.record} for leg in self.legs],
        }


@dataclass(frozen=True)
class Problem:
    """A decision a bot got wrong: it raised (``crashed``) or returned an action not legal there."""

    pair: int
    leg: str  # "A-NS" or "A-EW"; cut-throat "A-1", "A-2", ...
    deal: int  # deal number within the leg (1 for single deals)
    action: int  # action number within the deal
    seat: str
    side: str
    bot: str
    kind: str  # "crashed" or "illegal"
    detail: str

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


# ---------------------------------------------------------------------------
# Playing (in the worker processes)
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class _Job:
    a: BotSpec
    b: BotSpec
    rules: Any  # Rules.to_json(): plain data, cheap to send
    seed: int
    matches: bool
    out_dir: str | None
    score: tuple[int, int] | None = None  # by side at the start of every single deal (deal mode; two sides)


@dataclass
class _ChunkResult:
    pairs: list[PairOutcome] = field(default_factory=list)
    times: dict[str, array] = field(default_factory=lambda: {"a": array("d"), "b": array("d")})
    counts: dict[str, dict[str, int]] = field(
        default_factory=lambda: {s: {"illegal": 0, "crashed": 0} for s in SIDES})
    problems: list[Problem] = field(default_factory=list)


class _Player:
    """Plays the pairs of one chunk, collecting times and problems."""

    def __init__(self, job: _Job, out: _ChunkResult):
        self.job = job
        self.rules = Rules.from_json(job.rules)
        self.out = out

    def pair(self, index: int) -> PairOutcome:
        table = self.rules.seating
        legs = tuple(self.leg(index, side) for side in table.side_list)  # A on each side in turn
        return PairOutcome(index, table.seats[index % table.players].name, legs)

    def leg(self, index: int, a_team: Team) -> LegOutcome:
        job, seed = self.job, self.job.seed
        kind = "match" if job.matches else "deal"
        table = self.rules.seating
        first = table.seats[index % table.players]
        bots, fallbacks = {}, {}
        for seat in table.seats:
            spec = job.a if seat.team == a_team else job.b
            bots[seat] = spec.make(derive_seed(seed, kind, "bot", index, int(seat)))
            fallbacks[seat] = random.Random(derive_seed(seed, kind, "fallback", index, int(seat)))
        leg_name = f"A-{a_team.name}"
        # No player names: views are the same in both legs.  A start score belongs to the seats, not
        # to the bots: both legs start NS-EW the same, so in the twin B holds the cards and the score A held.
        start = job.score if job.score is not None and not job.matches else None  # None: 0 for every side
        match = Match(self.rules, first_dealer=first, rng=0, score=start)
        stats = []
        if not job.matches:
            match.rng = random.Random(derive_seed(seed, "deal", "restock", index))
            match.start_deal(deck=seeded_deck(self.rules.decks, seed, "deal", "deck", index))
            self.play_deal(match, bots, fallbacks, a_team, index, leg_name)
            result = match.deals[-1].result
            assert result is not None  # played to its end
            stats.append(DealStat.of(result, a_team))
        else:
            while not match.is_over and len(match.deals) < MAX_MATCH_DEALS:
                k = len(match.deals)
                match.rng = random.Random(derive_seed(seed, "match", "restock", index, k))
                match.start_deal(deck=seeded_deck(self.rules.decks, seed, "match", "deck", index, k))
                self.play_deal(match, bots, fallbacks, a_team, index, leg_name)
                result = match.deals[-1].result
                assert result is not None  # played to its end
                stats.append(DealStat.of(result, a_team))
        winner = None
        if match.winner is not None:
            winner = "a" if match.winner == a_team else "b"
        record = self.save(match, index, a_team) if job.out_dir is not None else None
        return LegOutcome(a_team.name, tuple(stats), winner, record)

    def play_deal(self, match: Match, bots, fallbacks, a_team: Team, index: int, leg_name: str) -> None:
        deal = match.deals[-1]
        times, counts = self.out.times, self.out.counts
        for seat in match.turns():
            side = "a" if seat.team == a_team else "b"
            view = match.view(seat)
            problem = None
            start = time.perf_counter()
            try:
                action = bots[seat].choose(view)
            except Exception as e:  # a bot's bug must not stop the run
                times[side].append(time.perf_counter() - start)
                problem = ("crashed", f"{type(e).__name__}: {e}")
            else:
                times[side].append(time.perf_counter() - start)
                try:
                    legal = isinstance(action, Action) and deal.is_legal(action)
                except Exception:
                    legal = False
                if not legal:
                    problem = ("illegal", f"returned {_show(action)}, which is not legal here")
            if problem is not None:
                counts[side][problem[0]] += 1
                if len(self.out.problems) < PROBLEMS_KEPT:
                    spec = self.job.a if side == "a" else self.job.b
                    self.out.problems.append(Problem(
                        index, leg_name, len(match.deals), len(deal.history) + 1, seat.name, side, spec.name,
                        problem[0], problem[1][:300]))
                action = fallbacks[seat].choice(view.legal)  # the run goes on with a random legal action
            match.apply(action, seat)

    def save(self, match: Match, index: int, a_team: Team) -> str:
        job = self.job
        match.players = {s: f"{job.a.name if s.team == a_team else job.b.name} ({'A' if s.team == a_team else 'B'})"
                         for s in self.rules.seating.seats}
        meta: dict[str, Any] = {"pair": index, "a_seats": a_team.name, "bot_a": job.a.name, "bot_b": job.b.name,
                                "seed": job.seed, "mode": "matches" if job.matches else "deals"}
        if job.score is not None:
            # A record replays from 0 to 0; the score the deal was played at is kept here.
            meta["start_score"] = teams_json(job.score, self.rules.seating)
        rel = record_path(index, a_team.name)
        path = Path(job.out_dir) / rel  # type: ignore[arg-type]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dumps(to_record(match, arena=meta)), encoding="utf-8")
        return rel


def record_path(index: int, a_seats: str) -> str:
    """Where pair ``index``'s record with A in ``a_seats`` is saved, relative to the output folder."""
    return f"records/{index // 1000:03d}/{index:06d}-A-{a_seats}.json"


def _show(action: object) -> str:
    try:
        return repr(str(action)) if isinstance(action, Action) else repr(action)[:100]
    except Exception:
        return f"a {type(action).__name__} that cannot be shown"


def _run_chunk(job: _Job, start: int, stop: int) -> _ChunkResult:
    out = _ChunkResult()
    player = _Player(job, out)
    for index in range(start, stop):
        out.pairs.append(player.pair(index))
    return out


# ---------------------------------------------------------------------------
# Statistics
# ---------------------------------------------------------------------------
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
         2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
         2.045, 2.042)


def t975(df: int) -> float:
    """The 97.5% quantile of Student's t (a two-sided 95% interval); 1.96 in the limit."""
    if df < 1:
        raise ValueError("degrees of freedom must be at least 1")
    if df <= len(_T975):
        return _T975[df - 1]
    z = 1.959964
    return (z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3))


def ratio_interval(totals: list[float], counts: list[int]) -> tuple[float, tuple[float, float] | tuple[None, None]]:
    """Mean per unit (sum of totals / sum of counts) and its 95% t interval over the pairs.

    With a count of 2 for every pair (single deals) this is the usual interval
    mean +- t * sd / sqrt(pairs) of the pair means.
    """
    m = len(totals)
    n = sum(counts)
    mean = sum(totals) / n if n else 0.0
    if m < 2:
        return mean, (None, None)
    nbar = n / m
    ss = math.fsum((x - mean * k) ** 2 for x, k in zip(totals, counts))
    se = math.sqrt(ss / (m - 1) / m) / nbar
    half = t975(m - 1) * se
    return mean, (mean - half, mean + half)


Z975 = 1.959964  # the normal quantile of a two-sided 95% interval


def wilson_interval(rate: float, n: float, z: float = Z975) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``rate`` observed over ``n`` trials.

    ``n`` may be fractional (an effective number of trials).  Unlike the normal
    interval it never leaves 0..1 and does not collapse at 0% or 100%.

    >>> low, high = wilson_interval(0.8, 10)
    >>> round(low, 3), round(high, 3)
    (0.49, 0.943)
    """
    if n <= 0:
        raise ValueError("a proportion needs at least one trial")
    k = z * z / n
    centre = (rate + k / 2) / (1 + k)
    half = z / (1 + k) * math.sqrt(max(0.0, rate * (1 - rate)) / n + k / (4 * n))
    # The interval always holds the rate; min and max only undo rounding (1 - 1e-16 at 100%).
    return max(0.0, min(rate, centre - half)), min(1.0, max(rate, centre + half))


def match_win_interval(pair_scores: Sequence[float], per_pair: int = 2) -> tuple[float, tuple[float, float], float]:
    """A's match win rate, its 95% Wilson interval and the effective number of matches behind it.

    ``pair_scores``: per duplicate pair, the share of its ``per_pair`` matches that A won
    (an unfinished match counts half).  The rate is their mean.  The two matches of a pair
    share their decks, so they are not independent trials; the pairs are.  The interval
    is Wilson's, with the matches counted at their effective number: the binomial variance
    of the rate over the variance the pairs show (Kish's design effect), never more than the
    matches played (as in Korn and Graubard's intervals for clustered samples).  When the
    pairs show no variance at all (every pair ended alike, or one pair) every match counts,
    so a 100% rate still gets an interval below it.

    >>> rate, (low, high), n = match_win_interval([1.0] * 10)
    >>> rate, round(low, 3), high, n
    (1.0, 0.839, 1.0, 20.0)
    """
    m = len(pair_scores)
    if m == 0:
        raise ValueError("no pairs")
    played = float(per_pair * m)
    rate = math.fsum(pair_scores) / m
    n = played
    spread = rate * (1 - rate)
    if m > 1 and spread > 0:
        var = math.fsum((x - rate) ** 2 for x in pair_scores) / (m - 1) / m  # of the rate, from the pairs
        if var > 0:
            n = min(played, spread / var)
    return rate, wilson_interval(rate, n), n


def _quantile(data: list[float], q: float) -> float:
    """Linear interpolation between the closest ranks of sorted ``data``."""
    if not data:
        return 0.0
    pos = q * (len(data) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(data) - 1)
    return data[lo] + (data[hi] - data[lo]) * (pos - lo)


# ---------------------------------------------------------------------------
# The result
# ---------------------------------------------------------------------------
@dataclass
class ArenaResult:
    """Everything one arena run found; ``to_json()`` for programs, ``to_markdown()`` for people."""

    bot_a: str
    bot_b: str
    options_a: dict[str, Any]
    options_b: dict[str, Any]
    rules: Rules
    mode: str  # "deals" or "matches"
    seed: int
    workers: int
    pairs: list[PairOutcome]
    times: dict[str, array]  # seconds per decision, per side
    counts: dict[str, dict[str, int]]  # illegal and crashed decisions per side
    problems: list[Problem]
    elapsed_s: float = 0.0
    out_dir: str | None = None
    score: tuple[int, int] | None = None  # deals at a score: A's side's and B's in each pair's first deal
    backend: str = "process"  # where the chunks ran: "process" or "ray" (cinch.backends)
    where: str = ""  # the workers, in words: "2 workers", "4 workers on Ray"

    # ---- the figures -----------------------------------------------------
    @property
    def deals(self) -> int:
        return sum(p.deals for p in self.pairs)

    @property
    def all_deals(self) -> list[DealStat]:
        return [d for p in self.pairs for leg in p.legs for d in leg.deals]

    def _net(self) -> tuple[float, tuple[float, float] | tuple[None, None]]:
        return ratio_interval([p.net for p in self.pairs], [p.deals for p in self.pairs])

    @property
    def net_points_per_deal(self) -> float:
        """A's side's score change minus B's, averaged over every deal played."""
        return self._net()[0]

    @property
    def ci95(self) -> tuple[float, float] | tuple[None, None]:
        return self._net()[1]

    def contracts(self) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        deals = self.all_deals
        for side in SIDES:
            mine = [d for d in deals if d.maker_side == side]
            bids = [d.bid for d in mine if d.bid is not None]
            out[side] = {
                "made": sum(1 for d in mine if d.made),
                "set": sum(1 for d in mine if not d.made),
                "average_bid": sum(bids) / len(bids) if bids else None,
            }
        return out

    def pedros(self) -> dict[str, int]:
        deals = self.all_deals
        return {"captured_by_a": sum(d.pedros_a for d in deals), "lost_by_a": sum(d.pedros_b for d in deals)}

    def thrown_in(self) -> int:
        return sum(1 for d in self.all_deals if d.thrown_in)

    def think_time_ms(self) -> dict[str, dict[str, Any]]:
        out = {}
        for side in SIDES:
            data = sorted(self.times[side])
            out[side] = {
                "decisions": len(data),
                "mean": 1000 * sum(data) / len(data) if data else 0.0,
                "p50": 1000 * _quantile(data, 0.50),
                "p95": 1000 * _quantile(data, 0.95),
                "p99": 1000 * _quantile(data, 0.99),
                "max": 1000 * data[-1] if data else 0.0,
            }
        return out

    def match_figures(self) -> dict[str, Any] | None:
        """With matches: each side's match wins, A's win rate with its 95% Wilson interval, the matches' length."""
        if self.mode != "matches":
            return None
        legs = [leg for p in self.pairs for leg in p.legs]
        scores = [sum(1.0 if leg.winner == "a" else 0.5 if leg.winner is None else 0.0 for leg in p.legs) / len(p.legs)
                  for p in self.pairs]
        rate, ci, effective = match_win_interval(scores, per_pair=len(self.pairs[0].legs) if self.pairs else 2)
        return {
            "pairs": len(self.pairs),
            "played": len(legs),
            "a_wins": sum(1 for leg in legs if leg.winner == "a"),
            "b_wins": sum(1 for leg in legs if leg.winner == "b"),
            "unfinished": sum(1 for leg in legs if leg.winner is None),
            "win_rate_a": rate,
            "ci95": list(ci),
            "ci95_method": "wilson",
            "effective_matches": effective,
            "pairs_swept": {side: sum(1 for p in self.pairs if all(leg.winner == side for leg in p.legs))
                            for side in SIDES},
            "average_deals": sum(len(leg.deals) for leg in legs) / len(legs) if legs else 0.0,
        }

    def score_figures(self) -> dict[str, Any] | None:
        """With deals at a score: how often the deal ended the match and who won it, by the score A's side had.

        ``by_start`` has two entries: the pairs' first deals (A's side at ``score[0]``) and their
        twins (A's side at ``score[1]``, B's side holding the first deal's cards and score).
        """
        if self.score is None or self.mode != "deals":
            return None
        a, b = self.score
        threshold = self.rules.bidder_goes_out
        by_start = []
        for k, (mine, theirs) in enumerate(((a, b), (b, a))):
            legs = [p.legs[k] for p in self.pairs]
            by_start.append({"a_score": mine, "b_score": theirs, "deals": len(legs),
                             "a_wins": sum(1 for leg in legs if leg.winner == "a"),
                             "b_wins": sum(1 for leg in legs if leg.winner == "b")})
        a_wins = sum(x["a_wins"] for x in by_start)
        b_wins = sum(x["b_wins"] for x in by_start)
        return {
            "score": [a, b],
            "target": self.rules.target,
            "bidder_goes_out": threshold is not None and min(a, b) >= threshold,
            "deals": self.deals,
            "ended": a_wins + b_wins,
            "a_wins": a_wins,
            "b_wins": b_wins,
            "by_start": by_start,
        }

    @property
    def command(self) -> str:
        """The command line that repeats this run."""
        parts = ["cinch", "arena", self.bot_a, self.bot_b, "--rules", self.rules.preset_name]
        spec = self.rules.to_json()
        if isinstance(spec, dict):
            for key, value in spec.items():
                if key != "preset":
                    shown = "none" if value is None else str(value).lower() if isinstance(value, bool) else value
                    parts += ["-o", f"{key}={shown}"]
        count = "--matches" if self.mode == "matches" else "--deals"
        parts += [count, str(len(self.pairs)), "--seed", str(self.seed)]
        if self.score is not None and self.mode == "deals":
            parts += ["--score", f"{self.score[0]}-{self.score[1]}"]
        shared = {**self.options_b, **self.options_a}  # each option went to every bot that takes it
        budget = shared.pop("time_budget", None)
        if budget is not None:
            parts += ["--time-per-decision", str(budget)]
        for key, value in shared.items():
            parts += ["--bot-option", f"{key}={value}"]
        return " ".join(parts)

    def workers_text(self) -> str:
        return f"{self.workers} worker{'s' if self.workers != 1 else ''}"

    # ---- output -------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        net, ci = self._net()
        deals = self.all_deals
        n = len(deals)
        return {
            "format": FORMAT,
            "bot_a": self.bot_a,
            "bot_b": self.bot_b,
            "bot_options": {"a": self.options_a, "b": self.options_b},
            "rules": self.rules.to_json(),
            "mode": self.mode,
            "pairs": len(self.pairs),
            "deals": n,
            "seed": self.seed,
            "net_points_per_deal": net,
            "ci95": list(ci),
            "score_change_per_deal": {
                "a": sum(d.a_change for d in deals) / n if n else 0.0,
                "b": sum(d.b_change for d in deals) / n if n else 0.0,
            },
            "thrown_in": self.thrown_in(),
            "contracts": self.contracts(),
            "pedros": self.pedros(),
            "think_time_ms": self.think_time_ms(),
            "problems": {side: dict(self.counts[side]) for side in SIDES},
            "problem_examples": [p.to_json() for p in self.problems[:20]],
            "matches": self.match_figures(),
            "start_score": None if self.score is None else list(self.score),
            "match_ends": self.score_figures(),
            "workers": self.workers,
            "backend": self.backend,
            "elapsed_s": self.elapsed_s,
            "out_dir": self.out_dir,
            "command": self.command,
        }

    def to_markdown(self) -> str:
        net, ci = self._net()
        a, b = self.bot_a, self.bot_b
        label_a, label_b = f"{a} (A)", f"{b} (B)"
        unit = "match" if self.mode == "matches" else "deal"
        table = self.rules.seating
        sets = "pairs" if table.sides == 2 else f"sets ({a} in each of the {table.players} seats in turn)"
        title = f"### {a} vs {b}: {self.rules.name}, {len(self.pairs)} duplicate {unit} {sets}"
        sf = self.score_figures()
        if sf is not None:
            title += f" at {_score_text(self.score)}"
        lines = [title, ""]
        m = self.match_figures()
        if m is not None:  # the match wins first: they are what --matches is for
            low, high = m["ci95"]
            group, every = ("pairs", "both matches of a pair") if table.sides == 2 else ("sets", "every match of a set")
            lines.append(f"Matches won: {label_a} **{m['a_wins']}**, {label_b} **{m['b_wins']}**, unfinished "
                         f"{m['unfinished']}, of {m['played']} matches ({m['pairs']} duplicate {group}; {every} "
                         f"won by {a} in {m['pairs_swept']['a']}, by {b} in {m['pairs_swept']['b']}).")
            lines.append("")
            fair = "" if table.sides == 2 else f", against a fair share of {100 / table.players:.1f}%"
            lines.append(f"Match win rate for {a}: **{100 * m['win_rate_a']:.1f}%** (95% Wilson interval "
                         f"{100 * low:.1f}% to {100 * high:.1f}%, over {m['effective_matches']:.1f} effective "
                         f"matches{fair}); {m['average_deals']:.1f} deals a match on average.")
            lines.append("")
        interval = ("no interval from one pair" if ci[0] is None
                    else f"95% CI {_signed(ci[0])} to {_signed(ci[1])}")
        against = f"{b} (B)" if table.sides == 2 else f"the mean of the {table.players - 1} {b}s (B) at the table"
        lines.append(f"Net points per deal for {a} (A) against {against}: **{_signed(net)}** ({interval}), "
                     f"over {self.deals} deals.")
        if sf is not None:
            bgo = ", under bidder goes out" if sf["bidder_goes_out"] else ""
            twin = sf["by_start"][1]
            lines += ["", f"Each deal was the next deal of a match (target {sf['target']}{bgo}): at "
                      f"{_score_text(self.score)} for {label_a} in each pair's first deal, at "
                      f"{_score_text((twin['a_score'], twin['b_score']))} in its twin, where {label_b} holds the "
                      f"same cards at the same score. The deal ended the match in **{sf['ended']}** of "
                      f"{sf['deals']} deals:", "",
                      f"| start ({a}\u2013{b}) | deals | won by {label_a} | won by {label_b} |",
                      "| --- | ---: | ---: | ---: |"]
            lines += [f"| {_score_text((x['a_score'], x['b_score']))} | {x['deals']} | {x['a_wins']} | {x['b_wins']} |"
                      for x in sf["by_start"]]
            lines.append(f"| all | {sf['deals']} | **{sf['a_wins']}** | **{sf['b_wins']}** |")
        c = self.contracts()
        ped = self.pedros()
        tt = self.think_time_ms()
        deals = self.all_deals
        n = max(1, len(deals))

        def bid(side: str) -> str:
            v = c[side]["average_bid"]
            return "-" if v is None else f"{v:.2f}"

        def made_pct(side: str) -> str:
            total = c[side]["made"] + c[side]["set"]
            return "-" if not total else f"{100 * c[side]['made'] / total:.1f}%"

        def think(side: str) -> str:
            t = tt[side]
            return f"{_ms(t['p50'])} / {_ms(t['p95'])} / {_ms(t['p99'])} / {_ms(t['max'])}"

        rows = [
            ("Score change per deal", f"{sum(d.a_change for d in deals) / n:+.2f}",
             f"{sum(d.b_change for d in deals) / n:+.2f}"),
            ("Contracts made", str(c["a"]["made"]), str(c["b"]["made"])),
            ("Contracts set", str(c["a"]["set"]), str(c["b"]["set"])),
            ("Made, of contracts", made_pct("a"), made_pct("b")),
            ("Average winning bid", bid("a"), bid("b")),
            ("Pedros captured", str(ped["captured_by_a"]), str(ped["lost_by_a"])),
            ("Think time p50 / p95 / p99 / max (ms)", think("a"), think("b")),
            ("Illegal / crashed decisions", f"{self.counts['a']['illegal']} / {self.counts['a']['crashed']}",
             f"{self.counts['b']['illegal']} / {self.counts['b']['crashed']}"),
        ]
        lines += ["", f"| | {label_a} | {label_b} |", "| --- | ---: | ---: |"]
        lines += [f"| {name} | {x} | {y} |" for name, x, y in rows]
        if table.sides != 2:
            lines += ["", f"{label_b}'s score change is a player's (the mean of the {table.players - 1}); its "
                      "contracts, Pedros and decisions are all of theirs together."]
        lines += ["", f"Thrown-in deals: {self.thrown_in()} of {len(deals)}. "
                  f"{self.where or self.workers_text()}, {self.elapsed_s:.1f} s.",
                  "", f"Run: `{self.command}`"]
        return "\n".join(lines) + "\n"

    def save(self, out_dir: str | Path) -> None:
        """Write summary.json, summary.md, pairs.jsonl and (if any) problems.jsonl into ``out_dir``."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        (out / "summary.json").write_text(json.dumps(self.to_json(), indent=2) + "\n", encoding="utf-8")
        (out / "summary.md").write_text(self.to_markdown(), encoding="utf-8")
        with (out / "pairs.jsonl").open("w", encoding="utf-8") as f:
            for p in self.pairs:
                f.write(json.dumps(p.to_json()) + "\n")
        if self.problems:
            with (out / "problems.jsonl").open("w", encoding="utf-8") as f:
                for problem in self.problems:
                    f.write(json.dumps(problem.to_json()) + "\n")


def _score_text(score: tuple[int, int] | None) -> str:
    assert score is not None
    return f"{score[0]}\u2013{score[1]}"


def _signed(x: float) -> str:
    return f"{x:+.2f}" if x else "0.00"


def _ms(x: float) -> str:
    return f"{x:.3g}" if x < 100 else f"{x:.0f}"


# ---------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------
ProgressFn = Callable[[int, int, int, float], None]
"""``progress(pairs_done, pairs_total, deals_played, net_so_far)``: net_so_far is A's minus B's score change."""


def run_duplicate(
    bot_a: str | BotSpec,
    bot_b: str | BotSpec,
    rules: Rules | str = "pagat",
    deals: int = 100,
    seed: int = 0,
    workers: int | None = None,
    *,
    matches: bool = False,
    out_dir: str | Path | None = None,
    save_records: bool = True,
    options_a: Mapping[str, Any] | None = None,
    options_b: Mapping[str, Any] | None = None,
    chunk_size: int | None = None,
    progress: ProgressFn | None = None,
    score: tuple[int, int] | None = None,
    backend: str | Backend = "process",
    address: str | None = None,
) -> ArenaResult:
    """Play ``deals`` duplicate pairs (of deals, or of matches with ``matches=True``) of A against B.

    ``workers``: processes to use (None: every core; 1 plays in this process).
    ``backend``: ``process`` (a process pool) or ``ray`` (a local Ray, or the cluster at
    ``address``), or a :class:`~cinch.backends.Backend` already made; the results are the
    same on every backend (:mod:`cinch.backends`).
    ``out_dir``: where to save each leg's ``cinch/1`` record (unless ``save_records``
    is false) and the summary; None saves nothing.  The result is the same for
    any ``workers`` and ``chunk_size``, except the think times.
    ``score``: single deals only; each deal is the next deal of a match at this score,
    A's side's first (in each pair's first deal; the twin gives it to B's side with
    the cards).  The same seed deals the same decks at any score.
    """
    if isinstance(rules, str):
        rules = Rules.preset(rules)
    if deals < 1:
        raise CinchError(f"{'matches' if matches else 'deals'} must be at least 1, not {deals}")
    if score is not None:
        if matches:
            raise CinchError("a start score is for single deals: a match starts at 0 to 0")
        score = (int(score[0]), int(score[1]))
        check_start_score(rules, score)
    if workers is not None and workers < 1:
        raise CinchError(f"workers must be at least 1, not {workers}")
    spec_a, spec_b = BotSpec.of(bot_a, options_a), BotSpec.of(bot_b, options_b)
    spec_a.check(rules)
    spec_b.check(rules)
    if out_dir is not None:
        Path(out_dir).mkdir(parents=True, exist_ok=True)
    records_dir = str(out_dir) if out_dir is not None and save_records else None
    job = _Job(spec_a, spec_b, rules.to_json(), seed, matches, records_dir, score)
    started = time.perf_counter()
    tally: list[float] = [0, 0, 0.0]  # pairs done, deals played, net

    def done(_: int, res: _ChunkResult) -> None:
        tally[0] += len(res.pairs)
        tally[1] += sum(p.deals for p in res.pairs)
        tally[2] += sum(p.net for p in res.pairs)
        if progress is not None:
            progress(int(tally[0]), deals, int(tally[1]), tally[2])

    def tick() -> None:
        if progress is not None:
            progress(int(tally[0]), deals, int(tally[1]), tally[2])  # the first call comes once the workers exist

    with backend_for(backend, workers, address) as runner:
        workers = runner.workers  # on a Ray cluster: its CPUs, unless told
        if chunk_size is None:
            chunk_size = 1 if matches else max(1, min(50, deals // (workers * 8)))
        chunks = [(s, min(s + chunk_size, deals)) for s in range(0, deals, chunk_size)]
        results = runner.run(_run_chunk, [(job, s, e) for s, e in chunks], done=done, tick=tick)
        backend_name, where = runner.name, runner.describe()

    merged = _ChunkResult()
    for res in results:  # in the chunks' order, whichever worker played them
        merged.pairs.extend(res.pairs)
        for side in SIDES:
            merged.times[side].extend(res.times[side])
            for kind in ("illegal", "crashed"):
                merged.counts[side][kind] += res.counts[side][kind]
        merged.problems.extend(res.problems[: max(0, PROBLEMS_KEPT - len(merged.problems))])
    result = ArenaResult(
        bot_a=spec_a.name, bot_b=spec_b.name, options_a=dict(spec_a.options), options_b=dict(spec_b.options),
        rules=rules, mode="matches" if matches else "deals", seed=seed, workers=workers, pairs=merged.pairs,
        times=merged.times, counts=merged.counts, problems=merged.problems,
        elapsed_s=time.perf_counter() - started, out_dir=None if out_dir is None else str(out_dir), score=score,
        backend=backend_name, where=where,
    )
    if out_dir is not None:
        result.save(out_dir)
    return result


def run_matches(
    bot_a: str | BotSpec,
    bot_b: str | BotSpec,
    rules: Rules | str = "pagat",
    matches: int = 100,
    seed: int = 0,
    workers: int | None = None,
    **options: Any,
) -> ArenaResult:
    """Play ``matches`` duplicate pairs of whole matches, to the target, of A against B.

    Each pair is one sequence of decks (from the seed, the pair and the deal number)
    played twice with the teams swapped; ``result.match_figures()`` has each side's
    wins, A's win rate with its 95% Wilson interval and the average length in deals.
    The other keywords are :func:`run_duplicate`'s.

    >>> r = run_matches("basic", "basic", "pagat", matches=1, seed=3, workers=1)
    >>> figures = r.match_figures()
    >>> figures["played"], figures["a_wins"] == figures["b_wins"], figures["win_rate_a"]
    (2, True, 0.5)
    """
    return run_duplicate(bot_a, bot_b, rules, matches, seed, workers, matches=True, **options)
