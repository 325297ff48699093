"""Worlds sampled from one seat's view (``cinch.worlds``).

A sampled world must be a legal deal whose view from the seat equals the seat's view in
every field, in every phase, under every preset and option; the cards the seat cannot see
must really vary; shown voids must hold.
"""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

from cinch import CARDS, PRESET_NAMES, Deal, Rules, Seat
from cinch.cards import TRUMP_TABLES
from cinch.view import Phase
from cinch.worlds import (
    WorldError,
    public_actions,
    same_view,
    sample_deal,
    sample_hands,
    sample_world,
    voids,
)
from helpers import RESTOCK, STUCK_N, TABLE_SHORT, play

OPTION_SETS = [
    dict(bidding="auction", follow="strict", sancho=True),
    dict(no_draw=True),
    dict(discard="choose-concealed"),
    dict(stock_out="share"),
    dict(above_six="keep-six"),
    dict(rob="all-trumps"),
    dict(rob="any-six", stock_out="reshuffle"),
    dict(sancho=True, dom_pedro=True, follow="strict"),
    dict(discard="all-face-up", rob="trumps-first"),
]
OPTION_PRESETS = ["additive", "difference", "official", "double-pedro", "pagat", "difference", "additive",
                  "pagat", "official"]


def walk(rules: Rules, seed: int) -> list[Deal]:
    """Snapshots of one random deal, every step, the new stock left to chance (RESTOCK phase kept).

    Bids favour the lowest bid and trumps favour the suit the table holds least of, so that
    deals get played and stocks run out.
    """
    rng = random.Random(seed)
    deck = list(CARDS)
    rng.shuffle(deck)
    deal = Deal(rules, Seat(rng.randrange(4)), deck)
    snaps = [deal.copy()]
    while not deal.is_over:
        if deal.phase is Phase.RESTOCK:
            order = list(deal.restock_pool)
            rng.shuffle(order)
            deal.apply_restock(order)
        else:
            legal = deal.legal_actions()
            action = rng.choice(legal)
            if deal.phase is Phase.BIDDING and len(legal) > 1 and rng.random() < 0.6:
                action = legal[1]
            if deal.phase is Phase.TRUMP and rng.random() < 0.6:
                action = min(legal, key=lambda a: sum((h & TRUMP_TABLES[a.suit].trumps).bit_count()
                                                      for h in deal.hands))
            deal.apply(action)
        snaps.append(deal.copy())
    return snaps


def pick(snaps: list[Deal], rng: random.Random, extra: int = 2) -> list[Deal]:
    """One snapshot of every phase the deal went through, plus a few at random."""
    by_phase = defaultdict(list)
    for s in snaps:
        by_phase[s.phase].append(s)
    return [rng.choice(v) for v in by_phase.values()] + rng.sample(snaps, min(extra, len(snaps)))


def check_views(rules: Rules, seeds: range, counts: dict) -> None:
    for seed in seeds:
        rng = random.Random(seed)
        for snap in pick(walk(rules, seed), rng):
            for seat in Seat:
                view = snap.view(seat)
                deal = sample_deal(view, rng)
                assert same_view(deal.view(seat), view), (rules.name, seed, seat, view.phase)
                counts[view.phase] += 1


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_sampled_worlds_reproduce_the_view_in_every_phase(preset):
    counts = defaultdict(int)
    check_views(Rules.preset(preset), range(14), counts)
    for phase in (Phase.BIDDING, Phase.TRUMP, Phase.PLAY, Phase.DONE):
        assert counts[phase], phase
    assert counts[Phase.ROB], counts
    if preset == "additive":  # the only preset whose discard is a choice
        assert counts[Phase.DISCARD], counts


@pytest.mark.parametrize("preset,options", list(zip(OPTION_PRESETS, OPTION_SETS)),
                         ids=[f"{p}-{'-'.join(o)}" for p, o in zip(OPTION_PRESETS, OPTION_SETS)])
def test_sampled_worlds_reproduce_the_view_under_options(preset, options):
    check_views(Rules.preset(preset).with_options(**options), range(5), defaultdict(int))


@pytest.mark.parametrize("preset", ["pagat", "difference", "official", "double-pedro"])
def test_a_stock_that_ran_out_and_was_remade(preset):
    """The stock runs out (N holds nine trumps): views before and after the new stock."""
    rules = Rules.preset(preset)
    actions = list(STUCK_N) if preset == "pagat" else ["bid 7", "pass", "pass", "pass", "trump H"]
    for restock in (None, RESTOCK):
        deal = Deal(rules, Seat.N, TABLE_SHORT, restock=None if restock is None else restock.split())
        if preset != "pagat":
            deal = Deal(rules, Seat.W, TABLE_SHORT, restock=None if restock is None else restock.split())
        play(deal, *actions)
        rng = random.Random(7)
        while True:
            for seat in Seat:
                view = deal.view(seat)
                for _ in range(3):
                    world = sample_deal(view, rng)
                    assert same_view(world.view(seat), view)
            if deal.phase is Phase.RESTOCK or deal.is_over:
                break
            deal.apply(rng.choice(deal.legal_actions()))
        if restock is not None:
            assert deal.restock is not None


def test_hidden_cards_really_vary():
    deal = Deal.shuffled(Rules.preset("pagat"), Seat.W, rng=11)
    rng = random.Random(3)
    while deal.phase is not Phase.PLAY:
        deal.apply(rng.choice(deal.legal_actions()))
    view = deal.view(Seat.N)
    seen_hands = defaultdict(set)
    where = defaultdict(set)  # card -> seats holding it across samples
    for _ in range(40):
        world = sample_deal(view, rng)
        for seat in Seat:
            seen_hands[seat].add(int(world.hand(seat)))
            for c in world.hand(seat):
                where[c].add(seat)
    assert len(seen_hands[Seat.N]) == 1  # the seat's own hand never changes
    for seat in (Seat.E, Seat.S, Seat.W):
        if deal.hand(seat):
            assert len(seen_hands[seat]) > 5
    hidden = [c for c, seats in where.items() if Seat.N not in seats]
    assert sum(1 for c in hidden if len(where[c]) > 1) > len(hidden) // 2


def test_worlds_are_deterministic_for_a_seed():
    deal = Deal.shuffled(Rules.preset("official"), Seat.S, rng=2)
    rng = random.Random(9)
    for _ in range(12):
        deal.apply(rng.choice(deal.legal_actions()))
    view = deal.view(Seat.E)
    a = sample_world(view, random.Random(42))[0]
    b = sample_world(view, random.Random(42))[0]
    assert a.deck == b.deck and a.restock == b.restock and a.keeps == b.keeps


def test_voids_shown_in_play_are_respected():
    """Find plays that showed a void (all-fours and strict) and check every world honours it."""
    found = 0
    for rules in (Rules.preset("pagat"), Rules.preset("additive").with_options(follow="strict")):
        for seed in range(40):
            for snap in walk(rules, seed):
                if snap.phase is not Phase.PLAY:
                    continue
                view = snap.view(Seat.N)
                void = voids(view)
                if not any(void[1:]):
                    continue
                found += 1
                rng = random.Random(seed)
                for _ in range(4):
                    hands = sample_hands(view, rng)
                    for seat in (1, 2, 3):
                        assert not hands[seat] & void[seat]
                    world = sample_deal(view, rng)
                    for seat in (1, 2, 3):
                        assert not int(world.hand(Seat(seat))) & void[seat]
                if found > 25:
                    return
    assert found > 5


def test_void_rule_under_all_fours_and_strict():
    """All-fours: a plain lead answered by a third suit shows a void in the suit led only
    (trumping says nothing); strict: trumping a plain lead shows a void too; a trump lead
    answered by a plain card shows no trumps."""
    from cinch.view import PlayedCard, Trick

    base = Deal.shuffled(Rules.preset("pagat"), Seat.W, rng=1).view(Seat.N)
    hearts = TRUMP_TABLES[1]

    def view_with(rules, plays):
        trick = Trick(Seat.N, tuple(PlayedCard(Seat(i), CARDS[c]) for i, c in enumerate(plays)), Seat.N)
        return base.__class__(**{**base.__dict__, "rules": rules, "trump": 1, "tricks": (trick,)})

    ks, qs, ah, ac, td = 1, 2, 13, 39, 30  # KS QS AH AC TD
    pagat = Rules.preset("pagat")
    strict = pagat.with_options(follow="strict")
    v = voids(view_with(pagat, [ks, ac, ah, qs]))  # E answers a spade lead with a club: void in spades
    assert v[1] == hearts.follow_masks[0] and v[2] == 0 and v[3] == 0  # S trumped: no void
    v = voids(view_with(strict, [ks, ac, ah, qs]))
    assert v[1] == hearts.follow_masks[0] and v[2] == hearts.follow_masks[0]
    v = voids(view_with(pagat, [ah, ks, td, ac]))  # a trump lead answered by plain cards
    assert v[1] == v[2] == v[3] == hearts.trumps


def test_forced_discards_fix_the_trumps_dealt():
    """Under 'every non-trump thrown', a player who kept k cards was dealt exactly k trumps
    (plus any shown): every world's dealt hands agree with the draw counts."""
    rng = random.Random(5)
    checked = 0
    for seed in range(20):
        deal = Deal.shuffled(Rules.preset("double-pedro"), Seat(seed % 4), rng=seed)
        while deal.phase is not Phase.PLAY and not deal.is_over:
            deal.apply(rng.choice(deal.legal_actions()))
        if deal.is_over:
            continue
        view = deal.view(Seat.N)
        trumps = TRUMP_TABLES[view.trump].trumps
        world, sampled = sample_world(view, rng)
        for seat in (1, 2, 3):
            if seat == view.dealer:
                continue
            dealt_trumps = (world.dealt[seat] & trumps).bit_count()
            kept = view.hand_sizes[seat] - view.drawn_counts[seat]
            assert dealt_trumps == kept + len(view.shown_trumps[seat])
            checked += 1
    assert checked > 20


def test_sample_hands_matches_a_verified_world():
    for preset in PRESET_NAMES:
        for seed in range(3):
            rng = random.Random(seed)
            for snap in pick(walk(Rules.preset(preset), seed), rng, extra=3):
                view = snap.view(Seat(seed % 4))
                hands = sample_hands(view, random.Random(1))
                world, deal = sample_world(view, random.Random(1))
                assert hands == [int(deal.hand(s)) for s in Seat] == world.hands
                assert hands[view.seat] == int(view.hand)
                assert [h.bit_count() for h in hands] == list(view.hand_sizes)
                assert sample_hands(view, rng, verify=True)


def test_bid_weight_hook():
    """Worlds are kept with the probability the weight gives them (rejection sampling)."""
    deal = Deal.shuffled(Rules.preset("pagat"), Seat.W, rng=4)
    view = deal.view(Seat.N)
    target = next(c for c in CARDS if c not in view.hand)

    def weight(v, dealt):
        assert v is view
        return 1.0 if dealt[Seat.E] >> target & 1 else 0.0

    rng = random.Random(2)
    for _ in range(10):
        world = sample_deal(view, rng, weight=weight)
        assert target in world.dealt[Seat.E]
    # The module default is used when no weight is passed.
    import cinch.worlds as w

    w.bid_weight = weight
    try:
        assert target in sample_deal(view, rng).dealt[Seat.E]
    finally:
        w.bid_weight = None


def test_public_actions_replay_the_view():
    deal = Deal.shuffled(Rules.preset("additive"), Seat.E, rng=8)
    rng = random.Random(1)
    while not deal.is_over:
        deal.apply(rng.choice(deal.legal_actions()))
    view = deal.view(Seat.S)
    texts = [str(a) for a in public_actions(view)]
    keeps = [str(a) for a in deal.history if str(a).startswith("keep")]
    assert texts == [str(a) for a in deal.history if str(a) not in keeps]


def test_an_impossible_view_raises():
    deal = Deal.shuffled(Rules.preset("pagat"), Seat.W, rng=4)
    rng = random.Random(2)
    while deal.phase is not Phase.PLAY:
        deal.apply(rng.choice(deal.legal_actions()))
    view = deal.view(Seat.N)
    broken = view.__class__(**{**view.__dict__, "drawn_counts": (9, 9, 9, 9)})
    with pytest.raises(WorldError):
        sample_deal(broken, rng, attempts=5)
