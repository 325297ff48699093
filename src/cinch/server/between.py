"""The end of a deal: it stays on view until the people have pressed Next, or a timer deals on.

:class:`BetweenDeals` is one part of a table on the server (:mod:`cinch.server.tables` lists the
others): which seats have pressed Next (``ready``) for which ended deal, and the timer that deals on
by itself.  With one person at the table (three bots, say) the end waits for that person's Next
alone (:func:`waits_for_next`); with two or more a timer keeps one slow reader from holding the
others; with nobody but bots it deals on by itself.

A table composes it so (:class:`~cinch.server.tables.ServerTable` does, for every kind of table):
when a deal is over (``Table.advance()`` answers ``Pending.DEAL_OVER``) it does what its kind does
with the result (a room nothing more; a daily table reports the board to its scorer), then
:meth:`BetweenDeals.deal_ended` and :meth:`BetweenDeals.wait`; a person's Next is
:meth:`BetweenDeals.press`, and when all are ready, or the timer runs out,
:meth:`BetweenDeals.deal_on` acknowledges the end so that the table deals on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cinch.cards import Seat
from cinch.seating import Seating
from cinch.server.clocks import Timer
from cinch.table import Pending, Table


def waits_for_next(people: int, between_deals: float) -> bool:
    """Whether the end of a deal waits for the people's Next with no timer: at a table of one person,
    whose Next alone deals on, unless the table deals on at once (``between_deals`` 0).

    >>> waits_for_next(1, 8.0), waits_for_next(2, 8.0), waits_for_next(0, 8.0), waits_for_next(1, 0)
    (True, False, False, False)
    """
    return people == 1 and between_deals > 0


class BetweenDeals:
    """Who has pressed Next for the last deal that ended, and the timer that deals on."""

    def __init__(self) -> None:
        self.ready: set[Seat] = set()
        self.ready_for = 0  # the number of finished deals whose end ``ready`` answers
        self.timer = Timer()

    def reset(self) -> None:
        """A new match: nobody is ready for anything."""
        self.ready.clear()
        self.ready_for = 0

    def deal_ended(self, ended: int) -> None:
        """``ended`` deals are over: a deal newly over starts with nobody ready."""
        if self.ready_for != ended:
            self.ready.clear()
            self.ready_for = ended

    def wait(self, seconds: float, *, for_next: bool, may_time: bool, then: Callable[[], None]) -> None:
        """Wait for the people's Next (``for_next``), or run the timer that deals on after ``seconds``
        (``may_time``: this process drives the table); called again whenever who sits changes."""
        if for_next:
            self.timer.stop()
        elif not self.timer.running and may_time:
            self.timer.start(seconds, then)

    def press(self, seat: Seat, people: set[Seat]) -> bool:
        """``seat`` has pressed Next: whether every person here (``people``) now has."""
        self.ready.add(seat)
        return people <= self.ready

    def deal_on(self, table: Table | None) -> bool:
        """End the wait: the end of the deal is acknowledged, so that the table deals on; False if the table
        is not at the end of a deal (it moved on meanwhile)."""
        self.timer.stop()
        if table is None or table.pending() is not Pending.DEAL_OVER:
            return False
        table.acknowledge()
        self.ready.clear()
        return True

    def ready_names(self, seating: Seating) -> list[str]:
        return [s.name for s in seating.seats if s in self.ready]

    def take_json(self, ready: set[Seat | None], table: Table | None, acknowledged: Any) -> None:
        """Who is ready and which deal's end was shown, as another process stored them."""
        self.ready = {s for s in ready if s is not None}
        self.ready_for = 0 if table is None else len(table.match.summaries)
        if table is not None and isinstance(acknowledged, int):
            table.acknowledged = min(acknowledged, len(table.match.summaries))

