"""Private duplicate events over real websockets, on SQLite and on PostgreSQL (uvicorn in a thread).

A host creates an event of two tables and two boards; Ann (a guest) and Bodkin (an account) sit at table 1 and Cyra
(a guest) at table 2, the host fills the other seats with bots and starts it.  Table 1 plays both boards while Cyra
keeps table 2 waiting at her first turn: every frame and answer Cyra gets meanwhile is searched for anything of
either board (no traveller, no deck, no salt, no hand of board 2, no ranking), as is everything a spectator of table
2 gets.  Then Cyra plays board 1, and sees its traveller (both tables and the robot table); in the middle of board 2
the server stops and starts again on the same store, Cyra comes back with her seat's token and plays on; the event
ends.  Both tables were dealt the same decks in the same order (the records against the set revealed, and the salts
against the commitments published at the creation); every line's matchpoints and both fields' rankings are checked
against the ones worked out here by hand; every result is counted once, and the event is rated once.

The bots are the random bot at a pace of 0, so that the test takes seconds.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playerkit import Browser, Site, browser_headers, refused, site_over
from serverkit import WAIT, Player, Secrets
from websockets.sync.client import connect

import cinch.server.rooms as rooms_module
from cinch.duplicate import SEATS, DealSet
from cinch.server.daily import DailyOptions
from cinch.shuffle import deck_text

DEALS = 2
PASSWORD = "a long enough password"
FAST = {"bot_delay": 0, "between_deals": 0, "trick_pause": 0}


@pytest.fixture(autouse=True)
def seeded(monkeypatch):
    """The server's secrets (and so the event's id, its tables' codes and its decks) the same every run."""
    monkeypatch.setattr(rooms_module, "secrets", Secrets(2027))


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request):
    url = request.getfixturevalue("database_url") if request.param == "postgres" else None
    return request.param, url


@contextlib.contextmanager
def running(backend: tuple[str, str | None], tmp_path: Any) -> Iterator[Site]:
    with site_over(backend[0], tmp_path, backend[1], daily=DailyOptions(presets=())) as site:
        yield site


class Sitter(Player):
    """A websocket client of an event's table with a browser's cookies (its player), if any."""

    def __init__(self, url: str, code: str, browser: Browser | None = None, **hello: Any):
        self.events: dict[int, dict[str, Any]] = {}
        super().__init__(url.replace("http", "ws") + "/ws", code, headers=browser_headers(url, browser), **hello)

    def recv(self, timeout: float = WAIT) -> dict[str, Any]:
        message = super().recv(timeout)
        if message["type"] == "event":
            self.events[message["board"]] = message
        return message


def hello_refused(site: Site, code: str, browser: Browser | None = None) -> dict[str, Any]:
    with connect(site.ws, open_timeout=WAIT, additional_headers=browser_headers(site.url, browser)) as ws:
        ws.send(json.dumps({"type": "hello", "room": code}))
        answer = json.loads(ws.recv(timeout=WAIT))
    assert answer["type"] == "error" and "\n" not in answer["message"], answer
    return answer


def play(sitters: list[Sitter], done: Callable[[], bool], timeout: float = 120.0) -> None:
    """Every sitter acts whenever the state it last got says so, until ``done()`` (looked at only once no sitter
    waits for the state after its own action: a state already acted on is no longer the table's)."""
    deadline = time.monotonic() + timeout
    acted: dict[int, int] = {}
    while True:
        assert time.monotonic() < deadline, f"the event did not get there in time: {[s.state for s in sitters]}"
        for s in sitters:
            s.drain(0.005)
        if all(s.state is None or acted.get(id(s)) != s.state["seq"] for s in sitters) and done():
            return
        for s in sitters:
            if s.my_turn() and acted.get(id(s)) != s.state["seq"]:  # type: ignore[index]
                acted[id(s)] = s.state["seq"]  # type: ignore[index]
                s.act()


def mid_board(sitter: Sitter, board: int) -> bool:
    """Whether it is the sitter's turn in the play of ``board``, a trick or more played."""
    s = sitter.state
    return bool(s and s["room"]["event"]["board"] == board and s["deal"]["phase"] == "play"
                and len(s["deal"]["tricks"]) >= 1 and sitter.my_turn())


def create(host: Browser, **body: Any) -> dict[str, Any]:
    answer = host.change("POST", "/api/events", {"rules": "official", "deals": DEALS, "tables": 2, "robots": "random",
                                                  **FAST, **body})
    assert answer.status_code == 201, answer.text
    return answer.json()


def by_hand(results: list[int]) -> list[tuple[int, int]]:
    """Each result's matchpoints and top, counted here: 2 for each result beaten, 1 for each tie."""
    return [(sum(2 if r > o else 1 if r == o else 0 for j, o in enumerate(results) if j != i), 2 * (len(results) - 1))
            for i, r in enumerate(results)]


def ranking_by_hand(results: dict[str, list[int]]) -> list[tuple[str, float, int]]:
    """A field's ranking counted here: each board matchpointed among the field's results on it, the mean
    percentage, then the total points."""
    names = list(results)
    percents: dict[str, list[float]] = {n: [] for n in names}
    for board in range(DEALS):
        for n, (points, top) in zip(names, by_hand([results[n][board] for n in names]), strict=True):
            percents[n].append(100 * points / top)
    rows = [(n, round(sum(percents[n]) / DEALS, 2), sum(results[n])) for n in names]
    return sorted(rows, key=lambda row: (-row[1], -row[2], row[0]))


def squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


class Board:
    """What must not reach anyone who has not played a board: its deck, its salt, its hands as a traveller lists
    them."""

    def __init__(self, deal_set: DealSet, board: int):
        from cinch.deal import Deal

        self.board = board
        self.deck = deck_text(deal_set.deck(board))
        self.salt = deal_set.salts[board - 1]  # type: ignore[index]
        dealt = Deal(deal_set.rules, deal_set.dealer(board), deal_set.deck(board)).dealt
        self.hands = {s.name: squeeze(json.dumps([str(c) for c in hand])) for s, hand in zip(SEATS, dealt, strict=True)}

    def found_in(self, text: str, own: str | None = None) -> str | None:
        """What of the board the text holds (but the hand of ``own``, the seat of the one who was dealt it)."""
        flat = squeeze(text)
        hands = [("hand", h) for seat, h in self.hands.items() if seat != own]
        for what, value in [("deck", squeeze(self.deck)), ("salt", self.salt), *hands]:
            if value in flat:
                return what
        return None


def nothing_of(boards: list[Board], texts: list[str], who: str, own: str | None = None,
               played: tuple[int, ...] = ()) -> None:
    """None of ``boards`` in ``texts`` (but ``own``'s hand of the first, which they were dealt), and no traveller but
    those of the boards ``played``."""
    for text in texts:
        for board in boards:
            found = board.found_in(text, own if board.board == boards[0].board else None)
            assert found is None, f"board {board.board}'s {found} reached {who}: {text[:300]}"
        if not any(text.startswith(f'{{"type": "event", "board": {n},') for n in played):
            assert '"traveller"' not in text and '"type":"event"' not in squeeze(text), f"{who}: {text[:300]}"


def frames(sitter: Sitter) -> list[str]:
    return [json.dumps(m) for m in sitter.messages]


def answers(browser: Browser) -> list[str]:
    return [f"{a.request.url} {a.status_code} {a.text}" for a in browser.answers]


def test_an_event_of_two_tables_each_seeing_only_what_it_has_played(backend, tmp_path):
    with running(backend, tmp_path) as site:
        host = site.browser()
        made = create(host, name="Club night")
        eid, codes, host_token = made["id"], made["tables"], made["host_token"]
        published = host.get(f"/api/events/{eid}").json()
        assert published["status"] == "waiting" and len(published["set"]["commitments"]) == DEALS
        assert "salts" not in published["set"] and [t["code"] for t in published["tables"]] == codes
        ann, bo, cy, dora = (site.browser() for _ in range(4))
        ann.guest("Ann")
        bo.register("Bodkin", PASSWORD)
        cy.guest("Cyra")
        dora.guest("Dora")
        a, b, c = Sitter(site.url, codes[0], ann), Sitter(site.url, codes[0], bo), Sitter(site.url, codes[1], cy)
        a.join("N", "Ann")
        b.join("E", "Bodkin")
        c.join("S", "Cyra")
        # One seat a player in an event; a player of it watches no other table while it runs.
        again = Sitter(site.url, codes[0], ann)
        assert again.error({"type": "join", "seat": "S", "name": "x"})["code"] == "already-seated"
        assert hello_refused(site, codes[1], ann)["code"] == "plays-elsewhere"
        assert hello_refused(site, codes[0], cy)["code"] == "plays-elsewhere"
        watcher = Sitter(site.url, codes[1])  # (nobody in particular: watches table 2)
        filled = host.change("POST", f"/api/events/{eid}/fill", {"host_token": host_token, "bot": "random"})
        assert filled.json() == {"filled": 5}, filled.text
        seats = host.get(f"/api/events/{eid}").json()["tables"]
        assert [[s["name"] for s in t["seats"]] for t in seats] == [["Ann", "Bodkin", "random", "random"],
                                                                     ["random", "random", "Cyra", "random"]]
        assert host.change("POST", f"/api/events/{eid}/start", {"host_token": host_token}).status_code == 200
        service = site.app.state.server.events
        deal_set = service.set_of(service.cached(eid))
        boards = [Board(deal_set, n) for n in range(1, DEALS + 1)]

        # Table 1 plays both boards; Cyra keeps table 2 waiting at her first turn.
        play([a, b], lambda: DEALS in a.events and DEALS in b.events and (c.drain(0.005) or True))
        for n in range(1, DEALS + 1):
            t = a.events[n]["traveller"]
            assert [line["table"] for line in t["results"]] in ([1, None], [None, 1])  # (table 2 has not played it)
            mine = next(line for line in t["results"] if line["mine"])
            assert mine["mine"] == "NS" and mine["ns"]["name"] == "Ann & random bot"
            assert next(line for line in b.events[n]["traveller"]["results"] if line["mine"])["mine"] == "EW"
        assert a.events[DEALS]["ranking"]["boards"] == DEALS and not a.events[DEALS]["final"]
        theirs = next(line for line in b.events[1]["traveller"]["results"] if line["table"] == 1)
        assert theirs["ew"]["name"] == "Bodkin & random bot" and theirs["ew"]["mine"] and not theirs["ns"]["mine"]
        c.drain(0.3)
        watcher.drain(0.1)
        for board in range(1, DEALS + 1):
            refused(cy.get(f"/api/events/{eid}/boards/{board}"), 403, "not-played")
            refused(cy.get(f"/api/events/{eid}/boards/{board}/records/1"), 403, "not-played")
            refused(dora.get(f"/api/events/{eid}/boards/{board}"), 403, "not-played")
        seen = cy.get(f"/api/events/{eid}").json()
        assert seen["ranking"] is None and seen["travellers"] == [] and seen["you"]["played"] == 0
        assert dora.get(f"/api/events/{eid}").json()["ranking"] is None  # (no board is finished at every table)
        assert ann.get(f"/api/events/{eid}").json()["ranking"]["boards"] == DEALS
        assert not c.events and not watcher.events
        assert dora.get("/api/players/Bodkin").json()["events"] == {"events": []}  # (under way: on no profile yet)
        nothing_of(boards, frames(c) + answers(cy), "Cyra, who has played neither board", own="S")
        nothing_of(boards, frames(watcher) + answers(dora), "a spectator")

        # Cyra plays board 1: its traveller has every table's result; board 2's is not hers yet.
        play([c], lambda: 1 in c.events)
        t1 = c.events[1]["traveller"]
        assert sorted(line["table"] or 0 for line in t1["results"]) == [0, 1, 2]
        assert c.events[1]["ranking"]["boards"] == 1
        refused(cy.get(f"/api/events/{eid}/boards/2"), 403, "not-played")
        assert cy.get(f"/api/events/{eid}/boards/1").status_code == 200
        play([c], lambda: mid_board(c, 2))  # (Cyra's turn: the table waits for her)
        nothing_of(boards[1:], frames(c) + answers(cy), "Cyra, in the middle of board 2", own="S", played=(1,))
        hand, seq, token = c.state["deal"]["hand"], c.state["seq"], c.token  # type: ignore[index]
        spectator_states = [m for m in watcher.drain(0.2) + watcher.messages if m["type"] == "state"]
        for sitter in (a, b, c, watcher):
            sitter.close()
        cookies = {name: dict(br.http.cookies) for name, br in (("ann", ann), ("cy", cy), ("dora", dora))}
    # A spectator is shown a room's spectator's view: no hand, no traveller, no record.
    assert spectator_states and all(m["you"]["seat"] is None and "hand" not in (m["deal"] or {})
                                    for m in spectator_states)

    # The server stops in the middle of board 2 at table 2, and starts again on the same store.
    with running(backend, tmp_path) as site:
        cy, dora = site.browser(), site.browser()
        cy.http.cookies.update(cookies["cy"])
        dora.http.cookies.update(cookies["dora"])
        c = Sitter(site.url, codes[1], cy, token=token)
        first = c.until(lambda m: m["type"] == "state")
        assert first["seq"] == seq and first["deal"]["hand"] == hand and first["room"]["event"]["board"] == 2
        play([c], lambda: DEALS in c.events and c.events[DEALS]["final"])
        final = dora.get(f"/api/events/{eid}").json()
        assert final["status"] == "over" and final["final"] and final["ranking"]["final"]
        assert [(t["status"], t["board"]) for t in final["tables"]] == [("over", DEALS)] * 2
        stored = site.app.state.server.events.stored_summary(codes[0], None)  # (a table let go: from its row)
        assert {**stored, "spectators": 0} == {**final["tables"][0], "spectators": 0}
        revealed = DealSet.from_json(final["set"])
        revealed.verify()  # (every salt deals the deck its commitment promised)
        assert revealed.commitments == tuple(published["set"]["commitments"])
        # Both tables (and the robot table) were dealt the same decks in the same order.
        results: dict[str, list[int]] = {}
        for n in range(1, DEALS + 1):
            t = dora.get(f"/api/events/{eid}/boards/{n}").json()  # (over: open to everyone)
            assert len(t["results"]) == 3
            for line in t["results"]:
                record = dora.get(line["record"]).json()
                assert record["deals"][0]["deck"] == deck_text(revealed.deck(n))
                assert record["deals"][0]["dealer"] == revealed.dealer(n).name == t["dealer"]
                if line["table"] == 1:
                    assert record["players"]["N"] == "Ann" and record["players"]["E"] == "Bodkin"
                results.setdefault(f"T{line['table'] or 'R'}", []).append(line["result"])
            # Every line's matchpoints, by hand: NS against NS, EW against EW (the opposite results).
            ns = [line["result"] for line in t["results"]]
            for line, (points, top) in zip(t["results"], by_hand(ns), strict=True):
                assert (line["matchpoints"], line["top"]) == (points, top), line
            for line, (points, _) in zip(t["results"], by_hand([-r for r in ns]), strict=True):
                assert line["ew_matchpoints"] == points, line
            hands = {s.name: sorted(map(str, h)) for s, h in zip(SEATS, revealed.dealt(n).deals[0].dealt, strict=True)}
            assert {s: sorted(h) for s, h in t["hands"].items()} == hands
        # Both fields' rankings, by hand.
        for side, sign in (("NS", 1), ("EW", -1)):
            expected = ranking_by_hand({k: [sign * r for r in v] for k, v in results.items()})
            shown = final["ranking"][side]
            got = [(f"T{row['table'] or 'R'}", row["percentage"], row["total"]) for row in shown]
            assert got == expected, (side, got, expected)
            assert [row["rank"] for row in shown] == [1 + sum((p2, t2) > (p, tot) for _, p2, t2 in expected)
                                                      for _, p, tot in expected]
        # Bodkin's profile lists the event: his pair, its percentage and its rank among the EW pairs.
        played = dora.get("/api/players/Bodkin").json()["events"]["events"]
        row = next(r for r in final["ranking"]["EW"] if r["table"] == 1)
        assert [(e["id"], e["name"], e["link"], e["rank"], e["of"], round(e["percentage"], 2), e["total"])
                for e in played] == [(eid, "Club night", f"/events/{eid}", row["rank"], 3, row["percentage"],
                                      row["total"])]
        pair = played[0]["pair"]
        assert (pair["table"], pair["side"], pair["name"]) == (1, "EW", "Bodkin & random bot")
        assert pair["players"][0]["profile"] == "/players/Bodkin"
        # Deleting an account takes its name from the event's ranking, travellers, records and table at once.
        gone = site.browser()
        assert gone.login("Bodkin", PASSWORD).status_code == 200
        assert gone.change("DELETE", "/api/players/me", {"password": PASSWORD}).status_code == 200
        after = dora.get(f"/api/events/{eid}").json()
        assert "Bodkin" not in json.dumps(after) and "former player & random bot" in json.dumps(after["ranking"])
        line = next(x for x in dora.get(f"/api/events/{eid}/boards/1").json()["results"] if x["table"] == 1)
        assert line["ew"]["name"] == "former player & random bot"
        record = dora.get(line["record"]).text
        assert "Bodkin" not in record, record[:2000]
        assert dora.get(line["record"]).json()["players"]["E"] == "former player"
        # Once it is over the players of the event may watch any table.
        ann = site.browser()
        ann.http.cookies.update(cookies["ann"])
        Sitter(site.url, codes[1], ann).close()
        c.close()
    rows = site.rows()
    assert not [line for line in rows.splitlines() if line.startswith("duplicate_") and "Bodkin" in line]  # (ids)
    counted = re.findall(r"duplicate_results: \('event/" + eid + r"', (\d), '([^']+)'", rows)
    assert sorted(counted) == sorted((str(n), e) for n in range(1, DEALS + 1)
                                     for e in ("T1:NS", "T1:EW", "T2:NS", "T2:EW", "robots:NS", "robots:EW"))
    assert rows.count(f"rated_games: ('event:{eid}'") == 1


def test_an_events_refusals_are_one_line_and_its_boards_are_nowhere_else(tmp_path):
    with running(("sqlite", None), tmp_path) as site:
        host = site.browser()
        for body, code in [({"rules": {"preset": "pagat", "players": 3}}, "bad-rules"),
                           ({"rules": "pagat", "options": {"honour_rule": "true"}}, "bad-rules"),
                           ({"deals": 0}, "bad-request"), ({"tables": 17}, "bad-request"),
                           ({"robots": "nobody"}, "bad-request"), ({"colour": "blue"}, "bad-request"),
                           ({"name": "x" * 61}, "bad-request")]:
            refused(host.change("POST", "/api/events", {"rules": "official", **body}), 400, code)
        refused(host.change("POST", "/api/events", {"rules": "official"}, csrf=""), 403, "csrf")
        made = create(host, tables=1, robots="none")
        eid, code, host_token = made["id"], made["tables"][0], made["host_token"]
        refused(host.get("/api/events/NOSUCHEV"), 404, "unknown-event")
        refused(host.change("POST", f"/api/events/{eid}/fill", {"bot": "random"}), 403, "not-host")
        refused(host.change("POST", f"/api/events/{eid}/fill", {"host_token": host_token, "bot": "rnd"}), 400,
                "unknown-bot")
        refused(host.change("POST", f"/api/events/{eid}/start", {"host_token": "x" * 32}), 403, "not-host")
        refused(host.change("POST", f"/api/events/{eid}/start", {"host_token": host_token}), 409, "empty-seats")
        nobody = Sitter(site.url, code)
        assert nobody.error({"type": "join", "seat": "N", "name": "Mallory"})["code"] == "signed-out"
        nobody.close()
        ann = site.browser()
        ann.guest("Ann")
        a = Sitter(site.url, code, ann)
        a.join("S", "Ann")
        for message, refusal in [({"type": "start"}, "event-start"), ({"type": "rematch"}, "event-table"),
                                 ({"type": "fill", "seat": "N", "bot": "random"}, "not-host"),
                                 ({"type": "hint"}, "hints-off")]:
            error = a.error(message)
            assert error["code"] == refusal and "\n" not in error["message"], error
        assert host.change("POST", f"/api/events/{eid}/fill",
                           {"host_token": host_token, "table": 1, "bot": "random"}).json() == {"filled": 3}
        assert host.change("POST", f"/api/events/{eid}/start", {"host_token": host_token}).status_code == 200
        refused(host.change("POST", f"/api/events/{eid}/fill", {"host_token": host_token, "bot": "random"}), 409,
                "started")
        assert a.error({"type": "leave"})["code"] == "started"
        for board in ("0", "3", "x"):
            refused(ann.get(f"/api/events/{eid}/boards/{board}"), 404, "no-board")
        play([a], lambda: 1 in a.events)
        everyone = site.browser()
        assert code not in everyone.get("/api/rooms").text  # (not in the lobby)
        refused(everyone.get(f"/rooms/{code}/record"), 404, "no-record")
        listed = [m["id"] for m in everyone.get("/api/library").json()["matches"]]
        for match_id in site.app.state.server.rooms[code].games.matches:  # (the boards' matches: never listed)
            assert match_id not in listed
            for path in (f"/api/library/{match_id}/replay", f"/api/library/{match_id}/record"):
                assert everyone.get(path).status_code == 404, path
        for path in ("/events", f"/events/{eid}", f"/events/table/{code}"):
            page = everyone.get(path)
            assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        for path in ("/", "/events", "/replay", "/score", "/puzzles", "/players", "/account"):
            nav = re.search(r"<nav[^>]*>(.*?)</nav>", everyone.get(path).text, re.S)
            assert nav and '<a href="/events"' in nav.group(1), path
        a.close()
