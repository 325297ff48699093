"""The expert at two decks (two-deck Cinch, ``-o decks=2``; cinch.bots.expert).

- From a seat's view it searches every phase (bid, trump, rob, the early tricks by playouts, the
  last tricks by the solver) and returns a legal action, without falling back on the heuristic,
  at every table size.
- It reads nothing hidden: a deal its seat cannot tell apart gets the same card.
- Its search is not the heuristic's: in a pinned ending it leads the card the solver values ten
  points above the heuristic's lead in the real deal.

Budgets are tiny (a few worlds) to keep the file fast; the strength is measured in the arena.
"""

from __future__ import annotations

import random

import pytest

from cinch import Deal, Phase, Rules, Seat
from cinch.actions import parse_action
from cinch.bots import expert as expert_module
from cinch.bots import make_bot
from cinch.bots.expert import TWO_DECK_TRICKS, ExpertBot
from cinch.solver import Position, solve
from cinch.worlds import sample_deal


def _expert(seed: int = 1, **options) -> ExpertBot:
    return ExpertBot(seed=seed, **{"worlds": 3, "playouts": 4, "max_seconds": 60.0, **options})


def _two_decks(players: int = 4, preset: str = "official") -> Rules:
    return Rules.preset(preset).with_options(decks=2, players=players)


def _stops(rules: Rules, seed: int):
    """A two-deck deal played by the heuristic, yielding the deal at each decision of more than one choice."""
    heuristic = make_bot("heuristic", seed=0)
    deal = Deal.shuffled(rules, seed % rules.players, rng=seed)
    while deal.phase is not Phase.DONE:
        view = deal.view(deal.to_act)
        if len(view.legal) > 1:
            yield deal
        deal.apply(heuristic.choose(view))


def _kind(deal: Deal) -> str:
    """The kind of decision: a phase, and in the play whether the solver takes it."""
    if deal.phase is not Phase.PLAY:
        return deal.phase.value
    left = deal.rules.tricks - len(deal.tricks)
    return "solver" if left <= TWO_DECK_TRICKS[deal.rules.players] else "playouts"


def _one_of_each(rules: Rules, kinds: set[str]) -> dict[str, Deal]:
    found: dict[str, Deal] = {}
    for seed in range(30):
        for deal in _stops(rules, seed):
            kind = _kind(deal)
            if kind in kinds and kind not in found:
                found[kind] = deal.copy()
        if set(found) == kinds:
            break
    return found


def test_the_expert_searches_every_phase_of_a_two_deck_deal():
    """Four players, two packs: the bid, the trump, the rob, an early trick (heuristic playouts) and
    a late one (the solver), each a legal action from the seat's view, searched, never a fallback."""
    rules = _two_decks()
    found = _one_of_each(rules, {"bidding", "trump", "rob", "playouts", "solver"})
    assert set(found) == {"bidding", "trump", "rob", "playouts", "solver"}
    for kind, deal in found.items():
        bot = _expert()
        view = deal.view(deal.to_act)
        decision = bot.decide(view)
        assert bot.last_error is None, f"{kind}: {bot.last_error!r}"
        assert decision.samples > 0, kind  # searched: the heuristic's fallback searches no world
        assert deal.is_legal(decision.action), kind
        if kind == "solver":
            assert "double-dummy" in decision.detail


@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_the_expert_searches_two_deck_deals_at_every_table_size(players):
    """Cut-throat and two-player tables with two packs: a bid and a late trick, searched and legal."""
    rules = _two_decks(players)
    found = _one_of_each(rules, {"bidding", "solver"})
    assert set(found) == {"bidding", "solver"}
    for kind, deal in found.items():
        bot = _expert()
        decision = bot.decide(deal.view(deal.to_act))
        assert bot.last_error is None, f"{kind}: {bot.last_error!r}"
        assert decision.samples > 0 and deal.is_legal(decision.action), kind


def test_the_expert_reads_only_its_view_at_two_decks():
    """A late trick: the same view over another deal of the hidden cards gets the same card."""
    deal = _one_of_each(_two_decks(), {"solver"})["solver"]
    view = deal.view(deal.to_act)
    other = sample_deal(view, random.Random(5))
    assert [int(h) for h in other.hands] != [int(h) for h in deal.hands]
    assert _expert(seed=3).decide(view).action == _expert(seed=3).decide(other.view(deal.to_act)).action


# Found by playing heuristic deals to the last tricks: S leads to trick 10 with spades trumps,
# holding the 10, 8 and 2 of trumps; W behind him holds both Pedros (5S and the left Pedro 5C).
PINNED_DECK = (
    "9S 4D 8D 9C 6S 7C 4D 3S 8H 7C 7S KS 5D 2H 3D 9H 6D 7H KC 3C KS 9C JH AS AS TS 3H QS 9H AC TD 2C 4H "
    "4S AD TS 5S AC TH QC QH 4H 8C 4C 2S QS KD 9D JS 6H JC TC 5D JD 9S 6H 2C 2D 8C 7D 5C AH 5H 8D TH 4S "
    "4C AD JC QD 5S JD 8S JS 2H 6C 2D KC 3H KH 3C 7S 3S AH 5C 6C JH 6S 5H 3D QC 6D QH KH 8H 8S KD QD 9D "
    "7D TC 2S 7H TD"
)
PINNED_ACTIONS = (
    "bid 10", "bid 11", "pass", "bid 12", "trump S", "keep AS KS QS TS 8S 7S 5S 4S 2S AD KD KD",
    "play AS", "play 8S", "play 5C", "play 3S", "play KD", "play 2D", "play 3H", "play 2S", "play 3D",
    "play KD", "play 2H", "play 3C", "play AD", "play 6C", "play 6C", "play 6D", "play 4S", "play 9S",
    "play 3S", "play 6S", "play AS", "play 4S", "play 9S", "play 7S", "play KC", "play JH", "play QC",
    "play 5S", "play KS", "play JS", "play 6S", "play KS", "play QS", "play JS", "play 7S", "play 5H",
)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_expert_finds_the_lead_the_heuristic_misses(seed):
    """The pinned ending: the heuristic leads the 8 of trumps; the expert, whatever its seed, leads the
    2, which in the real deal is worth ten points more to its side with best play after."""
    deal = Deal(_two_decks(), Seat.S, PINNED_DECK)
    for action in PINNED_ACTIONS:
        deal.apply(parse_action(action))
    view = deal.view(deal.to_act)
    heuristic = make_bot("heuristic", seed=0).choose(view)
    chosen = _expert(seed=seed, worlds=6).decide(view).action
    assert chosen == parse_action("play 2S")
    assert chosen != heuristic
    values = solve(Position.from_deal(deal)).card_values  # NS less EW: S's side maximises
    assert values[chosen.card] - values[heuristic.card] >= 10


# An early trick (the lead to trick 2, diamonds trumps) where four worlds of playouts
# would leave the heuristic's card for another on their rough standard errors.
EARLY_DECK = (
    "TD 3S 3D 6S 2D 3H JH 9D 4H 9C QS AH JD 9C 2C 7C AC 6C QS TC QC 7H 3H 5D QH TH 9H 4S 5D JS 5H JD 8H "
    "8S 8S 8D 5C TC 5C QD 6D AD 9S KH 4D KC TS 7S 7H 3C QH 6H 9D QD AS 4H TD 3C AS 6H 2H 4C 7C 3S KS 7S "
    "6C KH TS JC AD KC JS QC 7D 8H 6S JC 5S 6D AC 9H 2H JH 8D KD 2S 3D 4D TH 2S KD 5H 8C 5S 2D 2C 4S AH "
    "7D 9S KS 8C 4C"
)
EARLY_ACTIONS = ("pass", "bid 13", "pass", "pass", "trump D", "keep AS KS QS AH AH AD 8D 7D 5D 2D KC KC",
                 "play AD", "play 3D", "play 5D", "play 3D")


def test_an_early_two_deck_trick_keeps_the_heuristics_card_on_few_worlds(monkeypatch):
    """Four worlds of heuristic playouts are too few to trust at two decks: an early trick searched on
    them plays the heuristic's card, where trusting them would have played another."""
    deal = Deal(_two_decks(), Seat.N, EARLY_DECK)
    for action in EARLY_ACTIONS:
        deal.apply(parse_action(action))
    view = deal.view(deal.to_act)
    decision = _expert(playouts=4).decide(view)
    assert decision.samples == 4 and "playouts" in decision.detail
    assert decision.action == make_bot("heuristic", seed=0).choose(view)
    monkeypatch.setattr(expert_module, "TWO_DECK_TRUST", 0)
    assert _expert(playouts=4).decide(view).action != decision.action
