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


def test_a_removed_entrant_has_no_pause_button_and_cannot_be_paused(tmp_path: Path) -> None:
    """The admin's table offered Pause beside a removed entrant, and pausing it put it back
    in the ladder as paused (then `resume` seated it). A removed entrant only comes back."""
    from arena.runs.ladder import load_config, open_ladder
    from arena.submission import accounts
    from arena.submission.web_auth import AccountsConfig
    from ladder.helpers import cli, write_config
    from tournament.helpers import write_bot

    from .conftest import Server
    from .test_sign_in import Client

    bots = [write_bot(tmp_path / "bots" / name, name) for name in ("ant", "bee")]
    config = load_config(write_config(tmp_path, bots))
    db_path = tmp_path / "ladder.db"
    with Database(db_path) as db:
        tid = open_ladder(db, config.ladders[0], config)[0].id
        token = accounts.add_user(db, "alice", admin=True)[1]
        ant, bee = (db.conn.execute("SELECT id FROM bots WHERE name = ?", (name,)).fetchone()[0]
                    for name in ("ant", "bee"))
    assert cli("ladder", "remove", "bee", "--db", str(db_path)).exit_code == 0
    refused = cli("ladder", "pause", "bee", "--db", str(db_path))
    assert refused.exit_code == 1 and "cannot pause bee@1.0: it is removed: resume it" in refused.output
    with Server(db_path, accounts=AccountsConfig()) as server:
        alice = Client(server)
        assert alice.sign_in("alice", token)[0] == 303
        admin = alice.request("GET", f"/ladders/{tid}")[2].split('<section id="admin">', 1)[1]
        for bot in (ant, bee):
            actions = [a for a in ("pause", "resume", "remove") if f"/entrants/{bot}/{a}\"" in admin]
            assert actions == (["pause", "remove"] if bot == ant else ["resume"]), (bot, actions)
        status, _, body = alice.request("POST", f"/api/ladders/{tid}/entrants/{bee}/pause",
                                        headers={"Authorization": f"Bearer {token}"})
        assert status == 409 and "it is removed" in body
    with Database(db_path, readonly=True) as db:
        assert db.conn.execute("SELECT state FROM ladder_entrants WHERE bot_id = ?", (bee,)).fetchone()[0] == "removed"


def test_the_submissions_api_gives_iso_utc_times_like_the_rest_of_the_api(tmp_path: Path) -> None:
    """`/api/submissions` gave `created_at` as a Unix float; `/api/tournaments` and the matches
    give ISO 8601 UTC."""
    from datetime import datetime, timedelta

    from arena.submission import accounts
    from arena.submission.archive import pack
    from arena.submission.submissions import receive
    from arena.submission.web_auth import AccountsConfig
    from arena.submission.web_submit import UploadsConfig
    from submission.test_sprt_runs import new_version

    db_path, data_dir = tmp_path / "arena.db", tmp_path / "arena.db.data"
    with Database(db_path) as db:
        token = accounts.add_user(db, "ann")[1]
        stored, _ = receive(db, data_dir, accounts.user(db, "ann"), pack(new_version(tmp_path / "bot", "anns-bot", "1.0")))
    with TestClient(create_app(db_path, accounts=AccountsConfig(), uploads=UploadsConfig(data_dir=data_dir))) as client:
        headers = {"Authorization": f"Bearer {token}"}
        listed = client.get("/api/submissions", headers=headers).json()["submissions"]
        one = client.get(f"/api/submissions/{stored.id}", headers=headers).json()
    for answer in (listed[0], one):
        for key, stamp in (("created_at", stored.created_at), ("changed_at", stored.changed_at)):
            when = datetime.fromisoformat(answer[key])
            assert when.utcoffset() == timedelta(0) and answer[key].endswith("+00:00"), answer
            assert abs(when.timestamp() - stamp) < 1
