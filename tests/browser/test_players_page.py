"""The players' pages in Chromium: the player bar on every page, a guest made by its name, a guest registering
by the keyboard alone and keeping its id, the profile and the list of players, signing out and in (a wrong
password refused beside the form), a new password, and deleting the account; axe-core on every page."""

from __future__ import annotations

from typing import Any

import pytest
from pagekit import WAIT_MS, axe, new_page
from playwright.sync_api import Page, expect
from serverkit import served

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    with served(tmp_path_factory.mktemp("players") / "games.sqlite3") as s:
        yield s


def page_of(browser: Any, pages: list, phone: bool = False) -> Page:
    page = new_page(browser, phone=phone, bypass_csp=True)  # (axe-core is injected as an inline script)
    pages.append(page)
    return page


def bar_ready(page: Page) -> None:
    page.wait_for_selector("[data-testid=player-bar][data-ready=true]", timeout=WAIT_MS)


def account_ready(page: Page, view: str) -> None:
    page.wait_for_selector(f"main[data-ready=true][data-view={view}]:not([data-busy])", timeout=WAIT_MS)


FORMS = ("signin-form", "register-form", "guest-form", "forget-guest", "profile-link", "signout", "password-form",
         "delete-form")


def shows(page: Page, *visible: str) -> None:
    """The account page shows these of its forms and buttons, and none of the others."""
    for test_id in FORMS:
        if test_id in visible:
            expect(page.get_by_test_id(test_id)).to_be_visible()
        else:
            expect(page.get_by_test_id(test_id)).to_be_hidden()


def test_a_guest_registers_by_keyboard_and_keeps_its_id(srv, browser, pages):
    page = page_of(browser, pages)
    page.goto(srv.url + "/")
    bar_ready(page)
    bar = page.get_by_test_id("player-bar")
    expect(bar.get_by_role("link", name="Sign in")).to_be_visible()
    axe(page, "the lobby with the player bar")

    bar.get_by_role("link", name="Sign in").click()
    account_ready(page, "signed-out")
    shows(page, "signin-form", "register-form", "guest-form")
    axe(page, "the account page, signed out")
    page.get_by_test_id("guest-name").fill("Cy")
    page.get_by_test_id("guest").click()
    account_ready(page, "guest")
    shows(page, "register-form", "forget-guest")
    expect(page.get_by_test_id("status")).to_have_text("You play as Cy (guest) on this device.")
    expect(page.get_by_test_id("player-name")).to_have_text("Cy (guest)")
    guest_id = page.evaluate("async () => (await (await fetch('/api/players/me')).json()).player.id")
    assert page.evaluate("() => JSON.parse(localStorage.getItem('cinch:guest')).key").__len__() == 32
    axe(page, "the account page of a guest")
    # The session gone (cookies cleared), the device's key lets the same guest in again.
    page.context.clear_cookies()
    page.reload()
    account_ready(page, "guest")
    expect(page.get_by_test_id("player-name")).to_have_text("Cy (guest)")
    assert page.evaluate("async () => (await (await fetch('/api/players/me')).json()).player.id") == guest_id

    # Registering with the keyboard alone: Tab to the name, type, Tab to the password, type, Enter.
    page.get_by_test_id("register-name").focus()
    page.keyboard.type("Cyrus")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == "register-password"
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    account_ready(page, "account")
    shows(page, "profile-link", "signout", "password-form", "delete-form")
    expect(page.get_by_test_id("status")).to_have_text("You are signed in as Cyrus.")
    expect(page.get_by_test_id("done")).to_have_text("Registered: welcome, Cyrus.")
    expect(page.get_by_test_id("player-name")).to_have_text("Cyrus")
    me = page.evaluate("async () => (await (await fetch('/api/players/me')).json()).player")
    assert me["id"] == guest_id and me["kind"] == "account"
    assert page.evaluate("() => localStorage.getItem('cinch:guest')") is None
    axe(page, "the account page of an account")

    # The profile, from the bar; and the list of players.
    page.get_by_test_id("player-name").click()
    page.wait_for_selector("main[data-ready=true][data-player=Cyrus]")
    expect(page.get_by_test_id("name")).to_have_text("Cyrus")
    expect(page.get_by_test_id("games-count")).to_have_text("No games yet.")
    expect(page.get_by_test_id("ratings")).to_contain_text("No rated game yet")
    axe(page, "a profile")
    page.goto(srv.url + "/players")
    page.wait_for_selector("main[data-ready=true]")
    expect(page.get_by_test_id("players").get_by_role("link", name="Cyrus")).to_have_attribute("href", "/players/Cyrus")
    axe(page, "the list of players")


def test_sign_out_in_a_new_password_and_deleting_the_account(srv, browser, pages):
    page = page_of(browser, pages, phone=True)
    page.goto(srv.url + "/account")
    account_ready(page, "signed-out")
    page.get_by_test_id("register-name").fill("Dora")
    page.get_by_test_id("register-password").fill(PASSWORD)
    page.get_by_test_id("register").tap()
    account_ready(page, "account")

    # Signing out from the bar of another page; signing in again, a wrong password refused beside the form.
    page.goto(srv.url + "/score")
    bar_ready(page)
    expect(page.get_by_test_id("player-name")).to_have_text("Dora")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390, "the bar widens the phone's page"
    page.get_by_test_id("sign-out").tap()
    expect(page.get_by_test_id("player-bar").get_by_role("link", name="Sign in")).to_be_visible()
    page.goto(srv.url + "/account")
    account_ready(page, "signed-out")
    page.get_by_test_id("signin-name").fill("Dora")
    page.get_by_test_id("signin-password").fill("not her password")
    page.get_by_test_id("signin").tap()
    expect(page.get_by_test_id("signin-error")).to_have_text("That name and password do not match an account.")
    expect(page.get_by_test_id("signin-error")).to_have_attribute("role", "alert")
    axe(page, "a refused sign-in")
    page.get_by_test_id("signin-password").fill(PASSWORD)
    page.get_by_test_id("signin").tap()
    account_ready(page, "account")

    # A new password; then the account deleted, which asks for the password and a tick.
    page.get_by_test_id("current-password").fill(PASSWORD)
    page.get_by_test_id("new-password").fill("a brand new one")
    page.get_by_test_id("change-password").tap()
    expect(page.get_by_test_id("done")).to_have_text("Your password is changed; your other devices are signed out.")
    page.get_by_test_id("delete-password").fill("a brand new one")
    page.get_by_test_id("delete").tap()
    expect(page.get_by_test_id("delete-error")).to_have_text("Tick “Yes, delete my account” first.")
    page.get_by_test_id("delete-sure").check()
    page.get_by_test_id("delete").tap()
    account_ready(page, "signed-out")
    expect(page.get_by_test_id("done")).to_have_text("Your account is deleted.")
    page.goto(srv.url + "/players/Dora")
    page.wait_for_selector("main[data-ready=true]")
    expect(page.get_by_test_id("status")).to_have_text("No player has that name.")
    axe(page, "the profile of nobody")


@pytest.mark.parametrize("path", ["/replay", "/puzzles", "/score"])
def test_the_player_bar_is_on_every_page(srv, browser, pages, path):
    page = page_of(browser, pages)
    page.goto(srv.url + path)
    bar_ready(page)
    expect(page.get_by_test_id("player-bar").get_by_role("link", name="Sign in")).to_be_visible()
    axe(page, f"{path} with the player bar")
