"""The server's stand-alone pages (the replay viewer, puzzles, the score sheet): each an
``index.html`` with its script and style, served with one strict content policy; and what every
route that takes a JSON body shares (:func:`read_json`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

# The pages load only their own files: no inline script, no other origin, no framing.
HEADERS = {
    "Cache-Control": "no-cache",
    "Content-Security-Policy": ("default-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; "
                                "frame-ancestors 'none'"),
}

_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}


def page_routes(path: str, folder: Path, *assets: str) -> list[Route]:
    """``path`` serving ``folder/index.html``, and ``path/NAME`` each asset of ``folder`` (a .js or .css)."""
    async def page(request: Request) -> Response:
        return FileResponse(folder / "index.html", media_type="text/html; charset=utf-8", headers=HEADERS)

    def asset(name: str) -> Route:
        async def serve(request: Request) -> Response:
            return FileResponse(folder / name, media_type=_TYPES[Path(name).suffix],
                                headers={"Cache-Control": "no-cache"})
        return Route(f"{path}/{name}", serve)

    return [Route(path, page), *(asset(name) for name in assets)]


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
