"""Reference bots ("bosses") on a ladder: the config's ``bosses`` enters and marks them, the
leaderboard shows them as such (web and CLI, their names escaped), and a bot's head-to-head
record against one counts wins, draws and losses by rank.  That a newer version never retires
a boss is tested with the submission pipeline (tests/submission/test_pipeline.py)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from arena.league.storage import SCHEMA_VERSION, Database, ScheduledMatch
from arena.runs.ladder import LadderError, load_config, open_ladder
from arena.runs.ladder_store import append_matches, entrants, head_to_head, ladders, set_state
from arena.web import create_app
from tests.tournament.helpers import record
from tests.web.conftest import XSS_NAME, XSS_VERSION, write_commenter

from .helpers import ROOT, cli, write_config

RANDOM_BOT = ROOT / "sample_bots" / "python" / "random_bot"
HEURISTIC = ROOT / "sample_bots" / "python" / "yahtzee_heuristic"
XSS = f"{XSS_NAME}@{XSS_VERSION}"
"""The label of the bot whose name and version are HTML."""


def open_with(folder: Path, bosses: list[Path]) -> Path:
    """Open the "dice" ladder (random bot entered) with these bosses; the database's path."""
    listed = ", ".join(f'"{b}"' for b in bosses)
    config = load_config(write_config(folder, [RANDOM_BOT], ladder=f"bosses = [{listed}]"))
    with Database(config.db) as db:
        open_ladder(db, config.ladders[0], config)
    return config.db


def marks(db_path: Path) -> dict[str, tuple[str, bool]]:
    with Database(db_path) as db:
        return {e.label: (e.state, e.boss) for e in entrants(db, ladders(db)[0].id)}


def test_the_configs_bosses_are_entered_and_marked_also_when_the_ladder_exists(tmp_path: Path) -> None:
    xss = write_commenter(tmp_path / "xss_bot")
    db_path = open_with(tmp_path, [xss])
    assert marks(db_path) == {"random@1.0": ("active", False), XSS: ("active", True)}
    with Database(db_path) as db:  # removed by hand: reopening marks it but does not bring it back
        set_state(db, ladders(db)[0].id, next(e.bot_id for e in entrants(db, ladders(db)[0].id) if e.boss), "removed")
    open_with(tmp_path, [xss, HEURISTIC])
    assert marks(db_path) == {"random@1.0": ("active", False), XSS: ("removed", True),
                              "yahtzee-heuristic@1.0": ("active", True)}


def test_bosses_must_be_a_list_of_bots(tmp_path: Path) -> None:
    with pytest.raises(LadderError, match="bosses must be a list"):
        load_config(write_config(tmp_path, [RANDOM_BOT], ladder="bosses = [3]"))


def test_the_leaderboard_shows_a_boss_as_such_on_the_web_and_in_the_cli(tmp_path: Path) -> None:
    db_path = open_with(tmp_path, [write_commenter(tmp_path / "xss_bot")])
    status = json.loads(cli("ladder", "status", "--db", str(db_path), "--format", "json").output)
    [ladder] = status if isinstance(status, list) else [status]
    assert {e["bot"]: e["role"] for e in ladder["entrants"]} == {"random@1.0": "", XSS: "boss"}
    table = cli("ladder", "status", "--db", str(db_path)).output
    assert "role" in table and [line for line in table.splitlines() if "boss" in line and "random" in line] == []
    assert any("boss" in line and "alert" in line for line in table.splitlines())
    with Database(db_path) as db:
        tid = ladders(db)[0].id
    with TestClient(create_app(db_path)) as client:
        page = client.get(f"/ladders/{tid}").text
        data = client.get(f"/api/ladders/{tid}").json()
    escaped = XSS.replace("<", "&lt;").replace(">", "&gt;")
    assert XSS_NAME not in page and f'{escaped}</a> <span class="boss"' in page
    assert page.count('<span class="boss"') == 1
    assert {e["bot"]: e["boss"] for e in data["entrants"]} == {"random@1.0": False, XSS: True}


def test_a_head_to_head_record_counts_wins_draws_and_losses_by_rank(tmp_path: Path) -> None:
    db_path = open_with(tmp_path, [HEURISTIC])
    with Database(db_path) as db:
        ladder = ladders(db)[0]
        ids = {e.label: e.bot_id for e in entrants(db, ladder.id)}
        bot, boss = ids["random@1.0"], ids["yahtzee-heuristic@1.0"]
        rankings = [[0, 1], [1, 0], [1, 0], [0, 0], [1, 0]]  # seat 0 is the bot: W L L D L
        matches = append_matches(db, ladder, [ScheduledMatch((bot, boss), k, k, k, 0) for k in range(5)])
        db.store_results([(m, record(m, rankings[k])) for k, m in enumerate(matches[:4])])  # the 5th is pending
        found = head_to_head(db, ladder.id, bot, boss)
        assert (found.matches, found.wins, found.draws, found.losses) == (4, 1, 1, 2)
        assert found.mean == pytest.approx(1.5 / 4)
        reverse = head_to_head(db, ladder.id, boss, bot)
        assert (reverse.wins, reverse.draws, reverse.losses) == (2, 1, 1)
        assert head_to_head(db, ladder.id, bot, bot + boss + 100).mean is None


def test_a_schema_12_file_is_read_without_bosses_and_gains_the_mark_on_opening_for_writing(tmp_path: Path) -> None:
    db_path = open_with(tmp_path, [HEURISTIC])
    conn = sqlite3.connect(db_path)
    conn.execute("ALTER TABLE ladder_entrants DROP COLUMN boss")
    conn.execute("UPDATE schema_version SET version = 12")
    conn.commit()
    conn.close()
    with Database(db_path, readonly=True) as reader:
        assert reader.schema_version() == 12 and not reader.has_bosses
        assert {e.label: e.boss for e in entrants(reader, ladders(reader)[0].id)} == {
            "random@1.0": False, "yahtzee-heuristic@1.0": False}
    with Database(db_path) as migrated:
        assert migrated.schema_version() == SCHEMA_VERSION and migrated.has_bosses
        assert not any(e.boss for e in entrants(migrated, ladders(migrated)[0].id))
    assert marks(open_with(tmp_path, [HEURISTIC]))["yahtzee-heuristic@1.0"] == ("active", True)
