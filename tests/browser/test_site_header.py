"""The site's top bar on a phone, in Chromium: two lines at most however many links there are (the links scroll
sideways on the second), every link still reachable, and the page no wider than the phone."""

from __future__ import annotations

import pytest
from pagekit import WAIT_MS, axe, new_page
from serverkit import served

from cinch.server.pages import SITE_LINKS

PAGES = ("/", "/daily", "/ratings", "/puzzles")


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    with served(tmp_path_factory.mktemp("header") / "games.sqlite3", seed=3, bot_delay=0, between_deals=0) as s:
        yield s


@pytest.mark.parametrize("path", PAGES)
def test_the_top_bar_takes_two_lines_on_a_phone_and_keeps_every_link(srv, browser, pages, path):
    page = new_page(browser, phone=True, bypass_csp=True)
    pages.append(page)
    page.goto(srv.url + path)
    page.wait_for_selector("header.top nav a", timeout=WAIT_MS)
    bar = page.evaluate("""() => {
        const top = document.querySelector('header.top'), nav = top.querySelector('nav');
        const line = nav.querySelector('a').getBoundingClientRect().height;
        return {height: top.getBoundingClientRect().height, line, navHeight: nav.getBoundingClientRect().height,
                links: [...nav.querySelectorAll('a')].map(a => a.textContent.trim()),
                scrolls: nav.scrollWidth > nav.clientWidth, page: document.documentElement.scrollWidth};
    }""")
    assert bar["links"] == [text for _, text in SITE_LINKS]
    assert bar["navHeight"] < 1.5 * bar["line"], f"{path}: the links wrap onto a second line ({bar})"
    assert bar["height"] <= 2.3 * bar["line"], f"{path}: the top bar is {bar['height']:.0f} px high ({bar})"
    assert bar["page"] <= 390, f"{path}: the page is {bar['page']} px wide on a 390 px phone"
    last = page.locator("header.top nav a").last
    last.scroll_into_view_if_needed()
    assert last.is_visible() and last.bounding_box()["x"] + last.bounding_box()["width"] <= 390 + 1
    if path == "/":
        axe(page, "the lobby on a phone, its links scrolling")


def test_the_top_bar_is_one_line_on_a_desktop(srv, browser, pages):
    page = new_page(browser, bypass_csp=True)
    pages.append(page)
    page.goto(srv.url + "/")
    page.wait_for_selector("header.top nav a", timeout=WAIT_MS)
    height, line = page.evaluate("""() => ['header.top', 'header.top nav a']
        .map(css => document.querySelector(css).getBoundingClientRect().height)""")
    assert height < 1.5 * line
