"""The table in words (cinch.table.narrate): seats, teams, hands and keeps as every front end names them."""

from __future__ import annotations

import pytest

from cinch import Card, CardSet, Rules, Seat, Suit, Team
from cinch.table.narrate import card_text, cards_text, hand_order, hand_text, keep_words, seat_name, team_name

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def order(text: str, trump: Suit | None) -> list[str]:
    return [str(c) for c in hand_order(CardSet.parse(text), trump)]


@pytest.mark.parametrize("me, you, partner, opponents", [(S, "S", "N", "EW"), (E, "E", "W", "SN")])
def test_seat_names_mark_you_and_your_partner_only(me, you, partner, opponents):
    assert seat_name(me, me=me) == f"{you} (you)"
    assert seat_name(Seat.parse(partner), me=me) == f"{partner} (partner)"
    for o in opponents:
        assert seat_name(Seat.parse(o), me=me) == o  # an opponent is named plainly


def test_team_names_mark_your_own_side():
    assert team_name(Team.NS, me=S) == "NS (you)" and team_name(Team.EW, me=S) == "EW"
    assert team_name(Team.EW, me=W) == "EW (you)" and team_name(Team.NS, me=W) == "NS"


def test_before_trumps_a_hand_is_laid_out_by_suit_ace_high():
    # Spades, hearts, diamonds, clubs; within a suit ace to two, whatever order the cards came in.
    assert order("2C 5D KH AS TH 3S", None) == ["AS", "3S", "KH", "TH", "5D", "2C"]


def test_once_trumps_are_named_they_come_first_high_to_low():
    assert order("AS 9C KD 4H QH 2H", Suit.HEARTS) == ["QH", "4H", "2H", "AS", "KD", "9C"]


@pytest.mark.parametrize("trump, text, expected", [
    # The left Pedro ranks just below the right Pedro, above the 4 of trumps.
    (Suit.HEARTS, "4H AD 5D 6H 5H 2S", ["6H", "5H", "5D", "4H", "2S", "AD"]),
    (Suit.DIAMONDS, "5H 5D 4D KH 3C", ["5D", "5H", "4D", "KH", "3C"]),
    (Suit.SPADES, "5C AC 5S 4S 3H", ["5S", "5C", "4S", "3H", "AC"]),
    (Suit.CLUBS, "3S 5S 2C AC", ["AC", "5S", "2C", "3S"]),
])
def test_the_left_pedro_is_laid_out_among_the_trumps(trump, text, expected):
    assert order(text, trump) == expected


def test_a_five_of_the_other_colour_stays_with_its_plain_suit():
    # Hearts trumps: the 5C is a plain club, laid out with the clubs.
    assert order("5C 6C 4C 5H", Suit.HEARTS) == ["5H", "6C", "5C", "4C"]


def test_hand_order_takes_a_mask_and_gives_every_card_once():
    hand = CardSet.parse("AH KS 5D 2C 9H JD")
    laid = hand_order(int(hand), Suit.DIAMONDS)
    assert all(isinstance(c, Card) for c in laid)
    assert sorted(laid) == sorted(hand) and len(laid) == 6
    assert hand_order(0, Suit.HEARTS) == [] and hand_order(0, None) == []


def test_keep_words_and_hand_order_put_trumps_first():
    from cinch.cards import TRUMP_TABLES
    from cinch.keep import KeepOptions

    t = TRUMP_TABLES[Suit.HEARTS]
    hand = CardSet.parse("AS 5D 2H KH 3C")
    assert order("AS 5D 2H KH 3C", Suit.HEARTS) == ["KH", "5D", "2H", "AS", "3C"]
    opts = KeepOptions(int(hand), int(hand) & t.trumps, t.trumps, 3, 6)
    assert keep_words(opts, Suit.HEARTS) == "keep 3 to 6 of K♥* 5♦* 2♥* A♠ 3♣, including K♥* 5♦* 2♥*"


# ---- two decks: a card held twice ------------------------------------------------------------------------
def twice(text: str) -> CardSet:
    return CardSet.parse(text, decks=2)


@pytest.mark.parametrize("trump", [Suit.HEARTS, Rules.preset("official").with_options(decks=2).trump_tables[1]])
def test_both_copies_of_a_card_are_laid_out_side_by_side(trump):
    # Named by a suit or by the deal's two-deck tables alike, a twin sorts as its card and is a trump as it is.
    hand = twice("2C AH 5D KS AH 5D 2C 9H")
    laid = hand_order(hand, trump)
    assert [str(c) for c in laid] == ["AH", "AH", "9H", "5D", "5D", "KS", "2C", "2C"]
    assert sorted(laid) == sorted(hand)  # each copy once
    assert hand_text(hand, trump, symbols=False) == "trumps: AH AH 9H 5D 5D;  others: KS;  2C 2C"
    assert card_text(Card.parse("5D").twin, trump) == "5♦*"


def test_before_trumps_a_hand_of_two_decks_reads_by_suit_with_each_copy():
    hand = twice("AS AS KH 5D 5D 2C 2C 3C")
    assert hand_text(hand, None, symbols=False) == "AS AS;  KH;  5D 5D;  3C 2C 2C"
    assert cards_text(hand, None, symbols=True) == "A♠ A♠ K♥ 5♦ 5♦ 3♣ 2♣ 2♣"
