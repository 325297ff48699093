"""Load on ``cinch serve``: many tables of four websocket clients playing at a set pace.

    .venv/bin/python benchmarks/server.py [--tables 500] [--pace 1.0] [--seconds 60] [--client-procs 2] [--json]
    .venv/bin/python benchmarks/server.py --cluster [--processes 2] ...   # over PostgreSQL and Redis

Its clients need httpx, from the test extra (``pip install -e '.[test]'``; ``make test`` installs it), and
``--cluster`` the cluster extra as well.

Starts the real server as a subprocess (``python -m cinch serve`` on a free loopback port, or
``--port``'s,
a fresh game library in a temporary folder), creates ``--tables`` rooms over HTTP (no bot
delay, no pause between deals, a long grace), opens four websocket clients per room a batch
at a time, joins the four seats (North's connection is also the host's, and starts the
match), and then plays: whenever a seat's latest ``state`` says it is to act, it sends the
first legal action (or the keep suggestion) with that state's ``seq``, no sooner than
``1 / --pace`` seconds after its table's previous action, so each table makes about
``--pace`` actions a second.  A match that ends is followed by a rematch.

It measures, over the ``--seconds`` of play:

- latency: from sending an ``act`` to that seat receiving its next ``state`` with a higher
  ``seq`` (the update for its own action), p50/p90/p99/max in milliseconds;
- actions in all and per second, states received, errors by code, disconnects;
- the server process's CPU time (from ``/proc/<pid>/stat``) and peak RSS (``VmHWM``), and
  the clients' CPU time and event-loop lag, to tell a slow server from a slow client.

The target: 500 tables (2,000 connections) at one action per table per second with p99
under 100 ms on a 2-core machine.  The clients share the machine with the server: on a
small machine their CPU time is the server's loss, so read the client CPU beside the
server's.  ``--client-procs K`` splits the tables across K client processes (2 by
default: one cannot keep up with 2,000 connections); ``--spread N`` first plays 0 to N
actions at each table, so that the tables stand at different points of their deals;
``--compression`` turns on permessage-deflate (off unless ``cinch serve
--ws-compression``); ``--json`` prints the figures as one JSON line instead; ``--py-spy
FILE`` records the server with py-spy (if on the PATH) during the run.

The server is one event loop: it can make at most ``1000 / (server CPU ms an action)``
actions a second, and its latency grows long before that, so ``tables * pace * ms an
action`` must stay well under 1000 ms a second (about 700) for the target.

``--cluster`` runs the same load over ``--processes`` server processes (2 by default) that
share PostgreSQL and Redis, both started here from Debian's packages on loopback
(``scripts/services.py``; PostgreSQL with its default durability, fsync on).  Each table is
created on one process and its seats spread over all of them (N on the first, E on the
second, ...), so that every action is taken by one process and relayed through Redis to
the seats on the other: the latency measured is a seat's action to its own update, as
before, and the update of the seats elsewhere follows the same path.  The server CPU is
the processes' together; PostgreSQL's and Redis's show in the machine's busy cores.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import resource
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

try:
    import httpx
except ImportError:
    sys.exit("benchmarks/server.py needs httpx, from the test extra: pip install -e '.[test]' (make test installs it)")
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

SEATS = "NESW"
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


# ---- the server process ------------------------------------------------------------------------------------
def raise_open_files(need: int) -> None:
    """Lift this process's soft limit on open files towards ``need`` (as far as the hard limit allows)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = need if hard == resource.RLIM_INFINITY else min(need, hard)
    if soft != resource.RLIM_INFINITY and soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ServerProcess:
    """``python -m cinch serve`` on a loopback port, its CPU time and memory read from ``/proc``."""

    def __init__(self, folder: str, files: int, compression: bool = False, index: int = 0,
                 store: list[str] | None = None, port: int | None = None):
        self.port = free_port() if port is None else port
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = os.path.join(folder, f"server{index}.log")
        self.log = open(self.log_path, "wb")  # noqa: SIM115 - closed in stop()
        path = [os.path.join(ROOT, "src"), *filter(None, [os.environ.get("PYTHONPATH")])]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
        where = store if store is not None else ["--db", os.path.join(folder, "games.sqlite3")]
        command = [sys.executable, "-m", "cinch", "serve", "--host", "127.0.0.1", "--port", str(self.port),
                   *where, "--log-level", "warning", "--ws-compression" if compression else "--no-ws-compression"]
        self.proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT,
                                     env=env, start_new_session=True,  # Ctrl-C reaches us, and we stop it
                                     preexec_fn=lambda: raise_open_files(files))
        self.tick = os.sysconf("SC_CLK_TCK")

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}:\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(self.url + "/", timeout=2) as reply:
                    if reply.status == 200:
                        return
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server did not answer within {timeout:.0f} s:\n{self.log_tail()}")
            time.sleep(0.1)

    def cpu(self) -> float:
        """Seconds of CPU (user + system) the server has used so far."""
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / self.tick  # utime, stime: fields 14 and 15 of stat

    def memory(self) -> dict[str, float]:
        """Peak and current resident memory, in MB."""
        out = {}
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key in ("VmHWM", "VmRSS"):
                    out[key] = int(value.split()[0]) / 1024
        return out

    def log_tail(self, lines: int = 20) -> str:
        self.log.flush()
        with open(self.log_path, "rb") as f:
            return "\n".join(f.read().decode(errors="replace").splitlines()[-lines:])

    def log_lines(self) -> list[str]:
        self.log.flush()
        with open(self.log_path, "rb") as f:
            lines = f.read().decode(errors="replace").splitlines()
        return [line for line in lines if not line.startswith("cinch serve: ")]  # all but its greeting

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)  # uvicorn shuts down on SIGINT (its graceful timeout is 5 s)
            try:
                self.proc.wait(8)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


# ---- the clients ------------------------------------------------------------------------------------------
@dataclass
class Plan:
    """What one client process does (picklable, for ``--client-procs``)."""

    urls: list[str]  # the server processes: a table's seats spread over them
    tables: int
    pace: float
    seconds: float
    rules: Any
    target: int | None
    batch: int
    setup_timeout: float
    compression: bool
    spread: int = 40
    drain: float = 3.0


@dataclass
class Tally:
    """What one client process saw."""

    tables: int = 0
    connections: int = 0
    setup_failures: dict[str, int] = field(default_factory=dict)
    setup_s: float = 0.0
    run_s: float = 0.0
    actions: int = 0
    rematches: int = 0
    latencies: list[float] = field(default_factory=list)
    unanswered: int = 0
    states: int = 0
    state_bytes: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    disconnects: dict[str, int] = field(default_factory=dict)
    client_cpu: float = 0.0
    lags: list[float] = field(default_factory=list)
    warm_s: float = 0.0
    warm_states: int = 0


class SetupError(Exception):
    pass


class Player:
    """One seat's connection."""

    def __init__(self, table: Table, seat: str):
        self.table, self.seat = table, seat
        self.ws: ClientConnection | None = None
        self.token: str | None = None
        self.state: dict[str, Any] | None = None
        self.acted_seq = -1  # the last seq this seat acted on (or is waiting to)
        self.sent_seq: int | None = None  # the seq of the act awaiting its state
        self.sent_at = 0.0
        self.reader: asyncio.Task[None] | None = None
        self.where = 0  # the server process it is connected to


class Table:
    def __init__(self) -> None:
        self.code = ""
        self.host_token = ""
        self.players = [Player(self, s) for s in SEATS]
        self.next_at = 0.0
        self.warm_left = 0  # actions still to make, unpaced, before the measured run
        self.rematched: Any = None  # the match_id a rematch was asked for


class Bench:
    """The tables of one client process: set up, play for the run, close."""

    def __init__(self, plan: Plan):
        self.plan = plan
        self.tally = Tally()
        self.tables: list[Table] = []
        self.acting = False
        self.warming = False
        self.stopping = False
        self.tasks: set[asyncio.Task[Any]] = set()
        self.errors: Counter[str] = Counter()
        self.disconnects: Counter[str] = Counter()
        self.interval = 1.0 / plan.pace
        self.ws_urls = [url.replace("http://", "ws://") + "/ws" for url in plan.urls]
        self.created = 0

    # ---- setting up ------------------------------------------------------------------------------------------
    async def open(self, hello: dict[str, Any], where: int = 0) -> ClientConnection:
        ws = await connect(self.ws_urls[where % len(self.ws_urls)], max_size=2**22, open_timeout=30, close_timeout=2,
                           ping_interval=None,
                           compression="deflate" if self.plan.compression else None)
        await ws.send(json.dumps({"type": "hello", **hello}))
        return ws

    @staticmethod
    async def expect(ws: ClientConnection, kind: str, timeout: float = 30.0, playing: bool = False) -> dict[str, Any]:
        async with asyncio.timeout(timeout):
            while True:
                msg: dict[str, Any] = json.loads(await ws.recv())
                if msg["type"] == "error":
                    raise SetupError(msg["code"])
                if msg["type"] == kind and (not playing or msg["room"]["status"] == "playing"):
                    return msg

    async def set_up(self, http: httpx.AsyncClient, table: Table, gate: asyncio.Semaphore) -> None:
        async with gate:
            body: dict[str, Any] = {"rules": self.plan.rules, "bot_delay": 0, "between_deals": 0, "grace": 3600}
            if self.plan.target is not None:
                body["target"] = self.plan.target
            first = self.created  # the process the table is created on; its seats go round the processes from it
            self.created += 1
            reply = await http.post(self.plan.urls[first % len(self.plan.urls)] + "/api/rooms", json=body)
            if reply.status_code != 201:
                raise SetupError(f"http-{reply.status_code}")
            room = reply.json()
            table.code, table.host_token = room["code"], room["host_token"]
            try:
                for i, p in enumerate(table.players):
                    hello = {"room": table.code, **({"host_token": table.host_token} if p.seat == "N" else {})}
                    p.where = first + i
                    p.ws = await self.open(hello, p.where)
                    self.tally.connections += 1
                    await self.expect(p.ws, "welcome")
                    await p.ws.send(json.dumps({"type": "join", "seat": p.seat, "name": f"P{p.seat}",
                                                "entropy": secrets.token_hex(8)}))
                    p.token = (await self.expect(p.ws, "seated"))["token"]
                north = table.players[0].ws
                assert north is not None
                await north.send(json.dumps({"type": "start"}))
                for p in table.players:
                    assert p.ws is not None
                    p.state = await self.expect(p.ws, "state", playing=True)
            except BaseException:
                await self.close_table(table)
                raise
            for p in table.players:
                p.reader = asyncio.create_task(self.read(p))
            self.tables.append(table)

    async def close_table(self, table: Table) -> None:
        for p in table.players:
            if p.reader is not None:
                p.reader.cancel()
            if p.ws is not None:
                with contextlib.suppress(Exception):
                    await p.ws.close()

    async def set_up_all(self) -> None:
        start = time.monotonic()
        gate = asyncio.Semaphore(self.plan.batch)
        limits = httpx.Limits(max_connections=self.plan.batch)
        async with httpx.AsyncClient(timeout=30, limits=limits) as http:
            tasks = [asyncio.create_task(self.set_up(http, Table(), gate)) for _ in range(self.plan.tables)]
            done, pending = await asyncio.wait(tasks, timeout=self.plan.setup_timeout)
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
        failures: Counter[str] = Counter()
        for task in tasks:
            if task.cancelled():
                failures["setup-timeout"] += 1
            elif task.exception() is not None:
                e = task.exception()
                failures[str(e) if isinstance(e, SetupError) else type(e).__name__] += 1
        self.tally.setup_failures = dict(failures)
        self.tally.tables = len(self.tables)
        self.tally.setup_s = time.monotonic() - start

    # ---- playing ---------------------------------------------------------------------------------------------
    def spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def read(self, p: Player) -> None:
        loop = asyncio.get_running_loop()
        while True:
            ws = p.ws
            assert ws is not None
            try:
                async for text in ws:
                    self.received(p, text, loop.time())
            except ConnectionClosed:
                pass
            if self.stopping:
                return
            self.disconnects[f"close-{ws.close_code}"] += 1
            p.sent_seq = None
            try:  # come back with the seat's token, as a browser would
                hello = {"room": p.table.code, "token": p.token}
                if p.seat == "N":
                    hello["host_token"] = p.table.host_token
                p.ws = await self.open(hello, p.where)
            except (OSError, WebSocketException, TimeoutError):
                self.disconnects["reconnect-failed"] += 1
                return

    def received(self, p: Player, text: str | bytes, now: float) -> None:
        msg = json.loads(text)
        kind = msg["type"]
        if kind == "state":
            if self.acting and not self.warming:
                self.tally.states += 1
                self.tally.state_bytes += len(text)
            if self.warming:
                self.tally.warm_states += 1
            if p.sent_seq is not None and msg["seq"] > p.sent_seq:
                self.tally.latencies.append(now - p.sent_at)
                p.sent_seq = None
            p.state = msg
            self.consider(p)
        elif kind == "error":
            self.errors[msg["code"]] += 1
            p.sent_seq = None

    def consider(self, p: Player) -> None:
        """Act (after the table's pause) if the seat's latest state says it is to; rematch a finished match."""
        state = p.state
        if not self.acting or state is None:
            return
        room, deal, table = state["room"], state["deal"], p.table
        if room["status"] == "over" and p.seat == "N" and table.rematched != room["match_id"]:
            table.rematched = room["match_id"]
            self.tally.rematches += 1
            self.spawn(self.send(p, {"type": "rematch"}))
            return
        seq = state["seq"]
        if room["status"] != "playing" or deal is None or deal["to_act"] != p.seat or seq == p.acted_seq:
            return
        keep = deal.get("keep")
        choice = keep["suggestion"] if keep else (deal["legal"][0] if deal["legal"] else None)
        if choice is None:
            self.errors["client-no-choice"] += 1
            return
        p.acted_seq = seq
        self.spawn(self.act(p, seq, choice))

    async def act(self, p: Player, seq: int, choice: str) -> None:
        loop = asyncio.get_running_loop()
        table = p.table
        if self.warming:
            if table.warm_left <= 0:
                p.acted_seq = -1  # (the measured run starts here)
                return
            table.warm_left -= 1
            await self.send(p, {"type": "act", "seq": seq, "action": choice})
            return
        delay = table.next_at - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        if not self.acting or p.state is None or p.state["seq"] != seq:
            return
        now = loop.time()
        table.next_at = now + self.interval
        p.sent_seq, p.sent_at = seq, now
        self.tally.actions += 1
        await self.send(p, {"type": "act", "seq": seq, "action": choice})

    @staticmethod
    async def send(p: Player, message: dict[str, Any]) -> None:
        if p.ws is not None:
            with contextlib.suppress(ConnectionClosed):
                await p.ws.send(json.dumps(message))

    async def watch_loop(self) -> None:
        """How late the event loop wakes a sleeper: the clients' own share of the latency."""
        loop = asyncio.get_running_loop()
        while True:
            at = loop.time()
            await asyncio.sleep(0.05)
            self.tally.lags.append(loop.time() - at - 0.05)

    async def play(self, barrier: Any = None, marks: Any = None) -> Tally:
        """Set up, wait for the other client processes (``barrier``), play the run, close everything."""
        raise_open_files(4 * self.plan.tables + 256)
        try:
            await self.set_up_all()
            if barrier is not None:
                await asyncio.get_running_loop().run_in_executor(None, barrier.wait, self.plan.setup_timeout + 60)
            await self.run(marks)
        finally:
            self.stopping = True
            self.acting = False
            for task in list(self.tasks):
                task.cancel()
            gate = asyncio.Semaphore(100)

            async def close(table: Table) -> None:
                async with gate:
                    await self.close_table(table)

            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(30):
                    await asyncio.gather(*(close(t) for t in self.tables), return_exceptions=True)
        self.tally.errors = dict(self.errors)
        self.tally.disconnects = dict(self.disconnects)
        return self.tally

    async def warm_up(self) -> None:
        """Each table first plays a random number of actions unpaced, so that the tables stand at different
        points of their deals when the run starts, as on a server whose tables began at different times
        (started together, all their deals would end in the same second)."""
        if not self.plan.spread:
            return
        loop = asyncio.get_running_loop()
        start = loop.time()
        self.warming = self.acting = True
        for table in self.tables:
            table.warm_left = random.randint(0, self.plan.spread)
            for p in table.players:
                self.consider(p)
        deadline = start + 300
        while loop.time() < deadline and any(t.warm_left > 0 for t in self.tables):
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.5)  # the last answers arrive
        self.warming = self.acting = False
        self.tally.warm_s = loop.time() - start

    async def run(self, marks: Any) -> None:
        loop = asyncio.get_running_loop()
        await self.warm_up()
        if marks is not None:
            marks("start")
        watcher = asyncio.create_task(self.watch_loop())
        cpu = time.process_time()
        start = loop.time()
        self.acting = True
        self.errors.clear()
        self.disconnects.clear()
        for table in self.tables:  # the tables' first actions spread over one interval
            table.next_at = start + random.uniform(0, self.interval)
            for p in table.players:
                p.acted_seq = -1
                self.consider(p)
        await asyncio.sleep(self.plan.seconds)
        self.acting = False
        self.tally.run_s = loop.time() - start
        self.tally.client_cpu = time.process_time() - cpu
        watcher.cancel()
        if marks is not None:
            marks("end")
        deadline = loop.time() + self.plan.drain  # the acts in flight get their answers
        while loop.time() < deadline and any(p.sent_seq is not None for t in self.tables for p in t.players):
            await asyncio.sleep(0.05)
        self.tally.unanswered = sum(p.sent_seq is not None for t in self.tables for p in t.players)


def client_process(plan: Plan, barrier: Any, results: Any) -> None:
    """(In a client process.)  Play ``plan``'s tables; put the tally (or the failure) on ``results``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops us
    try:
        results.put(asdict(asyncio.run(Bench(plan).play(barrier))))
    except BaseException as e:
        results.put({"failed": f"{type(e).__name__}: {e}"})


# ---- the whole run ------------------------------------------------------------------------------------------
def split(total: int, parts: int) -> list[int]:
    return [total // parts + (i < total % parts) for i in range(parts)]


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))] if s else float("nan")


def machine_cpu() -> tuple[float, float]:
    """Seconds of CPU the whole machine has been busy, and in all (busy and idle), from ``/proc/stat``."""
    with open("/proc/stat") as f:
        ticks = [int(x) for x in f.readline().split()[1:9]]  # user nice system idle iowait irq softirq steal
    idle = ticks[3] + ticks[4]
    tick = os.sysconf("SC_CLK_TCK")
    return (sum(ticks) - idle) / tick, sum(ticks) / tick


class Marks:
    """The server's and the machine's CPU counters at the run's start and end (and py-spy, if asked)."""

    def __init__(self, servers: list[ServerProcess], seconds: float, profile: str | None):
        self.servers, self.seconds, self.profile = servers, seconds, profile
        self.server = servers[0]
        self.cpu: dict[str, float] = {"ready": self.server_cpu()}
        self.machine: dict[str, tuple[float, float]] = {}
        self.spy: subprocess.Popen[bytes] | None = None

    def __call__(self, name: str) -> None:
        self.cpu[name], self.machine[name] = self.server_cpu(), machine_cpu()
        if name == "start" and self.profile:
            spy = shutil.which("py-spy")
            if spy is None:
                raise RuntimeError("--py-spy needs py-spy on the PATH (pip install py-spy)")
            fmt = "speedscope" if self.profile.endswith(".json") else "raw" if self.profile.endswith(".txt") else (
                "flamegraph")
            self.spy = subprocess.Popen([spy, "record", "--pid", str(self.server.proc.pid), "--duration",
                                         str(max(1, int(self.seconds))), "--rate", "100", "--nonblocking",
                                         "--format", fmt, "-o", self.profile],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def server_cpu(self) -> float:
        return sum(s.cpu() for s in self.servers)

    def stop(self) -> None:
        if self.spy is not None:
            try:
                self.spy.wait(30)
            except subprocess.TimeoutExpired:
                self.spy.kill()
                self.spy.wait()


def run(args: argparse.Namespace) -> dict[str, Any]:
    procs = max(1, min(args.client_procs, args.tables))
    raise_open_files(4 * args.tables + 1024)
    setup_timeout = args.setup_timeout or max(60.0, 0.4 * args.tables)
    with tempfile.TemporaryDirectory(prefix="cinch-bench-") as folder, contextlib.ExitStack() as services:
        store = None
        if args.cluster:
            store = cluster_services(services)
        count = args.processes if args.cluster else 1
        servers = [ServerProcess(folder, files=4 * args.tables + 1024, compression=args.compression, index=i,
                                 store=store, port=None if args.port is None else args.port + i)
                   for i in range(count)]
        workers: list[multiprocessing.process.BaseProcess] = []
        marks: Marks | None = None
        try:
            for server in servers:
                server.wait_ready()
            marks = Marks(servers, args.seconds, args.py_spy)
            urls = [server.url for server in servers]
            plans = [Plan(urls, n, args.pace, args.seconds, args.rules, args.target, args.batch, setup_timeout,
                          args.compression, args.spread) for n in split(args.tables, procs)]
            if procs == 1:
                tallies = [asdict(asyncio.run(Bench(plans[0]).play(marks=marks)))]
            else:
                ctx = multiprocessing.get_context("spawn")
                barrier = ctx.Barrier(procs + 1)
                results = ctx.Queue()
                workers = [ctx.Process(target=client_process, args=(plan, barrier, results), daemon=True)
                           for plan in plans]
                for w in workers:
                    w.start()
                barrier.wait(setup_timeout + 120)
                marks("start")
                time.sleep(args.seconds)
                marks("end")
                tallies = [results.get(timeout=setup_timeout + 120) for _ in workers]
                failed = [t["failed"] for t in tallies if "failed" in t]
                if failed:
                    raise RuntimeError(f"a client process failed: {failed[0]}")
            marks.cpu["after"] = marks.server_cpu()
            memories = [server.memory() for server in servers]
            memory = {key: max(m.get(key, 0.0) for m in memories) for key in ("VmHWM", "VmRSS")}
            log = [line for server in servers for line in server.log_lines()]
        finally:
            for w in workers:
                if w.is_alive():
                    w.terminate()
                w.join(5)
            if marks is not None:
                marks.stop()
            for server in servers:
                server.stop()
    return {**summarize(args, procs, tallies, marks, memory, log), "ports": [server.port for server in servers]}


def cluster_services(stack: contextlib.ExitStack) -> list[str]:
    """PostgreSQL and Redis on loopback for ``--cluster`` (stopped when ``stack`` closes); the server's options."""
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    from services import Postgres, Redis, Unavailable

    try:
        postgres = Postgres(durable=True)
        stack.callback(postgres.stop)
        redis = Redis()
        stack.callback(redis.stop)
    except Unavailable as e:
        raise SystemExit(f"--cluster: {e}") from None
    return ["--database-url", postgres.database("cinch_bench"), "--redis-url", redis.url]


def summarize(args: argparse.Namespace, procs: int, tallies: list[dict[str, Any]], marks: Marks,
              memory: dict[str, float], log: list[str]) -> dict[str, Any]:
    def total(key: str) -> Any:
        return sum(t[key] for t in tallies)

    def counts(key: str) -> dict[str, int]:
        out: Counter[str] = Counter()
        for t in tallies:
            out.update(t[key])
        return dict(out.most_common())

    latencies = [x * 1000 for t in tallies for x in t["latencies"]]
    lags = [x * 1000 for t in tallies for x in t["lags"]]
    run_s = max(t["run_s"] for t in tallies) or float("nan")
    states, actions, cpu = total("states"), total("actions"), marks.cpu
    server_cpu, client_cpu = cpu["end"] - cpu["start"], total("client_cpu")
    (busy0, all0), (busy1, all1) = marks.machine["start"], marks.machine["end"]
    cores = round((all1 - all0) / run_s)  # the CPUs this machine lets us see
    busy = (busy1 - busy0) / run_s
    return {
        "server_processes": args.processes if args.cluster else 1,
        "store": "postgresql+redis" if args.cluster else "sqlite",
        "tables": args.tables, "tables_ready": total("tables"), "connections": total("connections"),
        "setup_failures": counts("setup_failures"), "setup_s": round(max(t["setup_s"] for t in tallies), 1),
        "warm_s": round(max(t["warm_s"] for t in tallies), 1), "spread": args.spread,
        "client_procs": procs, "compression": args.compression, "pace": args.pace,
        "run_s": round(run_s, 1), "actions": actions, "actions_per_s": round(actions / run_s, 1),
        "target_per_s": round(total("tables") * args.pace, 1), "rematches": total("rematches"),
        "answered": len(latencies), "unanswered": total("unanswered"),
        "latency_ms": {"p50": round(pct(latencies, 0.5), 1), "p90": round(pct(latencies, 0.9), 1),
                       "p99": round(pct(latencies, 0.99), 1), "max": round(max(latencies, default=float("nan")), 1)},
        "states": states, "states_per_s": round(states / run_s, 1),
        "state_kb": round(total("state_bytes") / max(1, states) / 1024, 2),
        "errors": counts("errors"), "disconnects": counts("disconnects"),
        "server_cpu_run_s": round(server_cpu, 1), "server_cpu_run_share": round(server_cpu / run_s, 2),
        "server_cpu_ms_per_action": round(1000 * server_cpu / max(1, actions), 2),
        "server_cpu_setup_s": round(cpu["start"] - cpu["ready"], 1), "server_cpu_total_s": round(cpu["after"], 1),
        "server_peak_rss_mb": round(memory.get("VmHWM", float("nan")), 1),
        "client_cpu_run_s": round(client_cpu, 1), "client_cpu_run_share": round(client_cpu / run_s, 2),
        "client_cpu_ms_per_action": round(1000 * client_cpu / max(1, actions), 2),
        "client_lag_ms": {"p99": round(pct(lags, 0.99), 1), "max": round(max(lags, default=float("nan")), 1)},
        "machine_cores": cores, "machine_busy_cores": round(busy, 2),
        "other_processes_cores": round(max(0.0, busy - (server_cpu + client_cpu) / run_s), 2),
        "server_log_lines": len(log), "server_log_first": log[0] if log else None,
    }


def report(r: dict[str, Any]) -> str:
    def named(counts: dict[str, int]) -> str:
        return ", ".join(f"{k} {v}" for k, v in counts.items()) or "none"

    lat, lag = r["latency_ms"], r["client_lag_ms"]
    lines = [
        "cinch serve under load",
        f"  tables          {r['tables_ready']} of {r['tables']} ready, {r['connections']} connections "
        f"(setup {r['setup_s']} s; failures: {named(r['setup_failures'])}); "
        f"spread over their deals by 0 to {r['spread']} actions each ({r['warm_s']} s)",
        f"  server          {r['server_processes']} process(es) over "
        f"{'PostgreSQL and Redis' if r['store'] != 'sqlite' else 'the SQLite library'}, "
        f"port {', '.join(map(str, r['ports']))}",
        f"  clients         {r['client_procs']} process(es), compression {'on' if r['compression'] else 'off'}",
        f"  run             {r['run_s']} s at {r['pace']} action/s per table",
        f"  actions         {r['actions']} in all, {r['actions_per_s']}/s (target {r['target_per_s']}/s); "
        f"rematches {r['rematches']}",
        f"  latency ms      p50 {lat['p50']}  p90 {lat['p90']}  p99 {lat['p99']}  max {lat['max']}  "
        f"({r['answered']} answered, {r['unanswered']} unanswered at the end)",
        f"  states          {r['states']} received, {r['states_per_s']}/s, {r['state_kb']} KB each on average",
        f"  errors          {named(r['errors'])}",
        f"  disconnects     {named(r['disconnects'])}",
        f"  server CPU      {r['server_cpu_run_s']} s in the run ({r['server_cpu_run_share']:.0%} of a core, "
        f"{r['server_cpu_ms_per_action']} ms an action), {r['server_cpu_setup_s']} s in the setup, "
        f"{r['server_cpu_total_s']} s in all; peak RSS {r['server_peak_rss_mb']} MB",
        f"  client CPU      {r['client_cpu_run_s']} s in the run ({r['client_cpu_run_share']:.0%} of a core, "
        f"{r['client_cpu_ms_per_action']} ms an action); event-loop lag p99 {lag['p99']} ms, max {lag['max']} ms",
        f"  machine         {r['machine_busy_cores']} of {r['machine_cores']} cores busy in the run; "
        f"other processes {r['other_processes_cores']} cores",
    ]
    if r["server_log_lines"]:
        lines.append(f"  server log      {r['server_log_lines']} lines; the first: {r['server_log_first']}")
    return "\n".join(lines)


def rules_arg(text: str) -> Any:
    """A preset name as it is, or JSON (``{"preset": "pagat", "bidder_goes_out": null}``)."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=500, help="rooms of four clients (default 500)")
    parser.add_argument("--pace", type=float, default=1.0, help="actions per second per table (default 1)")
    parser.add_argument("--seconds", type=float, default=60.0, help="length of the measured run (default 60)")
    parser.add_argument("--rules", type=rules_arg, default="pagat",
                        help='the rooms\' rules as JSON: a preset name or {"preset": ..., options} (default "pagat")')
    parser.add_argument("--target", type=int, default=None, help="the match target (default: the preset's)")
    parser.add_argument("--batch", type=int, default=20, help="tables set up at once (default 20)")
    parser.add_argument("--setup-timeout", type=float, default=None,
                        help="seconds the setup may take (default: 0.4 per table, at least 60)")
    parser.add_argument("--client-procs", type=int, default=2, help="client processes (default 2)")
    parser.add_argument("--spread", type=int, default=40, metavar="N",
                        help="before the run, each table plays 0 to N actions unpaced, so that the tables are at "
                             "different points of their deals, as on a real server (default 40; 0: all start together)")
    parser.add_argument("--compression", action="store_true",
                        help="permessage-deflate on the websockets (off by default, as in `cinch serve`)")
    parser.add_argument("--cluster", action="store_true",
                        help="several server processes over PostgreSQL and Redis (started here on loopback from "
                             "Debian's packages), each table's seats spread over them")
    parser.add_argument("--processes", type=int, default=2, help="server processes with --cluster (default 2)")
    parser.add_argument("--port", type=int, default=None,
                        help="the server's port on 127.0.0.1 (default: a free one); with --cluster the processes "
                             "take this port and the ones after it")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON line")
    parser.add_argument("--py-spy", metavar="FILE", default=None,
                        help="record the server with py-spy during the run (FILE .svg: a flame graph, "
                             ".json: speedscope, .txt: collapsed stacks)")
    args = parser.parse_args()
    if args.tables < 1 or args.pace <= 0 or args.seconds <= 0:
        parser.error("--tables, --pace and --seconds must be positive")
    if args.processes < 1:
        parser.error("--processes must be at least 1")
    if args.port is not None and not 1 <= args.port <= 65535 - args.processes:
        parser.error(f"--port must be from 1 to {65535 - args.processes}")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so that the server is stopped on SIGTERM too
    try:
        result = run(args)
    except KeyboardInterrupt:
        sys.exit("interrupted: the server and the clients were stopped")
    print(json.dumps(result) if args.json else report(result))


if __name__ == "__main__":
    main()
