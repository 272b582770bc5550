"""A league of N matches on one machine: every figure of issue 29, measured again.

    python benchmarks/league_scale.py --matches 200000 [--requests 50] [--keep league.db]

The league is built through the storage API as tournaments fill it: 40 bots, tournaments
of up to 50,000 matches (90 % two-seat Yahtzee, 5 % four-seat Yahtzee, 5 % Jass: two
teams of two), every record a real game played through the engine by a seeded random
policy (a pool of distinct games reused across tables), 1 % of the matches with a timeout
fault, then the ratings computed as a tournament's last step does.  Then it prints:

* web: median and p99 of the home page, a bot's page, the head-to-head page, a page of
  ``/matches`` half-way down the league (where its "older" links lead), the same filtered by
  bot, the faults filter and a tournament's page, from the real ``arena serve`` over loopback
  HTTP (one request at a time, after warm-up; every response must be a 200), then 1 and 8
  clients at once cycling through them;
* rating every stored match from scratch (``update_ratings(recompute=True)`` for every game,
  what ``tournament delete`` runs) in a child process: wall time, CPU time and peak memory;
* ``arena ratings`` when the stored table is current: the whole command, process start included;
* results committed per second by the single writer (``synchronous=FULL``), on a fresh league
  of 2,000 pending matches, one result per transaction and batches of 50 and 500, each record
  encoded beforehand as a tournament's workers encode it;
* database bytes per two-seat Yahtzee match, from a league of only those.

Every figure comes from something that happened: a failed request, a missing rating or a
result not stored ends the benchmark with an error.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from web_latency import play_random, served

from arena.league.ratings import update_ratings
from arena.league.storage import Database, ScheduledMatch, encode_record
from referee.games import game_class
from referee.result import Fault, FaultKind, MatchRecord, Move, MoveStatus

ROOT = Path(__file__).resolve().parent.parent
BOTS = 40
TOURNAMENT = 50_000
"""Matches per tournament (the last one takes the rest)."""
KINDS = (("yahtzee", 2, 0.90), ("yahtzee", 4, 0.05), ("jass", 4, 0.05))
"""(game, seats, share of the league)."""
POOL = {2: 200, 4: 50}
BATCH = 500
"""Results handed to the writer at once while building."""

Game = tuple[list[tuple[int, int, str]], list[float], list[int]]


def make_record(match_id: int, game: str, seed: int, played: Game, players: list[str], rng: random.Random,
                fault: bool) -> MatchRecord:
    moves, scores, ranking = played
    faulted = rng.randrange(len(moves)) if fault else -1
    record_moves = [Move(seat, index, action, MoveStatus.TIMEOUT if k == faulted else MoveStatus.OK,
                         1000.0 if k == faulted else round(rng.uniform(0.3, 3.0), 2), "")
                    for k, (seat, index, action) in enumerate(moves)]
    faults = [Fault(moves[faulted][0], FaultKind.TIMEOUT, "deadline 1.00 s exceeded", faulted)] if fault else []
    return MatchRecord(match_id=str(match_id), game=game, variant=game_class(game).variants[0],
                       num_players=len(players), settings={}, seed=seed, players=players, moves=record_moves,
                       faults=faults, scores=scores, ranking=ranking, engine_ranking=ranking, termination="normal",
                       reason="benchmark", duration_s=0.5)


def store_all(db: Database, results: list[tuple[int, MatchRecord]] | list[tuple[int, MatchRecord, bytes]]) -> int:
    """Hand ``results`` to the writer in one batch (one transaction); how many it stored."""
    return sum(outcome is True for outcome in db.store_results(results))


class League:
    """Builds leagues: the bots once, pools of played games once per kind."""

    def __init__(self) -> None:
        self.pools = {(game, seats): [(seed, play_random(game, seats, seed)) for seed in range(POOL[seats])]
                      for game, seats, _ in KINDS}

    def build(self, path: Path, matches: int, kinds: tuple[tuple[str, int, float], ...] = KINDS,
              *, play: bool = True) -> tuple[Database, list[int]]:
        """The league in ``path``; returns the open database and the ids of the matches left pending
        (all of them without ``play``)."""
        rng = random.Random(1)
        db = Database(path)
        bots = [db.register_bot(name=f"bot-{i}", version="1", files_hash=f"h{i}", author="bench", language="python")
                for i in range(BOTS)]
        labels = {b.id: b.label for b in bots}
        pending: list[int] = []
        left = matches
        while left:
            size = min(TOURNAMENT, left)
            left -= size
            for game, seats, share in kinds:
                count = max(1, round(size * share)) if share < 1 else size
                pool = self.pools[(game, seats)]
                schedule = [ScheduledMatch(tuple(bots[i].id for i in rng.sample(range(BOTS), seats)),
                                           seed=pool[k % len(pool)][0], round=k // 20, deal=k, rotation=0)
                            for k in range(count)]
                tid = db.create_tournament(
                    name=f"{game}-{seats}", game=game, variant=game_class(game).variants[0], settings={},
                    format="free_for_all", table_size=seats, rounds=1, duplicate=False, seed=0, time_control={},
                    options={}, bot_ids=[b.id for b in bots], matches=schedule)
                ids = [row.id for row in db.unfinished_matches(tid)]
                if not play:
                    pending += ids
                    continue
                games = dict(pool)
                rows = db.unfinished_matches(tid)
                for start in range(0, len(rows), BATCH):
                    batch = [(row.id, make_record(row.id, game, row.seed, games[row.seed],
                                                  [labels[b] for b in row.bot_ids], rng, rng.random() < 0.01))
                             for row in rows[start:start + BATCH]]
                    if store_all(db, batch) != len(batch):
                        raise SystemExit(f"tournament {tid}: not every result was stored")
                db.set_tournament_status(tid, "finished")
        return db, pending

    def records_for(self, db: Database, ids: list[int]) -> Iterator[tuple[int, MatchRecord]]:
        rng = random.Random(2)
        labels = {b.id: b.label for b in db.bots()}
        for match_id in ids:
            row = db.match(match_id)
            games = dict(self.pools[(row.game, row.num_players)])
            yield match_id, make_record(match_id, row.game, row.seed, games[row.seed],
                                        [labels[b] for b in row.bot_ids], rng, False)


def percentile_99(times: list[float]) -> float:
    times = sorted(times)
    return times[min(len(times) - 1, int(round(0.99 * len(times))) - 1)]


def get(conn: http.client.HTTPConnection, path: str) -> tuple[float, bytes]:
    start = time.perf_counter()
    conn.request("GET", path)
    response = conn.getresponse()
    body = response.read()
    elapsed = (time.perf_counter() - start) * 1000
    if response.status != 200:
        raise SystemExit(f"GET {path} answered {response.status}: {body[:300]!r}")
    return elapsed, body


def concurrent_figure(port: int, urls: list[str], clients: int, seconds: float) -> None:
    """``clients`` threads, each with its own keep-alive connection, cycling through ``urls``."""
    import threading

    times: list[float] = []
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def client(offset: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        k = offset
        while time.monotonic() < stop:
            elapsed, _ = get(conn, urls[k % len(urls)])
            k += 1
            with lock:
                times.append(elapsed)
        conn.close()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - start
    print(f"{clients} clients at once, {len(urls)} pages in turn: {len(times) / wall:.0f} requests/s, "
          f"median {statistics.median(times):.0f} ms, p99 {percentile_99(times):.0f} ms")


def web_figures(path: Path, cases: list[tuple[str, str]], requests: int) -> None:
    with served(path, timeout=600) as (port, conn):
        print(f"{'web page':44} {'median ms':>10} {'p99 ms':>9} {'bytes':>9}")
        for name, url in cases:
            first, body = get(conn, url)
            for _ in range(2):
                get(conn, url)
            times = [get(conn, url)[0] for _ in range(requests)]
            print(f"{name:44} {statistics.median(times):10.1f} {percentile_99(times):9.1f} {len(body):9d}"
                  f"   (first request {first:.0f} ms)")
        for clients in (1, 8):
            concurrent_figure(port, [url for _, url in cases], clients, 10.0)


CHILD_RECOMPUTE = """
import json, resource, sys, time
from arena.league.ratings import update_ratings
from arena.league.storage import Database
db = Database(sys.argv[1])
start = time.perf_counter()
rated = sum(update_ratings(db, game, variant, recompute=True) for game, variant in db.game_variants())
elapsed = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"rated": rated, "seconds": elapsed, "cpu": usage.ru_utime + usage.ru_stime,
                  "peak_mb": usage.ru_maxrss / 1024}))
"""


def rating_figures(path: Path, matches: int) -> None:
    out = subprocess.run([sys.executable, "-c", CHILD_RECOMPUTE, str(path)], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    result = json.loads(out.strip().splitlines()[-1])
    if result["rated"] != matches:
        raise SystemExit(f"the recompute rated {result['rated']} matches, not {matches}")
    print(f"rating every stored match from scratch: {result['seconds']:.1f} s ({result['cpu']:.1f} s of CPU, "
          f"start-up included), peak memory of the process {result['peak_mb']:.0f} MB ({result['rated']} matches)")
    times = []
    for _ in range(3):
        start = time.perf_counter()
        table = subprocess.run([sys.executable, "-m", "arena.cli", "ratings", "--game", "yahtzee", "--format", "json",
                                "--db", str(path)], cwd=ROOT, capture_output=True, text=True, check=True).stdout
        times.append(time.perf_counter() - start)
        if len(json.loads(table)) != BOTS:
            raise SystemExit("arena ratings did not list every bot")
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "arena.cli", "--help"], cwd=ROOT, capture_output=True, check=True)
    bare = time.perf_counter() - start
    print(f"arena ratings, table current: {statistics.median(times):.2f} s median of 3 "
          f"(arena --help alone: {bare:.2f} s)")


def writer_figure(league: League, folder: Path, count: int, batch: int) -> None:
    path = folder / f"writer-{batch}.db"
    db, pending = league.build(path, count, (("yahtzee", 2, 1.0),), play=False)
    # encoded as a tournament's workers encode them (arena.executors.play_job): the writer only stores
    records = [(match_id, record, encode_record(record, result_in_row=True))
               for match_id, record in league.records_for(db, pending)]
    start, cpu = time.perf_counter(), time.process_time()
    for begin in range(0, len(records), batch):
        if store_all(db, records[begin:begin + batch]) != len(records[begin:begin + batch]):
            raise SystemExit("the writer did not store every result")
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    if db.count_matches(status="done") != count:
        raise SystemExit("the writer's results are not all done")
    db.close()
    print(f"single writer (synchronous=FULL): {count / elapsed:.0f} results committed per second "
          f"({count} two-seat Yahtzee results, {batch} per transaction; {cpu / count * 1000:.2f} ms of the "
          f"writer's CPU per result)")


def size_figure(league: League, folder: Path, count: int) -> None:
    path = folder / "size.db"
    db, _ = league.build(path, count, (("yahtzee", 2, 1.0),))
    update_ratings(db, "yahtzee", "yahtzee")
    db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.conn.execute("VACUUM")
    db.close()
    print(f"database bytes per two-seat Yahtzee match: {path.stat().st_size / count:.0f} "
          f"({count} matches, ratings included, after VACUUM)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20_000)
    parser.add_argument("--requests", type=int, default=50, help="timed requests per web page")
    parser.add_argument("--writer-matches", type=int, default=2_000)
    parser.add_argument("--size-matches", type=int, default=10_000)
    parser.add_argument("--keep", type=Path, default=None, help="build the league here and keep it")
    parser.add_argument("--reuse", action="store_true", help="measure the league already at --keep")
    parser.add_argument("--writer-only", action="store_true", help="only the writer and size figures")
    parser.add_argument("--web-only", action="store_true", help="only the web figures (with --reuse)")
    parser.add_argument("--ratings-only", action="store_true",
                        help="only the rating figures (with --reuse; the recompute rewrites the file's ratings)")
    args = parser.parse_args()
    league = League()
    with tempfile.TemporaryDirectory(prefix="arena-league-") as scratch:
        folder = Path(scratch)
        path = args.keep or folder / "league.db"
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
        if args.writer_only:
            for batch in (1, 50, BATCH):
                writer_figure(league, folder, args.writer_matches, batch)
            size_figure(league, folder, args.size_matches)
            return
        if not args.reuse:
            if path.exists():
                raise SystemExit(f"{path} exists; remove it or give --reuse")
            start = time.perf_counter()
            db, _ = league.build(path, args.matches)
            built = time.perf_counter() - start
            start = time.perf_counter()
            for game, variant in db.game_variants():
                update_ratings(db, game, variant)
            db.close()
            print(f"league of {args.matches} matches built in {built:.0f} s, rated in "
                  f"{time.perf_counter() - start:.0f} s ({path.stat().st_size / 1e6:.0f} MB)")
        db = Database(path, readonly=True)
        total = db.count_matches(status="done")
        if total != args.matches:
            raise SystemExit(f"the league has {total} played matches, not {args.matches}")
        if args.ratings_only:
            db.close()
            rating_figures(path, total)
            return
        bot = db.bots()[0].id
        # half-way down the newest-first list, where the "older" links lead (keyset paging)
        half = db.conn.execute("SELECT id FROM matches ORDER BY id DESC LIMIT 1 OFFSET ?", (total // 2,)).fetchone()[0]
        db.close()
        web_figures(path, [("home page /", "/"), (f"a bot's page /bots/{bot}", f"/bots/{bot}"),
                           ("head-to-head page", "/games/yahtzee/yahtzee/h2h"),
                           (f"/matches?before={half} (half-way down)", f"/matches?before={half}"),
                           (f"/matches?bot={bot}&before={half}", f"/matches?bot={bot}&before={half}"),
                           ("/matches?faults=yes", "/matches?faults=yes"),
                           ("a tournament's page /tournaments/1", "/tournaments/1")], args.requests)
        if args.web_only:
            return
        rating_figures(path, total)
        for batch in (1, 50, BATCH):
            writer_figure(league, folder, args.writer_matches, batch)
        size_figure(league, folder, args.size_matches)
        print(f"load average now {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
