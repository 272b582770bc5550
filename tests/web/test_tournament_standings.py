"""The tournament page's standings, read from the running totals (schema 9), are those the old
computation over every played match gave, for real tournaments of every format."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from arena.league.storage import Database
from arena.web import create_app

OLD_STANDINGS = """
SELECT bot_id, COUNT(*), SUM(best = 0), AVG(best) + 1, AVG(score), SUM(faults) FROM
 (SELECT s.bot_id, s.match_id, MIN(s.rank) AS best, AVG(s.score) AS score, SUM(s.faults) AS faults
  FROM match_seats s JOIN matches m ON m.id = s.match_id
  WHERE m.tournament_id = ? AND m.status = 'done' GROUP BY s.bot_id, s.match_id)
GROUP BY bot_id"""
"""The standings as schema 8 computed them on each new match: the oracle."""


def old_standings(db: Database, tid: int) -> list[dict[str, Any]]:
    labels = {b.id: b.label for b in db.bots()}
    table = [{"bot_id": bot_id, "bot": labels[bot_id], "matches": played, "wins": wins,
              "mean_rank": round(mean_rank, 4), "mean_score": round(mean_score, 4), "faults": faults}
             for bot_id, played, wins, mean_rank, mean_score, faults in db.conn.execute(OLD_STANDINGS, (tid,))]
    table.sort(key=lambda row: (-row["wins"], row["mean_rank"], row["bot"]))
    return table


def test_standings_of_two_seat_free_for_all_and_team_tournaments_are_the_old_ones(every_game_db: Path,
                                                                                 tmp_path: Path) -> None:
    path = tmp_path / "arena.db"
    shutil.copy(every_game_db, path)
    with Database(path, readonly=True) as db:
        expected = {t.id: old_standings(db, t.id) for t in db.tournaments()}
        shapes = {(t.game, t.table_size) for t in db.tournaments()}
    assert {("yahtzee", 2), ("yahtzee", 8), ("jass", 4)} <= shapes  # two seats, free-for-all, teams
    assert all(len(rows) >= 2 for rows in expected.values())
    with TestClient(create_app(path)) as client:
        for tid, rows in expected.items():
            assert client.get(f"/api/tournaments/{tid}").json()["standings"] == rows
    conn = sqlite3.connect(path)  # the same file as schema 8 left it: read-only, computed the old way
    conn.execute("DROP TABLE tournament_bot_stats")
    conn.execute("UPDATE schema_version SET version = 8")
    conn.commit()
    conn.close()
    with TestClient(create_app(path)) as client:
        for tid, rows in expected.items():
            assert client.get(f"/api/tournaments/{tid}").json()["standings"] == rows
    with Database(path, readonly=True) as db:
        assert not db.has_tournament_totals
