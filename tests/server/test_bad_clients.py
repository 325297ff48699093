"""Clients that misbehave, against the real server over a socket (uvicorn on 127.0.0.1, an ephemeral port):
a body nested 10,000 deep, numbers past the rules' ranges, a client that hangs up mid-body, and a client
that stops reading while the table plays on (cut off with 1008, "too slow", as docs/protocol.md says).
"""

from __future__ import annotations

import json
import logging
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
from serverkit import Served, served
from websockets.client import ClientProtocol
from websockets.frames import Close, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

from cinch.server.app import MAX_ROOM_BODY
from cinch.server.puzzles import MAX_GUESS
from cinch.server.replays import MAX_UPLOAD
from cinch.server.scoresheet import MAX_BODY as MAX_SHEET_BODY

WAIT = 30.0


@pytest.fixture
def srv(tmp_path) -> Iterator[Served]:
    with served(tmp_path / "games.sqlite3") as s:
        yield s


@pytest.fixture
def logged() -> Iterator[list[logging.LogRecord]]:
    """Every warning or error the server and uvicorn log meanwhile."""
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    handler = Keep(logging.WARNING)
    loggers = [logging.getLogger(name) for name in ("uvicorn.error", "cinch", "starlette")]
    for logger in loggers:
        logger.addHandler(handler)
    yield records
    for logger in loggers:
        logger.removeHandler(handler)


# ---- 4. bodies nested too deep --------------------------------------------------------------------------------
DEEP = 10_000
BODY_ROUTES = {  # every HTTP route that reads a body (each with cinch.server.pages.read_json), and its size limit
    "/api/rooms": MAX_ROOM_BODY,
    "/api/puzzles/{puzzle}/guess": MAX_GUESS,
    "/api/replay": MAX_UPLOAD,
    "/api/replay/analysis?deal=1": MAX_UPLOAD,
    "/api/scoresheets": MAX_SHEET_BODY,
    "/api/scoresheets/{sheet}/deals": MAX_SHEET_BODY,
    "/api/scoresheets/{sheet}/undo": MAX_SHEET_BODY,
}


def first_puzzle(srv: Served) -> str:
    return srv.http.get("/api/puzzles").json()["puzzles"][0]["id"]


def route_path(srv: Served, route: str) -> tuple[str, dict[str, str]]:
    """The route's path, with a real puzzle or a new score sheet where it names one, and the headers to send."""
    headers = {"content-type": "application/json"}
    if "{puzzle}" in route:
        return route.format(puzzle=first_puzzle(srv)), headers
    if "{sheet}" in route:
        made = srv.http.post("/api/scoresheets", json={"rules": "official", "first_dealer": "N"}).json()
        return route.format(sheet=made["id"]), {**headers, "authorization": f"Bearer {made['token']}"}
    return route, headers


@pytest.mark.parametrize("route", BODY_ROUTES)
@pytest.mark.parametrize("opening", ["[", '{"":'], ids=["array", "object"])
def test_a_body_nested_ten_thousand_deep_is_refused_as_bad_json(srv, logged, route, opening):
    closing = "]" if opening == "[" else "}"
    path, headers = route_path(srv, route)
    # Too deep for Python's parser (10,000 and 3,000), or parsed but refused before anything walks it (100, 17);
    # a body over the route's limit is refused unread, whatever it holds.
    for depth in (DEEP, 3_000, 100, 17):
        body = (opening * depth + "1" + closing * depth).encode()
        reply = srv.http.post(path, content=body, headers=headers)
        answer = reply.json()
        assert answer["type"] == "error" and len(answer["message"].splitlines()) == 1, answer
        if len(body) > BODY_ROUTES[route]:
            assert (reply.status_code, answer["code"]) == (413, "too-large"), (depth, answer)
        else:
            assert (reply.status_code, answer["code"]) == (400, "bad-json"), (depth, answer)
            assert "nests deeper than 16 levels" in answer["message"], answer
    assert not logged, [r.getMessage() for r in logged]


def test_a_room_body_nested_too_deep_says_so_and_what_to_send(srv):
    reply = srv.http.post("/api/rooms", content=b'{"rules": ' + b"[" * 40 + b"]" * 40 + b"}")
    assert reply.status_code == 400 and reply.json()["code"] == "bad-json"
    assert "nests deeper than 16" in reply.json()["message"] and '{"rules": "pagat"' in reply.json()["message"]
    huge = srv.http.post("/api/rooms", content=b'{"rules": "pagat", "x": "' + b"y" * 40_000 + b'"}')
    assert huge.status_code == 413 and huge.json()["code"] == "too-large"


def test_a_body_read_as_every_route_reads_one_takes_a_byte_order_mark_and_refuses_nan(srv):
    made = srv.http.post("/api/rooms", content=b'\xef\xbb\xbf{"rules": "pagat"}')  # (as an editor saves a file)
    assert made.status_code == 201, made.text
    for body, words in [(b'{"target": NaN}', "NaN is not a number JSON knows"), (b"\xff{}", "not UTF-8 text (byte 1)"),
                        (b'{"rules": ', "not valid JSON")]:
        for route in ("/api/rooms", "/api/replay", "/api/scoresheets"):
            reply = srv.http.post(route, content=body)
            assert (reply.status_code, reply.json()["code"]) == (400, "bad-json"), (route, reply.text)
            assert words.lower() in reply.json()["message"].lower(), (route, reply.text)


# ---- 5. numbers past the rules' ranges ------------------------------------------------------------------------
@pytest.mark.parametrize("body", [
    {"target": 10**30},
    {"options": {"target": 10**30}},
    {"options": {"negative_floor": -(10**30)}},
    {"rules": "additive", "options": {"negative_floor": -1001}},
    {"options": {"bidder_goes_out": -(10**30)}},
    {"rules": {"preset": "pagat", "target": 10**30}},
    {"target": 1001},
], ids=["target", "options.target", "negative_floor", "floor-1001", "bidder_goes_out", "rules.target", "1001"])
def test_a_number_past_the_rules_range_is_refused_before_a_room_exists(srv, logged, body):
    reply = srv.http.post("/api/rooms", json=body)
    assert reply.status_code == 400, reply.text
    answer = reply.json()
    assert answer["code"] in ("bad-rules", "bad-request") and "1000" in answer["message"], answer
    assert srv.http.get("/api/rooms").json()["rooms"] == []  # no room is listed, dead or alive
    assert not logged


def test_a_room_at_the_highest_target_plays(srv):
    made = srv.create(target=1000, options={"negative_floor": -1000}, bot_delay=0)
    host = srv.player(made["code"], host_token=made["host_token"])
    for seat in "NESW":
        host.send({"type": "fill", "seat": seat, "bot": "random"})
    host.send({"type": "start"})
    state = host.until(lambda m: m["type"] in ("state", "error") and (m["type"] == "error" or m["seq"] > 5))
    assert state["type"] == "state" and state["match"]["target"] == 1000
    spectator = srv.player(made["code"])  # a hello to the room gets the room, not "internal"
    assert spectator.until(lambda m: m["type"] in ("state", "error"))["type"] == "state"


# ---- 6. a client that hangs up mid-body -----------------------------------------------------------------------
@pytest.mark.parametrize("route", BODY_ROUTES)
def test_a_client_that_hangs_up_mid_body_is_dropped_quietly(srv, logged, route):
    path, _ = route_path(srv, route)
    host, port = srv.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port))) as sock:
        sock.sendall(f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
                     f"Content-Length: 5000\r\n\r\n".encode() + b'{"rules": "pag')
        time.sleep(0.2)  # (the app is reading the body)
    deadline = time.monotonic() + 1.0
    while time.monotonic() < deadline and not logged:
        time.sleep(0.05)
    assert not logged, [r.getMessage() for r in logged]
    assert srv.http.get("/api/rooms").status_code == 200  # and the server serves on


# ---- 7. a client that stops reading ---------------------------------------------------------------------------
class Stalled:
    """A websocket client on a raw socket with a small receive buffer, which reads only when told to."""

    def __init__(self, url: str, code: str):
        host, port = url.removeprefix("http://").split(":")
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # (before connecting: the window)
        self.sock.settimeout(WAIT)
        self.sock.connect((host, int(port)))
        self.ws = ClientProtocol(parse_uri(f"ws://{host}:{port}/ws"), max_size=2**24)
        self.ws.send_request(self.ws.connect())
        self.flush()
        self.messages: list[dict[str, Any]] = []
        while not any(isinstance(event, Response) for event in self.take()):
            pass
        self.ws.send_text(json.dumps({"type": "hello", "room": code}).encode())
        self.flush()

    def flush(self) -> None:
        self.sock.sendall(b"".join(self.ws.data_to_send()))

    def take(self) -> list[Any]:
        data = self.sock.recv(65536)
        self.ws.receive_data(data)
        events = self.ws.events_received()
        self.flush()  # (the answer to a ping, or to a close)
        for event in events:
            if getattr(event, "opcode", None) == Opcode.TEXT:
                self.messages.append(json.loads(event.data))
        return events

    def read_to_close(self) -> Close | None:
        """Read on until the server's close frame (or the end of the connection)."""
        while self.ws.close_rcvd is None and not self.ws.eof_sent:
            try:
                self.take()
            except (ConnectionError, TimeoutError):
                break
        return self.ws.close_rcvd

    def close(self) -> None:
        self.sock.close()


def spectators(srv: Served, code: str) -> int:
    return srv.http.get(f"/api/rooms/{code}").json()["spectators"]


def test_a_spectator_that_stops_reading_is_cut_off_with_1008_too_slow(srv):
    made = srv.create(bot_delay=0, between_deals=0, target=1000)  # (four quick bots: hundreds of states a second)
    code = made["code"]
    host = srv.player(code, host_token=made["host_token"])
    for seat in "NESW":
        host.send({"type": "fill", "seat": seat, "bot": "random"})
    host.until(lambda m: m["type"] == "state" and sum(s["kind"] == "bot" for s in m["room"]["seats"]) == 4)
    watching = spectators(srv, code)  # (the host's connection, in no seat, counts as one)
    slow = Stalled(srv.url, code)
    try:
        while spectators(srv, code) == watching:
            time.sleep(0.05)
        host.send({"type": "start"})  # ... and the spectator reads nothing from here on
        deadline = time.monotonic() + WAIT
        while spectators(srv, code) > watching:  # the server lets it go once it is 256 messages behind
            host.drain(0.05)
            assert time.monotonic() < deadline, "a client that stopped reading was never cut off"
        close = slow.read_to_close()
        assert close is not None, "no close frame came"
        assert close.code == 1008 and close.reason.startswith("too slow"), close
        seqs = [m["seq"] for m in slow.messages if m["type"] == "state"]
        assert seqs == sorted(seqs) and len(seqs) > 256
    finally:
        slow.close()
    # Reconnected, it gets a fresh state of the room as it stands now.
    again = srv.player(code)
    fresh = again.until(lambda m: m["type"] == "state")
    assert fresh["seq"] > seqs[-1] and fresh["log"] is not None
    for client in (again, host):
        client.ws.close_timeout = 1.0  # (the host has not read the flood of states: no need to wait for it)
        client.close()
