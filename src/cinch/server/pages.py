"""The server's stand-alone pages (the replay viewer, puzzles, the score sheet): each an
``index.html`` with its script and style, served with one strict content policy."""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
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
