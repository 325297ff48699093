"""The expert at every table size: two, three, five and six players (cinch.bots.expert).

- It plays whole deals at each size, every phase (bid, trump, discard, rob where the table
  robs, play), from its seat's view only, with a legal action each time and without falling
  back on the heuristic (its search ran).
- It reads nothing hidden: a deal its seat cannot tell apart gets the same decision.
- At a cut-throat table it judges a deal by points (match equity is a two-sided race), the
  maker against the others, and says so in its hint.
"""

from __future__ import annotations

import random

import pytest

from cinch import Deal, Phase, Rules
from cinch.bots.expert import ExpertBot
from cinch.worlds import sample_deal

SIZES = [2, 3, 5, 6]


def _expert(seed: int) -> ExpertBot:
    return ExpertBot(seed=seed, worlds=2, playouts=4)


@pytest.mark.parametrize("players", SIZES)
@pytest.mark.parametrize("preset", ["official", "pagat"])
def test_the_expert_plays_whole_deals_at_every_size(players, preset):
    rules = Rules.preset(preset).with_options(players=players)
    bots = [_expert(s) for s in range(players)]
    phases: set[Phase] = set()
    for deck_seed in range(7, 27):  # deals until one is bid and played (an all-pass deal is thrown in)
        deal = Deal.shuffled(rules, deck_seed % players, rng=deck_seed)
        while deal.phase is not Phase.DONE:
            seat = deal.to_act
            view = deal.view(seat)
            bot = bots[seat]
            decision = bot.decide(view)
            assert bot.last_error is None, f"{view.phase}: {bot.last_error!r}"
            phases.add(view.phase)
            deal.apply(decision.action)  # an illegal action raises IllegalAction
        if Phase.PLAY in phases:
            break
    assert deal.result is not None and len(deal.result.score_change) == rules.seating.sides
    assert Phase.PLAY in phases and Phase.BIDDING in phases


@pytest.mark.parametrize("players", SIZES)
def test_the_expert_reads_only_its_view(players):
    """Positions in the play: the same view over another deal of the hidden cards gets the same card."""
    rules = Rules.preset("official").with_options(players=players)
    deal = Deal.shuffled(rules, 0, rng=3)
    rng = random.Random(3)
    while deal.phase is not Phase.PLAY or len(deal.tricks) < 6 - (3 if players > 4 else 5):
        if deal.phase is Phase.DONE:
            pytest.skip("thrown in")
        deal.apply(rng.choice(deal.legal_actions()))
    seat = deal.to_act
    view = deal.view(seat)
    twin = sample_deal(view, random.Random(9))
    assert twin.hands != deal.hands
    assert _expert(5).choose(view) == _expert(5).choose(twin.view(seat))


def test_a_cut_throat_hint_weighs_points_against_the_others():
    """Three players with a match score: no match equity (a race of three), the estimate is points
    against the others, and the maker's search is the solver's in the last tricks."""
    rules = Rules.preset("official").with_options(players=3)
    deal = Deal.shuffled(rules, 0, rng=21)
    rng = random.Random(2)
    while deal.phase is not Phase.PLAY or len(deal.tricks) < 3 or deal.to_act != deal.maker:
        if deal.phase is Phase.DONE:
            pytest.skip("thrown in")
        deal.apply(rng.choice(deal.legal_actions()))
    view = deal.view(deal.maker, score=(10, 20, 30), target=51)
    decision = _expert(1).explain(view)
    assert decision.unit == "points"
    assert "against the others" in decision.detail and "double-dummy" in decision.detail


def test_a_cut_throat_defender_plays_for_his_own_points():
    """Six players: a defender's deal is his score change less the others' average, so points a
    fellow defender takes count against him (they are a rival's), and a set maker helps him."""
    from cinch.bots.expert import _Objective

    rules = Rules.preset("difference").with_options(players=6)
    deal = Deal.shuffled(rules, 0, rng=5)
    rng = random.Random(5)
    while deal.phase is not Phase.PLAY:
        if deal.phase is Phase.DONE:
            pytest.skip("thrown in")
        deal.apply(rng.choice(deal.legal_actions()))
    maker = int(deal.maker)
    defender = (maker + 1) % 6
    rival = (maker + 2) % 6
    judge = _Objective(deal.view(defender), match_equity=True)

    def value(maker_points: int, mine: int, rivals: int) -> float:
        points = [0] * 6
        points[maker], points[defender], points[rival] = maker_points, mine, rivals
        return judge.contract(maker, 5, tuple(points))

    assert value(6, 4, 4) - value(6, 0, 8) == pytest.approx(4 * 1.2)  # his own 4 rather than a rival's: 4 + 4 / 5
    assert value(4, 0, 10) > value(6, 0, 8)  # the maker set: he loses his bid, the defender gains a fifth of it
    maker_judge = _Objective(deal.view(maker), match_equity=True)
    assert maker_judge.contract(maker, 5, (0,) * 6) < 0  # a maker who takes nothing loses his bid
