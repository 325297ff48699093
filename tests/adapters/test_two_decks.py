"""Two-deck Cinch (``decks=2``) in the adapters: refused at construction, in one line that says what is
supported.  Their 188 action ids and their observation name the 52 cards of one pack; two packs hold
104 (twins printed alike), so a two-deck game would need other ids, and every learner built on these
would read them wrongly.  One pack keeps working at every table size (the other files here)."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

from cinch import Deal, Rules, Seat  # noqa: E402
from cinch.adapters.openspiel import game_for  # noqa: E402
from cinch.adapters.pettingzoo import env  # noqa: E402
from cinch.bots import make_bot  # noqa: E402
from cinch.errors import CinchError  # noqa: E402

TWO_DECKS = Rules.preset("official").with_options(decks=2)
SUPPORTED = "takes one pack only (52 cards, 2 to 6 players)"


def one_line(error: BaseException) -> str:
    text = str(error)
    assert "\n" not in text and "leave out decks=2" in text, text
    return text


def test_the_openspiel_game_refuses_two_decks_when_loaded():
    with pytest.raises(Exception) as info:  # (pyspiel may hand on the game's own error)
        pyspiel.load_game("python_cinch(rules=official,options=decks:2)")
    assert f"the OpenSpiel game python_cinch {SUPPORTED}" in one_line(info.value)
    with pytest.raises(CinchError) as direct:
        game_for(TWO_DECKS, Seat.N)
    assert SUPPORTED in one_line(direct.value)
    assert pyspiel.load_game("python_cinch(rules=official,options=players:3)").num_distinct_actions() == 188


@pytest.mark.parametrize("players", [None, 3])
def test_the_pettingzoo_env_refuses_two_decks_at_construction(players):
    with pytest.raises(CinchError) as info:
        env(rules=TWO_DECKS, players=players)
    assert f"the PettingZoo environment cinch_v0 {SUPPORTED}" in one_line(info.value)
    with pytest.raises(CinchError):
        env(rules={"preset": "pagat", "decks": 2})


def test_the_ismcts_bot_refuses_a_two_deck_deal_at_its_first_decision():
    deal = Deal.shuffled(TWO_DECKS, Seat.W, rng=1)
    bot = make_bot("openspiel-ismcts", seed=1, simulations=2)
    with pytest.raises(CinchError) as info:
        bot.choose(deal.view(deal.to_act))
    assert f"the openspiel-ismcts bot (it searches the OpenSpiel game) {SUPPORTED}" in one_line(info.value)


def test_an_arena_run_of_the_ismcts_bot_at_two_decks_is_refused_before_its_first_deal(tmp_path):
    from cinch.arena import run_duplicate
    with pytest.raises(CinchError) as info:
        run_duplicate("openspiel-ismcts", "random", TWO_DECKS, deals=1, workers=1, out_dir=tmp_path / "out")
    assert SUPPORTED in one_line(info.value)
    assert not (tmp_path / "out").exists()  # nothing played, nothing written
