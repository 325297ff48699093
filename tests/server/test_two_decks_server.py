"""Two-deck Cinch (the rules' ``decks=2``) at ``cinch serve``: a room of 104 cards, hands of 18 with cards held
twice, played to the end with bots, watched, rejoined, saved, replayed and its shuffles checked."""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

import pytest
from serverkit import Player, Secrets, served

import cinch.server.rooms as rooms_module
import cinch.shuffle as shuffle_module
from cinch.record import loads, replay
from cinch.shuffle import Shuffle

TWO_DECKS = {"preset": "pagat", "decks": 2, "bidder_goes_out": None}
FAST = {"bot_delay": 0, "between_deals": 0, "grace": 60}
CARD_NAMES = [r + s for s in "SHDC" for r in "AKQJT98765432"]


@pytest.fixture
def seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same room code, first dealer and shuffles every run: a failure can be replayed."""
    secrets = Secrets(2031)
    monkeypatch.setattr(rooms_module, "secrets", secrets)
    monkeypatch.setattr(shuffle_module, "secrets", secrets)


def deals_of(player: Player) -> list[dict[str, Any]]:
    return [m["deal"] for m in player.messages if m["type"] == "state" and m["deal"]]


def play(me: Player, until: Any, timeout: float = 120.0, others: tuple[Player, ...] = ()) -> None:
    """``me`` takes the suggested keep or the first legal action on its turn until ``until()`` (asked of each
    state ``me`` has not acted on yet)."""
    deadline = time.monotonic() + timeout
    acted = -1
    while True:
        assert time.monotonic() < deadline, f"waited {timeout} s; the last state: {me.state}"
        for p in others:  # (read, so that the server never waits on a full socket)
            p.drain(0.001)
        me.drain(0.005)
        fresh = me.state is not None and me.state["seq"] != acted
        if fresh and until():
            return
        if fresh and me.my_turn():
            acted = me.state["seq"]  # type: ignore[index]
            me.act()


def test_a_two_deck_room_plays_a_match_to_the_end_with_bots_a_spectator_and_a_rejoin(tmp_path, seeded):
    with served(tmp_path / "g.sqlite3") as app:
        made = app.create(rules=TWO_DECKS, target=30, **FAST)
        assert made["room"]["rules"]["decks"] == 2 and made["room"]["rules_name"] == "pagat+"
        code = made["code"]
        host = app.player(code, host_token=made["host_token"])
        me = app.player(code)
        token = me.join("S", "Ann", "ab12")
        for seat in "NEW":
            host.send({"type": "fill", "seat": seat, "bot": "basic"})
        host.until(lambda m: m["type"] == "state" and all(s["kind"] != "empty" for s in m["room"]["seats"]))
        watcher = app.player(code)
        host.send({"type": "start"})
        me.until(lambda m: m["type"] == "state" and m["deal"] is not None and "hand" in m["deal"])
        dealt = me.state["deal"]  # type: ignore[index]
        assert dealt["decks"] == 2 and dealt["hand_sizes"] == {s: 18 for s in "NESW"} and len(dealt["hand"]) == 18
        assert len(dealt["commitment"]) == 64

        # A card the seat does not hold, either copy, is refused in words; so is a card kept three times.
        play(me, lambda: me.my_turn() and me.state["deal"]["phase"] == "play", others=(host, watcher))
        held = Counter(me.state["deal"]["hand"])
        missing = next(c for c in CARD_NAMES if c not in held)
        error = me.error({"type": "act", "seq": me.state["seq"], "action": f"play {missing}"})
        assert error["code"] == "illegal" and error["message"].startswith(f"play {missing} is not allowed: ")
        assert "\n" not in error["message"] and error["legal"]
        thrice = me.error({"type": "act", "seq": me.state["seq"], "action": "keep AH AH AH"})
        assert thrice["code"] in ("illegal", "bad-action") and "\n" not in thrice["message"]

        # A card held twice is played by its name: one copy goes, the other stays in the hand.
        play(me, lambda: me.my_turn() and me.state["deal"]["phase"] == "play"
             and any(n == 2 and f"play {c}" in me.state["deal"]["legal"]
                     for c, n in Counter(me.state["deal"]["hand"]).items()),
             others=(host, watcher))
        twice = next(c for c, n in Counter(me.state["deal"]["hand"]).items()
                     if n == 2 and f"play {c}" in me.state["deal"]["legal"])
        before = len(me.state["deal"]["hand"])
        me.act(f"play {twice}")
        me.until(lambda m: m["type"] == "state" and len(m["deal"]["hand"]) == before - 1)
        assert Counter(me.state["deal"]["hand"])[twice] == 1

        # The person drops and comes back with the seat's token: the same seat and hand.
        me.drain(0.2)
        hand = me.state["deal"]["hand"]
        me.close()
        me = app.player(code, token=token)
        assert me.seat == "S"
        back = me.until(lambda m: m["type"] == "state")
        assert back["deal"]["hand"] == hand  # (nobody plays for a person within the grace)

        play(me, lambda: me.state["match"]["winner"] is not None, timeout=240, others=(host, watcher))
        final = me.state
        assert final["room"]["status"] == "over" and final["match"]["deals"] >= 2

        # The spectator was never told a hand; it saw the match end the same.
        watcher.drain(0.3)
        assert all("hand" not in d and "legal" not in d for d in deals_of(watcher))
        assert watcher.state["match"]["score"] == final["match"]["score"]

        # Every deal's shuffle is revealed at its end: 104 cards, each named twice, as committed.
        reveals = {d["number"]: d for d in deals_of(me) if "reveal" in d}
        assert set(reveals) == set(range(1, final["match"]["deals"] + 1))
        for number, deal in reveals.items():
            reveal = deal["reveal"]
            assert set(Counter(reveal["deck"].split()).values()) == {2}
            shuffle = Shuffle.from_json({k: reveal[k] for k in ("commitment", "salt", "entropy")}, number, decks=2)
            shuffle.verify(reveal["deck"])
            assert reveal["entropy"]["S"] == "ab12"

        # The saved record replays to the same score, every shuffle checked, and the replay page shows it.
        record = loads(app.http.get(f"/rooms/{code}/record").text)
        assert record["rules"]["decks"] == 2 and all("shuffle" in d for d in record["deals"])
        assert replay(record).match.winner is not None
        listed = app.http.get("/api/library").json()["matches"][0]
        assert listed["status"] == "finished" and listed["score"] == final["match"]["score"]
        frames = app.http.get(f"/api/library/{listed['id']}/replay").json()
        first = frames["deals"][0]["frames"][0]
        assert {len(h) for h in first["hands"].values()} == {18}
        # (no par: twelve tricks of two packs are past the solver, and the page says so at once)
        assert frames["deals"][0]["par"]["text"] == "No par: the solver does not search two-deck deals (twelve tricks)."
        for p in (host, me, watcher):
            p.close()


def test_a_two_deck_room_comes_back_after_a_restart_mid_deal(tmp_path, seeded):
    db = tmp_path / "g.sqlite3"
    with served(db) as app:
        made = app.create(rules=TWO_DECKS, **FAST)
        assert made["room"]["target"] == 124  # the preset's 62, doubled with the packs
        host = app.player(made["code"], host_token=made["host_token"])
        me = app.player(made["code"])
        token = me.join("S", "Ann", "cd34")
        for seat in "NEW":
            host.send({"type": "fill", "seat": seat, "bot": "basic"})
        host.send({"type": "start"})
        play(me, lambda: me.state["deal"] is not None and me.state["deal"]["phase"] == "play"
             and len(me.state["deal"]["tricks"]) >= 2, others=(host,))
        me.drain(0.3)
        seen = me.state
        host.close()
        me.close()
    with served(db) as again:  # a new server process on the same library: the two-deck deal as it was
        back = again.player(made["code"], token=token)
        state = back.until(lambda m: m["type"] == "state")
        assert state["deal"]["decks"] == 2 and state["deal"]["commitment"] == seen["deal"]["commitment"]
        assert state["deal"]["tricks"][:2] == seen["deal"]["tricks"][:2]
        assert Counter(state["deal"]["hand"]) <= Counter(seen["deal"]["hand"])
        back.close()
