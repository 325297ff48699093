"""Load of the daily deals on ``cinch serve``: simulated people playing the day's set against its bots.

    .venv/bin/python benchmarks/daily.py [--bots expert] [--people 8] [--seconds 180] [--bot-workers 1] [--json]

Its clients need httpx, from the test extra (``pip install -e '.[test]'``; ``make test`` installs it).

Starts the real server as a subprocess (``python -m cinch serve`` on a free loopback port, a fresh game library in
a temporary folder, the daily deals of ``official`` only, ``--daily-bots`` as ``--bots`` says, 8 boards, no pause
before a bot acts), opens the day's set once and waits for its robot table (played once a day, in the server's
pool of processes), then lets ``--people`` simulated people play at once: each is a guest (its own address, as
behind a proxy) that sits at today's set and plays South with a bot's haste, the keep suggestion or the first
legal action the moment it is to act, pressing Next after each board's traveller; a person who finishes the set
is followed by a new one.  The people never wait, so the server is saturated: what it carries is what its bots
can think, and the figures are its capacity.

It measures, over the ``--seconds`` of play (a run is bounded by them: other work shares the machine):

- boards finished, and sessions of 8 boards an hour (boards an hour / 8);
- a bot's turn at a person's table: from the state in which a bot is to act to the next state, p50/p99 in
  milliseconds (the bot's thinking, and its wait for the pool when the tables queue for it);
- the server process's CPU time and its pool's (from ``/proc``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

DEALS = 8
SENDS = 15  # messages a person sends a second at most (the server takes 20 a second from a connection)
HZ = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """A process's CPU time and its children's that it waited for (utime + stime), in seconds."""
    with contextlib.suppress(OSError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / HZ
    return 0.0


def children(pid: int) -> list[int]:
    with contextlib.suppress(OSError):
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    return []


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Stats:
    def __init__(self) -> None:
        self.boards = 0
        self.sessions = 0
        self.turns: list[float] = []  # seconds, a bot's turn
        self.errors: dict[str, int] = {}
        self.measuring = False


async def person(url: str, n: int, stats: Stats, until: float) -> None:
    """One simulated person after another in this slot: a guest that plays today's set to its end."""
    while time.monotonic() < until:
        address = f"10.{n // 250}.{n % 250}.{int(time.monotonic() * 1000) % 250 + 1}"
        async with httpx.AsyncClient(base_url=url, timeout=60, headers={"X-Forwarded-For": address}) as http:
            token = (await http.get("/api/players/me")).json()["csrf"]
            made = await http.post("/api/players/guest", json={"name": f"sim {n}"}, headers={"X-CSRF-Token": token})
            token = made.json()["csrf"]
            seat = (await http.post("/api/daily/official/play", json={}, headers={"X-CSRF-Token": token})).json()
            if "code" not in seat:
                stats.errors[seat.get("code", "?")] = stats.errors.get(seat.get("code", "?"), 0) + 1
                await asyncio.sleep(1)
                continue
        if await play_set(url.replace("http", "ws") + "/ws", seat, stats, until):
            stats.sessions += stats.measuring
        n += 1000


async def play_set(ws_url: str, seat: dict[str, Any], stats: Stats, until: float) -> bool:
    async with connect(ws_url, max_size=2**22) as ws:
        last = 0.0

        async def send(message: dict[str, Any]) -> None:
            """(A person sends at most :data:`SENDS` messages a second: the server drops what comes faster.)"""
            nonlocal last
            wait = last + 1 / SENDS - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            last = time.monotonic()
            await ws.send(json.dumps(message))

        await send({"type": "hello", "room": seat["code"], "token": seat["token"]})
        acted, told, waiting = -1, 0, None  # waiting: (seq, when) of a state in which a bot is to act
        while time.monotonic() < until:
            try:
                m = json.loads(await asyncio.wait_for(ws.recv(), max(0.1, until - time.monotonic())))
            except TimeoutError:
                return False
            if m["type"] == "daily":
                told = m["board"]
                stats.boards += stats.measuring
                if m["board"] == DEALS:
                    return True
            elif m["type"] == "error":
                stats.errors[m["code"]] = stats.errors.get(m["code"], 0) + 1
            if m["type"] != "state":
                if m["type"] == "daily" and waiting is None:
                    await send({"type": "ready"})
                continue
            room, deal, seq = m["room"], m["deal"], m["seq"]
            if waiting is not None and seq > waiting[0]:
                if stats.measuring:
                    stats.turns.append(time.monotonic() - waiting[1])
                waiting = None
            if room["status"] == "between-deals":
                if told == room["daily"]["board"] and acted != -seq:
                    acted = -seq
                    await send({"type": "ready"})
                continue
            if room["status"] != "playing" or not deal:
                continue
            if deal["to_act"] == "S" and acted != seq and (deal.get("legal") or deal.get("keep")):
                acted = seq
                action = deal["keep"]["suggestion"] if deal.get("keep") else deal["legal"][0]
                await send({"type": "act", "seq": seq, "action": action})
            elif deal["to_act"] not in (None, "S") and waiting is None:
                waiting = (seq, time.monotonic())
    return False


def robots_ready(db: Path) -> bool:
    with contextlib.suppress(sqlite3.Error):
        conn = sqlite3.connect(db)
        try:
            row = conn.execute("SELECT count(*) FROM duplicate_results WHERE entrant = 'robots'").fetchone()
            return bool(row and row[0] >= DEALS)
        finally:
            conn.close()
    return False


async def run(args: argparse.Namespace) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="cinch-daily-bench-"))
    db, port = folder / "games.sqlite3", free_port()
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "cinch", "serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(db),
         "--daily", "official", "--daily-bots", args.bots, "--daily-deals", str(DEALS), "--daily-pace", "0",
         "--bot-workers", str(args.bot_workers), "--log-level", "warning"],
        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        async with httpx.AsyncClient(base_url=url, timeout=10) as http:
            deadline = time.monotonic() + 60
            while True:
                with contextlib.suppress(httpx.TransportError):
                    if (await http.get("/api/daily")).status_code == 200:
                        break
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("cinch serve did not start")
                await asyncio.sleep(0.2)
        warm = time.monotonic()
        while not robots_ready(db):  # (the robot table: once a day, before the people come)
            if time.monotonic() - warm > 600:
                raise SystemExit("the robot table took more than 10 minutes")
            await asyncio.sleep(0.5)
        robots = time.monotonic() - warm
        stats = Stats()
        warmup = min(20.0, args.seconds / 6)
        until = time.monotonic() + warmup + args.seconds
        people = [asyncio.create_task(person(url, n, stats, until)) for n in range(args.people)]
        await asyncio.sleep(warmup)
        pids = [server.pid, *children(server.pid)]
        cpu0 = {pid: cpu_seconds(pid) for pid in pids}
        stats.measuring = True
        start = time.monotonic()
        await asyncio.gather(*people)
        elapsed = time.monotonic() - start
        cpu = {pid: cpu_seconds(pid) - cpu0[pid] for pid in pids}
    finally:
        server.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(10)
    hour = 3600 / elapsed
    return {"bots": args.bots, "people": args.people, "bot_workers": args.bot_workers, "seconds": round(elapsed),
            "robot_table_s": round(robots, 1), "boards": stats.boards, "sessions_finished": stats.sessions,
            "sessions_per_hour": round(stats.boards * hour / DEALS, 1),
            "bot_turn_ms": {"p50": round(1000 * percentile(stats.turns, 0.5)),
                            "p99": round(1000 * percentile(stats.turns, 0.99)), "turns": len(stats.turns)},
            "server_cpu_s": round(cpu[server.pid], 1),
            "pool_cpu_s": round(sum(v for pid, v in cpu.items() if pid != server.pid), 1),
            "errors": stats.errors}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default="expert", help="the daily deals' bots (cinch serve --daily-bots)")
    parser.add_argument("--people", type=int, default=8, help="people playing at once, without a pause")
    parser.add_argument("--seconds", type=float, default=180.0, help="seconds measured (after a short warm-up)")
    parser.add_argument("--bot-workers", type=int, default=1, help="cinch serve --bot-workers")
    parser.add_argument("--json", action="store_true", help="one JSON line instead of words")
    args = parser.parse_args()
    result = asyncio.run(run(args))
    if args.json:
        print(json.dumps(result))
        return
    turns = result["bot_turn_ms"]
    people = f"{result['people']} {'person' if result['people'] == 1 else 'people'}"
    print(f"{result['bots']} bots, {people} at once, {result['bot_workers']} bot worker(s), "
          f"{result['seconds']} s measured (the robot table took {result['robot_table_s']} s first):")
    print(f"  {result['boards']} boards finished: {result['sessions_per_hour']} sessions of {DEALS} boards an hour")
    print(f"  a bot's turn: p50 {turns['p50']} ms, p99 {turns['p99']} ms ({turns['turns']} turns)")
    errors = result["errors"] or "none"
    print(f"  CPU: server {result['server_cpu_s']} s, pool {result['pool_cpu_s']} s; errors {errors}")


if __name__ == "__main__":
    main()
