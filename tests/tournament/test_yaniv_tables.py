"""Yaniv tournaments: free-for-all tables of 4 and of 6 real bot processes, multi-player
TrueSkill from the stored rankings, and ``arena ratings`` over them."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.league.ratings import rate
from arena.league.storage import Database

from .helpers import write_bot


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.mark.slow
@pytest.mark.parametrize("table", [4, 6])
def test_free_for_all_yaniv_tables_are_rated_as_multi_player_matches(tmp_path, sample_bots, table):
    randoms = [write_bot(tmp_path / f"r{i}", f"random-{i}") for i in range(table - 1)]
    db_path = tmp_path / "yaniv.db"
    bots = [arg for folder in [sample_bots / "yaniv_heuristic", *randoms] for arg in ("--bot", str(folder))]
    result = invoke("tournament", "run", "--game", "yaniv", *bots, "--table-size", str(table), "--rounds", "1",
                    "--setting", "max_rounds=4", "--workers", "1", "--seed", "2", "--keep-alive", "--quiet",
                    "--db", str(db_path))
    assert result.exit_code == 0, result.output

    with Database(db_path) as db:
        tournament = db.tournaments()[0]
        assert tournament.format == "free_for_all" and tournament.table_size == table
        assert db.match_counts(tournament.id) == {"pending": 0, "done": table, "failed": 0}  # one per rotation
        matches = db.done_matches("yaniv", tournament.variant)
    assert all(len(m.bot_ids) == table and len(set(m.bot_ids)) == table for m in matches)
    seats_of = {bot: {m.bot_ids.index(bot) for m in matches} for bot in matches[0].bot_ids}
    assert all(seats == set(range(table)) for seats in seats_of.values())  # every bot in every seat
    assert any(max(m.ranking) >= 2 for m in matches)  # whole multi-player rankings are stored

    rows = json.loads(invoke("ratings", "--game", "yaniv", "--format", "json", "--db", str(db_path)).output)
    assert len(rows) == table and all(row["matches"] == table for row in rows)
    assert sum(row["wins"] for row in rows) >= table  # every match has at least one winner
    assert rows[0]["bot"] == "yaniv-heuristic"
    table_text = invoke("ratings", "--game", "yaniv", "--db", str(db_path)).output
    assert "mean score (lower is better)" in table_text  # penalty points: lower wins (issue 25)

    # The table is TrueSkill over the stored rankings, each match one free-for-all of `table` seats.
    ratings, history = rate(matches, None)
    assert all(len(update.ratings) == table for update in history)
    by_bot = {m_bot: ratings[m_bot] for m_bot in matches[0].bot_ids}
    with Database(db_path) as db:
        names = {bot.id: bot.name for bot in db.bots()}
    for row in rows:
        (bot_id,) = [b for b, name in names.items() if name == row["bot"]]
        assert row["mu"] == pytest.approx(by_bot[bot_id].mu, abs=0.01)
        assert row["sigma"] == pytest.approx(by_bot[bot_id].sigma, abs=0.01)
