"""A bot's build step, for real: tiny bots whose ``build.py`` runs under bubblewrap, what it may
write, its limits and log, and the outputs a bot then reads read-only at match time."""

from __future__ import annotations

import os
import socket
import uuid
from pathlib import Path

import pytest

from referee.bots import BotSpec, BotSpecError, BotStartError
from referee.build import BuildError, BuildLimits, build_bot, build_folder, ensure_built
from referee.match import BotConnection
from referee.sandbox import SandboxConfig, SandboxMode, bot_nice, bwrap_problem

from loopback import connections_to, listener  # noqa: F401 (listener is a fixture)

pytestmark = pytest.mark.skipif(bwrap_problem() is not None, reason=f"no working bubblewrap: {bwrap_problem()}")
BWRAP = SandboxConfig(SandboxMode.BWRAP)

BOT = """\
import os
from pathlib import Path

from arena.sdk import run_bot

outputs = Path(os.environ["ARENA_BUILD"])
answer = (outputs / "answer.txt").read_text().strip()
try:
    (outputs / "answer.txt").write_text("changed")
    wrote = "wrote"
except OSError:
    wrote = "read-only"
run_bot(lambda observation, legal: 0, name="built", version=f"{answer}-{wrote}", games=["*"])
"""


def make_bot(folder: Path, build: str, *, bot: str = BOT) -> BotSpec:
    """A bot whose ``[build] command`` runs ``build`` as build.py."""
    folder.mkdir(parents=True)
    (folder / "bot.toml").write_text('name = "built"\ncommand = ["{python}", "bot.py"]\n\n'
                                     '[build]\ncommand = ["{python}", "build.py"]\n')
    (folder / "build.py").write_text(build)
    (folder / "bot.py").write_text(bot)
    return BotSpec.from_manifest(folder)


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private store of build outputs (``ARENA_BUILDS``)."""
    root = tmp_path / "builds"
    monkeypatch.setenv("ARENA_BUILDS", str(root))
    return root


def test_the_bot_reads_its_build_outputs_read_only(tmp_path: Path, store: Path, capfd) -> None:
    spec = make_bot(tmp_path / "bot", "import os\nopen(os.environ['ARENA_BUILD'] + '/answer.txt', 'w').write('42')\n")
    for _ in range(2):
        connection = BotConnection(spec, 20, BWRAP)
        try:
            assert connection.info.version == "42-read-only"
        finally:
            connection.close()
    folder = build_folder(spec)
    assert folder.parent.parent == store and (folder / "answer.txt").read_text() == "42"
    assert capfd.readouterr().err.count("arena: building bot built") == 1  # the second match reuses it


def test_the_bot_can_run_a_program_its_build_made(tmp_path: Path, store: Path) -> None:
    """``{build}`` in the bot's command is the outputs folder (a compiled bot's binary)."""
    build = ("import os, shutil\nout = os.environ['ARENA_BUILD']\nopen(out + '/answer.txt', 'w').write('7')\n"
             "shutil.copy('bot.py', out + '/main.py')\n")
    folder = tmp_path / "bot"
    make_bot(folder, build)
    (folder / "bot.toml").write_text('name = "built"\ncommand = ["{python}", "{build}/main.py"]\n\n'
                                     '[build]\ncommand = ["{python}", "build.py"]\n')
    connection = BotConnection(BotSpec.from_manifest(folder), 20, BWRAP)
    try:
        assert connection.info.version == "7-read-only"
    finally:
        connection.close()


def test_a_changed_bot_gets_a_new_outputs_folder(tmp_path: Path, store: Path) -> None:
    spec = make_bot(tmp_path / "bot", "pass\n")
    before = build_folder(spec)
    (tmp_path / "bot" / "vendored.py").write_text("VERSION = 2\n")
    assert build_folder(spec) != before and build_folder(spec).parent == before.parent


def test_a_failed_build_stops_the_bot_with_its_log_and_leaves_no_outputs(tmp_path: Path, store: Path) -> None:
    spec = make_bot(tmp_path / "bot", "print('compiling')\nraise SystemExit('error: missing header foo.h')\n")
    with pytest.raises(BotStartError, match="its build exited with status 1: error: missing header foo.h") as caught:
        BotConnection(spec, 20, BWRAP)
    folder = build_folder(spec)
    assert not folder.exists() and [p.name for p in folder.parent.iterdir() if not p.name.startswith(".")] == \
        [folder.name + ".log"]
    assert str(folder) + ".log" in str(caught.value)
    assert "compiling" in (folder.parent / (folder.name + ".log")).read_text()
    (folder.parent / (folder.name + ".log")).unlink()
    with pytest.raises(BotStartError, match="missing header foo.h"):  # not rebuilt for each match
        BotConnection(spec, 20, BWRAP)
    assert not (folder.parent / (folder.name + ".log")).exists()


def test_the_error_line_of_a_build_is_made_printable(tmp_path: Path, store: Path) -> None:
    spec = make_bot(tmp_path / "bot", "raise SystemExit('error: \\x1b[2J gone')\n")
    with pytest.raises(BuildError) as caught:
        ensure_built(spec, BWRAP)
    assert "\x1b" not in str(caught.value) and "error: \ufffd[2J gone" in str(caught.value)




NETWORK_BUILD = """\
import socket
try:
    socket.create_connection(("127.0.0.1", {port}), timeout=3).close()
    print("connected")
except OSError as error:
    print("no connection:", error)
"""


@pytest.mark.parametrize("mode", [SandboxMode.BWRAP, SandboxMode.LIMITS], ids=["sandboxed", "control"])
def test_a_build_has_no_network(tmp_path: Path, listener: socket.socket, mode: SandboxMode) -> None:
    """The control (limits only) shows that the same build does connect where it may."""
    spec = make_bot(tmp_path / "bot", NETWORK_BUILD.format(port=listener.getsockname()[1]))
    outputs = tmp_path / "out"
    outputs.mkdir()
    result = build_bot(spec.directory, spec, outputs, BuildLimits(), mode)
    if mode is SandboxMode.BWRAP:
        assert result.ok and "no connection" in result.log and connections_to(listener) == 0
    else:
        assert "connected" in result.log and connections_to(listener) == 1


def test_a_build_writes_nowhere_but_its_outputs(tmp_path: Path) -> None:
    token = uuid.uuid4().hex
    targets = [tmp_path / "bot" / "pwned", Path.home() / f"pwned-{token}", Path("/tmp") / f"pwned-{token}",
               tmp_path / "pwned"]
    build = "import os\nresults = []\n"
    for target in targets:
        build += (f"try:\n    open({str(target)!r}, 'w').write('x')\n    results.append('wrote')\n"
                  f"except OSError as error:\n    results.append(type(error).__name__)\n")
    build += "open(os.environ['ARENA_BUILD'] + '/mine', 'w').write('ok')\nprint(results)\n"
    spec = make_bot(tmp_path / "bot", build)
    outputs = tmp_path / "out"
    outputs.mkdir()
    try:
        result = build_bot(spec.directory, spec, outputs, BuildLimits(), SandboxMode.BWRAP)
        assert result.ok, result.log
        assert [p.name for p in outputs.iterdir()] == ["mine"]
        assert not any(target.exists() for target in targets), result.log
    finally:
        for target in targets:
            target.unlink(missing_ok=True)


@pytest.mark.parametrize(("limits", "build", "status"), [
    (BuildLimits(wall_seconds=2), "import time\ntime.sleep(60)\n", "ran out of its wall time (2 s)"),
    (BuildLimits(cpu_seconds=1), "while True:\n    pass\n", "was killed by SIGXCPU (its CPU time limit)"),
    (BuildLimits(memory_mb=100), "block = bytearray(400 * 2**20)\n", "exited with status 1"),
    (BuildLimits(output_mb=1),
     "import os\nfor name in 'ab':\n    open(os.environ['ARENA_BUILD'] + '/' + name, 'wb').write(bytes(700_000))\n",
     "wrote 1.3 MiB of outputs, over the limit of 1 MiB"),
], ids=["wall-time", "cpu-time", "memory", "outputs-size"])
def test_a_build_that_breaks_a_limit_fails(tmp_path: Path, limits: BuildLimits, build: str, status: str) -> None:
    spec = make_bot(tmp_path / "bot", build)
    outputs = tmp_path / "out"
    outputs.mkdir()
    result = build_bot(spec.directory, spec, outputs, limits, SandboxMode.BWRAP)
    assert not result.ok and result.status == status, result.log
    assert result.seconds < 30
    if "memory" in build:
        assert "MemoryError" in result.log


def test_the_same_allocation_passes_under_the_default_memory_limit(tmp_path: Path) -> None:
    """The memory case above fails for its limit, not for the allocation itself."""
    spec = make_bot(tmp_path / "bot", "block = bytearray(400 * 2**20)\n")
    outputs = tmp_path / "out"
    outputs.mkdir()
    assert build_bot(spec.directory, spec, outputs, BuildLimits(), SandboxMode.BWRAP).ok


def test_a_build_cannot_start_more_than_its_processes(tmp_path: Path) -> None:
    build = ("import threading, time\nfor _ in range(40):\n"
             "    threading.Thread(target=time.sleep, args=(2,), daemon=True).start()\nprint('started 40')\n")
    spec = make_bot(tmp_path / "bot", build)
    for limits, ok in ((BuildLimits(processes=20), False), (BuildLimits(), True)):
        outputs = tmp_path / f"out-{ok}"
        outputs.mkdir()
        result = build_bot(spec.directory, spec, outputs, limits, SandboxMode.BWRAP)
        assert result.ok is ok, result.log
        assert ("started 40" in result.log) is ok and ("can't start new thread" in result.log) is not ok


def test_a_file_over_the_size_limit_cannot_be_written(tmp_path: Path) -> None:
    build = "import os\nopen(os.environ['ARENA_BUILD'] + '/big', 'wb').write(bytes(3 * 2**20))\n"
    spec = make_bot(tmp_path / "bot", build)
    outputs = tmp_path / "out"
    outputs.mkdir()
    result = build_bot(spec.directory, spec, outputs, BuildLimits(output_mb=1), SandboxMode.BWRAP)
    assert not result.ok and "File too large" in result.log


def test_the_build_log_is_kept_and_bounded(tmp_path: Path) -> None:
    spec = make_bot(tmp_path / "bot", "for i in range(100_000):\n    print(f'line {i}')\n")
    outputs = tmp_path / "out"
    outputs.mkdir()
    result = build_bot(spec.directory, spec, outputs, BuildLimits(log_kb=4), SandboxMode.BWRAP)
    assert result.ok
    head, _, tail = result.log.partition("\n")
    assert head.startswith("[... ") and head.endswith(" bytes of log cut ...]")
    assert len(tail.encode()) == 4096 and tail.endswith("line 99999\n")


def test_ensure_built_refuses_a_bot_without_a_build_step(tmp_path: Path, store: Path) -> None:
    folder = tmp_path / "plain"
    folder.mkdir()
    (folder / "bot.toml").write_text('name = "plain"\ncommand = ["./bot"]\nbuild = "make"\n')
    spec = BotSpec.from_manifest(folder)
    assert spec.build == "make" and spec.build_command is None
    with pytest.raises(BuildError, match="no \\[build\\] command"):
        ensure_built(spec)


@pytest.mark.parametrize(("table", "error"), [
    ('command = "make"', r"\[build\] command must be a list of strings, e.g. .*, not a string"),
    ("command = []", r"\[build\] command must be a list of strings, e.g. .*, not an empty list"),
    ("command = [1]", r"\[build\] command must be a list of strings, e.g. .*, not a list holding an integer"),
    ("", r"\[build\] has no 'command'")])
def test_a_build_table_needs_a_command_list(tmp_path: Path, table: str, error: str) -> None:
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "bot.toml").write_text(f'name = "b"\ncommand = ["./bot"]\n\n[build]\n{table}\n')
    with pytest.raises(BotSpecError, match=error):
        BotSpec.from_manifest(folder)


def test_a_strangers_name_makes_a_safe_folder_name(tmp_path: Path, store: Path) -> None:
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "bot.toml").write_text('name = "../../etc/x y"\ncommand = ["./bot"]\n\n[build]\ncommand = ["true"]\n')
    path = build_folder(BotSpec.from_manifest(folder))
    assert path.parent.parent == store and path.parent.name == "_.._etc_x_y"


def test_a_build_runs_at_the_bots_nice_value(tmp_path: Path) -> None:
    """A build is a stranger's code too: below the platform, as its bots are (referee.sandbox)."""
    nice = bot_nice(os.getpriority(os.PRIO_PROCESS, 0))
    build = ("import os, time\n"
             "deadline = time.monotonic() + 10\n"
             f"while os.getpriority(os.PRIO_PROCESS, 0) != {nice} and time.monotonic() < deadline:\n"
             "    time.sleep(0.05)  # the builder lowers it just after the start\n"
             "print('nice', os.getpriority(os.PRIO_PROCESS, 0))\n")
    spec = make_bot(tmp_path / "bot", build)
    outputs = tmp_path / "out"
    outputs.mkdir()
    result = build_bot(spec.directory, spec, outputs, BuildLimits(), SandboxMode.BWRAP)
    assert result.ok and f"nice {nice}\n" in result.log, result.log
