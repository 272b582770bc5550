"""Run one match between bots over gRPC, with deadlines, a time bank and contained faults.

The runner owns the engine state and two random generators: the engine's (inside the state,
from the match seed) and a separate *fallback* generator (also from the seed) that picks a
uniformly random legal action whenever a bot faults.  Keeping them apart means a fault never
changes the cards or dice, and replaying the recorded action indices through the engine
reproduces the match exactly.

Time control: each Decide call has a deadline of ``move_timeout`` plus what is left of the
seat's ``time_bank``; time used beyond ``move_timeout`` is taken from the bank, and a missed
deadline drains it.  A timeout, an RPC error or an out-of-range answer is a fault; after
``max_faults`` faults, or as soon as the bot's process dies, the seat is forfeited: the
fallback plays the rest of its decisions and it ranks last (in a team game, with its
whole team).
"""

from __future__ import annotations

import random
import threading
import time
import uuid
from concurrent.futures import Future, ThreadPoolExecutor, wait
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import grpc

from arena.v1 import bot_pb2
from referee import wire
from referee.bots import BotProcess, BotSpec, BotStartError, claims
from referee.client import MAX_MESSAGE_BYTES, PROTOCOL_VERSION, REFUSED_PATIENCE, BotClient
from referee.games import make_game
from referee.games.base import Outcome, State
from referee.result import Fault, FaultKind, MatchRecord, Move, MoveStatus
from referee.sandbox import SandboxConfig
from referee.untrusted import clean

MAX_DECISIONS = 1_000_000
"""A guard against an engine that never ends; every engine has its own, much lower, caps."""
END_MATCH_TIMEOUT = 1.0
COMMENT_LIMIT = 200
FAULT_DETAIL_LIMIT = 500


@dataclass(frozen=True)
class TimeControl:
    """Per-match limits for every seat, in seconds."""

    move_timeout: float = 1.0
    time_bank: float = 10.0
    max_faults: int = 3
    startup_timeout: float = 10.0
    """How long a bot may take to report SERVING and answer Identify."""

    def to_proto(self) -> bot_pb2.TimeControl:
        return bot_pb2.TimeControl(move_timeout_ms=round(self.move_timeout * 1000),
                                   time_bank_ms=round(self.time_bank * 1000), max_faults=self.max_faults)


@dataclass(frozen=True)
class MatchConfig:
    """What to play: the game, its variant and settings, the seed and the time control."""

    game: str
    variant: str | None = None
    settings: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0
    match_id: str | None = None
    time_control: TimeControl = TimeControl()
    sandbox: SandboxConfig = SandboxConfig()
    """How command bots are confined; bots given by address run wherever they run."""
    seat_move_timeouts: Mapping[int, float] = field(default_factory=dict)
    """Seats whose move timeout differs from ``time_control``'s (a person at the web table)."""


@dataclass(frozen=True)
class BotUnavailable:
    """A bot its caller would not start, and why: its seat forfeits at start-up with that reason.

    A tournament worker uses it when the bot's folder there differs from the registered one.
    """

    spec: BotSpec
    reason: str


class BotConnection:
    """A ready bot: its process (if the referee started it), channel and identity."""

    def __init__(self, spec: BotSpec, startup_timeout: float, sandbox: SandboxConfig = SandboxConfig(),
                 on_launch: Callable[[BotProcess], None] | None = None) -> None:
        """Start (or connect to) the bot and wait until it serves and identifies itself.

        ``on_launch`` is called with the bot's process as soon as it is launched, before the
        wait (a worker uses it to let a booting bot use a CPU that has just become free).

        :raises BotStartError: with the reason, if it does not become ready in time.
        :raises SandboxError: if ``sandbox`` asks for bwrap and bwrap does not work here.
        """
        self.spec = spec
        begin = time.monotonic()
        self.process = BotProcess(spec, sandbox) if spec.command is not None else None
        if self.process is not None and on_launch is not None:
            on_launch(self.process)
        self.client = BotClient(self.process.address if self.process else str(spec.address))
        launched = time.monotonic()
        self.startup_phases: dict[str, float] = {"launch": launched - begin}
        """Seconds to start the process, then until SERVING, then until Identify answered."""
        try:
            alive = self.process.alive if self.process else (lambda: True)
            # A bot given by address should be running already: refusals mean it is not there.
            problem = self.client.wait_serving(startup_timeout, alive,
                                               refused_patience=None if self.process else REFUSED_PATIENCE)
            serving = time.monotonic()
            self.startup_phases["serving"] = serving - launched
            if problem is None:
                reply = self.client.identify(startup_timeout)
                problem = None if reply.ok else f"Identify failed: {reply.code.name}: {reply.detail}"
                self.info: bot_pb2.BotInfo = reply.response
                self.startup_phases["identify"] = time.monotonic() - serving
            if problem is not None:
                if self.process and not self.process.alive():
                    problem = f"{problem}; {self.process.exit_description()}{spec.build_hint(missing=False)}"
                raise BotStartError(clean(f"bot {spec.name}: {problem}", FAULT_DETAIL_LIMIT),
                                    self.process.last_lines() if self.process else ())
        except BaseException:
            self.close()
            raise

    def alive(self) -> bool:
        return self.process is None or self.process.alive()

    def close(self) -> None:
        self.client.close()
        if self.process is not None:
            self.process.stop()


_STARTER_THREADS = 16
_starter: ThreadPoolExecutor | None = None
_starter_lock = threading.Lock()


def start_bots(specs: Sequence[BotSpec], startup_timeout: float,
               sandbox: SandboxConfig = SandboxConfig()) -> list[BotConnection | BotStartError]:
    """Start several bots at once and wait until each serves (or fails): a match's start-up
    takes as long as its slowest bot, not the sum of them all.

    Returns, by position, the ready connection or the :class:`BotStartError` that says why
    not.  Bots are started from a process-wide pool of threads that live as long as the
    process, because the parent-death signal of :func:`referee.bots.die_with_parent` follows
    the thread that started a bot.  If the wait is interrupted (Ctrl-C, SIGTERM), every bot
    that still comes up is stopped as soon as it does.

    :raises SandboxError: if ``sandbox`` asks for bwrap and bwrap does not work here (the
        other bots are stopped).
    """
    global _starter
    if len(specs) <= 1:
        results: list[BotConnection | BotStartError] = []
        for spec in specs:
            try:
                results.append(BotConnection(spec, startup_timeout, sandbox))
            except BotStartError as error:
                results.append(error)
        return results
    with _starter_lock:
        if _starter is None:
            _starter = ThreadPoolExecutor(max_workers=_STARTER_THREADS, thread_name_prefix="arena-bot-start")
    futures = [_starter.submit(BotConnection, spec, startup_timeout, sandbox) for spec in specs]
    try:
        wait(futures)
    except BaseException:
        for future in futures:
            future.add_done_callback(close_unwanted)
        raise
    results = []
    failure: BaseException | None = None
    for future in futures:
        error = future.exception()
        if error is None:
            results.append(future.result())
        elif isinstance(error, BotStartError):
            results.append(error)
        else:
            failure = failure or error
    if failure is not None:
        for item in results:
            if isinstance(item, BotConnection):
                item.close()
        raise failure
    return results


def close_unwanted(future: Future[BotConnection]) -> None:
    """Stop a bot whose start was still under way when its caller gave up."""
    if not future.cancelled() and future.exception() is None:
        future.result().close()


@dataclass
class _Seat:
    """A seat's runtime: its connection (None once unusable), bank, faults, event cursor."""

    name: str
    connection: BotConnection | None
    bank: float
    faults: int = 0
    decisions: int = 0
    seen_events: int = 0
    forfeited: bool = False


class MatchRunner:
    """Plays one match; :func:`run_match` is the usual entry point."""

    def __init__(self, config: MatchConfig, bots: Sequence[BotSpec | BotConnection | BotUnavailable],
                 on_line: Callable[[str], None] | None = None,
                 on_state: Callable[[State[Any, Any]], None] | None = None) -> None:
        """``on_state`` sees the state before every decision and at the end (the web's human
        seat draws its own view from it); it must not change the state."""
        self.config = config
        self.tc = config.time_control
        # Validates game, variant, seat count, settings and sandbox before any bot is started.
        self.game = make_game(config.game, variant=config.variant, num_players=len(bots), settings=config.settings)
        self.sandbox = config.sandbox.resolved()
        self.bots = list(bots)
        self.on_line = on_line or (lambda line: None)
        self.on_state = on_state or (lambda state: None)
        self.fallback_rng = random.Random(f"fallback:{config.seed}")
        self.record = MatchRecord(
            match_id=config.match_id or uuid.uuid4().hex[:12], game=self.game.name, variant=self.game.variant,
            num_players=self.game.num_players, settings=dict(self.game.settings), seed=config.seed,
            players=[bot.label if isinstance(bot, BotSpec) else bot.spec.label for bot in self.bots],
            time_control={"move_timeout": self.tc.move_timeout, "time_bank": self.tc.time_bank,
                          "max_faults": self.tc.max_faults, "startup_timeout": self.tc.startup_timeout,
                          **({"seat_move_timeouts": {str(seat): timeout for seat, timeout
                                                     in sorted(config.seat_move_timeouts.items())}}
                             if config.seat_move_timeouts else {})},
            sandbox=self.sandbox.to_dict())
        self.seats: list[_Seat] = []
        self._owned: list[BotConnection] = []
        self._encoder = wire.DecideEncoder(self.game.name, self.record.match_id)

    # --- faults ------------------------------------------------------------------------------
    def _fault(self, seat: int, kind: FaultKind, detail: str, decision: int | None = None) -> None:
        detail = clean(detail, FAULT_DETAIL_LIMIT)  # often quotes the bot: its stderr, its error text
        self.record.faults.append(Fault(seat, kind, detail, decision))
        state = self.seats[seat]
        state.faults += 1
        self.on_line(f"  ! seat {seat} ({state.name}) fault: {kind.value}: {detail}")
        if kind in (FaultKind.PROCESS_EXIT, FaultKind.STARTUP) or state.faults >= self.tc.max_faults:
            self._forfeit(seat, detail if kind in (FaultKind.PROCESS_EXIT, FaultKind.STARTUP)
                          else f"{state.faults} faults")

    def _forfeit(self, seat: int, why: str) -> None:
        state = self.seats[seat]
        if state.forfeited:
            return
        state.forfeited = True
        self.record.forfeited.append(seat)
        self.on_line(f"  ! seat {seat} ({state.name}) forfeits: {why}")

    # --- set-up --------------------------------------------------------------------------------
    def _connect(self) -> None:
        owned = self._owned  # filled as bots start, so that an interrupt still stops them
        to_start = [seat for seat, bot in enumerate(self.bots) if isinstance(bot, BotSpec)]
        started = dict(zip(to_start, start_bots([self.bots[seat] for seat in to_start],  # type: ignore[misc]
                                                self.tc.startup_timeout, self.sandbox), strict=True))
        owned.extend(item for item in started.values() if isinstance(item, BotConnection))
        for seat, bot in enumerate(self.bots):
            name = self.record.players[seat]
            self.seats.append(_Seat(name, None, self.tc.time_bank))
            if isinstance(bot, BotConnection):
                self.seats[seat].connection = bot
                continue
            if isinstance(bot, BotUnavailable):
                self._fault(seat, FaultKind.STARTUP, bot.reason)
                continue
            item = started[seat]
            if isinstance(item, BotStartError):
                self._fault(seat, FaultKind.STARTUP, str(item))
                continue
            self.seats[seat].connection = item
        for seat, state in enumerate(self.seats):
            if state.connection is None:
                continue
            info = state.connection.info
            if info.protocol_version != PROTOCOL_VERSION:
                self._fault(seat, FaultKind.STARTUP, f"speaks protocol version {info.protocol_version}, "
                                                     f"not {PROTOCOL_VERSION}")
            elif not claims(info.games, self.game.name):
                self._fault(seat, FaultKind.STARTUP, f"does not play {self.game.name} "
                                                     f"(it plays {', '.join(info.games) or 'nothing'})")

    def _start_match(self) -> None:
        settings = {key: str(value) for key, value in self.game.settings.items()}
        for seat, state in enumerate(self.seats):
            if state.connection is None or state.forfeited:
                continue
            request = bot_pb2.StartMatchRequest(
                match_id=self.record.match_id, game=self.game.name, variant=self.game.variant, settings=settings,
                seat=seat, players=self.record.players, time_control=self.tc.to_proto())
            reply = state.connection.client.call("StartMatch", request, self.tc.startup_timeout)
            if not reply.ok:
                self._fault(seat, FaultKind.STARTUP, f"StartMatch failed: {reply.code.name}: {reply.detail}")

    # --- play ------------------------------------------------------------------------------------
    def _ask(self, state: State[Any, Any], seat: int, legal: list[Any]) -> tuple[int | None, MoveStatus, float, str]:
        """One Decide call: the chosen index (or None), its status, elapsed ms and comment."""
        runner = self.seats[seat]
        connection = runner.connection
        assert connection is not None
        move_timeout = self.config.seat_move_timeouts.get(seat, self.tc.move_timeout)
        deadline = move_timeout + runner.bank
        events = state.events_for(seat, runner.seen_events)
        runner.seen_events = len(state.events)
        request = self._encoder.decide_request(
            decision_number=runner.decisions, observation=state.observe(seat), events=events, legal_actions=legal,
            time_left_ms=int(deadline * 1000), bank_left_ms=int(runner.bank * 1000))
        runner.decisions += 1
        decision = len(self.record.moves)
        reply = connection.client.decide(request, deadline)
        elapsed_ms = reply.elapsed * 1000
        if reply.ok:
            runner.bank = max(0.0, runner.bank - max(0.0, reply.elapsed - move_timeout))
            index = reply.response.action_index
            comment = clean(reply.response.comment, COMMENT_LIMIT)
            if 0 <= index < len(legal):
                return index, MoveStatus.OK, elapsed_ms, comment
            self._fault(seat, FaultKind.INVALID, f"index {index} is not in 0..{len(legal) - 1}", decision)
            return None, MoveStatus.INVALID, elapsed_ms, comment
        if reply.code == grpc.StatusCode.RESOURCE_EXHAUSTED and "larger than max" in reply.detail:
            self._fault(seat, FaultKind.INVALID, f"answer larger than the {MAX_MESSAGE_BYTES // 2**20} MiB "
                                                 f"message limit ({reply.detail})", decision)
            return None, MoveStatus.INVALID, elapsed_ms, ""
        if reply.code == grpc.StatusCode.DEADLINE_EXCEEDED:
            runner.bank = 0.0
            self._fault(seat, FaultKind.TIMEOUT, f"no answer within {deadline:.3f} s", decision)
            return None, MoveStatus.TIMEOUT, elapsed_ms, ""
        if connection.process is not None:
            try:  # a crash often shows as UNAVAILABLE a moment before the exit is reaped
                connection.process.process.wait(timeout=0.5)
            except Exception:  # noqa: BLE001 - still running is the normal case
                pass
        if not connection.alive():
            assert connection.process is not None
            self._fault(seat, FaultKind.PROCESS_EXIT, connection.process.exit_description(), decision)
        else:
            self._fault(seat, FaultKind.ERROR, f"{reply.code.name}: {reply.detail}", decision)
        return None, MoveStatus.ERROR, elapsed_ms, ""

    def _play(self) -> State[Any, Any]:
        state = self.game.new_initial_state(self.config.seed)
        shown = 0
        while not state.is_terminal():
            if len(self.record.moves) >= MAX_DECISIONS:
                raise RuntimeError(f"{self.game.name} did not end within {MAX_DECISIONS} decisions")
            self.on_state(state)
            seat = state.current_player()
            legal = state.legal_actions()
            runner = self.seats[seat]
            connection = runner.connection
            if not runner.forfeited and connection is not None and connection.process and not connection.alive():
                self._fault(seat, FaultKind.PROCESS_EXIT, connection.process.exit_description(), len(self.record.moves))
            if runner.forfeited:
                index, status, elapsed_ms, comment = None, MoveStatus.FORFEITED, 0.0, ""
            else:
                index, status, elapsed_ms, comment = self._ask(state, seat, legal)
            if index is None:
                index = self.fallback_rng.randrange(len(legal))
            action = legal[index]
            state.apply(action)
            self.record.moves.append(Move(seat, index, str(action), status, round(elapsed_ms, 3), comment))
            for event in state.events[shown:]:
                self.on_line(f"  {event.text}")
            shown = len(state.events)
        self.on_state(state)
        return state

    def _finish(self, state: State[Any, Any]) -> None:
        outcome = state.outcome()
        record = self.record
        record.scores = list(outcome.scores)
        record.engine_ranking = list(outcome.ranking)
        record.ranking = list(rank_with_forfeits(outcome.ranking, set(record.forfeited), self.game.teams))
        record.termination = outcome.termination.value
        record.bank_used = [round(self.tc.time_bank - seat.bank, 3) for seat in self.seats]
        reason = record.reason = match_reason(outcome, record.forfeited, record.players, record.ranking)
        for number, seat in enumerate(self.seats):
            if seat.connection is not None and not seat.forfeited:
                # The final observation carries what the seat has not seen yet (a last knock, say).
                final = wire.observation_to_proto(self.game.name, state.observe(number),
                                                  state.events_for(number, seat.seen_events))
                end = bot_pb2.EndMatchRequest(match_id=record.match_id, scores=record.scores, ranking=record.ranking,
                                              reason=reason, observation=final)
                seat.connection.client.call("EndMatch", end, END_MATCH_TIMEOUT)

    def run(self) -> MatchRecord:
        """Play the match to its end; always returns the record, bots always stopped."""
        start = time.monotonic()
        try:
            self._connect()
            self._start_match()
            state = self._play()
            self._finish(state)
        except Exception as error:  # noqa: BLE001 - an engine or referee bug must not kill a tournament
            self.record.termination = "aborted"
            self.record.reason = f"referee error: {type(error).__name__}: {error}"
            self.on_line(f"  ! match aborted: {self.record.reason}")
        finally:
            for connection in self._owned:
                connection.close()
            self.record.duration_s = round(time.monotonic() - start, 3)
        return self.record


def match_reason(outcome: Outcome, forfeited: Sequence[int], players: Sequence[str],
                 ranking: Sequence[int] | None) -> str:
    """The record's one line for people: the engine's detail, then who forfeited.

    ``ranking`` is the final one (:func:`rank_with_forfeits`).  When a forfeit takes first
    place from the seats the engine ranked first, the line starts with who wins after the
    forfeits, so that it agrees with the ranking, and quotes the engine's detail as such.
    ``ranking=None`` gives the line as records written before that rule carry it (the
    engine's detail, then who forfeited, always), so that their replays still agree.
    """
    reason = outcome.detail or outcome.termination.value
    if not forfeited:
        return reason
    forfeits = ", ".join(f"seat {s} ({players[s]})" for s in forfeited)
    winners = [] if ranking is None else [seat for seat, rank in enumerate(ranking) if rank == 0]
    if ranking is None or tuple(winners) == outcome.winners:
        return f"{reason}; forfeited: {forfeits}"
    named = ", ".join(f"{seat} ({players[seat]})" for seat in winners)
    who = f"seat {named} wins" if len(winners) == 1 else f"seats {named} win"
    return f"{who}: {forfeits} forfeited (the engine's result before forfeits: {reason})"


def rank_with_forfeits(ranking: Sequence[int], forfeited: set[int],
                       teams: Sequence[Sequence[int]] | None = None) -> tuple[int, ...]:
    """Move forfeited seats below everyone else, keeping the engine's order within each group.

    In a team game (``teams``, e.g. Jass's ``((0, 2), (1, 3))``) a forfeit sinks the whole
    team: the partner of a forfeited seat ranks last with it, though the fallback played the
    forfeited seat's cards and the partner played on.

    >>> rank_with_forfeits([0, 1, 2], {0})
    (2, 0, 1)
    >>> rank_with_forfeits([0, 2, 0, 2], {2}, [(0, 2), (1, 3)])
    (2, 0, 2, 0)
    """
    if teams is not None:
        forfeited = {seat for team in teams if forfeited & set(team) for seat in team}

    def rank(seat: int) -> int:
        same_group = [s for s in range(len(ranking)) if (s in forfeited) == (seat in forfeited)]
        better = sum(1 for s in same_group if ranking[s] < ranking[seat])
        return better + (len(ranking) - len(forfeited) if seat in forfeited else 0)

    return tuple(rank(seat) for seat in range(len(ranking)))


def run_match(config: MatchConfig, bots: Sequence[BotSpec | BotConnection | BotUnavailable],
              on_line: Callable[[str], None] | None = None,
              on_state: Callable[[State[Any, Any]], None] | None = None) -> MatchRecord:
    """Play one match and return its record (faults are recorded, never raised).

    Command bots are started before the match and stopped after it; a :class:`BotConnection`
    passed in is used as is and left running, for callers that keep bots alive across
    matches; a :class:`BotUnavailable` forfeits its seat at start-up.

    :raises SettingsError: for a bad game, variant, seat count or setting (no bot is started).
    :raises SandboxError: if the config asks for bwrap and bwrap does not work here.
    """
    return MatchRunner(config, bots, on_line, on_state).run()

