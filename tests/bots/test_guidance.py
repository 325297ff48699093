"""The expert, guided (:mod:`cinch.bots.guidance`): each learned part switched on alone changes what it should,
keeps every hard constraint of the worlds, and a guided expert plays legal deals.

The networks here are tiny and untrained (made in milliseconds), or shaped by hand so that the test knows
what they believe: a location model sure that a card is with West, a policy that calls as the heuristic
does.  The strength of the shipped weights is measured by benchmarks/guided.py, not here.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from cinch import Deal, Rules, Seat
from cinch.actions import Bid
from cinch.bots import make_bot
from cinch.bots.expert import ExpertBot
from cinch.bots.guidance import (
    LIKELIHOOD_FLOOR,
    PolicyLikelihood,
    PolicyPlayer,
    guidance,
    location_preferences,
    policy_bids,
)
from cinch.bots.inference import BidLikelihood
from cinch.cli import main
from cinch.errors import CinchError
from cinch.neural import models
from cinch.neural.features import HEURISTIC_INPUT, KINDS
from cinch.rules import PRESET_NAMES
from cinch.study.learning import new_network
from cinch.view import Phase, SeatView
from cinch.worlds import same_view, sample_weighted, voids

HEURISTIC_SKIP = 8.0  # a policy this sure of the heuristic's choice calls as the heuristic does


def _save(folder: Path, heuristic_like: bool = False) -> str:
    rng = np.random.default_rng(1)
    networks = {}
    for kind in KINDS:
        net = new_network(kind, (16,), rng)
        if heuristic_like:
            net.policy = (np.zeros_like(net.policy[0]), np.zeros_like(net.policy[1]))
            net.skip[:] = 0
            net.skip[HEURISTIC_INPUT[kind]] = HEURISTIC_SKIP
        networks[kind] = net
    models.save(folder, networks, {"command": "tests/bots/test_guidance.py"})
    return str(folder)


@pytest.fixture(scope="module")
def weights(tmp_path_factory) -> str:
    """Tiny untrained weights: what the guided parts do with any model."""
    return _save(tmp_path_factory.mktemp("weights"))


@pytest.fixture(scope="module")
def heuristic_like(tmp_path_factory) -> str:
    """A policy that gives the heuristic's choice nearly all its probability."""
    return _save(tmp_path_factory.mktemp("heuristic-like"), heuristic_like=True)


def _views(preset: str, seed: int, seat: Seat = Seat.N):
    """Every view of ``seat`` where it is to act in a deal the heuristic plays, and the deal itself."""
    bot = make_bot("heuristic", seed=0)
    deal = Deal.shuffled(Rules.preset(preset), Seat.W, rng=seed)
    out = []
    while not deal.is_over:
        if deal.phase is Phase.RESTOCK:
            order = list(deal.restock_pool)
            random.Random(seed).shuffle(order)
            deal.apply_restock(order)
            continue
        actor = deal.to_act
        assert actor is not None
        view = deal.view(actor)
        if actor == seat:
            out.append(view)
        deal.apply(bot.choose(view))
    return out


class _SureOfWest(models.Models):
    """A card-location model sure that one card is with West (every other card anywhere alike)."""

    def __init__(self, card: int):
        super().__init__({}, {})
        self.card = card

    def card_locations(self, view: SeatView) -> np.ndarray:
        out = np.zeros((52, 5))
        mine = int(view.hand)
        for c in range(52):
            if not mine >> c & 1:
                out[c, [1, 2, 3, 4]] = 0.25
        out[self.card] = 0
        out[self.card, int(Seat.W)] = 1.0
        return out


# ---- the options ------------------------------------------------------------------------------------
def test_every_part_is_off_unless_asked(weights):
    assert guidance() is None and guidance(guided=0, weights=weights) is None
    every = guidance(guided=1, weights=weights)
    assert every is not None and every.locations and every.likelihood
    alone = guidance(likelihood=1, weights=weights)
    assert alone is not None and alone.likelihood and not alone.locations and not alone.rollout and not alone.bidding
    less = guidance(guided=1, likelihood=0, weights=weights)
    assert less is not None and less.locations and not less.likelihood
    more = guidance(rollout="policy", bidding="policy", weights=weights)
    assert more is not None and more.rollout and more.bidding and not more.replaces_inference


@pytest.mark.parametrize("options, words", [
    ({"locations": 2}, "locations takes 1 or 0 (true or false), not 2"),
    ({"likelihood": "yes"}, "likelihood takes 1 or 0 (true or false), not 'yes'"),
    ({"rollout": "neural"}, "rollout takes heuristic or policy, not 'neural'"),
    ({"bidding": "value"}, "bidding takes heuristic or policy, not 'value'"),
])
def test_a_bad_option_value_says_what_is_allowed(weights, options, words):
    with pytest.raises(CinchError, match=re.escape(words)):
        make_bot("expert", seed=1, weights=weights, **options)


def test_the_arena_refuses_a_bad_option_in_one_line(weights):
    result = CliRunner().invoke(main, ["arena", "expert", "expert", "--deals", "1", "--seed", "1", "--workers",
                                       "1", "--no-records", "--bot-option", "rollout=neural", "--bot-option",
                                       f"weights={weights}"])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "rollout takes heuristic or policy, not 'neural'" in lines[0]


def test_missing_weights_are_one_line(tmp_path):
    with pytest.raises(CinchError, match="no trained weights"):
        make_bot("expert", seed=1, locations=1, weights=str(tmp_path))


def test_the_plain_expert_is_unchanged(weights):
    plain = make_bot("expert", seed=3, worlds=2, playouts=4)
    off = make_bot("expert", seed=3, worlds=2, playouts=4, guided=0, locations=0, weights=weights)
    for view in _views("pagat", 11)[:6]:
        assert plain.choose(view) == off.choose(view)


# ---- worlds from the card-location model ---------------------------------------------------------------
def test_worlds_follow_the_location_model():
    view = _views("official", 5)[0]  # North's first call: nothing is known of the others' hands
    assert view.phase is Phase.BIDDING
    card = next(c for c in range(52) if not int(view.hand) >> c & 1)
    prefer = location_preferences(_SureOfWest(card), view)
    rng = random.Random(2)
    guided = [sample_weighted(view, rng, locations=prefer).world for _ in range(40)]
    plain = [sample_weighted(view, rng).world for _ in range(40)]
    with_west = sum(w.hands[int(Seat.W)] >> card & 1 for w in guided)
    assert with_west >= 32  # about 93% with the floor's 2% for every other place
    assert sum(w.hands[int(Seat.W)] >> card & 1 for w in plain) <= 20  # 9 places of 43 unguided


def test_worlds_follow_the_location_model_in_the_play():
    views = [v for v in _views("pagat", 8) if v.phase is Phase.PLAY]
    view = views[1]
    unseen = [c for c in range(52) if location_preferences(_SureOfWest(c), view)[c][int(Seat.W)] == 1.0
              and not int(view.hand) >> c & 1 and not voids(view)[int(Seat.W)] >> c & 1]
    card = next(c for c in unseen if any(sample_weighted(view, random.Random(s)).world.hands[int(Seat.W)] >> c & 1
                                         for s in range(4)))
    prefer = location_preferences(_SureOfWest(card), view)
    rng = random.Random(4)
    guided = [sample_weighted(view, rng, locations=prefer).world for _ in range(30)]
    plain = [sample_weighted(view, rng).world for _ in range(30)]
    assert sum(w.hands[int(Seat.W)] >> card & 1 for w in guided) > sum(w.hands[int(Seat.W)] >> card & 1
                                                                         for w in plain)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_guided_worlds_keep_every_hard_constraint(weights, preset):
    """Cards seen, voids shown, hand sizes, the discard and rob rules: the world replays to the very view."""
    m = models.Models.load(weights)
    for seed in range(3):
        for view in _views(preset, 20 + seed, Seat.E)[::2]:
            prefer = location_preferences(m, view)
            sample = sample_weighted(view, random.Random(seed), locations=prefer)
            assert sample.deal is not None and same_view(sample.deal.view(view.seat), view)
            hands = sample.world.hands
            assert hands[int(view.seat)] == int(view.hand)
            assert [h.bit_count() for h in hands] == list(view.hand_sizes)
            assert all(not hands[p] & v for p, v in enumerate(voids(view)))


# ---- worlds weighted by the policy's likelihood ------------------------------------------------------------
def test_the_likelihood_is_lower_where_the_calls_seen_are_unlikely(heuristic_like):
    """With a policy that calls as the heuristic does, a world where the others' calls are the heuristic's with
    the cards it gives them weighs more than any world where they are not."""
    m = models.Models.load(heuristic_like)
    views = [v for v in _views("pagat", 3, Seat.W) if v.phase is Phase.BIDDING]
    view = views[0]
    assert len([s for s, _ in view.auction if s != view.seat]) >= 2
    likelihood = PolicyLikelihood(m)
    agrees = BidLikelihood(sharpness=1.0)
    rng = random.Random(6)
    kept: list[float] = []
    thrown: list[float] = []
    for _ in range(60):
        world = sample_weighted(view, rng).world
        (kept if agrees(view, tuple(world.dealt)) == 1.0 else thrown).append(likelihood(view, world))
    assert kept and thrown
    assert min(kept) > 0.9 > LIKELIHOOD_FLOOR ** 0.5 >= max(thrown)


def test_the_likelihood_reads_the_bids_the_trump_and_the_latest_cards(weights):
    m = models.Models.load(weights)
    view = [v for v in _views("official", 9, Seat.S) if v.phase is Phase.PLAY][3]
    world = sample_weighted(view, random.Random(1)).world
    asked = PolicyLikelihood(m, plays=3).decisions(view, world)
    kinds = [v.phase for v, _ in asked]
    assert Phase.BIDDING in kinds and kinds.count(Phase.PLAY) == 3
    assert (Phase.TRUMP in kinds) == (view.maker != view.seat)
    for v, action in asked:  # each view is the seat's own, with the cards the world gives it
        assert v.seat != view.seat and action in v.legal
    assert len(PolicyLikelihood(m, plays=3).probabilities(view, world)) == len(asked)  # every one is read


# ---- playouts and bidding by the policy ------------------------------------------------------------------
def test_rollouts_are_played_by_the_policy(weights, monkeypatch):
    calls = []
    choose = PolicyPlayer.choose
    def counted(self, view):
        calls.append(view)
        return choose(self, view)

    monkeypatch.setattr(PolicyPlayer, "choose", counted)
    view = _views("pagat", 4)[0]
    make_bot("expert", seed=1, worlds=1, playouts=4, weights=weights).choose(view)
    assert not calls
    make_bot("expert", seed=1, worlds=1, playouts=4, rollout="policy", weights=weights).choose(view)
    assert len(calls) > 10


def test_the_policy_s_bids_join_the_candidates(weights):
    m = models.Models.load(weights)
    view = next(v for v in _views("official", 2) if v.phase is Phase.BIDDING)
    seeded = policy_bids(m, view)
    assert seeded and all(isinstance(a, Bid) and a in view.legal for a in seeded)
    plain = ExpertBot(seed=1, playouts=4, weights=weights).evaluate(view)
    guided = ExpertBot(seed=1, playouts=4, bidding="policy", weights=weights).evaluate(view)
    assert set(seeded) <= set(guided.candidates)
    assert set(plain.candidates) <= set(guided.candidates)


# ---- whole deals --------------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_guided_expert_plays_legal_deals(weights, preset):
    bots = [ExpertBot(seed=i, worlds=1, playouts=4, guided=1, rollout="policy", bidding="policy", weights=weights)
            for i in range(4)]
    deal = Deal.shuffled(Rules.preset(preset), Seat.S, rng=13)
    while not deal.is_over:
        if deal.phase is Phase.RESTOCK:
            deal.apply_restock(list(deal.restock_pool))
            continue
        seat = deal.to_act
        assert seat is not None
        view = deal.view(seat)
        action = bots[seat].choose(view)
        assert action in view.legal
        assert bots[seat].last_error is None
        deal.apply(action)
    assert deal.result is not None


def test_outside_the_models_cover_it_searches_unguided_and_says_so_once(weights, capsys):
    rules = Rules.preset("pagat").with_options(players=3)
    deal = Deal.shuffled(rules, Seat(0), rng=1)
    bot = make_bot("expert", seed=1, worlds=1, playouts=4, guided=1, weights=weights)
    for _ in range(2):
        actor = deal.to_act
        assert actor is not None
        view = deal.view(actor)
        assert bot.choose(view) in view.legal
    err = capsys.readouterr().err
    assert err.count("the guided expert's models do not cover") == 1

