"""``arena luck`` (issue 35): it measures the played matches of an older league that have no luck
report, stores each once and never replaces one; ``arena matches`` and ``arena show`` then carry
each seat's luck and adjusted result, and ``null`` for a match without a report.

The league is ``data/schema11.sql``, a real schema-11 file (two played Yahtzee matches) written
before luck reports existed; the reports come from the game's real estimator."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from arena.cli import main
from arena.league.storage import Database
from referee import luck

from .test_cli import assert_one_line_error
from .test_schema_files import load


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def stored(path: Path) -> dict[int, str]:
    with Database(path, readonly=True) as db:
        return {row[0]: row[1] for row in db.conn.execute("SELECT match_id, report FROM match_luck")}


def matches_json(path: Path) -> dict[int, dict]:
    result = invoke("matches", "--format", "json", "--db", str(path))
    assert result.exit_code == 0, result.output
    return {m["id"]: m for m in json.loads(result.output)["matches"]}


def test_arena_luck_fills_an_older_leagues_reports_once(tmp_path: Path) -> None:
    path = load("schema11.sql", tmp_path / "league.db")
    estimator = luck.estimator_for("yahtzee").name
    before = matches_json(path)
    assert set(before) == {1, 2}
    assert all(m[key] is None for m in before.values() for key in ("luck_estimator", "result", "luck", "adjusted"))

    result = invoke("luck", "--db", str(path))
    assert result.exit_code == 0, result.output
    assert f"yahtzee: 2 matches measured with {estimator}" in result.output
    reports = stored(path)
    assert set(reports) == {1, 2}

    after = matches_json(path)
    with Database(path, readonly=True) as db:
        for match_id in (1, 2):
            report = db.luck_report(match_id)
            assert report is not None and report.estimator == estimator
            # The report is the one the estimator measures from the stored record.
            assert report.to_json() == luck.analyse(db.match_record(match_id)).to_json()
            row = after[match_id]
            assert row["luck_estimator"] == estimator
            assert row["luck"] == [round(x, 6) for x in report.luck]
            assert row["adjusted"] == [round(x, 6) for x in report.adjusted]
            assert row["result"] == [round(x, 6) for x in report.result]

    again = invoke("luck", "--db", str(path))
    assert again.exit_code == 0, again.output
    assert f"yahtzee: every played match has a {estimator} report" in again.output
    assert stored(path) == reports


def test_arena_luck_measures_only_what_is_missing_and_never_replaces_a_report(tmp_path: Path) -> None:
    """A report stored before (here one whose figures differ from today's measure, as a report
    of an estimator fixed since would) stays as it is: a run only adds the missing ones."""
    path = load("schema11.sql", tmp_path / "league.db")
    with Database(path) as db:
        report = luck.analyse(db.match_record(1)).to_json()
        report["luck"] = [x + 1.0 for x in report["luck"]]
        kept = json.dumps(report, separators=(",", ":"))
        assert db.store_luck(1, kept)
    result = invoke("luck", "--game", "yahtzee", "--db", str(path))
    assert result.exit_code == 0, result.output
    assert "yahtzee: 1 match measured" in result.output
    reports = stored(path)
    assert reports[1] == kept and set(reports) == {1, 2}


def test_show_prints_the_luck_and_its_report(tmp_path: Path) -> None:
    path = load("schema11.sql", tmp_path / "league.db")
    unmeasured = invoke("show", "1", "--db", str(path))
    assert unmeasured.exit_code == 0 and "luck: not measured" in unmeasured.output
    assert json.loads(invoke("show", "1", "--luck", "--db", str(path)).output) is None

    assert invoke("luck", "--db", str(path)).exit_code == 0
    with Database(path, readonly=True) as db:
        report = db.luck_report(1)
    assert report is not None
    shown = invoke("show", "1", "--db", str(path))
    assert shown.exit_code == 0, shown.output
    assert f"luck ({report.estimator}, {len(report.steps)} chance events" in shown.output
    assert f"{report.adjusted[0]:.2f}" in shown.output and f"{report.luck[1]:.2f}" in shown.output
    printed = json.loads(invoke("show", "1", "--luck", "--db", str(path)).output)
    assert printed == report.to_json()

    csv = invoke("matches", "--format", "csv", "--db", str(path)).output.splitlines()
    header = csv[0].split(",")
    assert header[-4:] == ["luck_estimator", "result", "luck", "adjusted"]
    assert len(csv) == 1 + 2 * 2  # a row per seat


def test_arena_luck_errors_are_one_line(tmp_path: Path) -> None:
    assert_one_line_error(invoke("luck", "--db", str(tmp_path / "missing.db")), "no arena database")
    path = load("schema11.sql", tmp_path / "league.db")
    assert_one_line_error(invoke("luck", "--game", "chess", "--db", str(path)), "chess")
    assert_one_line_error(invoke("show", "1", "--luck", "--json", "--db", str(path)), "--luck")


def test_a_run_stopped_after_one_match_has_stored_it_and_the_next_run_does_the_rest(tmp_path: Path) -> None:
    """What Ctrl-C leaves: every report yielded so far is committed, and a new run measures the rest."""
    from arena.league.luck import count_missing, measure_missing

    path = load("schema11.sql", tmp_path / "league.db")
    estimator = luck.estimator_for("yahtzee")
    with Database(path) as db:
        assert count_missing(db, estimator) == 2
        first = next(measure_missing(db, estimator))  # the run stops here: the generator is dropped
        assert first.error is None
    assert set(stored(path)) == {first.match_id}
    result = invoke("luck", "--db", str(path))
    assert result.exit_code == 0 and "yahtzee: 1 match measured" in result.output, result.output
    assert set(stored(path)) == {1, 2}
