"""The bid advisor: what each trump suit and each bid level is worth to the seat about to bid.

The advisor sees only the seat's view: its cards (nine, or six at five or six players; twice as many
with two packs, ``-o decks=2``, where a card may be held twice) and the calls before it.  It draws
worlds consistent with that view (:func:`cinch.worlds.sample_weighted`), weighted by how
likely the calls so far are (:class:`~cinch.bots.inference.BidLikelihood`: the others bid
roughly as the heuristic bot would), and plays each world out the way the expert bot judges
a bid (:mod:`cinch.bots.expert`): the heuristic bot in every seat, for the discard, the
draw, the rob and every card.

Per world and trump suit, one playout with this seat as the maker gives the points each
side takes.  The heuristic's play does not depend on the level bid, so the same playout
serves every level: the settlement of the preset (:func:`cinch.scoring.settle`) turns it
into the score change of a bid of 7, of 8, ... exactly, made or set back; with a match
score, :class:`~cinch.bots.equity.MatchEquity` turns it into the chance to win the match.

At a cut-throat table (two, three, five or six players, each for himself) the maker plays alone
against all the others.  A figure is then the seat's own score change less the average of the
others' (as the expert judges a cut-throat deal); at two players that is simply his change less
his opponent's.  The chance to win the match is a race between two sides: it is given at two
players, never at three or more (the calls are then judged by the deal's points, score or not).

The calls themselves (pass, or a bid of some level) are judged as the expert judges them:
after the call the others bid as the heuristic does (and may overcall); a deal that another
player ends up making is played out by the heuristic, once per world and maker; a deal this
seat makes is worth the table's figure for the suit that is best at that level (the trump is
named after the auction, from the same cards).  Every figure is a weighted mean over the
worlds with a 95% interval from the worlds' effective number.  The recommended call is the
safe one, the pass (a stuck dealer's lowest bid), unless another call beats it in the same worlds by
the margin the expert asks of its own calls (:func:`cinch.bots.expert.pick_call`: standard errors,
more for more calls compared and for a far bid), so that a gain the worlds cannot tell from noise does
not turn a pass into a bid with the seed; among close calls the lower bid wins.  Its margin over the
runner-up (the best other call by its mean, below 0 when the safe call was kept) is measured in the
same worlds, and a margin whose interval reaches 0 makes the advice a close call (:attr:`Advice.close`).

>>> from cinch import Rules, Seat
>>> view = position(Rules.preset("pagat"), "AS KS QS JS TS 5S 2H 3D 4C", Seat.S, Seat.W, ["pass", "pass"])
>>> advice = advise(view, worlds=6, seed=3)
>>> advice.suits[0].suit.name, isinstance(advice.best, Bid), advice.best_advice.trump.name
('SPADES', True, 'SPADES')
>>> print(advice.suit_lines()[0])
♠ trumps: 13.6 (13.1 to 14.0) points; bid 9: +13.2, made 100%
"""

from __future__ import annotations

import math
import random
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from cinch.actions import PASS, TRUMPS, Action, Bid, Call, Pass, parse_action
from cinch.bots.base import Bot, make_bot
from cinch.bots.equity import MatchEquity
from cinch.bots.expert import pick_call
from cinch.bots.inference import BidLikelihood
from cinch.bots.playout import bid_out, play_out
from cinch.cards import SUITS, CardSet, Seat, Suit, Team, bit_list, deck_mask
from cinch.constants import BATCH, DEALT
from cinch.deal import Deal
from cinch.errors import CinchError, quoted
from cinch.match import bidder_goes_out_applies
from cinch.rules import Rules
from cinch.scoring import settle
from cinch.seating import FOUR, Seating
from cinch.study.prefilter import prefiltered
from cinch.view import Phase, SeatView
from cinch.worlds import sample_weighted

__all__ = ["AdviceError", "Estimate", "LevelAdvice", "SuitAdvice", "CallAdvice", "Advice", "position", "advise",
           "parse_hand", "parse_calls", "parse_score", "plot", "calls_text", "estimate",
           "effective_worlds", "DEFAULT_SECONDS"]

DEFAULT_SECONDS = 1.0  # the search's time: with the start of the command, every suit and level in under 2 s
MIN_WORLDS = 8  # a timed answer uses at least these, so that every interval means something
MAX_WORLDS = 2000
Z95 = 1.959964  # the normal quantile of a two-sided 95% interval
NO_BOUNDS = (-math.inf, math.inf)
CHANCE = (0.0, 1.0)
PERCENT = (0.0, 100.0)


class AdviceError(CinchError):
    """A position the advisor cannot read (a hand, a call, a score): one line for the user."""


# ---- reading the position ----------------------------------------------------------------------

def parse_hand(text: str, dealt: int = DEALT, decks: int = 1) -> CardSet:
    """The cards dealt (nine; six at five or six players; with two packs eighteen or twelve, a card held
    twice written twice), separated by spaces or commas: ``"AS KS 5S 2H 3D 4C 7C 9H TD"``.

    >>> str(parse_hand("AH AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AS KS QS JS", 18, decks=2))[:23]
    'AS KS QS JS AH AH KH QH'
    """
    # A card written twice is refused there, by name (with two packs, one written three times).
    hand = CardSet.parse(text.replace(",", " "), decks=decks)
    if len(hand) != dealt:
        raise AdviceError(f"a hand is the {dealt} cards dealt; {quoted(text.strip())} has {len(hand)}")
    return hand


def parse_calls(text: str | Sequence[str]) -> list[Call]:
    """Calls in record notation, separated by commas: ``"pass, bid 7"``; a bare number is a bid."""
    words = re.split(r"[,;]", text) if isinstance(text, str) else list(text)
    calls: list[Call] = []
    for word in (w.strip() for w in words):
        if not word:
            continue
        action = parse_action(f"bid {word}" if word.isdigit() else word)
        if not isinstance(action, Pass | Bid):
            raise AdviceError(f"{quoted(word)} is not a call; the calls before yours are 'pass' and 'bid N'")
        calls.append(action)
    return calls


_SCORE_NUMBER = r"\s*(-?\d{1,4})\s*"
_SCORE_SEPARATOR = r"[-:/,]"


def parse_score(text: str, table: Seating = FOUR) -> tuple[int, ...]:
    """The match score before the deal, one number per side: NS first (``"32-41"``), or at a
    cut-throat table one per player, seat 1 first (``"12,-7,0"``; ``12--7-0`` reads the same).

    >>> from cinch.seating import seating
    >>> parse_score("32-41"), parse_score("12,-7,0", seating(3)), parse_score("12--7-0", seating(3))
    ((32, 41), (12, -7, 0), (12, -7, 0))
    """
    n = table.sides
    m = re.fullmatch(_SCORE_NUMBER + (_SCORE_SEPARATOR + _SCORE_NUMBER) * (n - 1), text)
    if m is None:
        if table.partnership:
            raise AdviceError(f"{quoted(text)} is not a score; write it NS-EW, as 32-41")
        example = ",".join(str(v) for v in (12, -7, 0, 5, 9, 3)[:n])
        raise AdviceError(f"{quoted(text)} is not a score at a table of {table.players}; write one number per player, "
                          f"{table.names[0]} first, as {example}")
    return tuple(int(g) for g in m.groups())


def position(rules: Rules, hand: CardSet | str, seat: Seat, dealer: Seat, calls: Sequence[Call | str] = (),
             score: tuple[int, ...] | None = None) -> SeatView:
    """The view of ``seat`` holding ``hand`` at its turn to bid, after ``calls`` (from the dealer's left).

    The other hands of the deal built here are placeholders: the view hides them, and the
    advisor sees only the view.  ``seat`` and ``dealer`` are seats of the rules' table (``1`` to ``n``
    cut-throat: ``rules.seating.parse_seat("2")``); ``score`` has a number per side (per player cut-throat).

    >>> from cinch import Rules, Seat
    >>> view = position(Rules.preset("difference"), "AS KS QS JS TS 5S 2H 3D 4C", Seat.S, Seat.W, ["bid 2", "pass"])
    >>> view.hand == parse_hand("AS KS QS JS TS 5S 2H 3D 4C"), [str(a) for a in view.legal][:2]
    (True, ['pass', 'bid 3'])
    >>> position(Rules.preset("difference"), view.hand, Seat.S, Seat.W, ["bid 2"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    cinch.study.advise.AdviceError: the calls before S's first turn to bid are those of N, E (2 calls ...); 1 was given
    """
    table = rules.seating
    if isinstance(hand, str):
        hand = parse_hand(hand, table.dealt, table.decks)
    elif len(hand) != table.dealt:
        raise AdviceError(f"a hand is the {table.dealt} cards dealt; {hand} has {len(hand)}")
    if score is not None and len(score) != table.sides:
        raise AdviceError(f"a score has one number per {'side' if table.partnership else 'player'} "
                          f"({table.sides}); {len(score)} were given")
    deal = Deal(rules, dealer, _deck_with(int(hand), seat, dealer, table))
    actions = [parse_calls([c])[0] if isinstance(c, str) else c for c in calls]
    for i, call in enumerate(actions):
        bidder = deal.to_act
        if deal.phase is not Phase.BIDDING or bidder == seat:
            raise _turn_error(seat, dealer, len(actions))
        assert bidder is not None
        legal = deal.legal_actions()
        if call not in legal:
            raise AdviceError(f"call {i + 1}, {call} by {bidder}, is not legal there: "
                              f"{bidder} may {calls_text(legal)}")
        deal.apply(call)
    if deal.phase is not Phase.BIDDING or deal.to_act != seat:
        raise _turn_error(seat, dealer, len(actions))
    if score is None:
        return deal.view(seat)
    return deal.view(seat, score=score, target=rules.target,
                     bidder_goes_out=bidder_goes_out_applies(rules, score, False))


def _deck_with(hand: int, seat: int, dealer: int, table: Seating = FOUR) -> list[int]:
    """A deck that deals ``hand`` to ``seat`` (batches of three from the dealer's left); the rest in order.
    With two packs the deck is 104 cards, each copy where it lies: the hand's twins in the hand."""
    own, rest = bit_list(hand), bit_list(deck_mask(table.decks) & ~hand)
    deck: list[int] = []
    for batch in range(table.batches):
        source = own if (dealer + 1 + batch) % table.players == seat else rest
        deck += source[:BATCH]
        del source[:BATCH]
    return deck + rest  # the stock


def _turn_error(seat: Seat, dealer: Seat, given: int) -> AdviceError:
    before = []
    s = dealer.left
    while s != seat:
        before.append(s.name)
        s = s.left
    who = f"those of {', '.join(before)}" if before else f"none ({seat} bids first)"
    # Under the auction a seat bids again; the advisor answers its first turn, after one call each.
    return AdviceError(f"the calls before {seat}'s first turn to bid are {who} ({len(before)} call"
                       f"{'s' * (len(before) != 1)} from the dealer's left); {given} "
                       f"{'was' if given == 1 else 'were'} given")


def calls_text(legal: Sequence[Action]) -> str:
    """The legal calls in a few words: ``pass or bid 8 to 14``."""
    bids = sorted(a.amount for a in legal if isinstance(a, Bid))
    parts = ["pass"] if any(isinstance(a, Pass) for a in legal) else []
    if len(bids) == 1:
        parts.append(f"bid {bids[0]}")
    elif bids:
        parts.append(f"bid {bids[0]} to {bids[-1]}")
    return " or ".join(parts) if parts else "not call"


# ---- the playouts (the expert's way of judging a call) -------------------------------------------

def _as_maker(world: Deal, bid: Bid, suit: Suit) -> Deal:
    """``world`` with this seat bidding ``bid``, the others passing, and ``suit`` named trumps."""
    d = world.copy()
    d.apply(bid)
    while d.phase is Phase.BIDDING:
        options = d.legal_actions()
        d.apply(PASS if PASS in options else options[0])
    d.apply(TRUMPS[suit])
    return d


# ---- the figures --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Estimate:
    """A weighted mean over the worlds and its 95% interval."""

    mean: float
    low: float
    high: float

    def json(self, digits: int = 3) -> dict[str, float]:
        return {"mean": round(self.mean, digits), "low": round(self.low, digits), "high": round(self.high, digits)}

    def text(self, fmt: str = "{:+.1f}", scale: float = 1.0) -> str:
        """``+2.3 (+1.1 to +3.5)``."""
        return (f"{fmt.format(self.mean * scale)} ({fmt.format(self.low * scale)} to "
                f"{fmt.format(self.high * scale)})")


def estimate(values: Sequence[float], weights: Sequence[float],
             bounds: tuple[float, float] = NO_BOUNDS) -> Estimate:
    """The weighted mean of ``values`` and its 95% interval, kept within ``bounds`` (a chance's 0 and 1).

    The standard error is that of a ratio estimator (the worlds carry importance weights):
    ``sqrt(sum w^2 (x - mean)^2) / sum w``, with the small-sample factor ``n / (n - 1)``.

    >>> e = estimate([1.0, 3.0, 2.0, 2.0], [1.0, 1.0, 1.0, 1.0])
    >>> e.mean, round(e.high - e.mean, 2)
    (2.0, 0.8)
    """
    total = sum(weights)
    n = len(values)
    if n == 0 or total <= 0:
        return Estimate(math.nan, math.nan, math.nan)
    mean = sum(w * x for w, x in zip(weights, values)) / total
    if n < 2:
        return Estimate(mean, mean, mean)
    spread = math.sqrt(sum((w * (x - mean)) ** 2 for w, x in zip(weights, values))) / total
    half = Z95 * spread * math.sqrt(n / (n - 1))
    return Estimate(mean, max(bounds[0], mean - half), min(bounds[1], mean + half))


def effective_worlds(weights: Sequence[float]) -> float:
    """How many equally weighted worlds the weighted ones are worth: ``(sum w)^2 / sum w^2``."""
    squares = sum(w * w for w in weights)
    return sum(weights) ** 2 / squares if squares > 0 else 0.0


class _Judge:
    """Turns a deal's outcome into the score change (ours less theirs: less the others' average
    cut-throat) and the chance to win the match (two sides only)."""

    def __init__(self, view: SeatView):
        self.rules = view.rules
        self.table = view.rules.seating
        self.team = self.table.side_of[view.seat]
        self.equity: MatchEquity | None = None
        # The chance to win is a race between two sides: at three or more players there is none.
        if view.score is not None and view.target is not None and self.table.sides == 2:
            self.equity = MatchEquity(view.rules, view.score, Team(self.team), target=view.target,
                                      bidder_goes_out=view.bidder_goes_out)
        self._cache: dict[tuple[int, int, tuple[int, ...]], tuple[float, float | None]] = {}

    def of(self, makers: int, bid: int, points: tuple[int, ...]) -> tuple[float, float | None]:
        """(our side's score change less the other sides' average, the chance in % to win the match or None);
        ``makers`` and ``points`` by side."""
        key = (makers, bid, points)
        got = self._cache.get(key)
        if got is None:
            _, change = settle(self.rules, self.table.side_list[makers], bid, points)
            others = [c for side, c in enumerate(change) if side != self.team]
            net = change[self.team] - sum(others) / len(others)
            win = None if self.equity is None else 100.0 * self.equity.of(makers, bid, points)
            got = self._cache[key] = (net, win)
        return got

    def thrown_in(self) -> tuple[float, float | None]:
        return 0.0, None if self.equity is None else 100.0 * self.equity.now


@dataclass(frozen=True)
class LevelAdvice:
    """A bid of ``bid`` in one suit, this seat the maker: the chance to make it and what it brings."""

    bid: int
    make: Estimate  # the chance (0 to 1) that the makers take ``bid`` points or more
    change: Estimate  # our side's score change less the other side's (less the others' average cut-throat)
    win: Estimate | None  # the chance in % to win the match (with a score, two sides only)


@dataclass(frozen=True)
class SuitAdvice:
    """One trump suit with this seat the maker: the points the partnership takes, and each level."""

    suit: Suit
    points: Estimate  # the points our side takes (this player, cut-throat)
    against: Estimate  # the points the other side takes (all the others together, cut-throat)
    distribution: tuple[float, ...]  # the weighted share of worlds in which our side takes 0, 1, 2, ... points
    levels: tuple[LevelAdvice, ...]


@dataclass(frozen=True)
class CallAdvice:
    """A call judged in the worlds: the others answer as the heuristic bids."""

    call: Call
    value: Estimate  # in the advice's unit
    change: Estimate  # our side's score change less the other side's
    win: Estimate | None  # the chance in % to win the match (with a score)
    makers: float  # the weighted share of worlds in which this seat ends the maker
    trump: Suit | None  # the suit to name when it does (the best at the level it holds)
    over_pass: Estimate | None  # the gain over passing in the same worlds (None for the pass, or no pass)


@dataclass(frozen=True)
class Advice:
    """Every suit and level, every call, and the recommendation for one seat at its turn to bid."""

    view: SeatView
    worlds: int
    effective: float  # the worlds' effective number (their weights are uneven)
    seconds: float
    unit: str  # "points" (score change, ours less theirs) or "%" (the chance to win the match)
    suits: tuple[SuitAdvice, ...]  # best first (by the points our side takes)
    calls: tuple[CallAdvice, ...]  # in the order of the legal calls
    best: Call  # the advice: the safe call (the pass) unless another beats it clearly (the expert's rule)
    runner_up: Call | None  # the best of the other calls by their means
    margin: Estimate | None  # best less runner-up, in the same worlds, in ``unit`` (below 0: the safe call kept)
    heuristic: Action  # the heuristic bot's call, for comparison
    prefilter: int | None = None  # the calls searched were the policy's best this many (with the pass), if asked
    ranked: tuple[tuple[Call, float], ...] = ()  # the calls ranked by the model only, with its probability
    prefilter_note: str | None = None  # why every call was searched although a prefilter was asked for

    def prefilter_line(self) -> str | None:
        """What the prefilter left out, in words (None without one)."""
        if self.prefilter is None:
            return None
        if self.prefilter_note is not None:
            return f"Prefilter: {self.prefilter_note}."
        head = f"Prefilter: the {self.prefilter} call{'s' * (self.prefilter != 1)} the learned policy ranks best"
        if any(isinstance(a, Pass) for a in self.view.legal):
            head += ", with the pass,"
        if not self.ranked:
            return f"{head} are every legal call: all were searched."
        others = ", ".join(f"{call} ({100 * p:.0f}%)" for call, p in self.ranked)
        return f"{head} were searched; ranked by the model only, not searched: {others}."

    @property
    def close(self) -> bool:
        """Whether the worlds cannot tell the advice from the runner-up: the margin's interval reaches 0."""
        return self.margin is not None and not self.margin.low > 0

    @property
    def you(self) -> str:
        """Who plays for the figures: ``your side`` in partnership, ``you`` cut-throat."""
        return "your side" if self.view.rules.seating.partnership else "you"

    @property
    def note(self) -> str | None:
        """Why a score brings no chance to win the match: at three or more players (None otherwise)."""
        table = self.view.rules.seating
        if self.view.score is None or table.sides == 2:
            return None
        return (f"no chance to win the match: at {table.players} players each plays for himself and the match "
                f"equity is a race of two sides, so the calls are judged by the deal's points")

    @property
    def best_advice(self) -> CallAdvice:
        return next(c for c in self.calls if c.call == self.best)

    def call_words(self, call: Call) -> str:
        """``bidding 8 (spades as trumps)`` or ``passing``."""
        if isinstance(call, Pass):
            return "passing"
        judged = next(c for c in self.calls if c.call == call)
        trump = judged.trump if judged.makers > 0 else None  # a bid always overcalled names no trump
        return f"bidding {call.amount}" + (f" ({trump.name.lower()} as trumps)" if trump is not None else "")

    def words(self) -> str:
        """The recommendation as a player says it, with its margin and the outlook."""
        best = self.best_advice
        doing = self.call_words(self.best)
        if self.runner_up is None or self.margin is None:
            lead = f"{doing}: the only legal call"
        else:
            gap = self.margin.mean
            other = "passing" if isinstance(self.runner_up, Pass) else f"bidding {self.runner_up.amount}"
            if gap <= -0.5:  # the safe call kept: the other's gain is too small for these worlds to trust
                more = (f"wins the match about {-gap:.0f}% more often" if self.unit == "%" else
                        f"scores about {-gap:.1f} more")
                lead = f"{doing} is the safe call ({other} {more} on average, too little to trust)"
            elif abs(gap) < 0.5:
                lead = f"{doing} is about as good as {other}"
            elif self.unit == "%":
                lead = f"{doing} wins the match about {max(1, round(gap))}% more often than {other}"
            else:
                lead = f"{doing} keeps you about {_points(gap)} ahead of {other}"
            if self.close:
                lead = f"a close call: {lead}"
        if best.win is not None:
            yours = "your side's" if self.you == "your side" else "your"
            outlook = f"{yours} chance to win the match is about {round(best.win.mean)}%"
        elif abs(best.change.mean) < 0.5:
            outlook = "the deal looks even"
        elif best.change.mean > 0:
            outlook = f"{self.you} should come out about {_points(best.change.mean)} ahead this deal"
        else:
            outlook = f"{self.you} should lose about {_points(-best.change.mean)} on this deal"
        return f"{lead}; {outlook}"

    @property
    def level(self) -> int | None:
        """The level the per-suit lines quote: the recommended bid's, else the lowest bid (None: no bid)."""
        if isinstance(self.best, Bid):
            return self.best.amount
        return self.suits[0].levels[0].bid if self.suits else None

    def brief(self) -> str:
        """The figures in one line (the hint's second look): points per suit, the best calls."""
        top = sorted(self.calls, key=lambda c: -c.value.mean)[:2]
        shown = top + [c for c in self.calls if isinstance(c.call, Pass) and c not in top]
        calls = ", ".join(f"{c.call} {_value(c.value.mean, self.unit)}" for c in shown)
        points = ", ".join(f"{s.suit.symbol} {s.points.mean:.1f}" for s in self.suits)
        who = "as makers your side takes" if self.you == "your side" else "as the maker you take"
        lead = f"{who} {points} points; " if points else ""
        return f"{lead}{calls} ({self.worlds} worlds)"

    def suit_lines(self) -> list[str]:
        """One line per suit, best first: the points as makers and the recommended level in it."""
        lines = []
        for s in self.suits:
            level = next(lv for lv in s.levels if lv.bid == self.level)
            figure = (_value(level.change.mean, "points") if level.win is None
                      else f"{level.win.mean:.0f}% to win")
            lines.append(f"{s.suit.symbol} trumps: {s.points.text('{:.1f}')} points; bid {level.bid}: {figure}, "
                         f"made {round(100 * level.make.mean)}%")
        return lines

    def json(self) -> dict[str, Any]:
        """Everything, for scripts (``cinch advise --json``)."""
        v = self.view
        margin = None if self.margin is None else self.margin.json()
        return {
            "rules": v.rules.name, "seat": v.seat.name, "dealer": v.dealer.name, "hand": str(v.hand),
            "auction": [f"{s} {a}" for s, a in v.auction],
            "score": None if v.score is None else v.rules.seating.side_json(v.score), "note": self.note,
            "worlds": self.worlds, "effective_worlds": round(self.effective, 1), "seconds": round(self.seconds, 3),
            "unit": self.unit,
            "best": str(self.best), "trump": _maybe_letter(self.best_advice.trump),
            "runner_up": None if self.runner_up is None else str(self.runner_up), "margin": margin,
            "close": self.close,
            "words": self.words(), "heuristic": str(self.heuristic),
            "suits": [_suit_json(s) for s in self.suits],
            "calls": [_call_json(c) for c in self.calls],
            **({} if self.prefilter is None else {"prefilter": {
                "k": self.prefilter, "note": self.prefilter_note,
                "ranked_only": [{"call": str(call), "policy": round(p, 4)} for call, p in self.ranked]}}),
        }


def _suit_json(s: SuitAdvice) -> dict[str, Any]:
    return {
        "suit": s.suit.letter, "points": s.points.json(), "against": s.against.json(),
        "distribution": [round(p, 4) for p in s.distribution],
        "levels": [{"bid": lv.bid, "make": lv.make.json(), "change": lv.change.json(),
                    "win": None if lv.win is None else lv.win.json()} for lv in s.levels],
    }


def _call_json(c: CallAdvice) -> dict[str, Any]:
    return {"call": str(c.call), "value": c.value.json(), "change": c.change.json(),
            "win": None if c.win is None else c.win.json(), "makers": round(c.makers, 3),
            "trump": _maybe_letter(c.trump), "over_pass": None if c.over_pass is None else c.over_pass.json()}


def _maybe_letter(suit: Suit | None) -> str | None:
    return None if suit is None else suit.letter


def _points(x: float) -> str:
    n = max(1, round(x))
    return f"{n} point{'s' * (n != 1)}"


def _value(x: float, unit: str) -> str:
    return f"{x:.0f}%" if unit == "%" else f"{x:+.1f}"


# ---- the advisor ----------------------------------------------------------------------------------

@dataclass
class _World:
    """What one world says: its weight, the points per suit with us as makers, and each call's outcome."""

    weight: float
    points: dict[Suit, tuple[int, ...]]  # suit -> the points each side took, this seat the maker
    # per call: ("us", level) when this seat ends the maker, else ("them", (net, win)) from a playout
    calls: list[tuple[str, Any]]


def advise(view: SeatView, *, worlds: int | None = None, seconds: float = DEFAULT_SECONDS, seed: int = 0,
           inference: float = 1.0, max_worlds: int = MAX_WORLDS, prefilter: int | None = None,
           weights: str | None = None) -> Advice:
    """Judge every trump suit, every bid level and every call of ``view``'s seat at its turn to bid.

    ``worlds``: a fixed number of worlds (repeatable for ``seed``); otherwise as many as fit in
    ``seconds`` (at least :data:`MIN_WORLDS`).  ``inference``: the sharpness of the bid
    inference (0: every world consistent with the cards counts the same).  ``prefilter``: search only
    the calls the learned policy ranks best, this many, with the pass (:mod:`cinch.study.prefilter`;
    ``weights``: their folder, default the package's); every suit and level is still played out.
    """
    if view.phase is not Phase.BIDDING or view.to_act != view.seat:
        raise AdviceError(f"the advisor answers a seat at its turn to bid; {view.seat} is not to bid now")
    start = time.perf_counter()
    heuristic = make_bot("heuristic", seed=0)
    weight = BidLikelihood(inference, model=heuristic) if inference > 0 else None
    judge = _Judge(view)
    context: dict[str, Any] = {}
    if view.score is not None:
        context = {"score": view.score, "target": view.target, "bidder_goes_out": view.bidder_goes_out}
    legal: list[Call] = [a for a in view.legal if isinstance(a, Pass | Bid)]
    bids = [a for a in legal if isinstance(a, Bid)]  # (every level: the suits' table settles them all)
    chosen = None
    if prefilter is not None:
        chosen = prefiltered(view, prefilter, weights)
        if chosen.searched is not None:
            legal = [a for a in legal if a in chosen.searched]
    rng = random.Random(seed)
    found: list[_World] = []
    while _more(len(found), worlds, seconds, start, max_worlds):
        sample = sample_weighted(view, rng, weight=weight)
        assert sample.deal is not None  # verified worlds are replayed
        found.append(_one_world(sample.deal, sample.weight, rng.getrandbits(32), view, legal, bids, heuristic,
                                judge, context))
    advice = _summarise(view, found, legal, bids, judge, heuristic.choose(view), time.perf_counter() - start)
    if chosen is None:
        return advice
    ranked = tuple((a, p) for a, p in chosen.ranked if isinstance(a, Pass | Bid))
    return replace(advice, prefilter=prefilter, ranked=ranked, prefilter_note=chosen.note)


def _more(done: int, worlds: int | None, seconds: float, start: float, maximum: int) -> bool:
    if worlds is not None:
        return done < worlds
    if done < MIN_WORLDS:
        return True
    if done >= maximum:
        return False
    elapsed = time.perf_counter() - start
    return elapsed + elapsed / done <= seconds  # the next world should end in time


def _one_world(world: Deal, weight: float, seed: int, view: SeatView, legal: list[Call], bids: list[Bid],
               heuristic: Bot, judge: _Judge, context: dict[str, Any]) -> _World:
    points: dict[Suit, tuple[int, ...]] = {}
    if bids:
        for suit in SUITS:
            result = play_out(_as_maker(world, bids[0], suit), random.Random(seed), heuristic, context)
            assert result.points is not None
            points[suit] = tuple(result.points)
    by_maker: dict[Seat, tuple[int, ...]] = {}  # the heuristic's playout per maker (the level does not change it)
    calls: list[tuple[str, Any]] = []
    for call in legal:
        d = world.copy()
        d.apply(call)
        bid_out(d, heuristic.choose, context)
        if d.phase is Phase.DONE:  # thrown in
            calls.append(("them", judge.thrown_in()))
            continue
        maker = d.maker
        assert maker is not None
        if maker == view.seat and bids:
            calls.append(("us", d.high_bid))
            continue
        pts = by_maker.get(maker)
        if pts is None:
            result = play_out(d, random.Random(seed), heuristic, context)
            assert result.points is not None
            pts = by_maker[maker] = result.points
        calls.append(("them", judge.of(judge.table.side_of[maker], d.high_bid, pts)))
    return _World(weight, points, calls)


def _summarise(view: SeatView, found: list[_World], legal: list[Call], bids: list[Bid], judge: _Judge,
               heuristic: Action, seconds: float) -> Advice:
    weights = [w.weight for w in found]
    team = judge.team
    unit = "points" if judge.equity is None else "%"
    total = view.rules.total_points
    # Per suit and level, per world: (net change, win chance) with this seat the maker.
    cell: dict[tuple[Suit, int], list[tuple[float, float | None]]] = {}
    suits = []
    for suit in (SUITS if bids else ()):
        ours = [w.points[suit][team] for w in found]
        theirs = [sum(w.points[suit]) - w.points[suit][team] for w in found]  # the others' together
        levels = []
        for bid in bids:
            got = cell[suit, bid.amount] = [judge.of(team, bid.amount, w.points[suit]) for w in found]
            levels.append(LevelAdvice(
                bid.amount, estimate([float(p >= bid.amount) for p in ours], weights, CHANCE),
                estimate([g[0] for g in got], weights), _win([g[1] for g in got], weights)))
        points = (0.0, float(max(total, *ours, *theirs)))
        suits.append(SuitAdvice(suit, estimate([float(p) for p in ours], weights, points),
                                estimate([float(p) for p in theirs], weights, points),
                                _distribution(ours, weights, total), tuple(levels)))
    pick = 1 if unit == "%" else 0

    def level_value(suit: Suit, level: int) -> float:
        return estimate([g[pick] or 0.0 for g in cell[suit, level]], weights).mean

    trump_at = {b.amount: max(SUITS, key=lambda s: level_value(s, b.amount)) for b in bids}
    outcomes: list[list[tuple[float, float | None]]] = []  # per call, per world
    share: list[float] = []
    for i, _call in enumerate(legal):
        column = []
        ours_weight = 0.0
        for j, w in enumerate(found):
            kind, what = w.calls[i]
            if kind == "us":
                column.append(cell[trump_at[what], what][j])
                ours_weight += w.weight
            else:
                column.append(what)
        outcomes.append(column)
        share.append(ours_weight / sum(weights) if weights else 0.0)
    values = [[g[pick] or 0.0 for g in column] for column in outcomes]
    means = [estimate(v, weights).mean for v in values]
    pass_index = next((i for i, c in enumerate(legal) if isinstance(c, Pass)), None)
    best = _advised(view, legal, values, weights, pass_index)
    # The runner-up is the best of the others by their means: a call the rule passed over as noise, if any.
    runner = max((i for i in range(len(legal)) if i != best), key=lambda i: means[i], default=None)
    calls = []
    for i, call in enumerate(legal):
        over = None
        if pass_index is not None and i != pass_index:
            over = estimate([a - b for a, b in zip(values[i], values[pass_index])], weights)
        calls.append(CallAdvice(
            call, estimate(values[i], weights, PERCENT if unit == "%" else NO_BOUNDS),
            estimate([g[0] for g in outcomes[i]], weights),
            _win([g[1] for g in outcomes[i]], weights), share[i],
            trump_at[call.amount] if isinstance(call, Bid) else None, over))
    margin = None
    if runner is not None:
        margin = estimate([a - b for a, b in zip(values[best], values[runner])], weights)
    suits.sort(key=lambda s: -s.points.mean)
    return Advice(view, len(found), effective_worlds(weights), seconds, unit, tuple(suits), tuple(calls),
                  legal[best], None if runner is None else legal[runner], margin, heuristic)


def _advised(view: SeatView, legal: list[Call], values: list[list[float]], weights: list[float],
             pass_index: int | None) -> int:
    """The call to advise: the safe one (the pass; a stuck dealer's lowest bid) unless another call beats it
    clearly in the same worlds, by the expert's rule for its own calls (:func:`cinch.bots.expert.pick_call`:
    a margin of standard errors, more for more calls and for a far bid), so that a difference the worlds
    cannot tell from noise gives the same call whatever the seed, and among close calls the lower bid."""
    def level(i: int) -> int:
        call = legal[i]
        return call.amount if isinstance(call, Bid) else 0

    safe = pass_index if pass_index is not None else min(range(len(legal)), key=level)
    return pick_call(legal, values, weights, safe, view.rules.min_bid)


def _win(values: Sequence[float | None], weights: Sequence[float]) -> Estimate | None:
    if not values or any(v is None for v in values):
        return None
    return estimate([float(v or 0.0) for v in values], weights, PERCENT)


def _distribution(points: Sequence[int], weights: Sequence[float], total: int) -> tuple[float, ...]:
    shares = [0.0] * (max([total, *points]) + 1)
    whole = sum(weights)
    for p, w in zip(points, weights):
        shares[p] += w / whole
    return tuple(shares)


# ---- the plot -------------------------------------------------------------------------------------

SUIT_COLOURS = {Suit.SPADES: "#1f1f1f", Suit.HEARTS: "#d62728", Suit.DIAMONDS: "#ff7f0e", Suit.CLUBS: "#2ca02c"}


def plot(advice: Advice, path: str) -> None:
    """The distribution of the points the partnership takes as makers, one step line per suit (Matplotlib, Agg).

    The format follows the file's extension (png, svg, pdf); a small PNG by default.
    """
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    if not advice.suits:
        raise AdviceError("nothing to plot: this seat may only pass, so no suit was played out")
    view = advice.view
    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=100)
    try:
        for s in advice.suits:
            shares = [100 * p for p in s.distribution]
            xs = list(range(len(shares)))
            ax.step(xs, shares, where="mid", color=SUIT_COLOURS[s.suit], linewidth=1.8,
                    label=f"{s.suit.name.lower()}: {s.points.mean:.1f} ({s.points.low:.1f}-{s.points.high:.1f})")
            ax.axvline(s.points.mean, color=SUIT_COLOURS[s.suit], linewidth=0.8, linestyle=":")
        ax.set_xlabel("points your side takes as makers" if advice.you == "your side" else
                      "points you take as the maker")
        ax.set_ylabel("% of worlds")
        ax.set_xlim(-0.5, len(advice.suits[0].distribution) - 0.5)
        ax.set_ylim(bottom=0)
        ax.grid(axis="y", alpha=0.3)
        ax.legend(title="trumps: mean (95%)", fontsize=8, title_fontsize=8, frameon=False)
        calls = ", ".join(f"{s} {a}" for s, a in view.auction)
        ax.set_title(f"{view.hand.symbols()}  ({view.rules.name}, {view.seat} to bid, dealer {view.dealer}"
                     f"{', after ' + calls if calls else ''})\nadvice: {advice.call_words(advice.best)}"
                     f"{', a close call' if advice.close else ''} ({advice.worlds} worlds)", fontsize=9)
        fig.tight_layout()
        fig.savefig(path)
    finally:
        plt.close(fig)
