"""The earlier choices of the play rebuilt in a world (every one, or the latest few), and the inference
from the cards played that reads them."""

from __future__ import annotations

import random

from cinch import Deal, Phase, Rules, Seat
from cinch.bots import make_bot
from cinch.bots.inference import PlayLikelihood
from cinch.bots.play_history import play_choices
from cinch.worlds import sample_weighted


def late_views(preset: str, deals: int):
    """Seeded heuristic deals: each view of the play from the fourth trick on, with a world drawn for it."""
    bot = make_bot("heuristic", seed=0)
    for seed in range(deals):
        deal = Deal.shuffled(Rules.preset(preset), Seat.W, rng=seed)
        while not deal.is_over:
            view = deal.view(deal.to_act)
            if view.phase is Phase.PLAY and len(view.tricks) >= 3:
                yield view, sample_weighted(view, random.Random(seed), verify=False).world.hands
            deal.apply(bot.choose(view))


def test_the_latest_choices_are_the_last_of_them_all():
    for view, hands in late_views("official", 4):
        every = list(play_choices(view, hands))
        assert every  # three tricks played: the others have chosen
        for latest in (1, 3, 50):
            assert list(play_choices(view, hands, latest)) == every[-latest:]
        for v, card in every:  # another seat's choice, from the hand the world gives him, among two or more
            assert v.seat != view.seat and int(v.hand) >> card & 1 and len(v.legal) > 1
            assert card in {int(a.card) for a in v.legal}


def test_the_inference_from_the_latest_cards_weighs_only_those():
    model = make_bot("heuristic", seed=0)
    weights = []
    for view, hands in late_views("pagat", 3):
        for latest in (0, 2):
            choices = list(play_choices(view, hands))
            expected = 1.0
            for v, card in choices[-latest:] if latest else choices:
                expected *= 1.0 if int(model.choose(v).card) == card else 0.3
            weight = PlayLikelihood(0.3, model, latest)(view, hands)
            assert weight == expected
            weights.append(weight)
    assert min(weights) < 1.0  # some world's cards are not the heuristic's
