"""The OpenSpiel game, the PettingZoo env and the IS-MCTS bot at tables of 2, 3, 5 and 6 players
(the rules' ``players`` option; cut-throat, each player his own side).  Four players is the
partnership game of the other files here."""

from __future__ import annotations

import random
import warnings

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

from cinch import Deal, Rules  # noqa: E402
from cinch.adapters import _core  # noqa: E402
from cinch.adapters.openspiel import game_for  # noqa: E402
from cinch.adapters.pettingzoo import AGENTS, agent_names, agent_seat, env  # noqa: E402
from cinch.bots import make_bot  # noqa: E402
from cinch.errors import CinchError  # noqa: E402

CUT_THROAT = (2, 3, 5, 6)


def load(players, rules="pagat", **params):
    text = ",".join([f"rules={rules}", f"options=players:{players}"] + [f"{k}={v}" for k, v in params.items()])
    return pyspiel.load_game(f"python_cinch({text})")


def play_out(game, rng):
    """A random episode of ``game`` from the deal to the end."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    return state


def expected_returns(result, players):
    """Two sides: ours less theirs; three or more each for himself: his own score change."""
    change = result.score_change
    if players == 2:
        return [change[0] - change[1], change[1] - change[0]]
    return list(change)


# ---- OpenSpiel ---------------------------------------------------------------------------------

@pytest.mark.parametrize("players", CUT_THROAT)
@pytest.mark.parametrize("preset", ["pagat", "official"])
def test_openspiel_random_sim_test(players, preset):
    pyspiel.random_sim_test(load(players, preset), num_sims=2, serialize=False, verbose=False)


def test_openspiel_serialization_round_trip_at_three():
    pyspiel.random_sim_test(load(3, "difference"), num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("players", CUT_THROAT)
def test_openspiel_game_is_sized_for_the_table(players):
    game = load(players)
    assert game.num_players() == players == game.rules.players
    size = _core.obs_size(players)
    assert game.observation_tensor_size() == game.information_state_tensor_size() == size
    assert size != _core.OBS_SIZE  # every table its own size; four keeps the module's
    utility = game.get_type().utility
    assert utility == (pyspiel.GameType.Utility.ZERO_SUM if players == 2 else pyspiel.GameType.Utility.GENERAL_SUM)
    assert str(game.dealer) == "1"
    state = play_out(game, random.Random(players))
    assert len(state.returns()) == players
    for p in range(players):
        assert len(state.observation_tensor(p)) == size
        assert f"seat {p + 1} " in state.information_state_string(p)


def test_openspiel_four_players_unchanged():
    game = load(4)
    assert game.num_players() == 4 and game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.observation_tensor_size() == _core.OBS_SIZE
    assert game.dealer.name == "N"


@pytest.mark.parametrize("players", CUT_THROAT)
def test_openspiel_returns_are_the_deal_results(players):
    game = load(players, "official")
    rng = random.Random(10 + players)
    for _ in range(4):
        state = play_out(game, rng)
        result = state.deal.result
        returns = state.returns()
        assert returns == expected_returns(result, players)
        assert sum(returns) == (0 if players == 2 else sum(result.score_change))
        assert all(game.min_utility() <= r <= game.max_utility() for r in returns)


def test_openspiel_dealer_and_bad_tables():
    game = pyspiel.load_game('python_cinch(options=players:5,dealer="3")')
    assert str(game.dealer) == "3"
    state = play_out(game, random.Random(1))
    assert str(state.deal.dealer) == "3"
    assert pyspiel.load_game("python_cinch", {"options": "players:3", "dealer": "2"}).dealer == 1
    with pytest.raises(CinchError, match="not a seat"):
        pyspiel.load_game("python_cinch", {"options": "players:3", "dealer": "W"})
    with pytest.raises(CinchError, match="2 to 6"):
        load(7)


@pytest.mark.parametrize("players", [3, 6])
def test_openspiel_chance_deals_each_seat_its_hand(players):
    """While the cards are dealt, each seat sees exactly the cards dealt to it so far."""
    game = load(players, dealer='"2"')
    rng = random.Random(players)
    state = game.new_initial_state()
    table = game.rules.seating
    for _ in range(table.players * table.dealt):  # the hands, not yet the stock
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
    seen = []
    for p in range(players):
        tensor, pieces = _core.make_buffers(players)
        tensor[:] = state.observation_tensor(p)
        seen.append({c for c in range(52) if pieces["hand"][c]})
    while state.is_chance_node():  # the stock
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
    assert seen == [set(state.deal.dealt[p]) for p in range(players)]
    assert all(len(s) == table.dealt for s in seen)


@pytest.mark.parametrize("players", [2, 5])
def test_openspiel_resample_keeps_the_information_state(players):
    game = load(players, "official")
    walk, rng = random.Random(players), random.Random(1)
    checked = 0
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[walk.randrange(len(outcomes))][0])
            continue
        player = state.current_player()
        new = state.resample(player, rng)
        assert new.information_state_string(player) == state.information_state_string(player)
        assert np.array_equal(new.information_state_tensor(player), state.information_state_tensor(player))
        assert new.legal_actions() == state.legal_actions()
        checked += 1
        legal = state.legal_actions()
        state.apply_action(legal[walk.randrange(len(legal))])
    assert checked > 10


def test_observation_pieces_at_three():
    """One row per seat, one captured row per player; the trick's winner's row holds the trick."""
    rules = Rules.preset("pagat").with_options(players=3)
    deal = Deal.shuffled(rules, 0, rng=2)
    rng = random.Random(2)
    while not deal.tricks:
        deal.apply(rng.choice(deal.legal_actions()))
    view = deal.view(1)
    tensor, pieces = _core.make_buffers(3)
    _core.encode_view(pieces, view, 1)
    assert pieces["seat"].tolist() == [0, 1, 0]
    assert pieces["captured"].shape == (3, 52) and pieces["played"].shape == (3, 52)
    winner = int(deal.tricks[0].winner)
    taken = {c for c in range(52) if pieces["captured"][winner][c]}
    assert taken == set(deal.tricks[0].cards) and not pieces["captured"].sum() - len(taken)
    assert np.allclose(pieces["hand_sizes"], [n / 14 for n in view.hand_sizes])
    with pytest.raises(ValueError, match="sized for 4 players"):
        _core.encode_view(_core.make_buffers(4)[1], view, 1)


# ---- PettingZoo --------------------------------------------------------------------------------

@pytest.mark.parametrize("players", CUT_THROAT)
def test_pettingzoo_api_test(players):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dict observations with action masks, as the classic envs
        api_test(env("official", players=players), num_cycles=60, verbose_progress=False)


@pytest.mark.parametrize("players", CUT_THROAT)
def test_pettingzoo_plays_to_the_end_with_the_engines_masks(players):
    e = env({"preset": "pagat", "players": players})
    names = [f"player_{i}" for i in range(1, players + 1)]
    assert e.possible_agents == names == list(agent_names(players))
    size = _core.obs_size(players)
    rng = random.Random(players)
    for episode in range(3):
        e.reset(seed=episode)
        while not all(e.terminations.values()):
            agent = e.agent_selection
            seat = e.seat_of(agent)
            assert seat == e.deal.to_act and agent_seat(agent, players) == seat and e.agent_of(seat) == agent
            obs = e.observe(agent)
            assert obs["observation"].shape == (size,) and e.observation_space(agent)["observation"].shape == (size,)
            ids = [int(i) for i in np.flatnonzero(obs["action_mask"])]
            assert ids == e.turn.legal_ids()
            for other in names:
                if other != agent:
                    assert not e.observe(other)["action_mask"].any()
            e.step(ids[rng.randrange(len(ids))])
        result = e.deal.result
        assert [e.rewards[a] for a in names] == expected_returns(result, players)


def test_pettingzoo_agents_and_dealer():
    assert env("pagat").possible_agents == list(AGENTS)  # four: player_0 .. player_3 = N E S W
    e = env("pagat", players=6, dealer="4", render_mode="ansi")
    e.reset(seed=1)
    assert str(e.deal.dealer) == "4"
    assert "  6: " in e.render()
    with pytest.raises(ValueError, match="not an agent"):
        e.seat_of("player_0")
    with pytest.raises(CinchError, match="not a seat"):
        env("pagat", players=3, dealer="N")


# ---- the IS-MCTS bot ---------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 5])
def test_ismcts_bot_plays_a_deal_at_a_cut_throat_table(players):
    rules = Rules.preset("official").with_options(players=players)
    bots = [make_bot("openspiel-ismcts", seed=s, simulations=2) for s in range(players)]
    deal = Deal.shuffled(rules, players - 1, rng=players)
    while not deal.is_over:
        seat = deal.to_act
        action = bots[seat].choose(deal.view(seat))
        assert deal.is_legal(action), action
        deal.apply(action, seat)
    assert deal.result is not None
    assert game_for(rules, players - 1).num_players() == players
