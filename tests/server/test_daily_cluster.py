"""A daily session on two real ``cinch serve`` processes over one PostgreSQL database and one Redis.

A guest signs in on the first process and plays the day's set there; in the middle of board 1, while a bot is
about to play at the table the first process drives, that process is killed with SIGKILL.  The guest's page
reconnects to the second process with the same token and finds the same board at the same action; the second
process claims the table and plays the bot's turn; the set plays on to its end.  Each board's result is in the
field once, the actions log holds every seq once, and the guest's session is finished and ranked.  PostgreSQL
and Redis come from the ``postgres`` and ``redis_server`` fixtures (conftest.py); without them this is skipped.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import psycopg
from playerkit import Browser
from serverkit import Player
from services import free_port

WAIT = 15.0
LEASE = 2.0
DEALS = 2


class Serve:
    """``python -m cinch serve`` of a cluster, with the daily deals of ``official`` (two boards, basic bots)."""

    def __init__(self, database_url: str, redis_url: str, log: Path):
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        self.ws = f"ws://127.0.0.1:{port}/ws"
        self.log = log
        with open(log, "ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "cinch", "serve", "--host", "127.0.0.1", "--port", str(port),
                 "--database-url", database_url, "--redis-url", redis_url, "--cluster-lease", str(LEASE),
                 "--daily", "official", "--daily-bots", "basic", "--daily-deals", str(DEALS), "--daily-pace", "0.5",
                 "--log-level", "warning"],
                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

    def wait(self) -> Serve:
        deadline = time.monotonic() + 30.0
        while True:
            assert self.process.poll() is None, f"cinch serve exited: {self.log.read_text()[-3000:]}"
            assert time.monotonic() < deadline, "cinch serve did not answer"
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(self.url + "/api/daily", timeout=1.0).status_code == 200:
                    return self
            time.sleep(0.05)

    def kill(self) -> None:
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(WAIT)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def rows(database_url: str, query: str, *args: Any) -> list[tuple[Any, ...]]:
    with psycopg.connect(database_url) as conn:
        return conn.execute(query, args).fetchall()


def bot_to_play(state: dict[str, Any] | None) -> bool:
    return bool(state and state["deal"] and state["deal"]["phase"] == "play" and state["deal"]["to_act"] != "S"
                and state["room"]["status"] == "playing" and state["deal"]["tricks"])


def play_on(p: Player, travellers: dict[int, Any], done: Any, timeout: float = 90.0) -> None:
    acted = None
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, f"the set did not go on: {p.state}"
        for m in p.drain(0.01):
            if m["type"] == "daily":
                travellers[m["board"]] = m
        s = p.state
        if s is None:
            continue
        if s["room"]["status"] == "between-deals" and s["room"]["daily"]["board"] in travellers \
                and acted != ("ready", s["seq"]):
            acted = ("ready", s["seq"])
            p.send({"type": "ready"})
        elif p.my_turn() and acted != s["seq"]:
            acted = s["seq"]
            p.act()


def test_a_daily_session_outlives_a_process_killed_mid_deal_and_counts_each_result_once(
        database_url, redis_server, tmp_path):
    log = tmp_path / "serve.log"
    a, b = Serve(database_url, redis_server.url, log), Serve(database_url, redis_server.url, log)
    clients: list[Player] = []
    try:
        a.wait()
        b.wait()
        guest = Browser(a.url)
        guest.guest("Ann")
        seat = guest.change("POST", "/api/daily/official/play").json()
        assert seat["board"] == 1, seat
        first = Player(a.ws, seat["code"], token=seat["token"])
        clients.append(first)
        travellers: dict[int, Any] = {}
        play_on(first, travellers, lambda: bot_to_play(first.state))
        before = first.state
        assert before is not None
        owner = rows(database_url, "SELECT owner FROM rooms WHERE code = %s", seat["code"])[0][0]
        assert f":{a.process.pid}:" in str(owner)  # (the first process drives the table: its bots play there)
        a.kill()  # (while a bot waits before it plays, on the process that is gone)
        first.ws.close_timeout = 1.0
        with contextlib.suppress(Exception):
            first.close()
        # The page reconnects to the other process: the same board at the same action, then the bot plays there.
        again = Player(b.ws, seat["code"], token=seat["token"])
        clients.append(again)
        state = again.until(lambda m: m["type"] == "state", WAIT)
        assert state["seq"] >= before["seq"] and state["room"]["daily"]["board"] == 1
        if state["seq"] == before["seq"]:
            assert state["deal"]["hand"] == before["deal"]["hand"]
        again.until(lambda m: m["type"] == "state" and m["seq"] > before["seq"], LEASE + 15)
        play_on(again, travellers, lambda: DEALS in travellers and travellers[DEALS]["session"] is not None)
        assert sorted(travellers) == list(range(1, DEALS + 1))
        for t in travellers.values():
            names = sorted(line["name"] for line in t["traveller"]["results"])
            assert names == ["Ann", "Robot table (basic)"]
        assert travellers[DEALS]["session"]["of"] == 2
        # Each result counted once, and every seq of the table's actions once.
        fid = f"daily/{seat['day']}/official"
        counted = rows(database_url, "SELECT entrant, board FROM duplicate_results WHERE field_id = %s ORDER BY "
                                     "entrant, board", fid)
        people = [board for entrant, board in counted if entrant != "robots"]
        assert people == list(range(1, DEALS + 1))
        assert [board for entrant, board in counted if entrant == "robots"] == list(range(1, DEALS + 1))
        entry = rows(database_url, "SELECT status, boards FROM duplicate_entries WHERE field_id = %s AND "
                                   "entrant <> 'robots'", fid)
        assert entry == [("finished", DEALS)]
        seqs = [r[0] for r in rows(database_url, "SELECT seq FROM actions WHERE room = %s ORDER BY seq", seat["code"])]
        assert seqs == sorted(set(seqs)) and len(seqs) > 20
        late = Browser(b.url)
        late.http.cookies.update(dict(guest.http.cookies))
        assert late.change("POST", "/api/daily/official/play").status_code == 409  # (played: once a day)
    finally:
        for p in clients:
            p.ws.close_timeout = 1.0
            with contextlib.suppress(Exception):
                p.close()
        for s in (a, b):
            s.stop()


