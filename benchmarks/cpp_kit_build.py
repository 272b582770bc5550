"""How long does a submitted C++ starter kit take to build?  The kit from ``arena new-bot
--language cpp``, as it is (its ``[build]`` step builds into ``$ARENA_BUILD``), built by
:func:`referee.build.build_bot` in bubblewrap as the submission worker builds it:
its wall time per run; and first the same build unsandboxed with ``-j2``, its configure step
(which runs on one core) and its compiles apart, with their CPU time.

Usage: ``.venv/bin/python benchmarks/cpp_kit_build.py [--runs 2]``
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arena.authoring.starter_kit import write_starter_kit  # noqa: E402
from referee.bots import BotSpec  # noqa: E402
from referee.build import BuildLimits, build_bot  # noqa: E402
from referee.sandbox import SandboxMode  # noqa: E402

def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def server_kit(folder: Path) -> BotSpec:
    """The C++ kit, which builds into ``$ARENA_BUILD`` and runs from there."""
    write_starter_kit(folder, "cpp", name="bench-cpp")
    return BotSpec.from_manifest(folder)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=2, help="sandboxed builds, each from scratch")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as tmp:
        folder = Path(tmp)
        folder.chmod(0o755)
        spec = server_kit(folder / "kit")
        cpu, started = children_cpu(), time.perf_counter()
        subprocess.run(["cmake", "-S", spec.directory, "-B", folder / "plain"], check=True, stdout=subprocess.DEVNULL)
        configured, configure_cpu = time.perf_counter(), children_cpu()
        subprocess.run(["cmake", "--build", folder / "plain", "-j2"], check=True, stdout=subprocess.DEVNULL)
        print(f"unsandboxed, -j2: configure {configured - started:.1f} s wall, {configure_cpu - cpu:.1f} s CPU; "
              f"build {time.perf_counter() - configured:.1f} s wall, {children_cpu() - configure_cpu:.1f} s CPU")
        for run in range(args.runs):
            outputs = folder / f"outputs-{run}"
            outputs.mkdir()
            result = build_bot(spec.directory, spec, outputs, BuildLimits(), SandboxMode.BWRAP)
            if not result.ok:
                sys.exit(f"the build {result.status}:\n{result.log[-3000:]}")
            print(f"sandboxed build {run + 1} (as the worker builds it): {result.seconds:.1f} s wall")

if __name__ == "__main__":
    main()
