"""Every game's board in a real browser (Debian's Chromium through Playwright) over real
recorded matches: the full table and a seat's view mid-match, and the result box with ranks
at the end.  A screenshot of each board in both views goes to the test's temporary folder."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.league.storage import Database

from .conftest import Server

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def servers(played_db: Path, boards_db: Path) -> Iterator[dict[str, tuple[Server, Path]]]:
    """The played database (Yahtzee, Gin Rummy) and the boards one (Jass, Yaniv, Yoninkan)."""
    with Server(played_db) as played, Server(boards_db) as boards:
        yield {"yahtzee": (played, played_db), "gin_rummy": (played, played_db), "jass": (boards, boards_db),
               "yaniv": (boards, boards_db), "yoninkan": (boards, boards_db)}


@pytest.mark.parametrize("game", ["jass", "yaniv", "yoninkan", "gin_rummy", "yahtzee"])
def test_board_in_both_views_and_ranks_at_the_end(servers, page, tmp_path, game):
    server, db_path = servers[game]
    with Database(db_path, readonly=True) as db:
        match = max(db.matches(game=game, status="done"), key=lambda m: len(db.match_record(m.id).moves))
        record = db.match_record(match.id)
    assert record is not None
    last = len(record.moves)
    middle = min(last, 9)  # a few moves in: cards on the table
    page.goto(f"{server.url}/matches/{match.id}")
    assert page.locator("#replay .rules-link").get_attribute("href") == f"/rules/{game}"
    board = page.locator("#board")
    for view in ("table", "0"):
        page.select_option("#view", view)
        page.wait_for_selector(f"#replay[data-ready='{view}']")
        page.keyboard.press("Home")
        for _ in range(middle):
            page.keyboard.press("ArrowRight")
        assert page.locator("#step-counter").get_attribute("data-step") == str(middle)
        assert board.locator(".generic").count() == 0
        text = board.inner_text()
        for leftover in ("None", "True", "False", "Card.parse(", "Trick("):
            assert leftover not in text, f"{game} {view}: {leftover!r} on the board"
        if game != "yahtzee":
            backs = board.locator("svg.cards .back:not(.stock .back)").count()
            faces = board.locator("svg.cards .card:not(.back)").count()
            assert faces > 0
            if game != "yaniv":  # Yaniv's stock is always a back; the others hide only hands
                assert (backs > 0) == (view != "table"), f"{game} {view}: {backs} backs"
        board.screenshot(path=str(tmp_path / f"board-{game}-{view}.png"))
    page.keyboard.press("End")
    assert page.locator("#step-counter").get_attribute("data-step") == str(last)
    scores = page.locator("#outcome .scores")
    assert json.loads(scores.get_attribute("data-scores")) == record.scores
    assert json.loads(scores.get_attribute("data-ranks")) == [rank + 1 for rank in record.ranking]
    shown = scores.inner_text().split(" · ")  # best first: "#1 name score"; a Jass team once, as #1 or #2
    teams = [(0, 2), (1, 3)] if game == "jass" else [(seat,) for seat in range(len(record.ranking))]
    ranks = sorted(record.ranking[team[0]] for team in teams)
    assert [int(entry.split()[0].lstrip("#")) for entry in shown] == [1 + ranks.index(rank) for rank in ranks]
    assert all(" seat " in entry for entry in shown)  # copies of one bot are told apart by seat
    if game == "jass":
        assert len(shown) == 2 and shown[0].startswith("#1 team ") and shown[1].startswith(("#2 team ", "#1 team "))
    page.locator("#outcome").screenshot(path=str(tmp_path / f"result-{game}.png"))
    assert page.dialogs == [] and page.errors == []
