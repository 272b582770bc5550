"""Soak a live ladder (issue 26): 8 entrants playing for a long stretch, on local workers, then on Dask.

    .venv/bin/python benchmarks/ladder_soak.py [--minutes 30] [--phases local,dask] [--keep FOLDER]

Not part of CI: it runs for ``--minutes`` per phase.  The ladder is Yahtzee at tables of 2
(a match takes well under a second) between 8 entrants made from the Python sample bots:
two copies of ``yahtzee_heuristic`` and six of ``random_bot``, each under a name of its own
(there are only two distinct Yahtzee strategies among the sample bots that need no
tables built first), sandboxed as ``mode = "auto"`` chooses.

Each phase runs the real ``arena ladder run`` as a child process (in a session of its own,
``TMPDIR`` a fresh folder so that whatever it leaves there can be counted), on one database
that the second phase carries on, with the real ``arena serve`` on the same file.  Every
``--interval`` seconds it samples, over the ladder's process tree (the ladder, its workers,
the bots and their sandboxes, found through ``/proc``): the summed resident memory, each
process's open file descriptors, the number of processes; the entries in ``TMPDIR``; the
matches stored.  A thread meanwhile times GETs of the game's leaderboard page, its ratings
API and the ladder's page ``/ladders/{id}`` at a steady ``--rate``.

At the end of a phase: SIGTERM to the ladder process alone (its workers and bots must go
with it), then the checks (docs/ladder.md, "Soak"), each printed PASS or FAIL, among them each
page's p99 under 100 ms; the exit status is 1 if any failed.  The processes whose memory grew
most are printed too, to say where a growth comes from.
"""

from __future__ import annotations

import argparse
import http.client
import os
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from league_scale import percentile_99
from web_latency import served

from arena.league.ratings import plan_ratings
from arena.league.storage import Database
from arena.resources import random_bot_copies, renamed_copies, sample_bots_dir

ROOT = Path(__file__).resolve().parent.parent
GAME = "yahtzee"
WEB_GOAL_MS = 100.0
MEMORY_GROWTH = 0.10
"""Memory is flat if the last quarter's mean RSS is at most this much above the first quarter's."""
FD_SLACK = 5
"""A long-lived process may hold this many more descriptors in the last quarter than in the first."""
WARMUP_S = 60.0
"""Samples before this (or a quarter of a shorter phase) are left out of the quarters: the
keep-alive pools fill with bots (a Dask cluster starts) in the first tens of seconds."""
PAGE = os.sysconf("SC_PAGE_SIZE")


# --- the ladder ----------------------------------------------------------------------------------
def make_bots(folder: Path) -> list[Path]:
    """The 8 entrants: the heuristic twice and the random bot six times, each a copy under its own name."""
    heuristic = renamed_copies(sample_bots_dir() / "python" / "yahtzee_heuristic", folder,
                               ["yahtzee-heuristic", "yahtzee-heuristic-2"])
    return heuristic + random_bot_copies(folder, 6)


def write_config(folder: Path, bots: Sequence[Path], executor: str, workers: int) -> Path:
    config = folder / f"ladder-{executor}.toml"
    entries = ", ".join(f'"{bot}"' for bot in bots)
    config.write_text(f'db = "ladder.db"\nworkers = {workers}\nexecutor = "{executor}"\nstop_grace = 5\n'
                      f'[sandbox]\nmode = "auto"\n[[ladder]]\nname = "soak"\ngame = "{GAME}"\nseats = 2\n'
                      f'seed = 26\nbots = [{entries}]\n', encoding="utf-8")
    return config


def query(db: Path, sql: str, params: Sequence[object] = ()) -> list[tuple]:
    """A read-only query from outside the ladder process (empty while the schema is being created)."""
    if not db.exists():
        return []
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
    try:
        return conn.execute(sql, params).fetchall()
    except sqlite3.OperationalError:
        return []
    finally:
        conn.close()


def done(db: Path) -> int:
    rows = query(db, "SELECT COUNT(*) FROM matches WHERE status = 'done'")
    return rows[0][0] if rows else 0


# --- /proc ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Proc:
    """One process as ``/proc`` shows it."""

    pid: int
    ppid: int
    pgid: int
    start: int
    """Start time in clock ticks since boot: a pid together with it names one process."""
    rss: int
    fds: int
    name: str
    """What it runs: its command line, shortened."""


def read_proc(pid: int) -> Proc | None:
    """One process's figures, or None if it is gone (or a zombie)."""
    base = Path(f"/proc/{pid}")
    try:
        stat = (base / "stat").read_text()
        rest = stat[stat.rindex(")") + 2:].split()
        if rest[0] == "Z":
            return None
        rss = int((base / "statm").read_text().split()[1]) * PAGE
        fds = len(os.listdir(base / "fd"))
        name = (base / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()[:70]
    except (OSError, ValueError, IndexError):
        return None
    return Proc(pid, int(rest[1]), int(rest[2]), int(rest[19]), rss, fds, name)


def all_pids() -> list[int]:
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def tree(root: int) -> list[Proc]:
    """``root`` and every process descended from it."""
    procs = {p.pid: p for p in map(read_proc, all_pids()) if p is not None}
    found, todo = [], [root]
    children: dict[int, list[int]] = {}
    for proc in procs.values():
        children.setdefault(proc.ppid, []).append(proc.pid)
    while todo:
        pid = todo.pop()
        if pid in procs:
            found.append(procs[pid])
            todo += children.get(pid, [])
    return found


def mentions(pid: int, folder: Path) -> bool:
    """True if the process runs in ``folder`` or names it on its command line (a bot of this run)."""
    text = str(folder)
    try:
        cwd = os.readlink(f"/proc/{pid}/cwd")
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return False
    return cwd.startswith(text) or text in cmdline


# --- sampling ------------------------------------------------------------------------------------
@dataclass
class Sample:
    """One look at the ladder, ``t`` seconds into the phase."""

    t: float
    rss: int
    procs: int
    fds: dict[int, int]
    """Open descriptors per pid."""
    rss_of: dict[int, int]
    """Resident bytes per pid."""
    tmp: int
    matches: int


@dataclass
class Web:
    """Requests timed at a steady rate from a thread of their own."""

    port: int
    urls: list[str]
    rate: float
    began: float = 0.0
    times: dict[str, list[float]] = field(default_factory=dict)
    stamps: list[tuple[float, str, float]] = field(default_factory=list)
    """(when it was answered, time.monotonic(); url; ms) for every answered request: early against late."""
    errors: list[str] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        start, k = time.monotonic(), 0
        while not self.stop.is_set():
            url = self.urls[k % len(self.urls)]
            begun = time.perf_counter()
            try:
                conn.request("GET", url)
                response = conn.getresponse()
                response.read()
                if response.status != 200:
                    self.errors.append(f"{url}: HTTP {response.status}")
                else:
                    took = (time.perf_counter() - begun) * 1000
                    self.times.setdefault(url, []).append(took)
                    self.stamps.append((time.monotonic(), url, took))
            except (OSError, http.client.HTTPException) as error:
                self.errors.append(f"{url}: {error!r}")
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            k += 1
            wait = start + k / self.rate - time.monotonic()
            if wait < 0:  # behind (a slow request): carry on from now rather than burst
                start, k = time.monotonic(), 0
            self.stop.wait(max(wait, 0.0))
        conn.close()


@dataclass
class Verdict:
    """The checks so far: (what, passed, the figures behind it)."""

    lines: list[tuple[str, bool, str]] = field(default_factory=list)

    def check(self, what: str, ok: bool, detail: str) -> None:
        self.lines.append((what, ok, detail))
        print(f"  {'PASS' if ok else 'FAIL'}  {what}: {detail}", flush=True)

    @property
    def passed(self) -> bool:
        return all(ok for _, ok, _ in self.lines)


def quarters(samples: list[Sample], warmup: float) -> tuple[list[Sample], list[Sample]]:
    """The first and last quarters of the samples taken after ``warmup`` seconds."""
    steady = [s for s in samples if s.t >= warmup] or samples
    size = max(1, len(steady) // 4)
    return steady[:size], steady[-size:]


def run_phase(name: str, folder: Path, bots: list[Path], args: argparse.Namespace, verdict: Verdict) -> None:
    db = folder / "ladder.db"
    tmp = folder / f"tmp-{name}"
    tmp.mkdir(mode=0o755)
    config = write_config(folder, bots, name, args.workers)
    before = done(db)
    out_path, err_path = folder / f"ladder-{name}.out", folder / f"ladder-{name}.err"
    env = {**os.environ, "TMPDIR": str(tmp)}
    print(f"\n== phase {name}: {args.minutes:g} min, {args.workers} workers, load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs", flush=True)
    with open(out_path, "w") as out, open(err_path, "w") as err:
        ladder = subprocess.Popen([sys.executable, "-m", "arena.cli", "ladder", "run", "--config", str(config)],
                                  cwd=folder, stdout=out, stderr=err, env=env, start_new_session=True)
    seen: set[tuple[int, int]] = set()
    names: dict[int, str] = {}
    samples: list[Sample] = []
    web: Web | None = None
    try:
        deadline = time.monotonic() + 180
        while done(db) <= before:
            if ladder.poll() is not None or time.monotonic() > deadline:
                why = "it exited" if ladder.poll() is not None else "within 180 s"
                raise SystemExit(f"phase {name}: no match stored ({why}):\n{err_path.read_text()[-3000:]}")
            time.sleep(0.5)
        tid = query(db, "SELECT id FROM tournaments WHERE name = 'soak'")[0][0]
        with served(db, timeout=30) as (port, _):
            web = Web(port, [f"/games/{GAME}/{GAME}", f"/api/games/{GAME}/{GAME}/ratings", f"/ladders/{tid}"], args.rate)
            thread = threading.Thread(target=web.run, daemon=True)
            thread.start()
            began = time.monotonic()
            web.began = began
            end = began + args.minutes * 60
            while time.monotonic() < end:
                if ladder.poll() is not None:
                    break
                procs = tree(ladder.pid)
                seen.update((p.pid, p.start) for p in procs)
                samples.append(Sample(time.monotonic() - began, sum(p.rss for p in procs), len(procs),
                                      {p.pid: p.fds for p in procs}, {p.pid: p.rss for p in procs},
                                      len(os.listdir(tmp)), done(db) - before))
                names.update({p.pid: p.name for p in procs})
                time.sleep(max(0.0, min(args.interval, end - time.monotonic())))
            exited_early = ladder.poll() is not None
            ladder.send_signal(signal.SIGTERM)
            try:
                code = ladder.wait(60)
            except subprocess.TimeoutExpired:
                code = None
            web.stop.set()
            thread.join(60)
    finally:
        if ladder.poll() is None:
            os.killpg(ladder.pid, signal.SIGKILL)
            ladder.wait()
    time.sleep(2)  # bots told to stop by a dying worker get a moment, as the ladder's own tests allow
    report(name, folder, db, tmp, ladder.pid, seen, names, samples, web, before, code, exited_early, err_path,
           out_path, args, verdict)


def report(name: str, folder: Path, db: Path, tmp: Path, pgid: int, seen: set[tuple[int, int]],
           names: dict[int, str], samples: list[Sample], web: Web, before: int, code: int | None, exited_early: bool, err_path: Path,
           out_path: Path, args: argparse.Namespace, verdict: Verdict) -> None:
    played = done(db) - before
    elapsed = samples[-1].t if samples else 0.0
    first, last = quarters(samples, min(WARMUP_S, args.minutes * 60 / 4))
    print(f"-- phase {name}: {played} matches in {elapsed / 60:.1f} min ({played / max(elapsed / 60, 1e-9):.0f}/min); "
          f"{len(samples)} samples; load average {os.getloadavg()[0]:.1f}")
    if samples:
        mb = 1024 * 1024
        rss_first = statistics.fmean(s.rss for s in first) / mb
        rss_last = statistics.fmean(s.rss for s in last) / mb
        steady = [s for s in samples if s.t >= first[0].t]
        slope = (statistics.linear_regression([s.t for s in steady], [s.rss / mb for s in steady]).slope * 3600
                 if len(steady) > 1 else 0.0)
        print(f"   RSS of the tree: first quarter {rss_first:.0f} MB, last quarter {rss_last:.0f} MB, "
              f"slope {slope:+.0f} MB/hour")
        growth = sorted(((statistics.fmean(s.rss_of.get(pid, 0) for s in last)
                          - statistics.fmean(s.rss_of.get(pid, 0) for s in first)) / mb, pid)
                        for pid in set(first[0].rss_of) & set(last[-1].rss_of))
        print("   grew most (mean RSS, last quarter - first): " + "; ".join(
            f"{mb_up:+.1f} MB pid {pid} {names.get(pid, '?')[-45:]}" for mb_up, pid in reversed(growth[-3:])))
        print(f"   processes: first quarter max {max(s.procs for s in first)}, last quarter max "
              f"{max(s.procs for s in last)}; TMPDIR entries: first quarter max {max(s.tmp for s in first)}, "
              f"last quarter max {max(s.tmp for s in last)}")
        main_first, main_last = first[0].fds.get(pgid, 0), last[-1].fds.get(pgid, 0)
        print(f"   open fds: ladder process {main_first} -> {main_last}; whole tree "
              f"{sum(first[0].fds.values())} -> {sum(last[-1].fds.values())}; most in one process "
              f"{max(first[0].fds.values())} -> {max(last[-1].fds.values())}")
    for url, times in web.times.items():
        early = [ms for t, u, ms in web.stamps if u == url and t - web.began < elapsed / 4] or [0.0]
        late = [ms for t, u, ms in web.stamps if u == url and t - web.began >= elapsed * 3 / 4] or [0.0]
        print(f"   web {url}: {len(times)} requests, p50 {statistics.median(times):.1f} ms, "
              f"p99 {percentile_99(times):.1f} ms, max {max(times):.1f} ms; p50 first quarter "
              f"{statistics.median(early):.1f} ms, last quarter {statistics.median(late):.1f} ms")
    err = err_path.read_text()
    print("   ladder's last line: " + (out_path.read_text().strip().splitlines() or ["(none)"])[-1])

    verdict.check(f"{name}: matches played", played > 0 and not exited_early,
                  f"{played}" + (" (the ladder exited before the end)" if exited_early else ""))
    verdict.check(f"{name}: exit after SIGTERM", code == 0 and "Traceback" not in err,
                  f"status {code}" + (f"; stderr: {err.strip()[-300:]}" if err.strip() else ""))
    alive = [pid for pid, start in seen if (p := read_proc(pid)) is not None and p.start == start]
    grouped = [p.pid for p in map(read_proc, all_pids()) if p is not None and p.pgid == pgid]
    strays = [pid for pid in all_pids() if pid != os.getpid() and mentions(pid, folder / "bots")]
    verdict.check(f"{name}: no process left", not alive and not grouped and not strays,
                  f"{len(seen)} processes seen in the tree; alive after: {sorted(alive)}, in its group: {grouped}, "
                  f"running a bot of the run: {strays}")
    left = sorted(os.listdir(tmp))
    verdict.check(f"{name}: TMPDIR empty", not left, f"{len(left)} entries left" + (f": {left[:5]}" if left else ""))
    if samples:
        verdict.check(f"{name}: memory flat", rss_last <= rss_first * (1 + MEMORY_GROWTH),
                      f"last quarter {rss_last:.0f} MB vs first {rss_first:.0f} MB (at most +{MEMORY_GROWTH:.0%})")
        grown = {pid: (max(s.fds.get(pid, 0) for s in first), max(s.fds.get(pid, 0) for s in last))
                 for pid in set(first[0].fds) & set(last[-1].fds)}
        leaking = {pid: fds for pid, fds in grown.items() if fds[1] > fds[0] + FD_SLACK}
        verdict.check(f"{name}: fds flat", not leaking,
                      f"{len(grown)} processes alive throughout; more than {FD_SLACK} more fds in the last quarter: "
                      f"{leaking or 'none'}")
        verdict.check(f"{name}: processes bounded", max(s.procs for s in last) <= max(s.procs for s in samples
                                                                                       if s.t < last[0].t),
                      f"last quarter max {max(s.procs for s in last)}, before it "
                      f"{max(s.procs for s in samples if s.t < last[0].t)}")
    dupes = (query(db, "SELECT COUNT(*) FROM (SELECT 1 FROM matches GROUP BY tournament_id, position "
                       "HAVING COUNT(*) > 1)")[0][0]
             + query(db, "SELECT COUNT(*) FROM (SELECT 1 FROM match_seats GROUP BY match_id, seat "
                         "HAVING COUNT(*) > 1)")[0][0]
             + query(db, "SELECT COUNT(*) FROM (SELECT 1 FROM rating_history GROUP BY match_id, bot_id "
                         "HAVING COUNT(*) > 1)")[0][0])
    uneven = query(db, "SELECT COUNT(*) FROM (SELECT m.id FROM matches m LEFT JOIN match_seats s ON s.match_id = m.id"
                       " WHERE m.status = 'done' GROUP BY m.id HAVING COUNT(s.seat) != MAX(m.num_players))")[0][0]
    rated = query(db, "SELECT COUNT(DISTINCT match_id) FROM rating_history")[0][0]
    total = done(db)
    verdict.check(f"{name}: every match stored once", dupes == 0 and uneven == 0 and rated == total,
                  f"{dupes} duplicate rows, {uneven} done matches without one seat row per player, "
                  f"{rated} of {total} done matches rated")
    pending = query(db, "SELECT COUNT(*) FROM matches WHERE status = 'pending'")[0][0]
    failed = query(db, "SELECT COUNT(*) FROM matches WHERE status = 'failed'")[0][0]
    verdict.check(f"{name}: no pending rows", pending == 0, f"{pending} pending, {failed} failed")
    with Database(db) as database:
        stored = {r[0]: (r[1], r[2]) for r in database.conn.execute(
            "SELECT bot_id, mu, sigma FROM ratings WHERE game = ? AND variant = ?", (GAME, GAME))}
        final = plan_ratings(database, GAME, GAME, recompute=True).final
    off = [bot for bot, r in final.items()
           if bot not in stored or max(abs(stored[bot][0] - r.mu), abs(stored[bot][1] - r.sigma)) > 1e-9]
    verdict.check(f"{name}: ratings equal a recompute", not off and stored.keys() == final.keys(),
                  f"{len(final)} bots, differing: {off or 'none'}")
    for url in web.urls:
        times = web.times.get(url, [])
        failed_here = [e for e in web.errors if e.startswith(f"{url}:")]
        verdict.check(f"{name}: {url} p99 under {WEB_GOAL_MS:.0f} ms",
                      bool(times) and percentile_99(times) < WEB_GOAL_MS and not failed_here,
                      (f"{len(times)} requests, p99 {percentile_99(times):.1f} ms" if times else "none answered")
                      + f"; {len(failed_here)} failed" + (f" ({failed_here[0]})" if failed_here else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="per phase")
    parser.add_argument("--phases", default="local,dask", help="local, dask or both, in order")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--interval", type=float, default=5.0, help="seconds between samples")
    parser.add_argument("--rate", type=float, default=4.0, help="web requests per second")
    parser.add_argument("--keep", type=Path, default=None, help="run in this (new) folder and keep it")
    args = parser.parse_args()
    phases = args.phases.split(",")
    if not phases or any(p not in ("local", "dask") for p in phases):
        raise SystemExit(f"Error: --phases takes local, dask or local,dask, not {args.phases!r}")
    if min(args.minutes, args.interval, args.rate, args.workers) <= 0:
        raise SystemExit("Error: --minutes, --interval, --rate and --workers must be positive")
    if args.keep is not None and args.keep.exists():
        raise SystemExit(f"Error: --keep {args.keep} exists; give a new folder")
    folder = Path(tempfile.mkdtemp(prefix="arena-soak-")) if args.keep is None else args.keep
    if args.keep is not None:
        folder.mkdir(parents=True)
    folder.chmod(0o755)
    verdict = Verdict()
    try:
        bots = make_bots(folder / "bots")
        print(f"soak: {len(bots)} entrants ({', '.join(b.name for b in bots)}), Yahtzee at tables of 2, in {folder}")
        for phase in phases:
            run_phase(phase, folder, bots, args, verdict)
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)
    failed = [what for what, ok, _ in verdict.lines if not ok]
    print(f"\n{len(verdict.lines) - len(failed)} of {len(verdict.lines)} checks passed"
          + (f"; FAILED: {', '.join(failed)}" if failed else ""))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
