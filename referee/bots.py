"""Where bots come from: manifests, addresses, and the processes the referee starts.

A bot is given either as a **manifest** (``bot.toml``, or a folder holding one) whose
``command`` starts its gRPC server, or as the **address** of a bot already running
(``host:port`` or ``unix:///path``).  For a command bot the referee chooses the address (a
Unix domain socket in a private temporary folder, so no port can clash), passes it in
``ARENA_BOT_ADDRESS``, starts the command in its own process group, inside the sandbox of
:mod:`referee.sandbox` unless told otherwise, and, at the end, stops all its processes
(:meth:`BotProcess.stop`).

Manifest fields::

    name = "random"                 # shown in results and rating tables
    version = "1.0"
    author = "arena"
    language = "python"
    command = ["{python}", "bot.py"]  # run in the manifest's folder; {python} is the
                                      # referee's own interpreter
    games = ["*"]                     # game names, or "*" for all
    build = "make"                    # optional: how a human builds the bot, named in
                                      # the error when its program is missing

    [sandbox]
    read_only = ["../build"]          # optional: more folders the bot reads, relative to
                                      # this file; only inside arena's sample_bots/ or proto/

or, instead of the ``build`` text, a build step that arena runs::

    [build]
    command = ["{python}", "build.py"]  # run in the sandbox before the bot's first match;
                                        # the bot's command may name "{build}/program"

In the sandbox a bot sees its own folder read-only; ``read_only`` lets the sample bots reach
the SDKs and builds they share.  It is confined to those public folders of arena so that a
stranger's manifest cannot ask for the organiser's files.  A ``[build]`` command runs in the
sandbox on first use, once per content hash of the bot's folder, and the bot then sees what
it wrote read-only, at the path in ``ARENA_BUILD`` (:mod:`referee.build`).

Each started bot gets a private folder in the temporary directory, named after the referee
process that owns it (``arena-bot-<pid>.<start time>-*``; ``check-bot`` makes
``arena-check-*`` ones the same way, and a run's own Dask cluster ``arena-dask-*`` for its
workers' scratch space).  The referee removes its folders when it stops a bot;
those of a referee that was killed (``kill -9``) are removed by the next referee that starts
(:func:`remove_stale_folders`).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from arena.resources import proto_dir, sample_bots_dir
from referee.sandbox import (UID_BASE, SandboxConfig, SandboxMode, acquire_uid, bwrap_command, executable_prefix,
                             limits_command, lower_priority, python_runtime, release_uid, sandbox_environment, within)
from referee.untrusted import clean

BUILD_VARIABLE = "ARENA_BUILD"
"""Where a bot finds its build step's outputs (read-only); :mod:`referee.build` writes them."""

MANIFEST_NAME = "bot.toml"
SHARED_FOLDERS = (sample_bots_dir().resolve(), proto_dir().resolve())
"""The only folders outside its own that a manifest may ask to read in the sandbox: the
sample bots and the protocol, in the checkout or inside the installed package."""
_ADDRESS = re.compile(r"^(unix:.+|[A-Za-z0-9_.\-]+:\d+|\[[0-9a-fA-F:]+\]:\d+)$")
BUILD_HINT_LIMIT = 200


def claims(games: Iterable[str], game: str) -> bool:
    """Whether a bot that lists ``games`` (its manifest's, or what it reports) plays ``game``;
    ``"*"`` is every game."""
    games = tuple(games)
    return "*" in games or game in games


class BotSpecError(ValueError):
    """A bot argument that names no usable bot (missing manifest, bad field, bad address)."""


class BotStartError(RuntimeError):
    """A bot command that did not start, or exited, before it served.

    ``output``: the last lines the bot printed (:meth:`BotProcess.last_lines`), for its author."""

    def __init__(self, message: str, output: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.output = output


@dataclass(frozen=True)
class BotSpec:
    """How to reach one bot: by the command in its manifest, or by an address."""

    name: str
    version: str = ""
    author: str = ""
    language: str = ""
    command: tuple[str, ...] | None = None
    address: str | None = None
    directory: Path | None = None
    games: tuple[str, ...] = ("*",)
    manifest: Path | None = None
    read_only: tuple[Path, ...] = ()
    """Extra folders the bot reads in the sandbox (from the manifest's ``[sandbox]`` table)."""
    build: str = ""
    """The manifest's build hint for humans, shown when the bot's program is missing or it dies at once."""
    build_command: tuple[str, ...] | None = None
    """The manifest's ``[build] command``, which arena runs in the sandbox before the bot's
    first match (:mod:`referee.build`)."""

    def plays(self, game: str) -> bool:
        return claims(self.games, game)

    @property
    def label(self) -> str:
        """``name`` or ``name@version`` for display."""
        return f"{self.name}@{self.version}" if self.version else self.name

    @classmethod
    def from_manifest(cls, path: Path) -> BotSpec:
        """Read a ``bot.toml``.

        :raises BotSpecError: if it is missing, unreadable or lacks a field.
        """
        path = Path(path)
        if path.is_dir():
            path = path / MANIFEST_NAME
        if not path.is_file():
            raise BotSpecError(f"no bot manifest at {path}")
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
            raise BotSpecError(f"cannot read bot manifest {path}: {error}") from None
        for key in ("name", "command"):
            if key not in data:
                raise BotSpecError(f"bot manifest {path} has no {key!r}")
        build = data.get("build", "")
        build_command = None
        if isinstance(build, dict):
            if "command" not in build:
                raise BotSpecError(f"bot manifest {path}: [build] has no 'command' (e.g. command = "
                                   f'["{{python}}", "build.py"])')
            build_command = tuple(_manifest_strings(path, build, "command", '["{python}", "build.py"]', table="build"))
            data = {key: value for key, value in data.items() if key != "build"}
        text = {key: _manifest_text(path, data, key) for key in ("name", "version", "author", "language", "build")}
        command = _manifest_strings(path, data, "command", '["{python}", "bot.py"]')
        games = _manifest_strings(path, data, "games", '["yaniv"] or ["*"]', default=["*"])
        return cls(name=clean(text["name"], 64), version=clean(text["version"], 64),
                   author=clean(text["author"], 128), language=clean(text["language"], 32),
                   command=tuple(command), directory=path.parent.resolve(),
                   games=tuple(games), manifest=path.resolve(),
                   read_only=_read_only(path, data.get("sandbox", {})),
                   build=_one_line(text["build"], BUILD_HINT_LIMIT), build_command=build_command)

    @classmethod
    def from_address(cls, address: str, name: str | None = None, version: str = "") -> BotSpec:
        """A bot already running at ``address``.

        :raises BotSpecError: for text that is not an address, or a port outside 1..65535.
        """
        if not _ADDRESS.match(address):
            raise BotSpecError(f"not a bot address: {address!r} (expected host:port or unix:///path)")
        if not address.startswith("unix:"):
            port = int(address.rpartition(":")[2])
            if not 1 <= port <= 65535:
                raise BotSpecError(f"bot address {address!r}: port {port} is out of range (1 to 65535)")
        return cls(name=name or address, version=version, address=address)

    def build_hint(self, *, missing: bool) -> str:
        """The manifest's build step as the end of an error line, or ``""`` if it names none.

        ``missing``: the bot's program is missing (so it is surely not built), rather than
        the bot having died before it served (which may or may not be for that reason).
        """
        if not self.build:
            return ""
        return f"; build it first: {self.build}" if missing else f"; if it is not built: {self.build}"


_TOML_TYPES = {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "a list",
               dict: "a table"}


def _toml_type(value: object) -> str:
    return _TOML_TYPES.get(type(value), "a date or time")


def _manifest_text(path: Path, data: dict[str, object], key: str) -> str:
    """A string field of the manifest ("" if absent): a wrong type is the author's error, said at once."""
    value = data.get(key, "")
    if not isinstance(value, str):
        raise BotSpecError(f"bot manifest {path}: {key!r} must be a string, not {_toml_type(value)}")
    return value


def _manifest_strings(path: Path, data: dict[str, object], key: str, example: str,
                      default: list[str] | None = None, table: str = "") -> list[str]:
    """A non-empty list-of-strings field (``command``; ``games``, which defaults to every game;
    ``[build] command``, whose ``table`` is ``"build"``)."""
    value = data.get(key, default)
    if not isinstance(value, list) or not value or not all(isinstance(item, str) for item in value):
        got = "an empty list" if value == [] else f"{_toml_type(value)}" if not isinstance(value, list) else \
            f"a list holding {_toml_type(next(item for item in value if not isinstance(item, str)))}"
        where = f"[{table}] {key}" if table else repr(key)
        raise BotSpecError(f"bot manifest {path}: {where} must be a list of strings, e.g. {key} = {example}, "
                           f"not {got}")
    return value


def _one_line(text: str, limit: int) -> str:
    """Untrusted manifest text made fit for a one-line message."""
    text = " ".join(clean(text).split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _read_only(manifest: Path, table: object) -> tuple[Path, ...]:
    """The manifest's ``[sandbox] read_only`` folders, resolved and checked."""
    entries = table.get("read_only", []) if isinstance(table, dict) else None
    if not isinstance(entries, list) or not all(isinstance(entry, str) for entry in entries):
        raise BotSpecError(f"bot manifest {manifest}: [sandbox] read_only must be a list of folder names")
    folders = []
    for entry in entries:
        folder = (manifest.parent / entry).resolve()
        if not within(folder, SHARED_FOLDERS):
            raise BotSpecError(f"bot manifest {manifest}: [sandbox] read_only {entry!r} is {folder}, outside the "
                               f"folders a bot may ask to read ({', '.join(map(str, SHARED_FOLDERS))})")
        folders.append(folder)
    return tuple(folders)


def resolve_bot(text: str) -> BotSpec:
    """A bot from a command-line argument: a manifest, a folder holding one, or an address.

    :raises BotSpecError: when ``text`` is none of these.
    """
    path = Path(text)
    if path.exists():
        return BotSpec.from_manifest(path)
    if _ADDRESS.match(text) and not text.endswith(".toml"):
        return BotSpec.from_address(text)
    raise BotSpecError(f"no bot manifest or address {text!r} (give a bot.toml, its folder, or host:port)")


def bot_files_hash(spec: BotSpec) -> str:
    """SHA-256 over the bot folder's files (names and contents), so a changed bot is noticed.

    Bots given by address hash their address.
    """
    digest = hashlib.sha256()
    if spec.directory is None:
        digest.update((spec.address or spec.name).encode())
        return digest.hexdigest()
    skip = {"__pycache__", "node_modules", "build", ".git"}
    for root, dirs, files in os.walk(spec.directory):
        dirs[:] = sorted(d for d in dirs if d not in skip)
        for name in sorted(files):
            file = Path(root, name)
            digest.update(str(file.relative_to(spec.directory)).encode() + b"\0")
            digest.update(file.read_bytes())
    return digest.hexdigest()


SETPRIV = shutil.which("setpriv")
"""util-linux's setpriv, used to give bots a parent-death signal."""

_SCRATCH_NAME = re.compile(r"^arena-(?:bot|check|dask)-(\d+)\.(\d+)-")
_swept: list[bool] = []
_sweep_lock = threading.Lock()


def _start_time(pid: int) -> int | None:
    """When process ``pid`` started (clock ticks after boot), or None if it is gone or a zombie."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return None
    if not fields or fields[0] in ("Z", "X"):
        return None
    return int(fields[19])


def owner_tag() -> str:
    """``<pid>.<start time>`` of this process: names its scratch folders, so that another
    referee can tell a dead owner's folders from a live one's even after the pid is reused."""
    pid = os.getpid()
    return f"{pid}.{_start_time(pid) or 0}"


def scratch_folder(kind: str) -> Path:
    """A new private folder ``arena-<kind>-<owner tag>-*`` in the temporary directory.

    The first call in a process removes the folders that dead referees left behind.
    """
    remove_stale_folders(once=True)
    return Path(tempfile.mkdtemp(prefix=f"arena-{kind}-{owner_tag()}-"))


def remove_stale_folders(*, once: bool = False) -> list[Path]:
    """Remove the scratch folders whose owning referee is no longer running; return them.

    Only real folders (not links) of this user, or of the sandbox's bot uids for a root
    referee, are touched; folders of a live referee are left alone.
    """
    with _sweep_lock:
        if once and _swept:
            return []
        _swept.append(True)
    removed = []
    euid = os.geteuid()
    try:
        entries = list(os.scandir(tempfile.gettempdir()))
    except OSError:
        return []
    for entry in entries:
        match = _SCRATCH_NAME.match(entry.name)
        if match is None:
            continue
        pid, started = int(match.group(1)), int(match.group(2))
        if _start_time(pid) == started:
            continue  # its referee still runs
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISDIR(info.st_mode) or not (info.st_uid == euid or (euid == 0 and info.st_uid >= UID_BASE)):
            continue
        shutil.rmtree(entry.path, ignore_errors=True)
        removed.append(Path(entry.path))
    return removed


def die_with_parent(command: list[str]) -> list[str]:
    """``command`` wrapped so the kernel kills it when the referee dies, even by ``kill -9``.

    ``setpriv --pdeathsig KILL`` sets the signal and execs the bot in place.  (Setting it from
    a ``preexec_fn`` instead would make Python fork rather than vfork a process that runs
    gRPC threads, and gRPC may abort in such a child before it reaches exec.)  Without
    setpriv the referee's own clean-up is the only guard.  The signal follows the thread
    that started the process, so bots are started from long-lived threads.
    """
    return [SETPRIV, "--pdeathsig", "KILL", "--", *command] if SETPRIV else command


class BotProcess:
    """A bot command running in its own process group, listening on a private Unix socket.

    ``sandbox`` says how it is confined (:mod:`referee.sandbox`); ``auto`` is resolved here,
    warning once if bwrap is not usable.

    :raises SandboxError: for ``bwrap`` mode where bwrap does not work.
    :raises BotStartError: if the command cannot be run.
    """

    def __init__(self, spec: BotSpec, sandbox: SandboxConfig = SandboxConfig()) -> None:
        if spec.command is None or spec.directory is None:
            raise BotSpecError(f"bot {spec.name} has no command to start")
        self.spec = spec
        self.sandbox = sandbox.resolved()
        self._folder = scratch_folder("bot")
        self.address = f"unix://{self._folder / 'bot.sock'}"
        self._log_path = self._folder / "bot.log"
        self.uid: int | None = None
        """The uid the bot runs as, when a root referee sandboxes it."""
        self._log: BinaryIO | None = None
        self._outputs: Path | None = None
        # Normalised: "/x/benchmarks/../.venv/bin/python" would pass through a folder the
        # sandbox does not show (symlinks are kept: a venv's python is a link).
        python = os.path.abspath(sys.executable)
        command = [python if part == "{python}" else part for part in spec.command]
        try:
            self._outputs = self._built()
            if self._outputs is not None:  # a program the build step made: "{build}/bot"
                command = [part.replace("{build}", str(self._outputs)) for part in command]
            self._check_program(command[0])
            argv, env = self._command(command)
            # Kept open and read through this descriptor: the bot owns the folder and could
            # swap the name for a link to a file it may not read.
            self._log = open(self._log_path, "w+b")
            self.process = subprocess.Popen(die_with_parent(argv), cwd=spec.directory, env=env,
                                            stdin=subprocess.DEVNULL, stdout=self._log, stderr=subprocess.STDOUT,
                                            start_new_session=True)
            lower_priority(self.process.pid)
        except OSError as error:
            self._clean_up()
            raise BotStartError(f"bot {spec.name}: cannot run {command[0]!r}: {error.strerror or error}") from None
        except BaseException:
            self._clean_up()
            raise

    def _check_program(self, program: str) -> None:
        """Fail before starting when the program is missing: wrapped in setpriv and the sandbox,
        it would only show as an exit with a wrapper's message."""
        spec = self.spec
        assert spec.directory is not None
        if "/" in program:
            path = spec.directory / program
            if not path.exists():
                raise BotStartError(f"bot {spec.name}: its program {program} does not exist ({path.resolve()})"
                                    f"{spec.build_hint(missing=True) or '; is it built?'}")
        elif shutil.which(program) is None:
            raise BotStartError(f"bot {spec.name}: its program {program!r} is not installed (not on PATH)"
                                f"{spec.build_hint(missing=True)}")

    def _command(self, command: list[str]) -> tuple[list[str], dict[str, str]]:
        """The argv and environment that start ``command`` in this process's sandbox mode."""
        spec = self.spec
        assert spec.directory is not None and spec.command is not None
        limits = self.sandbox.limits
        built = self._outputs
        extra = {BUILD_VARIABLE: str(built)} if built else {}
        if self.sandbox.mode is not SandboxMode.BWRAP:  # no isolation: the organiser's environment
            env = dict(os.environ, ARENA_BOT_ADDRESS=self.address, PYTHONUNBUFFERED="1", **extra)
            return (command if self.sandbox.mode is SandboxMode.NONE else limits_command(command, limits)), env
        env = sandbox_environment(self.address) | extra
        read_only = list(spec.read_only) + ([built] if built else [])
        if "{python}" in spec.command:
            read_only += python_runtime()
        prefix = executable_prefix(command[0], env)
        if prefix is not None:
            read_only.append(prefix)
        if os.geteuid() == 0:
            for folder in (spec.directory, *spec.read_only, *([built] if built else [])):
                if folder.is_dir() and folder.stat().st_mode & 0o005 != 0o005:
                    raise BotStartError(f"bot {spec.name}: the sandbox runs bots as an unprivileged user, who "
                                        f"cannot read {folder} (make it readable: chmod o+rX)")
            self.uid = acquire_uid()
            os.chown(self._folder, self.uid, self.uid)
        return bwrap_command(command, directory=spec.directory, read_only=read_only, writable=self._folder,
                             limits=limits, uid=self.uid), env

    def _built(self) -> Path | None:
        """The outputs of the manifest's ``[build]`` step, built first if this content hash
        has not been (``None`` for a bot without one).

        :raises BotStartError: if the build fails.
        """
        if not self.spec.build_command:
            return None
        from referee.build import BuildError, ensure_built  # here: referee.build uses this module's BotSpec

        try:
            return ensure_built(self.spec, self.sandbox)
        except BuildError as error:
            raise BotStartError(str(error)) from None

    def _clean_up(self) -> None:
        if self._log is not None:
            self._log.close()
        shutil.rmtree(self._folder, ignore_errors=True)
        if self.uid is not None:
            release_uid(self.uid)
            self.uid = None

    def alive(self) -> bool:
        return self.process.poll() is None

    def exit_description(self) -> str:
        """Why the process ended, with the last line it printed."""
        code = self.process.poll()
        if code is None:
            return "still running"
        if self.sandbox.mode is SandboxMode.BWRAP and code > 128:
            code = 128 - code  # bwrap exits with 128 + the signal that killed the bot
        how = f"killed by {_signal_name(-code)}" if code < 0 else f"exited with status {code}"
        output = self.output(4096)
        tail = telling_line(output)
        where = self.spec.directory and error_location(output, self.spec.directory)
        return f"{how}: {tail}{f' ({where})' if where else ''}" if tail else how

    def output(self, limit: int) -> str:
        """The last ``limit`` bytes of the bot's output (stdout and stderr), as text; read
        before :meth:`stop`, which deletes the log."""
        if self._log is None or self._log.closed:
            return ""
        try:
            size = os.fstat(self._log.fileno()).st_size
            tail = os.pread(self._log.fileno(), limit, max(0, size - limit))
        except OSError:
            return ""
        return tail.decode("utf-8", errors="replace")

    def output_tail(self) -> str:
        """The most telling line of the bot's last 4 KiB of output (:func:`telling_line`)."""
        return telling_line(self.output(4096))

    def last_lines(self) -> tuple[str, ...]:
        """The bot's last lines of output (:func:`last_lines`): the end of its traceback, or
        what it printed before a failure, for its author."""
        return last_lines(self.output(TAIL_BYTES))

    def sandbox_init(self) -> int | None:
        """In bwrap mode, the pid of the sandbox's first process (its PID namespace's init)."""
        if self.sandbox.mode is not SandboxMode.BWRAP:
            return None
        try:
            children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text().split()
        except OSError:
            return None
        return int(children[0]) if children else None

    def pin(self, cpus: set[int]) -> None:
        """Move the bot and every process it started, with all their threads, onto ``cpus``.

        For a bot started before its worker needed it (on any CPU, while the worker's CPU was
        busy playing): it then plays next to its referee.  Processes that vanish meanwhile, or
        that the bot moved out of reach, are skipped: where a bot runs is a matter of speed,
        not of safety.
        """
        for task in self.tasks():
            with contextlib.suppress(OSError):
                os.sched_setaffinity(task, cpus)

    def tasks(self) -> Iterator[int]:
        """The thread ids of the bot's process and of every process below it, read from /proc
        as the caller goes: a task's children are read only after the caller has had it, so a
        process it forks after :meth:`pin` moved it inherits the new CPUs and one forked before
        is still found.  Processes that vanish meanwhile are skipped."""
        pids, index = [self.process.pid], 0
        while index < len(pids):
            pid = pids[index]
            index += 1
            try:
                for task in os.listdir(f"/proc/{pid}/task"):
                    yield int(task)
                    with contextlib.suppress(OSError):
                        pids += [int(child) for child in
                                 Path(f"/proc/{pid}/task/{task}/children").read_text().split()]
            except OSError:
                continue

    def stop(self, grace: float = 2.0) -> None:
        """Stop the bot and everything it started.

        Sandboxed: SIGKILL to the sandbox's init, which makes the kernel kill every process
        in its PID namespace, and bwrap, its parent, reaps it and exits (killing bwrap first
        would leave the init to whichever process adopts orphans).  Otherwise: SIGTERM to
        the process group, a grace period, then SIGKILL to the group.
        """
        init = self.sandbox_init()
        try:
            if init is not None:
                os.kill(init, signal.SIGKILL)
            else:
                os.killpg(self.process.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            self.process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            pass
        # Children may outlive the leader; the group id is still the leader's pid.
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        if self.process.poll() is None:
            self.process.wait()
        self._clean_up()

    def __enter__(self) -> BotProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


_ERROR_LINE = re.compile(r"^([\w.]*(Error|Exception)\b[^:]*:|panic: |fatal error: |error: )", re.IGNORECASE)
_NOISE_LINE = re.compile(r"^(Node\.js v\d|\s|[\]\[{}()^]+$|exit status \d+$)")


def telling_line(output: str) -> str:
    """The line of a dying program's output that says why: the last error line (``Error: ...``,
    ``ValueError: ...``, ``panic: ...``) if there is one, else the last line that is not a
    runtime's footer (Node's ``Node.js v20...``), a stack frame (indented) or bracket debris.
    """
    lines = [line.rstrip() for line in output.splitlines() if line.strip()]
    for line in reversed(lines):
        if _ERROR_LINE.match(line):
            return line.strip()
    for line in reversed(lines):
        if not _NOISE_LINE.match(line):
            return line.strip()
    return lines[-1].strip() if lines else ""


TAIL_LINES = 20
TAIL_BYTES = 4096
TAIL_LINE_LIMIT = 300
_PYTHON_FRAME = re.compile(r'^\s*File "([^"]+)", line (\d+)')


def last_lines(output: str, count: int = TAIL_LINES) -> tuple[str, ...]:
    """The last ``count`` non-blank lines of ``output`` (a bot's: untrusted), each made one
    printable line of at most :data:`TAIL_LINE_LIMIT` characters; indentation is kept, as
    it shows a traceback's shape.  The first line of a cut-off read may be partial."""
    lines = [line.rstrip() for line in output.splitlines() if line.strip()][-count:]
    return tuple(clean(line, TAIL_LINE_LIMIT) for line in lines)


def error_location(output: str, folder: Path) -> str:
    """Where a Python bot failed: ``bot.py, line 3`` from the last ``File "...", line N`` of
    its traceback (a syntax error names the file and line only there), the path relative to
    the bot's ``folder`` when inside it; ``""`` when the output has none."""
    found = None
    for line in output.splitlines():
        match = _PYTHON_FRAME.match(line)
        if match:
            found = match
    if found is None:
        return ""
    path = Path(found[1])
    with contextlib.suppress(ValueError):
        path = path.relative_to(folder)
    return clean(f"{path}, line {found[2]}", TAIL_LINE_LIMIT)


def _signal_name(number: int) -> str:
    try:
        return f"signal {number} ({signal.Signals(number).name})"
    except ValueError:
        return f"signal {number}"
