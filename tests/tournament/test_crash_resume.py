"""Crash safety with real processes: kill -9 or Ctrl-C mid-run, resume, and get the same ratings.

Each run is a real ``arena tournament run`` subprocess with real bot processes (four
deterministic random bots under different names, kept alive per worker so matches are
quick), two worker processes and a real SQLite file.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .helpers import RESUME_ROUNDS as ROUNDS

TOTAL = 6 * 2 * ROUNDS  # 4 bots at tables of 2: 6 pairs, 2 seat orders


def arena(*args: str, cwd: Path, **kwargs) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "arena.cli", *args], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **kwargs)


def run_args(db: Path, bots: list[Path]) -> list[str]:
    args = ["tournament", "run", "--game", "yahtzee", "--table-size", "2", "--rounds", str(ROUNDS), "--workers", "2",
            "--seed", "11", "--keep-alive", "--quiet", "--db", str(db)]
    for bot in bots:
        args += ["--bot", str(bot)]
    return args


def done_count(db: Path) -> int:
    if not db.exists():
        return 0
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
    try:
        return conn.execute("SELECT COUNT(*) FROM matches WHERE status = 'done'").fetchone()[0]
    except sqlite3.OperationalError:  # schema not created yet
        return 0
    finally:
        conn.close()


def wait_for_done(db: Path, process: subprocess.Popen, at_least: int, timeout: float = 90) -> int:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        done = done_count(db)
        if done >= at_least:
            return done
        assert process.poll() is None, f"the run ended early: {process.communicate()}"
        time.sleep(0.05)
    raise AssertionError(f"fewer than {at_least} matches stored in {timeout} s")


def finish(process: subprocess.Popen, timeout: float = 120) -> tuple[int, str, str]:
    out, err = process.communicate(timeout=timeout)
    return process.returncode, out, err


def results(db: Path) -> list[tuple]:
    conn = sqlite3.connect(db)
    rows = conn.execute("SELECT position, status, seed, scores, ranking FROM matches ORDER BY position").fetchall()
    conn.close()
    return rows


def ratings(db: Path) -> list[tuple[str, float, float, int]]:
    from arena.league.ratings import rating_table, update_ratings
    from arena.league.storage import Database

    with Database(db) as database:
        update_ratings(database, "yahtzee", "yahtzee")
        return [(r.bot, r.mu, r.sigma, r.matches) for r in rating_table(database, "yahtzee", "yahtzee")]


@pytest.fixture
def reference(uninterrupted) -> tuple[Path, list[Path]]:
    """An uninterrupted run and its bots: the ratings every interrupted-and-resumed run must reproduce."""
    return uninterrupted


@pytest.mark.slow
def test_kill_9_mid_run_then_resume_gives_the_uninterrupted_ratings(tmp_path, reference, live_processes_in):
    reference_db, bots = reference
    db = tmp_path / "killed.db"
    process = arena(*run_args(db, bots), cwd=tmp_path)
    wait_for_done(db, process, at_least=5)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    stored = done_count(db)
    assert 5 <= stored < TOTAL, "the run finished before it could be killed"

    # The orphaned workers notice their parent is gone and stop their bots.
    deadline = time.monotonic() + 60  # generous: a busy machine stops them slowly
    while live_processes_in(bots[0].parent) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert live_processes_in(bots[0].parent) == []

    code, out, err = finish(arena("tournament", "resume", "1", "--workers", "2", "--quiet", "--db", str(db),
                                  cwd=tmp_path))
    assert code == 0, err
    assert f"{TOTAL} of {TOTAL} matches done" in out
    assert results(db) == results(reference_db)  # every match played once, with the same outcome
    assert ratings(db) == ratings(reference_db)
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT COUNT(*) FROM rating_history").fetchone()[0] == TOTAL * 2
    assert conn.execute("SELECT status FROM tournaments").fetchone()[0] == "finished"
    conn.close()


@pytest.mark.slow
def test_ctrl_c_keeps_finished_matches_and_resume_completes(tmp_path, reference):
    reference_db, bots = reference
    db = tmp_path / "interrupted.db"
    process = arena(*run_args(db, bots), cwd=tmp_path, start_new_session=True)
    wait_for_done(db, process, at_least=3)
    os.killpg(process.pid, signal.SIGINT)  # what a terminal's Ctrl-C sends: the whole process group
    code, out, err = finish(process)
    assert code == 130, err
    assert "stopping: finishing the" in err and "Traceback" not in err
    assert f"resume with `{sys.executable} -m arena.cli tournament resume 1 --db {db}`" in out  # as run
    stored = done_count(db)
    assert 3 <= stored < TOTAL
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT status FROM tournaments").fetchone()[0] == "interrupted"
    conn.close()

    code, out, err = finish(arena("tournament", "resume", "1", "--quiet", "--db", str(db), cwd=tmp_path))
    assert code == 0, err
    assert results(db) == results(reference_db)
    assert ratings(db) == ratings(reference_db)


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2,
                    reason="early starts need a CPU that no worker is pinned to")
def test_kill_9_while_a_worker_starts_its_next_matchs_bots_leaves_no_bot(tmp_path, live_processes_in):
    """One worker and fresh bots: every match's successor has its bots booting on the spare CPU
    while it plays, so a kill -9 of the tournament lands among early starts too."""
    from .helpers import write_bot

    bots = [write_bot(tmp_path / "bots" / f"e{i}", f"early-{i}") for i in range(4)]
    db = tmp_path / "early.db"
    args = ["tournament", "run", "--game", "yahtzee", "--table-size", "2", "--rounds", "4", "--workers", "1",
            "--seed", "5", "--quiet", "--db", str(db)]
    process = arena(*args, *[arg for bot in bots for arg in ("--bot", str(bot))], cwd=tmp_path)
    wait_for_done(db, process, at_least=3)
    assert live_processes_in(bots[0].parent), "no bot was running mid-run"
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert done_count(db) < 6 * 2 * 4, "the run finished before it could be killed"
    deadline = time.monotonic() + 60  # generous: a busy machine stops them slowly
    while live_processes_in(bots[0].parent) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert live_processes_in(bots[0].parent) == []
