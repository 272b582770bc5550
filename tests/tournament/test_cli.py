"""The tournament commands through the real ``arena`` group: output formats and one-line errors."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.league.storage import SCHEMA_VERSION, Database
from arena.runs.tournament import TournamentSpec, create_tournament, expand_bots

from .helpers import write_bot


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def assert_one_line_error(result, text: str) -> None:
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    assert text in lines[0]
    assert "Traceback" not in result.output


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A small real Gin Rummy tournament (gin heuristic against random) in a database."""
    from .helpers import SAMPLE_BOTS

    folder = tmp_path_factory.mktemp("cli")
    db = folder / "arena.db"
    result = invoke("tournament", "run", "--game", "gin_rummy", "--bot", str(SAMPLE_BOTS), "--rounds", "1",
                    "--workers", "1", "--seed", "5", "--keep-alive", "--quiet", "--db", str(db))
    assert result.exit_code == 0, result.output
    assert "skipped bot yahtzee-heuristic@1.0 (does not play gin_rummy)" in result.output
    assert re.search(r"throughput: [\d.]+ matches/min over [\d.]+ s; worker time \d+% starting bots .* "
                     r"0 start-up forfeit\(s\)", result.output), result.output
    return db


class TestResults:
    def test_run_prints_the_rating_table(self, played):
        with Database(played) as db:
            assert db.match_counts(1) == {"pending": 0, "done": 2, "failed": 0}

    @pytest.mark.parametrize("fmt", ["table", "csv", "json", "markdown"])
    def test_ratings_formats(self, played, fmt):
        result = invoke("ratings", "--game", "gin_rummy", "--format", fmt, "--db", str(played))
        assert result.exit_code == 0, result.output
        if fmt == "json":
            rows = json.loads(result.output)
            assert [row["bot"] for row in rows] == ["gin-heuristic", "random"]
            assert set(rows[0]) == {"model", "rank", "bot", "version", "mu", "sigma", "conservative", "matches", "wins",
                                    "mean_score", "faults", "los_next", "best_rank", "worst_rank", "tied_with"}
            assert rows[0]["model"] == "trueskill" and rows[1]["los_next"] is None  # a tournament's default; last row
            assert 0.5 <= rows[0]["los_next"] <= 1
            # two matches cannot separate them: each may still be first or second
            assert [(r["best_rank"], r["worst_rank"], r["tied_with"]) for r in rows] == [(1, 2, [2]), (1, 2, [1])]
            assert rows[0]["conservative"] == pytest.approx(rows[0]["mu"] - 3 * rows[0]["sigma"], abs=0.001)
            assert isinstance(rows[0]["matches"], int) and isinstance(rows[0]["mean_score"], float)
        elif fmt == "csv":
            lines = result.output.splitlines()
            assert lines[0] == ("model,rank,bot,version,mu,sigma,conservative,matches,wins,mean_score,faults,"
                                "los_next,best_rank,worst_rank,tied_with")
            assert lines[1].endswith(",1,2,2")  # one value per cell: the ranks space-separated
        elif fmt == "markdown":
            assert "| rank | bot | version |" in result.output and "| ranks | tied with |" in result.output
            assert "| 1-2 | 2 |" in result.output
        else:
            assert "gin-heuristic" in result.output

    def test_recompute_gives_the_same_table(self, played):
        before = invoke("ratings", "--game", "gin_rummy", "--format", "json", "--db", str(played)).output
        after = invoke("ratings", "--game", "gin_rummy", "--format", "json", "--recompute", "--db", str(played))
        assert after.exit_code == 0 and json.loads(after.output) == json.loads(before)

    def test_h2h(self, played):
        result = invoke("h2h", "--game", "gin_rummy", "--format", "json", "--db", str(played))
        cells = {(c["bot"], c["opponent"]): c for c in json.loads(result.output)}
        assert cells["gin-heuristic@1.0", "random@1.0"]["matches"] == 2
        assert cells["gin-heuristic@1.0", "random@1.0"]["result"] + cells["random@1.0", "gin-heuristic@1.0"]["result"] == 1

    def test_matches_and_show(self, played, tmp_path):
        listed = json.loads(invoke("matches", "--format", "json", "--bot", "random", "--db", str(played)).output)
        assert (listed["total"], listed["truncated"], listed["next_before"]) == (2, False, None)
        assert [m["id"] for m in listed["matches"]] == [2, 1] and all(m["status"] == "done" for m in listed["matches"])
        shown = invoke("show", "1", "--db", str(played))
        assert shown.exit_code == 0
        assert "gin_rummy (standard)" in shown.output and "decision times" in shown.output
        assert "summary:" in shown.output and "match over after" in shown.output and "draws from the stock" not in shown.output
        verbose = invoke("show", "1", "-v", "--db", str(played))
        assert "is dealt" in verbose.output and "   0  seat " in verbose.output and "ms)" in verbose.output
        out = tmp_path / "m1.json"
        assert invoke("show", "1", "--out", str(out), "--db", str(played)).exit_code == 0
        replayed = invoke("replay", str(out))  # the stored record replays through the engine
        assert replayed.exit_code == 0 and "replay OK" in replayed.output

    def test_tournament_list(self, played):
        rows = json.loads(invoke("tournament", "list", "--format", "json", "--db", str(played)).output)
        assert (rows[0]["done"], rows[0]["total"], rows[0]["status"]) == (2, 2, "finished")

    def test_resume_of_a_finished_tournament_does_nothing(self, played):
        result = invoke("tournament", "resume", "1", "--db", str(played))
        assert result.exit_code == 0 and "2 of 2 matches done, 0 to play" in result.output


class TestBadInput:
    def test_unknown_bot(self, tmp_path):
        result = invoke("tournament", "run", "--game", "yahtzee", "--bot", str(tmp_path / "nope"), "--bot",
                        str(tmp_path / "nope2"), "--db", str(tmp_path / "a.db"))
        assert_one_line_error(result, "no bot manifest or address")

    def test_duplicate_names(self, tmp_path):
        a = write_bot(tmp_path / "a", "same")
        b = write_bot(tmp_path / "b", "same")
        result = invoke("tournament", "run", "--game", "yahtzee", "--bot", str(a), "--bot", str(b),
                        "--db", str(tmp_path / "a.db"))
        assert_one_line_error(result, "bot same@1.0 is entered twice")

    def test_newer_schema(self, tmp_path):
        path = tmp_path / "new.db"
        Database(path).close()
        conn = sqlite3.connect(path)
        conn.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
        conn.commit()
        conn.close()
        for args in (["ratings", "--game", "yahtzee"], ["tournament", "list"], ["matches"]):
            assert_one_line_error(invoke(*args, "--db", str(path)), "newer than this arena's")

    def test_missing_database(self, tmp_path):
        assert_one_line_error(invoke("ratings", "--game", "yahtzee", "--db", str(tmp_path / "none.db")),
                              "no arena database at")

    @pytest.mark.parametrize(("args", "text"), [
        (["--game", "chess"], "unknown game 'chess'"),
        (["--game", "yahtzee", "--variant", "poker"], "no variant 'poker'"),
        (["--game", "gin_rummy", "--setting", "colour=red"], "no setting 'colour'"),
        (["--game", "gin_rummy", "--only-one"], "at least 2 bots"),
        (["--game", "yahtzee", "--table-size", "9"], "table size 9 is outside what the game seats (1 to 8 players)"),
        (["--game", "yahtzee", "--gin-bot"], "does not play yahtzee"),
    ])
    def test_bad_tournament_options(self, tmp_path, sample_bots, args, text):
        bots = ["--bot", str(sample_bots / "random_bot")]
        if "--only-one" in args:
            args.remove("--only-one")
        elif "--gin-bot" in args:
            args.remove("--gin-bot")
            bots += ["--bot", str(sample_bots / "gin_heuristic")]
        else:
            bots += ["--bot", str(write_bot(tmp_path / "r2", "random-2"))]
        assert_one_line_error(invoke("tournament", "run", *args, *bots, "--db", str(tmp_path / "a.db")), text)

    def test_unknown_match_and_tournament(self, tmp_path):
        Database(tmp_path / "a.db").close()
        assert_one_line_error(invoke("show", "99", "--db", str(tmp_path / "a.db")), "no match 99")
        assert_one_line_error(invoke("tournament", "resume", "4", "--db", str(tmp_path / "a.db")), "no tournament 4")

    def test_a_bot_changed_since_registration_is_refused_on_resume(self, tmp_path):
        bots = [write_bot(tmp_path / f"b{i}", f"random-{i}") for i in range(2)]
        specs, _ = expand_bots(map(str, bots), "yahtzee")
        with Database(tmp_path / "a.db") as db:
            create_tournament(db, TournamentSpec(game="yahtzee", bots=tuple(specs)))
        (bots[1] / "notes.txt").write_text("changed")
        assert_one_line_error(invoke("tournament", "resume", "1", "--db", str(tmp_path / "a.db")),
                              "bot random-1@1.0 changed since it was registered")


@pytest.mark.slow
def test_demo_plays_every_game_and_prints_its_ratings(tmp_path, played, monkeypatch):
    """Into a database that already holds a tournament, it says so before it starts (issue 34:
    it added its own silently) and, at the end, how to serve the result."""
    from referee.games import game_names

    assert invoke("db", "backup", "--db", str(played), "--to", str(tmp_path / "demo.db")).exit_code == 0
    monkeypatch.setenv("ARENA_DEV", "./dev")
    result = invoke("demo", "--db", str(tmp_path / "demo.db"))
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"{tmp_path / 'demo.db'} already holds 1 tournament; the demo adds its own")
    for game in game_names():
        assert f"{game} (" in result.output and "ratings" in result.output
    assert result.output.rstrip().endswith(f"serve them with `./dev arena serve --db {tmp_path / 'demo.db'}`")
    with Database(tmp_path / "demo.db") as db:
        assert {t.status for t in db.tournaments()} == {"finished"}
        assert len(db.tournaments()) == len(game_names()) + 1


class TestNothingWrittenOnBadInput:
    """Issue 11, part 3: never write a file that is not ours, or before the input is valid."""

    def test_ratings_on_an_empty_file_leaves_it_empty(self, tmp_path):
        empty = tmp_path / "empty.db"
        empty.touch()
        assert_one_line_error(invoke("ratings", "--game", "yahtzee", "--db", str(empty)),
                              f"no arena database at {empty}")
        assert empty.read_bytes() == b"" and sorted(p.name for p in tmp_path.iterdir()) == ["empty.db"]

    @pytest.mark.parametrize("command", [["matches"], ["ratings", "--game", "yahtzee"], ["tournament", "list"],
                                         ["show", "1"], ["h2h", "--game", "yahtzee"], ["db", "check"],
                                         ["tournament", "run", "--game", "yahtzee", "--bot", "RANDOM", "--bot",
                                          "HEURISTIC", "--quiet"]])
    def test_another_programs_sqlite_file_is_untouched(self, tmp_path, sample_bots, command):
        bots = {"RANDOM": str(sample_bots / "random_bot"), "HEURISTIC": str(sample_bots / "yahtzee_heuristic")}
        command = [bots.get(arg, arg) for arg in command]
        other = tmp_path / "other.sqlite"
        conn = sqlite3.connect(other)
        conn.execute("CREATE TABLE notes (text)")
        conn.commit()
        conn.close()
        before = other.read_bytes()
        result = invoke(*command, "--db", str(other))
        assert_one_line_error(result, "not an arena database")
        assert other.read_bytes() == before  # bytes 18-19 stay 01 01: not switched to WAL
        assert sorted(p.name for p in tmp_path.iterdir()) == ["other.sqlite"]

    def test_a_refused_tournament_creates_no_database(self, tmp_path, sample_bots):
        db = tmp_path / "t.db"
        result = invoke("tournament", "run", "--game", "yahtzee", "--table-size", "99", "--bot",
                        str(sample_bots / "random_bot"), "--bot", str(sample_bots / "yahtzee_heuristic"), "--db", str(db))
        assert_one_line_error(result, "table size 99")
        assert not db.exists()

    @pytest.mark.parametrize(("where", "text"), [("missing/t.db", "folder {tmp}/missing does not exist"),
                                                 ("/proc/t.db", "cannot create files in /proc")])
    def test_tournament_run_checks_its_database_path_before_any_bot_starts(self, tmp_path, sample_bots, where, text):
        """Issue 25: a --db that cannot be written was found only after the pre-flight started every bot."""
        marker = tmp_path / "bot"
        marker.mkdir()
        (marker / "bot.toml").write_text('name = "marker"\ncommand = ["touch", "started"]\n')
        db = tmp_path / where
        result = invoke("tournament", "run", "--game", "yahtzee", "--bot", str(marker), "--bot",
                        str(sample_bots / "random_bot"), "--sandbox", "none", "--db", str(db))
        assert result.exit_code == 2 and "Traceback" not in result.output
        assert result.output.strip().splitlines()[-1] == \
            f"Error: Invalid value for --db: {db}: {text.format(tmp=tmp_path)}" + \
            (" (No such file or directory)" if "/proc" in text else "")
        assert not (marker / "started").exists()

    def test_demo_checks_its_database_path_first(self, tmp_path):
        result = invoke("demo", "--db", "/proc/demo.db")
        assert result.exit_code == 2 and "cannot create files in /proc" in result.output
        assert "demo finished" not in result.output and "yahtzee" not in result.output

    def test_show_checks_its_output_path_first(self, played, tmp_path):
        result = invoke("show", "1", "--out", str(tmp_path / "nonexistent" / "m.json"), "--db", str(played))
        assert result.exit_code == 2 and "folder" in result.output and "does not exist" in result.output
        assert "Traceback" not in result.output
        assert invoke("show", "1", "--out", str(tmp_path / "m.json"), "--db", str(played)).exit_code == 0
        assert json.loads((tmp_path / "m.json").read_text())["game"] == "gin_rummy"

    def test_backup_and_check(self, played, tmp_path):
        copy = tmp_path / "copy.db"
        assert invoke("db", "backup", "--db", str(played), "--to", str(copy)).exit_code == 0
        result = invoke("db", "check", "--db", str(copy))
        assert result.exit_code == 0 and f"ok, arena database schema {SCHEMA_VERSION}" in result.output
        assert invoke("db", "backup", "--db", str(played), "--to", str(played)).exit_code == 2

    def test_no_output_replaces_the_database_or_its_journal(self, tmp_path):
        """``show --out`` and ``db backup --to`` naming the league's file or its WAL journal
        would write over the league: refused, and the league is left as it was."""
        from .helpers import record, tournament_db

        db = tmp_path / "league.db"
        league, _, _ = tournament_db(db, 2, [(0, 1)])
        league.store_result(1, record(1, [0, 1]))
        league.close()
        before = db.read_bytes()
        for args in (("show", "1", "--out"), ("db", "backup", "--to")):
            for out in (db, tmp_path / "league.db-wal"):
                result = invoke(*args, str(out), "--db", str(db))
                assert result.exit_code == 2 and "is the database" in result.output, (args, result.output)
        assert db.read_bytes() == before and invoke("db", "check", "--db", str(db)).exit_code == 0


class TestTypedOutput:
    """Issue 15: JSON typed with snake_case keys, CSV one value per cell, Markdown aligned."""

    def test_matches_json_is_typed(self, played):
        rows = json.loads(invoke("matches", "--format", "json", "--db", str(played)).output)["matches"]
        assert set(rows[0]) == {"id", "tournament", "game", "variant", "seed", "round", "players", "ranking", "scores",
                                "forfeited", "faults", "status", "reason", "finished", "luck_estimator", "result",
                                "luck", "adjusted"}
        assert isinstance(rows[0]["players"], list) and len(rows[0]["players"]) == 2
        assert all(isinstance(score, float) for score in rows[0]["scores"]) and rows[0]["ranking"] in ([1, 2], [2, 1])
        assert rows[0]["round"] == 1  # rounds count from 1, as `show` and the tables say

    def test_csv_has_one_value_per_cell(self, played):
        import csv
        import io

        for args in (["matches"], ["h2h", "--game", "gin_rummy"], ["ratings", "--game", "gin_rummy"],
                     ["tournament", "list"], ["games"]):
            result = invoke(*args, "--format", "csv", "--db", str(played)) if args != ["games"] else \
                invoke("games", "--format", "csv")
            rows = list(csv.reader(io.StringIO(result.output)))
            assert len(rows) > 1 and all(len(row) == len(rows[0]) for row in rows), args
            for row in rows[1:]:
                for cell in row:  # no "1.00 (2)" pairs, no lists
                    assert not re.fullmatch(r"[\d.]+ \(\d+\)", cell) and not cell.startswith("["), (args, cell)
        h2h = list(csv.DictReader(io.StringIO(invoke("h2h", "--game", "gin_rummy", "--format", "csv",
                                                     "--db", str(played)).output)))
        assert {row["matches"] for row in h2h} == {"2"} and {float(row["result"]) for row in h2h} <= {0, 0.5, 1}

    def test_markdown_aligns_text_left_and_numbers_right(self, played):
        lines = invoke("ratings", "--game", "gin_rummy", "--format", "markdown", "--db", str(played)).output.splitlines()
        header, rule = lines[2], lines[3]
        cells = [c.strip() for c in rule.strip("|").split("|")]
        names = [c.strip() for c in header.strip("|").split("|")]
        aligned = dict(zip(names, cells))
        assert aligned["bot"] == ":---" and aligned["version"] == ":---" and aligned["mu"] == "---:"

    @pytest.mark.parametrize(("args", "text"), [
        (["matches", "--tournament", "99"], "no tournament 99"),
        (["matches", "--game", "poker"], "unknown game 'poker'"),
    ])
    def test_filters_that_name_nothing_are_errors(self, played, args, text):
        assert_one_line_error(invoke(*args, "--db", str(played)), text)

    def test_empty_results_say_so(self, played):
        assert "no matches with status failed in" in invoke("matches", "--status", "failed", "--db", str(played)).output
        assert "no played yahtzee (yahtzee) matches" in invoke("h2h", "--game", "yahtzee", "--db", str(played)).output


@pytest.fixture(scope="module")
def sixty(tmp_path_factory):
    """60 played Yahtzee matches, the first seat winning the odd ones; every 7th with a timeout."""
    from referee.result import Fault, FaultKind

    from .helpers import record, tournament_db

    path = tmp_path_factory.mktemp("sixty") / "arena.db"
    db, tid, _ = tournament_db(path, 2, [(0, 1)] * 60)
    with db:
        for match in db.matches(tournament_id=tid):
            faults = [Fault(0, FaultKind.TIMEOUT, "slow", 0)] if match.id % 7 == 0 else []
            db.store_result(match.id, record(match.id, [0, 1] if match.id % 2 else [1, 0], faults=faults))
    return path


class TestMatchesListing:
    """Issue 25: `matches` said nothing when it stopped at 50 rows; ranks were 0-based in json and csv."""

    def test_the_table_says_how_many_of_how_many_and_how_to_go_on(self, sixty):
        result = invoke("matches", "--db", str(sixty))
        assert result.exit_code == 0
        footer = result.output.strip().splitlines()[-1]
        assert footer.startswith("50 of 60 matches; next: `") and footer.endswith(f"matches --before 11 --db {sixty}`")
        rest = invoke("matches", "--before", "11", "--db", str(sixty)).output.strip().splitlines()
        assert rest[-1] == "matches 51 to 60 of 60"
        ids = [int(line.split()[0]) for line in rest if line.split() and line.split()[0].isdigit()]
        assert ids == list(range(10, 0, -1))

    def test_json_gives_the_total_whether_it_was_cut_and_where_to_go_on(self, sixty):
        first = json.loads(invoke("matches", "--format", "json", "--db", str(sixty)).output)
        assert (first["total"], first["shown"], first["truncated"], first["next_before"], first["prev_after"]) == (
            60, 50, True, 11, None)
        assert [m["id"] for m in first["matches"]] == list(range(60, 10, -1))
        second = json.loads(invoke("matches", "--format", "json", "--before", "11", "--db", str(sixty)).output)
        assert (second["total"], second["shown"], second["truncated"], second["next_before"], second["prev_after"]) == (
            60, 10, False, None, 10)
        everything = json.loads(invoke("matches", "--format", "json", "--all", "--db", str(sixty)).output)
        assert [m["id"] for m in everything["matches"]] == list(range(60, 0, -1)) and not everything["truncated"]
        paged, before = [], None
        while True:  # keyset pages of 25 cover the listing exactly once
            page = json.loads(invoke("matches", "--format", "json", "--limit", "25", "--db", str(sixty),
                                     *(["--before", str(before)] if before else [])).output)
            paged += [m["id"] for m in page["matches"]]
            before = page["next_before"]
            if before is None:
                break
        assert paged == list(range(60, 0, -1))
        back, after = [], page["prev_after"]
        while after is not None:  # and the newer pages, from the last, back to the first
            page = json.loads(invoke("matches", "--format", "json", "--limit", "25", "--after", str(after), "--db",
                                     str(sixty)).output)
            back = [m["id"] for m in page["matches"]] + back
            after = page["prev_after"]
        assert back == list(range(60, 10, -1))

    def test_before_and_after_mean_older_and_newer_as_in_the_web_api(self, sixty):
        """Issue 34: ``arena matches --after 40`` listed older matches, ``/api/matches?after=40`` newer ones."""
        from starlette.testclient import TestClient

        from arena.web.app import create_app

        with TestClient(create_app(sixty)) as client:
            for key, ids in (("after", list(range(60, 40, -1))), ("before", list(range(39, 0, -1)))):
                api = client.get(f"/api/matches?{key}=40").json()
                listed = json.loads(invoke("matches", "--format", "json", f"--{key}", "40", "--db", str(sixty)).output)
                assert [m["id"] for m in listed["matches"]] == [m["id"] for m in api["matches"]] == ids
                assert (listed["next_before"], listed["prev_after"]) == (api["next_before"], api["prev_after"])
            newer = json.loads(invoke("matches", "--format", "json", "--limit", "5", "--after", "40", "--db",
                                      str(sixty)).output)  # the five just above 40
            assert [m["id"] for m in newer["matches"]] == [45, 44, 43, 42, 41]
            assert (newer["next_before"], newer["prev_after"], newer["truncated"]) == (41, 45, True)
        table = invoke("matches", "--limit", "5", "--after", "40", "--db", str(sixty)).output.strip().splitlines()
        assert table[-1].startswith("matches 16 to 20 of 60; next: `")
        assert table[-1].endswith(f"matches --limit 5 --before 41 --db {sixty}`")
        assert_one_line_error(invoke("matches", "--before", "9", "--after", "3", "--db", str(sixty)),
                              "give --before ID (older matches) or --after ID (newer ones), not both")

    def test_csv_says_it_was_cut_on_stderr_only(self, sixty):
        result = CliRunner().invoke(main, ["matches", "--format", "csv", "--db", str(sixty)])
        assert result.exit_code == 0
        assert len(result.stdout.splitlines()) == 1 + 50 * 2  # header, a row per seat
        assert result.stderr.startswith("50 of 60 matches; next: ") and "--before 11 --format csv" in result.stderr

    def test_ranks_count_from_1_and_csv_booleans_are_lowercase(self, sixty):
        rows = json.loads(invoke("matches", "--format", "json", "--limit", "1", "--db", str(sixty)).output)["matches"]
        assert rows[0]["id"] == 60 and rows[0]["ranking"] == [2, 1]  # even match: the second seat won
        csv_rows = invoke("matches", "--format", "csv", "--limit", "1", "--db", str(sixty)).output.splitlines()
        assert csv_rows[0] == ("match,tournament,game,variant,seed,round,seat,bot,rank,score,forfeited,status,reason,"
                               "finished,luck_estimator,result,luck,adjusted")
        assert csv_rows[1].startswith("60,1,yahtzee,yahtzee,59,1,0,bot0@1,2,9.0,false,done,test,")
        assert csv_rows[2].startswith("60,1,yahtzee,yahtzee,59,1,1,bot1@1,1,10.0,false,done,test,")

    def test_times_are_iso_8601_with_the_offset(self, sixty):
        from datetime import datetime

        row = json.loads(invoke("matches", "--format", "json", "--limit", "1", "--db", str(sixty)).output)["matches"][0]
        assert datetime.fromisoformat(row["finished"]).utcoffset() is not None
        listed = json.loads(invoke("tournament", "list", "--format", "json", "--db", str(sixty)).output)
        assert datetime.fromisoformat(listed[0]["created"]).utcoffset() is not None

    def test_faults_lists_only_matches_where_a_bot_faulted(self, sixty):
        found = json.loads(invoke("matches", "--faults", "--format", "json", "--db", str(sixty)).output)
        assert [m["id"] for m in found["matches"]] == [56, 49, 42, 35, 28, 21, 14, 7] and found["total"] == 8
        assert all(m["faults"] == 1 for m in found["matches"])
        none = invoke("matches", "--faults", "--status", "failed", "--db", str(sixty))
        assert "no matches with status failed, faults in" in none.output
