"""A real ``cinch serve`` in a thread of the test process, or in a process of its own, and websocket clients that
play at it.

``served(db, seed=N, **room_defaults)`` starts uvicorn on a free loopback port, every room dealing from
``seed`` (the same deals every run; fresh secrets if None); ``serve_app(app)`` serves any app so.
:class:`Serve` is ``python -m cinch serve`` in a process of its own (a cluster's, over PostgreSQL and Redis:
:func:`cluster_options`), to be killed with SIGKILL.  :class:`Player` is one websocket client with a timeout on
every wait, so a test that goes wrong fails instead of hanging.
"""

from __future__ import annotations

import base64
import contextlib
import hmac
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from cinch.server.app import Server, create_app
from cinch.server.protocol import check_server_message

WAIT = 20.0  # seconds any one wait may take before the test fails


@contextlib.contextmanager
def serve_app(app: Any, **config: Any) -> Iterator[str]:
    """``app`` under uvicorn on a free loopback port, in a thread (``config``: more of uvicorn's settings): its URL."""
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="on",
                                           **config))
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + WAIT
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(WAIT)
        sock.close()


@contextlib.contextmanager
def served(db: Any, share_library: bool = True, seed: int | None = None, **room_defaults: Any) -> Iterator[Served]:
    app = create_app(db, room_defaults=room_defaults, share_library=share_library, seed=seed)
    with serve_app(app, ws_max_size=65536) as url:
        yield Served(url, app)


LEASE = 2.0  # seconds before a dead process's rooms are claimed, in a cluster's tests (the default is 5)


def cluster_options(database_url: str, redis_url: str, lease: float = LEASE) -> list[str]:
    """The options of ``cinch serve`` for a process of a cluster over ``database_url`` and ``redis_url``."""
    return ["--database-url", database_url, "--redis-url", redis_url, "--cluster-lease", str(lease)]


def pg_rows(database_url: str, query: str, *args: Any) -> list[tuple[Any, ...]]:
    """The rows a query finds in a cluster's PostgreSQL database."""
    import psycopg

    with psycopg.connect(database_url) as conn:
        return conn.execute(query, args).fetchall()


class Serve:
    """``python -m cinch serve OPTIONS`` in a process of its own, on a free loopback port, its output in ``log``;
    :meth:`wait` until it answers, :meth:`kill` it with SIGKILL, :meth:`stop` it as Ctrl-C does."""

    def __init__(self, log: Path, *options: str, wait: float = 15.0):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        self.ws = f"ws://127.0.0.1:{port}/ws"
        self.log = log
        self.timeout = wait
        with open(log, "ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "cinch", "serve", "--host", "127.0.0.1", "--port", str(port), *options,
                 "--log-level", "warning"],
                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.http = httpx.Client(base_url=self.url, timeout=wait)

    def wait(self, path: str = "/api/rooms") -> Serve:
        """Wait until the process answers ``path``."""
        deadline = time.monotonic() + 30.0
        while True:
            assert self.process.poll() is None, f"cinch serve exited: {self.output()}"
            assert time.monotonic() < deadline, f"cinch serve did not answer: {self.output()}"
            with contextlib.suppress(httpx.TransportError):
                if self.http.get(path, timeout=1.0).status_code == 200:
                    return self
            time.sleep(0.05)

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-3000:]

    def create(self, body: dict[str, Any]) -> dict[str, Any]:
        """A room made here (POST /api/rooms)."""
        reply = self.http.post("/api/rooms", json=body)
        assert reply.status_code == 201, reply.text
        return reply.json()

    def kill(self) -> None:
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(self.timeout)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.http.close()


class Secrets(random.Random):
    """``secrets`` from a seed, for ``monkeypatch``: the same test deals the same cards every run."""

    compare_digest = staticmethod(hmac.compare_digest)

    def randbelow(self, n: int) -> int:
        return self.randrange(n)

    def token_hex(self, n: int) -> str:
        return self.randbytes(n).hex()

    def token_urlsafe(self, n: int) -> str:
        return base64.urlsafe_b64encode(self.randbytes(n)).rstrip(b"=").decode()


class Instant:
    """In place of the server's pool of processes (slow bots and hints): an instant answer, the first legal one."""

    async def think(self, bot: str, seed: int, view: Any) -> tuple[Any, Exception | None]:
        return view.legal[0], None

    async def hint(self, bot: str, view: Any) -> tuple[str, str, str]:
        return str(view.legal[0]), "", ""

    def close(self) -> None:
        pass


def cluster_server(database_url: str, name: str, lease: float, seed: int | None = None) -> Server:
    """One process of a cluster over PostgreSQL, without Redis, in the test process (no sockets); its rooms deal
    from ``seed`` (fresh secrets if None)."""
    from cinch.server.cluster import ClusterStore
    from cinch.server.postgres import PgLibrary

    store = ClusterStore(PgLibrary.open(database_url), None, name=name, lease=lease)
    server = Server(None, thinker=Instant(), store=store, seed=seed)  # type: ignore[arg-type]
    store.server = server
    return server


class Served:
    def __init__(self, url: str, app: Any):
        self.url = url
        self.app = app
        self.http = httpx.Client(base_url=url, timeout=WAIT)

    @property
    def server(self) -> Any:
        return self.app.state.server

    def create(self, **body: Any) -> dict[str, Any]:
        reply = self.http.post("/api/rooms", json={"rules": "pagat", **body})
        assert reply.status_code == 201, reply.text
        return reply.json()

    def player(self, code: str, **hello: Any) -> Player:
        return Player(self.url.replace("http", "ws") + "/ws", code, **hello)

    def started_with_bots(self, bot: str, **room: Any) -> tuple[dict[str, Any], Player, Player]:
        """A room made with ``room``'s settings, Ann sitting South and ``bot`` in the other three seats, started:
        (the room, its host, Ann)."""
        made = self.create(**room)
        host = self.player(made["code"], host_token=made["host_token"])
        me = self.player(made["code"])
        me.join("S", "Ann")
        for seat in "NEW":
            host.send({"type": "fill", "seat": seat, "bot": bot})
        host.send({"type": "start"})
        return made, host, me


class Player:
    """One websocket client in one room: every message it got, checked against the protocol's models."""

    def __init__(self, url: str, code: str, *, headers: dict[str, str] | None = None, **hello: Any):
        self.ws: ClientConnection = connect(url, open_timeout=WAIT, max_size=2**22, legacy=True,
                                            additional_headers=headers)
        self.code = code
        self.messages: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.log: list[str] = []
        self.token: str | None = hello.get("token")
        self.seat: str | None = None
        self.send({"type": "hello", "room": code, **hello})
        welcome = self.until(lambda m: m["type"] in ("welcome", "error"))
        assert welcome["type"] == "welcome", welcome
        self.seat = welcome["seat"]
        self.host = welcome["host"]

    def send(self, message: dict[str, Any] | str) -> None:
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def recv(self, timeout: float = WAIT) -> dict[str, Any]:
        message = json.loads(self.ws.recv(timeout=timeout))
        check_server_message(message)
        self.messages.append(message)
        if message["type"] == "state":
            self.state = message
            # the first state brings the recent log; each later one adds its narration
            self.log = list(message["log"]) if message.get("log") is not None else self.log + message["narration"]
        return message

    def until(self, done: Callable[[dict[str, Any]], bool], timeout: float = WAIT) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"waited {timeout} s; the last message: {self.messages[-1] if self.messages else None}"
            message = self.recv(left)
            if done(message):
                return message

    def drain(self, wait: float = 0.0) -> list[dict[str, Any]]:
        """Every message that arrives within ``wait`` seconds (none waited for if 0)."""
        got = []
        with contextlib.suppress(TimeoutError):
            while True:
                got.append(self.recv(wait))
        return got

    def join(self, seat: str, name: str, entropy: str = "", take: bool = False) -> str:
        self.send({"type": "take-seat" if take else "join", "seat": seat, "name": name, "entropy": entropy})
        seated = self.until(lambda m: m["type"] in ("seated", "error"))
        assert seated["type"] == "seated", seated
        self.token, self.seat = seated["token"], seated["seat"]
        return seated["token"]

    def error(self, message: dict[str, Any] | str) -> dict[str, Any]:
        """Send a message that must be refused: the error that comes back."""
        self.send(message)
        return self.until(lambda m: m["type"] == "error")

    def my_turn(self) -> bool:
        s = self.state
        return bool(s and s["deal"] and s["deal"]["to_act"] == self.seat and s["room"]["status"] == "playing"
                    and (s["deal"].get("legal") or s["deal"].get("keep")))

    def choice(self) -> str:
        deal = self.state["deal"]  # type: ignore[index]
        return deal["keep"]["suggestion"] if deal.get("keep") else deal["legal"][0]

    def act(self, action: str | None = None) -> None:
        assert self.state is not None
        self.send({"type": "act", "seq": self.state["seq"], "action": action or self.choice()})

    def close(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            self.ws.close()


def play_until(players: list[Player], done: Callable[[], bool], timeout: float = 120.0,
               choose: Callable[[Player], str | None] = lambda p: None) -> None:
    """Every player acts whenever the state it last got says so, until ``done()``."""
    deadline = time.monotonic() + timeout
    acted: dict[str, int] = {}
    while not done():
        assert time.monotonic() < deadline, "the match did not end in time"
        for p in players:
            p.drain(0.002)
            if p.my_turn() and acted.get(p.seat or "") != p.state["seq"]:  # type: ignore[index]
                acted[p.seat or ""] = p.state["seq"]  # type: ignore[index]
                p.act(choose(p))


@contextlib.contextmanager
def processes(log: Path, *options: str, count: int = 2, ready: str = "/api/rooms",
              wait: float = 15.0) -> Iterator[tuple[list[Serve], list[Player]]]:
    """``count`` processes of ``cinch serve OPTIONS`` (a cluster's: :func:`cluster_options`), each answering
    ``ready``, and the list of clients a test opens (it appends them); at the end every client is closed and every
    process stopped (one killed already too)."""
    servers = [Serve(log, *options, wait=wait) for _ in range(count)]
    clients: list[Player] = []
    try:
        for server in servers:
            server.wait(ready)
        yield servers, clients
    finally:
        for p in clients:
            p.ws.close_timeout = 1.0
            with contextlib.suppress(Exception):
                p.close()
        for server in servers:
            server.stop()


def play_boards(p: Player, kind: str, travellers: dict[int, Any], done: Callable[[], bool],
                timeout: float = 90.0) -> None:
    """A person at a table of duplicate boards (``kind``: ``daily`` or ``event``, the type of the message that brings
    a board's traveller and its room's key) plays their turns and presses Next once the board's traveller has come,
    until ``done()``; each traveller's message is kept in ``travellers`` by board."""
    acted: Any = None
    deadline = time.monotonic() + timeout
    while True:
        for m in p.drain(0.01):
            if m["type"] == kind:
                travellers[m["board"]] = m
        if done():  # (looked at before acting on the state just come: a test may stop at that very state)
            return
        assert time.monotonic() < deadline, f"the boards did not go on: {p.state}"
        s = p.state
        if s is None:
            continue
        if s["room"]["status"] == "between-deals" and s["room"][kind]["board"] in travellers \
                and acted != ("ready", s["seq"]):
            acted = ("ready", s["seq"])
            p.send({"type": "ready"})
        elif p.my_turn() and acted != s["seq"]:
            acted = s["seq"]
            p.act()
