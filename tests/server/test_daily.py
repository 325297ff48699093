"""The daily deals, played with real websockets against a real server (uvicorn in a thread, SQLite).

Three people play the day's set of ``official`` to the end: a guest, an account, and a guest who leaves in the
middle of board 3 and comes back after the server is stopped and started again.  Every traveller is checked (each
result on the board so far, the matchpoints worked out here by hand, the robot table always in the field), then
the day's ranking, and once the day is over the revealed salts against the commitments published that morning.  A
fourth person, who plays nothing, asks every route and opens the tables' websockets all along: no card, salt or
result of any board reaches them.

The sets here have 4 boards (the server's setting; 8 by default) and the basic bot (the expert by default), so that
the test takes seconds; the robot table plays in the server's pool of processes, as it does in production.
"""

from __future__ import annotations

import contextlib
import json
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playerkit import Browser, refused, serve_app
from serverkit import Player, Secrets, play_boards
from test_leaks import cards_in

import cinch.server.daily as daily_module
from cinch.deal import Deal
from cinch.duplicate import SEATS, DealSet
from cinch.record import replay
from cinch.server.app import create_app
from cinch.server.daily import DailyOptions, day_start
from cinch.shuffle import commitment, deck_text

DAY = "2026-12-05"
DEALS = 4
PASSWORD = "a long enough password"
WAIT = 30.0


class Clock:
    """The server's clock, set by the test: "today" without waiting for midnight."""

    def __init__(self, day: str, hour: float = 9.0):
        self.now = day_start(day) + hour * 3600

    def __call__(self) -> float:
        return self.now


def daily_app(db: Path, clock: Clock, **options: Any) -> Any:
    return create_app(db, daily=DailyOptions(presets=("official",), bots="basic", deals=DEALS, pace=0, clock=clock,
                                             **options))


@pytest.fixture(autouse=True)
def seeded(monkeypatch):
    """The server's secret (and so the day's decks) the same every run."""
    monkeypatch.setattr(daily_module, "secrets", Secrets(2026))


@contextlib.contextmanager
def running(db: Path, clock: Clock) -> Iterator[tuple[str, Any]]:
    app = daily_app(db, clock)
    with serve_app(app) as url:
        yield url, app


def ws_url(url: str) -> str:
    return url.replace("http", "ws") + "/ws"


def sit(browser: Browser) -> dict[str, Any]:
    answer = browser.change("POST", "/api/daily/official/play")
    assert answer.status_code == 200, answer.text
    return answer.json()


def play(url: str, seat: dict[str, Any], *, leave_in: int | None = None,
         travellers: dict[int, dict[str, Any]] | None = None) -> tuple[dict[int, dict[str, Any]], Player]:
    """Play the set at its table from where it stands, a board's traveller taken after each board, until the set is
    over (or, with ``leave_in``, until the play of that board has begun: the person leaves mid-deal)."""
    p = Player(ws_url(url), seat["code"], token=seat["token"])
    got = dict(travellers or {})

    def done() -> bool:
        s = p.state
        if s is None:
            return False
        d = s["room"]["daily"]
        if leave_in is not None and d["board"] == leave_in and s["deal"]["phase"] == "play" and \
                len(s["deal"]["tricks"]) >= 1:
            return True
        return s["room"]["status"] == "over" and d["boards"] in got and bool(got[d["boards"]]["session"])

    play_boards(p, "daily", got, done, timeout=120)
    return got, p


def by_hand(results: list[int]) -> list[tuple[int, int, float]]:
    """Each result's matchpoints, top and percentage, counted here: 2 for each result beaten, 1 for each tie."""
    top = 2 * (len(results) - 1)
    out = []
    for i, r in enumerate(results):
        points = sum(2 if r > o else 1 if r == o else 0 for j, o in enumerate(results) if j != i)
        out.append((points, top, 50.0 if top == 0 else 100 * points / top))
    return out


def check_traveller(message: dict[str, Any], name: str, people_before: list[str]) -> dict[str, int]:
    """A traveller as its player sees it: every result so far (the robot table's, theirs, those who played the
    board before them), matchpointed as counted by hand; each result by name."""
    t = message["traveller"]
    lines = t["results"]
    names = sorted(line["name"] for line in lines)
    assert names == sorted([name, "Robot table (basic)", *people_before]), names
    assert [line["name"] for line in lines if line["mine"]] == [name]
    assert [line["result"] for line in lines] == sorted((line["result"] for line in lines), reverse=True)
    for line, (points, top, percent) in zip(lines, by_hand([line["result"] for line in lines]), strict=True):
        assert (line["matchpoints"], line["top"], line["percent"]) == (points, top, round(percent, 2)), line
        assert line["contract"] and line["replay"].startswith("/replay?record=")
    assert sorted(t["hands"]) == ["E", "N", "S", "W"] and all(len(h) == 9 for h in t["hands"].values())
    return {line["name"]: line["result"] for line in lines}


def ranking_by_hand(results: dict[str, list[int]]) -> list[tuple[str, float, int]]:
    """The day's ranking counted here: each board matchpointed among every result on it, the mean percentage,
    then the total points."""
    names = list(results)
    percents: dict[str, list[float]] = {n: [] for n in names}
    for board in range(DEALS):
        scored = by_hand([results[n][board] for n in names])
        for n, (_, _, percent) in zip(names, scored, strict=True):
            percents[n].append(percent)
    rows = [(n, round(sum(percents[n]) / DEALS, 2), sum(results[n])) for n in names]
    return sorted(rows, key=lambda row: (-row[1], -row[2], row[0]))


class Snoop:
    """The fourth person: signed in as a guest who plays nothing, asking every route and opening every table it
    hears of; every answer and frame kept, to be searched."""

    def __init__(self, url: str):
        self.url = url
        self.browser = Browser(url)
        self.browser.guest("Dora")
        self.seen: list[str] = []

    def ask(self, path: str, status: int | None = None) -> Any:
        answer = self.browser.get(path)
        self.seen.append(f"{path} {answer.status_code} {answer.text}")
        if status is not None:
            assert answer.status_code == status, (path, answer.status_code, answer.text)
        return answer

    def look(self, codes: list[str], records: list[str], match_ids: list[int]) -> None:
        self.ask("/api/daily", 200)
        self.ask(f"/api/daily/{DAY}/official", 200)
        for n in range(1, DEALS + 1):
            refused(self.ask(f"/api/daily/{DAY}/official/boards/{n}"), 403, "not-played")
        for record in records:
            refused(self.ask(record), 403, "not-played")
        self.ask("/api/rooms", 200)
        self.ask("/api/library", 200)
        for match_id in match_ids:
            for path in (f"/api/library/{match_id}/replay", f"/api/library/{match_id}/record"):
                self.ask(path, 404)
        for code in codes:
            self.ask(f"/api/rooms/{code}")
            self.ask(f"/rooms/{code}/record", 404)
            for hello in ({}, {"token": "A" * 48}):
                self.frames(code, hello)

    def frames(self, code: str, hello: dict[str, Any]) -> None:
        from websockets.sync.client import connect

        with connect(ws_url(self.url), open_timeout=WAIT) as ws:
            ws.send(json.dumps({"type": "hello", "room": code, **hello}))
            answer = ws.recv(timeout=WAIT)
            self.seen.append(f"ws {code} {answer}")
            assert json.loads(answer)["code"] == "no-spectators", answer
            with contextlib.suppress(TimeoutError):
                while True:
                    self.seen.append(f"ws {code} {ws.recv(timeout=0.2)}")

    def check(self, salts: tuple[str, ...]) -> None:
        """Nothing of any board in anything the fourth person was answered: no card, no salt, no result."""
        for text in self.seen:
            assert not cards_in(text), f"a card reached the fourth person: {text[:300]}"
            assert not any(salt in text for salt in salts), f"a salt reached the fourth person: {text[:300]}"
            assert '"result"' not in text and '"hands"' not in text and '"traveller"' not in text, text[:300]


def daily_matches(db: Path) -> list[int]:
    conn = sqlite3.connect(db)
    try:
        return [r[0] for r in conn.execute("SELECT id FROM matches WHERE frontend = 'daily'")]
    finally:
        conn.close()


def test_three_people_play_the_day_and_a_fourth_sees_nothing_of_it(tmp_path):
    db = tmp_path / "games.sqlite3"
    clock = Clock(DAY)
    salts: tuple[str, ...] = ()
    with running(db, clock) as (url, app):
        snoop = Snoop(url)
        morning = snoop.ask("/api/daily", 200).json()
        assert morning["day"] == DAY and morning["sets"][0]["status"] == "new"
        published = morning["sets"][0]["set"]
        assert len(published["commitments"]) == DEALS and "salts" not in published
        salts = app.state.server.daily.deal_set(DAY, "official").salts  # (the server's own, to search for)
        # A guest plays the whole set.
        ann = Browser(url)
        ann.guest("Ann")
        ann_seat = sit(ann)
        assert ann_seat["board"] == 1 and ann_seat["boards"] == DEALS
        ann_t, p = play(url, ann_seat)
        p.close()
        ann_results = {n: check_traveller(m, "Ann", []) for n, m in ann_t.items()}
        assert ann_t[DEALS]["session"]["of"] == 2  # (Ann and the robot table)
        refused(ann.change("POST", "/api/daily/official/play"), 409, "played")  # (once a day)
        records = [line["record"] for m in ann_t.values() for line in m["traveller"]["results"]]
        snoop.look([ann_seat["code"]], records, daily_matches(db))
        # An account plays it: its travellers hold Ann's results too.
        bo = Browser(url)
        bo.register("Bodkin", PASSWORD)
        bo_seat = sit(bo)
        bo_t, p = play(url, bo_seat)
        p.close()
        for n, m in bo_t.items():
            seen = check_traveller(m, "Bodkin", ["Ann"])
            assert seen["Ann"] == ann_results[n]["Ann"]
        # A third leaves in the middle of board 3: board 4's traveller is not theirs to see yet.
        cy = Browser(url)
        cy.guest("Cyra")
        cy_seat = sit(cy)
        cy_t, p = play(url, cy_seat, leave_in=3)
        refused(cy.get(f"/api/daily/{DAY}/official/boards/3"), 403, "not-played")
        assert cy.get(f"/api/daily/{DAY}/official/boards/1").status_code == 200
        hand, seq = p.state["deal"]["hand"], p.state["seq"]
        p.ws.close_timeout = 1.0
        p.close()
        snoop.look([ann_seat["code"], bo_seat["code"], cy_seat["code"]], records, daily_matches(db))
        cy_cookies = dict(cy.http.cookies)
        cy_id = cy.me()["id"]
        dora_cookies = dict(snoop.browser.http.cookies)
    # The server stops and starts again on the same library: Cyra's table is where she left it.
    with running(db, clock) as (url, _):
        cy = Browser(url)
        cy.http.cookies.update(cy_cookies)
        again = sit(cy)
        assert (again["code"], again["token"], again["board"]) == (cy_seat["code"], cy_seat["token"], 3)
        back = Player(ws_url(url), again["code"], token=again["token"])
        first = back.until(lambda m: m["type"] == "state")
        assert first["seq"] == seq and first["deal"]["hand"] == hand
        back.close()
        cy_t, p = play(url, again, travellers=cy_t)
        p.close()
        final: dict[str, list[int]] = {"Ann": [], "Bodkin": [], "Cyra": [], "Robot table (basic)": []}
        for n in range(1, DEALS + 1):
            seen = check_traveller(cy_t[n], "Cyra", ["Ann", "Bodkin"])
            for name in final:
                final[name].append(seen[name])
        assert final["Ann"] == [ann_results[n]["Ann"] for n in range(1, DEALS + 1)]
        # The day's ranking, as those who finished see it, against the one counted here.
        shown = Browser(url)
        shown.http.cookies.update(dict(ann.http.cookies))
        today = shown.get("/api/daily").json()["sets"][0]
        expected = ranking_by_hand(final)
        got = [(r["name"], r["percentage"], r["total"]) for r in today["ranking"]]
        assert sorted(got) == sorted(expected)
        assert [r["percentage"] for r in today["ranking"]] == [row[1] for row in expected]
        ranks = {r["name"]: r["rank"] for r in today["ranking"]}
        assert ranks == {n: 1 + sum((p_, t) > (pc, tot) for _, p_, t in expected) for n, pc, tot in expected}
        assert cy_t[DEALS]["session"]["rank"] == ranks["Cyra"] and cy_t[DEALS]["session"]["of"] == 4
        # The fourth person, who played nothing, still gets nothing of any board.
        snoop.url, snoop.browser = url, Browser(url)
        snoop.browser.http.cookies.update(dora_cookies)
        snoop.look([ann_seat["code"], bo_seat["code"], cy_seat["code"]], records, daily_matches(db))
        assert snoop.ask("/api/daily").json()["sets"][0]["ranking"] is None
        snoop.check(salts)
        # The day ends: the salts are revealed, and they deal the decks committed to that morning.
        clock.now = day_start(DAY) + 86400 + 60
        revealed = snoop.ask(f"/api/daily/{DAY}/official", 200).json()
        assert revealed["final"] and revealed["set"]["commitments"] == published["commitments"]
        deal_set = DealSet.from_json(revealed["set"])
        deal_set.verify()
        for n in range(1, DEALS + 1):
            deck = deal_set.deck(n)
            assert commitment(deck_text(deck), revealed["set"]["salts"][n - 1]) == published["commitments"][n - 1]
            dealt = Deal(deal_set.rules, deal_set.dealer(n), list(deck)).dealt
            hands = cy_t[n]["traveller"]["hands"]
            assert {s.name: sorted(map(str, h)) for s, h in zip(SEATS, dealt, strict=True)} == \
                {s: sorted(h) for s, h in hands.items()}
            mine = next(line for line in cy_t[n]["traveller"]["results"] if line["mine"])
            text = cy.get(mine["record"]).text
            assert cy_id not in text and cy_id not in json.dumps(cy_t[n])  # (a player's id is never shown)
            record = json.loads(text)
            assert record["players"]["S"] == "Cyra" and record["deals"][0]["deck"] == deck_text(deck)
            replay(record)  # (the record checks its own shuffle: its deck from its salt)
        # Once the day is over the travellers open to everyone, and the ranking is final.
        assert snoop.ask(f"/api/daily/{DAY}/official/boards/2").status_code == 200
        yesterday = snoop.ask("/api/daily").json()["yesterday"][0]
        assert [(r["name"], r["percentage"]) for r in yesterday["ranking"]] == \
            [(r["name"], r["percentage"]) for r in today["ranking"]]
        # An account's profile lists its day with its rank; deleting the account takes its name from the ranking.
        days = Browser(url).get("/api/players/Bodkin").json()["daily"]["days"]
        assert days == [{"day": DAY, "preset": "official", "rank": ranks["Bodkin"], "of": 4,
                         "percentage": next(r["percentage"] for r in today["ranking"] if r["name"] == "Bodkin"),
                         "total": sum(final["Bodkin"]), "set": f"/api/daily/{DAY}/official"}]
        bo2 = Browser(url)
        assert bo2.login("Bodkin", PASSWORD).status_code == 200
        assert bo2.change("DELETE", "/api/players/me", {"password": PASSWORD}).status_code == 200
        names = [r["name"] for r in snoop.ask("/api/daily").json()["yesterday"][0]["ranking"]]
        assert "Bodkin" not in names and "former player" in names
        record = Browser(url).get(
            next(line for line in cy_t[1]["traveller"]["results"] if line["name"] == "Bodkin")["record"]).text
        assert "Bodkin" not in record and "former player" in record
    conn = sqlite3.connect(db)
    try:
        everything = "\n".join(str(row) for t in [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")] for row in conn.execute(f'SELECT * FROM "{t}"'))
        counted = conn.execute("SELECT entrant, count(*) FROM duplicate_results WHERE field_id = ? GROUP BY entrant",
                               (f"daily/{DAY}/official",)).fetchall()
    finally:
        conn.close()
    assert "Bodkin" not in everything  # (kept by id only: a deleted name is gone from every field and board)
    assert sorted(n for _, n in counted) == [DEALS] * 4  # (every board's result counted once, the restart too)



def test_a_daily_table_is_its_players_alone_and_bad_asks_are_one_line(tmp_path):
    clock = Clock(DAY)
    with running(tmp_path / "games.sqlite3", clock) as (url, _):
        ann = Browser(url)
        refused(ann.change("POST", "/api/daily/official/play"), 401, "signed-out")
        ann.guest("Ann")
        refused(ann.change("POST", "/api/daily/official/play", csrf=""), 403, "csrf")
        refused(ann.change("POST", "/api/daily/whist/play"), 404, "unknown-preset")
        refused(ann.get("/api/daily/2026-13-40/official"), 400, "bad-day")
        refused(ann.get(f"/api/daily/{DAY}/pagat"), 404, "unknown-preset")
        refused(ann.get("/api/daily/2020-01-01/official"), 404, "no-set")
        seat = sit(ann)
        for board in ("0", "99", "x"):
            refused(ann.get(f"/api/daily/{DAY}/official/boards/{board}"), 404, "no-board")
        p = Player(ws_url(url), seat["code"], token=seat["token"])
        p.until(lambda m: m["type"] == "state")
        for message, code in [({"type": "join", "seat": "N", "name": "Bo"}, "daily-table"),
                              ({"type": "fill", "seat": "N", "bot": "expert"}, "daily-table"),
                              ({"type": "start"}, "daily-table"), ({"type": "rematch"}, "daily-table"),
                              ({"type": "leave"}, "daily-table"), ({"type": "hint"}, "hints-off"),
                              ({"type": "chat", "text": "hello"}, "no-chat")]:
            error = p.error(message)
            assert error["code"] == code and "\n" not in error["message"], error
        p.close()
        from websockets.sync.client import connect

        for hello in ({}, {"host_token": "h" * 32}, {"token": "t" * 32}):
            with connect(ws_url(url), open_timeout=WAIT) as ws:
                ws.send(json.dumps({"type": "hello", "room": seat["code"], **hello}))
                assert json.loads(ws.recv(timeout=WAIT))["code"] == "no-spectators"
        assert seat["code"] not in Browser(url).get("/api/rooms").text  # (not in the lobby)
        refused(Browser(url).get(f"/rooms/{seat['code']}/record"), 404, "no-record")
        for path in ("/daily", "/daily/play/official"):
            page = Browser(url).get(path)
            assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        for path in ("/", "/replay", "/score", "/puzzles", "/players", "/account", "/daily"):
            nav = re.search(r"<nav[^>]*>(.*?)</nav>", Browser(url).get(path).text, re.S)
            assert nav and '<a href="/daily"' in nav.group(1), path


def test_the_lobbys_card_says_where_each_set_stands_and_opens_no_day(tmp_path):
    """GET /api/daily/today, the lobby's card: each preset's set of today, its boards, how many people have played it,
    and where the asker stands (new, playing with the boards played, finished with the score); asked before anyone
    visits /daily it opens nothing (no field made, no robot table set going), and it names no card of any board."""
    clock = Clock(DAY)
    with running(tmp_path / "games.sqlite3", clock) as (url, app):
        service = app.state.server.daily
        nobody = Browser(url)
        card = nobody.get("/api/daily/today").json()
        assert card["day"] == DAY and card["deals"] == DEALS and card["bots"] == "basic"
        assert card["sets"] == [{"preset": "official", "rules": "official", "day": DAY, "boards": DEALS,
                                 "status": "new", "played": 0, "finished": 0, "playing": 0, "you": None,
                                 "play": "/daily/play/official"}]
        assert service.fields.field(f"daily/{DAY}/official") is None and not service._robots  # (nothing opened)
        ann = Browser(url)
        ann.guest("Ann")
        travellers, p = play(url, sit(ann), leave_in=2)
        p.close()
        mine = ann.get("/api/daily/today").json()["sets"][0]
        assert (mine["status"], mine["played"], mine["finished"], mine["playing"]) == ("playing", 1, 0, 1)
        assert nobody.get("/api/daily/today").json()["sets"][0]["status"] == "new"
        travellers, p = play(url, sit(ann), travellers=travellers)
        p.close()
        mine = ann.get("/api/daily/today").json()["sets"][0]
        assert (mine["status"], mine["played"], mine["finished"], mine["playing"]) == ("finished", DEALS, 1, 0)
        assert mine["you"] == travellers[DEALS]["session"]
        deal_set = service.deal_set(DAY, "official")
        text = ann.get("/api/daily/today").text + nobody.get("/api/daily/today").text
        for board in range(1, DEALS + 1):
            assert not cards_in(text) and deal_set.commitments[board - 1] not in text


def test_the_day_ends_once_its_tables_stop_and_the_ratings_take_it_once(tmp_path):
    clock = Clock(DAY, hour=23.9)
    db = tmp_path / "games.sqlite3"
    with running(db, clock) as (url, app):
        people = []
        for name in ("Ann", "Bo"):
            b = Browser(url)
            b.guest(name)
            _, p = play(url, sit(b))
            p.close()
            people.append(b)
        late = Browser(url)
        late.guest("Cy")
        seat = sit(late)  # (Cy sits down, and the day ends before Cy plays a card)
        p = Player(ws_url(url), seat["code"], token=seat["token"])
        p.until(lambda m: m["type"] == "state")
        clock.now = day_start(DAY) + 86400 + 1
        for b in people:
            assert b.get("/api/daily").json()["yesterday"][0]["ranking"][0]["rank"] == 1  # (final: all can see)
        assert seat["code"] not in app.state.server.rooms  # (the day's tables are let go)
        over = p.until(lambda m: m["type"] == "state" and m["room"]["daily"]["closed"])
        assert p.error({"type": "act", "seq": over["seq"], "action": "pass"})["code"] == "no-deal"
        assert late.get(f"/api/daily/{DAY}/official/boards/1").status_code == 200  # (over: open to all)
        p.close()
    conn = sqlite3.connect(db)
    try:
        rated = conn.execute("SELECT count(*) FROM rated_games WHERE key = ?", (f"daily:official:{DAY}",)).fetchone()
        status = conn.execute("SELECT status FROM rooms WHERE code = ?", (seat["code"],)).fetchone()
        cy = conn.execute("SELECT status, boards, rank FROM duplicate_entries WHERE field_id = ? AND table_code = ?",
                          (f"daily/{DAY}/official", seat["code"])).fetchone()
    finally:
        conn.close()
    assert rated == (1,)
    assert status == ("closed",) and cy == ("playing", 0, None)  # (an unfinished session is not ranked)
