"""A TCP listener on loopback, for tests that check a bot or a build cannot reach the network."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest


@pytest.fixture
def listener() -> Iterator[socket.socket]:
    """A TCP server on 127.0.0.1 that the code under test tries to reach."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.5)
    yield server
    server.close()


def connections_to(server: socket.socket) -> int:
    """How many connections reached ``server`` (accepted until it waits 0.5 s in vain)."""
    accepted = 0
    while True:
        try:
            connection, _ = server.accept()
        except TimeoutError:
            return accepted
        connection.close()
        accepted += 1
