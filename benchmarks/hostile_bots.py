"""Each hostile bot of ``tests/bots/`` against the random bot in the bwrap sandbox: what the
referee recorded, how long the match took, and whether any process survived it.

Prints a Markdown table (the one in the sandbox issue's closing note).  The limits are the
test suite's (256 MiB, 3 CPU seconds, 64 processes) so that the bombs go off quickly.

Usage: ``.venv/bin/python benchmarks/hostile_bots.py``
"""

from __future__ import annotations

import shutil
import socket
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.bots import resolve_bot  # noqa: E402
from referee.match import MatchConfig, TimeControl, run_match  # noqa: E402
from referee.sandbox import Limits, SandboxConfig, SandboxMode  # noqa: E402
from tests.conftest import copy_hostile_bot, processes_in  # noqa: E402  (the tests' own helpers)

HOSTILE = ROOT / "tests" / "bots"
RANDOM_BOT = ROOT / "sample_bots" / "python" / "random_bot"
SANDBOX = SandboxConfig(SandboxMode.BWRAP, Limits(memory_mb=256, cpu_seconds=3, processes=64))
TIME = TimeControl(move_timeout=0.5, time_bank=1.0, max_faults=3, startup_timeout=3)
SLOW_CPU = TimeControl(move_timeout=6, time_bank=0, max_faults=3, startup_timeout=3)


def survivors(*folders: Path) -> int:
    """Processes still running from these folders 2 s after the match."""
    time.sleep(2)
    return len(processes_in(*folders))


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="arena-hostile-"))
    listener = socket.create_server(("127.0.0.1", 0))
    secret = tmp / "organiser-secret.txt"
    secret.write_text("secret\n")
    secret.chmod(0o600)
    cases = [(name, resolve_bot(str(HOSTILE / f"{name}.toml")), TIME)
             for name in ("sleep", "crash", "bad-index", "negative-index", "huge-answer", "never-healthy",
                          "memory-bomb", "fork-bomb", "orphan")]
    cases.insert(7, ("cpu-spin", resolve_bot(str(HOSTILE / "cpu-spin.toml")), SLOW_CPU))
    cases += [("snoop", copy_hostile_bot(tmp / "snoop", "snoop", "--read", str(secret), "--write", str(tmp / "pwned")), TIME),
              ("network", copy_hostile_bot(tmp / "net", "network", "127.0.0.1:%d" % listener.getsockname()[1]), TIME),
              ("swap-log", copy_hostile_bot(tmp / "swap", "swap-log", str(secret)), TIME)]
    print("| behaviour | recorded | random bot | match s | left running |")
    print("|---|---|---|---:|---:|")
    try:
        for name, spec, time_control in cases:
            record = run_match(MatchConfig(game="yahtzee", seed=1, time_control=time_control, sandbox=SANDBOX),
                               [spec, resolve_bot(str(RANDOM_BOT))])
            kinds: dict[str, int] = {}
            for fault in record.faults:
                kinds[fault.kind.value] = kinds.get(fault.kind.value, 0) + 1
            recorded = ", ".join(f"{n} {k}" for k, n in kinds.items()) or "no fault"
            if record.faults:
                recorded += f" (first: {record.faults[0].detail[:70]})"
            elif record.moves[0].comment:
                recorded += f" (it reported: {record.moves[0].comment[:70]})"
            recorded += "; forfeited" if 0 in record.forfeited else ""
            other = "no fault, rank 1" if not [f for f in record.faults if f.seat == 1] and record.ranking[1] == 0 \
                else f"faults {len([f for f in record.faults if f.seat == 1])}, rank {record.ranking[1] + 1}"
            left = survivors(HOSTILE, tmp, RANDOM_BOT)
            print(f"| {name} | {recorded.replace('|', '/')} | {other} | {record.duration_s:.2f} | {left} |")
    finally:
        listener.close()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
