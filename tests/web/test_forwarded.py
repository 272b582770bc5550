"""``arena serve --forwarded-allow-ips`` over a real server (issue 27, hosting): behind a
reverse proxy the per-address limits count the forwarded client and the session cookie is
Secure when the proxy says https; a visitor who reaches the port directly cannot name their
own address or scheme in the headers.

The peers are real loopback connections from different addresses of 127.0.0.0/8: the
trusted proxy connects from one, the untrusted visitor from another."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.league.storage import Database
from arena.submission import accounts
from arena.submission.web_auth import AccountsConfig

from .conftest import ROOT, free_port
from .test_sign_in import Client

PROXY = "127.0.0.3"
VISITOR = "127.0.0.2"
LIMIT = AccountsConfig().max_failed_sign_ins


class Served:
    """``arena serve`` in a subprocess: its port, for :class:`Client`."""

    def __init__(self, port: int, lines: list[str]) -> None:
        self.port = port
        self.lines = lines
        """What it printed when it started: "serving ...", "accounts: ...", and any more asked for."""


@contextmanager
def arena_serve(tmp_path: Path, *options: str, env: dict[str, str] | None = None,
                lines: int = 2) -> Iterator[Served]:
    """``arena serve --accounts`` of a league with alice, until the block ends, once it has
    printed ``lines`` lines."""
    db = tmp_path / "league.db"
    if not db.exists():
        with Database(db) as league:
            accounts.add_user(league, "alice")
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "arena.cli", "serve", "--db", str(db), "--port", str(port),
                                "--accounts", *options], cwd=ROOT, text=True, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env={**os.environ, **(env or {})})
    try:
        assert process.stdout is not None
        printed = [process.stdout.readline() for _ in range(lines)]
        assert printed[0].startswith("serving "), process.stderr.read() if process.stderr else ""
        yield Served(port, printed)
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=30)


def fail_sign_ins(client: Client, times: int) -> list[int]:
    """The statuses of ``times`` sign-ins to alice's account with a wrong token."""
    return [client.sign_in("alice", "arena_000000000000_wrong")[0] for _ in range(times)]


def test_a_visitor_cannot_spoof_their_address_around_the_sign_in_limit(tmp_path: Path) -> None:
    """Even with uvicorn's FORWARDED_ALLOW_IPS=* in the environment (before the option, uvicorn
    took it and believed every peer): only 127.0.0.1 and ::1 are believed by default."""
    with arena_serve(tmp_path, env={"FORWARDED_ALLOW_IPS": "*"}) as served:
        visitor = Client(served, source=VISITOR)  # type: ignore[arg-type]
        statuses = []
        for number in range(LIMIT + 2):
            visitor.forwarded_for = f"198.51.100.{number}"  # a new address claimed each time
            statuses += fail_sign_ins(visitor, 1)
        assert statuses == [401] * LIMIT + [429] * 2


def test_a_trusted_proxy_has_its_clients_counted_apart(tmp_path: Path) -> None:
    with arena_serve(tmp_path, "--forwarded-allow-ips", f"{PROXY},10.0.0.0/8", lines=3) as served:
        assert served.lines[2] == f"forwarded headers believed from: {PROXY}, 10.0.0.0/8\n"
        flooder = Client(served, forwarded_for="203.0.113.5", source=PROXY)  # type: ignore[arg-type]
        assert fail_sign_ins(flooder, LIMIT + 1) == [401] * LIMIT + [429]
        other = Client(served, forwarded_for="203.0.113.6", source=PROXY)  # type: ignore[arg-type]
        assert fail_sign_ins(other, 1) == [401]  # another client behind the same proxy is not held up
        # a chain through a second trusted proxy: the client is the last untrusted address
        chained = Client(served, forwarded_for="198.51.100.9, 203.0.113.5, 10.1.2.3", source=PROXY)  # type: ignore[arg-type]
        assert fail_sign_ins(chained, 1) == [429]
        # 127.0.0.1 is no longer a proxy once the option names others: its header is not believed
        local = Client(served, source="127.0.0.1")  # type: ignore[arg-type]
        for number in range(LIMIT + 1):
            local.forwarded_for = f"192.0.2.{number}"
            status = fail_sign_ins(local, 1)[0]
        assert status == 429


def test_the_session_cookie_is_secure_when_the_trusted_proxy_says_https(tmp_path: Path) -> None:
    with Database(tmp_path / "league.db") as league:
        token = accounts.add_user(league, "alice")[1]
    with arena_serve(tmp_path, "--forwarded-allow-ips", PROXY) as served:
        for source, secure in ((PROXY, True), (VISITOR, False)):
            client = Client(served, forwarded_for="203.0.113.7", source=source)  # type: ignore[arg-type]
            csrf = client.csrf()
            status, headers, _ = client.request("POST", "/sign-in", {"csrf": csrf, "name": "alice", "token": token},
                                                headers={"X-Forwarded-Proto": "https"})
            assert status == 303
            (cookie,) = [h for h in headers.get_all("set-cookie") or [] if h.startswith("arena_session=")]
            assert ("; Secure" in cookie) is secure, (source, cookie)


def test_none_believes_no_one(tmp_path: Path) -> None:
    with arena_serve(tmp_path, "--forwarded-allow-ips", "none", lines=3) as served:
        assert served.lines[2] == "forwarded headers believed from: no one\n"
        local = Client(served, source="127.0.0.1")  # type: ignore[arg-type]
        statuses = []
        for number in range(LIMIT + 1):
            local.forwarded_for = f"192.0.2.{number}"
            statuses += fail_sign_ins(local, 1)
        assert statuses == [401] * LIMIT + [429]


@pytest.mark.parametrize(("value", "message"), [
    ("*", "'*' would let any visitor choose the address the limits count"),
    ("127.0.0.1,proxy.local", "'proxy.local' is not an IP address or network"),
    ("10.0.0.0/33", "'10.0.0.0/33' is not an IP address or network"),
    ("127.0.0.1,", "'' is not an IP address or network"),
])
def test_a_bad_forwarded_allow_ips_is_one_error_line(tmp_path: Path, value: str, message: str) -> None:
    result = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "x.db"), "--forwarded-allow-ips", value])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"Error: Invalid value for --forwarded-allow-ips: {message}" in result.output
