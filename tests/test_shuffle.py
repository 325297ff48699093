"""The verifiable shuffle (cinch.shuffle): the deck, the new stock and the commitment follow from the salt,
the seats' entropy and the deal's number by SHA-256 alone, as docs/record-format.md ("Verifiable shuffles")
spells out for other implementations.
"""

import time
from collections import Counter

import pytest

from cinch.cards import ALL_CARDS, CARDS, Card, CardSet
from cinch.errors import RecordError
from cinch.rules import Rules
from cinch.shuffle import Shuffle, commitment, deck_text, derive_seed, uniform

SALT = "00112233445566778899aabbccddeeff"
NONE = ("", "", "", "")

# The known-answer vector of docs/record-format.md: an implementation in another language (the browser's)
# must give the same seed, deck, commitment and new stock.
VECTOR_SALT = "000102030405060708090a0b0c0d0e0f"
VECTOR_ENTROPY = ("a1", "", "ff00", "0123456789abcdef")
VECTOR_NUMBER = 2
VECTOR_SEED = "9c72fa87f41cbb3e4bf22928bcb70b33a5925b917775f2c7baa5ff614d554aea"
VECTOR_DECK = (
    "8H 2H 3H 5C 9S 5S TD QS 7C 4D 4C KS JS 6C 9D QC TS 7S 5H JC 3C 4H TC 9H TH 8S 2C AS 7D KD 7H 2S 3D 3S "
    "KC 6D QH AD QD KH 2D 8D 8C 4S JH AH JD 5D 6H AC 9C 6S"
)
VECTOR_COMMITMENT = "40a536b587d893337e1f100e284c7769bf7e008e2b537313c4afc4675ac20987"
VECTOR_POOL = "KS 9H 7H 3D AC JC 8C 2C"
VECTOR_RESTOCK = "2C 7H 3D KS 8C 9H JC AC"


def shuffle(salt=SALT, entropy=NONE, number=1) -> Shuffle:
    return Shuffle(salt, entropy, number)


def good_json() -> dict:
    return shuffle().to_json()


def refused(obj, number=1) -> str:
    with pytest.raises(RecordError) as info:
        Shuffle.from_json(obj, number)
    return str(info.value)


def verify_refused(s: Shuffle, deck, restock=None) -> str:
    with pytest.raises(RecordError) as info:
        s.verify(deck, restock)
    return str(info.value)


# ---- the deck ---------------------------------------------------------------------
def test_the_deck_is_a_permutation_of_the_pack_and_the_same_every_time():
    s = shuffle()
    deck = s.deck()
    assert len(deck) == 52 and sorted(deck) == list(CARDS)
    assert deck != tuple(CARDS)
    assert shuffle().deck() == deck and s.deck() is deck  # derived once, then kept


def test_the_deck_changes_with_the_salt_each_seats_entropy_and_the_number():
    base = shuffle().deck()
    assert shuffle(salt="f" * 32).deck() != base
    for seat in range(4):
        entropy = list(NONE)
        entropy[seat] = "00"
        assert shuffle(entropy=tuple(entropy)).deck() != base, f"seat {seat}'s entropy changes nothing"
    assert shuffle(number=2).deck() != base
    # The seats' strings are kept apart: "ab" for N is not "a" for N and "b" for E.
    assert shuffle(entropy=("ab", "", "", "")).deck() != shuffle(entropy=("a", "b", "", "")).deck()


def test_the_known_answer_vector():
    s = Shuffle(VECTOR_SALT, VECTOR_ENTROPY, VECTOR_NUMBER)
    assert derive_seed(VECTOR_SALT, VECTOR_ENTROPY, VECTOR_NUMBER).hex() == VECTOR_SEED == s.seed.hex()
    assert deck_text(s.deck()) == VECTOR_DECK
    assert s.commitment == VECTOR_COMMITMENT == commitment(VECTOR_DECK, VECTOR_SALT)
    assert deck_text(s.restock(CardSet.parse(VECTOR_POOL))) == VECTOR_RESTOCK
    assert s.to_json() == {"commitment": VECTOR_COMMITMENT, "salt": VECTOR_SALT,
                           "entropy": {"N": "a1", "E": "", "S": "ff00", "W": "0123456789abcdef"}}


def test_uniform_reads_again_past_the_last_whole_multiple():
    # 2**32 = 3 * 1431655765 + 1: a word of 2**32 - 1 would favour 0, so it is skipped.
    assert uniform(3, iter([2**32 - 1, 5])) == 2
    assert uniform(3, iter([2**32 - 2, 7])) == (2**32 - 2) % 3
    assert uniform(52, iter([2**32 - 1, 2**32 - 16, 100])) == 100 % 52  # 2**32 mod 52 = 16
    assert uniform(1, iter([12345])) == 0


def test_the_first_card_is_spread_evenly_over_many_salts():
    # Fixed salts, so the counts are the same on every run: never flaky.
    first = Counter(shuffle(salt=f"{k:032x}").deck()[0] for k in range(5200))
    assert set(first) == set(CARDS)
    assert all(60 <= n <= 140 for n in first.values()), first.most_common(3)
    chi2 = sum((n - 100) ** 2 / 100 for n in first.values())
    assert chi2 < 100  # 51 degrees of freedom: mean 51, standard deviation 10
    # ... and the last card too (the first swap of Fisher-Yates).
    last = Counter(shuffle(salt=f"{k:032x}").deck()[-1] for k in range(5200))
    assert sum((n - 100) ** 2 / 100 for n in last.values()) < 100


def test_deriving_a_deck_is_quick():
    start = time.perf_counter()
    for k in range(200):
        shuffle(salt=f"{k:032x}").deck()
    assert (time.perf_counter() - start) / 200 < 0.002  # about 0.05 ms here


# ---- the new stock -----------------------------------------------------------------
def test_a_new_stock_is_a_permutation_of_its_pool_and_depends_only_on_it():
    s = shuffle()
    pool = CardSet.parse("AS KH 7H 3D 2D QC 9C 4C 2C")
    order = s.restock(pool)
    assert sorted(order) == sorted(pool) and len(order) == len(pool)
    assert s.restock(int(pool)) == order  # a mask does as well as a CardSet
    assert shuffle(salt="f" * 32).restock(pool) != order
    assert s.restock(0) == () and s.restock(CardSet.parse("5H")) == (Card.parse("5H"),)


# ---- the record form -----------------------------------------------------------------
def test_to_json_and_from_json_round_trip():
    s = shuffle(entropy=("", "abc", "", "ff" * 32), number=3)
    back = Shuffle.from_json(s.to_json(), 3)
    assert back == s and back.written_commitment == s.commitment
    back.verify(s.deck())


def test_new_draws_a_fresh_128_bit_salt():
    a, b = Shuffle.new(NONE, 1), Shuffle.new(("01", "", "", ""), 4)
    assert len(a.salt) == 32 and int(a.salt, 16) >= 0 and a.salt == a.salt.lower()
    assert a.salt != b.salt and b.number == 4 and b.entropy == ("01", "", "", "")
    with pytest.raises(ValueError, match="one string per seat"):
        Shuffle.new(("",), 1)


@pytest.mark.parametrize("salt, entropy, number, words", [
    ("00" * 15, NONE, 1, '"salt" must be 32 lower-case hex digits'),
    (SALT.upper(), NONE, 1, '"salt" must be 32 lower-case hex digits'),
    (SALT, ("", "xyz", "", ""), 1, '"entropy" of E must be lower-case hex digits'),
    (SALT, ("", "", "", "a" * 65), 1, "at most 64"),
    (SALT, NONE, 0, "counts from 1"),
    (SALT, ("",), 1, "one string per seat"),
])
def test_a_bad_field_is_refused_when_a_shuffle_is_made(salt, entropy, number, words):
    with pytest.raises(ValueError, match=words):
        Shuffle(salt, entropy, number)


@pytest.mark.parametrize("change, words", [
    (lambda j: [j], "a shuffle is an object with commitment, salt and entropy, not a list"),
    (lambda j: {**j, "seed": "00"}, "unknown field 'seed'; a shuffle has commitment, salt and entropy"),
    (lambda j: {k: v for k, v in j.items() if k != "salt"}, 'the shuffle has no "salt"'),
    (lambda j: {k: v for k, v in j.items() if k != "commitment"}, 'the shuffle has no "commitment"'),
    (lambda j: {**j, "salt": 12}, '"salt" must be a string of 32 lower-case hex digits (0-9, a-f), not a number'),
    (lambda j: {**j, "salt": "G" * 32}, '"salt" must be 32 lower-case hex digits (0-9, a-f), not'),
    (lambda j: {**j, "salt": "ab"}, "(2 characters)"),
    (lambda j: {**j, "commitment": j["commitment"].upper()}, '"commitment" must be 64 lower-case hex digits'),
    (lambda j: {**j, "commitment": None}, "a SHA-256 digest; not null"),
    (lambda j: {**j, "entropy": ["", "", "", ""]}, '"entropy" must be an object with one string per seat'),
    (lambda j: {**j, "entropy": {"N": "", "E": "", "S": ""}}, '"entropy" has nothing for W'),
    (lambda j: {**j, "entropy": {**j["entropy"], "X": ""}}, "\"entropy\" has 'X', which is not a seat"),
    (lambda j: {**j, "entropy": {**j["entropy"], "S": 7}}, '"entropy" of S must be a string of hex digits, not a'),
    (lambda j: {**j, "entropy": {**j["entropy"], "N": "0x12"}}, '"entropy" of N must be lower-case hex digits'),
    (lambda j: {**j, "entropy": {**j["entropy"], "W": "0" * 65}}, "at most 64 of them, or empty"),
])
def test_from_json_refuses_malformed_input_saying_what_is_allowed(change, words):
    message = refused(change(good_json()))
    assert words in message


def test_from_json_refuses_a_deal_number_below_one():
    assert "counts from 1" in refused(good_json(), number=0)


# ---- verifying ------------------------------------------------------------------------
def read_back(s: Shuffle, **changes) -> Shuffle:
    """``s`` as a record would hold it, with some of its fields written otherwise."""
    return Shuffle.from_json({**s.to_json(), **changes}, s.number)


def test_verify_accepts_the_deal_it_made():
    s = read_back(shuffle())
    s.verify(s.deck())
    s.verify(deck_text(s.deck()))  # the record's text does as well
    pool = CardSet.parse("KS 9H 7H 3D AC JC 8C 2C")
    s.verify(s.deck(), s.restock(pool))


def test_verify_catches_a_changed_deck():
    s = read_back(shuffle())
    deck = list(s.deck())
    deck[4], deck[17] = deck[17], deck[4]
    message = verify_refused(s, deck)
    assert message.startswith("the deck is not the one its shuffle commitment promises: card 5 is ")
    assert "(1 more card differs)" in message


def test_verify_catches_a_changed_salt():
    original = shuffle()
    s = read_back(original, salt="f" * 32)
    message = verify_refused(s, original.deck())
    assert message.startswith("the deck is not the one its shuffle commitment promises: the commitment written is "
                              f"{original.commitment}, but the deck and salt give ")
    assert "and the salt and entropy deal another deck" in message


def test_verify_catches_a_changed_commitment():
    original = shuffle()
    s = read_back(original, commitment="0" * 64)
    message = verify_refused(s, original.deck())
    assert message.startswith("the shuffle's commitment does not match: the commitment written is " + "0" * 64)
    assert "so the commitment is what differs" in message


def test_verify_catches_a_deck_committed_to_but_not_dealt_by_the_entropy():
    # A dealer who commits honestly to a deck he chose himself, ignoring the players' entropy.
    honest = shuffle(entropy=("", "beef", "", ""))
    chosen = shuffle().deck()
    s = Shuffle.from_json({**honest.to_json(), "commitment": commitment(deck_text(chosen), SALT)}, 1)
    message = verify_refused(s, chosen)
    assert message.startswith("the deck is not the one its shuffle's salt and entropy deal: card 1 is ")


def test_verify_without_a_written_commitment_checks_the_deck():
    s = shuffle()
    assert s.written_commitment is None
    assert verify_refused(s, tuple(reversed(s.deck()))).startswith(
        "the deck is not the one its shuffle's salt and entropy deal")


def test_verify_catches_a_changed_restock():
    s = read_back(shuffle())
    order = list(s.restock(CardSet.parse("KS 9H 7H 3D AC JC 8C 2C")))
    order[0], order[-1] = order[-1], order[0]
    message = verify_refused(s, s.deck(), order)
    assert message.startswith('"restock" is not the new stock its shuffle forms from those cards: card 1 is ')
    assert "the shuffle forms " in message


# ---- two decks (two-deck Cinch, the rules' decks=2) -------------------------------------------------
# The known answer of docs/record-format.md for two packs: the vector's salt, entropy and number, 104 cards.
VECTOR_TWO_DECK_COMMITMENT = "a4daeee8c0e6a4f685fa9ad891dc3961ae5517308af9bfcb40db48bb0ddb82e4"
VECTOR_TWO_DECK_START = "JS 9S 6D AH JC QC 8H 9D 7H 8S 9S 4D"
VECTOR_TWO_DECK_POOL = "KS 9H 9H 7H 3D AC JC JC 8C 2C"
VECTOR_TWO_DECK_RESTOCK = "7H 8C 3D JC 2C 9H JC AC 9H KS"


def two_decks(salt=SALT, entropy=NONE, number=1) -> Shuffle:
    return Shuffle(salt, entropy, number, decks=2)


def test_two_decks_deal_each_card_twice_and_the_first_dealt_copy_is_the_first_packs():
    deck = two_decks().deck()
    assert len(deck) == 104 and sorted(deck) == list(ALL_CARDS)
    printed = Counter(c.printed for c in deck)
    assert set(printed) == set(CARDS) and set(printed.values()) == {2}
    for card in CARDS:  # (what a record reader takes: the first time a card is named, the first pack's copy)
        assert [c for c in deck if c.printed == card] == [card, card.twin]
    assert deck_text(deck) != deck_text(shuffle().deck()) and two_decks().deck() == deck


def test_the_two_deck_known_answer_vector_and_one_deck_unchanged():
    s = Shuffle(VECTOR_SALT, VECTOR_ENTROPY, VECTOR_NUMBER, decks=2)
    assert s.seed.hex() == VECTOR_SEED  # the seed does not depend on the packs: the deck's length does
    assert deck_text(s.deck()).startswith(VECTOR_TWO_DECK_START + " ")
    assert s.commitment == VECTOR_TWO_DECK_COMMITMENT == commitment(deck_text(s.deck()), VECTOR_SALT)
    pool = CardSet.parse(VECTOR_TWO_DECK_POOL, decks=2)
    assert deck_text(s.restock(pool)) == VECTOR_TWO_DECK_RESTOCK
    assert deck_text(Shuffle(VECTOR_SALT, VECTOR_ENTROPY, VECTOR_NUMBER).deck()) == VECTOR_DECK
    assert s.to_json() == {"commitment": VECTOR_TWO_DECK_COMMITMENT, "salt": VECTOR_SALT,
                           "entropy": {"N": "a1", "E": "", "S": "ff00", "W": "0123456789abcdef"}}


def test_a_two_deck_new_stock_orders_its_pools_copies_and_depends_only_on_the_cards_text():
    s = two_decks()
    ah, ks = Card.parse("AH"), Card.parse("KS")
    pool = 1 << ah | 1 << ah.twin | 1 << ks.twin | int(CardSet.parse("7C"))
    order = s.restock(pool)
    assert sorted(order) == sorted(CardSet(pool))  # the very copies of the pool
    # Which copy of the king the pool holds changes nothing a record shows.
    assert deck_text(s.restock(pool ^ (1 << ks.twin | 1 << ks))) == deck_text(order)
    assert [c for c in order if c.printed == ah] == [ah, ah.twin]


def test_a_two_deck_shuffle_round_trips_and_verifies_from_the_records_text():
    s = two_decks(entropy=("", "ab", "", ""), number=3)
    back = Shuffle.from_json(s.to_json(), 3, decks=2)
    assert back == s and back.decks == 2
    back.verify(s.deck())
    back.verify(deck_text(s.deck()))
    pool = CardSet.parse(VECTOR_TWO_DECK_POOL, decks=2)
    back.verify(deck_text(s.deck()), deck_text(s.restock(pool)))
    # Copies are no part of a record: the twins swapped read the same.
    back.verify([c.twin for c in s.deck()], [c.twin for c in s.restock(pool)])


def test_a_two_deck_shuffle_refuses_a_changed_or_one_pack_deck_in_words():
    s = Shuffle.from_json(two_decks().to_json(), 1, decks=2)
    deck = list(s.deck())
    i = next(i for i in range(1, 104) if deck[i].printed != deck[0].printed)
    deck[0], deck[i] = deck[i], deck[0]
    assert verify_refused(s, deck).startswith("the deck is not the one its shuffle commitment promises: card 1 is ")
    one = Shuffle.from_json(two_decks().to_json(), 1)  # read as one pack: the record's rules said otherwise
    assert "it holds 104 cards, the shuffle's 52" in verify_refused(one, s.deck())
    with pytest.raises(ValueError, match="one pack or two"):
        Shuffle(SALT, NONE, 1, decks=3)
    with pytest.raises(RecordError, match="one pack or two"):
        Shuffle.from_json(good_json(), 1, decks=0)


def test_a_two_deck_match_and_its_replay_hold_the_same_copies():
    """A match dealt from shuffles, a new stock formed, saved as a record and replayed: the same cards,
    copy for copy, and every shuffle checks."""
    import random

    from cinch.match import Match
    from cinch.record import replay, to_record

    rules = Rules.preset("pagat").with_options(decks=2, players="6")  # (six players: the stock runs out)
    match = Match(rules, rng=1)
    pick = random.Random(1)
    match.start_deal(shuffle=Shuffle(SALT, ("",) * 6, 1, decks=2))
    for seat in match.turns():
        legal = match.view(seat).legal
        match.apply(legal[pick.randrange(len(legal))], seat)
    record = to_record(match)
    assert len(record["deals"][0]["deck"].split()) == 104 and "restock" in record["deals"][0]
    again = replay(record).match
    assert again.deals[0].deck == match.deals[0].deck
    assert again.deals[0].hands == match.deals[0].hands and again.score == match.score
