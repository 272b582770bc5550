"""A real server with the Play area on a free loopback port, and a visitor speaking HTTP to it
(its own cookie jar, the CSRF token from the form), for the Play tests."""

from __future__ import annotations

import http.cookiejar
import json
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from arena.league.storage import Database
from arena.web.play import PlayConfig
from referee.match import TimeControl
from referee.sandbox import SandboxConfig, SandboxMode

from .conftest import Server

BOT_TIME = TimeControl(move_timeout=1.0, time_bank=2.0, max_faults=3, startup_timeout=15)


class PlayServer(Server):
    """``create_app(ladder, PlayConfig(...))`` under uvicorn in a thread."""

    def __init__(self, folder: Path, *, accounts: Any = None, hide_replays: bool = False, **options: Any) -> None:
        """``options``: the :class:`PlayConfig`'s; ``accounts`` and ``hide_replays``: the app's."""
        self.ladder = folder / "ladder.db"
        Database(self.ladder).close()
        self.config = replace(PlayConfig(db_path=folder / "play.db", ladder=self.ladder, time_control=BOT_TIME,
                                         sandbox=SandboxConfig(SandboxMode.AUTO).resolved()), **options)
        super().__init__(self.ladder, self.config, stop_seconds=40, accounts=accounts, hide_replays=hide_replays)


class Visitor:
    """One browser's worth of cookies; every answer's text is kept in :attr:`seen`."""

    def __init__(self, server: PlayServer) -> None:
        self.server = server
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.csrf = ""
        self.seen: list[str] = []

    def request(self, path: str, data: bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, str, str]:
        """``(status, final url, body)``."""
        req = urllib.request.Request(self.server.url + path, data=data, headers=headers or {})
        try:
            with self.opener.open(req, timeout=30) as response:
                status, url, body = response.status, response.url, response.read().decode()
        except urllib.error.HTTPError as error:
            status, url, body = error.code, error.url, error.read().decode()
        self.seen.append(body)
        return status, url, body

    def form(self, game: str) -> str:
        status, _, html = self.request(f"/play?game={game}")
        assert status == 200, html
        self.csrf = re.search(r'name="csrf" value="([^"]+)"', html).group(1)  # type: ignore[union-attr]
        return html

    def start(self, game: str, opponents: list[str], seat: int | str = 0, settings: str = "",
              csrf: str | None = None, variant: str = "") -> tuple[int, str, str]:
        """POST the Play form: ``(status, url, body)``; the url ends in the match's token."""
        if not self.csrf:
            self.form(game)
        fields = [("csrf", self.csrf if csrf is None else csrf), ("game", game), ("variant", variant),
                  ("seat", str(seat)), ("settings", settings)] + [("opponent", o) for o in opponents]
        return self.request("/play", urllib.parse.urlencode(fields).encode(),
                            {"Content-Type": "application/x-www-form-urlencoded"})

    def state(self, token: str, after: int | None = None) -> dict[str, Any]:
        status, _, body = self.request(f"/api/play/{token}" + ("" if after is None else f"?after={after}"))
        assert status == 200, body
        return json.loads(body)  # type: ignore[no-any-return]

    def move(self, token: str, number: int, index: int) -> tuple[int, dict[str, Any]]:
        payload = json.dumps({"number": number, "index": index}).encode()
        status, _, body = self.request(f"/api/play/{token}/move", payload,
                                       {"Content-Type": "application/json", "X-CSRF-Token": self.csrf})
        return status, json.loads(body)

    def play_out(self, token: str, choose: Callable[[dict[str, Any]], int] = lambda state: 0,
                 timeout: float = 60) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """Answer every decision with ``choose(state)`` until the match ends: the last state
        and every state received."""
        states = []
        state = self.state(token)
        end = time.monotonic() + timeout
        while state["status"] not in ("done", "failed"):
            assert time.monotonic() < end, "the match did not end in time"
            states.append(state)
            if state["pending"]:  # the server shows a decision as open until it is answered
                status, answer = self.move(token, state["pending"]["number"], choose(state))
                assert status == 200, answer
            state = self.state(token, after=state["version"])
        states.append(state)
        return state, states


def token_of(url: str) -> str:
    return url.rstrip("/").rsplit("/", 1)[1]
