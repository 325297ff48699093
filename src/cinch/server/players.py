"""The players of ``cinch serve``: guests and accounts, their sessions, and their pages (docs/players.md).

A person is known to the server in one of two ways:

- a **guest**: a display name of the person's choosing and a device key (192 random bits) that the
  browser keeps; the server keeps only the key's SHA-256.  Posting the key back (in the body, never
  in a URL) opens a session again on that device;
- an **account**: a unique name and a password, kept as an Argon2id hash (argon2-cffi).  A guest who
  registers becomes the account: the same player id, so everything attached to the guest stays.

Either is then known by a session: an HttpOnly cookie (``cinch_session``, 192 random bits; SameSite=Lax,
Secure over https) whose SHA-256 is stored with its expiry.  :meth:`PlayerService.identify` (or
:func:`player_of`) says from a request's, or a websocket handshake's, cookies which :class:`Player` it is.

Every change (POST, PUT, DELETE under ``/api/players``) passes the CSRF checks of
:mod:`cinch.server.security`; sign-in and registration are limited per address and per name (the
``*_LIMIT`` constants), and a sign-in refused says the same, in about the same time, whether the name is
unknown or the password wrong (an unknown name is checked against a dummy hash).

The storage is :class:`PlayerStore`: the SQLite game library, or PostgreSQL on a connection of its own.

>>> account_name("  Ann-Marie ")
('Ann-Marie', 'ann-marie')
>>> account_name("me")
Traceback (most recent call last):
...
cinch.server.security.Refused: name-unavailable: That name is not available: choose another.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
import time
import unicodedata
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import quote

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from pydantic import TypeAdapter, ValidationError
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from cinch.library import ACCOUNT, DELETED, LibraryError, NameTaken, StoredMatch, StoredPlayer
from cinch.server.pages import BadBody, page, read_json
from cinch.server.protocol import Name
from cinch.server.security import (
    CSRF_COOKIE,
    SESSION_COOKIE,
    Limit,
    Refused,
    client_address,
    csrf_for_session,
    foreign_origin,
    is_https,
    new_anonymous_csrf,
    well_formed,
)

log = logging.getLogger("cinch.server")

STATIC = Path(__file__).parent / "static" / "players"
MAX_BODY = 4096  # bytes: the largest body a player route reads (a name and two passwords)
SESSION_LIFETIME = 30 * 24 * 3600.0  # seconds a session lives after its last use
SESSION_REFRESH = 24 * 3600.0  # a session used this long after its expiry was last pushed back is pushed back again
PURGE_EVERY = 600.0  # seconds between sweeps of expired sessions and old windows of attempts
HASHING_AT_ONCE = 2  # Argon2id hashes computed at once (each takes 64 MiB and a core for a tenth of a second)

# ---- the limits (docs/players.md says them in words) ---------------------------------------------------------
LOGIN_NAME_LIMIT = Limit("login-name", 5, 15 * 60, "5 failed sign-ins with one name in 15 minutes")
LOGIN_ADDRESS_LIMIT = Limit("login-address", 20, 15 * 60, "20 failed sign-ins from one address in 15 minutes")
REGISTER_ADDRESS_LIMIT = Limit("register-address", 10, 3600, "10 registrations tried from one address an hour")
REGISTER_NAME_LIMIT = Limit("register-name", 5, 15 * 60, "5 registrations tried with one name in 15 minutes")
GUEST_ADDRESS_LIMIT = Limit("guest-address", 20, 3600, "20 new guests from one address an hour")
DEVICE_ADDRESS_LIMIT = Limit("device-address", 20, 15 * 60, "20 unknown device keys from one address in 15 minutes")
LIMITS = (LOGIN_NAME_LIMIT, LOGIN_ADDRESS_LIMIT, REGISTER_ADDRESS_LIMIT, REGISTER_NAME_LIMIT, GUEST_ADDRESS_LIMIT,
          DEVICE_ADDRESS_LIMIT)
LONGEST_WINDOW = max(limit.window for limit in LIMITS)

# ---- names and passwords -------------------------------------------------------------------------------------
NAME_LENGTH = (2, 24)
NAME_MARKS = "-_."
RESERVED = {"me", "guest", "guests", "login", "logout", "register", "account", "accounts", "players", "player",
            "admin", "administrator", "cinch", "server", "bot", "bots", "nobody", "anonymous", "deleted", "former",
            "random", "basic", "heuristic", "expert", "neural", "ismcts", "you", "host", "system", "spectator"}
"""Names no account takes: words of the server's own routes and pages, and the bots' names."""
PASSWORD_LENGTH = (8, 200)
BAD_LOGIN = "That name and password do not match an account."
UNAVAILABLE = "That name is not available: choose another."
_GUEST_NAME = TypeAdapter(Name)


def fold(name: str) -> str:
    """The form two names are compared in: NFKC, case folded."""
    return unicodedata.normalize("NFKC", name).casefold()


def account_name(text: Any) -> tuple[str, str]:
    """An account's name as typed (NFKC, trimmed) and its folded key; a :class:`Refused` that says the rules."""
    if not isinstance(text, str):
        raise Refused(400, "bad-name", "The name must be text: 2 to 24 letters, digits, -, _ or '.'.")
    name = unicodedata.normalize("NFKC", text).strip()
    low, high = NAME_LENGTH
    if not (low <= len(name) <= high and all(c.isalnum() or c in NAME_MARKS for c in name)
            and name[0].isalnum() and name[-1].isalnum()):
        raise Refused(400, "bad-name", f"A name has {low} to {high} letters, digits, -, _ or '.', beginning and "
                                       "ending with a letter or digit (no spaces).")
    key = fold(name)
    if key in RESERVED:
        raise Refused(409, "name-unavailable", UNAVAILABLE)
    return name, key


def guest_name(text: Any) -> str:
    """A guest's display name: any text of 1 to 40 characters without control or invisible characters."""
    try:
        return _GUEST_NAME.validate_python(text.strip() if isinstance(text, str) else text)
    except ValidationError:
        raise Refused(400, "bad-name", "A guest's name is text of 1 to 40 characters, without control or "
                                       "invisible characters.") from None


def check_password(password: Any, name: str | None = None) -> str:
    """A new password, as the rules take it: 8 to 200 characters, not the name itself."""
    low, high = PASSWORD_LENGTH
    if not isinstance(password, str) or not low <= len(password) <= high:
        raise Refused(400, "bad-password", f"A password has {low} to {high} characters.")
    if name is not None and fold(password.strip()) == fold(name):
        raise Refused(400, "bad-password", "A password must not be the name itself.")
    return password


class Passwords:
    """Argon2id hashing (argon2-cffi's defaults: RFC 9106's low-memory choice), in worker threads, a few at once;
    and a dummy hash that an unknown name is checked against, so that it costs what a wrong password costs."""

    def __init__(self, hasher: PasswordHasher | None = None):
        self.hasher = hasher or PasswordHasher()
        self._dummy: str | None = None
        self._at_once: asyncio.Semaphore | None = None

    async def _run(self, fn: Callable[..., Any], *args: Any) -> Any:
        if self._at_once is None:
            self._at_once = asyncio.Semaphore(HASHING_AT_ONCE)
        async with self._at_once:
            return await asyncio.to_thread(fn, *args)

    async def hash(self, password: str) -> str:
        return str(await self._run(self.hasher.hash, password))

    async def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` is the one ``stored`` was made from; with no stored hash, the same work against
        the dummy, and False."""
        if self._dummy is None:
            self._dummy = await self.hash(secrets.token_urlsafe(16))
        return bool(await self._run(self._verify, stored, password))

    def _verify(self, stored: str | None, password: str) -> bool:
        try:
            return bool(self.hasher.verify(stored or self._dummy or "", password)) and stored is not None
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    def outdated(self, stored: str) -> bool:
        try:
            return bool(self.hasher.check_needs_rehash(stored))
        except InvalidHashError:
            return True


# ---- who a player is ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Player:
    """A person the server knows: a guest or an account.  ``id`` is what results attach to: random, never
    reused, the same for a guest and the account it became."""

    id: str
    kind: str  # "guest" or "account"
    name: str
    since: float  # seconds since 1970

    @property
    def is_account(self) -> bool:
        return self.kind == ACCOUNT

    @property
    def profile(self) -> str | None:
        """The address of the player's profile page (accounts only)."""
        return profile_path(self.name) if self.is_account else None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "name": self.name, "since": day(self.since),
                "profile": self.profile}

    @classmethod
    def of(cls, stored: StoredPlayer) -> Player:
        assert stored.kind != DELETED and stored.name is not None
        return cls(stored.id, stored.kind, stored.name, stored.created)


def profile_path(name: str) -> str:
    return "/players/" + quote(name, safe="")


def day(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).date().isoformat()


def digest(token: str) -> str:
    """How a secret (a session's token, a device key) is kept: its SHA-256, never the secret."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_secret() -> str:
    """A session token or a device key: 192 random bits, 32 URL-safe characters."""
    return secrets.token_urlsafe(24)


class PlayerStore(Protocol):
    """Where the players are kept: :class:`cinch.library.PlayerTables`, which the SQLite game library and
    :class:`cinch.server.postgres.PgLibrary` both are.  Times are seconds since 1970."""

    def new_guest(self, player_id: str, name: str, device: str, now: float) -> StoredPlayer: ...
    def guest_by_device(self, device: str) -> StoredPlayer | None: ...
    def player(self, player_id: str) -> StoredPlayer | None: ...
    def account_named(self, name_key: str) -> StoredPlayer | None: ...
    def new_account(self, player_id: str, name: str, name_key: str, password: str, now: float) -> StoredPlayer: ...
    def set_password(self, player_id: str, password: str, now: float) -> None: ...
    def erase_player(self, player_id: str, now: float) -> None: ...
    def accounts(self, limit: int = 500) -> list[tuple[StoredPlayer, int]]: ...
    def new_session(self, token: str, player_id: str, now: float, lifetime: float) -> None: ...
    def session_player(self, token: str, now: float, lifetime: float,
                       refresh_after: float) -> StoredPlayer | None: ...
    def end_session(self, token: str) -> None: ...
    def end_sessions(self, player_id: str, keep: str | None = None) -> None: ...
    def hit_limit(self, key: str, now: float, window: float) -> tuple[int, float]: ...
    def limit_count(self, key: str, now: float, window: float) -> tuple[int, float]: ...
    def clear_limits(self, keys: Any) -> None: ...
    def purge_players(self, now: float, longest_window: float) -> None: ...
    def add_player_game(self, player_id: str, match_id: int, seat: str) -> None: ...
    def player_games(self, player_id: str, limit: int = 20) -> list[tuple[int, str]]: ...
    def player_game_count(self, player_id: str) -> int: ...
    def get(self, match_id: int) -> StoredMatch: ...


# ---- the profile: sections that later work adds to ------------------------------------------------------------------
ProfileSection = Callable[[PlayerStore, StoredPlayer], Any]
PROFILE_SECTIONS: dict[str, ProfileSection] = {}
"""The parts of a profile after its name, each a key of the profile's JSON: ``games`` here; ``ratings`` from
:mod:`cinch.server.ratings`; ``daily`` the player's days of the daily deals that are over, with their ranks
(:func:`cinch.server.daily.daily_section`); ``events`` the private events they played that are over, with their
pairs and ranks (:func:`cinch.server.events.events_section`)."""


def profile_section(key: str) -> Callable[[ProfileSection], ProfileSection]:
    """Register (or replace) the profile's section ``key``: a function of the store and the stored player,
    called in a worker thread, whose JSON goes under ``key``."""
    def register(fn: ProfileSection) -> ProfileSection:
        PROFILE_SECTIONS[key] = fn
        return fn
    return register


@profile_section("games")
def games_section(store: PlayerStore, player: StoredPlayer) -> dict[str, Any]:
    """How many matches the player played, and the latest ten: rules, seat, status, result, score, replay."""
    recent = []
    for match_id, seat in store.player_games(player.id, 10):
        try:
            match = store.get(match_id)
        except LibraryError:
            continue  # (a match deleted from the library since)
        recent.append(game_json(match, seat))
    return {"played": store.player_game_count(player.id), "recent": recent}


def game_json(match: StoredMatch, seat: str) -> dict[str, Any]:
    table = match.table
    result = None
    if match.is_finished and match.winner is not None and seat in table.names:
        result = "won" if table.side(table.parse_seat(seat)) == match.winner else "lost"
    return {"match": match.id, "rules": match.rules, "seat": seat, "status": match.status, "result": result,
            "score": dict(zip(table.side_names, match.score, strict=False)), "date": match.updated.date().isoformat(),
            "replay": f"/replay?game={match.id}"}


@profile_section("daily")
def daily_days(store: PlayerStore, player: StoredPlayer) -> dict[str, Any]:
    """The player's daily sets whose day is over, each with its rank (cinch.server.daily)."""
    from cinch.server.daily import daily_section

    return daily_section(store, player.id)


@profile_section("events")
def events_played(store: PlayerStore, player: StoredPlayer) -> dict[str, Any]:
    """The private events the player played that are over, each with its pair, percentage and rank
    (cinch.server.events)."""
    from cinch.server.events import events_section

    return events_section(store, player.id)


def profile_json(store: PlayerStore, player: StoredPlayer) -> dict[str, Any]:
    """An account's public profile (no id, no secret): its name, since when, and every section."""
    assert player.name is not None
    out: dict[str, Any] = {"name": player.name, "kind": player.kind, "since": day(player.created),
                           "profile": profile_path(player.name)}
    for key, section in PROFILE_SECTIONS.items():
        out[key] = section(store, player)
    return out


class Jar:
    """The cookies an answer sets (a session's, or their clearing) and the CSRF token it tells the page."""

    def __init__(self, secure: bool):
        self.secure = secure  # (served over https: the cookies go only over https)
        self.csrf = ""
        self._cookies: list[tuple[str, str, dict[str, Any]]] = []

    def session_token(self, token: str) -> None:
        """The request's own session goes on: its CSRF token (the cookie set again, in case the page lost it)."""
        self.csrf = csrf_for_session(token)
        self._cookies.append((CSRF_COOKIE, self.csrf, {"max_age": int(SESSION_LIFETIME)}))

    def session(self, token: str) -> None:
        """A new session: its cookie (HttpOnly) and its CSRF token's."""
        self._cookies.append((SESSION_COOKIE, token, {"max_age": int(SESSION_LIFETIME), "httponly": True}))
        self.session_token(token)

    def signed_out(self) -> None:
        """No session: its cookie cleared, and a fresh anonymous CSRF token."""
        self._cookies.append((SESSION_COOKIE, "", {"max_age": 0, "httponly": True}))
        self.anonymous(None)

    def anonymous(self, current: str | None) -> None:
        """No session: the browser's anonymous CSRF token, or a new one."""
        if well_formed(current):
            assert current is not None
            self.csrf = current
        else:
            self.csrf = new_anonymous_csrf()
            self._cookies.append((CSRF_COOKIE, self.csrf, {}))

    def reply(self, data: dict[str, Any], status: int = 200) -> JSONResponse:
        """The JSON answer with the CSRF token, its cookies set; never cached."""
        response = JSONResponse({**data, "csrf": self.csrf}, status_code=status, headers={"Cache-Control": "no-store"})
        for name, value, options in self._cookies:
            response.set_cookie(name, value, path="/", samesite="lax", secure=self.secure, **options)
        return response


# ---- the service -----------------------------------------------------------------------------------------------------
class PlayerService:
    """The players of one server process over a :class:`PlayerStore` (the store's calls run in worker threads)."""

    def __init__(self, store: PlayerStore, *, owns_store: bool = False, public_url: str = "",
                 passwords: Passwords | None = None, clock: Callable[[], float] = time.time):
        self.store = store
        self.owns_store = owns_store  # (a connection of its own: closed with the service)
        self.public_url = public_url
        self.passwords = passwords or Passwords()
        self.clock = clock
        self.purged = 0.0
        # What else holds a player's name in memory and must let it go before the store's sweep (the rooms of
        # this server: cinch.server.app.Server.forget_player), each called on the event loop with the player's id.
        self.erasing: list[Callable[[str], None]] = []

    def close(self) -> None:
        if self.owns_store:
            close = getattr(self.store, "close", None)
            if close is not None:
                close()

    async def _db(self, fn: Callable[..., Any], *args: Any) -> Any:
        try:
            return await asyncio.to_thread(fn, *args)
        except NameTaken:
            raise
        except LibraryError as e:
            log.warning("players: the store failed: %s", e)
            raise Refused(503, "storage", "The players' records could not be reached just now; try again.") from None

    # ---- who is this ------------------------------------------------------------------------------------------------
    async def identify(self, conn: HTTPConnection) -> Player | None:
        """The player whose session cookie this request (or websocket handshake) carries; None for nobody, an
        expired or unknown session, or a websocket opened from another site's page (whose cookies a browser
        would send all the same)."""
        if conn.scope["type"] == "websocket" and foreign_origin(conn, self.public_url) is not None:
            return None
        stored = await self._session(conn)
        return None if stored is None else Player.of(stored)

    async def _session(self, conn: HTTPConnection) -> StoredPlayer | None:
        token = conn.cookies.get(SESSION_COOKIE)
        if not well_formed(token):
            return None
        assert token is not None
        return await self._db(self.store.session_player, digest(token), self.clock(), SESSION_LIFETIME,
                              SESSION_REFRESH)

    async def _start_session(self, jar: Jar, conn: HTTPConnection, player: StoredPlayer) -> None:
        """A new session for the player, its cookies in ``jar``: the request's old session ends (a session is
        never carried across a sign-in)."""
        old = conn.cookies.get(SESSION_COOKIE)
        if well_formed(old):
            assert old is not None
            await self._db(self.store.end_session, digest(old))
        token = new_secret()
        now = self.clock()
        await self._db(self.store.new_session, digest(token), player.id, now, SESSION_LIFETIME)
        await self._purge(now)
        jar.session(token)

    async def _end_session(self, jar: Jar, conn: HTTPConnection) -> None:
        """End the request's session; ``jar`` clears its cookie and sets a fresh anonymous CSRF token."""
        token = conn.cookies.get(SESSION_COOKIE)
        if well_formed(token):
            assert token is not None
            await self._db(self.store.end_session, digest(token))
        jar.signed_out()

    async def _purge(self, now: float) -> None:
        if now - self.purged > PURGE_EVERY:
            self.purged = now
            await self._db(self.store.purge_players, now, LONGEST_WINDOW)

    # ---- limits ----------------------------------------------------------------------------------------------------
    async def _refuse_if_over(self, limit: Limit, key: str, words: str) -> None:
        """Refuse (429) when ``key`` has used up ``limit`` already (nothing is counted)."""
        now = self.clock()
        count, since = await self._db(self.store.limit_count, limit.key(key), now, limit.window)
        if count >= limit.most:
            raise self._over(limit, since, now, words)

    async def _count(self, limit: Limit, key: str, words: str | None = None) -> None:
        """Count an attempt; with ``words``, refuse (429) the one beyond the limit."""
        now = self.clock()
        count, since = await self._db(self.store.hit_limit, limit.key(key), now, limit.window)
        if words is not None and count > limit.most:
            raise self._over(limit, since, now, words)

    @staticmethod
    def _over(limit: Limit, since: float, now: float, words: str) -> Refused:
        wait = max(1.0, since + limit.window - now)
        minutes = max(1, round(wait / 60))
        return Refused(429, "rate-limited", f"Too many attempts {words} (at most {limit.words}): try again in "
                                            f"{minutes} minute{'s' * (minutes != 1)}.", retry_after=wait)

    # ---- the changes -----------------------------------------------------------------------------------------------
    async def guest(self, request: Request, body: dict[str, Any], jar: Jar) -> tuple[Player, str | None]:
        """A guest: a new one (``name``), or the one of a device key (``key``), with a session; and the new key."""
        current = await self._session(request)
        if current is not None and current.kind == ACCOUNT:
            raise Refused(409, "signed-in", f"You are signed in as {current.name}: sign out first.")
        address = client_address(request)
        key = body.get("key")
        if key is not None:
            if not isinstance(key, str):
                raise Refused(400, "bad-key", "The device key is text of 32 letters, digits, - and _.")
            await self._refuse_if_over(DEVICE_ADDRESS_LIMIT, address, "from your address")
            stored = (await self._db(self.store.guest_by_device, digest(key))) if well_formed(key) else None
            if stored is None:
                await self._count(DEVICE_ADDRESS_LIMIT, address)
                raise Refused(404, "unknown-key", "No guest has that device key (it registered, or was deleted): "
                                                  "start a new guest.")
            await self._start_session(jar, request, stored)
            return Player.of(stored), None
        name = guest_name(body.get("name"))
        await self._count(GUEST_ADDRESS_LIMIT, address, "from your address")
        device = new_secret()
        stored = await self._db(self.store.new_guest, new_secret(), name, digest(device), self.clock())
        await self._start_session(jar, request, stored)
        return Player.of(stored), device

    async def register(self, request: Request, body: dict[str, Any], jar: Jar) -> Player:
        """A new account; a guest who registers keeps its id (and with it everything it played)."""
        current = await self._session(request)
        if current is not None and current.kind == ACCOUNT:
            raise Refused(409, "signed-in", f"You are signed in as {current.name}: sign out first.")
        raw = body.get("name")
        await self._count(REGISTER_ADDRESS_LIMIT, client_address(request), "to register from your address")
        await self._count(REGISTER_NAME_LIMIT, fold(raw.strip())[:64] if isinstance(raw, str) else "",
                          "to register that name")
        name, key = account_name(raw)
        password = check_password(body.get("password"), name)
        hashed = await self.passwords.hash(password)
        player_id = current.id if current is not None else new_secret()
        try:
            stored = await self._db(self.store.new_account, player_id, name, key, hashed, self.clock())
        except NameTaken:
            raise Refused(409, "name-unavailable", UNAVAILABLE) from None
        await self._db(self.store.end_sessions, stored.id)  # (a guest's other devices sign in with the password now)
        await self._start_session(jar, request, stored)
        return Player.of(stored)

    async def login(self, request: Request, body: dict[str, Any], jar: Jar) -> Player:
        """Sign in to an account.  Refused alike, in about the same time, for an unknown name and a wrong password;
        refused without checking once the name or the address has used up its failed sign-ins."""
        raw, password = body.get("name"), body.get("password")
        if not isinstance(raw, str) or not isinstance(password, str) or len(password) > 4 * PASSWORD_LENGTH[1]:
            raise Refused(400, "bad-request", 'Send {"name": "...", "password": "..."}.')
        try:
            _, key = account_name(raw)
        except Refused:
            key = fold(raw.strip())[:64]  # (no account has it; it is counted, and refused, all the same)
        address = client_address(request)
        await self._refuse_if_over(LOGIN_NAME_LIMIT, key, "to sign in with that name")
        await self._refuse_if_over(LOGIN_ADDRESS_LIMIT, address, "to sign in from your address")
        stored = await self._db(self.store.account_named, key)
        if not await self.passwords.verify(stored.password if stored is not None else None, password):
            await self._count(LOGIN_NAME_LIMIT, key)
            await self._count(LOGIN_ADDRESS_LIMIT, address)
            raise Refused(401, "bad-login", BAD_LOGIN)
        assert stored is not None
        if self.passwords.outdated(stored.password or ""):
            await self._db(self.store.set_password, stored.id, await self.passwords.hash(password), self.clock())
        await self._start_session(jar, request, stored)
        return Player.of(stored)

    async def logout(self, request: Request, jar: Jar) -> None:
        await self._end_session(jar, request)

    async def _me(self, request: Request) -> StoredPlayer:
        stored = await self._session(request)
        if stored is None:
            raise Refused(401, "signed-out", "You are not signed in (or your session ended): sign in first.")
        return stored

    async def _check_password(self, request: Request, stored: StoredPlayer, password: Any) -> None:
        """The signed-in account's own password, asked again before a change; failures count as failed sign-ins."""
        assert stored.name is not None
        key = fold(stored.name)
        address = client_address(request)
        await self._refuse_if_over(LOGIN_NAME_LIMIT, key, "with this account's password")
        await self._refuse_if_over(LOGIN_ADDRESS_LIMIT, address, "with a password from your address")
        if not isinstance(password, str) or not await self.passwords.verify(stored.password, password):
            await self._count(LOGIN_NAME_LIMIT, key)
            await self._count(LOGIN_ADDRESS_LIMIT, address)
            raise Refused(403, "bad-password", "That is not this account's password.")

    async def change_password(self, request: Request, body: dict[str, Any], jar: Jar) -> Player:
        """A new password, the current one given; every other session of the account ends."""
        stored = await self._me(request)
        if stored.kind != ACCOUNT:
            raise Refused(409, "guest", "A guest has no password: register to make this guest an account.")
        await self._check_password(request, stored, body.get("current"))
        assert stored.name is not None
        hashed = await self.passwords.hash(check_password(body.get("password"), stored.name))
        await self._db(self.store.set_password, stored.id, hashed, self.clock())
        await self._db(self.store.end_sessions, stored.id)
        await self._start_session(jar, request, stored)
        return Player.of(stored)

    async def delete(self, request: Request, body: dict[str, Any], jar: Jar) -> None:
        """Delete the signed-in player (an account gives its password): its name goes from everything kept."""
        stored = await self._me(request)
        if stored.kind == ACCOUNT:
            await self._check_password(request, stored, body.get("password"))
        for forget in self.erasing:
            forget(stored.id)
        await self._db(self.store.erase_player, stored.id, self.clock())
        if stored.name is not None:
            key = fold(stored.name)
            await self._db(self.store.clear_limits, [LOGIN_NAME_LIMIT.key(key), REGISTER_NAME_LIMIT.key(key)])
        await self._end_session(jar, request)

    # ---- what anyone may read --------------------------------------------------------------------------------------
    async def profile(self, raw: str) -> dict[str, Any]:
        key = fold(raw.strip())
        stored = await self._db(self.store.account_named, key) if 0 < len(key) <= 64 else None
        if stored is None:
            raise Refused(404, "no-player", "No player has that name.")
        return await self._db(profile_json, self.store, stored)

    async def directory(self) -> list[dict[str, Any]]:
        rows = await self._db(self.store.accounts)
        return [{"name": p.name, "since": day(p.created), "profile": profile_path(p.name or ""), "games": games}
                for p, games in rows]


async def player_of(conn: HTTPConnection) -> Player | None:
    """Which player a request or a websocket handshake comes from (its session cookie), or None: the app's
    :class:`PlayerService` (``app.state.players``) asked."""
    service: PlayerService = conn.app.state.players
    return await service.identify(conn)


# ---- the routes ----------------------------------------------------------------------------------------------------
def open_store(server: Any) -> tuple[PlayerStore, bool]:
    """The players' store of ``server``: its SQLite library itself, or a PostgreSQL connection of its own (never
    the rooms' connection, whose changes are transactions on the event loop); whether it was opened here."""
    library = server.library
    url = getattr(library, "url", None)
    if isinstance(url, str):
        from cinch.server.postgres import PgLibrary

        return PgLibrary.open(url, migrate_schema=False), True
    return library, False


def add_player_routes(routes: list[Any], server: Any, public_url: str = "",
                      passwords: Passwords | None = None) -> PlayerService:
    """Add the players' pages and API to ``routes`` over ``server``'s storage; the service (close it with the app).
    Their changes are guarded by :class:`cinch.server.security.CsrfGuard`, which the app installs."""
    store, owned = open_store(server)
    service = PlayerService(store, owns_store=owned, public_url=public_url, passwords=passwords)

    def answer(handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
        async def run(request: Request) -> Response:
            try:
                return await handler(request)
            except Refused as e:
                return e.response()
            except BadBody as e:
                return e.response()
        return run

    async def body_of(request: Request) -> dict[str, Any]:
        if request.headers.get("content-length") == "0":
            return {}
        body = await read_json(request, MAX_BODY, '{"name": "Ann", "password": "..."}')
        if not isinstance(body, dict):
            raise Refused(400, "bad-request", 'Send a JSON object, as {"name": "Ann", "password": "..."}.')
        return body

    def fields(body: dict[str, Any], *known: str) -> dict[str, Any]:
        unknown = sorted(set(body) - set(known))
        if unknown:
            raise Refused(400, "bad-request", f"Unknown field {unknown[0][:30]!r}; the fields are {', '.join(known)}.")
        return body

    def jar_for(request: Request) -> Jar:
        return Jar(is_https(request, service.public_url))

    async def me(request: Request) -> Response:
        """Who this is, and the CSRF token to send with changes (a fresh anonymous one when there is none)."""
        jar = jar_for(request)
        stored = await service._session(request)
        token = request.cookies.get(SESSION_COOKIE)
        if stored is not None and token is not None:
            jar.session_token(token)
        elif well_formed(token):
            await service._end_session(jar, request)  # (a session expired or ended elsewhere: its cookie goes)
        else:
            jar.anonymous(request.cookies.get(CSRF_COOKIE))
        return jar.reply({"player": None if stored is None else Player.of(stored).to_json()})

    async def guest(request: Request) -> Response:
        body = fields(await body_of(request), "name", "key")
        jar = jar_for(request)
        player, key = await service.guest(request, body, jar)
        if key is None:
            return jar.reply({"player": player.to_json()})
        return jar.reply({"player": player.to_json(), "key": key}, 201)  # (the key once: the server keeps its hash)

    async def register(request: Request) -> Response:
        body = fields(await body_of(request), "name", "password")
        jar = jar_for(request)
        player = await service.register(request, body, jar)
        return jar.reply({"player": player.to_json()}, 201)

    async def login(request: Request) -> Response:
        body = fields(await body_of(request), "name", "password")
        jar = jar_for(request)
        player = await service.login(request, body, jar)
        return jar.reply({"player": player.to_json()})

    async def logout(request: Request) -> Response:
        fields(await body_of(request))
        jar = jar_for(request)
        await service.logout(request, jar)
        return jar.reply({"player": None})

    async def password(request: Request) -> Response:
        body = fields(await body_of(request), "current", "password")
        jar = jar_for(request)
        player = await service.change_password(request, body, jar)
        return jar.reply({"player": player.to_json()})

    async def delete(request: Request) -> Response:
        body = fields(await body_of(request), "password")
        jar = jar_for(request)
        await service.delete(request, body, jar)
        return jar.reply({"player": None, "deleted": True})

    async def profile(request: Request) -> Response:
        return JSONResponse(await service.profile(request.path_params["name"]), headers={"Cache-Control": "no-cache"})

    async def directory(request: Request) -> Response:
        return JSONResponse({"players": await service.directory()}, headers={"Cache-Control": "no-cache"})

    routes.extend([
        Route("/account", page(STATIC / "account.html")),
        Route("/players", page(STATIC / "players.html")),
        Route("/players/{name}", page(STATIC / "profile.html")),
        Route("/api/players", answer(directory), methods=["GET"]),
        Route("/api/players/me", answer(me), methods=["GET"]),
        Route("/api/players/me", answer(delete), methods=["DELETE"]),
        Route("/api/players/me/password", answer(password), methods=["PUT"]),
        Route("/api/players/guest", answer(guest), methods=["POST"]),
        Route("/api/players/register", answer(register), methods=["POST"]),
        Route("/api/players/login", answer(login), methods=["POST"]),
        Route("/api/players/logout", answer(logout), methods=["POST"]),
        Route("/api/players/{name}", answer(profile), methods=["GET"]),
    ])
    server.players = service
    return service


__all__ = ["LIMITS", "PROFILE_SECTIONS", "Passwords", "Player", "PlayerService", "PlayerStore", "account_name",
           "add_player_routes", "fold", "game_json", "guest_name", "player_of", "profile_json", "profile_path",
           "profile_section"]
