"""The Play area over HTTP against a real server: a person's seat plays through the real
referee against real sample bots (subprocesses in the sandbox); what the person receives is
exactly the seat's observation; matches are stored apart and never rated; inputs and limits
are checked."""

from __future__ import annotations

import json
import re
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any

import pytest

from arena.league.storage import Database
from arena.web.play import EVENTS_KEPT, PLAY_FORMAT
from arena.web.renderers import RenderContext, render_seat, renderer_for
from arena.web.replay import to_jsonable
from games.yoninkan.rules_check import hidden_from
from recorded_matches import cards_named_in_text
from referee.bots import bot_files_hash, resolve_bot
from referee.games import gin_rummy_melds as gm
from referee.replay import replay

from .conftest import SAMPLE_BOTS
from .play_helpers import BOT_TIME, PlayServer, Visitor, token_of

pytestmark = pytest.mark.slow
RANDOM = "sample:random_bot"
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
BOT_TIME_BANK_MS = round(BOT_TIME.time_bank * 1000)


def test_a_whole_yahtzee_game_is_played_stored_apart_and_never_rated(tmp_path: Path) -> None:
    with PlayServer(tmp_path) as server:
        person = Visitor(server)
        status, url, body = person.start("yahtzee", [RANDOM], seat=1)
        assert status == 200 and "/play/" in url, body
        final, states = person.play_out(token_of(url))
        assert final["status"] == "done" and final["players"] == ["random@1.0", "human"]
        assert final["result"]["forfeited"] == [] and sorted(final["result"]["ranking"]) in ([0, 0], [0, 1])
        assert sum(1 for s in states if s["pending"]) >= 13
        match_id = final["match_id"]
        status, _, page = person.request(f"/play/matches/{match_id}")
        assert status == 200 and "with a person" in page and "not rated" in page
        status, _, body = person.request(f"/api/play/matches/{match_id}/replay?view=1")
        assert status == 200 and json.loads(body)["problems"] == []
        status, _, listing = person.request("/play/matches")
        assert f'href="/play/matches/{match_id}"' in listing
    with Database(server.config.db_path, readonly=True) as db:
        (tournament,) = db.tournaments()
        assert tournament.format == PLAY_FORMAT and tournament.options == {"human_seats": [1]}
        match = db.match(match_id)
        human = db.bot(match.bot_ids[1])
        assert (human.name, human.language) == ("human", "human")
        record = db.match_record(match_id)
        assert record is not None and record.time_control["seat_move_timeouts"] == {"1": 120.0}
        assert replay(record).ok
    with Database(server.ladder, readonly=True) as ladder:  # the ladder never sees it
        assert ladder.count_matches() == 0 and ladder.game_variants() == []


def test_the_ladders_bots_that_can_start_are_opponents(tmp_path: Path) -> None:
    ladder = tmp_path / "ladder.db"
    spec = resolve_bot(str(SAMPLE_BOTS / "random_bot"))
    with Database(ladder) as db:
        row = db.register_bot(name=spec.name, version=spec.version, files_hash=bot_files_hash(spec),
                              language="python", manifest=str(spec.manifest))
        changed = db.register_bot(name=spec.name, version="0.9", files_hash="older files", manifest=str(spec.manifest))
        gone = db.register_bot(name="gone", version="1", files_hash="x", manifest=str(tmp_path / "gone" / "bot.toml"))
    with PlayServer(tmp_path) as server:
        person = Visitor(server)
        form = person.form("gin_rummy")
        assert f'value="bot:{row.id}"' in form
        assert f'value="bot:{changed.id}"' not in form and f'value="bot:{gone.id}"' not in form
        assert person.start("gin_rummy", [f"bot:{gone.id}"])[0] == 400
        status, url, body = person.start("gin_rummy", [f"bot:{row.id}"], settings="max_hands=1")
        assert status == 200, body
        final, _ = person.play_out(token_of(url))
        assert final["status"] == "done" and final["players"] == ["human", "random@1.0"]
    with Database(server.config.db_path, readonly=True) as db:  # stored as the ladder's bot
        assert [b.files_hash for b in db.bots() if b.name == "random"] == [row.files_hash]


@pytest.mark.parametrize(("fields", "message"), [
    ({"game": "chess"}, "unknown game 'chess'"),
    ({"variant": "blitz"}, "variant"),
    ({"opponents": []}, "choose at least one opponent"),
    ({"opponents": ["sample:nobody"]}, "is not a bot that plays yahtzee here"),
    ({"opponents": ["sample:jass_heuristic"]}, "is not a bot that plays yahtzee here"),
    ({"seat": 2}, "your seat must be a number from 0 to 1"),
    ({"seat": -1}, "your seat must be a number from 0 to 1"),
    ({"seat": "²"}, "your seat must be a number from 0 to 1"),
    ({"seat": "9" * 5000}, "your seat must be a number from 0 to 1"),
    ({"settings": "rounds"}, "setting 'rounds' is not NAME=VALUE"),
    ({"game": "gin_rummy", "settings": "max_hands=zero"}, "max_hands"),
    ({"game": "jass", "opponents": [RANDOM]}, "players"),
    ({"opponents": [RANDOM] * 8}, "players"),
    ({"csrf": "forged"}, "CSRF"),
])
def test_bad_choices_are_refused_with_a_clear_message(tmp_path: Path, fields: dict[str, Any], message: str) -> None:
    with PlayServer(tmp_path) as server:
        person = Visitor(server)
        person.form("yahtzee")
        status, _, body = person.start(fields.get("game", "yahtzee"), fields.get("opponents", [RANDOM]),
                                       seat=fields.get("seat", 0), settings=fields.get("settings", ""),
                                       csrf=fields.get("csrf"), variant=fields.get("variant", ""))
        assert status == 400 and message in body.replace("&#39;", "'"), body
        assert "Traceback" not in body
        if fields.get("game") != "chess" and "csrf" not in fields:  # the form again, as the person filled it in
            assert 'id="play-form"' in body and 'id="form-error"' in body
            if fields.get("settings"):
                assert f">{fields['settings']}</textarea>" in body
            for key in fields.get("opponents", [RANDOM]):
                if key == RANDOM:
                    assert f'<option value="{key}" selected>' in body


def test_moves_need_the_visitors_cookie_csrf_and_an_open_decision(tmp_path: Path) -> None:
    with PlayServer(tmp_path, move_timeout=30.0) as server:
        person, stranger = Visitor(server), Visitor(server)
        _, url, _ = person.start("yahtzee", [RANDOM])
        token = token_of(url)
        state = person.state(token)
        while not state["pending"]:
            state = person.state(token, after=state["version"])
        number = state["pending"]["number"]
        assert stranger.request(f"/api/play/{token}")[0] == 404  # another visitor's match is not there
        assert stranger.request(f"/play/{token}")[0] == 404
        stranger.form("yahtzee")
        assert stranger.move(token, number, 0)[0] == 404
        person_csrf, person.csrf = person.csrf, "forged"
        assert person.move(token, number, 0)[0] == 400
        person.csrf = person_csrf
        assert person.move(token, number, 999) == (409, {"error": f"action 999 is not one of the "
                                                                  f"{len(state['pending']['actions'])} legal actions"})
        assert person.move(token, number + 1, 0)[0] == 409
        for after in ("²", "9" * 5000, "-1"):
            status, _, body = person.request(f"/api/play/{token}?after={urllib.parse.quote(after)}")
            assert status == 400 and json.loads(body) == {"error": "after must be a whole number"}
        assert person.move(token, number, 0) == (200, {"ok": True})
        assert person.move(token, number, 0)[0] == 409  # taken once


def test_a_visitor_may_have_one_open_match_and_the_server_runs_at_most_max_running(tmp_path: Path) -> None:
    with PlayServer(tmp_path, move_timeout=60.0, max_running=2) as server:
        first, second, third = Visitor(server), Visitor(server), Visitor(server)
        status, url, _ = first.start("yahtzee", [RANDOM])
        assert status == 200
        status, _, body = first.start("yahtzee", [RANDOM])
        assert status == 429 and "you already have 1 open match" in body
        assert second.start("yahtzee", [RANDOM])[0] == 200
        status, _, body = third.start("yahtzee", [RANDOM])
        assert status == 429 and "2 matches are running" in body
        # Once the first visitor's match ends, both may open again.
        first.play_out(token_of(url))
        assert third.start("yahtzee", [RANDOM])[0] == 200
        status, _, body = first.start("yahtzee", [RANDOM])
        assert status == 429 and "2 matches are running" in body  # full again: the second and third


def test_an_abandoned_seat_times_out_forfeits_and_the_match_ends(tmp_path: Path) -> None:
    """Nobody answers: the referee's own clock faults the seat max_faults times, then it forfeits."""
    with PlayServer(tmp_path, move_timeout=0.3) as server:
        person = Visitor(server)
        _, url, _ = person.start("yahtzee", [RANDOM])
        token = token_of(url)
        started = time.monotonic()
        state = person.state(token)
        while state["status"] not in ("done", "failed"):
            assert time.monotonic() - started < 30
            state = person.state(token, after=state["version"])
        assert state["status"] == "done" and state["result"]["forfeited"] == [0]
        with Database(server.config.db_path, readonly=True) as db:
            record = db.match_record(state["match_id"])
        assert record is not None
        assert [f.kind.value for f in record.faults] == ["timeout"] * 3 and record.ranking[0] == 1


def _gin_hidden(state: Any, seat: int) -> set[str]:
    """The stock, its next card first: never known to a seat."""
    return {gm.TEXTS[card] for card in state.stock}


@pytest.mark.parametrize(("game", "settings", "opponents", "seat", "hidden_of"), [
    ("yoninkan", "games=6", 3, 2, hidden_from),
    ("gin_rummy", "max_hands=1", 1, 1, _gin_hidden),
])
def test_the_person_receives_exactly_the_seats_observation(tmp_path: Path, game: str, settings: str,
                                                           opponents: int, seat: int, hidden_of: Any) -> None:
    """As the secrecy tests do for bots: every answer while the person decides carries that
    seat's engine observation and its drawing and nothing else, and no page or answer names a
    card hidden from the seat then (a Yoninkan partner's hand, the next stock card)."""
    with PlayServer(tmp_path) as server:
        person = Visitor(server)
        _, url, _ = person.start(game, [RANDOM] * opponents, seat=seat, settings=settings)
        token = token_of(url)
        person.request(f"/play/{token}")
        final, states = person.play_out(token, choose=lambda state: len(state["pending"]["actions"]) - 1)
        with Database(server.config.db_path, readonly=True) as db:
            record = db.match_record(final["match_id"])
    assert record is not None
    assert_only_the_seats_view(record, seat, final["players"], states, person.seen, hidden_of)


def assert_only_the_seats_view(record: Any, seat: int, players: list[str], states: list[dict[str, Any]],
                               seen: list[str], hidden_of: Any, at_least: int = 4) -> None:
    """Replay the stored match and check what one person received (``states``, in ``seen``
    every page and answer in order) against that seat's engine view at each step; the
    person decided ``at_least`` times."""
    game = record.game
    renderer = renderer_for(game)
    decisions = [number for number, move in enumerate(record.moves) if move.seat == seat]
    steps: list[tuple[Any, str, frozenset[str], list[str]]] = []

    def on_state(number: int, state: Any) -> None:
        """The seat's view after every move: observation, drawing, hidden cards, events."""
        observation = state.observe(seat)
        board = str(render_seat(renderer, observation, RenderContext(tuple(players), seat)))
        # What a public event told everyone (Yoninkan: "seat 1 holds AS and leads") is no secret.
        announced = cards_named_in_text(" ".join(e.text for e in state.events if e.visible_to is None))
        steps.append((to_jsonable(observation), board, frozenset(hidden_of(state, seat) - announced),
                      [e.text for e in state.events_for(seat)]))

    assert replay(record, on_state).ok
    pending = [s for s in states if s["pending"]]
    assert len(pending) == len(decisions) >= at_least
    for state in pending:  # while the person decides, the view is exactly the seat's at that decision
        observation, board, hidden, events = steps[decisions[state["pending"]["number"]]]
        assert state["observation"] == observation and state["board"] == board
        assert state["events"] == events[-EVENTS_KEPT:]  # the events this seat may see (old deals' too)
        assert set(state) == {"token", "status", "version", "game", "variant", "seat", "players", "teams", "to_play",
                              "board", "observation", "events", "result", "match_id", "pending", "invite"}
        assert state["result"] is None and state["match_id"] is None
    # Every page and answer: each view is the seat's view at some step; no text names a card
    # hidden from the seat at every step it can be (the match's final answer aside: it is over).
    always_hidden = frozenset.intersection(*(step[2] for step in steps))
    scanned = 0
    # Random ids are not game text (a token such as "…-TD_…" would read as a card).
    ids = {state["token"] for state in states} | {state["invite"].rsplit("/", 1)[1] for state in states
                                                   if state["invite"]}
    for text in seen:
        for random_id in ids:
            text = text.replace(random_id, "")
        hidden = always_hidden
        if text.startswith('{"token":""'):
            answer = json.loads(text)
            if answer["status"] == "done":
                continue
            if answer["observation"] is not None:
                candidates = [step for step in steps if step[0] == answer["observation"] and step[1] == answer["board"]]
                assert candidates, "an answer carries a view the seat never had"
                assert any(answer["events"] == step[3][-EVENTS_KEPT:] for step in candidates)
                hidden = frozenset.intersection(*(step[2] for step in candidates))
            del answer["events"]  # checked above: exactly what the seat may see
            text = json.dumps(answer)
        leaked = cards_named_in_text(text) & hidden
        assert not leaked, f"an answer names hidden cards {sorted(leaked)}: {text[:300]}"
        scanned += bool(hidden)
    # The scan checked something: about two texts per decision (its page or state, the move's
    # answer); those whose seat had nothing hidden (late in a deal, every card announced or
    # played) do not count, so at least half as many as decisions, not one each (CI found 29 of
    # 32 decisions in one Yoninkan match).
    assert scanned >= len(decisions) // 2


def test_leaving_forfeits_through_the_referees_faults_and_frees_the_visitors_slot(tmp_path: Path) -> None:
    with PlayServer(tmp_path, move_timeout=120.0) as server:
        person = Visitor(server)
        _, url, _ = person.start("yahtzee", [RANDOM])
        token = token_of(url)
        form = person.form("yahtzee")
        assert f'href="/play/{token}"' in form  # the form links back to the match under way
        stranger = Visitor(server)
        stranger.form("yahtzee")
        assert stranger.request(f"/api/play/{token}/leave", b"", {"X-CSRF-Token": stranger.csrf})[0] == 404
        assert person.request(f"/api/play/{token}/leave", b"", {"X-CSRF-Token": "forged"})[0] == 400
        state = person.state(token)
        while not state["pending"]:  # mid-match (leaving earlier forfeits at start-up)
            state = person.state(token, after=state["version"])
        started = time.monotonic()
        assert person.request(f"/api/play/{token}/leave", b"", {"X-CSRF-Token": person.csrf})[0] == 200
        state = person.state(token)
        while state["status"] not in ("done", "failed"):
            state = person.state(token, after=state["version"])
        assert time.monotonic() - started < 15  # not 3 x 120 s
        assert state["status"] == "done" and state["result"]["forfeited"] == [0]
        with Database(server.config.db_path, readonly=True) as db:
            record = db.match_record(state["match_id"])
        assert record is not None and [f.kind.value for f in record.faults] == ["error"] * 3
        assert f'href="/play/{token}"' not in person.form("yahtzee")
        assert person.start("yahtzee", [RANDOM])[0] == 200


def test_serve_play_errors_are_one_line(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from arena.cli import main

    ladder = tmp_path / "ladder.db"
    Database(ladder).close()
    not_a_db = tmp_path / "notes.txt"
    not_a_db.write_text("hello", encoding="utf-8")
    for play_db, text in [(tmp_path / "missing" / "p.db", "folder"), (not_a_db, "is not a usable arena database")]:
        result = CliRunner().invoke(main, ["serve", "--db", str(ladder), "--play", "--play-db", str(play_db)])
        assert result.exit_code == 1 and result.output.count("\n") == 1 and text in result.output, result.output
    for option in ("--play-max-running=0", "--play-max-open-per-visitor=0", "--play-move-timeout=0"):
        result = CliRunner().invoke(main, ["serve", "--db", str(ladder), "--play", option])
        assert result.exit_code == 2 and "Traceback" not in result.output


def test_a_second_person_joins_by_invitation_and_each_sees_only_their_seat(tmp_path: Path) -> None:
    """The stretch goal: two people at one Gin Rummy table, no bot."""
    with PlayServer(tmp_path) as server:
        host, guest, late = Visitor(server), Visitor(server), Visitor(server)
        status, url, body = host.start("gin_rummy", ["invite"], seat=1, settings="max_hands=1")
        assert status == 200, body
        host_token = token_of(url)
        invite = host.state(host_token)["invite"]
        assert invite.startswith("/play/join/")
        assert host.request(invite)[0] == 200
        fields = urllib.parse.urlencode({"csrf": host.csrf}).encode()
        status, _, body = host.request(invite, fields, FORM)
        assert status == 429 and "your own match" in body
        status, _, page = guest.request(invite)
        guest.csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]
        assert guest.request(invite, urllib.parse.urlencode({"csrf": "forged"}).encode(), FORM)[0] == 400
        status, url, _ = guest.request(invite, urllib.parse.urlencode({"csrf": guest.csrf}).encode(), FORM)
        guest_token = token_of(url)
        assert status == 200 and guest_token != host_token and guest.state(guest_token)["seat"] == 0
        late.form("gin_rummy")
        assert late.request(invite, urllib.parse.urlencode({"csrf": late.csrf}).encode(), FORM)[0] == 404
        assert host.request(f"/api/play/{guest_token}")[0] == 404 and guest.request(f"/api/play/{host_token}")[0] == 404
        results: dict[str, Any] = {}
        threads = [threading.Thread(target=lambda who, token: results.update({who: visitor_of[who].play_out(token)}),
                                    args=(who, token)) for who, token in (("host", host_token), ("guest", guest_token))]
        visitor_of = {"host": host, "guest": guest}
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        (host_final, host_states), (guest_final, guest_states) = results["host"], results["guest"]
        assert host_final["status"] == guest_final["status"] == "done"
        assert host_final["match_id"] == guest_final["match_id"] and host_final["players"] == ["human", "human"]
        with Database(server.config.db_path, readonly=True) as db:
            record = db.match_record(host_final["match_id"])
            assert db.tournaments()[0].options == {"human_seats": [0, 1]}
    assert record is not None and record.faults == []
    assert record.time_control["seat_move_timeouts"] == {"0": 120.0, "1": 120.0}
    assert_only_the_seats_view(record, 1, ["human", "human"], host_states, host.seen, _gin_hidden)
    assert_only_the_seats_view(record, 0, ["human", "human"], guest_states, guest.seen, _gin_hidden)


def test_an_answered_decision_is_no_longer_open_even_before_the_referee_gets_it() -> None:
    """Otherwise a page polling in between would offer the same decision again (and a second
    click would be refused)."""
    from arena.v1 import bot_pb2
    from arena.web.play_seat import HumanSeat
    from referee.client import BotClient

    seat = HumanSeat("yahtzee", threading.Condition())
    client = BotClient(seat.address)
    replies: list[Any] = []
    request = bot_pb2.DecideRequest(decision_number=0, time_left_ms=10_000,
                                    legal_actions=[bot_pb2.Action(text="a"), bot_pb2.Action(text="b")])
    caller = threading.Thread(target=lambda: replies.append(client.call("Decide", request, 10)))
    try:
        caller.start()
        deadline = time.monotonic() + 30  # a wait for the call, generous for a busy machine
        while seat.pending is None:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert seat.pending.actions == ("a", "b")
        with seat.changed:  # the seat's Decide cannot run on while this holds its lock
            assert seat.answer(0, 1) is None
            assert seat.pending is None
        caller.join(5)
        assert replies[0].ok and replies[0].response.action_index == 1
    finally:
        client.close()
        seat.close()


def _until_pending(person: Visitor, token: str) -> dict[str, Any]:
    state = person.state(token)
    while not state["pending"]:
        assert state["status"] in ("starting", "running"), state["status"]
        state = person.state(token, after=state["version"])
    return state


def _until_done(person: Visitor, token: str) -> dict[str, Any]:
    state = person.state(token)
    while state["status"] not in ("done", "failed"):
        state = person.state(token, after=state["version"])
    return state


def test_a_page_that_goes_quiet_leaves_its_seat_long_before_the_move_clock(tmp_path: Path) -> None:
    """A closed tab (no request any more) forfeits after absent_timeout, not 3 x 120 s; a page
    that keeps asking keeps its seat past that time."""
    with PlayServer(tmp_path, move_timeout=120.0, absent_timeout=3.0) as server:
        person = Visitor(server)
        token = token_of(person.start("yahtzee", [RANDOM])[1])
        number = _until_pending(person, token)["pending"]["number"]
        kept = time.monotonic() + 3.5  # an open page asks every few seconds at most: here, often
        while time.monotonic() < kept:
            state = person.state(token)
            assert state["pending"] is not None and state["pending"]["number"] == number
            assert state["pending"]["bank_ms"] == BOT_TIME_BANK_MS
        quiet = time.monotonic()
        with Database(server.config.db_path, readonly=True) as db:
            (match,) = db.matches()
            while db.match(match.id).status != "done":  # nobody asks: the seat leaves, the match plays out
                assert time.monotonic() - quiet < 30, "the quiet seat did not leave"
                time.sleep(0.1)
            record = db.match_record(match.id)
        assert time.monotonic() - quiet < 30  # not 3 x 120 s
        assert record is not None and record.forfeited == [0]
        assert [f.kind.value for f in record.faults] == ["error"] * 3  # left, as "Leave" does: no timeout


def test_a_closing_page_leaves_after_the_short_grace_unless_it_comes_back(tmp_path: Path) -> None:
    with PlayServer(tmp_path, move_timeout=120.0, absent_timeout=60.0) as server:
        person = Visitor(server)
        token = token_of(person.start("yahtzee", [RANDOM])[1])
        _until_pending(person, token)
        closing = urllib.parse.urlencode({"csrf": person.csrf}).encode()
        assert person.request(f"/api/play/{token}/closing", b"csrf=forged", FORM)[0] == 400
        assert person.request(f"/api/play/{token}/closing", closing, FORM)[0] == 200
        assert person.state(token)["pending"] is not None  # a reload asks again: still seated
        assert person.request(f"/api/play/{token}/closing", closing, FORM)[0] == 200
        closed = time.monotonic()
        with Database(server.config.db_path, readonly=True) as db:
            (match,) = db.matches()
            while db.match(match.id).status != "done":
                assert time.monotonic() - closed < 30, "the closed page's seat did not leave"
                time.sleep(0.1)
            record = db.match_record(match.id)
        assert record is not None and record.forfeited == [0]
