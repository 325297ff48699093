"""The browser table at a cut-throat table: the lobby offers the number of players and Heasly, and a six-player
(Heasly) room shows its six seats around the table, six cards in each hand, and the score by player."""

from __future__ import annotations

from typing import Any

import pytest
from pagekit import click_decision, hand, new_page, play_alone, sit, wait_ready, wait_until
from playwright.sync_api import Page
from serverkit import served

DEAL_OVER = "m => m.dataset.ready === 'true' && m.dataset.status !== 'playing'"


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    with served(tmp_path_factory.mktemp("sizes") / "games.sqlite3", bot_delay=0.02, between_deals=60) as s:
        yield s


@pytest.fixture
def page(browser):
    made = new_page(browser)
    yield made
    errors = list(made.errors)  # type: ignore[attr-defined]
    made.context.close()
    assert not errors, f"the page threw: {errors}"


def test_the_lobby_makes_a_three_player_room(srv, page: Page):
    page.goto(srv.url + "/")
    wait_ready(page)
    page.select_option("#players", "3")
    page.locator("#create-room").click()
    page.wait_for_url("**/rooms/*")
    wait_ready(page)
    seats = page.locator("#seating li.seat-entry").evaluate_all("ls => ls.map(l => l.dataset.seat)")
    assert seats == ["1", "2", "3"]
    assert "3 players, each for himself" in page.locator(".room-head").inner_text()


def test_a_heasly_room_shows_six_seats_and_the_score_by_player(srv, page: Page):
    room: dict[str, Any] = srv.create(rules="official", options={"heasly": True})
    host = srv.player(room["code"], host_token=room["host_token"])
    for seat in ("1", "2", "4", "5", "6"):
        host.send({"type": "fill", "seat": seat, "bot": "basic"})
    host.until(lambda m: m["type"] == "state" and sum(s["kind"] == "bot" for s in m["room"]["seats"]) == 5)
    sit(page, room["link"], "3", "Ann")  # (a numbered seat, by its form, as at any table)
    host.send({"type": "start"})
    host.until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
    host.close()
    page.wait_for_selector("main[data-status=playing]")
    board = page.locator("#board .seat")
    assert board.count() == 6
    places = dict(zip(board.evaluate_all("bs => bs.map(b => b.dataset.place)"),
                      board.evaluate_all("bs => bs.map(b => b.dataset.seat)"), strict=True))
    # You at the bottom; the play passes to your left: 4, then round the top to 2 on your right.
    assert places == {"bottom": "3", "left": "4", "top-left": "5", "top": "6", "top-right": "1", "right": "2"}
    wait_until(page, "(m) => document.querySelectorAll('#hand button.card').length > 0")
    assert len(hand(page)) == 6
    facts = page.locator("#board .seat .seat-facts").all_inner_texts()
    assert all("6 cards" in f for f in facts), facts
    play_alone(page, click_decision, DEAL_OVER)
    lines = page.locator("#score .team").all_inner_texts()
    assert len(lines) == 6 and lines[2].startswith("3 · Ann (you): "), lines
    assert page.locator("#deal-end").is_visible()
    assert "Player" in page.locator("#deal-end").inner_text()


def test_the_replay_viewer_lays_out_a_five_player_record(srv, page: Page, tmp_path):
    import json
    import random

    from cinch.match import Match
    from cinch.record import to_record
    from cinch.rules import Rules

    rules = Rules.preset("official").with_options(players="5", target="7")  # (a short match)
    match = Match(rules, players={s: f"p{s}" for s in rules.seating.seats}, rng=3)
    pick = random.Random(3)
    match.play_out(lambda view: view.legal[pick.randrange(len(view.legal))])
    path = tmp_path / "five.json"
    path.write_text(json.dumps(to_record(match)))
    page.goto(srv.url + "/replay")
    page.get_by_test_id("file-input").set_input_files(str(path))
    page.wait_for_selector("main[data-ready=true]")
    seats = page.locator(".board .seat").evaluate_all("ss => ss.map(s => s.dataset.seat)")
    assert seats == ["1", "2", "3", "4", "5"]
    assert page.get_by_test_id("hand-5").locator("li").count() == 6  # five players are dealt six cards each
    assert page.get_by_test_id("score").inner_text().startswith("Score: 1: 0, 2: 0, 3: 0, 4: 0, 5: 0")
    page.get_by_test_id("step-last").click()
    assert page.get_by_test_id("trick-1").count() == 1 and page.get_by_test_id("trick-N").count() == 0
