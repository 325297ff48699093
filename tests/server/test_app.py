"""``cinch serve`` over real websockets: rooms, seats, whole matches, spectators, reconnection, substitutes."""

from __future__ import annotations

import json
import time

import pytest
from serverkit import Player, Served, play_until, served

from cinch.library import Library
from cinch.record import loads, replay

FAST = {"bot_delay": 0, "between_deals": 0}
SHORT = {"rules": {"preset": "pagat", "bidder_goes_out": None}, "target": 11}  # a match of a few deals


@pytest.fixture
def srv(tmp_path):
    with served(tmp_path / "games.sqlite3", seed=2026) as s:  # (the same deals every run)
        yield s


def four(srv: Served, code: str, entropy: bool = True) -> list[Player]:
    players = []
    for i, seat in enumerate("NESW"):
        p = srv.player(code)
        p.join(seat, f"P{seat}", entropy=f"{i + 1:02x}" * 8 if entropy else "")
        players.append(p)
    return players


def started(srv: Served, **body) -> tuple[dict, list[Player], Player]:
    room = srv.create(**{**FAST, **body})
    host = srv.player(room["code"], host_token=room["host_token"])
    players = four(srv, room["code"])
    host.send({"type": "start"})
    for p in players:
        p.until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
    return room, players, host


def test_a_room_is_created_listed_and_described(srv):
    room = srv.create(rules={"preset": "additive", "sancho": True}, target=21, grace=30)
    assert len(room["code"]) == 6 and room["link"].endswith("/rooms/" + room["code"])
    assert room["room"]["rules_name"] == "additive+" and room["room"]["target"] == 21
    assert room["room"]["grace"] == 30
    lobby = srv.http.get("/api/rooms").json()["rooms"]
    assert [r["code"] for r in lobby] == [room["code"]]
    assert srv.http.get(f"/api/rooms/{room['code']}").json()["status"] == "waiting"
    page = srv.http.get(f"/rooms/{room['code']}")
    assert page.status_code == 200 and '<main id="main"' in page.text  # the browser table's page
    assert "client" in srv.http.get("/api/protocol").json()


def test_bad_room_requests_get_clear_errors(srv):
    bad = srv.http.post("/api/rooms", json={"rules": "pinochle"})
    assert bad.status_code == 400 and "pagat" in bad.json()["message"]
    bad = srv.http.post("/api/rooms", json={"rules": "pagat", "colour": "red"})
    assert bad.status_code == 400 and "unknown field colour" in bad.json()["message"]
    bad = srv.http.post("/api/rooms", content=b"{nope")
    assert bad.status_code == 400 and bad.json()["code"] == "bad-json"
    assert srv.http.get("/api/rooms/ZZZZZZ").status_code == 404
    assert srv.http.get("/rooms/ZZZZZZ/record").json()["code"] == "unknown-room"


def test_four_people_play_a_whole_match_while_a_spectator_watches(srv, tmp_path):
    room, players, host = started(srv, **SHORT)
    code = room["code"]
    watcher = srv.player(code)
    play_until(players, lambda: players[0].state["match"]["winner"] is not None, timeout=300)
    watcher.drain(0.2)
    final = watcher.state
    assert final["room"]["status"] == "over" and final["match"]["winner"] in ("NS", "EW")
    assert "hand" not in final["deal"] and "legal" not in final["deal"]
    # Every state a seat got named the same seq sequence the others saw, and the log told the deals in words.
    assert any("wins trick" in line for line in players[0].log)
    # The record of the finished match: every deal, the shuffles revealed, verified by replay.
    text = srv.http.get(f"/rooms/{code}/record").text
    record = loads(text)
    replayed = replay(record)
    assert replayed.match.winner is not None
    assert all("shuffle" in deal for deal in record["deals"])
    assert record["deals"][0]["shuffle"]["entropy"] == {s: f"{i + 1:02x}" * 8 for i, s in enumerate("NESW")}
    assert record["players"] == {"N": "PN", "E": "PE", "S": "PS", "W": "PW"}
    # The finished match is in the library, as `cinch history` lists it.
    with Library.open(tmp_path / "games.sqlite3", readonly=True) as lib:
        stored = lib.get(final["room"]["match_id"])
    assert stored.status == "finished" and stored.frontend == "server"
    for p in [*players, host, watcher]:
        p.close()


def test_the_commitment_is_published_before_the_first_bid_and_checks_out_after(srv):
    room, players, _ = started(srv)
    first = players[0].state["deal"]
    assert first["phase"] == "bidding" and not first["auction"] and len(first["commitment"]) == 64
    assert "reveal" not in first
    play_until(players, lambda: players[0].state["match"]["last_deal"] is not None, timeout=120)
    has_reveal = lambda m: m["type"] == "state" and m["deal"] and "reveal" in m["deal"]  # noqa: E731
    seen = [m for m in players[1].messages if has_reveal(m)]
    reveal = (seen[0] if seen else players[1].until(has_reveal))["deal"]["reveal"]
    from cinch.shuffle import Shuffle, commitment

    assert reveal["commitment"] == first["commitment"]
    assert commitment(reveal["deck"], reveal["salt"]) == first["commitment"]
    shuffle = Shuffle.from_json({k: reveal[k] for k in ("commitment", "salt", "entropy")}, first["number"])
    assert " ".join(map(str, shuffle.deck())) == reveal["deck"]


def test_a_reload_mid_trick_returns_to_the_same_seat_and_hand(srv):
    room, players, _ = started(srv)
    play_until(players, lambda: players[0].state["deal"]["phase"] == "play"
               and len(players[0].state["deal"]["trick"]["plays"]) == 1)
    for p in players:
        p.drain(0.3)  # nobody acts now: every client catches up with the last action
    south = players[2]
    hand = south.state["deal"]["hand"]
    south.close()
    again = srv.player(room["code"], token=south.token)
    assert again.seat == "S"
    state = again.until(lambda m: m["type"] == "state")
    assert state["deal"]["hand"] == hand and state["you"]["seat"] == "S"
    players[2] = again
    again.token = south.token
    play_until(players, lambda: players[0].state["match"]["last_deal"] is not None, timeout=120)


def test_a_dropped_seat_is_played_by_a_bot_after_the_grace_and_taken_back(srv):
    room, players, _ = started(srv, grace=0.3)
    west = players[3]
    token = west.token
    west.close()
    others = players[:3]
    # While W is away nobody waits: the substitute plays for W, shown as such.
    state = others[0].until(lambda m: m["type"] == "state" and m["room"]["seats"][3]["kind"] == "substitute")
    assert state["room"]["seats"][3]["bot"] == "heuristic" and not state["room"]["seats"][3]["connected"]
    seq = state["seq"]
    play_until(others, lambda: others[0].state["seq"] > seq + 8, timeout=60)
    back = srv.player(room["code"], token=token)
    back.token = token
    state = back.until(lambda m: m["type"] == "state")
    assert state["room"]["seats"][3]["kind"] == "human" and state["room"]["seats"][3]["connected"]
    play_until([*others, back], lambda: others[0].state["match"]["last_deal"] is not None, timeout=120)
    record = json.loads(srv.http.get(f"/rooms/{room['code']}/record").text)
    subs = record["substitutes"]
    assert subs[0]["seat"] == "W" and subs[0]["bot"] == "heuristic" and subs[0]["until"] is not None


def test_bots_fill_empty_seats_and_a_person_takes_one_between_deals(srv):
    room, host, me = srv.started_with_bots("basic", bot_delay=0, between_deals=30)
    play_until([me], lambda: me.state["room"]["status"] == "between-deals", timeout=120)
    newcomer = srv.player(room["code"])
    assert newcomer.error({"type": "join", "seat": "N", "name": "Bo"})["code"] == "seat-taken"
    newcomer.join("N", "Bo", take=True)
    state = newcomer.until(lambda m: m["type"] == "state" and m["room"]["seats"][0]["kind"] == "human")
    assert state["room"]["seats"][0]["name"] == "Bo"
    for p in (me, newcomer):
        p.send({"type": "ready"})
    me.until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
    play_until([me, newcomer], lambda: me.state["match"]["deals"] >= 2 and me.state["room"]["status"] != "playing",
               timeout=120)
    record = loads(srv.http.get(f"/rooms/{room['code']}/record").text)
    assert record["players"]["N"] == "Bo"


def test_a_rematch_keeps_the_seats_and_passes_the_deal(srv):
    room, players, host = started(srv, **SHORT)
    play_until(players, lambda: players[0].state["match"]["winner"] is not None, timeout=300)
    first = players[0].state["room"]["match_id"]
    last_dealer = players[0].state["deal"]["dealer"]
    players[1].send({"type": "rematch"})
    state = players[0].until(lambda m: m["type"] == "state" and m["room"]["match_id"] != first and m["deal"])
    assert state["match"]["score"] == {"NS": 0, "EW": 0} and state["room"]["status"] == "playing"
    assert state["deal"]["dealer"] == "NESW"["NESW".index(last_dealer) + 1 - 4]
    assert [s["name"] for s in state["room"]["seats"]] == ["PN", "PE", "PS", "PW"]


def test_refused_messages_leave_the_connection_and_the_room_as_they_were(srv):
    room, players, host = started(srv)
    north = players[0]
    to_act = north.state["deal"]["to_act"]
    actor = next(p for p in players if p.seat == to_act)
    other = next(p for p in players if p.seat != to_act)
    seq = actor.state["seq"]
    assert other.error({"type": "act", "seq": seq, "action": "pass"})["code"] == "not-your-turn"
    assert actor.error({"type": "act", "seq": seq - 1, "action": "pass"})["code"] == "stale"
    assert actor.error({"type": "act", "seq": seq + 5, "action": "pass"})["code"] == "stale"
    bad = actor.error({"type": "act", "seq": seq, "action": "play the joker"})
    assert bad["code"] == "bad-action" and "pass" in bad["legal"]
    bad = actor.error({"type": "act", "seq": seq, "action": "bid 2"})
    assert bad["code"] == "illegal" and "legal now" in bad["message"]
    assert actor.error("{not json")["code"] == "bad-json"
    assert actor.error({"type": "dance"})["code"] == "bad-message"
    assert actor.error({"type": "act", "seq": "x", "action": "pass"})["code"] == "bad-message"
    assert actor.error("x" * 5000)["code"] == "too-large"
    assert actor.error({"type": "hello", "room": "NOPE42"})["code"] == "unknown-room"
    assert actor.error({"type": "start"})["code"] == "not-host"
    spectator = srv.player(room["code"])
    assert spectator.error({"type": "act", "seq": seq, "action": "pass"})["code"] == "not-seated"
    assert srv.player(room["code"]).error({"type": "hello", "room": room["code"], "token": "A" * 32})["code"] \
        == "bad-token"
    # Nothing changed, and the same connection still plays.
    assert actor.state["seq"] == seq
    actor.act("pass")
    actor.until(lambda m: m["type"] == "state" and m["seq"] == seq + 1)
    # A double click: the same message twice plays once.
    nxt = next(p for p in players if p.seat == actor.state["deal"]["to_act"])
    nxt.drain(0.1)
    message = {"type": "act", "seq": nxt.state["seq"], "action": "pass"}
    nxt.send(message)
    assert nxt.error(message)["code"] == "stale"


def test_a_flood_is_rate_limited_and_the_connection_survives(srv):
    room = srv.create()
    p = srv.player(room["code"])
    for _ in range(80):
        p.send({"type": "chat", "text": "hi"})
    got = p.drain(0.5)
    codes = [m.get("code") for m in got if m["type"] == "error"]
    assert "rate-limited" in codes
    time.sleep(2.5)
    p.send({"type": "chat", "text": "still here"})
    line = p.until(lambda m: m["type"] == "chat" and m["text"] == "still here")
    assert line["name"] == "spectator"
