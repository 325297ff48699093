"""All-hands Pedro (``bowers``) through the OpenSpiel and PettingZoo adapters: a game plays through, the
legal ids are the engine's (the left bower answers a trump lead), and the observation is the seat's view.

The observation marks the trumps once the suit is named: the left bower among them, where the left Pedro
is without bowers (docs/adapters.md)."""

from __future__ import annotations

import random
import warnings

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

from cinch import Card, Rules, Seat, Suit  # noqa: E402
from cinch.adapters import _core  # noqa: E402
from cinch.adapters.openspiel import game_for, state_from_deal  # noqa: E402
from cinch.adapters.pettingzoo import agent_seat, env  # noqa: E402
from helpers import deal  # noqa: E402

# tests/records/official-bowers.json up to S's play to trick 2: E leads the AH; S holds the JD (the left
# bower, his only trump but the 5H) and spades.
DECK = ("JH AH 2H JD KH 5H AD KD QD AS KS QH 9C 8C 7C QS JS TS 5D 4D 3D 9H 8H AC 6C 4C 3C 9S 8S 7S "
        "TH 3H 6S KC QC JC 5S 4S 3S 2S 7H 6H 4H TD 9D 8D 7D 6D 2D TC 5C 2C")
START = ("bid 6", "pass", "pass", "pass", "trump H", "play JH", "play KH", "play 3H", "play 8H", "play AH")
BOWERS = Rules.preset("official").with_options(bowers=True, no_draw=True)


def play_id(card: str) -> int:
    return _core.PLAY_BASE + Card.parse(card)


def test_openspiel_plays_a_bowers_game_through():
    game = pyspiel.load_game("python_cinch", {"rules": "pagat", "options": "bowers:true"})
    assert game.rules.bowers
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_openspiel_legal_ids_follow_the_bowers():
    state = state_from_deal(game_for(BOWERS, Seat.N), deal(BOWERS, Seat.N, DECK, *START))
    assert state.current_player() == Seat.S
    assert sorted(state.legal_actions()) == sorted([play_id("JD"), play_id("5H")])
    # the same cards without bowers: the JD is a plain diamond, the 5H and the KH answer the lead
    plain = Rules.preset("official").with_options(no_draw=True)
    state = state_from_deal(game_for(plain, Seat.N), deal(plain, Seat.N, DECK, *START[:5], "play AH"))
    assert sorted(state.legal_actions()) == sorted([play_id("KH"), play_id("5H")])
    # the left bower played is a trump in the tensor's trick and takes the trick
    state = state_from_deal(game_for(BOWERS, Seat.N), deal(BOWERS, Seat.N, DECK, *START, "play JD", "play TH",
                                                                "play 9H"))
    assert state.deal.tricks[-1].winner == Seat.S
    tensor = np.asarray(state.observation_tensor(int(Seat.S)))
    expected, pieces = _core.make_buffers()
    _core.encode_view(pieces, state.deal.view(Seat.S), int(Seat.S))
    assert np.array_equal(tensor, expected)  # the seat's view, nothing more
    assert pieces["trump"][Suit.HEARTS] == 1 and pieces["captured"][0][Card.parse("JD")] == 1


def test_pettingzoo_plays_a_bowers_game_and_masks_the_engines_actions():
    rules = Rules.preset("pagat").with_options(bowers=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(rules), num_cycles=60, verbose_progress=False)
    e = env(rules)
    rng = random.Random(3)
    left_bower_plays = 0
    for episode in range(3):
        e.reset(seed=episode)
        while not all(e.terminations.values()):
            agent = e.agent_selection
            d = e.deal
            assert agent_seat(agent) == d.to_act
            ids = [int(i) for i in np.flatnonzero(e.observe(agent)["action_mask"])]
            assert ids == e.turn.legal_ids()
            if d.trump is not None and not e.turn.steps:
                left = Card.of("J", d.trump.partner)
                if play_id(str(left)) in ids:
                    left_bower_plays += 1
                    assert d.tables is not None and d.tables.is_trump(left)
            e.step(ids[rng.randrange(len(ids))])
        assert sum(e.rewards.values()) == 0
    assert left_bower_plays > 0


def trump_cards(tensor, players=4):
    full, pieces = _core.make_buffers(players)
    full[:] = tensor
    return {str(Card(c)) for c in range(52) if pieces["trump_cards"][c]}


def test_the_observation_marks_the_left_bower_in_place_of_the_left_pedro():
    hearts = {f"{r}H" for r in "AKQJT98765432"}
    state = state_from_deal(game_for(BOWERS, Seat.N), deal(BOWERS, Seat.N, DECK, *START))
    assert trump_cards(state.observation_tensor(int(Seat.S))) == hearts | {"JD"}  # not the 5D
    plain = Rules.preset("official").with_options(no_draw=True)
    state = state_from_deal(game_for(plain, Seat.N), deal(plain, Seat.N, DECK, *START[:5]))
    assert trump_cards(state.observation_tensor(int(Seat.W))) == hearts | {"5D"}
    # before the trump is named nothing is marked
    state = state_from_deal(game_for(BOWERS, Seat.N), deal(BOWERS, Seat.N, DECK, *START[:4]))
    assert trump_cards(state.observation_tensor(int(Seat.N))) == set()


@pytest.mark.parametrize("players", [3, 6])
def test_pettingzoo_marks_the_left_bower_at_a_cut_throat_table(players):
    e = env({"preset": "pagat", "bowers": True, "players": players})
    e.reset(seed=4)
    while e.deal.trump is None:
        e.step(e.legal_ids()[-1])
    trump = e.deal.trump
    marked = trump_cards(e.observe(e.agent_selection)["observation"], players)
    assert str(Card.of("J", trump.partner)) in marked and str(Card.of("5", trump.partner)) not in marked
    assert len(marked) == 14
