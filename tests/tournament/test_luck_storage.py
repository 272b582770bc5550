"""Schema 12 keeps each played match's luck report (issue 35): measured when the result is
stored, per estimator version, never rewritten; an older file gains the table on open."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from arena.league.storage import SCHEMA_VERSION, Database, ScheduledMatch
from referee.luck import LuckReport, analyse, report_json
from referee.result import MatchRecord


def _yahtzee_db(path: Path, recorded_matches: Any, seeds: list[int]) -> tuple[Database, list[int], list[MatchRecord]]:
    records = [m.record for m in recorded_matches("yahtzee", num_players=2, seeds=seeds)]
    db = Database(path)
    bots = [db.register_bot(name=f"b{i}", version="1", files_hash=f"h{i}").id for i in range(2)]
    tid = db.create_tournament(name="t", game="yahtzee", variant="yahtzee", settings={}, format="free_for_all",
                               table_size=2, rounds=1, duplicate=False, seed=0, time_control={}, options={},
                               bot_ids=bots, matches=[ScheduledMatch(tuple(bots), seed=r.seed, round=0, deal=k,
                                                                     rotation=0) for k, r in enumerate(records)])
    return db, [m.id for m in db.matches(tournament_id=tid)], records


def test_a_stored_result_keeps_its_luck(tmp_path: Path, recorded_matches: Any) -> None:
    db, ids, records = _yahtzee_db(tmp_path / "league.db", recorded_matches, [1, 2])
    with db:
        assert db.store_result(ids[0], records[0])  # measured by the store
        assert db.store_results([(ids[1], records[1], None, None)]) == [True]  # measured elsewhere: none
        stored = db.luck_report(ids[0])
        assert stored is not None and stored == LuckReport.from_json(analyse(records[0]).to_json())  # as stored: rounded
        assert stored.estimator == "yahtzee/1"
        assert db.luck_report(ids[1]) is None
        assert db.matches_without_luck("yahtzee/1") == [ids[1]]
        report = report_json(records[1])
        assert report is not None and db.store_luck(ids[1], report) and not db.store_luck(ids[1], report)
        assert db.matches_without_luck("yahtzee/1") == []
        luck = json.loads(db.conn.execute("SELECT luck FROM match_luck WHERE match_id = ?", (ids[1],)).fetchone()[0])
        assert luck == [round(x, 6) for x in analyse(records[1]).luck]


def test_an_older_file_gains_the_table_and_keeps_its_matches(tmp_path: Path, recorded_matches: Any) -> None:
    path = tmp_path / "league.db"
    db, ids, records = _yahtzee_db(path, recorded_matches, [3])
    with db:
        db.store_result(ids[0], records[0])
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("DROP TABLE match_luck")
        conn.execute("UPDATE schema_version SET version = 11")
    conn.close()
    with Database(path, readonly=True) as reader:
        assert not reader.has_luck and reader.luck_report(ids[0]) is None
    with Database(path) as writer:
        assert writer.has_luck and writer.schema_version() == SCHEMA_VERSION
        assert writer.match_record(ids[0]) == records[0]
        assert writer.matches_without_luck("yahtzee/1") == ids


def test_the_newest_estimator_version_is_read_first_by_number(tmp_path: Path, recorded_matches: Any) -> None:
    """Versions order as numbers (10 after 9), in the single report and in the lists alike."""
    from arena.league.luck import summaries

    db, ids, records = _yahtzee_db(tmp_path / "league.db", recorded_matches, [4])
    text = report_json(records[0])
    assert text is not None
    report = json.loads(text)
    with db:
        for version, shift in (("yahtzee/9", 0.0), ("yahtzee/10", 1.0), ("yahtzee/2", 2.0)):
            db.store_luck(ids[0], json.dumps(dict(report, estimator=version, luck=[x + shift for x in report["luck"]])))
        newest = db.luck_report(ids[0])
        assert newest is not None and newest.estimator == "yahtzee/10"
        assert db.luck_report(ids[0], "yahtzee/9") is not None
        listed = summaries(db, [ids[0]])[ids[0]]
        assert listed.estimator == "yahtzee/10"
        assert listed.luck == tuple(round(x + 1.0, 6) for x in report["luck"])
