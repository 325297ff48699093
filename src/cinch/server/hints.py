"""Hints: what the strongest installed bot would do for a person's decision, with its reasons.

:class:`Hints` is one part of a table on the server (:mod:`cinch.server.tables` lists the others).
A hint may take a second (the expert thinks in the server's process pool, :class:`Thinker`); it is
asked once per seat and state, and its answer goes to every connection of the seat unless the table
has moved on meanwhile.

A table composes it so (:class:`~cinch.server.tables.ServerTable` does, for every kind of table): it
is a :class:`Hinted` (its ``seq``, whether it is closed, its thinker, and :meth:`Hinted.hinted`,
which sends the answer to the seat's connections, here and in the other processes of a cluster),
holds ``Hints(self)``, and its ``hint`` message checks that the seat may have one (hints on, its own
turn) before :meth:`Hints.ask`.
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from cinch.actions import parse_action
from cinch.cards import Seat
from cinch.server.audience import Client
from cinch.server.bots import SLOW_BOTS
from cinch.server.games import make_bot
from cinch.server.turns import Thinker
from cinch.table import Table
from cinch.table.narrate import action_words, view_trump

_HINT_BOT: str | None = None


def hint_bot_name() -> str:
    """The bot that gives hints: the strongest installed (expert, else heuristic, else basic)."""
    global _HINT_BOT
    if _HINT_BOT is None:
        from cinch.table.advice import hint_bot

        _HINT_BOT = hint_bot()[0]
    return _HINT_BOT


def hint_now(name: str, view: Any) -> tuple[str, str, str]:
    """(Here, or in a worker process.)  The hint bot's action in record notation, with its reasons."""
    from cinch.table.advice import ask_hint

    hint = ask_hint(name, make_bot(name, 0), view)
    return str(hint.action), hint.estimate, hint.detail


class Hinted(Protocol):
    """What the hints need of their table."""

    @property
    def seq(self) -> int: ...

    @property
    def closed(self) -> bool: ...

    @property
    def thinker(self) -> Thinker | None: ...

    def hinted(self, message: dict[str, Any], seat: Seat) -> None:
        """Send a hint (or the error saying there is none) to the seat's connections, everywhere."""
        ...


class Hints:
    """The last hint given to each seat (for its ``seq``), and the seats whose hint is being worked out."""

    def __init__(self, table: Hinted):
        self.of = table
        self.given: dict[Seat, dict[str, Any]] = {}
        self.pending: set[Seat] = set()

    def ask(self, client: Client, seat: Seat, table: Table) -> None:
        """A hint for ``seat``'s decision now: the one given already for this state, or one worked out (its
        answer goes to all the seat's connections)."""
        seq = self.of.seq
        cached = self.given.get(seat)
        if cached is not None and cached["seq"] == seq:
            client.send(cached)
            return
        if seat in self.pending:
            return  # the answer is on its way to every connection of the seat
        view = table.view(seat)
        assert view is not None
        self.pending.add(seat)
        asyncio.get_running_loop().create_task(self._answer(seat, seq, view))

    async def _answer(self, seat: Seat, seq: int, view: Any) -> None:
        name = hint_bot_name()
        thinker = self.of.thinker
        try:
            if name in SLOW_BOTS and thinker is not None:
                text, estimate, detail = await thinker.hint(name, view)
            else:
                text, estimate, detail = hint_now(name, view)
            action = parse_action(text)
        except Exception as e:  # the hint bot failed: say so, the game goes on
            message: dict[str, Any] = {"type": "error", "code": "hint-failed", "message": f"no hint this time ({e})"}
        else:
            message = {"type": "hint", "seq": seq, "bot": name, "action": str(action),
                       "words": action_words(action, view_trump(view)), "estimate": estimate, "detail": detail}
            self.given[seat] = message
        finally:
            self.pending.discard(seat)
        if self.of.seq != seq or self.of.closed:
            return  # the table has moved on: the hint is of no use now
        self.of.hinted(message, seat)
