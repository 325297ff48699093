"""The browser table, driven as people drive it: the lobby, four people at one table by clicking, one
person against bots by the keyboard alone, a spectator who must never see a hidden card, a reload mid-trick,
a phone, the accessibility of every view (axe-core), and the replay viewer on a golden record (when the
server has one).  (The screenshots docs/ shows are test_table_fits.py's.)

A real ``cinch serve`` runs in a thread (``tests/server/serverkit.py``); Chromium is Debian's (conftest.py).
Every wait is bounded (pagekit.WAIT_MS, pagekit.DEAL_S): a broken page fails a test, it never hangs it.
Nothing is left to the luck of the deal: the server deals every room from ``SEED`` and each page sends its
seat's fixed entropy (pagekit.fix_entropy), so each test plays the same deals every run.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pagekit import (
    MY_TURN,
    WAIT_MS,
    axe,
    cards_named,
    click_decision,
    entropy_of,
    fix_entropy,
    hand,
    key_decision,
    new_page,
    play_alone,
    play_together,
    public_cards,
    sit,
    state,
    tab_to,
    table,
    wait_ready,
    wait_seq_past,
    wait_until,
)
from playwright.sync_api import Page, expect
from serverkit import Player, Served, served

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "tests" / "records"

SEED = 2030  # (the rooms' chance: in a room started with South's person at the table, South deals first)
PLAYING = "m => m.dataset.status === 'playing'"
DEAL_OVER = "m => m.dataset.ready === 'true' && m.dataset.status !== 'playing'"
PRIVATE = ("hand", "legal", "keep", "own_discards", "own_drawn", "stock_seen")
# The rule that the other five of the trump colour is a trump: words about the rules, not about a hand.
PEDRO_RULE = re.compile(r"\(the (?:left Pedro )?5[♠♥♦♣] is a trump too\)")


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    with served(tmp_path_factory.mktemp("browser") / "games.sqlite3", seed=SEED, bot_delay=0.05,
                between_deals=60) as s:
        yield s


@pytest.fixture
def open_page(browser):
    """Pages, each in its own context (one person each); at the end, no page may have thrown an error."""
    made: list[Page] = []

    def make(**options: Any) -> Page:
        page = new_page(browser, **options)
        made.append(page)
        return page

    yield make
    errors = [e for p in made for e in p.errors]  # type: ignore[attr-defined]
    for p in made:
        p.context.close()
    assert not errors, f"the page threw: {errors}"


def bot_room(srv: Served, bots: str = "NEW", **body: Any) -> tuple[str, str, Player]:
    """A room whose ``bots`` seats hold bots (seated by the host over a websocket): its code, link and host."""
    room = srv.create(**body)
    host = srv.player(room["code"], host_token=room["host_token"])
    for seat in bots:
        host.send({"type": "fill", "seat": seat, "bot": "heuristic"})
    host.until(lambda m: m["type"] == "state" and sum(s["kind"] == "bot" for s in m["room"]["seats"]) == len(bots))
    return room["code"], room["link"], host


def start(host: Player, *pages: Page) -> None:
    host.send({"type": "start"})
    host.until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
    host.close()
    for page in pages:
        page.wait_for_selector("main[data-status=playing]")


def next_deal(page: Page) -> None:
    """From the end-of-deal box, on to the next deal (the only person at the table is ready)."""
    seq = table(page)["seq"]
    page.locator("#deal-end #ready").click()
    wait_until(page, f"(m, s) => Number(m.dataset.seq) > s && ({PLAYING})(m)", seq)


def until_trick(page: Page, cards: int, decide: Callable[..., None], held: int = 1, deals: int = 4) -> dict[str, Any]:
    """Play on (into later deals if need be) until it is this page's turn to play with at least ``cards``
    cards in the trick and ``held`` in the hand (after two deals, any hand will do); that turn, not yet taken."""
    found: list[dict[str, Any]] = []
    least = [held]

    def stop(p: Page, turn: dict[str, Any]) -> bool:
        if turn["phase"] == "play" and table(p)["trick"] >= cards and len(hand(p)) >= least[0]:
            found.append(turn)
            return True
        return False

    for deal in range(deals):
        least[0] = held if deal < 2 else 1
        play_alone(page, decide, DEAL_OVER, before=stop)
        if found:
            return found[0]
        next_deal(page)
    raise AssertionError(f"no trick with {cards} cards at this seat's turn in {deals} deals")


def no_sideways_scroll(page: Page, where: str) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, f"{where}: the page is {width} px wide on a 390 px phone"


def every_card_reachable(page: Page) -> None:
    """Each card of the hand, scrolled into view, lies wholly inside the phone's viewport."""
    cards = page.locator("#hand button.card")
    assert cards.count() > 0
    for i in range(cards.count()):
        card = cards.nth(i)
        card.scroll_into_view_if_needed()
        box = card.bounding_box()
        view = page.viewport_size
        assert box and view
        where = (card.get_attribute("data-card"), box)  # (within a pixel: the layout has fractional pixels)
        assert box["x"] >= -1 and box["x"] + box["width"] <= view["width"] + 1, where
        assert box["y"] >= -1 and box["y"] + box["height"] <= view["height"] + 1, where
        assert box["width"] >= 40 and box["height"] >= 40, f"a card is too small to tap: {box}"


def check_deal_end(page: Page) -> None:
    """The end-of-deal box: who took each point card, as the deal's settlement says, and the fair shuffle."""
    box = page.locator("#deal-end")
    expect(box).to_be_visible()
    expect(box.locator("table.awards caption")).to_have_text("Who took each point card")
    awards = state(page)["match"]["last_deal"]["awards"]
    rows = box.locator("table.awards tbody tr")
    expect(rows).to_have_count(len(awards))
    assert awards, "a played deal awards its point cards"
    for row, award in zip(rows.all(), awards):
        cells = row.locator("td").all_inner_texts()
        taker = cells[2].split(" (")[0]  # (a Low that scores for its holder says so: "NS (held)")
        assert cells[0] == award["name"] and taker == award["team"] and cells[3] == str(award["points"])
        assert cards_named(cells[1]) == {award["card"]}
    expect(box.locator("#fairness")).to_have_attribute("data-verified", "true")
    expect(box.locator("#fairness")).to_contain_text("Fair shuffle")


# ---- 1. four people, one table, by clicking ------------------------------------------------------------------
def test_four_people_take_the_seats_and_play_a_deal_by_clicking(srv, open_page):
    pages = {seat: open_page() for seat in "NESW"}
    ann = pages["N"]
    # Ann makes the room in the lobby: she is its host.
    ann.goto(srv.url + "/")
    wait_ready(ann)
    ann.select_option("#preset", "pagat")
    expect(ann.locator("#target")).to_have_value("62")
    expect(ann.locator("#preset-rules li").first).to_be_visible()
    ann.locator("#create-room").click()
    ann.wait_for_url(re.compile(r"/rooms/[A-Z0-9]{6}$"))
    wait_ready(ann)
    code = ann.url.rsplit("/", 1)[1]
    assert json.loads(ann.evaluate(f"() => localStorage.getItem('cinch:room:{code}')"))["host_token"]
    link = ann.locator("#invite-link").get_attribute("href")
    assert link and link.endswith(f"/rooms/{code}")
    expect(ann.locator("#start")).to_be_disabled()  # four seats to fill first
    sit(ann, link, "N", "Ann")
    # Bea finds the room among the lobby's open rooms; Cy opens it by its code; Di by the invite link.
    bea = pages["E"]
    bea.goto(srv.url + "/")
    wait_ready(bea)
    bea.locator("#rooms a", has_text=code).click()
    bea.wait_for_url(f"**/rooms/{code}")
    sit(bea, bea.url, "E", "Bea")
    cy = pages["S"]
    cy.goto(srv.url + "/")
    wait_ready(cy)
    cy.locator("#code").fill(code.lower())
    cy.locator("#join button[type=submit]").click()
    cy.wait_for_url(f"**/rooms/{code}")
    sit(cy, cy.url, "S", "Cy")
    sit(pages["W"], link, "W", "Di")
    for seat, name in zip("NESW", ("Ann", "Bea", "Cy", "Di")):
        expect(ann.locator(f"#seating li[data-seat={seat}]")).to_contain_text(name)
    ann.locator("#start").click()
    for page in pages.values():
        page.wait_for_selector("main[data-status=playing]")
        expect(page.locator("#hand button.card")).to_have_count(9)
    made = play_together(pages, ann, click_decision, DEAL_OVER)
    assert made >= 4 + 1 + 24  # the bids, the trumps, the cards (and the keeps)
    for page in pages.values():
        expect(page.locator("main")).to_have_attribute("data-status", "between-deals")
        check_deal_end(page)
        expect(page.locator("#hand button.card")).to_have_count(0)
    # Everybody says "Next deal": the next deal is dealt at once.
    for page in pages.values():
        page.locator("#deal-end #ready").click()
    for page in pages.values():
        page.wait_for_selector("main[data-status=playing]")
        expect(page.locator("#deal-end")).to_be_hidden()
        expect(page.locator("#score")).to_contain_text("deal 2")


# ---- 2. one person against three bots, by the keyboard alone --------------------------------------------------
def test_one_person_plays_a_deal_against_bots_with_the_keyboard_only(srv, open_page):
    code, link, host = bot_room(srv, target=200)  # (no match is won in the deals played here)
    page = open_page()
    page.goto(link)
    wait_ready(page)
    fix_entropy(page, "S")
    page.focus("#my-name")
    page.keyboard.type("Kay")
    tab_to(page, "#seating button[data-sit='S']")  # (the waiting room: one line a seat, "Sit here" on each)
    page.keyboard.press("Enter")
    page.wait_for_selector("main[data-seat=S]")
    seats = {s["seat"]: s for s in srv.http.get(f"/api/rooms/{code}").json()["seats"]}
    assert seats["S"]["entropy"] == entropy_of("S")  # (with the seeded server: the same deals every run)
    start(host, page)
    asked = {"hint": False, "last": False, "keep": False}
    turns: list[tuple[str, str]] = []  # (dealer, phase) of each turn: to say why, if it fails

    def extras(p: Page, turn: dict[str, Any]) -> bool:
        turns.append((state(p)["deal"]["dealer"], turn["phase"]))
        if not asked["hint"] and turn["phase"] == "bidding":
            p.keyboard.press("?")  # a hint, for this decision
            expect(p.locator("#message")).to_contain_text("Hint (", timeout=WAIT_MS)
            asked["hint"] = True
        if not asked["last"] and turn["phase"] == "play" and p.locator("#last-trick").count():
            p.keyboard.press("l")  # the last trick, and back
            expect(p.locator("#last-trick")).to_have_attribute("aria-pressed", "true")
            expect(p.locator("#trick .trick-caption")).to_contain_text("Last trick")
            expect(p.locator("#trick [data-card]")).to_have_count(4)
            p.keyboard.press("l")
            expect(p.locator("#last-trick")).to_have_attribute("aria-pressed", "false")
            asked["last"] = True
        if turn["phase"] in ("discard", "rob"):
            if p.locator("#confirm-keep").count():
                p.keyboard.press("?")  # a hint for the keep: the chooser marks the hinted hand
                expect(p.locator("#message")).to_contain_text("Hint (", timeout=WAIT_MS)
            asked["keep"] = True
        return False

    made = play_alone(page, key_decision, DEAL_OVER, before=extras)
    assert made >= 1 + 6 and asked["hint"] and asked["last"]  # a bid, six cards (and maybe trumps and a keep)
    check_deal_end(page)
    seq = table(page)["seq"]
    page.keyboard.press("Enter")  # "Next deal"
    wait_until(page, f"(m, s) => Number(m.dataset.seq) > s && ({PLAYING})(m)", seq)
    expect(page.locator("#score")).to_contain_text("deal 2")
    # On by the keyboard until this seat has robbed as the dealer, keeping cards from the stock (a deal
    # whose rob leaves one legal hand asks nothing: then the turn comes round again).
    for _ in range(7):
        if asked["keep"]:
            break
        play_alone(page, key_decision, DEAL_OVER, before=extras)
        check_deal_end(page)
        seq = table(page)["seq"]
        page.keyboard.press("Enter")
        wait_until(page, f"(m, s) => Number(m.dataset.seq) > s && ({PLAYING})(m)", seq)
    assert asked["keep"], f"eight deals without a keep decision for S: {turns}"


# ---- 3. a spectator sees no hidden card ------------------------------------------------------------------------
WATCH = """() => {
  const t = window.cinchTable;
  window.seen = [];
  const words = () => [document.body.textContent,
    ...[...document.querySelectorAll('[aria-label], [title]')].map(e =>
      `${e.getAttribute('aria-label') || ''} ${e.getAttribute('title') || ''}`)].join('\\n');
  const snap = () => window.seen.push({state: t.state, cards: [...document.querySelectorAll('[data-card]')]
    .map(e => e.dataset.card), text: words()});
  const render = t.render.bind(t);
  t.render = () => { render(); snap(); };
}"""


def strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() if k not in ("commitment", "entropy", "link") for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def test_a_spectator_never_sees_a_hidden_card(srv, open_page):
    code, link, host = bot_room(srv, "NESW", bot_delay=0.1)
    page = open_page()
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(
        payload if isinstance(payload, str) else payload.decode())))
    page.goto(link)
    wait_ready(page)
    expect(page.locator("#hand")).to_contain_text("Watching: the hands are hidden.")
    page.evaluate(WATCH)
    start(host, page)
    wait_until(page, DEAL_OVER, timeout=60_000)
    # Every render of the running deal: the cards in the DOM, and the cards named in its words.
    seen = page.evaluate("() => window.seen")
    running = [s for s in seen if s["state"]["deal"] and s["state"]["deal"]["phase"] != "done"]
    assert len(running) >= 20, f"only {len(running)} renders of the running deal were seen"
    assert any(s["state"]["deal"]["phase"] == "play" for s in running)
    for snap in running:
        deal = snap["state"]["deal"]
        public = public_cards(deal)
        assert set(snap["cards"]) <= public, (deal["phase"], set(snap["cards"]) - public)
        named = cards_named(PEDRO_RULE.sub("", snap["text"]))
        assert named <= public, f"the page names {named - public} in {deal['phase']}, seq {snap['state']['seq']}"
    # Every frame the spectator's websocket got: no private field, no card it may not know.
    last_public: set[str] = set()
    states = 0
    for frame in frames:
        message = json.loads(frame)
        assert not set(PRIVATE) & set(message), message
        deal = message.get("deal") if message["type"] == "state" else None
        if message["type"] == "state":
            if deal and deal["phase"] == "done":
                continue
            states += 1
            assert deal is None or not set(PRIVATE) & set(deal), sorted(set(PRIVATE) & set(deal))
            last_public = public_cards(deal)
        named = set().union(*(cards_named(PEDRO_RULE.sub("", s)) for s in strings(message)))
        assert named <= last_public, f"a frame names {named - last_public}: {frame[:300]}"
    assert states >= 20
    check_deal_end(page)
    expect(page.locator("#deal-end #ready")).to_have_count(0)  # a spectator is not asked


# ---- 4. a reload mid-trick -------------------------------------------------------------------------------------
def test_a_reload_mid_trick_returns_to_the_same_seat_and_hand(srv, open_page):
    code, link, host = bot_room(srv)
    page = open_page()
    sit(page, link, "S", "Rae")
    start(host, page)
    until_trick(page, 1, click_decision)
    before = {"hand": hand(page), "trick": page.locator("#trick [data-card]").evaluate_all(
        "es => es.map(e => e.dataset.card)"), "seq": table(page)["seq"]}
    page.reload()
    wait_ready(page)
    expect(page.locator("main")).to_have_attribute("data-seat", "S")
    expect(page.locator("main")).to_have_attribute("data-seq", str(before["seq"]))
    turn = wait_until(page, f"(m) => ({MY_TURN})()")
    assert turn["phase"] == "play"
    assert hand(page) == before["hand"]
    assert page.locator("#trick [data-card]").evaluate_all("es => es.map(e => e.dataset.card)") == before["trick"]
    # And play goes on from there, to the end of the deal.
    card = page.locator("#hand button.card.legal").first.get_attribute("data-card")
    page.locator("#hand button.card.legal").first.click()
    wait_seq_past(page, before["seq"])
    expect(page.locator(f"#hand button.card[data-card='{card}']")).to_have_count(0)
    play_alone(page, click_decision, DEAL_OVER)
    check_deal_end(page)
    # The shuffle is checked against the commitment as the page saw it during the deal, not as the last
    # state repeats it: had the server changed it, the page would warn.
    page.evaluate("() => { window.cinchTable.promised.commitment = '0'.repeat(64); window.cinchTable.render(); }")
    expect(page.locator("#fairness")).to_have_attribute("data-verified", "false")
    expect(page.locator("#fairness")).to_contain_text("Warning")


# ---- 5 and 7. a phone ------------------------------------------------------------------------------------------
def test_a_phone_shows_every_card_and_plays_by_tapping(srv, open_page):
    page = open_page(phone=True)
    page.goto(srv.url + "/")
    wait_ready(page)
    no_sideways_scroll(page, "the lobby")
    page.locator("#create-room").tap()
    page.wait_for_url(re.compile(r"/rooms/[A-Z0-9]{6}$"))
    wait_ready(page)
    no_sideways_scroll(page, "a waiting room")
    for seat in "NEW":  # the host seats the bots, each seat's one control
        page.locator(f"select[data-fill='{seat}']").select_option("heuristic")
        expect(page.locator(f"#seating li[data-seat={seat}]")).to_contain_text("bot")
    fix_entropy(page, "S")
    page.locator("#my-name").fill("Pip")
    page.locator("#seating button[data-sit='S']").tap()
    page.wait_for_selector("main[data-seat=S]")
    page.locator("#start").tap()
    page.wait_for_selector("main[data-status=playing]")
    turn = wait_until(page, f"(m) => ({MY_TURN})()")
    assert turn["phase"] == "bidding"
    no_sideways_scroll(page, "the bidding")
    every_card_reachable(page)
    click_decision(page, turn, tap=True)
    wait_seq_past(page, turn["seq"])
    # On to a turn to play with two cards or more in the trick: the phone's screenshot, then a tap plays.
    turn = until_trick(page, 2, lambda p, t: click_decision(p, t, tap=True), held=4)
    no_sideways_scroll(page, "the play")
    every_card_reachable(page)
    cards = hand(page)
    legal = page.locator("#hand button.card.legal").first
    card = legal.get_attribute("data-card")
    legal.scroll_into_view_if_needed()
    legal.tap()
    wait_seq_past(page, turn["seq"])
    expect(page.locator("#hand button.card")).to_have_count(len(cards) - 1)
    assert card not in hand(page)
    play_alone(page, lambda p, t: click_decision(p, t, tap=True), DEAL_OVER)
    no_sideways_scroll(page, "the end of the deal")
    check_deal_end(page)


# ---- 6 and 7. accessibility (axe-core), and the desktop screenshot -------------------------------------------------
def test_no_serious_accessibility_violation_in_the_lobby_and_at_the_table(srv, open_page):
    page = open_page()
    page.goto(srv.url + "/")
    wait_ready(page)
    axe(page, "the lobby")
    code, link, host = bot_room(srv)
    sit(page, link, "S", "Axel")
    axe(page, "a waiting room")
    start(host, page)
    turn = wait_until(page, f"(m) => ({MY_TURN})()")
    assert turn["phase"] == "bidding"
    axe(page, "the table, bidding")
    click_decision(page, turn)
    wait_seq_past(page, turn["seq"])
    until_trick(page, 2, click_decision, held=4)
    axe(page, "the table, playing")
    play_alone(page, click_decision, DEAL_OVER)
    check_deal_end(page)
    axe(page, "the table, with the end-of-deal box")
    tab_to(page, "#deal-end #ready")  # the box can be reached from the keyboard


# ---- 8. the replay viewer --------------------------------------------------------------------------------------
def test_the_replay_viewer_steps_through_a_golden_record(srv, open_page):
    if srv.http.get("/replay").status_code != 200:
        pytest.skip("this server has no replay viewer (/replay)")
    name = "official-match"
    expected = json.loads((RECORDS / f"{name}.expected.json").read_text())
    page = open_page()
    page.goto(srv.url + "/replay")
    page.get_by_test_id("file-input").set_input_files(str(RECORDS / f"{name}.json"))
    page.wait_for_selector("main[data-ready=true]")
    counter, score, result = page.get_by_test_id("counter"), page.get_by_test_id("score"), page.get_by_test_id("result")
    expect(page.get_by_test_id("viewer")).to_be_visible()
    expect(page.get_by_test_id("error")).to_be_hidden()
    expect(counter).to_contain_text(f"Deal 1 of {len(expected['deals'])}")
    expect(counter).to_have_attribute("data-step", "0")
    expect(score).to_contain_text("Score: NS 0, EW 0")
    # Step by the buttons and by the keys.
    page.get_by_test_id("step-next").click()
    expect(counter).to_have_attribute("data-step", "1")
    expect(page.get_by_test_id("narration")).not_to_be_empty()
    page.keyboard.press("ArrowRight")
    expect(counter).to_have_attribute("data-step", "2")
    page.keyboard.press("ArrowLeft")
    expect(counter).to_have_attribute("data-step", "1")
    trick = page.get_by_test_id("trick").locator("[data-card]")
    page.get_by_test_id("step-next-trick").click()  # the play begins: the lead is next
    assert int(counter.get_attribute("data-step") or 0) > 1
    expect(trick).to_have_count(0)
    page.keyboard.press("ArrowRight")
    expect(trick).to_have_count(1)
    page.get_by_test_id("step-next-trick").click()  # the first trick, whole
    expect(trick).to_have_count(4)
    for number, deal in enumerate(expected["deals"], start=1):
        expect(counter).to_have_attribute("data-deal", str(number))
        expect(result).to_be_hidden()
        page.get_by_test_id("step-last").click()
        expect(result).to_be_visible()
        points = deal["points"]
        expect(result).to_contain_text(f"Points taken: NS {points['NS']}, EW {points['EW']}.")
        expect(score).to_contain_text(f"Score: NS {deal['score']['NS']}, EW {deal['score']['EW']}")
        if number < len(expected["deals"]):
            page.keyboard.press("ArrowDown")  # the next deal
    final = expected["score"]
    expect(score).to_contain_text(f"Score: NS {final['NS']}, EW {final['EW']}")
    expect(score).to_contain_text(f"{expected['winner']} won the match.")
    expect(page.get_by_test_id("step-next")).to_have_attribute("aria-disabled", "true")
    page.keyboard.press("Home")
    expect(counter).to_have_attribute("data-step", "0")
