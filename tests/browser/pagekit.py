"""Helpers for the browser tests: a page of the table, whose turn it is, and how a user decides.

Everything waits through Playwright (auto-waiting locators, ``wait_for_function`` on the page's
``main[data-*]`` hooks) with a bound on every wait, so a broken page fails a test instead of hanging it.
The decisions are made the way a user makes them: by clicking (or tapping) what the page shows, or by
the keys of the table (``table.js`` ``key()``); only *which* choice to make is read from the page.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page

WAIT_MS = 20_000  # the longest any one wait in a browser test may take
DEAL_S = 90.0  # the longest a whole deal may take

# What the page shows when it is this page's seat's turn: None, or {seq, phase}.
MY_TURN = """() => {
  const m = document.getElementById('main');
  if (!m || m.dataset.ready !== 'true' || m.dataset.status !== 'playing' || !m.dataset.seat) return null;
  const to = document.querySelector('#board .seat.to-act');
  if (!to || to.dataset.seat !== m.dataset.seat) return null;
  if (!document.querySelector('#decision button.choice[data-action], #confirm-keep, #hand button.card.legal')) {
    return null;
  }
  return {seq: Number(m.dataset.seq), phase: m.dataset.phase};
}"""

# The table as any page shows it: seq, status, phase, the seat to act, the cards in the trick.
TABLE = """() => {
  const m = document.getElementById('main');
  const to = document.querySelector('#board .seat.to-act');
  return {seq: Number(m.dataset.seq || -1), status: m.dataset.status || null, phase: m.dataset.phase || null,
          seat: m.dataset.seat || null, to_act: to ? to.dataset.seat : null,
          trick: document.querySelectorAll('#trick[data-showing=current] [data-card]').length};
}"""

CARD_CODE = re.compile(r"\b([2-9TJQKA][SHDC])\b")
CARD_TEXT = re.compile(r"(10|[2-9JQKA])([♠♥♦♣])")
CARD_WORDS = re.compile(r"\b(ace|king|queen|jack|10|[2-9]) of (spades|hearts|diamonds|clubs)\b")
SUIT_OF = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}
RANK_OF = {"10": "T", "ace": "A", "king": "K", "queen": "Q", "jack": "J"}


def cards_named(text: str) -> set[str]:
    """Every card a text names, as a code: "KS", "10♥" and "queen of clubs" alike.

    >>> sorted(cards_named("S plays 10♥*; the queen of clubs; AS"))
    ['AS', 'QC', 'TH']
    """
    found = set(CARD_CODE.findall(text))
    for rank, suit in CARD_TEXT.findall(text) + CARD_WORDS.findall(text):
        found.add(RANK_OF.get(rank, rank) + SUIT_OF[suit])
    return found


def public_cards(deal: dict[str, Any] | None) -> set[str]:
    """The cards of a running deal that anyone at the table has seen: played, thrown face up, shown trumps."""
    if not deal:
        return set()
    seen: set[str] = set()
    for trick in [*deal["tricks"], deal["trick"]]:
        for play in trick["plays"]:
            seen.add(play["card"])
            seen.update(play.get("buried") or [])
    for by_seat in (deal.get("face_up") or {}, deal.get("shown_trumps") or {}):
        for cards in by_seat.values():
            seen.update(cards)
    return seen


def new_page(browser: Browser, *, phone: bool = False, **options: Any) -> Page:
    """A page in a fresh context (its own storage: one person), desktop (1280x800) or phone (390x844)."""
    if phone:
        context: BrowserContext = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                                      has_touch=True, device_scale_factor=2, **options)
    else:
        context = browser.new_context(viewport={"width": 1280, "height": 800}, **options)
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))  # type: ignore[attr-defined]
    return page


def wait_ready(page: Page) -> None:
    page.wait_for_selector("main[data-ready=true]", timeout=WAIT_MS)


def table(page: Page) -> dict[str, Any]:
    return page.evaluate(TABLE)


def state(page: Page) -> dict[str, Any]:
    """The last ``state`` the page got (``window.cinchTable``): only to choose, never to act."""
    return page.evaluate("() => window.cinchTable.state")


def wait_until(page: Page, js: str, arg: Any = None, timeout: float = WAIT_MS) -> Any:
    """Wait for a JS function of ``main`` (and ``arg``) to return something truthy; that value."""
    handle = page.wait_for_function(f"(arg) => {{ const m = document.getElementById('main'); return ({js})(m, arg); }}",
                                    arg=arg, timeout=timeout)
    return handle.json_value()


def wait_seq_past(page: Page, seq: int, timeout: float = WAIT_MS) -> int:
    return wait_until(page, "(m, s) => Number(m.dataset.seq) > s && Number(m.dataset.seq)", seq, timeout)


def entropy_of(seat: str) -> str:
    """The fixed entropy a test's page sends for ``seat``: with a seeded server (``served(seed=...)``), the
    same deals every run.

    >>> entropy_of("S")
    '53535353535353535353535353535353'
    """
    return f"{ord(seat[0]):02x}" * 16


def fix_entropy(page: Page, seat: str) -> None:
    """Before the page's person sits: the entropy it will send for this room (the page keeps one per room in
    its storage, and draws a fresh one only when there is none)."""
    code = page.url.rstrip("/").rsplit("/", 1)[1]
    page.evaluate("""([code, entropy]) => {
      const key = `cinch:room:${code}`;
      localStorage.setItem(key, JSON.stringify({...JSON.parse(localStorage.getItem(key) || '{}'), entropy}));
    }""", [code, entropy_of(seat)])


def sit(page: Page, url: str, seat: str, name: str, tap: bool = False) -> None:
    """Open the room's link and take ``seat`` in the waiting room (with the seat's fixed entropy): your name, then
    the seat's "Sit here", with the mouse (or a finger)."""
    page.goto(url)
    wait_ready(page)
    fix_entropy(page, seat)
    page.locator("#my-name").fill(name)
    # (the values quoted: a cut-throat seat is a number, "3", which CSS takes neither bare nor as an #id)
    button = page.locator(f"#seating button[data-sit='{seat}']")
    button.tap() if tap else button.click()
    page.wait_for_selector(f"main[data-seat='{seat}']")


def hand(page: Page) -> list[str]:
    return page.locator("#hand button.card").evaluate_all("bs => bs.map(b => b.dataset.card)")


def anyone_bid(page: Page) -> bool:
    return page.evaluate("() => [...document.querySelectorAll('#board .seat-facts')]"
                         ".some(e => /\\bbid \\d/.test(e.textContent))")


# ---- deciding, as a user does ----------------------------------------------------------------------------------
def bid_action(page: Page) -> str:
    """The bid to make: the first to speak bids the lowest bid, the others pass (the dealer bids if forced)."""
    actions = page.locator("#decision button.choice[data-action]").evaluate_all(
        "bs => bs.map(b => b.dataset.action)")
    bids = [a for a in actions if a.startswith("bid ")]
    if "pass" in actions and (anyone_bid(page) or not bids):
        return "pass"
    return bids[0]


def check_keep_suggestion(page: Page) -> None:
    """The keep chooser opens with the suggested hand marked (or the hinted one, once a hint came), legal."""
    suggestion = page.evaluate("""() => { const t = window.cinchTable;
      return (t.hint && t.hint.action.startsWith('keep ') ? t.hint.action : t.state.deal.keep.suggestion); }""")
    suggestion = suggestion.split()[1:]
    kept = page.locator("#decision .keep .card.kept").evaluate_all("bs => bs.map(b => b.dataset.card)")
    assert sorted(kept) == sorted(suggestion), (kept, suggestion)
    assert "a legal hand" in page.locator("#keep-status").inner_text()
    assert page.locator("#confirm-keep").is_enabled()


def click_decision(page: Page, turn: dict[str, Any], tap: bool = False) -> None:
    """Make the decision the page asks for, by clicking (or tapping) its buttons and cards."""
    press = (lambda loc: loc.tap()) if tap else (lambda loc: loc.click())
    phase, seq = turn["phase"], turn["seq"]
    if phase == "bidding":
        press(page.locator(f"#decision button.choice[data-action='{bid_action(page)}']"))
    elif phase == "trump":
        press(page.locator("#decision button.choice[data-action^='trump ']").first)
    elif page.locator("#confirm-keep").count():
        check_keep_suggestion(page)
        press(page.locator("#confirm-keep"))
    elif phase in ("discard", "rob"):
        press(page.locator("#decision button.choice[data-action^='keep']").first)
    elif phase == "play":
        press(page.locator("#hand button.card.legal").first)
        bury_if_asked(page, seq, press)
    else:
        raise AssertionError(f"no decision to make in phase {phase}")


def bury_if_asked(page: Page, seq: int, press: Callable[[Any], None]) -> None:
    """Trick 1 with cards to bury: after the card, the page asks which to bury."""
    asked = wait_until(page, "(m, s) => Number(m.dataset.seq) > s ? 'played' : "
                             "(document.querySelector('#decision button.choice[data-action*=\" bury \"]') && 'bury')",
                       seq)
    if asked == "bury":
        press(page.locator("#decision button.choice[data-action*=' bury ']").first)


def tab_to(page: Page, selector: str, most: int = 80) -> None:
    """Move the keyboard's focus with Tab until it is on ``selector``."""
    for _ in range(most):
        if page.evaluate("(sel) => !!document.activeElement && document.activeElement.matches(sel)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def key_decision(page: Page, turn: dict[str, Any]) -> None:
    """Make the decision the page asks for with the keyboard only (the table's keys, Tab and Enter)."""
    kb = page.keyboard
    phase, seq = turn["phase"], turn["seq"]
    if phase == "bidding":
        action = bid_action(page)
        if action == "pass":
            kb.press("p")
        else:
            kb.type(action.split()[1])
            kb.press("Enter")
    elif phase == "trump":
        action = page.locator("#decision button.choice[data-action^='trump ']").first.get_attribute("data-action")
        kb.press(action.split()[1].lower())
    elif page.locator("#confirm-keep").count():
        check_keep_suggestion(page)
        tab_to(page, "#confirm-keep")
        kb.press("Enter")
    elif phase in ("discard", "rob"):
        tab_to(page, "#decision button.choice[data-action^='keep']")
        kb.press("Enter")
    elif phase == "play":
        index = page.locator("#hand button.card.legal").first.get_attribute("data-index")
        if turn["seq"] % 2 and int(index) <= 9:
            kb.press(index)  # the card's number
        else:
            kb.press("ArrowRight")  # the first playable card takes the focus
            assert page.evaluate("() => document.activeElement.matches('#hand button.card.legal')")
            kb.press("Enter")

        def bury(loc: Any) -> None:
            tab_to(page, "#decision button.choice[data-action*=' bury ']")
            kb.press("Enter")

        bury_if_asked(page, seq, bury)
    else:
        raise AssertionError(f"no decision to make in phase {phase}")


# ---- playing on ------------------------------------------------------------------------------------------------
def wait_my_turn_or(page: Page, seq: int, done_js: str, timeout: float = WAIT_MS) -> dict[str, Any] | str:
    """Wait until it is this page's turn at a seq past ``seq``, or ``done_js(m)`` holds: the turn, or "done"."""
    js = f"""(m, s) => {{
      if (({done_js})(m)) return 'done';
      const t = ({MY_TURN})();
      return t && t.seq > s ? t : null;
    }}"""
    return wait_until(page, js, seq, timeout)


def play_alone(page: Page, decide: Callable[[Page, dict[str, Any]], None], done_js: str,
               before: Callable[[Page, dict[str, Any]], bool] | None = None, timeout: float = DEAL_S) -> int:
    """One person's page against bots: decide at every turn until ``done_js(m)``; the decisions made.

    ``before(page, turn)`` runs first at each turn; when it returns True, the play stops there (the turn
    is left for the caller)."""
    deadline = time.monotonic() + timeout
    seq, made = -1, 0
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"the deal did not end in {timeout} s; the table: {table(page)}"
        turn = wait_my_turn_or(page, seq, done_js, timeout=min(WAIT_MS, left * 1000))
        if turn == "done":
            return made
        if before is not None and before(page, turn):
            return made
        decide(page, turn)
        made += 1
        seq = turn["seq"]


def play_together(pages: dict[str, Page], watcher: Page, decide: Callable[[Page, dict[str, Any]], None],
                  done_js: str, timeout: float = DEAL_S) -> int:
    """Several people's pages (by seat) play on until ``done_js(m)`` holds on ``watcher``: each decides when
    the table says it is their turn.  The decisions made."""
    deadline = time.monotonic() + timeout
    made = 0
    while True:
        assert time.monotonic() < deadline, f"the deal did not end in {timeout} s; the table: {table(watcher)}"
        now = wait_until(watcher, f"(m) => m.dataset.ready === 'true' && (({done_js})(m) ? 'done' : 'on')")
        if now == "done":
            return made
        at = table(watcher)
        actor = pages.get(at["to_act"]) if at["status"] == "playing" else None
        if actor is not None:
            turn = wait_until(actor, f"(m, s) => {{ const t = ({MY_TURN})(); return t && t.seq === s && t; }}",
                              at["seq"])
            decide(actor, turn)
            made += 1
        wait_until(watcher, f"(m, s) => Number(m.dataset.seq) > s || ({done_js})(m)", at["seq"])


# ---- accessibility -------------------------------------------------------------------------------------------------
AXE = Path(__file__).parent / "vendor" / "axe.min.js"  # axe-core, vendored (README: the browser tests)


def serious_violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's violations of impact "serious" or "critical" on the page as it is now."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations")
    return [{"id": v["id"], "impact": v["impact"], "help": v["help"], "nodes": [n["target"] for n in v["nodes"]][:5]}
            for v in found if v["impact"] in ("serious", "critical")]


def axe(page: Page, where: str) -> None:
    """No serious or critical accessibility violation on the page as it is now; ``where`` names the moment."""
    bad = serious_violations(page)
    assert not bad, f"{where}: {json.dumps(bad, indent=1)}"
