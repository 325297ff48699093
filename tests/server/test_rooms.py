"""Rooms driven directly (no sockets): slow bots off the loop, saving before telling, tokens never stored."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from cinch.actions import parse_action
from cinch.cards import Seat
from cinch.library import Library, LibraryError
from cinch.rules import Rules
from cinch.server.app import Connection, Thinker
from cinch.server.protocol import Refusal
from cinch.server.rooms import Room, Settings, token_hash

HOST = "h" * 32
SEED = 2026  # every room deals from it: the same deals every run


def client() -> Connection:
    c = Connection()
    c.sent = []
    return c


def room_with(library: Library, people: str = "NESW", bots: dict[str, str] | None = None, **settings) -> tuple:
    room = Room("ROOM42", Settings(Rules.preset("pagat"), **{"between_deals": 0, "bot_delay": 0, **settings}),
                token_hash(HOST), library, chance=random.Random(SEED))
    host = client()
    room.attach(host, None, HOST)
    seats = {}
    for name in people:
        c = client()
        room.attach(c, None, None)
        room.join(c, name, f"player {name}", "ab" * 4)
        seats[name] = c
    for name, bot in (bots or {}).items():
        room.fill(host, name, bot)
    return room, host, seats


def last(c: Connection, kind: str) -> dict:
    assert c.sent is not None
    return [m for m in c.sent if m["type"] == kind][-1]


class RecordingThinker:
    def __init__(self):
        self.asked: list[str] = []

    async def think(self, bot, seed, view):
        self.asked.append(bot)
        return view.legal[0], None


def test_a_slow_bot_thinks_in_the_thinker_never_inline(tmp_path):
    async def run():
        with Library.open(tmp_path / "g.sqlite3") as library:
            room, host, seats = room_with(library, "S", {"N": "expert", "E": "basic", "W": "basic"})
            thinker = RecordingThinker()
            room.thinker = thinker
            room.start(host)
            for _ in range(200):
                await asyncio.sleep(0)
                if "expert" in thinker.asked and room.table.to_act == Seat.S:
                    break
                if room.table.to_act == Seat.S:
                    view = room.table.view(Seat.S)
                    room.act(seats["S"], room.seq, str(view.legal[0]))
            room.close()
            return thinker.asked

    asked = asyncio.run(run())
    assert asked and set(asked) == {"expert"}


def test_the_thinker_runs_the_expert_in_another_process():
    from cinch.match import Match

    match = Match(Rules.preset("pagat"), rng=4)
    match.start_deal()
    view = match.view(match.current.to_act)
    thinker = Thinker()
    try:
        action, error = asyncio.run(thinker.think("expert", 1, view))
    finally:
        thinker.close()
    assert error is None and action in view.legal


def test_an_action_the_library_cannot_save_is_not_taken(tmp_path, monkeypatch):
    async def run():
        with Library.open(tmp_path / "g.sqlite3") as library:
            room, host, seats = room_with(library)
            room.start(host)
            seat = room.table.to_act
            seq = room.seq
            stored = library.record_text(room.match_id)

            def broken(*args, **kwargs):
                raise LibraryError("the disk is full")

            monkeypatch.setattr(library, "save", broken)
            with pytest.raises(Refusal) as refused:
                room.act(seats[seat.name], seq, "pass")
            monkeypatch.undo()
            assert refused.value.code == "storage" and "disk is full" in refused.value.message
            assert room.seq == seq and room.table.to_act == seat
            assert library.record_text(room.match_id) == stored
            room.act(seats[seat.name], seq, "pass")  # the library is back: the same action goes through
            assert room.seq == seq + 1
            room.close()

    asyncio.run(run())


def test_tokens_are_never_stored_only_their_hashes(tmp_path):
    async def run():
        with Library.open(tmp_path / "g.sqlite3") as library:
            room, host, seats = room_with(library)
            tokens = [last(c, "seated")["token"] for c in seats.values()]
            stored = json.dumps(library.rooms())
            room.close()
            return tokens, stored

    tokens, stored = asyncio.run(run())
    assert len(tokens) == 4 and all(len(t) >= 32 for t in tokens)
    assert not any(t in stored for t in tokens) and HOST not in stored
    assert all(token_hash(t) in stored for t in tokens)


def test_a_stored_room_comes_back_where_it_stood(tmp_path):
    async def run():
        with Library.open(tmp_path / "g.sqlite3") as library:
            room, host, seats = room_with(library, "NS", {"E": "basic", "W": "random"})
            room.start(host)
            for _ in range(30):
                await asyncio.sleep(0)
                seat = room.table.to_act
                if seat in (Seat.N, Seat.S):
                    room.act(seats[seat.name], room.seq, str(room.table.view(seat).legal[0]))
            seq, hand = room.seq, room.table.view(Seat.S).hand
            room.close()
            again = Room.load(library.rooms()[0], library)
            assert again.seq == seq and again.table.view(Seat.S).hand == hand
            assert again.places[Seat.W].bot == "random" and again.places[Seat.N].name == "player N"
            assert again.table.bot_names == {Seat.E: "basic", Seat.W: "random"}
            back = client()
            again.attach(back, last(seats["S"], "seated")["token"], None)
            assert last(back, "welcome")["seat"] == "S"
            again.close()

    asyncio.run(run())


def test_a_keep_with_many_hands_is_sent_as_its_rule_with_a_suggestion(tmp_path):
    async def run():
        with Library.open(tmp_path / "g.sqlite3") as library:
            room, host, seats = room_with(library)
            room.start(host)
            for _ in range(400):
                await asyncio.sleep(0)
                deal = room.table.match.current
                if deal is None or deal.to_act is None:
                    continue
                view = room.table.view(deal.to_act)
                state = last(seats[deal.to_act.name], "state")
                if state["deal"]["keep"]:
                    keep = state["deal"]["keep"]
                    assert keep["count"] == len(view.legal) > 1 and state["deal"]["legal"] == []
                    assert parse_action(keep["suggestion"]) in view.legal and keep["rule"].startswith("keep")
                    room.close()
                    return True
                room.act(seats[deal.to_act.name], room.seq, str(view.legal[0]))
            room.close()
            return False

    assert asyncio.run(run())


class HintingThinker(RecordingThinker):
    async def hint(self, bot, view):
        self.asked.append("hint " + bot)
        return str(view.legal[-1]), "the last choice is best", "1 world"


def test_a_hint_answers_the_seat_to_act_and_hints_can_be_turned_off(tmp_path):
    async def run(hints: bool):
        with Library.open(tmp_path / f"g{hints}.sqlite3") as library:
            room, host, seats = room_with(library, hints=hints)
            room.thinker = HintingThinker()
            room.start(host)
            seat = room.table.to_act
            other = seats[seat.left.name]
            with pytest.raises(Refusal) as refused:
                room.hint(other)
            assert refused.value.code == ("not-your-turn" if hints else "hints-off")
            if not hints:
                return None
            room.hint(seats[seat.name])
            for _ in range(5):
                await asyncio.sleep(0)
            answer = last(seats[seat.name], "hint")
            assert not [m for m in other.sent if m["type"] == "hint"]
            room.close()
            return answer, [str(a) for a in room.table.view(seat).legal]

    answer, legal = asyncio.run(run(True))
    assert answer["action"] == legal[-1] and answer["estimate"] == "the last choice is best"
    assert answer["words"]
    asyncio.run(run(False))


def test_a_bot_whose_move_cannot_be_saved_waits_and_the_room_stays_as_saved(tmp_path, monkeypatch):
    async def run():
        with Library.open(tmp_path / "g.sqlite3") as library:
            room, host, seats = room_with(library, "S", {"N": "basic", "E": "basic", "W": "basic"})
            saves = []
            real = library.save

            def flaky(match_id, match):
                saves.append(1)
                if room.bot_task is not None and asyncio.current_task() is room.bot_task:  # a bot's move
                    raise LibraryError("the disk is full")
                real(match_id, match)

            monkeypatch.setattr(library, "save", flaky)
            room.start(host)
            for _ in range(40):
                await asyncio.sleep(0)
                if room.table.to_act == Seat.S and not room.retry_pending:
                    room.act(seats["S"], room.seq, str(room.table.view(Seat.S).legal[0]))  # (S may bid first)
            stored = library.record_text(room.match_id)
            errors = [m for m in seats["S"].sent if m["type"] == "error"]
            assert errors and errors[-1]["code"] == "storage" and room.retry_pending
            # What the room shows is what the library holds.
            assert room.seq == 1 + len(loads(stored)["deals"][0]["actions"])
            assert last(seats["S"], "state")["seq"] == room.seq
            room.close()

    from cinch.record import loads

    asyncio.run(run())


def test_the_host_frees_an_absent_persons_seat_between_deals_and_the_record_says_who_sat_when(tmp_path):
    async def run():
        with Library.open(tmp_path / "g.sqlite3") as library:
            room, host, seats = room_with(library, "NS", {"E": "basic", "W": "basic"}, grace=999)
            with pytest.raises(Refusal) as refused:
                room.fill(host, "N", "basic")
            assert refused.value.code == "seat-taken"
            room.start(host)
            room.detach(seats["N"])  # N's tab closes and never comes back
            while room.table.match.current is not None or not room.table.match.summaries:
                await asyncio.sleep(0)
                seat = room.table.to_act
                if seat in (Seat.N, Seat.S) and room.status == "playing":
                    # N is away but the grace is long: S plays N's cards too, through the table
                    view = room.table.view(seat)
                    room.table.act(seat, view.legal[0])
                    room._changed()
            room.settings.between_deals = 999
            room.fill(host, "N", "heuristic")
            record = loads(library.record_text(room.match_id))
            room.close()
            return record

    from cinch.record import loads

    record = asyncio.run(run())
    assert record["players"]["N"] == "heuristic"
    assert record["seating"][:4] == [{"seat": "N", "name": "player N", "kind": "human", "from_deal": 1},
                                      {"seat": "E", "name": "basic", "kind": "bot", "from_deal": 1},
                                      {"seat": "S", "name": "player S", "kind": "human", "from_deal": 1},
                                      {"seat": "W", "name": "basic", "kind": "bot", "from_deal": 1}]
    assert record["seating"][4:] == [{"seat": "N", "name": "heuristic", "kind": "bot", "from_deal": 2}]
