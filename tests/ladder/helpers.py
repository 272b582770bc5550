"""Running a real ``arena ladder run`` process on a real SQLite file, and reading that file."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from click.testing import CliRunner, Result

from arena.cli import main

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ROOT / "tests" / "bots"


def write_config(folder: Path, bots: Sequence[Path | str], *, extra: str = "", ladder: str = "",
                 time_control: str = "move_timeout = 1.0") -> Path:
    """A Yahtzee ladder of tables of 2 (fast matches), unsandboxed sample bots, two workers."""
    entries = ", ".join(f'"{bot}"' for bot in bots)
    config = folder / "ladder.toml"
    config.write_text(f'db = "ladder.db"\nworkers = 2\nstop_grace = 3\n{extra}\n[time_control]\n{time_control}\n'
                      f'[sandbox]\nmode = "none"\n[[ladder]]\nname = "dice"\ngame = "yahtzee"\nseats = 2\n'
                      f'seed = 5\nbots = [{entries}]\n{ladder}\n', encoding="utf-8")
    return config


def start(config: Path, *, session: bool = False) -> subprocess.Popen[str]:
    """``arena ladder run`` (in a process group of its own with ``session``, to signal it whole)."""
    return subprocess.Popen([sys.executable, "-m", "arena.cli", "ladder", "run", "--config", str(config)],
                            cwd=config.parent, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=session)


def cli(*args: str) -> Result:
    """A command from "another terminal" (in-process, on the same database file)."""
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def query(db: Path, sql: str, params: Sequence[object] = ()) -> list[tuple]:
    if not db.exists():
        return []
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        return conn.execute(sql, params).fetchall()
    except sqlite3.OperationalError:  # the schema is being created
        return []
    finally:
        conn.close()


def done(db: Path) -> int:
    rows = query(db, "SELECT COUNT(*) FROM matches WHERE status = 'done'")
    return rows[0][0] if rows else 0


def played_by(db: Path, name: str, after_id: int = 0) -> int:
    """Done matches with ``id > after_id`` where the bot called ``name`` sat."""
    return query(db, "SELECT COUNT(DISTINCT m.id) FROM matches m JOIN match_seats s ON s.match_id = m.id"
                     " JOIN bots b ON b.id = s.bot_id WHERE b.name = ? AND m.status = 'done' AND m.id > ?",
                 (name, after_id))[0][0]


def wait_until(check: Callable[[], bool], process: subprocess.Popen[str], what: str, timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return
        if process.poll() is not None:
            raise AssertionError(f"the ladder ended early: {process.communicate()}")
        time.sleep(0.1)
    raise AssertionError(f"not within {timeout} s: {what}")


def wait_for_refresh(db: Path, process: subprocess.Popen[str]) -> None:
    """Wait until the ladder process has read the entrants' states since this call (a pause, a
    remove), however busy the machine.  It writes a heartbeat after each read: the first one
    after now may end a read begun before, the next one cannot."""
    def heartbeat() -> float:
        rows = query(db, "SELECT MAX(heartbeat) FROM ladder_status")
        return (rows[0][0] or 0.0) if rows else 0.0

    since = time.time()
    for _ in range(2):
        wait_until(lambda: heartbeat() > since, process, "the ladder reads the entrants' states")
        since = heartbeat()


def assert_whole(db: Path) -> None:
    """Nothing half-stored, nothing left pending: every done match has every seat's result, and
    the running totals (matches by status, each entrant's matches and last match) are exact."""
    assert query(db, "SELECT COUNT(*) FROM matches WHERE status = 'pending'") == [(0,)]
    assert query(db, "SELECT COUNT(*) FROM matches m JOIN match_seats s ON s.match_id = m.id WHERE m.status = 'done'"
                     " AND (s.score IS NULL OR s.rank IS NULL OR m.record IS NULL)") == [(0,)]
    assert query(db, "SELECT tournament_id, pending, done, failed FROM tournament_stats ORDER BY 1") == query(
        db, "SELECT t.id, COALESCE(SUM(m.status = 'pending'), 0), COALESCE(SUM(m.status = 'done'), 0),"
            " COALESCE(SUM(m.status = 'failed'), 0) FROM tournaments t LEFT JOIN matches m ON m.tournament_id = t.id"
            " GROUP BY t.id ORDER BY 1")
    entrants = "SELECT tournament_id, bot_id, matches, last_match_at FROM ladder_entrants ORDER BY 1, 2"
    assert query(db, entrants) == query(
        db, "SELECT e.tournament_id, e.bot_id, COUNT(DISTINCT m.id), MAX(m.finished_at) FROM ladder_entrants e"
            " LEFT JOIN match_seats s ON s.bot_id = e.bot_id LEFT JOIN matches m ON m.id = s.match_id"
            " AND m.tournament_id = e.tournament_id AND m.status = 'done' GROUP BY 1, 2 ORDER BY 1, 2")
