"""Rooms at every table size: 2, 3, 5 and 6 players each for himself (seats ``1`` to ``n``), Heasly (six),
and four in partnerships as before; over the real websocket, with bots in the empty seats."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import pytest
from serverkit import Player, served

from cinch.cards import CardSet
from cinch.library import Library
from cinch.record import to_record
from cinch.rules import Rules
from cinch.server.app import Connection
from cinch.server.replays import frames
from cinch.server.rooms import Room, Settings, token_hash
from cinch.shuffle import Shuffle

FAST = {"bot_delay": 0, "between_deals": 60, "grace": 60}
HOST = "h" * 32
SEED = 2026  # every room deals from it: the same deals every run


def words_in(message: Any) -> set[str]:
    """Every string in a message, split at spaces (a card is one of them wherever it is written)."""
    if isinstance(message, dict):
        return set().union(*(words_in(v) for v in message.values())) if message else set()
    if isinstance(message, list):
        return set().union(*(words_in(v) for v in message)) if message else set()
    return set(message.split()) if isinstance(message, str) else set()


def seat_names(state: dict[str, Any]) -> list[str]:
    return [s["seat"] for s in state["room"]["seats"]]


def play_first_deal(served_app: Any, options: dict[str, Any], seat: str) -> tuple[Player, Player, dict[str, Any]]:
    """A room of ``options`` with one person in ``seat``, the host's bots in every other seat, and a
    spectator; the person plays the first deal to its end.  (The person, the spectator, the room made.)"""
    made = served_app.create(options=options, **FAST)
    host = served_app.player(made["code"], host_token=made["host_token"])
    me = served_app.player(made["code"])
    me.join(seat, "Ann", "ab12")
    for other in seat_names(me.state):
        if other != seat:
            host.send({"type": "fill", "seat": other, "bot": "basic"})
    host.until(lambda m: m["type"] == "state" and all(s["kind"] != "empty" for s in m["room"]["seats"]))
    watcher = served_app.player(made["code"])
    host.send({"type": "start"})
    deadline = time.monotonic() + 60
    acted = -1
    while True:
        assert time.monotonic() < deadline, "the deal did not end in time"
        for p in (host, watcher):  # (read, so that the server never waits on a full socket)
            p.drain(0.001)
        me.drain(0.005)
        state = me.state
        if state["match"] and state["match"]["last_deal"]:
            break
        if me.my_turn() and acted != state["seq"]:
            acted = state["seq"]
            me.act()
    host.close()
    return me, watcher, made


def test_a_three_player_room_plays_a_deal_with_bots_each_for_himself(tmp_path):
    with served(tmp_path / "g.sqlite3", seed=SEED) as app:
        me, watcher, made = play_first_deal(app, {"players": 3}, "2")
        state = me.state
        room = state["room"]
        assert (room["players"], room["partnership"], room["sides"]) == (3, False, ["1", "2", "3"])
        assert seat_names(state) == ["1", "2", "3"] and state["you"] == {"seat": "2"}
        assert set(state["clocks"]) == {"1", "2", "3"}
        deal = state["deal"]
        assert set(deal["hand_sizes"]) == {"1", "2", "3"} and deal["phase"] == "done"
        last = state["match"]["last_deal"]
        assert set(state["match"]["score"]) == {"1", "2", "3"} == set(last["score_change"])
        assert any("Score: 1: " in line for line in last["words"])
        # The spectator is told the same deal, by player, and no hand.
        watcher.drain(0.3)
        seen = watcher.state
        assert seen["you"] == {"seat": None} and "hand" not in seen["deal"]
        assert seen["match"]["score"] == state["match"]["score"]
        # The record and the library keep it at three: seats 1 to 3, and it replays with the same score.
        record = app.http.get(f"/rooms/{made['code']}/record").json()
        assert record["rules"]["players"] == 3 and set(record["players"]) == {"1", "2", "3"}
        shown = frames(record, solve=False)
        assert shown["seats"] == ["1", "2", "3"] and shown["score"] == state["match"]["score"]
        me.close()
        watcher.close()


def test_a_heasly_room_seats_six_dealt_six_cards_each(tmp_path):
    with served(tmp_path / "g.sqlite3", seed=SEED) as app:
        made = app.create(rules="official", options={"heasly": True}, **FAST)
        assert made["room"]["players"] == 6 and made["room"]["target"] == 62
        assert [s["seat"] for s in made["room"]["seats"]] == ["1", "2", "3", "4", "5", "6"]
        me, watcher, _ = play_first_deal(app, {"heasly": True}, "5")
        state = me.state
        assert seat_names(state) == ["1", "2", "3", "4", "5", "6"] and state["you"] == {"seat": "5"}
        assert len(state["match"]["score"]) == 6 and state["match"]["target"] == 62
        dealt = next(m for m in me.messages if m["type"] == "state" and m["deal"] and m["deal"]["phase"] == "bidding")
        assert dealt["deal"]["hand_sizes"] == {str(n): 6 for n in range(1, 7)} and len(dealt["deal"]["hand"]) == 6
        me.close()
        watcher.close()


def test_a_seat_the_table_lacks_is_refused_in_words(tmp_path):
    with served(tmp_path / "g.sqlite3", seed=SEED) as app:
        three = app.create(options={"players": "3"}, **FAST)
        host = app.player(three["code"], host_token=three["host_token"])
        guest = app.player(three["code"])
        for message in ({"type": "join", "seat": "5", "name": "Bo"}, {"type": "join", "seat": "N", "name": "Bo"},
                        {"type": "take-seat", "seat": "W", "name": "Bo"}):
            error = guest.error(message)
            assert error["code"] == "no-such-seat"
            assert error["message"] == f"this table has no seat {message['seat']!r}: its seats are 1 2 3"
        assert host.error({"type": "fill", "seat": "4", "bot": "basic"})["code"] == "no-such-seat"
        assert guest.error({"type": "join", "seat": "9", "name": "Bo"})["code"] == "bad-message"  # no table has it
        four = app.create(**FAST)
        other = app.player(four["code"])
        assert other.error({"type": "join", "seat": "1", "name": "Bo"})["message"].endswith("its seats are N E S W")
        guest.join("3", "Bo")  # the table's own seat is taken as before
        assert guest.seat == "3"
        for p in (host, guest, other):
            p.close()


def test_a_cut_throat_room_is_restored_and_its_player_reconnects_with_the_token(tmp_path):
    db = tmp_path / "g.sqlite3"
    with served(db, seed=SEED) as app:
        made = app.create(options={"players": 5}, **FAST)
        host = app.player(made["code"], host_token=made["host_token"])
        me = app.player(made["code"])
        token = me.join("4", "Ann")
        for seat in ("1", "2", "3", "5"):
            host.send({"type": "fill", "seat": seat, "bot": "basic"})
        host.send({"type": "start"})
        me.until(lambda m: m["type"] == "state" and m["deal"] is not None and "hand" in m["deal"])
        hand = me.state["deal"]["hand"]
        host.close()
        me.close()
    with served(db, seed=SEED) as again:  # a new server process on the same library: the room as it was
        back = again.player(made["code"], token=token)
        assert back.seat == "4"
        state = back.until(lambda m: m["type"] == "state")
        assert seat_names(state) == ["1", "2", "3", "4", "5"] and state["room"]["players"] == 5
        assert state["deal"]["number"] == 1 and state["deal"]["hand"][:len(hand)] == hand[:len(state["deal"]["hand"])]
        back.close()


def test_hidden_cards_stay_hidden_at_every_size():
    """Each seat's state holds its own hand and never another's; a spectator's holds none."""

    async def run(players: int) -> None:
        with Library.open(":memory:") as library:
            rules = Rules.preset("pagat").with_options(players=str(players))
            room = Room("SIZES1", Settings(rules, between_deals=0, bot_delay=0), token_hash(HOST), library,
                        chance=random.Random(SEED))
            clients = {}
            for seat in room.seating.names:
                c = Connection()
                c.sent = []
                room.attach(c, None, None)
                room.join(c, seat, f"p{seat}", "")
                clients[seat] = c
            host = Connection()
            host.sent = []
            room.attach(host, None, HOST)
            room.start(host)
            deal = room.table.match.current
            for seat, c in clients.items():
                state = [m for m in c.sent if m["type"] == "state"][-1]
                own = set(state["deal"]["hand"])
                index = room.seating.names.index(seat)
                assert own == {str(card) for card in CardSet(deal.hands[index])}
                others = {str(card) for i, h in enumerate(deal.hands) if i != index for card in CardSet(h)}
                assert not others & words_in(state), f"{seat} is shown another seat's card"
            spectator = [m for m in host.sent if m["type"] == "state"][-1]
            assert "hand" not in spectator["deal"] and "legal" not in spectator["deal"]
            room.close()

    for players in (2, 3, 5, 6):
        asyncio.run(run(players))


@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_a_shuffle_of_any_table_round_trips_and_checks(players):
    entropy = tuple(f"{i:02x}" for i in range(players))
    shuffle = Shuffle.new(entropy, 2)
    written = shuffle.to_json()
    assert list(written["entropy"]) == [str(i + 1) for i in range(players)]
    back = Shuffle.from_json(written, 2)
    assert back == shuffle
    back.verify(shuffle.deck())


def test_the_replay_viewer_shows_a_cut_throat_record_by_player():
    import random

    from cinch.match import Match

    rules = Rules.preset("official").with_options(players="3", target="7")  # (a short match)
    match = Match(rules, players={s: f"p{s}" for s in rules.seating.seats}, rng=5)
    pick = random.Random(5)
    match.play_out(lambda view: view.legal[pick.randrange(len(view.legal))])
    data = frames(to_record(match), solve=False)
    assert data["seats"] == ["1", "2", "3"] and data["partnership"] is False
    first = data["deals"][0]
    assert set(first["frames"][0]["hands"]) == {"1", "2", "3"} and first["sides"] == ["1", "2", "3"]
    assert set(first["frames"][-1]["won"]) == {"1", "2", "3"}
    assert data["score"] == rules.seating.side_json(match.score)
    last = data["deals"][-1]["frames"][-1]["narration"]
    assert "wins the match" in last


def test_the_score_sheet_seats_a_cut_throat_table(tmp_path):
    with served(tmp_path / "g.sqlite3", seed=SEED) as app:
        reply = app.http.post("/api/scoresheets", json={"rules": "official", "options": {"players": "3"}})
        assert reply.status_code == 201
        assert reply.json()["sheet"]["score"] == {"1": 0, "2": 0, "3": 0}


def test_two_processes_share_a_three_player_room_over_postgresql(database_url):
    """A cluster: seats 1 and 2 on two processes, a bot in 3; the room, its presence and its match by player
    (the ``scores`` column of migration 0002) as each process reads them from the database."""
    import json

    from serverkit import cluster_server

    a, b = cluster_server(database_url, "A", lease=30.0), cluster_server(database_url, "B", lease=30.0)

    def send(server: Any, conn: Connection, **message: Any) -> list[dict[str, Any]]:
        assert conn.sent is not None
        conn.sent.clear()
        server.handle(conn, json.dumps(message))
        return list(conn.sent)

    def connect(server: Any, code: str, **hello: Any) -> Connection:
        conn = Connection()
        conn.sent = []
        assert send(server, conn, type="hello", room=code, **hello)[0]["type"] == "welcome"
        return conn

    async def run() -> None:
        made = a.create({"rules": "pagat", "options": {"players": 3}, "grace": 3600, "between_deals": 60,
                         "bot_delay": 0})
        code = made["code"]
        host = connect(a, code, host_token=made["host_token"])
        one, two = connect(a, code), connect(b, code)
        assert send(a, one, type="join", seat="1", name="Ann")[0]["type"] == "seated"
        assert send(b, two, type="join", seat="2", name="Bo")[0]["type"] == "seated"
        assert send(b, two, type="join", seat="N", name="Bo")[0]["code"] == "no-such-seat"
        send(a, host, type="fill", seat="3", bot="basic")
        assert send(a, host, type="start")[-1]["room"]["status"] == "playing"
        people = {"1": (a, one), "2": (b, two)}
        for _ in range(400):
            room = a.rooms[code]
            if room.table.match.summaries:
                break
            await asyncio.sleep(0.01)  # (the bot plays on A, which drives the room)
            to_act = room.table.to_act
            if to_act is None or to_act.name not in people or room.status != "playing":
                continue
            server, conn = people[to_act.name]
            server.refresh(server.rooms[code])
            table = server.rooms[code].table
            legal = table.view(to_act).legal
            choice = str(table.suggestion(to_act) if len(legal) > 1 else legal[0])
            send(server, conn, type="act", seq=server.rooms[code].seq, action=choice)
            a.refresh(a.rooms[code])
        room = a.rooms[code]
        assert room.table.match.summaries, "the deal did not end"
        b.refresh(b.rooms[code])
        state = [m for m in two.sent if m["type"] == "state"][-1]
        assert [s["seat"] for s in state["room"]["seats"]] == ["1", "2", "3"] and set(state["match"]["score"]) == {
            "1", "2", "3"}
        stored = b.library.get(room.match_id)
        assert stored.score == room.table.match.score and len(stored.score) == 3
        assert set(stored.players) == set(room.seating.seats)
        listed = b.stored_info(b.library.find_room(code, 3600, 3600))
        assert listed is not None and [s["seat"] for s in listed["seats"]] == ["1", "2", "3"]
        a.close()
        b.close()

    try:
        asyncio.run(run())
    finally:
        for s in (a, b):
            s.close()
            s.store.library.close()
