"""A tournament whose tables mix Python, Node.js, C++ and Go bots finishes with no faults."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from arena.cli import main
from arena.league.storage import Database
from .test_sample_bots import PYTHON_RANDOM, RANDOM, built


def test_mixed_language_tournament_completes_without_faults(tmp_path: Path) -> None:
    bots = [str(PYTHON_RANDOM)] + [str(built(language, folder).directory) for language, folder in sorted(RANDOM.items())]
    db_path = tmp_path / "mixed.db"
    args = ["tournament", "run", "--game", "yahtzee", "--rounds", "1", "--seed", "5", "--workers", "2", "--quiet",
            "--db", str(db_path)]
    for bot in bots:
        args += ["--bot", bot]
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    with Database(db_path, create=False) as db:
        matches = db.matches(tournament_id=1)
        assert len(matches) == 4  # one table of four, every seat rotation
        for match in matches:
            record = db.match_record(match.id)
            assert record is not None and record.finished, match
            assert record.faults == [], record.faults
            assert sorted(record.players) == ["random-cpp@1.0", "random-go@1.0", "random-node@1.0", "random@1.0"]
