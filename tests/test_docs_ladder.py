"""docs/ladder.md's config, run as the page shows it (issue 34, first steps: its Yaniv ladder
seated tables of three to five with two bots and never played a match).

The config is the page's ``toml`` block, written as ``ladder.toml`` into a folder where its
relative paths (``sample_bots/...``, ``ladder.db``) resolve as they do in a checkout; then
``arena ladder run --config ladder.toml`` runs until every ladder of it has played, and
``arena ladder status --db ladder.db`` (no ``--ladder``, as the README shows it) names them all.
"""

from __future__ import annotations

import re
import signal
import tomllib
from pathlib import Path

import pytest

from ladder.helpers import cli, query, start, wait_until

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow


def documented_config() -> str:
    """The ``toml`` block of docs/ladder.md's section "The config file"."""
    page = (ROOT / "docs" / "ladder.md").read_text(encoding="utf-8")
    section = page.split("### The config file", 1)[1]
    return re.search(r"^```toml\n(.*?)^```", section, flags=re.MULTILINE | re.DOTALL).group(1)


def played(db: Path) -> dict[str, int]:
    """Per ladder name, its played matches."""
    return dict(query(db, "SELECT t.name, COUNT(m.id) FROM tournaments t LEFT JOIN matches m"
                          " ON m.tournament_id = t.id AND m.status = 'done' GROUP BY t.id"))


def test_every_ladder_of_the_documented_config_plays(tmp_path: Path) -> None:
    text = documented_config()
    ladders = len(tomllib.loads(text)["ladder"])
    assert ladders >= 2
    (tmp_path / "sample_bots").symlink_to(ROOT / "sample_bots")
    config = tmp_path / "ladder.toml"
    config.write_text(text, encoding="utf-8")
    db = tmp_path / "ladder.db"
    process = start(config)
    try:
        def every_ladder_played() -> bool:
            waiting = [note for (note,) in query(db, "SELECT note FROM ladder_status") if note]
            assert not waiting, f"a documented ladder waits: {waiting}"
            counts = played(db)
            return len(counts) == ladders and all(counts.values())

        wait_until(every_ladder_played, process, "every documented ladder plays a match", timeout=120)
        status = cli("ladder", "status", "--db", str(db))
        assert status.exit_code == 0, status.output
        for name in played(db):
            assert f"ladder {name} " in status.output
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            out, err = process.communicate(timeout=60)
            assert process.returncode == 0, (out, err)
