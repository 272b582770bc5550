"""Where bots come from: manifests, addresses, and the processes the referee starts.

A bot is given either as a **manifest** (``bot.toml``, or a folder holding one) whose
``command`` starts its gRPC server, or as the **address** of a bot already running
(``host:port`` or ``unix:///path``).  For a command bot the referee chooses the address (a
Unix domain socket in a private temporary folder, so no port can clash), passes it in
``ARENA_BOT_ADDRESS``, starts the command in its own process group and, at the end, stops
the whole group: SIGTERM, a short grace, then SIGKILL.

Manifest fields::

    name = "random"                 # shown in results and rating tables
    version = "1.0"
    author = "arena"
    language = "python"
    command = ["{python}", "bot.py"]  # run in the manifest's folder; {python} is the
                                      # referee's own interpreter
    games = ["*"]                     # game names, or "*" for all
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

MANIFEST_NAME = "bot.toml"
_ADDRESS = re.compile(r"^(unix:.+|[A-Za-z0-9_.\-]+:\d{1,5}|\[[0-9a-fA-F:]+\]:\d{1,5})$")


class BotSpecError(ValueError):
    """A bot argument that names no usable bot (missing manifest, bad field, bad address)."""


class BotStartError(RuntimeError):
    """A bot command that did not start, or exited, before it served."""


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

    def plays(self, game: str) -> bool:
        return "*" in self.games or game in self.games

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
        command = data["command"]
        if isinstance(command, str):
            command = command.split()
        if not command or not all(isinstance(part, str) for part in command):
            raise BotSpecError(f"bot manifest {path}: 'command' must be a non-empty list of strings")
        games = data.get("games", ["*"])
        if isinstance(games, str):
            games = [games]
        return cls(name=str(data["name"]), version=str(data.get("version", "")), author=str(data.get("author", "")),
                   language=str(data.get("language", "")), command=tuple(command), directory=path.parent.resolve(),
                   games=tuple(str(g) for g in games), manifest=path.resolve())

    @classmethod
    def from_address(cls, address: str, name: str | None = None) -> BotSpec:
        if not _ADDRESS.match(address):
            raise BotSpecError(f"not a bot address: {address!r} (expected host:port or unix:///path)")
        return cls(name=name or address, address=address)


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
    """A bot command running in its own process group, listening on a private Unix socket."""

    def __init__(self, spec: BotSpec) -> None:
        if spec.command is None or spec.directory is None:
            raise BotSpecError(f"bot {spec.name} has no command to start")
        self.spec = spec
        self._folder = Path(tempfile.mkdtemp(prefix="arena-bot-"))
        self.address = f"unix://{self._folder / 'bot.sock'}"
        self._log_path = self._folder / "bot.log"
        command = [sys.executable if part == "{python}" else part for part in spec.command]
        env = dict(os.environ, ARENA_BOT_ADDRESS=self.address, PYTHONUNBUFFERED="1")
        try:
            with open(self._log_path, "wb") as log:
                self.process = subprocess.Popen(die_with_parent(command), cwd=spec.directory, env=env,
                                                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                                start_new_session=True)
        except OSError as error:
            shutil.rmtree(self._folder, ignore_errors=True)
            raise BotStartError(f"bot {spec.name}: cannot run {command[0]!r}: {error.strerror or error}") from None

    def alive(self) -> bool:
        return self.process.poll() is None

    def exit_description(self) -> str:
        """Why the process ended, with the last line it printed."""
        code = self.process.poll()
        if code is None:
            return "still running"
        how = f"killed by signal {-code}" if code < 0 else f"exited with status {code}"
        tail = self.output_tail()
        return f"{how}: {tail}" if tail else how

    def output_tail(self, lines: int = 1) -> str:
        try:
            text = self._log_path.read_text(encoding="utf-8", errors="replace").strip().splitlines()
        except OSError:
            return ""
        return " | ".join(line.strip() for line in text[-lines:])

    def stop(self, grace: float = 2.0) -> None:
        """Stop the bot and everything it started: SIGTERM to the group, then SIGKILL."""
        try:
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
        shutil.rmtree(self._folder, ignore_errors=True)

    def __enter__(self) -> BotProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

