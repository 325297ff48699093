"""What guards the server's state-changing routes: CSRF checks and the limits on repeated attempts.

**CSRF.**  A change made over HTTP (POST, PUT, PATCH, DELETE) under one of the :data:`GUARDED` prefixes
is taken only if

- it comes from this server's own pages: its ``Origin`` header, when there is one, is this server's
  origin (the address the request came to, or ``--public-url``'s); without an ``Origin``, its
  ``Sec-Fetch-Site``, when there is one, says ``same-origin``.  (A browser sends one or both with every
  such request; a program such as ``curl`` sends neither, and is no cross-site forgery.)
- it carries the CSRF token in the ``X-CSRF-Token`` header: a double-submit token bound to the session.
  The page reads it from the ``cinch_csrf`` cookie (readable by the page, never by another site) and
  sends it back; the server compares it with the token derived from the session cookie (HttpOnly,
  so no script reads it): ``SHA-256("cinch-csrf:" + session token)``.  A token of another session,
  or one that another site managed to set, does not match.  Before a person signs in there is no
  session: the ``cinch_csrf`` cookie then holds a random token of its own, and the header must
  match it.

:class:`CsrfGuard` is the ASGI middleware that applies this to every route under :data:`GUARDED`;
:func:`csrf_refusal` is the check itself, for a route elsewhere.  A later route that changes
anything belongs under a guarded prefix (add it to :data:`GUARDED`).

**Limits** (:class:`Limit`): fixed windows of attempts counted per key (a name, an address), kept in
the player store (``hit_limit``), so that they hold across a restart and across the processes of a
cluster.  Keys are stored as SHA-256 digests, never as names or addresses.

>>> csrf_for_session("abc") == csrf_for_session("abc") != csrf_for_session("abd")
True
>>> address_key("2001:db8::1") == address_key("2001:db8::ffff"), address_key("192.0.2.7")
(True, '192.0.2.7')
"""

from __future__ import annotations

import base64
import hashlib
import ipaddress
import secrets
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse

from cinch.server.protocol import Refusal

SESSION_COOKIE = "cinch_session"  # the session's token (192 random bits): HttpOnly
CSRF_COOKIE = "cinch_csrf"  # the CSRF token the page sends back in CSRF_HEADER: readable by the page
CSRF_HEADER = "x-csrf-token"
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
GUARDED: list[str] = ["/api/players", "/api/daily", "/api/events"]
"""The path prefixes whose changes :class:`CsrfGuard` checks.  A later route that changes anything goes
under one of these, or adds its own prefix here before the app is made."""

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


class Refused(Refusal):
    """A request refused: its HTTP status, a code for scripts, and one sentence for people."""

    def __init__(self, status: int, code: str, message: str, *, retry_after: float | None = None):
        super().__init__(code, message)
        self.status = status
        self.retry_after = retry_after

    def response(self) -> JSONResponse:
        headers = {} if self.retry_after is None else {"Retry-After": str(max(1, round(self.retry_after)))}
        return JSONResponse(self.to_json(), status_code=self.status, headers=headers)


# ---- CSRF ----------------------------------------------------------------------------------------------------
def csrf_for_session(token: str) -> str:
    """The CSRF token bound to a session's token (which only the server and the HttpOnly cookie hold)."""
    digest = hashlib.sha256(f"cinch-csrf:{token}".encode()).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def new_anonymous_csrf() -> str:
    """A CSRF token for a browser without a session (192 random bits)."""
    return secrets.token_urlsafe(24)


def well_formed(token: str | None, shortest: int = 32, longest: int = 64) -> bool:
    """Whether a token read from a cookie or a header can be one of ours: URL-safe base64, of a sane length."""
    return (token is not None and shortest <= len(token) <= longest
            and all(c.isascii() and (c.isalnum() or c in "-_") for c in token))


def expected_csrf(conn: HTTPConnection) -> str | None:
    """The CSRF token this request must carry: bound to its session cookie, or (no session) its own cookie's."""
    session = conn.cookies.get(SESSION_COOKIE)
    if well_formed(session):
        assert session is not None
        return csrf_for_session(session)
    anonymous = conn.cookies.get(CSRF_COOKIE)
    return anonymous if well_formed(anonymous) else None


def own_origins(conn: HTTPConnection, public_url: str = "") -> set[str]:
    """This server's origins: the one the request came to (its Host, and the scheme uvicorn was told of by a
    trusted proxy), and ``--public-url``'s."""
    url = conn.url
    scheme = {"ws": "http", "wss": "https"}.get(url.scheme, url.scheme)
    found = {_origin(f"{scheme}://{url.netloc}")}
    if public_url:
        found.add(_origin(public_url))
    return found


def _origin(url: str) -> str:
    parts = urlsplit(url.strip().lower())
    port = parts.port
    default = {"http": 80, "https": 443}.get(parts.scheme)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    return f"{parts.scheme}://{host}" + ("" if port is None or port == default else f":{port}")


def foreign_origin(conn: HTTPConnection, public_url: str = "") -> str | None:
    """Why a request (or a websocket's handshake) is not from this server's own pages; None if it may be."""
    origin = conn.headers.get("origin")
    if origin is not None:
        if origin == "null" or _origin(origin) not in own_origins(conn, public_url):
            return f"it came from another site ({origin[:80]})"
        return None
    site = conn.headers.get("sec-fetch-site")
    if site is not None and site != "same-origin":
        return f"the browser says it came from another site (Sec-Fetch-Site: {site[:20]})"
    return None


def csrf_refusal(conn: HTTPConnection, public_url: str = "") -> Refused | None:
    """The refusal of a change without this server's page behind it (see the module's docstring); None if it
    may go on."""
    foreign = foreign_origin(conn, public_url)
    if foreign is not None:
        return Refused(403, "csrf", f"Refused: {foreign}; changes are taken only from this server's own pages.")
    token = conn.headers.get(CSRF_HEADER)
    expected = expected_csrf(conn)
    if not token:
        return Refused(403, "csrf", "Refused: the request has no X-CSRF-Token header; send the token of the "
                                    "cinch_csrf cookie (GET /api/players/me sets one).")
    if expected is None or len(token) > 128 or not secrets.compare_digest(token.encode(), expected.encode()):
        return Refused(403, "csrf", "Refused: the X-CSRF-Token header is not this session's token; reload the page "
                                    "for a fresh one.")
    return None


class CsrfGuard:
    """ASGI middleware: every POST, PUT, PATCH or DELETE under a prefix of ``prefixes`` (default
    :data:`GUARDED`, as it stands when the app starts) passes :func:`csrf_refusal` or is answered 403."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]], prefixes: Iterable[str] | None = None,
                 public_url: str = ""):
        self.app = app
        self.prefixes = tuple(GUARDED if prefixes is None else prefixes)
        self.public_url = public_url

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (scope["type"] == "http" and scope["method"] in UNSAFE
                and any(scope["path"] == p or scope["path"].startswith(p.rstrip("/") + "/") for p in self.prefixes)):
            refusal = csrf_refusal(HTTPConnection(scope), self.public_url)
            if refusal is not None:
                await refusal.response()(scope, receive, send)
                return
        await self.app(scope, receive, send)


# ---- limits on attempts ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Limit:
    """At most ``most`` attempts of one kind (``what``) per key in ``window`` seconds."""

    what: str
    most: int
    window: float
    words: str  # the limit in words, for the refusal and the docs

    def key(self, key: str) -> str:
        """The stored key: a digest, so that no name or address is kept in the clear."""
        return hashlib.sha256(f"{self.what}:{key}".encode()).hexdigest()


def address_key(host: str | None) -> str:
    """The key an address is counted under: the address itself (IPv4), or its /64 network (IPv6, where one
    person has a whole /64 to choose from)."""
    if not host:
        return "unknown"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def client_address(conn: HTTPConnection) -> str:
    """The key of the address a request came from (uvicorn has put a trusted proxy's X-Forwarded-For there)."""
    return address_key(conn.client.host if conn.client else None)


def is_https(conn: HTTPConnection, public_url: str = "") -> bool:
    """Whether the browser reached the server over https (directly, through a trusted proxy, or as the
    public URL says): cookies are then sent only over https (Secure)."""
    return conn.url.scheme in ("https", "wss") or public_url.lower().startswith("https://")


__all__ = ["CSRF_COOKIE", "CSRF_HEADER", "GUARDED", "SESSION_COOKIE", "CsrfGuard", "Limit", "Refused",
           "address_key", "client_address", "csrf_for_session", "csrf_refusal", "expected_csrf", "foreign_origin",
           "is_https", "new_anonymous_csrf", "well_formed"]
