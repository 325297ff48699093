"""``cinch serve``: the online table's server (rooms, seats, bots, spectators) on one machine.

Everything is saved in the game library, so a restarted server goes on where it stood
and finished matches show in ``cinch history``.
"""

from __future__ import annotations

import os

import click

from cinch.cli.options import db_option


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
def serve_command(host: str, port: int, public_url: str, bot_workers: int, log_level: str, ws_compression: bool,
                  share_library: bool | None, db: str | None) -> None:
    """Serve online play: create a room, share its link, fill empty seats with bots.

    The protocol (JSON over one websocket per client) is in docs/protocol.md.
    """
    import uvicorn

    from cinch.library import resolve_path
    from cinch.server.app import Thinker, create_app

    path = resolve_path(db)
    if share_library is None:
        share_library = host in ("127.0.0.1", "localhost", "::1")
    app = create_app(path, base_url=public_url, thinker=Thinker(bot_workers), share_library=share_library)
    click.echo(f"cinch serve: http://{host}:{port}/ (game library {os.fspath(path)}); Ctrl-C stops it.")
    uvicorn.run(app, host=host, port=port, log_level=log_level, ws_max_size=65536, ws_ping_interval=20,
                ws_ping_timeout=20, ws_per_message_deflate=ws_compression, timeout_graceful_shutdown=5)
