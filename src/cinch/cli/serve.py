"""``cinch serve``: the online table's server (rooms, seats, bots, spectators).

Everything is saved in the game library, so a restarted server goes on where it stood
and finished matches show in ``cinch history``.  One process on the SQLite library is the
default; ``--database-url`` (PostgreSQL) and ``--redis-url`` let any number of processes,
on one machine or several, serve the same rooms (docs/cluster.md).
"""

from __future__ import annotations

import os

import click

from cinch.cli.options import db_option, fail


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (0.0.0.0 for every interface: only behind a proxy you trust).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="The TCP port.")
@click.option("--public-url", default="", metavar="URL",
              help="The address invite links start with (default: the address each request came to).")
@click.option("--bot-workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Processes for slow bots (the expert), so that the server never waits on them.")
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
def serve_command(host: str, port: int, public_url: str, bot_workers: int, log_level: str, ws_compression: bool,
                  share_library: bool | None, db: str | None, database_url: str | None,
                  redis_url: str | None, cluster_lease: float) -> None:
    """Serve online play: create a room, share its link, fill empty seats with bots.

    The protocol (JSON over one websocket per client) is in docs/protocol.md; several processes
    over PostgreSQL and Redis: docs/cluster.md.
    """
    import uvicorn

    from cinch.library import resolve_path
    from cinch.server.app import Thinker, create_app

    if share_library is None:
        share_library = host in ("127.0.0.1", "localhost", "::1")
    if database_url is not None or redis_url is not None:
        where = _cluster_settings(db, database_url, redis_url)
        assert database_url is not None
        app = create_app(base_url=public_url, thinker=Thinker(bot_workers), share_library=share_library,
                         database_url=database_url, redis_url=redis_url, cluster_options={"lease": cluster_lease})
    else:
        path = resolve_path(db)
        where = f"game library {os.fspath(path)}"
        app = create_app(path, base_url=public_url, thinker=Thinker(bot_workers), share_library=share_library)
    click.echo(f"cinch serve: http://{host}:{port}/ ({where}); Ctrl-C stops it.")
    uvicorn.run(app, host=host, port=port, log_level=log_level, ws_max_size=65536, ws_ping_interval=20,
                ws_ping_timeout=20, ws_per_message_deflate=ws_compression, timeout_graceful_shutdown=5)


def _cluster_settings(db: str | None, database_url: str | None, redis_url: str | None) -> str:
    """Check the cluster's options (one line and exit status 2 for a mistake) and reach Redis before the
    server starts, so that a wrong address is said plainly; the words for the greeting."""
    from cinch.server.postgres import is_postgres_url, redacted

    if database_url is None:
        fail("cinch serve: --redis-url connects processes that share a PostgreSQL database: give --database-url "
             "too (without both, the server is one process on the SQLite library)")
    assert database_url is not None
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
