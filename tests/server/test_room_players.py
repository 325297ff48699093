"""Rooms take players as they are, over real websockets (SQLite and PostgreSQL): a guest's or an account's session
in the handshake sits under the player's own name, an account's seat links its profile, a guest's is marked as
one, anyone else sits under the name typed; the matches join the players' games; a finished match is rated,
once, even when a restarted server reports it again; deleting an account renames its seat at once in the room,
in its stored state and in the match's record, and the room never writes the name back (in a cluster, from
another process too)."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from playerkit import Browser, Site, browser_headers, site_over
from serverkit import WAIT, Player, cluster_server, play_until

from cinch.library import FORMER_PLAYER
from cinch.server.app import Connection
from cinch.server.players import Player as Known
from cinch.server.ratings import MINIMUM_GAMES, Ratings

PASSWORD = "correct horse battery"
NAME = "Annabel"  # (a name found nowhere else in what the server keeps, to look for)
FAST = {"bot_delay": 0, "between_deals": 0}
SHORT = {"rules": {"preset": "pagat", "bidder_goes_out": None}, "target": 11}  # a match of a few deals


@pytest.fixture(params=["sqlite", "postgres"])
def site(request, tmp_path):
    url = request.getfixturevalue("database_url") if request.param == "postgres" else None
    with site_over(request.param, tmp_path, url, seed=2026, room_defaults=FAST) as s:
        yield s


class Sitter(Player):
    """A websocket client of the room with a browser's cookies (its player), opened from ``origin``."""

    def __init__(self, site: Site, code: str, browser: Browser | None = None, origin: str | None = None,
                 **hello: Any):
        super().__init__(site.ws, code, headers=browser_headers(origin or site.url, browser), **hello)


def new_room(site: Site, **body: Any) -> dict[str, Any]:
    answer = site.browser().http.post("/api/rooms", json={"rules": "pagat", **body})
    assert answer.status_code == 201, answer.text
    return answer.json()


def seats_of(state: dict[str, Any]) -> dict[str, tuple[Any, ...]]:
    return {s["seat"]: (s["name"], s["kind"], s["player"], s["profile"]) for s in state["room"]["seats"]}


def eventually(check: Any, timeout: float = WAIT) -> Any:
    """What ``check()`` gives once it is truthy (the games and ratings are written in worker threads)."""
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < deadline, "waited too long"
        time.sleep(0.05)


def test_a_seat_shows_the_player_and_an_accounts_seat_links_its_profile(site):
    ann, cy = site.browser(), site.browser()
    ann_id = ann.register(NAME, PASSWORD)["id"]
    cy_id = cy.guest("Cy")["player"]["id"]
    room = new_room(site)
    code = room["code"]
    host = Sitter(site, code, host_token=room["host_token"])
    Sitter(site, code, ann).join("S", "Zorro")  # (a typed name: an account sits under its own)
    Sitter(site, code, cy).join("N", "Whoever")
    Sitter(site, code).join("E", "Dee")  # nobody the server knows: the name typed
    # The same cookie from another site's page is nobody's: that connection sits under what it typed.
    Sitter(site, code, ann, origin="http://evil.example").join("W", "Mallory")
    state = host.until(lambda m: m["type"] == "state" and all(s["kind"] == "human" for s in m["room"]["seats"]))
    assert seats_of(state) == {"N": ("Cy", "human", "guest", None),
                               "E": ("Dee", "human", None, None),
                               "S": (NAME, "human", "account", f"/players/{NAME}"),
                               "W": ("Mallory", "human", None, None)}
    assert ann_id not in json.dumps(state) and cy_id not in json.dumps(state)  # (a player's id is never shown)
    # The lobby says the same (a cluster's from the stored row alone).
    [listed] = site.browser().get("/api/rooms").json()["rooms"]
    assert {s["seat"]: (s["player"], s["profile"]) for s in listed["seats"]}["S"] == ("account", f"/players/{NAME}")
    # The match joins the known players' games (not those who typed a name), seat by seat.
    host.send({"type": "start"})
    started = host.until(lambda m: m["type"] == "state" and m["room"]["match_id"] is not None)
    match_id = started["room"]["match_id"]
    store = site.players.store
    assert eventually(lambda: store.player_games(ann_id)) == [(match_id, "S")]
    assert eventually(lambda: store.player_games(cy_id)) == [(match_id, "N")]
    profile = site.browser().get(f"/api/players/{NAME}").json()
    assert profile["games"]["played"] == 1 and profile["games"]["recent"][0]["seat"] == "S"


def test_the_same_player_is_refused_a_second_seat(site):
    ann = site.browser()
    ann.register(NAME, PASSWORD)
    room = new_room(site)
    Sitter(site, room["code"], ann).join("S", NAME)
    again = Sitter(site, room["code"], ann)
    refused = again.error({"type": "join", "seat": "N", "name": "Other"})
    assert refused["code"] == "already-seated" and f"{NAME} already sits at S" in refused["message"]


def ann_at_a_match(site: Site) -> tuple[Browser, str, str, Sitter, Sitter]:
    """Ann, an account, sits South in a new room whose host fills the other seats with bots and starts the match:
    her browser, her id, the room's code, the host's connection and hers."""
    ann = site.browser()
    ann_id = ann.register(NAME, PASSWORD)["id"]
    room = new_room(site, **SHORT)
    code = room["code"]
    host = Sitter(site, code, host_token=room["host_token"])
    me = Sitter(site, code, ann)
    me.join("S", NAME)
    for seat in "NEW":
        host.send({"type": "fill", "seat": seat, "bot": "basic"})
    host.send({"type": "start"})
    return ann, ann_id, code, host, me


def test_a_finished_match_is_rated_once_even_when_a_restarted_server_reports_it_again(tmp_path):
    def serve() -> Any:
        return site_over("sqlite", tmp_path, seed=2026, room_defaults=FAST)

    with serve() as site:
        ann, ann_id, code, host, me = ann_at_a_match(site)
        play_until([me], lambda: bool(me.state and me.state["match"] and me.state["match"]["winner"]), timeout=300)
        match_id = me.state["room"]["match_id"]
        won = me.state["match"]["winner"] == "NS"
        ratings = Ratings(site.players.store)
        [family] = eventually(lambda: ratings.of_player(ann_id))
        assert (family["family"], family["games"], [h["match"] for h in family["history"]]) == ("pagat", 1,
                                                                                                [match_id])
        assert (family["history"][0]["place"] == 1) is won and (family["rating"] > 0) is won
        shown = site.browser().get(f"/api/players/{NAME}").json()["ratings"]
        assert shown["minimum"] == MINIMUM_GAMES and shown["families"][0]["history"][0]["replay"].endswith(
            f"game={match_id}")
        # One game is short of the leaderboard's minimum: not listed yet.
        board = site.browser().get("/api/ratings?family=pagat").json()
        assert board["players"] == [] and board["minimum"] == MINIMUM_GAMES
        assert site.browser().get("/api/ratings?family=pinochle").json()["code"] == "no-family"
    with serve() as site:  # the room comes back over; its finished match is reported again, and not rated twice
        again = Sitter(site, code)
        assert seats_of(again.until(lambda m: m["type"] == "state"))["S"] == (NAME, "human", "account",
                                                                              f"/players/{NAME}")
        ratings = Ratings(site.players.store)
        time.sleep(0.5)
        assert [f["games"] for f in ratings.of_player(ann_id)] == [1]
        assert site.players.store._player_rows("SELECT count(*) FROM rated_games")[0][0] == 1


def test_deleting_an_account_renames_its_seat_at_once_and_for_good(site):
    ann, ann_id, code, host, me = ann_at_a_match(site)
    host.until(lambda m: m["type"] == "state" and m["room"]["status"] == "playing")
    eventually(lambda: site.players.store.player_games(ann_id))
    assert NAME in site.rows()
    assert ann.change("DELETE", "/api/players/me", {"password": PASSWORD}).status_code == 200
    renamed = host.until(lambda m: m["type"] == "state" and m["room"]["seats"][2]["name"] == FORMER_PLAYER)
    assert seats_of(renamed)["S"] == (FORMER_PLAYER, "human", None, None)
    assert NAME not in site.rows()
    # The game goes on (the person still plays the seat, under no name) and nothing writes the name back.
    play_until([me], lambda: bool(me.state["match"] and me.state["match"]["winner"]), timeout=300)
    assert NAME not in site.rows()
    assert NAME not in site.browser().get(f"/rooms/{code}/record").text
    assert NAME not in site.browser().get(f"/api/rooms/{code}").text


def test_a_cluster_process_renames_a_seat_another_process_holds(database_url):
    """Two processes, no Redis (the test says when one hears of the other): A holds the room where the player
    sits; B, where the player deletes the account, renames the seat through the room's own change; A takes it
    from the database and never writes the name back."""
    a, b = (cluster_server(database_url, name, lease=30.0, seed=2026) for name in "AB")
    try:
        made = a.create({"rules": "pagat"})
        code = made["code"]
        conn = Connection()
        conn.sent = []
        conn.player = Known("id-ann", "account", NAME, 0.0)
        a.handle(conn, json.dumps({"type": "hello", "room": code}))
        a.handle(conn, json.dumps({"type": "join", "seat": "S", "name": "typed", "entropy": ""}))
        assert a.rooms[code].places[a.rooms[code].seating.seats[2]].name == NAME
        b.forget_player("id-ann")
        a.refresh(a.rooms[code])  # (what Redis would have told A)
        seat = [s for s in conn.sent if s["type"] == "state"][-1]["room"]["seats"][2]
        assert (seat["name"], seat["player"], seat["profile"]) == (FORMER_PLAYER, None, None)
        a.handle(conn, json.dumps({"type": "chat", "text": "still here"}))
        host = Connection()
        host.sent = []
        a.handle(host, json.dumps({"type": "hello", "room": code, "host_token": made["host_token"]}))
        a.handle(host, json.dumps({"type": "fill", "seat": "N", "bot": "basic"}))  # (a change of A's, saved)
        stored = a.store.library._execute("SELECT data FROM rooms WHERE code = %s", (code,)).fetchone()[0]
        assert NAME not in stored and FORMER_PLAYER in stored
    finally:
        for s in (a, b):
            s.close()
            s.store.library.close()
