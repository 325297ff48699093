"""The server's pages: every page's HTML served with the site's one top bar put in (:func:`site_page`), the
stand-alone pages (the replay viewer, puzzles, the score sheet) each an ``index.html`` with its script and style,
served with one strict content policy; and what every route that takes a JSON body shares (:func:`read_json`).

**The top bar.**  A page's HTML holds only where its bar goes, which link of the site it is, and what it adds
there (the lobby and the card pages: the four-colour deck)::

    <header class="top" data-here="/daily"></header>

and the server writes the bar in as it serves the page (:func:`site_header`): the same links on every page in the
same order (:data:`SITE_LINKS`), the page's own marked ``aria-current="page"``, and the player bar (*Sign in*, or
the player's name and *Sign out*) for the session the request carries.  Nothing moves once the page's scripts run,
and it reads the same without them; ``static/players/bar.js`` then follows the player as it changes.  A room's
page hides the bar during play: its menu takes the same links from it (``static/table.js``).
"""

from __future__ import annotations

import html
import json
import logging
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Route

log = logging.getLogger("cinch.server")

# The pages load only their own files: no inline script, no other origin, no framing.
HEADERS = {
    "Cache-Control": "no-cache",
    "Content-Security-Policy": ("default-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; "
                                "frame-ancestors 'none'"),
}

_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}


# ---- the site's top bar, one for every page ----------------------------------------------------------------------
SITE_LINKS = (("/", "Lobby"), ("/daily", "Daily deals"), ("/events", "Events"), ("/replay", "Replays"),
              ("/puzzles", "Puzzles"), ("/score", "Score sheet"), ("/ratings", "Ratings"), ("/players", "Players"))
"""The site's pages, as the top bar of every page links them, in this order."""
ACCOUNT_PAGE = "/account"  # (the player bar's Sign in, and a guest's own page)
HEADER_ASSETS = ('  <link rel="stylesheet" href="/static/header.css">\n'
                 '  <script type="module" src="/static/players/bar.js"></script>\n')
"""What the bar needs in a page's head: its look and the script that follows the player."""
_SLOT = re.compile(r'<header class="top" data-here="([^"]*)">(.*?)</header>', re.S)


def _current(href: str, here: str) -> str:
    return ' aria-current="page"' if href == here else ""


def player_bar(player: Any, here: str = "") -> str:
    """The player bar's HTML: *Sign in* for nobody; the player's name (a guest marked so), linking its profile (a
    guest's: the account page), and an account's *Sign out* (``bar.js`` makes it work)."""
    if player is None:
        inner, kind = f'<a href="{ACCOUNT_PAGE}"{_current(ACCOUNT_PAGE, here)}>Sign in</a>', ""
    else:
        kind = str(player.kind)
        shown = f"{player.name} (guest)" if kind == "guest" else str(player.name)
        href = player.profile or ACCOUNT_PAGE
        what = "profile" if player.profile else "guest page"
        inner = (f'<a href="{html.escape(href)}" data-testid="player-name"{_current(href, here)} '
                 f'aria-label="{html.escape(shown)}: your {what}">{html.escape(shown)}</a>')
        if kind == "account":
            inner += '<button type="button" class="sign-out" data-testid="sign-out">Sign out</button>'
    return (f'<div class="player-bar" data-testid="player-bar" role="group" aria-label="You" '
            f'data-player="{html.escape(kind)}">{inner}</div>')


def site_header(here: str, extras: str = "", player: Any = None) -> str:
    """The top bar of every page: the site's name, its links (``here``'s marked as the current page), what the page
    adds (``extras``: its own HTML) and the player bar."""
    links = "".join(f'\n      <a href="{href}"{_current(href, here)}>{text}</a>' for href, text in SITE_LINKS)
    return (f'<header class="top">\n    <a class="brand" href="/">Cinch</a>\n    <nav aria-label="Site">{links}\n'
            f'    </nav>{extras.rstrip()}\n    {player_bar(player, here)}\n  </header>')


def with_site_header(text: str, player: Any = None, here: str | None = None) -> str:
    """A page's HTML with the top bar written into its slot (``here``, if given, instead of the link the slot
    names: a room's page marks none) and the bar's assets into its head.  A page without a slot is left alone."""
    slot = _SLOT.search(text)
    if slot is None:
        return text
    bar = site_header(slot.group(1) if here is None else here, slot.group(2), player)
    text = text[:slot.start()] + bar + text[slot.end():]
    return text.replace("</head>", HEADER_ASSETS + "</head>", 1)


_PAGES: dict[Path, tuple[int, str]] = {}


def _page_text(file: Path) -> str:
    """A page's HTML, read again only when the file changes."""
    mtime = file.stat().st_mtime_ns
    kept = _PAGES.get(file)
    if kept is None or kept[0] != mtime:
        kept = _PAGES[file] = (mtime, file.read_text(encoding="utf-8"))
    return kept[1]


async def viewer(request: Request) -> Any:
    """The player a page's request comes from (its session cookie), or None: nobody, or a server without players,
    or a players' store that cannot be reached just now (the page then says *Sign in*, and ``bar.js`` asks again)."""
    service = getattr(request.app.state, "players", None)
    if service is None:
        return None
    try:
        return await service.identify(request)
    except Exception as e:
        log.warning("the player of a page could not be found: %s", e)
        return None


async def site_page(request: Request, file: Path, *, here: str | None = None,
                    headers: dict[str, str] | None = None) -> Response:
    """Serve a page's HTML with the site's top bar in it, for the request's player (:func:`with_site_header`)."""
    text = with_site_header(_page_text(file), await viewer(request), here)
    return HTMLResponse(text, headers=HEADERS if headers is None else headers)


def page(file: Path, *, here: str | None = None) -> Callable[[Request], Awaitable[Response]]:
    """A route's endpoint serving the page ``file`` (:func:`site_page`)."""
    async def serve(request: Request) -> Response:
        return await site_page(request, file, here=here)
    return serve


def page_routes(path: str, folder: Path, *assets: str) -> list[Route]:
    """``path`` serving ``folder/index.html``, and ``path/NAME`` each asset of ``folder`` (a .js or .css)."""
    def asset(name: str) -> Route:
        async def serve(request: Request) -> Response:
            return FileResponse(folder / name, media_type=_TYPES[Path(name).suffix],
                                headers={"Cache-Control": "no-cache"})
        return Route(f"{path}/{name}", serve)

    return [Route(path, page(folder / "index.html")), *(asset(name) for name in assets)]


def error_json(code: str, message: str, status: int) -> JSONResponse:
    """The JSON error every page API answers: a code for scripts and one sentence for people."""
    return JSONResponse({"type": "error", "code": code, "message": message}, status_code=status)


MAX_DEPTH = 16
"""The deepest a request's JSON may nest (a room's body nests three deep): a deeper one is refused before
anything walks it."""


class BadBody(Exception):
    """A request body refused before it is read as anything: its HTTP status, code and message."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message

    def response(self) -> JSONResponse:
        return error_json(self.code, self.message, self.status)


_NOTHING = object()


async def read_json(request: Request, limit: int, example: str, *, empty: Any = _NOTHING) -> Any:
    """The request's body as JSON: at most ``limit`` bytes (413 ``too-large``), UTF-8 JSON nested at most
    :data:`MAX_DEPTH` deep, with no ``NaN`` or ``Infinity`` (400 ``bad-json``, the message ending with
    ``example``, a body that would do). A UTF-8 byte-order mark is ignored, as editors write one; an empty
    body is ``empty`` where a route gives one, else refused. A client that hangs up mid-body raises
    ``ClientDisconnect``, which the app drops quietly.

    Every HTTP route that reads a body reads it here, so none parses more than its limit or walks a
    nesting its code never meant to.
    """
    size = request.headers.get("content-length", "")
    if size.isdigit() and int(size) > limit:
        raise BadBody(413, "too-large", f"the body has {int(size):,} bytes; at most {_bytes(limit)} are read")
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > limit:
            raise BadBody(413, "too-large", f"the body is longer than {_bytes(limit)}, the most read")
    if not data and empty is not _NOTHING:
        return empty
    return parse_json(bytes(data), example)


def parse_json(data: bytes, example: str) -> Any:
    """``data`` as JSON, as :func:`read_json` takes it (its refusals are the same).

    >>> parse_json(b'\\xef\\xbb\\xbf{"card": "5H"}', "{}"), parse_json(b"[[1]]", "{}")
    ({'card': '5H'}, [[1]])
    >>> parse_json(b'[' * 17 + b']' * 17, '{"card": "5H"}')
    Traceback (most recent call last):
    ...
    cinch.server.pages.BadBody: the body nests deeper than 16 levels; send {"card": "5H"}
    """
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as e:
        raise BadBody(400, "bad-json", f"the body is not UTF-8 text (byte {e.start + 1}); send {example}") from None
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        value, deep = None, True
    except ValueError as e:
        raise BadBody(400, "bad-json", f"not valid JSON ({str(e)[:120]}): the body must be JSON; send {example}"
                      ) from None
    else:
        deep = nesting(value) > MAX_DEPTH
    if deep:
        raise BadBody(400, "bad-json", f"the body nests deeper than {MAX_DEPTH} levels; send {example}")
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON knows")


def _bytes(size: int) -> str:
    """A size in words: ``16 KB``, ``2 MB``, ``600 bytes``."""
    for unit, scale in (("MB", 1024 * 1024), ("KB", 1024)):
        if size >= scale and size % scale == 0:
            return f"{size // scale} {unit}"
    return f"{size:,} bytes"


def nesting(value: Any) -> int:
    """How deep lists and objects nest in a JSON value (a plain value: 0), without recursion.

    >>> nesting({"rules": {"preset": "pagat"}, "seats": [[1], 2]}), nesting(7)
    (3, 0)
    """
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, depth + 1)
        if deepest > MAX_DEPTH:
            break
        stack.extend((child, depth + 1) for child in children)
    return deepest


async def client_gone(request: Request, exc: Exception) -> Response:
    """A client that hung up mid-body: nothing to answer, nothing to log (the app's handler for
    ``ClientDisconnect``)."""
    return Response(status_code=400)


EXCEPTION_HANDLERS = {ClientDisconnect: client_gone}
