"""The web app without a browser: read-only access, the API, filters and paging, replays
through the engine, renderers and escaping, and the `arena serve` CLI's errors."""

from __future__ import annotations

import hashlib
import math
import random
import re
import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from click.testing import CliRunner
from markupsafe import Markup
from starlette.testclient import TestClient

from arena.cli import main
from arena.league.ratings import rating_table, update_ratings
from arena.league.storage import Database
from arena.web import create_app
from arena.web.charts import nice_step, nice_ticks, rating_history_svg
from arena.web.renderers import RenderContext, render_seat, renderer_for
from arena.web.replay import replay_steps, to_jsonable
from referee.games import game_names, make_game
from referee.replay import replay
from referee.result import Fault, FaultKind, MatchRecord, Move

from tournament.helpers import record, tournament_db
from .conftest import XSS_NAME


@pytest.fixture(scope="module")
def client(played_db):
    with TestClient(create_app(played_db)) as test_client:
        yield test_client


def digest(path: Path) -> dict[str, str]:
    """The database file and its write-ahead log, if it holds anything (a reader may create an
    empty one; the shared-memory index is not data)."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(path.parent.glob(path.name + "*"))
            if not p.name.endswith("-shm") and p.stat().st_size}


def test_the_store_cannot_write(played_db):
    with Database(played_db, readonly=True) as db:
        with pytest.raises(sqlite3.OperationalError, match="readonly|read-only"):
            db.conn.execute("DELETE FROM bots")


def test_browsing_every_page_changes_nothing_in_the_database(played_db, tmp_path):
    copy = tmp_path / "copy.db"
    source = sqlite3.connect(played_db)
    source.execute("VACUUM INTO ?", (str(copy),))
    source.close()
    conn = sqlite3.connect(copy)  # no rating table stored yet: the server must compute it, not store it
    with conn:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("DELETE FROM ratings")
        conn.execute("DELETE FROM rating_history")
        conn.execute("DELETE FROM rating_state")
    conn.close()
    before = digest(copy)
    with TestClient(create_app(copy)) as client:
        for url in ["/", "/games/yahtzee/yahtzee", "/games/yahtzee/yahtzee/h2h", "/bots/1", "/tournaments",
                    "/tournaments/1", "/matches", "/matches/1", "/api/games", "/api/games/yahtzee/yahtzee/ratings",
                    "/api/bots/1", "/api/matches/1/replay?view=0"]:
            assert client.get(url).status_code == 200, url
    assert digest(copy) == before


def test_ratings_are_computed_without_a_stored_table(tmp_path):
    """While a tournament runs the stored table is stale; the API computes what `arena ratings` would store."""
    db, tid, bots = tournament_db(tmp_path / "r.db", 3, [(0, 1), (1, 2), (2, 0), (0, 1)])
    for match, ranking in zip(db.matches(tournament_id=tid), [(0, 1), (1, 0), (0, 1), (1, 0)]):
        db.store_result(match.id, record(match.id, ranking))
    with TestClient(create_app(tmp_path / "r.db")) as client:
        api = client.get("/api/games/yahtzee/yahtzee/ratings").json()
    update_ratings(db, "yahtzee", "yahtzee")
    stored = rating_table(db, "yahtzee", "yahtzee")
    assert [(r["bot"], r["mu"], r["sigma"], r["matches"]) for r in api] == \
        [(r.bot, round(r.mu, 4), round(r.sigma, 4), r.matches) for r in stored]
    db.close()


def test_match_filters_and_paging(client, played_db):
    everything = client.get("/api/matches").json()
    assert everything["total"] == 8 and len(everything["matches"]) == 8
    assert [m["id"] for m in everything["matches"]] == sorted((m["id"] for m in everything["matches"]), reverse=True)
    yahtzee = client.get("/api/matches", params={"game": "yahtzee"}).json()
    assert yahtzee["total"] == 6 and {m["game"] for m in yahtzee["matches"]} == {"yahtzee"}
    with Database(played_db, readonly=True) as db:
        xss = next(b for b in db.bots() if b.name == XSS_NAME).id
    mine = client.get("/api/matches", params={"bot": xss}).json()
    assert mine["total"] == 6 and all(any(s["bot_id"] == xss for s in m["seats"]) for m in mine["matches"])
    assert client.get("/api/matches", params={"faults": "yes"}).json()["total"] == 0
    assert client.get("/api/matches", params={"faults": "no", "status": "done"}).json()["total"] == 8
    assert client.get("/api/matches", params={"status": "pending"}).json()["total"] == 0
    with Database(played_db, readonly=True) as db:
        pages = [db.matches(newest_first=True, limit=3, offset=offset) for offset in (0, 3, 6)]
    assert [m.id for page in pages for m in page] == [m["id"] for m in everything["matches"]]
    second = client.get("/matches", params={"page": "2", "game": "yahtzee"})
    assert second.status_code == 200 and "page 2 of 1" in second.text


@pytest.mark.parametrize("url, status", [("/api/matches?status=won", 400), ("/api/matches?bot=x", 400),
                                         ("/api/matches?faults=maybe", 400), ("/api/matches/999", 404),
                                         ("/matches/999", 404), ("/api/matches/1/replay?view=7", 400),
                                         ("/api/tournaments/99", 404), ("/games/chess/standard", 404),
                                         ("/api/matches?tournament=\u00b2", 400), ("/api/matches?bot=" + "9" * 5000, 400),
                                         ("/api/matches/1/replay?view=\u00b2", 400),
                                         ("/api/matches/1/replay?from=\u00b2", 400),
                                         ("/api/matches/1/replay?count=" + "9" * 5000, 400)])
def test_bad_requests_are_clear_errors(client, url, status):
    response = client.get(url)
    assert response.status_code == status
    if url.startswith("/api/"):
        assert response.json()["error"]
    else:
        assert "<h1>404</h1>" in response.text


def test_security_headers(client):
    headers = client.get("/").headers
    assert "script-src 'self'" in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff"
    for url in ("/", "/api/games/yahtzee/yahtzee/ratings", "/matches", "/no-such-page"):
        assert client.get(url).headers["cache-control"] == "private", url  # no shared cache keeps a reader's page


def test_api_escapes_nothing_and_pages_escape_everything(client):
    api = client.get("/api/games/yahtzee/yahtzee/ratings").json()
    assert XSS_NAME in [row["bot"] for row in api]  # the data is the data
    for url in ["/", "/games/yahtzee/yahtzee", "/games/yahtzee/yahtzee/h2h", "/matches", "/bots/3"]:
        html = client.get(url).text
        assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html, url


def test_replay_seat_view_is_exactly_the_observation(played_db):
    with Database(played_db, readonly=True) as db:
        match = db.matches(game="gin_rummy", status="done")[0]
        rec = db.match_record(match.id)
    assert rec is not None
    view = replay_steps(rec, 1)
    assert view["problems"] == [] and len(view["steps"]) == len(rec.moves) + 1
    observations = []
    replay(rec, lambda n, state: observations.append(state.observe(1)))
    assert [step["observation"] for step in view["steps"]] == [to_jsonable(o) for o in observations]
    private = [e for e in replay(rec).state.events if e.visible_to is not None]
    shown = [e["text"] for s in view["steps"] for e in s["events"]]
    assert any(e.visible_to == frozenset({1}) and e.text in shown for e in private)  # its own cards
    assert not any(e.visible_to == frozenset({0}) and e.text in shown for e in private)  # never seat 0's
    assert view["steps"][-1]["outcome"]["scores"] == rec.scores
    assert [s["move"]["action"] for s in view["steps"][1:]] == [m.action for m in rec.moves]


def test_replay_reports_a_record_that_disagrees_with_the_engine(played_db):
    with Database(played_db, readonly=True) as db:
        rec = db.match_record(db.matches(game="yahtzee", status="done")[0].id)
    assert rec is not None
    rec.moves[3] = type(rec.moves[3])(rec.moves[3].seat, rec.moves[3].index, "score chance 99")
    view = replay_steps(rec, None)
    assert len(view["steps"]) == 4 and "move 3" in view["problems"][0]


def test_a_game_without_a_renderer_gets_the_generic_one():
    assert renderer_for("yahtzee").__name__.endswith(".yahtzee")
    assert renderer_for("no_such_game").__name__.endswith(".generic")
    state = make_game("yahtzee").new_initial_state(1)
    html = render_seat(renderer_for("no_such_game"), state.observe(0), RenderContext(("a", "b"), 0))
    assert "round 1/13" in html and "<pre" in html


def test_renderers_escape_player_names():
    evil = '<script>alert("x")</script>'
    for game in ("yahtzee", "gin_rummy", "no_such_game"):
        real = "yahtzee" if game == "no_such_game" else game
        state = make_game(real).new_initial_state(3)
        html = render_seat(renderer_for(game), state.observe(0), RenderContext((evil, evil), 0))
        assert isinstance(html, Markup) and "<script>" not in html
        if game != "no_such_game":
            assert "&lt;script&gt;" in html


def test_serve_errors_are_one_line(tmp_path):
    runner = CliRunner()
    for path, text in [(tmp_path / "missing.db", "no arena database at"),
                       (Path(__file__), "is not a usable arena database")]:
        result = runner.invoke(main, ["serve", "--db", str(path), "--port", "8999"])
        assert result.exit_code == 1 and result.output.count("\n") == 1 and text in result.output, result.output
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    result = runner.invoke(main, ["serve", "--db", str(other)])
    assert result.exit_code == 1 and "not an arena database" in result.output
    empty = tmp_path / "empty.db"
    empty.touch()
    result = runner.invoke(main, ["serve", "--db", str(empty)])
    assert result.exit_code == 1 and "no arena database at" in result.output


def test_faults_filter_and_marks(tmp_path):
    db, tid, bots = tournament_db(tmp_path / "f.db", 2, [(0, 1), (1, 0), (0, 1)])
    ids = [m.id for m in db.matches(tournament_id=tid)]
    timeout = Fault(1, FaultKind.TIMEOUT, "deadline 1.00 s exceeded", 0)
    for match_id in ids:
        db.store_result(match_id, record(match_id, (0, 1), faults=[timeout] if match_id == ids[1] else []))
    db.close()
    with TestClient(create_app(tmp_path / "f.db")) as client:
        faulty = client.get("/api/matches", params={"faults": "yes"}).json()
        assert [m["id"] for m in faulty["matches"]] == [ids[1]] and faulty["matches"][0]["seats"][1]["faults"] == 1
        clean = client.get("/api/matches", params={"faults": "no"}).json()
        assert sorted(m["id"] for m in clean["matches"]) == [ids[0], ids[2]]
        page = client.get("/matches").text
        assert page.count('class="status-done has-faults"') == 1 and "⚠1" in page
        ratings = client.get("/api/games/yahtzee/yahtzee/ratings").json()
        assert {r["bot"]: r["faults"] for r in ratings} == {"bot0": 1, "bot1": 0}  # seat 1 of (bot1, bot0)


@pytest.mark.parametrize("game", game_names())
def test_every_registered_game_replays_in_the_viewer(game):
    """A new engine works at once (the generic renderer) and its seat views are its observations."""
    cls = make_game(game)
    rng = random.Random(7)
    state = cls.new_initial_state(3)
    moves = []
    while not state.is_terminal() and len(moves) < 3000:
        legal = state.legal_actions()
        index = rng.randrange(len(legal))
        moves.append(Move(state.current_player(), index, str(legal[index])))
        state.apply(legal[index])
    n = cls.num_players
    rec = MatchRecord(match_id="1", game=game, variant=cls.variant, num_players=n, settings=dict(cls.settings),
                      seed=3, players=[f"<b>p{i}</b>" for i in range(n)], moves=moves)
    for seat in (None, 0):
        view = replay_steps(rec, seat)
        assert len(view["steps"]) == len(moves) + 1
        assert not [p for p in view["problems"] if p.startswith("move")]
        assert "<b>p0</b>" not in "".join(step["html"] for step in view["steps"][:3])
    if state.is_terminal():
        assert view["steps"][-1]["outcome"]["scores"] == list(state.outcome().scores)
    assert view["steps"][-1]["observation"] == to_jsonable(state.observe(0))


def test_replay_pages_join_up_to_the_whole_replay(client, played_db) -> None:
    """The viewer fetches 40 steps at a time: the pages, put together, are the whole replay."""
    with Database(played_db, readonly=True) as db:
        match_id = next(m.id for m in db.matches(status="done") if m.game == "gin_rummy")
    whole = client.get(f"/api/matches/{match_id}/replay?view=0").json()
    pages, start = [], 0
    while start < whole["total_steps"]:
        page = client.get(f"/api/matches/{match_id}/replay?view=0&from={start}&count=40").json()
        assert page["total_steps"] == whole["total_steps"] and page["start"] == start
        assert page["problems"] == [], start  # a page that stops the replay early is not a broken record
        pages += page["steps"]
        start += 40
    assert pages == whole["steps"] and whole["problems"] == []
    assert client.get(f"/api/matches/{match_id}/replay?from=x").status_code == 400


@pytest.mark.parametrize("url", ["/api/games/nope/standard/ratings", "/api/games/yahtzee/nope/ratings",
                                 "/api/games/nope/standard/h2h", "/api/games/gin_rummy/yams/h2h",
                                 "/api/matches?game=nope", "/api/matches?game=yahtzee&variant=standard",
                                 "/api/matches?variant=nope", "/games/nope/standard", "/games/yahtzee/nope/h2h"])
def test_unknown_games_and_variants_are_404(client, url):
    response = client.get(url)
    assert response.status_code == 404, response.text
    if url.startswith("/api/"):
        assert "nope" in response.json()["error"] or "standard" in response.json()["error"]


def test_a_known_variant_without_matches_is_an_empty_table(client):
    assert client.get("/api/games/yahtzee/yams/ratings").json() == []
    assert client.get("/api/matches?game=yahtzee&variant=yams").json()["total"] == 0


def test_api_rounds_count_from_1_times_are_iso_and_rank_1_is_best(client, played_db):
    with Database(played_db, readonly=True) as db:
        stored = {m.id: m for m in db.matches(status="done")}
        tournament = db.tournament(1)
    listed = client.get("/api/matches").json()["matches"]
    assert {m["id"]: m["round"] for m in listed} == {i: m.round + 1 for i, m in stored.items()}
    assert min(m["round"] for m in listed) == 1
    one = listed[0]
    page = client.get(f"/matches/{one['id']}").text
    assert f"round {one['round']}," in page  # the page and the API say the same
    assert one["finished_at"] == datetime.fromtimestamp(stored[one["id"]].finished_at, timezone.utc) \
        .isoformat(timespec="seconds") and one["finished_at"].endswith("+00:00")
    for t in [client.get("/api/tournaments").json()[-1], client.get("/api/tournaments/1").json()]:
        assert datetime.fromisoformat(t["created_at"]) == datetime.fromtimestamp(int(tournament.created_at),
                                                                                 timezone.utc)
        assert datetime.fromisoformat(t["finished_at"]).utcoffset() == timedelta(0)
    match = client.get(f"/api/matches/{one['id']}").json()
    best = [s["seat"] for s in match["seats"] if s["rank"] == 1]
    assert best and match["record"]["ranking"] == [s["rank"] for s in match["seats"]]
    assert min(match["record"]["ranking"]) == 1
    replay_json = client.get(f"/api/matches/{one['id']}/replay").json()
    assert replay_json["ranking"] == replay_json["steps"][-1]["outcome"]["ranking"] == match["record"]["ranking"]


def test_tournament_api_has_standings(client, played_db):
    with Database(played_db, readonly=True) as db:
        done = db.matches(tournament_id=1, status="done")
        labels = {b.id: b.label for b in db.bots()}
    standings = client.get("/api/tournaments/1").json()["standings"]
    assert sorted(s["bot"] for s in standings) == sorted({labels[b] for m in done for b in m.bot_ids})
    for row in standings:
        mine = [m for m in done if row["bot_id"] in m.bot_ids]
        places = [m.ranking[m.bot_ids.index(row["bot_id"])] for m in mine]
        assert row["matches"] == len(mine) and row["wins"] == places.count(0)
        assert row["mean_rank"] == pytest.approx(1 + sum(places) / len(places), abs=1e-4)
    assert [s["wins"] for s in standings] == sorted((s["wins"] for s in standings), reverse=True)


@pytest.mark.parametrize("low, high", [(-3, 37), (0, 50), (-12.7, 58.3), (0.3, 0.9), (12, 12), (-41, 123.4)])
def test_chart_ticks_are_round_and_cover_the_range(low, high):
    ticks = nice_ticks(low, high)
    step = ticks[1] - ticks[0]
    mantissa = step / 10 ** math.floor(math.log10(step))
    assert round(mantissa, 6) in (1, 2, 5)
    assert ticks[0] <= low and ticks[-1] >= high and 2 <= len(ticks) <= 6
    assert all(abs(t / step - round(t / step)) < 1e-6 for t in ticks)
    assert nice_step(high - low) == pytest.approx(step)


def test_rating_chart_labels_are_round_numbers():
    history = [{"match": i, "mu": 25 + i * 1.37, "sigma": 8.333 - i * 0.41} for i in range(12)]
    labels = re.findall(r'<text class="tick" x="40" y="[^"]+" text-anchor="end">([^<]+)</text>',
                        str(rating_history_svg(history, "t")))
    assert len(labels) >= 2
    values = [float(v) for v in labels]
    step = values[1] - values[0]
    assert all(v % step == 0 for v in values) and step in (5, 10, 20, 50), labels


def test_a_rating_chart_starts_from_the_bots_prior():
    """A new version's history starts at its prior (its previous version's mu), not at mu 25."""
    history = [{"match": 1, "mu": 32.0, "sigma": 4.0}]

    def first_mu_point(svg: str) -> float:
        return float(re.search(r'<polyline class="mu" points="[^,]+,([^ "]+)', svg).group(1))

    default, seeded = (str(rating_history_svg(history, "t", start=start))
                       for start in (None, {"mu": 33.0, "sigma": 4.5}))
    assert default == str(rating_history_svg(history, "t", start={"mu": 25.0, "sigma": 25 / 3}))
    assert first_mu_point(seeded) < first_mu_point(default)  # higher on the chart: svg y grows downwards


def test_yaniv_tables_say_lower_scores_are_better(every_game_db):
    with TestClient(create_app(every_game_db)) as client:
        yaniv_tid = next(t["id"] for t in client.get("/api/tournaments").json() if t["game"] == "yaniv")
        for url in ["/", "/games/yaniv/standard", f"/tournaments/{yaniv_tid}"]:
            assert "mean score (lower is better)" in client.get(url).text, url
        index = client.get("/").text
        assert index.count("mean score (lower is better)") == 1  # Yaniv's table only, of five games
        for url in ["/games/yahtzee/yahtzee", "/games/gin_rummy/standard", "/tournaments/1"]:
            assert "lower is better" not in client.get(url).text, url
