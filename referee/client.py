"""The referee's side of a bot connection: gRPC calls with deadlines and health waiting.

Every call carries a deadline.  Errors come back as values (:class:`CallResult`), not
exceptions, because a misbehaving bot is an expected event for a referee, not a crash.
"""

from __future__ import annotations

import os
import socket
import time
from dataclasses import dataclass
from typing import Any, Callable

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from arena.v1 import bot_pb2, bot_pb2_grpc

PROTOCOL_VERSION = 1
MAX_MESSAGE_BYTES = 4 * 1024 * 1024
"""Largest message accepted from a bot or sent to it."""
REFUSED_PATIENCE = 1.0
"""Seconds a bot given by address may refuse connections before it counts as not there."""


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
        # Decide with a request serialised by the referee itself (referee.wire.DecideEncoder).
        self._decide_bytes = self.channel.unary_unary("/arena.v1.Bot/Decide", request_serializer=None,
                                                      response_deserializer=bot_pb2.DecideResponse.FromString)
        self.health = health_pb2_grpc.HealthStub(self.channel)

    def close(self) -> None:
        self.channel.close()

    def __enter__(self) -> BotClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def wait_serving(self, timeout: float, alive: Callable[[], bool] = lambda: True,
                     refused_patience: float | None = None) -> str | None:
        """Poll the health service until it says SERVING.

        ``refused_patience`` (for a bot given by address, which should already be running):
        fail at once if the host name does not resolve, and after that many seconds of
        refused connections.  Without it (a bot the referee has just started) refusals are
        part of booting, and only ``alive`` or the timeout end the wait.

        :returns: ``None`` when serving, else why not (unresolvable, refused, timeout, or
            the process died).
        """
        end = time.monotonic() + timeout
        last = "no answer"
        if refused_patience is not None:
            problem = self._wait_accepting(end, refused_patience)
            if problem is not None:
                return problem
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

    def _wait_accepting(self, end: float, patience: float) -> str | None:
        """Wait until something accepts connections at the address, with plain sockets, which
        say why they fail (gRPC would only report a missed deadline).

        :returns: why not, if the host does not resolve or connections fail for ``patience``
            seconds; ``None`` once one is accepted, or when the connection attempt times out
            (then the health check's own timeout says so).
        """
        target = socket_target(self.address)
        if target is None:
            return None
        family, where = target
        if family == socket.AF_INET:
            host, port = where
            try:
                socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
            except (socket.gaierror, UnicodeError) as error:
                reason = error.strerror if isinstance(error, socket.gaierror) else str(error)
                return f"cannot resolve host {host!r} ({reason})"
        failing_since = time.monotonic()
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return None
            try:
                if family == socket.AF_INET:
                    connection = socket.create_connection(where, timeout=min(left, 1.0))
                else:
                    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                    connection.settimeout(min(left, 1.0))
                    try:
                        connection.connect(where)
                    except BaseException:
                        connection.close()
                        raise
                connection.close()
                return None
            except TimeoutError:
                return None
            except OSError as error:
                if time.monotonic() - failing_since >= patience:
                    what = "connection refused" if isinstance(error, ConnectionRefusedError) else \
                        f"cannot connect ({error.strerror or error})"
                    return f"{what} at {self.address} (for {patience:g} s)"
            time.sleep(0.05)

    def call(self, method: str, request: Any, timeout: float) -> CallResult:
        """Call ``method`` (``"Decide"``, ...) with a deadline of ``timeout`` seconds."""
        return self._invoke(getattr(self.stub, method), request, timeout)

    def decide(self, request: bytes, timeout: float) -> CallResult:
        """Decide with an already serialised ``DecideRequest``."""
        return self._invoke(self._decide_bytes, request, timeout)

    @staticmethod
    def _invoke(method: Any, request: Any, timeout: float) -> CallResult:
        start = time.monotonic()
        try:
            response = method(request, timeout=max(timeout, 0.001))
        except grpc.RpcError as error:
            code = error.code() if hasattr(error, "code") else grpc.StatusCode.UNKNOWN
            return CallResult(code=code, detail=str(error.details() if hasattr(error, "details") else error),
                              elapsed=time.monotonic() - start)
        return CallResult(response=response, elapsed=time.monotonic() - start)

    def identify(self, timeout: float) -> CallResult:
        return self.call("Identify", bot_pb2.IdentifyRequest(protocol_version=PROTOCOL_VERSION), timeout)


def socket_target(address: str) -> tuple[socket.AddressFamily, tuple[str, int] | str] | None:
    """``(AF_INET, (host, port))`` for a TCP address (IPv6 included: ``AF_INET`` only marks
    it as TCP), ``(AF_UNIX, path)`` for a Unix socket, None for other gRPC target forms."""
    if address.startswith("unix://"):
        return socket.AF_UNIX, address[len("unix://"):]
    if address.startswith("unix:"):
        return socket.AF_UNIX, address[len("unix:"):]
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or not host:
        return None
    return socket.AF_INET, (host.strip("[]"), int(port))
