"""Local workers pin themselves and their bots to one CPU each, unless told not to.

A bot reports the CPUs it may run on in every answer's comment; the stored moves show
where the bots of a real tournament ran (through the CLI, as a user runs it).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.executors.local import early_start_cpus, worker_cpus
from arena.league.storage import Database

REPORTING_BOT = '''
import os
from arena.v1 import bot_pb2
from arena.sdk import run_bot

def decide(observation, legal_actions):
    cpus = ",".join(str(cpu) for cpu in sorted(os.sched_getaffinity(0)))
    return bot_pb2.DecideResponse(action_index=0, comment=cpus)

run_bot(decide, name="{name}", version="1")
'''

needs_affinity = pytest.mark.skipif(not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2,
                                    reason="CPU affinity needs Linux and at least 2 CPUs")


def write_reporting_bot(folder: Path, name: str) -> Path:
    folder.mkdir(parents=True)
    folder.chmod(0o755)
    (folder / "bot.py").write_text(REPORTING_BOT.format(name=name), encoding="utf-8")
    (folder / "bot.toml").write_text(f'name = "{name}"\nversion = "1"\ncommand = ["{{python}}", "bot.py"]\n',
                                     encoding="utf-8")
    return folder


def cpus_seen(tmp_path: Path, *options: str) -> list[set[str]]:
    """Per stored match, the CPU lists its bots reported."""
    bots = [write_reporting_bot(tmp_path / name, name) for name in ("a", "b", "c")]
    db = tmp_path / "pin.db"
    result = CliRunner().invoke(main, ["tournament", "run", "--game", "yahtzee", "--rounds", "1", "--workers", "2",
                                       "--keep-alive", "--seed", "1", "--no-preflight", "-q", "--db", str(db),
                                       *[arg for bot in bots for arg in ("--bot", str(bot))], *options])
    assert result.exit_code == 0, result.output
    with Database(db, readonly=True) as store:
        records = [store.match_record(match.id) for match in store.matches()]
    assert len(records) == 3 and all(record is not None and record.moves for record in records)
    return [{move.comment for move in record.moves} for record in records if record is not None]


@needs_affinity
def test_each_worker_and_its_bots_run_on_one_cpu(tmp_path):
    seen = cpus_seen(tmp_path)
    for comments in seen:
        assert len(comments) == 1, comments  # every bot of a match: the same single CPU
        (cpus,) = comments
        assert "," not in cpus and int(cpus) in os.sched_getaffinity(0)


@needs_affinity
def test_no_pin_cpus_lets_bots_use_every_cpu(tmp_path):
    every = ",".join(str(cpu) for cpu in sorted(os.sched_getaffinity(0)))
    assert cpus_seen(tmp_path, "--no-pin-cpus") == [{every}] * 3


def test_workers_take_the_cpus_in_turn():
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    if not cpus:
        assert worker_cpus(3) == [None, None, None]
        return
    assert worker_cpus(2 * len(cpus) + 1) == cpus * 2 + cpus[:1]
    assert worker_cpus(1) == cpus[:1]


def test_early_starts_use_the_cpus_no_worker_is_pinned_to():
    cpus = frozenset(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else frozenset()
    if not cpus:
        assert early_start_cpus([None]) is None
        return
    first = min(cpus)
    assert early_start_cpus([first]) == (cpus - {first} or None)
    assert early_start_cpus(sorted(cpus)) is None  # every CPU plays: bots start with their match
    assert early_start_cpus([None, None]) == cpus  # unpinned workers: anywhere
