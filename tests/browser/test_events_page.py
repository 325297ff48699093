"""A private duplicate event in Chromium: the host creates it on /events (two tables of two boards, a robot table of
random bots); Ann, a guest made on the event's page, and Bo, an account, each take a seat by its seat link, one at
each table; the host fills the other seats with bots and starts the event; each plays both boards by clicking, sees
each board's traveller in the box that ends it (every table's result on it so far, the board's result and the pair's
matchpoints) and the ranking after the last; the event's page then shows the final ranking of both fields, the
travellers (a board's own by its link) and the boards' salts checked against their commitments, and Bo's profile
the event with his pair's rank.  axe-core on the pages.  (The server's tables play at a pace of 0, so that the test
takes seconds.)"""

from __future__ import annotations

from typing import Any

import pytest
from pagekit import DEAL_S, WAIT_MS, axe, click_decision, new_page, play_alone, wait_ready
from playerkit import serve_app
from playwright.sync_api import Page, expect

from cinch.server.app import create_app
from cinch.server.daily import DailyOptions

BOARD_OVER = "m => m.dataset.ready === 'true' && m.dataset.status !== 'playing' && m.dataset.status !== 'waiting'"


@pytest.fixture(scope="module")
def url(tmp_path_factory):
    app = create_app(tmp_path_factory.mktemp("events") / "games.sqlite3", daily=DailyOptions(presets=()),
                     room_defaults={"bot_delay": 0, "trick_pause": 0})
    with serve_app(app) as served:
        yield served


def page_of(browser: Any, pages: list) -> Page:
    page = new_page(browser, bypass_csp=True)  # (axe-core is injected as an inline script)
    pages.append(page)
    return page


def become_guest(page: Page, name: str) -> None:
    expect(page.get_by_test_id("guest")).to_be_visible()
    page.locator("#guest-name").fill(name)
    page.locator("#guest-form button[type=submit]").click()
    expect(page.get_by_test_id("guest")).to_be_hidden()


def take_seat(page: Page, event: str, table: int, seat: str) -> None:
    """From the event's page, the seat's link: the table opens and the seat is taken at once."""
    page.goto(event)
    page.wait_for_selector("main[data-ready=true]", timeout=WAIT_MS)
    page.locator(f".event-table[data-table='{table}'] li[data-seat='{seat}'] a.seat-link").click()
    page.wait_for_url("**/events/table/*")
    page.wait_for_selector(f"main[data-seat='{seat}']", timeout=WAIT_MS)


def board_end_says_the_board(page: Page, board: int) -> None:
    """The box that ends a board is no match's: the board's result (NS's change less EW's, as the traveller's line
    says), the pair's matchpoints so far (its NS MP column), and the traveller's link on the event's page."""
    end = page.locator("#deal-end")
    expect(end).not_to_contain_text("Score (to")
    mine = end.locator(f".traveller[data-board='{board}'] tr.mine")
    result = int(mine.get_attribute("data-result"))
    assert int(end.locator("#board-result").get_attribute("data-result")) == result
    expect(end.locator("#board-result")).to_contain_text("for NS (NS's change less EW's).")
    mp = mine.locator("td.ns-mp").inner_text()
    expect(end.locator("#board-mp")).to_contain_text(f"Your matchpoints so far: {mp} (")
    assert (end.locator("#traveller-link").get_attribute("href") or "").endswith(f"?board={board}")


def play_event(page: Page, name: str, boards: int) -> None:
    for board in range(1, boards + 1):
        play_alone(page, click_decision, BOARD_OVER, timeout=DEAL_S)
        box = page.locator(f"#deal-end .traveller[data-board='{board}']")
        expect(box).to_be_visible(timeout=WAIT_MS)
        expect(box.locator("tr.mine")).to_contain_text(name)
        expect(box.locator("tr.robots")).to_have_count(1)
        expect(box.locator(".hands dt")).to_have_count(4)
        expect(page.locator("#deal-end h2")).to_contain_text(f"Board {board}")
        board_end_says_the_board(page, board)
        if board < boards:
            if board == 1:
                axe(page, "the end of an event's board, with its traveller")
            next_board = page.locator("#deal-end #ready")
            expect(next_board).to_have_text(f"Next: board {board + 1} of {boards}")
            next_board.click()
            page.wait_for_function(f"() => window.cinchTable.state.room.event.board === {board + 1}", timeout=WAIT_MS)
    expect(page.locator("#session")).to_be_visible(timeout=WAIT_MS)
    expect(page.locator("#deal-end [data-testid=event-ranking] tr.mine").first).to_contain_text(name)


def test_a_private_event_of_two_tables_with_travellers_and_ranking(url, browser, pages):
    host = page_of(browser, pages)
    host.goto(url + "/events")
    host.wait_for_selector("main[data-ready=true]", timeout=WAIT_MS)
    axe(host, "/events")
    host.locator("#event-name").fill("Club night")
    host.locator("#deals").fill("2")
    host.locator("#tables").fill("2")
    host.locator("#robots").select_option("random")
    host.locator("#create-event").click()
    host.wait_for_url("**/events/*")
    host.wait_for_selector("main[data-ready=true]", timeout=WAIT_MS)
    event = host.url
    expect(host.locator("#title")).to_contain_text("Club night")
    expect(host.locator(".event-table")).to_have_count(2)
    expect(host.locator("a.seat-link")).to_have_count(8)
    axe(host, "an event's page before the start, for its host")

    ann = host.context.new_page()  # (the host plays too, in another tab: the same browser, the same player)
    ann.errors = []  # type: ignore[attr-defined]
    ann.on("pageerror", lambda e: ann.errors.append(str(e)))  # type: ignore[attr-defined]
    pages.append(ann)
    ann.goto(event)
    ann.wait_for_selector("main[data-ready=true]", timeout=WAIT_MS)
    become_guest(ann, "Ann")
    take_seat(ann, event, 1, "N")
    bo = page_of(browser, pages)  # (Bo has an account: the event goes on his profile)
    bo.goto(url + "/account")
    bo.wait_for_selector("main[data-ready=true][data-view=signed-out]", timeout=WAIT_MS)
    bo.get_by_test_id("register-name").fill("Bo")
    bo.get_by_test_id("register-password").fill("a long enough password")
    bo.get_by_test_id("register").click()
    bo.wait_for_selector("main[data-ready=true][data-view=account]:not([data-busy])", timeout=WAIT_MS)
    take_seat(bo, event, 2, "S")
    wait_ready(bo)

    host.reload()
    host.wait_for_selector("main[data-ready=true]", timeout=WAIT_MS)
    expect(host.get_by_test_id("you")).to_contain_text("table 1, seat N")
    host.locator("#fill-bot").select_option("random")
    host.locator("#fill-all").click()
    expect(host.locator("a.seat-link")).to_have_count(0)
    host.locator("#start-event").click()
    expect(host.locator("main")).to_have_attribute("data-status", "playing", timeout=WAIT_MS)

    play_event(ann, "Ann", 2)
    play_event(bo, "Bo", 2)

    host.reload()
    host.wait_for_selector("main[data-ready=true]", timeout=WAIT_MS)
    expect(host.locator("main")).to_have_attribute("data-status", "over", timeout=WAIT_MS)
    ranking = host.get_by_test_id("event-ranking")
    for side in ("NS", "EW"):
        expect(ranking.locator(f"[data-side={side}] tbody tr")).to_have_count(3)  # (two tables and the robots)
    expect(ranking.locator("[data-side=NS] tr.mine")).to_contain_text("Ann")
    expect(host.locator("#ranking-words")).to_contain_text("final")
    host.get_by_role("button", name="Board 2").click()
    traveller = host.locator("#traveller .traveller[data-board='2']")
    expect(traveller.locator("tbody tr")).to_have_count(3)
    expect(traveller.locator("tr.mine")).to_contain_text("Ann")
    expect(traveller.locator("tbody")).to_contain_text("Bo")
    host.locator("#check-decks").click()
    expect(host.locator("#fair")).to_have_attribute("data-verified", "true", timeout=WAIT_MS)
    axe(host, "an event's page once it is over, with its ranking and a traveller")
    # Bo's profile lists the event, his pair, its rank among the NS pairs and its percentage.
    bo.goto(url + "/players/Bo")
    bo.wait_for_selector("main[data-ready=true]", timeout=WAIT_MS)
    played = bo.get_by_test_id("events-played").locator("tbody tr")
    expect(played).to_have_count(1)
    expect(played).to_contain_text("Club night")
    expect(played).to_contain_text("Table 2 NS: random bot & Bo")
    ns = ranking.locator("[data-side=NS] tbody tr", has_text="random bot & Bo")
    expect(played.locator("td").nth(3)).to_have_text(f"{ns.locator('td').nth(0).inner_text()} of 3")
    expect(played.locator("td").nth(4)).to_have_text(ns.locator("td").nth(2).inner_text())
    axe(bo, "a profile with an event played")
    # The traveller's link from the box that ends a board opens it on the event's page.
    ann.goto(event + "?board=1")
    expect(ann.locator("#traveller .traveller[data-board='1'] tr.mine")).to_contain_text("Ann", timeout=WAIT_MS)
