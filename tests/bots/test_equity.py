"""Match equity (cinch.bots.equity): the chance to win the match before and after a deal.

The deal's own end is the match's rule (going out, makers count first, bidder goes out,
the negative floor); the deals after it are a race to the target.
"""

from __future__ import annotations

import random

import pytest

from cinch import Deal, Rules, Seat, Team
from cinch.bots import make_bot
from cinch.bots.equity import MatchEquity, after_deal, race
from cinch.match import Match, decide

NS, EW = Team.NS, Team.EW


def test_the_race_is_even_at_equal_scores_and_favours_the_side_ahead():
    for score in (0, 20, 45):
        assert race(score, score, 51, 14) == pytest.approx(0.5)
    assert race(40, 20, 51, 14) > race(30, 20, 51, 14) > race(20, 20, 51, 14)
    for ours, theirs in ((40, 20), (3, 48), (-10, 30)):
        assert race(ours, theirs, 51, 14) + race(theirs, ours, 51, 14) == pytest.approx(1.0)


def test_a_lead_weighs_more_near_the_target():
    # Ten points ahead with 11 to go is worth more than ten points ahead with 50 to go.
    assert race(40, 30, 51, 14) > race(10, 0, 51, 14)


def test_making_the_last_points_wins_and_letting_them_out_loses():
    rules = Rules.preset("difference")
    target = rules.target
    # We (NS) bid 3 needing 3: making it wins outright.
    assert after_deal(rules, (target - 3, 0), NS, NS, 3, (10, 4)) == 1.0
    # They (EW) need 1 and bid: they make it, we lose.
    assert after_deal(rules, (0, target - 1), NS, EW, 5, (4, 10)) == 0.0
    # Set back instead: the match goes on, and we stand better than before.
    assert 0.0 < after_deal(rules, (0, target - 1), NS, EW, 5, (10, 4)) < 1.0


def test_makers_count_first_decides_when_both_sides_cross():
    rules = next(Rules.preset(p) for p in ("official", "additive", "pagat", "double-pedro", "difference")
                 if Rules.preset(p).makers_count_first)
    target = rules.target
    score = (target - 1, target - 1)
    total = rules.total_points
    # Both sides cross; the makers made their bid: they win, whoever took more.
    bid = rules.min_bid
    points = (bid, total - bid)
    assert after_deal(rules, score, NS, NS, bid, points) == 1.0
    assert after_deal(rules, score, EW, NS, bid, points) == 0.0


def test_bidder_goes_out_ends_the_match_on_a_made_bid():
    rules = Rules.preset("pagat")
    assert rules.bidder_goes_out is not None
    score = (rules.bidder_goes_out, rules.bidder_goes_out + 1)
    assert after_deal(rules, score, EW, NS, 7, (7, rules.total_points - 7), bidder_goes_out=True) == 0.0
    assert after_deal(rules, score, NS, NS, 7, (7, rules.total_points - 7), bidder_goes_out=True) == 1.0


def test_the_negative_floor_loses_the_match():
    from cinch.scoring import settle

    # A preset that sets the makers back, with a floor of -51.
    floored = (Rules.preset(p).with_options(negative_floor=-51) for p in ("official", "pagat", "additive"))
    rules = next(r for r in floored if settle(r, NS, 10, (0, r.total_points))[1][0] < 0)
    floor = rules.negative_floor
    # NS just above the floor bid 10, take nothing and fall through it.
    assert after_deal(rules, (floor + 1, 0), NS, NS, 10, (0, rules.total_points)) == 0.0
    assert after_deal(rules, (floor + 1, 0), EW, NS, 10, (0, rules.total_points)) == 1.0


def test_match_equity_caches_and_reads_a_thrown_in_deal_as_no_change():
    rules = Rules.preset("difference")
    eq = MatchEquity(rules, (30, 40), NS, target=rules.target)
    assert eq.now == pytest.approx(race(30, 40, rules.target, rules.total_points))
    first = eq.of(NS, 5, (9, 5))
    assert eq.of(NS, 5, (9, 5)) == first
    assert first > eq.now > eq.of(NS, 5, (3, 11))  # making a bid helps, being set hurts


def test_decide_is_the_matchs_own_rule():
    """Matches played to their end agree with ``decide`` on every deal's result."""
    for preset in ("pagat", "difference", "official"):
        rules = Rules.preset(preset)
        bot = make_bot("heuristic", seed=1)
        for seed in range(3):
            match = Match(rules, first_dealer=Seat.N, rng=seed)
            while not match.is_over and len(match.deals) < 40:
                before = match.bidder_goes_out_applies()
                deal = match.current or match.start_deal()
                while not deal.is_over:
                    seat = deal.to_act
                    match.apply(bot.choose(match.view(seat)), seat)
                r = deal.result
                if r.thrown_in:
                    continue
                winner, _ = decide(rules, match.score, r.makers, bool(r.made), before)
                assert winner == match.winner
            assert match.is_over


def test_a_deal_played_out_from_a_score_never_looks_better_than_winning():
    rules = Rules.preset("difference")
    deal = Deal.shuffled(rules, Seat.N, random.Random(3))
    bot = make_bot("heuristic", seed=2)
    while not deal.is_over:
        deal.apply(bot.choose(deal.view(deal.to_act)))
    r = deal.result
    if not r.thrown_in:
        value = after_deal(rules, (10, 10), NS, r.makers, r.bid, r.points)
        assert 0.0 <= value <= 1.0
