"""The OpenSpiel game ``python_cinch`` (cinch.adapters.openspiel)."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from cinch import PRESET_NAMES, Deal, Keep, Rules, Seat  # noqa: E402
from cinch.adapters import _core  # noqa: E402
from cinch.adapters.openspiel import (  # noqa: E402
    CinchGame,
    game_for,
    rules_from_params,
    state_from_deal,
)
from cinch.view import Phase  # noqa: E402
from helpers import table  # noqa: E402


def load(rules="pagat", **params):
    text = ",".join([f"rules={rules}"] + [f"{k}={v}" for k, v in params.items()])
    return pyspiel.load_game(f"python_cinch({text})")


def random_state(game, rng, stop=None):
    """Play at random from the start; ``stop(state)`` ends the walk early."""
    state = game.new_initial_state()
    while not state.is_terminal() and not (stop and stop(state)):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    return state


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_random_sim_test(preset):
    pyspiel.random_sim_test(load(preset), num_sims=3, serialize=False, verbose=False)


@pytest.mark.parametrize("options", [
    "bidding=auction;follow=strict;sancho=true",
    "no_draw=true",
    "discard=choose-concealed",
    "sancho=true;dom_pedro=true",
])
def test_random_sim_test_with_options(options):
    base = "additive" if "auction" in options else "pagat"
    game = pyspiel.load_game("python_cinch", {"rules": base, "options": options.replace(";", ",")})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_serialization_round_trip():
    pyspiel.random_sim_test(load("official"), num_sims=1, serialize=True, verbose=False)


def test_game_parameters():
    game = load("additive", dealer="E", options="target:42;sancho:false")
    assert game.rules.target == 42 and game.rules.preset_name == "additive"
    assert game.dealer == Seat.E
    assert game.num_distinct_actions() == _core.NUM_ACTIONS == 188
    assert game.max_chance_outcomes() == 52
    assert game.max_utility() == -game.min_utility() == 14 + 14
    rules = rules_from_params({"rules": '{"preset": "additive", "sancho": true}', "options": "follow=strict"})
    assert rules.sancho and rules.follow.value == "strict"
    assert game_for(rules, Seat.S) is game_for(rules, Seat.S)


def test_chance_deals_the_deck_then_the_game_is_zero_sum():
    game = load("difference")
    state = random_state(game, random.Random(1))
    history = state.history()
    assert sorted(history[:52]) == list(range(52))
    returns = state.returns()
    assert sum(returns) == 0 and returns[0] == returns[2] and returns[1] == returns[3]
    deal = state.deal
    ns, ew = deal.result.score_change
    assert returns[0] == ns - ew


def test_information_state_hides_other_hands():
    """Two states that differ only in E's and W's cards look the same to N and S."""
    game = load("pagat", dealer="W")
    base = dict(N="AH KH QH 5D JH TH 2C 3C 4C", S="AS KS QS JS TS 9S 8S 7S 6S",
                E="6H 9H 8H 7H 5H 2H 5C 6C 7C", W="4H 3H AD KD QD JD TD 9D 8D",
                stock="5S 4S 3S 2S 7D 6D 4D 3D 2D 8C 9C TC JC QC KC AC")
    swapped = dict(base, E="6H 9H 8H 7H 5H 2H AD KD QD", W="4H 3H 5C 6C 7C JD TD 9D 8D")
    states = []
    for hands in (base, swapped):
        deck = table("W", **hands)
        state = game.new_initial_state()
        for c in Deal(game.rules, Seat.W, deck).deck:
            state.apply_action(int(c))
        for text in ("bid 7", "pass", "pass", "pass"):
            state.apply_action(_core.action_id(_parse(text)))
        states.append(state)
    a, b = states
    for player in (0, 2):
        assert a.information_state_string(player) == b.information_state_string(player)
        assert a.observation_string(player) == b.observation_string(player)
        assert np.array_equal(a.information_state_tensor(player), b.information_state_tensor(player))
    for player in (1, 3):
        assert a.information_state_string(player) != b.information_state_string(player)
    assert "AD" not in a.information_state_string(0)


def _parse(text):
    from cinch import parse_action

    return parse_action(text)


@pytest.mark.parametrize("preset", ["pagat", "additive", "double-pedro"])
def test_resample_keeps_the_information_state(preset):
    game = load(preset)
    rng = random.Random(3)
    checked = 0
    for seed in range(3):
        walk = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[walk.randrange(len(outcomes))][0])
                continue
            if walk.random() < 0.3:
                player = state.current_player()
                for p in (player, (player + 1) % 4):
                    new = state.resample(p, rng)
                    assert new.information_state_string(p) == state.information_state_string(p)
                    assert new.observation_string(p) == state.observation_string(p)
                    assert np.array_equal(new.information_state_tensor(p), state.information_state_tensor(p))
                    assert new.current_player() == player
                    if p == player:
                        assert new.legal_actions() == state.legal_actions()
                    checked += 1
                other = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
                assert other.information_state_string(player) == state.information_state_string(player)
            legal = state.legal_actions()
            state.apply_action(legal[walk.randrange(len(legal))])
    assert checked > 10


def test_resampled_worlds_differ():
    game = load("official")
    state = random_state(game, random.Random(5), stop=lambda s: s.deal is not None and s.deal.phase is Phase.PLAY)
    player = state.current_player()
    rng = random.Random(1)
    others = {str(state.resample(player, rng).deal.hand(Seat((player + 1) % 4))) for _ in range(10)}
    assert len(others) > 1


def test_ismcts_bot_plays_a_full_episode():
    from open_spiel.python.algorithms import ismcts, mcts

    game = load("pagat")
    rs = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=10.0, max_simulations=4, random_state=rs)
    state = game.new_initial_state()
    rng = random.Random(0)
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
    assert decisions >= 4
    assert sum(state.returns()) == 0


def count_keeps(turn) -> int:
    """Leaves of the tree of keep sub-decisions from here."""
    n = 0
    for a in turn.legal_ids():
        child = turn.copy()
        child.apply_id(a)
        if child.steps:
            n += count_keeps(child)
        else:
            n += 1
    return n


def test_keep_decisions_are_exact():
    """Every legal keep has one sequence of sub-decisions, and every sequence is a legal keep."""
    seen = 0
    for preset in ("additive", "difference", "official", "double-pedro", "pagat"):
        game = load(preset)
        for seed in range(12):
            state = random_state(game, random.Random(seed),
                                 stop=lambda s: s.deal is not None and s.deal.phase in (Phase.DISCARD, Phase.ROB))
            if state.is_terminal():
                continue
            turn = state.turn
            options = turn.deal.legal_actions()
            if len(options) <= 400:
                assert count_keeps(turn) == len(options)
            rng = random.Random(seed)
            for _ in range(10):
                keep = options[rng.randrange(len(options))]
                ids = turn.ids_for(keep)
                assert turn.action_of(ids) == keep
                assert ids[0] in turn.legal_ids()
            seen += 1
    assert seen > 10


def test_bury_decisions():
    """Trick 1 under the buried-excess rule: name the card, then bury the excess card by card."""
    game = load("pagat", dealer="W")
    deck = table("W", N="AH KH QH JH TH 9H 8H 7H 2C", E="6H 5H 4H 3H 2H 5D AS KS QS",
                 S="AD KD QD JD TD 9D 8D 7D 6D", W="AC KC QC JC TC 9C 8C 7C 6C",
                 stock="JS TS 9S 8S 7S 6S 5S 4S 3S 2S 4D 3D 2D 5C 4C 3C")
    deal = Deal(game.rules, Seat.W, deck)
    for text in ("bid 7", "pass", "pass", "pass", "trump H"):
        deal.apply(_parse(text))
    while deal.phase is not Phase.PLAY:
        deal.apply(deal.legal_actions()[0])
    assert deal.to_act == Seat.N and len(deal.hand(Seat.N)) > 6
    state = state_from_deal(game, deal)
    plays = deal.legal_actions()
    assert all(p.bury for p in plays)
    assert count_keeps(state.turn) == len(plays)
    for play in plays[:5]:
        ids = state.turn.ids_for(play)
        assert ids[0] == _core.PLAY_BASE + play.card
        assert state.turn.action_of(ids) == play
    state.apply_action(state.legal_actions()[0])
    assert all(_core.BURY_BASE <= a < _core.NUM_ACTIONS for a in state.legal_actions())
    # The half-made play is the player's own knowledge.
    assert "picking" in state.information_state_string(0)
    assert "picking" not in state.information_state_string(1)
    same = state.resample(0, random.Random(1))
    assert same.information_state_string(0) == state.information_state_string(0)


def test_state_from_deal_replays_a_whole_deal():
    deal = Deal.shuffled(Rules.preset("additive"), Seat.S, rng=4)
    rng = random.Random(2)
    while not deal.is_over:
        deal.apply(rng.choice(deal.legal_actions()))
    game = game_for(deal.rules, deal.dealer)
    state = state_from_deal(game, deal)
    assert state.is_terminal()
    assert [str(a) for a in state.deal.history] == [str(a) for a in deal.history]
    with pytest.raises(ValueError):
        state_from_deal(game_for(deal.rules, Seat.N), deal)
    assert isinstance(game, CinchGame)
    assert isinstance(deal.history[0], type(deal.history[0])) and not isinstance(deal.history[0], Keep)
