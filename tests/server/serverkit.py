"""A real ``cinch serve`` in a thread of the test process, and websocket clients that play at it.

``served(db, seed=N, **room_defaults)`` starts uvicorn on a free loopback port, every room dealing from
``seed`` (the same deals every run; fresh secrets if None); :class:`Player`
is one websocket client with a timeout on every wait, so a test that goes wrong fails
instead of hanging.
"""

from __future__ import annotations

import base64
import contextlib
import hmac
import json
import random
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from cinch.server.app import Server, create_app
from cinch.server.protocol import check_server_message

WAIT = 20.0  # seconds any one wait may take before the test fails


@contextlib.contextmanager
def served(db: Any, share_library: bool = True, seed: int | None = None, **room_defaults: Any) -> Iterator[Served]:
    app = create_app(db, room_defaults=room_defaults, share_library=share_library, seed=seed)
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", ws_max_size=65536,
                            lifespan="on")
    server = uvicorn.Server(config)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + WAIT
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.01)
    port = sock.getsockname()[1]
    try:
        yield Served(f"http://127.0.0.1:{port}", app)
    finally:
        server.should_exit = True
        thread.join(WAIT)
        sock.close()


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


class Player:
    """One websocket client in one room: every message it got, checked against the protocol's models."""

    def __init__(self, url: str, code: str, **hello: Any):
        self.ws: ClientConnection = connect(url, open_timeout=WAIT, max_size=2**22, legacy=True)
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
