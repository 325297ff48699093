"""The match (cinch.match): deals in sequence, the dealer passing left, the running score,
and how a winner is found.

Rule sources: RULEBOOK common core ("The deal passes to the left"), the target, makers
count first, bidder goes out and negative floor rows of the options table, and
docs/rule-readings.md "The match".  Deals come from the scripts in helpers.py, in which
the dealer's left bids and names hearts: "sweep" gives his side all 14 points, "set"
gives them all to the defenders, "split" 7 to each side.
"""

import json
from pathlib import Path

import pytest

from cinch import Phase, Seat, Team, parse_action
from cinch.errors import IllegalAction
from cinch.match import Match
from cinch.shuffle import Shuffle
from helpers import RECORD_EXAMPLE_DECK, rules, scripted

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def match(preset, first_dealer=N, **options) -> Match:
    return Match(rules(preset, **options), first_dealer=first_dealer)


def deal(m: Match, kind: str, bid: int = 7):
    """Play one scripted deal: ``kind`` is sweep, set or split; the dealer's left bids ``bid``."""
    deck, actions = scripted(m.rules, m.next_dealer, kind, bid)
    m.start_deal(deck)
    for text in actions:
        m.apply(parse_action(text))
    return m.summaries[-1]


def throw_in(m: Match):
    m.start_deal(RECORD_EXAMPLE_DECK)
    for _ in range(4):
        m.apply(parse_action("pass"))
    return m.summaries[-1]


def test_the_deal_passes_to_the_left():
    # RULEBOOK common core: "The deal passes to the left (N deals, then E)."
    m = match("difference", first_dealer=W)
    dealers = []
    for _ in range(5):
        dealers.append(m.next_dealer)
        deal(m, "split")
    assert dealers == [W, N, E, S, W]
    with pytest.raises(IllegalAction, match="the deal passes to the left: N deals now"):
        m.start_deal(RECORD_EXAMPLE_DECK, dealer=S)


def test_a_thrown_in_deal_scores_nothing_and_the_next_player_deals():
    # 001 "if all four players pass, the hand is thrown in and the next player deals".
    m = match("difference", first_dealer=N)
    deal(m, "sweep")  # N deals, E's side makes 14
    summary = throw_in(m)
    assert summary.result.thrown_in and summary.dealer is E and summary.score == (0, 14)
    assert m.score == (0, 14) and m.next_dealer is S and m.winner is None


@pytest.mark.parametrize("preset, target", [("pagat", 62), ("difference", 51), ("additive", 51),
                                            ("official", 51), ("double-pedro", 51)])
def test_the_first_side_to_the_target_wins(preset, target):
    # 000 "the first side at 62 or more wins"; 001-004 "The first team to reach 51 wins".
    m = match(preset, first_dealer=E)  # E deals: S bids, so NS makes every sweep
    kinds = ["sweep", "split"]  # NS sweeps while E deals, split otherwise
    while m.winner is None:
        deal(m, kinds[m.next_dealer is not E] if preset in ("pagat", "additive") else "sweep")
        if m.winner is None:
            assert max(m.score) < target
    assert m.winner is Team.NS and m.score[0] >= target
    with pytest.raises(IllegalAction, match="the match is over: NS won"):
        m.start_deal(RECORD_EXAMPLE_DECK)
    with pytest.raises(IllegalAction, match="the match is over"):
        m.apply(parse_action("pass"))


def test_additive_scores_run_negative():
    # 000 "Negative scores are allowed."  002 "scores can go negative".
    m = match("additive")
    summary = deal(m, "set", bid=9)  # N deals, E bids 9 and takes nothing
    assert summary.result.score_change == (14, -9) and m.score == (14, -9)


def test_target_42_with_additive():
    # 002 "some groups play to 42"; RULEBOOK: "target 42 with additive".
    m = match("additive", first_dealer=E, target=42)
    for _ in range(3):
        deal(m, "sweep")  # S, W, N bid in turn: NS 14, EW 14, NS 28
    assert m.score == (28, 14) and m.winner is None
    deal(m, "sweep")  # E bids: EW 28
    deal(m, "sweep")  # S: NS 42
    assert m.winner is Team.NS and m.score == (42, 28)


# ---- both sides past the target on one deal ---------------------------------------
def test_makers_count_first_when_both_sides_pass_the_target():
    # 001 "If both teams pass 51 on the same hand, the bidders count first, so they win if they made
    # their bid."  002 "the bidding team is checked first: if they made their bid, they win".
    m = match("additive", first_dealer=N)
    for kind in ["sweep", "sweep", "sweep", "sweep", "sweep", "sweep", "split"]:
        deal(m, kind)  # E, S, W, N, E, S bid and sweep (42 each), then W's side splits 7-7
    assert m.score == (49, 49) and m.winner is None
    summary = deal(m, "split")  # W deals, N bids 7 and makes it: both sides reach 56
    assert summary.dealer is W and summary.result.maker is N and summary.result.made
    assert m.score == (56, 56) and m.winner is Team.NS


def test_makers_count_first_beats_a_higher_defending_score():
    m = match("additive", first_dealer=W, target=10)
    deal(m, "sweep", bid=1)  # W deals, N bids: NS 14 - past the target alone
    assert m.winner is Team.NS
    m = match("additive", first_dealer=W, target=7)
    deal(m, "split", bid=7)  # NS make 7, EW take 7: both reach 7, the makers win
    assert m.score == (7, 7) and m.winner is Team.NS


def test_without_a_tie_rule_the_higher_score_wins_and_a_tie_plays_on():
    # Readings: "With neither rule (an override), both sides at the target: the higher score wins;
    # on equal scores another deal is played."
    m = match("additive", first_dealer=W, target=7, makers_count_first=False)
    deal(m, "split")
    assert m.score == (7, 7) and m.winner is None
    deal(m, "split", bid=1)  # N deals, E bids: still equal
    assert m.score == (14, 14) and m.winner is None
    deal(m, "sweep", bid=1)  # E deals, S bids and takes all
    assert m.winner is Team.NS and m.score == (28, 14)


# ---- bidder goes out (000) -----------------------------------------------------------
def test_bidder_goes_out_makers_who_make_it_win_outright():
    # 000 section 06: "If both had at least 55 before a deal, bidder goes out applies: successful
    # bidders win that deciding deal".  Scaled down: target 25, bidder goes out at 10.
    m = match("pagat", first_dealer=W, target=25, bidder_goes_out=10)
    deal(m, "split")  # N bids
    deal(m, "split")  # E bids
    assert m.score == (14, 14) and m.bidder_goes_out_applies()
    summary = deal(m, "split")  # S bids and makes 7
    assert summary.bidder_goes_out and m.score == (21, 21)
    assert m.winner is Team.NS  # below the target, level with the defenders: the makers win


def test_bidder_goes_out_at_the_pagat_numbers():
    # 000 section 06, at 55 and 62: EW make their bid from 56-56 and win, though both pass 62.
    m = match("pagat", first_dealer=N)
    for _ in range(8):
        deal(m, "sweep")  # E, S, W, N, E, S, W, N bid and sweep in turn
    assert m.score == (56, 56) and m.winner is None and m.bidder_goes_out_applies()
    summary = deal(m, "split")  # N deals, E bids 7 and makes it
    assert summary.bidder_goes_out and m.score == (63, 63) and m.winner is Team.EW


def test_bidder_goes_out_a_failure_is_scored_normally():
    # 000 section 06: "failure is scored normally".
    m = match("pagat", first_dealer=W, target=30, bidder_goes_out=10)
    deal(m, "split")
    deal(m, "split")  # 14-14: bidder goes out from now on
    deal(m, "set")  # S bids 7 and is set: NS 7, EW 28 - nobody at 30 yet
    assert m.score == (7, 28) and m.winner is None and not m.bidder_goes_out_applies()
    deal(m, "set")  # W bids 7 and is set: NS take 14 and EW fall back
    assert m.score == (21, 21) and m.winner is None and m.bidder_goes_out_applies()
    deal(m, "set", bid=8)  # N bids 8, is set: EW reach 35 and win in the usual way
    assert m.score == (13, 35) and m.winner is Team.EW


def test_both_reach_the_target_together_further_bidder_goes_out_deals_decide():
    # 000 section 06: "If both first reach 62 together without that condition, play one further
    # bidder-goes-out deal."  Readings: such deals follow until one decides.  Target 14, at 10.
    m = match("pagat", first_dealer=W, target=14, bidder_goes_out=10)
    deal(m, "split")  # 7-7: below the bidder-goes-out mark
    assert not m.bidder_goes_out_applies()
    deal(m, "split")  # 14-14 together: no winner yet, the next deal decides
    assert m.score == (14, 14) and m.winner is None and m.bidder_goes_out_applies()
    deal(m, "set")  # S bids and is set: NS 7, EW 28 - only EW stands at the target
    assert m.winner is Team.EW


def test_bidder_goes_out_deals_follow_until_one_decides():
    # Readings: "bidder-goes-out deals follow until one decides: a made bid wins, or only one side
    # stands at the target after a set."  Target 20, bidder goes out at 19, bids from 1.
    m = match("pagat", first_dealer=W, target=20, bidder_goes_out=19, min_bid=1)
    for _ in range(3):
        deal(m, "split")  # 7-7, 14-14, then 21-21 together from below 19: no winner
    assert m.score == (21, 21) and m.winner is None and m.bidder_goes_out_applies()
    deal(m, "set", bid=1)  # W bids 1 and is set: EW 20, NS 35 - both still at the target
    assert m.score == (35, 20) and m.winner is None and m.bidder_goes_out_applies()
    summary = deal(m, "split")  # N bids 7 and makes it: NS win
    assert summary.bidder_goes_out and m.winner is Team.NS
    m = match("pagat", first_dealer=W, target=14, bidder_goes_out=13)
    deal(m, "split")
    deal(m, "split")  # 14-14 together, though below 13 before the deal
    deal(m, "split")  # S's side makes 7: a made bid wins the decider
    assert m.winner is Team.NS and m.score == (21, 21)


def test_a_thrown_in_deal_changes_nothing_in_the_match():
    # Readings: "A thrown-in deal scores nothing and does not change any of the above."
    m = match("difference", first_dealer=W, target=14)
    throw_in(m)
    assert m.score == (0, 0) and m.winner is None and m.next_dealer is N


# ---- negative floor (002 house rule) ----------------------------------------------------
def sink_ew(m: Match) -> None:
    """Seven deals from N's deal in which EW bid 14 and are set, and NS bid 14 and take 7."""
    for kind in ["set", "split", "set", "split", "set", "split", "set"]:
        deal(m, kind, bid=14)
        # E bids: NS +14, EW -14 / S bids: NS -14, EW +7 / W bids: as E / N bids: as S


def test_negative_floor_is_off_by_default():
    # RULEBOOK: "a side at -30 or below loses (002, house rule, off by default)".
    m = match("additive", first_dealer=N)
    sink_ew(m)
    assert m.score == (14, -35) and m.winner is None


def test_a_side_at_the_negative_floor_loses():
    # 002 "Some groups stop the match early if any team's score falls to -30 or similar; the
    # opposing team wins."
    m = match("additive", first_dealer=N, negative_floor=-30)
    deal(m, "set", bid=14)
    deal(m, "split", bid=14)
    assert m.score == (0, -7) and m.winner is None
    m = match("additive", first_dealer=N, negative_floor=-30)
    sink_ew(m)
    assert m.score == (14, -35) and m.winner is Team.NS
    assert len(m.summaries) == 7  # EW stood at -28 after the fifth deal: not yet at the floor
    m = match("additive", first_dealer=N, negative_floor=-28)
    with pytest.raises(IllegalAction, match="the match is over: NS won"):
        sink_ew(m)
    assert m.score == (14, -28) and len(m.summaries) == 5  # at the floor is enough


def test_the_target_is_checked_before_the_floor():
    # Readings: "a side at or below the floor loses (checked after the target)".
    m = match("additive", first_dealer=N, negative_floor=-10, target=14)
    deal(m, "set", bid=14)  # E bids 14, set: NS reach 14, EW fall to -14
    assert m.winner is Team.NS


def test_a_view_carries_the_match_context():
    m = match("pagat", first_dealer=N)
    deal(m, "sweep")
    m.start_deal(scripted(m.rules, m.next_dealer, "sweep")[0])
    view = m.view(W)
    assert view.score == (0, 14) and view.target == 62 and view.deal_number == 2
    assert view.dealer is E and view.to_act is S and view.legal == ()


# ---- verifiable shuffles ----------------------------------------------------------------
# Under pagat, with every seat taking its first legal action, the deal of this shuffle runs out of stock
# after five actions (three passes, the stuck dealer's bid 7, trump S): a new stock is formed.
RESTOCK_SALT = f"{8:032x}"


def first_legal(m: Match, until=Phase.DONE) -> None:
    deal = m.deals[-1]
    while not deal.is_over and deal.phase is not until:
        m.apply(next(iter(deal.legal_actions())))


def test_a_deal_from_a_shuffle_deals_its_deck_and_the_match_keeps_it():
    m = match("pagat", first_dealer=W)
    first = Shuffle(f"{1:032x}", ("", "ab", "", ""), 1)
    d = m.start_deal(shuffle=first)
    assert d.deck == first.deck() and m.shuffles == {0: first}
    first_legal(m)
    second = Shuffle(f"{2:032x}", ("", "", "", ""), 2)
    assert m.start_deal(shuffle=second).deck == second.deck()
    assert m.shuffles == {0: first, 1: second}


def test_a_shuffle_for_another_deal_number_is_refused():
    m = match("pagat")
    with pytest.raises(IllegalAction, match="this is deal 1"):
        m.start_deal(shuffle=Shuffle(f"{1:032x}", ("", "", "", ""), 2))
    assert m.deals == [] and m.shuffles == {}


def test_a_new_stock_waits_then_comes_from_the_shuffle_not_the_rng():
    m = Match(rules("pagat"), first_dealer=N, rng=5)
    s = Shuffle(RESTOCK_SALT, ("", "", "", ""), 1)
    d = m.start_deal(shuffle=s)
    first_legal(m, until=Phase.RESTOCK)
    assert d.phase is Phase.RESTOCK and d.restock is None  # a chance event, as for a given deck
    pool = d.restock_pool
    assert m.resolve_chance()
    assert d.restock == s.restock(pool) and d.phase is not Phase.RESTOCK
    first_legal(m)
    assert d.is_over


# ---- other table sizes: the match among two, three, five or six players ------------------
# docs/rule-readings.md, "Cut-throat": each player is a side; the first to the target wins; when
# several reach it on one deal the rules above decide among them, and an equal best score plays on.
def seats(n: int):
    return rules("official", players=n).seating.seats


@pytest.mark.parametrize("n", [2, 3, 5, 6])
def test_the_deal_passes_to_the_left_round_every_table(n):
    m = Match(rules("official", players=n), first_dealer=seats(n)[n - 1])
    for _ in range(n + 1):
        m.start_deal(RECORD_EXAMPLE_DECK)
        for _ in range(n):
            m.apply(parse_action("pass"))  # all pass: thrown in (003)
    assert [str(s.dealer) for s in m.summaries] == [str(n)] + [str(i) for i in range(1, n + 1)]
    assert m.score == (0,) * n and m.winner is None and m.next_dealer is seats(n)[0]


def test_a_match_of_three_is_played_to_a_winner_and_scores_by_player():
    import random

    m = Match(rules("official", players=3, target=21), first_dealer=seats(3)[0], rng=7)
    rng = random.Random(7)
    m.play_out(lambda view: rng.choice(view.legal))
    assert m.winner in seats(3) and len(m.score) == 3
    assert m.score[m.winner] >= 21 and m.score == tuple(
        sum(s.result.score_change[i] for s in m.summaries) for i in range(3))


@pytest.mark.parametrize(("preset", "score", "maker", "made", "winner"), [
    ("official", (52, 30, 40), 1, True, 0),  # one player at the target: he wins, maker or not
    ("official", (52, 55, 40), 0, True, 1),  # several: the higher score wins (no tie rule under 003)
    ("official", (55, 55, 40), 2, True, None),  # an equal best score: another deal is played
    ("difference", (52, 55, 40), 0, True, 0),  # makers count first (001): the maker who made it wins
    ("difference", (52, 55, 53), 0, False, 1),  # a set maker counts first and loses: the best of the rest
    ("difference", (55, 55, 40), 2, True, None),  # the maker did not reach it; the others are equal
    ("official", (60, 40, 48, 51, 52, 10), 3, True, 0),  # six players
])
def test_who_wins_when_players_reach_the_target(preset, score, maker, made, winner):
    from cinch.match import decide

    r = rules(preset, players=len(score))
    table = r.seating.seats
    got, tied = decide(r, score, table[maker], made, False)
    assert got is (None if winner is None else table[winner]) and not tied


def test_under_bidder_goes_out_several_players_at_the_target_leave_it_to_a_decider():
    from cinch.match import bidder_goes_out_applies, decide

    r = rules("pagat", players=3)
    one, two, three = r.seating.seats
    assert decide(r, (63, 64, 20), three, True, False) == (None, True)
    assert bidder_goes_out_applies(r, (55, 56, 60), False)  # every player at 55 or more
    assert not bidder_goes_out_applies(r, (55, 56, 54), False)  # not while one is below
    assert decide(r, (30, 58, 60), one, True, True) == (one, False)  # a made bid under it wins outright


def test_heasly_plays_to_62():
    from cinch.match import decide

    r = rules("official", heasly=True)
    six = r.seating.seats
    assert r.players == 6 and r.target == 62
    assert decide(r, (61, 51, 0, 0, 0, 0), six[1], True, False) == (None, False)  # 51 does not win Heasly
    assert decide(r, (62, 51, 0, 0, 0, 0), six[1], True, False) == (six[0], False)


def test_on_the_deciding_deals_only_the_players_at_the_target_may_go_out():
    # 000: "If both had at least 55 before a deal, bidder goes out applies" - the sides near the target; RULEBOOK:
    # "when several pass the target on one deal, only those players may go out on the deciding deals. A maker
    # far behind who makes his bid scores it, and does not win by it."
    from cinch.match import decide, going_out_sides

    r = rules("pagat", players=6, target=30, bidder_goes_out=20)
    six = r.seating.seats
    before = (10, 0, 5, -19, 38, 43)  # 5 and 6 reached 30 together on the deal before
    assert going_out_sides(r, before, True) == (4, 5)
    assert decide(r, (10, 0, 5, -12, 38, 43), six[3], True, True, (4, 5)) == (None, True)  # 4 makes 7: no win
    assert decide(r, (10, 0, 5, -19, 38, 50), six[5], True, True, (4, 5)) == (six[5], False)  # 6 makes it: out
    assert decide(r, (14, 0, 5, -19, 30, 45), six[4], False, True, (4, 5)) == (None, True)  # 5 set by 8: still 30
    assert decide(r, (18, 0, 5, -19, 24, 47), six[4], False, True, (4, 5)) == (six[5], False)  # 5 set by 14: 6 wins
    # Before a deal from 20 each, every player may go out; with one below, nobody.
    assert going_out_sides(r, (20, 21, 25, 20, 29, 20), False) == (0, 1, 2, 3, 4, 5)
    assert going_out_sides(r, (20, 21, 25, 19, 29, 20), False) == ()
    # Two sides: the deciding deals are between both, as 000 plays them.
    assert going_out_sides(rules("pagat"), (63, 70), True) == (0, 1)


def test_a_maker_behind_who_makes_his_bid_on_a_decider_scores_and_the_deciders_go_on():
    # tests/records/pagat-three-players-bidder-goes-out.json, deal by deal: 1 and 2 reach 10 together on deal
    # 2; on deal 3, 3 (at -6) bids 8 and takes 12 but wins nothing; on deal 4, 2 is set and 1 alone stands at 10.
    record = json.loads((Path(__file__).parent / "records" / "pagat-three-players-bidder-goes-out.json").read_text())
    r = rules("pagat", players=3, target=10, bidder_goes_out=8)
    m = Match(r, first_dealer=r.seating.seats[1])  # 2 deals first
    one, two, three = m.rules.seating.seats
    for number, entry in enumerate(record["deals"], start=1):
        m.start_deal(entry["deck"])
        for text in entry["actions"]:
            m.apply(parse_action(text))
        if number == 2:
            assert m.score == (12, 13, -6) and m.winner is None and m.going_out_sides() == (0, 1)
        if number == 3:
            assert m.summaries[-1].result.maker is three and m.summaries[-1].result.made
            assert m.score == (13, 14, 6) and m.winner is None and m.going_out_sides() == (0, 1)
    assert m.summaries[-1].bidder_goes_out and m.winner is one and m.score == (19, 7, 7)
