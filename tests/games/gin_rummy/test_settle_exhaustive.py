"""Knock settlement checked against an exhaustive search of arrangements and lay-offs."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games import gin_rummy_melds as gm

from .helpers import ALL_CARDS, is_meld, rank, value


def _meld_combos(hand: tuple[str, ...]) -> list[list[frozenset[str]]]:
    """Every combination of disjoint melds in ``hand``."""
    melds = [frozenset(g) for k in range(3, len(hand) + 1) for g in combinations(hand, k) if is_meld(g)]
    out: list[list[frozenset[str]]] = []

    def search(start: int, used: frozenset[str], chosen: list[frozenset[str]]) -> None:
        out.append(chosen)
        for i in range(start, len(melds)):
            if not melds[i] & used:
                search(i + 1, used | melds[i], [*chosen, melds[i]])

    search(0, frozenset(), [])
    return out


def _most_laid_off(melds: list[frozenset[str]], cards: frozenset[str]) -> int:
    """The largest value of ``cards`` that can be added one by one to ``melds``, trying every
    card on every meld in every order."""
    best = 0
    for card in cards:
        for i, meld in enumerate(melds):
            if is_meld(tuple(meld | {card})):
                grown = [*melds[:i], meld | {card}, *melds[i + 1:]]
                best = max(best, value((card,)) + _most_laid_off(grown, cards - {card}))
    return best


def _defender_best(knocker_melds: list[frozenset[str]], defender: tuple[str, ...], lay_off: bool) -> int:
    results = []
    for combo in _meld_combos(defender):
        rest = frozenset(defender).difference(*combo)
        laid = _most_laid_off(knocker_melds, rest) if lay_off else 0
        results.append(value(tuple(rest)) - laid)
    return min(results)


@st.composite
def two_hands(draw: st.DrawFn) -> tuple[tuple[str, ...], tuple[str, ...]]:
    low = draw(st.integers(0, 7))
    pool = [c for c in ALL_CARDS if low <= rank(c) - 1 < low + 6]
    cards = draw(st.lists(st.sampled_from(pool), min_size=20, max_size=20, unique=True))
    return tuple(cards[:10]), tuple(cards[10:])


@settings(max_examples=150, deadline=None)
@given(two_hands())
def test_settle_matches_exhaustive_search(hands: tuple[tuple[str, ...], tuple[str, ...]]) -> None:
    knocker, defender = hands
    combos = _meld_combos(knocker)
    covered = max(sum(value(tuple(m)) for m in combo) for combo in combos)
    knocker_deadwood = value(knocker) - covered
    gin = knocker_deadwood == 0
    best_arrangements = [c for c in combos if sum(value(tuple(m)) for m in c) == covered]
    # The knocker's tie-break: the arrangement that leaves the defender the most deadwood.
    defender_deadwood = max(_defender_best(c, defender, not gin) for c in best_arrangements)
    score = gm.settle(gm.to_mask(knocker), gm.to_mask(defender))
    assert (score.knocker_deadwood, score.defender_deadwood) == (knocker_deadwood, defender_deadwood)
    if gin:
        assert (score.kind, score.points) == ("gin", defender_deadwood + 25)
    elif knocker_deadwood < defender_deadwood:
        assert (score.kind, score.points) == ("knock", defender_deadwood - knocker_deadwood)
    else:
        assert (score.kind, score.points) == ("undercut", knocker_deadwood - defender_deadwood + 25)
    shown = [c for m in score.knocker_melds for c in m] + list(score.knocker_unmatched)
    assert sorted(map(str, shown)) == sorted(knocker)
    shown = [c for m in score.defender_melds for c in m] + list(score.layoffs) + list(score.defender_unmatched)
    assert sorted(map(str, shown)) == sorted(defender)
