"""The layout a new user met first, in headless Chromium (issue 34, first steps): the SPRT
chart's labels, bot names in tables, and the replay page on a phone."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.web.charts import llr_svg

ROOT = Path(__file__).resolve().parents[2]
CSS = (ROOT / "arena" / "web" / "static" / "arena.css").read_text(encoding="utf-8")


def text_boxes(page) -> list[tuple[str, float, float, float, float]]:
    """Every SVG text of the page: its text and its box (left, top, right, bottom) as drawn."""
    return [tuple(box) for box in page.eval_on_selector_all(
        "svg text", "els => els.map(e => { const r = e.getBoundingClientRect();"
                    " return [e.textContent, r.left, r.top, r.right, r.bottom]; })")]


def overlapping(boxes: list[tuple[str, float, float, float, float]]) -> list[tuple[str, str]]:
    return [(a[0], b[0]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
            if a[1] < b[3] and b[1] < a[3] and a[2] < b[4] and b[2] < a[4]]


@pytest.mark.parametrize("llr", [-80.0, -3.1, 0.4, 2.96, 12.0, 150.0])
def test_the_sprt_charts_labels_never_overlap(page, llr: float) -> None:
    """At large LLRs the axis grows and the bounds' labels ("stronger at 2.94", "not stronger
    at -2.94") were drawn on top of each other."""
    points = [(2 * k, llr * k / 10) for k in range(1, 11)]
    page.set_content(f"<!doctype html><style>{CSS}</style><body>{llr_svg(points, -2.94, 2.94, 'LLR')}</body>")
    boxes = text_boxes(page)
    assert {"stronger at 2.94", "not stronger at -2.94"} <= {box[0] for box in boxes}
    assert overlapping(boxes) == []
    width = page.eval_on_selector("svg", "e => e.getBoundingClientRect().right")
    assert all(box[3] <= width for box in boxes), boxes
