"""``arena export`` (issue 37): each row is exactly what the referee sent that seat, only
settled deals are exported, and both formats stream the same rows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from google.protobuf import json_format

from arena.cli import main
from arena.league.export import COLUMNS, read_rows
from arena.league.storage import Database, ScheduledMatch
from arena.v1 import bot_pb2
from referee.luck import results_of
from referee.games import game_class, make_game

GAMES = [("gin_rummy", 2), ("jass", 4), ("yaniv", 3)]


def _league(path: Path, recorded_matches: Any, game: str, seats: int, seeds: list[int],
            *, pending_seed: int | None = None) -> tuple[list[Any], dict[int, Any]]:
    """A league file holding real gRPC matches of recording bots (one tournament, duplicate
    deals of two seatings per seed); with ``pending_seed``, one seating of that deal is played
    and the other is left pending, so its deal is not settled."""
    short = dict(game_class(game).short_match_settings)  # random bots play long full-length matches
    played = list(recorded_matches(game, num_players=seats, seeds=seeds, settings=short))
    with Database(path) as db:
        bots = [db.register_bot(name=f"rec{i}", version="1", files_hash=f"h{i}").id for i in range(seats)]
        schedule = [ScheduledMatch(tuple(bots), seed=m.record.seed, round=0, deal=k, rotation=0)
                    for k, m in enumerate(played)]
        if pending_seed is not None:
            schedule.append(ScheduledMatch(tuple(reversed(bots)), seed=pending_seed, round=0, deal=len(played),
                                           rotation=1))
        tid = db.create_tournament(name="t", game=game, variant=played[0].record.variant, settings=short,
                                   format="free_for_all", table_size=seats, rounds=1, duplicate=True, seed=0,
                                   time_control={}, options={}, bot_ids=bots, matches=schedule)
        rows = db.matches(tournament_id=tid)
        by_id = {}
        for row, match in zip(rows, played):
            db.store_result(row.id, match.record)
            by_id[row.id] = match
        db.set_tournament_status(tid, "running")
    return played, by_id


@pytest.mark.parametrize(("game", "seats"), GAMES)
def test_rows_are_what_each_seat_was_sent(tmp_path: Path, recorded_matches: Any, game: str, seats: int) -> None:
    played, by_id = _league(tmp_path / "league.db", recorded_matches, game, seats, [3, 4])
    out = tmp_path / "d.jsonl"
    result = CliRunner().invoke(main, ["export", "--db", str(tmp_path / "league.db"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    rows = list(read_rows(out))
    sent = {(mid, seat): [r for r in m.requests[seat] if isinstance(r, bot_pb2.DecideRequest)]
            for mid, m in by_id.items() for seat in range(seats)}
    assert len(rows) == sum(len(v) for v in sent.values()) > 0
    for key in sent:  # every decision, in the order the seat was asked
        mine = [r for r in rows if (r["match_id"], r["seat"]) == key]
        assert len(mine) == len(sent[key])
        for row, request in zip(mine, sent[key]):
            observation = json_format.ParseDict(json.loads(row["observation"]), bot_pb2.Observation())
            assert observation == request.observation
            legal = [json_format.ParseDict(a, bot_pb2.Action()) for a in json.loads(row["legal_actions"])]
            assert legal == list(request.legal_actions)
            assert set(row) == {name for name, _ in COLUMNS}
    for mid, match in by_id.items():
        record = match.record
        results = results_of(make_game(game, num_players=seats, settings=record.settings), record.scores)
        for row in (r for r in rows if r["match_id"] == mid):
            move = record.moves[row["decision"]]
            assert (row["action_index"], row["action"], row["bot"]) == (move.index, move.action, f"rec{row['seat']}")
            assert row["score"] == record.scores[row["seat"]] and row["result"] == pytest.approx(results[row["seat"]])


def test_parquet_holds_the_same_rows_and_unsettled_deals_stay_out(tmp_path: Path, recorded_matches: Any) -> None:
    db_path = tmp_path / "league.db"
    _league(db_path, recorded_matches, "gin_rummy", 2, [5, 6], pending_seed=6)
    runner = CliRunner()
    for name in ("d.jsonl", "d.parquet"):
        result = runner.invoke(main, ["export", "--db", str(db_path), "--out", str(tmp_path / name)])
        assert result.exit_code == 0, result.output
        assert "1 left out" in result.output
    jsonl, parquet = list(read_rows(tmp_path / "d.jsonl")), list(read_rows(tmp_path / "d.parquet"))
    assert jsonl == parquet and jsonl
    assert {row["match_id"] for row in jsonl} == {1}, "the deal of seed 6 has a seating still to play"


def test_bad_input_is_refused_clearly_and_nothing_is_left_behind(tmp_path: Path, recorded_matches: Any) -> None:
    db_path = tmp_path / "league.db"
    _league(db_path, recorded_matches, "gin_rummy", 2, [7])
    runner = CliRunner()
    cases = [(["--out", str(tmp_path / "x.csv")], "--format"),
             (["--out", str(tmp_path / "x.jsonl"), "--ladder", "nope"], "no ladder 'nope'"),
             (["--out", str(tmp_path / "x.jsonl"), "--since", "yesterday"], "not a date"),
             (["--out", str(tmp_path / "x.jsonl"), "--game", "chess"], "chess"),
             (["--out", str(tmp_path / "x.jsonl"), "--bot", "nobody"], "no bot 'nobody'")]
    for extra, message in cases:
        result = runner.invoke(main, ["export", "--db", str(db_path), *extra])
        assert result.exit_code != 0 and message in result.output and "Traceback" not in result.output, result.output
    assert not [p.name for p in tmp_path.iterdir() if not p.name.startswith("league.db")], "a refused export wrote"
    result = runner.invoke(main, ["export", "--db", str(db_path), "--out", str(tmp_path / "late.jsonl"),
                                  "--since", "2999-01-01"])
    assert result.exit_code == 0 and "wrote 0 decisions of 0 matches" in result.output


def test_an_export_never_replaces_the_league_it_reads(tmp_path: Path, recorded_matches: Any) -> None:
    """``--out`` naming the database (or its WAL journal) would rename the dataset over the
    league: refused before anything is written, and the league reads as before."""
    db_path = tmp_path / "league.db"
    _league(db_path, recorded_matches, "gin_rummy", 2, [8])
    before = db_path.read_bytes()
    runner = CliRunner()
    for out in (db_path, tmp_path / "." / "league.db", tmp_path / "league.db-wal"):
        result = runner.invoke(main, ["export", "--db", str(db_path), "--out", str(out), "--format", "jsonl"])
        assert result.exit_code != 0 and "the database" in result.output and "Traceback" not in result.output, \
            result.output
    assert db_path.read_bytes() == before
    with Database(db_path, readonly=True) as db:
        assert db.count_matches(status="done") == 1
