"""Worlds sampled from one seat's view (``cinch.worlds``).

A sampled world must be a legal deal whose view from the seat equals the seat's view in
every field, in every phase, under every preset and option; the cards the seat cannot see
must really vary; shown voids must hold.
"""

from __future__ import annotations

import math
import random
import statistics
from collections import defaultdict

import pytest

import cinch.worlds as worlds
from cinch import CARDS, PRESET_NAMES, Deal, Rules, Seat
from cinch.bots.base import make_bot
from cinch.cards import SUIT_MASKS, TRUMP_TABLES
from cinch.errors import IllegalAction
from cinch.view import Phase
from cinch.worlds import (
    DEFAULT_FLOOR,
    WorldError,
    public_actions,
    same_view,
    sample_deal,
    sample_hands,
    sample_weighted,
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
    assert checked > 10


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


# ---------------------------------------------------------------------------------------------
# Weighting by the bidding: the same worlds, for fewer draws
# ---------------------------------------------------------------------------------------------
def rejection_before(view, rng, weight, do_replay):
    """The sampling loop as it was before rejection control, kept as the reference: every drawn
    world replayed, then weighed, then kept with probability ``weight``; after 64 weighted worlds,
    the likeliest seen."""
    actions = public_actions(view) if do_replay else []
    best = None
    tries = 0
    for _ in range(400):
        try:
            world = worlds._draw_world(view, rng)
        except worlds._Inconsistent:
            continue
        if world is None:
            continue
        if do_replay:
            try:
                deal = worlds.replay(view.rules, world, actions, stop_at_restock=view.phase is Phase.RESTOCK)
            except IllegalAction:
                continue
            if not same_view(deal.view(view.seat), view):
                continue
        w = float(weight(view, tuple(world.dealt)))
        if best is None or w > best[0]:
            best = (w, world)
        if rng.random() < w:
            return world
        tries += 1
        if tries >= 64:
            break
    return best[1]


class SuitWeight:
    """A product of one factor (at most 1) per other seat: ``exp(-rate * |suit cards dealt - wanted|)``,
    the shape of a bid likelihood, cheap to compute.  ``stops_early`` turns on ``stop_below``."""

    def __init__(self, seat: Seat, suit: int, wanted: int, rate: float = 1.0, stops_early: bool = False):
        self.seats = [s for s in range(4) if s != seat]
        self.mask = SUIT_MASKS[suit]
        self.wanted, self.rate, self.stops_early = wanted, rate, stops_early
        self.factors = 0  # factors computed, to see what stopping early saves

    def __call__(self, view, dealt, stop_below: float = 0.0) -> float:
        assert stop_below == 0.0 or self.stops_early
        w = 1.0
        for s in self.seats:
            self.factors += 1
            w *= math.exp(-self.rate * abs((dealt[s] & self.mask).bit_count() - self.wanted))
            if w < stop_below:
                return w
        return w


def test_rejection_returns_the_worlds_it_returned_before():
    """sample_deal and sample_hands still draw exactly the worlds the rejection loop drew before (the same
    random draws, in the same order), whether or not the weight stops early; stopping early computes
    fewer factors; and a weight that rejects nearly everything falls back on the same likeliest world."""
    compared = fallbacks = 0
    factors = {False: 0, True: 0}
    for preset in PRESET_NAMES:
        rules = Rules.preset(preset)
        rng = random.Random(3)
        snaps = pick(walk(rules, 3), rng, extra=0)
        for i, snap in enumerate(snaps):
            view = snap.view(Seat(i % 4))
            # wanted 2: about one world in ten kept; wanted 9: below 1/64 nearly everywhere, a fallback
            for rate, wanted in ((1.0, 2), (6.0, 9)) if i < 2 else ((1.0, 2),):
                weights = {early: SuitWeight(view.seat, 1, wanted, rate, stops_early=early) for early in factors}
                old_deal = rejection_before(view, random.Random(i), weights[False], do_replay=True)
                old_hands = rejection_before(view, random.Random(i), weights[False], do_replay=False).hands
                for early, weight in weights.items():
                    deal = sample_deal(view, random.Random(i), weight=weight)
                    assert deal.deck == tuple(CARDS[c] for c in old_deal.deck), (preset, view.phase, early)
                    before = weight.factors
                    assert sample_hands(view, random.Random(i), weight=weight) == old_hands
                    if rate == 1.0:  # (a fallback weighs its candidates in full again: not counted)
                        factors[early] += weight.factors - before
                    s = sample_weighted(view, random.Random(i), weight=weight, floor=1.0, verify=False)
                    assert s.hands == old_hands and s.weight == 1.0
                    fallbacks += s.fallback
                compared += 1
    assert compared > 30 and fallbacks > 5
    assert factors[True] < 0.8 * factors[False]


def exact_suit_count(view, seat: Seat, suit: int, rate: float) -> list[float]:
    """Before the trumps, every deal the seat cannot tell apart is equally likely; weighted by
    ``exp(-rate * k)`` for ``k`` cards of ``suit`` dealt to ``seat``, the chance of each ``k``."""
    unknown = 52 - 9
    left = 13 - (int(view.hand) & SUIT_MASKS[suit]).bit_count()
    raw = [math.comb(left, k) * math.comb(unknown - left, 9 - k) * math.exp(-rate * k) for k in range(10)]
    total = sum(raw)
    return [x / total for x in raw]


def weighted_mean(values: list[float], weights: list[float]) -> tuple[float, float]:
    """The weighted mean and its standard error (self-normalised importance sampling)."""
    total = sum(weights)
    mean = sum(w * x for w, x in zip(weights, values)) / total
    se = math.sqrt(sum((w * (x - mean)) ** 2 for w, x in zip(weights, values))) / total
    return mean, se


def test_weighted_worlds_have_the_distribution_of_the_rejection_sampler():
    """The frequency of a card in a seat (and of each count of hearts there) agrees between the
    rejection sampler, the weighted sampler's weighted worlds and the exact value, within four standard
    errors; the weighted sampler's worlds counted without their weights do not (so the test can fail)."""
    deal = Deal.shuffled(Rules.preset("difference"), Seat.W, rng=12)
    view = deal.view(Seat.N)
    east, hearts, rate = Seat.E, 1, 1.0
    weight = lambda v, dealt: math.exp(-rate * (dealt[east] & SUIT_MASKS[hearts]).bit_count())  # noqa: E731
    exact = exact_suit_count(view, east, hearts, rate)
    card = next(c for c in range(13, 26) if not int(view.hand) >> c & 1)  # a heart N does not hold
    left = 13 - (int(view.hand) & SUIT_MASKS[hearts]).bit_count()
    exact_card = sum(k * p for k, p in enumerate(exact)) / left  # each heart out is as likely to be E's

    n = 3000
    rng = random.Random(2024)
    old = [sample_hands(view, rng, weight=weight)[east] for _ in range(n)]
    rng = random.Random(2025)
    new = [sample_weighted(view, rng, weight=weight, verify=False) for _ in range(n)]
    weights = [s.weight for s in new]
    assert min(weights) == DEFAULT_FLOOR and max(weights) == 1.0  # both kinds of world came up
    assert sum(s.draws for s in new) < 0.5 * n * (1 / sum(p * math.exp(-rate * k) for k, p in
                                                      enumerate(exact_suit_count(view, east, hearts, 0.0))))

    def held(hand: int) -> float:
        return float(hand >> card & 1)

    old_p = statistics.fmean(held(h) for h in old)
    old_se = math.sqrt(old_p * (1 - old_p) / n)
    new_p, new_se = weighted_mean([held(s.world.hands[east]) for s in new], weights)
    assert abs(old_p - exact_card) < 4 * old_se
    assert abs(new_p - exact_card) < 4 * new_se
    assert abs(new_p - old_p) < 4 * math.hypot(old_se, new_se)
    for k in range(4):  # the number of hearts E was dealt: 0 to 3 hold nearly all the mass
        old_k = statistics.fmean(float((h & SUIT_MASKS[hearts]).bit_count() == k) for h in old)
        new_k, se_k = weighted_mean([float((s.world.hands[east] & SUIT_MASKS[hearts]).bit_count() == k)
                                     for s in new], weights)
        assert abs(old_k - exact[k]) < 4 * math.sqrt(exact[k] * (1 - exact[k]) / n), k
        assert abs(new_k - exact[k]) < 4 * se_k, k
    raw_p = statistics.fmean(held(s.world.hands[east]) for s in new)  # the weights left out
    assert abs(raw_p - exact_card) > 6 * math.sqrt(exact_card * (1 - exact_card) / n)


def test_weighted_worlds_with_the_bid_inference_match_the_rejection_sampler():
    """The expert's bid inference in a preset bidding from 1: after E bids 7 and S passes, the weighted
    worlds give E as many aces, kings, queens and jacks as the rejection sampler's worlds, more than an
    unweighted draw does, for less than half the draws."""
    from cinch.bots.inference import BidLikelihood

    rules = Rules.preset("difference")
    heuristic = make_bot("heuristic", seed=0)
    for seed in range(400):  # a deal where E bids 7 and S passes, by the heuristic's own bidding
        deal = Deal.shuffled(rules, Seat.N, rng=seed)
        play(deal, str(heuristic.choose(deal.view(Seat.E))))
        if deal.high_bid == 7:
            play(deal, str(heuristic.choose(deal.view(Seat.S))))
            if deal.high_bid == 7:
                break
    view = deal.view(Seat.W)
    assert [str(a) for _, a in view.auction] == ["bid 7", "pass"]
    likelihood = BidLikelihood(1.0)
    top = sum(0b1111 << 13 * s for s in range(4))  # A K Q J of each suit

    def count(hands) -> float:
        return float((hands[Seat.E] & top).bit_count())

    n = 300
    rng = random.Random(5)
    # floor=1 is the rejection sampler itself (sample_hands's), counting the worlds it drew
    rejected = [sample_weighted(view, rng, weight=likelihood, floor=1.0, verify=False) for _ in range(n)]
    old = [count(s.hands) for s in rejected]
    new = [sample_weighted(view, rng, weight=likelihood, verify=False) for _ in range(n)]
    plain = [count(sample_hands(view, rng)) for _ in range(n)]
    old_mean, old_se = statistics.fmean(old), statistics.stdev(old) / math.sqrt(n)
    new_mean, new_se = weighted_mean([count(s.hands) for s in new], [s.weight for s in new])
    plain_mean, plain_se = statistics.fmean(plain), statistics.stdev(plain) / math.sqrt(n)
    assert abs(new_mean - old_mean) < 4 * math.hypot(old_se, new_se)
    assert old_mean - plain_mean > 4 * math.hypot(old_se, plain_se)  # the inference does move the worlds
    assert new_mean - plain_mean > 4 * math.hypot(new_se, plain_se)
    assert sum(s.draws for s in new) < 0.5 * sum(s.draws for s in rejected)


def test_sample_weighted():
    deal = Deal.shuffled(Rules.preset("official"), Seat.S, rng=3)
    rng = random.Random(1)
    while deal.phase is not Phase.PLAY:
        deal.apply(rng.choice(deal.legal_actions()))
    view = deal.view(Seat.E)
    s = sample_weighted(view, random.Random(4))
    assert s.weight == 1.0 and s.draws >= 1 and not s.fallback  # no bid weight: every world is an exact draw
    assert same_view(s.deal.view(Seat.E), view) and s.hands == [int(s.deal.hand(x)) for x in Seat]
    assert sample_weighted(view, random.Random(4), verify=False).deal is None
    assert sample_weighted(view, random.Random(4), weight=lambda v, d: 0.3, floor=1.0).world.deck \
        == sample_world(view, random.Random(4), weight=lambda v, d: 0.3)[0].deck
    s = sample_weighted(view, random.Random(4), weight=lambda v, d: 0.3, floor=0.2)
    assert s.weight == pytest.approx(0.3) and s.draws == 1  # above the floor: kept at once, with its weight
    s = sample_weighted(view, random.Random(4), weight=lambda v, d: 0.0)
    assert s.fallback and s.weight == DEFAULT_FLOOR and s.draws == worlds.FALLBACK_TRIES
    for floor in (0.0, -1.0, 1.5):
        with pytest.raises(ValueError, match="floor"):
            sample_weighted(view, random.Random(4), floor=floor)


# ---- every table size --------------------------------------------------------------------------

CUT_THROAT = [2, 3, 5, 6]


def _random_views(rules: Rules, seed: int):
    """Every seat's view at every step of a deal played with random legal actions."""
    rng = random.Random(seed)
    deal = Deal.shuffled(rules, seed % rules.players, rng=seed)
    while deal.phase is not Phase.DONE:
        for seat in range(rules.players):
            yield deal.view(seat)
        deal.apply(rng.choice(deal.legal_actions()))


@pytest.mark.parametrize("players", CUT_THROAT)
@pytest.mark.parametrize("preset", ["official", "pagat", "additive", "difference"])
def test_worlds_at_every_table_size_replay_to_the_same_view(players, preset):
    """Five to six hands of six, two or three of nine with a long stock and no rob: every sampled
    world is a legal deal of that table whose view from the seat is the seat's view."""
    rules = Rules.preset(preset).with_options(players=players)
    table = rules.seating
    checked = 0
    for seed in range(2):
        for i, view in enumerate(_random_views(rules, seed)):
            if i % 3:
                continue
            world = sample_deal(view, random.Random(i))
            assert same_view(world.view(view.seat), view)
            assert len(world.hands) == players
            assert all(int(d).bit_count() == table.dealt for d in world.dealt)
            checked += 1
    assert checked > 10


@pytest.mark.parametrize("players", CUT_THROAT)
def test_cheap_worlds_keep_the_hand_the_sizes_and_the_voids(players):
    """The hands-only sampler of the play: the seat's own hand, every hand's size, no card a
    player showed he cannot hold, no card seen elsewhere; and the hidden cards really vary."""
    rules = Rules.preset("pagat").with_options(players=players)
    varied = 0
    for seed in range(3):
        for i, view in enumerate(_random_views(rules, seed)):
            if view.phase is not Phase.PLAY or i % 2:
                continue
            void = voids(view)
            seen = int(view.known_elsewhere)
            first = None
            for k in range(3):
                hands = sample_hands(view, random.Random(k))
                assert hands[view.seat] == int(view.hand)
                assert [h.bit_count() for h in hands] == list(view.hand_sizes)
                for p, h in enumerate(hands):
                    assert not h & void[p]
                    if p != view.seat:
                        assert not h & seen
                first = first if first is not None else hands
                varied += hands != first
    assert varied


def test_a_three_player_world_deals_the_stock_nobody_saw():
    """At three players nobody robs: the 25 cards left in the stock are unseen, so the world's
    stock holds cards the view cannot place, and the dealer discards and draws like the others."""
    rules = Rules.preset("official").with_options(players=3)
    deal = Deal.shuffled(rules, 0, rng=11)
    rng = random.Random(3)
    while deal.phase is not Phase.PLAY:
        deal.apply(rng.choice(deal.legal_actions()))
    view = deal.view(0)
    assert not view.stock_seen
    worlds_ = [sample_world(view, random.Random(k))[0] for k in range(4)]
    assert all(len(w.stock) == rules.seating.stock == 25 for w in worlds_)
    assert all(w.rob is None for w in worlds_)
    assert len({tuple(sorted(w.stock)) for w in worlds_}) > 1


# ---- two decks ----------------------------------------------------------------------------------
# Two-deck Cinch: 104 cards, card 52 + k the twin of card k (the same text, equal in play).

TWIN = 52


def _two_deck_views(players: int = 4, preset: str = "official", seeds: range = range(3)):
    rules = Rules.preset(preset).with_options(decks=2, players=players)
    for seed in seeds:
        yield from _random_views(rules, seed)


@pytest.mark.parametrize("preset,players", [("official", 4), ("additive", 4), ("pagat", 4), ("official", 2),
                                            ("official", 3), ("official", 6)])
def test_two_deck_worlds_replay_to_the_same_view(preset, players):
    """Two packs: hands of eighteen (twelve at five or six) dealt and twelve kept, a card's text held
    twice.  Every sampled world deals each of the 104 cards once and is a legal deal whose view from
    the seat is the seat's view, in every phase."""
    phases = set()
    for i, view in enumerate(_two_deck_views(players, preset, range(2))):
        if i % 6 and view.phase in phases:
            continue
        world, deal = sample_world(view, random.Random(i))
        assert same_view(deal.view(view.seat), view), (view.phase, i)
        assert sorted(world.deck) == list(range(2 * TWIN))
        phases.add(view.phase)
    assert {Phase.BIDDING, Phase.TRUMP, Phase.PLAY} <= phases


def _view_where(test, players: int = 4):
    return next(v for v in _two_deck_views(players, seeds=range(20)) if test(v))


def test_a_seat_holding_both_copies_of_a_card_sees_no_third_in_any_world():
    view = _view_where(lambda v: v.phase is Phase.PLAY and int(v.hand) & int(v.hand) >> TWIN)
    hand = int(view.hand)
    pair = (hand & hand >> TWIN).bit_length() - 1  # a card the seat holds both copies of
    both = 1 << pair | 1 << (pair + TWIN)
    for k in range(6):
        world, _ = sample_world(view, random.Random(k))
        elsewhere = sum(h for p, h in enumerate(world.hands) if p != view.seat)
        stock = sum(1 << c for c in world.stock)
        assert not (elsewhere | stock) & both
        for p, h in enumerate(sample_hands(view, random.Random(k))):
            assert p == view.seat or not h & both


def test_unseen_twins_are_dealt_to_the_others_or_left_in_the_stock():
    """A card the seat holds one copy of, its twin seen nowhere: the twin is somewhere in every world,
    and not always in the same place."""
    def single_unseen(v):
        if v.phase is not Phase.PLAY:
            return False
        hand = int(v.hand)
        seen = int(v.known_elsewhere) & ~hand
        return bool((hand & ~(hand >> TWIN)) & ~(seen | seen >> TWIN) & ((1 << TWIN) - 1))
    view = _view_where(single_unseen)
    hand = int(view.hand)
    seen = int(view.known_elsewhere) & ~hand
    card = ((hand & ~(hand >> TWIN)) & ~(seen | seen >> TWIN) & ((1 << TWIN) - 1)).bit_length() - 1
    twin = card + TWIN
    places = set()
    for k in range(12):
        world, _ = sample_world(view, random.Random(k))
        holders = [p for p, h in enumerate(world.hands) if h >> twin & 1]
        place = holders[0] if holders else "stock or discards"
        assert len(holders) <= 1 and view.seat not in holders
        assert sum(h >> twin & 1 for h in world.dealt) + world.stock.count(twin) == 1
        places.add(place)
    assert len(places) > 1


def test_a_player_who_played_a_twin_holds_no_first_copy():
    """A play names a card and the deal plays the first pack's copy when the player holds both: a
    player seen playing the second copy did not hold the first, in any world."""
    def twins_played(v):
        """(seat, first copy) of each twin another seat played whose first copy the seat never saw."""
        unseen = ~int(v.known_elsewhere)
        return [(p.seat, p.card - TWIN) for t in v.tricks for p in t.plays
                if p.seat != v.seat and p.card >= TWIN and unseen >> (p.card - TWIN) & 1]
    view = _view_where(twins_played)
    player, first = twins_played(view)[0]
    assert voids(view)[player] >> first & 1
    for k in range(6):
        assert not sample_hands(view, random.Random(k))[player] >> first & 1


@pytest.mark.parametrize("preset", ["official", "pagat", "double-pedro"])
def test_a_views_worlds_do_not_depend_on_the_views_drawn_before(preset):
    # The sampler works out once what it draws from for the latest view in the play (its plan and slot
    # models) and reuses it for that view's next worlds: a view's worlds, for a seed, are the same drawn in
    # a row as drawn each between worlds of other views.
    bots = [make_bot("heuristic", seed=s) for s in range(4)]
    views = []
    deal = Deal.shuffled(Rules.preset(preset), Seat.W, random.Random(8))
    while not deal.is_over:
        view = deal.view(deal.to_act)
        if view.phase is Phase.PLAY and len(view.legal) > 1:
            views.append(view)
        deal.apply(bots[int(deal.to_act)].choose(view))
    assert len(views) > 6
    in_a_row = {}
    for i, view in enumerate(views):
        rng = random.Random(i)
        in_a_row[i] = [sample_weighted(view, rng, verify=False).hands for _ in range(5)]
    rngs = {i: random.Random(i) for i in range(len(views))}
    mixed: dict[int, list] = defaultdict(list)
    for _ in range(5):
        for i, view in reversed(list(enumerate(views))):
            mixed[i].append(sample_weighted(view, rngs[i], verify=False).hands)
    assert mixed == in_a_row
    for i, view in enumerate(views):  # and each world is one of that view's, not of the view drawn before
        for hands in in_a_row[i]:
            assert hands[int(view.seat)] == int(view.hand)
            assert [h.bit_count() for h in hands] == list(view.hand_sizes)
