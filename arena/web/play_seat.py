"""The human seat: a real gRPC bot on loopback whose Decide waits for a person's click.

To the referee a person is one more seat: :class:`HumanSeat` serves the ``Bot`` service like
any bot, so the referee's deadlines, faults and forfeits apply unchanged.  Its Decide
publishes the pending decision (the legal actions of the request, as the referee enumerated
them, and the deadline) and waits for :meth:`HumanSeat.answer`, or gives up when the call's
deadline passes; a missed deadline is then the referee's ordinary timeout fault.  A seat whose
page has gone quiet (:attr:`HumanSeat.absent`) stops waiting as after :meth:`HumanSeat.close`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent import futures
from dataclasses import dataclass

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from arena.v1 import bot_pb2, bot_pb2_grpc
from referee.client import PROTOCOL_VERSION

HUMAN_NAME = "human"
"""The name a person plays under (stored as a bot of language ``human``)."""


@dataclass(frozen=True)
class Pending:
    """A decision the person has to take."""

    number: int
    """The seat's decision number (0, 1, ...), as in the request."""
    actions: tuple[str, ...]
    """The legal actions' texts, in the referee's order: the answer is an index into them."""
    deadline: float
    """``time.monotonic()`` at which the referee stops waiting."""
    bank_ms: int = 0
    """The seat's time bank, included in the time to ``deadline``: what is left of it once the
    decision's own time has run out."""


class HumanSeat(bot_pb2_grpc.BotServicer):
    """One person's seat in one match, served on ``127.0.0.1`` at :attr:`address`."""

    def __init__(self, game: str, on_change: threading.Condition) -> None:
        self.game = game
        self.changed = on_change
        """Notified whenever a decision is published or taken (the web page long-polls on it)."""
        self.pending: Pending | None = None
        self.changes = 0
        """Grows whenever :attr:`pending` or :attr:`ended` changes."""
        self.ended: bot_pb2.EndMatchRequest | None = None
        self._answer: tuple[int, int] | None = None
        self._closed = False
        self.absent: Callable[[float], bool] | None = None
        """Told when a decision started (``time.monotonic()``), whether the person has gone:
        then this decision and every later one fail at once, as after :meth:`close` (the
        referee faults the seat until it forfeits)."""
        self._server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
        bot_pb2_grpc.add_BotServicer_to_server(self, self._server)
        health_servicer = health.HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(health_servicer, self._server)
        port = self._server.add_insecure_port("127.0.0.1:0")
        if port == 0:
            raise RuntimeError("cannot listen on a loopback port for the human seat")
        self.address = f"127.0.0.1:{port}"
        self._server.start()
        health_servicer.set("", health_pb2.HealthCheckResponse.SERVING)

    def close(self) -> None:
        """Stop waiting for the person (a pending Decide fails at once) and stop serving."""
        with self.changed:
            self._closed = True
            self.changed.notify_all()
        self._server.stop(0.5).wait()

    def answer(self, number: int, index: int) -> str | None:
        """Take the person's choice for decision ``number``; ``None``, or why it is refused."""
        with self.changed:
            pending = self.pending
            if pending is None or pending.number != number:
                return "that decision is not open (any more)"
            if not 0 <= index < len(pending.actions):
                return f"action {index} is not one of the {len(pending.actions)} legal actions"
            self._answer = (number, index)
            self.pending = None  # taken: no page shows it as open any more
            self.changes += 1
            self.changed.notify_all()
        return None

    # --- the Bot service --------------------------------------------------------------------------
    def Identify(self, request: bot_pb2.IdentifyRequest, context: grpc.ServicerContext) -> bot_pb2.BotInfo:
        return bot_pb2.BotInfo(name=HUMAN_NAME, version="", protocol_version=PROTOCOL_VERSION, games=[self.game])

    def StartMatch(self, request: bot_pb2.StartMatchRequest,
                   context: grpc.ServicerContext) -> bot_pb2.StartMatchResponse:
        return bot_pb2.StartMatchResponse()

    def Decide(self, request: bot_pb2.DecideRequest, context: grpc.ServicerContext) -> bot_pb2.DecideResponse:
        started = time.monotonic()
        deadline = started + request.time_left_ms / 1000
        pending = Pending(request.decision_number, tuple(a.text for a in request.legal_actions), deadline,
                          min(request.bank_left_ms, request.time_left_ms))
        with self.changed:
            self.pending, self._answer = pending, None
            self.changes += 1
            self.changed.notify_all()
            try:
                while self._answer is None and not self._closed and context.is_active():
                    left = deadline - time.monotonic()
                    if left <= 0:
                        break
                    if self.absent is not None and self.absent(started):
                        self._closed = True  # gone: this decision and the later ones fail at once
                        break
                    self.changed.wait(min(left, 0.5))
                answer = self._answer
            finally:
                self.pending = None
                self.changes += 1
                self.changed.notify_all()
        if answer is None:
            # The referee counts the missed deadline (or this refusal, once closed) as a fault.
            context.abort(grpc.StatusCode.DEADLINE_EXCEEDED if not self._closed else grpc.StatusCode.UNAVAILABLE,
                          "no choice from the person at the table")
        return bot_pb2.DecideResponse(action_index=answer[1])

    def EndMatch(self, request: bot_pb2.EndMatchRequest, context: grpc.ServicerContext) -> bot_pb2.EndMatchResponse:
        with self.changed:
            self.ended = request
            self.changes += 1
            self.changed.notify_all()
        return bot_pb2.EndMatchResponse()
