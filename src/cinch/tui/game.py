"""The engine side of the table: one match, the human's seat, the bots, undo and the par.

Nothing here knows about screens.  The table shows the human only
``match.view(seat)`` of their own seat, the public :class:`DealResult` of a
finished deal and, once a deal is over and every card is known, its par.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from cinch.actions import Action, Keep, NameTrump, Pass, Play, parse_action
from cinch.bots import DEFAULT_BOT, bot_names, make_bot
from cinch.bots.base import Bot
from cinch.cards import TRUMP_TABLES, Card, Seat, Suit, Team, mask_of
from cinch.deal import Deal
from cinch.errors import CinchError, IllegalAction
from cinch.match import DealSummary, Match
from cinch.record import replay, to_record
from cinch.rules import High, Low, Rules
from cinch.scoring import PointTable
from cinch.view import Phase, SeatView
from cinch.words import hand_order

HINT_BOTS = ("expert", "heuristic", "basic")  # the strongest installed one gives hints
BOT_LEVELS = ("random", "basic", "heuristic", "expert")  # the levels the new-match screen offers first


@dataclass(frozen=True)
class TableSetup:
    """A new match: the rules, the human's seat, the bot of every other seat and the seed."""

    rules: Rules
    seat: Seat = Seat.S
    bots: tuple[str, str, str, str] = (DEFAULT_BOT,) * 4  # by seat N E S W
    seed: int | None = None

    @classmethod
    def uniform(cls, rules: Rules, seat: Seat = Seat.S, bots: str = DEFAULT_BOT, seed: int | None = None) -> TableSetup:
        return cls(rules, Seat(seat), (bots,) * 4, seed)


_AVAILABLE: list[str] | None = None


def available_bots() -> list[str]:
    """The bots this installation can make, the usual levels first."""
    global _AVAILABLE
    if _AVAILABLE is None:
        names = []
        ordered = [n for n in BOT_LEVELS if n in bot_names()] + [n for n in bot_names() if n not in BOT_LEVELS]
        for name in ordered:
            try:
                make_bot(name, seed=0)
            except Exception:  # not installed (an optional dependency), or broken: not offered
                continue
            names.append(name)
        _AVAILABLE = names
    return list(_AVAILABLE)


def hint_bot() -> tuple[str, Bot]:
    """The strongest installed bot, for hints: expert, else heuristic, else basic."""
    for name in HINT_BOTS:
        try:
            return name, make_bot(name, seed=0)
        except Exception:
            continue
    raise CinchError("no bot is installed to give hints")  # pragma: no cover - basic always is


@dataclass
class Hint:
    """What the hint bot would do, and any estimate it offers."""

    bot: str
    action: Action
    estimate: str = ""


def ask_hint(name: str, bot: Bot, view: SeatView) -> Hint:
    """Ask ``bot`` what it would do in ``view`` (slow bots: call this off the UI thread).

    A bot may offer ``explain(view)``, returning text, an action, an ``(action, estimate)``
    pair or an object or mapping with ``action`` and ``estimate``; otherwise only its
    action is shown.
    """
    explain = getattr(bot, "explain", None)
    if callable(explain):
        try:
            got = explain(view)
        except Exception:
            got = None
        action, estimate = _read_explanation(got)
        if action is not None and action in view.legal:
            return Hint(name, action, estimate)
        if action is None and estimate:
            return Hint(name, bot.choose(view), estimate)
    return Hint(name, bot.choose(view))


def _read_explanation(got: Any) -> tuple[Action | None, str]:
    if got is None:
        return None, ""
    if isinstance(got, Action):
        return got, ""
    if isinstance(got, str):
        return None, got
    if isinstance(got, tuple) and len(got) == 2 and isinstance(got[0], Action):
        return got[0], _estimate_text(got[1])
    if isinstance(got, dict):
        action = got.get("action")
        return (action if isinstance(action, Action) else None), _estimate_text(
            got.get("estimate", got.get("text", "")))
    action = getattr(got, "action", None)
    estimate = getattr(got, "estimate", None)
    if estimate is None:
        estimate = getattr(got, "text", None)
    return (action if isinstance(action, Action) else None), _estimate_text(estimate if estimate is not None else got)


def _estimate_text(value: Any) -> str:
    if value is None or value == "":
        return ""
    if isinstance(value, float):
        return f"{value:+.1f}"
    return str(value)


def suggest(view: SeatView) -> Action:
    """The basic bot's choice: the suggested hand of a keep decision (quick, on any thread)."""
    try:
        return make_bot("basic", seed=0).choose(view)
    except Exception:
        return view.legal[0]


# ---- what the seat may count -----------------------------------------------------------------------
@dataclass
class PointsSoFar:
    """The points each side has surely taken so far in a deal, card by card, from one seat's view."""

    awards: tuple[list[tuple[str, Card, int]], list[tuple[str, Card, int]]] = field(default_factory=lambda: ([], []))
    pending: list[str] = field(default_factory=list)  # what is decided only at the end, in words

    def total(self, team: Team) -> int:
        return sum(p for _, _, p in self.awards[team])


def points_so_far(view: SeatView) -> PointsSoFar | None:
    """Point cards already won by each side in this deal (None before trumps are named).

    Only certain points count: a point card known by its identity once the trick that
    holds it is finished (the 2 under "Low to the holder" as soon as it is played, and a
    defender's thrown point card under the official rule); High and Low that are "the
    highest/lowest trump in play" are known only at the end of the deal.
    """
    if view.trump is None:
        return None
    table = PointTable.of(view.rules, view.trump)
    assert view.maker is not None
    makers = view.maker.team
    claims = []
    for trick in view.tricks:  # trick by trick, in the order they were taken
        taken = [0, 0]
        taken[trick.winner & 1] = int(trick.cards)
        in_play = mask_of(p.card for p in trick.plays)
        claims += table.claims((taken[0], taken[1]), in_play, None, 0, makers, relative=False)
    plays = [p for t in view.tricks for p in t.plays] + list(view.current_trick)
    holder = next((p.seat & 1 for p in plays if p.card == table.two), None)  # who played the 2 held it
    thrown = 0
    for s in makers.other.seats:
        thrown |= int(view.shown_trumps[s])
    claims += table.claims((0, 0), 0, holder, thrown, makers, relative=False)
    out = PointsSoFar()
    for claim in claims:
        out.awards[claim.side].append((claim.name, Card(claim.card), claim.points))
    if table.relative_high:
        out.pending.append("High (the highest trump in play)")
    if table.relative_low:
        out.pending.append("Low (the lowest trump in play)")
    return out


def cheapest_bury(plays: list[Play], trump: Suit) -> dict[Card, Play]:
    """For each card, the legal play that buries the cheapest cards (plain before trumps, low first)."""
    t = TRUMP_TABLES[trump]

    def cost(p: Play) -> list[tuple[bool, int]]:
        return sorted(((t.power[c] > 0, t.power[c] or 13 - c % 13) for c in p.bury), reverse=True)

    best: dict[Card, Play] = {}
    for p in plays:
        if p.card not in best or cost(p) < cost(best[p.card]):
            best[p.card] = p
    return best


# ---- the match ------------------------------------------------------------------------------------------
class TableGame:
    """One match at the table: the human's seat, a bot in every other seat, undo by replay."""

    def __init__(self, setup: TableSetup, match: Match | None = None, *, seed_known: bool | None = None,
                 bots: dict[Seat, Bot] | None = None):
        self.setup = setup
        self.seat = Seat(setup.seat)
        seed = setup.seed
        if seed is None and match is None:
            seed = random.SystemRandom().randrange(1_000_000)
        self.seed = seed
        if match is None:
            players = {s: ("you" if s == self.seat else setup.bots[s]) for s in Seat}
            match = Match(setup.rules, players=players, rng=seed)
            seed_known = True
        # A match made here from its seed can be rebuilt exactly (the next decks included).
        self.seed_known = bool(seed_known) and seed is not None
        self.match = match
        self.rules = match.rules
        self.undos = 0
        self.bots = dict(bots) if bots is not None else self._make_bots()

    @property
    def bot_names(self) -> dict[Seat, str]:
        return {s: self.setup.bots[s] for s in Seat if s != self.seat}

    def _make_bots(self) -> dict[Seat, Bot]:
        base = self.seed if self.seed is not None else 0
        return {s: make_bot(self.setup.bots[s], seed=base * 10 + 1 + s + 100_003 * self.undos)
                for s in Seat if s != self.seat}

    # ---- where the match stands ----------------------------------------------------------------------
    @property
    def deal(self) -> Deal | None:
        return self.match.deals[-1] if self.match.deals else None

    def pending(self) -> str:
        """What comes next: ``human``, ``bot``, ``chance``, ``deal-over``, ``new-deal`` or ``match-over``."""
        m = self.match
        deal = self.deal
        if deal is None:
            return "new-deal"
        if deal.is_over:
            return "match-over" if m.is_over else "deal-over"
        if deal.to_act is None:
            return "chance"
        return "human" if deal.to_act == self.seat else "bot"

    def view(self) -> SeatView | None:
        """The human's view of the current (or last) deal: all the table ever shows of it."""
        return self.match.view(self.seat) if self.match.deals else None

    def start_deal(self) -> None:
        self.match.start_deal()

    def resolve_chance(self) -> None:
        self.match.resolve_chance()

    def bot_turn(self) -> tuple[Seat, Bot, SeatView]:
        deal = self.deal
        assert deal is not None and deal.to_act is not None and deal.to_act != self.seat
        seat = deal.to_act
        return seat, self.bots[seat], self.match.view(seat)

    def apply(self, action: Action, seat: Seat) -> None:
        self.match.apply(action, seat)

    def why_illegal(self, action: Action) -> str | None:
        """The rule that forbids the human's ``action`` now, in the engine's words (None if legal)."""
        deal = self.deal
        if deal is None or deal.is_over:
            return "no deal is in progress"
        trial = deal.copy()  # the check runs on a copy: the real deal is never touched
        try:
            trial.apply(action, self.seat)
        except IllegalAction as e:
            return e.rule
        return None

    # ---- undo --------------------------------------------------------------------------------------------
    def undo_target(self) -> int | None:
        """Index in the last deal's history of the human's last decision (None: nothing to undo)."""
        deal = self.deal
        if deal is None or self.match.is_over:
            return None
        for i in range(len(deal.actors) - 1, -1, -1):
            if deal.actors[i] == self.seat:
                return i
        return None

    def undo(self) -> bool:
        """Take back the human's last decision in this deal, and the bots' actions after it.

        The match is rebuilt by replaying its record without them (the engine has no undo).
        """
        index = self.undo_target()
        if index is None:
            return False
        record = to_record(self.match)
        record["deals"][-1]["actions"] = record["deals"][-1]["actions"][:index]
        self.match = self._rebuild(record)
        self.undos += 1
        self.bots = self._make_bots()
        return True

    def _rebuild(self, record: dict[str, Any]) -> Match:
        if self.seed_known:
            # The same seed deals the same decks (and new stocks) in the same order: the rebuilt
            # match also deals the next decks it would have dealt.
            m = Match(self.rules, players=dict(self.match.players), rng=self.seed)
            try:
                for entry in record["deals"]:
                    deal = m.start_deal()
                    if deal.dealer.name != entry["dealer"] or " ".join(map(str, deal.deck)) != entry["deck"]:
                        raise CinchError("the seed does not deal this record")
                    for text in entry["actions"]:
                        while deal.to_act is None and not deal.is_over:
                            m.resolve_chance()
                        m.apply(parse_action(text))
                return m
            except CinchError:
                self.seed_known = False
        m = replay(record).match
        m.rng = random.Random(f"{self.seed}:{len(record['deals'])}:{self.undos}")
        return m

    # ---- the end of a deal ---------------------------------------------------------------------------------
    @property
    def last_summary(self) -> DealSummary | None:
        return self.match.summaries[-1] if self.match.summaries else None

    def play_start(self, number: int | None = None) -> Deal | None:
        """A copy of a deal as its play began (its first lead), rebuilt from its own record."""
        deals = self.match.deals
        if not deals:
            return None
        deal = deals[-1] if number is None else deals[number - 1]
        if deal.trump is None:
            return None
        start = Deal(deal.rules, deal.dealer, deal.deck, restock=deal.restock)
        for action in deal.history:
            if start.phase is Phase.PLAY:
                break
            start.apply(action)
        return start if start.phase is Phase.PLAY else None


@dataclass
class Par:
    points: tuple[int, int]
    made: bool | None
    score_change: tuple[int, int] | None


def par_of(start: Deal | None) -> Par | None:
    """Best play with all cards open from the first lead (None without ``cinch.solver`` or a play)."""
    if start is None:
        return None
    try:
        from cinch.solver import Position, solve
    except ImportError:
        return None
    try:
        result = solve(Position.from_deal(start), card_values=False)
    except Exception:
        return None
    return Par(tuple(result.points), result.made, result.score_change)  # type: ignore[arg-type]


def describe_par(par: Par, summary: DealSummary, me: Seat) -> str:
    """The par in words, next to what the table took."""
    r = summary.result
    ns, ew = par.points
    text = f"Par with every card open, from the first lead: NS {ns}, EW {ew}"
    if r.maker is not None and par.made is not None:
        text += f" (the bid {'is made' if par.made else 'is set'})"
    if r.points is not None:
        mine = me.team
        diff = r.points[mine] - par.points[mine]
        if diff == 0:
            text += f". {mine} (you) took par."
        else:
            text += f". {mine} (you) took {r.points[mine]}: {abs(diff)} {'above' if diff > 0 else 'below'} par."
    return text


def keep_words(options, trump: Suit | None) -> str:
    """A keep decision's constraints in words, with suit symbols (as ``KeepOptions.describe()``)."""
    size = str(options.lo) if options.lo == options.hi else f"{options.lo} to {options.hi}"
    pool = " ".join(card_words(c, trump) for c in hand_order(options.pool, trump))
    text = f"keep {size} of {pool}"
    if options.must:
        text += ", including " + " ".join(card_words(c, trump) for c in hand_order(options.must, trump))
    if options.min_trumps and options.min_trumps > (options.must & options.trumps).bit_count():
        text += f", with at least {options.min_trumps} trumps"
    return text


def action_words(action: Action, trump: Suit | None = None) -> str:
    """An action for people: ``play 10♥*``, ``bid 8``, ``hearts ♥``, ``keep A♥ 5♦``."""
    if isinstance(action, Play):
        text = "play " + card_words(action.card, trump)
        if action.bury:
            text += ", bury " + " ".join(card_words(c, trump) for c in hand_order(action.bury, trump))
        return text
    if isinstance(action, Keep):
        return "keep " + " ".join(card_words(c, trump) for c in hand_order(action.cards, trump))
    if isinstance(action, NameTrump):
        return f"trumps {action.suit.name.lower()} {action.suit.symbol}"
    if isinstance(action, Pass):
        return "pass"
    return str(action)


def card_words(card: int, trump: Suit | None = None) -> str:
    c = Card(card)
    return c.symbol + ("*" if trump is not None and TRUMP_TABLES[trump].is_trump(c) else "")


def high_low_words(rules: Rules) -> str:
    high = "the ace of trumps" if rules.high is High.ACE else "the highest trump in play"
    low = {Low.TWO_HOLDER: "the 2 of trumps, to the side that played it",
           Low.TWO_CAPTURER: "the 2 of trumps, to its capturer",
           Low.LOWEST_CAPTURER: "the lowest trump in play, to its capturer"}[rules.low]
    return f"High is {high}; Low is {low}."
