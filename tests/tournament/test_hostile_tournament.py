"""A sandboxed tournament of every hostile bot with two sample bots: it must complete, store
every result, and rate the two sample bots above all the hostile ones.

The sample bots run in the sandbox too, but started by the test and entered by address: on a
busy machine the Node.js bot takes seconds to start (12 s at load 28), far more than the short
start-up time that keeps the never-healthy bot's 26 matches short, and a start-up time is the
tournament's, not a bot's.  The test waits for them to serve, however long that takes.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.league.ratings import rating_table
from arena.league.storage import Database
from arena.runs.tournament import TournamentSpec, create_tournament, run_tournament
from referee.bots import BotSpec, resolve_bot
from referee.match import BotConnection, TimeControl
from referee.sandbox import Limits, SandboxConfig, SandboxMode

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ROOT / "tests" / "bots"
SAMPLES = [ROOT / "sample_bots" / "python" / "yahtzee_heuristic", ROOT / "sample_bots" / "node" / "yahtzee_heuristic"]
SANDBOX = SandboxConfig(SandboxMode.BWRAP, Limits(memory_mb=256, cpu_seconds=3, processes=64))
# One fault forfeits: the hostile bots lose at their first offence, which keeps this short.
# Two seconds a decision: room for a sample bot on a busy machine (the Node.js one's slowest of
# a match took 0.7 s at load 16, over 1 s at load 30); the bots that sleep or spin cost each of
# their matches that time, and four workers wait them out side by side.
TIME = TimeControl(move_timeout=2.0, time_bank=0.0, max_faults=1, startup_timeout=2)
WORKERS = 4
SAMPLE_STARTUP = 120.0


@pytest.fixture
def samples() -> Iterator[list[BotSpec]]:
    """The sample bots, sandboxed (with the default limits: they play every match of the
    tournament in one process each) and serving, as bots given by address."""
    connections: list[BotConnection] = []
    try:
        for folder in SAMPLES:
            spec = resolve_bot(str(folder))
            connections.append(BotConnection(spec, SAMPLE_STARTUP, SandboxConfig(SandboxMode.BWRAP)))
        yield [BotSpec.from_address(connection.process.address, name=connection.spec.name,
                                    version=connection.spec.version)
               for connection in connections if connection.process is not None]
    finally:
        for connection in connections:
            connection.close()


@pytest.mark.slow
def test_tournament_of_hostile_bots_completes_with_the_sample_bots_on_top(tmp_path: Path, hostile_bot, samples,
                                                                         live_processes_in) -> None:
    db_path = tmp_path / "hostile.db"
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)
    hostile = [resolve_bot(str(manifest)) for manifest in sorted(HOSTILE.glob("*.toml"))
               if manifest.stem != "sleep-once"]  # sleep-once is merely slow once, not hostile
    hostile += [hostile_bot(tmp_path / "snoop", "snoop", "--read", str(db_path), "--write", str(tmp_path / "pwned")),
                hostile_bot(tmp_path / "network", "network", "127.0.0.1:%d" % listener.getsockname()[1])]
    with Database(db_path) as db:
        tid = create_tournament(db, TournamentSpec(game="yahtzee", bots=(*samples, *hostile), table_size=2, seed=5,
                                                   time_control=TIME, sandbox=SANDBOX, keep_alive=True))
        summary = run_tournament(db, tid, workers=WORKERS)
        assert summary.total == 14 * 13 and summary.played == summary.total and summary.failed == 0
        assert db.match_counts(tid)["done"] == summary.total
        records = [db.match_record(match.id) for match in db.matches(tournament_id=tid)]
        rows = rating_table(db, "yahtzee", "yahtzee")
    assert all(record is not None and record.finished and record.sandbox["mode"] == "bwrap" for record in records)
    hostile_names = {bot.name for bot in hostile}
    assert {row.bot for row in rows[:2]} == {bot.name for bot in samples}, [(r.bot, round(r.mu, 1)) for r in rows]
    assert {row.bot for row in rows[2:]} == hostile_names
    # No sample bot ever faulted, whoever it sat with.
    for record in records:
        for seat, player in enumerate(record.players):
            if player.split("@")[0] in {bot.name for bot in samples}:
                assert not [fault for fault in record.faults if fault.seat == seat], record.faults
    assert not (tmp_path / "pwned").exists()
    with pytest.raises(TimeoutError):
        listener.accept()
    listener.close()
    assert not live_processes_in(HOSTILE, tmp_path)
