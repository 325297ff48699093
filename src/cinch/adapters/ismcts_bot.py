"""``openspiel-ismcts``: OpenSpiel's information-set MCTS playing Cinch from a seat's view.

For each decision the bot draws a world consistent with its view (:mod:`cinch.worlds`),
turns it into a ``python_cinch`` state, and runs OpenSpiel's
:class:`~open_spiel.python.algorithms.ismcts.ISMCTSBot` with a random-rollout evaluator.
Every simulation starts from a fresh world drawn from the same view (the bot's resampler
calls :mod:`cinch.worlds` with the bot's own generator, so a seeded bot is deterministic
when it runs a fixed number of simulations).  It maximises the game's return for its seat
(the deal's score difference for its side with two sides, its own score change at three,
five or six players); the match score is not considered.  It plays at every table size, with one
pack: the OpenSpiel game is one pack's, so two-deck Cinch (``decks=2``) is refused in one line.

Keeps and buries are several OpenSpiel decisions (one card at a time, see
:mod:`cinch.adapters._core`).  The bot searches each of them in turn, from the state
holding the cards picked so far (the search tree keys on the player's information state,
which includes those picks), and assembles the whole keep: a search per sub-decision
lets later picks depend on earlier ones, where greedy picks from one search could not.
The budget is per cinch decision: ``simulations`` runs that many simulations for each
sub-decision (so a keep of four picks costs four searches); ``time_budget`` (seconds) is
shared among the sub-decisions of one keep, each getting the time left divided by the
picks still possible.  The default is 100 simulations per decision, which keeps the bot
deterministic for its seed; a time budget makes the number of simulations, and so the
play, depend on the machine.
"""

from __future__ import annotations

import time

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from cinch.actions import Action
from cinch.adapters import _core
from cinch.adapters.openspiel import CinchState, game_for, state_from_view
from cinch.bots.base import Bot, register
from cinch.keep import KeepOptions
from cinch.rules import Rules
from cinch.view import Phase, SeatView
from cinch.worlds import WorldError

DEFAULT_SIMULATIONS = 100


_ONE_PACK = "the openspiel-ismcts bot (it searches the OpenSpiel game)"


@register("openspiel-ismcts")
class OpenSpielISMCTSBot(Bot):
    """IS-MCTS (OpenSpiel) over worlds sampled from the view."""

    def __init__(self, seed: int | None = None, simulations: int | None = None,
                 time_budget: float | None = None, uct_c: float | None = None, rollouts: int = 1):
        super().__init__(seed)
        if simulations is None and time_budget is None:
            simulations = DEFAULT_SIMULATIONS
        if simulations is not None and simulations < 1:
            raise ValueError("simulations must be at least 1")
        if time_budget is not None and time_budget <= 0:
            raise ValueError("time_budget must be positive")
        self.simulations = simulations
        self.time_budget = time_budget
        self.uct_c = uct_c
        self.rollouts = rollouts
        self._np = np.random.RandomState(self.rng.randrange(2 ** 31))

    @classmethod
    def check_rules(cls, rules: Rules) -> None:
        _core.check_one_pack(rules, _ONE_PACK)

    def choose(self, view: SeatView) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        start = time.perf_counter()
        _core.check_one_pack(view.rules, _ONE_PACK)
        game = game_for(view.rules, view.dealer)
        state = state_from_view(game, view, self.rng)
        uct_c = self.uct_c if self.uct_c is not None else _core.utility_bound(view.rules) / 2
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=self.rollouts, random_state=self._np)
        bot = ismcts.ISMCTSBot(game, evaluator, uct_c, max_simulations=self.simulations or 1,
                               random_state=self._np,
                               final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
        bot.set_resampler(self._resample)
        deal = state.deal
        made = len(deal.history)
        while len(deal.history) == made:
            ids = state.legal_actions()
            if len(ids) == 1:
                a = ids[0]
            else:
                deadline = None
                if self.time_budget is not None:
                    left = self.time_budget - (time.perf_counter() - start)
                    deadline = time.perf_counter() + max(0.0, left) / _steps_left(state)
                a = self._search(bot, state, deadline)
            state.apply_action(a)
            deal = state.deal
        return deal.history[-1]

    def _resample(self, state: CinchState, player: int) -> CinchState:
        """Another world for the search; the root's own world when the sampler finds none in time.

        The root state was itself drawn from the view, so repeating it keeps the search on the
        seat's information (it only narrows the search), where an error would lose the decision.
        """
        try:
            return state.resample(player, self.rng)
        except WorldError:
            return state.clone()

    def _search(self, bot: ismcts.ISMCTSBot, state: CinchState, deadline: float | None) -> int:
        bot.reset()
        node = bot._root_node = bot.create_new_node(state)  # as ISMCTSBot.run_search does
        n = 0
        while True:
            bot.run_simulation(bot.sample_root_state(state))
            n += 1
            if not node.child_info:  # OpenSpiel's first simulation only expands the root: nothing to pick yet
                continue
            if self.simulations is not None and n >= self.simulations:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
        best = max(child.visits for child in node.child_info.values())
        choices = sorted(a for a, child in node.child_info.items() if child.visits == best)
        return choices[self.rng.randrange(len(choices))]


def _steps_left(state: CinchState) -> int:
    """How many more sub-decisions the pending decision may take (for sharing a time budget)."""
    turn = state.turn
    assert turn is not None
    deal = turn.deal
    if deal.phase in (Phase.DISCARD, Phase.ROB):
        options = deal.legal_actions()
        assert isinstance(options, KeepOptions)
        return max(1, options.hi - (options.must | turn.picked).bit_count())
    if deal.phase is Phase.PLAY:
        legal = _core.legal_plays(deal)
        if turn.card >= 0 or (legal and legal[0].bury):
            excess = len(legal[0].bury) if legal else 1
            return max(1, excess + 1 - len(turn.steps))
    return 1
