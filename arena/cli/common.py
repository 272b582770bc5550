"""Options and parsing shared by the ``arena`` commands: running matches, and the ``--db`` file
most of them open."""

from __future__ import annotations

import functools
import os
import tempfile
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click
from rich.console import Console
from rich.table import Table

from arena.cli.hints import arena_hint
from arena.league.storage import DEFAULT_DB, Database, StorageError
from referee.games import game_class
from referee.games.base import SettingsError, State
from referee.result import FaultKind, MatchRecord, MoveStatus
from referee.sandbox import Limits, SandboxConfig, SandboxError, SandboxMode

if TYPE_CHECKING:  # the match runner imports grpc: loaded only by the commands that play (fast start)
    from arena.executors import Executor
    from referee.match import TimeControl

F = TypeVar("F", bound=Callable[..., Any])


def check_output_path(path: Any, option: str, *, database: Path | None = None) -> None:
    """Refuse an output file that cannot be written, before any work is done; with
    ``database``, also the database file that command reads, or its journals: an output
    written over them would replace the league.

    :raises click.BadParameter: naming the option and the reason (:func:`output_path_problem`).
    """
    problem = output_path_problem(Path(path))
    if problem is None and database is not None and Path(path).resolve() in database_files(database):
        problem = f"is the database {database} (or its journal): give another file"
    if problem is not None:
        raise click.BadParameter(f"{path}: {problem}", param_hint=option)


def database_files(database: Path) -> set[Path]:
    """The files SQLite keeps a database in: the file and its journals, resolved."""
    main = Path(database).resolve()
    return {main, *(main.with_name(main.name + suffix) for suffix in ("-wal", "-shm", "-journal"))}


def check_database_path(path: Path) -> None:
    """Refuse a database this command would write where it cannot, before any bot starts.

    :raises click.BadParameter: naming ``--db`` and the reason (:func:`database_path_problem`).
    """
    problem = database_path_problem(Path(path))
    if problem is not None:
        raise click.BadParameter(f"{path}: {problem}", param_hint="--db")


def parse_settings(pairs: Sequence[str]) -> dict[str, str]:
    """``("k=v", ...)`` -> ``{"k": "v"}``; the engine converts and checks the values."""
    settings = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"{pair!r} is not NAME=VALUE", param_hint="--setting")
        settings[key.strip()] = value.strip()
    return settings


def time_control_options(function: F) -> F:
    """Add --move-timeout, --time-bank, --max-faults and --startup-timeout."""
    options = [
        click.option("--move-timeout", type=click.FloatRange(min=0.001), default=1.0, show_default=True,
                     help="Seconds each decision may take before the bank is used."),
        click.option("--time-bank", type=click.FloatRange(min=0), default=10.0, show_default=True,
                     help="Extra seconds per bot for a whole match."),
        click.option("--max-faults", type=click.IntRange(min=1), default=3, show_default=True,
                     help="Faults (timeouts, errors, invalid answers) before a bot forfeits a match."),
        click.option("--startup-timeout", type=click.FloatRange(min=0.1), default=10.0, show_default=True,
                     help="Seconds a bot may take to start serving."),
    ]
    for option in reversed(options):
        function = option(function)
    return function


def make_time_control(move_timeout: float, time_bank: float, max_faults: int, startup_timeout: float) -> TimeControl:
    from referee.match import TimeControl

    return TimeControl(move_timeout=move_timeout, time_bank=time_bank, max_faults=max_faults,
                       startup_timeout=startup_timeout)


def sandbox_options(function: F) -> F:
    """Add --sandbox and the per-bot resource limits; the command gets ``sandbox`` (a
    :class:`SandboxConfig`, already resolved, so a missing bwrap fails or warns up front)."""
    defaults = Limits()
    limit_options = [
        ("--memory-mb", "memory_mb", "Data segment (heap) per bot process, MiB."),
        ("--cpu-seconds", "cpu_seconds", "CPU seconds per bot process over its life; then SIGXCPU, SIGKILL."),
        ("--max-open-files", "open_files", "Open files per bot process."),
        ("--max-file-mb", "file_size_mb", "Largest file a bot may write (its log included), MiB."),
        ("--max-processes", "processes", "Processes and threads per bot (bwrap mode)."),
        ("--tmp-mb", "tmp_mb", "Size of the bot's private /tmp (bwrap mode), MiB."),
    ]

    def wrapper(*args: Any, sandbox: str, **kwargs: Any) -> Any:
        limits = Limits(**{field: kwargs.pop(field) for _, field, _ in limit_options})
        try:
            config = SandboxConfig(SandboxMode(sandbox), limits).resolved()
        except SandboxError as error:
            raise click.ClickException(str(error)) from None
        return function(*args, sandbox=config, **kwargs)

    wrapper = functools.update_wrapper(wrapper, function)
    options = [click.option("--sandbox", type=click.Choice(["auto", "bwrap", "none"]), default="auto",
                            show_default=True,
                            help="How bots started from a manifest are confined: bwrap (bubblewrap: no network, "
                                 "no host files, own PID namespace, unprivileged user, limits), none (trusted "
                                 "bots), or auto (bwrap if it works here, else only the limits, with a warning). "
                                 "See docs/security.md.")]
    options += [click.option(flag, field, type=click.IntRange(min=1), default=getattr(defaults, field),
                             show_default=True, help=text) for flag, field, text in limit_options]
    for option in reversed(options):
        wrapper = option(wrapper)
    return wrapper  # type: ignore[return-value]


def executor_options(function: F) -> F:
    """Add --executor, --scheduler and --pin-cpus; the command gets ``executor_factory``, from
    :func:`make_executor_factory` (a scheduler without ``--executor dask`` is a usage error)."""

    def wrapper(*args: Any, executor: str, scheduler: str | None, pin_cpus: bool, **kwargs: Any) -> Any:
        if executor != "dask" and scheduler is not None:
            raise click.BadParameter("needs --executor dask", param_hint="--scheduler")
        factory = make_executor_factory(executor, scheduler, pin_cpus, announce=click.echo)
        return function(*args, executor_factory=factory, **kwargs)

    wrapper = functools.update_wrapper(wrapper, function)
    options = [
        click.option("--executor", type=click.Choice(["local", "dask"]), default="local", show_default=True,
                     help="Where matches run: --workers processes on this machine, or a Dask cluster "
                          "(pip install 'arena[distributed]'; see docs/scaling.md)."),
        click.option("--scheduler", metavar="tcp://HOST:PORT", default=None,
                     help="With --executor dask: the scheduler of a running cluster, which then plays as many "
                          "matches at once as it has worker threads (default: start a local cluster of "
                          "--workers processes)."),
        click.option("--pin-cpus/--no-pin-cpus", default=True, show_default=True,
                     help="Local workers: run each worker and its bots on one CPU of their own (in turn over the "
                          "CPUs), which makes calls faster and the clock fairer; --no-pin-cpus lets bots use "
                          "every CPU (for bots that think on several threads)."),
    ]
    for option in reversed(options):
        wrapper = option(wrapper)
    return wrapper  # type: ignore[return-value]


def make_executor_factory(executor: str, scheduler: str | None, pin_cpus: bool,
                          announce: Callable[[str], None]) -> Callable[[int, bool], Executor]:
    """``(workers, keep_alive) -> executor``: local workers (pinned or not), or Dask executors
    that ``announce`` their cluster.  Checked here, so that a missing ``distributed`` extra is a
    one-line error before anything is written."""
    if executor == "dask":
        try:
            from arena.executors.dask import executor_factory
        except ImportError as error:
            raise click.ClickException(str(error)) from None
        return executor_factory(scheduler, announce=announce)
    return functools.partial(_local_executor, pin_cpus=pin_cpus)


def _local_executor(workers: int, keep_alive: bool, *, pin_cpus: bool) -> Executor:
    from arena.executors.local import LocalExecutor

    return LocalExecutor(workers, keep_alive=keep_alive, pin_cpus=pin_cpus)


def print_result(console: Console, record: MatchRecord, title: str) -> None:
    """A finished match's ranking table, then one line per fault."""
    table = Table(title=title)
    for column in ("rank", "seat", "bot", "score", "faults"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for seat in sorted(range(record.num_players), key=lambda s: (record.ranking[s], s)):
        faults = sum(1 for fault in record.faults if fault.seat == seat)
        name = record.players[seat] + (" (forfeited)" if seat in record.forfeited else "")
        table.add_row(str(record.ranking[seat] + 1), str(seat), name, f"{record.scores[seat]:g}", str(faults))
    console.print(table)
    print_faults(console, record)


def print_seats(console: Console, players: Sequence[str]) -> None:
    """Who sits where, one line."""
    console.print("seats: " + ", ".join(f"{seat} {name}" for seat, name in enumerate(players)))


def print_match_log(console: Console, record: MatchRecord, *, verbose: bool) -> None:
    """The match as the engine tells it, re-simulated from the record by :func:`referee.replay.replay`.

    Short (the default): the milestones only, one line per hand, round or battle.  Verbose:
    every move with its status, time and comment, each followed by what it caused (deals,
    draws, hand ends); the full table's view, as an organiser may see it.
    """
    from referee.replay import replay

    shown = reached = 0

    def on_state(number: int, state: State[Any, Any]) -> None:
        nonlocal shown, reached
        reached = number
        if verbose and number:
            move = record.moves[number - 1]
            status = "" if move.status is MoveStatus.OK else f" [{move.status.value}]"
            comment = f"  # {move.comment}" if move.comment else ""
            console.print(f"  {number - 1:4d}  seat {move.seat} {record.players[move.seat]}: {move.action}{status} "
                          f"({move.elapsed_ms:.1f} ms){comment}")
        for event in state.events[shown:]:
            if verbose and event.action is None:
                console.print(f"        {event.text}")
            elif not verbose and event.milestone:
                console.print(f"  {event.text}")
        shown = len(state.events)

    replay(record, on_state)
    if reached < len(record.moves):
        console.print(f"  (the record does not replay from move {reached}: `{arena_hint('replay')}` says why)")


def forfeit_texts(record: MatchRecord) -> list[str]:
    """One line per forfeited seat, saying why: ``arena play`` exits 1 with them (docs/cli.md)."""
    texts = []
    for seat in record.forfeited:
        faults = [fault for fault in record.faults if fault.seat == seat]
        last = faults[-1] if faults else None
        if last is not None and last.kind is FaultKind.STARTUP:
            why = f"at start-up: {last.detail}"
        elif last is not None:
            at = f"at move {last.decision}" if last.decision is not None else "during the match"
            count = f" after {len(faults)} faults" if len(faults) > 1 else ""
            why = f"{at}{count} (last: {last.kind.value}: {last.detail})"
        else:
            why = "during the match"
        texts.append(f"seat {seat} ({record.players[seat]}) forfeited {why}")
    return texts


def print_faults(console: Console, record: MatchRecord) -> None:
    for fault in record.faults:
        at = f" at move {fault.decision}" if fault.decision is not None else ""
        console.print(f"fault: seat {fault.seat} {fault.kind.value}{at}: {fault.detail}")


def output_path_problem(path: Path) -> str | None:
    """Why ``path`` cannot take an output file, or ``None``: checked before any work, so that
    a long match or export does not end in an unwritable path."""
    if path.is_dir():
        return "is a folder"
    if path.exists() or path.is_symlink():
        return None if os.access(path, os.W_OK) else "is not writable"
    return folder_problem(path.parent)


def folder_problem(folder: Path) -> str | None:
    """Why no file can be created in ``folder``, or ``None``.

    Tried for real (a file created and removed at once): permission bits do not tell for
    root, read-only mounts or pseudo file systems such as ``/proc``.
    """
    if not folder.is_dir():
        return f"folder {folder} does not exist"
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".arena-write-check-"):
            pass
    except OSError as error:
        return f"cannot create files in {folder} ({error.strerror or error})"
    return None


def database_path_problem(path: Path) -> str | None:
    """Why ``path`` cannot be an arena database that this command writes, or ``None``: checked
    before any bot starts.  SQLite writes its journal files beside the database, so its folder
    must take new files even when the database exists."""
    if path.is_dir():
        return "is a folder"
    if (path.exists() or path.is_symlink()) and not os.access(path, os.R_OK | os.W_OK):
        return "is not writable"
    return folder_problem(path.parent)


def save_record(record: MatchRecord, path: Path) -> tuple[Path | None, str | None]:
    """Write the record's JSON to ``path``; if that fails (the disk filled, the folder went
    away), to a new file in the temporary folder instead, so that a played match is not lost.

    :returns: where it was written (``None``: nowhere), and why not to ``path`` (``None``: it was).
    """
    text = record.dumps() + "\n"
    try:
        path.write_text(text, encoding="utf-8")
        return path, None
    except OSError as error:
        why = error.strerror or str(error)
    try:
        handle, fallback = tempfile.mkstemp(prefix=f"arena-match-{record.match_id}-", suffix=".json")
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
        return Path(fallback), why
    except OSError:
        return None, why


# --- the database -----------------------------------------------------------------------------------------
def db_option(function: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--db", "db_path", type=click.Path(dir_okay=False, path_type=Path),
                        default=lambda: os.environ.get("ARENA_DB", DEFAULT_DB), show_default=f"{DEFAULT_DB}",
                        help=f"SQLite database file (default: {DEFAULT_DB} in the current folder, or $ARENA_DB).")(
        function)


def uploads_folder(db_path: Path, data_dir: Path | None) -> Path:
    """Where a server's uploads are stored: ``--data-dir``, else beside the database (DB's name
    + ``.data``); ``serve --uploads`` and ``submissions work`` must agree on it."""
    return data_dir or db_path.with_name(db_path.name + ".data")


def open_db(path: Path, *, create: bool = False, readonly: bool = False) -> Database:
    """Open the database, noting it for error messages (see :class:`arena.cli.main._Guarded`).

    Commands that only read pass ``readonly``: the file is opened in SQLite's read-only
    mode, so a missing, empty or foreign file is reported and never changed.
    """
    click.get_current_context().meta["arena.db"] = path
    try:
        return Database(path, create=create, readonly=readonly)
    except StorageError as error:
        raise click.ClickException(str(error)) from None


def check_game(game: str, variant: str | None) -> str:
    """The variant to use (the game's first by default); a clear error for unknown names."""
    try:
        cls = game_class(game)
    except SettingsError as error:
        raise click.ClickException(str(error)) from None
    if variant is not None and variant not in cls.variants:
        raise click.ClickException(f"{game} has no variant {variant!r} (variants: {', '.join(cls.variants)})")
    return variant or cls.variants[0]


def iso_time(stamp: float | None) -> str | None:
    """A stored time as ISO 8601 in local time with its UTC offset, to the second, or ``None``."""
    return None if stamp is None else datetime.fromtimestamp(stamp).astimezone().isoformat(timespec="seconds")
