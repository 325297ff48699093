"""The daily deals in Chromium: /daily, a guest made by its name, today's set played at the table by clicking, each
board's traveller in the box that ends it, the session's score and rank after the last board, and the day's ranking
and the travellers back on /daily; axe-core on the page and at the table.  (Two boards and the basic bot: the
server's settings, so that the test takes seconds.)"""

from __future__ import annotations

from typing import Any

import pytest
from pagekit import DEAL_S, WAIT_MS, axe, click_decision, new_page, play_alone, wait_ready
from playerkit import serve_app
from playwright.sync_api import Page, expect

from cinch.server.app import create_app
from cinch.server.daily import DailyOptions, day_start

DEAL_OVER = "m => m.dataset.ready === 'true' && m.dataset.status !== 'playing' && m.dataset.status !== 'waiting'"


@pytest.fixture(scope="module")
def url(tmp_path_factory):
    day = day_start("2026-12-05") + 10 * 3600
    app = create_app(tmp_path_factory.mktemp("daily") / "games.sqlite3",
                     daily=DailyOptions(presets=("official",), bots="basic", deals=2, pace=0.05, clock=lambda: day))
    with serve_app(app) as served:
        yield served


def page_of(browser: Any, pages: list, phone: bool = False) -> Page:
    page = new_page(browser, phone=phone, bypass_csp=True)  # (axe-core is injected as an inline script)
    pages.append(page)
    return page


def traveller_shown(page: Page, board: int, results: int) -> None:
    box = page.locator(f"#deal-end .traveller[data-board='{board}']")
    expect(box).to_be_visible(timeout=WAIT_MS)
    expect(box.locator("tbody tr")).to_have_count(results)
    expect(box.locator("tr.mine .who")).to_contain_text("Pia")
    expect(box.locator("tr.robots .who")).to_contain_text("Robot table (basic)")
    expect(box.locator(".hands dt")).to_have_count(4)
    assert box.get_by_role("link", name="Analyse this deal").count() == results


def board_end_says_the_board(page: Page, board: int, results: int) -> None:
    """The box that ends a board is no match's: no score to a target, but the board's result (NS's change less
    EW's, as its traveller line says), the matchpoints so far (as the traveller line says), and its traveller's link."""
    end = page.locator("#deal-end")
    expect(end).not_to_contain_text("Score (to")
    expect(end).not_to_contain_text("target")
    mine = end.locator(f".traveller[data-board='{board}'] tr.mine")
    result = int(mine.get_attribute("data-result"))
    sign = "+" if result > 0 else "−" if result < 0 else ""
    expect(end.locator("#board-result")).to_have_text(f"Result: {sign}{abs(result)} for NS (NS's change less EW's).")
    assert int(end.locator("#board-result").get_attribute("data-result")) == result
    mp = mine.locator("td").nth(4).inner_text()  # (the traveller's MP column: 2/2)
    expect(end.locator("#board-mp")).to_contain_text(f"Your matchpoints so far: {mp} (")
    expect(end.locator("#board-mp")).to_contain_text(f"against {results - 1} other result")
    link = end.locator("#traveller-link")
    expect(link).to_have_text(f"Board {board}'s traveller")
    assert f"board={board}" in (link.get_attribute("href") or "")


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_a_guest_plays_the_days_set_and_sees_each_traveller_and_the_ranking(url, browser, pages, phone):
    page = page_of(browser, pages, phone=phone)
    page.goto(url + "/daily")
    page.wait_for_selector("main[data-ready=true]", timeout=WAIT_MS)
    expect(page.get_by_test_id("guest")).to_be_visible()
    axe(page, "/daily, nobody signed in")
    page.locator("#guest-name").fill("Pia")
    page.locator("#guest-form button[type=submit]").click()
    play = page.get_by_test_id("play-official")
    expect(play).to_have_text("Play today's official set")
    expect(page.locator(".set .commitments li")).to_have_count(2)
    play.tap() if phone else play.click()
    page.wait_for_url("**/daily/play/official")
    wait_ready(page)
    page.wait_for_selector("main[data-seat=S]", timeout=WAIT_MS)
    expect(page.locator(".room-title")).to_contain_text("official")
    for board in (1, 2):
        play_alone(page, lambda p, turn: click_decision(p, turn, tap=phone), DEAL_OVER, timeout=DEAL_S)
        traveller_shown(page, board, 3 if phone else 2)  # (the robot table and you; on the phone, the desktop's too)
        board_end_says_the_board(page, board, 3 if phone else 2)
        expect(page.locator("#deal-end h2")).to_contain_text(f"Board {board}")
        if board == 1:
            axe(page, "the end of a daily board, with its traveller")
            next_board = page.locator("#deal-end #ready")
            expect(next_board).to_have_text("Next: board 2 of 2")
            next_board.tap() if phone else next_board.click()
            page.wait_for_function("() => window.cinchTable.state.room.daily.board === 2", timeout=WAIT_MS)
    expect(page.locator("#session")).to_contain_text("Your session:", timeout=WAIT_MS)
    expect(page.locator("#session")).to_contain_text("of 3" if phone else "of 2")
    href = page.locator("#traveller-link").get_attribute("href")
    back = page.locator("#to-daily")
    back.tap() if phone else back.click()
    page.wait_for_url("**/daily")
    page.wait_for_selector("main[data-ready=true]", timeout=WAIT_MS)
    ranking = page.locator(".set[data-preset=official] table.ranking")
    expect(ranking.locator("tbody tr")).to_have_count(2 if not phone else 3)  # (the desktop's Pia, then the phone's)
    expect(ranking.locator("tr.mine")).to_contain_text("Pia")
    expect(page.get_by_test_id("play-official")).to_have_count(0)  # (played: once a day)
    page.get_by_role("button", name="Board 2").click()
    expect(page.locator(".traveller-box .traveller[data-board='2']")).to_be_visible()
    expect(page.get_by_test_id("past")).to_contain_text("today, so far")
    axe(page, "/daily after the set, with the ranking and a traveller")
    # The link from the box that ended board 2 opens its traveller on /daily.
    page.goto(url + href)
    expect(page.locator("#traveller-official .traveller[data-board='2'] tr.mine")).to_contain_text("Pia",
                                                                                                  timeout=WAIT_MS)
    # The lobby's card: today's set played, with the score.
    page.goto(url + "/")
    card = page.get_by_test_id("daily-card")
    expect(card.locator("[data-preset=official]")).to_contain_text("Done:", timeout=WAIT_MS)
    expect(card.locator("[data-preset=official]")).to_contain_text(
        f"{2 if phone else 1} {'people have' if phone else 'person has'} played it today")
