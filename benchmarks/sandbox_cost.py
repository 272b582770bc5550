"""What does the bot sandbox cost?  Bot start-up time and referee decisions per second with
``--sandbox bwrap`` and ``--sandbox none``, measured in the same run.

Start-up is process start + SERVING + Identify of a trivial Python bot (the same bot as in
``referee_speed.py``); the modes alternate, so that both see the same machine load.
Decisions per second come from whole Yahtzee matches between two such bots, start-up
excluded.

Usage: ``.venv/bin/python benchmarks/sandbox_cost.py [--starts 20] [--matches 20] [--rounds 3]``
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from referee_speed import TRIVIAL_BOT, referee_speed  # noqa: E402

from referee.bots import BotSpec  # noqa: E402
from referee.match import BotConnection  # noqa: E402
from referee.sandbox import SandboxConfig, SandboxMode  # noqa: E402

MODES = {"bwrap": SandboxConfig(SandboxMode.BWRAP), "none": SandboxConfig(SandboxMode.NONE)}


def start_once(spec: BotSpec, sandbox: SandboxConfig) -> float:
    """Seconds from starting the bot until it has answered Identify; then stop it."""
    started = time.perf_counter()
    connection = BotConnection(spec, 20, sandbox)
    took = time.perf_counter() - started
    connection.close()
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--starts", type=int, default=20, help="bot starts per mode")
    parser.add_argument("--matches", type=int, default=20, help="matches per mode and round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of matches per mode, alternating")
    args = parser.parse_args()
    starts: dict[str, list[float]] = {mode: [] for mode in MODES}
    rates: dict[str, list[float]] = {mode: [] for mode in MODES}
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as tmp:
        folder = Path(tmp)
        folder.chmod(0o755)
        (folder / "bot.py").write_text(TRIVIAL_BOT.format(root=str(ROOT)))
        (folder / "bot.toml").write_text('name = "trivial"\ncommand = ["{python}", "bot.py"]\n')
        spec = BotSpec.from_manifest(folder)
        for mode, sandbox in MODES.items():  # warm the file cache once per mode
            start_once(spec, sandbox)
        for _ in range(args.starts):
            for mode, sandbox in MODES.items():
                starts[mode].append(start_once(spec, sandbox))
        for _ in range(args.rounds):
            for mode, sandbox in MODES.items():
                rate, _, _ = referee_speed("yahtzee", folder, args.matches, sandbox)
                rates[mode].append(rate)
    print(f"sandbox cost: trivial Python bot, Yahtzee; {args.starts} starts and "
          f"{args.rounds} x {args.matches} matches per mode, alternating")
    print(f"  {'mode':6s} {'start-up median':>16s} {'p90':>8s} {'decisions/s (median of rounds)':>32s}")
    for mode in MODES:
        ordered = sorted(starts[mode])
        p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
        print(f"  {mode:6s} {statistics.median(ordered) * 1000:13.0f} ms {p90 * 1000:5.0f} ms "
              f"{statistics.median(rates[mode]):32.0f}")
    startup_ratio = statistics.median(starts["bwrap"]) / statistics.median(starts["none"])
    rate_ratio = statistics.median(rates["bwrap"]) / statistics.median(rates["none"])
    print(f"  bwrap / none: start-up x{startup_ratio:.2f}, decisions/s x{rate_ratio:.2f}")


if __name__ == "__main__":
    main()
