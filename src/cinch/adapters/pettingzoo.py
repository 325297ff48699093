"""Cinch as a PettingZoo AEC environment: one episode is one deal.

>>> from cinch.adapters.pettingzoo import env
>>> e = env(rules="official")
>>> e.reset(seed=1)
>>> e.agent_selection, e.observation_space("player_0")["action_mask"].shape
('player_2', (188,))

- Agents ``player_0`` .. ``player_3`` are the seats N, E, S, W (``agent_seat``).
- Actions: the 188 ids of :mod:`cinch.adapters._core` (the same as the OpenSpiel game):
  pass, bid n, trump, play, and keeps and buries one card at a time.
- Observations: ``{"observation": float32 vector of the seat's view, "action_mask": int8}``
  (the mask is all zeros for a seat that is not to act).
- Rewards: zero until the deal ends, then each agent's team score change less the other
  team's.  Chance (the deck, a new stock's order) is drawn from the environment's seed.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from cinch.adapters import _core
from cinch.adapters._core import NUM_ACTIONS, OBS_SIZE, Turn
from cinch.cards import SEATS, Seat
from cinch.deal import Deal
from cinch.rules import Rules

AGENTS = tuple(f"player_{i}" for i in range(4))


def agent_seat(agent: str) -> Seat:
    return SEATS[AGENTS.index(agent)]


def env(rules: str | Rules | dict = "pagat", render_mode: str | None = None, dealer: str | Seat | None = None
        ) -> CinchEnv:
    """A Cinch AEC environment under a preset name, a rules object or a record-style rules spec."""
    return CinchEnv(rules=rules, render_mode=render_mode, dealer=dealer)


class CinchEnv(AECEnv):
    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "name": "cinch_v0", "is_parallelizable": False}

    def __init__(self, rules: str | Rules | dict = "pagat", render_mode: str | None = None,
                 dealer: str | Seat | None = None):
        super().__init__()
        self.rules = rules if isinstance(rules, Rules) else Rules.from_json(rules)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.fixed_dealer = None if dealer is None else (Seat.parse(dealer) if isinstance(dealer, str)
                                                         else Seat(dealer))
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in AGENTS}
        self._rng = random.Random()
        self._tensor, self._pieces = _core.make_buffers()
        self.turn: Turn | None = None
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos: dict[str, dict] = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[0]

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    @property
    def deal(self) -> Deal | None:
        return None if self.turn is None else self.turn.deal

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        dealer = self.fixed_dealer if self.fixed_dealer is not None else SEATS[self._rng.randrange(4)]
        self.turn = Turn(Deal.shuffled(self.rules, dealer, self._rng))
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos = {a: {} for a in AGENTS}
        self._select()

    def _select(self) -> None:
        assert self.turn is not None
        actor = self.turn.actor
        if actor is not None:
            self.agent_selection = AGENTS[actor]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.turn is not None, "reset() the environment first"
        seat = AGENTS.index(agent)
        turn = self.turn
        view = turn.deal.view(SEATS[seat])
        self._tensor.fill(0.0)
        if turn.steps and turn.actor == seat:
            _core.encode_view(self._pieces, view, seat, picked=turn.picked, named=turn.card)
        else:
            _core.encode_view(self._pieces, view, seat)
        mask = np.zeros(NUM_ACTIONS, np.int8)
        if turn.actor == seat and not turn.deal.is_over:
            mask[turn.legal_ids()] = 1
        return {"observation": self._tensor.copy(), "action_mask": mask}

    def legal_ids(self) -> list[int]:
        """The legal action ids of the agent to act."""
        assert self.turn is not None
        return self.turn.legal_ids()

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.turn is not None
        a = int(action)
        if a not in self.turn.legal_ids():
            raise ValueError(f"{agent}: {_core.id_to_string(a) if 0 <= a < NUM_ACTIONS else a} is not legal now")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.turn.apply_id(a)
        deal = self.turn.deal
        if deal.is_over:
            returns = _core.team_returns(deal)
            for i, name in enumerate(AGENTS):
                self.rewards[name] = returns[i]
                self.terminations[name] = True
                result = deal.result
                self.infos[name] = {"result": result.describe() if result is not None else ""}
        else:
            self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.turn is None:
            return None
        deal = self.turn.deal
        lines = [f"{self.rules.name}: dealer {deal.dealer}, {deal.phase.value}, to act {deal.to_act}"]
        for seat in SEATS:
            lines.append(f"  {seat}: {deal.hand(seat)}")
        if deal.trick:
            lines.append("  trick: " + " ".join(f"{p.seat}:{p.card}" for p in deal.trick))
        if deal.result is not None:
            lines.append("  " + deal.result.describe())
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
