"""Hand features for the Jass luck estimator (:mod:`referee.luck.jass`), on the engine's masks.

A deal is four 36-bit hands (:mod:`referee.games.jass_cards`).  For a mode, a team's cards
give a few numbers that predict the hand's card-point margin (:data:`FEATURES`); weis and
Stöck need no prediction: both are fixed by the deal and the mode, and
:func:`bonus_margin` computes them exactly as the engine scores them.
Shared by the estimator and the fitting script (scripts/fit_luck_jass.py), so both read the
same numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from referee.games import jass_cards as jc

FEATURES: Final = ("points", "trumps", "trump_jack", "trump_nine", "trump_tops", "side_tops", "side_length",
                   "side_aces", "seat_trumps")
"""What :func:`team_features` returns, in order (for the forehand's team, in one mode):
the card points held; trumps held; the trump J; the trump 9; the run of top trumps in trump
order (J 9 A K ...); per plain suit, the run of top cards in the mode's order (A K Q ... or
6 7 8 ...), summed; the cards beyond such a run in suits that have one; aces (sixes in
Undenufe) outside the trump suit; the most trumps one partner holds."""

_TEAMS: Final = ((0, 2), (1, 3))
KIND: Final = tuple("trump" if jc.TRUMP_SUIT[m] >= 0 else jc.MODES[m] for m in range(len(jc.MODES)))
"""Per mode, the model's kind of mode: its card-point weights are shared by the four trump suits."""
_TRUMP_RANKS: Final = (jc.JACK, jc.NINE, jc.ACE, jc.KING, jc.QUEEN, jc.TEN, jc.EIGHT, jc.SEVEN, jc.SIX)


def _run(pattern: int, ranks: Sequence[int]) -> int:
    count = 0
    for rank in ranks:
        if not pattern >> rank & 1:
            break
        count += 1
    return count


_HIGH: Final = tuple(range(8, -1, -1))
_LOW: Final = tuple(range(9))
_TOPS: Final = (tuple(_run(p, _HIGH) for p in range(512)), tuple(_run(p, _LOW) for p in range(512)))
"""``_TOPS[low][pattern]``: the run of a suit pattern's top cards, A down (0) or 6 up (1)."""
_TRUMP_TOPS: Final = tuple(_run(p, _TRUMP_RANKS) for p in range(512))
_COUNT: Final = tuple(p.bit_count() for p in range(512))
_SUIT_POINTS: Final = tuple(tuple(tuple(sum(jc.POINTS[mode][s * 9 + r] for r in range(9) if p >> r & 1)
                                        for p in range(512)) for s in range(4)) for mode in range(len(jc.MODES)))


def team_features(hands: Sequence[int], team: int, mode: int) -> tuple[int, ...]:
    """:data:`FEATURES` of ``team``'s cards in ``mode``."""
    first, second = (hands[seat] for seat in _TEAMS[team])
    cards = first | second
    trump = jc.TRUMP_SUIT[mode]
    tops = _TOPS[mode == jc.UNDENUFE]
    top_rank = jc.SIX if mode == jc.UNDENUFE else jc.ACE
    points = side_tops = side_length = side_aces = 0
    trumps = jack = nine = trump_tops = seat_trumps = 0
    for suit in range(4):
        pattern = cards >> (9 * suit) & 0x1FF
        points += _SUIT_POINTS[mode][suit][pattern]
        if suit == trump:
            trumps = _COUNT[pattern]
            jack = pattern >> jc.JACK & 1
            nine = pattern >> jc.NINE & 1
            trump_tops = _TRUMP_TOPS[pattern]
            seat_trumps = max(_COUNT[first >> (9 * suit) & 0x1FF], _COUNT[second >> (9 * suit) & 0x1FF])
            continue
        run = tops[pattern]
        side_tops += run
        if run:
            side_length += _COUNT[pattern] - run
        side_aces += pattern >> top_rank & 1
    return (points, trumps, jack, nine, trump_tops, side_tops, side_length, side_aces, seat_trumps)


def bonus_margins(hands: Sequence[int], forehand: int) -> tuple[int, ...]:
    """Per mode, the weis and Stöck the forehand's team scores minus the other team's,
    multiplier included: both follow from the deal and the mode alone (docs/rules/jass.md,
    "Weis" and "Stöck": the engine's best-weis key and seat-order tie-break)."""
    team = forehand % 2
    found = []
    declared = [0, 0]
    for offset in range(4):
        seat = (forehand + offset) % 4
        for weis, top, suit in jc.find_weis(seat, hands[seat]):
            declared[seat % 2] += weis.points
            found.append((weis, top, suit, seat))
    stoeck = [0, 0, 0, 0]
    for suit in range(4):
        pair = 1 << (suit * 9 + jc.KING) | 1 << (suit * 9 + jc.QUEEN)
        for seat in range(4):
            if hands[seat] & pair == pair:
                stoeck[suit] = 20 if seat % 2 == team else -20
    margins = []
    for mode in range(len(jc.MODES)):
        margin = 0
        if found:
            best_key, best_seat = None, -1
            for weis, top, suit, seat in found:
                key = jc.weis_key(weis, top, suit, mode)
                if best_key is None or key > best_key:  # strictly better: the earlier seat keeps ties
                    best_key, best_seat = key, seat
            scorer = best_seat % 2
            margin = declared[scorer] if scorer == team else -declared[scorer]
        trump = jc.TRUMP_SUIT[mode]
        if trump >= 0:
            margin += stoeck[trump]
        margins.append(margin * jc.MULTIPLIER[mode])
    return tuple(margins)


def predicted_margins(model: dict[str, Any], hands: Sequence[int], forehand: int) -> list[float]:
    """Per mode, the hand's predicted margin (forehand's team minus the other) if played in it."""
    team = forehand % 2
    kinds = model["kinds"]
    margins = []
    for mode, bonus in enumerate(bonus_margins(hands, forehand)):
        kind = kinds[KIND[mode]]
        cards = kind["intercept"] + sum(w * x for w, x in zip(kind["weights"], team_features(hands, team, mode)))
        margins.append(jc.MULTIPLIER[mode] * cards + bonus)
    return margins


def deal_margin(model: dict[str, Any], hands: Sequence[int], forehand: int) -> float:
    """The deal's value to the forehand's team, before anyone chooses: the hand's predicted margin."""
    predicted = predicted_margins(model, hands, forehand)
    one, best, mean = model["deal"]["weights"]
    return float(one + best * max(predicted) + mean * sum(predicted) / len(predicted))
