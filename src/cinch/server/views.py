"""A deal as JSON for one seat, or for a spectator: what goes into a ``state`` message.

A seat's JSON is built from its :class:`~cinch.view.SeatView` only, and a spectator's
from a seat's view with everything that seat alone knows taken out
(:func:`public_view`), so neither can hold a card the engine would not show them.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from typing import Any

from cinch.actions import Action
from cinch.cards import CardSet, Seat, Suit
from cinch.keep import KeepOptions
from cinch.match import DealSummary, Match, teams_json
from cinch.table.narrate import keep_words, result_lines, view_trump
from cinch.view import PlayedCard, SeatView

_NOTHING = CardSet(0)


def public_view(view: SeatView) -> SeatView:
    """What anyone watching may know: the seat's view without its hand, its own discards and draws,
    the stock the dealer saw, and its legal actions."""
    return dataclasses.replace(view, hand=_NOTHING, own_discards=_NOTHING, own_drawn=_NOTHING,
                               stock_seen=_NOTHING, legal=())


@functools.lru_cache(maxsize=1 << 16)
def cards(mask: int) -> tuple[str, ...]:
    """The cards of a mask in record notation (the same hands recur in every state: written out once)."""
    return tuple(str(c) for c in CardSet(mask))


def _by_seat(view: SeatView, values: tuple[Any, ...], convert: Any = None) -> dict[str, Any]:
    """Values by seat, keyed by the table's seat names (``N E S W``, or ``1`` to ``n``)."""
    names = view.rules.seating.names
    if convert is None:
        return dict(zip(names, values, strict=True))
    return {name: convert(v) for name, v in zip(names, values, strict=True)}


def _plays(plays: tuple[PlayedCard, ...]) -> list[dict[str, Any]]:
    out = []
    for p in plays:
        entry: dict[str, Any] = {"seat": p.seat.name, "card": str(p.card)}
        if p.buried:
            entry["buried"] = cards(p.buried)
        out.append(entry)
    return out


def public_deal_json(view: SeatView, commitment: str | None = None) -> dict[str, Any]:
    """What everyone at the table sees of the deal (the same from every seat's view)."""
    trump: Suit | None = view.trump
    return {
        "number": view.deal_number,
        "dealer": view.dealer.name,
        "phase": view.phase.value,
        "to_act": None if view.to_act is None else view.to_act.name,
        "maker": None if view.maker is None else view.maker.name,
        "bid": view.bid,
        "trump": None if trump is None else trump.letter,
        "bowers": view.rules.bowers,  # all-hands Pedro: the page stars the left bower as a trump, not the 5
        "decks": view.rules.decks,  # two-deck Cinch: a card may be held twice; the shuffle deals 104
        "auction": [{"seat": s.name, "call": str(c)} for s, c in view.auction],
        "hand_sizes": _by_seat(view, view.hand_sizes),
        "drawn": _by_seat(view, view.drawn_counts),
        "face_up": _by_seat(view, view.face_up_discards, cards),
        "shown_trumps": _by_seat(view, view.shown_trumps, cards),
        "tricks": [{"leader": t.leader.name, "plays": _plays(t.plays), "winner": t.winner.name} for t in view.tricks],
        "trick": {"leader": None if view.trick_leader is None else view.trick_leader.name,
                  "plays": _plays(view.current_trick)},
        "commitment": commitment,
        "bidder_goes_out": view.bidder_goes_out,
        **({"irregularities": list(view.irregularities)} if view.rules.honour_rule else {}),
    }


def private_deal_json(view: SeatView, suggestion: Action | None = None,
                      irregular: Sequence[Action] = ()) -> dict[str, Any]:
    """What only the seat knows: its hand, its own discards and draws, the stock it robbed, its choices;
    under the honour rule also what it may do against the rules now (``irregular``: its revokes, from its
    own hand, and under 003 its bids and leads out of turn), which no other seat is told."""
    out = {
        "hand": cards(view.hand),
        "own_discards": cards(view.own_discards),
        "own_drawn": cards(view.own_drawn),
        "stock_seen": cards(view.stock_seen),
        **legal_json(view, suggestion),
    }
    if view.rules.honour_rule:
        out["irregular"] = [str(a) for a in irregular]
    return out


def legal_json(view: SeatView, suggestion: Action | None) -> dict[str, Any]:
    """The seat's legal actions in record notation; a keep as its constraints (there may be thousands)."""
    legal = view.legal
    if isinstance(legal, KeepOptions) and len(legal) > 1:
        return {"legal": [], "keep": {
            "pool": cards(legal.pool), "must": cards(legal.must), "fewest": legal.lo, "most": legal.hi,
            "min_trumps": legal.min_trumps, "count": len(legal), "rule": keep_words(legal, view_trump(view)),
            "suggestion": None if suggestion is None else str(suggestion),
        }}
    return {"legal": [str(a) for a in legal], "keep": None}


def summary_json(summary: DealSummary, match: Match, me: Seat | None) -> dict[str, Any]:
    """A finished deal: the result, each point card's taker, and the settlement in words."""
    out = summary.to_json()
    out["number"] = summary.number
    out["awards"] = [{"name": a.name, "card": str(a.card), "team": a.team.name, "points": a.points, "how": a.how}
                     for a in summary.result.awards]
    out["words"] = result_lines(summary, me, match.rules, summary.score)
    return out


def match_json(match: Match, me: Seat | None,
               cache: dict[tuple[int, Seat | None], dict[str, Any]] | None = None) -> dict[str, Any]:
    """The match so far; ``cache`` keeps the last deal's summary (by deal number and seat) between calls."""
    score = match.score
    last = None
    if match.summaries:
        key = (len(match.summaries), me)
        last = cache.get(key) if cache is not None else None
        if last is None:
            last = summary_json(match.summaries[-1], match, me)
            if cache is not None:
                cache[key] = last
    return {
        "score": teams_json(score, match.table),  # by side: {"NS": .., "EW": ..}, or by player {"1": .., ...}
        "target": match.rules.target,
        "deals": len(match.deals),
        "winner": None if match.winner is None else match.winner.name,
        "last_deal": last,
    }
