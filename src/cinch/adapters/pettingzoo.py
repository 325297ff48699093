"""Cinch as a PettingZoo AEC environment: one episode is one deal.

>>> from cinch.adapters.pettingzoo import env
>>> e = env(rules="official")
>>> e.reset(seed=1)
>>> e.agent_selection, e.observation_space("player_0")["action_mask"].shape
('player_2', (188,))

- Agents: at four players ``player_0`` .. ``player_3``, the seats N, E, S, W; at a cut-throat
  table of 2, 3, 5 or 6 (``players=3``, or the rules' ``players`` option) ``player_1`` ..
  ``player_n``, named as its seats ``1`` .. ``n`` (``CinchEnv.seat_of``, ``agent_names``).
- Observations are sized for the table (one row per seat, :mod:`cinch.adapters._core`).
- Actions: the 188 ids of :mod:`cinch.adapters._core` (the same as the OpenSpiel game):
  pass, bid n, trump, play, and keeps and buries one card at a time.
- Observations: ``{"observation": float32 vector of the seat's view, "action_mask": int8}``
  (the mask is all zeros for a seat that is not to act).
- Rewards: zero until the deal ends.  Then, with two sides (four players in partnerships, or
  two players), each agent's side's score change less the other side's; with three, five or
  six, each his own score change.  Chance (the deck, a new stock's order) is drawn from the
  environment's seed.
- One pack: two-deck Cinch (``decks=2``) is refused at construction, in one line
  (:func:`cinch.adapters._core.check_one_pack`): the ids and the observation are one pack's.

>>> e = env(rules="official", players=3)
>>> e.possible_agents, e.observation_space("player_1")["observation"].shape
(['player_1', 'player_2', 'player_3'], (1289,))
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from cinch.adapters import _core
from cinch.adapters._core import NUM_ACTIONS, Turn
from cinch.cards import Seat
from cinch.deal import Deal
from cinch.rules import Rules
from cinch.seating import seating

AGENTS = tuple(f"player_{i}" for i in range(4))  # the partnership game's: N E S W


def agent_names(players: int = 4) -> tuple[str, ...]:
    """The agents at a table: ``player_0`` .. ``player_3`` at four, else named as the seats.

    >>> agent_names(4)[0], agent_names(3)
    ('player_0', ('player_1', 'player_2', 'player_3'))
    """
    table = seating(players)
    if table.partnership:
        return AGENTS
    return tuple(f"player_{name}" for name in table.names)


def agent_seat(agent: str, players: int = 4) -> Seat:
    """The seat an agent plays at a table of ``players``."""
    names = agent_names(players)
    if agent not in names:
        raise ValueError(f"{agent!r} is not an agent at this table; the agents are {' '.join(names)}")
    return seating(players).seats[names.index(agent)]


def env(rules: str | Rules | dict = "pagat", render_mode: str | None = None, dealer: str | Seat | None = None,
        players: int | None = None) -> CinchEnv:
    """A Cinch AEC environment under a preset name, a rules object or a record-style rules spec.

    ``players`` (2 to 6) sets the rules' ``players`` option.
    """
    return CinchEnv(rules=rules, render_mode=render_mode, dealer=dealer, players=players)


class CinchEnv(AECEnv):
    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "name": "cinch_v0", "is_parallelizable": False}

    def __init__(self, rules: str | Rules | dict = "pagat", render_mode: str | None = None,
                 dealer: str | Seat | None = None, players: int | None = None):
        super().__init__()
        self.rules = rules if isinstance(rules, Rules) else Rules.from_json(rules)
        if players is not None:
            self.rules = self.rules.with_options(players=players)
        _core.check_one_pack(self.rules, "the PettingZoo environment cinch_v0")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.table = self.rules.seating
        table = self.table
        if dealer is None:
            self.fixed_dealer: Seat | None = None
        elif isinstance(dealer, str):
            self.fixed_dealer = table.parse_seat(dealer)
        elif not 0 <= int(dealer) < table.players:
            raise ValueError(f"dealer {int(dealer)}: the seats are 0 to {table.players - 1}")
        else:
            self.fixed_dealer = table.seats[int(dealer)]
        names = agent_names(table.players)
        self.possible_agents = list(names)
        self.agents = list(names)
        obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (_core.obs_size(table.players),), np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in names}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in names}
        self._rng = random.Random()
        self._tensor, self._pieces = _core.make_buffers(table.players)
        self.turn: Turn | None = None
        self.rewards = {a: 0.0 for a in names}
        self._cumulative_rewards = {a: 0.0 for a in names}
        self.terminations = {a: False for a in names}
        self.truncations = {a: False for a in names}
        self.infos: dict[str, dict] = {a: {} for a in names}
        self.agent_selection = names[0]

    def seat_of(self, agent: str) -> Seat:
        """The seat an agent plays (``player_0`` is N at four players, ``player_1`` is 1 cut-throat)."""
        if agent not in self.possible_agents:
            raise ValueError(f"{agent!r} is not an agent here; the agents are {' '.join(self.possible_agents)}")
        return self.table.seats[self.possible_agents.index(agent)]

    def agent_of(self, seat: int) -> str:
        """The agent playing a seat."""
        return self.possible_agents[seat]

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
        table = self.table
        dealer = self.fixed_dealer if self.fixed_dealer is not None else table.seats[self._rng.randrange(table.players)]
        self.turn = Turn(Deal.shuffled(self.rules, dealer, self._rng))
        names = self.possible_agents
        self.agents = list(names)
        self.rewards = {a: 0.0 for a in names}
        self._cumulative_rewards = {a: 0.0 for a in names}
        self.terminations = {a: False for a in names}
        self.truncations = {a: False for a in names}
        self.infos = {a: {} for a in names}
        self._select()

    def _select(self) -> None:
        assert self.turn is not None
        actor = self.turn.actor
        if actor is not None:
            self.agent_selection = self.possible_agents[actor]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.turn is not None, "reset() the environment first"
        seat = int(self.seat_of(agent))
        turn = self.turn
        view = turn.deal.view(seat)
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
            returns = _core.seat_returns(deal)
            for i, name in enumerate(self.possible_agents):
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
        for seat in self.table.seats:
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
