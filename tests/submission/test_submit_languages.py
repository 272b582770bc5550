"""Issue 27 end to end, for each compiled or interpreted kind of bot: a starter kit from
``arena new-bot`` (Python, Node.js, C++), exactly as it made it (issue 34: no edit by hand),
submitted by a real ``arena submit`` (whose start check builds the C++ kit, in the sandbox,
into the store the worker and the ladder read) to a real ``arena serve --accounts
--uploads``, validated and entered by a real ``arena submissions work --once``, then seated by
a real ``arena ladder run`` until a stored match has it in it, without a fault.

Needs bubblewrap (the builds and the ladder run in it) and the toolchains sample_bots/build.sh
installs; ``new-bot`` runs the Node.js kit's ``npm ci``.  The Go kit's build step is the C++
kit's kind (tests/languages/test_starter_kits.py builds it through check-bot in the sandbox);
it is left out here, where it would add a build of about a minute and a half.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.authoring.starter_kit import BUILD
from arena.cli import main
from arena.league.storage import Database
from arena.runs.ladder import load_config, open_ladder
from arena.submission import accounts
from tests.ladder.helpers import played_by, query, start, wait_until

from .test_upload import RANDOM_BOT, ROOT, Served, free_port, request, submit

@dataclass
class League:
    """The served league: its ladder config, the server, ann's token and the store of builds."""

    config: Path
    served: Served
    token: str
    builds: Path


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Iterator[League]:
    """A Yahtzee ladder "dice" (tables of 2, the sample random bot, in bubblewrap), the user ann,
    and ``arena serve --accounts --uploads`` on it."""
    folder = tmp_path_factory.mktemp("languages")
    config_path = folder / "ladder.toml"
    config_path.write_text(f'db = "ladder.db"\nworkers = 2\nstop_grace = 3\n[sandbox]\nmode = "bwrap"\n'
                           f'[[ladder]]\nname = "dice"\ngame = "yahtzee"\nseats = 2\nseed = 5\n'
                           f'bots = ["{RANDOM_BOT}"]\n', encoding="utf-8")
    config = load_config(config_path)
    with Database(config.db) as db:
        open_ladder(db, config.ladders[0], config)
        token = accounts.add_user(db, "ann")[1]
    builds = folder / "builds"
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "arena.cli", "serve", "--db", str(config.db), "--port", str(port),
                               "--accounts", "--uploads"],
                              cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert server.stdout is not None
        [server.stdout.readline() for _ in range(3)]
        served = Served(f"http://127.0.0.1:{port}", port, config.db, folder / "ladder.db.data", {"ann": token})
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("ARENA_BUILDS", str(builds))  # the worker's and the ladder's store
            yield League(config_path, served, token, builds)
    finally:
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=30)


def kit(folder: Path, language: str) -> Path:
    """``arena new-bot``, and nothing else."""
    name = f"ann-{language}"
    result = CliRunner().invoke(main, ["new-bot", str(folder / name), "--language", language])
    assert result.exit_code == 0, result.output
    return folder / name


def matches_of(db: Path, name: str) -> list[tuple[int, int, int]]:
    """``(match id, faults, forfeited)`` of each done match the bot called ``name`` sat in."""
    return query(db, "SELECT m.id, s.faults, s.forfeited FROM matches m JOIN match_seats s ON s.match_id = m.id"
                     " JOIN bots b ON b.id = s.bot_id WHERE b.name = ? AND m.status = 'done'", (name,))


@pytest.mark.slow
@pytest.mark.parametrize("language", ["python", "node", "cpp"])
def test_a_submitted_kit_builds_validates_and_plays_its_ladder(league: League, tmp_path: Path, language: str) -> None:
    started = time.perf_counter()
    bot = kit(tmp_path, language)
    name = f"ann-{language}"
    sent = submit(str(bot), "--server", league.served.url, "--token", league.token, "--ladder", "dice", check=True)
    assert sent.returncode == 0, sent.stderr
    found = re.match(r"submitted: submission (\d+), ", sent.stdout)
    assert found, sent.stdout
    sid = int(found[1])

    worked = subprocess.run([sys.executable, "-m", "arena.cli", "submissions", "work", "--once", "--db",
                             str(league.served.db)], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert worked.returncode == 0, worked.stderr[-3000:]
    assert f"submission {sid}: active: active on ladder dice as {name}@0.1 (added)" in worked.stdout, \
        worked.stdout + (league.served.data_dir / "logs" / f"{sid}.log").read_text()[-3000:]
    status, shown = request(league.served, "GET", f"/api/submissions/{sid}", token=league.token)
    assert status == 200 and isinstance(shown, dict) and shown["state"] == "active", shown
    if language == "cpp":  # built by submit's start check into the store the worker and the ladder read
        assert f"arena: building bot {name}@0.1" in sent.stderr and (league.builds / name).is_dir()
        assert f"building bot {name}" not in worked.stderr
    active = time.perf_counter()

    ladder = start(league.config)
    try:
        wait_until(lambda: played_by(league.served.db, name) > 0, ladder, f"a stored match of {name}", timeout=300)
    finally:
        ladder.send_signal(signal.SIGINT)
        _, err = ladder.communicate(timeout=60)
    assert f"building bot {name}" not in err  # the first build, not a second one
    played = matches_of(league.served.db, name)
    assert played and all(faults == 0 and not forfeited for _, faults, forfeited in played), played
    built = re.search(r"built bot \S+ in (\d+ s)", sent.stderr)
    print(f"\n{language}: built in {built[1] if built else '-'}, active after {active - started:.0f} s, "
          f"played after {time.perf_counter() - started:.0f} s", file=sys.stderr)
