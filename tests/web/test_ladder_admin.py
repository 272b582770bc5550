"""Admins pause, resume and remove ladder entrants from the web, over a real ``arena ladder
run`` process and a real server with accounts on its file: the buttons only for admins
(escaping the bot names they stand beside), forged forms refused, the API twin, and the
running ladder seating a paused or removed entrant no more, as after the CLI's commands."""

from __future__ import annotations

import html
import json
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.league.storage import Database
from arena.submission import accounts
from arena.submission.web_auth import AccountsConfig
from ladder.helpers import cli, played_by, query, start, wait_for_refresh, wait_until, write_config
from tournament.helpers import write_bot

from .conftest import XSS_NAME, Server
from .test_sign_in import Client

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A ladder of ant, bee and a random bot named ``<script>alert(1)</script>`` that plays on;
    alice (admin) and bob; a server with accounts on the ladder's file."""
    folder = tmp_path_factory.mktemp("ladder-admin")
    bots = [write_bot(folder / "bots" / name, name) for name in ("ant", "bee", "cat")]
    (bots[2] / "bot.toml").write_text((bots[2] / "bot.toml").read_text().replace('"cat"', f"'{XSS_NAME}'"))
    db = folder / "ladder.db"
    process = start(write_config(folder, bots))
    try:
        wait_until(lambda: query(db, "SELECT COUNT(*) FROM ladder_entrants") == [(3,)], process, "the ladder", 60)
        with Database(db) as conn:
            tokens = {name: accounts.add_user(conn, name, admin=name == "alice")[1] for name in ("alice", "bob")}
        ids = dict(query(db, "SELECT name, id FROM bots"))
        with Server(db, accounts=AccountsConfig()) as server:
            yield {"process": process, "db": db, "server": server, "tokens": tokens, "bots": ids,
                   "id": query(db, "SELECT id FROM tournaments")[0][0]}
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            process.communicate(timeout=60)


def state(db: Path, bot_id: int) -> tuple[str, str]:
    return query(db, "SELECT state, reason FROM ladder_entrants WHERE bot_id = ?", (bot_id,))[0]


def signed_in(server: Server, name: str, tokens: dict[str, str]) -> Client:
    client = Client(server)
    assert client.sign_in(name, tokens[name])[0] == 303
    return client


def test_only_an_admin_sees_the_buttons_and_the_names_beside_them_are_text(running: dict[str, Any]) -> None:
    server, tid, tokens, bots = running["server"], running["id"], running["tokens"], running["bots"]
    for client in (Client(server), signed_in(server, "bob", tokens)):
        status, _, page = client.request("GET", f"/ladders/{tid}")
        assert status == 200 and "/entrants/" not in page and 'id="admin"' not in page
    status, _, page = signed_in(server, "alice", tokens).request("GET", f"/ladders/{tid}")
    assert status == 200
    admin = page.split('<section id="admin">', 1)[1].split("</section>", 1)[0]
    for name, bot_id in bots.items():
        for action in ("pause", "remove"):
            assert f'action="/ladders/{tid}/entrants/{bot_id}/{action}"' in admin, (name, action)
        assert f'/entrants/{bot_id}/resume"' not in admin  # all three are active
    assert admin.count('name="csrf" value="') == 6
    assert f'<td class="bot">{html.escape(XSS_NAME, quote=False)}@1.0</td>' in admin
    assert "<script>" not in page


def test_forged_or_non_admin_posts_are_refused_and_change_nothing(running: dict[str, Any]) -> None:
    server, tid, tokens, db = running["server"], running["id"], running["tokens"], running["db"]
    ant = running["bots"]["ant"]
    path = f"/ladders/{tid}/entrants/{ant}/pause"
    anonymous, bob, alice = Client(server), signed_in(server, "bob", tokens), signed_in(server, "alice", tokens)
    assert anonymous.request("POST", path, {})[0] == 403
    assert anonymous.request("POST", path, {"csrf": anonymous.csrf()})[0] == 403  # its own token: not an admin
    assert bob.request("POST", path, {})[0] == 403
    assert bob.request("POST", path, {"csrf": bob.csrf("/")})[0] == 403
    assert alice.request("POST", path, {})[0] == 403
    assert alice.request("POST", path, {"csrf": bob.csrf("/")})[0] == 403  # another session's token
    for token, expected in (("", 401), (tokens["bob"], 403), ("arena_nonsense", 401)):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        assert anonymous.request("POST", "/api" + path, headers=headers)[0] == expected
    assert state(db, ant) == ("active", "")


def test_an_admins_pause_and_remove_stop_the_running_ladder_seating_them(running: dict[str, Any]) -> None:
    server, tid, tokens, db, process = (running[k] for k in ("server", "id", "tokens", "db", "process"))
    ant, bee = running["bots"]["ant"], running["bots"]["bee"]
    alice = signed_in(server, "alice", tokens)
    wait_until(lambda: played_by(db, "ant") >= 2, process, "ant plays")
    status, headers, _ = alice.request("POST", f"/ladders/{tid}/entrants/{ant}/pause", {"csrf": alice.csrf("/")})
    assert status == 303 and headers["Location"] == f"/ladders/{tid}"
    assert state(db, ant) == ("paused", "paused by admin alice")
    wait_for_refresh(db, process)  # then matches queued with ant are dropped, and no new one is
    mark = query(db, "SELECT MAX(id) FROM matches")[0][0]
    wait_until(lambda: played_by(db, "bee", mark) >= 6, process, "the others play on")
    assert played_by(db, "ant", mark) == 0
    page = alice.request("GET", f"/ladders/{tid}")[2]
    assert "paused by admin alice" in page and f'/entrants/{ant}/resume"' in page
    status_json = json.loads(cli("ladder", "status", "--format", "json", "--db", str(db)).output)
    assert {e["bot"]: e["reason"] for e in status_json["entrants"]}["ant@1.0"] == "paused by admin alice"

    bearer = {"Authorization": f"Bearer {tokens['alice']}"}
    status, _, body = alice.request("POST", f"/api/ladders/{tid}/entrants/{ant}/resume", headers=bearer)
    assert status == 200 and json.loads(body) == {"ladder": tid, "bot_id": ant, "bot": "ant@1.0", "state": "active",
                                                  "reason": ""}
    status, _, body = alice.request("POST", f"/api/ladders/{tid}/entrants/{bee}/remove", headers=bearer)
    assert status == 200 and json.loads(body)["state"] == "removed"
    assert state(db, bee) == ("removed", "removed by admin alice")
    wait_for_refresh(db, process)
    mark = query(db, "SELECT MAX(id) FROM matches")[0][0]
    wait_until(lambda: played_by(db, "ant", mark) >= 4, process, "ant back")
    assert played_by(db, "bee", mark) == 0
    for path, expected in ((f"/api/ladders/{tid}/entrants/{ant}/delete", 404),
                           (f"/api/ladders/{tid}/entrants/99999/pause", 404),
                           (f"/api/ladders/99/entrants/{ant}/pause", 404)):
        status, _, body = alice.request("POST", path, headers=bearer)
        assert status == expected and json.loads(body)["error"], path
    assert alice.request("GET", f"/api/ladders/{tid}/entrants/{ant}/pause", headers=bearer)[0] in (404, 405)


def test_without_accounts_there_is_no_door(running: dict[str, Any]) -> None:
    with Server(running["db"]) as server:
        ant = running["bots"]["ant"]
        status, _, page = Client(server).request("GET", f"/ladders/{running['id']}")
        assert status == 200 and "/entrants/" not in page
        assert Client(server).request("POST", f"/ladders/{running['id']}/entrants/{ant}/pause", {})[0] in (404, 405)
