"""What one seat may know (cinch.view): SeatView, Phase, Trick, PlayedCard.

The views come from real deals (``Deal.view``), built with the helpers' decks.  tests/test_deal.py
checks a view's public facts in the middle of a trick and the discards of TABLE_A; here: the view
before anything is known, how the bidding, the tricks and the buried cards show in it, and how
face-up discards come and go.
"""

from __future__ import annotations

from cinch import Bid, Card, CardSet, Phase, Seat, Suit
from cinch.view import PlayedCard, Trick
from helpers import RECORD_EXAMPLE_DECK, RESTOCK, STUCK_N, TABLE_SHORT, cards, deal, play, rules, table

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
EMPTY = CardSet(0)


def subset(small: int, big: int) -> bool:
    """Every card of ``small`` is in ``big`` (CardSets are ints: ``<=`` would compare numbers)."""
    return int(small) & ~int(big) == 0


def test_at_the_deal_a_seat_knows_its_own_nine_cards_and_nothing_else():
    d = deal("pagat", W, RECORD_EXAMPLE_DECK)
    for seat in Seat:
        v = d.view(seat)
        assert v.seat is seat and v.team is seat.team and v.dealer is W
        assert v.hand == d.dealt[seat] and len(v.hand) == 9
        assert v.hand_sizes == (9, 9, 9, 9)
        assert v.known_elsewhere == v.hand  # not one card of another hand or of the stock
        assert v.phase is Phase.BIDDING and v.to_act is N
        assert v.trump is None and v.maker is None and v.bid is None and v.auction == ()
        assert v.tricks == () and v.current_trick == () and v.trick_leader is None and v.played == EMPTY
        assert v.face_up_discards == (EMPTY,) * 4 and v.shown_trumps == (EMPTY,) * 4
        assert v.drawn_counts == (0, 0, 0, 0) and v.stock_seen == EMPTY


def test_the_maker_and_bid_are_set_when_the_bidding_ends_and_trumps_when_named():
    d = deal("pagat", W, RECORD_EXAMPLE_DECK, "bid 7")
    v = d.view(E)
    assert v.auction == ((N, Bid(7)),)  # the bid itself is public at once
    assert v.maker is None and v.bid is None  # but nobody is the maker while the bidding goes on
    play(d, "pass", "pass", "pass")
    for seat in Seat:
        v = d.view(seat)
        assert v.phase is Phase.TRUMP and v.maker is N and v.bid == 7 and v.to_act is N and v.trump is None
    play(d, "trump H")
    assert all(d.view(seat).trump is Suit.HEARTS for seat in Seat)


# No draw (nine tricks of the nine cards dealt): E makes hearts and leads.
NO_DRAW_DECK = table(
    N,
    E="AH KH 5H AS 2S 3S 2C 3C 4C",
    S="QH 4H AC KC 7S 8S 9D TD JD",
    W="JH 3H 2H KS QS 4S 5C 6C 7C",
    N="9H 8H 6H AD KD QD 9S TS JS",
)
MAKE_HEARTS = ("bid 7", "pass", "pass", "pass", "trump H")


def no_draw(*plays: str):
    return deal(rules("pagat", no_draw=True), N, NO_DRAW_DECK, *MAKE_HEARTS, *plays)


def test_hand_sizes_and_the_current_trick_follow_each_card_played():
    d = no_draw("play 2C", "play AC")
    v = d.view(W)
    assert v.hand_sizes == (9, 8, 8, 9)  # N E S W: E and S have played
    assert v.current_trick == (PlayedCard(E, Card.parse("2C")), PlayedCard(S, Card.parse("AC")))
    assert v.trick_leader is E and v.tricks == () and v.to_act is W
    assert v.played == cards("2C AC")
    assert Card.parse("AC") not in d.view(S).hand and len(d.view(S).hand) == 8  # gone from S's own view


def test_a_finished_trick_records_leader_cards_and_winner_and_the_winner_leads_next():
    d = no_draw("play 2C", "play AC", "play 5C", "play 9S")
    v = d.view(N)
    (trick,) = v.tricks
    assert trick.leader is E and trick.winner is S  # the AC took the club lead
    assert [(p.seat, str(p.card)) for p in trick.plays] == [(E, "2C"), (S, "AC"), (W, "5C"), (N, "9S")]
    assert trick.cards == cards("2C AC 5C 9S")
    assert v.current_trick == () and v.trick_leader is S and v.to_act is S
    assert v.hand_sizes == (8, 8, 8, 8)
    by = v.played_by()
    assert [CardSet(m) for m in by] == [cards("9S"), cards("2C"), cards("AC"), cards("5C")]
    assert v.played == cards("2C AC 5C 9S") and subset(v.played, v.known_elsewhere)


def test_buried_cards_count_as_played_by_their_seat_and_captured_with_the_trick():
    # Pagat (000): N deals with nine hearts and buries three under his first card.
    d = deal("pagat", N, TABLE_SHORT, *STUCK_N, "play AH bury 8H 7H 6H", "play 5D", "play 5H", "play 4H",
             restock=RESTOCK)
    v = d.view(E)
    (trick,) = v.tricks
    assert trick.plays[0] == PlayedCard(N, Card.parse("AH"), cards("8H 7H 6H"))
    assert trick.cards == cards("AH 8H 7H 6H 5D 5H 4H") and trick.winner is N
    by = v.played_by()
    assert by[N] == cards("AH 8H 7H 6H") and by[E] == cards("5D") and by[S] == cards("5H")
    assert v.hand_sizes == (5, 5, 5, 5)  # N had nine: one played, three buried
    assert subset(cards("8H 7H 6H"), v.known_elsewhere)  # buried face down, but known gone


def test_face_up_discards_are_public_under_difference_but_not_under_pagat():
    # TABLE_SHORT: E, S and W hold no heart and throw all nine cards.
    up = deal("difference", N, TABLE_SHORT, *STUCK_N)  # 001: discards face up
    assert up.phase is Phase.DISCARD and up.to_act is N  # N still to choose his six trumps
    down = deal("pagat", N, TABLE_SHORT, *STUCK_N)  # 000: discards face down
    assert down.phase is Phase.RESTOCK
    spades = cards("AS KS QS JS TS 9S 8S 7S 6S")
    for seat in (S, W, N):
        assert up.view(seat).face_up_discards[E] == spades
        assert subset(spades, up.view(seat).known_elsewhere)
        assert down.view(seat).face_up_discards == (EMPTY,) * 4
        assert not int(spades) & int(down.view(seat).known_elsewhere)
    assert down.view(E).own_discards == spades  # each still knows his own discards


def test_thrown_trumps_are_shown_and_shuffled_discards_leave_the_face_up_view():
    # Difference (001): N keeps six of his nine hearts and shows the other three; the stock runs
    # out, so the face-up non-trump discards become the new stock.
    d = deal("difference", N, TABLE_SHORT, *STUCK_N, "keep AH KH QH JH TH 9H", restock=RESTOCK)
    assert d.phase is Phase.ROB
    for seat in (E, S, W):
        v = d.view(seat)
        assert v.shown_trumps[N] == cards("8H 7H 6H")
        assert v.face_up_discards == (EMPTY,) * 4  # the non-trumps are the stock now; trumps are "shown"
        assert v.own_discards == EMPTY
        assert subset(cards("8H 7H 6H"), v.known_elsewhere)
    assert Card.parse("AS") not in d.view(E).known_elsewhere  # E threw it face up; now it is anywhere


def test_a_trick_is_the_cards_played_and_buried_in_it():
    plays = (PlayedCard(E, Card.parse("KC")), PlayedCard(S, Card.parse("2H"), cards("7H")),
             PlayedCard(W, Card.parse("AC")), PlayedCard(N, Card.parse("3C")))
    assert plays[0].buried == EMPTY  # nothing buried unless said
    trick = Trick(E, plays, S)
    assert trick.cards == cards("KC 2H 7H AC 3C")
    assert Trick(E, (), E).cards == EMPTY
