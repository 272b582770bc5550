"""The server's SPRT runs (issue 27): a new version against the previous one, opened and played
by the real worker (``arena submissions work`` as a process, or its functions in process) on
real SQLite files with real bots."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.league.storage import SCHEMA_VERSION, Database
from arena.runs.ladder import load_config, open_ladder
from arena.submission import accounts
from arena.submission.archive import pack
from arena.submission import pipeline
from arena.submission.pipeline import requeue_interrupted, work_once
from arena.submission.sprt import MIN_PAIRS
from arena.submission.sprt_play import play_batch
from arena.submission.normalized_sprt import load_test
from arena.submission.sprt_runs import (SprtSettings, counted_pairs, history, oldest_open, run_json, run_of,
                                        store_batch)
from arena.submission.submissions import receive
from referee.sandbox import SandboxConfig, SandboxMode
from tests.ladder.helpers import write_config

from .test_upload import RANDOM_BOT, ROOT, bot_named

GIN_HEURISTIC = ROOT / "sample_bots" / "python" / "gin_heuristic"
NO_SANDBOX = SandboxConfig(SandboxMode.NONE)


def worker(db: Path, *args: str, session: bool = False) -> subprocess.Popen[str]:
    """A real ``arena submissions work`` process on ``db`` (builds in the test's store; the
    sample bots validated unsandboxed, as the ladders here play them)."""
    return subprocess.Popen([sys.executable, "-m", "arena.cli", "submissions", "work", "--db", str(db), "--sandbox",
                             "none", *args],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=session, env=dict(os.environ, ARENA_BUILDS=str(db.parent / "builds")))


def new_version(folder: Path, name: str, version: str, source: Path = RANDOM_BOT) -> Path:
    """``source`` (a sample bot) as version ``version`` of the bot ``name``, its files changed."""
    bot = bot_named(folder, "placeholder", version)
    if source != RANDOM_BOT:
        shutil.rmtree(bot)
        shutil.copytree(source, bot, ignore=shutil.ignore_patterns("__pycache__"))
        manifest = (bot / "bot.toml").read_text()
        name_line = next(line for line in manifest.splitlines() if line.startswith("name = "))
        version_line = next(line for line in manifest.splitlines() if line.startswith("version = "))
        (bot / "bot.toml").write_text(manifest.replace(name_line, 'name = "placeholder"')
                                      .replace(version_line, f'version = "{version}"'))
    manifest = (bot / "bot.toml").read_text()
    (bot / "bot.toml").write_text(manifest.replace('name = "placeholder"', f'name = "{name}"'))
    (bot / "notes.txt").write_text(f"version {version}")
    return bot


@pytest.fixture()
def dice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Database, Path]]:
    """A Yahtzee ladder "dice" (tables of 2, unsandboxed, bots kept alive) where ann has
    submitted two versions of "anns-bot", both random; nothing processed yet."""
    monkeypatch.setenv("ARENA_BUILDS", str(tmp_path / "builds"))
    config = load_config(write_config(tmp_path, [RANDOM_BOT], extra="keep_alive = true"))
    data_dir = tmp_path / "ladder.db.data"
    with Database(config.db) as db:
        open_ladder(db, config.ladders[0], config)
        ann, _ = accounts.add_user(db, "ann")
        for version in ("1.0", "2.0"):
            receive(db, data_dir, ann, pack(new_version(tmp_path / version, "anns-bot", version)), ladder="dice")
        yield db, data_dir


def test_the_worker_finds_the_gin_heuristic_stronger_than_the_random_version_before(tmp_path: Path) -> None:
    """Two submissions of one bot to a Gin ladder: random, then the heuristic.  One real worker
    process builds, validates and enters both, opens the run and plays it to "stronger"."""
    config_path = tmp_path / "ladder.toml"
    config_path.write_text(f'db = "ladder.db"\nkeep_alive = true\n[sandbox]\nmode = "none"\n[[ladder]]\nname = "gin"\n'
                           f'game = "gin_rummy"\nsettings = {{ target_score = 10 }}\nbots = ["{RANDOM_BOT}"]\n')
    config = load_config(config_path)
    data_dir = tmp_path / "ladder.db.data"
    with Database(config.db) as db:
        open_ladder(db, config.ladders[0], config)
        ann, _ = accounts.add_user(db, "ann")
        old, _ = receive(db, data_dir, ann, pack(new_version(tmp_path / "v1", "anns-gin", "1.0")), ladder="gin")
        new, _ = receive(db, data_dir, ann, pack(new_version(tmp_path / "v2", "anns-gin", "2.0", GIN_HEURISTIC)),
                         ladder="gin")
    process = worker(config.db, "--once", "--sprt-batch", "4", "--sprt-workers", "2")
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    lines = out.splitlines()
    assert lines[0].startswith(f"submission {old.id}: active") and lines[1].startswith(f"submission {new.id}: active")
    batches = lines[2:]
    assert batches[0].startswith(f"sprt run 1 (submission {new.id}): 4 pairs, LLR ")
    assert batches[-1].endswith(": stronger") and all(not line.endswith("stronger") for line in batches[:-1])
    with Database(config.db) as db:
        run = run_of(db, new.id)
        assert run is not None and run.verdict == "stronger" and run.reason == ""
        assert (run.old_submission_id, db.bot(run.new_bot_id).label, db.bot(run.old_bot_id).label) == (
            old.id, "anns-gin@2.0", "anns-gin@1.0")
        assert run.config["settings"]["target_score"] == 10 and run.config["keep_alive"] is True
        assert run.test.pairs == run.next_pair >= MIN_PAIRS  # every pair counted, none twice
        assert run.test.counts[0] == 0  # the heuristic never loses both matches of a deal to random moves
        points = history(db, run.id)
        assert [pairs for pairs, _ in points] == [min(4 * k, run.test.pairs) for k in range(1, len(points) + 1)]
        assert points[-1][1] == run.test.llr >= run.test.bounds[1] and run.finished_at is not None
        log = (data_dir / "logs" / f"{new.id}.log").read_text()
        assert f"== SPRT run 1 against anns-gin@1.0: opened ({run.test.describe()}; normalized Elo [0, 10], alpha 0.05," \
            " beta 0.05, at most 2000 pairs)" in log
        assert run.test.name == "normalized"  # new runs use the new test
        recomputed = load_test(SprtSettings().test("gin_rummy").to_json())
        for _, _, points, adjusted, raw in counted_pairs(db, run.id):  # every counted pair stored, in order
            recomputed.record(points, adjusted, raw)
        assert recomputed.to_json() == run.test.to_json()
        assert run_of(db, old.id) is None  # a first version has nothing to be tested against
        shown = json.loads(json.dumps(run_json(db, run), allow_nan=False))  # as the API sends it: no Infinity
        assert shown["verdict"] == "stronger" and shown["pentanomial"] == run.test.counts
        assert shown["test"] == "normalized" and shown["describe"] == run.test.describe()
        assert shown["elo"] is None if shown["score"] == 1.0 else shown["elo"] > 0


def test_a_run_whose_stored_bot_changed_ends_failed_with_the_reason(dice: tuple[Database, Path]) -> None:
    db, data_dir = dice
    work_once(db, data_dir, sandbox=NO_SANDBOX)
    run = oldest_open(db)
    assert run is not None
    manifest = Path(db.bot(run.old_bot_id).manifest or "")
    manifest.parent.chmod(0o755)
    (manifest.parent / "bot.py").chmod(0o644)
    (manifest.parent / "bot.py").write_text("raise SystemExit(1)\n")
    outcome = play_batch(db, run, pairs=2)
    assert outcome.verdict == "failed" and "anns-bot@1.0 changed since it was registered" in outcome.reason
    ended = run_of(db, run.submission_id)
    assert ended is not None and ended.verdict == "failed" and ended.reason == outcome.reason
    assert ended.next_pair == 0 and history(db, run.id) == [] and oldest_open(db) is None


def test_a_worker_stopped_as_a_version_enters_leaves_it_to_the_next_worker_with_its_run(
        dice: tuple[Database, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """The activation and the run are one transaction: stopped between them (here, as the run
    is stored), the version is not active and has no run; the next worker enters it with one.
    (Before, the version was left active without a run, and no worker ever opened it.)"""
    db, data_dir = dice

    def stopped(conn: sqlite3.Connection, planned: tuple) -> int | None:
        raise SystemExit("the worker stops here")

    monkeypatch.setattr(pipeline, "store_run", stopped)
    with pytest.raises(SystemExit):
        work_once(db, data_dir, sandbox=NO_SANDBOX)
    states = [row[0] for row in db.conn.execute("SELECT state FROM submissions ORDER BY id")]
    assert states == ["active", "validating"] and run_of(db, 2) is None
    monkeypatch.undo()
    assert requeue_interrupted(db) == 1  # what `arena submissions work` does as it starts
    assert [o.state for o in work_once(db, data_dir, sandbox=NO_SANDBOX)] == ["active"]
    run = run_of(db, 2)
    assert run is not None and run.verdict is None and run.old_submission_id == 1


def test_a_run_at_a_small_pair_limit_ends_undecided(dice: tuple[Database, Path]) -> None:
    db, data_dir = dice
    outcomes = work_once(db, data_dir, sandbox=NO_SANDBOX, sprt=SprtSettings(max_pairs=3))
    assert [o.state for o in outcomes] == ["active", "active"]
    run = oldest_open(db)
    assert run is not None and run.max_pairs == 3 and run.next_pair == 0
    first = play_batch(db, run, pairs=2)
    assert (first.pairs, first.verdict) == (2, None)
    assert run.test.pairs == 0  # what was read before the batch: a second worker holding it stores nothing
    assert store_batch(db, run, run.test, 2) == ("stale", "another worker stored this batch")
    run = oldest_open(db)
    assert run is not None and run.next_pair == 2 and run.test.pairs == 2
    last = play_batch(db, run, pairs=2)  # one pair left below the limit
    assert (last.pairs, last.verdict, last.reason) == (3, "undecided", "the pair limit (3) was reached")
    assert oldest_open(db) is None
    ended = run_of(db, run.submission_id)
    assert ended is not None and ended.verdict == "undecided" and ended.next_pair == ended.test.pairs == 3
    assert ended.test.verdict is None  # no verdict of the SPRT's own before MIN_PAIRS
    assert [pairs for pairs, _ in history(db, run.id)] == [2, 3]


def test_a_killed_worker_is_taken_up_from_the_stored_state_and_counts_no_pair_twice(
        dice: tuple[Database, Path]) -> None:
    """kill -9 in the middle of the second batch: its pairs are not stored, and the next
    worker plays them again from the stored state (pairs 2 and 3), then on to the limit."""
    db, data_dir = dice
    work_once(db, data_dir, sandbox=NO_SANDBOX, sprt=SprtSettings(max_pairs=8))
    [run] = db.conn.execute("SELECT id FROM sprt_runs").fetchall()
    process = worker(db.path, "--sprt-batch", "2", "--sprt-workers", "1", session=True)
    try:
        deadline = time.monotonic() + 120
        while not db.conn.execute("SELECT COUNT(*) FROM sprt_points").fetchone()[0]:
            assert time.monotonic() < deadline and process.poll() is None, "no batch stored"
            time.sleep(0.02)
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    stored = db.conn.execute("SELECT next_pair, state FROM sprt_runs").fetchone()
    assert stored[0] == 2 and sum(json.loads(stored[1])["counts"]) == 2  # the second batch was cut short
    assert [pairs for pairs, _ in history(db, run[0])] == [2]
    again = worker(db.path, "--once", "--sprt-batch", "2", "--sprt-workers", "1")
    out, err = again.communicate(timeout=300)
    assert again.returncode == 0, err
    assert [line.split(": ")[1].split(",")[0] for line in out.splitlines()] == [
        "4 pairs", "6 pairs", "8 pairs"]
    assert out.splitlines()[-1].endswith(": undecided (the pair limit (8) was reached)")
    ended = run_of(db, db.conn.execute("SELECT submission_id FROM sprt_runs").fetchone()[0])
    assert ended is not None and ended.next_pair == ended.test.pairs == 8
    assert [pairs for pairs, _ in history(db, run[0])] == [2, 4, 6, 8]


def test_a_submission_that_arrives_during_a_run_goes_before_the_runs_next_batch(
        dice: tuple[Database, Path], tmp_path: Path) -> None:
    db, data_dir = dice
    work_once(db, data_dir, sandbox=NO_SANDBOX, sprt=SprtSettings(max_pairs=6))
    process = worker(db.path, "--sprt-batch", "2", "--sprt-workers", "1", "--sprt-max-pairs", "2", "--interval", "0.2")
    try:
        deadline = time.monotonic() + 120
        while not db.conn.execute("SELECT COUNT(*) FROM sprt_points").fetchone()[0]:
            assert time.monotonic() < deadline and process.poll() is None, "no batch stored"
            time.sleep(0.02)
        third, _ = receive(db, data_dir, accounts.user(db, "ann"),
                           pack(new_version(tmp_path / "3.0", "anns-bot", "3.0")), ladder="dice")
        while run_of(db, third.id) is None or oldest_open(db) is not None:
            assert time.monotonic() < deadline and process.poll() is None, "the runs did not end"
            time.sleep(0.1)
    finally:
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    lines = out.splitlines()
    [entered] = [i for i, line in enumerate(lines) if line.startswith(
        f"submission {third.id}: active: active on ladder dice as anns-bot@3.0 (added); retired anns-bot 1.0")]
    first_run = [i for i, line in enumerate(lines) if line.startswith("sprt run 1 ")]
    assert lines[first_run[0]].startswith("sprt run 1 (submission 2): 2 pairs")
    assert first_run[0] < entered < first_run[-1]  # between two batches of the open run
    assert lines[first_run[-1]].endswith(": undecided (the pair limit (6) was reached)")
    second_run = [line for line in lines if line.startswith("sprt run 2 ")]  # 3.0 against 2.0, opened then
    assert second_run == [line for line in lines[first_run[-1]:] if line.startswith("sprt run 2 ")]
    assert second_run[-1].endswith(": undecided (the pair limit (2) was reached)") and lines[-1] == "stopped"


@pytest.fixture()
def four(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Database, Path]]:
    """A Yoninkan ladder "four" (unsandboxed) where ann has submitted two versions of
    "anns-bot", both random; nothing processed yet."""
    monkeypatch.setenv("ARENA_BUILDS", str(tmp_path / "builds"))
    config_path = tmp_path / "ladder.toml"
    config_path.write_text(f'db = "ladder.db"\n[sandbox]\nmode = "none"\n[[ladder]]\nname = "four"\n'
                           f'game = "yoninkan"\nbots = ["{RANDOM_BOT}"]\n')
    config = load_config(config_path)
    data_dir = tmp_path / "data"
    with Database(config.db) as db:
        open_ladder(db, config.ladders[0], config)
        ann, _ = accounts.add_user(db, "ann")
        for version in ("1.0", "2.0"):
            receive(db, data_dir, ann, pack(new_version(tmp_path / version, "anns-bot", version)), ladder="four")
        yield db, data_dir


def test_a_yoninkan_run_plays_replay_pairs(four: tuple[Database, Path]) -> None:
    db, data_dir = four
    assert [o.state for o in work_once(db, data_dir, sandbox=NO_SANDBOX)] == ["active", "active"]
    run = oldest_open(db)
    assert run is not None and run.verdict is None and run.test.needs_margin and not run.test.needs_luck
    outcome = play_batch(db, run, pairs=2)
    assert (outcome.pairs, outcome.verdict) == (2, None)
    stored = run_of(db, run.submission_id)
    assert stored is not None and stored.next_pair == stored.test.pairs == 2


def test_a_logistic_yoninkan_run_is_stored_refused_with_its_reason(four: tuple[Database, Path]) -> None:
    db, data_dir = four
    outcomes = work_once(db, data_dir, sandbox=NO_SANDBOX, sprt=SprtSettings(test_name="logistic"))
    assert [o.state for o in outcomes] == ["active", "active"]
    run = run_of(db, 2)
    assert run is not None and run.verdict == "refused" and run.finished_at is not None
    assert run.reason.startswith("the logistic test needs NEW and OLD head to head, and a Yoninkan pair is a replay")
    assert oldest_open(db) is None and history(db, run.id) == []
    assert f"== SPRT run {run.id} against anns-bot@1.0: refused: the logistic test" in (
        data_dir / "logs" / "2.log").read_text()


def test_the_previous_version_is_the_newest_earlier_one_that_became_active(dice: tuple[Database, Path],
                                                                           tmp_path: Path) -> None:
    """A failed version in between is skipped; a retired one still counts; the name's case in
    the manifest does not matter (the name is its author's whatever its case)."""
    db, data_dir = dice
    ann = accounts.user(db, "ann")
    work_once(db, data_dir, sandbox=NO_SANDBOX, keep=1, sprt=SprtSettings(max_pairs=1))
    broken = new_version(tmp_path / "3.0", "anns-bot", "3.0")
    (broken / "bot.py").write_text("raise SystemExit(3)\n")
    third, _ = receive(db, data_dir, ann, pack(broken), ladder="dice")
    fourth, _ = receive(db, data_dir, ann, pack(new_version(tmp_path / "4.0", "Anns-Bot", "4.0")), ladder="dice")
    assert [o.state for o in work_once(db, data_dir, sandbox=NO_SANDBOX, keep=1)] == ["failed", "active"]
    assert run_of(db, third.id) is None
    run = run_of(db, fourth.id)
    assert run is not None and (db.bot(run.new_bot_id).label, db.bot(run.old_bot_id).label) == (
        "Anns-Bot@4.0", "anns-bot@2.0")
    assert db.conn.execute("SELECT state FROM submissions WHERE id = ?", (run.old_submission_id,)).fetchone()[0] \
        == "retired"


@pytest.mark.parametrize(("args", "text"), [
    (["--sprt-elo0", "5", "--sprt-elo1", "5"], "elo0 (5) must be below elo1 (5)"),
    (["--sprt-alpha", "0.6"], "alpha must be between 0 and 0.5"),
])
def test_bad_sprt_bounds_are_one_error_line(dice: tuple[Database, Path], args: list[str], text: str) -> None:
    db, _ = dice
    result = CliRunner().invoke(main, ["submissions", "work", "--once", "--db", str(db.path), *args])
    assert result.exit_code == 1, result.output
    assert result.output.count("\n") == 1 and result.output.startswith("Error: bad SPRT bounds")
    assert text in result.output
    assert db.conn.execute("SELECT COUNT(*) FROM submissions WHERE state = 'received'").fetchone()[0] == 2


def test_a_schema_9_file_gains_the_run_tables(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with Database(path):
        pass
    conn = sqlite3.connect(path)
    conn.executescript("DROP TABLE sprt_points; DROP TABLE sprt_runs; UPDATE schema_version SET version = 9;")
    conn.close()
    with Database(path) as db:
        assert db.schema_version() == SCHEMA_VERSION
        assert db.conn.execute("SELECT COUNT(*) FROM sprt_runs").fetchone()[0] == 0
        assert db.conn.execute("SELECT COUNT(*) FROM sprt_points").fetchone()[0] == 0
