"""The luck chart (:func:`arena.web.charts.luck_svg`): a line per seat ending at its total luck,
long matches thinned without changing the sums, and every text escaped."""

from __future__ import annotations

import re

from arena.web.charts import luck_svg


def report(steps: list[tuple[int, str, list[float]]]) -> dict:
    seats = len(steps[0][2])
    luck = [sum(step[2][seat] for step in steps) for seat in range(seats)]
    return {"format": 1, "estimator": "yahtzee/1", "result": [0.0] * seats, "luck": luck, "adjusted": luck,
            "steps": [list(step) for step in steps]}


def test_each_seat_gets_a_line_ending_at_its_luck() -> None:
    svg = str(luck_svg(report([(0, "the deal", [2.0, -2.0]), (5, "seat 1 rolls", [-1.5, 1.5]),
                               (9, "seat 0 rolls", [4.0, -4.0])]), ["ann", "bob"], 12))
    assert len(re.findall(r'<polyline class="luck seat-\d"', svg)) == 2
    assert "seat 0: ann +4.50" in svg and "seat 1: bob -4.50" in svg
    assert re.findall(r'data-move="(\d+)"', svg) == ["0", "5", "9"]
    assert "move 5: seat 1 rolls; seat 0 -1.50, seat 1 +1.50" in svg
    assert 'data-moves="12"' in svg


def test_a_long_match_keeps_at_most_400_events_and_its_exact_totals() -> None:
    steps = [(move, f"draw {move}", [0.25, -0.25] if move % 3 else [-0.1, 0.1]) for move in range(1000)]
    svg = str(luck_svg(report(steps), ["ann", "bob"], 1000))
    assert len(re.findall(r'<rect class="event"', svg)) == 400
    total = sum(step[2][0] for step in steps)
    assert f"seat 0: ann {total:+.2f}" in svg
    assert 'data-move="999"' in svg  # the last event is always kept


def test_bot_names_and_event_texts_are_escaped() -> None:
    svg = str(luck_svg(report([(1, "<b>roll</b>", [1.0, -1.0])]), ["<script>alert(1)</script>", "x"], 3))
    assert "<script>" not in svg and "&lt;script&gt;" in svg and "<b>" not in svg
