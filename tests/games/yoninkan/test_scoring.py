"""game_points: the base points, every row of the seed's bonus table, and impossible sequences."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from referee.games.yoninkan import BONUSES, game_points

TABLE = Path(__file__).with_name("bonus_table.csv")


def bonus_rows() -> list[dict[str, str]]:
    lines = [line for line in TABLE.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    return list(csv.DictReader(lines, fieldnames=["bonus", "winner", "kind", "points", "battle_1"]))


ROWS = bonus_rows()


def test_the_table_lists_every_bonus_once() -> None:
    assert sorted(row["bonus"] for row in ROWS) == sorted(BONUSES)
    assert len(ROWS) == 14


@pytest.mark.parametrize("results, points", [
    ([("mukan", None)], -2),
    ([("kan", None), ("mukan", None)], 0),
    ([("kan", None), ("kan", None), ("mukan", None)], 2),
    ([("kan", None), ("kan", None), ("kan", None)], 8),
])
def test_base_points(results: list[tuple[str, str | None]], points: int) -> None:
    assert game_points(results) == points


@pytest.mark.parametrize("row", [r for r in ROWS if r["kind"] == "added"], ids=lambda r: r["bonus"])
def test_added_bonuses_accumulate_on_the_base(row: dict[str, str]) -> None:
    bonus, points = row["bonus"], int(row["points"])
    assert game_points([("kan", None), ("kan", bonus), ("mukan", None)]) == 2 + points
    assert game_points([("kan", None), ("kan", None), ("kan", bonus)]) == 8 + points
    assert game_points([("kan", None), ("kan", bonus), ("kan", bonus)]) == 8 + 2 * points
    if row["battle_1"] == "yes":
        assert game_points([("kan", bonus), ("mukan", None)]) == 0 + points


@pytest.mark.parametrize("row", [r for r in ROWS if r["kind"] == "fixed"], ids=lambda r: r["bonus"])
def test_fixed_bonuses_replace_everything(row: dict[str, str]) -> None:
    bonus, points = row["bonus"], int(row["points"])
    assert game_points([("kan", None), ("mukan", bonus)]) == points
    assert game_points([("kan", "16"), ("kan", "declared_reverse_16_failed"), ("mukan", bonus)]) == points
    if row["battle_1"] == "yes":
        assert game_points([("mukan", bonus)]) == points


@pytest.mark.parametrize("row", [r for r in ROWS if r["battle_1"] == "no"], ids=lambda r: r["bonus"])
def test_rule_17_excludes_these_bonuses_from_battle_1(row: dict[str, str]) -> None:
    second = [("kan", None), ("mukan", None)] if row["winner"] == "kan" else []
    with pytest.raises(ValueError, match="rule 17"):
        game_points([(row["winner"], row["bonus"]), *second])


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r["bonus"])
def test_a_bonus_on_the_wrong_side_is_impossible(row: dict[str, str]) -> None:
    other = "mukan" if row["winner"] == "kan" else "kan"
    with pytest.raises(ValueError, match="win"):
        game_points([("kan", None), ("kan", None), (other, row["bonus"])])


def test_the_game_of_the_worked_example_in_the_docstring() -> None:
    # Kan skunks battle 1 (+2 added), wins battle 2 plainly, loses battle 3 by a reverse skunk:
    # the fixed -8 replaces base and bonuses.
    assert game_points([("kan", "skunk"), ("kan", None), ("mukan", "reverse_skunk")]) == -8
    # The same game lost plainly in battle 3: base +2 plus the skunk's +2.
    assert game_points([("kan", "skunk"), ("kan", None), ("mukan", None)]) == 4


@pytest.mark.parametrize("results, message", [
    ([], "at least one"),
    ([("mukan", None), ("kan", None)], "follows a mukan win"),
    ([("mukan", None), ("mukan", None)], "follows a mukan win"),
    ([("kan", None)], "cannot end on a kan win"),
    ([("kan", "skunk"), ("kan", None)], "cannot end on a kan win"),
    ([("kan", None)] * 4, "at most 3"),
    ([("kan", None), ("kan", None), ("draw", None)], "winner"),
    ([("kan", None), ("kan", None), ("kan", "grand_slam")], "unknown bonus"),
    ([("kan", None), ("kan", None), ("kan", "")], "unknown bonus"),
    ([("mukan", "reverse_skunk")], "rule 17"),
    ([("kan", "declared_skunk"), ("kan", None), ("kan", None)], "rule 17"),
    ([("mukan", "skunk")], "not a mukan win"),
    ([("kan", "16_failed"), ("kan", None), ("kan", None)], "not a kan win"),
    ([("kan",)], "pair"),
])
def test_impossible_sequences_raise(results: list, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        game_points(results)
