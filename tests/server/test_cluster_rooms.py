"""Two processes' rooms over one PostgreSQL database, in one test process: what the cluster decides, step by step.

Two :class:`Server` objects, each with a :class:`ClusterStore` of its own (its own connection and
process id, no Redis: each test says when a process hears of the other's change), share one
database.  The order of events is the test's, so each case is exact: a process whose cache is
behind decides on the stored state; the same action from both is taken once; a timer of a
process that no longer drives the room does nothing; a dead driver's room is claimed and its
bots play on; the actions log holds every seq once; a match is caught up action by action to
what a replay gives.
"""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass
from typing import Any

import pytest
from serverkit import cluster_server

from cinch.cards import Seat
from cinch.library import LibraryError
from cinch.match import Match
from cinch.record import loads, record_text, replay
from cinch.rules import Rules
from cinch.server.app import Connection, Server
from cinch.server.store import NotDriver, catch_up
from cinch.shuffle import Shuffle
from cinch.view import Phase

ROOM = {"rules": {"preset": "pagat", "bidder_goes_out": None}, "target": 11, "grace": 3600, "between_deals": 0,
        "bot_delay": 0}


def process(url: str, name: str) -> Server:
    return cluster_server(url, name, lease=30.0, seed=2026)  # (the same deals every run)


@dataclass
class Client:
    server: Server
    conn: Connection
    token: str | None = None

    def send(self, **message: Any) -> list[dict[str, Any]]:
        """Send one message; what came back to this connection."""
        sent = self.conn.sent
        assert sent is not None
        sent.clear()
        self.server.handle(self.conn, json.dumps(message))
        return list(sent)

    def state(self) -> dict[str, Any]:
        assert self.conn.sent is not None
        return [m for m in self.conn.sent if m["type"] == "state"][-1]


def client(server: Server, code: str, **hello: Any) -> Client:
    c = Connection()
    c.sent = []
    out = Client(server, c, hello.get("token"))
    got = out.send(type="hello", room=code, **hello)
    assert got[0]["type"] == "welcome", got
    return out


def join(c: Client, seat: str) -> None:
    got = c.send(type="join", seat=seat, name=f"P{seat}")
    assert [m["type"] for m in got] == ["seated", "state"], got
    c.token = got[0]["token"]


def hear(server: Server, code: str) -> None:
    """What Redis would tell the process: the room moved on (it reads the new rev from the database)."""
    server.refresh(server.rooms[code])


def sql(server: Server, query: str, *args: Any) -> list[tuple[Any, ...]]:
    cursor = server.store.library._execute(query, args or None)
    return cursor.fetchall() if cursor.description else []


async def until(done: Any, timeout: float = 20.0) -> None:
    """Let the event loop run (the bots, the timers) until ``done()``; fail after ``timeout`` seconds."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not done():
        assert asyncio.get_running_loop().time() < deadline, "waited too long"
        await asyncio.sleep(0.01)


@pytest.fixture
def pair(database_url):
    a, b = process(database_url, "A"), process(database_url, "B")
    try:
        yield a, b
    finally:
        for s in (a, b):
            s.close()
            s.store.library.close()


def test_a_process_behind_decides_on_the_stored_room_and_the_same_action_is_taken_once(pair):
    a, b = pair

    async def run() -> None:
        made = a.create(dict(ROOM))
        code = made["code"]
        host = client(a, code, host_token=made["host_token"])
        seats = {}
        for name, server in (("N", a), ("E", a), ("S", b), ("W", b)):
            seats[name] = client(server, code)
            join(seats[name], name)
        # A has not heard that S and W sat down: its start is decided on the stored room (four seats), not on
        # its own (two: it would refuse with empty-seats).
        started = host.send(type="start")
        assert started[-1]["type"] == "state" and started[-1]["room"]["status"] == "playing", started
        assert sql(a, "SELECT owner FROM rooms WHERE code = %s", code) == [("A",)]
        twin = client(b, code, token=seats["N"].token)  # N's second tab, on B
        assert twin.conn.seat == Seat.N
        room_a, room_b = a.rooms[code], b.rooms[code]
        for _ in range(60):  # play to N's turn, each process hearing of the other's changes
            to_act = room_a.table.to_act  # type: ignore[union-attr]
            if to_act == Seat.N:
                break
            c = seats[to_act.name]  # type: ignore[union-attr]
            room = c.server.rooms[code]
            got = c.send(type="act", seq=room.seq, action=str(room.table.view(to_act).legal[0]))  # type: ignore[union-attr]
            assert got and got[-1]["type"] == "state", got
            hear(a if c.server is b else b, code)
        hear(b, code)
        seq = room_a.seq
        assert room_a.table.to_act == Seat.N and room_b.seq == seq  # type: ignore[union-attr]
        action = str(room_a.table.view(Seat.N).legal[0])  # type: ignore[union-attr]
        before = loads(a.library.record_text(room_a.match_id))["deals"][-1]["actions"]
        # N's two tabs send the same action: A takes it; B reads the stored room first and finds it stale.
        first = seats["N"].send(type="act", seq=seq, action=action)
        second = twin.send(type="act", seq=seq, action=action)
        assert [m["type"] for m in first] == ["state"] and first[0]["seq"] == seq + 1, first
        assert [m.get("code") for m in second if m["type"] == "error"] == ["stale"], second
        assert room_b.seq == seq + 1 and twin.state()["seq"] == seq + 1  # B shows its tab what was stored
        after = loads(a.library.record_text(room_a.match_id))["deals"][-1]["actions"]
        assert after == [*before, action]
        assert sql(a, "SELECT action, seat FROM actions WHERE room = %s AND seq = %s", code, seq + 1) == [
            (action, "N")]
        a.close()
        b.close()

    asyncio.run(run())


def test_only_the_driver_plays_the_bots_and_a_dead_drivers_room_is_claimed(pair):
    a, b = pair

    async def run() -> None:
        made = a.create({**ROOM, "bot_delay": 0.05})
        code = made["code"]
        host = client(a, code, host_token=made["host_token"])
        person = client(b, code)
        join(person, "S")
        for seat in "NEW":
            assert host.send(type="fill", seat=seat, bot="basic")[-1]["type"] == "state"
        host.send(type="start")
        room_a = a.rooms[code]
        assert a.store.drives(room_a)
        room_b = b.room_for(code)
        assert room_b is not None and not b.store.drives(room_b)
        # B's bots never move: a bot's change from a process that does not drive the room is refused.
        with pytest.raises(NotDriver), room_b._change(driver=True):
            pass
        # A plays the bots up to S's turn.
        await until(lambda: room_a.table.to_act == Seat.S)  # type: ignore[union-attr]
        hear(b, code)
        # A dies (its lease runs out) while a bot is thinking after S's action: B claims the room and plays on.
        a.store.driving.clear()  # (A is frozen: its timers and bots do nothing more)
        room_a.abandon()
        room_a.closed = True
        while True:  # S acts on B (again, if S is to act again: naming trumps, say) until a bot is to act
            seq = room_b.seq
            state = person.state()
            choice = state["deal"]["keep"]["suggestion"] if state["deal"]["keep"] else state["deal"]["legal"][0]
            got = person.send(type="act", seq=seq, action=choice)
            assert got[-1]["type"] == "state" and got[-1]["seq"] == seq + 1, got
            seq += 1
            if room_b.table.to_act != Seat.S:  # type: ignore[union-attr]
                break
        sql(b, "UPDATE processes SET alive_until = now() - interval '1 second' WHERE id = 'A'")
        b.store.sweep()
        assert b.store.drives(room_b)
        assert sql(b, "SELECT owner FROM rooms WHERE code = %s", code) == [("B",)]
        await until(lambda: room_b.seq > seq)  # the bots play, on B
        # A comes back to life: its late bot change is fenced off, the room stays as B has it.
        with pytest.raises(NotDriver), room_a._change(driver=True):
            pass
        rows = sql(b, "SELECT seq FROM actions WHERE room = %s ORDER BY seq", code)
        assert [r[0] for r in rows] == list(range(1, room_b.seq + 1))  # every seq once, none missing
        b.close()

    asyncio.run(run())


def tell(server: Server, event: dict[str, Any]) -> None:
    """What Redis would carry to the process from another one."""
    server.store._event(event)  # type: ignore[attr-defined]


def test_the_grace_of_a_person_connected_elsewhere_is_timed_by_the_driver_alone(pair):
    a, b = pair

    async def run() -> None:
        made = a.create({**ROOM, "grace": 0.3})
        code = made["code"]
        host = client(a, code, host_token=made["host_token"])
        for seat in "NEW":
            host.send(type="fill", seat=seat, bot="basic")
        person = client(b, code)
        join(person, "S")
        tell(a, {"k": "presence", "room": code, "p": "B", "seats": "S", "spectators": 0})
        host.send(type="start")
        room_a = a.rooms[code]
        assert a.store.drives(room_a) and room_a.connected(Seat.S) and not room_a.grace_timers
        room_b = b.rooms[code]
        hear(b, code)
        assert not room_b.grace_timers  # (B has the person but does not drive the room: it times nothing)
        # S's tab on B closes: B tells A, whose timer starts; when it runs out a substitute plays for S.
        person.conn.sent.clear()  # type: ignore[union-attr]
        b.disconnect(person.conn)
        assert not room_b.grace_timers
        tell(a, {"k": "presence", "room": code, "p": "B", "seats": "", "spectators": 0})
        assert Seat.S in room_a.grace_timers
        await until(lambda: room_a.places[Seat.S].away)
        assert room_a.table.bot_names[Seat.S] == "heuristic"  # type: ignore[union-attr]
        substitutes = room_a.table.match.metadata["substitutes"]  # type: ignore[union-attr]
        assert [(e["seat"], e["until"]) for e in substitutes] == [("S", None)]
        # S comes back on B: B gives the seat back to the person, and A hears of it.
        back = client(b, code, token=person.token)
        assert back.conn.seat == Seat.S and not room_b.places[Seat.S].away
        hear(a, code)
        tell(a, {"k": "presence", "room": code, "p": "B", "seats": "S", "spectators": 0})
        assert not room_a.places[Seat.S].away and Seat.S not in room_a.table.bots  # type: ignore[union-attr]
        assert room_a.table.match.metadata["substitutes"][0]["until"] is not None  # type: ignore[union-attr]
        a.close()
        b.close()

    asyncio.run(run())


def test_a_change_the_database_cannot_commit_is_not_made_and_not_shown(pair, monkeypatch):
    a, _ = pair

    async def run() -> None:
        made = a.create(dict(ROOM))
        code = made["code"]
        host = client(a, code, host_token=made["host_token"])
        seats = {}
        for name in "NESW":
            seats[name] = client(a, code)
            join(seats[name], name)
        host.send(type="start")
        room = a.rooms[code]
        seat = room.table.to_act  # type: ignore[union-attr]
        actor, seq, rev = seats[seat.name], room.seq, room.rev  # type: ignore[union-attr]
        stored = a.library.record_text(room.match_id)
        action = str(room.table.view(seat).legal[0])  # type: ignore[union-attr]

        def broken(*args: Any, **kwargs: Any) -> Any:
            raise LibraryError("the disk is full")

        monkeypatch.setattr(a.store.library, "finish_change", broken)
        for c in seats.values():
            c.conn.sent.clear()  # type: ignore[union-attr]
        got = actor.send(type="act", seq=seq, action=action)
        monkeypatch.undo()
        assert [(m["type"], m.get("code")) for m in got] == [("error", "storage")], got
        assert "disk is full" in got[0]["message"]
        assert not any(c.conn.sent for c in seats.values() if c is not actor)  # nobody was told of it
        assert room.seq == seq and room.table.to_act == seat and room.rev == rev  # type: ignore[union-attr]
        assert a.library.record_text(room.match_id) == stored
        assert sql(a, "SELECT rev, seq FROM rooms WHERE code = %s", code) == [(rev, seq)]
        again = actor.send(type="act", seq=seq, action=action)  # the database is back: the same action is taken
        assert again[-1]["type"] == "state" and again[-1]["seq"] == seq + 1, again
        a.close()

    asyncio.run(run())


def test_a_lost_database_connection_refuses_one_change_and_the_next_connects_again(pair):
    a, b = pair

    async def run() -> None:
        made = a.create(dict(ROOM))
        code = made["code"]
        sitter = client(a, code)
        pid = a.store.library.connection().info.backend_pid
        sql(b, "SELECT pg_terminate_backend(%s)", pid)  # (the database restarted, or the network dropped)
        got = sitter.send(type="join", seat="N", name="Ann")
        assert [(m["type"], m.get("code")) for m in got] == [("error", "storage")], got
        join(sitter, "N")  # the next change opens a new connection
        assert a.store.library.connection().info.backend_pid != pid
        assert b.lobby()[0]["seats"][0]["name"] == "PN"
        a.close()

    asyncio.run(run())


def test_a_lobby_of_the_cluster_lists_the_rooms_of_every_process(pair):
    a, b = pair

    async def run() -> None:
        made = a.create(dict(ROOM))
        code = made["code"]
        sitter = client(a, code)
        join(sitter, "W")
        listed = {r["code"]: r for r in b.lobby()}
        assert code not in b.rooms  # (listed from the stored row: B did not load the room)
        assert listed[code]["status"] == "waiting"
        assert [s["name"] for s in listed[code]["seats"]] == [None, None, None, "PW"]
        assert listed[code] == {**a.rooms[code].info(), "seats": listed[code]["seats"]}
        a.close()
        b.close()

    asyncio.run(run())


def play_random(match: Match, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if match.is_over:
            return
        deal = match.current
        if deal is None:
            salt = f"{rng.getrandbits(128):032x}"  # (seeded: Shuffle.new's salt is a fresh secret)
            deal = match.start_deal(shuffle=Shuffle(salt, ("", "ab", "", "cd"), len(match.deals) + 1))
        if deal.to_act is None:
            match.resolve_chance()
            continue
        legal = deal.legal_actions()
        match.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("preset", ["pagat", "additive", "double-pedro"])
def test_a_match_is_caught_up_action_by_action_to_what_a_replay_gives(preset):
    rng = random.Random(preset)
    options = {"target": "21", **({"bidder_goes_out": "none"} if preset == "pagat" else {})}
    match = Match(Rules.preset(preset).with_options(**options), rng=1)
    texts = [record_text(match)]
    for _ in range(25):
        play_random(match, rng, rng.randrange(1, 30))
        texts.append(record_text(match))
    for _ in range(30):
        i, j = sorted(rng.sample(range(len(texts)), 2))
        behind = replay(loads(texts[i])).match
        assert catch_up(behind, loads(texts[j]))
        assert record_text(behind) == texts[j]
        assert behind.score == replay(loads(texts[j])).match.score
    other = Match(Rules.preset(preset), rng=2)
    play_random(other, random.Random(5), 10)
    assert not catch_up(replay(loads(texts[-1])).match, loads(record_text(other)))  # another match: replayed whole


def test_a_match_caught_up_to_a_record_stored_before_its_new_stock_matches_that_record():
    """A room stores its record after an action that asks for a new stock (chance) and again once the stock is
    formed: a process catching up must hold what each record holds, inventing no stock the first does not."""
    rng = random.Random("restock")
    for _ in range(200):
        match = Match(Rules.preset("pagat").with_options(target="21", bidder_goes_out="none"), rng=1)
        deal = match.start_deal(shuffle=Shuffle(f"{rng.getrandbits(128):032x}", ("", "ab", "", "cd"), 1))
        before = record_text(match)
        while deal.phase is not Phase.RESTOCK and not deal.is_over:
            before = record_text(match)
            legal = deal.legal_actions()
            match.apply(legal[rng.randrange(len(legal))])
        if deal.phase is Phase.RESTOCK:
            break
    else:
        pytest.fail("no deal of 200 needed a new stock")
    waiting = record_text(match)
    match.resolve_chance()
    formed = record_text(match)
    assert '"restock"' in formed and '"restock"' not in waiting
    for start in ("", before):  # the match from nothing (a process that never held it), or one action behind
        for target in (waiting, formed):
            behind = replay(loads(start)).match if start else Match(match.rules, rng=5)
            assert catch_up(behind, loads(target))
            assert record_text(behind) == target


@pytest.mark.parametrize(("args", "words"), [
    (["--redis-url", "redis://127.0.0.1:1"], "--redis-url connects processes that share a PostgreSQL database"),
    (["--database-url", "sqlite:///games.db"], "--database-url must be a PostgreSQL URL"),
    (["--database-url", "postgresql://cinch@127.0.0.1:1/cinch", "--db", "games.sqlite3"],
     "give --db (the SQLite library of one process) or --database-url (PostgreSQL), not both"),
    (["--database-url", "postgresql://cinch@127.0.0.1:1/cinch", "--redis-url", "http://x"],
     "--redis-url must be a Redis URL"),
    (["--database-url", "postgresql://cinch@127.0.0.1:1/cinch"], "cannot connect to the database"),
])
def test_cinch_serve_refuses_a_cluster_it_cannot_use_in_one_line(args, words):
    from click.testing import CliRunner

    from cinch.cli import main

    result = CliRunner().invoke(main, ["serve", "--port", "0", *args])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], result.output
