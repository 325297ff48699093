"""The honour rule at the online table, in the browser: a person revokes on purpose, the seat on his left
claims it, and the ruling is told (docs/browser.md, "Under the honour rule"); without the rule a greyed card
only says it cannot be played.

Two people have pages: South (who revokes) and West (South's left, who is asked to claim). North and East
are people too, played from Python over the protocol (``serverkit.Player``), and so are South's and West's
seats whenever the step is not under test (a seat may have several connections): the bidding, the keeps and
the cards before and after the revoke. No bot ever revokes, so the revoke is a person's. Python plays on
until South's turn offers a greyed card with cards left to show the revoke later; the first dealer and the
shuffles are seeded (``Secrets``), so every run takes the same path (the revoke comes in the first deal).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from pagekit import axe, hand, new_page, state, wait_seq_past, wait_until
from playwright.sync_api import Browser, Page, expect
from serverkit import Player, Secrets, Served, served

import cinch.server.rooms as rooms_module
import cinch.shuffle as shuffle_module

REVOKE_WORDS = "does not follow suit, a revoke under the honour rule. The other side may claim it once it shows"
RULING_WORDS = {"002": "(002: the other side scores all the deal's points and your side none",
                "003": "(003: play goes on, and your side scores nothing for the deal"}
DRIVE_S = 30.0  # the longest Python may take to bring the table to the step under test


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    with served(tmp_path_factory.mktemp("honour") / "games.sqlite3", bot_delay=0, between_deals=60,
                grace=3600) as s:
        yield s


@pytest.fixture
def people(srv: Served, browser: Browser,
           monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., tuple[dict[str, Player], dict[str, Page]]]]:
    """``make(options, pages)``: a started room of four people, each seat with a Python client; the seats in
    ``pages`` also open the room in a browser page with the seat's token. At the end no page may have thrown."""
    secrets = Secrets(2026)  # the same first dealer and shuffles every run: a failure can be replayed
    monkeypatch.setattr(rooms_module, "secrets", secrets)
    monkeypatch.setattr(shuffle_module, "secrets", secrets)
    made: list[tuple[dict[str, Player], dict[str, Page]]] = []

    def make(options: dict[str, Any] | None, pages: str) -> tuple[dict[str, Player], dict[str, Page]]:
        room = srv.create(**({"options": options} if options else {}))
        code = room["code"]
        players = {}
        for number, seat in enumerate("NESW"):
            player = srv.player(code)
            player.join(seat, f"P{seat}", entropy=f"{number:032x}")
            players[seat] = player
        opened = {seat: seated_page(srv, browser, code, players[seat]) for seat in pages}
        made.append((players, opened))
        host = srv.player(code, host_token=room["host_token"])
        host.send({"type": "start"})
        host.until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
        host.close()
        for page in opened.values():
            page.wait_for_selector("main[data-status=playing]")
        return players, opened

    yield make
    errors = [e for _, pages in made for p in pages.values() for e in p.errors]  # type: ignore[attr-defined]
    for players, pages in made:
        for p in pages.values():
            p.context.close()
        for player in players.values():
            player.close()
    assert not errors, f"the page threw: {errors}"


def seated_page(srv: Served, browser: Browser, code: str, player: Player) -> Page:
    """A page of the room that holds ``player``'s seat token, as the browser that took the seat keeps it."""
    page = new_page(browser)
    kept = json.dumps({"token": player.token, "seat": player.seat})
    page.context.add_init_script(f"localStorage.setItem({json.dumps('cinch:room:' + code)}, {json.dumps(kept)})")
    page.goto(f"{srv.url}/rooms/{code}")
    page.wait_for_selector(f"main[data-seat={player.seat}]")
    return page


def drive(players: dict[str, Player], stop: Callable[[Player], bool]) -> Player:
    """Python's clients play on (the first legal action, the suggested keep; ready between deals) until
    ``stop(player)`` holds for a player whose turn it is, or who sees the deal over: that player, nothing
    done at that state."""
    deadline = time.monotonic() + DRIVE_S
    done: dict[str, int] = {}
    while True:
        assert time.monotonic() < deadline, f"the table never got there: {players['N'].state}"
        for p in players.values():
            p.drain(0.002)
            s = p.state
            if s is None or done.get(p.seat or "") == s["seq"]:
                continue
            turn, over = p.my_turn(), s["room"]["status"] == "between-deals"
            if (turn or over) and stop(p):
                return p
            if turn:
                p.act()
            elif over:
                p.send({"type": "ready"})
            done[p.seat or ""] = s["seq"]


def at_seq(page: Page, seq: int) -> None:
    """Wait until the page shows the table at ``seq`` (the Python client's state)."""
    wait_until(page, "(m, s) => m.dataset.ready === 'true' && Number(m.dataset.seq) === s", seq)


def deal_of(p: Player) -> dict[str, Any]:
    assert p.state is not None and p.state["deal"] is not None
    return p.state["deal"]


def south_can_revoke_early(p: Player) -> bool:
    """South's turn to play a card with a card the follow rule forbids, and cards left to show it later."""
    deal = deal_of(p)
    return (p.seat == "S" and p.my_turn() and deal["phase"] == "play" and bool(deal.get("irregular"))
            and len(deal["hand"]) >= 3)


def card_text(card: str) -> str:
    """A card as the page writes it: "10♦" for "TD" (cards.js ``cardText``)."""
    return ("10" if card[0] == "T" else card[0]) + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[card[1]]


def focused_card(page: Page) -> str | None:
    """The card of the hand button that has the keyboard's focus (None: the focus is elsewhere)."""
    return page.evaluate("() => document.activeElement.matches('#hand button.card') ? "
                         "document.activeElement.dataset.card : null")


def page_words(page: Page) -> str:
    return page.locator("main").inner_text()


@pytest.mark.parametrize("text", ["002", "003"])
def test_a_revoke_is_confirmed_shown_later_and_claimed_by_the_left(people, text):
    players, pages = people({"honour_rule": True, "irregularities": text}, "SW")
    south, west = pages["S"], pages["W"]
    p = drive(players, south_can_revoke_early)
    deal = deal_of(p)
    seq, tricks_before = p.state["seq"], len(deal["tricks"])  # type: ignore[index]
    at_seq(south, seq)
    at_seq(west, seq)
    # The greyed card: revoke styling (grey, dashed border), clickable, and said so to a screen reader.
    revokes = {a.split()[1] for a in deal["irregular"]}
    grey = south.locator("#hand button.card.irregular")
    expect(grey).to_have_count(len(revokes))
    assert set(grey.evaluate_all("bs => bs.map(b => b.dataset.card)")) == revokes
    card = sorted(revokes)[0]
    button = south.locator(f"#hand button.card[data-card='{card}']")
    look = button.evaluate("""b => { const c = getComputedStyle(b);
      return {border: c.borderTopStyle, background: c.backgroundColor, disabled: b.disabled,
              label: b.getAttribute('aria-label')}; }""")
    assert look["border"] == "dashed" and look["background"] == "rgb(217, 217, 217)" and not look["disabled"], look
    assert look["label"].endswith("a revoke (honour rule)"), look
    assert south.locator("#hand button.card.legal").count() >= 1  # the cards that follow are raised as usual
    axe(south, "a hand with a revoke offered")
    # Nobody else is told which cards South could revoke with.
    seen = west.evaluate("() => JSON.stringify(window.cinchTable.state.deal)")
    assert not [c for c in revokes if f'"{c}"' in seen or f"play {c}" in seen], seen
    # The arrows go round the cards that follow suit and step over the greyed ones.
    legal = set(south.locator("#hand button.card.legal").evaluate_all("bs => bs.map(b => b.dataset.card)"))
    visited = set()
    for _ in range(len(hand(south)) + 1):
        south.keyboard.press("ArrowRight")
        visited.add(focused_card(south))
    assert visited == legal, (visited, legal)
    # The greyed card asks first, in the page (never a native box): by the mouse (002), or by Shift+→, which
    # stops on the greyed cards too, and Enter (003).
    native: list[str] = []
    south.on("dialog", lambda dialog: (native.append(dialog.message), dialog.dismiss()))

    def ask() -> None:
        if text == "002":
            button.click()
            return
        for _ in range(len(hand(south))):
            if focused_card(south) == card:
                break
            south.keyboard.press("Shift+ArrowRight")
        assert focused_card(south) == card
        south.keyboard.press("Enter")

    ask()
    dialog = south.get_by_role("dialog", name=f"Play {card_text(card)} as a revoke?")
    expect(dialog).to_be_visible()
    words = dialog.locator("#revoke-words").inner_text()
    assert REVOKE_WORDS in words and RULING_WORDS[text] in words and " were led and you hold " in words, words
    assert south.evaluate("() => document.activeElement.id") == "revoke-play"  # Enter would confirm
    axe(south, "the revoke dialog")
    # Escape: the dialog closes, the card stays, nothing is sent, and the focus is back on the card.
    south.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(south.locator("#message")).to_have_text(f"{card_text(card)} stays in your hand.")
    assert card in hand(south) and south.locator("main").get_attribute("data-seq") == str(seq)
    assert focused_card(south) == card
    # Asked again and confirmed (the button, or Enter): played, as a revoke.
    ask()
    expect(dialog).to_be_visible()
    if text == "002":
        dialog.get_by_role("button", name=f"Play {card_text(card)} anyway").click()
    else:
        south.keyboard.press("Enter")
    wait_seq_past(south, seq)
    expect(dialog).to_be_hidden()
    assert card not in hand(south), south.locator("#message").inner_text()
    assert not native, native
    shown = state(south)["deal"]  # in the trick (or the trick just taken, when South played last)
    played = [*shown["trick"]["plays"], *(shown["tricks"][-1]["plays"] if shown["tricks"] else [])]
    assert {"seat": "S", "card": card} in played, played
    # The trick ends; the revoke has not shown yet: West's page says nothing of it, and asks nothing.
    p = drive(players, lambda q: q.my_turn() and len(deal_of(q)["tricks"]) > tricks_before)
    at_seq(west, p.state["seq"])  # type: ignore[index]
    assert deal_of(players["W"])["irregularities"] == []
    assert "revoke" not in page_words(west) and not west.locator("#decision .claims").count()
    # Python plays on until the engine asks West (when South shows the suit, or at the last trick).
    p = drive(players, lambda q: "waive" in deal_of(q)["legal"])
    assert p.seat == "W" and deal_of(p)["legal"] == ["claim revoke", "waive"]
    at_seq(west, p.state["seq"])  # type: ignore[index]
    claim = west.locator("#decision .claims button.choice[data-action='claim revoke']")
    expect(claim).to_have_text("Claim the revoke")
    expect(west.locator("#decision .claims button.choice[data-action='waive']")).to_have_text("Waive (let it stand)")
    offence = f"S revoked on trick {tricks_before + 1} (played {card_text(card)})"  # (as the log writes cards)
    expect(west.locator("#asked")).to_contain_text(offence)
    expect(west.locator("#log")).to_contain_text(offence)
    axe(west, "the claim box")
    at_seq(south, p.state["seq"])  # type: ignore[index]
    assert not south.locator("#decision .claims").count()  # South is not asked
    expect(south.locator("#decision")).to_contain_text("Waiting for W")
    # West claims: the claim is told at once; the ruling ends the deal (002), or play goes on and the
    # deal's settlement says it (003); then the end-of-deal box ends with it.
    claim.click()
    expect(west.locator("#log")).to_contain_text(f"{offence}: claimed.")
    p = drive(players, lambda q: q.state["room"]["status"] == "between-deals")  # type: ignore[index]
    words = [w for w in p.state["match"]["last_deal"]["words"] if "revoked" in w]  # type: ignore[index]
    assert words and f"NS revoked ({text})" in words[0], words
    box = west.locator("#deal-end")
    expect(box).to_be_visible()
    for line in words:
        expect(box.locator(".words")).to_contain_text(line)


def test_without_the_honour_rule_a_greyed_card_only_says_it_cannot_be_played(people):
    players, pages = people(None, "S")
    south = pages["S"]

    def greyed(p: Player) -> bool:
        deal = deal_of(p)
        plays = {a.split()[1] for a in deal["legal"] if a.startswith("play ")}
        return p.seat == "S" and deal["phase"] == "play" and bool(set(deal["hand"]) - plays)

    p = drive(players, greyed)
    deal = deal_of(p)
    seq = p.state["seq"]  # type: ignore[index]
    assert "irregular" not in deal and "irregularities" not in deal
    at_seq(south, seq)
    expect(south.locator("#hand button.card.legal").first).to_be_visible()
    assert not south.locator("#hand button.card.irregular").count()
    cards = hand(south)
    plays = {a.split()[1] for a in deal["legal"] if a.startswith("play ")}
    index, card = next((i, c) for i, c in enumerate(cards, start=1) if c not in plays)
    button = south.locator(f"#hand button.card[data-card='{card}']")
    expect(button).to_be_disabled()
    assert "revoke" not in (button.get_attribute("aria-label") or "")
    assert button.evaluate("b => getComputedStyle(b).borderTopStyle") != "dashed"  # no revoke styling
    asked: list[str] = []
    south.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    south.keyboard.press(str(index))  # (a greyed card cannot be clicked; its number key says why not)
    expect(south.locator("#message")).to_have_text(f"{card_text(card)} cannot be played now.")
    assert not asked and card in hand(south) and south.locator("main").get_attribute("data-seq") == str(seq)
