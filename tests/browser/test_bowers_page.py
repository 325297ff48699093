"""All-hands Pedro (``bowers``) in the browser: ``cards.js`` stars and sorts the bowers once a page says the
option is on, and the replay viewer says so for a bowers record (the left bower starred, the other five not)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pagekit import new_page
from playwright.sync_api import expect
from serverkit import served

RECORDS = Path(__file__).resolve().parents[1] / "records"


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    with served(tmp_path_factory.mktemp("bowers") / "games.sqlite3", bot_delay=0.02, between_deals=60) as s:
        yield s


# cards.js as a page module imports it: with and without the bowers, the same hand with hearts trumps.
CARDS_JS = """async () => {
  const c = await import('/static/cards.js');
  const hand = ['5D', 'JD', 'AH', 'JH', '5H', 'KD'];
  const out = {};
  for (const on of [true, false]) {
    c.setBowers(on);
    out[on] = {sorted: c.sortHand(hand, 'H'), trumps: hand.filter((x) => c.isTrump(x, 'H')),
               named: c.trumpsIf(hand, 'H'), note: c.trumpNote('H'), left: c.leftCard('H')};
  }
  return out;
}"""


def test_cards_js_draws_the_bowers_when_told(srv, browser):
    page = new_page(browser)
    page.goto(srv.url + "/replay")
    got = page.evaluate(CARDS_JS)
    page.context.close()
    bowers, plain = got["true"], got["false"]
    assert bowers["sorted"] == ["JH", "JD", "AH", "5H", "KD", "5D"]
    assert bowers["trumps"] == ["JD", "AH", "JH", "5H"] and bowers["left"] == "JD"
    assert bowers["named"] == {"count": 4, "pedros": ["right Pedro", "left bower"]}
    assert bowers["note"] == "the bowers J♥ and J♦ rank above the ace; the 5♦ is a plain card"
    assert plain["sorted"] == ["AH", "JH", "5H", "5D", "KD", "JD"]
    assert plain["trumps"] == ["5D", "AH", "JH", "5H"] and plain["left"] == "5D"
    assert plain["named"] == {"count": 4, "pedros": ["right Pedro", "left Pedro"]}
    assert plain["note"] == "the 5♦ is a trump too"


def test_the_replay_viewer_stars_the_left_bower_of_a_bowers_record(srv, browser):
    page = new_page(browser)
    page.goto(srv.url + "/replay")
    page.get_by_test_id("file-input").set_input_files(str(RECORDS / "official-bowers.json"))
    page.wait_for_selector("main[data-ready=true]")
    counter = page.get_by_test_id("counter")
    for step in range(1, 6):  # to "trump H"
        page.get_by_test_id("step-next").click()
        expect(counter).to_have_attribute("data-step", str(step))
    expect(page.get_by_test_id("contract")).to_contain_text("the bowers J♥ and J♦ rank above the ace")
    south, west = page.get_by_test_id("hand-S"), page.get_by_test_id("hand-W")
    expect(south.locator('[data-card="JD"]')).to_have_class("card suit-D trump")
    expect(west.locator('[data-card="5D"]')).to_have_class("card suit-D")  # the other five: a plain card
    assert south.locator("[data-card]").first.get_attribute("data-card") == "JD"  # the bower on top
    errors = page.errors  # type: ignore[attr-defined]
    page.context.close()
    assert not errors, errors


def test_the_table_page_of_a_bowers_room_spells_out_the_bowers(srv, browser):
    # Four bots play; a spectator's page shows the contract with the bowers and stars the trumps in the trick.
    room = srv.create(rules={"preset": "pagat", "bowers": True})
    host = srv.player(room["code"], host_token=room["host_token"])
    for seat in "NESW":
        host.send({"type": "fill", "seat": seat, "bot": "basic"})
    host.until(lambda m: m["type"] == "state" and all(s["kind"] == "bot" for s in m["room"]["seats"]))
    page = new_page(browser)
    page.goto(room["link"])
    host.send({"type": "start"})
    contract = page.locator("#board .contract")
    expect(contract).to_contain_text("rank above the ace", timeout=20_000)
    # One snapshot of the page (the bots play on): the contract's suit and the trick's cards with their stars.
    snap = page.evaluate("""() => ({
      contract: document.querySelector('#board .contract').textContent,
      trick: [...document.querySelectorAll('#trick [data-card]')]
        .map((c) => [c.dataset.card, c.classList.contains('trump')]),
    })""")
    assert "rank above the ace" in snap["contract"]
    named = snap["contract"].split("trumps ")[1].split()[0]
    suit = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}[named]
    left_bower = "J" + {"S": "C", "C": "S", "H": "D", "D": "H"}[suit]
    for code, starred in snap["trick"]:  # the cards in the trick (if any): starred by the bowers' rule
        assert starred == (code[1] == suit or code == left_bower), code  # (the other five: no star)
    host.close()
    errors = page.errors  # type: ignore[attr-defined]
    page.context.close()
    assert not errors, errors
