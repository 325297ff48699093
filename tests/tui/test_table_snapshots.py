"""Pictures of the main screens (pytest-textual-snapshot): fixed seeds, fixed sizes, no pauses.

``pytest tests/tui --snapshot-update`` redraws them after a deliberate change to the look.
"""

from __future__ import annotations

import pytest
from tablekit import NINE_HEARTS, SIZE, SMALL, TABLES, dealt_game, make_app, press, settle, table_app

from cinch import Seat
from cinch.tui.screens import DealOverScreen


def until(condition, *, limit: int = 60):
    """A run_before that presses Enter (the default choice) until ``condition(app)`` holds."""

    async def run_before(pilot) -> None:
        await settle(pilot)
        for _ in range(limit):
            if condition(pilot.app):
                return
            await press(pilot, "enter")
        raise AssertionError("the table never reached the screen to draw")

    return run_before


def mid_trick(app) -> bool:
    t = app.table
    return t.mode == "play" and bool(t.game.view().current_trick)


def test_bidding(snap_compare):
    assert snap_compare(make_app("pagat", seed=2), terminal_size=SIZE, run_before=until(lambda app: True))


def test_play_in_the_middle_of_a_trick(snap_compare):
    assert snap_compare(make_app("pagat", seed=5), terminal_size=SIZE, run_before=until(mid_trick))


def test_robbing_the_pack(snap_compare):
    app = make_app("pagat", seed=5)
    assert snap_compare(app, terminal_size=SIZE, run_before=until(lambda app: app.table.mode == "keep"))


def test_burying_under_the_first_card(snap_compare):
    app = make_app("pagat", game=dealt_game("pagat", NINE_HEARTS, Seat.W))

    async def run_before(pilot) -> None:
        await settle(pilot)
        await press(pilot, "1", "4", "enter", "h", "enter", "2", "enter")

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_the_end_of_a_deal(snap_compare):
    app = make_app("official", seed=4)  # (the par has a test of its own: the picture need not wait on the solver)
    assert snap_compare(app, terminal_size=SIZE,
                        run_before=until(lambda app: isinstance(app.screen, DealOverScreen)))


def test_the_rules(snap_compare):
    async def run_before(pilot) -> None:
        await settle(pilot)
        await press(pilot, "r")

    assert snap_compare(make_app("difference", seed=3), terminal_size=SIZE, run_before=run_before)


def test_80_by_24(snap_compare):
    assert snap_compare(make_app("pagat", seed=5), terminal_size=SMALL, run_before=until(mid_trick))


@pytest.mark.parametrize("name", list(TABLES), ids=lambda name: name.replace(" ", "-"))
def test_every_table_at_80_by_24(snap_compare, name):
    """Two to six players, Heasly and two decks (18 cards in hand, each numbered), in the middle of a trick."""
    assert snap_compare(table_app(name), terminal_size=SMALL, run_before=until(mid_trick))


def test_colour_blind_theme(snap_compare):
    app = make_app("additive", seed=3, theme="colour-blind")
    assert snap_compare(app, terminal_size=SIZE, run_before=until(mid_trick))
