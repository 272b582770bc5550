"""A deal that some match may still play keeps its seed and its records to itself, on every
route of the league's pages and API (issue 34, item 1): a duplicate deal's played seating while
the other is pending, a failed match that ``arena tournament resume`` plays again, and a
tournament's seed (it gives every match's) until the tournament is over.  Real records of real
matches (in-process gRPC bots) in a real SQLite file, served by the real app."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from arena.league.storage import Database, ScheduledMatch
from recorded_matches import play_recorded

from .conftest import Server

DEAL, OTHER_DEAL, TOURNAMENT_SEED = 1_987_654_321, 1_876_543_219, 1_765_432_198
"""Seeds no other number on the pages can be (match ids, times and counts are small)."""


def get(server: Server, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(server.url + path, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def get_json(server: Server, path: str) -> Any:
    status, body = get(server, path)
    assert status == 200, body
    return json.loads(body)


def names(text: str, seed: int) -> bool:
    return re.search(rf"(?<!\d){seed}(?!\d)", text) is not None


def every_route(server: Server, tid: int, match_ids: list[int]) -> str:
    """Everything a visitor may read of the tournament and its matches."""
    paths = ["/matches", f"/api/matches?tournament={tid}", f"/tournaments/{tid}", f"/api/tournaments/{tid}",
             "/tournaments", "/api/tournaments"]
    for match_id in match_ids:
        paths += [f"/matches/{match_id}", f"/api/matches/{match_id}"]
        paths += [f"/api/matches/{match_id}/replay?view={view}" for view in ("table", "0", "1")]
    return "\n".join(get(server, path)[1] for path in paths)


def test_a_deal_still_to_play_keeps_its_seed_and_records_hidden(tmp_path: Path) -> None:
    records = {r.record.seed: r.record for r in play_recorded("yahtzee", num_players=2, seeds=[DEAL, OTHER_DEAL])}
    path = tmp_path / "league.db"
    with Database(path) as db:
        a, b = (db.register_bot(name=name, version="1", files_hash=name).id for name in ("ann", "bob"))
        tid = db.create_tournament(
            name="duplicate", game="yahtzee", variant="yahtzee", settings={}, format="two_seat", table_size=2,
            rounds=1, duplicate=True, seed=TOURNAMENT_SEED, time_control={}, options={}, bot_ids=[a, b],
            matches=[ScheduledMatch((a, b), DEAL, 0, 0, 0), ScheduledMatch((b, a), DEAL, 0, 0, 1),
                     ScheduledMatch((a, b), OTHER_DEAL, 0, 1, 0)])
        first, second, third = (m.id for m in db.matches(tournament_id=tid))
        db.set_tournament_status(tid, "running")
        db.store_result(first, records[DEAL])
    with Server(path) as server:
        # One seating of the deal is played, the other is not: nothing names the deal or the tournament.
        text = every_route(server, tid, [first, second, third])
        assert not any(names(text, seed) for seed in (DEAL, OTHER_DEAL, TOURNAMENT_SEED))
        played = get_json(server, f"/api/matches/{first}")
        assert played["seed"] is None and played["record"] is None and "may still be played" in played["held_back"]
        status, body = get(server, f"/api/matches/{first}/replay?view=table")
        assert status == 404 and "held back" in body
        assert "Its record is held back" in get(server, f"/matches/{first}")[1]

        with Database(path) as db:  # the deal's other seating is played; the other deal fails
            db.store_result(second, records[DEAL])
            db.mark_failed(third, "the bots could not start", records[OTHER_DEAL])
            db.set_tournament_status(tid, "incomplete")  # as a run that ended with a failure leaves it
        for match_id in (first, second):
            shown = get_json(server, f"/api/matches/{match_id}")
            assert shown["seed"] == DEAL and shown["record"] is not None and shown["held_back"] is None
            assert get(server, f"/api/matches/{match_id}/replay?view=table")[0] == 200
            assert f"seed {DEAL}" in get(server, f"/matches/{match_id}")[1]
        # `arena tournament resume` would play the failed match again: its deal stays hidden.
        failed = get_json(server, f"/api/matches/{third}")
        assert failed["seed"] is None and failed["record"] is None
        assert get(server, f"/api/matches/{third}/replay?view=table")[0] == 404
        assert get_json(server, f"/api/tournaments/{tid}")["seed"] is None

        with Database(path) as db:  # abandoned: nothing will play it again
            db.set_tournament_status(tid, "abandoned")
        assert get_json(server, f"/api/matches/{third}")["seed"] == OTHER_DEAL
        assert get(server, f"/api/matches/{third}/replay?view=table")[0] == 200
        assert get_json(server, f"/api/tournaments/{tid}")["seed"] is None  # not every match was played

        with Database(path) as db:  # a tournament over, every match played: its seed is shown
            done = db.create_tournament(
                name="over", game="yahtzee", variant="yahtzee", settings={}, format="two_seat", table_size=2,
                rounds=1, duplicate=False, seed=TOURNAMENT_SEED, time_control={}, options={}, bot_ids=[a, b],
                matches=[ScheduledMatch((a, b), DEAL, 0, 0, 0)])
            db.store_result(db.matches(tournament_id=done)[0].id, records[DEAL])
            db.set_tournament_status(done, "finished")
        assert get_json(server, f"/api/tournaments/{done}")["seed"] == TOURNAMENT_SEED
        assert f"<td>{TOURNAMENT_SEED}</td>" in get(server, f"/tournaments/{done}")[1]


def test_a_ladders_seed_is_never_shown_and_its_failed_matches_are_over(tmp_path: Path) -> None:
    """A ladder schedules every set from its seed and never plays a failed match again."""
    (record,) = (r.record for r in play_recorded("yahtzee", num_players=2, seeds=[DEAL]))
    path = tmp_path / "league.db"
    with Database(path) as db:
        a, b = (db.register_bot(name=name, version="1", files_hash=name).id for name in ("ann", "bob"))
        tid = db.create_tournament(
            name="ladder", game="yahtzee", variant="yahtzee", settings={}, format="two_seat", table_size=2,
            rounds=0, duplicate=True, seed=TOURNAMENT_SEED, time_control={}, options={"kind": "ladder"},
            bot_ids=[a, b], matches=[ScheduledMatch((a, b), DEAL, 0, 0, 0)])
        (match,) = db.matches(tournament_id=tid)
        db.mark_failed(match.id, "its worker was killed", record)
        db.set_tournament_status(tid, "finished")  # even so
    with Server(path) as server:
        assert get_json(server, f"/api/tournaments/{tid}")["seed"] is None
        assert get_json(server, f"/api/matches/{match.id}")["seed"] == DEAL
        assert get_json(server, f"/api/ladders/{tid}")["id"] == tid
