"""Changes: every change of a table is all or nothing, durable in its store before anyone is told of it.

:class:`Changes` is one part of a table on the server (:mod:`cinch.server.tables` lists the others),
and the one through which it is kept: ``with changes.change():`` asks the table's store
(:mod:`cinch.server.store`: :class:`~cinch.server.store.LocalStore` on SQLite, or
:class:`~cinch.server.cluster.ClusterStore` on PostgreSQL and Redis) to begin the change (exclusive,
and the table brought up to date from another process's change), runs the body, which decides and
saves, and asks the store to make it durable; the messages and states the body sent wait in an
outbox until then, and a change that fails sends none of them.  A change a timer or a bot makes by
itself (:meth:`Changes.as_driver`) is made only in the process that drives the table; one that cannot
be saved is said, and tried again :data:`RETRY_SECONDS` later (the bots wait meanwhile:
:attr:`Changes.retrying`).

A table composes it so (:class:`~cinch.server.tables.ServerTable` does, for every kind of table):
``Changes(self, go_on)`` (``go_on``: the table's step after every change of the game: deal on, run
the clocks, start the bots, tell everyone); every message that changes it runs inside
``changes.change()``, sends through :meth:`Changes.send` and :meth:`Changes.broadcast`, and its
timers through :meth:`Changes.as_driver`.  The stores read of the table what every
:class:`~cinch.server.tables.ServerTable` has (``code``, ``rev``, ``status``, ``seq``, ``match_id``,
``table``, ``to_json()``, ``save()``, ``adopt()``, ``resume_table()``, ``presence()``, ``drive()``,
``abandon()``, ``settle()``).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from cinch.errors import CinchError
from cinch.server.audience import Client
from cinch.server.protocol import Refusal
from cinch.server.store import NotDriver, StorageFailed

if TYPE_CHECKING:
    from cinch.server.tables import ServerTable

RETRY_SECONDS = 3.0  # after a save failed, the table waits this long before it tries its own next step again


class Changes:
    """The change in progress of one table (how deep, what it will send once durable), and its retries."""

    def __init__(self, table: ServerTable, go_on: Callable[[], None]):
        self.table = table
        self.go_on = go_on
        self.depth = 0
        # (newcomer or None, None): a state for everyone; (None, a function): a step to run once durable
        self.outbox: list[tuple[Client | None, dict[str, Any] | str | Callable[[], None] | None]] = []
        self.reload_wanted = False
        self.refreshed = False  # the change began by taking another process's state: show it even if refused
        self.rev_shown = 0
        self.retrying = False  # a change the table made by itself failed: it tries again shortly

    @contextlib.contextmanager
    def change(self, *, driver: bool = False) -> Iterator[None]:
        """One change of the table, all of it or nothing: the store makes it exclusive and brings the table up
        to date, the body decides and saves, the store makes it durable, and only then is anyone told.

        Messages and states the body sends wait in an outbox until the change is durable; a change that
        fails sends none of them (a refusal goes back to its sender alone).  ``driver``: a timer's or a bot's
        change, which only the process that drives the table may make (:class:`NotDriver` otherwise).
        Changes nest: the outermost one commits.
        """
        if self.depth:
            self.depth += 1
            try:
                yield
            finally:
                self.depth -= 1
            return
        table, store = self.table, self.table.store
        self.refreshed = False
        self.rev_shown = table.rev
        try:
            store.begin(table, driver)
        except CinchError as e:
            self._finish_failed(store.rollback(table))
            if isinstance(e, StorageFailed) and not driver:
                raise Refusal("storage", f"the game library cannot be reached ({e}); nothing was changed") from None
            raise
        self.depth = 1
        try:
            yield
        except BaseException:
            self.depth = 0
            self._finish_failed(store.rollback(table))
            raise
        self.depth = 0
        try:
            store.commit(table)
        except CinchError as e:
            self._finish_failed(True)
            if driver:
                raise StorageFailed(str(e)) from None
            raise Refusal("storage", f"the change could not be saved ({e}); it was not made") from None
        if self.reload_wanted:
            self._reload_now()
        self._flush()
        if self.refreshed:
            self._settle_soon()

    def _finish_failed(self, reload: bool) -> None:
        self.outbox.clear()
        if reload or self.reload_wanted:
            self._reload_now()
            self.refreshed = True
        if self.refreshed and self.table.rev != self.rev_shown:  # the connections here were shown an older state
            self.broadcast()
            self._settle_soon()

    def _settle_soon(self) -> None:
        """(A cluster.)  The change took another process's state: once it is over, take up what that state
        asks of this process (its bots and timers, if it drives the table; a seat to take back)."""
        if not self.table.store.cluster:
            return
        with contextlib.suppress(RuntimeError):  # (no event loop: nothing runs timers here anyway)
            asyncio.get_running_loop().call_soon(self.table.settle)

    # ---- what a change sends --------------------------------------------------------------------------------
    def after(self, step: Callable[[], None]) -> None:
        """Run ``step`` once the change is durable, in its turn among what the change sends (at once outside a
        change); a change that fails runs none.  (What the table reports elsewhere: a player's game, a rating.)"""
        if self.depth:
            self.outbox.append((None, step))
        else:
            step()

    def send(self, client: Client, message: dict[str, Any]) -> None:
        """Send ``message`` to one connection once the change is durable (at once outside a change)."""
        if self.depth:
            self.outbox.append((client, message))
        else:
            client.send(message)

    def broadcast(self, newcomer: Client | None = None) -> None:
        """Every connection its state (:meth:`Audience.broadcast_now`), once the change is durable."""
        if self.depth:
            self.outbox.append((newcomer, None))
            return
        self.table.audience.broadcast_now([] if newcomer is None else [newcomer])

    def _flush(self) -> None:
        """Send what the change left in the outbox, in order; consecutive states go out as one."""
        outbox, self.outbox = self.outbox, []
        newcomers: list[Client] = []
        for i, (client, message) in enumerate(outbox):
            if message is None:  # a state for everyone (``client``: a newcomer, who gets the log as well)
                if client is not None:
                    newcomers.append(client)
                if i + 1 < len(outbox) and outbox[i + 1][1] is None:
                    continue  # a later state follows at once: it says all this one would
                self.table.audience.broadcast_now(newcomers)
                newcomers = []
            elif callable(message):
                message()
            elif client is not None:
                client.send(message)

    # ---- when a save fails ----------------------------------------------------------------------------------
    def reload(self) -> None:
        """Back to what the store holds (a save failed, so the match in memory is ahead of it): within a
        change, once the change has been rolled back."""
        if self.depth:
            self.reload_wanted = True
        else:
            self._reload_now()

    def _reload_now(self) -> None:
        self.reload_wanted = False
        self.table.store.reload(self.table)

    def as_driver(self, what: str, step: Callable[[], None]) -> None:
        """A timer's change, made only while this process drives the table; one that cannot be saved is tried
        again a few seconds later."""
        try:
            with self.change(driver=True):
                step()
        except NotDriver:
            return
        except CinchError as e:
            self.failed(e, what)

    def failed(self, error: Exception, what: str = "a bot's action") -> None:
        """Something the table did by itself (a bot's action, dealing on) could not be saved: the table goes
        back to the store's state, says so, and tries again in a few seconds."""
        table = self.table
        self.reload()
        self.broadcast()
        notice = {"type": "error", "code": "storage",
                  "message": f"{what} could not be saved ({error}); the room tries again in a few seconds"}
        for c in list(table.audience.clients):
            self.send(c, notice)
        if self.retrying or not table.store.drives(table):
            return
        self.retrying = True

        def retry() -> None:
            self.retrying = False
            if not table.closed:
                self.as_driver("the next step of the game", self.go_on)

        asyncio.get_running_loop().call_later(RETRY_SECONDS, retry)
