"""The scorekeeper's phone page (``/score``) in Chromium, 360 px wide: a match entered by tapping, a refused
entry with the server's message beside the form, an undo that puts the deal back in the form, the winner,
a reload that resumes the sheet, another person without the key, and axe-core's accessibility check."""

from __future__ import annotations

from typing import Any

import pytest
from pagekit import WAIT_MS, axe
from playwright.sync_api import Page, expect
from serverkit import served

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2,
         "bypass_csp": True}  # (axe-core is injected as an inline script; the page itself needs no such thing)


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    with served(tmp_path_factory.mktemp("score") / "games.sqlite3") as s:
        yield s


def phone(browser: Any) -> Page:
    context = browser.new_context(**PHONE)
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))  # type: ignore[attr-defined]
    return page


def fits(page: Page, where: str) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 360, f"{where}: the page is {width} px wide on a 360 px phone"


def settle(page: Page, deals: int) -> None:
    page.get_by_test_id("settle").tap()
    page.wait_for_selector(f"main[data-ready=true][data-deals='{deals}']")


def test_a_match_kept_on_a_phone(srv, browser):
    page = phone(browser)
    page.goto(srv.url + "/score")
    page.wait_for_selector("main[data-ready=true]")
    page.get_by_test_id("preset").select_option("official")
    page.get_by_test_id("target").fill("21")
    page.get_by_test_id("name-N").fill("Ann")
    page.get_by_test_id("name-S").fill("Cy")
    page.get_by_test_id("first-dealer").select_option("W")
    fits(page, "the setup")
    axe(page, "the setup")
    page.get_by_test_id("start").tap()
    page.wait_for_selector("main[data-view=sheet][data-ready=true]")
    sheet = page.evaluate("() => document.getElementById('main').dataset.sheet")
    expect(page.get_by_test_id("status")).to_have_text("Deal 1: W deals.")
    expect(page.get_by_test_id("dealer")).to_have_value("W")

    # Deal 1, by the points only: the text's own example (bid 6, took 6 against 8).
    page.get_by_test_id("maker").select_option("E")
    page.get_by_test_id("bid").fill("6")
    page.get_by_test_id("trump-S").check()
    page.get_by_test_id("mode-sums").check()
    page.get_by_test_id("points-NS").fill("6")
    page.get_by_test_id("points-EW").fill("8")
    settle(page, 1)
    expect(page.get_by_test_id("ruling-lines")).to_contain_text("8 - 6: EW +2.")
    expect(page.get_by_test_id("score-EW")).to_have_text("2")
    expect(page.get_by_test_id("dealer")).to_have_value("N")  # the deal passed to the left

    # Deal 2: a bid out of range is refused beside the form, in the scorekeeper's words; nothing is kept.
    page.get_by_test_id("maker").select_option("N")
    page.get_by_test_id("bid").fill("20")
    page.get_by_test_id("mode-sums").check()
    page.get_by_test_id("points-NS").fill("14")
    page.get_by_test_id("points-EW").fill("0")
    page.get_by_test_id("settle").tap()
    expect(page.get_by_test_id("deal-error")).to_have_text(
        "A bid of 20 is out of range: bids run from 1 to 14 under official+.")
    assert page.evaluate("() => document.getElementById('main').dataset.deals") == "1"
    # ... entered again card by card (Jack dead), then taken back: the entry returns to the form.
    page.get_by_test_id("bid").fill("7")
    page.get_by_test_id("mode-cards").check()
    for card, taker in (("High", "NS"), ("Low", "S"), ("Jack", "nobody"), ("Game", "NS"), ("Right-Pedro", "N"),
                        ("Left-Pedro", "EW")):
        page.get_by_test_id(f"took-{card}").select_option(taker)
    settle(page, 2)
    expect(page.get_by_test_id("ruling-lines")).to_contain_text("N bid 7: NS took 8, EW 5: made.")
    page.get_by_test_id("undo").tap()
    page.wait_for_selector("main[data-ready=true][data-deals='1']")
    expect(page.get_by_test_id("undo-note")).to_contain_text("Took back deal 2")
    expect(page.get_by_test_id("maker")).to_have_value("N")
    expect(page.get_by_test_id("took-Jack")).to_have_value("nobody")
    page.get_by_test_id("took-Left-Pedro").select_option("N")  # the mistake: NS took the left Pedro too
    settle(page, 2)
    expect(page.get_by_test_id("score-NS")).to_have_text("13")

    # Deal 3: a revoke, with 002's penalty chosen over the preset's 003; it ends the match.
    page.get_by_test_id("maker").select_option("S")
    page.get_by_test_id("bid").fill("7")
    page.get_by_test_id("mode-sums").check()
    page.get_by_test_id("revoke").select_option("EW")
    page.get_by_test_id("penalty-text").select_option("002")
    expect(page.get_by_test_id("penalty-words")).to_contain_text("002: the other side scores the deal's points")
    settle(page, 3)
    expect(page.get_by_test_id("ruling-lines")).to_contain_text("EW revoked (002)")
    expect(page.get_by_test_id("winner")).to_have_text("NS (Ann & Cy) win the match, 27 to 2.")
    expect(page.get_by_test_id("deal-form")).to_be_hidden()
    fits(page, "the sheet with its winner")
    axe(page, "the sheet")

    # The page opened again goes on with the sheet; another person without the key cannot.
    page.reload()
    page.wait_for_selector("main[data-ready=true][data-deals='3']")
    expect(page.get_by_test_id("winner")).to_be_visible()
    link = page.get_by_test_id("secret-link").input_value()
    other = phone(browser)
    other.goto(f"{srv.url}/score?sheet={sheet}")
    other.wait_for_selector("main[data-ready=true]")
    expect(other.get_by_test_id("load-error")).to_contain_text(f"does not hold the key of score sheet {sheet}")
    other.goto(srv.url + "/score")  # (then the link is a new page, not a jump within this one)
    other.goto(link)
    other.wait_for_selector("main[data-ready=true][data-deals='3']")
    assert "key=" not in other.url
    errors = page.errors + other.errors  # type: ignore[attr-defined]
    page.context.close()
    other.context.close()
    assert not errors, errors


def test_an_incorrect_hand_under_003_is_entered_and_ruled_on(srv, browser):
    page = phone(browser)
    page.goto(srv.url + "/score")
    page.wait_for_selector("main[data-ready=true]")
    page.get_by_test_id("preset").select_option("official")  # 003's rulings
    page.get_by_test_id("first-dealer").select_option("N")
    page.get_by_test_id("start").tap()
    page.wait_for_selector("main[data-view=sheet][data-ready=true]")
    page.get_by_test_id("maker").select_option("E")
    page.get_by_test_id("bid").fill("7")
    page.get_by_test_id("mode-sums").check()
    page.get_by_test_id("points-NS").fill("6")
    page.get_by_test_id("points-EW").fill("8")

    # One box per seat at most: the fourth hides the button; a removed box gives it back.
    for _ in range(4):
        page.get_by_test_id("add-hand").tap()
    expect(page.get_by_test_id("add-hand")).to_be_hidden()
    expect(page.get_by_test_id("hand-4").get_by_test_id("hand-seat")).to_have_value("W")  # the seat left over
    page.get_by_test_id("hand-4").get_by_test_id("hand-remove").tap()
    page.get_by_test_id("hand-3").get_by_role("button", name="Remove incorrect hand 3").tap()
    expect(page.get_by_test_id("add-hand")).to_be_visible()
    expect(page.get_by_test_id("add-hand")).to_be_focused()

    first, second = page.get_by_test_id("hand-1"), page.get_by_test_id("hand-2")
    expect(page.get_by_role("group", name="Incorrect hand 1")).to_be_visible()  # renumbered after the removals
    expect(page.get_by_role("group", name="Incorrect hand 2")).to_be_visible()
    first.get_by_label("Who").select_option("E")
    first.get_by_label("Held").select_option("2")
    first.get_by_label("Cards too many or too few").select_option("too_many")
    expect(first.get_by_test_id("hand-words")).to_contain_text("003: too few cards, play goes on; too many, an "
                                                               "opponent draws the excess face down")
    second.get_by_label("Who").select_option("N")
    second.get_by_label("Held").select_option("1")
    second.get_by_label("Cards too many or too few").select_option("too_few")
    second.get_by_label("Ruling by text").select_option("002")
    expect(second.get_by_test_id("hand-words")).to_contain_text("002 has no ruling on an incorrect hand")
    fits(page, "a deal with two incorrect hands")
    axe(page, "a deal with two incorrect hands")
    settle(page, 1)
    lines = page.get_by_test_id("ruling-lines")
    expect(lines).to_contain_text("E held 2 cards too many (003): an opponent drew the excess face down and it went "
                                  "back to the pack; play went on, and the score is not changed by it.")
    expect(lines).to_contain_text("N held 1 card too few: 002 has no ruling on an incorrect hand, so the deal is "
                                  "settled as entered.")
    expect(page.get_by_test_id("score-EW")).to_have_text("2")  # settled from the points, as without them
    expect(page.get_by_test_id("hand-1")).to_have_count(0)  # the next deal's form starts without any
    page.get_by_test_id("deals").locator("summary").first.tap()
    expect(page.get_by_test_id("deals")).to_contain_text("E held 2 cards too many (003)")  # kept with the deal

    # Taken back, the hands return to the form; a misdeal has none to give.
    page.get_by_test_id("undo").tap()
    page.wait_for_selector("main[data-ready=true][data-deals='0']")
    expect(page.get_by_test_id("hand-1").get_by_label("Held")).to_have_value("2")
    expect(page.get_by_test_id("hand-2").get_by_label("Cards too many or too few")).to_have_value("too_few")
    page.get_by_test_id("what-misdeal").check()
    expect(page.get_by_test_id("incorrect-hands")).to_be_hidden()
    errors = page.errors  # type: ignore[attr-defined]
    page.context.close()
    assert not errors, errors


def test_a_three_player_sheet_on_a_phone(srv, browser):
    page = phone(browser)
    page.goto(srv.url + "/score")
    page.wait_for_selector("main[data-ready=true]")
    page.get_by_test_id("preset").select_option("additive")
    page.get_by_test_id("table-size").select_option("3")
    expect(page.get_by_test_id("name-N")).to_have_count(0)  # the names are asked by the table's own seats
    page.get_by_test_id("name-2").fill("Bo")
    page.get_by_test_id("first-dealer").select_option("3")
    page.get_by_test_id("target").fill("21")
    fits(page, "the setup at three")
    page.get_by_test_id("start").tap()
    page.wait_for_selector("main[data-view=sheet][data-ready=true]")
    expect(page.get_by_test_id("sheet-title")).to_contain_text("3 players each for himself")
    expect(page.get_by_test_id("dealer")).to_have_value("3")
    expect(page.get_by_test_id("irregularity")).to_be_hidden()  # the honour rule is four-player only
    expect(page.get_by_test_id("what-misdeal")).to_be_hidden()

    # Deal 1, each player's points: a blank player took none, and points that do not add up are refused.
    page.get_by_test_id("maker").select_option("2")
    page.get_by_test_id("bid").fill("6")
    page.get_by_test_id("mode-sums").check()
    page.get_by_test_id("points-1").fill("9")
    page.get_by_test_id("points-2").fill("9")
    page.get_by_test_id("settle").tap()
    expect(page.get_by_test_id("deal-error")).to_contain_text("1: 9, 2: 9 and 3: 0 make 18, but the point cards hold "
                                                              "only 14")
    page.get_by_test_id("points-1").fill("")
    settle(page, 1)
    expect(page.get_by_test_id("ruling-lines")).to_contain_text("2 bid 6: 2 took 9, 3 0, 1 0: made.")
    expect(page.get_by_test_id("score-2")).to_have_text("9")
    expect(page.get_by_test_id("dealer")).to_have_value("1")

    # Deal 2 by cards: the takers are the players; 1 bid 8 and was set.
    page.get_by_test_id("maker").select_option("1")
    page.get_by_test_id("bid").fill("8")
    page.get_by_test_id("mode-cards").check()
    for card, taker in (("High", "1"), ("Low", "3"), ("Jack", "nobody"), ("Game", "3"), ("Right-Pedro", "2"),
                        ("Left-Pedro", "1")):
        page.get_by_test_id(f"took-{card}").select_option(taker)
    settle(page, 2)
    expect(page.get_by_test_id("ruling-lines")).to_contain_text("a maker short of his bid loses it: 1 -8, 2 +5, 3 +2.")
    expect(page.get_by_test_id("deals")).to_contain_text("-8")
    assert page.evaluate("() => [...document.querySelectorAll('#deals thead th')].map((th) => th.textContent)") == [
        "#", "Deal", "1", "2", "3"]

    # Deal 3 ends the match: 2 (Bo) reaches 21.
    page.get_by_test_id("maker").select_option("2")
    page.get_by_test_id("bid").fill("7")
    page.get_by_test_id("mode-sums").check()
    page.get_by_test_id("points-2").fill("8")
    page.get_by_test_id("points-3").fill("6")
    settle(page, 3)
    expect(page.get_by_test_id("winner")).to_have_text("2 (Bo) wins the match with 22 (1: -8, 2: 22, 3: 8).")
    fits(page, "a three-player sheet with its winner")
    axe(page, "a three-player sheet")
    errors = page.errors  # type: ignore[attr-defined]
    page.context.close()
    assert not errors, errors
