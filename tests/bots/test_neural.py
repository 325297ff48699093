"""The neural bot: the policy alone, or with the last tricks searched (``endgame``)."""

from __future__ import annotations

import pytest

from cinch import Deal, Rules, Seat
from cinch.bots import make_bot
from cinch.view import Phase

NO_CAP = {"max_seconds": 60.0}  # the search's hard cap out of the way: the same seed plays the same, however busy


def endgame_views(preset: str, deals: int, cards: int = 3):
    """Seeded deals played by the policy alone: the views of the play with at most ``cards`` cards in hand
    and a choice."""
    bot = make_bot("neural", seed=0)
    for seed in range(deals):
        deal = Deal.shuffled(Rules.preset(preset), Seat.W, rng=seed)
        while not deal.is_over:
            view = deal.view(deal.to_act)
            if view.phase is Phase.PLAY and len(view.legal) > 1 and len(view.hand) <= cards:
                yield view
            deal.apply(bot.choose(view))


def test_the_last_tricks_are_the_searchs_and_the_rest_the_policys():
    searching = make_bot("neural", seed=3, endgame=3, worlds=8, prior=0, **NO_CAP)
    alone = make_bot("neural", seed=3)
    expert = make_bot("expert", seed=3, worlds=8, inference=0, play_inference=1, search="play", **NO_CAP)
    differ = 0
    for view in endgame_views("pagat", 6):
        choice = searching.choose(view)
        assert choice == expert.choose(view) and choice in view.legal
        differ += choice != alone.choose(view)
    assert differ > 0  # the search changes some of the policy's cards
    opening = Deal.shuffled(Rules.preset("pagat"), Seat.W, rng=1).view(Seat.N)
    assert searching.choose(opening) == alone.choose(opening)  # a bid: the policy's


def test_a_seeded_deal_with_the_search_plays_the_same_every_time():
    def play(seed: int) -> list[str]:
        bots = [make_bot("neural", seed=i, endgame=3, **NO_CAP) for i in range(4)]
        deal, moves = Deal.shuffled(Rules.preset("official"), Seat.W, rng=seed), []
        while not deal.is_over:
            action = bots[int(deal.to_act)].choose(deal.view(deal.to_act))
            moves.append(str(action))
            deal.apply(action)
        return moves

    assert play(11) == play(11)


def test_with_inference_the_last_tricks_are_the_experts_own_search():
    searching = make_bot("neural", seed=4, endgame=3, worlds=4, inference=1, prior=0, **NO_CAP)
    expert = make_bot("expert", seed=4, worlds=4, search="play", **NO_CAP)
    without = make_bot("expert", seed=4, worlds=4, search="play", inference=0, play_inference=1, **NO_CAP)
    views = list(endgame_views("official", 4))
    choices = [searching.choose(v) for v in views]
    assert views and choices == [expert.choose(v) for v in views]
    assert choices != [without.choose(v) for v in views]  # the inference moves some of its cards


def test_the_inference_from_the_cards_played_alone_is_the_experts_with_that_part_alone():
    searching = make_bot("neural", seed=4, endgame=3, worlds=4, play_inference=0.3, prior=0, **NO_CAP)
    expert = make_bot("expert", seed=4, worlds=4, search="play", inference=0, play_inference=0.3, **NO_CAP)
    without = make_bot("expert", seed=4, worlds=4, search="play", inference=0, play_inference=1, **NO_CAP)
    views = list(endgame_views("official", 10))  # one view of these where the cards played move the choice
    choices = [searching.choose(v) for v in views]
    assert views and choices == [expert.choose(v) for v in views]
    assert choices != [without.choose(v) for v in views]
    latest = make_bot("neural", seed=4, endgame=3, worlds=4, play_inference=0.3, play_latest=2, prior=0, **NO_CAP)
    expert_latest = make_bot("expert", seed=4, worlds=4, search="play", inference=0, play_inference=0.3,
                             play_latest=2, **NO_CAP)
    latest_choices = [latest.choose(v) for v in views]
    assert latest_choices == [expert_latest.choose(v) for v in views]
    assert latest_choices != choices  # the choices before the latest two move some of its cards


def test_the_policy_weighs_in_beside_the_search_by_the_prior():
    expert = make_bot("expert", seed=3, worlds=8, inference=0, play_inference=1, search="play", **NO_CAP)
    weighed = make_bot("neural", seed=3, endgame=3, worlds=8, prior=2, **NO_CAP)
    alone = make_bot("neural", seed=3, endgame=3, worlds=8, prior=0, **NO_CAP)
    policy = make_bot("neural", seed=3)
    ruled = make_bot("neural", seed=3, endgame=3, worlds=8, prior=1e6, **NO_CAP)
    views = list(endgame_views("pagat", 6))
    moved = 0
    for view in views:
        evaluation = expert.evaluate(view)
        cards = evaluation.candidates
        judged = [m + 2 * s for m, s in zip(evaluation.means(), weighed.models.scores(view, cards))]
        choice = weighed.choose(view)
        assert choice == cards[judged.index(max(judged))]
        moved += choice != alone.choose(view)
        assert ruled.choose(view) == policy.choose(view)  # weighted enough, the policy decides
    assert moved > 0  # the policy moves some of the search's cards


@pytest.mark.parametrize("options, words", [
    ({"prior": -0.5}, "prior"),
    ({"endgame": -1}, "endgame"), ({"worlds": 0}, "worlds"), ({"bid_inference": -1}, "bid_inference"),
    ({"play_inference": 0}, "play_inference"), ({"play_inference": 1.5}, "play_inference"),
    ({"endgame": 3, "max_seconds": 0}, "max_seconds"),  # the search's own check: the cap reaches it
    ({"endgame": 3, "play_latest": -1}, "play_latest"),
])
def test_bad_options_say_what_is_allowed(options, words):
    with pytest.raises(ValueError, match=words):
        make_bot("neural", **options)
