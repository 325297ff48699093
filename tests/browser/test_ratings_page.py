"""The room takes the player as it is, and the ratings' pages, in Chromium (axe-core on each): an account opening a
room is told it sits under its own name, its seat links its profile, the table's menu says who is signed in (the
site's top bar is not drawn over a room); a newcomer is offered sign-in beside the name field; the leaderboard lists
the account after the minimum of games, beside the bots' anchors; the profile draws the rating's line."""

from __future__ import annotations

import pytest
from pagekit import WAIT_MS, axe, new_page
from playwright.sync_api import Page, expect
from serverkit import served

from cinch.server.ratings import MINIMUM_GAMES, Entrant

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    with served(tmp_path_factory.mktemp("ratings") / "games.sqlite3", seed=7, bot_delay=0, between_deals=0) as s:
        yield s


def page_of(browser, pages: list, phone: bool = False) -> Page:
    page = new_page(browser, phone=phone, bypass_csp=True)  # (axe-core is injected as an inline script)
    pages.append(page)
    return page


def register(page: Page, url: str, name: str) -> str:
    page.goto(url + "/account")
    page.wait_for_selector("main[data-ready=true][data-view=signed-out]", timeout=WAIT_MS)
    page.get_by_test_id("register-name").fill(name)
    page.get_by_test_id("register-password").fill(PASSWORD)
    page.get_by_test_id("register").click()
    page.wait_for_selector("main[data-ready=true][data-view=account]:not([data-busy])", timeout=WAIT_MS)
    return page.evaluate("async () => (await (await fetch('/api/players/me')).json()).player.id")


def test_an_account_sits_under_its_name_and_the_menu_says_who_is_signed_in(srv, browser, pages):
    page = page_of(browser, pages)
    register(page, srv.url, "Annabel")
    room = srv.create(rules="pagat")
    page.goto(f"{srv.url}/rooms/{room['code']}")
    page.wait_for_selector("main[data-ready=true][data-status=waiting]", timeout=WAIT_MS)
    sit_as = page.get_by_test_id("sit-as")
    expect(sit_as).to_have_text("You sit as Annabel.")
    expect(sit_as.get_by_role("link", name="Annabel")).to_have_attribute("href", "/players/Annabel")
    expect(page.locator("#my-name")).to_have_count(0)  # (no name to type: the account is the name)
    page.locator("[data-sit=S]").click()
    page.wait_for_selector("main[data-seat=S]", timeout=WAIT_MS)
    seat = page.locator(".seat-entry[data-seat=S] .who")
    expect(seat.get_by_role("link", name="Annabel")).to_have_attribute("href", "/players/Annabel")
    expect(seat).to_contain_text("Annabel (you)")
    axe(page, "the waiting room of an account")
    page.locator("#menu-button").click()
    entry = page.get_by_test_id("room-player")
    expect(entry).to_be_visible()
    expect(entry).to_contain_text("Signed in as Annabel")
    expect(entry.get_by_role("link", name="Annabel")).to_have_attribute("href", "/players/Annabel")
    axe(page, "the room's menu with its player entry")

    # A newcomer: the name field, with sign-in beside it; the menu offers sign-in and registration.
    other = page_of(browser, pages, phone=True)
    other.goto(f"{srv.url}/rooms/{room['code']}")
    other.wait_for_selector("main[data-ready=true][data-status=waiting]", timeout=WAIT_MS)
    expect(other.locator("#my-name")).to_be_visible()
    expect(other.locator(".name-row").get_by_role("link", name="or sign in")).to_have_attribute("href", "/account")
    other.locator("#my-name").fill("Dee")
    other.locator("[data-sit=N]").tap()
    other.wait_for_selector("main[data-seat=N]", timeout=WAIT_MS)
    expect(other.locator(".seat-entry[data-seat=N] .who")).to_have_text("Dee (you)")
    expect(other.locator(".seat-entry[data-seat=S] .who").get_by_role("link", name="Annabel")).to_be_visible()
    other.locator("#menu-button").tap()
    expect(other.get_by_test_id("room-player")).to_contain_text("Not signed in")
    expect(other.get_by_test_id("room-player").get_by_role("link", name="Sign in or register")).to_be_visible()
    axe(other, "the room's menu of a newcomer, on a phone")


def test_the_leaderboard_and_the_profiles_rating_line(srv, browser, pages):
    page = page_of(browser, pages)
    bea = register(page, srv.url, "Beatrix")
    ratings = srv.app.state.ratings
    for n in range(MINIMUM_GAMES):  # (five wins beside a bot over two heuristic bots: rated as rooms rate them)
        ratings.record_match(9000 + n, "pagat", [[Entrant(bea), Entrant(bot="heuristic")],
                                                 [Entrant(bot="heuristic"), Entrant(bot="heuristic")]], [0, 1])
    page.goto(srv.url + "/ratings")
    page.wait_for_selector("main[data-ready=true][data-family=pagat]", timeout=WAIT_MS)
    board = page.get_by_test_id("leaderboard")
    expect(board.get_by_role("link", name="Beatrix")).to_have_attribute("href", "/players/Beatrix")
    expect(page.get_by_test_id("bots")).to_contain_text("expert")
    axe(page, "the leaderboard")
    page.get_by_test_id("family").select_option("official")
    page.wait_for_selector("main[data-ready=true][data-family=official]", timeout=WAIT_MS)
    expect(page.get_by_test_id("status")).to_contain_text("no account has 5 rated games yet")
    assert page.url.endswith("/ratings?family=official")

    page.goto(srv.url + "/players/Beatrix")
    page.wait_for_selector("main[data-ready=true][data-player=Beatrix]", timeout=WAIT_MS)
    family = page.locator(".rating-family[data-family=pagat]")
    expect(family.locator("h3")).to_contain_text("pagat: ")
    expect(family.locator("svg.rating-line")).to_have_attribute("data-points", str(MINIMUM_GAMES + 1))
    label = family.locator("svg.rating-line").get_attribute("aria-label")
    assert label.startswith("pagat: from 0.0 to ") and label.endswith(f"over {MINIMUM_GAMES} rated games")
    expect(family.locator("tbody tr")).to_have_count(MINIMUM_GAMES)
    expect(family.get_by_role("link", name="the leaderboard")).to_have_attribute("href", "/ratings?family=pagat")
    axe(page, "a profile with its rating line")
