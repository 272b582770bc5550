"""The Dask executor against the local one, and the ceiling of the single database writer.

1. Matches per minute, local executor with 2 workers against Dask with 2 workers (a
   LocalCluster of 2 processes, one thread each, as ``--executor dask --workers 2`` starts),
   on the same tournament: 6 Yahtzee sample bots (three random, three heuristic, each a copy
   in its own folder so the sandbox lets it read its files), real bot processes over gRPC, a
   fresh SQLite file each.  Runs alternate (local, dask, local, ...)
   so that the load of a shared machine hurts both alike.  Wall clock includes starting the
   workers or the cluster; the cluster's start-up is also shown on its own.  Any match with a
   start-up forfeit fails the benchmark (``RunSummary.require_real``): matches must be real.
2. Dask's own cost per task: trivial tasks through the same submit / as_completed loop with a
   bounded number in flight (tasks per second).
3. The writer's ceiling: results committed per second by ``store_batch`` (the run loop's commit:
   ``Database.store_result``, one transaction each, ``synchronous=FULL``), with records that
   are all ready at once (copies of a real Yahtzee record), and the database bytes per match.

    python benchmarks/dask_vs_local.py --rounds 5 --repeats 2 --writer-matches 2000
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import tempfile
import time
from pathlib import Path

from distributed import as_completed

from arena.executors import JobResult
from arena.executors.dask import executor_factory, start_local
from arena.league.storage import Database, ScheduledMatch
from arena.runs.loop import RunSummary, store_batch
from arena.runs.tournament import TournamentSpec, create_tournament, expand_bots, run_tournament
from referee.result import MatchRecord

from bench_bots import write_bots  # noqa: E402 - benchmarks/ is on the path when run as a script


def play(kind: str, rounds: int, keep_alive: bool, folder: Path) -> dict[str, float]:
    """One tournament on ``kind`` ("local" or "dask") with 2 workers; its figures."""
    run = folder / f"{kind}-{time.monotonic_ns()}"
    specs, _ = expand_bots(write_bots(run / "bots"), "yahtzee")
    started: list[float] = []

    def dask_factory(workers: int, keep: bool):  # noqa: ANN202 - times the cluster's start-up
        begin = time.monotonic()
        executor = executor_factory(None)(workers, keep)
        started.append(time.monotonic() - begin)
        return executor

    with Database(run / "speed.db") as db:
        tid = create_tournament(db, TournamentSpec(game="yahtzee", bots=tuple(specs), rounds=rounds, seed=4,
                                                   keep_alive=keep_alive))
        begin = time.monotonic()
        summary = run_tournament(db, tid, workers=2, executor_factory=dask_factory if kind == "dask" else None)
        wall = time.monotonic() - begin
        summary.require_real()  # raises for a failed match or any seat that forfeited at start-up
    return {"kind": kind, "matches": summary.played, "wall_s": wall, "per_minute": 60 * summary.played / wall,
            "cluster_start_s": started[0] if started else 0.0}


def task_rate(tasks: int, in_flight: int) -> float:
    """Trivial tasks per second through submit / as_completed on a 2-process LocalCluster."""
    executor = start_local(2)
    try:
        client = executor.client
        completed = as_completed(loop=client.loop)
        submitted = done = 0
        begin = time.monotonic()
        while done < tasks:
            while submitted < tasks and submitted - done < in_flight:
                completed.add(client.submit(abs, -submitted, pure=False))
                submitted += 1
            for future in completed.next_batch(block=True):
                future.result()
                done += 1
        return tasks / (time.monotonic() - begin)
    finally:
        executor.close()


def writer_ceiling(matches: int, record: MatchRecord, folder: Path) -> dict[str, float]:
    """Commit ``matches`` ready results one transaction each, as the run loop does."""
    path = folder / "writer.db"
    with Database(path) as db:
        n = record.num_players
        bots = [db.register_bot(name=f"bot{i}", version="1", files_hash=f"h{i}").id for i in range(n)]
        tid = db.create_tournament(
            name="writer", game=record.game, variant=record.variant, settings={}, format="free_for_all",
            table_size=n, rounds=1, duplicate=False, seed=0, time_control={}, options={}, bot_ids=bots,
            matches=[ScheduledMatch(tuple(bots[(k + i) % n] for i in range(n)), seed=k, round=0, deal=k, rotation=0)
                     for k in range(matches)])
        ids = [m.id for m in db.unfinished_matches(tid)]
        results = [JobResult(match_id, dataclasses.replace(record, match_id=str(match_id))) for match_id in ids]
        summary = RunSummary(tid, total=matches, done_before=0)
        begin = time.monotonic()
        for result in results:
            store_batch(db, result, summary)
        elapsed = time.monotonic() - begin
        assert summary.played == matches and summary.failed == 0, summary.errors[:3]
    size = path.stat().st_size + sum(p.stat().st_size for p in folder.glob("writer.db-*"))
    return {"per_second": matches / elapsed, "bytes_per_match": size / matches, "moves": len(record.moves),
            "players": n}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds per tournament (6 matches each)")
    parser.add_argument("--repeats", type=int, default=2, help="tournaments per executor, alternating")
    parser.add_argument("--keep-alive", action="store_true", help="keep bots alive per worker")
    parser.add_argument("--tasks", type=int, default=2000, help="trivial tasks for the Dask cost per task")
    parser.add_argument("--writer-matches", type=int, default=2000, help="synthetic results for the writer")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    options = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(prefix="arena-dask-") as name:
        folder = Path(name)
        for _ in range(options.repeats):
            for kind in ("local", "dask"):
                row = play(kind, options.rounds, options.keep_alive, folder)
                rows.append(row)
                extra = f" (cluster start-up {row['cluster_start_s']:.1f} s)" if kind == "dask" else ""
                print(f"{kind:5s} 2 workers, keep-alive {'on' if options.keep_alive else 'off'}: {row['matches']} "
                      f"matches in {row['wall_s']:.1f} s = {row['per_minute']:.1f}/min{extra}", flush=True)
        local = statistics.mean(r["per_minute"] for r in rows if r["kind"] == "local")
        dask = statistics.mean(r["per_minute"] for r in rows if r["kind"] == "dask")
        print(f"dask / local = {dask / local:.2f} (mean {dask:.1f}/min against {local:.1f}/min; goal 0.90 or better)")

        rate = task_rate(options.tasks, in_flight=16)
        print(f"dask cost per task: {options.tasks} trivial tasks at {rate:.0f}/s ({1000 / rate:.2f} ms each, "
              f"16 in flight, 2 workers)", flush=True)

        with Database(next(folder.glob("local-*/speed.db"))) as db:
            sample = db.match_record(db.matches(limit=1)[0].id)
        assert sample is not None
        writer = writer_ceiling(options.writer_matches, sample, folder)
        print(f"writer: {options.writer_matches} results committed at {writer['per_second']:.0f}/s "
              f"({writer['players']}-player records of {writer['moves']} moves, {writer['bytes_per_match'] / 1024:.1f} KiB of database per "
              f"match)")
    if options.json:
        options.json.write_text(json.dumps({"runs": rows, "dask_over_local": dask / local, "tasks_per_s": rate,
                                            "writer": writer}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
