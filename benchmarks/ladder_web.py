"""What a ladder page and its poll cost, for a short ladder and a long one, while it plays.

    python benchmarks/ladder_web.py [--matches 1000 100000] [--requests 100] [--in-process-only]

For each size it builds a ladder of 10 entrants and that many played two-seat Yahtzee
matches (real games of a seeded random policy, league_scale.py's records) of which the last
600 finished within the last minute (a ladder at 600 matches a minute, issue 29's rate) and
the rest an hour before, rates them, and serves the file with the real ``arena serve`` over
loopback HTTP (unless ``--in-process-only``), then through the app in this process in CPU
time. It prints the median and p99 of:

* the ladder page ``/ladders/{id}`` and its JSON ``/api/ladders/{id}``, nothing changing;
* the poll ``/api/ladders/{id}?since=ID`` while the ladder "plays": before each request this
  process (the single writer, as ``arena ladder run`` is) stores one more duplicate set of two
  matches and extends the ratings, so every poll sees new matches, new totals and a rating
  table to recompute from its cache (what a live page asks every 2 s);
* the ladder list ``/ladders``;
* the ladder's tournament page ``/tournaments/{id}`` and its JSON ``/api/tournaments/{id}``
  while the ladder plays (one more set stored before each request), the JSON checked to count
  every played match in its standings.

Every figure comes from a request that answered 200 with the expected matches.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from league_scale import League, get, make_record, percentile_99, store_all
from web_latency import served

from arena.league.ratings import update_ratings
from arena.league.storage import Database, ScheduledMatch
from arena.runs import ladder_store

ENTRANTS = 10
RECENT = 600
"""Matches that finished within the last minute (the rest an hour before)."""


def build(path: Path, matches: int, league: League) -> tuple[Database, int, list[int]]:
    """The ladder's file: its id and its entrants' bot ids."""
    db = Database(path)
    bots = [db.register_bot(name=f"entrant-{i}", version="1", files_hash=f"h{i}", author="bench", language="python")
            for i in range(ENTRANTS)]
    tid = db.create_tournament(name="bench ladder", game="yahtzee", variant="yahtzee", settings={},
                               format="free_for_all", table_size=2, rounds=0, duplicate=True, seed=0,
                               time_control={}, options={"kind": "ladder", "format": "ladder", "seats": [2, 2]},
                               bot_ids=[], matches=[])
    for bot in bots:
        ladder_store.add_entrant(db, tid, bot.id, None)
    rng = random.Random(3)
    number = 0
    while number * 2 < matches:
        chunk = min(2_500, (matches - number * 2 + 1) // 2)
        sets = [rng.sample(bots, 2) for _ in range(chunk)]
        ids = play_sets(db, tid, league, sets, number, rng)
        if len(ids) != 2 * chunk:
            raise SystemExit("not every result was stored")
        number += chunk
    cutoff = db.conn.execute("SELECT MAX(id) FROM matches").fetchone()[0] - RECENT
    with db.transaction():
        db.conn.execute("UPDATE matches SET finished_at = finished_at - 3600 WHERE id <= ?", (cutoff,))
    restamp(db)
    update_ratings(db, "yahtzee", "yahtzee")
    return db, tid, [b.id for b in bots]


def restamp(db: Database) -> None:
    """The last :data:`RECENT` matches finished over the last minute, evenly, as of now (called
    before each measurement: the build and the earlier ones take longer than a minute)."""
    now = time.time()
    last = db.conn.execute("SELECT MAX(id) FROM matches").fetchone()[0]
    with db.transaction():
        db.conn.execute("UPDATE matches SET finished_at = ? - (? - id) * ? WHERE id > ?",
                        (now, last, 60.0 / RECENT, last - RECENT))
        db.conn.execute("UPDATE ladder_entrants SET last_match_at = (SELECT MAX(m.finished_at) FROM matches m"
                        " JOIN match_seats s ON s.match_id = m.id WHERE s.bot_id = ladder_entrants.bot_id)")


def play_sets(db: Database, tid: int, league: League, sets: list, number: int, rng: random.Random) -> list[int]:
    """Append duplicate sets (both seat orders of one seed) and store their results."""
    pool = league.pools[("yahtzee", 2)]
    tournament = db.tournament(tid)
    scheduled = []
    for k, (a, b) in enumerate(sets):
        seed = pool[(number + k) % len(pool)][0]
        scheduled += [ScheduledMatch((a.id, b.id), seed, number + k, number + k, 0),
                      ScheduledMatch((b.id, a.id), seed, number + k, number + k, 1)]
    ids = ladder_store.append_matches(db, tournament, scheduled)
    games = dict(pool)
    labels = {b.id: b.label for pair in sets for b in pair}
    results = [(match_id, make_record(match_id, "yahtzee", m.seed, games[m.seed], [labels[s] for s in m.seats], rng,
                                      False)) for match_id, m in zip(ids, scheduled)]
    store_all(db, results)
    return ids


def figure(name: str, times: list[float], body: bytes) -> None:
    print(f"{name:52} {statistics.median(times):9.1f} {percentile_99(times):8.1f} {len(body):9d}")


def requests_figures(db: Database, tid: int, league: League, requests: int,
                     fetch: Callable[[str], tuple[float, bytes]]) -> None:
    """The figures, each request made with ``fetch`` (its milliseconds and body)."""
    print(f"{'request':52} {'median ms':>9} {'p99 ms':>8} {'bytes':>9}")
    for name, url in (("ladder page", f"/ladders/{tid}"), ("ladder JSON", f"/api/ladders/{tid}"),
                      ("ladder list", "/ladders")):
        restamp(db)
        for _ in range(3):
            fetch(url)
        runs = [fetch(url) for _ in range(requests)]
        figure(name, [t for t, _ in runs], runs[-1][1])
    bots = [db.bot(e.bot_id) for e in ladder_store.entrants(db, tid)]
    rng = random.Random(4)
    restamp(db)
    since = json.loads(fetch(f"/api/ladders/{tid}")[1])["next_since"]
    times = []
    number = db.conn.execute("SELECT MAX(round) + 1 FROM matches").fetchone()[0]
    for _ in range(requests):
        ids = play_sets(db, tid, league, [rng.sample(bots, 2)], number, rng)
        number += 1
        update_ratings(db, "yahtzee", "yahtzee")
        elapsed, body = fetch(f"/api/ladders/{tid}?since={since}")
        answer = json.loads(body)
        if sorted(m["id"] for m in answer["latest"]) != ids:
            raise SystemExit(f"the poll after {since} missed the new matches {ids}")
        since = answer["next_since"]
        times.append(elapsed)
    figure("poll ?since=ID, a new set stored before each", times, body)
    for name, url in (("tournament page, a new set stored before each", f"/tournaments/{tid}"),
                      ("tournament JSON, a new set stored before each", f"/api/tournaments/{tid}")):
        times = []
        for _ in range(requests):
            play_sets(db, tid, league, [rng.sample(bots, 2)], number, rng)
            number += 1
            elapsed, body = fetch(url)
            times.append(elapsed)
        if url.startswith("/api/"):
            played = db.match_counts(tid)["done"]
            if sum(row["matches"] for row in json.loads(body)["standings"]) != 2 * played:
                raise SystemExit(f"the standings do not count the {played} played matches")
        figure(name, times, body)


def measure(matches: int, requests: int, league: League, folder: Path, *, http: bool = True) -> None:
    path = folder / f"ladder-{matches}.db"
    start = time.perf_counter()
    db, tid, _ = build(path, matches, league)
    print(f"\nladder of {matches:,} played matches (built in {time.perf_counter() - start:.0f} s)")
    if http:
        print("over loopback HTTP (arena serve in a child process):")
        with served(path, timeout=60) as (_, conn):
            requests_figures(db, tid, league, requests, lambda url: get(conn, url))
    print("CPU time of the same requests through the app in this process (not slowed by other load):")
    from starlette.testclient import TestClient

    from arena.web import create_app

    with TestClient(create_app(path)) as client:
        def cost(url: str) -> tuple[float, bytes]:
            begin = time.process_time()
            response = client.get(url)
            elapsed = (time.process_time() - begin) * 1000
            if response.status_code != 200:
                raise SystemExit(f"GET {url} answered {response.status_code}")
            return elapsed, response.content

        requests_figures(db, tid, league, requests, cost)
    db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, nargs="+", default=[1_000, 100_000])
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--in-process-only", action="store_true",
                        help="only the CPU time through the app in this process (no arena serve)")
    args = parser.parse_args()
    league = League()
    with tempfile.TemporaryDirectory() as folder:
        for matches in args.matches:
            measure(matches, args.requests, league, Path(folder), http=not args.in_process_only)


if __name__ == "__main__":
    main()
