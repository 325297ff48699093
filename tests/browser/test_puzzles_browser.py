"""The puzzle page in Debian's Chromium: a puzzle shown, a card clicked, the verdict and the explanation, with no
serious accessibility violation (axe-core) and no error on the page."""

from __future__ import annotations

import json

import pytest
from pagekit import serious_violations
from playwright.sync_api import expect
from serverkit import served

from cinch.study.puzzles import load_puzzles


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    with served(tmp_path_factory.mktemp("puzzles") / "games.sqlite3") as s:
        yield s


def test_a_puzzle_is_answered_by_clicking_a_card(srv, browser):
    puzzle = next(p for p in load_puzzles() if len(p.view.hand) > len(p.legal_cards))  # some cards not playable
    page = browser.new_page(bypass_csp=True)  # (axe-core is added as an inline script)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{srv.url}/puzzles?id={puzzle.id}")
    page.wait_for_selector("main[data-ready=true]")
    expect(page.get_by_test_id("puzzle-title")).to_contain_text(puzzle.id)
    expect(page.get_by_test_id("answer")).to_be_hidden()
    hand = page.get_by_test_id("hand")
    expect(hand.locator("button.card")).to_have_count(len(puzzle.view.hand))
    expect(hand.locator("button.card.legal")).to_have_count(len(puzzle.legal_cards))
    assert not serious_violations(page), json.dumps(serious_violations(page), indent=1)
    wrong = next(c for c in puzzle.legal_cards if c != puzzle.answer)
    page.get_by_test_id(f"card-{wrong}").click()
    expect(page.get_by_test_id("verdict")).to_have_text("Not the best card.")
    expect(page.get_by_test_id("explanation")).to_contain_text("gives away")
    expect(hand.locator(f"button.card.answer[data-card={puzzle.answer}]")).to_have_count(1)
    expect(hand.locator("button.card:enabled")).to_have_count(0)  # one guess a puzzle
    assert not serious_violations(page), json.dumps(serious_violations(page), indent=1)
    page.get_by_test_id("next").click()  # another puzzle, and this time the right card
    page.wait_for_function("id => !location.search.endsWith(id)", arg=puzzle.id)
    page.wait_for_selector("main[data-ready=true]")
    shown = page.get_by_test_id("puzzle-title").inner_text().split()[1]
    answer = next(p.answer for p in load_puzzles() if p.id == shown)
    page.get_by_test_id(f"card-{answer}").click()
    expect(page.get_by_test_id("verdict")).to_have_text("Right: that is the best card.")
    assert not errors, errors
    page.close()
