"""The pre-flight check of `tournament run`: broken bots are listed and refused before anything
is stored; bots given by address are entered under the name they report."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.league.storage import Database
from arena.sdk import random_decide, serve

from .helpers import write_bot


def run(*args: str):
    return CliRunner().invoke(main, ["tournament", "run", "--game", "yahtzee", "--workers", "1", "--quiet",
                                     "--seed", "1", *args])


def test_broken_bots_are_listed_and_refused(tmp_path, hostile_bot):
    good = [write_bot(tmp_path / f"ok{i}", f"ok-{i}") for i in range(2)]
    missing = tmp_path / "unbuilt"
    missing.mkdir()
    (missing / "bot.toml").write_text('name = "unbuilt"\ncommand = ["build/random_bot"]\n', encoding="utf-8")
    gin_only = write_bot(tmp_path / "gin", "gin-only", games='["*"]')
    (gin_only / "bot.py").write_text(
        "from arena.sdk import random_decide, run_bot\n"
        "run_bot(random_decide, name='gin-only', version='1.0', games=['gin_rummy'])\n", encoding="utf-8")
    db = tmp_path / "t.db"
    bots = sum((["--bot", str(b)] for b in (*good, missing, gin_only)), [])
    result = run(*bots, "--startup-timeout", "5", "--db", str(db))
    assert result.exit_code == 1, result.output
    assert "bots not ready" in result.output
    assert "unbuilt" in result.output and "does not start" in result.output
    assert "gin-only@1.0" in result.output and "does not play yahtzee (it reports gin_rummy)" in result.output
    assert result.output.strip().splitlines()[-1].startswith("Error: 2 of 4 bot(s) not ready")
    assert not db.exists()
    allowed = run(*bots, "--startup-timeout", "5", "--allow-broken", "--db", str(db))
    assert allowed.exit_code == 0, allowed.output
    with Database(db, readonly=True) as check:
        forfeits = {check.bot(m.bot_ids[s]).name for m in check.matches() for s in m.forfeited or ()}
    assert forfeits == {"unbuilt", "gin-only"}


def test_a_bot_given_by_address_is_entered_under_its_reported_name(tmp_path):
    server = serve(random_decide, name="remote", version="2.1", address="127.0.0.1:0")
    try:
        local = write_bot(tmp_path / "local", "local")
        db = tmp_path / "t.db"
        result = run("--bot", f"127.0.0.1:{server.port}", "--bot", str(local), "--db", str(db))
        assert result.exit_code == 0, result.output
        ratings = CliRunner().invoke(main, ["ratings", "--game", "yahtzee", "--format", "json", "--db", str(db)])
        assert {(row["bot"], row["version"]) for row in json.loads(ratings.output)} == {("remote", "2.1"),
                                                                                       ("local", "1.0")}
    finally:
        server.stop()
