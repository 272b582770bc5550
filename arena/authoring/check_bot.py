"""``arena check-bot``: what a bot author runs before submitting a bot.

Starts (or connects to) the bot once, checks health and identity, then plays a few short
matches of every game it claims against random opponents (served in this process), with
the bot in each seat in turn.  The report lists protocol errors, illegal answers, decision
latency (median and p99) and time-bank use; any fault is a failure.  With the first failure
it keeps the bot's last lines of output (:attr:`CheckReport.output`): the end of a traceback
says why far better than the one line a fault quotes.
"""

from __future__ import annotations

import shutil
import statistics
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

from arena.sdk import BoundServer, random_decide, serve
from referee.bots import BotSpec, BotStartError, scratch_folder
from referee.client import PROTOCOL_VERSION
from referee.games import game_class, game_names
from referee.match import BotConnection, MatchConfig, TimeControl, run_match
from referee.result import Fault
from referee.sandbox import SandboxConfig


def percentile(values: Iterable[float], fraction: float) -> float:
    """The ``fraction`` quantile of ``values`` (not empty): the value at index
    ``fraction * n`` of the sorted values, the last one at most."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


@dataclass
class GameCheck:
    """One game's matches, seen from the checked bot's seats."""

    game: str
    matches: int = 0
    decisions: int = 0
    latencies_ms: list[float] = field(default_factory=list)
    bank_used_s: float = 0.0
    faults: list[Fault] = field(default_factory=list)
    aborted: list[str] = field(default_factory=list)
    """Matches the referee could not finish (an engine or referee error, not the bot's)."""
    duration_s: float = 0.0

    def percentile(self, fraction: float) -> float:
        return percentile(self.latencies_ms, fraction) if self.latencies_ms else 0.0

    @property
    def median_ms(self) -> float:
        return statistics.median(self.latencies_ms) if self.latencies_ms else 0.0


@dataclass
class CheckReport:
    """Everything ``check-bot`` found; :attr:`ok` decides the exit status."""

    bot: str
    startup_s: float = 0.0
    identity: str = ""
    problems: list[str] = field(default_factory=list)
    """Failures outside matches: start-up, identity, protocol version, unknown games."""
    games: list[GameCheck] = field(default_factory=list)
    output: tuple[str, ...] = ()
    """The bot's last lines of output at its first failure (a bot the referee started; a
    bot given by address prints where its author runs it)."""

    @property
    def ok(self) -> bool:
        return not self.problems and all(not game.faults and not game.aborted for game in self.games)

    def first_failure(self) -> str:
        """The first thing that failed, as one line (``""`` if nothing did)."""
        failures = self.problems + [f"{g.game}: {(g.aborted or [f'{f.kind.value}: {f.detail}' for f in g.faults])[0]}"
                                    for g in self.games if g.aborted or g.faults]
        return failures[0] if failures else ""


def claimed_games(games: list[str], problems: list[str]) -> list[str]:
    """The registered games among those a bot claims; unknown names become problems."""
    if "*" in games:
        return game_names()
    known = set(game_names())
    for name in games:
        if name not in known:
            problems.append(f"claims unknown game {name!r} (games: {', '.join(sorted(known))})")
    return [name for name in games if name in known]


def check_bot(spec: BotSpec, *, matches: int = 2, seed: int = 0, time_control: TimeControl = TimeControl(),
              only: list[str] | None = None, sandbox: SandboxConfig = SandboxConfig()) -> CheckReport:
    """Run every check against one bot, started in ``sandbox`` as a tournament would start it;
    never raises for the bot's misbehaviour."""
    report = CheckReport(bot=spec.label)
    started = time.monotonic()
    try:
        connection = BotConnection(spec, time_control.startup_timeout, sandbox)
    except Exception as error:  # noqa: BLE001 - any start-up failure is the report's subject
        report.problems.append(str(error))
        report.output = error.output if isinstance(error, BotStartError) else ()
        return report
    report.startup_s = time.monotonic() - started
    opponents: list[BoundServer] = []
    folder = scratch_folder("check")  # the random opponents' sockets
    try:
        info = connection.info
        report.identity = (f"{info.name} {info.version} by {info.author or '?'}, protocol {info.protocol_version}, "
                           f"games: {', '.join(info.games) or 'none'}")
        if info.protocol_version != PROTOCOL_VERSION:
            report.problems.append(f"speaks protocol version {info.protocol_version}, the referee {PROTOCOL_VERSION}")
            return report
        games = claimed_games(list(info.games), report.problems)
        if only:
            games = [name for name in games if name in only]
        if not games:
            report.problems.append("plays none of the games to check")
            return report
        max_seats = max(game_class(name).default_players for name in games)
        for number in range(max_seats - 1):
            opponents.append(serve(random_decide, name="random", version="check", address=f"unix://{folder}/r{number}.sock"))
        random_specs = [BotSpec.from_address(f"unix://{folder}/r{number}.sock", name=f"random-{number}")
                        for number in range(max_seats - 1)]
        for name in games:
            report.games.append(_check_game(name, connection, random_specs, matches, seed, time_control))
            if not report.output and (report.games[-1].faults or report.games[-1].aborted) and connection.process:
                report.output = connection.process.last_lines()
    finally:
        connection.close()
        for server in opponents:
            server.stop(None)
        shutil.rmtree(folder, ignore_errors=True)
    return report


def start_check(spec: BotSpec, sandbox: SandboxConfig = SandboxConfig()) -> CheckReport:
    """The quick check ``arena submit`` runs before uploading: the bot starts, answers health
    and identity, and plays one short match of the first game it claims (a few seconds, its
    build first if it has one), so that a bot that cannot start is not uploaded."""
    games = [name for name in game_names() if spec.plays(name)]
    return check_bot(spec, matches=1, only=games[:1], sandbox=sandbox)


def _check_game(name: str, connection: BotConnection, random_specs: list[BotSpec], matches: int, seed: int,
                time_control: TimeControl) -> GameCheck:
    check = GameCheck(name)
    cls = game_class(name)
    seats = cls.default_players
    started = time.monotonic()
    for number in range(matches):
        seat = number % seats
        bots: list[BotSpec | BotConnection] = list(random_specs[:seats - 1])
        bots.insert(seat, connection)
        config = MatchConfig(game=name, settings=cls.short_match_settings, seed=seed + number,
                             time_control=time_control)
        record = run_match(config, bots)
        check.matches += 1
        if not record.finished:
            check.aborted.append(f"seed {seed + number}: {record.reason}")
            break
        check.faults.extend(f for f in record.faults if f.seat == seat)
        own = [move for move in record.moves if move.seat == seat]
        check.decisions += len(own)
        check.latencies_ms.extend(move.elapsed_ms for move in own if move.elapsed_ms > 0)
        if record.bank_used:
            check.bank_used_s = max(check.bank_used_s, record.bank_used[seat])
        if seat in record.forfeited:
            break  # the rest would only repeat the forfeit
    check.duration_s = time.monotonic() - started
    return check
