"""What a new user met first on the pages (issue 34, first steps): counts that agree with
their nouns, and head-to-head matrices in the leaderboard's order."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from arena.cli import main
from arena.league.storage import Database, ScheduledMatch
from arena.web.app import create_app
from tournament.helpers import record

MEETINGS = [("zed", "amy"), ("zed", "mid"), ("mid", "amy")] * 2 + [("amy", "zed")]
"""Who met whom, the winner first: zed is best, amy worst (with one win), alphabetical is the reverse."""


@pytest.fixture(scope="module")
def small_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Seven played Yahtzee matches of amy, mid and zed (:data:`MEETINGS`)."""
    path = tmp_path_factory.mktemp("first-steps") / "arena.db"
    with Database(path) as db:
        ids = {name: db.register_bot(name=name, version="1", files_hash=name).id for name in ("amy", "mid", "zed")}
        tid = db.create_tournament(
            name="t", game="yahtzee", variant="yahtzee", settings={}, format="free_for_all", table_size=2,
            rounds=1, duplicate=False, seed=0, time_control={}, options={}, bot_ids=list(ids.values()),
            matches=[ScheduledMatch((ids[a], ids[b]), seed=k, round=0, deal=k, rotation=0)
                     for k, (a, b) in enumerate(MEETINGS)])
        for match in db.matches(tournament_id=tid):
            db.store_result(match.id, record(match.id, [0, 1]))
    return path


@pytest.fixture(scope="module")
def client(small_db: Path):
    with TestClient(create_app(small_db)) as client:
        yield client


def bot_id(client: TestClient, name: str) -> int:
    return next(row["bot_id"] for row in client.get("/api/games/yahtzee/yahtzee/ratings").json()
                if row["bot"] == name)


def test_a_bots_page_counts_one_win_as_one_win(client: TestClient) -> None:
    """It said "5 matches, 1 wins"."""
    page = client.get(f"/bots/{bot_id(client, 'amy')}").text
    assert "5 matches, 1 win</p>" in page
    assert "7 matches played" in client.get("/").text


def test_head_to_head_rows_follow_the_rating_table(client: TestClient, small_db: Path) -> None:
    """Rows and columns were alphabetical (amy, mid, zed); the leaderboard reads zed, mid, amy."""
    best_first = [row["bot"] for row in client.get("/api/games/yahtzee/yahtzee/ratings").json()]
    assert best_first == ["zed", "mid", "amy"]
    labels = {b["id"]: b["name"] for b in client.get("/api/games/yahtzee/yahtzee/h2h").json()["bots"]}
    assert list(labels.values()) == best_first
    page = client.get("/games/yahtzee/yahtzee/h2h").text
    assert re.findall(r'class="label" href="/bots/\d+">(\w+)@1<', page) == best_first

    def cli(*args: str) -> str:
        result = CliRunner().invoke(main, ["h2h", "--game", "yahtzee", "--db", str(small_db), *args])
        assert result.exit_code == 0, result.output
        return result.output

    table = cli()
    assert [line.split()[0] for line in table.splitlines() if line.split()[:1] in (["zed@1"], ["mid@1"], ["amy@1"])] \
        == ["zed@1", "mid@1", "amy@1"]
    records = json.loads(cli("--format", "json"))
    assert [r["bot"] for r in records] == ["zed@1", "zed@1", "mid@1", "mid@1", "amy@1", "amy@1"]
    assert [r["opponent"] for r in records[:2]] == ["mid@1", "amy@1"]


def test_pages_link_the_docs_they_name_and_the_app_serves_them(client: TestClient) -> None:
    """"docs/ladder.md" was plain text, and the app served no docs (a wheel has no checkout to
    point at): the link goes to the copy shipped in the package, rendered."""
    assert '<a href="/docs/ladder.md">docs/ladder.md</a>' in client.get("/ladders").text
    page = client.get("/docs/ladder.md")
    assert page.status_code == 200 and "<title>The ladder: a league that never stops · arena</title>" in page.text
    assert "<h2>Running a ladder</h2>" in page.text and "<table>" in page.text
    assert client.get("/docs/sprt").status_code == 200
    rules = client.get("/docs/rules.md").text
    links = re.findall(r'<a href="(rules/[a-z_]+\.md)">', rules)
    assert "rules/jass.md" in links  # relative to /docs/: /docs/rules/jass.md
    jass = client.get("/docs/rules/jass.md")
    assert jass.status_code == 200 and "Jass" in jass.text
    for missing in ("/docs/nope.md", "/docs/../README.md", "/docs/%2e%2e/README.md"):
        assert client.get(missing).status_code == 404, missing
