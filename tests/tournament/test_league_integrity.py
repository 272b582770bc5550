"""A good league survives every failure we know of: its ratings still read and do not change.

Each test starts from a copy of one database holding a finished Yahtzee tournament, drives
one failure into it through the real CLI (or the real tournament runner), and compares the
league's rating rows before and after.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.league.storage import Database, ScheduledMatch
from arena.runs.tournament import BotKeeper, JobResult, MatchJob, TournamentSpec, create_tournament, expand_bots, \
    play_job, run_tournament

from .helpers import SAMPLE_BOTS, record, write_bot

LEAGUE = ("random-a", "random-b")


def invoke(*args: str) -> Any:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def assert_one_line_error(result: Any, text: str) -> None:
    assert result.exit_code != 0, result.output
    lines = [line for line in result.output.strip().splitlines() if line.startswith("Error")]
    assert len(lines) == 1 and text in lines[0], result.output
    assert "Traceback" not in result.output


POSITIONS = ("rank", "best_rank", "worst_rank", "tied_with", "los_next")
"""Keys of `arena ratings --format json` that are places in the table, not the bot's own figures."""


def league_ratings(db: Path) -> list[dict[str, Any]]:
    """The league's own rows (their rank, rank range and LOS against the next row aside, which new
    entrants may shift)."""
    result = invoke("ratings", "--game", "yahtzee", "--format", "json", "--db", str(db))
    assert result.exit_code == 0, result.output
    return [{key: value for key, value in row.items() if key not in POSITIONS}
            for row in json.loads(result.output) if row["bot"] in LEAGUE + ("yahtzee-heuristic",)]


@pytest.fixture(scope="module")
def good_league(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path]]:
    folder = tmp_path_factory.mktemp("league")
    bots = [write_bot(folder / name, name) for name in LEAGUE] + [SAMPLE_BOTS / "yahtzee_heuristic"]
    db = folder / "league.db"
    result = invoke("tournament", "run", "--game", "yahtzee", *sum((["--bot", str(b)] for b in bots), []),
                    "--rounds", "2", "--workers", "1", "--seed", "4", "--keep-alive", "--quiet", "--db", str(db))
    assert result.exit_code == 0, result.output
    return db, bots


@pytest.fixture
def league(good_league: tuple[Path, list[Path]], tmp_path: Path) -> tuple[Path, list[dict[str, Any]]]:
    """A fresh copy of the good league and its rating rows as `arena ratings` prints them."""
    source, _ = good_league
    db = tmp_path / "league.db"
    with Database(source, readonly=True) as original:
        original.backup(db)
    before = league_ratings(db)
    assert len(before) == 3 and all(row["matches"] > 0 for row in before)
    return db, before


def test_a_single_entrant_is_refused_before_anything_is_written(league: tuple[Path, list], tmp_path: Path) -> None:
    db, before = league
    bot = write_bot(tmp_path / "solo", "solo")
    size = db.stat().st_size
    assert_one_line_error(invoke("tournament", "run", "--game", "yahtzee", "--bot", str(bot), "--db", str(db)),
                          "at least 2 bots")
    other = write_bot(tmp_path / "other", "other")
    assert_one_line_error(invoke("tournament", "run", "--game", "yahtzee", "--bot", str(bot), "--bot", str(other),
                                 "--table-size", "1", "--db", str(db)), "at least 2 seats per table")
    with Database(db, readonly=True) as check:
        assert len(check.tournaments()) == 1 and [b.name for b in check.bots()].count("solo") == 0
    assert db.stat().st_size == size
    assert league_ratings(db) == before


def test_unrateable_matches_already_stored_do_not_break_the_table(league: tuple[Path, list]) -> None:
    """A database written by an older arena may hold single-seat matches: they are skipped."""
    db, before = league
    with Database(db) as writable:
        solo = writable.register_bot(name="solo", version="1.0", files_hash="x")
        tid = writable.create_tournament(
            name="old", game="yahtzee", variant="yahtzee", settings={}, format="free_for_all", table_size=1,
            rounds=1, duplicate=False, seed=0, time_control={}, options={}, bot_ids=[solo.id],
            matches=[ScheduledMatch((solo.id,), seed=1, round=0, deal=0, rotation=0)])
        (match,) = writable.unfinished_matches(tid)
        writable.store_result(match.id, record(match.id, [0]))
    for extra in ([], ["--recompute"]):
        result = invoke("ratings", "--game", "yahtzee", "--format", "json", "--db", str(db), *extra)
        assert result.exit_code == 0, result.output
        rows = json.loads(result.output)
        assert "solo" not in [row["bot"] for row in rows]  # never rated: it met nobody
        assert [{k: v for k, v in row.items() if k not in POSITIONS} for row in rows] == before


def _wait_for(predicate: Any, timeout: float) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError("timed out")


def _done(db: Path, tid: int) -> int:
    try:
        with Database(db, readonly=True) as reader:
            return reader.match_counts(tid)["done"] if len(reader.tournaments()) >= tid else 0
    except Exception:  # noqa: BLE001 - the writer may be mid-transaction
        return 0


@pytest.mark.slow
def test_a_killed_run_then_abandon_and_delete(league: tuple[Path, list], tmp_path: Path) -> None:
    db, before = league
    bots = [write_bot(tmp_path / name, name) for name in ("killed-1", "killed-2")]
    args = [sys.executable, "-m", "arena.cli", "tournament", "run", "--game", "yahtzee", "--rounds", "30",
            "--workers", "1", "--keep-alive", "--quiet", "--seed", "1", "--db", str(db)]
    for bot in bots:
        args += ["--bot", str(bot)]
    runner = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        _wait_for(lambda: _done(db, 2) >= 2, 60)
    finally:
        os.killpg(runner.pid, signal.SIGKILL)
        runner.wait()
    assert league_ratings(db) == before
    listed = invoke("tournament", "list", "--format", "json", "--db", str(db))
    assert json.loads(listed.output)[1]["status"] == "running"  # as the killed process left it
    assert invoke("tournament", "abandon", "2", "--db", str(db)).exit_code == 0
    assert_one_line_error(invoke("tournament", "resume", "2", "--db", str(db)), "abandoned")
    assert league_ratings(db) == before
    killed = [row for row in json.loads(invoke("ratings", "--game", "yahtzee", "--format", "json", "--db",
                                               str(db)).output) if row["bot"].startswith("killed")]
    assert len(killed) == 2  # the matches it played stay, and are rated
    result = CliRunner().invoke(main, ["tournament", "delete", "2", "--db", str(db)], input="y\n")
    assert "not deleting without confirmation" in result.output  # no terminal: refused unless --yes
    assert invoke("tournament", "delete", "2", "--yes", "--db", str(db)).exit_code == 0
    with Database(db, readonly=True) as check:
        assert [t.id for t in check.tournaments()] == [1]
        assert all(m.tournament_id == 1 for m in check.matches())
    after = json.loads(invoke("ratings", "--game", "yahtzee", "--format", "json", "--db", str(db)).output)
    assert [row["rank"] for row in after] == [1, 2, 3]
    assert league_ratings(db) == before  # recomputed from the league's own matches: exactly as before


@pytest.mark.slow
def test_a_bot_that_never_starts(league: tuple[Path, list], tmp_path: Path, hostile_bot: Any) -> None:
    db, before = league
    never = hostile_bot(tmp_path / "never", "never-healthy")
    ok = write_bot(tmp_path / "ok", "ok-bot")
    result = invoke("tournament", "run", "--game", "yahtzee", "--bot", str(never.manifest.parent), "--bot", str(ok),
                    "--startup-timeout", "1", "--allow-broken", "--workers", "1", "--quiet", "--seed", "2",
                    "--db", str(db))
    assert result.exit_code == 0, result.output
    assert league_ratings(db) == before
    with Database(db, readonly=True) as check:
        (played,) = [t for t in check.tournaments() if t.id == 2]
        assert played.status == "finished"
        assert all(m.forfeited for m in check.matches(tournament_id=2))


class _InlineExecutor:
    """Plays jobs in this process, so a test can break an engine with monkeypatch."""

    slots = 1

    def __init__(self) -> None:
        self.results: list[JobResult] = []
        self.keeper = BotKeeper(keep_alive=True)

    def submit(self, job: MatchJob) -> None:
        self.results.append(play_job(job, self.keeper))

    def running(self) -> int:
        return len(self.results)

    def poll(self, timeout: float) -> list[JobResult]:
        done, self.results = self.results, []
        return done

    def close(self, *, abandon: bool = False) -> None:
        self.keeper.close()


def test_an_engine_error(league: tuple[Path, list], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from referee.games import yahtzee

    db, before = league
    original = yahtzee.YahtzeeState._apply
    calls = [0]

    def broken(self: Any, action: Any) -> None:
        calls[0] += 1
        if calls[0] == 25:
            raise RuntimeError("engine bug")
        original(self, action)

    monkeypatch.setattr(yahtzee.YahtzeeState, "_apply", broken)
    bots = [write_bot(tmp_path / name, name) for name in ("engine-1", "engine-2")]
    specs, _ = expand_bots(map(str, bots), "yahtzee")
    with Database(db) as writable:
        tid = create_tournament(writable, TournamentSpec(game="yahtzee", bots=tuple(specs), seed=3, rounds=2))
        summary = run_tournament(writable, tid, executor_factory=lambda n, keep: _InlineExecutor())
        assert summary.failed == 1 and "engine bug" in summary.errors[0]
        assert writable.tournament(tid).status == "incomplete"
    monkeypatch.setattr(yahtzee.YahtzeeState, "_apply", original)
    assert league_ratings(db) == before
    result = invoke("tournament", "resume", str(tid), "--workers", "1", "--quiet", "--db", str(db))
    assert result.exit_code == 0, result.output
    assert league_ratings(db) == before


DAMAGE_OFFSETS = (8192, 16384, 40960, 200000)
READERS = (["ratings", "--game", "yahtzee"], ["matches"], ["show", "1"], ["h2h", "--game", "yahtzee"],
           ["tournament", "list"], ["db", "check"])


@pytest.fixture(scope="module")
def big_league(good_league: tuple[Path, list[Path]], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The good league grown past 200 kB with copies of its stored matches, checkpointed."""
    source, _ = good_league
    db = tmp_path_factory.mktemp("big") / "league.db"
    with Database(source, readonly=True) as original:
        original.backup(db)
    conn = sqlite3.connect(db)
    while db.stat().st_size < 260_000:
        conn.execute("INSERT INTO matches (tournament_id, position, round, deal, rotation, game, variant, settings,"
                     " seed, num_players, status, record) SELECT NULL, position, round, deal, rotation, game,"
                     " variant, settings, seed, num_players, 'failed', record FROM matches WHERE tournament_id = 1")
        conn.commit()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return db


@pytest.mark.parametrize("offset", DAMAGE_OFFSETS)
def test_a_damaged_file_gives_one_line_errors(big_league: Path, tmp_path: Path, offset: int) -> None:
    db = tmp_path / "damaged.db"
    shutil.copy(big_league, db)
    with open(db, "r+b") as f:
        f.seek(offset)
        f.write(bytes((i * 37 + 11) % 256 for i in range(1000)))
    failed = 0
    for args in READERS:
        result = CliRunner().invoke(main, [*args, "--db", str(db)])
        assert result.exception is None or isinstance(result.exception, SystemExit), \
            f"{args}: {result.exception!r}"
        assert "Traceback" not in result.output
        if result.exit_code != 0:
            failed += 1
            lines = result.output.strip().splitlines()
            assert lines[-1].startswith("Error: ") and str(db) in lines[-1], (args, result.output)
            assert "PRAGMA integrity_check" in lines[-1] or "damaged" in lines[-1], (args, result.output)
    check = invoke("db", "check", "--db", str(db))
    assert check.exit_code == 1 and failed >= 1, check.output  # the integrity check always notices


def test_a_refused_change_is_reported_as_a_bug_not_as_damage(big_league: Path, tmp_path: Path) -> None:
    """A constraint failure (here a trigger's, standing in for a foreign key a command forgot)
    leaves the file as it was: the error says so instead of sending the user to repair it."""
    db = tmp_path / "refusing.db"
    shutil.copy(big_league, db)
    conn = sqlite3.connect(db)
    conn.execute("CREATE TRIGGER keep BEFORE DELETE ON tournaments BEGIN SELECT RAISE(ABORT, 'kept'); END")
    conn.commit()
    conn.close()
    result = CliRunner().invoke(main, ["tournament", "delete", "1", "--yes", "--db", str(db)])
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    line = result.output.strip().splitlines()[-1]
    assert line.startswith(f"Error: {db} refused a change (kept), which was not made: a bug in arena"), line
    assert "damaged" not in line
    listed = json.loads(invoke("tournament", "list", "--format", "json", "--db", str(db)).output)
    assert 1 in [t["id"] for t in listed]  # the change was not made
    assert invoke("db", "check", "--db", str(db)).exit_code == 0
