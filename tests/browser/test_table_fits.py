"""The browser table at the sizes people play it (issue 24): a phone held upright (390x844 and 360x740), a phone on its
side (844x390) and a desktop (1280x800), by touch on the phones; four players, three, six, and two decks.

Each test plays a whole deal through the page as one person against bots and checks, at every decision, what a
player would notice: nothing scrolls (sideways or down), the whole hand lies inside the screen and under no panel,
every seat is on the screen, no two seats' boxes overlap and your own lies clear of the panel; that each card of
every trick you play to lies nearer the seat that played it than any other seat; that the fourth card of every trick
stays on view for a second or more with its winner marked; that the end of the deal waits for this person's Next
although the room's timer (1 s) has long run out; and that no text anywhere says "undefined", "null", "NaN" or
"[object". It also checks the waiting room on a phone, finding a game again (the room's links, the replay library),
axe-core in every phase, a page catching up, and the reduced motion; and, with ``CINCH_DOC_SHOTS=1``, saves the
screenshots docs/ shows.

Nothing is left to the luck of the deal: the server deals every room from ``SEED`` and South sends a fixed entropy
(pagekit.entropy_of), so each test plays the same deals every run.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any

import pytest
from pagekit import (
    MY_TURN,
    WAIT_MS,
    axe,
    click_decision,
    entropy_of,
    fix_entropy,
    state,
    wait_ready,
    wait_seq_past,
    wait_until,
)
from playwright.sync_api import Browser, Page, expect
from serverkit import Player, Served, served

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
SEED = 2424
SIZES = {"390x844": (390, 844), "360x740": (360, 740), "844x390": (844, 390), "1280x800": (1280, 800)}
DEAL_OVER = "m => m.dataset.ready === 'true' && m.dataset.status !== 'playing'"
LINGER_MS = 1000  # the fourth card of a trick must stay on view this long at least

# Put in every page before its scripts: every 50 ms, the text the page shows (and its labels) against the words a
# bug writes, and how long each trick just won lies whole on the felt with its winner marked.
WATCH = """(() => {
  const watch = window.cinchWatch = {bad: [], won: {}, arrived: 0};
  const BAD = /undefined|null|NaN|\\[object/;
  const look = () => {
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      if (BAD.test(n.nodeValue) && watch.bad.length < 20) watch.bad.push(n.nodeValue.slice(0, 120));
    }
    for (const e of document.querySelectorAll('[aria-label], [title]')) {
      const words = `${e.getAttribute('aria-label') || ''} ${e.getAttribute('title') || ''}`;
      if (BAD.test(words) && watch.bad.length < 20) watch.bad.push(words.slice(0, 120));
    }
    const t = document.getElementById('trick');
    const won = t && t.dataset.showing === 'won' && !t.classList.contains('gather');
    if (won && t.querySelector('.spot.won [data-card]')) {
      const cards = [...t.querySelectorAll('[data-card]')].map((c) => c.dataset.card).join(' ');
      const now = performance.now();
      const seen = watch.won[cards] || (watch.won[cards] = {first: now, last: now});
      seen.last = now;
    }
    watch.arrived += document.querySelectorAll('#trick .card.arrive').length ? 1 : 0;
  };
  document.addEventListener('DOMContentLoaded', () => setInterval(look, 50));
})();"""

# What a player sees now: does the page scroll, is the whole hand on the screen and clear of the panel above it,
# is every seat on the screen, does any seat's box overlap another's, is your own seat clear of the panel and the
# message over the felt, and does the decision fit without scrolling inside its panel.
FITS = """() => {
  const W = innerWidth, H = innerHeight, de = document.documentElement;
  const inside = (r) => r.left >= -1 && r.top >= -1 && r.right <= W + 1 && r.bottom <= H + 1;
  const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const seats = [...document.querySelectorAll('#board .seat')].map((s) => [s.dataset.seat, s.getBoundingClientRect()]);
  const over = [...document.querySelectorAll('#decision:not([hidden]):not(.quiet), #message:not([hidden])')]
    .map((e) => e.getBoundingClientRect());
  const mine = document.querySelector('#board .seat.mine');
  const hand = [...document.querySelectorAll('#hand button.card')].map((b) => b.getBoundingClientRect());
  const panel = document.querySelector('#decision:not([hidden]):not(.quiet)');
  const box = panel && panel.getBoundingClientRect();
  return {
    sideways: de.scrollWidth > W, down: de.scrollHeight > H,
    cards: hand.length, handOut: hand.filter((r) => !inside(r)).length,
    underPanel: box ? hand.filter((r) => r.top < box.bottom - 1).length : 0,
    panelScrolls: panel ? panel.scrollHeight > panel.clientHeight + 1 : false,
    panelOut: box ? !inside(box) : false,
    seatsOut: [...document.querySelectorAll('#board .seat')].filter((s) => !inside(s.getBoundingClientRect()))
      .map((s) => s.dataset.seat),
    seatsOverlap: seats.flatMap(([a, r], i) => seats.slice(i + 1).filter(([, q]) => meet(r, q))
      .map(([b]) => `${a} ${b}`)),
    ownCovered: !!mine && over.some((r) => meet(mine.getBoundingClientRect(), r)),
  };
}"""

# The trick as it lies: each card (by the seat that played it) and the seat whose box's centre is nearest the card's.
TRICK_PLACES = """() => {
  const mid = (e) => { const r = e.getBoundingClientRect(); return [(r.left + r.right) / 2, (r.top + r.bottom) / 2]; };
  const seats = [...document.querySelectorAll('#board .seat')].map((s) => [s.dataset.seat, mid(s)]);
  return [...document.querySelectorAll('#trick .spot')].filter((s) => s.querySelector('[data-card]')).map((spot) => {
    const [x, y] = mid(spot.querySelector('[data-card]'));
    const near = seats.map(([seat, [sx, sy]]) => [Math.hypot(sx - x, sy - y), seat]).sort((a, b) => a[0] - b[0]);
    return {seat: spot.dataset.seat, nearest: near[0][1]};
  });
}"""


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    # The end of a deal would deal on after 1 s at a table of two people: at one person's, it waits for Next.
    with served(tmp_path_factory.mktemp("sizes") / "games.sqlite3", seed=SEED, bot_delay=0.05, trick_pause=1.2,
                between_deals=1, grace=3600) as s:
        yield s


def sized_page(browser: Browser, size: str, **options: Any) -> Page:
    """A page of one person's own at a size: a phone (touch) below 1000 px wide, else a desktop."""
    width, height = SIZES[size]
    phone = width < 1000
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone,
                                  device_scale_factor=2 if phone else 1, **options)
    context.set_default_timeout(WAIT_MS)
    context.add_init_script(WATCH)
    page = context.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))  # type: ignore[attr-defined]
    return page


def seated(srv: Served, browser: Browser, size: str, rules: Any = "pagat", **room: Any) -> tuple[Page, dict[str, Any]]:
    """A room of bots and one person, South (seat 1 at a cut-throat table), who sat from Python with the seat's fixed
    entropy; the page opens it with the seat's token, as the browser that sat keeps it. Started."""
    made = srv.create(rules=rules, **room)
    code = made["code"]
    seats = [s["seat"] for s in made["room"]["seats"]]
    mine = "S" if "S" in seats else seats[0]
    host = srv.player(code, host_token=made["host_token"])
    me = srv.player(code)
    me.join(mine, "Ann", entropy_of(mine))
    for seat in seats:
        if seat != mine:
            host.send({"type": "fill", "seat": seat, "bot": "basic"})
    host.until(lambda m: m["type"] == "state" and all(s["kind"] != "empty" for s in m["room"]["seats"]))
    page = sized_page(browser, size)
    kept = json.dumps({"token": me.token, "seat": mine, "entropy": entropy_of(mine)})
    page.context.add_init_script(f"localStorage.setItem({json.dumps('cinch:room:' + code)}, {json.dumps(kept)})")
    page.goto(f"{srv.url}/rooms/{code}")
    page.wait_for_selector(f"main[data-seat='{mine}']")
    me.close()
    start(host)
    page.wait_for_selector("main[data-status=playing]")
    return page, made


def start(host: Player) -> None:
    host.send({"type": "start"})
    host.until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
    host.close()


def fits(page: Page, where: str) -> dict[str, Any]:
    """Nothing scrolls, the whole hand is on the screen and clear of the panel, every seat is on the screen."""
    got = page.evaluate(FITS)
    assert not got["sideways"], f"{where}: the page scrolls sideways"
    assert not got["down"], f"{where}: the page scrolls down"
    assert got["handOut"] == 0 and got["underPanel"] == 0, f"{where}: the hand is not all in view: {got}"
    assert not got["panelOut"] and not got["panelScrolls"], f"{where}: the decision does not fit: {got}"
    assert not got["seatsOut"], f"{where}: seats {got['seatsOut']} are off the screen"
    assert not got["seatsOverlap"], f"{where}: seat boxes overlap: {got['seatsOverlap']}"
    assert not got["ownCovered"], f"{where}: your own seat lies under the panel or the message"
    return got


def trick_in_front_of_its_players(page: Page, where: str) -> None:
    """Every card of the trick lies nearer the seat that played it than any other seat, and no seat boxes overlap."""
    places = page.evaluate(TRICK_PLACES)
    assert places, f"{where}: no card in the trick"
    astray = [p for p in places if p["nearest"] != p["seat"]]
    assert not astray, f"{where}: cards lie nearer another seat than their player's: {astray}"
    assert not page.evaluate(FITS)["seatsOverlap"], f"{where}: seat boxes overlap"


def shot(page: Page, name: str) -> None:
    """A screenshot of what the screen shows, for docs/: taken only when ``CINCH_DOC_SHOTS=1`` asks for them, so
    that a test run leaves the tracked pictures alone (docs/browser.md says how to take them again)."""
    if os.environ.get("CINCH_DOC_SHOTS") != "1":
        return
    page.screenshot(path=str(DOCS / name), scale="css", animations="disabled", caret="hide")
    assert (DOCS / name).stat().st_size < 1_000_000


def bid_high(page: Page) -> str:
    """The highest bid offered (so that this seat names trumps and keeps), else a pass."""
    actions = page.locator("#decision button.choice[data-action]").evaluate_all("bs => bs.map(b => b.dataset.action)")
    bids = [a for a in actions if a.startswith("bid ")]
    return bids[-1] if bids else "pass"


def play_deal(page: Page, where: str, *, tap: bool, shots: dict[str, str] | None = None, high: bool = False,
              checks: dict[str, Any] | None = None) -> list[str]:
    """Play one deal through the page, checking at every decision that the table fits; the phases decided.
    ``shots``: docs/ screenshots to take (by moment: bidding, trick, end); ``high``: bid the highest bid;
    ``checks``: run at the first decision of each phase (by phase name: a function of the page)."""
    shots = dict(shots or {})
    checks = dict(checks or {})
    phases: list[str] = []
    deadline = time.monotonic() + 120
    seq = -1
    while True:
        assert time.monotonic() < deadline, f"{where}: the deal did not end"
        turn = wait_until(page, f"(m, s) => ({DEAL_OVER})(m) ? 'done' : (({MY_TURN})() && ({MY_TURN})().seq > s"
                                f" && ({MY_TURN})())", seq, timeout=30_000)
        if turn == "done":
            return phases
        phase = turn["phase"]
        keep = page.locator("#confirm-keep").count() > 0
        name = "keep" if keep else phase
        if phase == "play":  # a person looks at the trick just won before leading to the next
            page.wait_for_function("() => !document.querySelector('#trick[data-showing=won]')")
        fits(page, f"{where}, {name}")
        if name in checks:
            checks.pop(name)(page)
        if name == "bidding" and "bidding" in shots:
            shot(page, shots.pop("bidding"))
        phases.append(name)
        if phase == "bidding" and high:
            action = bid_high(page)
            button = page.locator(f"#decision button.choice[data-action='{action}']")
            button.tap() if tap else button.click()
        else:
            click_decision(page, turn, tap=tap)
        wait_until(page, f"(m, s) => Number(m.dataset.seq) > s || ({DEAL_OVER})(m)", turn["seq"])
        seq = turn["seq"]
        if phase == "play":  # the trick whole, its winner marked: the felt as it lies
            try:
                page.wait_for_selector("#trick[data-showing=won]:not(.gather)", timeout=3000)
            except Exception:
                continue
            trick_in_front_of_its_players(page, f"{where}, a trick won")
            if "trick" in shots:
                shot(page, shots.pop("trick"))


def after_the_deal(page: Page, where: str, shots: dict[str, str] | None = None) -> dict[str, Any]:
    """The end of the deal: the box waits for this person's Next long after the room's timer (1 s) ran out, with
    the last trick; the table fits; every trick's fourth card stayed on view, its winner marked. The last state."""
    expect(page.locator("#deal-end")).to_be_visible()
    page.wait_for_timeout(2500)
    status = page.locator("main").get_attribute("data-status")
    assert status == "between-deals", f"{where}: the next deal came by itself"
    box = page.locator("#deal-end")
    expect(box).to_be_visible()
    expect(box.locator("#ready")).to_be_enabled()
    expect(box.locator("#waiting-for")).to_have_text("Waiting for you to press Next.")
    expect(box.locator(".last-trick-mini [data-card]")).not_to_have_count(0)
    expect(box.locator("#fairness")).to_have_attribute("data-verified", "true")
    got = page.evaluate(FITS)
    assert not got["sideways"] and not got["down"], f"{where}, the end of the deal: {got}"
    end = box.bounding_box()
    view = page.viewport_size
    assert end and view and end["y"] >= 0 and end["y"] + end["height"] <= view["height"] + 1, f"{where}: {end}"
    assert box.evaluate("b => b.scrollHeight <= b.clientHeight + 1"), f"{where}: the end box scrolls"
    if shots and "end" in shots:
        shot(page, shots["end"])
    last = state(page)
    watch = page.evaluate("() => window.cinchWatch")
    tricks = last["deal"]["tricks"]
    won = watch["won"]
    for trick in tricks:
        cards = " ".join(p["card"] for p in trick["plays"])
        seen = next((v for k, v in won.items() if sorted(k.split()) == sorted(cards.split())), None)
        assert seen, f"{where}: the trick {cards} was never on view whole with its winner marked"
        assert seen["last"] - seen["first"] >= LINGER_MS - 60, f"{where}: the trick {cards} lay whole {seen} ms"
    assert not watch["bad"], f"{where}: the page wrote {watch['bad']}"
    return last


def next_deal(page: Page, tap: bool) -> None:
    seq = int(page.locator("main").get_attribute("data-seq") or 0)
    button = page.locator("#deal-end #ready")
    button.tap() if tap else button.click()
    wait_until(page, "(m, s) => Number(m.dataset.seq) > s && m.dataset.status === 'playing'", seq)
    expect(page.locator("#deal-end")).to_be_hidden()


# ---- a whole deal at each size ---------------------------------------------------------------------------------
DOC_SHOTS = {
    "390x844": {"bidding": "table-phone-bidding.png", "trick": "table-phone.png", "end": "table-phone-end.png"},
    "1280x800": {"bidding": "table-desktop-bidding.png", "trick": "table-desktop.png", "end": "table-desktop-end.png"},
}


@pytest.mark.parametrize("size", list(SIZES))
def test_a_whole_deal_fits_the_screen_at_each_size(srv, browser, pages, size):
    page, _ = seated(srv, browser, size)
    pages.append(page)
    tap = SIZES[size][0] < 1000
    shots = DOC_SHOTS.get(size, {})
    phases = play_deal(page, size, tap=tap, shots=shots)
    assert "bidding" in phases and "play" in phases, phases
    after_the_deal(page, size, shots)
    next_deal(page, tap)
    expect(page.locator("#score-bar")).to_contain_text("deal 2")


@pytest.mark.parametrize(("what", "size", "rules"), [
    ("three players", "390x844", {"preset": "pagat", "players": 3}),
    ("six players", "844x390", {"preset": "official", "heasly": True}),
    ("six players", "360x740", {"preset": "official", "heasly": True}),
    ("two decks", "360x740", {"preset": "pagat", "decks": 2, "bidder_goes_out": None}),
    ("two decks", "1280x800", {"preset": "pagat", "decks": 2, "bidder_goes_out": None}),
])
def test_other_tables_fit_the_screen_too(srv, browser, pages, what, size, rules):
    page, made = seated(srv, browser, size, rules)
    pages.append(page)
    seats = page.locator("#board .seat")
    expect(seats).to_have_count(len(made["room"]["seats"]))
    tap = SIZES[size][0] < 1000
    shots = {"trick": "table-six.png"} if (what, size) == ("six players", "844x390") else {}
    play_deal(page, f"{what} at {size}", tap=tap, shots=shots)
    after_the_deal(page, f"{what} at {size}")


# ---- words ---------------------------------------------------------------------------------------------------------
def test_every_seat_says_what_it_is_doing_and_a_hint_reads_as_advice(srv, browser, pages):
    page, _ = seated(srv, browser, "390x844", "additive")
    pages.append(page)
    said: dict[str, str] = {}

    def doing(p: Page) -> None:
        said[state(p)["deal"]["phase"]] = p.locator("#board .seat.to-act .doing").inner_text()

    def hint(p: Page) -> None:
        doing(p)
        p.locator("#hint").tap()
        message = p.locator("#message")
        expect(message).to_contain_text("Hint (", timeout=WAIT_MS)
        assert "advice" in (message.get_attribute("class") or "")
        assert message.evaluate("m => getComputedStyle(m, '::before').content") == '"Advice · "'
        color = message.evaluate("m => getComputedStyle(m).color")
        assert color != "rgb(122, 0, 0)", "a hint is written in the errors' red"

    phases = play_deal(page, "words", tap=True, high=True, checks={"bidding": hint, "trump": doing, "keep": doing,
                                                                      "play": doing})
    assert {"bidding", "trump", "play"} <= set(phases), phases
    assert said["bidding"] == "Your bid" and said["trump"] == "Name trumps", said
    assert said["play"] in ("Your lead", "Your card"), said
    assert "keep" not in phases or said.get("discard", said.get("rob")) in ("Your discard", "Rob the pack"), said
    # Another seat's turn says what it is doing, in the phase's words; and the maker's seat, its bid and trumps.
    words = page.evaluate("() => window.cinchWatch.bad")
    assert not words, words


# ---- the waiting room, on a phone -------------------------------------------------------------------------------
def test_the_waiting_room_fits_a_phone_and_one_tap_fills_the_seats_and_starts(srv, browser, pages):
    page = sized_page(browser, "360x740")
    pages.append(page)
    page.goto(srv.url + "/")
    wait_ready(page)
    axe(page, "the lobby")
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    page.select_option("#between-deals", "30")
    page.locator("#create-room").tap()
    page.wait_for_url(re.compile(r"/rooms/[A-Z0-9]{6}$"))
    wait_ready(page)
    code = page.url.rsplit("/", 1)[1]
    assert srv.http.get(f"/api/rooms/{code}").json()["between_deals"] == 30  # the lobby's timer
    fix_entropy(page, "S")
    page.locator("#my-name").fill("Pip")
    page.locator("#seating button[data-sit='S']").tap()
    page.wait_for_selector("main[data-seat=S]")
    # One line a seat; the start at the top, not yet possible; one tap fills the empty seats and starts.
    lines = page.locator("#seating li.seat-entry")
    expect(lines).to_have_count(4)
    assert all(box["height"] <= 60 for box in (lines.nth(i).bounding_box() for i in range(4)))  # type: ignore[index]
    expect(page.locator("#start")).to_be_disabled()
    start_box, list_box = page.locator("#start").bounding_box(), page.locator("#seating").bounding_box()
    assert start_box and list_box and start_box["y"] < list_box["y"], "Start is not above the seats"
    page.locator("select[data-fill='N']").select_option("basic")  # one control changes who plays a seat
    expect(page.locator("#seating li[data-seat=N]")).to_contain_text("bot")
    expect(page.locator("select[data-fill='N']")).to_have_value("basic")
    # The bots' level offered first is the server's bot (the strongest its --bot-time allows: the expert by default).
    expect(page.locator("#fill-level")).to_have_value(srv.http.get("/api/presets").json()["default_bot"])
    assert page.evaluate("() => document.documentElement.scrollHeight <= innerHeight"), "the waiting room scrolls"
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    axe(page, "the waiting room")
    expect(page.locator("#fill-start")).to_have_text("Fill the 2 empty seats with bots and start")
    page.locator("#fill-start").tap()
    page.wait_for_selector("main[data-status=playing]")
    seats = {s["seat"]: s for s in state(page)["room"]["seats"]}
    assert seats["N"]["bot"] == "basic" and seats["E"]["kind"] == seats["W"]["kind"] == "bot"
    # Once the match runs, the room folds into the bar and its menu.
    expect(page.locator("#waiting-room")).to_be_hidden()
    expect(page.locator("#room-bar")).to_contain_text(code)
    page.locator("#menu-button").tap()
    expect(page.locator("#side #invite-link")).to_be_visible()
    expect(page.locator("#side #seating")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#menu-button")).to_have_attribute("aria-expanded", "false")


# ---- every phase, for a screen reader (axe-core), and finding the game again -----------------------------------
def test_axe_in_every_phase_and_the_game_found_again(srv, browser, pages):
    page, made = seated(srv, browser, "1280x800", "additive")
    pages.append(page)
    checked: list[str] = []

    def check(name: str) -> Any:
        def run(p: Page) -> None:
            axe(p, f"the table, {name}")
            checked.append(name)
        return run

    checks = {"bidding": check("bidding"), "trump": check("trumps"), "keep": check("keep"), "play": check("play")}
    play_deal(page, "axe", tap=False, high=True, checks=checks)
    expect(page.locator("#deal-end")).to_be_visible()
    expect(page.locator("#fairness")).to_have_attribute("data-verified", "true")
    axe(page, "the table, the end of the deal")
    assert checked == ["bidding", "trumps", "keep", "play"], checked
    # The room links its record, its replay, and each finished deal's replay and analysis.
    code = made["code"]
    match_id = state(page)["room"]["match_id"]
    expect(page.locator("#deal-end #replay-deal")).to_have_attribute("href", f"/replay?game={match_id}&deal=1&step=0")
    expect(page.locator("#deal-end #analyse-deal")).to_have_attribute(
        "href", f"/replay?game={match_id}&deal=1&step=0&analyse=1")
    expect(page.locator("#side #record-link")).to_have_attribute("href", f"/rooms/{code}/record")
    expect(page.locator("#side #replay-link")).to_have_attribute("href", f"/replay?game={match_id}")
    expect(page.locator("#side .deal-links a")).to_have_count(2)
    record = srv.http.get(f"/rooms/{code}/record").json()
    assert len(record["deals"]) == 1
    # The replay library: the room's code, the players, the rules and the result, newest first; a filter by name.
    replay = sized_page(browser, "390x844", bypass_csp=True)  # (axe-core is added as an inline script)
    pages.append(replay)
    replay.goto(srv.url + "/replay")
    item = replay.locator(f"li[data-room='{code}']")
    expect(item).to_have_count(1)
    expect(item).to_contain_text(f"room {code}")
    expect(item).to_contain_text("S Ann")
    expect(item).to_contain_text("additive")
    ids = replay.locator("#library .library-item").evaluate_all("bs => bs.map(b => Number(b.dataset.id))")
    assert ids == sorted(ids, reverse=True), ids
    replay.locator("#library-filter").fill("nobody-here")
    expect(replay.locator("#library li:not([hidden])")).to_have_count(0)
    replay.locator("#library-filter").fill("ann")
    expect(item).to_be_visible()
    axe(replay, "the replay library")
    replay.goto(srv.url + f"/replay?game={match_id}&deal=1&step=0&analyse=1")
    expect(replay.get_by_test_id("viewer")).to_be_visible()
    expect(replay.get_by_test_id("analysis-status")).to_contain_text("Deal 1", timeout=60_000)
    axe(replay, "the replay viewer")


# ---- catching up, and reduced motion ----------------------------------------------------------------------------
def test_a_page_catching_up_shows_the_position_at_once_and_reduced_motion_moves_nothing(srv, browser, pages):
    page, made = seated(srv, browser, "390x844")
    pages.append(page)
    seq = -1
    while True:  # on to this seat's turn with a card or more in the trick
        turn = wait_until(page, f"(m, s) => ({MY_TURN})() && ({MY_TURN})().seq > s && ({MY_TURN})()", seq)
        if turn["phase"] == "play" and page.locator("#trick[data-showing=current] [data-card]").count():
            break
        click_decision(page, turn, tap=True)
        seq = turn["seq"]
    cards = page.locator("#trick [data-card]").evaluate_all("cs => cs.map(c => c.dataset.card)")
    page.reload()
    wait_ready(page)
    expect(page.locator("main")).to_have_attribute("data-seq", str(turn["seq"]))
    assert page.locator("#trick [data-card]").evaluate_all("cs => cs.map(c => c.dataset.card)") == cards
    assert page.locator("#trick .card.arrive").count() == 0, "a page catching up replays the cards' moves"
    # With reduced motion, nothing slides: no card arrives moving, no trick is gathered with a transition.
    still = sized_page(browser, "390x844", reduced_motion="reduce")
    pages.append(still)
    still.goto(f"{srv.url}/rooms/{made['code']}")  # (a spectator)
    wait_ready(still)
    click_decision(page, turn, tap=True)
    wait_seq_past(still, turn["seq"])
    still.wait_for_timeout(1500)  # (the bots play on: cards arrive, a trick may be won and gathered)
    assert still.evaluate("() => window.cinchWatch.arrived") == 0
    card = still.locator("#trick .card").first
    moves = card.evaluate("c => [getComputedStyle(c).transitionDuration, getComputedStyle(c).animationName]")
    assert moves == ["0s", "none"], moves
