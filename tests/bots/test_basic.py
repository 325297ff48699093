"""The basic bot (cinch.bots.basic): the plain rule of thumb a new player meets first.

Hands are built with ``table``: each seat's nine dealt cards (and the stock, top first).
Most play positions use the no-draw option (nine cards each, no discard) so every hand is
exactly what the test deals.  Each position checks one claim of the bot's docstring where
any player would agree on the answer: it bids up to its hand's value and no further, names
its best suit, keeps trumps, draws trumps with the top one, feeds points to a partner who
holds the trick, wins a trick worth taking as cheaply as it can, and never throws a point
card under an opponent's winning card when it has anything else.  Then: always a legal
action under every preset, and the same seed and view give the same action.
"""

from __future__ import annotations

import random

import pytest

from cinch import CARDS, PRESET_NAMES, Bid, Card, CardSet, Deal, Keep, NameTrump, Pass, Phase, Play, Rules, Seat, Suit
from cinch.bots import make_bot
from cinch.bots.basic import BasicBot, hand_value
from helpers import deal, rules, table

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W

NO_DRAW = rules("pagat", no_draw=True)  # pagat: bids from 7; hearts will be trumps, N deals


def bot() -> BasicBot:
    return make_bot("basic", seed=1)  # type: ignore[return-value]


def choice(d: Deal, seat: Seat):
    """The bot's action for ``seat``, which must be the seat to act; checked to be legal."""
    assert d.to_act == seat, f"{d.to_act} is to act, not {seat}"
    action = bot().choose(d.view(seat))
    assert d.is_legal(action), str(action)
    return action


def legal_plays(d: Deal) -> set[str]:
    return {str(a) for a in d.legal_actions()}


def subset(small: int, big: int) -> bool:
    """Every card of ``small`` is in ``big`` (CardSets are ints: ``<=`` would compare numbers)."""
    return int(small) & ~int(big) == 0


def test_make_bot_basic_gives_the_basic_bot():
    b = make_bot("basic", seed=4)
    assert isinstance(b, BasicBot) and b.name == "basic"


# =============================================================================
# Bidding and naming trumps
# =============================================================================
# Dealt to E (N deals, E bids first); the other seats get the rest.
WEAK = "AH 7S 8S 9C 2D 4D 6C JS 3C"  # a bare ace and nothing else
STRONG = "AH KH QH JH 5H 5D 2H 7S 3C"  # seven trumps with the top three and both Pedros
ACE_KING_PEDRO = "AH KH 5H 7S 8S 9C 2D 4D 6C"  # worth 9 in hearts by the bot's count


def deck_giving(seat: Seat, hand: str, dealer: Seat = N) -> str:
    """A deck dealing ``hand`` to ``seat``; the other seats get the rest in canonical order."""
    mine = CardSet.parse(hand)
    rest = [str(c) for c in CARDS if c not in mine]
    hands = {}
    for s in Seat:
        if s == seat:
            hands[s.name] = hand
        else:
            hands[s.name], rest = " ".join(rest[:9]), rest[9:]
    return table(dealer, **hands)


def bid_by(hand: str, *before: str, seat: Seat = E, preset: str = "pagat"):
    d = deal(preset, N, deck_giving(seat, hand), *before)
    return choice(d, seat)


def test_a_weak_hand_passes_rather_than_bid_pagats_minimum_7():
    assert bid_by(WEAK) == Pass()


def test_a_strong_hand_bids_under_pagat():
    assert isinstance(bid_by(STRONG), Bid)


def test_the_hand_value_counts_top_trumps_and_pedros():
    """The value behind the bids: A-K-5 of hearts is worth 9 of 14 (with a partner's average 2)."""
    hand = int(CardSet.parse(ACE_KING_PEDRO))
    r = Rules.preset("pagat")
    assert hand_value(hand, Suit.HEARTS, r, dealer=False) == pytest.approx(9.0)
    assert hand_value(hand, Suit.HEARTS, r, dealer=True) == pytest.approx(10.0)  # the dealer robs the pack
    # Hearts is its best suit by far.
    assert all(hand_value(hand, s, r, dealer=False) < 6 for s in Suit if s is not Suit.HEARTS)


def test_it_outbids_an_opponent_up_to_its_hands_value_and_no_further():
    # A-K-5 is worth 9: over an 8 it bids 9; over a 9 it passes.
    assert bid_by(ACE_KING_PEDRO, "bid 8", seat=S) == Bid(9)
    assert bid_by(ACE_KING_PEDRO, "bid 9", seat=S) == Pass()


def test_a_stuck_dealer_bids_the_minimum_with_a_weak_hand():
    assert bid_by(WEAK, "pass", "pass", "pass", seat=N) == Bid(7)


def test_the_maker_names_its_best_suit():
    # Spades: ace, king, both black Pedros.  Hearts and diamonds hold two small cards each.
    d = deal("difference", N, deck_giving(E, "AS KS 5S 5C 9S 2H 4D 6D 3H"), "bid 6", "pass", "pass", "pass")
    assert d.phase is Phase.TRUMP
    assert choice(d, E) == NameTrump(Suit.SPADES)


# =============================================================================
# Keeping trumps: the discard and the rob
# =============================================================================
def test_keep_six_keeps_the_six_point_trumps():
    # Difference (001): E holds eight trumps after naming hearts and must keep six; the six point
    # cards (High, Jack, Game, both Pedros, Low) stay, the 8H and 7H go.
    deck = table(N, E="AH JH TH 5H 5D 2H 8H 7H 2C", S="AS KS QS JS TS 9S 8S 7S 6S",
                 W="AC KC QC JC TC 9C 8C 7C 6C", N="AD KD QD JD TD 9D 8D 7D 6D")
    d = deal("difference", N, deck, "bid 6", "pass", "pass", "pass", "trump H")
    assert d.phase is Phase.DISCARD
    kept = choice(d, E)
    assert isinstance(kept, Keep) and kept.cards == CardSet.parse("AH JH TH 5H 5D 2H")


def test_the_dealer_robs_every_trump_and_the_side_ace():
    # Difference (001, any six): N deals holding 3H 2H; after the refills the stock left holds
    # 4H 5D AC and four small clubs.  He keeps his four trumps, the ace, and one more card.
    deck = table(N, E="AH KH QH JH TH 9H 2S 3S 4S", S="8H 7H 6S 7S 8S 9S TS JS QS",
                 W="6H KS AS 2D 3D 4D 6D 7D 8D", N="3H 2H 9D TD JD QD KD AD 2C",
                 stock="5H 5S 3C 5C 6C QC KC JC TC 4H 5D AC 4C 7C 8C 9C")
    d = deal("difference", N, deck, "bid 6", "pass", "pass", "pass", "trump H")
    assert d.phase is Phase.ROB
    pool = d.hand(N) | d.view(N).stock_seen
    assert subset(CardSet.parse("3H 2H 4H 5D AC"), pool) and len(pool) > 6  # a real choice
    kept = choice(d, N)
    assert isinstance(kept, Keep)
    assert subset(CardSet.parse("3H 2H 4H 5D AC"), kept.cards) and len(kept.cards) == 6


def test_buried_excess_leads_the_ace_and_buries_the_smallest_plain_trumps():
    # Pagat (000): E keeps all eight hearts and must bury two under his first card.  He draws
    # trumps with the ace and buries the 8H and 7H, never a point card or a high trump.
    deck = table(N, E="AH KH QH JH TH 9H 8H 7H 2C", S="6H 5H 4H AS KS QS JS TS 9S",
                 W="3H 2H 5D AC KC QC JC TC 9C", N="AD KD QD JD TD 9D 8D 7D 6D")
    d = deal("pagat", N, deck, "bid 7", "pass", "pass", "pass", "trump H")
    while d.phase is not Phase.PLAY:
        d.apply(choice(d, d.to_act))
    assert d.to_act == E and len(d.hand(E)) == 8
    assert choice(d, E) == Play(Card.parse("AH"), CardSet.parse("8H 7H"))


# =============================================================================
# Leading: draw trumps with the top one
# =============================================================================
# No draw (002 "Simple Cinch" on pagat's bids): E makes hearts and leads to the first trick.
MAKE_HEARTS = ("bid 7", "pass", "pass", "pass", "trump H")


def test_the_maker_holding_the_top_trump_leads_it():
    d = deal(NO_DRAW, N, deck_giving(E, "AH KH 9H 7S 8S 9C 2D 4D 6C"), *MAKE_HEARTS)
    assert d.phase is Phase.PLAY
    assert choice(d, E) == Play(Card.parse("AH"))


def test_without_the_top_trump_it_leads_its_cheapest_plain_card():
    # The AH is in another hand: leading the KH would feed it.  The 2D is the least card held.
    d = deal(NO_DRAW, N, deck_giving(E, "KH QH 9H 7S 8S 9C 2D 4D 6C"), *MAKE_HEARTS)
    assert choice(d, E) == Play(Card.parse("2D"))


# =============================================================================
# Following: feed the partner, win cheaply, never throw points to an opponent
# =============================================================================
# E makes hearts and leads; S is a defender; W is E's partner; N plays last.
FEED = table(
    N,
    E="AH 9H 2S 3S 4S 2C 3C 4C 6C",
    S="QH 3H 5S 6S 7S 8S 9S TS JS",
    W="5H 4H 7C 8C 6D 7D 8D 9D TD",
    N="KH JH TH 8H 7H 6H 2H 5D QS",
)


def test_a_pedro_goes_under_the_partners_unbeatable_ace():
    d = deal(NO_DRAW, N, FEED, *MAKE_HEARTS, "play AH", "play 3H")
    assert legal_plays(d) == {"play 5H", "play 4H"}
    assert choice(d, W) == Play(Card.parse("5H"))


def test_no_pedro_under_a_partners_card_that_can_still_be_beaten():
    # The partner's 9H holds the trick, but N plays after W and higher trumps are out.
    d = deal(NO_DRAW, N, FEED, *MAKE_HEARTS, "play 9H", "play 3H")
    assert legal_plays(d) == {"play 5H", "play 4H"}
    assert choice(d, W) == Play(Card.parse("4H"))


# E makes hearts and leads; S (a defender) holds KH QH 3H; the AH is with N, who plays last.
CHEAP = table(
    N,
    E="JH 8H 2S 3S 4S 2C 3C 4C 6C",
    S="KH QH 3H 5S 6S 7S 8S 9S TS",
    W="5H 4H 9H 8C 7C 6D 7D 8D 9D",
    N="AH TH 7H 6H 2H 5D JS QS KS",
)


def test_a_trick_with_a_point_in_it_is_won_with_the_cheapest_winner():
    # The JH (Jack, a point) is led: the QH takes it as surely as the KH does, and costs less.
    d = deal(NO_DRAW, N, CHEAP, *MAKE_HEARTS, "play JH")
    assert {"play KH", "play QH", "play 3H"} == legal_plays(d)
    assert choice(d, S) == Play(Card.parse("QH"))


def test_a_trick_with_no_point_in_it_is_not_fought_for():
    # The 8H is led: nothing to win, and N may still overtake; the 3H goes.
    d = deal(NO_DRAW, N, CHEAP, *MAKE_HEARTS, "play 8H")
    assert choice(d, S) == Play(Card.parse("3H"))


# E makes hearts and leads; S, a defender, holds a Pedro, the Jack and a small trump.
UNDER = table(
    N,
    E="AH AS 9H 2S 3S 2C 3C 4C 6C",
    S="5H JH 3H 9C 4D 8D 9D TD JD",
    W="KH 4H 4S 5S 6S 7C 8C 6D 7D",
    N="QH TH 8H 7H 6H 2H 5D QS KS",
)


def test_no_point_card_under_an_opponents_ace_of_trumps():
    d = deal(NO_DRAW, N, UNDER, *MAKE_HEARTS, "play AH")
    assert legal_plays(d) == {"play 5H", "play JH", "play 3H"}
    assert choice(d, S) == Play(Card.parse("3H"))


def test_no_point_card_under_an_opponents_plain_ace_when_void():
    # S has no spade and may play anything: not the Pedro or the Jack, but the least plain card.
    d = deal(NO_DRAW, N, UNDER, *MAKE_HEARTS, "play AS")
    assert "play 5H" in legal_plays(d) and "play 4D" in legal_plays(d)
    assert choice(d, S) == Play(Card.parse("4D"))


def test_with_only_point_cards_left_it_gives_the_least_valuable():
    # After the AH trick S holds no small trump: the Jack (1 point) goes, not the Pedro (5).
    d = deal(NO_DRAW, N, UNDER, *MAKE_HEARTS, "play AH", "play 3H", "play 4H", "play 2H",
             "play 9H")  # E won and leads again
    assert d.to_act == S and legal_plays(d) == {"play 5H", "play JH"}
    assert choice(d, S) == Play(Card.parse("JH"))


# =============================================================================
# Always legal, and deterministic
# =============================================================================
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_always_a_legal_action_in_random_deals(preset):
    r = Rules.preset(preset)
    rng = random.Random(preset)
    played = 0
    for i in range(25):
        d = Deal.shuffled(r, Seat(i & 3), rng)
        bots = [make_bot("basic", seed=i + s) for s in range(4)]
        while not d.is_over:
            seat = d.to_act
            action = bots[seat].choose(d.view(seat, score=(0, 0), target=r.target))
            assert d.is_legal(action), (preset, i, str(action))
            d.apply(action)
        played += d.result is not None and not d.result.thrown_in
    assert played > 0  # some deals reached the play, not only throw-ins


def test_the_same_seed_and_views_give_the_same_actions():
    def actions(seed: int) -> list[str]:
        d = Deal.shuffled(Rules.preset("official"), W, 17)
        b = make_bot("basic", seed=seed)
        out = []
        while not d.is_over:
            view = d.view(d.to_act)
            a = b.choose(view)
            assert make_bot("basic", seed=seed).choose(view) == a  # a fresh bot agrees on this view
            out.append(str(a))
            d.apply(a)
        return out

    first = actions(3)
    assert len(first) > 10 and first == actions(3)
