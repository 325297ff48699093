"""The legal hands after a discard or a rob (cinch.keep.KeepOptions).

Each keep rule of RULEBOOK "Options" (discard, more than 6 trumps, dealer's rob)
is a set of constraints on a kept hand; these tests pin the constraints and the
words used when a keep breaks one.  The rules in play are checked in test_deal.py.
"""

import random
from itertools import combinations
from math import comb

from cinch import Keep
from cinch.cards import DECK_SIZE, TRUMP_TABLES, TWO_DECK_TABLES, Card, CardSet, Suit, fold
from cinch.keep import KeepOptions
from helpers import cards

HEARTS = TRUMP_TABLES[Suit.HEARTS].trumps


def keep(text: str) -> Keep:
    return Keep(cards(text))


def test_any_six_of_nineteen_is_counted_without_listing():
    # 001/003 rob: "keep any cards he likes ... to make exactly 6"; 9 in hand + 10 in the stock.
    pool = cards("AS KS QS JS TS 9S 8S 7S 6S AC KC QC JC TC 9C 8C 7C 6C 4C")
    options = KeepOptions(pool, 0, HEARTS, 6, 6)
    assert len(options) == comb(19, 6) == 27132
    assert keep("AS KS QS JS TS 9S") in options
    assert keep("AS KS QS JS TS") not in options  # five cards
    assert keep("AS KS QS JS TS 2D") not in options  # a card from nowhere
    picked = options[random.Random(1).randrange(len(options))]
    assert len(picked.cards) == 6 and picked.cards & ~pool == 0
    assert options[-1] == options[len(options) - 1]


def test_every_option_is_listed_once_and_each_is_a_member():
    pool = cards("AH KH 5D 9S 8S 7C")
    options = KeepOptions(pool, cards("AH"), HEARTS, 2, 4, min_trumps=2)
    listed = [str(k) for k in options]
    assert len(listed) == len(set(listed)) == len(options)
    for k in options:
        assert k in options and k.cards & cards("AH")
        assert len(k.cards & HEARTS) >= 2
    assert options[1:3] == [options[1], options[2]]


def test_a_single_option_is_forced():
    # RECORD.md: "keep" is written only where the rules left more than one possible hand.
    forced = KeepOptions(cards("AH KH 2H"), cards("AH KH 2H"), HEARTS, 3, 3)
    assert len(forced) == 1 and forced.forced == keep("AH KH 2H")
    assert KeepOptions(cards("AH KH 2H 9S"), cards("AH KH 2H"), HEARTS, 3, 4).forced is None


def test_a_broken_keep_is_explained_in_the_rules_words():
    words = {"must": "every trump must be kept", "size": "at most six cards"}
    options = KeepOptions(cards("AH KH 9S 8S 7S 6S 5S 4S"), cards("AH KH"), HEARTS, 2, 6, rules_text=words)
    assert options.violation(int(cards("AH 9S"))) == "every trump must be kept (you left out KH)"
    assert options.violation(int(cards("AH KH 9S 8S 7S 6S 5S"))) == "at most six cards (you kept 7)"
    assert "2D is not among them" in options.violation(int(cards("AH KH 2D")))
    assert options.violation(int(cards("AH KH 9S"))) is None


def test_trumps_first_needs_enough_trumps():
    # 004: the dealer "fans through the deck, selecting whatever trumps he may choose".
    options = KeepOptions(cards("AH KH QH 9S 8S 7S 6S 5S"), 0, HEARTS, 6, 6, min_trumps=3)
    assert len(options) == comb(5, 3)
    assert options.violation(int(cards("AH KH 9S 8S 7S 6S"))) == "at least 3 trumps must be kept"


def test_describe_says_the_choice_in_words():
    options = KeepOptions(cards("AH KH 9S 8S 7S 6S 5S 4S"), cards("AH KH"), HEARTS, 6, 6)
    assert options.describe() == "keep 6 of 9S 8S 7S 6S 5S 4S AH KH, including AH KH"
    assert KeepOptions(cards("AH 9S 8S"), 0, HEARTS, 0, 2).describe() == "keep 0-2 of 9S 8S AH"


# ---- two decks: a card held twice -------------------------------------------------------------------------
TWO_DECK_HEARTS = TWO_DECK_TABLES[Suit.HEARTS].trumps


def twice(text: str) -> CardSet:
    return CardSet.parse(text, decks=2)


def as_read(kept: int) -> tuple[int, int]:
    """A hand as it reads: the cards, and those held twice."""
    return fold(kept), kept & kept >> DECK_SIZE


def test_with_two_decks_each_hand_is_listed_once_as_it_reads():
    # docs/rule-readings.md "Two-deck Cinch": the copies are equal in every way but their backs, so a keep of
    # one TC is one hand whichever copy; 2 of JS 4D JC TC TC 9C is 11 hands, not comb(6, 2) = 15.
    options = KeepOptions(twice("JS 4D JC TC TC 9C"), 0, TWO_DECK_HEARTS, 2, 2)
    listed = [str(k) for k in options]
    assert len(options) == 11 and len(set(listed)) == 11 and "keep TC TC" in listed
    copies = ["JS", "4D", "JC", "TC", "TC", "9C"]
    assert sorted(listed) == sorted({f"keep {a} {b}" for a, b in combinations(copies, 2)})
    assert all(k in options for k in options) and options[-1] == options[10]


def test_with_two_decks_either_copy_names_the_same_keep():
    pool = twice("AH KH") | 1 << Card.parse("AH").twin  # AH twice and KH once
    options = KeepOptions(pool, 0, TWO_DECK_HEARTS, 1, 1)
    assert [str(k) for k in options] == ["keep AH", "keep KH"]
    assert Keep(CardSet([Card.parse("AH").twin])) in options  # the second copy reads the same
    only_twin = KeepOptions(1 << Card.parse("KH").twin, 0, TWO_DECK_HEARTS, 1, 1)
    assert Keep(cards("KH")) in only_twin  # a keep names cards; the pool's copy is the one kept


def test_with_two_decks_one_way_to_keep_one_of_two_copies_is_forced():
    options = KeepOptions(twice("AH AH 5H"), cards("5H"), TWO_DECK_HEARTS, 2, 2)
    assert len(options) == 1 and str(options.forced) == "keep AH 5H"


def test_with_two_decks_the_count_and_the_hands_match_every_subset_of_the_copies():
    # Against brute force: every subset of the copies that keeps the rules, as it reads.
    rng = random.Random(7)
    for _ in range(60):
        pool_cards = rng.sample(range(2 * DECK_SIZE), rng.randint(3, 10))
        must = sum(1 << c for c in pool_cards if TWO_DECK_HEARTS >> c & 1 and rng.random() < 0.3)
        lo = rng.randint(must.bit_count(), len(pool_cards))
        hi = rng.randint(lo, len(pool_cards))
        options = KeepOptions(sum(1 << c for c in pool_cards), must, TWO_DECK_HEARTS, lo, hi, rng.randint(0, 3))
        want = {as_read(m) for n in range(lo, hi + 1) for combo in combinations(pool_cards, n)
                if (m := sum(1 << c for c in combo)) & must == must and options.violation(m) is None}
        got = [as_read(int(k.cards)) for k in options]
        assert len(got) == len(options) == len(want) and set(got) == want


def test_a_rob_of_millions_is_counted_at_once_and_given_as_its_rule():
    # 003's dealer at two decks keeps any 12 of 28 cards, three of them held twice: by the cards kept twice,
    # C(25,12) + 3 C(24,10) + 3 C(23,8) + C(22,6) hands (tests/records/official-two-decks-rob-by-rule.json).
    pool = twice("AS KS QS TS 9S 8S 8S 7S 5S 4S AH AH 7H 6H 3H AD 8D 7D 5D 2D KC KC JC 9C 8C 4C 3C 2C")
    options = KeepOptions(pool, 0, TWO_DECK_TABLES[Suit.CLUBS].trumps, 12, 12)
    assert len(options) == comb(25, 12) + 3 * comb(24, 10) + 3 * comb(23, 8) + comb(22, 6) == 12_629_623
    assert options[len(options) // 2] in options
    assert options.to_json() == {
        "pool": str(pool).split(), "must": [], "fewest": 12, "most": 12, "min_trumps": 0, "count": 12_629_623,
        "rule": "keep 12 of " + str(pool)}
