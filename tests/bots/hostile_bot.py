"""A bot that misbehaves on purpose, for the referee's fault and sandbox tests.

Usage: ``hostile_bot.py BEHAVIOUR [ARGS...]``; one manifest per behaviour sits beside this
file (``sleep.toml`` ...).  Unless a behaviour says otherwise it plays the first legal
action, so that only the misbehaviour can make it lose.

- ``sleep``: every decision sleeps far past any deadline;
- ``sleep-once``: the first decision sleeps 0.6 s, the rest answer at once;
- ``crash``: answers three decisions, then the process exits in the middle of the fourth;
- ``bad-index``: answers an index past the end of the legal actions;
- ``negative-index``: answers -1;
- ``huge-answer``: answers with an 8 MiB comment;
- ``never-healthy``: serves gRPC but reports NOT_SERVING for ever;
- ``memory-bomb``: allocates (and touches) 32 MiB blocks until the allocation fails;
- ``cpu-spin``: spins the CPU in a loop and never answers;
- ``fork-bomb``: every process forks until fork fails; the first failure is the answer;
- ``snoop --read PATH... --write PATH...``: tries to read each PATH and to create a file at
  each PATH and in its own folder, then answers with what it managed in the comment, the
  only channel out;
- ``network HOST:PORT``: tries to open a TCP connection, reporting the result as a comment;
- ``orphan``: starts a child that ignores SIGTERM, leaves the process group and sleeps, so
  that it would outlive the match if the referee let it;
- ``swap-log PATH``: replaces its output log (in the socket folder it may write) with a link
  to PATH, then crashes, hoping the referee quotes "its" last output line in the fault.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Sequence

from arena.sdk import run_bot, serve
from arena.v1 import bot_pb2

BEHAVIOUR = sys.argv[1]
ARGS = sys.argv[2:]
MiB = 1024 * 1024
_decisions = 0


def memory_bomb() -> None:
    hoard = []
    try:
        while True:
            block = bytearray(32 * MiB)
            block[::4096] = b"x" * len(block[::4096])  # touch every page
            hoard.append(block)
    except MemoryError:
        got = len(hoard) * 32
        hoard.clear()
        raise RuntimeError(f"allocation failed after {got} MiB") from None


def cpu_spin() -> None:
    while True:
        pass


FORK_BOMB = """
import os, time
forked = 0
while True:
    try:
        pid = os.fork()
    except OSError as error:
        print(f"fork failed after {forked} processes: {error.strerror}", flush=True)
        break
    if pid == 0:  # each child forks for ever too
        while True:
            try:
                os.fork()
            except OSError:
                time.sleep(0.05)
    forked += 1
time.sleep(3600)
"""


def fork_bomb() -> None:
    # In a fresh interpreter: forking the gRPC server process itself would only deadlock it.
    bomb = subprocess.Popen([sys.executable, "-c", FORK_BOMB], stdout=subprocess.PIPE, text=True)
    assert bomb.stdout is not None
    raise RuntimeError(bomb.stdout.readline().strip() or "the fork bomb died")


def snoop() -> str:
    reads: list[str] = []
    writes, target = [os.path.join(os.getcwd(), "pwned")], None
    for arg in ARGS:
        if arg in ("--read", "--write"):
            target = reads if arg == "--read" else writes
        elif target is not None:
            target.append(arg)
    report = []
    for path in reads:
        try:
            with open(path, encoding="utf-8", errors="replace") as file:
                report.append(f"read {path}: {file.read(60)!r}")
        except OSError as error:
            report.append(f"read {os.path.basename(path)}: {type(error).__name__}")
    for path in writes:
        try:
            with open(path, "w", encoding="utf-8") as file:
                file.write("pwned")
            report.append(f"wrote {path}")
        except OSError as error:
            report.append(f"write {os.path.basename(path)}: {type(error).__name__}")
    return "; ".join(report)


def network() -> str:
    host, _, port = ARGS[0].rpartition(":")
    try:
        with socket.create_connection((host, int(port)), timeout=2) as connection:
            connection.sendall(b"hello from a bot")
        return f"connected to {ARGS[0]}"
    except OSError as error:
        return f"no connection to {ARGS[0]}: {error.strerror or error}"


def orphan() -> None:
    code = ("import os, signal, time\n"
            "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
            "time.sleep(3600)\n")
    subprocess.Popen([sys.executable, "-c", code], start_new_session=True)  # a session and group of its own


def swap_log() -> None:
    log = os.path.join(os.path.dirname(os.environ["ARENA_BOT_ADDRESS"][len("unix://"):]), "bot.log")
    os.unlink(log)
    os.symlink(ARGS[0], log)


def decide(observation: bot_pb2.Observation, legal_actions: Sequence[bot_pb2.Action]) -> int | bot_pb2.DecideResponse:
    global _decisions
    _decisions += 1
    if BEHAVIOUR == "sleep":
        time.sleep(60)
    elif BEHAVIOUR == "sleep-once" and _decisions == 1:
        time.sleep(0.6)
    elif BEHAVIOUR == "crash" and _decisions > 3:
        os._exit(3)
    elif BEHAVIOUR == "swap-log":
        swap_log()
        os._exit(3)
    elif BEHAVIOUR == "bad-index":
        return len(legal_actions) + 5
    elif BEHAVIOUR == "negative-index":
        return -1
    elif BEHAVIOUR == "huge-answer":
        return bot_pb2.DecideResponse(action_index=0, comment="x" * (8 * MiB))
    elif BEHAVIOUR == "memory-bomb":
        memory_bomb()
    elif BEHAVIOUR == "cpu-spin":
        cpu_spin()
    elif BEHAVIOUR == "fork-bomb":
        fork_bomb()
    elif BEHAVIOUR == "snoop" and _decisions == 1:
        return bot_pb2.DecideResponse(action_index=0, comment=snoop())
    elif BEHAVIOUR == "network" and _decisions == 1:
        return bot_pb2.DecideResponse(action_index=0, comment=network())
    return 0


def never_healthy() -> None:
    from grpc_health.v1 import health_pb2

    bound = serve(decide, name="hostile-never-healthy", version="1.0", author="tests")
    bound.health.set("", health_pb2.HealthCheckResponse.NOT_SERVING)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    stop.wait()


if __name__ == "__main__":
    if BEHAVIOUR == "never-healthy":
        never_healthy()
        sys.exit()
    if BEHAVIOUR == "orphan":
        orphan()
    run_bot(decide, name=f"hostile-{BEHAVIOUR}", version="1.0", author="tests", games=["*"])
