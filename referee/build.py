"""A bot's build step, run in the sandbox, and the store of what it builds.

A manifest may name a build step that arena runs for it::

    [build]
    command = ["{python}", "build.py"]   # run in the bot's folder; {python} as for `command`

(A plain string ``build = "make"`` is still what it always was: a hint for humans, shown when
the program is missing; arena never runs it.)

**The build** (:func:`build_bot`) runs that command under :mod:`referee.sandbox`'s bubblewrap
confinement, as a bot runs: no network, its own PID namespace, the system folders and the
runtime of ``{python}`` read-only, the bot's own folder read-only, a private ``/tmp``, and the
outputs folder (passed in ``ARENA_BUILD``) as the only writable place.  :class:`BuildLimits`
bounds wall time, CPU time, memory, processes, the size of every file written and of the
outputs together, and the log kept.  Dependencies cannot be downloaded: they come vendored
in the upload, or from the host's read-only toolchains.

**The store** (:func:`ensure_built`): outputs live in ``<builds root>/<name>/<content hash>/``,
where the hash is :func:`referee.bot_tree.content_hash` of the bot's folder (every
file, vendored dependencies included), so a changed bot gets a new folder and an unchanged
one is never rebuilt.  The root is ``$ARENA_BUILDS``, else ``$XDG_CACHE_HOME/arena/builds``,
else ``~/.cache/arena/builds``.  A build writes into a fresh temporary folder beside its
final place, which is renamed into place only when the build succeeded and its outputs fit
the limits, so a half-written folder is never used; concurrent matches wait on a lock file
instead of building twice.  Every worker (local processes or Dask workers on other machines)
builds on first use into its own store, keyed by the same content hash; pointing
``ARENA_BUILDS`` at a shared filesystem lets workers share one build.  The log of the last
build of each hash is kept beside it (``<content hash>.log``).

At match time the referee shows the outputs folder to the bot read-only and passes its path
in ``ARENA_BUILD``.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import BinaryIO, Final

from referee.bot_tree import BotTreeError, content_hash
from referee.bots import BUILD_VARIABLE, BotSpec, die_with_parent, telling_line
from referee.untrusted import clean
from referee.sandbox import (Limits, SandboxConfig, SandboxMode, acquire_uid, bwrap_command, executable_prefix,
                             limits_command, lower_priority, python_runtime, release_uid,
                             sandbox_environment)

BUILDS_VARIABLE: Final = "ARENA_BUILDS"
"""The root of the store of outputs (see the module docstring)."""


class BuildError(RuntimeError):
    """A build step that failed, broke a limit, or could not be run; the message says which."""


@dataclass(frozen=True)
class BuildLimits:
    """What a build step may use.  The defaults fit a solver that runs for minutes (the
    optimal Yahtzee bot's tables: about a minute of CPU and 150 MB)."""

    wall_seconds: int = 1200
    cpu_seconds: int = 1200
    """Per process, as for bots (``RLIMIT_CPU``)."""
    memory_mb: int = 2048
    """Per process data segment, as for bots (:class:`referee.sandbox.Limits`)."""
    processes: int = 64
    output_mb: int = 512
    """Every file the build writes, and the outputs folder as a whole."""
    tmp_mb: int = 256
    log_kb: int = 64
    """The log kept: its last ``log_kb`` KiB (where the errors are)."""

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"build limit {name} must be a positive whole number, not {value!r}")

    def sandbox_limits(self) -> Limits:
        return Limits(memory_mb=self.memory_mb, cpu_seconds=self.cpu_seconds, file_size_mb=self.output_mb,
                      processes=self.processes, tmp_mb=self.tmp_mb)


@dataclass(frozen=True)
class BuildResult:
    """How a build ended: ``ok``, why not (``status``), its log (bounded), the time it took."""

    ok: bool
    status: str
    log: str
    outputs: Path
    seconds: float


def build_bot(source: Path, spec: BotSpec, outputs: Path, limits: BuildLimits = BuildLimits(),
              sandbox: SandboxMode = SandboxMode.BWRAP) -> BuildResult:
    """Run ``spec``'s build command in ``source`` (read-only) with ``outputs`` (an existing,
    empty folder) as its only writable place.

    ``sandbox`` is a resolved mode: ``bwrap`` confines the build as described in the module
    docstring; any other mode (an organiser who runs bots unsandboxed) applies the resource
    limits and the wall-time limit only.

    :raises BuildError: if the manifest names no build command.
    """
    if not spec.build_command:
        raise BuildError(f"bot {spec.name}: its manifest has no [build] command")
    source, outputs = Path(source).resolve(), Path(outputs).resolve()
    python = os.path.abspath(sys.executable)
    command = [python if part == "{python}" else part for part in spec.build_command]
    sandbox_limits = limits.sandbox_limits()
    uid = None
    if sandbox is SandboxMode.BWRAP:
        env = sandbox_environment(None) | {BUILD_VARIABLE: str(outputs)}
        read_only = python_runtime() if "{python}" in spec.build_command else []
        prefix = executable_prefix(command[0], env)
        if prefix is not None:
            read_only.append(prefix)
        if os.geteuid() == 0:
            uid = acquire_uid()
            os.chown(outputs, uid, uid)
        argv = bwrap_command(command, directory=source, read_only=read_only, writable=outputs,
                             limits=sandbox_limits, uid=uid)
    else:
        env = dict(os.environ, **{BUILD_VARIABLE: str(outputs)})
        argv = limits_command(command, sandbox_limits)
    started = time.perf_counter()
    try:
        with tempfile.TemporaryFile() as log:
            status = _run(argv, source, env, log, limits.wall_seconds, bwrap=sandbox is SandboxMode.BWRAP)
            text = _log_tail(log, limits.log_kb * 1024)
    finally:
        if uid is not None:
            release_uid(uid)
    seconds = time.perf_counter() - started
    if status == "":
        status = _seal(outputs, limits.output_mb * 1024 * 1024)
    return BuildResult(ok=status == "", status=status or "succeeded", log=text, outputs=outputs, seconds=seconds)


def _run(argv: list[str], cwd: Path, env: Mapping[str, str], log: BinaryIO, wall_seconds: int, *, bwrap: bool) -> str:
    """Run the build; ``""`` if it exited with 0, else how it ended."""
    try:
        process = subprocess.Popen(die_with_parent(argv), cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=log,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    except OSError as error:
        return f"could not run {argv[0]!r}: {error.strerror or error}"
    lower_priority(process.pid)
    try:
        code = process.wait(timeout=wall_seconds)
    except subprocess.TimeoutExpired:
        # bwrap's --die-with-parent takes the whole PID namespace with it.
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        return f"ran out of its wall time ({wall_seconds} s)"
    if code == 0:
        return ""
    if bwrap and code > 128:
        code = 128 - code  # bwrap exits with 128 + the signal that killed the command
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        reason = {"SIGXCPU": " (its CPU time limit)", "SIGKILL": " (a limit, or the wall time)",
                  "SIGXFSZ": " (a file over the size limit)"}.get(name, "")
        return f"was killed by {name}{reason}"
    return f"exited with status {code}"


def _log_tail(log: BinaryIO, limit: int) -> str:
    """The last ``limit`` bytes of the log, with a note of what was cut."""
    size = log.seek(0, os.SEEK_END)
    log.seek(max(0, size - limit))
    text = log.read(limit).decode("utf-8", errors="replace")
    return f"[... {size - limit} bytes of log cut ...]\n{text}" if size > limit else text


def _seal(outputs: Path, limit: int) -> str:
    """Check the outputs' total size and make them read-only and readable by every uid (a root
    referee runs each bot as a uid of its own); ``""`` if all is well, else the problem.

    Links are never followed: a build may leave one, and it is resolved only inside the bot's
    sandbox, which shows nothing of the host's private files.
    """
    total = 0
    for root, folders, files in os.walk(outputs):
        for name in folders + files:
            total += os.lstat(os.path.join(root, name)).st_size
    if total > limit:
        return f"wrote {total / 2**20:.1f} MiB of outputs, over the limit of {limit // 2**20} MiB"
    owner = os.geteuid()
    for root, folders, files in os.walk(outputs):
        os.lchown(root, owner, owner)
        os.chmod(root, 0o755)
        for name in files:
            path = os.path.join(root, name)
            info = os.lstat(path)
            os.lchown(path, owner, owner)
            if not os.path.islink(path):
                os.chmod(path, 0o555 if info.st_mode & 0o100 else 0o444)
        for name in folders:
            path = os.path.join(root, name)
            if os.path.islink(path):
                os.lchown(path, owner, owner)
    return ""


# --- the store ---------------------------------------------------------------------------------
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_failed: dict[Path, str] = {}
"""Builds that failed in this process, by outputs folder, with their error: not retried for
every match (a tournament with --allow-broken would rebuild a broken bot each time); a new
arena process tries again."""
_failed_lock = threading.Lock()


def builds_root(environ: Mapping[str, str] | None = None) -> Path:
    """Where built outputs live (see the module docstring); not created here."""
    env = os.environ if environ is None else environ
    if env.get(BUILDS_VARIABLE):
        return Path(env[BUILDS_VARIABLE])
    cache = env.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "arena" / "builds"


def build_folder(spec: BotSpec, root: Path | None = None) -> Path:
    """``<root>/<name>/<content hash>``: the bot's name made safe as a folder name (it comes
    from a stranger's manifest), the hash of its folder's files.

    :raises BuildError: if the bot's folder cannot be hashed (a link out of it, say).
    """
    assert spec.directory is not None
    name = _UNSAFE.sub("_", spec.name).lstrip(".") or "bot"
    try:
        digest = content_hash(spec.directory)
    except (BotTreeError, OSError) as error:
        raise BuildError(f"bot {spec.name}: cannot hash its folder for the build: {error}") from None
    return (root or builds_root()) / name / digest


def ensure_built(spec: BotSpec, sandbox: SandboxConfig = SandboxConfig(), limits: BuildLimits = BuildLimits(),
                 root: Path | None = None, folder: Path | None = None) -> Path:
    """The outputs folder of ``spec``'s build, built first (with a line on stderr) unless the
    store has it for this content hash.  ``folder`` is its :func:`build_folder`, for a caller
    that has it already (hashing reads every file of the bot); ``root`` is then unused.

    :raises BuildError: if the build fails; the message ends with the log's telling line and
        the log's path.
    :raises SandboxError: for ``--sandbox bwrap`` where bwrap does not work.
    """
    assert spec.directory is not None
    folder = folder or build_folder(spec, root)
    if folder.is_dir():
        return folder
    with _failed_lock:
        if folder in _failed:
            raise BuildError(_failed[folder])
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(folder.parent / f".{folder.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if folder.is_dir():
            return folder
        print(f"arena: building bot {spec.label} (once for these files) into {folder}", file=sys.stderr, flush=True)
        temporary = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=folder.parent))
        try:
            result = build_bot(spec.directory, spec, temporary, limits, sandbox.resolved().mode)
            log_path = folder.with_name(folder.name + ".log")
            log_path.write_text(result.log, encoding="utf-8")
            if not result.ok:
                line = clean(telling_line(result.log), 300)  # the build's own text: a stranger's
                message = f"bot {spec.name}: its build {result.status}{': ' + line if line else ''} (log: {log_path})"
                with _failed_lock:
                    _failed[folder] = message
                raise BuildError(message)
            temporary.rename(folder)
        finally:
            shutil.rmtree(temporary, ignore_errors=True)
        print(f"arena: built bot {spec.label} in {result.seconds:.0f} s (log: {log_path})", file=sys.stderr, flush=True)
    return folder
