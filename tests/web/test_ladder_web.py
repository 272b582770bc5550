"""The ladder pages over a real ``arena ladder run`` process: a real server (``arena serve``'s
app under uvicorn) on the file the ladder writes, read in headless Chromium while it plays.

The ladder: two random bots, a bot named ``<script>alert(1)</script>`` that crashes in every
match (it is paused automatically, with the reason) and one paused by hand with an HTML
reason.  The module's tests share it, in order; the last one stops it."""

from __future__ import annotations

import json
import shutil
import signal
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from arena.league.storage import Database, ScheduledMatch
from arena.runs import ladder_store
from arena.runs.ladder import load_config, open_ladder
from arena.web.app import create_app
from ladder.helpers import HOSTILE, cli, query, start, wait_until, write_config
from tournament.helpers import record, write_bot

from .conftest import XSS_NAME, Server

pytestmark = pytest.mark.slow

HAND_REASON = "<script>alert(2)</script> new build"


def write_crasher(folder: Path) -> Path:
    """The hostile crash bot under an HTML name: it exits in the middle of each match."""
    folder.mkdir(parents=True)
    folder.chmod(0o755)
    shutil.copy(HOSTILE / "hostile_bot.py", folder / "hostile_bot.py")
    (folder / "bot.toml").write_text(f"name = '{XSS_NAME}'\nversion = '1.0'\nlanguage = 'python'\n"
                                     "command = ['{python}', 'hostile_bot.py', 'crash']\ngames = ['*']\n",
                                     encoding="utf-8")
    return folder


def get(server: Server, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(server.url + path, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def api(server: Server, path: str) -> Any:
    status, text = get(server, "/api" + path)
    assert status == 200, text
    return json.loads(text)


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A ladder process that plays on, and a server on its database; the crasher paused."""
    folder = tmp_path_factory.mktemp("ladder-web")
    bots = [write_bot(folder / "bots" / name, name) for name in ("ant", "bee", "cat")]
    config = write_config(folder, [*bots, write_crasher(folder / "bots" / "crasher")])
    db = folder / "ladder.db"
    process = start(config)
    try:
        wait_until(lambda: query(db, "SELECT COUNT(*) FROM ladder_entrants") == [(4,)], process, "the ladder", 60)
        assert cli("ladder", "pause", "cat", "--reason", HAND_REASON, "--db", str(db)).exit_code == 0
        wait_until(lambda: query(db, "SELECT e.state FROM ladder_entrants e JOIN bots b ON b.id = e.bot_id"
                                     " WHERE b.name = ?", (XSS_NAME,)) == [("paused",)], process,
                   "the crasher paused", 120)
        with Server(db) as server:
            yield {"process": process, "db": db, "server": server, "id": query(db, "SELECT id FROM tournaments")[0][0]}
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            process.communicate(timeout=60)


def test_the_page_is_complete_without_javascript_and_escapes_bot_text(running: dict[str, Any]) -> None:
    server, tid = running["server"], running["id"]
    status, html = get(server, f"/ladders/{tid}")
    assert status == 200
    rows = {e["bot"]: e for e in api(server, f"/ladders/{tid}")["entrants"]}
    assert [rows[f"{name}@1.0"]["state"] for name in ("ant", "bee", "cat", XSS_NAME)] == \
        ["active", "active", "paused", "paused"]
    assert rows["cat@1.0"]["reason"] == HAND_REASON
    crash = rows[f"{XSS_NAME}@1.0"]
    assert crash["reason"].startswith("forfeited ") and "of its last" in crash["reason"]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;@1.0" in html
    assert "&lt;script&gt;alert(2)&lt;/script&gt; new build" in html
    assert "<script>alert" not in html and "running" in html
    for name in ("ant@1.0", "bee@1.0", "cat@1.0"):
        assert f">{name}</a>" in html
    assert html.count('class="state-paused"') == 2 and html.count('class="state-active"') == 2
    assert "forfeited " in html and 'data-api="/api/ladders/' in html and " s ago</time>" in html
    assert html.count('<tr class="status-done') >= 1  # the latest matches, drawn by the server
    for path in ("/", "/ladders", f"/tournaments/{tid}", "/tournaments"):
        status, text = get(server, path)
        assert status == 200 and f'href="/ladders/{tid}"' in text, path
    assert '<a href="/ladders">Ladders</a>' in get(server, "/matches")[1]  # in the navigation of every page


def test_the_json_twins_and_the_poll_that_asks_only_for_what_changed(running: dict[str, Any]) -> None:
    server, tid = running["server"], running["id"]
    (listed,) = api(server, "/ladders")
    assert listed["id"] == tid and listed["ladder"] == "dice" and listed["running"] is True
    assert listed["entrants_by_state"] == {"active": 2, "paused": 2, "removed": 0}
    assert set(listed) == {"ladder", "id", "game", "variant", "rating", "running", "pid", "matches_per_minute", "in_flight",
                           "heartbeat_age_s", "note", "matches_done", "matches_failed", "entrants_by_state"}
    full = api(server, f"/ladders/{tid}")
    assert set(full) == set(listed) - {"entrants_by_state"} | {"entrants", "latest", "next_since"}
    assert full["pid"] == running["process"].pid and full["heartbeat_age_s"] <= 10
    assert full["matches_per_minute"] > 0 and full["matches_done"] > 0
    assert set(full["entrants"][0]) == {"bot_id", "bot", "state", "matches", "per_minute", "last_match",
                                        "last_match_age_s", "mu", "sigma", "conservative", "rank", "best_rank",
                                        "worst_rank", "tied_with", "los_next", "reason", "boss"}
    ranked = [e for e in full["entrants"] if e["rank"] is not None]
    assert [e["rank"] for e in ranked] == list(range(1, len(ranked) + 1))
    assert full["rating"] == "score"  # a new ladder's model: ranked by the rating, no conservative rating
    assert [e["mu"] for e in ranked] == sorted((e["mu"] for e in ranked), reverse=True)
    assert all(e["conservative"] is None for e in ranked)
    assert all(0.5 <= e["los_next"] <= 1 for e in ranked[:-1]) and ranked[-1]["los_next"] is None
    assert all(e["best_rank"] <= e["rank"] <= e["worst_rank"] for e in ranked)
    assert sum(e["per_minute"] for e in full["entrants"] if e["state"] == "active") > 0
    ids = [m["id"] for m in full["latest"]]
    assert len(ids) == 10 and ids == sorted(ids, reverse=True)
    assert all(m["tournament_id"] == tid and m["status"] == "done" for m in full["latest"])
    # The poll: only played matches above next_since, which stays below every match in play.
    since = full["next_since"]
    assert not query(running["db"], "SELECT id FROM matches WHERE tournament_id = ? AND status = 'pending'"
                                    " AND id <= ?", (tid, since))
    # Played matches above next_since may be counted already, and a played seating shows only once
    # its deal's twin is played too (docs/web.md): wait for a poll that lists a newer match and counts it.
    polls: list[dict[str, Any]] = []

    def newer() -> bool:
        polls.append(api(server, f"/ladders/{tid}?since={since}"))
        return bool(polls[-1]["latest"]) and polls[-1]["matches_done"] > full["matches_done"]

    wait_until(newer, running["process"], "a newer match")
    later = polls[-1]
    assert later["latest"] and all(m["id"] > since for m in later["latest"])
    assert later["matches_done"] > full["matches_done"] and later["next_since"] >= since
    assert get(server, f"/api/ladders/{tid}?since=x")[0] == 400
    assert get(server, "/api/ladders/99")[0] == 404 and get(server, "/ladders/99")[0] == 404


def test_the_page_follows_the_ladder_without_reloading(running: dict[str, Any], page, tmp_path: Path) -> None:
    server, tid = running["server"], running["id"]
    page.goto(f"{server.url}/ladders/{tid}")
    page.evaluate("window.__same_page = true")
    first = int(page.locator("#done").inner_text())
    ant = page.locator("#board tr", has_text="ant@1.0").locator("td.matches")
    ant_first = int(ant.inner_text())
    deadline = time.monotonic() + 60
    while (int(page.locator("#done").inner_text()) <= first + 4 or int(ant.inner_text()) <= ant_first) \
            and time.monotonic() < deadline:
        time.sleep(0.2)
    assert int(page.locator("#done").inner_text()) > first + 4 and int(ant.inner_text()) > ant_first
    assert page.evaluate("window.__same_page") is True  # updated in place, never reloaded
    assert page.locator("#live").inner_text() == "(live)"
    assert page.locator("#board tr", has_text="ant@1.0").locator("td.last").inner_text().endswith(" s ago")
    latest = [int(t) for t in page.locator("#latest tbody tr td:first-child").all_inner_texts()]
    assert len(latest) == 10 and latest == sorted(latest, reverse=True) and latest[0] > first
    crash = page.locator("#board tr", has_text=XSS_NAME)  # redrawn by the script: still text
    assert crash.locator("td.state").inner_text() == "paused"
    assert page.locator("#board tr", has_text="cat@1.0").locator("td.reason").inner_text() == HAND_REASON
    assert page.locator("script:not([src])").count() == 0
    page.screenshot(path=str(tmp_path / "ladder-live.png"), full_page=True)
    assert page.dialogs == [] and page.errors == []


def test_a_stopped_ladder_says_so(running: dict[str, Any]) -> None:
    process, server, tid = running["process"], running["server"], running["id"]
    process.send_signal(signal.SIGINT)
    process.communicate(timeout=60)
    assert process.returncode == 0
    stopped = api(server, f"/ladders/{tid}")
    assert stopped["running"] is False and stopped["pid"] is None and stopped["in_flight"] == 0
    done = query(running["db"], "SELECT COUNT(*) FROM matches WHERE status = 'done'")[0][0]
    assert stopped["matches_done"] == done
    assert sum(e["matches"] for e in stopped["entrants"]) == query(
        running["db"], "SELECT COUNT(*) FROM (SELECT DISTINCT match_id, bot_id FROM match_seats s JOIN matches m"
                       " ON m.id = s.match_id WHERE m.status = 'done')")[0][0]
    assert "not running" in get(server, f"/ladders/{tid}")[1]


def test_a_late_match_below_the_newest_is_not_missed_by_the_poll(tmp_path: Path) -> None:
    """``next_since`` stays below a match still in play, so it is returned once it is played."""
    bots = [str(write_bot(tmp_path / "bots" / name, name)) for name in ("ant", "bee")]
    config = load_config(write_config(tmp_path, bots))
    with Database(config.db) as db:
        tid = open_ladder(db, config.ladders[0], config)[0].id
        ant, bee = (e.bot_id for e in ladder_store.entrants(db, tid))
        ids = ladder_store.append_matches(db, db.tournament(tid), [
            ScheduledMatch((ant, bee), 7, 0, 0, 0), ScheduledMatch((bee, ant), 7, 0, 0, 1),
            ScheduledMatch((ant, bee), 8, 1, 1, 0)])
        db.store_results([(i, record(i, [0, 1])) for i in ids[1:]])
        with TestClient(create_app(config.db)) as client:
            first = client.get(f"/api/ladders/{tid}").json()
            assert [m["id"] for m in first["latest"]] == ids[:0:-1] and first["next_since"] == ids[0] - 1
            db.store_results([(ids[0], record(ids[0], [1, 0]))])
            then = client.get(f"/api/ladders/{tid}?since={first['next_since']}").json()
            assert [m["id"] for m in then["latest"]] == ids[::-1] and then["next_since"] == ids[2]
            assert client.get(f"/api/ladders/{tid}?since={ids[2]}").json()["latest"] == []
            plain = db.create_tournament(name="plain", game="yahtzee", variant="yahtzee", settings={},
                                         format="two_seat", table_size=2, rounds=1, duplicate=False, seed=0,
                                         time_control={}, options={}, bot_ids=[], matches=[])
            assert client.get(f"/api/ladders/{plain}").json() == {"error": f"tournament {plain} is not a ladder"}
            assert client.get(f"/tournaments/{tid}").text.count(f'href="/ladders/{tid}"') == 1
