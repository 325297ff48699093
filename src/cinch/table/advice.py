"""Advice at the table: the suggested hand of a keep, the cheapest burial, and hints with their estimate.

The suggestion is instant (the default bot); a hint asks the strongest installed bot and
may take a second, so a front end calls :func:`ask_hint` off its event loop or UI thread.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from cinch.actions import Action, Play
from cinch.bots import DEFAULT_BOT, bot_names, make_bot
from cinch.bots.base import Bot
from cinch.cards import Card
from cinch.errors import CinchError
from cinch.study.advise import advise
from cinch.table.narrate import Trump, tables_of
from cinch.view import Phase, SeatView

HINT_BOTS = ("expert", "heuristic", "basic")  # the strongest installed one gives hints
ADVISED_BY = "expert"  # this bot's hints at a turn to bid come from the bid advisor (its playouts, every suit)
BID_HINT_SECONDS = 1.0  # the bid advisor's time for a hint
BOT_LEVELS = ("random", "basic", "heuristic", "expert")  # the levels offered first, weakest first
ADVISOR = DEFAULT_BOT  # the quick suggestion: the pre-marked hand of a keep, plain mode's default

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


def suggest(view: SeatView, advisor: Bot | None = None) -> Action:
    """The advisor's choice (the default bot, instant): the suggested hand of a keep decision."""
    try:
        return (advisor or make_bot(ADVISOR, seed=0)).choose(view)
    except Exception:  # advice only: a failing advisor must not stop anyone's match
        return view.legal[0]


@dataclass
class Hint:
    """What the hint bot would do, and any estimate it offers."""

    bot: str
    action: Action
    estimate: str = ""  # why, in a player's words
    detail: str = ""  # the figures behind it, for whoever asks again
    table: tuple[str, ...] = ()  # a bid's hint: the advisor's line per trump suit, for whoever asks again


def ask_hint(name: str, bot: Bot, view: SeatView) -> Hint:
    """Ask ``bot`` what it would do in ``view`` (slow bots: call this off the UI thread).

    A bot may offer ``explain(view)``, returning text, an action, an ``(action, estimate)``
    pair, or an object or mapping with ``action`` and its reason in ``text`` (or
    ``estimate``) and ``detail``; otherwise only its action is shown.  The expert's hint at
    a turn to bid is the bid advisor's (:func:`bid_hint`).
    """
    if name == ADVISED_BY and view.phase is Phase.BIDDING and view.to_act == view.seat and len(view.legal) > 1:
        try:
            return bid_hint(name, view)
        except Exception:  # advice only: a failing advisor leaves the bot's own hint
            pass
    explain = getattr(bot, "explain", None)
    if callable(explain):
        try:
            got = explain(view)
        except Exception:
            got = None
        action, estimate, detail = _read_explanation(got)
        if action is not None and action in view.legal:
            return Hint(name, action, estimate, detail)
        if action is None and estimate:
            return Hint(name, bot.choose(view), estimate, detail)
    return Hint(name, bot.choose(view))


def bid_hint(name: str, view: SeatView, seconds: float | None = None) -> Hint:
    """The bid advisor's hint (:mod:`cinch.study.advise`): the recommended call in words, the figures
    in one line, and a line per trump suit (the table in brief).

    The advisor sees ``view`` only, as the bot would; its worlds are seeded, so asking again
    on the same cards gives the same call.
    """
    advice = advise(view, seconds=BID_HINT_SECONDS if seconds is None else seconds)
    return Hint(name, advice.best, advice.words(), advice.brief(), tuple(advice.suit_lines()))


def _read_explanation(got: Any) -> tuple[Action | None, str, str]:
    if got is None:
        return None, "", ""
    if isinstance(got, Action):
        return got, "", ""
    if isinstance(got, str):
        return None, got, ""
    if isinstance(got, tuple) and len(got) == 2 and isinstance(got[0], Action):
        return got[0], _estimate_text(got[1]), ""
    field = got.get if isinstance(got, dict) else lambda key, default=None: getattr(got, key, default)
    action = field("action")
    words = field("text") or field("estimate")
    return ((action if isinstance(action, Action) else None), _estimate_text(words),
            _estimate_text(field("detail")))


def _estimate_text(value: Any) -> str:
    if value is None or value == "":
        return ""
    if isinstance(value, float):
        return f"{value:+.1f}"
    return str(value)


def cheapest_bury(plays: Iterable[Action], trump: Trump, prefer: Action | None = None) -> dict[Card, Play]:
    """For each card, the legal play that buries the cheapest cards (plain before trumps, low first);
    ``prefer`` (a suggestion) wins for its own card when it is legal."""
    t = tables_of(trump)  # a suit, or the deal's tables (the bowers' under all-hands Pedro)

    def cost(p: Play) -> list[tuple[bool, int]]:
        return sorted(((t.power[c] > 0, t.power[c] or 13 - c % 13) for c in p.bury), reverse=True)

    candidates = [p for p in plays if isinstance(p, Play)]
    best: dict[Card, Play] = {}
    for p in candidates:
        if p.card not in best or cost(p) < cost(best[p.card]):
            best[p.card] = p
    if isinstance(prefer, Play) and prefer in candidates:
        best[prefer.card] = prefer
    return best
