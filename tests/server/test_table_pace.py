"""The pace of a room as the browser table needs it: a finished trick stays on view before a bot leads to the
next (``trick_pause``), the end of a deal waits for the Next of a table's one person (and deals on by its timer
when two or more people sit, or nobody but bots), the state says who has pressed Next, and the replay library
names the listed room each match was played in.

The server deals every room from a seed (``served(seed=...)``) and each person sends a fixed entropy: every run
deals the same cards."""

from __future__ import annotations

import time
from typing import Any

import pytest
from serverkit import Player, Served, play_until, served

import cinch.server.rooms as rooms_module

SEED = 2424


@pytest.fixture
def srv(tmp_path):
    with served(tmp_path / "games.sqlite3", seed=SEED) as s:
        yield s


def one_person(srv: Served, **body: Any) -> tuple[dict[str, Any], Player]:
    """A started room of one person (South) and three bots: the room and South's client."""
    room = srv.create(**body)
    host = srv.player(room["code"], host_token=room["host_token"])
    me = srv.player(room["code"])
    me.join("S", "Ann", entropy="ab" * 16)
    for seat in "NEW":
        host.send({"type": "fill", "seat": seat, "bot": "basic"})
    host.until(lambda m: m["type"] == "state" and all(s["kind"] != "empty" for s in m["room"]["seats"]))
    host.send({"type": "start"})
    me.until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
    host.close()
    return room, me


def between_deals(p: Player) -> bool:
    return bool(p.state and p.state["room"]["status"] == "between-deals")


def test_a_bot_leads_to_a_new_trick_only_after_the_trick_pause(srv):
    room, me = one_person(srv, bot_delay=0.05, trick_pause=0.5, between_deals=60)
    assert me.state["room"]["trick_pause"] == 0.5
    # South plays; the time each state arrives: a bot's lead to a new trick comes a trick pause after the
    # state that finished the trick before it.
    arrived: list[tuple[float, dict[str, Any]]] = []
    deadline = time.monotonic() + 120
    acted = -1
    while not between_deals(me):
        assert time.monotonic() < deadline, "the deal did not end"
        message = me.recv()
        if message["type"] == "state":
            arrived.append((time.monotonic(), message))
            if me.my_turn() and acted != message["seq"]:
                acted = message["seq"]
                me.act()
    leads = []  # (seconds since the trick was finished, seconds since the state before) for each bot's lead
    for (t0, before), (t1, after) in zip(arrived, arrived[1:], strict=False):
        d0, d1 = before["deal"], after["deal"]
        if d0 and d1 and d0["phase"] == "play" and not d0["trick"]["plays"] and d0["tricks"] \
                and len(d1["trick"]["plays"]) == 1 and d1["trick"]["leader"] != "S":
            leads.append(t1 - t0)
    assert leads, "no bot led to a trick after another was won"
    assert min(leads) >= 0.45, leads  # (the wall clock of the test thread: a little slack)


def test_bots_that_act_at_once_keep_no_trick_pause():
    from cinch.rules import Rules
    from cinch.view import Phase

    settings = rooms_module.Settings(Rules.preset("pagat"), bot_delay=0, trick_pause=5)

    class Lead:  # a view at the lead to trick 2
        phase, current_trick, tricks = Phase.PLAY, (), ("trick 1",)

    assert settings.pause_before(Lead()) == 0  # type: ignore[arg-type]
    settings.bot_delay = 0.3
    assert settings.pause_before(Lead()) == 5  # type: ignore[arg-type]
    Lead.current_trick = ("a card",)  # type: ignore[assignment]
    assert settings.pause_before(Lead()) == 0.3  # type: ignore[arg-type]


def test_the_end_of_a_deal_waits_for_the_one_persons_next(srv):
    room, me = one_person(srv, bot_delay=0, between_deals=0.3)
    play_until([me], lambda: between_deals(me), timeout=120)
    assert me.state["room"]["ready"] == []
    me.drain(1.5)  # five times the timer: a table of one person is not dealt on by it
    assert between_deals(me), "the next deal came without the person's Next"
    me.send({"type": "ready"})
    state = me.until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
    assert state["match"]["deals"] == 2


def test_with_two_people_the_timer_deals_on_and_the_state_says_who_is_ready(srv):
    room = srv.create(bot_delay=0, between_deals=1.0)
    host = srv.player(room["code"], host_token=room["host_token"])
    ann, bo = srv.player(room["code"]), srv.player(room["code"])
    ann.join("S", "Ann", entropy="ab" * 16)
    bo.join("N", "Bo", entropy="cd" * 16)
    for seat in "EW":
        host.send({"type": "fill", "seat": seat, "bot": "basic"})
    host.until(lambda m: m["type"] == "state" and all(s["kind"] != "empty" for s in m["room"]["seats"]))
    host.send({"type": "start"})
    host.close()
    play_until([ann, bo], lambda: between_deals(ann) and between_deals(bo), timeout=120)
    ann.send({"type": "ready"})
    state = bo.until(lambda m: m["type"] == "state" and m["room"]["ready"] == ["S"])
    assert state["room"]["status"] == "between-deals"  # Bo has not pressed Next
    # Bo never presses it: the room's timer deals on.
    state = bo.until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing", timeout=10)
    assert state["match"]["deals"] == 2 and state["room"]["ready"] == []


def test_a_second_person_taking_a_seat_between_deals_starts_the_timer(srv):
    room, me = one_person(srv, bot_delay=0, between_deals=0.5)
    play_until([me], lambda: between_deals(me), timeout=120)
    me.drain(1.0)
    assert between_deals(me)
    newcomer = srv.player(room["code"])
    newcomer.join("N", "Bo", entropy="cd" * 16, take=True)  # two people now: the timer applies
    state = me.until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing", timeout=10)
    assert state["match"]["deals"] == 2


def test_a_room_of_bots_alone_deals_on_by_its_timer(srv):
    room = srv.create(bot_delay=0, between_deals=0.2)
    host = srv.player(room["code"], host_token=room["host_token"])
    for seat in "NESW":
        host.send({"type": "fill", "seat": seat, "bot": "basic"})
    host.until(lambda m: m["type"] == "state" and all(s["kind"] == "bot" for s in m["room"]["seats"]))
    host.send({"type": "start"})
    host.until(lambda m: m["type"] == "state" and m["match"] is not None and m["match"]["deals"] >= 2, timeout=60)


def test_the_trick_pause_is_checked_when_a_room_is_created(srv):
    bad = srv.http.post("/api/rooms", json={"trick_pause": 11})
    assert bad.status_code == 400 and "trick_pause must be a number of seconds from 0 to 10" in bad.json()["message"]
    made = srv.create(trick_pause=2)
    assert made["room"]["trick_pause"] == 2.0


def test_the_library_names_a_listed_room_and_keeps_a_private_rooms_code(srv):
    listed, me = one_person(srv, bot_delay=0, between_deals=0)
    private, other = one_person(srv, bot_delay=0, between_deals=0, listed=False)
    play_until([me, other], lambda: me.state["match"]["deals"] >= 2 and other.state["match"]["deals"] >= 2,
               timeout=120)
    rooms = {m["id"]: m["room"] for m in srv.http.get("/api/library").json()["matches"]}
    assert rooms[me.state["room"]["match_id"]] == listed["code"]
    assert rooms[other.state["room"]["match_id"]] is None
