"""The heuristic bot (cinch.bots.heuristic) and its card tracker (cinch.bots.knowledge).

Hands are built with ``table``: each seat's nine dealt cards and the stock, top first.
The positions are ones any player would judge: a bare ace is no bid, A-K with a guarded
Pedro is; a Pedro goes under the partner's sure winner and never under an opponent's; the
ace is not spent on an empty trick; the top trump draws trumps; the Low is taken home
where it scores for its capturer.  Then: legality under every preset and option, and a
small duplicate match against the basic bot.
"""

from __future__ import annotations

import random
import statistics

import pytest

from cinch import CARDS, PRESET_NAMES, Bid, Card, CardSet, Deal, Keep, NameTrump, Phase, Play, Rules, Seat, Suit
from cinch.bots import make_bot
from cinch.bots.heuristic import HeuristicBot, best_suit, expected_points
from cinch.bots.knowledge import Knowledge
from cinch.keep import KeepOptions
from helpers import PLAY_DECK, PLAY_START, deal, play, rules, table

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def bot() -> HeuristicBot:
    return make_bot("heuristic", seed=1)  # type: ignore[return-value]


def hand_deck(dealer: Seat, seat: Seat, hand: str) -> str:
    """A deck dealing ``hand`` to ``seat``; the other seats get the rest in canonical order."""
    mine = CardSet.parse(hand)
    rest = [str(c) for c in CARDS if c not in mine]
    hands = {s.name: "" for s in Seat}
    hands[seat.name] = hand
    i = 0
    for s in Seat:
        if s != seat:
            hands[s.name] = " ".join(rest[i:i + 9])
            i += 9
    return table(dealer, **hands)


def bid_of(preset: str | Rules, hand: str, *, dealer: Seat = N, seat: Seat = E, before: tuple[str, ...] = (),
           **context) -> int:
    """What the bot bids with ``hand`` in ``seat`` after the bids ``before`` (0 for a pass)."""
    d = deal(preset, dealer, hand_deck(dealer, seat, hand), *before)
    assert d.to_act == seat
    r = d.rules
    context.setdefault("score", (0, 0))
    context.setdefault("target", r.target)
    action = bot().choose(d.view(seat, **context))
    assert action in d.legal_actions()
    return action.amount if isinstance(action, Bid) else 0


# =============================================================================
# Bidding
# =============================================================================
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_bare_ace_is_no_bid(preset):
    assert bid_of(preset, "AH 7S 8S 9C 2D 4D 6C JS 3C") == 0


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_ace_king_with_a_guarded_pedro_is_a_bid(preset):
    assert bid_of(preset, "AH KH 5H 7S 8S 9C 2D 4D 6C") > 0


@pytest.mark.parametrize("preset", ["pagat", "difference"])
def test_a_big_bid_needs_real_power(preset):
    # Middle trumps and a Pedro with nothing above it: no bid, let alone 8.
    assert bid_of(preset, "9H 8H 5H 7S 8S 9C 2D 4D 6C") == 0
    # Seven trumps with the ace, the king, both Pedros: a big bid.
    assert bid_of(preset, "AH KH QH JH 5H 5D 2H 7S 3C") >= 9
    # Over the hand's value the bot does not go: it lets an opponent's 10 stand with A-K-5.
    assert bid_of(preset, "AH KH 5H 7S 8S 9C 2D 4D 6C", before=("bid 10",), seat=S) == 0


def test_random_hands_bid_8_or_more_only_with_power():
    r = Rules.preset("difference")
    rng = random.Random(3)
    for _ in range(300):
        deck = list(CARDS)
        rng.shuffle(deck)
        hand = " ".join(str(c) for c in deck[:9])
        amount = bid_of(r, hand)
        if amount >= 8:
            suit, _ = best_suit(int(CardSet.parse(hand)), r, 1)
            ranks = {str(c)[0] for c in CardSet.parse(hand) if c.suit == suit}
            pedros = sum(1 for c in CardSet.parse(hand) if c.rank == "5" and c.suit in (suit, suit.partner))
            top = len(ranks & {"A", "K", "Q"})
            assert top >= 2 or (top >= 1 and pedros >= 1), hand


def test_the_dealer_bids_a_little_higher_with_the_same_hand():
    r = Rules.preset("difference")
    hand = int(CardSet.parse("AH KH 5H 7S 8S 9C 2D 4D 6C"))
    assert expected_points(hand, Suit.HEARTS, r, 0) > expected_points(hand, Suit.HEARTS, r, 1)
    # A hand worth a little less than a bid: the first seat passes it, the dealer (who robs the
    # pack) bids it after three passes.
    rng = random.Random(5)
    dealer_only = 0
    for _ in range(400):
        deck = list(CARDS)
        rng.shuffle(deck)
        text = " ".join(str(c) for c in deck[:9])
        first = bid_of(r, text, dealer=N, seat=E)
        last = bid_of(r, text, dealer=N, seat=N, before=("pass", "pass", "pass"))
        assert not (first and not last), text  # what the first seat bids, the dealer bids too
        dealer_only += bool(last and not first)
    assert dealer_only > 0


def test_near_the_target_the_bot_plays_to_the_score():
    # Difference (001): a set gives the defenders 14 plus the shortfall.  Far from the target the
    # bot overcalls an opponent's 5 with a fair spade hand; when the opponents need only 4 to go
    # out, a set would hand them the match, and it passes.
    hand = "KS TS 9S 7S 7H 6H AD 4H 8C"
    assert bid_of("difference", hand, seat=S, before=("bid 5",), score=(0, 0)) > 5
    assert bid_of("difference", hand, seat=S, before=("bid 5",), score=(20, 47)) == 0


def test_bidder_goes_out_makes_a_made_bid_worth_the_match():
    hand = "AH 9H 5H 7S 8S 9C 2D 4D 6C"
    assert bid_of("pagat", hand, score=(40, 40)) == 0
    assert bid_of("pagat", hand, score=(56, 58), bidder_goes_out=True) == 7


def test_a_stuck_dealer_bids_the_minimum():
    assert bid_of("pagat", "2H 7S 8S 9C 2D 4D 6C 3C 4S", seat=N, before=("pass", "pass", "pass")) == 7


# =============================================================================
# Trumps, discard, rob
# =============================================================================
def test_trump_choice_picks_the_obvious_suit():
    d = deal("difference", N, hand_deck(N, E, "AS KS 5S 5C 9S 2H 4D 6D 3H"), "bid 6", "pass", "pass", "pass")
    assert bot().choose(d.view(E)) == NameTrump(Suit.SPADES)


def test_keep_six_keeps_the_point_cards():
    # Difference (001): a player left with more than six trumps keeps six and shows the rest.
    deck = table(N, E="AH JH TH 5H 5D 8H 7H 3H 2C", S="AS KS QS JS TS 9S 8S 7S 6S",
                 W="AC KC QC JC TC 9C 8C 7C 6C", N="AD KD QD JD TD 9D 8D 7D 6D")
    d = deal("difference", N, deck, "bid 6", "pass", "pass", "pass", "trump H")
    assert d.phase is Phase.DISCARD and d.to_act == E
    kept = bot().choose(d.view(E))
    assert isinstance(kept, Keep)
    assert kept.cards == CardSet.parse("AH JH TH 8H 5H 5D")  # the 7H and 3H are thrown


def test_official_a_defender_never_throws_a_point_card_to_the_makers():
    deck = table(N, S="AH JH TH 5H 5D 8H 7H 3H 2C", E="AS KS QS JS TS 9S 8S 7S 6S",
                 W="AC KC QC JC TC 9C 8C 7C 6C", N="AD KD QD JD TD 9D 8D 7D 6D")
    d = deal("official", N, deck, "bid 6", "pass", "pass", "pass", "trump H")  # E makes hearts
    assert d.phase is Phase.DISCARD and d.to_act == S
    kept = int(bot().choose(d.view(S)).cards)
    assert kept & int(CardSet.parse("JH TH 5H 5D")) == int(CardSet.parse("JH TH 5H 5D"))


def test_choose_concealed_throws_the_junk_and_keeps_the_trumps():
    deck = hand_deck(W, N, "AH KH 5H 7S 8S 9C 2D 4D 6C")
    d = deal("additive", W, deck, "bid 6", "pass", "pass", "pass", "trump H")
    assert d.to_act == N and d.phase is Phase.DISCARD
    kept = int(bot().choose(d.view(N)).cards)
    assert kept == int(CardSet.parse("AH KH 5H"))


def test_robbing_the_dealer_takes_the_pedros_and_the_top_trumps():
    # Any-six rob (001): the dealer keeps six of his trumps and the stock.
    deck = table(N, E="AS KS QS 2C 3C 4C 6C 7C 8C", S="TS 9S 8S 9C TC JC QC KC AC",
                 W="JS 7S 6S 2D 3D 4D 6D 7D 8D", N="2H 3H 4H 9D TD JD QD KD AD",
                 stock="AH KH QH JH TH 9H 8H 7H 6H 2S 3S 4S 5S 5C 5H 5D")
    d = deal("difference", N, deck, "pass", "pass", "pass", "bid 6", "trump S")
    assert d.phase is Phase.ROB and d.to_act == N
    kept = bot().choose(d.view(N))
    assert isinstance(kept, Keep) and isinstance(d.legal_actions(), KeepOptions)
    assert kept.cards == CardSet.parse("5S 5C 4S 3S 2S 5H") or kept.cards == CardSet.parse("5S 5C 4S 3S 2S 5D")


# =============================================================================
# Card play
# =============================================================================
# Hearts are trumps, N deals, E makes it: helpers.PLAY_DECK.


def test_the_maker_draws_trumps_with_the_top_trump():
    d = deal("difference", N, PLAY_DECK, *PLAY_START)
    assert d.phase is Phase.PLAY and d.to_act == E
    assert bot().choose(d.view(E)) == Play(Card.parse("AH"))


def test_no_pedro_under_an_opponents_winning_trump():
    d = deal("difference", N, PLAY_DECK, *PLAY_START, "play AH")
    assert d.hand(S) & CardSet.parse("5D 7H") == CardSet.parse("5D 7H")
    assert bot().choose(d.view(S)) == Play(Card.parse("7H"))


def test_a_pedro_goes_under_the_partners_sure_winner():
    d = deal("difference", N, PLAY_DECK, *PLAY_START, "play AH", "play 7H")
    assert bot().choose(d.view(W)) == Play(Card.parse("5H"))


# No draw (002 "Simple Cinch"): nine cards each, so plain suits stay in the hands.
NO_DRAW_DECK = table(
    N,
    E="AH KH 5H AS 2S 3S 2C 3C 4C",
    S="QH 4H AC KC 7S 8S 9D TD JD",
    W="JH 3H 2H KS QS 4S 5C 6C 7C",
    N="9H 8H 6H AD KD QD 9S TS JS",
)


def test_the_ace_is_not_wasted_on_an_empty_trick():
    # Hearts are trumps; E leads the 2C.  S holds the ace and king of clubs: the trick holds no
    # point and W and N still play, so the ace stays home.
    d = deal(rules("difference", no_draw=True), N, NO_DRAW_DECK, "bid 6", "pass", "pass", "pass", "trump H",
             "play 2C")
    assert bot().choose(d.view(S)) != Play(Card.parse("AC"))


LOW_DECK = table(
    N,
    E="KC 7S AH KH QH JH TH 9H 8S",
    S="3C 4S AD KD QD JD TD 9D 8D",
    W="5C 6S AS KS QS JS TS 9S 7D",
    N="2H 4D 3D 2D 6D 7C 8C 9C QC",
)


@pytest.mark.parametrize("preset", ["difference", "additive", "official", "double-pedro"])
def test_the_low_goes_home_where_it_scores_for_its_capturer(preset):
    # Hearts are trumps; E leads the KC, S and W follow.  N, last, may follow with a lower club
    # or trump: the 2H takes the trick, and the Low with it (the 2 of trumps to its capturer, 001;
    # the lowest trump in play to its capturer, 002-004).
    d = deal(rules(preset, no_draw=True), N, LOW_DECK, "bid 6", "pass", "pass", "pass", "trump H",
             "play KC", "play 3C", "play 5C")
    assert bot().choose(d.view(N)) == Play(Card.parse("2H"))


# =============================================================================
# The card tracker
# =============================================================================
def test_the_tracker_counts_trumps_a_player_must_still_hold():
    d = deal("difference", N, PLAY_DECK, *PLAY_START)
    k = Knowledge(d.view(E))
    # W kept 5H 3H and drew four: he holds at least two trumps; S kept 5D 7H.
    assert k.min_trumps[W] == 2 and k.min_trumps[S] == 2
    assert k.is_boss(Card.parse("AH"))
    play(d, "play AH", "play 7H", "play 5H", "play JH")
    k = Knowledge(d.view(E))
    assert k.min_trumps[W] == 1 and k.min_trumps[S] == 1
    assert k.is_boss(Card.parse("KH"))


def test_the_tracker_reads_voids_from_the_play():
    d = deal(rules("difference", no_draw=True), N, NO_DRAW_DECK, "bid 6", "pass", "pass", "pass", "trump H",
             "play 2C", "play AC", "play 5C", "play 9S")
    k = Knowledge(d.view(E))
    clubs = 3
    assert k.void[N] >> clubs & 1  # N played a spade to a club lead: no clubs
    assert not k.void[N] >> 1 & 1  # but he may still hold hearts (trumps): void in the suit led only
    assert k.p_holds_any(N, int(CardSet.parse("6C 7C 8C"))) == 0


# =============================================================================
# Every preset, every option: always a legal action, quickly
# =============================================================================
OPTIONS = [
    {}, {"bidding": "auction"}, {"follow": "strict"}, {"sancho": True}, {"dom_pedro": True, "sancho": True},
    {"no_draw": True}, {"stock_out": "share"}, {"discard": "choose-concealed"}, {"rob": "trumps-first"},
    {"all_pass": "stuck-dealer"}, {"thrown_points": "defenders-to-makers"},
]


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_always_a_legal_action_under_every_preset_and_option(preset):
    rng = random.Random(preset)
    for options in OPTIONS:
        r = Rules.preset(preset).with_options(**options)
        for i in range(6):
            d = Deal.shuffled(r, Seat(i & 3), rng)
            bots = (make_bot("heuristic", seed=i), make_bot("heuristic" if i % 2 else "random", seed=i))
            while not d.is_over:
                seat = d.to_act
                v = d.view(seat, score=(rng.randrange(0, 60), rng.randrange(0, 60)), target=r.target,
                           bidder_goes_out=i == 5)
                action = bots[seat & 1].choose(v)
                assert d.is_legal(action), (preset, options, str(action))
                d.apply(action)


def test_buried_excess_buries_the_least_useful_cards():
    # Pagat (000): a hand above six buries the excess under its first card, never a point card.
    deck = table(N, E="AH KH QH JH TH 9H 8H 7H 2C", S="6H 5H 4H AS KS QS JS TS 9S",
                 W="3H 2H 5D AC KC QC JC TC 9C", N="AD KD QD JD TD 9D 8D 7D 6D")
    d = deal("pagat", N, deck, "bid 7", "pass", "pass", "pass", "trump H")
    while d.phase is not Phase.PLAY:
        d.apply(bot().choose(d.view(d.to_act)))
    assert d.to_act == E and len(d.hand(E)) == 8
    action = bot().choose(d.view(E))
    assert isinstance(action, Play) and action.bury == CardSet.parse("8H 7H")


def test_the_same_seed_and_views_give_the_same_actions():
    def actions() -> list[str]:
        d = Deal.shuffled(Rules.preset("additive"), N, 11)
        b = make_bot("heuristic", seed=3)
        out = []
        while not d.is_over:
            a = b.choose(d.view(d.to_act))
            out.append(str(a))
            d.apply(a)
        return out

    assert actions() == actions()


# =============================================================================
# Strength: a small duplicate match against the basic bot
# =============================================================================
def test_ahead_of_basic_in_a_small_duplicate_match():
    r = Rules.preset("pagat")
    rng = random.Random(2024)
    diffs = []
    for i in range(100):
        deck = list(CARDS)
        rng.shuffle(deck)
        result = []
        for heuristic_team in (0, 1):
            d = Deal(r, Seat(i & 3), deck, rng=random.Random(i))
            bots = [make_bot("heuristic", seed=i), make_bot("basic", seed=i)]
            if heuristic_team:
                bots.reverse()
            while not d.is_over:
                d.apply(bots[d.to_act & 1].choose(d.view(d.to_act, score=(0, 0), target=r.target)))
            change = d.result.score_change
            result.append(change[heuristic_team] - change[1 - heuristic_team])
        diffs.append(sum(result) / 2)
    assert statistics.mean(diffs) > 1.0


def test_the_bot_rejects_unknown_parameters():
    with pytest.raises(ValueError):
        make_bot("heuristic", seed=1, no_such_knob=1)




# The position (pagat, hearts trumps, W deals, E makes it).  Every trump is dealt, none is
# in the stock.  Trick 1: E leads the QH, all follow (N with the 2H).  Trick 2: E leads the KH; S
# holds AH 7H 6H and N's only trump is the 5H, which must fall.  Ducking with the 6H hands E's king
# the Pedro (6-8 becomes 1-13); the ace takes it: the follow counts what later players must add.
FOLLOW_DECK = table(W, E="KH QH JH TH 9H 2S 3S 4S 2C", S="AH 7H 6H 4H 5S 6S 7S 8S 9S",
                    W="8H 3H 5D AS KS QS JS AC KC", N="5H 2H 2D 3D 4D 6D 7D 8D 9D")


def test_the_ace_takes_the_king_when_the_partner_must_drop_a_pedro():
    d = deal("pagat", W, FOLLOW_DECK, "pass", "bid 7", "pass", "pass", "trump H")
    while d.phase is not Phase.PLAY:
        d.apply(bot().choose(d.view(d.to_act)))
    assert d.to_act == E
    play(d, "play QH", "play 4H", "play 3H", "play 2H", "play KH")
    assert d.hand(S) & CardSet.parse("AH 7H 6H") == CardSet.parse("AH 7H 6H")
    trumps = CardSet.parse("AH KH QH JH TH 9H 8H 7H 6H 5H 5D 4H 3H 2H")
    assert d.hand(N) & trumps == CardSet.parse("5H")
    assert bot().choose(d.view(S)) == Play(Card.parse("AH"))
