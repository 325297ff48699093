"""A test's server deals from a seed (``served(seed=...)``, ``create_app(seed=...)``): the same room played the
same way deals the same cards every run, whatever other rooms do, so that no test depends on the luck of the
deal.  And ``stock_seen`` is what docs/protocol.md says it is, on such a seeded deal."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from serverkit import Player, Served, served

DOCS = Path(__file__).resolve().parents[2] / "docs"
SEED = 2030  # (a room started with one person at S and three bots: S deals the first deal, and robs)
ENTROPY = {"N": "11" * 16, "E": "22" * 16, "S": "33" * 16, "W": "44" * 16}


def first_deal(srv: Served) -> dict[str, Any]:
    """A room of four people (fixed entropy), started: what each seat is dealt, and the deal's commitment."""
    room = srv.create(bot_delay=0)
    host = srv.player(room["code"], host_token=room["host_token"])
    players = []
    for seat in "NESW":
        p = srv.player(room["code"])
        p.join(seat, f"P{seat}", entropy=ENTROPY[seat])
        players.append(p)
    host.send({"type": "start"})
    dealt: dict[str, Any] = {}
    for p in players:
        state = p.until(lambda m: m["type"] == "state" and m["deal"] is not None)
        dealt[p.seat or ""] = state["deal"]["hand"]
        dealt["dealer"], dealt["commitment"] = state["deal"]["dealer"], state["deal"]["commitment"]
        p.close()
    host.close()
    return dealt


def test_a_seeded_server_deals_the_same_cards_every_run(tmp_path):
    runs = []
    for run, seed in enumerate((SEED, SEED, SEED + 1, None)):
        with served(tmp_path / f"run{run}.sqlite3", seed=seed) as srv:
            if run == 1:
                first_deal(srv)  # (another room played first on this server changes nothing in the next)
            runs.append(first_deal(srv))
    assert runs[0] == runs[1]
    assert runs[2]["commitment"] != runs[0]["commitment"]  # another seed, another deck
    assert runs[3]["commitment"] != runs[0]["commitment"]  # no seed: fresh secrets


def test_stock_seen_is_the_stock_the_dealer_saw_less_his_hand(tmp_path):
    with served(tmp_path / "games.sqlite3", seed=SEED, bot_delay=0, between_deals=60) as srv:
        room = srv.create(target=200)
        host = srv.player(room["code"], host_token=room["host_token"])
        for seat in "NEW":
            host.send({"type": "fill", "seat": seat, "bot": "heuristic"})
        south = srv.player(room["code"])
        south.join("S", "Sue", entropy=ENTROPY["S"])
        host.send({"type": "start"})
        states = play_the_first_deal(south)
        host.close()
    rob = next(s["deal"] for s in states if s["deal"]["keep"] and s["deal"]["phase"] == "rob")
    stock = set(rob["keep"]["pool"]) - set(rob["hand"])
    assert set(rob["stock_seen"]) == stock  # choosing, the dealer sees the whole stock
    kept = set(rob["keep"]["suggestion"].split()[1:]) & stock
    after = next(s["deal"] for s in states if s["deal"]["phase"] == "play")  # (the first trick: S plays last)
    assert kept and set(after["stock_seen"]) == stock - kept  # kept: the ones he left
    last = states[-1]["deal"]
    assert set(last["stock_seen"]) == stock  # and each one he kept again once he has played it
    words = next(line for line in (DOCS / "protocol.md").read_text().splitlines() if line.startswith("| `stock_seen`"))
    assert "less those in his hand" in words and "the ones he left" in words


def play_the_first_deal(south: Player) -> list[dict[str, Any]]:
    """South acts as a quick client does (the first legal action, the suggested keep) until the first deal is
    over: every state it got."""
    states: list[dict[str, Any]] = []
    acted = -1
    deadline = time.monotonic() + 60
    while not (states and states[-1]["deal"]["phase"] == "done"):
        assert time.monotonic() < deadline, "the first deal did not end"
        message = south.recv()
        if message["type"] != "state" or message["deal"] is None:
            continue
        states.append(message)
        if south.my_turn() and acted != message["seq"]:
            acted = message["seq"]
            south.act()
    return states
