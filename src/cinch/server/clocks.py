"""Clocks and grace: the seconds each seat has spent on its decisions, and the timers a table runs.

Parts of a table on the server (:mod:`cinch.server.tables` lists the others):

- :class:`Clocks`: a :class:`Clock` per seat, running for the seat to act while its player is
  there to think (a bot, a substitute, or a person with a connection open);
- :class:`Grace`: a timer per seat whose person has gone, after which the table lets a
  substitute play for them;
- :class:`Timer`: one timer, as the pause between deals (:mod:`cinch.server.between`) uses.

They know nothing of who sits where: the table tells them which seat acts and who is there, and what
to do when a timer runs out.  The timers run on the event loop, and only in the process that drives
the table (a cluster: :mod:`cinch.server.cluster`); the table checks that before it starts one.  A
table composes them so (:class:`~cinch.server.tables.ServerTable` does, for every kind of table):
``Clocks(seating)``, and after every change ``clocks.run(to_act, there)``; ``clocks.to_json(now)``
in each state; ``used_json``/``running_json`` in its stored data; ``Grace().start(seat, seconds,
then)`` when a person's last connection closes and ``stop(seat)`` when they come back.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cinch.cards import Seat
from cinch.seating import Seating


@dataclass
class Clock:
    """Seconds a seat has spent on its decisions this match; paused while its person is away.

    The times are the wall clock's (``time.time()``), so that every process of a cluster shows the
    same running clock."""

    used: float = 0.0
    since: float | None = None

    def run(self, now: float) -> None:
        if self.since is None:
            self.since = now

    def stop(self, now: float) -> None:
        if self.since is not None:
            self.used += now - self.since
            self.since = None

    def to_json(self, now: float) -> dict[str, Any]:
        running = self.since is not None
        return {"used": round(self.used + (now - self.since if self.since is not None else 0.0), 1),
                "running": running}


class Clocks:
    """Every seat's clock for the match being played."""

    def __init__(self, seating: Seating):
        self.seating = seating
        self.by_seat = {s: Clock() for s in seating.seats}

    def __getitem__(self, seat: Seat) -> Clock:
        return self.by_seat[seat]

    def reset(self) -> None:
        """A new match: every clock at zero."""
        self.by_seat = {s: Clock() for s in self.seating.seats}

    def run(self, to_act: Seat | None, there: Callable[[Seat], bool]) -> None:
        """Run the clock of the seat to act (None: nobody, between deals) if its player is ``there`` to think;
        stop every other."""
        now = time.time()
        for seat, clock in self.by_seat.items():
            if seat == to_act and there(seat):
                clock.run(now)
            else:
                clock.stop(now)

    def stop(self, seat: Seat) -> None:
        self.by_seat[seat].stop(time.time())

    def to_json(self, now: float) -> dict[str, Any]:
        """What each state shows: each seat's seconds so far, and whether its clock runs."""
        return {s.name: self.by_seat[s].to_json(now) for s in self.seating.seats}

    # ---- saving ------------------------------------------------------------------------------------------
    def used_json(self) -> dict[str, float]:
        return {s.name: self.by_seat[s].used for s in self.seating.seats}

    def running_json(self) -> dict[str, float]:
        """Since when each running clock runs: what a process taking the table over must know (a restart
        ignores it: its clocks start paused)."""
        return {s.name: c.since for s, c in self.by_seat.items() if c.since is not None}

    def take_used(self, used: dict[str, Any]) -> None:
        """The seconds stored (a restart: every clock paused)."""
        for name, seconds in used.items():
            self.by_seat[self.seating.parse_seat(name)].used = float(seconds)

    def take_json(self, used: dict[str, Any], running: dict[str, Any]) -> None:
        """The clocks as another process stored them, running ones running since the same moment."""
        for seat, clock in self.by_seat.items():
            clock.used = float(used.get(seat.name, clock.used))
            since = running.get(seat.name)
            clock.since = float(since) if isinstance(since, int | float) else None


class Timer:
    """One timer on the event loop: started, it calls ``then`` once after so many seconds, unless stopped."""

    __slots__ = ("handle",)

    def __init__(self) -> None:
        self.handle: asyncio.TimerHandle | None = None

    @property
    def running(self) -> bool:
        return self.handle is not None

    def start(self, seconds: float, then: Callable[[], None]) -> None:
        def fire() -> None:
            self.handle = None
            then()

        self.handle = asyncio.get_running_loop().call_later(seconds, fire)

    def stop(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None


class Grace:
    """The grace of each seat whose person has no connection open: ``then(seat)`` once it runs out."""

    def __init__(self) -> None:
        self.timers: dict[Seat, asyncio.TimerHandle] = {}

    def __contains__(self, seat: Seat) -> bool:
        return seat in self.timers

    def start(self, seat: Seat, seconds: float, then: Callable[[Seat], None]) -> None:
        """Start the seat's grace (a grace already running goes on as it was)."""
        if seat in self.timers:
            return

        def fire() -> None:
            self.timers.pop(seat, None)
            then(seat)

        self.timers[seat] = asyncio.get_running_loop().call_later(seconds, fire)

    def stop(self, seat: Seat) -> None:
        timer = self.timers.pop(seat, None)
        if timer is not None:
            timer.cancel()

    def stop_all(self) -> None:
        for timer in self.timers.values():
            timer.cancel()
        self.timers.clear()
