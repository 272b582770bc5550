"""Run an untrusted bot command in a sandbox: bubblewrap namespaces plus resource limits.

A tournament runs code written by strangers, so by default (``auto``) every bot the referee
starts runs under Debian's ``bubblewrap`` (``bwrap``):

- **files**: a new, empty root with the system folders (``/usr``, ``/etc``, the ``/lib``
  links) read-only, the bot's own folder read-only, the runtime it needs read-only (for
  ``{python}``, the referee's interpreter and the ``arena`` SDK), a private ``/tmp`` of
  ``tmp_mb``, and the folder of its Unix socket, which is the only writable host folder.
  Nothing else of the host (home folders, the tournament database, other bots) exists;
- **network**: none (``--unshare-net``); the referee talks to it over that Unix socket;
- **processes**: its own PID, IPC and UTS namespaces, so it sees and signals only its own
  processes, and when the sandbox's first process dies the kernel kills all the others;
- **user**: when the referee runs as root, the bot runs as an unprivileged uid of its own
  (from :data:`UID_BASE`), with no capabilities and ``no_new_privs``; otherwise it keeps the
  organiser's uid inside a user namespace that sees only the folders listed above;
- **limits** (:class:`Limits`, via util-linux's ``prlimit``): data segment, CPU seconds,
  open files, file size, processes, no core files;
- **CPU priority** (:func:`lower_priority`, in every mode): bots run :data:`BOT_NICE` nice
  steps below the referee (nice 10 under a referee at 0), and so below the ladder and the
  web server, which have deadlines to keep and pages to serve on the same cores.

``limits`` mode (what ``auto`` falls back to when bwrap is missing or cannot create
namespaces, with a warning) applies the limits that need no namespaces; ``none`` applies
nothing.  ``docs/security.md`` has the threat model.
"""

from __future__ import annotations

import enum
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

BWRAP = shutil.which("bwrap")
SETPRIV = shutil.which("setpriv")
PRLIMIT = shutil.which("prlimit")
UID_BASE = 0x7000_0000
"""Bots started by a root referee run as uids from here up (to 0x7fffffff), one per bot
process, so that the process limit of one bot never counts another's processes.  The range
lies above the ones Linux distributions, systemd and container tools hand out."""
SYSTEM_READ_ONLY = ("/usr", "/etc")
SYSTEM_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
INSTALL_HINT = "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap)"


class SandboxError(RuntimeError):
    """The sandbox asked for cannot be provided (``--sandbox bwrap`` without a working bwrap)."""


class SandboxMode(str, enum.Enum):
    AUTO = "auto"
    """bwrap when it works here, else ``limits`` with a warning."""
    BWRAP = "bwrap"
    """bwrap or an error."""
    LIMITS = "limits"
    """Resource limits only (what ``auto`` falls back to)."""
    NONE = "none"
    """The bot runs as the referee's user with nothing limited: for trusted bots."""


@dataclass(frozen=True)
class Limits:
    """Per-process resource limits of a bot.

    ``memory_mb`` limits the data segment (``RLIMIT_DATA``: heap and private writable
    mappings), not the address space: runtimes such as Node, the JVM, Go and gRPC's thread
    pools reserve far more virtual memory than they use.  Limits are per process, so a bot
    that forks may use up to ``processes`` times ``memory_mb``.
    """

    memory_mb: int = 1024
    cpu_seconds: int = 600
    """CPU time of a bot process over its whole life (a kept-alive bot: over many matches)."""
    open_files: int = 256
    file_size_mb: int = 64
    """The largest file a bot may write, its own log (stdout and stderr) included."""
    processes: int = 128
    """Processes and threads of the bot's uid (bwrap mode only: without namespaces the
    count would include every process of the organiser's user)."""
    tmp_mb: int = 64
    """Size of the private ``/tmp`` (bwrap mode)."""

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"sandbox limit {name} must be a positive whole number, not {value!r}")

    def prlimit_options(self, *, processes: bool) -> list[str]:
        mib = 1024 * 1024
        options = [f"--data={self.memory_mb * mib}",
                   # The soft limit sends SIGXCPU, the hard one a second later SIGKILL.
                   f"--cpu={self.cpu_seconds}:{self.cpu_seconds + 1}",
                   f"--nofile={self.open_files}", f"--fsize={self.file_size_mb * mib}", "--core=0"]
        if processes:
            options.append(f"--nproc={self.processes}")
        return options


@dataclass(frozen=True)
class SandboxConfig:
    """How the referee starts command bots: the mode and the limits."""

    mode: SandboxMode = SandboxMode.AUTO
    limits: Limits = field(default_factory=Limits)

    def to_dict(self) -> dict[str, Any]:
        return {"mode": self.mode.value, "limits": asdict(self.limits)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> SandboxConfig:
        """The inverse of :meth:`to_dict`; missing keys take the defaults (older tournaments)."""
        data = data or {}
        return cls(SandboxMode(data.get("mode", SandboxMode.AUTO.value)), Limits(**data.get("limits", {})))

    def resolved(self) -> SandboxConfig:
        """``auto`` made concrete: ``bwrap`` if it works here, else ``limits`` (warned once).

        :raises SandboxError: for ``bwrap`` when bwrap is missing or does not work here.
        """
        if self.mode not in (SandboxMode.AUTO, SandboxMode.BWRAP):
            return self
        problem = bwrap_problem()
        if problem is None:
            return SandboxConfig(SandboxMode.BWRAP, self.limits)
        if self.mode is SandboxMode.BWRAP:
            raise SandboxError(f"--sandbox bwrap: {problem}; {INSTALL_HINT}, or choose --sandbox auto or none")
        _warn_once(f"arena: warning: {problem}, so bots run WITHOUT a sandbox: they can read your files "
                   f"and use the network (only resource limits apply). To contain untrusted bots, "
                   f"{INSTALL_HINT}; --sandbox none silences this warning. See docs/security.md.")
        return SandboxConfig(SandboxMode.LIMITS, self.limits)


_lock = threading.Lock()
_bwrap_problem: list[str | None] = []
_warned: set[str] = set()


def bwrap_problem() -> str | None:
    """``None`` if bwrap can build this module's sandbox here, else why not (checked once)."""
    with _lock:
        if not _bwrap_problem:
            _bwrap_problem.append(_probe_bwrap())
        return _bwrap_problem[0]


def _probe_bwrap() -> str | None:
    if BWRAP is None:
        return "bubblewrap (bwrap) is not installed"
    if PRLIMIT is None or (os.geteuid() == 0 and SETPRIV is None):
        return "util-linux's prlimit or setpriv is missing"
    probe = [BWRAP, *_namespace_options(), "--ro-bind", "/", "/", "--proc", "/proc", "--", "true"]
    try:
        result = subprocess.run(probe, stdin=subprocess.DEVNULL, capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"bubblewrap does not run here ({error})"
    if result.returncode != 0:
        reason = result.stderr.decode(errors="replace").strip().splitlines()
        return f"bubblewrap cannot create namespaces here ({reason[-1] if reason else result.returncode})"
    return None


def _warn_once(message: str) -> None:
    with _lock:
        if message in _warned:
            return
        _warned.add(message)
    print(message, file=sys.stderr)


def _namespace_options() -> list[str]:
    options = ["--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
               "--die-with-parent"]
    if os.geteuid() != 0:
        options.append("--unshare-user")  # an unprivileged bwrap needs it; root switches uid instead
    return options


# --- uids ------------------------------------------------------------------------------------------
_uids_in_use: set[int] = set()
_next_slot = [0]


def acquire_uid() -> int:
    """A uid no other bot of this referee process uses (another process gets other uids).

    Slots go round rather than lowest-free first, so that a uid is not handed on while the
    kernel is still reaping the last bot's processes, which count against its process limit.
    """
    slot_base = UID_BASE + (os.getpid() % (1 << 18)) * 1024
    with _lock:
        for _ in range(1024):
            uid = slot_base + _next_slot[0]
            _next_slot[0] = (_next_slot[0] + 1) % 1024
            if uid not in _uids_in_use:
                _uids_in_use.add(uid)
                return uid
    raise SandboxError("more than 1024 sandboxed bots running in one referee process")


def release_uid(uid: int) -> None:
    with _lock:
        _uids_in_use.discard(uid)


# --- the command -------------------------------------------------------------------------------------
def python_runtime() -> list[Path]:
    """What ``{python}`` needs to run the SDK: the interpreter's installation, the virtual
    environment, the ``arena`` and ``referee`` packages' folders (in site-packages, or in a
    source checkout for an editable install), and the site-packages folders of the SDK's
    dependencies wherever pip put them (outside the environment for ``pip install --user``).

    ``referee`` is shown because a learned bot's adapter (:mod:`arena.envs.policy`) encodes
    observations with the engines' codecs; an installed arena has it in site-packages, which
    the sandbox shows anyway, so a checkout now shows what an installation does.  It is
    public code, read-only, and holds no match's secrets."""
    import google.protobuf
    import grpc
    import grpc_health

    import arena
    import referee

    paths = {Path(sys.prefix), Path(sys.base_prefix), Path(os.path.realpath(sys.executable)).parents[1],
             Path(arena.__file__).resolve().parent, Path(referee.__file__).resolve().parent}
    for module in (grpc, grpc_health, google.protobuf):
        paths.add(Path(module.__file__).resolve().parents[module.__name__.count(".") + 1])
    return sorted(paths)


def executable_prefix(name: str, env: Mapping[str, str]) -> Path | None:
    """The installation folder of a command named without a path (``node`` -> ``/usr``).

    Never a folder that holds the organiser's home or working folder (``~/bin/tool`` gives
    ``~/bin``, not ``~``): a manifest names the command, and a stranger writes manifests.
    """
    if "/" in name:
        return None
    found = shutil.which(name, path=env.get("PATH"))
    if not found:
        return None
    binary = Path(os.path.realpath(found))
    prefix = binary.parents[1]
    private = (Path.home().resolve(), Path.cwd().resolve())
    if any(folder.is_relative_to(prefix) for folder in private):
        return binary.parent
    return prefix


def within(path: Path, folders: Iterable[Path]) -> bool:
    """True if ``path`` is one of ``folders`` or inside one."""
    return any(path.is_relative_to(folder) for folder in folders)


def bwrap_command(command: list[str], *, directory: Path, read_only: Iterable[Path], writable: Path,
                  limits: Limits, uid: int | None) -> list[str]:
    """``command`` run by bwrap in ``directory``: see the module docstring for what it sees.

    ``read_only`` are extra host folders to show (runtimes, shared SDKs); ``writable`` is the
    folder of the bot's socket.  ``uid`` (root only) is the uid the bot runs as.
    """
    argv = [str(BWRAP), *_namespace_options(), "--hostname", "arena-bot"]
    mounted = [Path(p) for p in SYSTEM_READ_ONLY if Path(p).is_dir()]
    for path in mounted:
        argv += ["--ro-bind", str(path), str(path)]
    for name in SYSTEM_LINKS:
        path = Path(name)
        if path.is_symlink():
            argv += ["--symlink", os.readlink(path), name]
        elif path.is_dir() and not within(path, mounted):
            argv += ["--ro-bind", name, name]
            mounted.append(path)
    argv += ["--dev", "/dev", "--proc", "/proc", "--size", str(limits.tmp_mb * 1024 * 1024), "--tmpfs", "/tmp"]
    binds: list[tuple[str, Path]] = []
    for path in sorted({Path(p) for p in read_only} | {directory}):
        if path.exists() and not within(path, mounted) and not within(path, [p for _, p in binds]):
            binds.append(("--ro-bind", path))
    binds.append(("--bind", writable))
    # bwrap makes missing parent folders mode 0700, which an unprivileged bot cannot cross.
    made = {Path("/"), Path("/dev"), Path("/proc"), Path("/tmp")}
    for _, path in binds:
        for parent in reversed(path.parents):
            if parent not in made and not within(parent, mounted):
                argv += ["--perms", "0755", "--dir", str(parent)]
                made.add(parent)
    for option, path in binds:
        argv += [option, str(path), str(path)]
    argv += ["--chdir", str(directory), "--", str(PRLIMIT), *limits.prlimit_options(processes=True), "--"]
    if uid is not None:
        argv += [str(SETPRIV), f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--no-new-privs",
                 "--inh-caps=-all", "--bounding-set=-all", "--"]
    return argv + command


def limits_command(command: list[str], limits: Limits) -> list[str]:
    """``command`` with the resource limits that need no namespaces (``limits`` mode)."""
    if PRLIMIT is None:
        _warn_once("arena: warning: util-linux's prlimit is missing, so bots run without resource limits")
        return command
    return [PRLIMIT, *limits.prlimit_options(processes=False), "--", *command]


BOT_NICE = 10
"""How many nice steps below the process that starts them bots (and builds) run.  Every bot
gets the same, so they stay equal among themselves; the platform's own processes come first
when the cores are busy."""
_LOWEST = 19
_AUTOGROUP_TRIES = 3


def lower_priority(pid: int) -> None:
    """Put the session that process ``pid`` leads (a bot or a build, started with
    ``start_new_session``) :data:`BOT_NICE` steps below this process, best effort.

    Two settings, because Linux may compare either: the nice value of the processes of its
    process group (inherited by any they start later), and, where Linux shares the CPU
    between sessions first (its *autogroup* scheduling, on by default on desktop and server
    kernels), the nice value of the session's group.  Without the second, a nice bot still
    weighs as much as the whole web server: in a ladder soak the web pages' p99 was 552 ms
    with bots at the default and 29 ms with their groups at nice 10 (docs/ladder.md).

    The kernel lets an unprivileged process change a group's nice value once per 100 ms, so
    a refused write is retried a few times; a bot left at the default still plays.
    """
    try:
        os.setpriority(os.PRIO_PGRP, pid, bot_nice(os.getpriority(os.PRIO_PROCESS, 0)))
    except OSError:
        pass  # it already exited, or the platform may not (a bot of another uid, without root)
    mine = autogroup_nice(os.getpid())
    if mine is None:
        return  # no autogroups in this kernel
    for attempt in range(_AUTOGROUP_TRIES):
        try:
            with open(f"/proc/{pid}/autogroup", "w", encoding="ascii") as group:
                group.write(str(bot_nice(mine)))
            return
        except BlockingIOError:  # EAGAIN: another group's nice was set less than 100 ms ago
            time.sleep(0.11 * (attempt + 1))
        except OSError:
            return  # the process has exited


def bot_nice(platform: int) -> int:
    """The nice value of a bot started by a process at nice ``platform``."""
    return min(_LOWEST, platform + BOT_NICE)


def autogroup_nice(pid: int) -> int | None:
    """The nice value of process ``pid``'s autogroup, ``None`` without autogroups."""
    try:
        return int(Path(f"/proc/{pid}/autogroup").read_text().split()[-1])  # "/autogroup-123 nice 0"
    except (OSError, ValueError, IndexError):
        return None


def sandbox_environment(address: str | None) -> dict[str, str]:
    """The whole environment of a sandboxed bot (the organiser's may hold secrets); ``None``
    leaves ``ARENA_BOT_ADDRESS`` out, for a build step that serves nothing."""
    env = {"PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"), "HOME": "/tmp", "TMPDIR": "/tmp",
           "LANG": os.environ.get("LANG", "C.UTF-8"), "PYTHONUNBUFFERED": "1", "PYTHONDONTWRITEBYTECODE": "1"}
    if address is not None:
        env["ARENA_BOT_ADDRESS"] = address
    return env
