"""Bot-controlled text (manifest names, Identify answers, comments, stderr) reaches the
terminal as plain printable text: no escape sequences, no rich markup."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.league.storage import Database

from .helpers import write_bot

EVIL_BOT = '''
from arena.sdk import random_decide, run_bot
from arena.v1 import bot_pb2


def decide(observation, legal_actions):
    index = random_decide(observation, legal_actions)
    return bot_pb2.DecideResponse(action_index=index, comment="\\x1b]0;pwned\\x07[bold red]loud[/] :smile:\\nforged line")


run_bot(decide, name="\\x1b[2Jwiped", version="1", games=["*"])
'''


@pytest.mark.slow
def test_bot_text_is_shown_as_plain_text(tmp_path):
    evil = write_bot(tmp_path / "evil", "placeholder")
    (evil / "bot.py").write_text(EVIL_BOT, encoding="utf-8")
    (evil / "bot.toml").write_text('name = "[bold]evil\\u001b[31m"\nversion = "1\\u202e2"\n'
                                   'command = ["{python}", "bot.py"]\n', encoding="utf-8")
    other = write_bot(tmp_path / "other", "other")
    db = str(tmp_path / "t.db")
    runner = CliRunner()
    result = runner.invoke(main, ["tournament", "run", "--game", "yahtzee", "--bot", str(evil), "--bot", str(other),
                                  "--workers", "1", "--quiet", "--seed", "1", "--db", db])
    assert result.exit_code == 0, result.output
    assert "manifest says [bold]evil\ufffd[31m@1\ufffd2 but the bot reports \ufffd[2Jwiped@1" in result.output
    outputs = [result.output]
    for args in (["matches"], ["show", "1", "-v"], ["ratings", "--game", "yahtzee"], ["ratings", "--game", "yahtzee",
                 "--format", "markdown"], ["tournament", "list"], ["h2h", "--game", "yahtzee"]):
        shown = runner.invoke(main, [*args, "--db", db])
        assert shown.exit_code == 0, shown.output
        outputs.append(shown.output)
    for output in outputs:
        assert "\x1b" not in output and "\x07" not in output and "\u202e" not in output
    show = outputs[2]
    assert "[bold]evil" in show  # markup printed literally, not interpreted
    assert "# \ufffd]0;pwned\ufffd[bold red]loud[/] :smile: forged line" in show
    with Database(db, readonly=True) as stored:
        record = stored.match_record(1)
    assert record is not None and all("\x1b" not in move.comment for move in record.moves)
