"""A match's luck on the web (issue 35, "Show it"): the match page's table and chart, the JSON
API's fields, and what stays hidden: while the match's deal may still be played, in a seat's
view of the replay, and for a match without a report (``null``, never zeros).

Real Yahtzee matches (in-process gRPC bots) stored in a real SQLite file, whose luck the store
measures with the game's real estimator (:mod:`referee.luck`), served by the real app."""

from __future__ import annotations

import re
from pathlib import Path

from arena.league.storage import Database, ScheduledMatch
from recorded_matches import play_recorded
from referee import luck

from .conftest import Server
from .test_deal_secrecy import get, get_json

DEAL, OTHER_DEAL = 1_987_654_321, 1_876_543_219


def _league(path: Path, *, duplicate: bool) -> tuple[int, list[int]]:
    """A tournament of ann and bob: with ``duplicate``, one deal seated both ways and a second
    deal; else three deals, the second another than the first.  Returns its id and its matches' ids."""
    with Database(path) as db:
        a, b = (db.register_bot(name=name, version="1", files_hash=name).id for name in ("ann", "bob"))
        tid = db.create_tournament(
            name="luck", game="yahtzee", variant="yahtzee", settings={}, format="two_seat", table_size=2,
            rounds=1, duplicate=duplicate, seed=7, time_control={}, options={}, bot_ids=[a, b],
            matches=[ScheduledMatch((a, b), DEAL, 0, 0, 0), ScheduledMatch((b, a), DEAL if duplicate else 12_345, 0, 0, 1),
                     ScheduledMatch((a, b), OTHER_DEAL, 0, 1, 0)])
        return tid, [m.id for m in db.matches(tournament_id=tid)]


def _records() -> dict[int, object]:
    return {r.record.seed: r.record for r in play_recorded("yahtzee", num_players=2, seeds=[DEAL, OTHER_DEAL])}


def test_a_settled_match_shows_its_luck_on_the_page_the_chart_and_the_api(tmp_path: Path) -> None:
    records = _records()
    path = tmp_path / "league.db"
    tid, (first, second, third) = _league(path, duplicate=False)
    with Database(path) as db:
        db.store_result(first, records[DEAL])
        db.store_results([(third, records[OTHER_DEAL], None, None)])  # stored without a report
        db.set_tournament_status(tid, "running")  # the second match is pending: a different deal
        report = db.luck_report(first)
    assert report is not None and report.estimator == luck.estimator_for("yahtzee").name
    assert len(report.steps) > 13  # the deal, then at least each turn's first roll
    with Server(path) as server:
        status, page = get(server, f"/matches/{first}")
        assert status == 200
        table = re.search(r'<table class="luck">.*?</table>', page, flags=re.S)
        assert table is not None and report.estimator in table.group(0)
        for seat in range(2):
            for value in (report.result[seat], report.luck[seat], report.adjusted[seat]):
                assert f"{value:+.2f}" in table.group(0)
        chart = re.search(r'<svg class="chart luck".*?</svg>', page, flags=re.S)
        assert chart is not None
        assert len(re.findall(r'<polyline class="luck seat-\d"', chart.group(0))) == 2
        assert len(re.findall(r'<rect class="event"', chart.group(0))) == len(report.steps)
        assert f'data-moves="{len(records[DEAL].moves)}"' in chart.group(0)

        shown = get_json(server, f"/api/matches/{first}")
        assert shown["luck_estimator"] == report.estimator
        assert [s["luck"] for s in shown["seats"]] == [round(x, 6) for x in report.luck]
        assert [s["adjusted"] for s in shown["seats"]] == [round(x, 6) for x in report.adjusted]
        assert shown["luck"]["steps"] == report.to_json()["steps"]
        listed = {m["id"]: m for m in get_json(server, f"/api/matches?tournament={tid}")["matches"]}
        assert [s["adjusted"] for s in listed[first]["seats"]] == [round(x, 6) for x in report.adjusted]
        latest = {m["id"]: m for m in get_json(server, f"/api/tournaments/{tid}")["latest"]}
        assert latest[first]["luck_estimator"] == report.estimator
        assert get_json(server, f"/api/matches/{first}/replay?view=table")["luck"] == report.to_json()

        # A seat's view of the replay shows no luck: its steps tell what the other seat rolled.
        assert get_json(server, f"/api/matches/{first}/replay?view=0")["luck"] is None
        assert get_json(server, f"/api/matches/{first}/replay?view=1&from=3&count=2")["luck"] is None

        # A played match without a report says so: null, never zero.
        unmeasured = get_json(server, f"/api/matches/{third}")
        assert unmeasured["record"] is not None and unmeasured["luck"] is None
        assert unmeasured["luck_estimator"] is None
        assert all(s[key] is None for s in unmeasured["seats"] for key in ("result", "luck", "adjusted"))
        assert listed[third]["luck_estimator"] is None and listed[third]["seats"][0]["luck"] is None
        status, page = get(server, f"/matches/{third}")
        assert 'class="empty no-luck"' in page and '<table class="luck">' not in page and "chart luck" not in page
        assert get_json(server, f"/api/matches/{third}/replay?view=table")["luck"] is None


def test_a_deal_still_to_play_shows_no_luck_anywhere(tmp_path: Path) -> None:
    """One seating of a duplicate deal is played, the other is not: its luck (what the deal gave
    each seat) stays hidden on every page, list and API until the other seating is played."""
    records = _records()
    path = tmp_path / "league.db"
    tid, (first, second, _) = _league(path, duplicate=True)
    with Database(path) as db:
        db.store_result(first, records[DEAL])
        db.set_tournament_status(tid, "running")
        report = db.luck_report(first)
    assert report is not None  # stored, but not to be shown yet
    texts = [f"{x:+.2f}" for x in report.luck] + [repr(round(x, 6)) for x in report.luck if x]
    with Server(path) as server:
        status, page = get(server, f"/matches/{first}")
        assert status == 200 and "held back" in page
        assert '<table class="luck">' not in page and "chart luck" not in page and "no-luck" not in page
        held = get_json(server, f"/api/matches/{first}")
        assert held["luck"] is None and held["luck_estimator"] is None
        assert all(s["luck"] is None and s["adjusted"] is None and s["result"] is None for s in held["seats"])
        bodies = [get(server, p)[1] for p in (f"/api/matches?tournament={tid}", f"/api/tournaments/{tid}",
                                               "/matches", f"/tournaments/{tid}")]
        assert not any(text in body for text in texts for body in bodies)
        assert all(report.estimator not in body for body in bodies)
        assert get(server, f"/api/matches/{first}/replay?view=table")[0] == 404

        with Database(path) as db:  # the deal's other seating is played: both show their luck
            db.store_result(second, records[DEAL])
        for match_id in (first, second):
            assert get_json(server, f"/api/matches/{match_id}")["luck_estimator"] == report.estimator
            assert '<table class="luck">' in get(server, f"/matches/{match_id}")[1]


def test_a_match_with_a_person_shows_its_luck_once_over_and_never_while_it_is_played(tmp_path: Path) -> None:
    """``/play/matches/{id}``: nothing of the match's luck while it is under way; its table and
    chart once it is stored (a Play match's deal is played once)."""
    from arena.web.play import PLAY_FORMAT, PlayConfig

    (record,) = (r.record for r in play_recorded("yahtzee", num_players=2, seeds=[DEAL]))
    league, played = tmp_path / "league.db", tmp_path / "play.db"
    Database(league).close()
    with Database(played) as db:
        a, b = (db.register_bot(name=name, version="1", files_hash=name).id for name in ("person", "bot"))
        tid = db.create_tournament(
            name="person at seat 0", game="yahtzee", variant="yahtzee", settings={}, format=PLAY_FORMAT,
            table_size=2, rounds=1, duplicate=False, seed=DEAL, time_control={}, options={"human_seats": [0]},
            bot_ids=[a, b], matches=[ScheduledMatch((a, b), DEAL, 0, 0, 0)])
        db.set_tournament_status(tid, "running")
        (match,) = db.matches(tournament_id=tid)
    with Server(league, PlayConfig(db_path=played, ladder=league)) as server:
        status, page = get(server, f"/play/matches/{match.id}")
        assert status == 200 and "no record yet" in page
        assert "<table class=\"luck\">" not in page and "chart luck" not in page and "no-luck" not in page
        with Database(played) as db:
            db.store_result(match.id, record)
            db.set_tournament_status(tid, "finished")
            report = db.luck_report(match.id)
        assert report is not None
        status, page = get(server, f"/play/matches/{match.id}")
        assert status == 200 and '<table class="luck">' in page and '<svg class="chart luck"' in page
        assert f"{report.adjusted[0]:+.2f}" in page
        assert get_json(server, f"/api/play/matches/{match.id}/replay?view=table")["luck"] == report.to_json()
        assert get_json(server, f"/api/play/matches/{match.id}/replay?view=0")["luck"] is None
