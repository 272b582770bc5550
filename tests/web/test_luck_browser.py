"""The luck chart beside the replay viewer, in Chromium: its cursor follows the step shown, a
click on a chance event shows that step, the step's luck is written under the move in the
table's view, and a seat's view shows none.  A real Yahtzee match (in-process gRPC bots) with
its real stored report, served by the real app."""

from __future__ import annotations

from pathlib import Path

from arena.league.storage import Database, ScheduledMatch
from recorded_matches import play_recorded

from .conftest import Server


def test_the_luck_chart_follows_the_viewer_and_a_seat_view_shows_no_luck(tmp_path: Path, page) -> None:
    (record,) = (r.record for r in play_recorded("yahtzee", num_players=2, seeds=[424_242]))
    path = tmp_path / "league.db"
    with Database(path) as db:
        a, b = (db.register_bot(name=name, version="1", files_hash=name).id for name in ("ann", "bob"))
        tid = db.create_tournament(
            name="luck", game="yahtzee", variant="yahtzee", settings={}, format="two_seat", table_size=2, rounds=1,
            duplicate=False, seed=1, time_control={}, options={}, bot_ids=[a, b],
            matches=[ScheduledMatch((a, b), 424_242, 0, 0, 0)])
        (match,) = db.matches(tournament_id=tid)
        db.store_result(match.id, record)
        db.set_tournament_status(tid, "finished")
        report = db.luck_report(match.id)
    assert report is not None
    step = next(s for s in report.steps if s.move > 0)  # a chance event after the first move
    with Server(path) as server:
        page.goto(f"{server.url}/matches/{match.id}")
        page.wait_for_selector("#replay[data-ready='table']")
        chart = page.locator("svg.chart.luck")
        left, width = float(chart.get_attribute("data-left")), float(chart.get_attribute("data-plot-width"))
        moves = int(chart.get_attribute("data-moves"))
        assert moves == len(record.moves)
        assert float(page.locator("svg.chart.luck .cursor").get_attribute("x1")) == left

        page.locator(f"svg.chart.luck rect.event[data-move='{step.move}']").first.click(force=True)
        assert page.locator("#step-counter").get_attribute("data-step") == str(step.move)
        cursor = float(page.locator("svg.chart.luck .cursor").get_attribute("x1"))
        assert abs(cursor - (left + width * step.move / moves)) < 0.11
        luck_text = page.locator("#luck-step").inner_text()
        assert f"luck of {step.text}: seat 0 {step.luck[0]:+.2f}, seat 1 {step.luck[1]:+.2f}" in luck_text

        page.select_option("#view", "0")  # seat 0's view: the same step, no luck
        page.wait_for_selector("#replay[data-ready='0']")
        assert page.locator("#step-counter").get_attribute("data-step") == str(step.move)
        assert page.locator("#luck-step").is_hidden() and page.locator("#luck-step").inner_text() == ""
        assert not page.errors and not page.dialogs
