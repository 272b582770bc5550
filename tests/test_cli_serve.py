"""``arena serve`` as a user runs it: a real process, a real port (issue 25)."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from arena.league.storage import Database

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "arena.db"
    Database(path).close()
    return path


def serve(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "arena.cli", "serve", *args], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_a_port_in_use_is_one_error_line_before_any_serving_claim(db: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        process = serve("--db", str(db), "--port", str(port))
        out, err = process.communicate(timeout=60)
    assert process.returncode == 1
    assert out == ""  # "serving ... at http://127.0.0.1:PORT/" was printed first, then uvicorn's ERROR
    assert err == f"Error: cannot listen on 127.0.0.1:{port}: Address already in use\n"


def test_serving_is_announced_once_the_port_answers(db: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = serve("--db", str(db), "--port", str(port))
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line == f"serving {db} read-only at http://127.0.0.1:{port}/ (Ctrl-C stops)\n"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as page:  # no retry: it is bound
            assert page.status == 200
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=30)
