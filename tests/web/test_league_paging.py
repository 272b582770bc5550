"""The match list pages by id (keyset), counts with a cap that says so, and every request's
queries stop at a time limit."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from arena.web import create_app
from arena.web.data import MAX_OFFSET, PER_PAGE

from tournament.helpers import record, tournament_db

MATCHES = 130


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("paging") / "league.db"
    db, tid, _ = tournament_db(path, 3, [(k % 3, (k + 1) % 3) for k in range(MATCHES)])
    ids = [m.id for m in db.unfinished_matches(tid)]
    assert all(db.store_results([(i, record(i, [0, 1])) for i in ids[:-10]]))
    for i in ids[-10:-5]:
        db.mark_failed(i, "crashed")
    db.close()
    return path


def test_older_and_newer_links_walk_every_match_once(league: Path) -> None:
    with TestClient(create_app(league)) as client:
        first = client.get("/api/matches").json()
        assert first["total"] == MATCHES and not first["total_capped"] and first["page"] == 1
        assert first["prev_after"] is None
        pages, page = [first], first
        while page["next_before"] is not None:
            page = client.get(f"/api/matches?before={page['next_before']}").json()
            assert page["page"] is None
            pages.append(page)
        seen = [m["id"] for p in pages for m in p["matches"]]
        assert seen == sorted(range(1, MATCHES + 1), reverse=True) and len(pages) == -(-MATCHES // PER_PAGE)
        back = [pages[-1]]
        while back[-1]["prev_after"] is not None:
            back.append(client.get(f"/api/matches?after={back[-1]['prev_after']}").json())
        assert [[m["id"] for m in p["matches"]] for p in back[1:]] == [[m["id"] for m in p["matches"]]
                                                                       for p in reversed(pages[:-1])]
        failed = client.get("/api/matches?status=failed").json()  # read from the running totals
        assert failed["total"] == 5 and [m["status"] for m in failed["matches"]] == ["failed"] * 5
        html = client.get(f"/matches?before={first['next_before']}").text
        assert f"after={pages[1]['matches'][0]['id']}" in html and f"before={pages[1]['next_before']}" in html


def test_numbered_pages_stop_at_a_depth_and_say_how_to_go_on(league: Path) -> None:
    with TestClient(create_app(league)) as client:
        deep = MAX_OFFSET // PER_PAGE + 2
        response = client.get(f"/api/matches?page={deep}")
        assert response.status_code == 400 and "before=ID" in response.json()["error"]
        assert client.get("/api/matches?before=5&after=2").status_code == 400


def test_a_filtered_count_stops_at_its_cap(league: Path) -> None:
    from arena.league.storage import Database

    with Database(league, readonly=True) as db:
        assert db.count_matches(bot_id=1) == 44 + 43  # bot 1 sits in seatings k % 3 == 0 and 2
        assert db.count_matches(bot_id=1, cap=10) == 11
        assert db.count_matches(status="done") == MATCHES - 10 == db.count_matches(status="done", cap=3)


def test_a_request_past_the_time_limit_ends_in_a_clear_error(league: Path) -> None:
    with TestClient(create_app(league, query_seconds=0.0)) as client:
        response = client.get("/api/matches?bot=2&faults=no")
        assert response.status_code == 503 and "took longer than 0 s" in response.json()["error"]
        page = client.get("/matches?bot=2")
        assert page.status_code == 503 and "took longer than 0 s" in page.text
    with TestClient(create_app(league)) as client:
        assert client.get("/api/matches?bot=2&faults=no").status_code == 200


def test_a_bot_page_shows_its_last_1000_rating_points_and_says_so(tmp_path: Path) -> None:
    from arena.league.ratings import rating_table, update_ratings
    from arena.web.data import HISTORY_POINTS

    path = tmp_path / "long.db"
    db, tid, bots = tournament_db(path, 2, [(0, 1)] * (HISTORY_POINTS + 50))
    ids = [m.id for m in db.unfinished_matches(tid)]
    assert all(db.store_results([(i, record(i, [i % 2, 1 - i % 2])) for i in ids]))
    update_ratings(db, "yahtzee", "yahtzee")
    final = {row.bot_id: row for row in rating_table(db, "yahtzee", "yahtzee")}
    db.close()
    with TestClient(create_app(path)) as client:
        game = client.get(f"/api/bots/{bots[0]}").json()["games"][0]
        assert game["history_cut"] is True and len(game["history"]) == HISTORY_POINTS
        assert [p["match"] for p in game["history"]] == ids[-HISTORY_POINTS:]
        assert game["history"][-1]["mu"] == round(final[bots[0]].mu, 4)
        assert f"last {HISTORY_POINTS} rated matches" in client.get(f"/bots/{bots[0]}").text


def test_time_limits_nest_and_a_slow_count_leaves_the_total_unknown(league: Path) -> None:
    from arena.league.storage import Database, QueryInterrupted
    from arena.web.data import MatchFilter, matches

    with Database(league, readonly=True) as db:
        with pytest.raises(QueryInterrupted, match="longer than 0 s"):
            with db.time_limit(0.0):
                db.count_matches(faults=False)  # a look at every match's seats: thousands of steps
        with db.time_limit(0.0):
            with db.time_limit(None):  # lifted inside, as for the rating plan
                assert db.count_matches(faults=False) == MATCHES  # no match has a fault
        page = matches(db, MatchFilter(faults=False), count_seconds=0.0)  # the list itself is not limited
        assert page["total"] is None and page["pages"] is None and page["total_capped"]
        assert len(page["matches"]) == PER_PAGE and page["next_before"] is not None
        page = matches(db, MatchFilter(faults=False))  # no limit left behind
        assert page["total"] == MATCHES and len(page["matches"]) == PER_PAGE


def test_cached_histories_head_to_head_and_standings_follow_each_new_result(tmp_path: Path) -> None:
    path = tmp_path / "live.db"
    db, tid, bots = tournament_db(path, 2, [(0, 1)] * 4)
    ids = [m.id for m in db.unfinished_matches(tid)]
    db.store_results([(ids[0], record(ids[0], [0, 1]))])
    with TestClient(create_app(path)) as client:
        for played, match_id in enumerate(ids[1:], start=2):
            assert len(client.get(f"/api/bots/{bots[0]}").json()["games"][0]["history"]) == played - 1
            cell = next(c for c in client.get("/api/games/yahtzee/yahtzee/h2h").json()["cells"] if c["bot"] == bots[0])
            assert cell["matches"] == played - 1
            standings = client.get(f"/api/tournaments/{tid}").json()["standings"]
            assert [row["matches"] for row in standings] == [played - 1] * 2
            db.store_results([(match_id, record(match_id, [1, 0]))])  # a tournament writing meanwhile
        history = client.get(f"/api/bots/{bots[0]}").json()["games"][0]["history"]
        assert [p["match"] for p in history] == ids
    db.close()


def test_the_cached_head_to_head_page_follows_each_new_result(tmp_path: Path) -> None:
    """The page's matrix is drawn once per game and cached: a new result draws it again, with
    the new counts and results, and an unknown or unplayed table stays a 404 (nothing cached)."""
    path = tmp_path / "live.db"
    db, tid, bots = tournament_db(path, 2, [(0, 1)] * 4)
    ids = [m.id for m in db.unfinished_matches(tid)]
    with TestClient(create_app(path)) as client:
        assert client.get("/games/yahtzee/yahtzee/h2h").status_code == 404  # nothing played yet
        for played, match_id in enumerate(ids, start=1):
            db.store_results([(match_id, record(match_id, [0, 1] if played % 2 else [1, 0]))])
            for _ in range(2):  # drawn, then from the cache
                page = client.get("/games/yahtzee/yahtzee/h2h")
                assert page.status_code == 200
                wins = (played + 1) // 2
                assert page.text.count(f"<small> ({played})</small>") == 2  # both cells of the pair
                assert f'data-result="{round(wins / played, 4)}"' in page.text
                assert f'data-result="{round(1 - wins / played, 4)}"' in page.text
        assert client.get("/games/yahtzee/nope/h2h").status_code == 404
    db.close()
