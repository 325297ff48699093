"""Several ``cinch serve`` processes serving the same rooms: PostgreSQL holds them, Redis connects them.

``cinch serve --database-url postgresql://... --redis-url redis://...``: a client may be
connected to any process, on any machine, and every process holds no state that another
could not rebuild from the database.

**Exactly once, in order.**  Every change of a room (a person's action, a bot's, a seat taken,
the next deal) is one transaction that begins by locking the room's row (``SELECT ... FOR
UPDATE``).  If the row's ``rev`` is not the one this process holds, the process first takes
the stored state (:meth:`Room.adopt`), so the room's own checks (``seq``, whose turn) run on
the latest state: of two processes given the same action at once, the second finds it stale.
The transaction writes the match's record, one row per action keyed by ``(room, seq)`` (the
database itself refuses a seq taken twice) and the room's row with ``rev + 1``, and commits
before anyone is told.

**Fan-out.**  After the commit the process publishes ``moved(room, rev)`` on one Redis channel
that every process reads; a process with connections in the room reads the row and the record,
carries its match forward by the new actions (:func:`cinch.server.store.catch_up`) and sends
its connections their states.  Chat lines and hints travel the same channel, and so does each
process's presence in a room (which seats it has a connection for, how many spectators: a
seat is connected if any process has it).  Redis only makes things quick: a process also
compares its rooms' revs with the database every second, so a lost message delays an update,
never loses it.

**Who drives a room.**  A room being played needs one process to run its bots, the grace
timers of absent players and the pause between deals: its driver, ``rooms.owner``.  Every
process renews a lease on its row of ``processes`` every second; the driver of a room is the
process that committed its start (or, when the driver's lease ran out, the next process to
change the room, or the first whose sweep finds it: ``UPDATE ... WHERE code IN (SELECT ...
FOR UPDATE SKIP LOCKED)``).  A timer's or a bot's change is fenced: it commits only while
the room's row names this process and its lease holds (:class:`~cinch.server.store.NotDriver`
otherwise).  A process killed mid-deal stops renewing; within about :data:`LEASE` seconds
another claims its rooms, loads them where the database has them and plays the bots' turns
and the grace timers from there (a grace restarts at the takeover).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, Protocol

import orjson

from cinch.cards import Seat
from cinch.errors import CinchError
from cinch.library import LibraryError
from cinch.record import _deal_entry
from cinch.server.postgres import LIVE, PgLibrary
from cinch.server.store import NOBODY, NotDriver, Presence, StorageFailed

if TYPE_CHECKING:
    from cinch.match import Match
    from cinch.server.rooms import Room
    from cinch.server.tables import ServerTable

log = logging.getLogger("cinch.server")

LEASE = 5.0  # seconds a process is taken for alive after its last renewal (then its rooms are claimed)
TICK = 1.0  # seconds between renewals, sweeps and the check of the rooms' revs
_EMPTY = Presence()


class ClusterError(CinchError):
    """The cluster's services cannot be reached or used (the message says which and why)."""


class Rooms(Protocol):
    """What the store needs of the server: its cached rooms, and what to do when something moved."""

    def cached(self, code: str) -> Room | None: ...

    def cached_rooms(self) -> Iterable[Room]: ...

    def room_for(self, code: str) -> Room | None: ...

    def moved(self, code: str, rev: int, news: dict[str, Any] | None = None) -> None: ...

    def refresh(self, room: Room) -> None: ...

    def presence_moved(self, code: str) -> None: ...

    def relay_in(self, code: str, message: dict[str, Any], seat_name: str | None) -> None: ...

    def forget_idle(self) -> None: ...


class _Change:
    """Where the room stood when its change began: the actions it adds are counted from there."""

    __slots__ = ("match_id", "seq", "deals", "actions")

    def __init__(self, room: ServerTable):
        table = room.table
        self.match_id = room.match_id
        self.seq = room.seq
        deals = table.match.deals if table is not None else []
        self.deals = len(deals)
        self.actions = len(deals[-1].history) if deals else 0


class ClusterStore:
    """The rooms of a cluster: PostgreSQL (:class:`PgLibrary`) and, between the processes, Redis (:class:`Hub`).

    Without Redis (``redis_url`` None) it serves one process on PostgreSQL: nothing is told to other
    processes, which would see a change only at their next check of the revs (a second later).
    """

    cluster = True

    def __init__(self, library: PgLibrary, redis_url: str | None = None, *, lease: float = LEASE,
                 tick: float = TICK, name: str | None = None):
        self.library = library
        self.id = name or f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self.lease, self.tick_seconds = lease, min(tick, lease / 3)  # (a lease outlives a few missed ticks)
        self.prefix = f"cinch:{library.database}:"  # two clusters on one Redis do not hear each other
        self.hub = Hub(redis_url, self.prefix, self.id, self._event, self._reconnected) if redis_url else None
        self.others: dict[str, dict[str, Presence]] = {}  # room -> other process -> its connections there
        self.mine: dict[str, Presence] = {}  # room -> this process's connections there, as last told
        self.driving: set[str] = set()  # the rooms whose timers and bots run here
        self.server: Rooms | None = None
        self._change: _Change | None = None
        self._ticker: asyncio.Task[None] | None = None
        self._behind: dict[str, int] = {}  # rooms behind the database at the last check, and its rev then
        library.heartbeat(self.id, lease)  # alive from the start: the rooms it starts are driven here

    @classmethod
    def open(cls, database_url: str, redis_url: str | None = None, **options: Any) -> ClusterStore:
        return cls(PgLibrary.open(database_url), redis_url, **options)

    # ---- a room's change ------------------------------------------------------------------------------------
    def begin(self, room: ServerTable, driver: bool) -> None:
        lib = self.library
        try:
            locked = lib.begin(room.code, self.id)
        except LibraryError as e:
            raise StorageFailed(str(e)) from None
        if locked is None:
            raise StorageFailed(f"room {room.code} is not in the database {lib.path}")
        rev, owner, _, alive = locked
        if driver and not (owner == self.id and alive):
            self._not_driving(room)
            raise NotDriver(f"room {room.code} is driven by {owner or 'nobody'} now, not by {self.id}")
        if rev != room.rev:  # another process changed the room: decide on what it stored
            try:
                state = lib.room_state(room.code)
            except LibraryError as e:
                raise StorageFailed(str(e)) from None
            if state is None:
                raise StorageFailed(f"room {room.code} is not in the database {lib.path}")
            room.adopt(state)
        self._change = _Change(room)

    def commit(self, room: ServerTable) -> None:
        change, self._change = self._change, None
        lib = self.library
        try:
            if not lib.wrote:
                lib.commit()  # (nothing written: the lock is let go)
                return
            assert change is not None
            data = room.to_json()
            rev, owner = lib.finish_change(room.code, status=room.status, match_id=room.match_id, seq=room.seq,
                                           data=data, me=self.id, actions=new_actions(room, change))
        except LibraryError:
            lib.rollback()
            raise
        room.rev = rev
        self.tell({"k": "moved", "room": room.code, "rev": rev, "news": news(room, change, data)})
        if owner == self.id and room.code not in self.driving:
            self.driving.add(room.code)
            with contextlib.suppress(RuntimeError):  # (no loop: nothing to drive with; the next sweep will)
                asyncio.get_running_loop().call_soon(room.drive)  # (once the change has told its connections)
        elif owner != self.id and room.code in self.driving:
            self._not_driving(room)

    def rollback(self, room: ServerTable) -> bool:
        self._change = None
        wrote = self.library.wrote
        self.library.rollback()
        return wrote

    def reload(self, room: ServerTable) -> None:
        """Take what the database holds (after a change that failed)."""
        try:
            state = self.library.room_state(room.code)
        except LibraryError as e:
            log.warning("room %s could not be read again: %s", room.code, e)
            return
        if state is not None:
            room.adopt(state)

    def drives(self, room: ServerTable) -> bool:
        return room.code in self.driving

    def _not_driving(self, room: ServerTable) -> None:
        self.driving.discard(room.code)
        room.abandon()

    def load_match(self, match_id: int) -> Match:
        return self.library.load_match(match_id)

    def create_room(self, room: ServerTable) -> bool:
        """Store a new room; False if its code is taken already (the caller draws another)."""
        room.rev = 0
        try:
            return self.library.create_room(room.code, status=room.status, data=room.to_json())
        except LibraryError as e:
            raise StorageFailed(str(e)) from None

    # ---- presence and messages ------------------------------------------------------------------------------
    def elsewhere(self, code: str) -> dict[str, Presence]:
        return self.others.get(code, NOBODY)

    def presence_changed(self, room: ServerTable) -> None:
        presence = room.presence()
        if self.mine.get(room.code, _EMPTY) == presence:
            return
        if presence == _EMPTY:
            self.mine.pop(room.code, None)
        else:
            self.mine[room.code] = presence
        if self.hub is not None:
            self.hub.presence(room.code, presence)

    def relay(self, room: ServerTable, message: dict[str, Any], seat: Seat | None) -> None:
        self.tell({"k": "relay", "room": room.code, "seat": None if seat is None else seat.name, "msg": message})

    def tell(self, event: dict[str, Any]) -> None:
        if self.hub is not None:
            self.hub.publish(event)

    def _event(self, event: dict[str, Any]) -> None:
        """(From Redis.)  Another process's news."""
        server, sender, code = self.server, event.get("p"), event.get("room")
        if server is None or sender == self.id or not isinstance(sender, str):
            return
        kind = event.get("k")
        if kind == "moved" and isinstance(code, str) and isinstance(event.get("rev"), int):
            server.moved(code, event["rev"], event.get("news"))
        elif kind == "presence" and isinstance(code, str):
            presence = Presence.from_json(event)
            procs = self.others.setdefault(code, {})
            if presence == _EMPTY:
                procs.pop(sender, None)
                if not procs:
                    del self.others[code]
            else:
                procs[sender] = presence
            server.presence_moved(code)
        elif kind == "relay" and isinstance(code, str) and isinstance(event.get("msg"), dict):
            seat = event.get("seat")
            server.relay_in(code, event["msg"], seat if isinstance(seat, str) else None)  # (the room reads the name)
        elif kind == "bye":  # a process stopped: its connections are gone, its rooms free to claim
            for room_code in self._forget(sender):
                server.presence_moved(room_code)
            with contextlib.suppress(CinchError):
                self.sweep()

    def _forget(self, process: str) -> Iterator[str]:
        for code, procs in list(self.others.items()):
            if procs.pop(process, None) is not None:
                if not procs:
                    del self.others[code]
                yield code

    def _reconnected(self) -> None:
        """Redis came back: tell the others our connections again, and look at every room's rev."""
        assert self.hub is not None
        for code, presence in self.mine.items():
            self.hub.presence(code, presence)
        with contextlib.suppress(CinchError):
            self.check_revs(now=True)

    # ---- the process: its lease, its rooms --------------------------------------------------------------
    async def start(self, server: Rooms) -> None:
        """(On the event loop.)  Join the cluster: Redis, the others' presence, and the ticker."""
        self.server = server
        if self.hub is not None:
            await self.hub.start()
            for code, procs in (await self.hub.load_presence()).items():
                others = {p: v for p, v in procs.items() if p != self.id}
                if others:
                    self.others[code] = others
        self.sweep()
        self._ticker = asyncio.get_running_loop().create_task(self._ticking())

    async def stop(self) -> None:
        """Leave the cluster: the rooms driven here are free to claim at once, and the others are told."""
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._ticker
        if self.hub is not None:
            await self.hub.stop(list(self.mine))
        with contextlib.suppress(CinchError):
            self.library.leave(self.id)
        self.library.close()

    async def _ticking(self) -> None:
        while True:
            await asyncio.sleep(self.tick_seconds)
            try:
                self.tick()
            except CinchError as e:
                log.warning("cluster: %s", e)
            except Exception:
                log.exception("cluster: the tick failed")

    def tick(self) -> None:
        """Every second: renew the lease, forget dead processes' connections, claim the rooms nobody drives,
        and catch up any room whose rev moved without a word from Redis."""
        lib, server = self.library, self.server
        assert server is not None
        lib.heartbeat(self.id, self.lease)
        alive = lib.live_processes()
        for process in {p for procs in self.others.values() for p in procs} - alive:
            for code in self._forget(process):
                server.presence_moved(code)
        self.sweep()
        self.check_revs()
        server.forget_idle()  # (the rooms nobody here needs any more)

    def sweep(self) -> None:
        """Claim the rooms that need a driver and have none alive; stop driving those another took."""
        lib, server = self.library, self.server
        assert server is not None
        lib.claim_orphans(self.id)
        owned = lib.driven_by(self.id)
        for code in self.driving - owned:
            room = server.cached(code)
            self.driving.discard(code)
            if room is not None:
                room.abandon()
        for code in sorted(owned - self.driving):
            room = server.room_for(code)
            if room is None or room.status not in LIVE:
                lib.release(self.id, [code])
                continue
            self.driving.add(code)
            log.info("cluster: %s drives room %s now", self.id, code)
            room.drive()

    def check_revs(self, now: bool = False) -> None:
        """Catch up the rooms this process watches whose rev in the database is ahead of it: a message lost
        on the way.  A room is read again only if it is still behind the rev seen at the previous check (or
        ``now``: Redis was away): a process busy enough to be a second behind on its messages must not also
        read every room it is behind on, which would make it further behind."""
        server = self.server
        assert server is not None
        watched = {r.code: r for r in server.cached_rooms() if r.clients or r.code in self.driving}
        behind: dict[str, int] = {}
        if watched:
            for code, rev in self.library.revs(watched).items():
                room = watched[code]
                if rev <= room.rev:
                    continue
                if now or room.rev < self._behind.get(code, rev + 1):
                    server.refresh(room)
                else:
                    behind[code] = rev
        self._behind = behind


def news(room: ServerTable, before: _Change, data: dict[str, Any]) -> dict[str, Any] | None:
    """What a change did, for the processes that hold the room as it was before it: the room's data and the
    deals of its match from the last one they hold (so that they need not read the database).  None for a
    new match (they read it).  Like the database, Redis then carries a running deal's deck: it belongs on
    the same private network."""
    table = room.table
    if table is None or room.match_id is None or room.match_id != before.match_id:
        return None
    match = table.match
    first = max(before.deals - 1, 0)
    deals = [_deal_entry(match, index, match.deals[index]) for index in range(first, len(match.deals))]
    header: dict[str, Any] = {"players": {s.name: n for s, n in match.players.items()}, **match.metadata}
    return {"match_id": room.match_id, "data": data, "from": first, "deals": deals, "header": header}


def new_actions(room: ServerTable, before: _Change) -> Iterator[tuple[int, int, int, str | None, str]]:
    """The rows of the actions log a change adds: (seq, match id, deal number, seat, action), a new deal
    counting as an action of its dealer (``deal``), as the room's seq counts it."""
    table, match_id = room.table, room.match_id
    if table is None or match_id is None:
        return
    deals = table.match.deals
    if match_id == before.match_id:
        seq, first, start = before.seq, max(before.deals - 1, 0), before.actions
    else:  # a new match (the start, a rematch): from its beginning
        seq, first, start = room.seq_base, 0, 0
    for index in range(first, len(deals)):
        deal = deals[index]
        if match_id != before.match_id or index >= before.deals:
            seq += 1
            yield seq, match_id, index + 1, deal.dealer.name, "deal"
            start = 0
        for i in range(start, len(deal.history)):
            seq += 1
            yield seq, match_id, index + 1, deal.actors[i].name, str(deal.history[i])
        start = 0


class Hub:
    """Redis between the processes: one channel every process reads, and a hash of presence per room.

    Publishing never waits: events go into a queue that a task sends in pipelines.  The channel is
    read by one task; if Redis goes away both retry, and on its return the process tells its
    presence again and checks every room's rev (what it missed meanwhile)."""

    def __init__(self, url: str, prefix: str, me: str, on_event: Any, on_reconnect: Any):
        self.url = url
        self.channel = prefix + "events"
        self.prefix = prefix
        self.me = me
        self.on_event = on_event
        self.on_reconnect = on_reconnect
        self.redis: Any = None
        self.queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []

    def key(self, code: str) -> str:
        return f"{self.prefix}presence:{code}"

    async def start(self) -> None:
        import redis.asyncio as aioredis
        from redis.exceptions import RedisError

        self.redis = aioredis.Redis.from_url(self.url, socket_connect_timeout=5, health_check_interval=15)
        try:
            await self.redis.ping()
        except (RedisError, OSError) as e:
            await self.redis.aclose()
            raise ClusterError(f"cannot reach Redis at {self.url}: {e}") from None
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(self.channel)
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listening(pubsub)), loop.create_task(self._publishing())]

    async def _listening(self, pubsub: Any) -> None:
        from redis.exceptions import RedisError

        backoff = 0.2
        while True:
            try:
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    backoff = 0.2
                    try:
                        event = orjson.loads(message["data"])
                    except orjson.JSONDecodeError:
                        continue
                    if isinstance(event, dict):
                        try:
                            self.on_event(event)
                        except Exception:
                            log.exception("cluster: an event could not be handled: %s", event.get("k"))
            except (RedisError, OSError) as e:
                log.warning("cluster: the Redis channel failed (%s); reconnecting", e)
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, 5.0)
            with contextlib.suppress(RedisError, OSError):
                await pubsub.aclose()
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel)
            except (RedisError, OSError):
                continue
            self.on_reconnect()

    def publish(self, event: dict[str, Any]) -> None:
        self.queue.put_nowait(("publish", orjson.dumps({**event, "p": self.me})))

    def presence(self, code: str, presence: Presence) -> None:
        self.queue.put_nowait(("presence", (code, presence)))
        self.publish({"k": "presence", "room": code, **presence.to_json()})

    async def _publishing(self) -> None:
        from redis.exceptions import RedisError

        while True:
            batch = [await self.queue.get()]
            while not self.queue.empty() and len(batch) < 512:
                batch.append(self.queue.get_nowait())
            try:
                await self._send(batch)
            except (RedisError, OSError) as e:  # lost: the others catch up by the revs, the presence is re-told
                log.warning("cluster: %d message(s) to Redis failed: %s", len(batch), e)

    async def _send(self, batch: list[tuple[str, Any]]) -> None:
        pipe = self.redis.pipeline(transaction=False)
        for kind, value in batch:
            if kind == "publish":
                pipe.publish(self.channel, value)
            else:
                code, presence = value
                if presence == _EMPTY:
                    pipe.hdel(self.key(code), self.me)
                else:
                    pipe.hset(self.key(code), self.me, orjson.dumps(presence.to_json()))
        await pipe.execute()

    async def load_presence(self) -> dict[str, dict[str, Presence]]:
        """Every process's presence in every room, as Redis holds it (when this process joins)."""
        out: dict[str, dict[str, Presence]] = {}
        async for key in self.redis.scan_iter(match=self.key("*"), count=500):
            code = key.decode().rsplit(":", 1)[-1]
            fields = await self.redis.hgetall(key)
            out[code] = {k.decode(): Presence.from_json(orjson.loads(v)) for k, v in fields.items()}
        return out

    async def stop(self, codes: list[str]) -> None:
        from redis.exceptions import RedisError

        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        batch = [item for item in self._drain()]
        batch += [("presence", (code, _EMPTY)) for code in codes]
        batch.append(("publish", orjson.dumps({"k": "bye", "p": self.me})))
        try:
            await asyncio.wait_for(self._send(batch), 3.0)
        except (RedisError, OSError, TimeoutError) as e:
            log.warning("cluster: could not say goodbye on Redis: %s", e)
        with contextlib.suppress(RedisError, OSError):
            await self.redis.aclose()

    def _drain(self) -> Iterator[tuple[str, Any]]:
        while not self.queue.empty():
            yield self.queue.get_nowait()


__all__ = ["LEASE", "ClusterError", "ClusterStore", "Hub", "new_actions"]
