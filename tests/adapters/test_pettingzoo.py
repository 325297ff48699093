"""The PettingZoo AEC environment (cinch.adapters.pettingzoo)."""

from __future__ import annotations

import random
import warnings

import pytest

pettingzoo = pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test  # noqa: E402

from cinch import PRESET_NAMES, Rules  # noqa: E402
from cinch.adapters import _core  # noqa: E402
from cinch.adapters.pettingzoo import AGENTS, agent_seat, env  # noqa: E402
from cinch.keep import KeepOptions  # noqa: E402
from cinch.view import Phase  # noqa: E402


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_api_test(preset):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dict observations with action masks, as the classic envs
        api_test(env(preset), num_cycles=150, verbose_progress=False)


def test_api_test_with_options():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env({"preset": "pagat", "sancho": True, "follow": "strict"}), num_cycles=100)
        api_test(env(Rules.preset("difference").with_options(no_draw=True)), num_cycles=100)


def first_ids(turn, legal) -> set[int]:
    return {turn.ids_for(a)[0] for a in legal}


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_action_masks_match_the_engine(preset):
    e = env(preset)
    rng = random.Random(1)
    checked = 0
    for episode in range(4):
        e.reset(seed=episode)
        while not all(e.terminations.values()):
            agent = e.agent_selection
            turn = e.turn
            deal = turn.deal
            assert agent_seat(agent) == deal.to_act
            obs = e.observe(agent)
            mask = obs["action_mask"]
            assert mask.dtype == np.int8 and obs["observation"].dtype == np.float32
            ids = [int(i) for i in np.flatnonzero(mask)]
            assert ids == turn.legal_ids()
            if not turn.steps:
                legal = deal.legal_actions()
                if isinstance(legal, KeepOptions) and len(legal) > 300:
                    sample = [legal[rng.randrange(len(legal))] for _ in range(30)]
                    assert first_ids(turn, sample) <= set(ids)
                else:
                    assert first_ids(turn, legal) == set(ids)
                checked += 1
            for other in AGENTS:
                if other != agent:
                    assert not e.observe(other)["action_mask"].any()
            e.step(ids[rng.randrange(len(ids))])
        returns = [e.rewards[a] for a in AGENTS]
        assert sum(returns) == 0 and returns[0] == returns[2]
        result = e.deal.result
        assert returns[0] == result.score_change[0] - result.score_change[1]
    assert checked > 20


def test_observation_is_the_seat_view_only():
    e = env("pagat")
    e.reset(seed=3)
    while e.deal.phase is not Phase.PLAY:
        ids = e.legal_ids()
        e.step(ids[0])
    agent = e.agent_selection
    seat = agent_seat(agent)
    obs = e.observe(agent)["observation"]
    tensor, pieces = _core.make_buffers()
    _core.encode_view(pieces, e.deal.view(seat), int(seat))
    assert np.array_equal(obs, tensor)
    hand = [i for i in range(52) if pieces["hand"][i]]
    assert hand == list(e.deal.hand(seat))
    assert ((obs >= 0) & (obs <= 1)).all()


def test_render_and_seeding():
    a, b = env("official", render_mode="ansi"), env("official", render_mode="ansi")
    a.reset(seed=5)
    b.reset(seed=5)
    assert a.render() == b.render()
    assert "dealer" in a.render()
    with pytest.raises(ValueError):
        a.step(999)
