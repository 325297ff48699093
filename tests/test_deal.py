"""One deal, phase by phase (cinch.deal and cinch.view): the deal, the bidding, trumps,
discard and draw, the rob, the tricks, the count; and the illegal actions at each step.

Each test cites the rule text it comes from: RULEBOOK (the contract), a text by its
number (000 pagat, 001 difference, 002 additive, 003 official, 004 double-pedro),
RECORD.md, or docs/rule-readings.md.  Positions are built with ``table``: the hands
below are what each seat is dealt, the stock is listed top first.
"""

import json
import random
from pathlib import Path

import pytest

from cinch import CARDS, Bid, Card, CardSet, Deal, Phase, Seat, Suit, Team
from cinch.deal import randbelow, shuffle
from cinch.errors import IllegalAction
from helpers import RECORD_EXAMPLE_DECK, RESTOCK, STUCK_N, TABLE_SHORT, cards, deal, play, rules, table

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
RECORDS = Path(__file__).parent / "records"


def legal(d: Deal) -> list[str]:
    return [str(a) for a in d.legal_actions()]


def illegal(d: Deal, action: str) -> IllegalAction:
    """Apply an action that must be refused; the deal must not change."""
    before = [str(a) for a in d.history]
    with pytest.raises(IllegalAction) as info:
        play(d, action)
    assert [str(a) for a in d.history] == before
    return info.value


def autoplay(d: Deal) -> Deal:
    """Finish a deal taking the first legal action each time (for facts that do not depend on the play)."""
    while not d.is_over:
        d.apply(d.legal_actions()[0])
    return d


def awards(d: Deal) -> dict[str, tuple[str, str, str]]:
    assert d.result is not None
    return {a.name: (str(a.card), a.team.name, a.how) for a in d.result.awards}


# =============================================================================
# The deal
# =============================================================================
RECORD_EXAMPLE = RECORD_EXAMPLE_DECK  # the example of RECORD.md


def test_the_deck_is_dealt_in_threes_from_the_dealers_left():
    # RECORD.md: cards 1-3 to the dealer's left, 4-6 to the next seat, 7-9 to the next, 10-12 to
    # the dealer, round again until each seat holds 9; cards 37-52 are the stock.
    d = Deal(rules("pagat"), W, RECORD_EXAMPLE)
    assert d.hand(N) == cards("AH KH QH 7S 8S 9S 7D 8D 9D")
    assert d.hand(E) == cards("5D JH TH 2S 3S 4S 2C 3C 4C")
    assert d.hand(S) == cards("6H 9H 8H TS JS QS TC JC QC")
    assert d.hand(W) == cards("5H 2H 3H KS AS 6S 6D 7C 8C")
    assert d.stock == cards("KC 9C 2D AC 6C 3D 5C 4D JD 7H 4H 5S AD KD QD TD")
    assert len(d.stock) == 16  # RULEBOOK common core: 16 cards stay as the stock


def test_the_table_helper_deals_what_it_is_given():
    deck = table("S", N="AS KS QS JS TS 9S 8S 7S 6S", E="AH KH QH JH TH 9H 8H 7H 6H",
                 S="AD KD QD JD TD 9D 8D 7D 6D", W="AC KC QC JC TC 9C 8C 7C 6C", stock="2C 3C")
    d = Deal(rules("official"), S, deck)
    assert d.hand(N) == cards("AS KS QS JS TS 9S 8S 7S 6S") and d.hand(W) == cards("AC KC QC JC TC 9C 8C 7C 6C")
    assert deck.split()[:3] == ["AC", "KC", "QC"]  # W sits at S's left
    assert deck.split()[36:38] == ["2C", "3C"]


def test_a_deck_must_hold_each_card_once():
    with pytest.raises(ValueError, match="twice"):
        Deal(rules("pagat"), N, RECORD_EXAMPLE.replace("TD", "AH"))
    with pytest.raises(ValueError, match="52"):
        Deal(rules("pagat"), N, RECORD_EXAMPLE.rsplit(" ", 1)[0])


# =============================================================================
# Bidding
# =============================================================================
def test_one_circuit_from_the_dealers_left_dealer_last():
    # RULEBOOK common core: "One bidding circuit from dealer's left, dealer last".
    d = Deal(rules("difference"), S, RECORD_EXAMPLE)
    seen = []
    for action in ["bid 2", "pass", "bid 5", "pass"]:
        seen.append(d.to_act)
        play(d, action)
    assert seen == [W, N, E, S]
    assert d.phase is Phase.TRUMP and d.to_act is E and d.maker is E and d.high_bid == 5


def test_each_bid_must_beat_the_one_before():
    # RULEBOOK common core: "each bid strictly higher than the previous one".
    d = deal("difference", N, RECORD_EXAMPLE, "bid 8")
    err = illegal(d, "bid 8")
    assert "each bid must beat the one before (E bid 8)" in str(err)
    assert legal(d) == ["pass"] + [f"bid {n}" for n in range(9, 15)]
    assert err.legal == tuple(legal(d))


def test_a_pass_cannot_re_enter():
    # RULEBOOK common core: "a pass cannot re-enter"; one circuit: every seat speaks once.
    d = deal("difference", N, RECORD_EXAMPLE, "pass", "bid 3", "bid 4", "bid 5")
    assert d.phase is Phase.TRUMP and d.maker is N  # E, who passed, was not asked again


@pytest.mark.parametrize("preset, low, high", [
    ("pagat", 7, 14),  # 000 "pass or a bid of 7-14"
    ("difference", 1, 14),  # 001 "A bid is a number from 1 to 14"
    ("additive", 1, 14),  # 002 "Bids range from 1 to 14"
    ("official", 1, 14),  # 003 "The maximum bid is 14"
    ("double-pedro", 1, 14),  # 004 "There are a maximum of 14 points to be won"
])
def test_bid_range(preset, low, high):
    d = Deal(rules(preset), N, RECORD_EXAMPLE)
    assert legal(d) == ["pass"] + [f"bid {n}" for n in range(low, high + 1)]
    for bad in (low - 1, high + 1):
        err = illegal(d, f"bid {bad}")
        assert f"bids run from {low} to {high} under {preset}" in str(err)
        assert "Legal here: pass, bid " + str(low) in str(err)
    play(d, f"bid {high}")
    assert legal(d) == ["pass"]  # nothing beats the top bid


def test_stuck_dealer_must_bid_seven():
    # 000 "If the first three pass, dealer must bid 7." Readings: exactly the minimum bid.
    d = deal("pagat", W, RECORD_EXAMPLE, "pass", "pass", "pass")
    assert d.to_act is W and legal(d) == ["bid 7"]
    err = illegal(d, "pass")
    assert "the dealer is stuck and must bid 7" in str(err) and err.legal == ("bid 7",)
    assert "a stuck dealer must bid 7" in str(illegal(d, "bid 8"))
    play(d, "bid 7")
    assert d.maker is W and d.high_bid == 7 and d.phase is Phase.TRUMP


def test_stuck_dealer_as_an_option_on_another_preset_bids_the_minimum():
    # 001 "Stuck dealer: if the first three players pass, the dealer must bid" (a variation).
    d = deal(rules("difference", all_pass="stuck-dealer"), W, RECORD_EXAMPLE, "pass", "pass", "pass")
    assert legal(d) == ["bid 1"]
    d = deal(rules("difference", all_pass="stuck-dealer", min_bid=6), W, RECORD_EXAMPLE, "pass", "pass", "pass")
    assert legal(d) == ["bid 6"]  # 001 "Some groups also set a minimum bid of 6 or 7"


def test_a_dealer_is_not_stuck_when_someone_bid():
    d = deal("pagat", W, RECORD_EXAMPLE, "pass", "bid 9", "pass")
    assert legal(d)[:2] == ["pass", "bid 10"]


@pytest.mark.parametrize("preset", ["difference", "additive", "official", "double-pedro"])
def test_all_four_pass_throws_the_deal_in(preset):
    # 001 "if all four players pass, the hand is thrown in and the next player deals".
    d = deal(preset, N, RECORD_EXAMPLE, "pass", "pass", "pass", "pass")
    assert d.is_over and d.to_act is None and legal(d) == []
    r = d.result
    assert r.thrown_in and r.maker is None and r.bid is None and r.trump is None and r.points is None
    assert r.made is None and r.score_change == (0, 0)
    assert "thrown in" in r.describe()
    assert "the deal is over" in str(illegal(d, "bid 1"))


def test_auction_lets_players_raise_until_the_others_pass():
    # 002 "Auction Cinch: Multi-round bidding; each player may keep bidding as long as their bid
    # exceeds the current high bid."  Readings: a pass is still final; the high bidder is never
    # asked to raise his own bid.
    d = Deal(rules("additive", bidding="auction"), N, RECORD_EXAMPLE)
    turns = []
    for action in ["bid 3", "bid 4", "pass", "bid 5", "bid 6", "pass", "pass"]:
        turns.append(str(d.to_act))
        play(d, action)
    # E, S, W (passes), N, E, S (passes), W skipped, N passes: E's 6 stands.
    assert turns == ["E", "S", "W", "N", "E", "S", "N"]
    assert d.phase is Phase.TRUMP and d.maker is E and d.high_bid == 6


def test_auction_ends_when_the_other_three_have_passed():
    d = deal(rules("additive", bidding="auction"), N, RECORD_EXAMPLE, "bid 3", "pass", "pass", "pass")
    assert d.phase is Phase.TRUMP and d.maker is E and d.high_bid == 3
    d = deal(rules("additive", bidding="auction"), N, RECORD_EXAMPLE, "pass", "pass", "pass", "pass")
    assert d.result.thrown_in


def test_auction_with_a_stuck_dealer():
    d = deal(rules("pagat", bidding="auction"), N, RECORD_EXAMPLE, "pass", "pass", "pass")
    assert legal(d) == ["bid 7"]
    play(d, "bid 7")
    assert d.phase is Phase.TRUMP and d.maker is N


def test_the_maker_names_trumps():
    # RULEBOOK common core: "The high bidder (the maker) names trumps."
    d = deal("difference", N, RECORD_EXAMPLE, "pass", "bid 4", "pass", "pass")
    assert d.phase is Phase.TRUMP and d.to_act is S
    assert legal(d) == ["trump S", "trump H", "trump D", "trump C"]
    assert "the maker (S) must name trumps first" in str(illegal(d, "bid 5"))
    play(d, "trump D")
    assert d.trump is Suit.DIAMONDS


def test_acting_out_of_turn_is_refused():
    d = Deal(rules("difference"), N, RECORD_EXAMPLE)
    with pytest.raises(IllegalAction, match="it is E's turn, not S's"):
        d.apply(Bid(3), S)
    assert "it is the bidding: E must pass or bid" in str(illegal(d, "play AH"))


# =============================================================================
# Discard and draw
# =============================================================================
# W deals; hearts will be trumps.  N holds 3 trumps, E 4 (the 5 of diamonds is the left
# Pedro), S 4, W 3; the stock holds the clubs and three low diamonds.
TABLE_A = table(
    "W",
    N="AH KH QH 2S 3S 4S 6D 7D 8D",
    E="5D JH TH 9H 5S 6S 7S 9D TD",
    S="6H 8H 7H 4H 8S 9S JD QD KD",
    W="5H 3H 2H TS JS QS KS AS AD",
    stock="KC 2C 3C QC 4C JC 6C AC TC 9C 8C 7C 5C 2D 3D 4D",
)
A_TRUMPS = "bid 7", "pass", "pass", "pass", "trump H"


def test_concealed_discard_keeps_every_trump_and_refills_in_turn_from_the_top():
    # 000 section 04: "Everyone discards all non-trumps face down, retaining every trump. Dealer
    # replenishes the others from undealt cards to 6"; readings: in turn from the dealer's left,
    # each taking all he needs before the next.  Forced discards and refills are no actions.
    d = deal("pagat", W, TABLE_A, *A_TRUMPS)
    assert d.hand(N) == cards("AH KH QH KC 2C 3C")
    assert d.hand(E) == cards("5D JH TH 9H QC 4C")
    assert d.hand(S) == cards("6H 8H 7H 4H JC 6C")
    assert d.hand(W) == cards("5H 3H 2H")  # the dealer discarded too, and now robs
    assert d.phase is Phase.ROB and d.to_act is W
    assert len(d.history) == 5  # no keep was written for a forced discard
    view = d.view(E)
    assert view.own_discards == cards("5S 6S 7S 9D TD")
    assert view.face_up_discards == (CardSet(0),) * 4  # concealed: nobody sees another's discard
    assert view.drawn_counts == (3, 2, 2, 0) and view.own_drawn == cards("QC 4C")
    assert view.known_elsewhere & cards("2S 3S 4S 6D 7D 8D") == 0


def test_face_up_discards_are_seen_from_every_seat():
    # 001 "everyone discards every non-trump card from their hand, face up".
    d = deal("difference", W, TABLE_A, *A_TRUMPS)
    for seat in Seat:
        up = d.view(seat).face_up_discards
        assert up[N] == cards("2S 3S 4S 6D 7D 8D")
        assert up[E] == cards("5S 6S 7S 9D TD")
        assert up[S] == cards("8S 9S JD QD KD")
        assert up[W] == cards("TS JS QS KS AS AD")  # the dealer discards with everyone (any-six rob)
        assert up[E] & ~d.view(seat).known_elsewhere == 0


def test_choose_concealed_discard_keeps_trumps_and_chosen_non_trumps_up_to_six():
    # 002 step 5: "Every player now discards face-down any non-trump cards they do not want to keep";
    # readings: every trump and any non-trumps, at most six cards in all; in turn from dealer's left.
    d = deal("additive", W, TABLE_A, *A_TRUMPS)
    assert d.phase is Phase.DISCARD and d.to_act is N
    assert "every trump must be kept; only non-trumps are thrown (you left out QH)" in str(
        illegal(d, "keep AH KH 2S"))
    assert "a hand after the discard holds at most six cards (you kept 7)" in str(
        illegal(d, "keep AH KH QH 2S 3S 4S 6D"))
    assert "you may keep only cards you hold (5S is not among them)" in str(illegal(d, "keep AH KH QH 5S"))
    play(d, "keep AH KH QH 2S")
    assert d.to_act is E
    play(d, "keep 5D JH TH 9H", "keep 6H 8H 7H 4H JD QD")
    # The dealer does not discard under 002 (hand-and-stock rob): refills, then the rob.
    assert d.hand(N) == cards("AH KH QH 2S KC 2C")
    assert d.hand(E) == cards("5D JH TH 9H 3C QC")
    assert d.hand(S) == cards("6H 8H 7H 4H JD QD")  # kept six: no refill
    assert d.phase is Phase.ROB and d.hand(W) == cards("5H 3H 2H TS JS QS KS AS AD")
    assert d.view(S).face_up_discards == (CardSet(0),) * 4
    assert d.view(S).own_discards == cards("8S 9S KD")


def test_choose_concealed_with_nothing_to_choose_is_forced():
    # RECORD.md: keep is written only where the rules left more than one possible hand.
    d = deal("additive", W, table(
        "W", N="AH KH QH JH TH 9H 2S 3S 4S", E="5D 8H 7H 6H 5H 4H 3H 2H 5S",
        S="AS KS QS JS TS 9S 8S 7S 6S", W="AD KD QD JD TD 9D 8D 7D 6D"), *A_TRUMPS)
    # N holds six trumps: he must throw his three spades, with nothing to choose.
    assert d.hand(N) == cards("AH KH QH JH TH 9H") and d.to_act is E and d.phase is Phase.DISCARD


def test_a_player_with_six_trumps_or_more_draws_nothing():
    # 000 section 04: "anyone already holding 6 or more trumps gets none".
    d = deal("pagat", N, table(
        "N", E="AH KH QH JH TH 9H 8H 2S 3S", S="7H 6H 4S 5S 6S 7S 8S 9S TS",
        W="5H 5D 4H JS QS KS AS AD KD", N="3H 2H QD JD TD 9D 8D 7D 6D",
        stock="2D 3D 4D AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C"), "bid 7", "pass", "pass", "pass", "trump H")
    assert d.hand(E) == cards("AH KH QH JH TH 9H 8H")  # seven trumps, kept, none drawn
    assert d.hand(S) == cards("7H 6H 2D 3D 4D AC")  # S is refilled first from the top
    assert d.hand(W) == cards("5H 5D 4H KC QC JC")
    assert d.view(N).drawn_counts[:3] == (0, 0, 4)


# =============================================================================
# More than six trumps
# =============================================================================
# N deals, E will name hearts holding eight of them; S and W hold none and draw six each,
# so the dealer's rob (when he discards first) is forced: his two trumps and the last four.
TABLE_EIGHT = table(
    "N",
    E="AH KH QH JH TH 9H 8H 7H 2S",
    S="3S 4S 5S 6S 7S 8S 9S TS JS",
    W="QS KS AS 2D 3D 4D 6D 7D 8D",
    N="3H 2H 9D TD JD QD KD AD 2C",
    stock="6H 5H 3C 4C 5C 6C 5D 4H 7C 8C 9C TC JC QC KC AC",
)
EIGHT_TRUMPS = "bid 7", "pass", "pass", "pass", "trump H"


def test_buried_excess_keeps_all_eight_and_buries_two_under_the_first_card():
    # 000 section 05: "Anyone starting above 6 plays excess cards together with the main card so
    # that 5 remain after the first trick. ... only its top competes to win, the buried cards are
    # captured with it."  RECORD.md: "play C bury C2 C3".
    d = deal("pagat", N, TABLE_EIGHT, *EIGHT_TRUMPS)
    assert d.hand(E) == cards("AH KH QH JH TH 9H 8H 7H") and d.phase is Phase.PLAY and d.to_act is E
    options = legal(d)
    assert "play AH bury 8H 7H" in options and "play AH" not in options
    assert all(" bury " in a for a in options)
    assert "E holds 8 cards and must bury 2 under the first card played" in str(illegal(d, "play AH"))
    assert "must bury 2" in str(illegal(d, "play AH bury 7H"))
    # 000: "Burying scoring trumps is forbidden" (A, J, 10 of trumps and the 2 here).
    err = illegal(d, "play AH bury JH 7H")
    assert "burying a point card (JH) is forbidden" in str(err)
    assert "E does not hold 2H" in str(illegal(d, "play AH bury 2H 7H"))
    play(d, "play AH bury 8H 7H")
    assert len(d.hand(E)) == 5
    play(d, "play 6H", "play 4H", "play 2H")
    trick = d.tricks[0]
    assert trick.winner is E and trick.cards == cards("AH 8H 7H 6H 4H 2H")
    assert trick.plays[0].buried == cards("8H 7H")
    # Buried only on trick 1.
    assert "cards are buried only on trick 1" in str(illegal(d, "play KH bury QH"))


def test_a_hand_holding_all_six_point_cards_buries_its_plain_trump_under_a_point_card():
    # 000 "Burying scoring trumps is forbidden"; readings: a point card may be buried only if the
    # hand has too few other cards, which takes Sancho or Dom Pedro.  With seven trumps of which
    # six score, E must bury his king, so his competing card must be a point card.
    d = deal("pagat", N, table(
        "N", E="AH JH TH 5H 5D 2H KH 2S 3S", S="4S 5S 6S 7S 8S 9S TS JS QS",
        W="KS AS 2D 3D 4D 6D 7D 8D 9D", N="3H 4H TD JD QD KD AD 2C 6C",
        stock="QH 9H 8H 3C 4C 5C 7H 6H 7C 8C 9C TC JC QC KC AC"), *EIGHT_TRUMPS)
    assert d.hand(E) == cards("AH KH JH TH 5H 5D 2H")
    assert sorted(legal(d)) == sorted(f"play {c} bury KH" for c in ("AH", "JH", "TH", "5H", "5D", "2H"))
    assert "burying a point card (2H) is forbidden" in str(illegal(d, "play KH bury 2H"))


def test_buried_excess_with_sancho_buries_the_fewest_point_cards():
    # Readings: only if a hand has too few other cards (possible only with Sancho or Dom Pedro)
    # may the shortfall be made up of point cards.  Seven point cards (with Sancho) in seven trumps.
    d = deal(rules("pagat", sancho=True), N, table(
        "N", E="AH JH TH 9H 5H 5D 2H 2S 3S", S="4S 5S 6S 7S 8S 9S TS JS QS",
        W="KS AS 2D 3D 4D 6D 7D 8D 9D", N="3H 4H TD JD QD KD AD 2C 6C",
        stock="KH QH 8H 3C 4C 5C 7H 6H 7C 8C 9C TC JC QC KC AC"), *EIGHT_TRUMPS)
    assert len(d.hand(E)) == 7
    options = legal(d)
    assert len(options) == 7 * 6 and "play AH bury 2H" in options


def test_keep_six_shows_the_thrown_trumps_and_they_are_dead():
    # 001 "If you somehow hold more than six trumps, you keep six and show the table the trumps
    # you throw out."  RULEBOOK: keep six, show the trumps thrown, they are dead.
    d = deal("difference", N, TABLE_EIGHT, *EIGHT_TRUMPS)
    assert d.phase is Phase.DISCARD and d.to_act is E
    assert "keeps exactly six" in str(illegal(d, "keep AH KH QH JH TH 9H 8H"))
    assert "a player with more than six trumps keeps six of them" in str(illegal(d, "keep AH KH QH JH TH 2S"))
    play(d, "keep AH KH QH 9H 8H 7H")
    for seat in Seat:
        assert d.view(seat).shown_trumps[E] == cards("JH TH")
        assert cards("JH TH") & ~d.view(seat).known_elsewhere == 0
    autoplay(d)
    found = awards(d)
    assert "Jack" not in found and "Game" not in found  # dead: they score for nobody


@pytest.mark.parametrize("maker_side_throws", [False, True])
def test_official_a_point_card_thrown_by_a_defender_counts_for_the_makers(maker_side_throws):
    # 003 "If a trump is discarded, it must be shown and becomes a dead card. If an opponent of the
    # high bidder accidentally discards a scoring card, it counts for the high bidder's team."
    # E holds eight hearts.  Either S bids (E defends) or W, E's partner, bids (E is a maker).
    bidding = ("pass", "bid 5", "pass", "pass") if not maker_side_throws else ("pass", "pass", "bid 5", "pass")
    d = deal("official", N, TABLE_EIGHT, *bidding)
    play(d, "trump H", "keep AH KH QH 9H 8H 7H")  # E throws the Jack and the ten
    autoplay(d)
    found = awards(d)
    if maker_side_throws:
        assert "Jack" not in found and "Game" not in found
    else:
        assert found["Jack"] == ("JH", "NS", "thrown by a defender")
        assert found["Game"] == ("TH", "NS", "thrown by a defender")


# =============================================================================
# The dealer robs the pack
# =============================================================================
# N deals and E names hearts.  After the refills (E 3, S 4, W 4 cards) the stock holds
# 5C 2C 6H 5H 3H: three trumps and two clubs.
TABLE_ROB = table(
    "N",
    N="AH 2H AC KC QC JC TC 9C 8C",
    E="KH QH JH AS KS QS JS TS 9S",
    S="TH 9H 8S 7S 6S 5S 4S 3S 2S",
    W="8H 7H AD KD QD JD TD 9D 8D",
    stock="7D 6D 5D 4D 3D 2D 7C 6C 4H 4C 3C 5C 2C 6H 5H 3H",
)
ROB_BIDS = "bid 7", "pass", "pass", "pass", "trump H"


def test_rob_all_trumps_takes_every_trump_then_chooses_non_trumps():
    # 000 section 04: "Dealer then inspects the undealt remainder, taking all its trumps and enough
    # other cards to reach 6."
    d = deal("pagat", N, TABLE_ROB, *ROB_BIDS)
    assert d.hand(E) == cards("KH QH JH 7D 6D 5D") and d.hand(W) == cards("8H 7H 6C 4H 4C 3C")
    assert d.phase is Phase.ROB and d.to_act is N and d.hand(N) == cards("AH 2H")
    assert legal(d) == ["keep AH 6H 5H 3H 2H 5C", "keep AH 6H 5H 3H 2H 2C"]
    err = illegal(d, "keep AH 5H 3H 2H 5C 2C")
    assert "the dealer must take every trump left in the stock (all-trumps rob) (you left out 6H)" in str(err)
    assert err.legal == tuple(legal(d))
    assert d.view(N).stock_seen == cards("5C 2C 6H 5H 3H")
    assert d.view(E).stock_seen == CardSet(0)  # only the dealer sees the stock he robs
    play(d, "keep AH 6H 5H 3H 2H 2C")
    assert d.phase is Phase.PLAY and d.to_act is E  # the maker leads
    assert d.stock == cards("5C")  # left in the stock: concealed, dead
    assert Card.parse("5C") not in d.view(E).known_elsewhere


def test_rob_any_six_may_keep_non_trumps_and_show_a_dropped_trump():
    # 001 "the dealer 'robs the pack': they look through all the cards that are left and keep any
    # they like to make their own hand six."  Readings: a trump leaving a hand is shown and dead.
    d = deal("difference", N, TABLE_ROB, *ROB_BIDS)
    assert d.hand(N) == cards("AH 2H") and len(d.legal_actions()) == 7
    assert "the dealer keeps exactly six cards (you kept 7)" in str(illegal(d, "keep AH 6H 5H 3H 2H 5C 2C"))
    play(d, "keep AH 6H 5H 3H 5C 2C")  # drops the 2 of trumps from his hand
    assert d.hand(N) == cards("AH 6H 5H 3H 5C 2C")
    assert d.view(W).shown_trumps[N] == cards("2H")
    assert d.view(W).face_up_discards[N] == cards("AC KC QC JC TC 9C 8C")


def test_rob_trumps_first_must_take_trumps_before_other_cards():
    # 004: the dealer "first discards all non-trumps from his hand ... selecting whatever trumps
    # he/she may choose.  If there are not enough trumps, the Dealer may choose ... whichever cards".
    d = deal("double-pedro", N, TABLE_ROB, *ROB_BIDS)
    assert d.hand(N) == cards("AH 2H")
    assert legal(d) == ["keep AH 6H 5H 3H 2H 5C", "keep AH 6H 5H 3H 2H 2C"]
    err = illegal(d, "keep AH 6H 5H 2H 5C 2C")
    assert "the dealer takes trumps first and may keep a non-trump only when no trump is left to take" in str(err)


# The same seats, but N holds three trumps and the stock ends 6H 5H 4H 5D 2C: after the
# refills the dealer can reach seven trumps.
TABLE_ROB7 = table(
    "N",
    N="AH 3H 2H AC KC QC JC TC 9C",
    E="KH QH JH AS KS QS JS TS 9S",
    S="TH 9H 8S 7S 6S 5S 4S 3S 2S",
    W="8H 7H AD KD QD JD TD 9D 8D",
    stock="7D 6D 4D 3D 2D 8C 7C 6C 5C 4C 3C 6H 5H 4H 5D 2C",
)


def test_rob_all_trumps_may_end_above_six():
    # 000 section 04: the dealer takes all the stock's trumps; "Thus hands above 6 are not reduced
    # by discarding trumps."  Seven trumps: the rob is forced, and one is buried on trick 1.
    d = deal("pagat", N, TABLE_ROB7, *ROB_BIDS)
    assert d.phase is Phase.PLAY and d.hand(N) == cards("AH 6H 5H 4H 3H 2H 5D")
    play(d, "play KH", "play TH", "play 8H")
    assert "N holds 7 cards and must bury 1" in str(illegal(d, "play 4H"))
    # Any competing card, burying one of the plain trumps 6H 4H 3H (never A, 5, 5 or 2).
    assert len(legal(d)) == 4 * 3 + 3 * 2
    assert "play AH bury 6H" in legal(d) and "play 4H bury 3H" in legal(d) and "play 6H bury 5D" not in legal(d)
    play(d, "play 4H bury 6H")
    assert len(d.hand(N)) == 5 and d.tricks[0].winner is E


def test_rob_trumps_first_with_trumps_to_spare_keeps_any_six_trumps():
    # 004: "selecting whatever trumps he/she may choose" - six of seven trumps, no non-trump.
    d = deal("double-pedro", N, TABLE_ROB7, *ROB_BIDS)
    assert d.hand(N) == cards("AH 3H 2H")
    assert len(d.legal_actions()) == 7 and all(not a.endswith("C") for a in legal(d))
    assert "a non-trump only when no trump is left" in str(illegal(d, "keep AH 6H 5H 4H 3H 2C"))
    play(d, "keep AH 6H 5H 4H 3H 2H")
    assert d.view(S).shown_trumps[N] == CardSet(0)  # the 5D stays in the stock, concealed


def test_rob_hand_and_stock_the_dealer_does_not_discard():
    # 003 "All players (except the dealer) must discard all non-trump cards ... The dealer may then
    # look through undealt cards to complete their own hand to six cards."
    d = deal("official", N, TABLE_ROB, *ROB_BIDS)
    assert d.hand(N) == cards("AH 2H AC KC QC JC TC 9C 8C")  # nine cards: no discard
    assert d.phase is Phase.ROB and len(d.legal_actions()) == 3003  # any six of fourteen
    assert "keep 6 of" in str(illegal(d, "keep AH 2H"))  # a long choice is described, not listed
    play(d, "keep AH 6H 5H 3H AC KC")  # keeps two clubs from his own hand, drops the 2H
    assert d.hand(N) == cards("AH 6H 5H 3H AC KC")
    assert d.view(E).shown_trumps[N] == cards("2H")  # 003 "If a trump is discarded, it must be shown"
    assert d.view(E).face_up_discards[N] == CardSet(0)


# =============================================================================
# The stock runs out
# =============================================================================
# TABLE_SHORT (helpers.py): N deals holding nine hearts and nobody else holds a trump.


def test_stock_out_reshuffles_the_concealed_non_trump_discards_into_a_new_stock():
    # 000 section 04: "If undealt cards run out before hands are replenished, shuffle the concealed
    # non-trump discards into a new stock."  RECORD.md: its order is given as `restock`.
    d = deal("pagat", N, TABLE_SHORT, *STUCK_N)
    assert d.phase is Phase.RESTOCK and d.to_act is None and legal(d) == []
    assert d.restock_pool == cards(RESTOCK)
    with pytest.raises(IllegalAction, match="a new stock must be formed first"):
        play(d, "play AH")
    with pytest.raises(IllegalAction, match="exactly the non-trump discards"):
        d.apply_restock(RESTOCK.split()[1:])
    d.apply_restock(RESTOCK.split())
    assert d.restock == tuple(Card.parse(c) for c in RESTOCK.split())
    # The refills continue from the new stock: W takes the old stock's last four and two more.
    assert d.hand(E) == cards("5D 5S 4S 3S 2S 4D")
    assert d.hand(S) == cards("5H 2H 3D 2D 5C 4C")
    assert d.hand(W) == cards("4H 3H 3C 2C AS AD")
    # The discards became the stock: E no longer knows where his AS is (W drew it).
    assert d.view(E).own_discards == CardSet(0) and Card.parse("AS") not in d.view(E).known_elsewhere
    # The dealer robs what is left of it: every trump (none) and keeps all nine of his own.
    assert d.phase is Phase.PLAY and d.hand(N) == cards("AH KH QH JH TH 9H 8H 7H 6H")
    assert len(d.stock) == 25
    with pytest.raises(IllegalAction, match="no new stock is being formed now"):
        d.apply_restock(RESTOCK.split())


def test_a_restock_given_up_front_is_used_when_the_stock_runs_out():
    d = deal("pagat", N, TABLE_SHORT, *STUCK_N, restock=RESTOCK)
    assert d.phase is Phase.PLAY and d.hand(W) == cards("4H 3H 3C 2C AS AD")
    # Nine trumps against six tricks: three are buried under the first card (000 section 05).
    assert "N holds 9 cards and must bury 3" in str(illegal(d, "play AH"))
    play(d, "play AH bury 8H 7H 6H", "play 5D", "play 5H", "play 4H")
    assert d.tricks[0].winner is N


def test_a_shuffled_deal_shuffles_the_new_stock_itself():
    d = Deal(rules("pagat"), N, TABLE_SHORT, rng=random.Random(5))
    play(d, *STUCK_N)
    assert d.phase is Phase.PLAY and sorted(d.restock) == sorted(cards(RESTOCK))


def test_a_shuffled_deck_and_new_stock_are_those_random_shuffle_gives():
    # Deal.shuffled writes Random.shuffle out (cinch.deal.shuffle): the same deck and new stock
    # for a seed, and the generator left as Random.shuffle leaves it, so what is drawn next is too.
    for seed in range(300):
        rng, mine = random.Random(seed), random.Random(seed)
        deck = list(CARDS)
        rng.shuffle(deck)
        d = Deal.shuffled(rules("pagat"), N, mine)
        assert d.deck == tuple(deck) and mine.getstate() == rng.getstate(), seed
    d = Deal(rules("pagat"), N, TABLE_SHORT, rng=random.Random(5))
    play(d, *STUCK_N)
    order = [c for c in CARDS if c in d.restock]  # the pool in card order, as _refill lists it
    random.Random(5).shuffle(order)
    assert d.restock == tuple(order)


def test_the_written_out_shuffle_and_draw_are_random_s_own():
    # The world sampler shuffles and draws with these (compiled) instead of Random.shuffle and randrange:
    # the same lists and numbers for a seed, and the generator left where Random's own leaves it.
    for seed in range(60):
        for n in (0, 1, 2, 3, 9, 16, 52, 104, 130):
            rng, mine = random.Random(seed), random.Random(seed)
            expected, got = list(range(n)), list(range(n))
            rng.shuffle(expected)
            shuffle(mine, got)
            assert got == expected and mine.getstate() == rng.getstate(), (seed, n)
        for n in (1, 2, 7, 64, 104, 200, 10**6):
            rng, mine = random.Random(seed), random.Random(seed)
            assert randbelow(mine, n) == rng.randrange(n) and mine.getstate() == rng.getstate(), (seed, n)


def test_a_generator_of_its_own_kind_shuffles_and_draws_its_own_way():
    class Reversing(random.Random):
        def shuffle(self, x):
            x.reverse()

        def randrange(self, *args):
            return 0

    items = [1, 2, 3]
    shuffle(Reversing(1), items)
    assert items == [3, 2, 1] and randbelow(Reversing(1), 10) == 0
    with pytest.raises(ValueError):
        randbelow(random.Random(1), 0)


def test_stock_out_shared_as_evenly_as_possible():
    # 002 step 5: "If the stock runs out during refill (rare), the dealer distributes the remaining
    # cards as evenly as possible."  Readings: one card at a time, in turn from the dealer's left,
    # to the non-dealers still short of six; the dealer then robs an empty stock.
    d = deal("additive", N, TABLE_SHORT, "pass", "pass", "pass", "bid 5", "trump H", "keep", "keep", "keep")
    assert d.hand(E) == cards("5D 3S 5H 2D 4H 2C")  # stock cards 1, 4, 7, 10, 13, 16
    assert d.hand(S) == cards("5S 2S 2H 5C 3H")  # 2, 5, 8, 11, 14
    assert d.hand(W) == cards("4S 4D 3D 4C 3C")  # 3, 6, 9, 12, 15
    assert d.phase is Phase.ROB and d.stock == CardSet(0)
    assert len(d.legal_actions()) == 84  # any six of his nine (hand-and-stock rob)
    play(d, "keep AH KH QH JH TH 9H")
    assert d.view(E).hand_sizes == (6, 6, 5, 5)
    assert d.view(E).shown_trumps[N] == cards("8H 7H 6H")


def test_an_empty_hand_is_skipped_and_the_lead_passes_left_from_an_empty_handed_winner():
    # Readings (share): "a player whose hand is empty is skipped in later tricks, and the lead passes
    # left from an empty-handed winner."  S wins tricks 1-5 and runs out with W: N leads trick 6.
    d = deal("additive", N, table(
        "N", N="9H 8H 7H 6H 5H 5D 4H 3H 2H", E="AS KS QS JS TS 9S 8S 7S 6S",
        S="AD KD QD JD TD 9D 8D 7D 6D", W="AC KC QC JC TC 9C 8C 7C 6C",
        stock="5S AH 5C 4S KH 4C 3S QH 3C 2S JH 2C 4D TH 3D 2D"),
        "pass", "pass", "pass", "bid 5", "trump H", "keep", "keep", "keep", "keep 9H 8H 7H 6H 5H 5D",
        "play 9H", "play 5S", "play TH", "play 5C",
        "play JH", "play 4C", "play 8H", "play 4S",
        "play QH", "play 3C", "play 7H", "play 3S",
        "play KH", "play 2C", "play 6H", "play 2S",
        "play AH", "play 3D", "play 5H", "play 4D")
    assert [t.winner for t in d.tricks] == [S] * 5
    assert d.to_act is N and legal(d) == ["play 5D"]
    play(d, "play 5D", "play 2D")
    assert d.is_over and len(d.tricks[5].plays) == 2 and d.tricks[5].winner is N
    assert d.result.points == (14, 0) and d.result.score_change == (14, 0)


# =============================================================================
# The play
# =============================================================================
def test_worked_fact_left_pedro_trumps_a_club_lead_and_six_of_hearts_takes_both_fives():
    # RULEBOOK worked facts / 000 section 07: "Hearts are trumps, partners A-C and B-D. A leads K♣,
    # B plays 5♦ as left trump, C plays 6♥, D plays 5♥. B and C may trump even if holding clubs.
    # 6♥ outranks both Pedros, so C captures 5+5=10 points in fives."  Here A-D are N E S W.
    d = deal("pagat", W, TABLE_A, *A_TRUMPS, "keep 5H 3H 2H AC TC 9C")
    assert d.to_act is N  # the maker leads trick 1
    play(d, "play KC")
    assert cards("QC 4C") & ~d.hand(E) == 0 and "play 5D" in legal(d)  # E holds clubs and may trump
    play(d, "play 5D")
    assert cards("JC 6C") & ~d.hand(S) == 0 and "play 6H" in legal(d)
    play(d, "play 6H", "play 5H")
    trick = d.tricks[0]
    assert trick.winner is S and d.to_act is S  # the winner leads next
    assert trick.cards == cards("KC 5D 6H 5H")
    pedros = d.point_table.awards((int(trick.cards), 0), int(trick.cards), None, 0, Team.NS)
    assert sum(a.points for a in pedros) == 10


# E will lead with no draw (nine cards each); hearts are trumps.
TABLE_PLAY = table(
    "N",
    E="KC 7C AS KS QS 2D 3D 4D 9H",
    S="QC 3C TH 8H AD KD 2S 3S 4S",
    W="5D 2H 3H 6S 7S 8S 9S TS JS",
    N="AC 5C 6C KH QH 4H 5S 6D 7D",
)
PLAY_BIDS = "bid 3", "pass", "pass", "pass", "trump H"


@pytest.mark.parametrize("preset", ["pagat", "difference", "additive", "official", "double-pedro"])
def test_all_fours_follow_or_trump_on_a_plain_lead_trump_on_a_trump_lead(preset):
    # RULEBOOK common core (all five texts): "On a trump lead you must play a trump if you hold one.
    # On a plain-suit lead you may follow suit OR trump, as you like; if you can do neither, play anything."
    d = deal(rules(preset, no_draw=True, min_bid=3), N, TABLE_PLAY, *PLAY_BIDS, "play KC")
    assert sorted(legal(d)) == sorted(["play QC", "play 3C", "play TH", "play 8H"])
    err = illegal(d, "play AD")
    assert "KC was led and S holds clubs, so must follow suit or play a trump" in str(err)
    assert "Legal here: play TH, play 8H, play QC, play 3C" in str(err)
    play(d, "play TH")  # S trumps while holding clubs
    assert len(legal(d)) == 9  # W is void in clubs: anything
    play(d, "play 6S")
    assert sorted(legal(d)) == sorted(["play AC", "play 5C", "play 6C", "play KH", "play QH", "play 4H"])
    play(d, "play AC")
    assert d.tricks[0].winner is S  # the highest trump wins, not the ace of the suit led
    play(d, "play 8H")  # a trump lead: W must play one of his trumps, the left Pedro among them
    assert sorted(legal(d)) == ["play 2H", "play 3H", "play 5D"]
    assert "a trump was led (8H) and W holds trumps, so must play a trump" in str(illegal(d, "play 7S"))


def test_strict_following_makes_you_follow_suit_when_able():
    # RULEBOOK follow option / 002 gameplay step 2: "You must follow suit if you hold any card of the
    # led suit. If void, you may play any card including a trump."
    d = deal(rules("additive", no_draw=True, follow="strict"), N, TABLE_PLAY, *PLAY_BIDS, "play KC")
    assert sorted(legal(d)) == ["play 3C", "play QC"]
    err = illegal(d, "play TH")
    assert "KC was led and S holds clubs: under strict following S must follow suit" in str(err)
    play(d, "play QC")
    assert len(legal(d)) == 9  # void: anything, trumps included
    play(d, "play 2H", "play AC")
    assert d.tricks[0].winner is W  # a lone small trump beats the clubs


def test_strict_following_the_left_pedro_does_not_follow_its_printed_suit():
    # 002 step 3: "If the Left Pedro's natural suit is led, players may play the Left Pedro as a
    # trump rather than following suit, because it is now part of the trump suit."
    d = deal(rules("additive", no_draw=True, follow="strict"), N, TABLE_PLAY, *PLAY_BIDS, "play 2D")
    play(d, "play AD")
    assert len(legal(d)) == 9  # W holds only the 5D of diamonds: he is void in diamonds
    play(d, "play 5D")
    assert sorted(legal(d)) == ["play 6D", "play 7D"]  # N must follow with a real diamond
    play(d, "play 7D")
    assert d.tricks[0].winner is W


def test_highest_card_of_the_suit_led_wins_without_trumps():
    # RULEBOOK common core: "Highest trump wins, else highest card of the suit led."
    d = deal(rules("official", no_draw=True), N, TABLE_PLAY, *PLAY_BIDS, "play 2D", "play KD", "play TS", "play 6D")
    assert d.tricks[0].winner is S and d.to_act is S


def test_a_card_not_held_is_refused():
    d = deal(rules("official", no_draw=True), N, TABLE_PLAY, *PLAY_BIDS)
    err = illegal(d, "play AH")
    assert "E does not hold AH" in str(err)
    assert err.legal == tuple(f"play {c}" for c in cards("KC 7C AS KS QS 2D 3D 4D 9H"))


def test_no_draw_plays_the_nine_dealt_cards_in_nine_tricks():
    # 002 "Simple Cinch (no draw): Skip the discard-and-draw phase; play the original 9-card hand".
    d = deal(rules("official", no_draw=True), N, TABLE_PLAY, *PLAY_BIDS)
    assert d.phase is Phase.PLAY and d.to_act is E and d.hand(E) == cards("KC 7C AS KS QS 2D 3D 4D 9H")
    assert d.view(W).own_discards == CardSet(0)
    autoplay(d)
    assert len(d.tricks) == 9 and all(len(t.plays) == 4 for t in d.tricks)
    # The stock is never touched: its trumps (AH JH ...) are not in play and score for nobody.
    assert cards("AH JH 5H") & ~d.stock == 0
    found = awards(d)
    assert "Jack" not in found and "Right Pedro" not in found
    assert sum(d.result.points) == 1 + 1 + 1 + 5  # High, Low, Game (TH) and the left Pedro


def test_sancho_and_dom_pedro_in_a_deal():
    # 002 "Pedro Sancho ... total per deal becomes 23 points and the maker typically bids higher";
    # "Dom Pedro: ... additional 3 of trumps for 3 points".
    r = rules("additive", no_draw=True, sancho=True, dom_pedro=True)
    d = deal(r, N, TABLE_PLAY, "bid 26")
    assert d.high_bid == 26
    play(d, "pass", "pass", "pass", "trump H")
    autoplay(d)
    found = awards(d)
    assert found["Sancho"][0] == "9H" and found["Dom"][0] == "3H"
    assert sum(a.points for a in d.result.awards if a.name in ("Sancho", "Dom")) == 12
    with pytest.raises(IllegalAction, match="bids run from 1 to 14"):
        deal(rules("additive"), N, TABLE_PLAY, "bid 15")


def test_the_deal_ends_after_six_tricks_with_a_result():
    d = autoplay(deal("pagat", W, TABLE_A, *A_TRUMPS))
    assert len(d.tricks) == 6 and d.is_over and d.to_act is None
    r = d.result
    assert sum(r.points) == 14  # every point card was in play
    assert r.maker is N and r.bid == 7 and r.trump is Suit.HEARTS and r.makers is Team.NS
    assert "the deal is over" in str(illegal(d, "play AH"))
    assert r.describe().startswith("NS bid 7, took ")


# =============================================================================
# Views and illegal actions
# =============================================================================
def test_a_seat_sees_its_own_hand_and_only_public_facts():
    d = deal("difference", W, TABLE_A, *A_TRUMPS, "keep 5H 3H 2H AC TC 9C", "play KC")
    view = d.view(S)
    assert view.hand == d.hand(S) and view.hand_sizes == (5, 6, 6, 6)
    assert view.trump is Suit.HEARTS and view.maker is N and view.bid == 7 and view.dealer is W
    assert [str(a) for _, a in view.auction] == ["bid 7", "pass", "pass", "pass"]
    assert view.current_trick[0].card == Card.parse("KC") and view.trick_leader is N
    assert view.legal == () and d.view(E).legal  # only the seat to act gets its legal actions
    assert view.stock_seen == CardSet(0) and d.view(W).stock_seen == cards("8C 7C 5C 2D 3D 4D")
    for other in (N, E, W):
        assert not (d.hand(other) & view.known_elsewhere)  # nothing of another hand leaks


@pytest.mark.parametrize("setup, action, rule", [
    (("pagat", W, RECORD_EXAMPLE), "bid 15", "bids run from 7 to 14"),
    (("pagat", W, RECORD_EXAMPLE, "bid 9"), "bid 9", "each bid must beat the one before"),
    (("pagat", W, RECORD_EXAMPLE, "pass", "pass", "pass"), "pass", "the dealer is stuck"),
    (("pagat", W, RECORD_EXAMPLE), "trump H", "it is the bidding: N must pass or bid"),
    (("pagat", W, RECORD_EXAMPLE, "bid 7", "pass", "pass", "pass"), "play AH", "the maker (N) must name trumps"),
    (("additive", W, TABLE_A, *A_TRUMPS), "keep AH", "every trump must be kept"),
    (("additive", W, TABLE_A, *A_TRUMPS), "play AH", "it is the discard: N must say which cards to keep"),
    (("pagat", W, TABLE_A, *A_TRUMPS), "keep 5H 3H AC TC 9C 8C", "the dealer must take every trump"),
    (("pagat", W, TABLE_A, *A_TRUMPS), "play 5H", "the dealer (W) must rob the pack"),
    (("pagat", W, TABLE_A, *A_TRUMPS, "keep 5H 3H 2H AC TC 9C"), "play 5D", "N does not hold 5D"),
    (("pagat", W, TABLE_A, *A_TRUMPS, "keep 5H 3H 2H AC TC 9C", "play AH"), "play QC",
     "a trump was led (AH) and E holds trumps"),
])
def test_every_illegal_action_names_the_rule_and_what_was_legal(setup, action, rule):
    preset, dealer, deck, *actions = setup
    d = deal(preset, dealer, deck, *actions)
    err = illegal(d, action)
    assert isinstance(err, IllegalAction) and rule in err.rule
    assert "Legal here: " in str(err) and err.legal_summary
    assert err.legal == tuple(legal(d)) or len(d.legal_actions()) > 24


# ---------------------------------------------------------------------------
# The search bots' fast paths: copy() and random_playout()
# ---------------------------------------------------------------------------
def _positions_after_draw(preset: str, count: int, seed: int) -> list[Deal]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        d = Deal.shuffled(rules(preset), Seat(len(out) % 4), rng)
        while d.phase not in (Phase.PLAY, Phase.DONE):
            d.apply(rng.choice(d.legal_actions()))
        for _ in range(rng.randrange(8)):  # some positions mid-trick, some later
            if d.phase is Phase.PLAY:
                d.apply(rng.choice(d.legal_actions()))
        if d.phase is Phase.PLAY:
            out.append(d)
    return out


@pytest.mark.parametrize("preset", ["pagat", "difference", "additive", "official", "double-pedro"])
def test_a_random_playout_leaves_the_deal_as_it_was(preset):
    for d in _positions_after_draw(preset, 30, 1):
        before = (list(d.hands), [str(a) for a in d.history], d.to_act, list(d.captured), d.in_play)
        ns, ew = d.random_playout(random.Random(2))
        assert 0 <= ns + ew <= d.rules.total_points
        assert (list(d.hands), [str(a) for a in d.history], d.to_act, list(d.captured), d.in_play) == before


@pytest.mark.parametrize("preset", ["pagat", "official"])
def test_random_playouts_score_like_the_deal_itself(preset):
    """The fast playout follows the same rules: its average points match random play through apply()."""
    for d in _positions_after_draw(preset, 6, 3):
        rng = random.Random(4)
        fast = [d.random_playout(rng)[0] for _ in range(600)]
        slow = []
        for _ in range(600):
            c = d.copy()
            while not c.is_over:
                c.apply(rng.choice(c.legal_actions()))
            slow.append(c.result.points[0])
        mean_fast, mean_slow = sum(fast) / len(fast), sum(slow) / len(slow)
        spread = (sum((x - mean_slow) ** 2 for x in slow) / len(slow)) ** 0.5
        assert abs(mean_fast - mean_slow) <= 0.25 * spread + 0.3, (mean_fast, mean_slow)


def test_a_copy_plays_on_without_touching_the_original():
    d = _positions_after_draw("pagat", 1, 5)[0]
    c = d.copy()
    while not c.is_over:
        c.apply(c.legal_actions()[0])
    assert d.phase is Phase.PLAY and not d.is_over and c.result is not None
    assert d.legal_actions()  # the original still has its decision to make


def test_a_copy_has_every_field_of_the_deal():
    # Deal.copy spells its fields out: one left out would be missing from every copy.
    from cinch.deal import _FIELDS

    for d in (Deal.shuffled(rules("pagat"), N, 3), _positions_after_draw("pagat", 1, 5)[0]):
        c = d.copy()
        assert [getattr(c, f) for f in _FIELDS if f != "_rng"] == [getattr(d, f) for f in _FIELDS if f != "_rng"]


# =============================================================================
# Other table sizes: two, three, five and six players, each for himself
# (docs/rule-readings.md, "Cut-throat"; seats 1 to n, each player his own side)
# =============================================================================
def ring(n: int, dealer: int, hands: list[str], stock: str = "") -> str:
    """The deck that deals ``hands`` (by seat index: the cards each is dealt, three at a time from
    the dealer's left) and then ``stock``, completed with the cards nobody was given."""
    words = [h.split() for h in hands]
    deck = [words[(dealer + 1 + k) % n][3 * r + i]
            for r in range(len(words[0]) // 3) for k in range(n) for i in range(3)]
    deck += stock.split()
    return " ".join(deck + [str(c) for c in CARDS if str(c) not in deck])


# Hearts for trumps at three players, 3 dealing (index 2): 1 passes, 2 bids 7, 3 passes.
THREE = ring(3, 2, ["KH 9H 2H AS KS QS 4C 3C 7D", "AH JH 5H TH AC KC QC 9D 8D", "5D 6H JS TS 9S 8S 2C JC 3D"],
             stock="QH 2S 3S 4D 5S 7H 6S 7S 4S")


@pytest.mark.parametrize(("n", "each"), [(2, 9), (3, 9), (5, 6), (6, 6)])
def test_each_player_is_dealt_nine_or_at_five_and_six_six_in_threes_from_the_dealers_left(n, each):
    # Foster 1897: two or three players are dealt nine; five or six, six cards only.
    deck = [str(c) for c in CARDS]
    d = Deal(rules("pagat", players=n), n - 1, " ".join(deck))
    seats = d.rules.seating.seats
    for seat in seats:  # seat 1, the dealer's left, gets cards 1-3, then 3n+1 to 3n+3, ...
        given = [deck[3 * (n * r + seat) + i] for r in range(each // 3) for i in range(3)]
        assert d.hand(seat) == cards(" ".join(given)), seat
    assert d.stock == cards(" ".join(deck[n * each:]))
    assert len(d.stock) == 52 - n * each and d.to_act is seats[0]


@pytest.mark.parametrize("preset", ["pagat", "official", "difference", "double-pedro"])
def test_with_three_the_dealer_does_not_rob_but_throws_and_draws_like_the_others(preset):
    # Foster 1897; "Cut-throat Cinch" ([P] in docs/rule-readings.md): "With two or three players, the
    # dealer does not rob the pack, but discards and draws like the other players" -- whatever the rob.
    d = deal(rules(preset, players=3), 2, THREE, "pass", "bid 7", "pass", "trump H")
    one, two, three = d.rules.seating.seats
    assert d.phase is Phase.PLAY and d.to_act is two  # no rob: the maker leads at once
    assert d.hand(one) == cards("KH 9H 2H QH 2S 3S")  # draws in turn from the dealer's left
    assert d.hand(two) == cards("AH JH 5H TH 4D 5S")
    assert d.hand(three) == cards("5D 6H 7H 6S 7S 4S")  # the dealer threw JS TS 9S 8S 2C JC 3D and drew four
    assert d.discards[three] == cards("JS TS 9S 8S 2C JC 3D") and d.draw_counts == [3, 2, 4]
    assert len(d.stock) == 16 and d.view(three).stock_seen == CardSet(0)  # the rest stays unseen, even by him


def test_with_two_the_dealer_draws_too_and_the_stock_stays_unseen():
    d = deal(rules("official", players=2), 1,
             ring(2, 1, ["AD 2D 8D KS QS JS KC QC JC", "KD QD JD 5D 5H 2S 3S 4S 2C"], stock="TD 9S 9C 3D"),
             "pass", "bid 8", "trump D")
    one, two = d.rules.seating.seats
    assert d.phase is Phase.PLAY and d.to_act is two
    assert d.hand(one) == cards("AD TD 8D 2D 9S 9C") and d.hand(two) == cards("KD QD JD 5D 5H 3D")
    assert len(d.stock) == 30


def test_at_five_the_dealer_still_robs_the_pack():
    deck = ring(5, 4, ["AH 2H KS QS JS TS", "KH 5D KC QC JC TC", "QH JH 5H AD KD QD", "TH AC 9C 8C 7C 6C",
                       "9H 3H 9S 8S 7S 6S"],
                stock="8H 2S 3S 4S 5S 2C 3C 4C 2D 3D 4D 6D 7D 8D 9D 7H 6H 4H AS JD TD 5C")
    d = deal(rules("additive", players=5), 4, deck, "pass", "pass", "bid 6", "pass", "pass", "trump H",
             "keep AH 2H", "keep KH 5D", "keep QH JH 5H", "keep TH AC")
    dealer = d.rules.seating.seats[4]
    assert d.phase is Phase.ROB and d.to_act is dealer
    assert d.view(dealer).stock_seen == cards("7H 6H 4H AS JD TD 5C")  # the seven left, for him to choose from
    play(d, "keep AS 9H 7H 6H 4H 3H")
    assert d.phase is Phase.PLAY and d.hand(dealer) == cards("AS 9H 7H 6H 4H 3H")


@pytest.mark.parametrize("n", [2, 3, 5, 6])
def test_when_all_the_others_pass_the_stuck_dealer_must_bid_the_minimum(n):
    # 000's "If the first three pass, dealer must bid 7", at any table: all the others.
    d = Deal(rules("pagat", players=n), 0, " ".join(str(c) for c in CARDS))
    for _ in range(n - 1):
        assert "pass" in legal(d)
        play(d, "pass")
    assert d.to_act is d.dealer and legal(d) == ["bid 7"]
    assert "must bid 7" in str(illegal(d, "pass"))
    play(d, "bid 7")
    assert d.phase is Phase.TRUMP and d.maker is d.dealer


@pytest.mark.parametrize("n", [2, 3, 5, 6])
def test_a_bid_before_the_dealer_leaves_him_free_to_pass(n):
    d = Deal(rules("pagat", players=n), 0, " ".join(str(c) for c in CARDS))
    play(d, *(["pass"] * (n - 2)), "bid 7")
    assert legal(d)[0] == "pass"


@pytest.mark.parametrize("n", [2, 3, 5, 6])
def test_when_all_pass_under_a_throw_in_the_deal_scores_nothing_for_anyone(n):
    d = Deal(rules("official", players=n), 1, " ".join(str(c) for c in CARDS))
    play(d, *(["pass"] * n))
    assert d.is_over and d.result.thrown_in and d.result.score_change == (0,) * n


def test_a_trick_holds_one_card_from_each_player_and_its_winner_leads_the_next():
    d = deal(rules("official", players=3), 2, THREE, "pass", "bid 7", "pass", "trump H", "play AH", "play 6H")
    one, two, three = d.rules.seating.seats
    assert d.to_act is one and len(d.tricks) == 0  # the trick waits for the third card
    play(d, "play 2H")
    trick = d.tricks[0]
    assert [(str(p.seat), str(p.card)) for p in trick.plays] == [("2", "AH"), ("3", "6H"), ("1", "2H")]
    assert trick.winner is two and d.to_act is two
    play(d, "play JH", "play 7H", "play QH")
    assert d.tricks[1].winner is one and d.to_act is one


def test_the_maker_plays_alone_and_every_player_keeps_his_own_points():
    # The deal of tests/records/official-three-players.json: 2 bids 7 and takes 2; 1 takes 12.
    d = deal(rules("official", players=3), 2, THREE, "pass", "bid 7", "pass", "trump H",
             "play AH, play 6H, play 2H", "play JH, play 7H, play QH", "play KH, play TH, play 5D",
             "play 9H, play 5H, play 4S", "play 2S, play 5S, play 7S", "play 6S, play 3S, play 4D")
    r = d.result
    assert r.points == (12, 2, 0)
    assert {a.name: str(a.team) for a in r.awards} == {
        "High": "2", "Low": "2", "Jack": "1", "Game": "1", "Left Pedro": "1", "Right Pedro": "1"}
    assert r.made is False and r.score_change == (12, -7, 0)  # set: the maker loses his bid, 1 adds his 12
    assert r.describe() == "2 bid 7, took 2: set; 2 loses 7; 1 adds 12"


@pytest.mark.parametrize("preset", ["pagat", "difference", "additive", "official", "double-pedro"])
@pytest.mark.parametrize("n", [3, 5, 6])
def test_cut_throat_settlement_each_adds_what_he_took_and_a_maker_short_loses_his_bid(preset, n):
    # docs/rule-readings.md: from three to six players every preset settles this way, the
    # difference settlement being between two sides.
    from cinch.scoring import settle

    r = rules(preset, players=n)
    taken = (4, 5, 5) + (0,) * (n - 3)
    maker = r.seating.seats[1]
    assert settle(r, maker, 5, taken) == (True, taken)
    assert settle(r, maker, 6, taken) == (False, (4, -6, 5) + (0,) * (n - 3))


def test_two_players_settle_as_two_sides_under_the_presets_own_settlement():
    # "Cut-throat Cinch" ([P] in docs/rule-readings.md): "With two players, scoring is as in the
    # parent game, which has two sides."
    from cinch.scoring import settle

    one, two = rules("official", players=2).seating.seats
    assert settle(rules("official", players=2), two, 8, (7, 7)) == (False, (15, 0))  # 14 plus the shortfall
    assert settle(rules("official", players=2), two, 6, (5, 9)) == (True, (0, 4))  # the difference
    assert settle(rules("pagat", players=2), two, 8, (7, 7)) == (False, (7, -8))  # additive


# ---- two decks (002 "Two-deck Cinch"; docs/rule-readings.md "Two decks") ----------------------------
def two_deck_order(first: str, second: str, stock: str = "") -> str:
    """The 104-card order that deals ``first`` (18 cards) to seat 1 and ``second`` to seat 2 at a table of
    two with seat 2 dealing, then ``stock`` on top of the rest: each card twice in all."""
    from collections import Counter
    hands = [first.split(), second.split()]
    deck = [c for k in range(12) for c in hands[k % 2][3 * (k // 2): 3 * (k // 2) + 3]]
    deck += stock.split()
    used = Counter(str(Card.parse(c)) for c in deck)
    return " ".join(deck + [str(c) for c in CARDS for _ in range(2 - used[str(c)])])


TWO_DECK_DEAL = two_deck_order("AH AH 5H 5D 2H 9H 7S 8S 9S TS JS 6S 7C 8C 9C TC JC 6C",
                               "KH JH JH 5H 5D TH 3H 7D 8D 9D TD JD QD KD AD 6D 4D 3D",
                               "4H AS KS QS AC KC TH 2S 3S 2C 3C")


def two_deck_deal(*actions: str) -> Deal:
    return deal(rules("official", players=2, decks=2), 1, TWO_DECK_DEAL, *actions)  # seat 2 deals


def test_two_decks_deal_eighteen_each_and_refill_to_twelve():
    d = two_deck_deal("bid 10", "pass", "trump H")
    assert [len(h) for h in d.dealt] == [18, 18]
    assert str(d.hand(0)) == "AS KS QS AH AH 9H 5H 4H 2H 5D AC KC" and len(d.hand(1)) == 12
    assert len(d.stock) == 104 - 36 - 11


def test_with_two_decks_a_card_held_twice_is_one_legal_play_and_either_copy_may_be_named():
    d = two_deck_deal("bid 10", "pass", "trump H")
    plays = legal(d)
    assert plays.count("play AH") == 1 and len(plays) == 11  # twelve cards, eleven as they read
    play(d, "play AH", "play 3H", "play AH")  # the second AH is the twin: the deal plays the copy left
    assert str(d.trick[0].card) == "AH" and d.trick[0].card != d.tricks[0].plays[0].card


def test_with_two_decks_the_first_played_of_two_identical_cards_wins_the_trick():
    d = two_deck_deal("bid 10", "pass", "trump H", "play AH", "play 3H", "play AH", "play TH")
    play(d, "play 5H", "play 5H")  # 2 holds the other 5H only: the deal plays it
    assert d.tricks[-1].winner == d.rules.seating.seats[0]  # the leader's 5H was first


def test_with_two_decks_the_golden_deal_scores_every_copy():
    cards = "AH 3H AH TH 5H 5H 9H JH KH 5D JH 4H 5D 2H TH AS 2S KS QS 3S AC 2C KC 3C"
    d = two_deck_deal("bid 10", "pass", "trump H", *[f"play {c}" for c in cards.split(" ")])
    assert d.is_over and d.result.points == (13, 14) and d.result.score_change == (0, 1)
    assert sorted(a.name for a in d.result.awards if a.name in ("High", "Jack")) == ["High", "High", "Jack", "Jack"]
    again = eval(repr(d), {"Deal": Deal, "Rules": __import__("cinch").Rules})
    assert again.result.points == d.result.points  # the deck and actions as text replay the deal


def test_with_one_deck_a_keep_naming_a_card_twice_is_refused_saying_why():
    d = deal("additive", W, RECORD_EXAMPLE_DECK, "bid 7", "pass", "pass", "pass", "trump H")
    err = illegal(d, "keep AH AH")
    assert "one pack holds one of each card" in str(err)


def test_with_two_decks_the_dealer_keeps_his_own_copy_and_leaves_the_stocks():
    # A keep names cards by their text; the dealer who holds a card the stock also holds keeps his own,
    # so the same text always means the same keep (a record replays it) and the stock's copy stays unseen.
    r = rules("official", decks=2)
    rng = random.Random(5)
    for _ in range(40):
        d = Deal.shuffled(r, W, rng)
        while d.phase is Phase.BIDDING:
            play(d, str(d.legal_actions()[-1]))  # N bids the most, the others then pass
        play(d, "trump H")
        if d.phase is not Phase.ROB:
            continue
        options = d.legal_actions()
        hand, seen = d.hands[W], d.stock_seen
        doubled = [c for c in CARDS if (hand >> c & 1 or hand >> c.twin & 1) and (seen >> c & 1 or seen >> c.twin & 1)]
        if not doubled:
            continue
        keep = next(k for k in options if any(k.cards >> c & 1 or k.cards >> c.twin & 1 for c in doubled))
        d.apply(keep)
        kept = d.hands[W]
        for c in doubled:
            if kept >> c & 1 or kept >> c.twin & 1:
                copies = [x for x in (c, c.twin) if kept >> x & 1]
                assert len(copies) == 2 or hand >> copies[0] & 1  # one copy kept: the dealer's own
        return
    pytest.fail("no deal put a card in both the dealer's hand and the stock")


# Two decks, 000 (pagat): N, the stuck dealer, keeps thirteen trumps, two of them 6D (tests/records/
# pagat-two-decks-bury-twin.json works the deal by hand).
BURY_TWIN_DECK = (
    "JH AH 7S TC 9S JC TS 6H 6C 5H TH 3H 4S 4H 5S JS 8S 3D AC 3C 6C 7D 5C AD 8C 4C 9S QH AH KS 9H TS 8D 5D 6D "
    "4C TH 9D 2H 9C AS 2C 2C 6H QH 6D 3C 2D KH 3S KD QC 4D 7C 7C KH QC TD TD QS 7D KC JD 5C 3S 8H 7S 6S KD 5H "
    "JS QS JH 5D 8S 9H KC 8C 4S 7H 3D 8D 2S 4D KS 2S 6S TC JD 5S AS QD AD AC 2H 8H 9C 4H JC 7H 2D 3H QD 9D"
)


def test_with_two_decks_one_copy_is_played_and_the_other_buried():
    # 000 forbids burying only scoring trumps; a hand with two 6D may lead one and bury the other
    # (docs/record-format.md: buried cards "may name a card twice").
    d = deal(rules("pagat", decks=2), N, BURY_TWIN_DECK, "pass", "pass", "pass", "bid 14", "trump D")
    assert str(d.hand(N)) == "5H 5H AD QD TD TD 9D 7D 6D 6D 5D 2D 2D" and d.to_act is N
    assert legal(d).count("play 6D bury 6D") == 1 and "play 9D bury 9D" not in legal(d)
    play(d, "play 6D bury 6D")
    led = d.trick[0]
    assert {int(led.card), *[int(c) for c in led.buried]} == {Card.parse("6D"), Card.parse("6D").twin}
    assert "6D" not in str(d.hand(N)) and len(d.hand(N)) == 11


def test_with_one_deck_a_card_played_and_buried_is_refused_saying_why():
    d = deal("pagat", N, TABLE_EIGHT, *EIGHT_TRUMPS)
    err = illegal(d, "play AH bury AH 7H")
    assert "AH named twice: one pack holds one of each card" in str(err)


def test_with_two_decks_the_rob_lists_each_hand_once():
    # W keeps ten trumps and fills to twelve from JS 4D JC TC TC 9C: the ten pairs of the five cards and TC TC
    # (tests/records/pagat-two-decks-rob-each-hand-once.json).
    deck = json.loads((RECORDS / "pagat-two-decks-rob-each-hand-once.json").read_text())["deals"][0]["deck"]
    d = deal(rules("pagat", decks=2), W, deck, "pass", "pass", "pass", "bid 14", "trump H")
    listed = legal(d)
    assert len(listed) == len(set(listed)) == 11  # not the 15 pairs of the six copies
    assert "keep JH TH 9H 8H 7H 5H 4H 3H 2H 5D TC TC" in listed
    play(d, "keep JH TH 9H 8H 7H 5H 4H 3H 2H 5D JC TC")  # one TC, whichever copy: a hand of twelve
    assert str(d.hand(W)) == "JH TH 9H 8H 7H 5H 4H 3H 2H 5D JC TC"
