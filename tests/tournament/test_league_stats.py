"""Running totals (schema 3): kept by the writer, equal to a recomputation, migrated from schema 2."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sqlite3
from pathlib import Path

import pytest

from arena.league import stats as league_stats
from arena.league.ratings import head_to_head, plan_ratings, rating_history, rating_table, update_ratings
from arena.league.storage import SCHEMA_VERSION, Database, StorageError
from arena.runs.tournament import delete_tournament

from .helpers import record, tournament_db

DATA = Path(__file__).parent / "data"

OLD_BOT_STATS = """
SELECT bot_id, COUNT(*), SUM(best = 0), AVG(score), SUM(faults) FROM
 (SELECT s.bot_id, s.match_id, MIN(s.rank) AS best, AVG(s.score) AS score, SUM(s.faults) AS faults
  FROM match_seats s JOIN matches m ON m.id = s.match_id
  WHERE m.game = ? AND m.variant = ? AND m.status = 'done' GROUP BY s.bot_id, s.match_id)
GROUP BY bot_id"""
"""The statistics as schema 2 computed them for every request: the oracle for the running totals."""


def assert_totals_match_the_matches(db: Database) -> None:
    """Every running total equals what the stored matches give when counted from scratch."""
    for game, variant in db.game_variants():
        stats = db.bot_stats(game, variant)
        oracle = {r[0]: r[1:] for r in db.conn.execute(OLD_BOT_STATS, (game, variant))}
        assert stats.keys() == oracle.keys()
        for bot, (n, wins, mean, faults) in oracle.items():
            assert (stats[bot].matches, stats[bot].wins, stats[bot].faults) == (n, wins, faults)
            assert stats[bot].score_sum / n == pytest.approx(mean, abs=1e-9)
        fresh = league_stats.compute(db.conn, game, variant)
        assert db.pair_stats(game, variant) == {pair: tuple(v) for pair, v in fresh.pairs.items()}
        assert db.game_signature(game, variant) == (fresh.matches, fresh.last_match_id)
    for t in db.tournaments():
        counted = {"pending": 0, "done": 0, "failed": 0}
        for status, n in db.conn.execute("SELECT status, COUNT(*) FROM matches WHERE tournament_id = ?"
                                         " GROUP BY status", (t.id,)):
            counted[status] = n
        assert db.match_counts(t.id) == counted
    assert_tournament_totals_match_the_matches(db)


def assert_tournament_totals_match_the_matches(db: Database) -> None:
    """Each bot's running totals per tournament equal a count from scratch, and no deleted
    tournament keeps any."""
    for t in db.tournaments():
        fresh = {r[0]: league_stats.TournamentBotStats(*r[1:])
                 for r in db.conn.execute(league_stats.COMPUTE_TOURNAMENT_BOTS, (t.id,))}
        stored = db.tournament_bot_stats(t.id)
        assert stored.keys() == fresh.keys()
        for bot, mine in stored.items():  # scores are summed in another order: equal to 1e-9
            assert dataclasses.replace(mine, score_sum=0.0) == dataclasses.replace(fresh[bot], score_sum=0.0)
            assert mine.score_sum == pytest.approx(fresh[bot].score_sum, abs=1e-9)
    assert db.conn.execute("SELECT COUNT(*) FROM tournament_bot_stats WHERE tournament_id NOT IN"
                           " (SELECT id FROM tournaments)").fetchone()[0] == 0


def test_the_writer_keeps_the_totals_through_duplicates_failures_and_a_deletion(tmp_path: Path) -> None:
    seatings = [(0, 1), (1, 2), (2, 0), (0, 1), (1, 2), (0, 2), (2, 1)]
    db, tid, _ = tournament_db(tmp_path / "a.db", 3, seatings)
    ids = [m.id for m in db.unfinished_matches(tid)]
    outcomes = db.store_results([(ids[0], record(ids[0], [0, 1])), (ids[1], record(ids[1], [1, 0], [3.5, 7.25])),
                                 (ids[0], record(ids[0], [1, 0])),  # the same match again in the batch
                                 (ids[2], record(ids[2], [0, 1, 2]))])  # three players at a two-seat table
    assert outcomes[:3] == [True, True, False] and isinstance(outcomes[3], StorageError)
    assert db.store_result(ids[0], record(ids[0], [1, 0])) is False  # stored by an earlier batch
    db.mark_failed(ids[2], "crashed")
    db.mark_failed(ids[2], "crashed again")
    db.mark_failed(ids[0], "late failure of a stored match")  # changes nothing
    assert db.match_counts(tid) == {"pending": 4, "done": 2, "failed": 1}
    assert db.store_results([(ids[2], record(ids[2], [0, 0])), (ids[3], record(ids[3], [1, 0]))]) == [True, True]
    assert_totals_match_the_matches(db)
    second = db.create_tournament(name="u", game="yahtzee", variant="yahtzee", settings={}, format="free_for_all",
                                  table_size=2, rounds=1, duplicate=False, seed=0, time_control={}, options={},
                                  bot_ids=[1, 2], matches=[])
    assert db.match_counts(second) == {"pending": 0, "done": 0, "failed": 0}
    db.store_results([(i, record(i, [k % 2, 1 - k % 2])) for k, i in enumerate(ids[4:])])
    update_ratings(db, "yahtzee", "yahtzee")
    assert_totals_match_the_matches(db)
    h2h = head_to_head(db, "yahtzee", "yahtzee")
    assert h2h[(1, 2)].matches == 2 and h2h[(1, 2)].result == 0.5  # above once, below once
    assert h2h[(2, 3)].matches == 3 and h2h[(2, 3)].result == pytest.approx(1 / 3)  # below, tied, ...
    delete_tournament(db, tid)
    assert db.game_variants() == [] and db.bot_stats("yahtzee", "yahtzee") == {}
    assert_totals_match_the_matches(db)
    db.close()


def load_schema_2(path: Path) -> None:
    """The schema-2 league of tests/tournament/data, written by arena before schema 3 (as an SQL dump)."""
    conn = sqlite3.connect(path)
    conn.executescript((DATA / "schema2.sql").read_text())
    conn.close()


def league_contents(db: Database) -> dict[str, object]:
    """Every match (row and record), rating and history point, in the fixture's terms."""
    contents: dict[str, object] = {"matches": {}, "ratings": {}}
    for m in db.matches():
        stored = db.match_record(m.id)
        contents["matches"][str(m.id)] = {  # type: ignore[index]
            "row": json.loads(json.dumps(dataclasses.asdict(m))),
            "record": None if stored is None else hashlib.sha256(
                json.dumps(stored.to_json(), sort_keys=True).encode()).hexdigest()}
    for game, variant in db.game_variants():
        contents["ratings"][f"{game}/{variant}"] = [  # type: ignore[index]
            json.loads(json.dumps(dataclasses.asdict(r))) for r in rating_table(db, game, variant)]
    contents["history"] = [list(r) for r in db.conn.execute(
        "SELECT match_id, bot_id, mu, sigma FROM rating_history ORDER BY match_id, bot_id")]
    contents["tournaments"] = {str(t.id): db.match_counts(t.id) for t in db.tournaments()}
    return contents


def assert_same_league(got: dict[str, object], expected: dict[str, object]) -> None:
    assert got["matches"] == expected["matches"]
    assert got["history"] == expected["history"] and got["tournaments"] == expected["tournaments"]
    assert got["ratings"].keys() == expected["ratings"].keys()  # type: ignore[attr-defined]
    for key, rows in expected["ratings"].items():  # type: ignore[attr-defined]
        for mine, theirs in zip(got["ratings"][key], rows, strict=True):  # type: ignore[index]
            mine, theirs = dict(mine), dict(theirs)
            assert mine.pop("model") == "trueskill"  # named since issue 35; the league's files predate it
            mean = mine.pop("mean_score"), theirs.pop("mean_score")  # a sum in another order: equal to 1e-9
            assert mine == theirs and mean[0] == pytest.approx(mean[1], abs=1e-9)


def test_a_schema_2_league_is_migrated_with_every_match_record_and_rating_intact(tmp_path: Path) -> None:
    path = tmp_path / "league.db"
    load_schema_2(path)
    expected = json.loads((DATA / "schema2_expected.json").read_text())
    assert len(expected["matches"]) == 43 and expected["ratings"] and expected["history"]
    with Database(path, readonly=True) as reader:  # read-only: not migrated, totals computed in memory
        assert reader.schema_version() == 2 and not reader.has_stats
        assert_same_league(league_contents(reader), expected)
        before_h2h = {game: head_to_head(reader, *game) for game in reader.game_variants()}
    with Database(path) as db:
        assert db.schema_version() == SCHEMA_VERSION and db.has_stats
        assert db.integrity_problems() == []
        assert_same_league(league_contents(db), expected)
        assert {game: head_to_head(db, *game) for game in db.game_variants()} == before_h2h
        games = {int(k): (m["row"]["game"], m["row"]["variant"]) for k, m in expected["matches"].items()}
        for game, variant in db.game_variants():  # a bot's history per game, read through the index by bot
            plan = plan_ratings(db, game, variant)
            for bot in {b for _, b, _, _ in expected["history"]}:
                mine = [[m, bot, mu, sigma] for m, mu, sigma in rating_history(db, game, variant, bot, plan)]
                assert mine == [h for h in expected["history"] if h[1] == bot and games[h[0]] == (game, variant)]
                assert rating_history(db, game, variant, bot, plan, limit=2) == [(p[0], p[2], p[3]) for p in mine][-2:]
        assert_totals_match_the_matches(db)
        # the migrated file goes on as a league: a new result joins the totals and the ratings extend
        pending = db.matches(status="pending")[0]
        assert db.store_result(pending.id, record(pending.id, [1, 0])) is True
        assert update_ratings(db, "yahtzee", "yahtzee") == 1
        assert_totals_match_the_matches(db)
