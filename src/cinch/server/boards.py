"""Duplicate boards on the server: what the daily deals and the private events share.

A table of either kind plays a deal set's boards one after another, each a match of one deal dealt from the set's
shuffle (:class:`BoardsTable`); when a board's deal ends, its result goes into the field within the same change
(counted once), and the table's seated people are told the board's traveller once the change is durable, and only
then (:meth:`BoardsTable.tell_board`).  The pieces of a result as the field keeps and shows it are here too: its
summary and record (:func:`split_result`), its contract in words, a traveller line's common fields
(:func:`result_line`), the robot table's board worked out in a worker process (:func:`robot_board`), a record shown
under the names its players have now (:func:`named_record`), a field's ranking as
:meth:`cinch.server.fields.FieldStore.finalize` keeps it (:func:`rank_rows`), and how their routes answer
(:func:`answering`, :func:`fresh`).

- the daily deals (:mod:`cinch.server.daily`): one person in South and three bots, one set a day;
- a private event (:mod:`cinch.server.events`): several tables of four, people or bots, the host's set.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import weakref
from collections.abc import Awaitable, Callable, Mapping
from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from cinch.cards import Seat
from cinch.duplicate import BoardResult, DealSet, DuplicateError, Matchpoints, bot_seed, ranking, robot_result
from cinch.errors import CinchError
from cinch.library import LibraryError
from cinch.match import Match
from cinch.server.audience import Client
from cinch.server.games import BETWEEN, OVER, PLAYING, WAITING
from cinch.server.pages import BadBody, error_json
from cinch.server.protocol import Refusal
from cinch.server.store import Store
from cinch.server.tables import ServerTable, Settings
from cinch.server.turns import Thinker
from cinch.shuffle import Shuffle
from cinch.table.duplicate import BoardTable

log = logging.getLogger("cinch.server")

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


# ---- a result as the field keeps and shows it -----------------------------------------------------------------
def split_result(result: BoardResult) -> tuple[dict[str, Any], str]:
    """A result as the field keeps it: its summary (no record), and its record's text."""
    data = result.to_json()
    data.pop("record", None)
    return data, result.record_text


def contract_words(data: Mapping[str, Any]) -> str:
    """``N 7 ♥, made``, ``E 9 ♣, set`` or ``thrown in``, from a result's summary.

    >>> contract_words({"maker": "E", "bid": 9, "trump": "C", "made": False}), contract_words({"thrown_in": True})
    ('E 9 ♣, set', 'thrown in')
    """
    if data.get("thrown_in") or not data.get("maker") or not data.get("trump"):
        return "thrown in"
    return f"{data['maker']} {data.get('bid')} {SUITS.get(data['trump'], data['trump'])}, " \
           f"{'made' if data.get('made') else 'set'}"


def result_line(data: Mapping[str, Any], result: int, mp: Matchpoints, record: str) -> dict[str, Any]:
    """What every traveller line shows of a result (its summary ``data``, its number, its matchpoints) and its links
    (``record``: the route of its record; the replay viewer and "Analyse this deal" open it)."""
    link = quote(record, safe="")
    return {"contract": contract_words(data), "maker": data.get("maker"), "bid": data.get("bid"),
            "trump": data.get("trump"), "made": data.get("made"), "thrown_in": bool(data.get("thrown_in")),
            "points": data.get("points"), "result": result, "matchpoints": mp.points, "top": mp.top,
            "percent": round(mp.percent, 2), "par": data.get("par"), "record": record,
            "replay": f"/replay?record={link}&deal=1&step=0",
            "analyse": f"/replay?record={link}&deal=1&step=0&analyse=1"}


def line_key(entrant: str, kind: str = "daily") -> str:
    """What names a result on a traveller in a link: not the entrant (a player's id is never shown)."""
    return hashlib.sha256(f"cinch/1 {kind} line\n{entrant}".encode()).hexdigest()[:16]


# ---- how their routes answer -----------------------------------------------------------------------------------
Handler = Callable[[Request], Awaitable[Response]]


def answering(what: str, statuses: Mapping[str, int], *,
              before: Callable[[], Awaitable[Any]] | None = None) -> Callable[[Handler], Handler]:
    """How a route of the daily deals or the events answers: its handler's answer; a refusal as the pages' one-line
    error (its status from ``statuses``, else 400), a body refused as it was read; or, when the store fails, 503
    saying that ``what`` could not be read just now.  ``before``: what every request waits for first."""
    def answer(handler: Handler) -> Handler:
        async def run(request: Request) -> Response:
            try:
                if before is not None:
                    await before()
                return await handler(request)
            except BadBody as e:
                return e.response()
            except Refusal as e:
                return error_json(e.code, e.message, statuses.get(e.code, 400))
            except (LibraryError, DuplicateError) as e:
                log.warning("%s: %s", what, e)
                return error_json("storage", f"{what} could not be read just now ({e}); try again", 503)
        return run
    return answer


def fresh(data: Any, status: int = 200) -> JSONResponse:
    """A JSON answer that no cache keeps (what it shows depends on who asks, and changes as boards are played)."""
    return JSONResponse(data, status_code=status, headers={"Cache-Control": "no-store"})


def robot_board(set_json: dict[str, Any], board: int) -> dict[str, Any]:
    """(In a worker process.)  The robot table's result of a board of the set (its secret given), as JSON."""
    return robot_result(DealSet.from_json(set_json), board).to_json()


async def in_pool(server: Any, fn: Callable[..., Any], *args: Any) -> Any:
    """Run ``fn`` in the server's pool of processes (a slow bot's home), or a thread where there is none."""
    pool = getattr(server.thinker, "_pool", None)
    if callable(pool):
        return await asyncio.get_running_loop().run_in_executor(pool(), fn, *args)
    return await asyncio.to_thread(fn, *args)


def named_record(record: dict[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """A board's record as shown: each player's id (kept so that a renamed or deleted player is shown as they are
    now) replaced by the name shown (``names``: by id), wherever a record names its players.

    >>> named_record({"players": {"N": "p1", "S": "expert"}, "server": {"room": "X"}}, {"p1": "Ann"})
    {'players': {'N': 'Ann', 'S': 'expert'}}
    """
    def rename(value: Any) -> Any:
        return names.get(value, value) if isinstance(value, str) else value

    players = record.get("players")
    if isinstance(players, dict):
        record["players"] = {seat: rename(v) for seat, v in players.items()}
    for entry in record.get("seating") or ():
        if isinstance(entry, dict) and "name" in entry:
            entry["name"] = rename(entry["name"])
    meta = record.get("duplicate")
    if isinstance(meta, dict) and "player" in meta:
        meta["player"] = rename(meta["player"])
    record.pop("server", None)
    return record


def rank_rows(scores: dict[str, list[tuple[int, int]]]) -> list[tuple[str, int, float, int]]:
    """(:meth:`FieldStore.finalize`.)  The ranking's rows: entrant, rank, percentage, total."""
    return [(s.entrant, s.rank, round(s.percentage, 4), s.total) for s in ranking(scores)]


# ---- a table that plays a set's boards ----------------------------------------------------------------------------
class BoardsTable(ServerTable):
    """A table whose matches are a deal set's boards, one deal each (:class:`~cinch.table.duplicate.BoardTable`),
    dealt from the set's shuffles and saved in the library under the front end :attr:`frontend` (which the replay
    viewer never lists: a board is shown only by its traveller, to those who have played it).

    A kind of it says which set it plays (:attr:`deal_set`), who its result is kept for (:meth:`report`), whom a
    board's traveller is told to (:meth:`listens`) and what they are told (:meth:`tell_board`); and, where it has
    one, when its play is over for good (:meth:`closed_now`: a daily table whose day is over)."""

    frontend = "boards"

    def __init__(self, code: str, settings: Settings, library: Any, *, thinker: Thinker | None = None,
                 store: Store | None = None):
        self._seeds = 0
        self._told: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()  # connection -> board told
        super().__init__(code, settings, library, thinker=thinker, store=store)
        self.games.table_class = BoardTable
        self.games.frontend = self.frontend

    # ---- what a kind of it says -------------------------------------------------------------------------------
    @property
    def deal_set(self) -> DealSet:
        raise NotImplementedError

    def report(self, result: BoardResult) -> None:
        """(Within the change that ended the board.)  The board's result into the field, counted once."""
        raise NotImplementedError

    def result_of(self, match: Match, board: int) -> BoardResult:
        """The board's result, as the field keeps it."""
        raise NotImplementedError

    def listens(self, client: Client) -> bool:
        """Whether a connection is told each board's traveller (those who played it: never a spectator)."""
        return client.seat is not None

    async def tell_board(self, board: int, clients: list[Client]) -> bool:
        """(Once the board's end is durable.)  Tell ``clients`` the board's traveller; False if it could not be
        told yet (it is told again at the next change)."""
        raise NotImplementedError

    def closed_now(self) -> bool:
        """Whether nothing more is played here, ever (a daily table whose day is over)."""
        return False

    # ---- what it plays ------------------------------------------------------------------------------------------
    @property
    def deals(self) -> int:
        return self.deal_set.deals

    @property
    def board(self) -> int:
        """The board at the table (0 before the first): each board is one of the table's matches."""
        return len(self.games.matches)

    def board_over(self) -> bool:
        table = self.table
        return table is not None and table.deal is not None and table.deal.is_over

    def _shuffle(self, number: int) -> Shuffle:
        return self.deal_set.shuffle(self.board)

    def _seed(self) -> int:
        self._seeds += 1
        return bot_seed(self.deal_set, max(1, min(self.board, self.deals)), Seat.N, self._seeds)

    def board_status(self) -> str:
        """Where the boards stand: not started, a board being played, between boards, or the last one over."""
        if self.table is None:
            return WAITING
        if not self.board_over():
            return PLAYING
        return OVER if self.board >= self.deals else BETWEEN

    @property
    def status(self) -> str:
        return self.board_status()

    def start_board(self, board: int, meta: Mapping[str, Any] | None = None) -> None:
        """(Within a change.)  Deal ``board``: a new match of one deal, its seq numbers after the last board's."""
        if self.table is not None:
            self.games.follow_on()
        match: Match = self.deal_set.board_match(board, self.seats.players())
        match.metadata["duplicate"] = {"set": self.deal_set.name, "board": board, **(meta or {})}
        self.play(match)

    # ---- the end of a board -------------------------------------------------------------------------------------
    def _deal_over(self) -> None:
        """The board's deal is over: its result into the field (within this change), then its end on view."""
        self.keep_result()
        super()._deal_over()

    def keep_result(self) -> None:
        """The board's result into the field, once (a second call, a retry or another process's, changes nothing)."""
        table = self.table
        if table is None or not self.board_over() or self.match_id is None:
            return
        self.report(self.result_of(table.match, self.board))

    def _next_deal(self) -> None:
        """Next, after a board: the next board (nothing after the last)."""
        table = self.table
        if table is None or self.closed or not self.board_over() or self.board >= self.deals:
            return
        self.between.timer.stop()
        table.acknowledge()
        self.between.ready.clear()
        self.start_board(self.board + 1)

    def resume(self) -> None:
        """(A restart.)  A board whose deal ended as the server stopped gets its result (if it had none), and the
        game goes on."""
        if self.board_over() and not self.closed_now():
            try:
                self.keep_result()
            except CinchError as e:
                log.warning("table %s: board %d's result could not be kept: %s", self.code, self.board, e)
        super().resume()

    # ---- the traveller, to those who played the board -----------------------------------------------------------
    def broadcast(self, newcomer: Client | None = None) -> None:
        super().broadcast(newcomer)
        if not self.board_over() or self.closed:
            return
        board = self.board
        waiting = [c for c in self.clients if self.listens(c) and self._told.get(c) != board]
        if waiting:
            for c in waiting:
                self._told[c] = board
            with contextlib.suppress(RuntimeError):  # (no event loop: a test driving the table by hand)
                asyncio.get_running_loop().create_task(self._tell(board, waiting))

    async def _tell(self, board: int, clients: list[Client]) -> None:
        try:
            told = await self.tell_board(board, clients)
        except (CinchError, OSError) as e:
            log.warning("table %s: board %d's traveller could not be read: %s", self.code, board, e)
            told = False
        if not told:
            for c in clients:
                if self._told.get(c) == board:
                    del self._told[c]

    def send_if_here(self, client: Client, board: int, message: dict[str, Any]) -> None:
        """Send a board's message to a connection still at the table, the board still the one at the table."""
        if client in self.clients and self.board == board:
            client.send(message)


__all__ = ["BoardsTable", "SUITS", "answering", "contract_words", "fresh", "in_pool", "line_key", "named_record",
           "rank_rows", "result_line", "robot_board", "split_result"]
