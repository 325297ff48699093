"""Point cards, who scores them, and the settlement of a deal (cinch.scoring).

Rule sources: RULEBOOK common core ("Point cards, 14 in all"), the High, Low,
"point card not in play", settlement and "extra point cards" rows of the
options table, the worked facts, and docs/rule-readings.md "Points and settlement".
Full deals that reach these awards through play are in test_deal.py.
"""

import pytest

from cinch import Suit, Team
from cinch.scoring import PointTable, settle, totals
from helpers import cards, rules

NS, EW = Team.NS, Team.EW


def awards(preset, captured_ns="", captured_ew="", in_play=None, low_holder=None, thrown="", makers=NS,
           trump="H", **options):
    scheme = PointTable(rules(preset, **options), Suit.parse(trump))
    ns, ew = cards(captured_ns), cards(captured_ew)
    played = (ns | ew) if in_play is None else cards(in_play)
    found = scheme.awards((ns, ew), played, low_holder, cards(thrown), makers)
    return {a.name: (str(a.card), a.team.name, a.points) for a in found}, totals(found)


# ---- settlement: the worked facts ------------------------------------------------
def test_worked_fact_additive_bid_ten_take_nine():
    # RULEBOOK worked facts / 000 section 07: "a side bids 10 but earns 9: its score falls by 10
    # and opponents add the remaining 5".
    assert settle(rules("pagat"), NS, 10, (9, 5)) == (False, (-10, 5))
    assert settle(rules("pagat"), EW, 10, (5, 9)) == (False, (5, -10))


def test_worked_fact_difference_bid_six_take_six_against_eight():
    # RULEBOOK worked facts / 003 "Bid: 6. Bidding team scores 6, opponents score 8 -> Opponents get 2".
    assert settle(rules("official"), NS, 6, (6, 8)) == (True, (0, 2))


def test_worked_fact_difference_bid_eight_seven_against_seven():
    # RULEBOOK worked facts / 003 "Bid: 8. Bidding team scores 7, opponents score 7 -> Opponents get 15".
    assert settle(rules("official"), NS, 8, (7, 7)) == (False, (0, 15))
    assert settle(rules("double-pedro"), EW, 8, (7, 7)) == (False, (15, 0))


# ---- settlement: the other cases ------------------------------------------------
@pytest.mark.parametrize("preset", ["pagat", "additive"])
def test_additive_made_bid_both_sides_add_what_they_took(preset):
    # 000 "Defenders always add earned points. Bidders also add earned points if they reach the bid".
    assert settle(rules(preset), NS, 7, (11, 3)) == (True, (11, 3))
    assert settle(rules(preset), EW, 7, (7, 7)) == (True, (7, 7))  # exactly the bid is made
    assert settle(rules(preset), EW, 14, (1, 13)) == (False, (1, -14))  # 002 "subtract the bid amount"


def test_difference_when_made_the_side_that_took_more_scores_the_difference():
    # 001 / 004: "the Making Team can fulfill its contract, and yet still lose".
    r = rules("difference")
    assert settle(r, NS, 4, (11, 3)) == (True, (8, 0))
    assert settle(r, NS, 4, (4, 10)) == (True, (0, 6))
    assert settle(r, EW, 7, (7, 7)) == (True, (0, 0))  # equal counts: nobody scores


def test_difference_set_scores_fourteen_plus_the_shortfall():
    # 001 "the other team scores 14 plus the number of points the bid missed by".
    assert settle(rules("difference"), EW, 14, (13, 1)) == (False, (27, 0))
    assert settle(rules("double-pedro"), NS, 5, (0, 14)) == (False, (0, 19))


def test_difference_set_with_sancho_uses_the_points_the_deal_holds():
    # Readings: "with Sancho or Dom Pedro the 14 becomes the points the deal holds (23, 17 or 26)".
    assert settle(rules("difference", sancho=True), NS, 20, (18, 5)) == (False, (0, 25))
    assert settle(rules("difference", dom_pedro=True), NS, 10, (9, 8)) == (False, (0, 18))
    assert settle(rules("difference", sancho=True, dom_pedro=True), EW, 20, (7, 19)) == (False, (27, 0))


def test_additive_simpler_scoring_of_001_is_the_additive_option():
    # 001 "Simpler scoring: each team scores what it takes, and if the bidders fall short they lose
    # the amount of their bid instead."
    assert settle(rules("difference", settlement="additive"), NS, 8, (7, 7)) == (False, (-8, 7))


# ---- the point cards ---------------------------------------------------------------
def test_fourteen_points_all_captured_by_one_side():
    # RULEBOOK common core: A, J, 10 of trumps 1 each, 2 of trumps 1, right and left Pedro 5 each.
    found, total = awards("difference", captured_ns="AH JH TH 2H 5H 5D KH QH 4H")
    assert found == {"High": ("AH", "NS", 1), "Jack": ("JH", "NS", 1), "Game": ("TH", "NS", 1),
                     "Low": ("2H", "NS", 1), "Right Pedro": ("5H", "NS", 5), "Left Pedro": ("5D", "NS", 5)}
    assert total == (14, 0)


def test_worked_fact_the_trick_holding_both_fives_is_worth_ten():
    # RULEBOOK worked facts / 000 section 07: "C captures 5+5=10 points in fives".
    found, total = awards("pagat", captured_ns="KC 5D 6H 5H")
    assert found == {"Right Pedro": ("5H", "NS", 5), "Left Pedro": ("5D", "NS", 5)}
    assert total == (10, 0)


@pytest.mark.parametrize("preset", ["pagat", "difference", "additive"])
def test_high_is_the_ace_and_scores_nobody_when_not_in_play(preset):
    # High: ace of trumps (000, 001, 002); a point card not in play scores for nobody.
    found, _ = awards(preset, captured_ns="KH 9H", captured_ew="QH 8H")
    assert "High" not in found
    found, _ = awards(preset, captured_ew="AH 8H")
    assert found["High"] == ("AH", "EW", 1)


@pytest.mark.parametrize("preset", ["official", "double-pedro"])
def test_high_is_the_highest_trump_in_play(preset):
    # 003 "High (highest trump in play)", 004 "High Trump".
    found, _ = awards(preset, captured_ns="QH 7C", captured_ew="KH 3H")
    assert found["High"] == ("KH", "EW", 1)
    assert found["Low"] == ("3H", "EW", 1)


def test_low_two_to_holder_even_if_captured():
    # 000 "Trump 2 scores 1 for the side holding it before play, even if opponents capture it."
    found, total = awards("pagat", captured_ew="KH 2H", low_holder=NS)
    assert found["Low"] == ("2H", "NS", 1) and total == (1, 0)
    # "Must I capture 2 for its point? No." - and a 2 never played scores for nobody.
    found, _ = awards("pagat", captured_ew="KH 3H", low_holder=None)
    assert "Low" not in found


def test_low_two_to_capturer():
    # 001: "Two of trumps ... Low 1", counted in the tricks a team won.
    found, _ = awards("difference", captured_ew="KH 2H")
    assert found["Low"] == ("2H", "EW", 1)
    found, _ = awards("difference", captured_ns="KH 3H")
    assert "Low" not in found  # the 2 was not in play: nobody scores Low


@pytest.mark.parametrize("preset", ["additive", "official", "double-pedro"])
def test_low_lowest_trump_in_play_to_capturer(preset):
    # 002 "lowest trump in play that hand counts as 1 point for whoever captures it".
    found, _ = awards(preset, captured_ns="AH 9H 7S", captured_ew="KH 4H 8C")
    assert found["Low"] == ("4H", "EW", 1)
    # The left Pedro ranks below the right one, so it can be Low.
    found, _ = awards(preset, captured_ns="5D 9H", captured_ew="5H")
    assert found["Low"] == ("5D", "NS", 1)


def test_a_lone_trump_in_play_is_high_and_low_and_a_jack_scores_both_ways():
    # Readings: "If only one trump is played, it is both High and Low ... a Jack that is also Low scores both."
    found, total = awards("official", captured_ew="JH 9S 8S 7S")
    assert found == {"Jack": ("JH", "EW", 1), "High": ("JH", "EW", 1), "Low": ("JH", "EW", 1)}
    assert total == (0, 3)


def test_buried_cards_are_captured_but_not_in_play_for_high_and_low():
    # Readings "Buried excess": buried cards are captured with the trick but are not "in play".
    found, _ = awards("pagat", captured_ns="QH 9H 8H", in_play="QH", high="highest", low="lowest-capturer")
    assert found["High"] == ("QH", "NS", 1) and found["Low"] == ("QH", "NS", 1)


def test_a_buried_point_card_scores_for_nobody():
    # Readings: "A card not in play (dead, left in the stock, buried) scores for nobody"; with Sancho
    # a hand may have to bury a point card (000 forbids it only when another card could go instead).
    found, total = awards("pagat", captured_ns="AH KH QH JH 3S 4S 5S", in_play="AH 3S 4S 5S", sancho=True)
    assert "Jack" not in found and found["High"] == ("AH", "NS", 1) and total == (1, 0)


def test_sancho_and_dom_score_to_their_capturers():
    # 002 "Pedro Sancho: Adds the 9 of trumps (Sancho) as an additional 9-point card";
    # "Dom Pedro: ... additional 3 of trumps for 3 points".
    found, total = awards("additive", captured_ns="9H", captured_ew="3H 2H", sancho=True, dom_pedro=True)
    assert found["Sancho"] == ("9H", "NS", 9) and found["Dom"] == ("3H", "EW", 3)
    assert found["Low"] == ("2H", "EW", 1) and "High" not in found  # no ace in play
    assert total == (9, 4)


def test_official_thrown_point_cards_of_a_defender_count_for_the_makers():
    # 003 "If an opponent of the high bidder accidentally discards a scoring card, it counts for the
    # high bidder's team."  Readings: Jack, Game and the Pedros; High and Low are reckoned in play.
    found, total = awards("official", captured_ns="AH KH", captured_ew="2H 3H", thrown="JH 5D", makers=NS)
    assert found["Jack"] == ("JH", "NS", 1) and found["Left Pedro"] == ("5D", "NS", 5)
    assert found["High"] == ("AH", "NS", 1) and found["Low"] == ("2H", "EW", 1)
    assert total == (7, 1)
    # Under the same rules for EW makers, the thrown cards go to EW.
    found, _ = awards("official", captured_ns="AH", thrown="TH", makers=EW)
    assert found["Game"] == ("TH", "EW", 1)


def test_thrown_trumps_are_dead_under_keep_six_elsewhere():
    # 001 "keep six and show the table the trumps you throw out"; dead: nobody scores them.
    found, total = awards("difference", captured_ns="AH KH", thrown="JH 5D", makers=NS)
    assert "Jack" not in found and "Left Pedro" not in found and total == (1, 0)


# ---- two decks (002; docs/rule-readings.md "Two decks"): every copy of a point card scores ----------
def test_with_two_decks_each_copy_of_a_point_card_scores_for_its_capturer():
    from cinch.cards import Card
    r = rules("official", decks=2)
    scheme = PointTable(r, Suit.HEARTS)
    jack, game = Card.parse("JH"), Card.parse("TH")
    ns = 1 << jack | 1 << game.twin
    ew = 1 << jack.twin | 1 << game
    got = sorted((name, side) for name, _, side, _, _ in scheme.claims((ns, ew), ns | ew, None, 0, 0))
    # the highest and the lowest trump in play are the Jacks and the Tens: one copy of each to each side
    assert got == [("Game", 0), ("Game", 1), ("High", 0), ("High", 1), ("Jack", 0), ("Jack", 1),
                   ("Low", 0), ("Low", 1)]
    assert r.total_points == 28


def test_with_two_decks_low_to_the_holder_scores_each_two_for_the_side_that_held_it():
    from cinch.cards import Card
    scheme = PointTable(rules("pagat", decks=2), Suit.HEARTS)
    two = Card.parse("2H")
    both = 1 << two | 1 << two.twin
    lows = [(name, side, how) for name, _, side, _, how in scheme.claims((both, 0), both, 1, 0, 0, low_twin=0)
            if name == "Low"]
    assert sorted(lows) == [("Low", 0, "held"), ("Low", 1, "held")]
