"""The players' tests' tools: a real ``cinch serve`` app (SQLite or PostgreSQL) under uvicorn in a thread, and
:class:`Browser`, an httpx client that keeps its cookies and sends the CSRF token back as the pages do."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from typing import Any

import httpx
from serverkit import serve_app

from cinch.server.app import create_app

WAIT = 20.0
__all__ = ["Browser", "Site", "browser_headers", "refused", "serve_app", "site_over"]


class Site:
    """A running server over one back end: its URL, its app, and every row it keeps as text."""

    def __init__(self, url: str, app: Any, db: Any = None, database_url: str | None = None):
        self.url, self.app, self.db, self.database_url = url, app, db, database_url
        self.browsers: list[Browser] = []

    @property
    def players(self) -> Any:
        return self.app.state.players

    @property
    def ws(self) -> str:
        return self.url.replace("http", "ws") + "/ws"

    def browser(self, address: str | None = None) -> Browser:
        """A browser of its own (its own cookies), from ``address`` (X-Forwarded-For) if given."""
        made = Browser(self.url, address)
        self.browsers.append(made)
        return made

    def rows(self) -> str:
        """Every row of every table the server keeps, as one text (to look for a name or a secret in)."""
        if self.database_url is not None:
            import psycopg

            with psycopg.connect(self.database_url) as conn:
                tables = [r[0] for r in conn.execute(
                    "SELECT tablename FROM pg_tables WHERE schemaname = 'public'").fetchall()]
                return "\n".join(f"{t}: {row}" for t in tables for row in conn.execute(f'SELECT * FROM "{t}"'))
        conn = sqlite3.connect(self.db)
        try:
            tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            return "\n".join(f"{t}: {row}" for t in tables for row in conn.execute(f'SELECT * FROM "{t}"'))
        finally:
            conn.close()

    def close(self) -> None:
        for b in self.browsers:
            b.close()


@contextlib.contextmanager
def site_over(backend: str, tmp_path: Any, database_url: str | None = None, **options: Any) -> Iterator[Site]:
    """A server over SQLite (``backend`` "sqlite") or PostgreSQL ("postgres", at ``database_url``)."""
    if backend == "postgres":
        app = create_app(database_url=database_url, **options)
        db = None
    else:
        db = tmp_path / "games.sqlite3"
        app = create_app(db, **options)
    with serve_app(app) as url:
        site = Site(url, app, db, database_url if backend == "postgres" else None)
        try:
            yield site
        finally:
            site.close()


class Browser:
    """One browser: an httpx client with its cookies, that sends the ``cinch_csrf`` cookie's token back in
    X-CSRF-Token with every change (as the pages' script does); every answer kept in ``answers``."""

    def __init__(self, url: str, address: str | None = None):
        headers = {"X-Forwarded-For": address} if address else {}
        self.http = httpx.Client(base_url=url, timeout=WAIT, headers=headers)
        self.answers: list[httpx.Response] = []
        self.urls: list[str] = []

    def csrf(self) -> str:
        token = self.http.cookies.get("cinch_csrf")
        if token is None:
            self.get("/api/players/me")
            token = self.http.cookies.get("cinch_csrf")
        assert token
        return token

    def get(self, path: str) -> httpx.Response:
        return self._keep(self.http.get(path))

    def change(self, method: str, path: str, body: Any = None, *, csrf: str | None = None,
               headers: dict[str, str] | None = None) -> httpx.Response:
        sent = {"X-CSRF-Token": self.csrf() if csrf is None else csrf, **(headers or {})}
        if csrf == "":
            del sent["X-CSRF-Token"]
        return self._keep(self.http.request(method, path, json=body if body is not None else {}, headers=sent))

    def _keep(self, answer: httpx.Response) -> httpx.Response:
        self.answers.append(answer)
        self.urls.append(str(answer.request.url))
        return answer

    def me(self) -> dict[str, Any] | None:
        answer = self.get("/api/players/me")
        assert answer.status_code == 200, answer.text
        return answer.json()["player"]

    def guest(self, name: str) -> dict[str, Any]:
        answer = self.change("POST", "/api/players/guest", {"name": name})
        assert answer.status_code == 201, answer.text
        return answer.json()

    def register(self, name: str, password: str) -> dict[str, Any]:
        answer = self.change("POST", "/api/players/register", {"name": name, "password": password})
        assert answer.status_code == 201, answer.text
        return answer.json()["player"]

    def login(self, name: str, password: str) -> httpx.Response:
        return self.change("POST", "/api/players/login", {"name": name, "password": password})

    def close(self) -> None:
        self.http.close()


def browser_headers(origin: str, browser: Browser | None = None) -> dict[str, str]:
    """A websocket handshake's headers as a page of ``origin`` sends them: its origin, and the browser's cookies (its
    player's session), if any."""
    headers = {"Origin": origin}
    if browser is not None:
        headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in browser.http.cookies.items())
    return headers


def refused(answer: httpx.Response, status: int, code: str | None = None) -> str:
    """A refusal: ``status``, JSON with a code and one sentence; the sentence."""
    assert answer.status_code == status, (answer.status_code, answer.text)
    data = answer.json()
    assert data["type"] == "error" and (code is None or data["code"] == code), data
    message = data["message"]
    assert 10 < len(message) < 300 and "\n" not in message and "Traceback" not in message, message
    return message
