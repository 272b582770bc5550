"""Matches played through the real referee by bots that record every request they receive.

Each engine's secrecy test uses this: it plays random matches over gRPC (real servers on
loopback, the real :func:`referee.match.run_match`), then walks the recorded requests beside
a replay of the match, so a check sees exactly what one seat was sent next to the engine's
full state at that moment::

    for match in play_recorded("jass", num_players=4, seeds=range(20)):
        for state, seat, request in match.decisions():
            ...  # request is the DecideRequest sent to seat while the engine was in state

Tests reach it through the ``recorded_matches`` fixture of ``tests/conftest.py``.
"""

from __future__ import annotations

import random
import re
import threading
from collections.abc import Iterable, Iterator, Mapping
from concurrent import futures
from dataclasses import dataclass, field
from typing import Any

import grpc
from google.protobuf import text_format
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from arena.v1 import bot_pb2, bot_pb2_grpc
from referee.bots import BotSpec
from referee.games import make_game
from referee.games.base import State
from referee.match import MatchConfig, TimeControl, run_match
from referee.result import MatchRecord, MoveStatus


class _RecordingBot(bot_pb2_grpc.BotServicer):
    """Answers a random legal index and keeps every request, in arrival order."""

    def __init__(self, name: str, seed: int) -> None:
        self.name = name
        self.rng = random.Random(seed)
        self.requests: list[Any] = []
        self.lock = threading.Lock()

    def _keep(self, request: Any) -> None:
        with self.lock:
            self.requests.append(request)

    def Identify(self, request: bot_pb2.IdentifyRequest, context: grpc.ServicerContext) -> bot_pb2.BotInfo:
        return bot_pb2.BotInfo(name=self.name, version="1", protocol_version=1, games=["*"])

    def StartMatch(self, request: bot_pb2.StartMatchRequest, context: grpc.ServicerContext) -> bot_pb2.StartMatchResponse:
        self._keep(request)
        return bot_pb2.StartMatchResponse()

    def Decide(self, request: bot_pb2.DecideRequest, context: grpc.ServicerContext) -> bot_pb2.DecideResponse:
        self._keep(request)
        with self.lock:
            index = self.rng.randrange(len(request.legal_actions))
        return bot_pb2.DecideResponse(action_index=index)

    def EndMatch(self, request: bot_pb2.EndMatchRequest, context: grpc.ServicerContext) -> bot_pb2.EndMatchResponse:
        self._keep(request)
        return bot_pb2.EndMatchResponse()


@dataclass
class RecordedMatch:
    """One match: the referee's record and, per seat, every request that seat received."""

    record: MatchRecord
    requests: list[list[Any]]
    """``requests[seat]``: StartMatchRequest, the DecideRequests, EndMatchRequest, in order."""
    final_state: State[Any, Any] | None = field(default=None)
    """The engine's terminal state, set once :meth:`decisions` has been walked to its end."""

    def of_kind(self, seat: int, kind: type) -> list[Any]:
        return [request for request in self.requests[seat] if isinstance(request, kind)]

    def decisions(self) -> Iterator[tuple[State[Any, Any], int, bot_pb2.DecideRequest]]:
        """Replay the match and yield ``(state, seat, request)`` for every Decide sent.

        ``state`` is the engine's state when the request was built; do not change it (the
        move is applied after the loop body).  Fails if the record and the requests disagree.
        """
        record = self.record
        game = make_game(record.game, variant=record.variant, num_players=record.num_players,
                         settings=record.settings)
        state = game.new_initial_state(record.seed)
        pending = [iter(self.of_kind(seat, bot_pb2.DecideRequest)) for seat in range(record.num_players)]
        for number, move in enumerate(record.moves):
            assert move.status is MoveStatus.OK, f"move {number} was not the bot's own answer: {move}"
            assert state.current_player() == move.seat
            request = next(pending[move.seat])
            actions = state.legal_actions()
            assert [a.text for a in request.legal_actions] == [str(a) for a in actions], \
                f"move {number}: the request's legal actions are not the engine's"
            yield state, move.seat, request
            state.apply(actions[move.index])
        assert state.is_terminal(), "the recorded moves do not finish the game"
        for seat, rest in enumerate(pending):
            assert next(rest, None) is None, f"seat {seat} received a Decide the record does not hold"
        self.final_state = state


def play_recorded(game: str, *, seeds: Iterable[int], num_players: int | None = None, variant: str | None = None,
                  settings: Mapping[str, Any] | None = None) -> Iterator[RecordedMatch]:
    """Play one match per seed through the referee, every seat a recording random bot.

    The bots are in-process gRPC servers on loopback ports, reached by address as any
    remote bot would be; they are stopped when the generator finishes or is closed.
    """
    seats = make_game(game, variant=variant, num_players=num_players, settings=settings).num_players
    bots = [_RecordingBot(f"recorder-{seat}", seed=seat) for seat in range(seats)]
    servers = []
    try:
        specs = []
        for bot in bots:
            server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
            bot_pb2_grpc.add_BotServicer_to_server(bot, server)
            health_servicer = health.HealthServicer()
            health_servicer.set("", health_pb2.HealthCheckResponse.SERVING)
            health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
            port = server.add_insecure_port("127.0.0.1:0")
            server.start()
            servers.append(server)
            specs.append(BotSpec.from_address(f"127.0.0.1:{port}", name=bot.name))
        for seed in seeds:
            for bot in bots:
                bot.requests = []
            record = run_match(MatchConfig(game=game, variant=variant, settings=dict(settings or {}), seed=seed,
                                           time_control=TimeControl(move_timeout=10.0)), specs)
            assert not record.faults, f"seed {seed}: a recording bot faulted: {record.faults}"
            assert record.termination not in ("aborted", ""), f"seed {seed}: {record.reason}"
            yield RecordedMatch(record, [list(bot.requests) for bot in bots])
    finally:
        for server in servers:
            server.stop(None)


_CARD = re.compile(r"(?<![A-Za-z0-9])(?:[A2-9TJQK][SHDC]|X[12])(?![A-Za-z0-9])")


def cards_named(message: Any) -> set[str]:
    """Every card text (``"TD"``, ``"X1"``) anywhere in a message: fields, texts, events."""
    return cards_named_in_text(text_format.MessageToString(message))


def cards_named_in_text(text: str) -> set[str]:
    """Every card text in a string."""
    return set(_CARD.findall(text))
