"""Web page latency: median and p99 of the leaderboard, the match list and a 200-step replay
on a database of 10,000 matches.  Goal: p99 under 100 ms for each on the project's machine.

The database is built with the storage API as a tournament would fill it: 8 bots, 9,970
two-seat Yahtzee matches plus 30 six-seat ones (whose records have about 200 moves),
every record a real game played through the engine by a seeded random policy (a pool of
distinct games reused across tables), 1% of matches with a timeout fault, ratings updated
at the end.  The server is the real ``arena serve`` in its own process; requests go over
loopback HTTP with keep-alive, one at a time, after a warm-up.

    python benchmarks/web_latency.py [--matches 10000] [--requests 200]
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from arena.league.ratings import update_ratings
from arena.league.storage import Database, ScheduledMatch
from referee.games import make_game
from referee.result import Fault, FaultKind, MatchRecord, Move, MoveStatus

ROOT = Path(__file__).resolve().parent.parent
BOTS = 8
POOL = 60
LONG = 30
"""Six-seat matches of about 200 moves, each replayed once cold (not yet cached) and then warm."""


def play_random(game: str, num_players: int, seed: int) -> tuple[list[tuple[int, int, str]], list[float], list[int]]:
    """A real game under a seeded random policy: ``(moves, scores, ranking)``."""
    rng = random.Random(seed)
    state = make_game(game, num_players=num_players).new_initial_state(seed)
    moves = []
    while not state.is_terminal():
        legal = state.legal_actions()
        index = rng.randrange(len(legal))
        moves.append((state.current_player(), index, str(legal[index])))
        state.apply(legal[index])
    outcome = state.outcome()
    return moves, list(outcome.scores), list(outcome.ranking)


def make_record(match_id: int, seed: int, game: tuple[list[tuple[int, int, str]], list[float], list[int]],
                players: list[str], rng: random.Random, fault: bool) -> MatchRecord:
    moves, scores, ranking = game
    faulted = rng.randrange(len(moves)) if fault else -1
    record_moves = [Move(seat, index, action, MoveStatus.TIMEOUT if k == faulted else MoveStatus.OK,
                         1000.0 if k == faulted else round(rng.uniform(0.3, 3.0), 2), "")
                    for k, (seat, index, action) in enumerate(moves)]
    faults = [Fault(moves[faulted][0], FaultKind.TIMEOUT, "deadline 1.00 s exceeded", faulted)] if fault else []
    return MatchRecord(match_id=str(match_id), game="yahtzee", variant="yahtzee", num_players=len(players),
                       settings={}, seed=seed, players=players, moves=record_moves, faults=faults, scores=scores,
                       ranking=ranking, engine_ranking=ranking, termination="normal", reason="benchmark",
                       duration_s=0.5)


def build(path: Path, matches: int) -> list[tuple[int, int]]:
    """The database (``matches`` in all); returns the long matches' ids and replay steps."""
    rng = random.Random(1)
    pool = [(seed, play_random("yahtzee", 2, seed)) for seed in range(POOL)]
    candidates = sorted(((s, play_random("yahtzee", 6, s)) for s in range(1000, 1000 + 3 * LONG)),
                        key=lambda item: abs(len(item[1][0]) + 1 - 200))
    longs = candidates[:LONG]
    db = Database(path)
    db.conn.execute("PRAGMA synchronous=OFF")  # set-up speed only; the server reads it as a tournament leaves it
    bots = [db.register_bot(name=f"bot-{i}", version="1", files_hash=f"h{i}", author="bench", language="python")
            for i in range(BOTS)]
    schedule = []
    for k in range(matches - LONG):
        a, b = rng.sample(range(BOTS), 2)
        seed, _ = pool[k % POOL]
        schedule.append(ScheduledMatch((bots[a].id, bots[b].id), seed=seed, round=k // 56, deal=k, rotation=0))
    tid = db.create_tournament(name="latency", game="yahtzee", variant="yahtzee", settings={}, format="free_for_all",
                               table_size=2, rounds=1, duplicate=False, seed=0, time_control={}, options={},
                               bot_ids=[b.id for b in bots], matches=schedule)
    labels = {b.id: b.label for b in bots}
    games = dict(pool)
    for row in db.matches(tournament_id=tid):
        players = [labels[b] for b in row.bot_ids]
        db.store_result(row.id, make_record(row.id, row.seed, games[row.seed], players, rng, rng.random() < 0.01))
    six = [bots[i].id for i in range(6)]
    tid6 = db.create_tournament(name="long", game="yahtzee", variant="yahtzee", settings={}, format="free_for_all",
                                table_size=6, rounds=1, duplicate=False, seed=0, time_control={}, options={},
                                bot_ids=six, matches=[ScheduledMatch(tuple(six), seed, 0, k, 0)
                                                      for k, (seed, _) in enumerate(longs)])
    long_ids = []
    for row, (seed, game) in zip(db.matches(tournament_id=tid6), longs):
        db.store_result(row.id, make_record(row.id, seed, game, [labels[b] for b in six], rng, False))
        long_ids.append((row.id, len(game[0]) + 1))
    for t in (tid, tid6):
        db.set_tournament_status(t, "finished")
    update_ratings(db, "yahtzee", "yahtzee")
    db.close()
    return long_ids


@contextlib.contextmanager
def served(path: Path, *, timeout: float) -> Iterator[tuple[int, http.client.HTTPConnection]]:
    """``arena serve`` on ``path`` in a child process: its port and a connection (requests time
    out after ``timeout`` s) once it answers; the benchmark fails if it never does."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "arena.cli", "serve", "--db", str(path), "--port", str(port)],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
                conn.request("GET", "/api/games")
                conn.getresponse().read()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit(f"the server did not start: {server.stdout.read() if server.stdout else ''}")
                time.sleep(0.2)
        try:
            yield port, conn
        finally:
            conn.close()
    finally:
        server.terminate()
        server.wait(10)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def measure(conn: http.client.HTTPConnection, path: str, requests: int) -> tuple[float, float, int]:
    """Median and p99 in ms over ``requests`` sequential GETs (after 5 warm-up ones), and the body size."""
    size = 0
    for _ in range(5):
        conn.request("GET", path)
        response = conn.getresponse()
        size = len(response.read())
        assert response.status == 200, (path, response.status)
    times = []
    for _ in range(requests):
        start = time.perf_counter()
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(round(0.99 * len(times))) - 1)], size


def timed(conn: http.client.HTTPConnection, path: str) -> float:
    start = time.perf_counter()
    conn.request("GET", path)
    response = conn.getresponse()
    response.read()
    assert response.status == 200, (path, response.status)
    return (time.perf_counter() - start) * 1000


def cpu_costs(path: Path, cases: list[tuple[str, str]], longs: list[tuple[int, int]], requests: int) -> None:
    """The same requests through the app in this process, timed in CPU seconds of the process:
    what a request costs, whatever else the machine's cores are busy with."""
    from starlette.testclient import TestClient

    from arena.web import create_app

    print(f"\nCPU time per request in-process (not slowed by other load on the machine):")
    print(f"{'page':40} {'median ms':>10} {'p99 ms':>8}")
    with TestClient(create_app(path)) as client:
        def cost(url: str) -> float:
            start = time.process_time()
            assert client.get(url).status_code == 200
            return (time.process_time() - start) * 1000

        rows = [(name, [cost(url) for _ in range(requests)]) for name, url in cases]
        for view in ("0", "table"):
            label = f"replay ~200 steps, {'seat' if view == '0' else 'table'} view"
            rows.append((label + ", first page", [cost(f"/api/matches/{m}/replay?view={view}&from=0&count=40")
                                                  for m, _ in longs]))
            rows.append((label + ", first view", [cost(f"/api/matches/{m}/replay?view={view}") for m, _ in longs]))
            rows.append((label + ", again", [cost(f"/api/matches/{longs[0][0]}/replay?view={view}")
                                             for _ in range(requests)]))
        for name, times in rows:
            times.sort()
            p99 = times[min(len(times) - 1, int(round(0.99 * len(times))) - 1)]
            print(f"{name:40} {statistics.median(times):10.1f} {p99:8.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="arena-web-bench-") as folder:
        path = Path(folder) / "bench.db"
        start = time.monotonic()
        longs = build(path, args.matches)
        steps = [n for _, n in longs]
        long_id = longs[0][0]
        print(f"database: {args.matches} matches, built in {time.monotonic() - start:.1f} s "
              f"({path.stat().st_size / 1e6:.1f} MB); {len(longs)} six-seat matches of {min(steps)}-{max(steps)} "
              f"replay steps; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
        with served(path, timeout=30) as (port, conn):
            cases = [
                ("leaderboard page", "/games/yahtzee/yahtzee"),
                ("leaderboard API", "/api/games/yahtzee/yahtzee/ratings"),
                ("match list page 1", "/matches"),
                ("match list, bot filter, page 40", "/matches?bot=3&page=40"),
                ("match list, faults filter", "/matches?faults=yes"),
                ("match page (viewer shell)", f"/matches/{long_id}"),
            ]
            print(f"{'page':40} {'median ms':>10} {'p99 ms':>8} {'p99/goal':>9} {'bytes':>9}")
            for name, url in cases:
                median, p99, size = measure(conn, url, args.requests)
                print(f"{name:40} {median:10.1f} {p99:8.1f} {p99 / 100:9.2f} {size:9d}")
            for view in ("0", "table"):
                name = f"replay ~200 steps, {'seat' if view == '0' else 'table'} view"
                # What the viewer asks first: the first page of 40 steps, not cached yet.
                cold = [timed(conn, f"/api/matches/{m}/replay?view={view}&from=0&count=40") for m, _ in longs]
                cold.sort()
                print(f"{name + ', first page':40} {statistics.median(cold):10.1f} {cold[-1]:8.1f} "
                      f"{cold[-1] / 100:9.2f} {'':9}  (p99 = max of {len(cold)}; the viewer shows it at once)")
                cold = [timed(conn, f"/api/matches/{m}/replay?view={view}") for m, _ in longs]
                median, p99, size = measure(conn, f"/api/matches/{long_id}/replay?view={view}", args.requests)
                cold.sort()
                print(f"{name + ', first view':40} {statistics.median(cold):10.1f} {cold[-1]:8.1f} "
                      f"{cold[-1] / 100:9.2f} {size:9d}  (p99 = max of {len(cold)})")
                print(f"{name + ', again':40} {median:10.1f} {p99:8.1f} {p99 / 100:9.2f} {size:9d}")
            print(f"load average now {os.getloadavg()[0]:.1f}")
            cpu_costs(path, cases, longs, args.requests)


if __name__ == "__main__":
    main()
