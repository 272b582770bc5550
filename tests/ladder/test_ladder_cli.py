"""The ladder's config file, its commands' errors and its tables, without playing a match."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from arena.league.ratings import update_ratings
from arena.league.storage import SCHEMA_VERSION, Database
from arena.runs import ladder_store
from arena.runs.ladder import LadderError, ServiceConfig, load_config, open_ladder
from tournament.helpers import record, write_bot

from .helpers import cli, write_config


@pytest.mark.parametrize("text, message", [
    ('db = "x.db"\n', "no [[ladder]]"),
    ('db = "x.db"\ncolour = 1\n[[ladder]]\ngame = "yahtzee"\n', "unknown key 'colour'"),
    ('db = "x.db"\n[[ladder]]\ngame = "chess"\n', "chess"),
    ('db = "x.db"\n[[ladder]]\ngame = "yahtzee"\nvariant = "nope"\n', "no variant 'nope'"),
    ('db = "x.db"\n[[ladder]]\ngame = "gin_rummy"\nseats = 3\n', "played at tables of 2"),
    ('db = "x.db"\n[[ladder]]\ngame = "yaniv"\nseats = [4, 9]\n', "outside what yaniv seats"),
    ('db = "x.db"\n[[ladder]]\ngame = "yaniv"\nseats = "four"\n', "seats must be a number"),
    ('db = "x.db"\nworkers = 0\n[[ladder]]\ngame = "yahtzee"\n', "workers must be at least 1"),
    ('db = "x.db"\nexecutor = "cloud"\n[[ladder]]\ngame = "yahtzee"\n', "executor must be"),
    ('db = "x.db"\n[time_control]\nmove_timeout = "fast"\n[[ladder]]\ngame = "yahtzee"\n', "move_timeout must be"),
    ('db = "x.db"\n[sandbox]\nmode = "docker"\n[[ladder]]\ngame = "yahtzee"\n', "mode must be"),
    ('db = "x.db"\n[[ladder]]\ngame = "yahtzee"\n[[ladder]]\ngame = "yahtzee"\n', "two ladders are named"),
    ('db = "x.db"\n[[ladder]]\nname = "a"\ngame = "yahtzee"\n[[ladder]]\nname = "b"\ngame = "yahtzee"\n',
     "ladders 'a' and 'b' both play yahtzee (yahtzee); one ladder per game and variant"),
    ('[[ladder]]\ngame = "yahtzee"\n', "no database"),
    ('db = "x.db"\n[[ladder\n', "not valid TOML"),
])
def test_a_bad_config_is_one_error_line_before_anything_is_written(tmp_path: Path, text: str, message: str) -> None:
    config = tmp_path / "ladder.toml"
    config.write_text(text, encoding="utf-8")
    result = cli("ladder", "run", "--config", str(config))
    assert result.exit_code == 1 and message in result.output, result.output
    assert result.output.startswith("Error: ") and result.output.count("\n") == 1
    assert not (tmp_path / "x.db").exists()


def test_the_config_defaults_and_paths_relative_to_its_folder(tmp_path: Path) -> None:
    bot = write_bot(tmp_path / "bots" / "ant", "ant")
    config = load_config(write_config(tmp_path, ["bots/ant", "127.0.0.1:7000"]))
    assert config.db == tmp_path / "ladder.db" and config.workers == 2 and config.keep_alive
    (ladder,) = config.ladders
    assert (ladder.name, ladder.game, ladder.variant, ladder.seats) == ("dice", "yahtzee", "yahtzee", (2, 2))
    assert ladder.bots == (str(bot), "127.0.0.1:7000")
    yaniv = tmp_path / "yaniv.toml"
    yaniv.write_text('db = "l.db"\n[[ladder]]\ngame = "yaniv"\n', encoding="utf-8")
    assert load_config(yaniv).ladders[0].seats == (2, 8) and load_config(yaniv, db=tmp_path / "o.db").db == \
        tmp_path / "o.db"


def test_a_ladder_without_a_seed_draws_a_random_one_and_keeps_it(tmp_path: Path) -> None:
    """A seed anyone knows (the old default, 0) lets a bot look its deal up from its first hand."""
    seeds = []
    for name in ("a", "b"):
        path = tmp_path / f"{name}.toml"
        path.write_text(f'db = "{name}.db"\n[[ladder]]\nname = "dice"\ngame = "yahtzee"\n', encoding="utf-8")
        config = load_config(path)
        with Database(config.db) as db:
            ladder, created = open_ladder(db, config.ladders[0], config)
            again, created_again = open_ladder(db, config.ladders[0], config)
        assert created and not created_again and again.seed == ladder.seed
        seeds.append(ladder.seed)
    # 63 bits: far too many to search from a match's shown seed (a hash of it); below 2**31 with odds of 2**-32
    assert seeds[0] != seeds[1] and min(seeds) >= 2**31
    db, tid = _ladder_db(tmp_path)  # a config that gives one (seed = 5) keeps it
    assert db.tournament(tid).seed == 5
    db.close()


def test_commands_on_a_database_without_the_ladder_say_so(tmp_path: Path) -> None:
    db = tmp_path / "ladder.db"
    Database(db).close()
    for args in (["status"], ["add", "x"], ["pause", "x"]):
        result = cli("ladder", *args, "--db", str(db))
        assert result.exit_code == 1 and "no ladder in" in result.output and "arena ladder run" in result.output
    missing = cli("ladder", "status", "--db", str(tmp_path / "none.db"))
    assert missing.exit_code == 1 and missing.output.startswith("Error: no arena database")


def _ladder_db(tmp_path: Path) -> tuple[Database, int]:
    bots = [str(write_bot(tmp_path / "bots" / name, name)) for name in ("ant", "bee")]
    config = load_config(write_config(tmp_path, bots))
    db = Database(config.db)
    ladder, created = open_ladder(db, config.ladders[0], config)
    assert created
    return db, ladder.id


def test_entrant_commands_check_their_bots(tmp_path: Path) -> None:
    db, tid = _ladder_db(tmp_path)
    db.register_bot(name="stranger", version="1", files_hash="h")
    db.close()
    path = str(tmp_path / "ladder.db")
    assert "is not an entrant of ladder 'dice'" in cli("ladder", "pause", "stranger", "--db", path).output
    assert "no bot 'nobody'" in cli("ladder", "remove", "nobody", "--db", path).output
    wrong = write_bot(tmp_path / "bots" / "gin", "gin-only", games='["gin_rummy"]')
    assert "does not play yahtzee" in cli("ladder", "add", str(wrong), "--db", path).output
    again = cli("ladder", "add", str(tmp_path / "bots" / "ant"), "--db", path)
    assert again.exit_code == 0 and "ant@1.0: already active" in again.output
    assert cli("ladder", "remove", "ant", "--db", path).exit_code == 0
    back = cli("ladder", "add", str(tmp_path / "bots" / "ant"), "--db", path)
    assert "ant@1.0: resumed" in back.output
    status = cli("ladder", "status", "--db", path)
    assert "not running" in status.output and "ant@1.0" in status.output


def test_a_ladder_is_not_run_as_a_tournament(tmp_path: Path) -> None:
    db, tid = _ladder_db(tmp_path)
    db.close()
    result = cli("tournament", "resume", str(tid), "--db", str(tmp_path / "ladder.db"))
    assert result.exit_code == 1 and "is a ladder; run it with `arena ladder run`" in result.output


def test_a_stopped_ladder_is_deleted_whole_and_can_start_again(tmp_path: Path) -> None:
    """Its entrants and status go with its matches (they refer to it); the config then opens it anew."""
    from arena.league.storage import ScheduledMatch

    db, tid = _ladder_db(tmp_path)
    t = db.tournament(tid)
    ant, bee = (e.bot_id for e in ladder_store.entrants(db, tid))
    ids = ladder_store.append_matches(db, t, [ScheduledMatch((ant, bee), 7, 0, 0, 0)])
    db.store_result(ids[0], record(ids[0], [0, 1]))
    ladder_store.write_status(db, tid, pid=None, started_at=None, in_flight=0, per_minute=0.0, note="stopped")
    db.close()
    path = str(tmp_path / "ladder.db")
    result = cli("tournament", "delete", str(tid), "--yes", "--db", path)
    assert result.exit_code == 0, result.output
    assert "deleted with its 1 match(es)" in result.output
    with Database(path) as after:
        for table in ("ladder_entrants", "ladder_status", "matches", "tournaments"):
            assert after.conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] == 0, table
        config = load_config(tmp_path / "ladder.toml")
        again, created = open_ladder(after, config.ladders[0], config)
        assert created and len(ladder_store.entrants(after, again.id)) == 2


def test_a_renamed_game_under_an_existing_name_is_refused(tmp_path: Path) -> None:
    db, _ = _ladder_db(tmp_path)
    other = write_config(tmp_path, []).read_text().replace('game = "yahtzee"', 'game = "gin_rummy"')
    (tmp_path / "ladder.toml").write_text(other.replace("seats = 2\n", ""))
    config = load_config(tmp_path / "ladder.toml")
    with pytest.raises(LadderError, match="plays yahtzee"):
        open_ladder(db, config.ladders[0], config)
    db.close()


def test_appended_and_dropped_matches_keep_the_counts_and_ratings_stop_below_the_lowest_in_play(
        tmp_path: Path) -> None:
    """The ladder's rows as the running process writes them; ratings bounded by the lowest
    match in play extend in id order, and equal a recompute once that match is stored."""
    from arena.league.storage import ScheduledMatch

    db, tid = _ladder_db(tmp_path)
    t = db.tournament(tid)
    ant, bee = (e.bot_id for e in ladder_store.entrants(db, tid))
    ids = ladder_store.append_matches(db, t, [ScheduledMatch((ant, bee), 7, 0, 0, 0),
                                              ScheduledMatch((bee, ant), 7, 0, 0, 1),
                                              ScheduledMatch((ant, bee), 8, 1, 1, 0)])
    assert db.match_counts(tid) == {"pending": 3, "done": 0, "failed": 0}
    db.store_results([(ids[1], record(ids[1], [0, 1])), (ids[2], record(ids[2], [1, 0]))])
    update_ratings(db, "yahtzee", "yahtzee", before_id=ids[0])  # ids[0] still in play: nothing rated yet
    assert db.conn.execute("SELECT COUNT(*) FROM ratings").fetchone()[0] == 0
    db.store_result(ids[0], record(ids[0], [0, 1]))
    assert update_ratings(db, "yahtzee", "yahtzee", before_id=None) == 3
    state = db.conn.execute("SELECT last_match_id, rated_count FROM rating_state").fetchone()
    assert tuple(state) == (ids[2], 3)
    extra = ladder_store.append_matches(db, t, [ScheduledMatch((ant, bee), 9, 2, 2, 0)])
    assert ladder_store.drop_pending(db, tid) == 1 and db.match_counts(tid) == {"pending": 0, "done": 3, "failed": 0}
    assert db.conn.execute("SELECT COUNT(*) FROM match_seats WHERE match_id = ?", extra).fetchone()[0] == 0
    db.close()


def test_a_schema_3_file_gains_the_ladder_tables(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    Database(path).close()
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE ladder_entrants")
    conn.execute("DROP TABLE ladder_status")
    conn.execute("UPDATE schema_version SET version = 3")
    conn.commit()
    conn.close()
    with Database(path, readonly=True) as reader:
        assert reader.schema_version() == 3
    with Database(path) as db:
        assert db.schema_version() == SCHEMA_VERSION
        tables = {r[0] for r in db.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"ladder_entrants", "ladder_status"} <= tables
        assert db.integrity_problems() == []


def test_entrant_totals_follow_every_stored_match_and_a_schema_5_file_gains_them(tmp_path: Path) -> None:
    """Each entrant's matches and last match are running totals (a bot in two seats counts
    once); a schema-5 file is read by counting, and migrating fills the totals the same."""
    from arena.league.storage import ScheduledMatch

    db, tid = _ladder_db(tmp_path)
    ant, bee = (e.bot_id for e in ladder_store.entrants(db, tid))
    ids = ladder_store.append_matches(db, db.tournament(tid), [ScheduledMatch((ant, bee), 7, 0, 0, 0),
                                                               ScheduledMatch((bee, ant), 7, 0, 0, 1),
                                                               ScheduledMatch((ant, ant), 8, 1, 1, 0)])
    db.store_results([(i, record(i, [0, 1])) for i in ids[:2]])
    db.store_results([(ids[2], record(ids[2], [0, 1]))])
    last = db.conn.execute("SELECT MAX(finished_at) FROM matches").fetchone()[0]
    totals = {e.label: (e.matches, e.last_match_at) for e in ladder_store.entrants(db, tid)}
    assert totals["ant@1.0"] == (3, last) and totals["bee@1.0"][0] == 2
    assert ladder_store.recent_matches(db, tid, now=last) == {ant: 3, bee: 2}
    assert ladder_store.recent_matches(db, tid, now=last + 61) == {}
    db.close()
    path = tmp_path / "ladder.db"
    conn = sqlite3.connect(path)
    conn.execute("ALTER TABLE ladder_entrants DROP COLUMN matches")
    conn.execute("ALTER TABLE ladder_entrants DROP COLUMN last_match_at")
    conn.execute("UPDATE schema_version SET version = 5")
    conn.commit()
    conn.close()
    with Database(path, readonly=True) as reader:
        assert reader.schema_version() == 5
        assert {e.label: (e.matches, e.last_match_at) for e in ladder_store.entrants(reader, tid)} == totals
    with Database(path) as migrated:
        assert migrated.schema_version() == SCHEMA_VERSION
        assert {e.label: (e.matches, e.last_match_at) for e in ladder_store.entrants(migrated, tid)} == totals


def test_service_config_defaults_are_documented() -> None:
    """docs/ladder.md's config reference gives the defaults the code uses."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "ladder.md").read_text(encoding="utf-8")
    defaults = ServiceConfig(db=Path("x"), ladders=())
    for line in (f"workers = {defaults.workers}", f"stop_grace = {defaults.stop_grace:g}",
                 f'executor = "{defaults.executor}"', "keep_alive = true", "pin_cpus = true"):
        assert line in text, line


def test_the_web_app_and_the_match_list_read_a_ladder_as_a_tournament(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from arena.league.storage import ScheduledMatch
    from arena.web.app import create_app

    db, tid = _ladder_db(tmp_path)
    ant, bee = (e.bot_id for e in ladder_store.entrants(db, tid))
    ids = ladder_store.append_matches(db, db.tournament(tid), [ScheduledMatch((ant, bee), 7, 0, 0, 0),
                                                               ScheduledMatch((bee, ant), 7, 0, 0, 1)])
    db.store_results([(i, record(i, [0, 1])) for i in ids])
    update_ratings(db, "yahtzee", "yahtzee")
    db.close()
    with TestClient(create_app(tmp_path / "ladder.db")) as client:
        api = client.get(f"/api/tournaments/{tid}").json()
        assert api["name"] == "dice" and api["format"] == "ladder" and api["progress"]["done"] == 2
        assert sorted(m["id"] for m in api["latest"]) == ids
        page = client.get(f"/tournaments/{tid}")
        assert page.status_code == 200 and "ant" in page.text and "bee" in page.text
    listed = cli("matches", "--tournament", str(tid), "--format", "json", "--db", str(tmp_path / "ladder.db"))
    assert sorted(m["id"] for m in json.loads(listed.output)["matches"]) == ids


def test_a_bad_bot_in_the_config_creates_no_ladder(tmp_path: Path) -> None:
    config = write_config(tmp_path, [str(tmp_path / "nowhere")])
    result = cli("ladder", "run", "--config", str(config))
    assert result.exit_code == 1 and result.output.startswith("Error: ") and "nowhere" in result.output
    with Database(tmp_path / "ladder.db") as db:
        assert ladder_store.ladders(db) == []


def _two_ladders(tmp_path: Path) -> Path:
    """A database with the dice ladder of two entrants, and a Yaniv ladder whose two entrants
    cannot fill its tables of three to five: nothing played."""
    db, _ = _ladder_db(tmp_path)
    bots = [str(write_bot(tmp_path / "bots" / name, name)) for name in ("ant", "bee")]
    config = tmp_path / "yaniv.toml"
    config.write_text(f'db = "ladder.db"\n[[ladder]]\nname = "cards"\ngame = "yaniv"\nseats = [3, 5]\n'
                      f'bots = {json.dumps(bots)}\n', encoding="utf-8")
    yaniv = load_config(config)
    open_ladder(db, yaniv.ladders[0], yaniv)
    db.close()
    return tmp_path / "ladder.db"


def test_status_without_ladder_lists_every_ladder_in_every_format(tmp_path: Path) -> None:
    """Issue 34: `arena ladder status --db ladder.db`, as the README shows it, refused a
    database of two ladders ("say which")."""
    path = str(_two_ladders(tmp_path))
    table = cli("ladder", "status", "--db", path)
    assert table.exit_code == 0, table.output
    assert "ladder dice (id 1, yahtzee yahtzee): not running" in table.output
    assert "ladder cards (id 2, yaniv standard): not running" in table.output
    as_json = json.loads(cli("ladder", "status", "--format", "json", "--db", path).output)
    assert [(s["ladder"], [e["bot"] for e in s["entrants"]]) for s in as_json] == [
        ("dice", ["ant@1.0", "bee@1.0"]), ("cards", ["ant@1.0", "bee@1.0"])]
    as_csv = cli("ladder", "status", "--format", "csv", "--db", path).output.splitlines()
    assert as_csv[0].startswith("ladder,bot,state,") and [line.split(",")[0] for line in as_csv[1:]] == [
        "dice", "dice", "cards", "cards"]
    markdown = cli("ladder", "status", "--format", "markdown", "--db", path).output
    assert "**dice**" in markdown and "**cards**" in markdown
    one = json.loads(cli("ladder", "status", "--ladder", "cards", "--format", "json", "--db", path).output)
    assert one["ladder"] == "cards"


def test_a_ladder_whose_entrants_cannot_fill_a_table_says_so(tmp_path: Path) -> None:
    """Issue 34: a Yaniv ladder of tables of 3 to 5 with two entrants idled silently; its
    status, its page and the list of ladders say what it waits for, running or not."""
    from starlette.testclient import TestClient

    from arena.web.app import create_app

    path = _two_ladders(tmp_path)
    waiting = "waiting: needs at least 3 active entrants, has 2"
    table = cli("ladder", "status", "--ladder", "cards", "--db", str(path)).output
    assert waiting in table and "ladder add BOT --ladder cards" in table
    assert "waiting" not in cli("ladder", "status", "--ladder", "dice", "--db", str(path)).output
    assert json.loads(cli("ladder", "status", "--ladder", "cards", "--format", "json",
                          "--db", str(path)).output)["note"] == waiting
    assert cli("ladder", "pause", "ant", "--ladder", "dice", "--db", str(path)).exit_code == 0
    dice = cli("ladder", "status", "--ladder", "dice", "--db", str(path)).output
    assert "waiting: needs at least 2 active entrants, has 1" in dice and "ladder resume ant@1.0 --ladder dice" in dice
    with TestClient(create_app(path)) as client:
        assert client.get("/api/ladders/2").json()["note"] == waiting
        assert f'<p id="note" class="ladder-note">{waiting}</p>' in client.get("/ladders/2").text
        assert waiting in client.get("/ladders").text
