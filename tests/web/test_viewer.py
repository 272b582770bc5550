"""The pages and the replay viewer in a real browser (Debian's Chromium through Playwright)
over real matches of every game (issue 25): no problem shown for a good record, eight
Yahtzee seats that fit, links to a step, no console error or failed request anywhere, and
the tournament page's format and standings."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.league.storage import Database, MatchRow
from referee.games import game_names
from referee.replay import replay
from referee.result import MatchRecord

from .conftest import LONG_NAME, Server

pytestmark = pytest.mark.slow
PAGE = 40
"""Steps per request of the viewer (replay.js)."""


@pytest.fixture(scope="module")
def games_server(every_game_db: Path) -> Iterator[Server]:
    with Server(every_game_db) as running:
        yield running


def longest(db_path: Path, game: str, seats: int | None = None) -> tuple[MatchRow, MatchRecord]:
    """The played match of ``game`` with the most moves (the most pages of steps)."""
    with Database(db_path, readonly=True) as db:
        matches = [m for m in db.matches(game=game, status="done") if seats in (None, m.num_players)]
        records = {m.id: db.match_record(m.id) for m in matches}
    match = max(matches, key=lambda m: len(records[m.id].moves))  # type: ignore[union-attr]
    record = records[match.id]
    assert record is not None
    return match, record


def no_errors(page) -> None:
    assert page.dialogs == [] and page.errors == [], (page.dialogs, page.errors)


@pytest.mark.parametrize("game", game_names())
def test_the_viewer_shows_no_problem_for_a_good_record(games_server, every_game_db, page, tmp_path, game):
    """Issue 25: every paged replay request said "the engine failed on the record: _Enough"."""
    match, record = longest(every_game_db, game)
    assert replay(record).ok  # a good record
    last = len(record.moves)
    assert last + 1 > PAGE  # more than one page of steps, so the replay is stopped early
    page.goto(f"{games_server.url}/matches/{match.id}")
    for view in ("table", "0"):
        if view != "table":
            page.select_option("#view", view)
        page.wait_for_selector(f"#replay[data-ready='{view}']")
        problems = page.locator("#problems")
        assert problems.is_hidden() and problems.inner_text() == "", (view, problems.inner_text())
        page.keyboard.press("End")
        assert page.locator("#step-counter").inner_text() == f"step {last}/{last}"
        assert page.locator("#outcome").is_visible()
        assert problems.is_hidden(), (view, problems.inner_text())
    page.screenshot(path=str(tmp_path / f"replay-{game}.png"), full_page=True)
    no_errors(page)


def test_eight_yahtzee_seats_fit_beside_the_moves(games_server, every_game_db, page, tmp_path):
    """Issue 25: at 7 seats the score card ran under the Events/Moves column and hid seats 4-6."""
    match, record = longest(every_game_db, "yahtzee", seats=8)
    page.goto(f"{games_server.url}/matches/{match.id}")
    page.wait_for_selector("#replay[data-ready='table']")
    page.keyboard.press("End")
    board = page.locator("#board").bounding_box()
    aside = page.locator(".replay-body aside").bounding_box()
    assert board["x"] + board["width"] <= aside["x"]  # the board ends before the moves column
    heads = page.locator("table.scorecard thead th[scope='col']")
    assert heads.count() == 8
    boxes = [heads.nth(seat).bounding_box() for seat in range(8)]
    totals = page.locator("td.total")
    for seat, box in enumerate(boxes):
        assert box["width"] > 20 and box["x"] >= board["x"] and box["x"] + box["width"] <= board["x"] + board["width"]
        if seat:
            assert box["x"] >= boxes[seat - 1]["x"] + boxes[seat - 1]["width"] - 1  # side by side, no overlap
        assert LONG_NAME.format("")[:10] in heads.nth(seat).inner_text()
        total = totals.nth(seat).bounding_box()
        assert box["x"] - 1 <= total["x"] and total["x"] + total["width"] <= box["x"] + box["width"] + 1
    assert [int(t) for t in totals.all_inner_texts()] == [int(s) for s in record.scores]
    assert page.locator("#board").evaluate("b => b.scrollWidth <= b.clientWidth")  # nothing scrolled out of view
    page.screenshot(path=str(tmp_path / "yahtzee-8-seats.png"), full_page=True)
    no_errors(page)


def test_a_link_to_a_step_opens_there_and_the_address_follows(games_server, every_game_db, page, tmp_path):
    match, record = longest(every_game_db, "gin_rummy")
    step = min(len(record.moves) - 2, PAGE + 25)  # beyond the first page
    assert step > PAGE
    page.goto(f"{games_server.url}/matches/{match.id}?step={step}")
    page.wait_for_selector("#replay[data-ready='table']")
    counter = page.locator("#step-counter")
    assert counter.get_attribute("data-step") == str(step)
    assert page.locator("#move .action").inner_text().startswith(f"move {step - 1}: ")

    def address_becomes(query: str) -> None:
        """The page's own address reaches ``query`` (a step past a loaded page follows its fetch).

        Read in the page: Playwright's page.url learns of replaceState from a later event, and
        CI once read it before that event arrived."""
        page.wait_for_function("q => location.search.replace(/^[?]/, '') === q", arg=query, timeout=5_000)

    address_becomes(f"step={step}")
    page.keyboard.press("ArrowRight")
    assert counter.get_attribute("data-step") == str(step + 1)
    address_becomes(f"step={step + 1}")
    page.locator("#timeline li").nth(4).click()  # move 4: the position after it, step 5
    assert counter.get_attribute("data-step") == "5"
    address_becomes("step=5")
    page.keyboard.press("Home")
    address_becomes("")
    page.select_option("#view", "1")
    page.wait_for_selector("#replay[data-ready='1']")
    page.keyboard.press("End")
    address_becomes(f"step={len(record.moves)}")
    page.goto(f"{games_server.url}/matches/{match.id}?step=999999")  # past the end: the last step
    page.wait_for_selector("#replay[data-ready='table']")
    assert counter.get_attribute("data-step") == str(len(record.moves))
    page.goto(f"{games_server.url}/matches/{match.id}?step=junk")
    page.wait_for_selector("#replay[data-ready='table']")
    assert counter.get_attribute("data-step") == "0"
    no_errors(page)


def test_every_page_loads_without_console_errors_or_failed_requests(games_server, every_game_db, page):
    """Issue 25: the favicon was a 404 on every page (a console error)."""
    problems: list[str] = []
    page.on("console", lambda message: message.type == "error" and problems.append(f"console: {message.text}"))
    page.on("requestfailed", lambda request: problems.append(f"failed: {request.url}"))
    page.on("response", lambda response: response.status >= 400 and problems.append(
        f"{response.status}: {response.url}"))
    match, _ = longest(every_game_db, "yaniv")
    with Database(every_game_db, readonly=True) as db:
        bot = db.bots()[0].id
    paths = ["/", "/games/yaniv/standard", "/games/jass/schieber/h2h", f"/bots/{bot}", "/tournaments",
             "/tournaments/1", "/matches", f"/matches?bot={bot}", f"/matches/{match.id}", "/api/games",
             "/favicon.ico"]
    for path in paths:
        page.goto(games_server.url + path)
        if path.startswith("/matches/"):
            page.wait_for_selector("#replay[data-ready]")
        page.wait_for_load_state("networkidle")
    assert problems == []
    icon = page.goto(games_server.url + "/favicon.ico")
    assert icon is not None and icon.ok and icon.headers["content-type"].startswith("image/svg+xml")
    no_errors(page)


def test_tournament_page_format_and_standings(games_server, every_game_db, page, tmp_path):
    with Database(every_game_db, readonly=True) as db:
        tid = next(t.id for t in db.tournaments() if t.name == "eight seats")
        done = db.matches(tournament_id=tid, status="done")
    page.goto(f"{games_server.url}/tournaments/{tid}")
    settings = page.locator("table.settings").inner_text()
    assert "free-for-all, tables of 8" in settings and "tables of 8, tables of 8" not in settings
    rows = page.locator("#standings tbody tr")
    assert rows.count() == 8
    wins = []
    for k in range(8):
        cells = rows.nth(k).locator("td").all_inner_texts()
        assert cells[0].startswith(LONG_NAME.format("")) and int(cells[1]) == len(done)
        assert 1 <= float(cells[3]) <= 8
        wins.append(int(cells[2]))
    assert wins == sorted(wins, reverse=True)
    assert sum(wins) >= len(done)  # every match has at least one winner (ties share first place)
    page.screenshot(path=str(tmp_path / "tournament-standings.png"), full_page=True)
    no_errors(page)
