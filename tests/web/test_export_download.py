"""Dataset downloads (``/games/{game}/{variant}/export.jsonl``, ``/ladders/{tid}/export.jsonl``)
over a real server: the rows ``arena export`` writes, under the rules of every other route.

The league is :mod:`.test_hidden_replays`'s: a Yahtzee tournament of ``ant``, ``bee`` and
``cat``, where bob authored ``ant``, carol ``dog`` (which never played), and alice is an admin.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

from arena.league.storage import Database
from arena.submission.web_auth import AccountsConfig

from .conftest import Server
from .test_hidden_replays import hidden, league  # noqa: F401 - the fixtures
from .test_sign_in import Client

GAME = "/games/yahtzee/yahtzee/export.jsonl"


def rows_of(body: str) -> list[dict]:
    return [json.loads(line) for line in body.splitlines() if line]


def download(client: Client, path: str, token: str = "") -> tuple[int, str]:
    status, _, body = client.request("GET", path, headers={"Authorization": f"Bearer {token}"} if token else {})
    return status, body


def played(db: Path) -> dict[int, list[str]]:
    """Each played match's bots by seat."""
    seats: dict[int, list[str]] = {}
    with Database(db, readonly=True) as conn:
        for match_id, seat, name in conn.conn.execute(
                "SELECT s.match_id, s.seat, b.name FROM match_seats s JOIN bots b ON b.id = s.bot_id "
                "JOIN matches m ON m.id = s.match_id WHERE m.status = 'done' ORDER BY s.match_id, s.seat"):
            seats.setdefault(match_id, []).append(name)
    return seats


def test_hidden_replays_give_an_author_only_their_seats_and_a_stranger_nothing(
        hidden: Server, league) -> None:  # noqa: F811
    db, tokens, _ = league
    matches = played(db)
    status, body = download(Client(hidden), GAME, tokens["alice"])
    admin = rows_of(body)
    assert status == 200 and {row["match_id"] for row in admin} == set(matches)
    assert {(row["match_id"], row["seat"]) for row in admin} == \
        {(m, seat) for m, bots in matches.items() for seat in range(len(bots))}  # an admin: every seat
    status, body = download(Client(hidden), GAME, tokens["bob"])
    bob = rows_of(body)
    assert status == 200 and bob and {row["bot"] for row in bob} == {"ant"}
    assert {(row["match_id"], row["seat"]) for row in bob} == \
        {(m, seat) for m, bots in matches.items() for seat, name in enumerate(bots) if name == "ant"}
    assert [row for row in admin if row["bot"] == "ant"] == bob  # the same rows, nothing else
    for token in (tokens["carol"], ""):  # an author of no seated bot, and an anonymous visitor
        status, body = download(Client(hidden), GAME, token)
        assert status == 200 and rows_of(body) == []


def test_a_public_server_gives_settled_matches_only_and_refuses_past_its_cap(
        league, tmp_path: Path) -> None:  # noqa: F811
    """One played match's deal is made unsettled (another match of its tournament, pending,
    deals the same seed): its rows stay out until that one is played."""
    source, _, _ = league
    db = tmp_path / "league.db"
    shutil.copyfile(source, db)
    matches = played(db)
    first, second = sorted(matches)[:2]
    with sqlite3.connect(db) as conn:
        seed = conn.execute("SELECT seed FROM matches WHERE id = ?", (first,)).fetchone()[0]
        conn.execute("UPDATE matches SET status = 'pending', seed = ? WHERE id = ?", (seed, second))
        conn.execute("UPDATE tournaments SET options = json_set(options, '$.kind', 'ladder') WHERE id = 1")
    settled = set(matches) - {first, second}
    with Server(db, accounts=AccountsConfig()) as server:
        for path in (GAME, "/ladders/1/export.jsonl"):
            status, _, body = Client(server).request("GET", path)
            assert status == 200, body
            rows = rows_of(body)
            assert {row["match_id"] for row in rows} == settled
            assert {(row["match_id"], row["seat"]) for row in rows} == \
                {(m, seat) for m in settled for seat in range(len(matches[m]))}
        status, _, body = Client(server).request("GET", "/games/yahtzee/yahtzee/export.csv")
        assert status == 404 and "formats: parquet, jsonl" in body
        status, _, body = Client(server).request("GET", "/ladders/99/export.jsonl")
        assert status == 404
    with Server(db, export_max_matches=2) as server:
        status, _, body = Client(server).request("GET", GAME)
        assert status == 400 and "limit of 2:" in body and "?since=" in body
        status, _, body = Client(server).request("GET", GAME + "?since=2000-01-01&until=2000-01-02")
        assert status == 200 and rows_of(body) == []  # a span of no matches is under the cap
        status, _, body = Client(server).request("GET", GAME + "?since=yesterday")
        assert status == 400 and "since must be a date" in body


def test_one_download_is_prepared_at_a_time(league) -> None:  # noqa: F811
    """Each download replays its records on the server's CPU (seconds for a few hundred matches),
    in the request threads every page shares: a visitor starting dozens at once took them all.
    While one is prepared (its lock held here, as a download under way holds it), another is
    told to come back (503 with Retry-After), not queued; then it is served."""
    from starlette.testclient import TestClient

    from arena.web.app import create_app

    with TestClient(create_app(league[0])) as client:
        lock = client.app.state.exporting
        with lock:
            response = client.get(GAME)
            assert response.status_code == 503 and response.headers["retry-after"] == "10"
            assert "another download is being prepared" in response.text
            assert client.get("/games/yahtzee/yahtzee").status_code == 200  # every other page as before
        response = client.get(GAME)
        assert response.status_code == 200 and rows_of(response.text)
        assert lock.acquire(blocking=False), "the lock is released once the file is written"
        lock.release()
