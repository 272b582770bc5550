"""Where does a bot's start-up go?  Sandbox, interpreter and imports, the first health check,
Identify, and how much of it is the referee's own CPU.

For each bot (the trivial Python bot of ``referee_speed.py``, the Python Gin Rummy heuristic,
and the C++ random bot when it is built) and each sandbox mode, ``--starts`` times:

- the whole start as a match sees it (``BotConnection``): launching the process (sandbox
  command, ``Popen``), waiting until the health check says SERVING, then Identify;
- the CPU time of the bot's processes (sandbox included, measured when they are reaped) and
  of the referee's own thread of work (process CPU time of this process during the start);

and, to split "until SERVING", the same sandbox running programs that exit at once: ``true``
(the sandbox alone), ``python -c pass`` (the interpreter) and ``python -c "import arena.sdk"``
(the interpreter and the imports every Python bot makes: grpcio, protobuf, the generated
code).  Medians are printed; modes and bots alternate so the machine's load falls on all.

    python benchmarks/bot_startup.py --starts 15
"""

from __future__ import annotations

import argparse
import dataclasses
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_bots import write_bots  # noqa: E402
from referee_speed import write_trivial_bot  # noqa: E402

from referee.bots import BotProcess, BotSpec  # noqa: E402
from referee.match import BotConnection  # noqa: E402
from referee.sandbox import SandboxConfig, SandboxMode, bwrap_problem  # noqa: E402

CPP_BOT = ROOT / "sample_bots" / "cpp" / "random_bot"


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_start(spec: BotSpec, sandbox: SandboxConfig) -> dict[str, float]:
    """One whole start, then stop: its phases (s), the bot's CPU and the referee's CPU (s)."""
    cpu_before, own_before, begin = children_cpu(), time.process_time(), time.perf_counter()
    connection = BotConnection(spec, 20, sandbox)
    total = time.perf_counter() - begin
    own = time.process_time() - own_before
    connection.close()
    return {**connection.startup_phases, "total": total, "bot_cpu": children_cpu() - cpu_before, "referee_cpu": own}


def time_exit(spec: BotSpec, sandbox: SandboxConfig) -> float:
    """Seconds from launching ``spec``'s command in the sandbox until it exits."""
    begin = time.perf_counter()
    process = BotProcess(spec, sandbox)
    code = process.process.wait()
    took = time.perf_counter() - begin
    process.stop()
    if code != 0:
        raise SystemExit(f"{spec.command} exited with {code} in {sandbox.mode.value}: {process.output_tail()}")
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--starts", type=int, default=15, help="starts per bot and mode")
    options = parser.parse_args()
    modes = {"none": SandboxConfig(SandboxMode.NONE)}
    if bwrap_problem() is None:
        modes = {"bwrap": SandboxConfig(SandboxMode.BWRAP), **modes}
    with tempfile.TemporaryDirectory(prefix="arena-startup-") as tmp:
        folder = Path(tmp)
        trivial_folder = folder / "trivial"
        trivial_folder.mkdir()
        bots = {"python trivial": write_trivial_bot(trivial_folder)}
        (gin,) = write_bots(folder / "gin", "gin_rummy", 1, random_share=False)
        bots["python gin heuristic"] = BotSpec.from_manifest(Path(gin))
        if (CPP_BOT.parent / "build" / "random_bot").exists():
            bots["c++ random"] = BotSpec.from_manifest(CPP_BOT)
        base = bots["python trivial"]
        parts = {"sandbox (true)": dataclasses.replace(base, command=("/bin/true",)),
                 "python -c pass": dataclasses.replace(base, command=("{python}", "-c", "pass")),
                 "python + arena.sdk imports": dataclasses.replace(base, command=("{python}", "-c",
                                                                                  "import arena.sdk"))}
        starts: dict[tuple[str, str], list[dict[str, float]]] = {}
        exits: dict[tuple[str, str], list[float]] = {}
        for mode, sandbox in modes.items():  # warm the file cache
            for spec in bots.values():
                time_start(spec, sandbox)
        for _ in range(options.starts):
            for mode, sandbox in modes.items():
                for name, spec in bots.items():
                    starts.setdefault((name, mode), []).append(time_start(spec, sandbox))
                for name, spec in parts.items():
                    exits.setdefault((name, mode), []).append(time_exit(spec, sandbox))

    def ms(values: list[float]) -> str:
        return f"{statistics.median(values) * 1000:7.1f}"

    print(f"bot start-up, medians of {options.starts} starts (ms)")
    print(f"  {'bot':22s} {'mode':6s} {'launch':>7s} {'serving':>7s} {'identify':>8s} {'total':>7s} "
          f"{'bot CPU':>7s} {'referee CPU':>11s}")
    for (name, mode), rows in starts.items():
        print(f"  {name:22s} {mode:6s} " + " ".join(
            f"{ms([r[key] for r in rows]):>{width}s}" for key, width in
            (("launch", 7), ("serving", 7), ("identify", 8), ("total", 7), ("bot_cpu", 7), ("referee_cpu", 11))))
    print("  programs that exit at once, in the same sandbox (wall ms, launch to exit)")
    for (name, mode), values in exits.items():
        print(f"  {name:29s} {mode:6s} {ms(values)}")


if __name__ == "__main__":
    main()
