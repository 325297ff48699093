"""``cinch serve``: the online table's server (rooms, seats, bots, spectators).

Everything is saved in the game library, so a restarted server goes on where it stood
and finished matches show in ``cinch history``.  One process on the SQLite library is the
default; ``--database-url`` (PostgreSQL) and ``--redis-url`` let any number of processes,
on one machine or several, serve the same rooms (docs/cluster.md).
"""

from __future__ import annotations

import errno
import os
import socket
from typing import Any

import click

from cinch.cli.options import db_option, fail

DEFAULT_BOT_TIME = 250  # ms: cinch.server.bots.DEFAULT_BOT_TIME (the server is imported only when it starts)

INSTALL_CLUSTER = "pip install 'cinch[cluster]'"
CLUSTER_MODULES = ("psycopg", "redis", "alembic", "sqlalchemy")  # the cluster extra, as --database-url uses it


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (0.0.0.0 for every interface: only behind a proxy you trust).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="The TCP port.")
@click.option("--public-url", default="", metavar="URL",
              help="The address invite links start with (default: the address each request came to).")
@click.option("--bot-workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Processes for slow bots (the expert), so that the server never waits on them.")
@click.option("--bot-time", default=DEFAULT_BOT_TIME, show_default=True, type=click.IntRange(1, 60000), metavar="MS",
              help="The CPU a bot's decision may take, in milliseconds, where the server chooses the bot (the daily "
                   "deals' bots, the bots a room's page offers first): the strongest that fits (250: the expert; "
                   "a few: the strongest instant bot).")
@click.option("--log-level", default="info", show_default=True,
              type=click.Choice(["critical", "error", "warning", "info", "debug"]))
@click.option("--ws-compression/--no-ws-compression", default=False, show_default=True,
              help="Compress websocket messages (less bandwidth, more CPU and memory per connection).")
@click.option("--share-library/--no-share-library", default=None,
              help="Show every game of the library in the replay viewer, the terminal's too (default: only when "
                   "listening on this machine's loopback address; the rooms' games are always shown).")
@db_option
@click.option("--database-url", envvar="CINCH_DATABASE_URL", default=None, metavar="URL",
              help="Keep the rooms and matches in PostgreSQL (postgresql://USER@HOST:PORT/DATABASE; "
                   "$CINCH_DATABASE_URL) instead of the SQLite library, so that several processes serve them.")
@click.option("--redis-url", envvar="CINCH_REDIS_URL", default=None, metavar="URL",
              help="Redis that connects the server processes sharing --database-url (redis://HOST:PORT; "
                   "$CINCH_REDIS_URL): each relays the others' updates to its own clients.")
@click.option("--cluster-lease", default=5.0, show_default=True, type=click.FloatRange(1.0, 60.0), metavar="SECONDS",
              help="With --database-url: how long a process that stops answering keeps its rooms' bots and timers "
                   "before another process takes them over.")
@click.option("--daily", "daily_presets", default="official,pagat", show_default=True, metavar="PRESETS",
              help="The daily deals: a set a day for each of these presets (comma-separated; 'none' for none).")
@click.option("--daily-bots", default=None, metavar="BOT",
              help="The bots of the daily deals: a person's partner and opponents, and the robot table's four "
                   "(default: the strongest --bot-time allows).")
@click.option("--daily-deals", default=8, show_default=True, type=click.IntRange(1, 64), help="Boards in a day's set.")
@click.option("--daily-pace", default=0.6, show_default=True, type=click.FloatRange(0.0, 10.0), metavar="SECONDS",
              help="How long a bot waits before it acts at a daily table, so that its player can follow (0: at once).")
def serve_command(host: str, port: int, public_url: str, bot_workers: int, bot_time: int, log_level: str,
                  ws_compression: bool, share_library: bool | None, db: str | None, database_url: str | None,
                  redis_url: str | None, cluster_lease: float, daily_presets: str, daily_bots: str | None,
                  daily_deals: int, daily_pace: float) -> None:
    """Serve online play: create a room, share its link, fill empty seats with bots.

    The protocol (JSON over one websocket per client) is in docs/protocol.md; several processes
    over PostgreSQL and Redis: docs/cluster.md.
    """
    import uvicorn

    from cinch.library import resolve_path
    from cinch.server.app import Thinker, create_app

    if share_library is None:
        share_library = host in ("127.0.0.1", "localhost", "::1")
    cluster = database_url is not None or redis_url is not None
    path = None if cluster else resolve_path(db)
    where = _cluster_settings(db, database_url, redis_url) if cluster else f"game library {os.fspath(path or '')}"
    daily = _daily_options(daily_presets, daily_bots or chosen_bot(bot_time), daily_deals, daily_pace)
    sock = _listen(host, port)  # (before anything is announced: a port in use is one line)
    if cluster:
        app = create_app(base_url=public_url, thinker=Thinker(bot_workers), share_library=share_library,
                         database_url=database_url, redis_url=redis_url, cluster_options={"lease": cluster_lease},
                         daily=daily, bot_time=bot_time)
    else:
        app = create_app(path, base_url=public_url, thinker=Thinker(bot_workers), share_library=share_library,
                         daily=daily, bot_time=bot_time)
    port = sock.getsockname()[1]  # (the port the system chose, for --port 0)
    click.echo(f"cinch serve: http://{f'[{host}]' if ':' in host else host}:{port}/ ({where}); Ctrl-C stops it.")
    click.echo(f"cinch serve: the server's bot at {bot_time} ms a decision: {chosen_bot(bot_time)}"
               f"{'' if daily is None or not daily.presets else f'; the daily deals: {daily.bots}'}.")
    server = uvicorn.Server(uvicorn.Config(
        app, host=host, port=port, log_level=log_level, ws_max_size=65536, ws_ping_interval=20, ws_ping_timeout=20,
        ws_per_message_deflate=ws_compression, timeout_graceful_shutdown=5))
    server.run(sockets=[sock])
    if not server.started:  # (the app could not start: uvicorn has said why)
        raise SystemExit(3)


def chosen_bot(bot_time: int) -> str:
    """The bot the server chooses where nobody names one, at ``bot_time`` ms a decision."""
    from cinch.server.bots import strongest_bot
    from cinch.table.advice import available_bots

    return strongest_bot(bot_time, available_bots())


def _daily_options(presets: str, bots: str, deals: int, pace: float) -> Any:
    """The daily deals' settings from the options (one line and exit status 2 for a mistake)."""
    from cinch.duplicate import DuplicateError
    from cinch.server.daily import DailyOptions
    from cinch.table.advice import available_bots

    names = () if presets.strip().lower() == "none" else tuple(p.strip() for p in presets.split(",") if p.strip())
    if bots not in available_bots():
        fail(f"cinch serve: --daily-bots {bots!r} is not a bot; the bots are {', '.join(available_bots())}")
    try:
        return DailyOptions(presets=names, bots=bots, deals=deals, pace=pace)
    except DuplicateError as e:
        fail(f"cinch serve: --daily {presets!r}: {e}")


_BIND_ADVICE = {errno.EADDRINUSE: "another program listens there; stop it or choose another --port",
                errno.EADDRNOTAVAIL: "that is not an address of this machine",
                errno.EACCES: "ports below 1024 need root; choose another --port"}


def _listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host`` and ``port``, for uvicorn to serve; a port in use, or an address that is
    not this machine's, is one line and exit status 2."""
    found: list[Any] = []
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as e:
        fail(f"cinch serve: --host {host} is not an address this machine can listen on "
             f"({getattr(e, 'strerror', None) or e}); give one of its addresses, as 127.0.0.1 or 0.0.0.0")
    family, kind, proto, _, address = found[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # (as uvicorn's own: a restart need not wait)
    try:
        sock.bind(address)
        sock.listen(2048)  # (uvicorn's backlog: a client that connects at once waits for the app, never refused)
    except OSError as e:
        sock.close()
        why = _BIND_ADVICE.get(e.errno or 0)
        fail(f"cinch serve: cannot listen on {host}:{port}: {e.strerror or e}" + (f" ({why})" if why else ""))
    return sock


def _cluster_settings(db: str | None, database_url: str | None, redis_url: str | None) -> str:
    """Check the cluster's options (one line and exit status 2 for a mistake) and reach Redis before the
    server starts, so that a wrong address is said plainly; the words for the greeting."""
    if database_url is None:
        fail("cinch serve: --redis-url connects processes that share a PostgreSQL database: give --database-url "
             "too (without both, the server is one process on the SQLite library)")
    assert database_url is not None
    missing = _missing(CLUSTER_MODULES)
    if missing:
        fail(f"cinch serve: --database-url needs the cluster extra, and {', '.join(missing)} "
             f"{'is' if len(missing) == 1 else 'are'} not installed; {INSTALL_CLUSTER}")
    from cinch.server.postgres import is_postgres_url, redacted

    if not is_postgres_url(database_url):
        fail(f"cinch serve: --database-url must be a PostgreSQL URL (postgresql://USER@HOST:PORT/DATABASE), not "
             f"{database_url!r}; the SQLite library is --db PATH")
    if db is not None:
        fail("cinch serve: give --db (the SQLite library of one process) or --database-url (PostgreSQL), not both")
    where = f"PostgreSQL {redacted(database_url)}"
    if redis_url is None:
        return where + "; no --redis-url: one process"
    if not redis_url.startswith(("redis://", "rediss://", "unix://")):
        fail(f"cinch serve: --redis-url must be a Redis URL (redis://HOST:PORT, rediss://, unix://), not {redis_url!r}")
    import redis

    try:
        redis.Redis.from_url(redis_url, socket_connect_timeout=5).ping()
    except (redis.RedisError, OSError) as e:
        fail(f"cinch serve: cannot reach Redis at {redis_url}: {e}")
    return f"{where}, Redis {redis_url}"


def _missing(modules: tuple[str, ...]) -> list[str]:
    """Those of ``modules`` that cannot be imported."""
    missing = []
    for name in modules:
        try:
            __import__(name)
        except ImportError:
            missing.append(name)
    return missing
