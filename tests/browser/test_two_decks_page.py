"""Two-deck Cinch (the rules' ``decks=2``) at the browser table: the lobby offers it and doubles the target; a hand
of 18 with cards held twice lays out on a desktop and on a phone; one copy of a card held twice is played; the
keep chooser keeps one copy or both.

South is the page's person, the other seats bots. South sits from Python with a fixed entropy and the page opens
with the seat's token; the first dealer and the shuffles are seeded (``Secrets``), so every run deals the same
cards: South deals the first deal, robs a stock that holds a card twice and keeps both copies.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from typing import Any

import pytest
from pagekit import (
    DEAL_S,
    bury_if_asked,
    click_decision,
    hand,
    new_page,
    state,
    wait_my_turn_or,
    wait_ready,
    wait_seq_past,
)
from playwright.sync_api import Browser, Page
from serverkit import Player, Secrets, Served, served

import cinch.server.rooms as rooms_module
import cinch.shuffle as shuffle_module

TWO_DECKS = {"preset": "pagat", "decks": 2, "bidder_goes_out": None}
SEED = 2032  # (a seed whose first deal South deals, robbing a stock that holds a card twice)
ENTROPY = "5eed" * 8
DEAL_OVER = "m => m.dataset.ready === 'true' && m.dataset.status !== 'playing'"


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    with served(tmp_path_factory.mktemp("two-decks") / "games.sqlite3", bot_delay=0.02, between_deals=60,
                grace=3600) as s:
        yield s


def seated_room(srv: Served, seed: int) -> tuple[dict[str, Any], Player, Player]:
    """A two-deck room with South a person (seated from Python with ``ENTROPY``) and bots in the other seats,
    not yet started, under seeded secrets: the room, the host's client and South's."""
    room = srv.create(rules=TWO_DECKS)
    host = srv.player(room["code"], host_token=room["host_token"])
    south = srv.player(room["code"])
    south.join("S", "Ann", ENTROPY)
    for seat in "NEW":
        host.send({"type": "fill", "seat": seat, "bot": "basic"})
    host.until(lambda m: m["type"] == "state" and all(s["kind"] != "empty" for s in m["room"]["seats"]))
    return room, host, south


def open_seat(srv: Served, browser: Browser, code: str, player: Player, phone: bool = False) -> Page:
    """A page of the room holding ``player``'s seat token, as the browser that took the seat keeps it."""
    page = new_page(browser, phone=phone)
    kept = json.dumps({"token": player.token, "seat": player.seat, "entropy": ENTROPY})
    page.context.add_init_script(f"localStorage.setItem({json.dumps('cinch:room:' + code)}, {json.dumps(kept)})")
    page.goto(f"{srv.url}/rooms/{code}")
    page.wait_for_selector(f"main[data-seat={player.seat}]")
    return page


def hand_fits(page: Page) -> dict[str, Any]:
    """How the hand lies: its cards' boxes against the viewport, and whether any card is covered past its middle (a
    fanned hand overlaps its cards, but each shows its index and half its face or more: a click on its middle is
    on it)."""
    return page.evaluate("""() => {
      const boxes = [...document.querySelectorAll('#hand button.card')].map((b) => b.getBoundingClientRect());
      const overlap = boxes.some((a, i) => boxes.some((b, j) => j > i && b.left < a.left + a.width / 2 + 1
        && a.left < b.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1));
      return {cards: boxes.length, rows: new Set(boxes.map((b) => Math.round(b.top))).size, overlap,
              inside: boxes.every((b) => b.left >= 0 && b.right <= window.innerWidth),
              scrolls: document.documentElement.scrollWidth > window.innerWidth};
    }""")


def keep_places(page: Page) -> list[dict[str, Any]]:
    return page.locator("#decision .keep .card").evaluate_all(
        "bs => bs.map(b => ({place: Number(b.dataset.place), card: b.dataset.card, kept: b.classList.contains('kept'),"
        " trump: b.classList.contains('trump'), label: b.getAttribute('aria-label')}))")


def click_place(page: Page, place: int) -> None:
    page.locator(f"#decision .keep .card[data-place='{place}']").click()


def keep_both_copies(page: Page) -> str:
    """At the keep chooser: one copy of a card in the pool twice kept, then the other too (a kept card let go
    to keep the count), and the keep confirmed. The card kept twice."""
    keep = state(page)["deal"]["keep"]
    places = keep_places(page)
    by_card: dict[str, list[dict[str, Any]]] = {}
    for p in places:
        by_card.setdefault(p["card"], []).append(p)
    pairs = [c for c, ps in by_card.items() if len(ps) == 2 and c not in keep["must"]]
    assert pairs, f"the pool holds no card twice: {[p['card'] for p in places]}"
    card = pairs[0]
    first, second = by_card[card]
    assert first["label"].split(",")[0].endswith("(1 of 2)") and second["label"].split(",")[0].endswith("(2 of 2)")
    # Each copy is its own button: marking one leaves the other as it was.
    for copy in (first, second):
        if copy["kept"]:
            click_place(page, copy["place"])
    now = {p["place"]: p["kept"] for p in keep_places(page)}
    assert not now[first["place"]] and not now[second["place"]]
    click_place(page, second["place"])
    now = {p["place"]: p["kept"] for p in keep_places(page)}
    assert now[second["place"]] and not now[first["place"]]  # one copy kept
    click_place(page, first["place"])  # ... and both
    # Back to as many cards as the rule keeps: let go of other cards, plain ones first (the trumps count).
    while len([p for p in keep_places(page) if p["kept"]]) > keep["most"]:
        kept = [p for p in keep_places(page) if p["kept"] and p["card"] != card and p["card"] not in keep["must"]]
        kept.sort(key=lambda p: p["trump"])
        click_place(page, kept[0]["place"])
    while len([p for p in keep_places(page) if p["kept"]]) < keep["fewest"]:
        thrown = [p for p in keep_places(page) if not p["kept"]]
        thrown.sort(key=lambda p: not p["trump"])
        click_place(page, thrown[0]["place"])
    status = page.locator("#keep-status").inner_text()
    assert "a legal hand" in status, status
    seq = state(page)["seq"]
    page.locator("#confirm-keep").click()
    wait_seq_past(page, seq)
    page.wait_for_function("() => document.querySelectorAll('#hand button.card').length > 0")
    return card


def play_a_card_held_twice(page: Page) -> str | None:
    """At a turn to play: a card held twice that may be played, clicked (its first copy); None if there is none."""
    cards = hand(page)
    legal = page.locator("#hand button.card.legal").evaluate_all("bs => bs.map(b => b.dataset.card)")
    twice = [c for c in legal if cards.count(c) == 2]
    if not twice:
        return None
    card = twice[0]
    seq = state(page)["seq"]
    page.locator(f"#hand button.card.legal[data-card='{card}']").first.click()
    bury_if_asked(page, seq, lambda loc: loc.click())
    wait_seq_past(page, seq)
    return card


def test_the_lobby_offers_two_decks_and_doubles_the_target(srv, browser, pages):
    page = new_page(browser)
    pages.append(page)
    page.goto(srv.url + "/")
    wait_ready(page)
    page.select_option("#preset", "pagat")
    assert page.input_value("#target") == "62"
    page.check("#two-decks")
    assert page.input_value("#target") == "124"  # as the rules double it
    page.check("#heasly")
    assert page.input_value("#target") == "124"  # Heasly's 62, doubled
    page.uncheck("#heasly")
    page.select_option("#players", "4")
    assert page.input_value("#target") == "124"
    page.locator("#create-room").click()
    page.wait_for_url("**/rooms/*")
    wait_ready(page)
    assert "pagat+ to 124 · two decks" in page.locator(".room-head").inner_text()
    code = page.url.rsplit("/", 1)[1]
    room = srv.http.get(f"/api/rooms/{code}").json()
    assert room["rules"]["decks"] == 2 and room["target"] == 124


def test_a_two_deck_hand_lays_out_plays_a_card_held_twice_and_keeps_both_copies(srv, browser, pages, monkeypatch):
    secrets = Secrets(SEED)
    monkeypatch.setattr(rooms_module, "secrets", secrets)
    monkeypatch.setattr(shuffle_module, "secrets", secrets)
    room, host, south = seated_room(srv, SEED)
    code = room["code"]
    page = open_seat(srv, browser, code, south)
    pages.append(page)
    south.close()  # (the page plays South from here)
    host.send({"type": "start"})
    host.until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
    host.close()
    page.wait_for_selector("main[data-status=playing]")
    page.wait_for_function("() => document.querySelectorAll('#hand button.card').length === 18")
    dealt = hand(page)
    assert len(dealt) == 18 and state(page)["deal"]["dealer"] == "S"
    assert max(Counter(dealt).values()) <= 2
    # Eighteen cards fit the desktop's width and a phone's, in rows, none over another.
    phone = open_seat(srv, browser, code, south, phone=True)
    pages.append(phone)
    phone.wait_for_function("() => document.querySelectorAll('#hand button.card').length === 18")
    for shown, most_rows in ((page, 2), (phone, 3)):
        fits = hand_fits(shown)
        assert fits["cards"] == 18 and fits["inside"] and not fits["overlap"] and not fits["scrolls"], fits
        assert fits["rows"] <= most_rows, fits
    phone.context.close()
    pages.remove(phone)

    kept_twice, played_twice = None, None
    deadline = time.monotonic() + DEAL_S
    seq = -1
    while played_twice is None or kept_twice is None:
        assert time.monotonic() < deadline, "the deal took too long"
        turn = wait_my_turn_or(page, seq, DEAL_OVER)
        assert turn != "done", f"the deal ended first: kept twice {kept_twice}, played twice {played_twice}"
        seq = turn["seq"]
        if page.locator("#confirm-keep").count():
            kept_twice = keep_both_copies(page)
            assert hand(page).count(kept_twice) == 2, (kept_twice, hand(page))
        elif turn["phase"] == "play" and played_twice is None and (card := play_a_card_held_twice(page)):
            played_twice = card
            # One copy went to the trick; the other stays in the hand.
            deal = state(page)["deal"]
            plays = deal["trick"]["plays"] + (deal["tricks"][-1]["plays"] if deal["tricks"] else [])
            assert {"seat": "S", "card": card} in plays, plays  # (the trick may be over: the bots play on)
            assert hand(page).count(card) == 1, (card, hand(page))
        else:
            click_decision(page, turn)
    # On to the end of the deal: the page derives the 104-card deck from the revealed salt and checks it.
    while (turn := wait_my_turn_or(page, seq, DEAL_OVER)) != "done":
        seq = turn["seq"]
        click_decision(page, turn)
    fair = page.wait_for_selector("#fairness[data-verified]")
    assert fair.get_attribute("data-verified") == "true", fair.inner_text()
    assert len(state(page)["deal"]["reveal"]["deck"].split()) == 104
