"""The bots at two-deck Cinch (``decks=2``): 104 cards, twelve held, twice the points.

Positions are dealt with ``two_deck_table``: each seat's cards (18 at four players, a card
may be named twice for both copies) and the stock, top first.  What a player would notice:
the card tracker counts a card as out while either copy is unseen, and knows that a twin
played after its equal does not win; the heuristic keeps its Pedro from a trick the other ace
will take, wins a trick with the twin ace it holds and gives no point card to a trick its
equal twin cannot take; the play likelihood of the world sampler reads two copies as one card;
the heuristic keeps twelve cards and bids on twice the points, at many levels, never at the
top; every bot plays legally at every table; the basic bot counts both packs; a short
duplicate run through the arena.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cinch import Bid, Card, CardSet, Deal, Keep, Phase, Rules, Seat, Suit
from cinch.arena import run_duplicate
from cinch.bots import make_bot
from cinch.bots.basic import hand_value
from cinch.bots.heuristic import HeuristicBot, best_suit, expected_points
from cinch.bots.inference import PlayLikelihood
from cinch.bots.knowledge import Knowledge
from cinch.cards import CARDS, DECK_SIZE
from cinch.constants import BATCH
from helpers import play

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
OFFICIAL = Rules.preset("official").with_options(decks=2)


def two_deck_table(dealer: Seat, hands: dict[Seat, str], stock: str = "", rules: Rules = OFFICIAL) -> list[str]:
    """The 104-card deck order that deals ``hands`` (by seat) and then ``stock`` (top first); the cards
    nobody is given fill the rest of the stock.  A card named twice is both copies."""
    table = rules.seating
    words = {seat: text.split() for seat, text in hands.items()}
    for seat, hand in words.items():
        assert len(hand) == table.dealt, f"{seat} must be dealt {table.dealt} cards, not {len(hand)}"
    dealt = []
    for batch in range(table.batches):  # batches of three, from the dealer's left
        seat = table.seats[(dealer + 1 + batch) % table.players]
        k = batch // table.players
        dealt += words[seat][BATCH * k:BATCH * k + BATCH]
    deck = dealt + stock.split()
    named = Counter(str(Card.parse(c)) for c in deck)
    assert max(named.values()) <= 2, "a card is given three times"
    deck += [str(c) for c in CARDS for _ in range(2 - named[str(c)])]
    assert len(deck) == table.deck
    return deck


def heuristic() -> HeuristicBot:
    return make_bot("heuristic", seed=1)  # type: ignore[return-value]


def copies(text: str) -> int:
    """A mask of cards by text, a card named twice as both copies."""
    return int(CardSet.parse(text, decks=2))


# Hearts are trumps; E deals, N bids and leads.  S and N throw their plain cards and draw plain cards,
# W throws his one plain card and keeps twelve of his seventeen trumps (the other five shown), and E
# robs.  In the play N holds AH KH and ten plain cards, E no trump, S 5H 8H 7H 4H 4H 3H 3H 2H 2H and
# three plain cards, W twelve trumps, one of the aces among them (the stock: plain cards nobody holds).
PLAY_HANDS = {
    N: "AH KH AS KS QS JS TS 9S 8S 7S 6S 4S AC KC QC JC TC 9C",
    E: "AS KS QS JS TS 9S 8S 7S 6S 4S 3S 2S AD KD QD JD TD 9D",
    S: "5H 8H 7H 4H 4H 3H 3H 2H 2H 5S 5S 3S 2S AD KD QD JD TD",
    W: "QH QH JH AH KH JH TH TH 9H 9H 8H 7H 6H 6H 5H 5D 5D 2C",  # N has the first AH and KH
}
PLAY_KEEP = "keep AH KH QH QH JH JH TH TH 9H 5H 5D 5D"


def play_deal(*plays: str) -> Deal:
    """The deal above after the draw and the rob, then ``plays`` (record notation; ``?``: E's first legal card)."""
    d = Deal(OFFICIAL, E, two_deck_table(E, PLAY_HANDS))
    play(d, "pass", "pass", "bid 2", "pass", "trump H")
    while d.phase is not Phase.PLAY:
        if d.to_act == W:
            play(d, PLAY_KEEP)
        else:
            d.apply(d.legal_actions()[0])  # forced for S and N; E robs twelve plain cards
    for text in plays:
        d.apply(d.legal_actions()[0]) if text == "?" else play(d, text)
    return d


# =============================================================================
# The card tracker
# =============================================================================
def test_the_tracker_counts_a_card_out_while_either_copy_is_unseen():
    d = play_deal("play AH", "?")
    k = Knowledge(d.view(S))
    ah = Card.parse("AH")
    assert k.unseen >> ah.twin & 1 and not k.unseen >> ah & 1  # the first copy is played, its twin is out
    assert k.unseen >> DECK_SIZE  # the second pack's cards are tracked too
    kh = Card.parse("KH")
    assert not k.is_boss(kh)  # the second ace may still take the king
    assert k.higher_trumps(kh) == 1 << ah.twin
    # An ace is the boss whether or not its twin is out: a twin played after it does not win.
    assert k.is_boss(ah) and k.is_boss(ah.twin)


def test_the_tracker_reads_voids_and_the_low_over_both_packs():
    d = play_deal("play AH", "?")
    k = Knowledge(d.view(S))
    assert k.void[E] >> Suit.HEARTS & 1  # a spade on the trump lead: no trumps
    assert k.p_holds_any(E, 1 << Card.parse("AH").twin) == 0.0
    # W drew nothing, so his twelve cards are trumps: twelve of the thirteen unseen.
    assert k.p_holds_any(W, 1 << Card.parse("AH").twin) == pytest.approx(12 / 13)
    # Official: Low is the lowest trump in play, and each copy in play of it scores.
    values = k.trick_values()
    two = Card.parse("2H")
    assert values[two] == values[two.twin] == 1


def test_a_twin_played_after_its_equal_cannot_beat_it():
    d = play_deal("play AH", "?")
    k = Knowledge(d.view(S))
    led = Suit.HEARTS
    assert k.p_beats(W, Card.parse("AH"), led) == 0.0  # W may hold the second ace: it does not win
    assert k.p_beats(W, Card.parse("KH"), led) > 0.0


# =============================================================================
# Card play
# =============================================================================
def test_no_pedro_to_the_partners_king_while_the_other_ace_is_out():
    # N's ace, then N's king led: W, still to play, holds the second ace (S can tell: W drew no card,
    # so his hand is trumps, and no other trump is unseen).  S keeps the Pedro.
    d = play_deal("play AH", "?", "play 2H", "play 9H", "play KH", "?")
    assert d.to_act == S
    k = Knowledge(d.view(S))
    assert k.p_holds_any(W, k.unseen & copies("AH AH")) == 1.0
    action = heuristic().choose(d.view(S))
    assert action in d.legal_actions() and str(action) != "play 5H"


# Hearts are trumps, no draw (the eighteen cards dealt are played); E deals, N bids and leads.
# Trick 1 (spades) goes to W's ace; W then leads a trump and S plays last.
NO_DRAW = OFFICIAL.with_options(no_draw=True)
SPADE_TRICK = ("play 2S", "play 3S", "play 4S", "play AS")


def no_draw_deal(s_trumps: str, w_lead: str) -> Deal:
    """S holds ``s_trumps`` (three cards, the first copies being E's and W's), W leads ``w_lead``."""
    hands = {
        N: "2S 3H 7S 8S 9S TS JS QS KS 2C 3C 4C 6C 7C 8C 9C TC JC",
        E: "AH 3S 4H 7S 8S 9S TS JS QS KS 2C 3C 4C 6C 7C 8C 9C TC",  # the first AH: dealt before S's
        S: f"4S 2D 3D {s_trumps} 6D 7D 8D 9D TD JD QD KD AD 2D 3D 4D",
        W: f"AS {w_lead} 6S 5S 5S 6S JC QC KC AC QC KC AC AD KD QD JD TD",
    }
    d = Deal(NO_DRAW, E, two_deck_table(E, hands, rules=NO_DRAW))
    play(d, "pass", "pass", "bid 2", "pass", "trump H", *SPADE_TRICK, f"play {w_lead}", "play 3H", "play 4H")
    assert d.to_act == S
    return d


def test_the_heuristic_takes_a_trick_with_the_twin_ace_rather_than_lose_its_pedro():
    d = no_draw_deal("AH 5H 4D", "KH")  # S's ace is the second copy; its trumps: the ace and the Pedro
    assert int(d.hand(S)) >> Card.parse("AH").twin & 1
    assert str(heuristic().choose(d.view(S))) == "play AH"


def test_no_point_card_under_an_equal_card_that_its_twin_cannot_beat():
    # W leads the Game (the ten of trumps); S's own ten would not take it (the first played of two
    # equal cards wins), so S plays neither the ten nor the Pedro: the six.
    d = no_draw_deal("TH 5H 6H", "TH")
    assert str(heuristic().choose(d.view(S))) == "play 6H"


def test_a_play_from_two_copies_of_one_card_tells_the_bid_inference_nothing():
    # The world sampler's play likelihood: E played the 4 of trumps to trick 2.  A world in which he
    # held both copies of it, and no other trump, gave him no choice, just as one with a single copy.
    d = no_draw_deal("AH 5H 4D", "KH")
    view, hands = d.view(S), [int(d.hand(s)) for s in d.rules.seating.seats]
    ace = hands[E] & copies("AH AH")
    both_fours, one_four = list(hands), list(hands)
    both_fours[E] = hands[E] & ~ace | Card.parse("4H").twin.bit  # the other 4 lay in the dead stock
    one_four[E] = hands[E] & ~ace | Card.parse("5C").bit
    likelihood = PlayLikelihood()
    assert likelihood(view, both_fours) == likelihood(view, one_four) > 0


# =============================================================================
# Discard and rob: twelve cards
# =============================================================================
def keep_phase() -> Deal:
    """The deal of the tracker tests, at W's keep (seventeen trumps for twelve places)."""
    d = Deal(OFFICIAL, E, two_deck_table(E, PLAY_HANDS))
    play(d, "pass", "pass", "bid 2", "pass", "trump H")
    while d.to_act != W:
        d.apply(d.legal_actions()[0])
    return d


def test_a_defender_keeps_twelve_trumps_with_every_point_card():
    d = keep_phase()
    action = heuristic().choose(d.view(W))
    assert isinstance(action, Keep) and action in d.legal_actions()
    assert len(action.cards) == 12 == OFFICIAL.seating.hand
    # Official: a point card a defender throws scores for the makers; W throws none of them, and no
    # high trump: the five lowest plain trumps go.
    assert str(d.hand(W) - action.cards) == "9H 8H 7H 6H 6H 2C"


def test_the_dealer_robs_twelve_cards():
    d = keep_phase()
    play(d, PLAY_KEEP)
    while d.to_act != E:
        d.apply(d.legal_actions()[0])
    assert d.phase is Phase.ROB
    action = heuristic().choose(d.view(E))
    assert isinstance(action, Keep) and action in d.legal_actions() and len(action.cards) == 12


# =============================================================================
# Bidding: twice the points
# =============================================================================
def opening_bid(rules: Rules, hand: str) -> int:
    """What the heuristic opens with ``hand`` as the first to speak at four (0 for a pass)."""
    rest = {N: "", W: "", E: ""}
    words = [str(c) for c in CARDS for _ in range(2)]
    for c in hand.split():
        words.remove(str(Card.parse(c)))
    for i, seat in enumerate(rest):
        rest[seat] = " ".join(words[18 * i:18 * i + 18])
    d = Deal(rules, E, two_deck_table(E, {S: hand, **rest}, rules=rules))
    action = heuristic().choose(d.view(S, score=(0, 0), target=rules.target))
    assert action in d.legal_actions()
    return action.amount if isinstance(action, Bid) else 0


def test_a_weak_hand_passes_and_a_strong_one_bids_high():
    assert opening_bid(OFFICIAL, "AH 7S 8S 9C 2D 4D 6C JS 3C 7S 8S 9C 2D 4D 6C JS 3C 9S") == 0
    strong = opening_bid(OFFICIAL, "AH AH KH KH QH JH TH 5H 5H 5D 2H 3H AS 7S 8C 3C 9D 4D")
    assert strong >= 14  # half the 28 points, twice what a one-deck bid of 7 is


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_auction_is_won_at_many_levels_never_at_the_top(players):
    # Heuristic players bid on twice the points: some deals are bid, at different levels (the
    # minimum is 2), and none at the 28 of the whole deal.  (At two players few are: most of the
    # points lie dead in the stock, as with one pack.)
    rules = OFFICIAL.with_options(players=players)
    bot, rng = heuristic(), random.Random(players)
    context = dict(score=(0,) * rules.seating.sides, target=rules.target)
    contracts = []
    for _ in range(100):
        d = Deal.shuffled(rules, rules.seating.seats[0], rng)
        while d.phase is Phase.BIDDING:
            assert d.to_act is not None
            action = bot.choose(d.view(d.to_act, **context))
            assert action in d.legal_actions()
            d.apply(action)
        if d.maker is not None:
            contracts.append(d.high_bid)
    assert len(set(contracts)) >= 3, contracts
    assert max(contracts) < rules.highest_bid == 28


def test_two_deck_hands_are_valued_on_twice_the_points():
    # The same eighteen cards as two one-deck hands: worth about twice what each is worth alone.
    one, two = Rules.preset("official"), OFFICIAL
    rng = random.Random(2)
    ratios = []
    for _ in range(100):
        cards = rng.sample(range(DECK_SIZE), 9)
        hand = sum(1 << c for c in cards)
        suit = best_suit(hand, one, 1)[0]
        ratios.append(expected_points(hand | hand << DECK_SIZE, suit, two, 1) / expected_points(hand, suit, one, 1))
    assert 1.4 < sum(ratios) / len(ratios) < 2.6


# =============================================================================
# Every bot, every table: legal decisions; the basic bot's count; the arena
# =============================================================================
@pytest.mark.parametrize("bot", ["heuristic", "basic", "random"])
@pytest.mark.parametrize("players,options", [(2, {}), (3, {}), (4, {}), (4, {"bowers": True}), (5, {}),
                                              (6, {"no_draw": True}), (4, {"preset": "pagat"})])
def test_every_decision_is_legal_at_every_table(bot, players, options):
    options = dict(options)
    rules = Rules.preset(options.pop("preset", "official")).with_options(decks=2, players=players, **options)
    rng = random.Random(players)
    bots = [make_bot(bot, seed=i) for i in range(players)]
    for n in range(3):
        d = Deal.shuffled(rules, rules.seating.seats[n % players], rng)
        while d.phase is not Phase.DONE:
            seat = d.to_act
            assert seat is not None
            action = bots[seat].choose(d.view(seat))
            assert d.is_legal(action), f"{bot}: {action} is not legal"
            d.apply(action)
        assert d.result is not None


def test_the_basic_bot_counts_both_packs():
    hand = int(CardSet.parse("AH AH KH 5H 5H 5D 2H 7S 8C", decks=2))
    weak = int(CardSet.parse("7S 8S 9C 2D 4D 6C JS 3C 4S", decks=2))
    value = hand_value(hand, Suit.HEARTS, OFFICIAL, dealer=False)
    assert hand_value(weak, Suit.HEARTS, OFFICIAL, dealer=False) < OFFICIAL.min_bid * 3 < value <= 28


def test_the_heuristic_beats_random_at_two_decks():
    result = run_duplicate("heuristic", "random", OFFICIAL, deals=4, seed=3, workers=1)
    assert not result.problems, result.problems
    low, _ = result.ci95
    assert low is not None and low > 0, result.to_markdown()
