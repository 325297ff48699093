"""The Textual table at every size: every seat shown round you in a box of its own (its name, kind, cards
held and bid, at 80x24 too), the top line's target, a whole cut-throat deal played by keys."""

from __future__ import annotations

import pytest
from tablekit import (
    SIZE,
    SMALL,
    TABLES,
    make_app,
    press,
    prompt,
    region_text,
    screen_text,
    settle,
    table_app,
    table_test,
)

from cinch import Pass
from cinch.tui.app import CinchApp
from cinch.tui.screens import DealOverScreen
from cinch.tui.widgets import Position, SeatPanel


def seat_boxes(app: CinchApp) -> dict[str, str]:
    """What each seat's box shows on the screen, frame included, by position (only the boxes shown)."""
    boxes = {}
    for name in Position.ALL:
        panel = app.table.query_one(f"#seat-{name}", SeatPanel)
        if panel.display:
            boxes[name] = region_text(app, panel)
    return boxes


async def until_mid_trick(pilot, app: CinchApp) -> None:
    """Enter (the first legal choice, or the suggested hand) until it is your turn in a trick already led."""
    for _ in range(80):
        t = app.table
        if t.mode == "play" and t.game.view().current_trick:
            return
        await press(pilot, "enter")
    raise AssertionError("no trick reached within 80 keys")


async def play_a_deal(pilot, app: CinchApp) -> None:
    """Enter at every decision until the deal is over."""
    for _ in range(80):
        if isinstance(app.screen, DealOverScreen):
            return
        await press(pilot, "enter")
    raise AssertionError("the deal should end within 80 keys")


@pytest.mark.parametrize("name", list(TABLES), ids=lambda name: name.replace(" ", "-"))
@table_test
async def test_every_seat_is_drawn_with_its_name_kind_cards_held_and_bid_at_80_by_24(name):
    app = table_app(name)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await until_mid_trick(pilot, app)
        game = app.table.game
        view = game.view()
        me = game.human
        boxes = seat_boxes(app)
        assert set(boxes) == set(Position.BY_PLAYERS[len(view.seats)])  # a box for each seat, none empty
        for seat in view.seats:
            box = " ".join(boxes[Position.of(seat, me, len(view.seats))].split())
            kind = "you" if seat == me else view.players[seat]
            named = f"{seat} {kind}" in box  # each for himself: 3 basic; at four: W opponent, and basic
            assert named or any(f"{seat} {role}" in box for role in ("opponent", "partner")) and kind in box, box
            n = view.hand_sizes[seat]
            assert f"{n} card" in box, (seat, box)
            said = next(a for s, a in reversed(view.auction) if s == seat)
            assert ("passed" if isinstance(said, Pass) else f"bid {said.amount}") in box, (seat, box)
            assert ("dealer" in box) == (seat == view.dealer)
        assert "▶ your turn" in boxes["bottom"]


@pytest.mark.parametrize("name", list(TABLES), ids=lambda name: name.replace(" ", "-"))
@table_test
async def test_the_top_line_keeps_the_target_at_every_size(name):
    app = table_app(name)
    target = app.setup.rules.target
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        top = screen_text(app).split("\n")[0]
        assert top.endswith(f" · to {target}"), top
        assert "deal 1" in top and f"{app.table.seat} (you) 0" in top
        for width in (60, 100, 140):  # narrower still: the rest is said shorter, then cut before the target
            await pilot.resize_terminal(width, 24)
            await settle(pilot)
            top = screen_text(app).split("\n")[0]
            assert top.endswith(f" · to {target}"), (width, top)


@pytest.mark.parametrize("players", [3, 6])
@table_test
async def test_a_whole_cut_throat_deal_by_keys_with_every_seat_shown(players):
    app = table_app(f"{players} players", seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = app.table.game
        assert str(game.human) == "1" and game.match.table.players == players
        boxes = seat_boxes(app)
        for seat in game.match.table.seats:  # every seat has its box, named with its player, you at the bottom
            assert f"{seat} {'you' if seat == game.human else 'basic'}" in "".join(boxes.values())
        assert "1 you" in boxes["bottom"]
        if players == 3:
            assert set(boxes) == {"left", "right", "bottom"}  # nobody sits across
        else:
            assert set(boxes) == {"left", "top-left", "top", "top-right", "right", "bottom"}
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
        assert set(places) <= set(Position.ALL)


@table_test
async def test_the_four_player_table_keeps_its_partner_across():
    app = make_app("pagat", seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        boxes = seat_boxes(app)
        assert set(boxes) == {"top", "left", "right", "bottom"}
        assert "N partner · basic" in boxes["top"] and "S you" in boxes["bottom"]
        assert "W opponent" in boxes["left"] and "basic" in boxes["left"]



@table_test
async def test_naming_trumps_at_80_by_24_the_middle_says_who_and_the_prompt_wraps_whole():
    app = table_app("6 players")  # you are 1, the first seat (seat 0): the words must not take it for nobody
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await press(pilot, "1", "4", "enter")
        assert app.table.mode == "trump"
        assert "1 (you) names trumps" in region_text(app, app.table.query_one("#center"))
        said = " ".join(prompt(app).split())  # wider than the screen: on two lines, not cut
        assert "then Enter. The other 5 of the colour is a trump." in said and "…" not in said
