"""Hostile input to ``cinch serve``: what :func:`protocol.parse_client` refuses, and ``Server.handle`` fuzzed.

The unit tests pin every refusal code and check that the words say what was wrong and
what is allowed.  The Hypothesis test throws arbitrary text, bytes, JSON of any shape,
messages of every type with random fields, and ``act`` messages with random seq numbers
and card-like actions at a started room (four seated connections, a spectator and the
host, driven without sockets as in test_leaks.py), from random connections, and checks
after every message: ``handle`` did not raise; everything sent is a valid server message
that a websocket can carry; a refusal is answered by exactly one ``error`` (never
``internal``) and nobody else hears of it; and nothing but a legal action of the seat to
act (or a message that may change the seats) changed the game: the same seq and the
same stored record, byte for byte.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sqlite3
import types
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from serverkit import Instant, Secrets, cluster_server

import cinch.server.app as app_module
import cinch.server.rooms as rooms_module
import cinch.shuffle as shuffle_module
from cinch.actions import parse_action
from cinch.cards import Seat
from cinch.library import Library
from cinch.rules import PRESET_NAMES
from cinch.server import protocol
from cinch.server.app import Connection, Server
from cinch.server.protocol import (
    CLIENT_TYPES,
    MAX_CHAT,
    MAX_MESSAGE_BYTES,
    Refusal,
    check_server_message,
    parse_client,
)
from cinch.server.rooms import PLAYING, Room
from cinch.table.advice import available_bots

TYPES_LISTED = ", ".join(CLIENT_TYPES)
BARE_TYPES = sorted(k for k, model in protocol.CLIENT_MODELS.items() if set(model.model_fields) == {"type"})
"""The messages that are their type alone (leave, start, ready, ...)."""


def refused(text: str | bytes) -> Refusal:
    with pytest.raises(Refusal) as info:
        parse_client(text)
    refusal = info.value
    check_server_message(refusal.to_json())
    assert refusal.message.strip()
    return refusal


# ---- parse_client: every refusal ----------------------------------------------------------------------
def test_each_message_type_parses_and_strips_whitespace():
    token = "t" * 20
    examples = {
        "hello": {"type": "hello", "room": " abc234 ", "token": token, "host_token": token},
        "join": {"type": "join", "seat": "N", "name": " Ann ", "entropy": "00ff"},
        "take-seat": {"type": "take-seat", "seat": "W", "name": "Bo"},
        "leave": {"type": "leave"},
        "fill": {"type": "fill", "seat": "E", "bot": "basic"},
        "start": {"type": "start"},
        "act": {"type": "act", "seq": 7, "action": "  play KC "},
        "ready": {"type": "ready"},
        "rematch": {"type": "rematch"},
        "hint": {"type": "hint"},
        "chat": {"type": "chat", "text": " hi "},
    }
    assert set(examples) == set(CLIENT_TYPES) == set(protocol.CLIENT_MODELS)
    for kind, data in examples.items():
        for text in (json.dumps(data), json.dumps(data).encode()):
            msg = parse_client(text)
            assert isinstance(msg, protocol.CLIENT_MODELS[kind]) and msg.type == kind
    assert parse_client(json.dumps(examples["act"])).action == "play KC"  # type: ignore[union-attr]
    assert parse_client(json.dumps(examples["join"])).name == "Ann"  # type: ignore[union-attr]
    assert parse_client(json.dumps(examples["join"])).entropy == "00ff"  # type: ignore[union-attr]


@pytest.mark.parametrize("text", [
    "x" * (MAX_MESSAGE_BYTES + 1),
    b"{" * (MAX_MESSAGE_BYTES + 1),
    json.dumps({"type": "chat", "text": "a" * 5000}),
    " " * 100_000,
])
def test_a_message_over_the_limit_is_refused_unread(text):
    e = refused(text)
    assert e.code == "too-large"
    assert str(MAX_MESSAGE_BYTES) in e.message and str(len(text)) in e.message


def test_a_message_at_the_limit_is_read():
    head = json.dumps({"type": "leave"})
    assert isinstance(parse_client(head + " " * (MAX_MESSAGE_BYTES - len(head))), protocol.Leave)
    assert refused(head + " " * (MAX_MESSAGE_BYTES + 1 - len(head))).code == "too-large"


@pytest.mark.parametrize(("text", "words"), [
    ("", "Expecting value"),
    ("{not json", "Expecting property name"),
    ('{"type": "act",}', "Expecting property name"),
    ('{"type": "leave"} {"type": "leave"}', "Extra data"),
    (b"\xff\xfe\x00", "codec can't decode"),
    (b'{"type": "chat", "text": "\xff"}', "codec can't decode"),
])
def test_text_that_is_not_json_is_refused(text, words):
    e = refused(text)
    assert e.code == "bad-json"
    assert "must be one JSON object" in e.message and words in e.message


@pytest.mark.parametrize(("text", "kind"), [
    ("[1, 2]", "list"), ('"hello"', "str"), ("3", "int"), ("2.5", "float"), ("true", "bool"), ("null", "NoneType"),
])
def test_json_that_is_not_an_object_is_refused(text, kind):
    e = refused(text)
    assert e.code == "bad-json"
    assert e.message == f"a message must be a JSON object, not {kind}"


@pytest.mark.parametrize(("data", "shown"), [
    ({"type": "dance"}, "'dance'"),
    ({"type": "ACT", "seq": 1, "action": "pass"}, "'ACT'"),
    ({"type": "act "}, "'act '"),
    ({}, "missing or not a short string"),
    ({"seq": 1, "action": "pass"}, "missing or not a short string"),
    ({"type": None}, "missing or not a short string"),
    ({"type": 7}, "missing or not a short string"),
    ({"type": ["act"]}, "missing or not a short string"),
    ({"type": {"act": 1}}, "missing or not a short string"),
    ({"type": "x" * 41}, "missing or not a short string"),
])
def test_an_unknown_type_is_refused_and_the_types_are_listed(data, shown):
    e = refused(json.dumps(data))
    assert e.code == "bad-message"
    assert e.message == f"unknown message type {shown}; the types are {TYPES_LISTED}"
    assert "x" * 41 not in e.message  # a long type is not echoed back


SEAT_CHOICES = "seat: Input should be 'N', 'E', 'S', 'W', '1', '2', '3', '4', '5' or '6'"  # (every table size's)


@pytest.mark.parametrize(("data", "problems"), [
    # missing fields
    ({"type": "act"}, ["seq: Field required", "action: Field required"]),
    ({"type": "act", "seq": 3}, ["action: Field required"]),
    ({"type": "hello"}, ["room: Field required"]),
    ({"type": "join", "name": "Ann"}, ["seat: Field required"]),
    ({"type": "fill", "seat": "N"}, ["bot: Field required"]),
    ({"type": "chat"}, ["text: Field required"]),
    # wrong types and values
    ({"type": "act", "seq": "x", "action": "pass"}, ["seq: Input should be a valid integer"]),
    ({"type": "act", "seq": 2.5, "action": "pass"}, ["seq: Input should be a valid integer"]),
    ({"type": "act", "seq": [1], "action": "pass"}, ["seq: Input should be a valid integer"]),
    ({"type": "act", "seq": None, "action": "pass"}, ["seq: Input should be a valid integer"]),
    ({"type": "act", "seq": 1, "action": 5}, ["action: Input should be a valid string"]),
    ({"type": "act", "seq": 1, "action": ""}, ["action: String should have at least 1 character"]),
    ({"type": "act", "seq": 1, "action": "x" * 201}, ["action: String should have at most 200 characters"]),
    ({"type": "join", "seat": "X", "name": "Ann"}, [SEAT_CHOICES]),
    ({"type": "join", "seat": "n", "name": "Ann"}, [SEAT_CHOICES]),
    ({"type": "join", "seat": "7", "name": "Ann"}, [SEAT_CHOICES]),
    ({"type": "join", "seat": "N", "name": ""}, ["name: String should have at least 1 character"]),
    ({"type": "join", "seat": "N", "name": "   "}, ["name: String should have at least 1 character"]),
    ({"type": "join", "seat": "N", "name": "a" * 41}, ["name: String should have at most 40 characters"]),
    ({"type": "join", "seat": "N", "name": "Ann", "entropy": "XYZ"},
     ["entropy: String should match pattern '^[0-9a-f]{0,64}$'"]),
    ({"type": "hello", "room": ""}, ["room: String should have at least 1 character"]),
    ({"type": "hello", "room": "R" * 17}, ["room: String should have at most 16 characters"]),
    ({"type": "hello", "room": "ABC", "token": "short"}, ["token: String should have at least 16 characters"]),
    ({"type": "hello", "room": "ABC", "host_token": "a b" * 8},
     ["host_token: String should match pattern '^[A-Za-z0-9_-]+$'"]),
    ({"type": "chat", "text": "a" * (MAX_CHAT + 1)}, [f"text: String should have at most {MAX_CHAT} characters"]),
    ({"type": "chat", "text": {"a": 1}}, ["text: Input should be a valid string"]),
    # extra fields
    ({"type": "start", "please": True}, ["please: Extra inputs are not permitted"]),
    ({"type": "act", "seq": 1, "action": "pass", "seat": "N"}, ["seat: Extra inputs are not permitted"]),
    ({"type": "leave", "": 1}, [": Extra inputs are not permitted"]),
])
def test_a_malformed_message_says_what_was_wrong_and_what_is_allowed(data, problems):
    e = refused(json.dumps(data))
    assert e.code == "bad-message"
    assert e.message.startswith(f"a {data['type']!r} message: ")
    for problem in problems:
        assert problem in e.message


def test_at_most_five_problems_are_listed():
    e = refused(json.dumps({"type": "start", **{f"extra{i}": i for i in range(9)}}))
    assert e.code == "bad-message"
    assert e.message.count("Extra inputs are not permitted") == 5 and "extra5" not in e.message


def test_deeply_nested_json_is_refused_as_bad_json():
    assert refused("[" * 2000).code == "bad-json"


def test_deeply_nested_json_through_handle_is_a_plain_refusal(lab):
    conn = Connection()
    conn.sent = []
    lab.server.handle(conn, '{"a":' * 800)  # deep enough to exhaust json's recursion, within 4 KB
    assert [m["code"] for m in conn.sent] == ["bad-json"]


def test_the_size_limit_counts_bytes_not_characters():
    text = json.dumps({"type": "chat", "text": "é" * 250}, ensure_ascii=False) + " " * 3800
    assert len(text) <= MAX_MESSAGE_BYTES < len(text.encode())
    e = refused(text)
    assert e.code == "too-large" and f"this one has {len(text.encode())}" in e.message


@pytest.mark.parametrize("seq", [True, "5", 5.0])
def test_a_seq_of_the_wrong_json_type_is_refused(seq):
    taken = None
    with contextlib.suppress(Refusal):
        taken = parse_client(json.dumps({"type": "act", "seq": seq, "action": "pass"}))
    assert taken is None, f"taken as {taken!r}"


# ---- a started room, driven without sockets ----------------------------------------------------------
@dataclass
class Table:
    """One started room: its connections (seats N E S W, a spectator, the host) and their tokens."""

    room: Room
    people: list[Connection]
    spectator: Connection
    host: Connection
    tokens: list[str]
    host_token: str

    @property
    def everyone(self) -> list[Connection]:
        return [*self.people, self.spectator, self.host]


class Lab:
    """A server over a fresh library, and one event loop that every example's handling runs in.

    With ``database_url`` the library is PostgreSQL, as a cluster's process has it (the same rooms,
    every message one locked transaction): the same checks hold, message for message."""

    def __init__(self, path: Any, database_url: str | None = None):
        self.secrets = Secrets(0)
        self.loop = asyncio.new_event_loop()
        self.peek: sqlite3.Connection | None = None
        if database_url is None:
            self.library: Any = Library.open(path)
            self.server = Server(self.library, thinker=Instant())  # type: ignore[arg-type]
            self.peek = sqlite3.connect(path)
        else:
            self.server = cluster_server(database_url, "lab", lease=3600)
            self.library = self.server.library

    def stored(self, code: str) -> tuple[Any, ...] | None:
        """The room's row as the library holds it (read straight from the file or the database)."""
        if self.peek is not None:
            return self.peek.execute("SELECT status, match_id, data FROM rooms WHERE code = ?", (code,)).fetchone()
        return self.library._execute("SELECT status, match_id, data FROM rooms WHERE code = %s", (code,)).fetchone()

    def run(self, fn: Any, *args: Any) -> Any:
        """``fn(*args)`` inside the loop (rooms ask for the running loop), with no other task in between."""

        async def call() -> Any:
            return fn(*args)

        return self.loop.run_until_complete(call())

    def send(self, conn: Connection, message: dict[str, Any]) -> list[dict[str, Any]]:
        assert conn.sent is not None
        conn.sent.clear()
        self.server.handle(conn, json.dumps(message))
        return list(conn.sent)

    def table(self, preset: str, steps: int, rng: random.Random, options: dict[str, Any] | None = None) -> Table:
        """(In the loop.)  A started room, ``steps`` random legal actions into its first deal (or at its end)."""
        made = self.server.create({"rules": preset, "grace": 3600, "between_deals": 600, "bot_delay": 0,
                                   **({"options": options} if options else {})})
        code, host_token = made["code"], made["host_token"]
        room = self.server.rooms[code]
        people, tokens = [], []
        for seat in Seat:
            conn = Connection()
            conn.sent = []
            self.send(conn, {"type": "hello", "room": code})
            seated = self.send(conn, {"type": "join", "seat": seat.name, "name": f"P{seat.name}",
                                      "entropy": f"{rng.getrandbits(64):016x}"})
            tokens.append(next(m["token"] for m in seated if m["type"] == "seated"))
            people.append(conn)
        spectator, host = Connection(), Connection()
        spectator.sent, host.sent = [], []
        self.send(spectator, {"type": "hello", "room": code})
        self.send(host, {"type": "hello", "room": code, "host_token": host_token})
        assert self.send(host, {"type": "start"})[-1]["type"] == "state" and room.status == PLAYING
        # Into the deal at the table itself (a broadcast after each action would cost most of the test's time).
        table = room.table
        assert table is not None
        with room._change():  # (one change of the room: as stored, as a process would have made it)
            for _ in range(steps):
                deal = table.match.current
                if deal is None or deal.to_act is None:
                    break
                view = table.view(deal.to_act)
                assert view is not None
                table.act(deal.to_act, rng.choice(view.legal))
                table.advance()
            room._changed()
        for conn in [*people, spectator, host]:
            conn.sent.clear()  # type: ignore[union-attr]
        return Table(room, people, spectator, host, tokens, host_token)

    def drop(self, table: Table) -> None:
        table.room.close()
        self.server.rooms.pop(table.room.code, None)
        self.loop.run_until_complete(asyncio.sleep(0))  # cancelled timers and tasks finish
        if self.peek is None:  # (Hypothesis replays an example with the same codes: the database forgets it)
            for query in ("DELETE FROM actions WHERE room = %s", "DELETE FROM rooms WHERE code = %s"):
                self.library._execute(query, (table.room.code,))

    def close(self) -> None:
        self.server.close()
        self.loop.run_until_complete(asyncio.sleep(0))
        self.loop.close()
        if self.peek is not None:
            self.peek.close()
        self.library.close()


@pytest.fixture(params=["sqlite", "postgres"])
def lab(request, tmp_path, monkeypatch) -> Iterator[Lab]:
    """The lab over the SQLite library of one process, and over PostgreSQL as a cluster's process uses it."""
    url = request.getfixturevalue("database_url") if request.param == "postgres" else None
    lab = Lab(tmp_path / "games.sqlite3", url)
    monkeypatch.setattr(rooms_module, "secrets", lab.secrets)  # room codes, tokens, first dealers
    monkeypatch.setattr(shuffle_module, "secrets", lab.secrets)  # the shuffles' salts
    try:
        yield lab
    finally:
        lab.close()


# ---- what may be sent ----------------------------------------------------------------------------------
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=10,
)
RANKS = [*"AKQJT98765432", "10", "1", "0", "Z", "k", "t", ""]
SUITS = [*"SHDC", *"shdc", *"♠♥♦♣", "X", "", "NT", "♡"]
CARD = st.builds(str.__add__, st.sampled_from(RANKS), st.sampled_from(SUITS))
CARDS = st.lists(CARD, max_size=8).map(" ".join)
ACTION_TEXTS = st.one_of(
    st.sampled_from(["pass", "PASS", " pass ", "pass pass", "bid", "bid 99", "bid 0", "bid -1", "bid 7", "bid ٧",
                     "bid +7", "bid 1_0", "bid 7.0", "bid " + "9" * 12, "trump X", "trump", "trump hearts",
                     "trump ♠", "trump NT", "keep", "keep AS KS", "keep AS AS", "play", "play KC", "play 10h",
                     "play KC bury KC", "play KC bury", "play KC KC", "undo", "bury AS"]),
    st.builds("play {}".format, CARD),
    st.builds("play {} bury {}".format, CARD, CARDS),
    st.builds("keep {}".format, CARDS),
    st.builds("bid {}".format, st.integers()),
    st.builds("trump {}".format, st.sampled_from([*SUITS, "spades", "Clubs", "diamond"])),
    st.text(max_size=30),
)


def weighted(*choices: tuple[int, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
    """One of the strategies, each as often as its weight (``one_of`` would draw each alike)."""
    return st.sampled_from([s for weight, s in choices for _ in range(weight)]).flatmap(lambda s: s)


class Ref(NamedTuple):
    """A value of the room when the message is sent (its seq, a legal action, a token), put in by :func:`resolve`:
    the strategies are built once, not for every room."""

    what: str
    n: int = 0


@dataclass
class Scene:
    """What a message may aim at: the room's code, tokens, seq and the legal actions now."""

    code: str
    tokens: list[str]
    host_token: str
    seq: int
    legal: list[str]

    def value(self, ref: Ref) -> Any:
        if ref.what == "seq":
            return self.seq + ref.n
        if ref.what == "legal":
            return self.legal[ref.n % len(self.legal)] if self.legal else "pass"
        if ref.what == "code":
            return [self.code, self.code.lower(), f" {self.code} "][ref.n]
        if ref.what == "token":
            return self.tokens[ref.n]
        assert ref.what == "host_token"
        return self.host_token


def resolve(value: Any, scene: Scene) -> Any:
    if isinstance(value, Ref):
        return scene.value(value)
    if isinstance(value, dict):
        return {k: resolve(v, scene) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve(v, scene) for v in value]
    return value


def legal_texts(table: Table) -> list[str]:
    room = table.room
    deal = room.table.match.current if room.table is not None else None
    if deal is None or deal.to_act is None:
        return []
    view = room.table.view(deal.to_act)  # type: ignore[union-attr]
    assert view is not None
    legal = view.legal
    return [str(a) for a in legal[:12]] + ([str(legal[-1])] if len(legal) > 12 else [])


SEQS = weighted((5, st.just(Ref("seq"))), (2, st.builds(Ref, st.just("seq"), st.integers(-2, 2))), (1, st.integers()),
                (1, JSON))
ACTIONS = weighted((4, ACTION_TEXTS), (1, JSON), (4, st.builds(Ref, st.just("legal"), st.integers(0, 12))))
FIELDS = {
    "room": st.sampled_from([Ref("code", 0), Ref("code", 1), Ref("code", 2), "ZZZZZZ", "", "R" * 17]) | JSON,
    "token": st.sampled_from([*(Ref("token", i) for i in range(4)), "A" * 32, "short", Ref("host_token")]) | JSON,
    "host_token": st.sampled_from([Ref("host_token"), "B" * 32, Ref("token", 0)]) | JSON,
    "seat": st.sampled_from(["N", "E", "S", "W", "n", "X", ""]) | JSON,
    "name": st.text(max_size=45) | JSON,
    "entropy": st.sampled_from(["", "ab" * 8, "AB", "z", "f" * 65]) | JSON,
    "bot": st.sampled_from([*available_bots(), "nobody", ""]) | JSON,
    "seq": SEQS,
    "action": ACTIONS,
    "text": st.text(max_size=MAX_CHAT + 20) | JSON,
    "extra": JSON,
}
DOCUMENTS = weighted(
    (8, st.fixed_dictionaries({"type": st.just("act"), "seq": SEQS, "action": ACTIONS})),
    # A valid type with any fields present or not, of the right kind or not.
    (3, st.fixed_dictionaries({"type": st.sampled_from(CLIENT_TYPES)}, optional=FIELDS)),
    # The right fields only (the likeliest to pass the models, so that the room's own checks are reached).
    (1, st.fixed_dictionaries({"type": st.just("hello"), "room": FIELDS["room"]},
                              optional={"token": FIELDS["token"], "host_token": FIELDS["host_token"]})),
    (1, st.fixed_dictionaries({"type": st.sampled_from(["join", "take-seat"]), "seat": FIELDS["seat"],
                               "name": FIELDS["name"]}, optional={"entropy": FIELDS["entropy"]})),
    (1, st.fixed_dictionaries({"type": st.just("fill"), "seat": FIELDS["seat"], "bot": FIELDS["bot"]})),
    (1, st.fixed_dictionaries({"type": st.sampled_from(BARE_TYPES)})),
    (1, st.fixed_dictionaries({"type": st.just("chat"), "text": FIELDS["text"]})),
    (2, JSON),
    (2, st.dictionaries(st.text(max_size=8), JSON)),
)
PAYLOADS = weighted(
    (6, st.tuples(DOCUMENTS, st.booleans(), st.booleans())),  # a document, ASCII-only or not, as bytes or text
    (1, st.text(max_size=200) | st.binary(max_size=200)
     | st.sampled_from(["x" * (MAX_MESSAGE_BYTES + 1), "{" * 300, '{"type": "act"' + " " * 5000])),
)


def payload(drawn: Any, scene: Scene) -> str | bytes:
    """What to send: raw text or bytes as drawn, or a drawn document with the room's values put in, encoded."""
    if not isinstance(drawn, tuple):
        return drawn
    doc, ascii_only, as_bytes = drawn
    text = json.dumps(resolve(doc, scene), ensure_ascii=ascii_only)
    return text.encode("utf-8", "surrogatepass") if as_bytes else text


# ---- the checks --------------------------------------------------------------------------------------
MAY_CHANGE_SEATS = {"leave", "ready", "take-seat", "fill", "join", "start", "rematch"}
"""Messages that, accepted, may change the match (its players, or deal the next deal)."""


def legal_now(room: Room, conn: Connection, msg: Any) -> Any:
    """The action, if ``msg`` is a legal action of the seat to act at the current seq (else None)."""
    table = room.table
    if not isinstance(msg, protocol.Act) or conn.seat is None or table is None or room.status != PLAYING:
        return None
    deal = table.match.current
    if msg.seq != room.seq or deal is None or deal.to_act != conn.seat or room.places[conn.seat].away:
        return None
    try:
        action = parse_action(msg.action)
    except Exception:
        return None
    view = table.view(conn.seat)
    assert view is not None
    return action if action in view.legal else None


def stored_room(lab: Lab, room: Room) -> tuple[Any, ...] | None:
    """The room as the library holds it (read straight from the file: ``Library.rooms`` reads them all)."""
    return lab.stored(room.code)


def check_sent(conn: Connection) -> list[dict[str, Any]]:
    """What the connection got since the last look, each message checked; the list is emptied."""
    assert conn.sent is not None
    got, conn.sent[:] = list(conn.sent), []
    for message in got:
        check_server_message(message)
        json.dumps(message, ensure_ascii=False).encode("utf-8")  # a websocket text frame can carry it
    return got


def exchange(lab: Lab, table: Table, sender: Connection, payload: str | bytes) -> dict[int, list[dict[str, Any]]]:
    """(In the loop.)  Send one message and check everything that came of it; what each connection got
    (by ``id``), the sender's also left in its ``sent``."""
    room = table.room
    everyone = table.everyone
    for conn in everyone:
        check_sent(conn)  # what the room's tasks sent since the last message (a bot's play, a hint)
    try:
        msg: Any = parse_client(payload)
        predicted = None
    except Refusal as e:
        msg, predicted = None, e.code
    action = legal_now(room, sender, msg)
    assert room.match_id is not None
    seq, record, stored = room.seq, room.library.record_text(room.match_id), stored_room(lab, room)
    deal_index = len(room.table.match.deals) - 1  # type: ignore[union-attr]

    lab.server.handle(sender, payload)  # never raises

    heard = {id(conn): check_sent(conn) for conn in everyone}
    got = heard[id(sender)]
    sender.sent[:] = got  # type: ignore[index]  # (kept for the caller to look at)
    errors = [m for m in got if m["type"] == "error"]
    if errors and errors[0]["code"] == "rate-limited":  # dropped unread: nothing else is expected of it
        predicted = action = None
    if predicted is not None:
        assert [m["code"] for m in got] == [predicted], (payload, got)
    if errors:
        assert len(got) == 1, f"a refusal must be answered by one error alone: {got}"
        assert errors[0]["message"].strip()
        assert predicted == "internal" or errors[0]["code"] != "internal", (payload, errors[0])
        assert not any(heard[id(c)] for c in everyone if c is not sender), "a refused message was heard by others"
        assert stored_room(lab, room) == stored
    if action is not None:
        assert not errors, f"the legal {action} of {sender.seat} at seq {seq} was refused: {errors}"
        assert room.seq > seq
        before = json.loads(record)["deals"][deal_index]["actions"]
        after = json.loads(room.library.record_text(room.match_id))["deals"][deal_index]["actions"]
        assert after == [*before, str(action)]
    elif errors or msg is None or msg.type not in MAY_CHANGE_SEATS:
        assert room.seq == seq, (payload, sender.seat, got)
        assert room.library.record_text(room.match_id) == record, (payload, sender.seat, got)
    return heard


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(data=st.data())
def test_hostile_messages_never_break_the_room_or_change_the_game(lab, data):
    preset = data.draw(st.sampled_from(PRESET_NAMES), label="rules")
    steps = data.draw(st.integers(0, 45), label="actions into the deal")
    rng = data.draw(st.randoms(use_true_random=False), label="rng")
    lab.secrets.seed(rng.getrandbits(64))
    table = lab.run(lab.table, preset, steps, rng)
    try:
        for _ in range(data.draw(st.integers(1, 4), label="messages")):
            room = table.room
            to_act = room.table.to_act if room.table is not None else None  # type: ignore[union-attr]
            actors = [c for c in table.people if c.seat is not None and c.seat == to_act]
            senders = st.sampled_from(table.everyone)
            if actors:
                senders = st.one_of(st.sampled_from(actors), senders)
            sender = data.draw(senders, label="from")
            scene = Scene(room.code, table.tokens, table.host_token, room.seq, legal_texts(table))
            sent = payload(data.draw(PAYLOADS, label="message"), scene)
            lab.run(exchange, lab, table, sender, sent)
            answer = [m.get("code", m["type"]) for m in sender.sent][:1]  # type: ignore[union-attr]
            event(f"answer: {answer[0] if answer else 'nothing'}")
        lab.loop.run_until_complete(asyncio.sleep(0))  # the room's tasks (bots, hints) take a step
        for conn in table.everyone:
            check_sent(conn)
    finally:
        lab.drop(table)


def test_the_fuzzed_room_takes_legal_actions_and_refuses_the_rest(lab):
    """The fuzz test's own machinery, on fixed cases: a legal action goes through, a stale one does not."""
    table = lab.run(lab.table, "pagat", 0, random.Random(1))
    try:
        room = table.room
        actor = next(c for c in table.people if c.seat == room.table.to_act)  # type: ignore[union-attr]
        other = next(c for c in table.people if c is not actor)
        first = legal_texts(table)[0]
        for sender, seq in ((other, room.seq), (actor, room.seq + 1), (table.spectator, room.seq),
                            (table.host, room.seq)):
            lab.run(exchange, lab, table, sender, json.dumps({"type": "act", "seq": seq, "action": first}))
            assert [m["type"] for m in sender.sent] == ["error"]  # type: ignore[union-attr]
        seq = room.seq
        lab.run(exchange, lab, table, actor, json.dumps({"type": "act", "seq": seq, "action": first}))
        assert room.seq == seq + 1 and not any(m["type"] == "error" for m in actor.sent)  # type: ignore[union-attr]
        # Once more, the same message: stale.
        lab.run(exchange, lab, table, actor, json.dumps({"type": "act", "seq": seq, "action": first}))
        assert actor.sent[0]["code"] == "stale"  # type: ignore[index]
    finally:
        lab.drop(table)


# ---- the rate limit ------------------------------------------------------------------------------------
class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


def test_a_flood_is_refused_as_rate_limited_and_later_messages_are_taken(lab, monkeypatch):
    clock = Clock()
    monkeypatch.setattr(app_module, "time", types.SimpleNamespace(monotonic=clock.monotonic))
    table = lab.run(lab.table, "pagat", 0, random.Random(2))  # its connections' buckets run on the fake clock
    clock.now += 10  # the buckets refill after the hello and join of the setup
    try:
        room = table.room
        actor = next(c for c in table.people if c.seat == room.table.to_act)  # type: ignore[union-attr]
        legal = legal_texts(table)[0]
        seq = room.seq
        stale = json.dumps({"type": "act", "seq": seq + 99, "action": legal})
        codes = []
        for _ in range(60):
            lab.run(exchange, lab, table, actor, stale)
            codes += [m["code"] for m in actor.sent]  # type: ignore[union-attr]
        assert codes == ["stale"] * 40 + ["rate-limited"] * 20  # a burst of 40, then nothing
        assert "20 a second" in actor.sent[0]["message"]  # type: ignore[index]
        # Flooded, even a legal action is dropped (unseen: the game does not move).
        good = json.dumps({"type": "act", "seq": seq, "action": legal})
        lab.run(exchange, lab, table, actor, good)
        assert actor.sent[0]["code"] == "rate-limited" and room.seq == seq  # type: ignore[index]
        # Other connections have buckets of their own.
        lab.run(exchange, lab, table, table.spectator, stale)
        assert table.spectator.sent[0]["code"] == "not-seated"  # type: ignore[index]
        # A tenth of a second later two messages may pass (20 a second), the third not.
        clock.now += 0.1
        for expected in ("stale", "stale", "rate-limited"):
            lab.run(exchange, lab, table, actor, stale)
            assert actor.sent[0]["code"] == expected  # type: ignore[index]
        # After a quiet while the connection is taken again: the legal action plays.
        clock.now += 5
        lab.run(exchange, lab, table, actor, good)
        assert room.seq == seq + 1 and all(m["type"] != "error" for m in actor.sent)  # type: ignore[union-attr]
        # The bucket refills up to its burst, no further.
        clock.now += 3600
        for _ in range(41):
            lab.run(exchange, lab, table, actor, stale)
        assert actor.sent[0]["code"] == "rate-limited"  # type: ignore[index]
    finally:
        lab.drop(table)


def test_chat_has_its_own_slower_limit(lab, monkeypatch):
    clock = Clock()
    monkeypatch.setattr(app_module, "time", types.SimpleNamespace(monotonic=clock.monotonic))
    table = lab.run(lab.table, "pagat", 0, random.Random(3))
    try:
        chat = json.dumps({"type": "chat", "text": "hi"})
        answers, host_heard = [], []
        for _ in range(8):
            heard = lab.run(exchange, lab, table, table.spectator, chat)
            answers += [m.get("code", m["type"]) for m in heard[id(table.spectator)]]
            host_heard += heard[id(table.host)]
        assert answers == ["chat"] * 5 + ["rate-limited"] * 3
        assert [m["text"] for m in host_heard] == ["hi"] * 5  # a dropped line reaches nobody
        clock.now += 2  # one line every two seconds
        heard = lab.run(exchange, lab, table, table.spectator, chat)
        assert [m["text"] for m in heard[id(table.host)]] == ["hi"]
    finally:
        lab.drop(table)


# ---- the honour rule: irregular acts, claims and waivers ---------------------------------------------------
HONOUR = {"honour_rule": True, "irregularities": "002"}


def drive(table: Table, rng: random.Random, stop: Any) -> None:
    """(In the loop.)  Random legal actions at the room's table, as one change, until ``stop(table)`` holds
    for the seat to act (or nobody acts); the connections' mail is then cleared."""
    room = table.room
    game = room.table
    assert game is not None
    with room._change():
        for _ in range(300):
            game.advance()
            deal = game.match.current
            if deal is None or deal.to_act is None or stop(game, deal.to_act):
                break
            view = game.view(deal.to_act)
            assert view is not None
            game.act(deal.to_act, rng.choice(view.legal))
        room._changed()
    for conn in table.everyone:
        conn.sent.clear()  # type: ignore[union-attr]


def act_message(room: Room, action: str, **extra: Any) -> str:
    return json.dumps({"type": "act", "seq": room.seq, "action": action, **extra})


def taken(lab: Lab, table: Table, conn: Connection, action: str, **extra: Any) -> None:
    """Send an act the room must take (an irregular one: ``exchange`` expects only legal actions to pass)."""
    seq = table.room.seq
    got = lab.run(lab.send, conn, {"type": "act", "seq": seq, "action": action, **extra})
    for message in got:
        check_server_message(message)
    assert table.room.seq > seq and all(m["type"] != "error" for m in got), got


def test_a_revoke_is_taken_only_when_meant_and_claimed_only_by_the_seat_asked(lab):
    rng = random.Random(4)
    table = lab.run(lab.table, "pagat", 0, rng, HONOUR)
    try:
        room = table.room
        game = room.table
        lab.run(drive, table, rng, lambda g, seat: bool(g.revokes(seat)))
        seat = game.to_act
        revoke = str(game.revokes(seat)[0])
        actor = table.people[seat]
        others = [c for c in table.people if c is not actor]
        assert revoke in room.state(seat)["deal"]["irregular"]  # offered to the seat, from its own hand
        assert all(not room.state(c.seat)["deal"]["irregular"] for c in others)
        # Not meant: refused as a slip, with the rule; from another seat: not its turn.
        lab.run(exchange, lab, table, actor, act_message(room, revoke))
        assert actor.sent[0]["code"] == "illegal" and "revoke" in actor.sent[0]["message"]
        lab.run(exchange, lab, table, others[0], act_message(room, revoke, irregular=True))
        assert others[0].sent[0]["code"] == "not-your-turn"
        last_trick = len(game.deal.tricks) == room.settings.rules.tricks - 1
        taken(lab, table, actor, revoke, irregular=True)
        assert revoke in json.loads(room.library.record_text(room.match_id))["deals"][0]["actions"]
        if not last_trick:  # the revoke is nobody else's news until it shows (a later trick, or the last)
            assert all(not room.state(c.seat)["deal"]["irregularities"] for c in others)
        lab.run(drive, table, rng, lambda g, s: "waive" in map(str, g.view(s).legal))
        asked = table.people[game.to_act]
        assert game.to_act == seat.left and room.state(asked.seat)["deal"]["legal"] == ["claim revoke", "waive"]
        partner = table.people[asked.seat.partner]
        lab.run(exchange, lab, table, partner, act_message(room, "claim revoke"))
        assert partner.sent[0]["code"] == "illegal" and f"{asked.seat} is asked" in partner.sent[0]["message"]
        taken(lab, table, asked, "claim revoke")
        assert f"{seat} revoked on trick" in " ".join(room.state(None)["deal"]["irregularities"])
        words = " ".join(room.state(seat)["match"]["last_deal"]["words"])
        assert f"{seat.team} revoked (002)" in words  # the ruling ends the deal and is told with its result
    finally:
        lab.drop(table)


def test_irregular_acts_are_refused_without_the_honour_rule_and_in_bad_forms(lab):
    rng = random.Random(5)
    table = lab.run(lab.table, "pagat", 0, rng)  # no honour rule
    try:
        room = table.room
        game = room.table

        def could_revoke(g, seat):
            deal = g.match.current
            return deal.phase.value == "play" and deal.trick and int(deal.hand(seat)) & ~deal.legal_play_mask()

        lab.run(drive, table, rng, could_revoke)
        seat = game.to_act
        deal = game.match.current
        card = next(c for c in deal.hand(seat) if not deal.legal_play_mask() >> c & 1)
        actor = table.people[seat]
        other = table.people[seat.partner]
        for sender, text, extra, code in [
            (actor, f"play {card}", {"irregular": True}, "illegal"),  # meant, but the room has no honour rule
            (actor, "claim revoke", {}, "illegal"),
            (actor, "waive", {}, "illegal"),
            (other, f"{other.seat} out of turn: play {card}", {}, "not-your-turn"),
            (other, "claim misdeal", {}, "not-your-turn"),
            (actor, f"play {card}", {"irregular": "yes"}, "bad-message"),
        ]:
            lab.run(exchange, lab, table, sender, act_message(room, text, **extra))
            assert sender.sent[0]["code"] == code, (text, sender.sent)  # type: ignore[index]
        assert "irregularities" not in room.state(seat)["deal"] and "irregular" not in room.state(seat)["deal"]
    finally:
        lab.drop(table)


@pytest.mark.parametrize("text, own, words", [
    ("002", True, "only under 003"),  # no bid out of turn under 002
    ("003", False, "for his own seat only"),  # nobody bids out of turn for another seat
    ("003", True, None),  # one's own bid out of turn: taken, and the offender's left is asked
])
def test_a_bid_out_of_turn_is_taken_only_under_003_from_its_own_seat(lab, text, own, words):
    table = lab.run(lab.table, "pagat", 0, random.Random(6), {"honour_rule": True, "irregularities": text})
    try:
        room = table.room
        game = room.table
        offender = game.to_act.left  # (not to act)
        conn = table.people[offender if own else offender.partner]
        out_of_turn = f"{offender} out of turn: bid 14"
        if words is None:
            taken(lab, table, conn, out_of_turn)
            assert game.to_act == offender.left
            assert room.state(offender.left)["deal"]["legal"] == ["claim bid", "waive"]
            assert f"{offender} bid out of turn." in room.state(None)["deal"]["irregularities"]
        else:
            lab.run(exchange, lab, table, conn, act_message(room, out_of_turn))
            assert conn.sent[0]["code"] == "illegal" and words in conn.sent[0]["message"]  # type: ignore[index]
    finally:
        lab.drop(table)
