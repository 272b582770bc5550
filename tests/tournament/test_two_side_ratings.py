"""The closed form for two sides equals the trueskill library's factor graph to 1e-9."""

from __future__ import annotations

import random

import pytest
import trueskill

from arena.league.ratings import environment, rate_two_sides

UPDATES = 100_000


def random_side(rng: random.Random, first_bot: int, size: int) -> dict[int, trueskill.Rating]:
    return {first_bot + k: trueskill.Rating(rng.uniform(-10, 60), rng.uniform(0.3, 9.0)) for k in range(size)}


def test_two_sides_equal_the_library_on_100000_random_updates() -> None:
    """1 vs 1 (most), 2 vs 2, 1 vs 2 and 2 vs 1, wins either way and ties, ratings from far
    apart to equal; where the library cannot rate (its floating-point error) neither can we."""
    env = environment()
    rng = random.Random(29)
    worst = 0.0
    refused = 0
    for _ in range(UPDATES):
        shape = rng.random()
        sizes = (1, 1) if shape < 0.7 else (2, 2) if shape < 0.9 else rng.choice(((1, 2), (2, 1)))
        sides = [random_side(rng, 0, sizes[0]), random_side(rng, 10, sizes[1])]
        ranks = [0, 0] if rng.random() < 0.1 else rng.choice(([0, 1], [1, 0], [0, 3], [2, 1]))
        try:
            expected = env.rate(sides, ranks=ranks)
        except FloatingPointError:
            with pytest.raises(FloatingPointError):
                rate_two_sides(env, sides, ranks)
            refused += 1
            continue
        got = rate_two_sides(env, sides, ranks)
        for mine, theirs in zip(got, expected, strict=True):
            assert mine.keys() == theirs.keys()
            for bot, rating in theirs.items():
                worst = max(worst, abs(mine[bot].mu - rating.mu), abs(mine[bot].sigma - rating.sigma))
    assert worst <= 1e-9, worst
    assert refused < UPDATES // 100  # the comparison covered the updates, not errors
