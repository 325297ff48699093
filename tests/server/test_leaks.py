"""No message to a seat or a spectator ever holds a card that seat may not know (checked against the engine).

Rooms are driven directly (no sockets) so that hundreds of deals play in seconds: four people
take random legal actions, one spectator watches, and after every action each message they
got is searched for cards, in the record notation and in the narration's words.
"""

from __future__ import annotations

import asyncio
import json
import random
import re

from serverkit import Secrets

import cinch.server.rooms as rooms_module
import cinch.shuffle as shuffle_module
from cinch.cards import Card, CardSet, Seat, fold
from cinch.library import Library
from cinch.rules import PRESET_NAMES, Rules
from cinch.server.app import Connection
from cinch.server.protocol import check_server_message
from cinch.server.rooms import Room, Settings, token_hash
from cinch.view import SeatView

_CODE = re.compile(r"\b([AKQJT98765432][SHDC])\b")
_WORDS = re.compile(r"(10|[AKQJ98765432])([♠♥♦♣])")
_SUITS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def cards_in(value: object) -> set[Card]:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    found = {Card.parse(m) for m in _CODE.findall(text)}
    found |= {Card.parse(("T" if r == "10" else r) + _SUITS[s]) for r, s in _WORDS.findall(text)}
    return found


def knowable(view: SeatView, seated: bool) -> CardSet:
    """What the engine says this seat (or, not seated, anyone watching) may know of the running deal."""
    m = int(view.played)
    for s in range(4):
        m |= view.face_up_discards[s] | view.shown_trumps[s]
    if seated:
        m |= int(view.known_elsewhere) | int(view.own_drawn)
    return CardSet(m)


def this_deal(lines: list[str]) -> list[str]:
    """The lines since the last deal's header (earlier deals are over: their cards may be told)."""
    start = max((i for i, line in enumerate(lines) if line.startswith("=== Deal")), default=0)
    # The contract names the left Pedro (which card it is, not where it lies).
    return [line.split("(the left Pedro")[0] for line in lines[start:]]


def check(client: Connection, room: Room) -> int:
    """Search every message the client got since the last look; returns how many were checked."""
    assert client.sent is not None
    messages, client.sent[:] = list(client.sent), []
    table = room.table
    assert table is not None
    match = table.match
    for message in messages:
        check_server_message(message)
        if message["type"] != "state" or message["deal"] is None:
            continue
        deal = message["deal"]
        if deal["phase"] == "done":
            continue  # the deal is over: its deck is revealed to everyone
        assert deal["number"] == len(match.deals), "a state of an older deal arrived after the next began"
        seated = client.seat is not None
        view = match.view(client.seat if seated else Seat.N)
        allowed = knowable(view, seated)
        shown = cards_in({k: v for k, v in deal.items() if k != "reveal"})
        shown |= cards_in(this_deal(message["narration"])) | cards_in(this_deal(message.get("log") or []))
        # (two decks: a card's text is knowable when either copy is; fold reads both as the printed card)
        leaked = CardSet(sum(1 << c for c in shown) & ~fold(int(allowed)))
        assert not leaked, (f"{client.seat or 'a spectator'} was shown {leaked} in deal {deal['number']}: "
                            f"{json.dumps(message, ensure_ascii=False)}")
    return len(messages)


async def play(rules: Rules, deals: int, seed: int, path) -> tuple[int, int]:
    rng = random.Random(seed)
    library = Library.open(path)
    room = Room(f"LEAK{seed:02d}", Settings(rules, grace=999, between_deals=0, bot_delay=0), token_hash("h" * 32),
                library)
    host = Connection()
    host.sent = []
    room.attach(host, None, "h" * 32)
    people = []
    for seat in Seat:
        c = Connection()
        c.sent = []
        room.attach(c, None, None)
        room.join(c, seat.name, f"p{seat.name}", f"{rng.getrandbits(64):016x}")
        people.append(c)
    watcher = host  # the host has no seat: a spectator
    room.start(host)
    earlier, checked = 0, 0  # deals of the matches before this one; messages looked at
    while True:
        table = room.table
        assert table is not None
        if earlier + len(table.match.summaries) >= deals:
            break
        if table.match.is_over:
            earlier += len(table.match.summaries)
            room.rematch(host)
            continue
        deal = table.match.current
        if deal is None or deal.to_act is None:
            await asyncio.sleep(0)  # between deals: the room's timer deals the next one on the loop
            continue
        seat = deal.to_act
        view = table.view(seat)
        assert view is not None
        room.act(people[seat], room.seq, str(rng.choice(view.legal)))
        for client in [*people, watcher]:
            checked += check(client, room)
    room.close()
    library.close()
    return earlier + len(table.match.summaries), checked


def test_no_seat_or_spectator_is_ever_shown_a_card_it_may_not_know(tmp_path, monkeypatch):
    secrets = Secrets(2026)  # the same deals every run: a failure can be replayed
    monkeypatch.setattr(rooms_module, "secrets", secrets)
    monkeypatch.setattr(shuffle_module, "secrets", secrets)
    total, messages = 0, 0
    for i, name in enumerate(PRESET_NAMES):
        played, checked = asyncio.run(play(Rules.preset(name), 42, i, tmp_path / f"{name}.sqlite3"))
        total += played
        messages += checked
    assert total >= 200 and messages > 20 * total


def test_two_deck_rooms_show_no_card_a_seat_may_not_know(tmp_path, monkeypatch):
    """Two-deck Cinch: hands of 18 with cards held twice, a copy of a card in another hand; a card's text is
    shown only where the seat may know a copy of it."""
    secrets = Secrets(2027)
    monkeypatch.setattr(rooms_module, "secrets", secrets)
    monkeypatch.setattr(shuffle_module, "secrets", secrets)
    rules = Rules.preset("pagat").with_options(decks=2)
    played, checked = asyncio.run(play(rules, 4, 7, tmp_path / "two.sqlite3"))
    assert played >= 4 and checked > 20 * played
