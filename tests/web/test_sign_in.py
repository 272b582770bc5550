"""Accounts over a real server (``create_app(..., accounts=...)`` under uvicorn, and
``arena serve --accounts``): API tokens, the sign-in form and its session cookie, CSRF on
every form that changes something, the failed sign-in limit and open registration."""

from __future__ import annotations

import hashlib
import html
import http.client
import json
import signal
import subprocess
import sys
import threading
import urllib.parse
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from email.message import Message
from http.cookies import SimpleCookie
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.league.storage import Database
from arena.submission import accounts
from arena.submission.web_auth import AccountsConfig
from arena.submission.web_submit import UploadsConfig

from .conftest import ROOT, Server, free_port


class Client:
    """One browser's cookies over plain HTTP (no redirect is followed, every header is seen)."""

    def __init__(self, server: Server, forwarded_for: str = "", source: str = "127.0.0.1") -> None:
        self.server = server
        self.forwarded_for = forwarded_for
        """Sent as X-Forwarded-For: uvicorn trusts it from 127.0.0.1, as from a proxy there."""
        self.source = source
        """The address the connections come from (any of loopback's 127.0.0.0/8)."""
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, fields: dict[str, str] | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, Message, str]:
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=30, source_address=(self.source, 0))
        sent = dict(headers or {})
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if self.forwarded_for:
            sent["X-Forwarded-For"] = self.forwarded_for
        body = None
        if fields is not None:
            body = urllib.parse.urlencode(fields)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            conn.request(method, path, body, sent)
            response = conn.getresponse()
            text = response.read().decode()
        finally:
            conn.close()
        for header in response.headers.get_all("set-cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                if morsel["max-age"] == "0":
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value
        return response.status, response.headers, text

    def csrf(self, path: str = "/sign-in") -> str:
        """The CSRF token of the form at ``path``."""
        status, _, page = self.request("GET", path)
        assert status == 200, page
        return html.unescape(page.split('name="csrf" value="', 1)[1].split('"', 1)[0])

    def sign_in(self, name: str, token: str) -> tuple[int, Message, str]:
        return self.request("POST", "/sign-in", {"csrf": self.csrf(), "name": name, "token": token})

    def header(self) -> str:
        """The account part of the home page's header."""
        status, _, page = self.request("GET", "/")
        assert status == 200, page
        return page.split('<div class="account">', 1)[1].split("</div>", 1)[0]


@pytest.fixture
def league(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A league file with alice (admin), bob, carol (disabled) and dave (token rotated: his
    first token is ``dave-old``)."""
    path = tmp_path / "league.db"
    tokens = {}
    with Database(path) as db:
        for name in ("alice", "bob", "carol", "dave"):
            tokens[name] = accounts.add_user(db, name, admin=name == "alice")[1]
        accounts.disable_user(db, "carol")
        tokens["dave-old"] = tokens["dave"]
        tokens["dave"] = accounts.rotate_token(db, "dave")[1]
    return path, tokens


@pytest.fixture
def server(league: tuple[Path, dict[str, str]]) -> Iterator[Server]:
    with Server(league[0], accounts=AccountsConfig()) as running:
        yield running


def test_the_api_takes_only_a_current_token_of_an_enabled_user(server: Server, league) -> None:
    _, tokens = league
    client = Client(server)
    status, headers, body = client.request("GET", "/api/me")
    assert status == 401 and headers["WWW-Authenticate"].startswith("Bearer") and "Bearer <token>" in body
    forged = tokens["alice"][:-4] + ("AAAA" if not tokens["alice"].endswith("AAAA") else "BBBB")
    for authorization in (f"Basic {tokens['alice']}", "Bearer ", "Bearer arena_nonsense", f"Bearer {forged}",
                          f"Bearer {tokens['carol']}", f"Bearer {tokens['dave-old']}"):
        status, headers, body = client.request("GET", "/api/me", headers={"Authorization": authorization})
        assert status == 401 and "Bearer" in headers["WWW-Authenticate"], authorization
        assert json.loads(body)["error"] in ("invalid token", "this needs a token: Authorization: Bearer <token>")
    for name, admin in (("alice", True), ("bob", False), ("dave", False)):
        status, _, body = client.request("GET", "/api/me", headers={"Authorization": f"bearer {tokens[name]}"})
        assert status == 200 and json.loads(body) == {"name": name, "admin": admin}
    status, _, _ = client.request("GET", "/api/games")  # the league API stays open to all
    assert status == 200


def test_signing_in_sets_an_http_only_session_cookie_stored_hashed(server: Server, league) -> None:
    path, tokens = league
    client = Client(server)
    assert "Sign in" in client.header() and "Register" not in client.header()
    status, headers, _ = client.request("GET", "/sign-in")
    (anonymous,) = headers.get_all("set-cookie")
    assert anonymous.startswith("arena_csrf=") and "HttpOnly" in anonymous and "SameSite=strict" in anonymous
    status, headers, _ = client.sign_in("ALICE", tokens["alice"])
    assert status == 303 and headers["Location"] == "/"
    (cookie,) = headers.get_all("set-cookie")
    assert cookie.startswith("arena_session=") and "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert "Path=/" in cookie and "Secure" not in cookie  # plain http here; https requests get Secure
    assert 'signed in as <strong class="user-name">alice</strong>' in client.header()
    session_id = client.cookies["arena_session"]
    with Database(path, readonly=True) as db:
        stored = [row[0] for row in db.conn.execute("SELECT id_hash FROM web_sessions")]
    assert stored == [hashlib.sha256(session_id.encode()).hexdigest()]
    assert client.sign_in("alice", tokens["alice"])[0] == 303  # again: a new session replaces this one
    assert client.cookies["arena_session"] != session_id
    with Database(path, readonly=True) as db:
        stored = [row[0] for row in db.conn.execute("SELECT id_hash FROM web_sessions")]
    assert stored == [hashlib.sha256(client.cookies["arena_session"].encode()).hexdigest()]


def test_wrong_sign_ins_are_refused(server: Server, league) -> None:
    _, tokens = league
    for number, (name, token) in enumerate((
            ("alice", tokens["bob"]), ("alice", ""), ("alice", tokens["alice"] + "x"), ("carol", tokens["carol"]),
            ("dave", tokens["dave-old"]), ("nobody", tokens["alice"]))):
        client = Client(server, forwarded_for=f"192.0.2.{number}")  # each its own client: no limit is reached
        status, headers, page = client.sign_in(name, token)
        assert status == 401 and "wrong name or token" in page, name
        assert "arena_session" not in client.cookies and "Sign in" in client.header()


def test_forged_form_posts_without_the_session_csrf_token_are_refused(server: Server, league) -> None:
    path, tokens = league
    client = Client(server)
    anonymous_csrf = client.csrf()
    assert client.sign_in("bob", tokens["bob"])[0] == 303
    session_csrf = client.csrf("/")  # the header's sign-out form
    assert session_csrf != anonymous_csrf
    for fields in ({}, {"csrf": ""}, {"csrf": "forged"}, {"csrf": anonymous_csrf}, {"csrf": session_csrf + "x"}):
        status, _, page = client.request("POST", "/sign-out", fields)
        assert status == 403 and "CSRF" in page, fields
        assert "signed in as" in client.header()
    session_id = client.cookies["arena_session"]
    status, headers, _ = client.request("POST", "/sign-out", {"csrf": session_csrf})
    assert status == 303 and "arena_session" not in client.cookies
    replayed = Client(server)
    replayed.cookies["arena_session"] = session_id  # the cookie of a session that ended
    assert "Sign in" in replayed.header()
    with Database(path, readonly=True) as db:
        assert db.conn.execute("SELECT COUNT(*) FROM web_sessions").fetchone()[0] == 0


def test_a_sign_in_post_without_the_browser_csrf_token_is_refused(server: Server, league) -> None:
    _, tokens = league
    stranger = Client(server)  # another site's form: no CSRF cookie of ours, or not the field
    status, _, page = stranger.request("POST", "/sign-in", {"name": "bob", "token": tokens["bob"], "csrf": "x"})
    assert status == 403 and "arena_session" not in stranger.cookies
    client = Client(server)
    client.csrf()
    status, _, _ = client.request("POST", "/sign-in", {"name": "bob", "token": tokens["bob"]})
    assert status == 403 and "arena_session" not in client.cookies


def test_rotating_or_disabling_ends_the_web_sessions(server: Server, league) -> None:
    path, tokens = league
    alice, bob = Client(server), Client(server)
    assert alice.sign_in("alice", tokens["alice"])[0] == 303 and bob.sign_in("bob", tokens["bob"])[0] == 303
    assert "signed in as" in alice.header() and "signed in as" in bob.header()
    assert CliRunner().invoke(main, ["user", "rotate", "alice", "--db", str(path)]).exit_code == 0
    assert CliRunner().invoke(main, ["user", "disable", "bob", "--db", str(path)]).exit_code == 0
    assert "Sign in" in alice.header() and "Sign in" in bob.header()
    status, _, _ = Client(server).request("GET", "/api/me", headers={"Authorization": f"Bearer {tokens['alice']}"})
    assert status == 401


def test_a_flood_of_failed_sign_ins_is_stopped_for_that_client_only(server: Server, league) -> None:
    _, tokens = league
    flooder = Client(server, forwarded_for="203.0.113.7")
    for _ in range(AccountsConfig().max_failed_sign_ins):
        assert flooder.sign_in("alice", tokens["bob"])[0] == 401
    status, headers, page = flooder.sign_in("alice", tokens["bob"])
    assert status == 429 and int(headers["Retry-After"]) > 0 and "too many failed sign-ins" in page
    assert flooder.sign_in("alice", tokens["alice"])[0] == 429  # even the right token, until the window passes
    assert Client(server).sign_in("alice", tokens["alice"])[0] == 303  # another client is not held up


def test_signing_in_to_ones_own_account_does_not_reset_the_failed_sign_ins(server: Server, league) -> None:
    _, tokens = league
    guesser = Client(server, forwarded_for="203.0.113.9")
    for _ in range(AccountsConfig().max_failed_sign_ins - 1):
        assert guesser.sign_in("alice", tokens["bob"])[0] == 401
    assert guesser.sign_in("bob", tokens["bob"])[0] == 303  # bob's own account
    assert guesser.sign_in("alice", tokens["bob"])[0] == 401  # the limit's last failure
    assert guesser.sign_in("alice", tokens["bob"])[0] == 429


def test_a_burst_of_simultaneous_failed_sign_ins_gets_no_more_tries_than_the_limit(server: Server, league) -> None:
    _, tokens = league
    flooder = Client(server, forwarded_for="203.0.113.8")
    csrf = flooder.csrf()
    start = threading.Barrier(20)

    def attempt() -> int:
        start.wait()
        return flooder.request("POST", "/sign-in", {"csrf": csrf, "name": "alice", "token": tokens["bob"]})[0]

    with ThreadPoolExecutor(20) as pool:
        statuses = sorted(pool.map(lambda _: attempt(), range(20)))
    assert statuses == [401] * AccountsConfig().max_failed_sign_ins + [429] * (20 - AccountsConfig().max_failed_sign_ins)


def test_open_registration_is_off_by_default(server: Server) -> None:
    client = Client(server)
    csrf = client.csrf()
    assert client.request("GET", "/register")[0] == 404
    assert client.request("POST", "/register", {"csrf": csrf, "name": "mallory"})[0] in (404, 405)
    assert "/register" not in client.header()


def test_open_registration_creates_a_user_and_shows_the_token_once(league) -> None:
    path, _ = league
    with Server(path, accounts=AccountsConfig(open_registration=True)) as server:
        client = Client(server, forwarded_for="198.51.100.1")
        assert 'href="/register"' in client.header()
        status, _, _ = client.request("POST", "/register", {"name": "newbie"})
        assert status == 403  # no CSRF token
        status, headers, page = client.request("POST", "/register", {"csrf": client.csrf("/register"),
                                                                    "name": "newbie"})
        assert status == 200 and headers["Cache-Control"] == "no-store" and "cannot be shown again" in page
        token = page.split('<code class="token">', 1)[1].split("</code>", 1)[0]
        status, _, body = client.request("GET", "/api/me", headers={"Authorization": f"Bearer {token}"})
        assert status == 200 and json.loads(body) == {"name": "newbie", "admin": False}
        with Database(path, readonly=True) as db:
            assert token.encode() not in b"".join(r[0].encode() for r in db.conn.execute("SELECT token_hash FROM users"))
        status, _, page = client.request("POST", "/register", {"csrf": client.csrf("/register"), "name": "NEWBIE"})
        assert status == 400 and "is taken" in page
        evil = "<script>alert(1)</script>"
        status, _, page = client.request("POST", "/register", {"csrf": client.csrf("/register"), "name": evil})
        assert status == 400 and evil not in page and html.escape(evil) in page
        for number in range(2):  # 3 registrations per client and window; newbie was the first
            status, _, _ = client.request("POST", "/register", {"csrf": client.csrf("/register"),
                                                               "name": f"more{number}"})
            assert status == 200
        status, headers, page = client.request("POST", "/register", {"csrf": client.csrf("/register"),
                                                                    "name": "onetoomany"})
        assert status == 429 and "Retry-After" in headers


@pytest.mark.slow
def test_the_sign_in_form_in_a_browser(server: Server, league, page) -> None:
    _, tokens = league
    page.goto(f"{server.url}/")
    page.get_by_role("link", name="Sign in").click()
    page.get_by_label("name").fill("alice")
    page.get_by_label("token").fill(tokens["alice"])
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{server.url}/")
    assert page.locator("header .account").inner_text().startswith("signed in as alice")
    (cookie,) = [c for c in page.context.cookies() if c["name"] == "arena_session"]
    assert cookie["httpOnly"] is True and cookie["sameSite"] == "Lax" and cookie["secure"] is False
    assert "arena_session" not in page.evaluate("document.cookie")  # no script can read it
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_url(f"{server.url}/")
    assert page.locator("header .account").inner_text().strip() == "Sign in"
    assert not [c for c in page.context.cookies() if c["name"] == "arena_session"]
    assert page.dialogs == [] and page.errors == []


def test_arena_serve_accounts(league) -> None:
    path, tokens = league
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "arena.cli", "serve", "--db", str(path), "--port", str(port),
                                "--accounts"], cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert process.stdout is not None
        assert process.stdout.readline().startswith(f"serving {path} read-only at http://127.0.0.1:{port}/")
        assert process.stdout.readline().startswith(f"accounts: sign in at http://127.0.0.1:{port}/sign-in")
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", "/api/me", headers={"Authorization": f"Bearer {tokens['bob']}"})
        response = conn.getresponse()
        assert response.status == 200 and json.loads(response.read()) == {"name": "bob", "admin": False}
        conn.close()
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=30)


def test_open_registration_needs_accounts(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["serve", "--open-registration", "--db", str(tmp_path / "x.db")])
    assert result.exit_code == 2 and "Error: --open-registration needs --accounts" in result.output


def test_signing_in_returns_to_the_page_that_asked_and_never_to_another_site(tmp_path: Path, league) -> None:
    _, tokens = league
    with Server(league[0], accounts=AccountsConfig(), uploads=UploadsConfig(data_dir=tmp_path / "data")) as server:
        client = Client(server)
        status, headers, _ = client.request("GET", "/submissions?x=1")
        assert status == 303 and headers["Location"] == "/sign-in?next=%2Fsubmissions%3Fx%3D1"
        status, _, form = client.request("GET", headers["Location"])
        assert status == 200 and '<input type="hidden" name="next" value="/submissions?x=1">' in form
        fields = {"csrf": client.csrf(), "name": "bob", "token": tokens["bob"]}
        assert client.request("POST", "/sign-in", {**fields, "name": "bob", "token": "wrong", "next": "/submit"})[0] \
            == 401
        status, headers, _ = client.request("POST", "/sign-in", {**fields, "next": "/submissions?x=1"})
        assert status == 303 and headers["Location"] == "/submissions?x=1"
        for evil in ("//evil.example", "//evil.example/submit", "https://evil.example/", "/\\evil.example",
                     "http:/evil.example", "javascript:alert(1)", "/\t/evil.example", "evil.example"):
            other = Client(server)
            _, _, form = other.request("GET", f"/sign-in?{urllib.parse.urlencode({'next': evil})}")
            assert '<input type="hidden" name="next" value="/">' in form, evil
            status, headers, _ = other.request("POST", "/sign-in", {"csrf": other.csrf(), "name": "bob",
                                                                     "token": tokens["bob"], "next": evil})
            assert status == 303 and headers["Location"] == "/", evil
