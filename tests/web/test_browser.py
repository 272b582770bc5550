"""The web app in a real browser (Debian's Chromium through Playwright) over a database of
real tournaments: leaderboard order, head-to-head, keyboard replay, a live tournament page,
and untrusted text.  Screenshots of every page go to the test's temporary folder."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.league.storage import Database
from arena.runs.tournament import TournamentSpec, create_tournament, expand_bots

from .conftest import ROOT, SAMPLE_BOTS, XSS_AUTHOR, XSS_NAME, XSS_TOURNAMENT, XSS_VERSION, Server, arena

pytestmark = pytest.mark.slow


def shot(page, tmp_path: Path, name: str) -> None:
    page.screenshot(path=str(tmp_path / f"{name}.png"), full_page=True)


def no_script_ran(page) -> None:
    assert page.dialogs == [], f"a dialog fired: {page.dialogs}"
    assert page.errors == [], f"page errors: {page.errors}"


@pytest.mark.parametrize("game, variant", [("yahtzee", "yahtzee"), ("gin_rummy", "standard")])
def test_leaderboard_order_is_the_cli_order(server, played_db, page, tmp_path, game, variant):
    page.goto(f"{server.url}/games/{game}/{variant}")
    cells = page.locator("table.ratings tbody tr").all()
    shown = [[row.locator("td").nth(i).inner_text() for i in (0, 1, 2, 6)] for row in cells]
    cli = json.loads(arena("ratings", "--game", game, "--format", "json", "--db", str(played_db)).stdout)
    assert len(cli) >= 2
    assert shown == [[str(r["rank"]), r["bot"], r["version"], f"{r['conservative']:.2f}"] for r in cli]
    shot(page, tmp_path, f"leaderboard-{game}")
    no_script_ran(page)


def test_head_to_head_matrix(server, played_db, page, tmp_path):
    page.goto(f"{server.url}/games/yahtzee/yahtzee/h2h")
    columns = page.locator("table.h2h thead th.col")
    labels = [columns.nth(k).get_attribute("data-label") for k in range(columns.count())]
    assert len(labels) == 3 and XSS_NAME + "@" + XSS_VERSION in labels
    # Issue 25: long names were cut off in the column headers; columns are numbered as the rows
    # (full names there, wrapped, never clipped) and every header's title has the full name.
    assert columns.all_inner_texts() == ["1", "2", "3"]
    assert [columns.nth(k).get_attribute("title") for k in range(3)] == [f"{k + 1}: {b}" for k, b in enumerate(labels)]
    row_heads = page.locator("table.h2h tbody th")
    assert [row_heads.nth(k).locator("a.label").inner_text() for k in range(3)] == labels
    assert [row_heads.nth(k).locator(".number").inner_text() for k in range(3)] == ["1", "2", "3"]
    assert row_heads.evaluate_all("heads => heads.every(h => h.scrollWidth <= h.clientWidth)")
    cli = json.loads(arena("h2h", "--game", "yahtzee", "--format", "json", "--db", str(played_db)).stdout)
    expected = {(c["bot"], c["opponent"]): c["result"] for c in cli}
    rows = page.locator("table.h2h tbody tr").all()
    seen = {}
    for row in rows:
        bot = row.locator("th a.label").inner_text()
        for column, cell in zip(labels, row.locator("td").all()):
            if bot != column:
                seen[bot, column] = float(cell.get_attribute("data-result"))
                colour = cell.evaluate("c => getComputedStyle(c).backgroundColor")
                assert colour not in ("rgba(0, 0, 0, 0)", "rgb(255, 255, 255)")
    assert seen == pytest.approx(expected)
    shot(page, tmp_path, "h2h")
    no_script_ran(page)


def _match_ids(db_path: Path, game: str) -> list[int]:
    with Database(db_path, readonly=True) as db:
        return [m.id for m in db.matches(game=game, status="done")]


@pytest.mark.parametrize("game", ["yahtzee", "gin_rummy"])
def test_replay_stepped_to_the_end_with_the_keyboard(server, played_db, page, tmp_path, game):
    match_id = _match_ids(played_db, game)[0]
    with Database(played_db, readonly=True) as db:
        record = db.match_record(match_id)
    assert record is not None
    page.goto(f"{server.url}/matches/{match_id}")
    page.wait_for_selector("#replay[data-ready]")
    counter = page.locator("#step-counter")
    last = len(record.moves)
    assert counter.inner_text() == f"step 0/{last}"
    for _ in range(last):
        page.keyboard.press("ArrowRight")
    assert counter.inner_text() == f"step {last}/{last}"
    page.keyboard.press("ArrowRight")  # past the end stays at the end
    assert counter.get_attribute("data-step") == str(last)
    scores = json.loads(page.locator("#outcome .scores").get_attribute("data-scores"))
    assert scores == record.scores
    if game == "yahtzee":  # the drawn score card's totals are the final scores
        totals = [int(t) for t in page.locator("td.total").all_inner_texts()]
        assert totals == [int(s) for s in record.scores]
        assert page.locator("svg.dice").count() == 0  # game over: no dice left to show
    shot(page, tmp_path, f"replay-{game}-end")
    page.keyboard.press("Home")
    assert counter.inner_text() == f"step 0/{last}"
    assert page.locator("#outcome").is_hidden()
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")
    assert counter.inner_text() == f"step {last - 1}/{last}"
    no_script_ran(page)


def test_gin_rummy_seat_view_hides_the_other_hand(server, played_db, page, tmp_path):
    match_id = _match_ids(played_db, "gin_rummy")[0]
    page.goto(f"{server.url}/matches/{match_id}")
    page.wait_for_selector("#replay[data-ready='table']")
    assert page.locator(".hand svg.cards .back").count() == 0  # the full table: both hands face up
    assert page.locator(".hand svg.cards .card").count() == 20  # two dealt hands; the upcard is on the pile
    page.select_option("#view", "0")
    page.wait_for_selector("#replay[data-ready='0']")
    page.keyboard.press("Home")
    own = page.locator(".hand[data-seat='0'] .card:not(.back)").count()
    backs = page.locator(".hand.opponent .back").count()
    assert own == 10 and backs == 10
    shot(page, tmp_path, "replay-gin-seat0")
    no_script_ran(page)


def test_live_tournament_page_advances_without_reload(page, tmp_path):
    db_path = tmp_path / "live.db"
    specs, _ = expand_bots([str(SAMPLE_BOTS / "gin_heuristic"), str(SAMPLE_BOTS / "random_bot")], "gin_rummy")
    with Database(db_path) as db:
        tid = create_tournament(db, TournamentSpec(game="gin_rummy", bots=tuple(specs), rounds=3, seed=11,
                                                   keep_alive=True, name="live"))
        total = sum(db.match_counts(tid).values())
    with Server(db_path) as server:
        page.goto(f"{server.url}/tournaments/{tid}")
        assert page.locator("#done").inner_text() == "0"
        assert page.locator("#total").inner_text() == str(total)
        page.evaluate("window.__same_page = true")
        runner = subprocess.Popen([sys.executable, "-m", "arena.cli", "tournament", "resume", str(tid), "--db",
                                   str(db_path), "--workers", "1", "--quiet"], cwd=ROOT, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True)
        try:
            seen = []
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                seen.append(int(page.locator("#done").inner_text()))
                if page.locator("#status").inner_text() == "finished":
                    break
                time.sleep(0.2)
            output, _ = runner.communicate(timeout=60)
        finally:
            if runner.poll() is None:
                runner.kill()
                runner.wait()
        assert runner.returncode == 0, output
        page.wait_for_function(f"document.getElementById('done').textContent === '{total}'")
        assert page.evaluate("window.__same_page") is True  # updated in place, never reloaded
        assert seen == sorted(seen) and seen[0] == 0
        assert page.locator("#latest tbody tr").count() == total
        standings = page.locator("#standings tbody tr")  # filled in place too: the page opened with none
        assert standings.count() == 2
        assert [standings.nth(k).locator("td").nth(1).inner_text() for k in range(2)] == [str(total)] * 2
        shot(page, tmp_path, "tournament-live")
        no_script_ran(page)


def test_untrusted_text_is_shown_as_text_everywhere(server, played_db, page, tmp_path):
    with Database(played_db, readonly=True) as db:
        xss = next(b for b in db.bots() if b.name == XSS_NAME)
        gin = db.matches(game="gin_rummy", status="done")[0].id
    pages = {"index": "/", "game": "/games/yahtzee/yahtzee", "h2h": "/games/gin_rummy/standard/h2h",
             "bot": f"/bots/{xss.id}", "tournaments": "/tournaments", "tournament": "/tournaments/2",
             "matches": "/matches", "matches-filtered": f"/matches?bot={xss.id}", "match": f"/matches/{gin}"}
    for name, path in pages.items():
        page.goto(server.url + path)
        if name == "match":
            page.wait_for_selector("#replay[data-ready]")
            seat = next(i for i, o in enumerate(page.locator("#view option").all_inner_texts()) if XSS_NAME in o) - 1
            page.select_option("#view", str(seat))
            page.wait_for_selector(f"#replay[data-ready='{seat}']")
            for _ in range(6):  # to a move of the HTML-commenting bot
                page.keyboard.press("ArrowRight")
                if page.locator("#move .comment").count():
                    break
            assert "<b class=\"injected\">bold</b>" in page.locator("#move .comment").inner_text()
        body = page.locator("body").inner_text()
        assert (XSS_TOURNAMENT if name == "tournaments" else XSS_NAME) in body, name
        assert page.locator("b.injected, img[src='x'], i:text('1')").count() == 0, name
        assert page.locator("script:not([src])").count() == 0, name
        shot(page, tmp_path, f"untrusted-{name}")
        no_script_ran(page)
    page.goto(f"{server.url}/bots/{xss.id}")
    assert XSS_AUTHOR in page.locator("body").inner_text()
    assert page.locator("b[onmouseover]").count() == 0
