"""`arena --help` and `arena ratings` start fast: they do not import the match runner's heavy
modules (grpc, the generated protobuf code, the web server, numpy, dask).

Checked in a real subprocess, by what it has in ``sys.modules`` once the command is done,
not by timing it (the machine is shared)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from arena.league.ratings import update_ratings

from .helpers import record, tournament_db

HEAVY = ("grpc", "google.protobuf", "referee.match", "starlette", "uvicorn", "numpy", "dask")

WRAPPER = f"""
import json, sys
from arena.cli import main
try:
    main(sys.argv[1:], prog_name="arena")
    code = 0
except SystemExit as exit:
    code = exit.code
print("LOADED", json.dumps([[name for name in {HEAVY!r} if name in sys.modules], code]))
"""


def loaded_by(*args: str) -> tuple[str, list[str], int]:
    """Run ``arena ARGS`` in a fresh interpreter: its output (stdout, then stderr), the heavy
    modules it loaded and its exit code."""
    done = subprocess.run([sys.executable, "-c", WRAPPER, *args], capture_output=True, text=True, timeout=60)
    output, _, last = done.stdout.rstrip().rpartition("\n")
    assert last.startswith("LOADED "), done.stdout + done.stderr
    loaded, code = json.loads(last.removeprefix("LOADED "))
    return output + done.stderr, loaded, code


def test_help_loads_no_heavy_module():
    output, loaded, code = loaded_by("--help")
    assert code == 0 and "ratings" in output and "tournament" in output
    assert loaded == []


def test_ratings_of_a_current_table_loads_no_heavy_module(tmp_path: Path):
    db, tid, bots = tournament_db(tmp_path / "a.db", 2, [[0, 1], [1, 0]] * 3)
    for match in db.unfinished_matches(tid):
        db.store_result(match.id, record(match.id, [0, 1]))
    update_ratings(db, "yahtzee", "yahtzee")
    db.close()
    output, loaded, code = loaded_by("ratings", "--game", "yahtzee", "--db", str(tmp_path / "a.db"))
    assert code == 0 and "bot0" in output and "bot1" in output
    assert loaded == []


def test_the_check_sees_a_command_that_needs_grpc(tmp_path: Path):
    """The control: `arena replay` runs the engines through the wire format, so it loads them."""
    (tmp_path / "r.json").write_text("{}", encoding="utf-8")
    output, loaded, code = loaded_by("replay", str(tmp_path / "r.json"))
    assert code == 1 and "cannot replay" in output
    assert "google.protobuf" in loaded
