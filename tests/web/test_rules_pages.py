"""Each game's rules page is served from the package's docs (a wheel-installed arena has no
checkout) and linked from the replay viewer; raw HTML in a doc would not be passed on."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from arena.league.storage import Database
from arena.resources import docs_dir
from arena.web import create_app
from referee.games import game_names


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    db = tmp_path_factory.mktemp("rules") / "arena.db"
    Database(db).close()
    return TestClient(create_app(db))


@pytest.mark.parametrize("game", game_names())
def test_every_games_rules_page_is_served_from_the_packaged_docs(client: TestClient, game: str) -> None:
    answer = client.get(f"/rules/{game}")
    assert answer.status_code == 200
    title = (docs_dir() / "rules" / f"{game}.md").read_text(encoding="utf-8").splitlines()[0].lstrip("# ")
    assert f"<h1>{title}</h1>" in answer.text and '<article class="rules">' in answer.text
    assert f'class="current" aria-current="page">{game}</a>' in answer.text


def test_an_unknown_game_has_no_rules_page(client: TestClient) -> None:
    answer = client.get("/rules/chess")
    assert answer.status_code == 404 and "no rules for 'chess'" in answer.text.replace("&#39;", "'")
    assert client.get("/rules/..%2Fsecurity").status_code == 404
