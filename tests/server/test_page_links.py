"""Every page of ``cinch serve`` links the puzzle page from its top bar, and the docs say so."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from serverkit import served

DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGES = ["/", "/rooms/ABC123", "/replay", "/score", "/puzzles"]  # (a room's address serves the table's page)


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    with served(tmp_path_factory.mktemp("links") / "games.sqlite3") as s:
        yield s


@pytest.mark.parametrize("path", PAGES)
def test_every_page_links_the_puzzles_from_its_top_bar(srv, path):
    page = srv.http.get(path)
    assert page.status_code == 200
    nav = re.search(r"<nav[^>]*>(.*?)</nav>", page.text, re.S)
    assert nav and re.search(r'<a href="/puzzles"[^>]*>Puzzles</a>', nav.group(1)), f"{path}: {nav}"


def test_the_docs_say_where_the_puzzles_are_linked():
    text = (DOCS / "puzzles.md").read_text()
    assert "linked from nowhere" not in text
    assert "top bar of every page" in text.split("## In the browser", 1)[1]
    assert "(puzzles.md#in-the-browser)" in (DOCS / "browser.md").read_text()
