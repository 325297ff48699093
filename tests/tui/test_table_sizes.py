"""The Textual table at cut-throat tables: every seat shown round you, a whole deal played by keys."""

from __future__ import annotations

import pytest
from tablekit import SIZE, make_app, press, screen_text, settle, table_test

from cinch import Rules
from cinch.tui.app import CinchApp
from cinch.tui.game import TableSetup
from cinch.tui.screens import DealOverScreen, Settings
from cinch.tui.widgets import Position


def cut_throat_app(players: int, seed: int = 3) -> CinchApp:
    rules = Rules.preset("official").with_options(players=players)
    setup = TableSetup.uniform(rules, bots="random", seed=seed)
    return CinchApp(setup, settings=Settings(pause=0, par=False), offer_resume=False)


def seat_panels(app: CinchApp) -> dict[str, str]:
    """What each seat panel shows, by panel (only the panels on the screen)."""
    return {name: str(app.table.query_one(f"#seat-{name}").render())
            for name in ("top", "left", "right", "bottom") if app.table.query_one(f"#seat-{name}").display}


async def play_a_deal(pilot, app: CinchApp) -> None:
    """Enter at every decision (the first legal choice, or the suggested hand) until the deal is over."""
    for _ in range(80):
        if isinstance(app.screen, DealOverScreen):
            return
        await press(pilot, "enter")
    raise AssertionError("the deal should end within 80 keys")


@pytest.mark.parametrize("players", [3, 6])
@table_test
async def test_a_whole_cut_throat_deal_by_keys_with_every_seat_shown(players):
    app = cut_throat_app(players)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = app.table.game
        assert str(game.human) == "1" and game.match.table.players == players
        panels = seat_panels(app)
        shown = "\n".join(panels.values())
        for seat in game.match.table.seats:  # every seat has its panel, you at the bottom
            assert f"{seat} {'you' if seat == game.human else 'opponent'}" in shown
        assert "1 you" in panels["bottom"]
        if players == 3:
            assert set(panels) == {"left", "right", "bottom"}  # nobody sits across
        else:
            assert set(panels) == {"top", "left", "right", "bottom"}
            assert panels["left"].count("opponent") == panels["right"].count("opponent") == 2
        top = screen_text(app).split("\n")[0]
        assert "1 (you) 0 – 2 0 – 3 0" in top  # the score by player
        await play_a_deal(pilot, app)
        summary = game.last_summary
        text = screen_text(app).replace("\n", " ")
        scores = ", ".join(f"{s}{' (you)' if s == game.human else ''} {v}"
                           for s, v in zip(game.match.table.seats, summary.score, strict=True))
        assert f"Score: {scores}" in text
        await press(pilot, "enter")  # the next deal
        assert "deal 2" in screen_text(app).split("\n")[0]


def test_the_seats_go_round_you_clockwise_at_every_size():
    from cinch.seating import seating

    for players in range(2, 7):
        seats = seating(players).seats
        places = [Position.of(s, seats[1], players) for s in seats]
        assert places[1] == "bottom" and len(set(places)) == players
        assert places[2 % players] == ("left" if players > 2 else "top")  # the next seat clockwise is on your left


@table_test
async def test_the_four_player_table_keeps_its_partner_across():
    app = make_app("pagat", seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        panels = seat_panels(app)
        assert "N partner" in panels["top"] and "S you" in panels["bottom"]
