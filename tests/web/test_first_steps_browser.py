"""The layout a new user met first, in headless Chromium (issue 34, first steps): the SPRT
chart's labels, bot names in tables, and the replay page on a phone."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.league.storage import Database
from arena.web.charts import llr_svg
from referee.games import game_names

from .conftest import Server

ROOT = Path(__file__).resolve().parents[2]
CSS = (ROOT / "arena" / "web" / "static" / "arena.css").read_text(encoding="utf-8")


def text_boxes(page) -> list[tuple[str, float, float, float, float]]:
    """Every SVG text of the page: its text and its box (left, top, right, bottom) as drawn."""
    return [tuple(box) for box in page.eval_on_selector_all(
        "svg text", "els => els.map(e => { const r = e.getBoundingClientRect();"
                    " return [e.textContent, r.left, r.top, r.right, r.bottom]; })")]


def overlapping(boxes: list[tuple[str, float, float, float, float]]) -> list[tuple[str, str]]:
    return [(a[0], b[0]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
            if a[1] < b[3] and b[1] < a[3] and a[2] < b[4] and b[2] < a[4]]


@pytest.mark.parametrize("llr", [-80.0, -3.1, 0.4, 2.96, 12.0, 150.0])
def test_the_sprt_charts_labels_never_overlap(page, llr: float) -> None:
    """At large LLRs the axis grows and the bounds' labels ("stronger at 2.94", "not stronger
    at -2.94") were drawn on top of each other."""
    points = [(2 * k, llr * k / 10) for k in range(1, 11)]
    page.set_content(f"<!doctype html><style>{CSS}</style><body>{llr_svg(points, -2.94, 2.94, 'LLR')}</body>")
    boxes = text_boxes(page)
    assert {"stronger at 2.94", "not stronger at -2.94"} <= {box[0] for box in boxes}
    assert overlapping(boxes) == []
    width = page.eval_on_selector("svg", "e => e.getBoundingClientRect().right")
    assert all(box[3] <= width for box in boxes), boxes


@pytest.fixture(scope="module")
def games_server(every_game_db: Path):
    with Server(every_game_db) as running:
        yield running


def phone(browser):
    """A page 390 px wide, as an iPhone's."""
    return browser.new_context(viewport={"width": 390, "height": 844}).new_page()


def lines_of(page, selector: str) -> dict[str, int]:
    """Per element matching ``selector``: its text and how many lines it is drawn on."""
    return dict(page.eval_on_selector_all(selector, "els => els.map(e => [e.textContent, e.getClientRects().length])"))


def test_bot_names_do_not_break_at_their_hyphens(games_server, page) -> None:
    """The Yaniv leaderboard's wide "mean score (lower is better)" column squeezed the bot column
    until "random-bot-with-a-rather-long-name-1" broke after "random-bot-with-a-"."""
    for path, selector in (("/", "td.bot a"), ("/games/yaniv/standard", "td.bot a"), ("/matches", "a.player")):
        page.goto(games_server.url + path)
        names = lines_of(page, selector)
        assert any(name.startswith("random-bot-with-a-rather-long-name-1") for name in names), (path, names)
        assert {name: lines for name, lines in names.items() if lines != 1} == {}, path


def first_match(db_path: Path, game: str, seats: int | None = None) -> int:
    with Database(db_path, readonly=True) as db:
        return next(m.id for m in db.matches(game=game, status="done") if seats in (None, m.num_players))


@pytest.mark.parametrize("game, seats", [(game, None) for game in game_names()] + [("yahtzee", 8)])
def test_the_replay_page_fits_a_phone(games_server, every_game_db, browser, tmp_path, game: str, seats) -> None:
    """At 390 px the replay page was 570 px wide (the header's links, the seats around a
    table): nothing may stick out of the page, at the first step or the last."""
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    try:
        page.goto(f"{games_server.url}/matches/{first_match(every_game_db, game, seats)}")
        page.wait_for_selector("#replay[data-ready='table']")
        for step in ("first", "last"):
            if step == "last":
                page.keyboard.press("End")
                page.wait_for_selector("#outcome", state="visible")
            page.screenshot(path=str(tmp_path / f"{game}-{seats}-{step}.png"), full_page=True)
            wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
                .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5
                             && !e.closest('.board, svg *'))
                .map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + '.' + e.getAttribute('class'))""")
            assert wide == [], (step, wide)
            assert page.evaluate("document.documentElement.scrollWidth") <= 390, step
    finally:
        page.context.close()
