"""When a battle ends: the thresholds (9/8, 8/9, 9/8), declarations and the right to 16,
checked on the pure verdict function :func:`referee.games.yoninkan_scoring.judge`."""

from __future__ import annotations

import pytest

from referee.games.yoninkan_scoring import judge


def verdict(battle: int, kan: int, mukan: int, capturer: str = "kan", captured: int = 1, kan_open: str | None = None,
            mukan_open: str | None = None) -> object:
    return judge(battle, kan, mukan, capturer=capturer, captured=captured, kan_open=kan_open, mukan_open=mukan_open,
                 kan_declared=kan_open is not None, mukan_declared=mukan_open is not None)


@pytest.mark.parametrize("battle, kan_needs, mukan_needs", [(1, 9, 8), (2, 8, 9), (3, 9, 8)])
def test_thresholds(battle: int, kan_needs: int, mukan_needs: int) -> None:
    assert verdict(battle, kan_needs - 1, 1) is None
    assert verdict(battle, kan_needs, 1) == ("kan", None)
    assert verdict(battle, kan_needs + 2, 3) == ("kan", None)
    assert verdict(battle, 1, mukan_needs - 1, "mukan") is None
    assert verdict(battle, 1, mukan_needs, "mukan") == ("mukan", None)
    assert kan_needs + mukan_needs == 17


@pytest.mark.parametrize("battle", [1, 2, 3])
def test_a_skunk_gives_the_right_to_16(battle: int) -> None:
    needs = (9, 8, 9)[battle - 1]
    assert verdict(battle, needs, 0) == "right"


def test_a_reverse_skunk_gives_the_right_to_reverse_16_except_in_battle_1() -> None:
    assert verdict(1, 0, 8, "mukan") == ("mukan", None)  # rule 17: no reverse skunk in battle 1
    assert verdict(2, 0, 9, "mukan") == "right"
    assert verdict(3, 0, 8, "mukan") == "right"


def test_a_group_that_declared_has_no_right_after_its_skunk() -> None:
    # A declared skunk that succeeds ends the battle; its group has used its declaration.
    assert verdict(2, 8, 0, kan_open="declared_skunk") == ("kan", "declared_skunk")
    assert verdict(3, 0, 8, "mukan", mukan_open="declared_reverse_skunk") == ("mukan", "declared_reverse_skunk")


def test_declared_16_plays_on_past_the_threshold_until_all_16() -> None:
    assert verdict(1, 9, 0, kan_open="declared_16") is None
    assert verdict(1, 15, 0, kan_open="declared_16") is None
    assert verdict(1, 16, 0, kan_open="declared_16") == ("kan", "declared_16")
    assert verdict(1, 16, 0, kan_open="16") == ("kan", "16")
    assert verdict(2, 0, 16, "mukan", mukan_open="declared_reverse_16") == ("mukan", "declared_reverse_16")
    assert verdict(2, 0, 16, "mukan", mukan_open="reverse_16") == ("mukan", "reverse_16")
    assert verdict(2, 0, 12, "mukan", mukan_open="reverse_16") is None


@pytest.mark.parametrize("kan_open", ["declared_skunk", "declared_16", "16"])
def test_a_kan_declaration_fails_when_mukan_captures_any_honour(kan_open: str) -> None:
    assert verdict(2, 3, 1, "mukan", 1, kan_open=kan_open) == ("mukan", kan_open + "_failed")
    assert verdict(2, 10, 2, "mukan", 2, kan_open=kan_open) == ("mukan", kan_open + "_failed")
    # A trick without honours won by mukan changes nothing.
    assert verdict(2, 3, 0, "mukan", 0, kan_open=kan_open) is None


@pytest.mark.parametrize("mukan_open", ["declared_reverse_skunk", "declared_reverse_16", "reverse_16"])
def test_a_mukan_declaration_fails_when_kan_captures_any_honour(mukan_open: str) -> None:
    assert verdict(3, 1, 5, "kan", 1, mukan_open=mukan_open) == ("kan", mukan_open + "_failed")


def test_both_groups_declared_the_first_capture_settles_it() -> None:
    assert verdict(2, 2, 0, "kan", 2, kan_open="declared_skunk", mukan_open="declared_reverse_skunk") == \
        ("kan", "declared_reverse_skunk_failed")
    assert verdict(2, 0, 1, "mukan", 1, kan_open="declared_skunk", mukan_open="declared_reverse_skunk") == \
        ("mukan", "declared_skunk_failed")
