"""The web server: the HTTP routes, one websocket per client, and the rooms they open.

>>> import tempfile, os
>>> app = create_app(os.path.join(tempfile.mkdtemp(), "games.sqlite3"))
>>> "/ws" in [route.path for route in app.routes]
True
>>> app.state.server.rooms
{}
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

import cinch.server.protocol as protocol
from cinch.actions import Action, parse_action
from cinch.cards import Seat
from cinch.errors import CinchError
from cinch.library import Library, LibraryError
from cinch.record import dumps
from cinch.server.bots import DEFAULT_BOT_TIME, strongest_bot
from cinch.server.daily import DailyOptions, add_daily_routes
from cinch.server.events import add_event_routes
from cinch.server.games import OVER, WAITING
from cinch.server.hints import hint_now
from cinch.server.pages import EXCEPTION_HANDLERS, BadBody, read_json, site_page
from cinch.server.players import Player, add_player_routes, player_of
from cinch.server.protocol import Refusal
from cinch.server.puzzles import add_puzzle_routes
from cinch.server.ratings import Ledger, Ratings, add_rating_routes
from cinch.server.replays import add_replay_routes
from cinch.server.rooms import Room, Settings, new_code, new_token, rules_of, set_paces
from cinch.server.scoresheet import add_scoresheet_routes
from cinch.server.seats import Place, seat_info, table_json, token_hash
from cinch.server.security import CsrfGuard
from cinch.server.store import LocalStore, StorageFailed, Store

log = logging.getLogger("cinch.server")

STATIC = Path(__file__).parent / "static"  # the browser table: plain HTML, CSS and JavaScript modules

KEEP_WAITING = 24 * 3600  # seconds a room nobody has started stays open
KEEP_OVER = 3600  # seconds a room whose match is over stays open (for a rematch) without anyone in it
MAX_ROOMS = 5000  # rooms not yet over, at most: a flood of creations cannot fill the memory
KEEP_CACHED = 60  # seconds a cluster's process keeps a room nobody here is in and that it does not drive
MAX_ROOM_BODY = 16 * 1024  # bytes: the largest body POST /api/rooms reads (a room's is a few hundred)
SEND_QUEUE = 256  # messages waiting for a slow client before it is cut off (it reconnects to a snapshot)
CUT_OFF_WAIT = 30.0  # seconds a client cut off for being slow has to read on to its close frame


class Bucket:
    """A token bucket: ``rate`` messages a second, ``burst`` at once."""

    def __init__(self, rate: float, burst: float):
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Connection:
    """One client: the room it opened, its seat, and the messages waiting to be sent to it."""

    def __init__(self, send_text: Callable[[str], Any] | None = None):
        self.seat: Seat | None = None
        self.host = False
        self.room: Room | None = None
        self.player: Player | None = None  # the guest or account of the handshake's session (a seat takes it)
        self.queue: asyncio.Queue[str] | None = None
        self.sent: list[dict[str, Any]] | None = None  # (tests) messages kept instead of sent
        self.messages = Bucket(rate=20, burst=40)
        self.chats = Bucket(rate=0.5, burst=5)
        self.behind = asyncio.Event()  # set when the client fell SEND_QUEUE messages behind: it is cut off

    def send(self, message: dict[str, Any] | str) -> None:
        if self.behind.is_set():
            return  # (being cut off: it gets a fresh state when it reconnects)
        text = message if isinstance(message, str) else _dumps(message)
        if self.queue is None:
            if self.sent is not None:
                import json

                self.sent.append(json.loads(text))
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.behind.set()


def _ended(task: asyncio.Task[Any]) -> None:
    """A connection's reader or pump has ended: how is of no interest (the client is gone, or cut off)."""
    if not task.cancelled():
        task.exception()  # (taken, so that asyncio does not log it as never retrieved)


async def cut_off(ws: WebSocket) -> None:
    """Close a client that fell too far behind: the close frame (1008, "too slow") follows what its socket
    still holds, once it reads again; one that reads nothing for CUT_OFF_WAIT seconds more is let go."""
    with contextlib.suppress(Exception):  # (the client may be gone meanwhile)
        await asyncio.wait_for(ws.close(code=1008, reason="too slow: reconnect for a fresh state"), CUT_OFF_WAIT)


def _dumps(message: dict[str, Any]) -> str:
    import json

    return json.dumps(message, ensure_ascii=False)


class Thinker:
    """Slow bots think in a pool of processes, so that the event loop never waits on them."""

    def __init__(self, workers: int = 1):
        self.workers = workers
        self.pool: ProcessPoolExecutor | None = None

    def _pool(self) -> ProcessPoolExecutor:
        if self.pool is None:
            import multiprocessing

            self.pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                            initializer=watch_parent)
        return self.pool

    async def think(self, bot: str, seed: int, view: Any) -> tuple[Action | None, Exception | None]:
        try:
            text = await asyncio.get_running_loop().run_in_executor(self._pool(), _think, bot, seed, view)
            return parse_action(text), None
        except Exception as e:
            return None, e

    async def hint(self, bot: str, view: Any) -> tuple[str, str, str]:
        return await asyncio.get_running_loop().run_in_executor(self._pool(), hint_now, bot, view)

    def close(self) -> None:
        """Stop the workers now, a move or a hint under way too: nobody waits for it any more, and a worker
        left thinking would outlive the server (and the multiprocessing resource tracker with it)."""
        pool, self.pool = self.pool, None
        if pool is None:
            return
        workers = list((pool._processes or {}).values())  # (the executor cannot stop a task under way itself)
        pool.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            worker.terminate()


def watch_parent() -> None:
    """(In a worker, as it starts.)  Exit the moment the server process is gone, however it went (SIGKILL
    too): the worker would otherwise wait for work forever, and hold the resource tracker with it."""
    import multiprocessing
    import multiprocessing.connection
    import threading

    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])  # (ready once the parent's end of the pipe closes)
        os._exit(0)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


_WORKER_BOTS: dict[str, Any] = {}


def _think(bot: str, seed: int, view: Any) -> str:
    """(In a worker process.)  The bot's action for the view, as record notation."""
    from cinch.bots import make_bot

    if bot not in _WORKER_BOTS:
        _WORKER_BOTS[bot] = make_bot(bot, seed=seed)
    return str(_WORKER_BOTS[bot].choose(view))


class Server:
    """The rooms of one server process and the library they are saved in.

    With a cluster's store (:class:`cinch.server.cluster.ClusterStore`) ``rooms`` is a cache: a room is
    loaded from the database when a client names it or when this process comes to drive it, kept up to
    date when another process changes it, and let go when nobody here needs it."""

    def __init__(self, library: Library | None, *, base_url: str = "", thinker: Thinker | None = None,
                 room_defaults: dict[str, Any] | None = None, share_library: bool = True,
                 store: Store | None = None, seed: int | None = None, bot_time: float = DEFAULT_BOT_TIME):
        if store is None:
            assert library is not None, "a server needs a library or a store"
            store = LocalStore(library)
        self.store = store
        self.library: Any = store.library
        self.share_library = share_library  # the terminal's games too (not only the rooms'), in /api/library
        self.base_url = base_url.rstrip("/")
        self.thinker = thinker if thinker is not None else Thinker()
        self.rooms: dict[str, Room] = {}  # (and the daily tables: cinch.server.daily.DailyTable)
        self.daily: Any = None  # the daily deals (cinch.server.daily.DailyService), unless the server has none
        self.events: Any = None  # the private events (cinch.server.events.EventService)
        self.ledger: Ledger | None = None  # where the rooms report their players' games and finished matches
        self.room_defaults = dict(room_defaults or {})
        self.seed = seed  # (tests) every room deals from this seed instead of fresh secrets: the same deals each run
        self.bot_time = bot_time  # ms of CPU a bot's decision may take, where the server chooses the bot

    def default_bot(self) -> str:
        """The bot the server seats where nobody names one: the strongest installed that ``bot_time`` allows."""
        from cinch.table.advice import available_bots

        return strongest_bot(self.bot_time, available_bots())

    def chance(self) -> random.Random | None:
        """A room's source of chance: None (fresh secrets), or with a seed, a generator of its own that starts
        from it, so that a room's deals follow from what happens in it alone, whatever other rooms do."""
        return None if self.seed is None else random.Random(self.seed)

    def link(self, code: str, base: str | None = None) -> str:
        return f"{(self.base_url or base or '').rstrip('/')}/rooms/{code}"

    def load(self) -> None:
        """Every stored room not over (and those over in the last hour, for a rematch), where it stood:
        people reconnect with their tokens.  (A cluster loads a room when it is asked for or claimed.)"""
        if self.store.cluster:
            return
        now = datetime.now(UTC)
        recent = (now - timedelta(seconds=KEEP_OVER)).isoformat()
        today = (now - timedelta(seconds=KEEP_WAITING)).isoformat()
        for row in self.library.rooms(statuses=("waiting", "playing", "between-deals", "over")):
            if (row["status"] == OVER and row["updated"] < recent) or (row["status"] == "waiting"
                                                                       and row["updated"] < today):
                continue
            try:
                room = self.table_of(row)
            except Exception as e:  # a damaged room must not keep the others from opening
                log.error("room %s could not be restored: %s", row["code"], e)
                continue
            self.rooms[room.code] = room

    def resume_rooms(self) -> None:
        """(On the event loop.)  Restored rooms start their grace timers and bots."""
        if self.store.cluster:
            return  # (the rooms nobody drives are claimed by the store's sweep)
        for room in self.rooms.values():
            room.resume()

    def create(self, body: Any, base: str | None = None) -> dict[str, Any]:
        if not isinstance(body, dict):
            raise Refusal("bad-request", "send a JSON object: {\"rules\": \"pagat\", \"grace\": 60, ...}")
        allowed = {"rules", "options", "target", "grace", "between_deals", "bot_delay", "trick_pause", "hints",
                   "listed", "substitute"}
        unknown = sorted(set(body) - allowed)
        if unknown:
            raise Refusal("bad-request",
                          f"unknown field {', '.join(unknown)}; the fields are {', '.join(sorted(allowed))}")
        self.forget_idle()
        live = sum(1 for r in self.rooms.values() if r.status != OVER)
        if live >= MAX_ROOMS:
            raise Refusal("full", f"the server holds {live} rooms already; try later")
        spec = {**self.room_defaults, **body}
        settings = Settings(rules_of(spec, "pagat"))
        set_paces(settings, spec)
        for key in ("hints", "listed"):
            if key in spec:
                if not isinstance(spec[key], bool):
                    raise Refusal("bad-request", f"{key} must be true or false")
                setattr(settings, key, spec[key])
        if "substitute" in spec:
            from cinch.table.advice import available_bots

            if spec["substitute"] not in available_bots():
                raise Refusal("bad-request", f"substitute must be a bot: {', '.join(available_bots())}")
            settings.substitute = spec["substitute"]
        host_token = new_token()
        while True:
            code = new_code(lambda c: c in self.rooms)
            room = Room(code, settings, token_hash(host_token), self.library, link=self.link(code, base),
                        thinker=self.thinker, store=self.store, chance=self.chance(), ledger=self.ledger)
            try:
                if self.store.create_room(room):
                    break  # (else another process took the code a moment ago: draw again)
            except StorageFailed as e:
                raise Refusal("storage", f"the room could not be saved ({e}); try again") from None
        self.rooms[code] = room
        return {"code": code, "link": room.link, "host_token": host_token, "room": room.info()}

    def forget_idle(self) -> None:
        """Close the rooms whose match has been over for an hour, and those still waiting for players after a
        day, with nobody in them (their matches stay in the library)."""
        now = time.monotonic()
        if self.store.cluster:  # the database keeps every room; here, only those someone here needs
            for code, room in list(self.rooms.items()):
                if not room.clients and not self.store.drives(room) and now - room.last_change > KEEP_CACHED:
                    room.close()
                    del self.rooms[code]
            return
        for code, room in list(self.rooms.items()):
            idle = now - room.last_change
            if room.clients or not ((room.status == OVER and idle > KEEP_OVER) or
                                    (room.status == "waiting" and idle > KEEP_WAITING)):
                continue
            room.close()
            del self.rooms[code]
            if room.status == "waiting":
                with contextlib.suppress(Exception):
                    self.library.save_room(code, status="closed", match_id=None, data=room.to_json())

    def room(self, code: str) -> Room:
        room = self.room_for(code.strip().upper())
        if room is None:
            raise Refusal("unknown-room", f"there is no room {code!r} on this server (codes are {6} letters "
                                          "and digits, as in the invite link)")
        return room

    def lobby(self) -> list[dict[str, Any]]:
        self.forget_idle()
        if not self.store.cluster:
            return [r.info() for r in self.rooms.values() if r.settings.listed and r.status != OVER]
        out = []
        for row in self.store.library.lobby_rooms(KEEP_WAITING):
            room = self.rooms.get(row["code"])
            if room is not None and not room.stale:
                if room.settings.listed and room.status != OVER:
                    out.append(room.info())
                continue
            with contextlib.suppress(Exception):  # (a damaged row must not hide the other rooms)
                info = self.stored_info(row)
                if info is not None:
                    out.append(info)
        return out

    def stored_info(self, row: dict[str, Any]) -> dict[str, Any] | None:
        """A room's ``info`` from its stored row alone (the lobby of a cluster: no match replayed)."""
        data = row["data"]
        settings = Settings.from_json(data["settings"])
        if not settings.listed:
            return None
        rules = settings.rules
        table = rules.seating
        places = {p.seat: p for p in (Place.from_json(e, table) for e in data["places"])}
        here: set[Any] = set()
        spectators = 0
        for presence in self.store.elsewhere(row["code"]).values():
            here |= {seat for seat in table.seats if seat.name in presence.seats}
            spectators += presence.spectators
        seats = [seat_info(places[seat], here) for seat in table.seats]
        return {"code": row["code"], "link": self.link(row["code"]), "status": row["status"] or WAITING,
                "rules": rules.to_json(), "rules_name": rules.name, "target": rules.target, **table_json(table),
                "seats": seats,
                "spectators": spectators, "grace": settings.grace, "between_deals": settings.between_deals,
                "trick_pause": settings.trick_pause, "hints": settings.hints, "match_id": row["match_id"],
                "ready": [n for n in table.names if n in data.get("ready", ()) and row["status"] == "between-deals"]}

    # ---- the cluster's news (cinch.server.cluster) ------------------------------------------------------
    def cached(self, code: str) -> Room | None:
        return self.rooms.get(code)

    def cached_rooms(self) -> list[Room]:
        return list(self.rooms.values())

    def room_for(self, code: str) -> Room | None:
        """The room with this code: held here, or (a cluster) loaded from the database; None if none."""
        room = self.rooms.get(code)
        if room is not None:
            if room.stale:
                self.refresh(room)
            return room
        if not self.store.cluster:
            return None
        try:
            row = self.store.library.find_room(code, KEEP_OVER, KEEP_WAITING)
        except LibraryError as e:
            raise Refusal("storage", f"room {code} could not be read ({e}); try again") from None
        if row is None:
            return None
        room = self.table_of(row)
        self.rooms[code] = room
        return room

    def table_of(self, row: dict[str, Any]) -> Room:
        """A stored table: a room, a daily table (cinch.server.daily) or an event's (cinch.server.events), as its
        stored kind says."""
        data = row.get("data")
        if isinstance(data, dict) and data.get("kind") == "daily" and self.daily is not None:
            return self.daily.load_table(row, self.thinker, self.store)
        if isinstance(data, dict) and data.get("kind") == "event" and self.events is not None:
            return self.events.load_table(row, self.thinker, self.store)
        return Room.load(row, self.library, link=self.link(row["code"]), thinker=self.thinker, store=self.store,
                         chance=self.chance(), ledger=self.ledger)

    def forget_player(self, player_id: str) -> None:
        """(On the event loop, as a player is deleted.)  The rooms where it sits name its seat "former player"
        at once, each in a change of its own, so that none writes its name back after the store's sweep; a
        cluster's process loads such a room from the database to do it (the others hear of it as of any change)."""
        codes = {code for code, room in self.rooms.items() if room.seats.held_by(player_id) is not None}
        if self.store.cluster:
            try:
                codes |= set(self.library.player_rooms(player_id))
            except LibraryError as e:
                log.warning("the rooms of a player being deleted could not be read: %s", e)
        for code in sorted(codes):
            try:
                room = self.room_for(code)
                if room is not None:
                    room.forget_player(player_id)
            except (Refusal, CinchError) as e:  # (the store's sweep still renames the seat where it is kept)
                log.warning("room %s could not forget a deleted player now: %s", code, e)

    def moved(self, code: str, rev: int, news: dict[str, Any] | None = None) -> None:
        """Another process changed a room: catch up now if anyone here watches it or it is driven here, from
        what it told (``news``) when this process held the room as it was just before, else from the
        database."""
        room = self.rooms.get(code)
        if room is None or rev <= room.rev:
            return
        if not room.clients and not self.store.drives(room):
            room.stale = True  # (caught up when next asked for)
            return
        try:
            taken = news is not None and room.take_news(rev, news)
        except Exception:  # a message that does not fit: the database says what is
            log.exception("room %s: news of rev %d could not be taken", code, rev)
            taken = False
        if taken:
            room.broadcast()
            room.settle()
        else:
            self.refresh(room)

    def refresh(self, room: Room) -> None:
        """Bring a room to what the database holds and tell its connections here."""
        try:
            state = self.store.library.room_state(room.code)
        except LibraryError as e:
            log.warning("room %s could not be read: %s", room.code, e)
            return
        if state is None:
            return
        if state["rev"] != room.rev or room.stale:
            room.adopt(state)
            room.broadcast()
        room.settle()

    def presence_moved(self, code: str) -> None:
        room = self.rooms.get(code)
        if room is not None and not room.stale:
            room.presence_moved()

    def relay_in(self, code: str, message: dict[str, Any], seat_name: str | None) -> None:
        """A chat line (``seat_name`` None) or a hint for the seat of that name, from another process."""
        room = self.rooms.get(code)
        if room is None:
            return
        if seat_name is None:
            room.deliver(message)
        elif seat_name in room.seating.names:
            room.deliver(message, room.seating.seats[room.seating.names.index(seat_name)])

    # ---- a client's message ---------------------------------------------------------------------------------
    def handle(self, conn: Connection, text: str | bytes) -> None:
        """Take one message from a client: an ``error`` goes back for anything refused; the room goes on."""
        try:
            if not conn.messages.take():
                raise Refusal("rate-limited", "too many messages: at most 20 a second; this one was dropped")
            self._dispatch(conn, protocol.parse_client(text))
        except Refusal as e:
            conn.send(e.to_json())
        except Exception:  # a bug must not take the connection or the room down
            log.exception("message from a client failed")
            conn.send({"type": "error", "code": "internal", "message": "the server failed on that message; "
                       "nothing was changed by it"})

    def _dispatch(self, conn: Connection, msg: Any) -> None:
        if isinstance(msg, protocol.Hello):
            self.room(msg.room).attach(conn, msg.token, msg.host_token)
            return
        room = conn.room
        if room is None:
            raise Refusal("no-room", "send hello with a room code first")
        if isinstance(msg, protocol.Act):
            room.act(conn, msg.seq, msg.action, irregular=msg.irregular)
        elif isinstance(msg, protocol.Join | protocol.TakeSeat):
            room.join(conn, msg.seat, msg.name, msg.entropy, take=isinstance(msg, protocol.TakeSeat))
        elif isinstance(msg, protocol.Leave):
            room.leave(conn)
        elif isinstance(msg, protocol.Fill):
            room.fill(conn, msg.seat, msg.bot)
        elif isinstance(msg, protocol.Start):
            room.start(conn)
        elif isinstance(msg, protocol.Ready):
            room.ready_now(conn)
        elif isinstance(msg, protocol.HintRequest):
            room.hint(conn)
        elif isinstance(msg, protocol.Rematch):
            room.rematch(conn)
        elif isinstance(msg, protocol.Chat):
            if not conn.chats.take():
                raise Refusal("rate-limited", "too many chat lines: one every two seconds, five at once")
            room.chat(conn, msg.text)

    def disconnect(self, conn: Connection) -> None:
        if conn.room is not None:
            conn.room.detach(conn)

    def close(self) -> None:
        for room in self.rooms.values():
            room.close()
        self.thinker.close()


# ---- the app ---------------------------------------------------------------------------------------------
FIRST_FREEZE = 10.0  # seconds after the start (the stored rooms are loaded by then)
FREEZE_EVERY = 60.0
UNFREEZE_EVERY = 6 * 3600.0


async def keep_garbage_collection_short() -> None:
    """Keep Python's cycle collector from stopping the event loop for long.

    A server holds many long-lived objects (rooms, matches, narrations), and a full collection
    walks them all: at 2,000 connections it stopped the loop for 250 ms and more.  Every minute
    what has survived so far is frozen (``gc.freeze``: the collector no longer walks it; plain
    reference counting still frees it), and every few hours it is thawed and collected once, so
    that no garbage cycle outlives a day.
    """
    import gc

    thawed = time.monotonic()
    await asyncio.sleep(FIRST_FREEZE)
    while True:
        if time.monotonic() - thawed > UNFREEZE_EVERY:
            gc.unfreeze()
            gc.collect()
            thawed = time.monotonic()
        gc.freeze()
        await asyncio.sleep(FREEZE_EVERY)

def create_app(db: str | os.PathLike[str] | None = None, *, base_url: str = "", thinker: Thinker | None = None,
               room_defaults: dict[str, Any] | None = None, share_library: bool = True,
               database_url: str | None = None, redis_url: str | None = None,
               cluster_options: dict[str, Any] | None = None, seed: int | None = None,
               daily: DailyOptions | None = None, bot_time: float = DEFAULT_BOT_TIME) -> Starlette:
    """The ASGI app over the game library at ``db`` (``$CINCH_DB`` or the default library if None), or, with
    ``database_url``, over PostgreSQL, shared with the other processes that ``redis_url`` connects.  ``seed``
    (tests): every room deals from it (:meth:`Server.chance`).  ``daily``: the daily deals' settings (the defaults
    if None, their bots the server's choice; ``DailyOptions(presets=())`` offers none).  ``bot_time``: the ms of CPU
    a bot's decision may take where the server chooses the bot (:func:`cinch.server.bots.strongest_bot`)."""
    store: Store
    if database_url is not None:
        from cinch.server.cluster import ClusterStore

        store = ClusterStore.open(database_url, redis_url, **(cluster_options or {}))
    else:
        if redis_url is not None:
            raise LibraryError("--redis-url connects processes that share a PostgreSQL database: give "
                               "--database-url too (SQLite serves one process)")
        store = LocalStore(Library.open(db))
    server = Server(None, base_url=base_url, thinker=thinker, room_defaults=room_defaults,
                    share_library=share_library, store=store, seed=seed, bot_time=bot_time)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await store.start(server)
        server.resume_rooms()
        if server.daily is not None:
            server.daily.start()
        keeper = asyncio.get_running_loop().create_task(keep_garbage_collection_short())
        try:
            yield
        finally:
            keeper.cancel()
            if server.daily is not None:
                server.daily.stop()
            if server.events is not None:
                server.events.stop()
            server.close()
            await ledger.settled()  # (the last games and ratings written before the players' store closes)
            app.state.players.close()
            await store.stop()

    def error(refusal: Refusal, status: int) -> JSONResponse:
        return JSONResponse(refusal.to_json(), status_code=status)

    async def create_room(request: Request) -> Response:
        try:
            body = await read_json(request, MAX_ROOM_BODY, '{"rules": "pagat", "target": 62}')
        except BadBody as e:
            return e.response()
        try:
            made = server.create(body, str(request.base_url))
        except Refusal as e:
            return error(e, 503 if e.code == "full" else 400)
        return JSONResponse(made, status_code=201)

    async def lobby(request: Request) -> Response:
        return JSONResponse({"rooms": server.lobby()})

    async def room_info(request: Request) -> Response:
        try:
            return JSONResponse(server.room(request.path_params["code"]).info())
        except Refusal as e:
            return error(e, 404)

    async def room_record(request: Request) -> Response:
        try:
            record = server.room(request.path_params["code"]).record()
        except Refusal as e:
            return error(e, 404)
        return Response(dumps(record), media_type="application/json")

    async def page(request: Request) -> Response:
        # The lobby and every room are one page: its script reads the address (a room's marks no link of the bar).
        here = None if request.url.path == "/" else ""
        return await site_page(request, STATIC / "index.html", here=here, headers={"Cache-Control": "no-cache"})

    async def schema(request: Request) -> Response:
        return JSONResponse(protocol.json_schema())

    async def presets(request: Request) -> Response:
        return JSONResponse(presets_json(server.default_bot()))

    async def websocket(ws: WebSocket) -> None:
        conn = Connection()
        try:
            conn.player = await player_of(ws)  # (the handshake's session: the player a seat taken here is)
        except Exception as e:  # (the players' store is away: this connection sits under a typed name)
            log.warning("the player of a websocket could not be found: %s", e)
        await ws.accept()
        conn.queue = asyncio.Queue(maxsize=SEND_QUEUE)

        async def pump() -> None:
            assert conn.queue is not None
            while True:
                await ws.send_text(await conn.queue.get())

        async def read() -> None:
            with contextlib.suppress(WebSocketDisconnect):
                while True:
                    message = await ws.receive()
                    if message["type"] == "websocket.disconnect":
                        return
                    data = message.get("text")
                    server.handle(conn, data if data is not None else message.get("bytes") or b"")

        # Until the client leaves, or falls SEND_QUEUE messages behind (its pump stuck in a full socket).
        tasks = [asyncio.create_task(job) for job in (pump(), read(), conn.behind.wait())]
        for task in tasks:
            task.add_done_callback(_ended)
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            server.disconnect(conn)
            for task in tasks:
                task.cancel()
            await asyncio.wait(tasks)
        if conn.behind.is_set():
            await cut_off(ws)

    routes: list[Any] = [
        Route("/", page),
        Route("/api/presets", presets),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms", lobby, methods=["GET"]),
        Route("/api/rooms/{code}", room_info),
        Route("/api/protocol", schema),
        Route("/rooms/{code}/record", room_record),
        Route("/rooms/{code}", page),
        WebSocketRoute("/ws", websocket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    add_replay_routes(routes, server)
    add_puzzle_routes(routes)
    add_scoresheet_routes(routes, server)
    players = add_player_routes(routes, server, base_url)  # (guests and accounts: docs/players.md)
    ratings = Ratings(players.store)  # type: ignore[arg-type]  # (the players' store holds the ratings too)
    ledger = Ledger(players.store, ratings)
    server.ledger = ledger  # (before the stored rooms are loaded: they report to it)
    players.erasing.append(server.forget_player)
    add_rating_routes(routes, ratings)
    options = daily if daily is not None else DailyOptions(bots=server.default_bot())
    add_daily_routes(routes, server, options if options.presets else None, ratings=ratings)  # (docs/duplicate.md)
    add_event_routes(routes, server, ratings=ratings, max_rooms=MAX_ROOMS)  # (private events: docs/duplicate.md)
    server.load()
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers=EXCEPTION_HANDLERS,
                    middleware=[Middleware(CsrfGuard, public_url=base_url)])  # (every change under GUARDED)
    app.state.server = server
    app.state.players = players
    app.state.ratings = ratings  # (record_daily for the daily deals)
    return app


def presets_json(default_bot: str | None = None) -> dict[str, Any]:
    """The presets in plain words, every option with its values, and the bots: what the lobby offers, with the
    bot a room's page offers first (the server's choice: :meth:`Server.default_bot`)."""
    from cinch.rules import OPTION_NAMES, PRESET_NAMES, RULE_TEXTS, Rules, option_help, option_values
    from cinch.table.advice import available_bots

    text_of = {preset: number for number, preset in RULE_TEXTS.items()}
    return {
        "presets": [{"name": name, "text": text_of[name], "target": Rules.preset(name).target,
                     "rules": Rules.preset(name).describe()} for name in PRESET_NAMES],
        "options": [{"name": key, "values": option_values(key), "help": option_help(key)[0]}
                    for key in OPTION_NAMES],
        "bots": available_bots(),
        "default_bot": default_bot or strongest_bot(DEFAULT_BOT_TIME, available_bots()),
    }
