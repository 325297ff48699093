"""Playouts: the rest of a deal played by one bot in every seat.

The expert judges its calls, trumps and keeps this way, and the bid advisor
(:mod:`cinch.study.advise`) its table of suits and levels; both use these two functions,
so "played out as the expert judges a bid" means the same thing everywhere.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from cinch.actions import Action
from cinch.bots.base import Bot
from cinch.deal import Deal, DealResult
from cinch.view import Phase, SeatView

__all__ = ["bid_out", "play_out"]


def play_out(deal: Deal, rng: random.Random, bot: Bot, context: dict[str, Any] | None = None) -> DealResult:
    """Play ``deal`` to its end with ``bot`` in every seat (``deal`` is changed) and return its result.

    ``context`` (score, target, bidder_goes_out) goes to the views of the bidding only, where a
    score changes a call; a new stock made of the discards is shuffled with ``rng``.
    """
    context = context or {}
    choose = bot.choose
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


def bid_out(deal: Deal, choose: Callable[[SeatView], Action], context: dict[str, Any]) -> None:
    """The rest of the auction, every seat calling as ``choose`` does, passes included (``deal`` is changed)."""
    while deal.phase is Phase.BIDDING:
        options = deal.legal_actions()
        bidder = deal.to_act
        assert bidder is not None
        deal.apply(options[0] if len(options) == 1 else choose(deal.view(bidder, **context)))
