"""The features of a view: the same numbers for the same position whoever sits where and whatever the trumps."""

from __future__ import annotations

import random

import numpy as np
import pytest

from cinch import Deal, Rules
from cinch.actions import Bid, Keep, NameTrump, Pass, Play
from cinch.bots import make_bot
from cinch.cards import ALL_CARDS, CardSet, Suit, bit_list
from cinch.neural.features import ACTION_SLOTS, CHANNELS, FEATURES, LOCATIONS, PRESETS, coverage, encode
from cinch.view import Phase

# Colour-keeping suit maps (S and C are black, H and D red): swap within a colour, swap the colours.
SUIT_MAPS = [(3, 2, 1, 0), (1, 0, 3, 2), (2, 3, 0, 1)]


def card_map(suits: tuple[int, ...]) -> list[int]:
    return [suits[c // 13] * 13 + c % 13 for c in range(52)]


def mapped_mask(mask: int, cards: list[int]) -> CardSet:
    return CardSet(sum(1 << cards[c] for c in bit_list(int(mask))))


def mapped(action, cards: list[int], suits: tuple[int, ...]):
    if isinstance(action, (Bid, Pass)):
        return action
    if isinstance(action, NameTrump):
        return NameTrump(Suit(suits[action.suit]))
    if isinstance(action, Keep):
        return Keep(mapped_mask(action.cards, cards))
    assert isinstance(action, Play)
    return Play(ALL_CARDS[cards[action.card]], mapped_mask(action.bury, cards))


def played_deal(preset: str, seed: int) -> Deal:
    rules = Rules.preset(preset)
    deal = Deal.shuffled(rules, seed % 4, rng=seed)
    bots = [make_bot("heuristic", seed=i) for i in range(4)]
    while not deal.is_over:
        seat = deal.to_act
        deal.apply(bots[seat].choose(deal.view(seat)))
    return deal


@pytest.mark.parametrize("preset", PRESETS)
def test_rotating_the_seats_and_the_suits_gives_the_same_features(preset):
    heuristic = make_bot("heuristic", seed=0)
    checked = set()
    for seed in range(3):
        deal = played_deal(preset, seed)
        for turn, suits in enumerate(SUIT_MAPS):
            shift = turn + 1
            cards = card_map(suits)
            deck = [cards[c] for c in deal.deck]
            restock = None if deal.restock is None else [cards[c] for c in deal.restock]
            one = Deal(deal.rules, deal.dealer, list(deal.deck), restock=deal.restock)
            two = Deal(deal.rules, (deal.dealer + shift) % 4, deck, restock=restock)
            for action in deal.history:
                seat = one.to_act
                a, b = one.view(seat), two.view((seat + shift) % 4)
                if len(a.legal) > 1:
                    hint = heuristic.choose(a)
                    x, y = encode(a, hint), encode(b, mapped(hint, cards, suits))
                    assert np.array_equal(x.x, y.x), (preset, seed, len(one.history), a.phase)
                    assert np.array_equal(x.legal, y.legal) and np.array_equal(x.allowed, y.allowed)
                    assert np.array_equal(x.unseen, y.unseen)
                    checked.add(a.phase)
                one.apply(action)
                two.apply(mapped(action, cards, suits))
    assert {Phase.BIDDING, Phase.TRUMP, Phase.PLAY} <= checked


def test_the_suits_place_follows_the_trumps_and_the_left_pedro():
    deal = played_deal("official", 1)
    again = Deal(deal.rules, deal.dealer, list(deal.deck), restock=deal.restock)
    for action in deal.history:
        view = again.view(again.to_act)
        if view.phase is Phase.PLAY and len(view.legal) > 1:
            e = encode(view)
            t = view.rules.trump_tables[view.trump]
            assert e.cards[:14] == t.order  # the trumps in trump order, the left Pedro in its place
            assert e.suits[0] == view.trump and e.suits[1] == (3, 2, 1, 0)[view.trump]
            assert sorted(e.cards) == list(range(52))
            break
        again.apply(action)


def test_sizes_and_the_action_slots():
    view = Deal.shuffled(Rules.preset("pagat"), 0, rng=2).view(1)
    e = encode(view)
    assert e.x.shape == (FEATURES,) and e.x.dtype == np.float32
    assert e.legal.shape == (ACTION_SLOTS["bid"],) and e.allowed.shape == (52, len(LOCATIONS))
    assert e.legal[0] and not e.legal[1:7].any()  # pagat bids from 7; the pass is slot 0


def test_the_places_allowed_follow_the_view():
    """A card the seat has seen has no place; an unseen card may be in any hand before the play."""
    view = Deal.shuffled(Rules.preset("official"), 0, rng=5).view(2)
    e = encode(view)
    hand = {e.slot_of(c) for c in bit_list(int(view.hand))}
    assert not e.allowed[sorted(hand)].any()
    others = [i for i in range(52) if i not in hand]
    assert e.allowed[others].all()  # three hands of nine and a stock of sixteen


@pytest.mark.parametrize("rules, words", [
    (Rules.preset("official").with_options(players=3), "three players"),
    (Rules.preset("pagat").with_options(decks=2), "two decks"),
    (Rules.preset("official").with_options(honour_rule=True), "honour rule"),
    (Rules.preset("additive").with_options(sancho=True), "sancho changed"),
])
def test_what_the_models_do_not_cover(rules, words):
    assert words in coverage(rules)


def test_a_changed_target_is_covered():
    assert coverage(Rules.preset("official").with_options(target=21, makers_count_first=True)) is None
    assert all(coverage(Rules.preset(p)) is None for p in PRESETS)


def test_features_come_from_the_view_alone_the_other_hands_change_nothing():
    """Two deals that one seat cannot tell apart (the same view) give that seat the same features."""
    from cinch.worlds import sample_deal

    rng = random.Random(3)
    for seed in range(4):
        deal = played_deal("difference", seed)
        again = Deal(deal.rules, deal.dealer, list(deal.deck), restock=deal.restock)
        for k, action in enumerate(deal.history):
            seat = again.to_act
            view = again.view(seat)
            if k % 5 == 0 and len(view.legal) > 1:
                other = sample_deal(view, rng)  # another deal with the same view from this seat
                assert other.hands != again.hands or not any(view.hand_sizes[s] for s in range(4) if s != seat)
                assert np.array_equal(encode(view).x, encode(other.view(seat)).x)
            again.apply(action)


@pytest.mark.parametrize("preset", ["official", "pagat"])
def test_the_tactics_channels_say_what_a_card_would_do(preset):
    """Played to the last place of a trick, a card marked to take it takes it; a card marked master has no
    stronger card of its suit in another hand; and the count of stronger cards out is never below the
    count the other hands truly hold."""
    channels = {name: i for i, name in enumerate(CHANNELS)}
    checked = {"takes": 0, "master": 0}
    for seed in range(6):
        deal = played_deal(preset, seed)
        again = Deal(deal.rules, deal.dealer, list(deal.deck), restock=deal.restock)
        for action in deal.history:
            seat = again.to_act
            view = again.view(seat)
            if view.phase is Phase.PLAY:
                e = encode(view)
                grid = e.x[:52 * len(CHANNELS)].reshape(52, len(CHANNELS))
                t = view.rules.trump_tables[view.trump]
                others = 0
                for s in range(4):
                    if s != seat:
                        others |= int(again.hand(s))
                for c in bit_list(int(view.hand)):
                    row = grid[e.slot_of(c)]
                    suit = t.effective_suit[c]
                    truly = sum(1 for o in bit_list(others)
                                if t.effective_suit[o] == suit and t.strength[suit][o] > t.strength[suit][c])
                    assert round(float(row[channels["stronger out / 13"]]) * 13) >= truly
                    assert bool(row[channels["master"]]) == (row[channels["stronger out / 13"]] == 0)
                    if row[channels["master"]]:
                        assert truly == 0
                        checked["master"] += 1
                if len(view.current_trick) == 3:
                    for a in view.legal:
                        trial = again.copy()
                        trial.apply(a)
                        took = trial.tricks[-1].winner == seat
                        assert took == bool(grid[e.slot_of(a.card), channels["takes the trick"]])
                        checked["takes"] += 1
            again.apply(action)
    assert checked["takes"] > 20 and checked["master"] > 20
