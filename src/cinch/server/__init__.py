"""``cinch serve``: rooms of four for people and bots, played over websockets.

- :mod:`cinch.server.protocol`: the messages, checked on the way in (docs/protocol.md);
- :mod:`cinch.server.views`: a deal as JSON for one seat or a spectator;
- :mod:`cinch.server.tables`: a table on the server, composed of parts with one job each (seats,
  games, clocks, turns, hints, audience, between, changes: its docstring lists them);
- :mod:`cinch.server.rooms`: a room, the table people open by invite link: its host and messages;
- :mod:`cinch.server.app`: the HTTP routes and the websocket, on Starlette under uvicorn.

The server stands on :class:`cinch.table.Table` like every other front end; nothing
below it knows of sockets.
"""

from cinch.server.app import Server, create_app

__all__ = ["Server", "create_app"]
