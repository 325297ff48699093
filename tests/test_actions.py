"""Actions and their record notation (cinch.actions).

Rule source: RECORD.md "actions": pass, bid N, trump S, keep C1 C2 ..., play C,
and on trick 1 under the buried-excess rule play C bury C2 C3.
"""

import pytest

from cinch import PASS, Bid, Card, CardSet, Keep, NameTrump, Pass, Play, Suit, parse_action
from cinch.errors import NotationError
from helpers import cards


@pytest.mark.parametrize("text, action", [
    ("pass", PASS),
    ("PASS", Pass()),
    ("bid 7", Bid(7)),
    ("bid  14", Bid(14)),
    ("trump H", NameTrump(Suit.HEARTS)),
    ("trump hearts", NameTrump(Suit.HEARTS)),  # "words such as hearts are accepted on input"
    ("trump ♣", NameTrump(Suit.CLUBS)),
    ("play 10h", Play(Card.parse("TH"))),
    ("play 5♦", Play(Card.parse("5D"))),
    ("keep 5h 2h 3h 7h 4h ad", Keep(cards("5H 2H 3H 7H 4H AD"))),
    ("play AH bury 9H 8H", Play(Card.parse("AH"), cards("9H 8H"))),
])
def test_actions_are_read_leniently(text, action):
    assert parse_action(text) == action


@pytest.mark.parametrize("text, canonical", [
    ("pass", "pass"),
    ("bid 7", "bid 7"),
    ("trump hearts", "trump H"),
    ("play 10♥", "play TH"),
    # a keep is the whole hand, written in canonical card order
    ("keep 5H 2H 3H 7H 4H AD", "keep 7H 5H 4H 3H 2H AD"),
    ("keep", "keep"),  # a choose-concealed player may keep nothing at all
    ("play kh bury 9h 2s", "play KH bury 2S 9H"),
])
def test_actions_are_written_in_canonical_form(text, canonical):
    assert str(parse_action(text)) == canonical


@pytest.mark.parametrize("text, words", [
    ("", "empty action"),
    ("bid seven", "a bid is a whole number"),
    ("bid", "not an action"),
    ("double", "not an action"),
    ("pass 7", "not an action"),
    ("trump X", "not a suit"),
    ("play", "not an action"),
    ("play AH 9H", "not an action"),
    ("play AH bury", "not an action"),
    ("play AH bury AH AH", "named three times"),  # two packs hold two of each card
    ("play 1H", "not a card"),
    ("keep AH AH AH", "three times"),
])
def test_malformed_actions_are_notation_errors_that_list_the_verbs(text, words):
    with pytest.raises(NotationError, match=words):
        parse_action(text)


def test_a_play_may_bury_the_other_copy_of_its_card():
    # Two decks (docs/record-format.md: buried cards "may name a card twice"): one KD played, its twin
    # buried.  The notation knows no packs; the deal refuses a second copy with one pack (test_deal.py).
    play = parse_action("play KD bury KD 9S")
    assert str(play) == "play KD bury 9S KD"  # the canonical order: spades first
    assert play.card == Card.parse("KD") and play.bury == CardSet([Card.parse("KD").twin, Card.parse("9S")])
    assert parse_action(str(play)) == play


def test_an_action_must_be_text():
    with pytest.raises(NotationError, match="must be text"):
        parse_action(7)


@pytest.mark.parametrize("text", [
    "bid ٧",  # Arabic-Indic seven: int() reads it as 7
    "bid ７",  # a full-width seven
    "bid ७",  # Devanagari
    "bid +7",
    "bid -3",
    "bid 1_0",
])
def test_a_bid_is_written_in_ascii_digits_only(text):
    # docs/record-format.md: "bid N; N in ASCII digits (bid 7); other digit characters are refused".
    with pytest.raises(NotationError, match="digits 0-9"):
        parse_action(text)


def test_a_bid_of_absurd_length_is_a_notation_error_not_a_crash():
    with pytest.raises(NotationError, match="digits"):
        parse_action("bid " + "7" * 5000)
