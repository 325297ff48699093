"""The replay viewer's analysis in Debian's Chromium: "Analyse this deal", the blunder listed and shown beside
its frame, with no serious accessibility violation (axe-core) and no error on the page."""

from __future__ import annotations

import json

import pytest
from pagekit import serious_violations
from playwright.sync_api import expect
from serverkit import served

from cinch.record import dumps
from cinch.server import replays
from cinch.study.analysis import Settings

# A pagat deal stopped just after W threw a trump (K♠) under the other side's trick, a blunder.
DECK = ("2S AS AH 3D QH KC TH 8H AC JC 4S 2H QS 6S TD JS KH 3S 3H TS KD JD 7H 9S AD QC 7C 2D 5S 5D KS 5H 8D 9D "
        "7S 6C 6D 4D 6H 5C 4C 9H 2C 8C TC 4H 9C 3C 8S JH 7D QD")
ACTIONS = ["bid 7", "pass", "pass", "pass", "trump S", "keep 9S 8S 7S 4S JH QD", "play AS", "play 3S", "play TS",
           "play 4S", "play 4D", "play 4C", "play 2C", "play QD", "play JH", "play 6D", "play 6H", "play KS"]


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    with served(tmp_path_factory.mktemp("analysis") / "games.sqlite3") as s:
        yield s


def test_the_viewer_marks_the_blunder_beside_its_frame(srv, browser, tmp_path, monkeypatch):
    monkeypatch.setattr(replays, "ANALYSIS_SETTINGS", Settings(worlds=4))  # a quick search: the test is of the page
    monkeypatch.setattr(replays, "_ANALYSES", {})
    path = tmp_path / "blunder.json"
    path.write_text(dumps({"format": "cinch/1", "rules": "pagat",
                           "deals": [{"dealer": "N", "deck": DECK, "actions": ACTIONS}]}))
    page = browser.new_page(bypass_csp=True)  # (axe-core is added as an inline script)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{srv.url}/replay")
    page.get_by_test_id("file-input").set_input_files(str(path))
    page.wait_for_selector("main[data-ready=true]")
    expect(page.get_by_test_id("analysis-mark")).to_be_hidden()
    page.get_by_test_id("analyse").click()
    item = page.get_by_test_id("analysis-item")
    expect(item).to_have_count(1, timeout=60_000)
    expect(item).to_have_attribute("data-mark", "blunder")
    expect(page.get_by_test_id("analysis-status")).to_contain_text("1 marked")
    item.click()
    expect(page.get_by_test_id("counter")).to_have_attribute("data-step", str(len(ACTIONS)))
    mark = page.get_by_test_id("analysis-mark")
    expect(mark).to_have_attribute("data-mark", "blunder")
    expect(mark).to_contain_text("Blunder: trick 3, W: play K♠")
    page.keyboard.press("ArrowLeft")  # the frame before: S's card, judged and not marked
    expect(mark).to_contain_text("Judged: trick 3, S:")
    assert not serious_violations(page), json.dumps(serious_violations(page), indent=1)
    assert not errors, errors
    page.close()
