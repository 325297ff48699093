"""The legal hands after a discard or a rob (cinch.keep.KeepOptions).

Each keep rule of RULEBOOK "Options" (discard, more than 6 trumps, dealer's rob)
is a set of constraints on a kept hand; these tests pin the constraints and the
words used when a keep breaks one.  The rules in play are checked in test_deal.py.
"""

import random
from math import comb

from cinch import Keep
from cinch.cards import TRUMP_TABLES, Suit
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
