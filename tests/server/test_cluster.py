"""Two real ``cinch serve`` processes over one PostgreSQL database and one Redis, clients spread over both.

- Four people, two on each process, play a whole match together; a spectator on the other process
  sees it to the end; the record replays and the actions log holds every seq once.
- The two tabs of one seat, one on each process, send the same action at the same moment, again
  and again through a deal: each time exactly one is taken and the other is told it is stale.
- The process that drives a room is killed with SIGKILL in the middle of a deal, while a bot's turn
  is pending there: its clients reconnect to the other process and find the same action, the
  survivor claims the room and plays the bot's turn, and the deal plays on to its end.

PostgreSQL and Redis are started by the ``postgres`` and ``redis_server`` fixtures (conftest.py);
without them these tests are skipped, saying why.
"""

from __future__ import annotations

import contextlib
import threading
import time
from typing import Any

import pytest
from serverkit import LEASE, Player, cluster_options, pg_rows, play_until, processes

from cinch.record import loads, replay

WAIT = 15.0
SHORT = {"rules": {"preset": "pagat", "bidder_goes_out": None}, "target": 11, "between_deals": 0, "grace": 600}


@pytest.fixture
def cluster(database_url, redis_server, tmp_path):
    """Two processes of one cluster (a fresh database each test); every client opened is closed at the end."""
    with processes(tmp_path / "serve.log", *cluster_options(database_url, redis_server.url), wait=WAIT) as (
            servers, clients):
        yield servers, clients, database_url


def opened(clients: list[Player], url: str, code: str, **hello: Any) -> Player:
    p = Player(url, code, **hello)
    clients.append(p)
    return p


def log_seqs(database_url: str, code: str) -> list[int]:
    return [r[0] for r in pg_rows(database_url, "SELECT seq FROM actions WHERE room = %s ORDER BY seq", code)]


def test_four_people_on_two_processes_play_a_whole_match(cluster):
    (a, b), clients, database_url = cluster
    made = a.create(SHORT)
    code = made["code"]
    host = opened(clients, a.ws, code, host_token=made["host_token"])
    players = []
    for i, seat in enumerate("NESW"):
        p = opened(clients, (a, b)[i % 2].ws, code)  # N and S on the first process, E and W on the second
        p.join(seat, f"P{seat}", entropy=f"{i + 1:02x}" * 8)
        players.append(p)
    watcher = opened(clients, b.ws, code)
    watcher.send({"type": "chat", "text": "good luck"})  # a chat line on one process reaches the other's people
    line = players[0].until(lambda m: m["type"] == "chat")
    assert line["text"] == "good luck" and line["name"] == "spectator"
    host.send({"type": "start"})
    play_until(players, lambda: all(p.state["match"] and p.state["match"]["winner"] for p in players), timeout=90)
    watcher.until(lambda m: m["type"] == "state" and m["room"]["status"] == "over", WAIT)
    finals = [p.state for p in players]
    assert len({s["seq"] for s in finals}) == 1 and finals[0]["match"]["winner"] in ("NS", "EW")
    assert watcher.state["seq"] == finals[0]["seq"] and "hand" not in watcher.state["deal"]
    # Both processes see each other's connections: four seats connected, two spectators (the host and the watcher).
    room = b.http.get(f"/api/rooms/{code}").json()
    assert [s["connected"] for s in room["seats"]] == [True] * 4 and room["spectators"] == 2
    # Every seat was told the whole match in words, whichever process it was connected to.
    assert all(any("wins trick" in line for line in p.log) for p in players)
    record = loads(a.http.get(f"/rooms/{code}/record").text)
    assert replay(record).match.winner is not None
    assert record["players"] == {s: f"P{s}" for s in "NESW"}
    assert record == loads(b.http.get(f"/rooms/{code}/record").text)
    assert log_seqs(database_url, code) == list(range(1, finals[0]["seq"] + 1))  # every seq once, in order


def fire(p: Player, gate: threading.Barrier, message: dict[str, Any]) -> None:
    """(In a thread.)  Send ``message`` the moment the other thread is ready to send too."""
    gate.wait()
    p.send(message)


def test_the_same_action_from_one_seat_on_two_processes_at_once_is_taken_once(cluster):
    (a, b), clients, database_url = cluster
    made = a.create({**SHORT, "bot_delay": 0})
    code = made["code"]
    host = opened(clients, a.ws, code, host_token=made["host_token"])
    tab = opened(clients, a.ws, code)
    token = tab.join("N", "Ann")
    twin = opened(clients, b.ws, code, token=token)  # Ann's second tab, on the other process
    for seat in "ESW":
        host.send({"type": "fill", "seat": seat, "bot": "basic"})
    host.send({"type": "start"})
    races = 0
    deadline = time.monotonic() + 60
    while races < 6 and time.monotonic() < deadline:
        for p in (tab, twin):
            p.drain(0.01)
        if not (tab.my_turn() and twin.my_turn() and tab.state["seq"] == twin.state["seq"]):  # type: ignore[index]
            if tab.state and (tab.state["match"] or {}).get("winner"):
                break  # (the match is over: fewer races)
            continue
        seq = tab.state["seq"]  # type: ignore[index]
        action = {"type": "act", "seq": seq, "action": tab.choice()}
        gate = threading.Barrier(2)
        threads = [threading.Thread(target=fire, args=(p, gate, action)) for p in (tab, twin)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        answers = []
        for p in (tab, twin):
            answers.append(p.until(lambda m, s=seq: m["type"] == "error" or (m["type"] == "state" and m["seq"] > s)))
        races += 1
        errors = [m["code"] for m in (*answers, *[m for p in (tab, twin) for m in p.drain(0.3)])
                  if m["type"] == "error"]
        assert errors == ["stale"], f"race {races} at seq {seq}: {errors}"
        taken = pg_rows(database_url, "SELECT seat, action FROM actions WHERE room = %s AND seq = %s", code, seq + 1)
        assert taken == [("N", action["action"])], taken
    assert races >= 3, f"only {races} races in a minute: " + "; ".join(
        f"{p.state['seq']} {p.state['room']['status']} {p.state['deal'] and p.state['deal']['to_act']} "
        f"{p.state['deal'] and p.state['deal']['phase']}" for p in (tab, twin) if p.state)
    seqs = log_seqs(database_url, code)
    assert seqs == list(range(1, len(seqs) + 1))


def test_a_process_killed_mid_deal_its_clients_go_to_the_other_and_its_bots_play_there(cluster):
    (a, b), clients, database_url = cluster
    made = a.create({**SHORT, "bot_delay": 0.4})
    code = made["code"]
    host = opened(clients, a.ws, code, host_token=made["host_token"])
    north = opened(clients, a.ws, code)
    north.join("N", "Ann")
    south = opened(clients, b.ws, code)
    south.join("S", "Bo")
    for seat in "EW":
        host.send({"type": "fill", "seat": seat, "bot": "basic"})
    host.send({"type": "start"})  # the first process starts the match, so it drives the room
    people = [north, south]

    def bot_to_act_in_play(state: dict[str, Any] | None) -> bool:
        return bool(state and state["deal"] and state["deal"]["phase"] == "play" and state["deal"]["to_act"] in "EW"
                    and state["room"]["status"] == "playing")

    play_until(people, lambda: bot_to_act_in_play(north.state) and north.state["seq"] == south.state["seq"],
               timeout=60)
    before = north.state
    seq, number, bot = before["seq"], before["deal"]["number"], before["deal"]["to_act"]
    hand = north.state["deal"]["hand"]
    a.kill()  # while the bot waits before it plays, on the process that is gone
    north.ws.close_timeout = 1.0
    with contextlib.suppress(Exception):
        north.close()
    again = opened(clients, b.ws, code, token=north.token)  # Ann's page reconnects, to the other process
    first = again.until(lambda m: m["type"] == "state", WAIT)
    assert first["seq"] >= seq and first["deal"]["number"] == number
    if first["seq"] == seq:
        assert first["deal"]["hand"] == hand and first["deal"]["to_act"] == bot
    # The survivor claims the room within the lease and plays the pending bot's turn.
    moved = again.until(lambda m: m["type"] == "state" and m["seq"] > seq, LEASE + 10)
    assert moved["deal"]["number"] == number
    [owner] = pg_rows(database_url, "SELECT owner FROM rooms WHERE code = %s", code)
    assert owner is not None and f":{b.process.pid}:" in str(owner[0]), owner  # the survivor drives the room
    people = [again, south]
    play_until(people, lambda: (again.state["match"]["last_deal"] or {}).get("number", 0) >= number, timeout=60)
    record = loads(b.http.get(f"/rooms/{code}/record").text)
    assert len(record["deals"]) >= number
    replay(record)
    seqs = log_seqs(database_url, code)
    assert seqs == list(range(1, len(seqs) + 1)) and seqs[-1] >= again.state["seq"] - 1
