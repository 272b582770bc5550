"""Write a Python bot as one function: ``decide(observation, legal_actions) -> index`` (or the
chosen action message itself).

>>> def decide(observation, legal_actions):
...     return 0  # always the first legal action
>>> # run_bot(decide, name="first", version="1.0")   # serves until SIGTERM

:func:`run_bot` serves the ``Bot`` gRPC service and the standard health service on the
address the referee passes in ``ARENA_BOT_ADDRESS`` and stops cleanly on SIGTERM or
SIGINT.  :func:`serve` does the same without blocking and returns the started server, so
tests can run a bot in process on a port of their choosing (``127.0.0.1:0`` picks one).

``observation`` is an ``arena.v1.Observation`` and ``legal_actions`` a sequence of
``arena.v1.Action``; both are documented in ``proto/arena/v1/`` and ``docs/protocol.md``.
A policy trained in :mod:`arena.envs` (vectors, action masks, the fixed action space) is
served by :func:`arena.envs.policy.run_policy`, which builds on this module.
"""

from __future__ import annotations

import os
import random
import signal
import socket
import sys
import threading
import traceback
from collections.abc import Callable, Iterable, Sequence
from concurrent import futures
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from arena.v1 import bot_pb2, bot_pb2_grpc

Decide = Callable[[bot_pb2.Observation, Sequence[bot_pb2.Action]], "int | bot_pb2.Action | bot_pb2.DecideResponse"]
"""``decide`` returns the index of its action, the action itself (one of ``legal_actions``: any
callable ``(observation, legal actions) -> action`` is a bot), or a whole ``DecideResponse`` to
add a comment."""
PROTOCOL_VERSION = 1
ADDRESS_VARIABLE = "ARENA_BOT_ADDRESS"


def random_decide(observation: bot_pb2.Observation, legal_actions: Sequence[bot_pb2.Action]) -> int:
    """The baseline policy: a uniformly random legal action.

    Seeded by the observation itself, so the same match replays identically (tournament
    resume and the replay tests rely on deterministic bots).
    """
    rng = random.Random(observation.SerializeToString(deterministic=True))
    return rng.randrange(len(legal_actions))


class _BotServicer(bot_pb2_grpc.BotServicer):
    """Thin servicer: all game logic is in the author's ``decide``."""

    def __init__(self, decide: Decide, info: bot_pb2.BotInfo) -> None:
        self._decide = decide
        self._info = info

    def Identify(self, request: bot_pb2.IdentifyRequest, context: grpc.ServicerContext) -> bot_pb2.BotInfo:
        return self._info

    def StartMatch(self, request: bot_pb2.StartMatchRequest, context: grpc.ServicerContext) -> bot_pb2.StartMatchResponse:
        return bot_pb2.StartMatchResponse()

    def Decide(self, request: bot_pb2.DecideRequest, context: grpc.ServicerContext) -> bot_pb2.DecideResponse:
        try:
            answer = self._decide(request.observation, request.legal_actions)
        except Exception as error:  # noqa: BLE001 - the author's bug: say what and where, then fail the call
            # gRPC alone would answer "Exception calling application: boom" and print nothing;
            # the traceback on stderr is what check-bot and the author's pages show.
            traceback.print_exc(file=sys.stderr)
            sys.stderr.flush()
            frame = traceback.extract_tb(error.__traceback__)[-1]
            context.abort(grpc.StatusCode.UNKNOWN, f"decide raised {type(error).__name__}: {error} "
                                                   f"({os.path.basename(frame.filename)}, line {frame.lineno})")
        if isinstance(answer, bot_pb2.DecideResponse):
            return answer
        if isinstance(answer, bot_pb2.Action):  # a policy that answers with the action itself
            for index, legal in enumerate(request.legal_actions):
                if legal == answer:
                    return bot_pb2.DecideResponse(action_index=index)
            print(f"decide returned an action that is not legal here: {answer.text or answer}", file=sys.stderr,
                  flush=True)
            context.abort(grpc.StatusCode.INVALID_ARGUMENT,
                          f"decide returned an action that is not among the legal ones: {answer.text or answer}")
        return bot_pb2.DecideResponse(action_index=int(answer))

    def EndMatch(self, request: bot_pb2.EndMatchRequest, context: grpc.ServicerContext) -> bot_pb2.EndMatchResponse:
        return bot_pb2.EndMatchResponse()


class BoundServer:
    """A started bot server, the port it bound (0 for Unix sockets) and its health service
    (a bot that needs time to get ready can set NOT_SERVING until it is)."""

    def __init__(self, server: grpc.Server, port: int, health_servicer: health.HealthServicer) -> None:
        self.server = server
        self.port = port
        self.health = health_servicer

    def stop(self, grace: float | None = 0.5) -> None:
        self.server.stop(grace).wait()


def serve(decide: Decide, *, name: str, version: str, author: str = "", games: Iterable[str] = ("*",),
          address: str | None = None, max_workers: int = 4) -> BoundServer:
    """Start a bot server on ``address`` (default: ``$ARENA_BOT_ADDRESS``) and return it.

    :raises ValueError: if no address is given or it cannot be bound (a port in use).
    """
    address = address or os.environ.get(ADDRESS_VARIABLE)
    if not address:
        raise ValueError(f"no address to serve on: set {ADDRESS_VARIABLE} (the referee does) or pass address=")
    _check_port_free(address)
    info = bot_pb2.BotInfo(name=name, version=version, author=author, protocol_version=PROTOCOL_VERSION,
                           games=list(games))
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=max_workers))
    bot_pb2_grpc.add_BotServicer_to_server(_BotServicer(decide, info), server)
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    try:
        port = server.add_insecure_port(address)
    except RuntimeError as error:
        raise ValueError(f"cannot listen on {address}: {error}") from None
    if port == 0 and not address.startswith("unix:"):
        raise ValueError(f"cannot listen on {address} (port in use?)")
    server.start()
    health_servicer.set("", health_pb2.HealthCheckResponse.SERVING)
    return BoundServer(server, port, health_servicer)


def _check_port_free(address: str) -> None:
    """Fail with a clear message when a TCP port is taken (gRPC would log a C-level error)."""
    host, sep, port = address.rpartition(":")
    if address.startswith("unix:") or not sep or not port.isdigit() or port == "0":
        return
    family = socket.AF_INET6 if host.startswith("[") else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((host.strip("[]"), int(port)))
        except OSError as error:
            raise ValueError(f"cannot listen on {address}: {error.strerror or error}") from None


def run_bot(decide: Decide, *, name: str, version: str, author: str = "", games: Iterable[str] = ("*",)) -> None:
    """Serve until SIGTERM or SIGINT; a bad address exits with a one-line error (status 2)."""
    try:
        bound = serve(decide, name=name, version=version, author=author, games=games)
    except ValueError as error:
        print(f"{name}: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    stop = threading.Event()

    def _stop(signum: int, frame: Any) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    stop.wait()
    bound.stop()
