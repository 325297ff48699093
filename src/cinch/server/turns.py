"""Turns: a person's decision checked and taken, and the bots' turns played one after another.

Parts of a table on the server (:mod:`cinch.server.tables` lists the others):

- :func:`take_action`: a person's decision for the state numbered ``seq``, refused in words
  (:class:`~cinch.server.protocol.Refusal`) when it is stale, not theirs or against the rules;
- :class:`BotTurns`: the task that plays the bots' turns while a bot is to act, pausing between
  them (:func:`pause_before`) so that people can follow; a slow bot (:data:`~cinch.server.bots.SLOW_BOTS`:
  the expert, not the instant heuristic or neural bots) thinks in the server's process pool (a
  :class:`Thinker`), never on the event loop.

A table composes them so (:class:`~cinch.server.tables.ServerTable` does, for every kind of table):
it is a :class:`TurnTaker` (its table, whether its bots may play now, a seed, the pause, and
:meth:`TurnTaker.bot_acted`, which applies a bot's decision as one change of the table), holds
``BotTurns(self)``, and calls :meth:`BotTurns.kick` after every change; its ``act`` message calls
:func:`take_action` inside a change.
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from cinch.actions import Action, Claim, OutOfTurn, parse_action
from cinch.cards import Seat
from cinch.errors import IllegalAction, NotationError
from cinch.server.bots import SLOW_BOTS
from cinch.server.protocol import Refusal
from cinch.table import BotTurn, Table
from cinch.view import Phase, SeatView


class Thinker(Protocol):
    """Runs a slow bot's decision off the event loop (a process pool in the server)."""

    async def think(self, bot: str, seed: int, view: Any) -> tuple[Action | None, Exception | None]: ...

    async def hint(self, bot: str, view: Any) -> tuple[str, str, str]:
        """The hint bot's (action in record notation, estimate, detail) for the view."""
        ...


def pause_before(view: SeatView, bot_delay: float, trick_pause: float) -> float:
    """How long a bot waits before its decision: ``bot_delay``, and before leading to a new trick at least
    ``trick_pause``, so that the trick just won stays on view with its last card (a table whose bots act at
    once, ``bot_delay`` 0, keeps no pause at all)."""
    if bot_delay <= 0:
        return 0.0
    if view.phase is Phase.PLAY and not view.current_trick and view.tricks:
        return max(bot_delay, trick_pause)
    return bot_delay


# ---- a person's turn ----------------------------------------------------------------------------------------
def take_action(table: Table, seat: Seat, text: str, *, irregular: bool = False, away: bool = False) -> None:
    """``seat``'s decision ``text`` (record notation) at the deal being played, or a refusal saying why not
    and what is legal now (``irregular``: meant against the rules, a revoke under the honour rule; ``away``:
    a substitute plays for the seat).  A save that fails raises :class:`~cinch.errors.CinchError`: the
    caller's change then takes the action back."""
    deal = table.match.current
    assert deal is not None
    honour = table.rules.honour_rule
    if deal.to_act != seat and not honour:
        raise Refusal("not-your-turn", f"it is {_whose(deal.to_act)}'s turn, not yours ({seat})")
    if away:
        raise Refusal("not-your-turn", "a bot plays for you while you are away")
    try:
        action = parse_action(text)
    except NotationError as e:
        legal = deal.legal_actions()
        raise Refusal("bad-action", f"{e}; legal now: {_legal_summary(legal)}", legal=_legal_list(legal)) from None
    if deal.to_act != seat and not isinstance(action, (OutOfTurn, Claim)):
        # The honour rule: out of turn only a bid or a lead made on purpose, or a misdeal claimed.
        raise Refusal("not-your-turn", f"it is {_whose(deal.to_act)}'s turn, not yours ({seat}); under the honour "
                                       f"rule a bid or a lead out of turn is sent as '{seat.name} out of turn: bid 8' "
                                       "(003)")
    try:
        # A revoke is taken only when it is sent as meant, and only under the honour rule (without the
        # option the engine refuses the card as it refuses any illegal one).
        table.act(seat, action, irregular=irregular)
    except IllegalAction as e:
        legal = deal.legal_actions()
        raise Refusal("illegal", f"{action} is not allowed: {e.rule}; legal now: {_legal_summary(legal)}",
                      legal=_legal_list(legal)) from None


def _whose(to_act: Seat | None) -> str:
    return "nobody (a new stock is being shuffled)" if to_act is None else to_act.name


def _legal_list(legal: Any) -> list[str] | None:
    return [str(a) for a in legal] if len(legal) <= 64 else None


def _legal_summary(legal: Any) -> str:
    from cinch.keep import KeepOptions

    if isinstance(legal, KeepOptions) and len(legal) > 1:
        return legal.describe()
    return ", ".join(str(a) for a in legal)


# ---- the bots' turns -----------------------------------------------------------------------------------------
class TurnTaker(Protocol):
    """What the bots' turns need of their table."""

    @property
    def table(self) -> Table | None: ...

    @property
    def closed(self) -> bool: ...

    @property
    def thinker(self) -> Thinker | None: ...

    def bots_may_play(self) -> bool:
        """Whether the bots may play here now (this process drives the table, and no failed save waits)."""
        ...

    def bot_seed(self) -> int: ...

    def bot_pause(self, view: SeatView) -> float: ...

    def bot_acted(self, table: Table, turn: BotTurn, action: Action | None, error: Exception | None) -> bool | None:
        """Apply a bot's decision as one change of the table: True if it was played, False if the turn was
        stale (the table moved on), None if the bots must stop (another process drives the table now, or
        the change could not be saved)."""
        ...


class BotTurns:
    """The task that plays the bots' turns of one table, while a bot is to act (in the process driving it)."""

    def __init__(self, taker: TurnTaker):
        self.taker = taker
        self.task: asyncio.Task[None] | None = None

    def kick(self) -> None:
        """Start the task if a bot is to act and none is running."""
        taker = self.taker
        table = taker.table
        if taker.closed or self.task is not None or not taker.bots_may_play() or table is None \
                or table.bot_turn() is None:
            return
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        taker = self.taker
        try:
            while not taker.closed:
                table = taker.table
                turn = None if table is None else table.bot_turn()
                if table is None or turn is None:
                    return
                pause = taker.bot_pause(turn.view)
                if pause > 0:
                    await asyncio.sleep(pause)
                if turn.bot.name in SLOW_BOTS and taker.thinker is not None:
                    action, error = await taker.thinker.think(turn.bot.name, taker.bot_seed(), turn.view)
                else:
                    action, error = turn.decide()
                if taker.table is not table:
                    continue
                played = taker.bot_acted(table, turn, action, error)
                if played is None:
                    return
                if played:
                    await asyncio.sleep(0)  # let the people's messages in between the bots' plays
        finally:
            self.task = None
            self.kick()

    def stop(self) -> None:
        """Stop the task (another process drives the table now, or the table closes); a bot's own change that
        finds its process no longer drives the table ends the task by itself."""
        task = self.task
        if task is not None and task is not _current_task():
            task.cancel()
            self.task = None


def _current_task() -> asyncio.Task[Any] | None:
    try:
        return asyncio.current_task()
    except RuntimeError:  # no event loop running (a table closed by a test, or at exit)
        return None

