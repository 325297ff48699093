"""The bots at every table size: two, three, five and six players cut-throat, and Heasly.

Every bot plays whole matches under every preset with legal actions only; the heuristic
values a lone maker's hand against all the others, and beats the random bot at three
players by duplicate deals (a test that fails if it plays no better).
"""

from __future__ import annotations

import random
import statistics

import pytest

from cinch import PRESET_NAMES, Rules
from cinch.arena import run_duplicate
from cinch.bots import make_bot
from cinch.bots.heuristic import best_suit, bid_value, hand_features
from cinch.cards import CardSet
from cinch.match import Match

TABLES = [(2, {}), (3, {}), (5, {}), (6, {}), (6, {"heasly": True})]
MAX_DEALS = 400  # a match of sensible bots ends long before this


def play_match(rules: Rules, bot: str, seed: int, max_deals: int = MAX_DEALS) -> Match:
    """A match with ``bot`` in every seat; every action is checked legal before it is applied."""
    match = Match(rules, rng=seed)
    bots = {s: make_bot(bot, seed=seed * 10 + int(s)) for s in rules.seating.seats}
    while not match.is_over and len(match.deals) < max_deals:
        deal = match.start_deal()
        for seat in match.turns():
            view = match.view(seat)
            assert view.seats == rules.seating.seats and view.players_count == rules.players
            action = bots[seat].choose(view)
            assert deal.is_legal(action), f"{bot} at {rules.players} players: {action} is not legal"
            match.apply(action, seat)
    return match


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("bot", ["heuristic", "basic"])
def test_bots_finish_whole_matches_at_every_table(bot, preset):
    for players, options in TABLES:
        rules = Rules.preset(preset).with_options(players=players, **options)
        match = play_match(rules, bot, seed=players)
        assert match.is_over, f"{bot} under {preset} at {players} players did not finish in {MAX_DEALS} deals"
        assert match.winner in rules.seating.side_list


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_the_random_bot_plays_legally_at_every_table(preset):
    # Random bidders go set deal after deal, so a match may never end: a few deals each.
    for players, options in TABLES:
        rules = Rules.preset(preset).with_options(players=players, **options)
        match = play_match(rules, "random", seed=players, max_deals=4)
        assert len(match.deals) >= 1


def test_a_lone_maker_is_valued_below_a_partnership():
    # The same hands bid alone take fewer points than with a partner: no partner's cards, more
    # opponents (three and more), many point cards left in the stock (two and three).
    rng = random.Random(5)
    deals = [rng.sample(range(52), 9) for _ in range(200)]

    def mean_value(players: int) -> float:
        rules = Rules.preset("difference").with_options(players=players)
        held = rules.seating.dealt
        return statistics.mean(best_suit(sum(1 << c for c in cards[:held]), rules, 1)[1] for cards in deals)

    four = mean_value(4)
    for players in (3, 5, 6):
        assert mean_value(players) < four - 2


def test_the_dealer_counts_as_robbing_only_where_he_robs():
    hand = int(CardSet.parse("AH KH 5H 5D 3H 9C 8C 7S 4S"))
    dealer = 12  # FEATURES: the dealer's feature, then the partner's deal
    three, five = (Rules.preset("pagat").with_options(players=n) for n in (3, 5))
    assert hand_features(hand, 1, three, 0)[dealer] == 0.0
    assert hand_features(hand, 1, five, 0)[dealer] == 1.0
    assert hand_features(hand, 1, five, 2)[dealer + 1] == 0.0  # nobody's partner deals cut-throat


def test_a_contract_is_weighed_against_the_mean_of_the_others():
    sure_six = [0.0] * 6 + [1.0] + [0.0] * 8  # exactly 6 of 14 points
    assert bid_value(sure_six, 6, 14) == 6 - 8  # four players: the makers' 6 against the defenders' 8
    assert bid_value(sure_six, 6, 14, others=2) == 6 - 4  # three: against each other player's 4 on average
    assert bid_value(sure_six, 7, 14, others=2) == -7 - 4  # set: the bid lost


def test_the_heuristic_beats_random_at_three_players():
    result = run_duplicate("heuristic", "random", Rules.preset("difference").with_options(players=3), deals=30,
                           seed=3, workers=1)
    low, _ = result.ci95
    assert low is not None and low > 0, result.to_markdown()
