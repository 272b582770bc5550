"""The score model on the web and the CLI: the model is named in every output, LOS of neighbours
on the leaderboard, the LOS matrix page escapes bot names, and TrueSkill leagues read as before."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from arena.league.storage import Database, ScheduledMatch
from arena.runs.ladder_store import append_matches
from arena.web.app import create_app

from tournament.helpers import record
from web.conftest import XSS_NAME, arena

HOSTILE = XSS_NAME + '" onmouseover="alert(5)'


def league(path: Path, rating: str | None) -> list[int]:
    """A real league file: four two-seat Yahtzee bots (one with a hostile name) of known order,
    60 matches, in a tournament whose options name ``rating`` (none: a league from before the key)."""
    db = Database(path)
    names = ["alpha", "beta", HOSTILE, "delta"]
    bots = [db.register_bot(name=name, version="1", files_hash=f"h{i}").id for i, name in enumerate(names)]
    rng = random.Random(5)
    seatings = [tuple(rng.sample(range(4), 2)) for _ in range(60)]
    options = {} if rating is None else {"rating": rating}
    tid = db.create_tournament(
        name="t", game="yahtzee", variant="yahtzee", settings={}, format="free_for_all", table_size=2, rounds=1,
        duplicate=False, seed=0, time_control={}, options=options, bot_ids=bots,
        matches=[ScheduledMatch((bots[a], bots[b]), seed=k, round=0, deal=k, rotation=0)
                 for k, (a, b) in enumerate(seatings)])
    results = []
    for row, (a, b) in zip(db.unfinished_matches(tid), seatings):
        scores = [rng.gauss(250 - 40 * a, 30), rng.gauss(250 - 40 * b, 30)]
        results.append((row.id, record(row.id, [0, 1] if scores[0] >= scores[1] else [1, 0], scores)))
    db.store_results(results)
    db.close()
    return bots


def test_a_score_league_names_its_model_and_shows_los_everywhere(tmp_path: Path) -> None:
    path = tmp_path / "score.db"
    league(path, "score")
    with TestClient(create_app(path)) as client:
        rows = client.get("/api/games/yahtzee/yahtzee/ratings").json()
        assert {row["model"] for row in rows} == {"score"}
        assert [row["bot"] for row in rows][:2] == ["alpha", "beta"]
        assert all(row["low"] < row["mu"] < row["high"] for row in rows)
        assert all(0.5 <= row["los_next"] <= 1 for row in rows[:-1]) and rows[-1]["los_next"] is None
        matrix = client.get("/api/games/yahtzee/yahtzee/los").json()
        assert matrix["model"] == "score"
        los = matrix["los"]
        for i in range(4):
            assert los[i][i] is None
            for j in range(4):
                if i != j:
                    assert los[i][j] + los[j][i] == pytest.approx(1, abs=2e-4)  # rounded to 4 places
        assert los[0][1] == rows[0]["los_next"]
        page = client.get("/games/yahtzee/yahtzee").text
        assert 'data-model="score"' in page and "score model" in page and "LOS next" in page
        matrix_page = client.get("/games/yahtzee/yahtzee/los")
        assert matrix_page.status_code == 200
        assert HOSTILE not in matrix_page.text and "<script>alert(1)" not in matrix_page.text
        assert "&lt;script&gt;alert(1)&lt;/script&gt;&#34; onmouseover=&#34;alert(5)" in matrix_page.text
    table = arena("ratings", "--game", "yahtzee", "--db", str(path), "--format", "markdown")
    assert "score model" in table.stdout and "LOS next" in table.stdout
    data = json.loads(arena("ratings", "--game", "yahtzee", "--db", str(path), "--format", "json").stdout)
    assert {row["model"] for row in data} == {"score"}
    again = json.loads(arena("ratings", "--game", "yahtzee", "--db", str(path), "--format", "json",
                             "--rating", "trueskill").stdout)
    assert {row["model"] for row in again} == {"trueskill"} and all("conservative" in row for row in again)


def test_a_league_from_before_the_score_model_keeps_trueskill(tmp_path: Path) -> None:
    """No ``rating`` in the options (every file written before it): TrueSkill, read as before, now
    with the LOS of neighbours from its independent normals."""
    path = tmp_path / "old.db"
    league(path, None)
    with TestClient(create_app(path)) as client:
        rows = client.get("/api/games/yahtzee/yahtzee/ratings").json()
        assert {row["model"] for row in rows} == {"trueskill"}
        assert all("conservative" in row for row in rows)
        assert client.get("/api/games/yahtzee/yahtzee/los").json()["model"] == "trueskill"
        assert "TrueSkill" in client.get("/games/yahtzee/yahtzee").text
    table = arena("ratings", "--game", "yahtzee", "--db", str(path), "--format", "markdown")
    assert "TrueSkill" in table.stdout and "LOS next" in table.stdout


def many_bots(path: Path, count: int, rating: str) -> list[int]:
    """A real league file of ``count`` two-seat Yahtzee bots, three matches each (seed 7)."""
    db = Database(path)
    bots = [db.register_bot(name=f"b{i:03d}", version="1", files_hash=f"h{i}").id for i in range(count)]
    rng = random.Random(7)
    seatings = [tuple(rng.sample(range(count), 2)) for _ in range(3 * count)]
    tid = db.create_tournament(
        name="t", game="yahtzee", variant="yahtzee", settings={}, format="free_for_all", table_size=2, rounds=1,
        duplicate=False, seed=0, time_control={}, options={"rating": rating}, bot_ids=bots,
        matches=[ScheduledMatch((bots[a], bots[b]), seed=k, round=0, deal=k, rotation=0)
                 for k, (a, b) in enumerate(seatings)])
    db.store_results([(row.id, record(row.id, [0, 1], [rng.gauss(250, 30), 200.0]))
                      for row in db.unfinished_matches(tid)])
    db.close()
    return bots


@pytest.mark.parametrize("rating", ["score", "trueskill"])
def test_the_los_matrix_shows_the_leaderboards_top_bots_only(tmp_path: Path, rating: str) -> None:
    """Every visitor's request drew the whole matrix: 300 bots made an 18 MB page and 1.5 s of
    CPU.  The page and its JSON hold the leaderboard's first LOS_MAX_BOTS bots and say how many
    there are; a match played since is in the next answer (the matrix is kept per table)."""
    from arena.web.data import LOS_MAX_BOTS

    path = tmp_path / "many.db"
    bots = many_bots(path, LOS_MAX_BOTS + 3, rating)
    with TestClient(create_app(path)) as client:
        rows = client.get("/api/games/yahtzee/yahtzee/ratings").json()
        assert len(rows) == LOS_MAX_BOTS + 3
        matrix = client.get("/api/games/yahtzee/yahtzee/los").json()
        assert [b["id"] for b in matrix["bots"]] == [row["bot_id"] for row in rows][:LOS_MAX_BOTS]
        assert matrix["bots_total"] == LOS_MAX_BOTS + 3
        assert len(matrix["los"]) == LOS_MAX_BOTS and {len(line) for line in matrix["los"]} == {LOS_MAX_BOTS}
        assert matrix["los"][0][1] == rows[0]["los_next"]
        page = client.get("/games/yahtzee/yahtzee/los").text
        assert page.count('<td class="cell') == LOS_MAX_BOTS * LOS_MAX_BOTS
        assert f"The first {LOS_MAX_BOTS} of the leaderboard's {LOS_MAX_BOTS + 3} bots" in page
        with Database(path) as db:  # one more match played: the next answer counts it
            match_id, = append_matches(db, db.tournaments()[0], [ScheduledMatch((bots[-1], bots[0]), seed=999,
                                                                                round=0, deal=999, rotation=0)])
            db.store_results([(match_id, record(match_id, [0, 1], [400.0, 100.0]))])
        again = client.get("/api/games/yahtzee/yahtzee/los").json()
        fresh = client.get("/api/games/yahtzee/yahtzee/ratings").json()
        assert [b["id"] for b in again["bots"]] == [row["bot_id"] for row in fresh][:LOS_MAX_BOTS]
        assert again["los"][0][1] == fresh[0]["los_next"] and fresh != rows
