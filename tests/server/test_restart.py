"""The real ``cinch serve``, killed with SIGKILL in the middle of a trick and started again on the same library.

Everything a player was shown had been saved before it was shown: after the restart each
seat reconnects with its token to the same seq, the same hand and the same trick, the deal
plays on to its end, and the record holds the actions from before the kill followed by
those after, and replays.  A room still waiting for players is in the lobby again.
"""

from __future__ import annotations

import contextlib
import time
from typing import Any

import pytest
from serverkit import Player, Serve
from websockets.exceptions import ConnectionClosed

from cinch.record import loads, replay

WAIT = 10.0  # seconds any one wait may take
ROOM = {"rules": "pagat", "bot_delay": 0, "between_deals": 0, "grace": 60}


def sync(players: list[Player], timeout: float = WAIT) -> dict[str, Any]:
    """Wait until every player has the room's latest state (nobody acts meanwhile); that state."""
    deadline = time.monotonic() + timeout
    while True:
        for p in players:
            p.drain(0.005)
        seqs = {p.state["seq"] for p in players if p.state is not None}
        if len(seqs) == 1 and all(p.state is not None for p in players):
            return players[0].state  # type: ignore[return-value]
        assert time.monotonic() < deadline, f"the players' states did not agree: seqs {sorted(seqs)}"


def play(players: list[Player], done: Any, played: dict[int, list[str]], timeout: float = 60.0) -> dict[str, Any]:
    """One action at a time, each player seeing the result before the next, until ``done(state)``.

    Every action is noted by deal number in ``played``; the state where it stopped comes back.
    """
    deadline = time.monotonic() + timeout
    while True:
        state = sync(players)
        if done(state):
            return state
        assert time.monotonic() < deadline, "the deal did not get there in time"
        actors = [p for p in players if p.my_turn()]
        assert len(actors) <= 1, f"several to act at seq {state['seq']}"
        if not actors:  # between deals: the next one is dealt at once
            continue
        actor = actors[0]
        action = actor.choice()
        played.setdefault(state["deal"]["number"], []).append(action)
        actor.act(action)
        answer = actor.until(lambda m: m["type"] in ("state", "error"), WAIT)
        assert answer["type"] == "state" and answer["seq"] > state["seq"], answer


def mid_trick(state: dict[str, Any]) -> bool:
    deal = state["deal"]
    return deal["phase"] == "play" and len(deal["trick"]["plays"]) == 2


def close(players: list[Player]) -> None:
    for p in players:
        p.ws.close_timeout = 1.0  # a server that was killed never answers the closing handshake
        with contextlib.suppress(Exception):
            p.close()


def test_a_server_killed_mid_trick_goes_on_where_it_stood(tmp_path):
    db = tmp_path / "games.sqlite3"
    log = tmp_path / "serve.log"
    servers: list[Serve] = []
    clients: list[Player] = []
    try:
        first = Serve(log, "--db", str(db), wait=WAIT).wait()
        servers.append(first)
        made = first.create(ROOM)
        code = made["code"]
        waiting = first.create(ROOM)  # another room, still waiting for players: one person sits in it
        sitter = Player(first.ws, waiting["code"])
        clients.append(sitter)
        sitter.join("W", "Wanda")
        host = Player(first.ws, code, host_token=made["host_token"])
        clients.append(host)
        players = []
        for i, seat in enumerate("NESW"):
            p = Player(first.ws, code)
            clients.append(p)
            p.join(seat, f"P{seat}", entropy=f"{i + 7:02x}" * 8)
            players.append(p)
        host.send({"type": "start"})
        for p in players:
            p.until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing", WAIT)

        played: dict[int, list[str]] = {}
        before = play(players, mid_trick, played)
        number, seq = before["deal"]["number"], before["seq"]
        hands = {p.seat: p.state["deal"]["hand"] for p in players}  # type: ignore[index]
        trick = before["deal"]["trick"]
        assert len(trick["plays"]) == 2 and all(len(hand) > 0 for hand in hands.values())
        until_kill = list(played[number])

        first.kill()
        for p in clients:  # every client sees its connection drop
            deadline = time.monotonic() + WAIT
            with pytest.raises(ConnectionClosed):
                while time.monotonic() < deadline:
                    p.ws.recv(timeout=WAIT)
        close(clients)
        clients.clear()

        second = Serve(log, "--db", str(db), wait=WAIT).wait()
        servers.append(second)
        lobby = {r["code"]: r for r in second.http.get("/api/rooms").json()["rooms"]}
        assert lobby[waiting["code"]]["status"] == "waiting", lobby
        assert [s["name"] for s in lobby[waiting["code"]]["seats"]] == [None, None, None, "Wanda"]
        assert lobby[code]["status"] == "playing"

        again = []
        for p in players:
            q = Player(second.ws, code, token=p.token)
            clients.append(q)
            assert q.seat == p.seat and not q.host
            state = q.until(lambda m: m["type"] == "state", WAIT)
            assert state["seq"] == seq and state["you"]["seat"] == p.seat
            assert state["deal"]["number"] == number and state["deal"]["hand"] == hands[p.seat]
            assert state["deal"]["trick"] == trick
            again.append(q)
        after = play(again, lambda s: (s["match"]["last_deal"] or {}).get("number", 0) >= number, played)
        assert after["seq"] > seq

        reply = second.http.get(f"/rooms/{code}/record")
        assert reply.status_code == 200, reply.text
        record = loads(reply.text)
        replayed = replay(record)
        assert len(replayed.match.summaries) >= number
        actions = record["deals"][number - 1]["actions"]
        assert actions[:len(until_kill)] == until_kill
        assert actions == played[number]
        assert record["players"] == {s: f"P{s}" for s in "NESW"}
        # The room that waited still waits, and its person may come back to the seat.
        back = Player(second.ws, waiting["code"], token=sitter.token)
        clients.append(back)
        assert back.seat == "W"
    finally:
        close(clients)
        for server in servers:
            server.kill()
            server.stop()  # (its client closed)
