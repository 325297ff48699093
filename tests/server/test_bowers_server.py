"""All-hands Pedro (the ``bowers`` option) at the browser table, in the replay viewer and on the puzzle page:
what the server sends so that the pages star the left bower as a trump, not the other five.

The pages draw trumps themselves (``static/cards.js``, ``setBowers``); they learn the option from the
state's ``deal.bowers`` (the table), the frames' ``rules.bowers`` (the replay) and the question's
``bowers`` (a puzzle).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import warnings
from pathlib import Path
from typing import Any

from cinch.cards import Card, Seat, Suit
from cinch.library import Library
from cinch.rules import Rules
from cinch.server.app import Connection, create_app
from cinch.server.puzzles import question_json
from cinch.server.replays import frames
from cinch.server.rooms import Room, Settings, token_hash
from cinch.study.puzzles import load_puzzles
from cinch.view import Phase

with warnings.catch_warnings():  # (Starlette would rather have httpx2, which is not a dependency here)
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

RECORDS = Path(__file__).parent.parent / "records"
BOWERS = {"preset": "pagat", "bowers": True}
HOST = "h" * 32


# ---- the table: the state of a bowers room -------------------------------------------------------------
def play_to_trumps(client: TestClient, rules: Any) -> dict[str, Any]:
    """A room of ``rules``, S a person and the others bots, played (S taking the first choice) until trumps are
    named: the last state S got."""
    room = client.post("/api/rooms", json={"rules": rules, "bot_delay": 0}).json()
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "room": room["code"], "host_token": room["host_token"]})
        for seat in "NEW":
            ws.send_json({"type": "fill", "seat": seat, "bot": "basic"})
        ws.send_json({"type": "join", "seat": "S", "name": "you", "entropy": "ab" * 8})
        ws.send_json({"type": "start"})
        for _ in range(500):
            message = ws.receive_json()
            if message["type"] == "error":
                raise AssertionError(message)
            deal = message.get("deal") if message["type"] == "state" else None
            if not deal or message["room"]["status"] != "playing":
                continue
            if deal["trump"] is not None:
                return message
            if deal["to_act"] == "S" and (deal.get("legal") or deal.get("keep")):
                choice = deal["keep"]["suggestion"] if deal.get("keep") else deal["legal"][0]
                ws.send_json({"type": "act", "seq": message["seq"], "action": choice})
    raise AssertionError("trumps were not named")


def test_a_bowers_rooms_state_tells_the_page_to_draw_the_bowers(tmp_path):
    with TestClient(create_app(tmp_path / "games.sqlite3", room_defaults={"between_deals": 0})) as client:
        state = play_to_trumps(client, BOWERS)
        deal = state["deal"]
        assert deal["bowers"] is True and deal["trump"] in "SHDC"
        assert state["room"]["rules"] == BOWERS  # (the lobby's words: the rules as a record writes them)
        plain = play_to_trumps(client, "pagat")["deal"]
        assert plain["bowers"] is False


# ---- the table: a hint in words ---------------------------------------------------------------------------
class LeftBowerHints:
    """A thinker whose hint is the left bower when it may be played, else the first legal action."""

    async def think(self, bot: str, seed: int, view: Any) -> tuple[Any, Exception | None]:
        return view.legal[0], None

    async def hint(self, bot: str, view: Any) -> tuple[str, str, str]:
        left = [a for a in view.legal if getattr(a, "card", None) == left_bower(view.trump)]
        return str((left or view.legal)[0]), "", ""


def left_bower(trump: Suit | None) -> Card | None:
    return None if trump is None else Card.of("J", trump.partner)


def test_a_hint_names_the_left_bower_as_a_trump(tmp_path):
    async def run() -> dict[str, Any]:
        with Library.open(tmp_path / "g.sqlite3") as library:
            rules = Rules.preset("pagat").with_options(bowers=True)
            room = Room("ROOM42", Settings(rules, between_deals=0, bot_delay=0), token_hash(HOST), library,
                        chance=random.Random(2026))  # (the same deals every run: the chance comes when it came)
            room.thinker = LeftBowerHints()
            host = Connection()
            host.sent = []
            room.attach(host, None, HOST)
            seats = {}
            for name in "NESW":
                c = Connection()
                c.sent = []
                room.attach(c, None, None)
                room.join(c, name, f"player {name}", "ab" * 4)
                seats[name] = c
            room.start(host)
            for _ in range(2000):  # deal after deal, the first legal action each time, until the chance comes
                await asyncio.sleep(0)
                seat = room.table.to_act
                if seat is None:
                    continue
                view = room.table.view(seat)
                if view.phase is Phase.PLAY and any(getattr(a, "card", None) == left_bower(view.trump)
                                                    for a in view.legal):
                    room.hint(seats[seat.name])
                    for _ in range(5):
                        await asyncio.sleep(0)
                    room.close()
                    hints = [m for m in seats[seat.name].sent if m["type"] == "hint"]
                    return {"hint": hints[-1], "card": left_bower(view.trump)}
                room.act(seats[seat.name], room.seq, str(view.legal[0]))
            room.close()
            raise AssertionError("no seat could play the left bower")

    got = asyncio.run(run())
    card = got["card"]
    assert got["hint"]["action"] == f"play {card}"
    assert got["hint"]["words"] == f"play {card.symbol}*"  # starred: a trump, not a plain Jack


# ---- the replay viewer --------------------------------------------------------------------------------------
def bowers_frames() -> dict[str, Any]:
    record = json.loads((RECORDS / "official-bowers.json").read_text(encoding="utf-8"))
    return frames(record, solve=False)


def test_the_replay_tells_the_viewer_the_option_and_sorts_and_stars_the_bowers():
    data = bowers_frames()
    assert data["rules"]["bowers"] is True
    shown = data["deals"][0]["frames"]
    named = shown[5]  # after "trump H"
    assert named["trump"] == "H"
    # S holds the left bower, the king and the right Pedro: trumps, the bower on top; the spades after them.
    assert named["hands"]["S"][:4] == ["JD", "KH", "5H", "QS"]
    # E's right bower on top; the other five (W's) sorts with the diamonds.
    assert named["hands"]["E"][0] == "JH"
    words = {f["action"]["text"]: f["action"]["words"] for f in shown[1:]}
    assert words["play JD"] == "play J♦*" and words["play 5D"] == "play 5♦"
    assert words["play JH"] == "play J♥*" and words["play JS"] == "play J♠"


def test_the_replay_of_a_plain_game_says_no_bowers():
    record = json.loads((RECORDS / "official-match.json").read_text(encoding="utf-8"))
    assert frames(record, solve=False)["rules"]["bowers"] is False


# ---- the puzzle page ---------------------------------------------------------------------------------------
def test_a_puzzle_question_says_whether_the_bowers_are_on():
    puzzle = load_puzzles()[0]
    assert question_json(puzzle)["bowers"] is False
    rules = puzzle.view.rules.with_options(bowers=True)
    bowers = dataclasses.replace(puzzle, view=dataclasses.replace(puzzle.view, rules=rules))
    question = question_json(bowers)
    assert question["bowers"] is True and question["rules"]["bowers"] is True
    assert Seat[question["seat"]] == puzzle.view.seat
