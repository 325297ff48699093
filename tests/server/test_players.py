"""The security of players, over HTTP against the real app (uvicorn, httpx), on SQLite and on PostgreSQL.

- password hashes never leave the server: every answer of every player route is scanned for the stored hash
  and for ``$argon2``;
- sign-in is throttled under a loop of wrong passwords, per name (5 failures in 15 minutes) and per address
  (20 in 15 minutes), the right password refused too meanwhile, and let in once the window is over;
- an unknown name and a wrong password get the same answer, in about the same time;
- a change without CSRF protection is refused: no token, a wrong one, another session's, a foreign Origin,
  a cross-site Sec-Fetch-Site; nothing changes;
- one account's cookie cannot act for another;
- deleting an account removes its name from every page and row kept (the profile, the list of players, the
  seat it held in a match and that match's record); its games stay, under no name;
- a guest's history comes with it when it registers;
- no secret in a URL or in the logs; the cookies' flags.

PostgreSQL comes from the ``postgres`` fixture (tests/server/conftest.py); without it those runs are skipped.
"""

from __future__ import annotations

import logging
import statistics
import time
from typing import Any

import pytest
from playerkit import Browser, Site, refused, site_over

from cinch import Rules, Seat
from cinch.library import FORMER_PLAYER
from cinch.match import Match
from cinch.server.players import LOGIN_ADDRESS_LIMIT, LOGIN_NAME_LIMIT, REGISTER_ADDRESS_LIMIT

PASSWORD = "correct horse battery"


@pytest.fixture(params=["sqlite", "postgres"])
def site(request, tmp_path):
    url = request.getfixturevalue("database_url") if request.param == "postgres" else None
    with site_over(request.param, tmp_path, url) as s:
        yield s


def stored_hash(site: Site, name: str) -> str:
    stored = site.players.store.account_named(name.casefold())
    assert stored is not None and stored.password.startswith("$argon2id$")
    return stored.password


def match_with(site: Site, seat: Seat, name: str, player_id: str) -> int:
    """A match in the library with ``name`` at ``seat`` (in the row, the record and its seating), played by
    ``player_id``: what a room of the next wave will store."""
    players = {s: "basic" for s in Seat} | {seat: name}
    match = Match(Rules.preset("pagat"), players=players, rng=3)
    match.metadata["seating"] = [{"seat": s.name, "name": players[s], "kind": "human" if s is seat else "bot",
                                  "from_deal": 1} for s in Seat]
    store = site.players.store
    match_id = store.new_match(match, human_seat=seat, seed=3, frontend="server", players=players)
    store.add_player_game(player_id, match_id, seat.name)
    return match_id


# ---- the hash never leaves ---------------------------------------------------------------------------------------
def test_password_hashes_never_leave_the_server(site):
    ann = site.browser()
    me = ann.register("Ann", PASSWORD)
    match_with(site, Seat.S, "Ann", me["id"])
    first = stored_hash(site, "Ann")
    other = site.browser()
    other.register("Bob", PASSWORD + "!")
    for path in ("/api/players/me", "/api/players", "/api/players/Ann", "/api/players/ann", "/api/players/Bob",
                 "/players", "/players/Ann", "/account"):
        assert ann.get(path).status_code == 200, path
    assert ann.login("Ann", "wrong password").status_code == 401
    assert ann.login("Ann", PASSWORD).status_code == 200
    assert ann.change("PUT", "/api/players/me/password", {"current": PASSWORD, "password": PASSWORD + "2"}
                      ).status_code == 200
    second = stored_hash(site, "Ann")
    assert ann.change("POST", "/api/players/logout").status_code == 200
    assert ann.login("Ann", PASSWORD + "2").status_code == 200
    guest = site.browser()
    guest.guest("Cy")
    guest.change("POST", "/api/players/register", {"name": "Cy", "password": PASSWORD})
    third = stored_hash(site, "Cy")
    assert ann.change("DELETE", "/api/players/me", {"password": PASSWORD + "2"}).status_code == 200
    answers = [a for b in (ann, other, guest) for a in b.answers]
    assert len(answers) >= 20
    for answer in answers:
        text = answer.text + "".join(f"{k}: {v}\n" for k, v in answer.headers.items())
        assert "$argon2" not in text and "argon2" not in text.lower(), answer.request.url
        for secret in (first, second, third, first.rsplit("$", 1)[1], third.rsplit("$", 1)[1]):
            assert secret not in text, answer.request.url


# ---- throttling ----------------------------------------------------------------------------------------------------
def test_sign_in_is_throttled_per_name_under_a_loop_of_wrong_passwords(site):
    site.browser().register("Ann", PASSWORD)
    thief = site.browser(address="198.51.100.7")
    statuses = [thief.login("Ann", f"guess {i}").status_code for i in range(LOGIN_NAME_LIMIT.most + 10)]
    assert statuses == [401] * LOGIN_NAME_LIMIT.most + [429] * 10
    last = thief.answers[-1]
    message = refused(last, 429, "rate-limited")
    assert "that name" in message and "15 minutes" in message
    assert 1 <= int(last.headers["Retry-After"]) <= LOGIN_NAME_LIMIT.window
    # The right password, even from another address, waits too: the name's failures are used up.
    owner = site.browser(address="203.0.113.9")
    refused(owner.login("Ann", PASSWORD), 429, "rate-limited")
    # An unknown name is counted and refused alike: a refusal says nothing of whether a name exists.
    ghost = [thief.login("Nobody", f"guess {i}").status_code for i in range(LOGIN_NAME_LIMIT.most + 2)]
    assert ghost == [401] * LOGIN_NAME_LIMIT.most + [429] * 2
    # Once the window is over, the owner signs in.
    site.players.clock = lambda: time.time() + LOGIN_NAME_LIMIT.window + 1
    assert owner.login("Ann", PASSWORD).status_code == 200


def test_sign_in_is_throttled_per_address_whatever_the_names(site):
    site.browser().register("Ann", PASSWORD)
    thief = site.browser(address="198.51.100.7")
    for i in range(LOGIN_ADDRESS_LIMIT.most):  # a few names each, never reaching a name's own limit
        assert thief.login(f"name{i // 4}", f"guess {i}").status_code == 401
    message = refused(thief.login("Ann", PASSWORD), 429, "rate-limited")
    assert "your address" in message
    refused(thief.login("someone-else", "guess"), 429, "rate-limited")
    # Another address is not held up; nor, over IPv6, is an address outside the thief's /64.
    assert site.browser(address="203.0.113.9").login("Ann", PASSWORD).status_code == 200
    thief6 = site.browser(address="2001:db8:1:2::7")
    for i in range(LOGIN_ADDRESS_LIMIT.most):
        thief6.login(f"v6name{i // 4}", "guess")
    refused(site.browser(address="2001:db8:1:2::ffff").login("Ann", PASSWORD), 429, "rate-limited")
    assert site.browser(address="2001:db8:1:3::7").login("Ann", PASSWORD).status_code == 200


def test_registration_is_throttled_per_address(site):
    spammer = site.browser(address="198.51.100.7")
    for i in range(REGISTER_ADDRESS_LIMIT.most):
        spammer.register(f"spam{i}", PASSWORD)
        spammer.change("POST", "/api/players/logout")
    refused(spammer.change("POST", "/api/players/register", {"name": "spam99", "password": PASSWORD}), 429,
            "rate-limited")
    assert site.browser(address="203.0.113.9").register("Honest", PASSWORD)["name"] == "Honest"


# ---- the same answer ----------------------------------------------------------------------------------------------
def test_an_unknown_name_and_a_wrong_password_get_the_same_answer_in_about_the_same_time(site):
    site.browser().register("Ann", PASSWORD)
    browser = site.browser()
    browser.login("Warm", "up")  # (the first check makes the dummy hash: not timed)
    wrong, unknown = [], []
    for i in range(LOGIN_NAME_LIMIT.most - 1):
        start = time.perf_counter()
        a = browser.login("Ann", f"wrong {i}")
        wrong.append(time.perf_counter() - start)
        start = time.perf_counter()
        b = browser.login(f"Nobody{i}", f"wrong {i}")
        unknown.append(time.perf_counter() - start)
        assert a.status_code == b.status_code == 401
        assert a.json() == b.json() == {"type": "error", "code": "bad-login",
                                        "message": "That name and password do not match an account."}
        assert {k for k in a.headers if k != "date"} == {k for k in b.headers if k != "date"}
    ratio = statistics.median(unknown) / statistics.median(wrong)
    assert 0.6 < ratio < 1.6, (wrong, unknown)  # both check one Argon2id hash (~0.1 s): the unknown, a dummy's


# ---- CSRF -----------------------------------------------------------------------------------------------------------
CHANGES = [("POST", "/api/players/guest", {"name": "Eve"}),
           ("POST", "/api/players/register", {"name": "Eve", "password": PASSWORD}),
           ("POST", "/api/players/login", {"name": "Ann", "password": PASSWORD}),
           ("POST", "/api/players/logout", {}),
           ("PUT", "/api/players/me/password", {"current": PASSWORD, "password": "pwned pwned"}),
           ("DELETE", "/api/players/me", {"password": PASSWORD})]


def test_changes_without_csrf_protection_are_refused(site):
    ann = site.browser()
    me = ann.register("Ann", PASSWORD)
    other = site.browser()
    other.register("Bob", PASSWORD)
    foreign = "http://evil.example"
    for method, path, body in CHANGES:
        for how, answer in [
            ("no token", ann.change(method, path, body, csrf="")),
            ("a wrong token", ann.change(method, path, body, csrf="x" * 43)),
            ("another session's token", ann.change(method, path, body, csrf=other.csrf())),
            ("a foreign Origin", ann.change(method, path, body, headers={"Origin": foreign})),
            ("a null Origin", ann.change(method, path, body, headers={"Origin": "null"})),
            ("another site", ann.change(method, path, body, headers={"Sec-Fetch-Site": "cross-site"})),
            ("a sister site", ann.change(method, path, body, headers={"Sec-Fetch-Site": "same-site"})),
        ]:
            assert answer.status_code == 403, (method, path, how, answer.text)
            assert answer.json()["code"] == "csrf", (method, path, how)
    # Nothing changed: Ann is signed in with her password, and no Eve was made.
    assert ann.me()["id"] == me["id"]
    assert site.browser().login("Ann", PASSWORD).status_code == 200
    assert "Eve" not in site.rows()
    # This server's own origin, and a same-origin fetch, pass.
    assert ann.change("POST", "/api/players/logout", headers={"Origin": site.url}).status_code == 200
    assert ann.change("POST", "/api/players/login", {"name": "Ann", "password": PASSWORD},
                      headers={"Sec-Fetch-Site": "same-origin"}).status_code == 200


def test_a_cookie_from_one_account_cannot_act_for_another(site):
    ann, bob = site.browser(), site.browser()
    ann.register("Ann", PASSWORD)
    bob_id = bob.register("Bob", "bobs own password")["id"]
    # Ann's cookie with Bob's password does nothing to Bob: every change is of the session's own account.
    refused(ann.change("PUT", "/api/players/me/password", {"current": "bobs own password", "password": "x" * 12}),
            403, "bad-password")
    refused(ann.change("DELETE", "/api/players/me", {"password": "bobs own password"}), 403, "bad-password")
    # Bob's session cookie with Ann's CSRF token is refused; no route names another account to act on.
    thief = Browser(site.url)
    thief.http.cookies.set("cinch_session", bob.http.cookies["cinch_session"])
    refused(thief.change("PUT", "/api/players/me/password", {"current": "x", "password": "y" * 12},
                         csrf=ann.csrf()), 403, "csrf")
    for method, path in [("PUT", "/api/players/Bob/password"), ("DELETE", "/api/players/Bob"),
                         ("POST", "/api/players/Bob")]:
        assert ann.change(method, path, {"password": PASSWORD}).status_code in (404, 405), path
    thief.close()
    assert bob.me()["id"] == bob_id
    assert site.browser().login("Bob", "bobs own password").status_code == 200
    # A session ended on signing out is dead, even replayed by whoever copied its cookie.
    stolen = ann.http.cookies["cinch_session"]
    ann.change("POST", "/api/players/logout")
    replay = site.browser()
    replay.http.cookies.set("cinch_session", stolen)
    assert replay.me() is None


def test_a_new_password_signs_out_every_other_session(site):
    laptop, phone = site.browser(), site.browser()
    laptop.register("Ann", PASSWORD)
    assert phone.login("Ann", PASSWORD).status_code == 200
    assert laptop.change("PUT", "/api/players/me/password", {"current": PASSWORD, "password": "a new one!"}
                         ).status_code == 200
    assert laptop.me()["name"] == "Ann"
    assert phone.me() is None
    refused(site.browser().login("Ann", PASSWORD), 401, "bad-login")
    assert site.browser().login("Ann", "a new one!").status_code == 200


# ---- deleting, and a guest that registers ---------------------------------------------------------------------
def test_deleting_an_account_removes_its_name_from_every_page_and_record(site):
    zed = site.browser()
    me = zed.register("Zedediah", PASSWORD)
    match_id = match_with(site, Seat.S, "Zedediah", me["id"])
    site.browser().register("Bob", PASSWORD)
    assert zed.get("/api/players/Zedediah").json()["games"]["played"] == 1
    assert "Zedediah" in site.rows()
    answer = zed.change("DELETE", "/api/players/me", {"password": PASSWORD})
    assert answer.status_code == 200 and answer.json()["deleted"] is True
    assert zed.me() is None
    anyone = site.browser()
    refused(anyone.get("/api/players/Zedediah"), 404, "no-player")
    listed = anyone.get("/api/players").json()["players"]
    assert [p["name"] for p in listed] == ["Bob"]
    for path in ("/api/players", "/api/players/Bob", "/players", "/players/Zedediah", "/account"):
        assert "Zedediah" not in anyone.get(path).text, path
    rows = site.rows()
    assert "Zedediah" not in rows and "zedediah" not in rows
    # The match and its result stay, the seat under no name; the player's id stays with it.
    stored = site.players.store.get(match_id)
    assert stored.players[Seat.S] == FORMER_PLAYER and stored.record["players"]["S"] == FORMER_PLAYER
    assert [e["name"] for e in stored.record["seating"] if e["seat"] == "S"] == [FORMER_PLAYER]
    assert site.players.store.player_games(me["id"]) == [(match_id, "S")]
    refused(site.browser().login("Zedediah", PASSWORD), 401, "bad-login")
    # The name is free again, for someone new: nothing of the old account comes with it.
    fresh = site.browser().register("Zedediah", "another person!")
    assert fresh["id"] != me["id"]
    assert site.browser().get("/api/players/Zedediah").json()["games"]["played"] == 0


def test_a_guest_keeps_its_history_when_it_registers(site):
    device = site.browser()
    made = device.guest("Cy the guest")
    guest = made["player"]
    assert guest["kind"] == "guest" and guest["profile"] is None and len(made["key"]) == 32
    match_id = match_with(site, Seat.N, "Cy the guest", guest["id"])
    assert made["key"] not in site.rows()  # (only its hash is kept)
    # The same device, its session gone, comes back as the same guest with its key (sent in the body).
    later = site.browser()
    back = later.change("POST", "/api/players/guest", {"key": made["key"]})
    assert back.status_code == 200 and back.json()["player"]["id"] == guest["id"]
    account = later.register("Cy", PASSWORD)
    assert account["id"] == guest["id"] and account["kind"] == "account"
    profile = later.get("/api/players/Cy").json()
    assert profile["games"]["played"] == 1 and profile["games"]["recent"][0]["match"] == match_id
    assert profile["games"]["recent"][0]["seat"] == "N"
    assert profile["ratings"] == {"minimum": 5, "families": []}  # (the match was not finished: nothing rated)
    assert profile["daily"] == {"days": []}  # (no daily set played)
    # The device key no longer signs in: the account is reached by its password alone.
    refused(site.browser().change("POST", "/api/players/guest", {"key": made["key"]}), 404, "unknown-key")
    # Registering ends the guest's other sessions: the account's only session is the one that registered.
    assert device.me() is None


# ---- secrets, cookies, input -----------------------------------------------------------------------------------------
def test_no_secret_is_in_a_url_or_the_logs(site, caplog):
    caplog.set_level(logging.DEBUG)
    ann = site.browser()
    key = ann.guest("Ann")["key"]
    ann.register("Ann", PASSWORD)
    ann.login("Ann", "a wrong password")
    ann.login("Ann", PASSWORD)
    session = ann.http.cookies["cinch_session"]
    secrets = [PASSWORD, "a wrong password", key, session, stored_hash(site, "Ann")]
    server_side = [r for r in caplog.records if not r.name.startswith(("httpx", "httpcore"))]  # (not this client's)
    logged = "\n".join(f"{r.name} {r.getMessage()} {r.args}" for r in server_side)
    for secret in secrets:
        assert all(secret not in url for url in ann.urls)
        assert secret not in logged
    assert session not in site.rows()  # (a session is kept as its hash)


def test_the_session_cookie_is_httponly_lax_and_secure_over_https(site):
    ann = site.browser()
    ann.register("Ann", PASSWORD)
    cookies = ann.answers[-1].headers.get_list("set-cookie")
    session = next(c for c in cookies if c.startswith("cinch_session="))
    flags = {f.strip().lower() for f in session.split(";")[1:]}
    assert {"httponly", "samesite=lax", "path=/"} <= flags and "secure" not in flags
    csrf = next(c for c in cookies if c.startswith("cinch_csrf="))
    assert "httponly" not in csrf.lower() and "samesite=lax" in csrf.lower()
    # Behind a proxy that says https (uvicorn trusts it from loopback), the cookies are sent over https only.
    secure = Browser(site.url)
    secure.http.headers["X-Forwarded-Proto"] = "https"
    first = secure.get("/api/players/me")
    assert "secure" in first.headers["set-cookie"].lower()
    token = first.json()["csrf"]  # (the client speaks http to the proxy's place: it sends the cookie by hand)
    answer = secure.http.post("/api/players/guest", json={"name": "Bo"},
                              headers={"Cookie": f"cinch_csrf={token}", "X-CSRF-Token": token})
    assert answer.status_code == 201, answer.text
    cookies = answer.headers.get_list("set-cookie")
    assert len(cookies) == 2 and all("secure" in c.lower() for c in cookies)
    secure.close()


@pytest.mark.parametrize(("path", "body", "code"), [
    ("/api/players/register", {"name": "a", "password": PASSWORD}, "bad-name"),
    ("/api/players/register", {"name": "Ann Marie", "password": PASSWORD}, "bad-name"),
    ("/api/players/register", {"name": "x" * 25, "password": PASSWORD}, "bad-name"),
    ("/api/players/register", {"name": "Admin", "password": PASSWORD}, "name-unavailable"),
    ("/api/players/register", {"name": "Ann", "password": "short"}, "bad-password"),
    ("/api/players/register", {"name": "Ann", "password": "x" * 201}, "bad-password"),
    ("/api/players/register", {"name": "Annabelle", "password": "ANNABELLE"}, "bad-password"),
    ("/api/players/register", {"name": ["Ann"], "password": PASSWORD}, "bad-name"),
    ("/api/players/register", {"name": "Ann", "password": PASSWORD, "admin": True}, "bad-request"),
    ("/api/players/login", {"name": 3, "password": PASSWORD}, "bad-request"),
    ("/api/players/guest", {"name": ""}, "bad-name"),
    ("/api/players/guest", {"name": "a\u202eb"}, "bad-name"),
    ("/api/players/guest", {"key": 12}, "bad-key"),
    ("/api/players/guest", [1, 2], "bad-request"),
])
def test_bad_input_is_one_line_never_a_crash(tmp_path, path, body, code):
    with site_over("sqlite", tmp_path) as site:
        answer = site.browser().change("POST", path, body)
        refused(answer, answer.status_code, code)
        assert 400 <= answer.status_code < 500


def test_a_taken_name_is_refused_as_unavailable_whatever_its_case(site):
    site.browser().register("Ann", PASSWORD)
    message = refused(site.browser().change("POST", "/api/players/register", {"name": "ANN", "password": PASSWORD}),
                      409, "name-unavailable")
    assert message == refused(site.browser().change("POST", "/api/players/register",
                                                    {"name": "guest", "password": PASSWORD}), 409)


def test_every_page_links_the_site_and_loads_the_player_bar(tmp_path):
    with site_over("sqlite", tmp_path) as site:
        browser = site.browser()
        for path in ("/", "/rooms/ABC123", "/replay", "/puzzles", "/score", "/account", "/players", "/players/Ann"):
            page = browser.get(path)
            assert page.status_code == 200 and "/static/players/bar.js" in page.text, path
            assert '<a href="/puzzles"' in page.text, path
        for asset in ("bar.js", "session.js", "account.js", "players.js", "profile.js", "players.css"):
            assert browser.get(f"/static/players/{asset}").status_code == 200, asset
        assert browser.get("/static/header.css").status_code == 200


def test_who_is_this_for_a_websocket_handshake(site):
    """``PlayerService.identify`` (the next wave's seat-taking asks it): a handshake's cookie says who it is,
    unless the page that opened it is another site's."""
    import asyncio

    from starlette.requests import HTTPConnection

    ann = site.browser()
    me = ann.register("Ann", PASSWORD)
    cookie = f"cinch_session={ann.http.cookies['cinch_session']}"
    host = site.url.removeprefix("http://")

    def handshake(origin: str | None, cookie: str = cookie) -> Any:
        headers = [(b"host", host.encode()), (b"cookie", cookie.encode())]
        if origin is not None:
            headers.append((b"origin", origin.encode()))
        scope = {"type": "websocket", "scheme": "ws", "path": "/ws", "headers": headers, "query_string": b"",
                 "server": ("127.0.0.1", int(host.rsplit(":", 1)[1])), "app": site.app}
        return asyncio.run(site.players.identify(HTTPConnection(scope)))

    found = handshake(site.url)
    assert found is not None and (found.id, found.name, found.kind, found.profile) == (me["id"], "Ann", "account",
                                                                                       "/players/Ann")
    assert handshake("http://evil.example") is None
    assert handshake(None) is not None  # (a program, not a browser: no other site's page behind it)
    assert handshake(site.url, "cinch_session=" + "A" * 32) is None


def test_the_csrf_guard_serves_later_routes_too():
    """``CsrfGuard`` over another prefix (as the daily deals' and events' routes will be): a change there without
    the token, or from another site, is refused before the route runs; a read is not checked."""
    import warnings

    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route

    from cinch.server.security import CsrfGuard

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    ran = []

    async def change(request: Any) -> Any:
        ran.append(request.method)
        return PlainTextResponse("done")

    app = Starlette(routes=[Route("/api/daily/{day}", change, methods=["GET", "POST"])],
                    middleware=[Middleware(CsrfGuard, prefixes=["/api/daily"])])
    with TestClient(app) as client:
        assert client.get("/api/daily/today").status_code == 200
        assert client.post("/api/daily/today").json()["code"] == "csrf"
        client.cookies.set("cinch_csrf", "t" * 32)
        assert client.post("/api/daily/today", headers={"X-CSRF-Token": "t" * 32,
                                                        "Origin": "http://evil.example"}).status_code == 403
        assert client.post("/api/daily/today", headers={"X-CSRF-Token": "t" * 32}).status_code == 200
    assert ran == ["GET", "POST"]
