"""Every page of ``cinch serve`` has the one top bar the server writes in: the same links in the same order, the
page's own marked as the current page, the player bar for the request's session (nobody, a guest, an account),
its look and its script in the head; a room's page marks no link; and the docs say so."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playerkit import site_over

from cinch.server.daily import DailyOptions
from cinch.server.pages import SITE_LINKS, site_header, with_site_header

DOCS = Path(__file__).resolve().parents[2] / "docs"
STATIC = Path(__file__).resolve().parents[2] / "src" / "cinch" / "server" / "static"
PASSWORD = "a long enough password"
# Every page a person opens, and the link of the bar that is its own (a room's page: none).
PAGES = {"/": "/", "/daily": "/daily", "/daily/play/official": "/daily", "/events": "/events",
         "/events/ABCDEFGH": "/events", "/events/table/ABC123": "/events", "/replay": "/replay",
         "/puzzles": "/puzzles", "/score": "/score", "/ratings": "/ratings", "/players": "/players",
         "/players/Ann": "/players", "/account": "/account", "/rooms/ABC123": None}
LINKS = [("/", "Lobby"), ("/daily", "Daily deals"), ("/events", "Events"), ("/replay", "Replays"),
         ("/puzzles", "Puzzles"), ("/score", "Score sheet"), ("/ratings", "Ratings"), ("/players", "Players")]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    daily = DailyOptions(presets=("official",), bots="basic", deals=2)
    with site_over("sqlite", tmp_path_factory.mktemp("links"), daily=daily) as s:
        yield s


def header_of(text: str) -> str:
    headers = re.findall(r"<header class=\"top\">(.*?)</header>", text, re.S)
    assert len(headers) == 1, f"{len(headers)} top bars"
    return headers[0]


def marked(header: str) -> list[str]:
    return re.findall(r'<a href="([^"]*)"[^>]*aria-current="page"', header)


@pytest.mark.parametrize("path", list(PAGES))
def test_every_page_has_the_one_top_bar_with_every_link_and_marks_itself(site, path):
    page = site.browser().get(path)
    assert page.status_code == 200, page.text
    header = header_of(page.text)
    nav = re.search(r'<nav aria-label="Site">(.*?)</nav>', header, re.S)
    assert nav, header
    assert re.findall(r'<a href="([^"]*)"[^>]*>([^<]*)</a>', nav.group(1)) == LINKS
    assert marked(header) == ([] if PAGES[path] is None else [PAGES[path]]), header
    bar = re.search(r'<div class="player-bar"[^>]*>(.*?)</div>', header, re.S)
    assert bar and re.search(r'<a href="/account"[^>]*>Sign in</a>', bar.group(1)), header
    head = page.text.split("</head>", 1)[0]
    assert head.count('href="/static/header.css"') == 1 and head.count('src="/static/players/bar.js"') == 1
    assert 'data-here=' not in page.text  # (the slot is filled)


def test_the_player_bar_names_the_sessions_player_as_the_page_is_served(site):
    guest = site.browser()
    guest.guest("Cy <b>")
    bar = header_of(guest.get("/daily").text)
    assert '>Cy &lt;b&gt; (guest)</a>' in bar and 'href="/account"' in bar and "Sign out" not in bar
    assert 'data-player="guest"' in bar
    assert marked(header_of(guest.get("/account").text)) == ["/account"]  # (a guest's own page is the account page)
    ann = site.browser()
    ann.register("Ann", PASSWORD)
    bar = header_of(ann.get("/ratings").text)
    assert '<a href="/players/Ann" data-testid="player-name"' in bar and ">Ann</a>" in bar
    assert 'data-testid="sign-out">Sign out</button>' in bar and 'data-player="account"' in bar
    assert "Sign in" not in bar


def test_the_pages_own_controls_stay_in_its_bar():
    """What a page adds to its bar (the four-colour deck) comes after the links and before the player."""
    text = (STATIC / "replay" / "index.html").read_text()
    header = header_of(with_site_header(text))
    assert header.index("</nav>") < header.index('id="four-colour"') < header.index('class="player-bar"')
    assert [href for href, _ in SITE_LINKS] == [href for href, _ in LINKS]
    assert marked(site_header("/score")) == ["/score"] and marked(site_header("")) == []


def test_no_page_draws_a_top_bar_of_its_own():
    """The bar is written in one place: every page's HTML holds only its slot, and no script draws the links."""
    for page in STATIC.rglob("*.html"):
        text = page.read_text()
        assert "<nav" not in text and "Score sheet</a>" not in text, page
        assert len(re.findall(r'<header class="top" data-here="[^"]*">', text)) == 1, page
    for script in STATIC.rglob("*.js"):
        assert '"Score sheet"' not in script.read_text(), script


def test_the_docs_say_where_the_puzzles_are_linked():
    text = (DOCS / "puzzles.md").read_text()
    assert "linked from nowhere" not in text
    assert "top bar of every page" in text.split("## In the browser", 1)[1]
    assert "(puzzles.md#in-the-browser)" in (DOCS / "browser.md").read_text()
