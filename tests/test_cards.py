"""Cards, suits, seats and the trump tables (cinch.cards).

Rule sources: RULEBOOK "Common core"; RECORD.md card and seat notation;
000 sections 02 and 07 (the left Pedro); 001, 003 and 004 trump order.
"""

import pytest

from cinch import TRUMP_TABLES, Card, CardSet, Seat, Suit, Team
from cinch.errors import NotationError
from helpers import cards


# RECORD.md: "Cards are two characters, rank then suit ... Input may also use 10, lower
# case, or the symbols ♠ ♥ ♦ ♣; output is always the canonical form."
@pytest.mark.parametrize("text", ["TH", "th", "10h", "10H", "T♥", "10♥", " 10♥ "])
def test_card_input_forms_all_mean_the_ten_of_hearts(text):
    assert str(Card.parse(text)) == "TH"


def test_every_card_has_one_canonical_name():
    # RULEBOOK common core: 52 cards, no jokers.
    names = [str(Card(i)) for i in range(52)]
    assert len(set(names)) == 52
    assert all(len(n) == 2 and n[0] in "AKQJT98765432" and n[1] in "SHDC" for n in names)
    assert Card.parse("5d").symbol == "5♦" and Card.parse("TS").symbol == "10♠"


@pytest.mark.parametrize("bad", ["", "A", "1H", "11S", "AX", "ZH", "10", "joker"])
def test_a_malformed_card_is_a_notation_error_that_says_how_to_write_one(bad):
    with pytest.raises(NotationError, match="not a card"):
        Card.parse(bad)


def test_a_card_set_is_written_in_canonical_order_and_refuses_duplicates():
    assert str(cards("2H AH 10s 5d kc")) == "TS AH 2H 5D KC"
    with pytest.raises(NotationError, match="twice"):
        cards("AH ah")


def test_seats_run_clockwise_partners_sit_opposite():
    # RULEBOOK common core: seats N E S W clockwise (E is at N's left); teams NS and EW.
    assert [s.left for s in Seat] == [Seat.E, Seat.S, Seat.W, Seat.N]
    assert Seat.N.partner is Seat.S and Seat.E.partner is Seat.W
    assert Seat.N.team is Seat.S.team is Team.NS
    assert Seat.E.team is Seat.W.team is Team.EW
    assert Team.NS.other is Team.EW and Team.EW.seats == (Seat.E, Seat.W)
    assert Seat.parse("w") is Seat.W
    with pytest.raises(NotationError):
        Seat.parse("X")


@pytest.mark.parametrize("word, suit", [("S", Suit.SPADES), ("h", Suit.HEARTS), ("♦", Suit.DIAMONDS),
                                        ("clubs", Suit.CLUBS), ("Heart", Suit.HEARTS)])
def test_suits_are_read_from_letters_symbols_and_words(word, suit):
    # RECORD.md: "trump S (suit letter; words such as hearts are accepted on input)".
    assert Suit.parse(word) is suit


def test_the_left_pedro_lives_in_the_other_suit_of_the_same_colour():
    # RULEBOOK common core / 002 glossary: "if spades are trump, the 5 of clubs is the Left Pedro".
    assert Suit.HEARTS.partner is Suit.DIAMONDS and Suit.DIAMONDS.partner is Suit.HEARTS
    assert Suit.SPADES.partner is Suit.CLUBS and Suit.CLUBS.partner is Suit.SPADES
    for suit in Suit:
        t = TRUMP_TABLES[suit]
        assert str(Card(t.right_pedro)) == "5" + suit.letter
        assert str(Card(t.left_pedro)) == "5" + suit.partner.letter


# RULEBOOK common core: trump order A K Q J 10 9 8 7 6 5(right Pedro) 5(left Pedro) 4 3 2.
@pytest.mark.parametrize("trump, order", [
    ("H", "AH KH QH JH TH 9H 8H 7H 6H 5H 5D 4H 3H 2H"),
    ("S", "AS KS QS JS TS 9S 8S 7S 6S 5S 5C 4S 3S 2S"),
    ("D", "AD KD QD JD TD 9D 8D 7D 6D 5D 5H 4D 3D 2D"),
    ("C", "AC KC QC JC TC 9C 8C 7C 6C 5C 5S 4C 3C 2C"),
])
def test_trump_order_puts_the_left_pedro_just_below_the_right(trump, order):
    t = TRUMP_TABLES[Suit.parse(trump)]
    assert " ".join(str(Card(c)) for c in t.order) == order
    powers = [t.power[Card.parse(c)] for c in order.split()]
    assert powers == sorted(powers, reverse=True) and len(set(powers)) == 14
    assert len(CardSet(t.trumps)) == 14


def test_left_pedro_is_a_trump_and_not_of_its_printed_suit():
    # 000 section 02 and 07: "Left Pedro is not a diamond"; it is a trump for every purpose.
    t = TRUMP_TABLES[Suit.HEARTS]
    five_d = Card.parse("5D")
    assert t.is_trump(five_d)
    assert t.effective_suit[five_d] == Suit.HEARTS
    assert five_d not in CardSet(t.follow_masks[Suit.DIAMONDS])  # it does not follow a diamond lead
    assert five_d in CardSet(t.follow_masks[Suit.HEARTS])  # it does follow a trump lead
    assert not t.is_trump(Card.parse("5C")) and not t.is_trump(Card.parse("5S"))


def test_plain_suits_rank_ace_high_without_the_transferred_five():
    # RULEBOOK common core: "Plain suits: A high to 2 low, without the transferred five."
    t = TRUMP_TABLES[Suit.HEARTS]
    diamonds_led = t.strength[Suit.DIAMONDS]
    plain = [c for c in cards("AD KD QD JD TD 9D 8D 7D 6D 4D 3D 2D")]
    strengths = [diamonds_led[c] for c in plain]
    assert strengths == sorted(strengths, reverse=True) and len(set(strengths)) == 12
    # Any trump, even the 2 of hearts, beats the ace of the suit led; an off-suit card never wins.
    assert diamonds_led[Card.parse("2H")] > diamonds_led[Card.parse("AD")]
    assert diamonds_led[Card.parse("5D")] > diamonds_led[Card.parse("AD")]
    assert diamonds_led[Card.parse("AC")] < diamonds_led[Card.parse("2D")]


def test_worked_fact_six_of_hearts_beats_both_pedros():
    # RULEBOOK worked facts / 000 section 07: hearts trumps, "6♥ outranks both Pedros".
    t = TRUMP_TABLES[Suit.HEARTS]
    clubs_led = t.strength[Suit.CLUBS]
    six, right, left, king = (Card.parse(c) for c in ("6H", "5H", "5D", "KC"))
    assert clubs_led[six] > clubs_led[right] > clubs_led[left] > clubs_led[king]


def test_the_highest_and_lowest_trump_of_a_set_follow_the_trump_order():
    import random

    rng = random.Random(1)
    for t in TRUMP_TABLES:
        for _ in range(3000):
            cards = rng.getrandbits(52) & (rng.getrandbits(52) | rng.getrandbits(52))
            held = [c for c in t.order if cards >> c & 1]
            assert t.highest(cards) == (held[0] if held else -1)
            assert t.lowest(cards) == (held[-1] if held else -1)
    hearts = TRUMP_TABLES[Suit.HEARTS]
    # The left Pedro sits between the right Pedro and the 4: lowest over the 6, highest under the 5.
    assert str(Card(hearts.lowest(int(CardSet.parse("6H 5D"))))) == "5D"
    assert str(Card(hearts.highest(int(CardSet.parse("4H 5D 2H"))))) == "5D"


# ---- two decks (002 "Two-deck Cinch"; docs/rule-readings.md "Two decks") --------------------------
def test_a_second_pack_card_reads_as_its_twin_and_names_it_back():
    from cinch.cards import ALL_CARDS, CARDS
    twin = Card.parse("5D").twin
    assert twin != Card.parse("5D") and str(twin) == "5D" and twin.suit is Suit.DIAMONDS
    assert twin.twin == Card.parse("5D") and twin.printed == Card.parse("5D") and twin.symbol == "5♦"
    assert len(CARDS) == 52 and len(ALL_CARDS) == 104  # the pack stays 52 cards; the second is indexed after it


def test_a_card_named_twice_is_both_copies_only_with_two_decks():
    both = CardSet.parse("AH KH AH", decks=2)
    assert len(both) == 3 and str(both) == "AH AH KH"  # a twin lists beside its first copy
    with pytest.raises(NotationError, match="twice"):
        CardSet.parse("AH KH AH")
    with pytest.raises(NotationError, match="three times"):
        CardSet.parse("AH AH AH", decks=2)


def test_two_deck_trump_tables_rank_a_twin_with_its_first_copy():
    from cinch.cards import TWO_DECK_BOWER_TABLES, TWO_DECK_TABLES
    hearts = TWO_DECK_TABLES[Suit.HEARTS]
    five, twin = Card.parse("5D"), Card.parse("5D").twin
    assert hearts.is_trump(twin) and hearts.power[twin] == hearts.power[five]
    assert hearts.strength[Suit.SPADES][twin] == hearts.strength[Suit.SPADES][five]
    lows = 1 << Card.parse("2H").twin | 1 << Card.parse("3H")
    assert str(Card(hearts.lowest(lows))) == "2H" and str(Card(hearts.highest(lows))) == "3H"
    bowers = TWO_DECK_BOWER_TABLES[Suit.HEARTS]
    assert str(Card(bowers.highest(1 << Card.parse("JD").twin | 1 << Card.parse("AH")))) == "JD"
