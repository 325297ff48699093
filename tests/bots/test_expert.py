"""The expert bot (cinch.bots.expert), its bid inference, and the test-only cheater.

- No bot reads hidden cards: for positions in every phase, a second deal that the seat
  cannot tell apart from the first (the same view, the hidden cards dealt otherwise:
  ``cinch.worlds.sample_deal``) gets the same decision from the same seed: random, basic,
  heuristic and expert.
- The expert always returns a legal action, under every preset and option.
- Endings any player would judge: it takes a trick carrying a Pedro when it surely can, it
  does not drop a Pedro under an opponent's boss trump, it feeds one to its partner's sure
  winner.
- Repeatable for a seed with ``worlds=N``; its hint (``explain``) carries an estimate.
- The cheater (sees every hand, plays the solver on them) beats the expert by a wide margin
  over a few duplicate pairs: no honest bot comes near the ceiling.

Budgets are tiny (a few worlds) to keep the file fast; strength is measured in the arena
(docs/strength.md).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

import pytest

from cinch import CARDS, PRESET_NAMES, Card, CardSet, Deal, Phase, Play, Rules, Seat
from cinch.actions import Bid, Pass
from cinch.bots import make_bot
from cinch.bots.expert import ExpertBot
from cinch.bots.inference import BidLikelihood
from cinch.keep import KeepOptions
from cinch.worlds import same_view, sample_deal
from helpers import PLAY_DECK, PLAY_START, deal, table

sys.path.insert(0, str(Path(__file__).parent))
from cheater import CheaterBot, play_duplicate  # noqa: E402

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
SMALL = {"worlds": 2, "playouts": 4, "max_seconds": 60.0}  # (no cap: the same seed plays the same, however busy)


def expert(seed: int = 1, **options) -> ExpertBot:
    return make_bot("expert", seed=seed, **{**SMALL, **options})  # type: ignore[return-value]


# =============================================================================
# Positions in every phase
# =============================================================================
def _kind(d: Deal) -> str:
    if d.phase is Phase.PLAY:
        if any(a.bury for a in d.legal_actions()):  # type: ignore[attr-defined]
            return "bury"
        return "play"
    return d.phase.value


def positions() -> list[tuple[str, Deal]]:
    """Deals stopped at a decision: bidding, trump, discard, rob, play, and a trick-1 burial."""
    wanted = {"bidding": 3, "trump": 2, "discard": 2, "rob": 3, "play": 5, "bury": 1}
    found: list[tuple[str, Deal]] = []
    rng = random.Random(7)
    heuristic = make_bot("heuristic", seed=0)
    presets = list(PRESET_NAMES)
    for i in range(400):
        if all(v <= 0 for v in wanted.values()):
            break
        r = Rules.preset(presets[i % len(presets)])
        if i % 3 == 0:
            r = Rules.preset("additive")  # choose-concealed: discards with a choice
        d = Deal.shuffled(r, Seat(i & 3), rng)
        stop = rng.randrange(40)
        k = 0
        while not d.is_over:
            kind = _kind(d)
            if len(d.legal_actions()) > 1 and wanted.get(kind, 0) > 0 and (k >= stop or kind in ("bury", "discard")):
                found.append((kind, d))
                wanted[kind] -= 1
                break
            d.apply(heuristic.choose(d.view(d.to_act)))
            k += 1
    assert all(v <= 0 for v in wanted.values()), wanted
    return found


POSITIONS = positions()


@pytest.mark.parametrize("name", ["random", "basic", "heuristic", "expert"])
def test_the_hidden_cards_do_not_change_any_decision(name):
    rng = random.Random(name)
    differed = 0
    for kind, d in POSITIONS:
        seat = d.to_act
        view = d.view(seat)
        twin = sample_deal(view, rng)  # another deal the seat cannot tell from this one
        twin_view = twin.view(seat)
        assert same_view(view, twin_view), kind
        differed += any(twin.hand(s) != d.hand(s) for s in Seat if s != seat)
        options = SMALL if name == "expert" else {}
        a = make_bot(name, seed=11, **options).choose(view)
        b = make_bot(name, seed=11, **options).choose(twin_view)
        assert a == b, (name, kind, str(a), str(b))
        assert d.is_legal(a) and twin.is_legal(b)
    assert differed >= len(POSITIONS) // 2  # the twins really hide other cards


# =============================================================================
# Always legal
# =============================================================================
OPTIONS = [
    {}, {"bidding": "auction"}, {"follow": "strict"}, {"sancho": True}, {"dom_pedro": True, "sancho": True},
    {"no_draw": True}, {"stock_out": "share"}, {"discard": "choose-concealed"}, {"rob": "trumps-first"},
    {"all_pass": "stuck-dealer"}, {"thrown_points": "defenders-to-makers"},
]


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_always_a_legal_action_under_every_preset_and_option(preset):
    rng = random.Random(preset)
    k = PRESET_NAMES.index(preset)
    # Each preset plays its own default and a share of the options: every option is played twice.
    mine = [{}] + [o for j, o in enumerate(OPTIONS[1:]) if j % 5 in (k, (k + 1) % 5)]
    for i, options in enumerate(mine):
        r = Rules.preset(preset).with_options(**options)
        d = Deal.shuffled(r, Seat(i & 3), rng)
        bots = (expert(seed=i, worlds=1), make_bot("heuristic", seed=i))
        expert_team = i & 1
        while not d.is_over:
            seat = d.to_act
            v = d.view(seat, score=(rng.randrange(0, 60), rng.randrange(0, 60)), target=r.target,
                       bidder_goes_out=i == 2)
            action = bots[0 if seat & 1 == expert_team else 1].choose(v)
            assert d.is_legal(action), (preset, options, str(action))
            d.apply(action)
        assert bots[0].last_error is None, (preset, options, repr(bots[0].last_error))  # never fell back


# =============================================================================
# Endings
# =============================================================================
# Hearts are trumps, N deals, E makes it: helpers.PLAY_DECK, the heuristic bot's card-play deal.


def test_no_pedro_under_an_opponents_boss_trump():
    d = deal("difference", N, PLAY_DECK, *PLAY_START, "play AH")
    assert d.hand(S) & CardSet.parse("5D 7H") == CardSet.parse("5D 7H")
    assert expert(worlds=6).choose(d.view(S)) == Play(Card.parse("7H"))


def test_a_pedro_goes_under_the_partners_sure_winner():
    d = deal("difference", N, PLAY_DECK, *PLAY_START, "play AH", "play 7H")
    assert expert(worlds=6).choose(d.view(W)) == Play(Card.parse("5H"))


def test_it_takes_a_trick_carrying_a_pedro_when_it_surely_can():
    # E leads the 9H, S drops the 5D, W follows low: N, last to play, wins with any trump above the 9.
    d = deal("difference", N, PLAY_DECK, *PLAY_START, "play 9H", "play 5D", "play 3H")
    action = expert(worlds=6).choose(d.view(N))
    assert action.card in CardSet.parse("QH JH TH")  # type: ignore[attr-defined]


def test_the_maker_draws_trumps_with_the_top_trump():
    d = deal("difference", N, PLAY_DECK, *PLAY_START)
    assert expert(worlds=6).choose(d.view(E)) == Play(Card.parse("AH"))


# =============================================================================
# Determinism, budget, hint
# =============================================================================
def test_the_same_seed_and_views_give_the_same_actions():
    def actions() -> list[str]:
        d = Deal.shuffled(Rules.preset("additive"), N, 11)
        bots = [make_bot("expert", seed=3, worlds=2, playouts=4), make_bot("heuristic", seed=3)]
        out = []
        while not d.is_over:
            a = bots[d.to_act & 1].choose(d.view(d.to_act))
            out.append(str(a))
            d.apply(a)
        return out

    assert actions() == actions()


def test_a_time_budget_is_kept_and_the_action_is_legal():
    d = deal("difference", N, PLAY_DECK, *PLAY_START)
    bot = make_bot("expert", seed=1, time_budget=0.2)
    start = time.perf_counter()
    decision = bot.decide(d.view(E))  # type: ignore[attr-defined]
    elapsed = time.perf_counter() - start
    assert d.is_legal(decision.action)
    assert decision.samples >= 1
    assert elapsed < 2.0  # 0.2 s asked; generous for a loaded machine


def test_the_hint_speaks_as_a_player_with_the_figures_one_step_away():
    from cinch.table.advice import ask_hint

    d = deal("difference", N, PLAY_DECK, *PLAY_START, "play AH", "play 7H")
    decision = expert(worlds=4).explain(d.view(W))
    assert decision.action == Play(Card.parse("5H"))
    assert decision.text.startswith("playing the 5♥*") and "worlds" not in decision.text
    assert any(words in decision.text for words in ("ahead of", "as good as", "safe choice"))
    assert "points for EW against NS on average this deal (double-dummy worlds, 4 worlds)" in decision.detail
    hint = ask_hint("expert", expert(worlds=4), d.view(W))
    assert (hint.action, hint.estimate, hint.detail) == (decision.action, decision.text, decision.detail)


def test_a_bid_hint_names_the_call_and_its_margin():
    d = deal("difference", N, PLAY_DECK)
    decision = expert(playouts=16).explain(d.view(E))
    call = "passing" if str(decision.action) == "pass" else f"bidding {decision.action.amount}"
    assert decision.text.startswith(call) and "bidding playouts, 16 worlds" in decision.detail


def test_bad_budgets_are_refused():
    with pytest.raises(ValueError):
        make_bot("expert", worlds=0)
    with pytest.raises(ValueError):
        make_bot("expert", time_budget=0)
    with pytest.raises(ValueError):
        make_bot("expert", search="play,dance")


# =============================================================================
# Bid inference
# =============================================================================
def _hand_deck(dealer: Seat, seat: Seat, hand: str) -> str:
    mine = CardSet.parse(hand)
    rest = [str(c) for c in CARDS if c not in mine]
    hands = {}
    i = 0
    for s in Seat:
        if s == seat:
            hands[s.name] = hand
        else:
            hands[s.name] = " ".join(rest[i:i + 9])
            i += 9
    return table(dealer, **hands)


def test_a_high_bid_makes_strong_hands_likelier():
    # E bid 11 under pagat: worlds where E holds the top hearts and both Pedros are far likelier.
    strong, weak = "AH KH QH JH 5H 5D TH 2S 3S", "2S 3S 4S 2C 3C 4C 6D 7D 8D"
    weights = {}
    for name, hand in (("strong", strong), ("weak", weak)):
        d = deal("pagat", N, _hand_deck(N, E, hand), "bid 11")
        dealt = tuple(int(h) for h in d.dealt)
        weights[name] = BidLikelihood()(d.view(S), dealt)
    assert weights["strong"] > 0.3 and weights["weak"] < 0.01


def test_a_pass_makes_strong_hands_unlikely():
    d = deal("pagat", N, _hand_deck(N, E, "AH KH QH JH 5H 5D TH 2S 3S"), "pass")
    assert BidLikelihood()(d.view(S), tuple(int(h) for h in d.dealt)) < 0.05
    assert BidLikelihood(sharpness=0)(d.view(S), tuple(int(h) for h in d.dealt)) == 1.0


def test_the_expert_does_not_bid_a_hopeless_hand():
    d = deal("difference", N, _hand_deck(N, E, "2S 3S 4S 2C 3C 4C 6D 7D 8D"))
    assert d.to_act == E
    assert isinstance(expert(playouts=8).choose(d.view(E)), Pass)


def test_the_expert_bids_a_powerful_hand():
    d = deal("difference", N, _hand_deck(N, E, "AH KH QH JH 5H 5D TH 2S 3S"))
    assert isinstance(expert(playouts=8).choose(d.view(E)), Bid)


def test_keep_candidates_start_with_a_legal_keep():
    for kind, d in POSITIONS:
        if kind in ("discard", "rob"):
            view = d.view(d.to_act)
            assert isinstance(view.legal, KeepOptions)
            cands = expert()._keep_candidates(view, view.legal)
            assert cands and all(c in view.legal for c in cands)


# =============================================================================
# The ceiling: the cheater sees every hand
# =============================================================================
def test_the_cheater_is_far_ahead_of_the_expert():
    nets = play_duplicate("expert", "pagat", pairs=4, seed=3, options=SMALL)
    assert statistics.mean(nets) > 5.0, nets


def test_the_cheater_plays_legal_actions():
    d = Deal.shuffled(Rules.preset("difference"), N, 5)
    bot = CheaterBot(seed=1)
    while not d.is_over:
        a = bot.choose_full(d, d.to_act)
        assert d.is_legal(a)
        d.apply(a)


def test_a_decision_stops_at_the_hard_cap_in_every_mode():
    d = Deal.shuffled(Rules.preset("pagat"), dealer=Seat.W, rng=5)
    for mode in ({"worlds": 100_000}, {"time_budget": 100.0}):
        bot = make_bot("expert", seed=1, max_seconds=0.3, **mode)
        started = time.perf_counter()
        decision = bot.explain(d.view(d.to_act))
        assert time.perf_counter() - started < 2.0, mode  # (the cap, and one world or playout past it)
        assert decision.action in d.view(d.to_act).legal and decision.samples >= 1
    with pytest.raises(ValueError, match="max_seconds"):
        make_bot("expert", max_seconds=0)


# =============================================================================
# Deciding: few candidates, margins that count them, time where it matters
# =============================================================================
def test_asking_again_gives_the_same_answer():
    # A hint asked twice on the same cards searches the same worlds: the same call and figures.
    d = deal("difference", N, PLAY_DECK)
    bot = expert(playouts=12)
    first, second = bot.explain(d.view(E)), bot.explain(d.view(E))
    assert (first.action, first.estimate, first.detail) == (second.action, second.estimate, second.detail)


def test_with_a_score_it_judges_by_the_chance_to_win_the_match():
    d = deal("difference", N, PLAY_DECK, *PLAY_START, "play AH", "play 7H")
    view = d.view(W, score=(40, 48), target=51)
    decision = expert(worlds=4).explain(view)
    assert decision.unit == "%" and 0 <= decision.estimate <= 100
    assert "chance for EW to win the match" in decision.detail and "from 40-48" in decision.detail
    assert "chance to win the match is about" in decision.text
    plain = expert(worlds=4, match_equity=False).explain(view)
    assert plain.unit == "points" and "points for EW against NS" in plain.detail


def test_the_margin_grows_with_the_number_of_candidates():
    from cinch.bots.expert import _margin

    assert _margin(1.0, 2) == 1.0
    assert 1.0 < _margin(1.0, 3) < _margin(1.0, 6) < _margin(1.0, 16)


def test_a_race_drops_a_clearly_worse_candidate_and_keeps_the_default_on_noise():
    from cinch.bots.expert import _Race

    rng = random.Random(4)
    race = _Race(3, 0, 1.0, eliminate=True)
    for _ in range(40):
        noise = rng.gauss(0, 3)
        # 0: the default; 1: the same plus noise of its own; 2: ten points worse.
        world = {0: noise, 1: noise + rng.gauss(0, 1), 2: noise - 10}
        race.add({i: world[i] for i in race.alive})
    assert 2 not in race.alive and 0 in race.alive
    assert race.pick()[0] == 0


def test_a_race_takes_a_clear_gain_over_the_default():
    from cinch.bots.expert import _Race

    rng = random.Random(5)
    race = _Race(4, 0, 1.0, eliminate=True)
    while race.worlds < 60 and not race.settled:
        noise = rng.gauss(0, 3)
        race.add({i: noise + (4 if i == 3 else 0) + rng.gauss(0, 0.5) for i in race.alive})
    assert race.pick()[0] == 3
    assert race.settled and race.worlds < 60  # the others dropped out: the decision ended early


def test_the_play_search_ends_early_on_an_obvious_card():
    from cinch.bots.expert import _EarlyStop

    stop = _EarlyStop(3, 1.0)
    same = [[1.0] * 8, [1.0] * 8, [1.0] * 8]
    assert stop.done(same, [1.0] * 8)  # every card scores the same
    rng = random.Random(1)
    worlds = [rng.gauss(0, 2) for _ in range(8)]
    clear = [[w + 6 for w in worlds], worlds, [w - 3 for w in worlds]]
    assert stop.done(clear, [1.0] * 8)
    close = [[w + rng.gauss(0, 2) for w in worlds], worlds, worlds]
    assert not stop.done(close, [1.0] * 8)
    assert not stop.done([v[:7] for v in clear], [1.0] * 7)  # too few worlds to tell


def test_bid_candidates_are_few_the_heuristics_call_first():
    for preset in ("pagat", "difference"):
        for seed in range(6):
            d = Deal.shuffled(Rules.preset(preset), Seat(seed % 4), random.Random(seed))
            view = d.view(d.to_act)
            heuristic = make_bot("heuristic", seed=0).choose(view)
            cands = ExpertBot._bid_candidates(view, heuristic)
            assert cands[0] == heuristic and len(cands) == len(set(cands)) <= 6
            assert all(c in view.legal for c in cands)
            bids = [a for a in view.legal if isinstance(a, Bid)]
            assert Pass() in cands and min(bids, key=lambda b: b.amount) in cands


def test_a_call_far_from_the_heuristics_needs_a_wider_margin():
    from cinch.bots.expert import _level, _pick

    assert _level(Pass(), 7) == 6 and _level(Bid(9), 7) == 9
    rng = random.Random(2)
    base = [rng.gauss(0, 4) for _ in range(40)]
    jump = [b + 2.5 + rng.gauss(0, 3) for b in base]  # gains about 2.5 with a wide spread
    assert _pick([base, jump], 0, 1.0)[0] == 1
    assert _pick([base, jump], 0, 1.0, extra=[0.0, 3.0])[0] == 0
