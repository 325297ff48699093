"""The set bits of a card mask (cinch.masks), compiled with the engine and re-exported by cinch.cards."""

import random

from cinch import cards, masks
from cinch.cards import CardSet, bits
from cinch.masks import bit_list


def test_bit_list_lists_the_set_bits_lowest_first():
    assert bit_list(0) == []
    assert bit_list(1) == [0]
    assert bit_list(0b1011000) == [3, 4, 6]
    assert bit_list((1 << 52) - 1) == list(range(52))


def test_bit_list_reads_the_second_pack_and_card_sets():
    # Two decks: cards 52-103, past a machine word.
    assert bit_list(1 << 103 | 1 << 52 | 1) == [0, 52, 103]
    hand = CardSet.parse("AS 5H 2C")
    assert bit_list(hand) == [c for c in bits(int(hand))] == [int(c) for c in sorted(hand)]


def test_bit_list_agrees_with_bits_on_random_masks():
    rng = random.Random(11)
    for _ in range(500):
        mask = rng.getrandbits(104)
        assert bit_list(mask) == list(bits(mask))


def test_cards_hands_out_the_same_function():
    assert cards.bit_list is masks.bit_list
