"""Charts drawn on the server as SVG (no JavaScript library): the rating history, an SPRT's
log-likelihood ratio, a match's luck and the head-to-head colour scale."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from markupsafe import Markup

from arena.league.ratings import MU, SIGMA

_MAX_POINTS = 400
"""Longer histories are thinned to this many points (the last one always kept)."""


def win_colour(result: float) -> str:
    """Background of a head-to-head cell: red (always lost) through pale yellow to green (always won)."""
    hue = max(0.0, min(1.0, result)) * 120
    return f"hsl({hue:.0f}, 70%, 78%)"


def nice_step(span: float, count: int = 5) -> float:
    """The smallest round step (1, 2 or 5 times a power of ten) that covers ``span`` in at
    most ``count - 1`` steps: axis labels a reader takes in at a glance."""
    rough = span / max(1, count - 1) if span > 0 else 1.0
    power = 10.0 ** math.floor(math.log10(rough))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= rough * (1 - 1e-9))


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values from a multiple of :func:`nice_step` at or below ``low`` to one at or
    above ``high`` (so the axis extends to whole ticks); at least two."""
    step = nice_step(high - low, count)
    first, last = math.floor(low / step + 1e-9), math.ceil(high / step - 1e-9)
    last = max(last, first + 1)
    return [round(k * step, 10) for k in range(first, last + 1)]


def rating_history_svg(history: Sequence[dict[str, Any]], title: str, *, width: int = 640,
                       height: int = 240, start: dict[str, float] | None = None) -> Markup:
    """mu after each rated match (from ``start``, the bot's prior, at 0: TrueSkill's default if
    ``None``), with a band of one sigma either side and the conservative rating (mu - 3 sigma)
    dashed.  ``history`` items and ``start`` have ``mu`` and ``sigma``."""
    points = [start or {"mu": MU, "sigma": SIGMA}] + list(history)
    if len(points) > _MAX_POINTS:
        stride = len(points) / _MAX_POINTS
        points = [points[int(i * stride)] for i in range(_MAX_POINTS - 1)] + [points[-1]]
    if not history:
        return Markup('<p class="empty">No rated matches.</p>')
    left, right, top, bottom = 44, 12, 24, 28
    plot_w, plot_h = width - left - right, height - top - bottom
    lows = [p["mu"] - 3 * p["sigma"] for p in points]
    highs = [p["mu"] + p["sigma"] for p in points]
    ticks = nice_ticks(min(lows + [0.0]), max(highs + [50.0]))
    low, high = ticks[0], ticks[-1]
    n = len(points)

    def x(i: int) -> float:
        return round(left + (plot_w * i / (n - 1) if n > 1 else plot_w / 2), 1)

    def y(value: float) -> float:
        return round(top + plot_h * (high - value) / (high - low), 1)

    upper = " ".join(f"{x(i)},{y(p['mu'] + p['sigma'])}" for i, p in enumerate(points))
    lower = " ".join(f"{x(i)},{y(p['mu'] - p['sigma'])}" for i, p in reversed(list(enumerate(points))))
    mu = " ".join(f"{x(i)},{y(p['mu'])}" for i, p in enumerate(points))
    cons = " ".join(f"{x(i)},{y(p['mu'] - 3 * p['sigma'])}" for i, p in enumerate(points))
    grid = Markup("").join(
        Markup('<line class="grid" x1="{}" x2="{}" y1="{}" y2="{}"/><text class="tick" x="{}" y="{}" '
               'text-anchor="end">{}</text>').format(left, width - right, y(v), y(v), left - 4, y(v) + 4, f"{v:g}")
        for v in ticks)
    last = points[-1]
    return Markup(
        '<svg class="chart history" role="img" width="{w}" height="{h}" viewBox="0 0 {w} {h}">'
        '<title>{title}</title><text class="chart-title" x="{left}" y="16">{title}</text>{grid}'
        '<polygon class="band" points="{upper} {lower}"/><polyline class="cons" points="{cons}"/>'
        '<polyline class="mu" points="{mu}"/>'
        '<text class="tick" x="{left}" y="{axis}">0</text>'
        '<text class="tick" x="{xend}" y="{axis}" text-anchor="end">{count} matches</text>'
        '<text class="legend" x="{xend}" y="16" text-anchor="end">mu {mu_last} sigma {sigma_last}</text></svg>'
    ).format(w=width, h=height, title=title, left=left, grid=grid, upper=upper, lower=lower, cons=cons, mu=mu,
             axis=height - 8, xend=width - right, count=len(history), mu_last=f"{last['mu']:.2f}",
             sigma_last=f"{last['sigma']:.2f}")


def llr_svg(points: Sequence[tuple[int, float]], lower: float, upper: float, title: str, *, width: int = 640,
            height: int = 260) -> Markup:
    """An SPRT's log-likelihood ratio over the pairs counted (``points``: ``(pairs, llr)`` after
    each stored batch, from 0 at 0 pairs), between its two bounds drawn as dashed lines: the
    run says "stronger" where the line reaches the upper one, "not stronger" at the lower one.
    A line far past a bound (a one-sided test ends there) is drawn to its end: the axis grows,
    and the bounds draw close together; so they are named in a legend row above the plot,
    never beside their lines, where their labels would overlap."""
    line = [(0, 0.0)] + list(points)
    if len(line) > _MAX_POINTS:
        stride = len(line) / _MAX_POINTS
        line = [line[int(i * stride)] for i in range(_MAX_POINTS - 1)] + [line[-1]]
    left, right, top, bottom = 44, 12, 40, 28
    plot_w, plot_h = width - left - right, height - top - bottom
    llrs = [llr for _, llr in line]
    ticks = nice_ticks(min(llrs + [lower]), max(llrs + [upper]))
    low, high = ticks[0], ticks[-1]
    most = max(line[-1][0], 1)

    def x(pairs: int) -> float:
        return round(left + plot_w * pairs / most, 1)

    def y(value: float) -> float:
        return round(top + plot_h * (high - value) / (high - low), 1)

    grid = Markup("").join(
        Markup('<line class="grid" x1="{}" x2="{}" y1="{}" y2="{}"/><text class="tick" x="{}" y="{}" '
               'text-anchor="end">{}</text>').format(left, width - right, y(v), y(v), left - 4, y(v) + 4, f"{v:g}")
        for v in ticks)
    bounds = Markup("").join(
        Markup('<line class="{cls}" x1="{x1}" x2="{x2}" y1="{y}" y2="{y}"/>'
               '<line class="{cls}" x1="{kx}" x2="{kx2}" y1="28" y2="28"/>'
               '<text class="legend" x="{tx}" y="32">{label} {value}</text>').format(
            cls=cls, x1=left, x2=width - right, y=y(value), kx=left + offset, kx2=left + offset + 18,
            tx=left + offset + 22, label=label, value=f"{value:.2f}")
        for cls, value, label, offset in (("bound upper", upper, "stronger at", 0),
                                          ("bound lower", lower, "not stronger at", 170)))
    polyline = " ".join(f"{x(pairs)},{y(llr)}" for pairs, llr in line)
    return Markup(
        '<svg class="chart llr" role="img" width="{w}" height="{h}" viewBox="0 0 {w} {h}">'
        '<title>{title}</title><text class="chart-title" x="{left}" y="16">{title}</text>{grid}{bounds}'
        '<polyline class="mu" points="{polyline}"/>'
        '<text class="tick" x="{left}" y="{axis}">0</text>'
        '<text class="tick" x="{xend}" y="{axis}" text-anchor="end">{count} pairs</text>'
        '<text class="legend" x="{xend}" y="16" text-anchor="end">LLR {llr_last}</text></svg>'
    ).format(w=width, h=height, title=title, left=left, grid=grid, bounds=bounds, polyline=polyline,
             axis=height - 8, xend=width - right, count=line[-1][0], llr_last=f"{line[-1][1]:.2f}")


SEAT_COLOURS = ("#2656c9", "#c0262d", "#2f7d32", "#8a5a00", "#6b4fa0", "#00838f", "#d0508a", "#5f6b7a")
"""One line colour per seat (eight seats at most: Yahtzee's largest table)."""


def _signed(value: float) -> str:
    return f"{value:+.2f}"


def luck_svg(report: dict[str, Any], labels: Sequence[str], moves: int, *, width: int = 640,
             height: int = 280) -> Markup:
    """Each seat's luck summed along the match (:meth:`referee.luck.LuckReport.to_json`'s
    ``steps``) against the number of moves played, one stepped line per seat: the line jumps
    at each chance event by what it gave the seat.  Each event carries a tooltip (its move,
    text and luck per seat) and its move as ``data-move``; ``data-left``, ``data-plot-width`` and ``data-moves`` let the
    replay viewer move the ``cursor`` line to the step it shows.  A long match keeps
    :data:`_MAX_POINTS` of its events (the sums stay exact at those kept)."""
    seats = len(report["luck"])
    steps = [(int(move), str(text), [float(x) for x in luck]) for move, text, luck in report["steps"]]
    totals = [0.0] * seats
    events: list[tuple[int, str, list[float], list[float]]] = []  # move, text, luck, running sums
    for move, text, luck in steps:
        totals = [t + x for t, x in zip(totals, luck)]
        events.append((move, text, luck, totals))
    if len(events) > _MAX_POINTS:
        stride = len(events) / _MAX_POINTS
        events = [events[int(i * stride)] for i in range(_MAX_POINTS - 1)] + [events[-1]]
    left, right, top, bottom = 44, 12, 24 + 16 * ((seats + 2) // 3), 28
    plot_w, plot_h = width - left - right, height - top - bottom
    values = [v for _, _, _, sums in events for v in sums]
    ticks = nice_ticks(min(values + [0.0]), max(values + [0.0]))
    low, high = ticks[0], ticks[-1]
    most = max(moves, 1)

    def x(move: int) -> float:
        return round(left + plot_w * min(move, most) / most, 1)

    def y(value: float) -> float:
        return round(top + plot_h * (high - value) / (high - low), 1)

    grid = Markup("").join(
        Markup('<line class="grid" x1="{}" x2="{}" y1="{}" y2="{}"/><text class="tick" x="{}" y="{}" '
               'text-anchor="end">{}</text>').format(left, width - right, y(v), y(v), left - 4, y(v) + 4, f"{v:g}")
        for v in ticks)
    lines = []
    for seat in range(seats):
        points, last = [f"{x(0)},{y(0.0)}"], 0.0
        for move, _, _, sums in events:
            points += [f"{x(move)},{y(last)}", f"{x(move)},{y(sums[seat])}"]
            last = sums[seat]
        points.append(f"{x(most)},{y(last)}")
        lines.append(Markup('<polyline class="luck seat-{}" stroke="{}" points="{}"/>').format(
            seat, SEAT_COLOURS[seat % len(SEAT_COLOURS)], " ".join(points)))
    legend = Markup("").join(
        Markup('<g class="legend-entry"><line x1="{x}" x2="{x2}" y1="{ly}" y2="{ly}" stroke="{colour}" '
               'stroke-width="2"/><text class="legend" x="{tx}" y="{ty}">seat {seat}: {label} {luck}</text></g>').format(
            x=left + 200 * (seat % 3), x2=left + 200 * (seat % 3) + 14, ly=32 + 16 * (seat // 3) - 4,
            colour=SEAT_COLOURS[seat % len(SEAT_COLOURS)], tx=left + 200 * (seat % 3) + 18, ty=32 + 16 * (seat // 3),
            seat=seat, label=_short(labels[seat] if seat < len(labels) else f"seat {seat}"),
            luck=_signed(totals[seat]))
        for seat in range(seats))
    marks = Markup("").join(
        Markup('<rect class="event" data-move="{}" x="{}" y="{}" width="6" height="{}"><title>{}</title></rect>').format(
            move, x(move) - 3, top, plot_h,
            f"move {move}: {text}; " + ", ".join(f"seat {seat} {_signed(v)}" for seat, v in enumerate(luck)))
        for move, text, luck, _ in events)
    return Markup(
        '<svg class="chart luck" role="img" width="{w}" height="{h}" viewBox="0 0 {w} {h}" data-left="{left}" '
        'data-plot-width="{plot_w}" data-moves="{most}">'
        '<title>{title}</title><text class="chart-title" x="{left}" y="16">{title}</text>{legend}{grid}'
        '<line class="zero" x1="{left}" x2="{xend}" y1="{zero}" y2="{zero}"/>{lines}{marks}'
        '<line class="cursor" x1="{left}" x2="{left}" y1="{top}" y2="{bottom}"/>'
        '<text class="tick" x="{left}" y="{axis}">0</text>'
        '<text class="tick" x="{xend}" y="{axis}" text-anchor="end">{most} moves</text></svg>'
    ).format(w=width, h=height, left=left, plot_w=plot_w, most=most, legend=legend, grid=grid, lines=Markup("").join(lines),
             marks=marks, title=f"Luck along the match ({report['estimator']}), summed per seat", xend=width - right,
             zero=y(0.0), top=top, bottom=top + plot_h, axis=height - 8)


def match_luck_chart(match: dict[str, Any]) -> Markup | None:
    """The luck chart of a match as :func:`arena.web.data.match` gives it, or ``None`` when it
    shows no luck report or no record (its deal may still be played)."""
    if match["luck"] is None or match["record"] is None:
        return None
    return luck_svg(match["luck"], [seat["bot"] for seat in match["seats"]], len(match["record"]["moves"]))


def _short(label: str, most: int = 22) -> str:
    """A bot's label cut to fit a legend entry (the table beside the chart names it whole)."""
    return label if len(label) <= most else label[:most - 1] + "…"
