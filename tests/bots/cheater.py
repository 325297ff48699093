"""A test-only player that sees every card: the ceiling an honest bot is measured against.

:class:`CheaterBot` breaks the view rule on purpose: it is given the whole
:class:`~cinch.deal.Deal` (``choose_full(deal, seat)``), never a
:class:`~cinch.view.SeatView`, so it lives under ``tests/`` and is not registered with
``make_bot``.  It plays by the exact double-dummy solver on the true hands (the best card
for its side's settlement, the solver's best burial on trick 1), names the trump whose
par as makers is highest, bids what that par says it will take, and keeps (discard,
rob) what the heuristic bot would keep.

:func:`play_duplicate` is the arena's duplicate loop with a way to hand the cheater the
full state: each deck is played twice with the teams swapped, and the cheater's net
points per deal (its side's score change less the other side's) are returned per pair.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from cinch import Deal, Phase, Rules, Seat
from cinch.actions import BIDS, PASS, PLAYS, TRUMPS, Action, Bid, Pass, Play
from cinch.arena import derive_seed
from cinch.bots import make_bot
from cinch.scoring import settle
from cinch.solver import Position, solve

__all__ = ["CheaterBot", "play_duplicate"]


class CheaterBot:
    """Sees the whole deal; plays the solver's best card on the true hands."""

    name = "cheater"

    def __init__(self, seed: int | None = None):
        self.seed = seed
        self.rng = random.Random(seed)
        self._heuristic = make_bot("heuristic", seed=0)

    # ---- decisions ---------------------------------------------------------------------------
    def choose_full(self, deal: Deal, seat: Seat) -> Action:
        legal = deal.legal_actions()
        if len(legal) == 1:
            return legal[0]
        phase = deal.phase
        if phase is Phase.PLAY:
            return self._play(deal, seat)
        if phase is Phase.BIDDING:
            return self._bid(deal, seat)
        if phase is Phase.TRUMP:
            return TRUMPS[max(range(4), key=lambda s: self._par_as_maker(deal, seat, s))]
        return self._heuristic.choose(deal.view(seat))

    def _play(self, deal: Deal, seat: Seat) -> Action:
        result = solve(Position.from_deal(deal))
        team = seat & 1
        makers = deal.maker.team
        best, best_key = None, None
        for card, value in result.card_values.items():
            _, change = settle(deal.rules, makers, deal.high_bid, result.points_after(card))
            key = (change[team] - change[1 - team], value if team == 0 else -value)
            if best_key is None or key > best_key:
                best, best_key = card, key
        assert best is not None
        options = [a for a in deal.legal_actions() if isinstance(a, Play) and a.card == best]
        if len(options) == 1:
            return options[0]
        bury = result.buries.get(best)
        for a in options:
            if bury is not None and a.bury == bury:
                return a
        return options[0] if options else PLAYS[best]

    def _bid(self, deal: Deal, seat: Seat) -> Action:
        legal = deal.legal_actions()
        bids = [a for a in legal if isinstance(a, Bid)]
        if not any(isinstance(a, Pass) for a in legal):
            return bids[0]  # a stuck dealer
        rules = deal.rules
        take = max(self._par_as_maker(deal, seat, s) for s in range(4))
        # Worth making: more than half the points (so the makers come out ahead), and a legal bid.
        if 2 * take > rules.total_points:
            amount = min(take, rules.highest_bid)
            if any(b.amount == amount for b in bids):
                return BIDS[amount]
        return PASS

    def _par_as_maker(self, deal: Deal, seat: Seat, suit: int) -> int:
        """The points ``seat``'s side takes with best play if it names ``suit`` (the others keep as the heuristic)."""
        d = deal.copy()
        rng = random.Random(0)
        if d.phase is Phase.BIDDING:
            options = d.legal_actions()
            d.apply(next(a for a in options if isinstance(a, Bid)))
            while d.phase is Phase.BIDDING:
                options = d.legal_actions()
                d.apply(PASS if PASS in options else options[0])
        if d.phase is Phase.TRUMP:
            d.apply(TRUMPS[suit])
        while d.phase not in (Phase.PLAY, Phase.DONE):
            if d.phase is Phase.RESTOCK:
                order = list(d.restock_pool)
                rng.shuffle(order)
                d.apply_restock(order)
                continue
            options = d.legal_actions()
            d.apply(options[0] if len(options) == 1 else self._heuristic.choose(d.view(d.to_act)))
        if d.phase is Phase.DONE:
            return 0
        return solve(Position.from_deal(d), card_values=False).points[seat & 1]


# ---- the duplicate loop ----------------------------------------------------------------------------
def play_duplicate(other: str, rules: Rules | str = "pagat", pairs: int = 10, seed: int = 0,
                   options: Mapping[str, Any] | None = None) -> list[float]:
    """The cheater against ``other`` (a bot name, made with ``options``): its net per deal, pair by pair."""
    if isinstance(rules, str):
        rules = Rules.preset(rules)
    nets = []
    for index in range(pairs):
        legs = []
        for cheat_team in (0, 1):
            bots: dict[Seat, Any] = {}
            for seat in Seat:
                if seat & 1 == cheat_team:
                    bots[seat] = CheaterBot(seed=derive_seed(seed, "cheater", index, int(seat)))
                else:
                    bots[seat] = make_bot(other, seed=derive_seed(seed, "bot", index, int(seat)), **dict(options or {}))
            deal = Deal.shuffled(rules, Seat(index % 4), random.Random(derive_seed(seed, "deck", index)))
            while not deal.is_over:
                seat = deal.to_act
                bot = bots[seat]
                if isinstance(bot, CheaterBot):
                    action = bot.choose_full(deal, seat)
                else:
                    action = bot.choose(deal.view(seat, score=(0, 0), target=rules.target))
                deal.apply(action, seat)
            change = deal.result.score_change
            legs.append(change[cheat_team] - change[1 - cheat_team])
        nets.append(sum(legs) / 2)
    return nets
