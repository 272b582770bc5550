"""The numbers on the boards add up as the engines count them, over seeded games of the real
engines (fast: no bots, no server): the Yahtzee and Yams score cards, Gin Rummy's hand
scores."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from arena.web.renderers import RenderContext, render_seat, renderer_for
from referee.games import make_game

PLAYERS = ("a", "b", "c", "d")


def play_to_end(game: str, seed: int, *, variant: str | None = None, num_players: int = 2,
                settings: dict[str, Any] | None = None, stop: Any = None) -> Any:
    """Seat 0's observation at the end of a seeded random game (or the first where ``stop`` holds)."""
    rng = random.Random(seed)
    state = make_game(game, variant=variant, num_players=num_players, settings=settings or {}).new_initial_state(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
        if stop is not None and stop(state.observe(0)):
            break
    return state.observe(0)


def _cells(html: str, row: str) -> list[int]:
    """The numbers of the score card's row ``row`` (a ``data-row`` or a box's label)."""
    found = re.search(rf'<tr[^>]*data-row="{row}"[^>]*>(.*?)</tr>', html) or \
        re.search(rf'<tr[^>]*><th scope="row">{row}</th>(.*?)</tr>', html)
    assert found, f"no row {row!r} on the card"
    return [int(v or 0) for v in re.findall(r"<td[^>]*>(-?\d*)</td>", found.group(1))]


@pytest.mark.parametrize("variant", ["yahtzee", "yams"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_each_score_card_column_adds_up_to_its_total(variant: str, seed: int) -> None:
    obs = play_to_end("yahtzee", seed, variant=variant, num_players=3)
    html = str(render_seat(renderer_for("yahtzee"), obs, RenderContext(PLAYERS, 0)))
    counted = [box.replace("_", " ") for box in obs.boxes if box not in ("ones", "twos", "threes", "fours",
                                                                         "fives", "sixes", "plus", "minus")]
    extra = ["upper", "upper-bonus"] + (["delta"] if variant == "yams" else ["bonus"])
    totals = [int(t) for t in re.findall(r'<td class="total" data-seat="\d+">(-?\d+)</td>', html)]
    for seat in range(3):
        upper = sum(_cells(html, box)[seat] for box in ("ones", "twos", "threes", "fours", "fives", "sixes"))
        assert _cells(html, "upper")[seat] == upper
        shown = sum(_cells(html, row)[seat] for row in counted + extra)
        assert shown == totals[seat] == obs.totals[seat], (variant, seat)


def _gin_rows(html: str) -> dict[str, list[int]]:
    rows = re.findall(r'<tr data-row="(\w+)">(.*?)</tr>', html)
    return {key: [int(v) for v in re.findall(r'<td class="n" data-seat="\d">(\d+)</td>', cells)] for key, cells in rows}


@pytest.mark.parametrize("variant", ["standard", "oklahoma"])
def test_gin_rummys_score_sheet_adds_up_to_the_outcomes_scores(variant: str) -> None:
    for seed in range(40):
        state = make_game("gin_rummy", variant=variant).new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        if state.outcome().termination.value == "normal":
            break
    else:
        raise AssertionError("no seeded random match ended normally")
    html = str(render_seat(renderer_for("gin_rummy"), state.observe(0), RenderContext(PLAYERS, 0)))
    rows = _gin_rows(html)
    assert set(rows) >= {"points", "box", "game", "total"}
    parts = [key for key in rows if key not in ("hands", "total")]
    assert rows["total"] == [sum(rows[key][seat] for key in parts) for seat in (0, 1)]
    assert rows["total"] == [int(score) for score in state.outcome().scores]


def test_gin_rummy_shows_both_hands_once_a_hand_ends_and_not_before() -> None:
    def shown(o: Any) -> bool:
        return o.last_hand is not None and o.last_hand.score is not None

    obs = next(o for seed in range(40) for o in [play_to_end("gin_rummy", seed, stop=shown)] if shown(o))
    html = str(render_seat(renderer_for("gin_rummy"), obs, RenderContext(PLAYERS, 0)))
    section = re.search(r'<section class="last-hand">.*?</section>', html, re.S)
    assert section is not None
    score, result = obs.last_hand.score, obs.last_hand
    opponent = 1 - obs.seat
    if result.knocker == opponent:
        cards = [*(c for m in score.knocker_melds for c in m), *score.knocker_unmatched]
    else:
        cards = [*(c for m in score.defender_melds for c in m), *score.layoffs, *score.defender_unmatched]
    row = re.search(rf'<tr data-seat="{opponent}">.*?</tr>', section.group(0), re.S)
    assert row is not None and sorted(re.findall(r'data-card="(\w+)"', row.group(0))) == sorted(map(str, cards))
    assert f"= {result.points}" in section.group(0)
    fresh = make_game("gin_rummy").new_initial_state(5).observe(0)
    assert "last-hand" not in str(render_seat(renderer_for("gin_rummy"), fresh, RenderContext(PLAYERS, 0)))


@pytest.mark.parametrize("joker", ["X1", "X2"])
def test_a_joker_is_drawn_as_a_joker_not_as_its_number(joker: str) -> None:
    from arena.web.renderers.draw import card

    drawn = str(card(joker, 0, 0))
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", drawn)
    assert f'data-card="{joker}"' in drawn and "JOKER" in texts
    assert not any(joker[1] in text for text in texts)  # no "2" on a card that is not a two
