"""The referee's side of a bot connection: gRPC calls with deadlines and health waiting.

Every call carries a deadline.  Errors come back as values (:class:`CallResult`), not
exceptions, because a misbehaving bot is an expected event for a referee, not a crash.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any, Callable

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from arena.v1 import bot_pb2, bot_pb2_grpc

PROTOCOL_VERSION = 1
MAX_MESSAGE_BYTES = 4 * 1024 * 1024
"""Largest message accepted from a bot or sent to it."""


@dataclass(frozen=True)
class CallResult:
    """The outcome of one call: a response, or why there is none."""

    response: Any = None
    code: grpc.StatusCode | None = None
    """``None`` on success."""
    detail: str = ""
    elapsed: float = 0.0
    """Seconds from sending the request to getting the answer or the error."""

    @property
    def ok(self) -> bool:
        return self.code is None


class BotClient:
    """A channel to one bot and the stubs to call it."""

    def __init__(self, address: str) -> None:
        self.address = address
        options = [("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
                   ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
                   ("grpc.enable_retries", 0),
                   # A bot starts listening a moment after we first try to connect; the default
                   # reconnect backoff (~1 s) would add that much to every bot's start.
                   ("grpc.initial_reconnect_backoff_ms", 50),
                   ("grpc.min_reconnect_backoff_ms", 50),
                   ("grpc.max_reconnect_backoff_ms", 200)]
        self.channel = grpc.insecure_channel(address, options=options)
        self.stub = bot_pb2_grpc.BotStub(self.channel)
        self.health = health_pb2_grpc.HealthStub(self.channel)

    def close(self) -> None:
        self.channel.close()

    def __enter__(self) -> BotClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def wait_serving(self, timeout: float, alive: Callable[[], bool] = lambda: True) -> str | None:
        """Poll the health service until it says SERVING.

        :returns: ``None`` when serving, else why not (timeout, or the process died).
        """
        end = time.monotonic() + timeout
        last = "no answer"
        # A Unix socket appears as a file when the bot listens: waiting for it here is cheaper
        # than gRPC's reconnect backoff, which would add up to 200 ms to every bot's start.
        socket_file = self.address[len("unix://"):] if self.address.startswith("unix://") else None
        while True:
            if not alive():
                return "process exited before serving"
            left = end - time.monotonic()
            if left <= 0:
                return f"not SERVING within {timeout:g} s ({last})"
            if socket_file and not os.path.exists(socket_file):
                time.sleep(0.005)
                continue
            try:
                reply = self.health.Check(health_pb2.HealthCheckRequest(service=""), timeout=min(left, 1.0),
                                          wait_for_ready=True)
                if reply.status == health_pb2.HealthCheckResponse.SERVING:
                    return None
                last = health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)
            except grpc.RpcError as error:
                last = f"{error.code().name}: {error.details()}"
            time.sleep(0.02)

    def call(self, method: str, request: Any, timeout: float) -> CallResult:
        """Call ``method`` (``"Decide"``, ...) with a deadline of ``timeout`` seconds."""
        start = time.monotonic()
        try:
            response = getattr(self.stub, method)(request, timeout=max(timeout, 0.001))
        except grpc.RpcError as error:
            code = error.code() if hasattr(error, "code") else grpc.StatusCode.UNKNOWN
            return CallResult(code=code, detail=str(error.details() if hasattr(error, "details") else error),
                              elapsed=time.monotonic() - start)
        return CallResult(response=response, elapsed=time.monotonic() - start)

    def identify(self, timeout: float) -> CallResult:
        return self.call("Identify", bot_pb2.IdentifyRequest(protocol_version=PROTOCOL_VERSION), timeout)
