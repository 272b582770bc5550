"""The Dask executor against a real cluster on loopback: a scheduler, worker processes, real bots.

Faults: a worker killed with SIGKILL mid-tournament, the tournament process killed and resumed
against the same cluster, Ctrl-C, a bot that cannot start on a worker, and a result that
arrives twice.  Every tournament is compared with an uninterrupted local run of the same
seeds: the Python random bot is deterministic given its observation, so the results and the
ratings must be equal.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from distributed import Client

from arena.executors import MatchJob, play_job
from arena.executors.dask import connect, executor_factory
from arena.executors.keeper import BotKeeper
from arena.league.storage import Database
from arena.runs.loop import RunSummary, store_batch
from arena.runs.tournament import TournamentSpec, create_tournament, expand_bots, run_tournament
from referee.bots import bot_files_hash, resolve_bot
from referee.match import MatchConfig, TimeControl
from referee.result import FaultKind
from referee.sandbox import SandboxConfig, SandboxMode

from .helpers import random_bots as make_bots
from .helpers import resume_tournament as create
from .helpers import write_bot
from .test_crash_resume import TOTAL, arena, done_count, finish, ratings, results, run_args, wait_for_done

HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A scheduler and two worker processes, for the whole module; yields the scheduler address."""
    process = subprocess.Popen([sys.executable, str(HERE / "dask_cluster.py"), "2"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
    try:
        address = process.stdout.readline().strip()
        assert address.startswith("tcp://127.0.0.1:"), address
        yield address
    finally:
        process.stdin.close()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture
def reference(uninterrupted) -> Path:
    """An uninterrupted local run: what every Dask run must reproduce."""
    return uninterrupted[0]


def attempts(db_path: Path) -> list[int]:
    conn = sqlite3.connect(db_path)
    try:
        return [row[0] for row in conn.execute("SELECT attempts FROM matches ORDER BY id")]
    finally:
        conn.close()


def rated_matches(db_path: Path) -> int:
    conn = sqlite3.connect(db_path)
    try:
        return conn.execute("SELECT COUNT(DISTINCT match_id) FROM rating_history").fetchone()[0]
    finally:
        conn.close()


def wait_until_gone(folder: Path, live_processes_in, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while live_processes_in(folder) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert live_processes_in(folder) == []


@pytest.mark.slow
def test_sigkill_of_a_worker_mid_tournament_loses_and_doubles_nothing(tmp_path, cluster, reference,
                                                                      live_processes_in) -> None:
    db, tid = create(tmp_path / "dask.db", make_bots(tmp_path / "bots"))
    killed: list[tuple[int, list[str]]] = []
    client = Client(cluster)

    def kill_a_busy_worker() -> None:
        while done_count(tmp_path / "dask.db") < 5:
            time.sleep(0.02)
        while not killed:
            busy = {worker: keys for worker, keys in client.processing().items() if keys}
            if busy:
                worker, keys = next(iter(busy.items()))
                pid = client.run(os.getpid, workers=[worker])[worker]
                os.kill(pid, signal.SIGKILL)
                killed.append((pid, list(keys)))
            time.sleep(0.01)

    killer = threading.Thread(target=kill_a_busy_worker, daemon=True)
    killer.start()
    try:
        with db:
            summary = run_tournament(db, tid, workers=2, executor_factory=executor_factory(cluster))
    finally:
        killer.join(5)
        client.close()
    assert killed and any(key.startswith("arena-match-") for key in killed[0][1]), "no match was running"
    assert summary.played == TOTAL
    summary.require_real()
    assert results(tmp_path / "dask.db") == results(reference)
    assert attempts(tmp_path / "dask.db") == [1] * TOTAL  # each stored once
    assert rated_matches(tmp_path / "dask.db") == TOTAL
    assert ratings(tmp_path / "dask.db") == ratings(reference)
    wait_until_gone(tmp_path / "bots", live_processes_in)  # the dead worker's bots died with it


@pytest.mark.slow
def test_kill_the_tournament_process_then_resume_on_the_same_cluster(tmp_path, cluster, reference,
                                                                     live_processes_in) -> None:
    bots = make_bots(tmp_path / "bots")
    db = tmp_path / "killed.db"
    process = arena(*run_args(db, bots), "--executor", "dask", "--scheduler", cluster, cwd=tmp_path)
    wait_for_done(db, process, at_least=5)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert 5 <= done_count(db) < TOTAL, "the run finished before it could be killed"

    code, out, err = finish(arena("tournament", "resume", "1", "--executor", "dask", "--scheduler", cluster,
                                  "--quiet", "--db", str(db), cwd=tmp_path))
    assert code == 0, err
    assert f"matches run on Dask scheduler {cluster}: 2 worker(s), 2 at once" in out
    assert f"{TOTAL} of {TOTAL} matches done" in out
    assert results(db) == results(reference)
    assert attempts(db) == [1] * TOTAL
    assert rated_matches(db) == TOTAL
    assert ratings(db) == ratings(reference)
    # The killed run's kept-alive bots are stopped by the workers once idle.
    wait_until_gone(tmp_path / "bots", live_processes_in)


@pytest.mark.slow
def test_ctrl_c_on_a_local_dask_cluster_then_resume(tmp_path, cluster, reference) -> None:
    bots = make_bots(tmp_path / "bots")
    db = tmp_path / "interrupted.db"
    process = arena(*run_args(db, bots), "--executor", "dask", cwd=tmp_path, start_new_session=True)
    wait_for_done(db, process, at_least=3)
    os.killpg(process.pid, signal.SIGINT)  # a terminal's Ctrl-C: the run loop and the cluster's workers
    code, out, err = finish(process)
    assert code == 130, err
    assert "matches run on a local Dask cluster: 2 worker(s), 2 at once" in out
    assert "stopping: finishing the" in err and "Traceback" not in err
    assert f"resume with `{sys.executable} -m arena.cli tournament resume 1 --db {db}`" in out  # as run
    assert 3 <= done_count(db) < TOTAL

    code, out, err = finish(arena("tournament", "resume", "1", "--executor", "dask", "--scheduler", cluster,
                                  "--quiet", "--db", str(db), cwd=tmp_path))
    assert code == 0, err
    assert results(db) == results(reference)
    assert ratings(db) == ratings(reference)


def test_a_bot_that_cannot_start_on_a_worker_forfeits_as_locally(tmp_path, cluster) -> None:
    good = write_bot(tmp_path / "good", "good")
    broken = write_bot(tmp_path / "broken", "broken")
    (broken / "bot.toml").write_text('name = "broken"\ncommand = ["./no-such-program"]\n', encoding="utf-8")
    specs, _ = expand_bots([str(good), str(broken)], "yahtzee")
    outcomes = {}
    for kind, factory in (("local", None), ("dask", executor_factory(cluster))):
        with Database(tmp_path / f"{kind}.db") as db:
            tid = create_tournament(db, TournamentSpec(game="yahtzee", bots=tuple(specs), seed=3,
                                                       sandbox=SandboxConfig(SandboxMode.NONE)))
            summary = run_tournament(db, tid, workers=2, executor_factory=factory)
            assert summary.played == 2 and summary.failed == 0, summary.errors
            records = [db.match_record(match.id) for match in db.matches(tournament_id=tid)]
        outcomes[kind] = [(r.players, r.forfeited, r.ranking, [(f.seat, f.kind, f.detail) for f in r.faults])
                          for r in records]
    assert outcomes["dask"] == outcomes["local"]
    for players, forfeited, ranking, faults in outcomes["dask"]:
        seat = players.index("broken")
        assert forfeited == [seat] and ranking[seat] == 1
        assert [(s, kind) for s, kind, _ in faults] == [(seat, FaultKind.STARTUP)]
        assert "no-such-program" in faults[0][2]


def test_a_result_that_arrives_twice_is_stored_once(tmp_path, cluster) -> None:
    bots = [resolve_bot(str(write_bot(tmp_path / f"b{i}", f"bot-{i}"))) for i in range(2)]
    with Database(tmp_path / "twice.db") as db:
        tid = create_tournament(db, TournamentSpec(game="yahtzee", bots=tuple(bots), seed=5))
        match = db.unfinished_matches(tid)[0]
        config = MatchConfig(game="yahtzee", seed=match.seed, match_id=str(match.id), time_control=TimeControl())
        job = MatchJob(match.id, config, (bots[0], bots[1]), tuple(bot_files_hash(b) for b in bots))
        other = MatchJob(match.id, MatchConfig(game="yahtzee", seed=match.seed + 1, match_id=str(match.id)),
                         job.bots, job.files_hashes, attempt=2)
        executor = connect(cluster)
        try:
            for each in (job, job, other):  # a retry of the same job, then a stale, different one
                executor.submit(each)
            arrived = []
            deadline = time.monotonic() + 30
            while len(arrived) < 3 and time.monotonic() < deadline:
                arrived += executor.poll(0.5)
        finally:
            executor.close()
        assert [r.error for r in arrived] == [None] * 3
        summary = RunSummary(tid, total=2, done_before=0)
        first, *later = sorted(arrived, key=lambda r: r.record.seed)
        store_batch(db, [first], summary)
        stored = db.match_record(match.id).to_json()
        store_batch(db, later, summary)  # both late copies in one batch
        assert summary.played == 1 and summary.failed == 0
        assert db.match_record(match.id).to_json() == stored
        assert db.match(match.id).attempts == 1


def test_the_worker_checks_the_bot_files_before_starting_it(tmp_path) -> None:
    bots = [resolve_bot(str(write_bot(tmp_path / f"b{i}", f"bot-{i}"))) for i in range(2)]
    hashes = tuple(bot_files_hash(b) for b in bots)
    (tmp_path / "b1" / "bot.py").write_text("# not the registered bot\n", encoding="utf-8")
    job = MatchJob(1, MatchConfig(game="yahtzee", seed=1, sandbox=SandboxConfig(SandboxMode.NONE)),
                   tuple(bots), hashes)
    result = play_job(job, BotKeeper(keep_alive=False))
    assert result.error is None and result.record is not None
    assert result.record.forfeited == [1]
    [fault] = result.record.faults
    assert fault.seat == 1 and fault.kind is FaultKind.STARTUP
    assert "differ from the registered ones" in fault.detail and "every worker must see the same" in fault.detail


def test_without_the_distributed_extra_dask_is_a_one_line_error(tmp_path) -> None:
    # A Python where `import distributed` fails, as it does without the extra.
    (tmp_path / "shadow").mkdir()
    (tmp_path / "shadow" / "distributed.py").write_text("raise ImportError('No module named distributed')\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path / "shadow"))
    process = arena("tournament", "run", "--game", "yahtzee", "--bot", "a:1", "--bot", "b:2", "--executor", "dask",
                    "--db", str(tmp_path / "x.db"), cwd=tmp_path, env=env)
    code, out, err = finish(process)
    assert code == 1
    assert err.strip().splitlines() == ["Error: --executor dask needs Dask distributed: "
                                        "pip install 'arena[distributed]'"]
    assert not (tmp_path / "x.db").exists()


def test_the_worker_resolves_the_requested_sandbox_itself(tmp_path) -> None:
    from arena.executors.dask import play_task

    bots = [resolve_bot(str(write_bot(tmp_path / f"b{i}", f"bot-{i}"))) for i in range(2)]
    # As the tournament process resolved it, and as the tournament asked for it.
    config = MatchConfig(game="yahtzee", seed=2, sandbox=SandboxConfig(SandboxMode.LIMITS))
    job = MatchJob(1, config, tuple(bots), tuple(bot_files_hash(b) for b in bots),
                   requested_sandbox=SandboxConfig(SandboxMode.NONE))
    result = play_task(job, False, "sandbox-test")
    assert result.error is None and result.record is not None and result.record.forfeited == []
    assert result.record.sandbox["mode"] == "none"


@pytest.mark.slow
def test_a_local_dask_cluster_leaves_nothing_in_the_temporary_directory(tmp_path, private_tmp) -> None:
    """Dask's workers keep their scratch space (``dask-scratch-space`` and its lock files) in
    the temporary directory unless told otherwise; a run's own cluster must take it away."""
    bots = make_bots(tmp_path / "bots")
    process = arena(*run_args(tmp_path / "t.db", bots), "--executor", "dask", cwd=tmp_path,
                    env=dict(os.environ, TMPDIR=str(private_tmp)))
    code, out, err = finish(process)
    assert code == 0, err
    assert "matches run on a local Dask cluster: 2 worker(s)" in out
    assert done_count(tmp_path / "t.db") == TOTAL
    assert sorted(os.listdir(private_tmp)) == []
