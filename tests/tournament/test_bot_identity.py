"""Bot identity across entries (issue 25): the same bot by address and by manifest shares one
rating row; a changed manifest bot is refused, or entered with ``--dev`` as a development
revision.  Real bot processes, the real CLI, a real SQLite file."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.league.storage import BotConflictError, Database
from arena.runs.tournament import TournamentSpec, create_tournament, entrant_specs, expand_bots
from referee.bots import BotSpec

from .helpers import write_bot

LOWNODE = ('from arena.sdk import random_decide, run_bot\n'
           'if __name__ == "__main__":\n'
           '    run_bot(random_decide, name="lownode", version="0.1", games=["*"])\n')


@pytest.fixture
def lownode(tmp_path: Path) -> Path:
    """The bot's folder: a manifest ``lownode@0.1`` whose program reports the same name."""
    folder = write_bot(tmp_path / "lownode", "lownode", version="0.1")
    (folder / "bot.py").write_text(LOWNODE, encoding="utf-8")
    return folder


@pytest.fixture
def other(tmp_path: Path) -> Path:
    return write_bot(tmp_path / "other", "other")


@pytest.fixture
def by_hand(lownode: Path) -> Iterator[str]:
    """The bot run by hand, as ``docs/writing-a-bot.md`` teaches: its address."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        address = f"127.0.0.1:{probe.getsockname()[1]}"
    bot = subprocess.Popen([sys.executable, "bot.py"], cwd=lownode, env={**os.environ, "ARENA_BOT_ADDRESS": address},
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        yield address
    finally:
        bot.terminate()
        bot.wait(timeout=10)


def run(db: Path, *args: str):
    return CliRunner().invoke(main, ["tournament", "run", "--game", "yahtzee", "--workers", "1", "--quiet",
                                     "--seed", "3", "--startup-timeout", "20", "--db", str(db), *args])


def rating_rows(db: Path) -> dict[str, int]:
    result = CliRunner().invoke(main, ["ratings", "--game", "yahtzee", "--format", "json", "--db", str(db)])
    assert result.exit_code == 0, result.output
    return {f"{row['bot']}@{row['version']}": row["matches"] for row in json.loads(result.output)}


@pytest.mark.parametrize("address_first", [True, False])
def test_the_same_bot_by_address_and_by_manifest_shares_its_rating_row_bug(tmp_path, lownode, other, by_hand,
                                                                             address_first):
    db = tmp_path / "league.db"
    entries = [by_hand, str(lownode)] if address_first else [str(lownode), by_hand]
    for entry in entries:
        result = run(db, "--bot", entry, "--bot", str(other))
        assert result.exit_code == 0, result.output
        assert " 0 bot fault(s), 0 start-up forfeit(s)" in result.output, result.output
    assert rating_rows(db) == {"lownode@0.1": 4, "other@1.0": 4}
    with Database(db, readonly=True) as check:
        (row,) = [bot for bot in check.bots() if bot.name == "lownode"]
        assert row.manifest == str(lownode / "bot.toml")  # the files are known, whichever came first


def test_a_changed_bot_is_refused_then_entered_with_dev_as_a_marked_revision(tmp_path, lownode, other):
    db = tmp_path / "league.db"
    assert run(db, "--bot", str(lownode), "--bot", str(other)).exit_code == 0
    with (lownode / "bot.py").open("a", encoding="utf-8") as script:
        script.write("# a change that keeps the version\n")
    refused = run(db, "--bot", str(lownode), "--bot", str(other))
    assert refused.exit_code == 1
    assert refused.output.strip().splitlines()[-1] == (
        "Error: bot lownode@0.1 is already registered with different files; give the changed bot a new version "
        "in its bot.toml, or enter it with --dev as a development revision")
    for _ in range(2):  # the same changed files again: the same revision, not a new one
        entered = run(db, "--dev", "--bot", str(lownode), "--bot", str(other))
        assert entered.exit_code == 0, entered.output
        assert "bot lownode@0.1 changed since it was registered: entered as development revision " \
               "lownode@0.1+dev1" in entered.output
    with (lownode / "bot.py").open("a", encoding="utf-8") as script:
        script.write("# another\n")
    assert run(db, "--dev", "--bot", str(lownode), "--bot", str(other)).exit_code == 0
    assert rating_rows(db) == {"lownode@0.1": 2, "lownode@0.1+dev1": 4, "lownode@0.1+dev2": 2, "other@1.0": 8}
    resumed = CliRunner().invoke(main, ["tournament", "resume", "4", "--db", str(db), "--quiet"])
    assert resumed.exit_code == 0, resumed.output  # the revision's files are the folder's: nothing to replay


def test_dev_keeps_an_unchanged_bot_on_its_row(tmp_path, lownode, other):
    db = tmp_path / "league.db"
    assert run(db, "--bot", str(lownode), "--bot", str(other)).exit_code == 0
    assert run(db, "--dev", "--bot", str(lownode), "--bot", str(other)).exit_code == 0
    assert rating_rows(db) == {"lownode@0.1": 4, "other@1.0": 4}


def test_a_tournament_entered_by_address_resumes_at_that_address(tmp_path, lownode, other):
    """The row is the manifest's, but this tournament reached the bot at an address: resume
    must call the address again, not start the manifest."""
    with Database(tmp_path / "league.db") as db:
        manifests = expand_bots([str(lownode), str(other)], "yahtzee")[0]
        create_tournament(db, TournamentSpec(game="yahtzee", bots=tuple(manifests)))
        remote = BotSpec.from_address("127.0.0.1:50953", name="lownode", version="0.1")
        tid = create_tournament(db, TournamentSpec(game="yahtzee", bots=(remote, manifests[1])))
        specs = list(entrant_specs(db, db.tournament(tid)).values())
        assert [spec.address for spec in specs] == ["127.0.0.1:50953", None]
        assert len(db.bots()) == 2


def test_storage_identity_rules(tmp_path):
    with Database(tmp_path / "a.db") as db:
        by_address = db.register_bot(name="x", version="1", files_hash="addr-hash", address="127.0.0.1:1")
        assert db.register_bot(name="x", version="1", files_hash="addr-hash-2", address="127.0.0.1:2") == by_address
        adopted = db.register_bot(name="x", version="1", files_hash="files", manifest="/b/x/bot.toml")
        assert adopted.id == by_address.id and adopted.files_hash == "files" and adopted.manifest == "/b/x/bot.toml"
        with pytest.raises(BotConflictError, match="--dev"):
            db.register_bot(name="x", version="1", files_hash="changed", manifest="/b/x/bot.toml")
        revision = db.register_bot(name="x", version="1", files_hash="changed", manifest="/b/x/bot.toml", dev=True)
        assert revision.label == "x@1+dev1" and revision.id != adopted.id
        assert db.register_bot(name="x", version="1", files_hash="files", manifest="/b/x/bot.toml", dev=True) == adopted
        assert db.register_bot(name="x", version="1", files_hash="changed", manifest="/b/x/bot.toml",
                               dev=True) == revision
        assert db.register_bot(name="x", version="1", files_hash="again", manifest="/b/x/bot.toml",
                               dev=True).label == "x@1+dev2"


def test_a_bot_by_address_whose_registered_folder_changed_is_entered_with_a_warning(tmp_path, lownode, other,
                                                                                      by_hand):
    """The referee cannot see what a process it did not start runs; if the registered folder
    changed, what runs by hand may be the changed bot, so the run says so."""
    db = tmp_path / "league.db"
    assert run(db, "--bot", str(lownode), "--bot", str(other)).exit_code == 0
    quiet = run(db, "--bot", by_hand, "--bot", str(other))
    assert quiet.exit_code == 0 and "warning: bot lownode@0.1 at" not in quiet.output, quiet.output
    with (lownode / "bot.py").open("a", encoding="utf-8") as script:
        script.write("# edited while debugging\n")
    warned = run(db, "--bot", by_hand, "--bot", str(other))
    assert warned.exit_code == 0, warned.output
    assert (f"warning: bot lownode@0.1 at {by_hand} is entered as the registered lownode@0.1, whose folder has "
            f"changed since ({lownode / 'bot.toml'}); if the bot you run is the changed one, enter its folder "
            f"with --dev or a new version") in " ".join(warned.output.split())
