"""Yaniv's luck estimator, version 1 (docs/luck.md, "Yaniv").

Value: each seat's expected final total is its total so far plus a linear model of what it
will still add, from the hands (points, points left after the best discard, cards, jokers,
whether it can call), its place in the turn order, the other hands' threat and the totals
(how far the match has to go).  The coefficients, one set per number of players still in,
were fitted by ``scripts/fit_luck_yaniv.py`` on in-process matches of the sample bots and
are frozen in ``models/yaniv-1.json``; a seat that is out keeps its total.

Chance: the first deal (:meth:`YanivEstimator.initial`: by seat symmetry every seat expects
the same), each draw from the stock (the exact mean over the stock's cards, which are in
uniformly random order for everything but the referee's list), and each later deal (the
unbiased :func:`~referee.luck.sampled_expectation`).  A reshuffle of the dead discards reveals
nothing the value reads, so it is not an event of its own: its draws are.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from typing import Any, Final

from referee.games import yaniv_groups as yg
from referee.games.base import Game
from referee.games.yaniv import HAND_SIZE, DrawStock, TakeCard, Yaniv, YanivState
from referee.luck import Estimator, _sample_seed, sampled_expectation

VERSION: Final = 1
MODEL_FILE: Final = f"yaniv-{VERSION}.json"
DEAL_SAMPLES: Final = 32
"""Deals drawn per round end (the expectation's sampling noise is the value's spread over
deals divided by this)."""

FEATURES: Final = ("one", "points", "rest", "cards", "jokers", "can_call", "calls_now", "order", "threat",
                   "threat_call", "total", "total_sq", "total_gap", "others_max", "others_min", "points_total",
                   "rest_total")
"""What :func:`features` returns, in order (the model file lists them too)."""


@lru_cache(maxsize=1 << 16)
def hand_summary(hand: int) -> tuple[int, int, int, int]:
    """``(points, points after the best discard, cards, jokers)`` of a hand mask."""
    points = yg.mask_value(hand)
    return points, points - best_discard(hand), hand.bit_count(), (hand >> 52).bit_count()


def best_discard(hand: int) -> int:
    """The most points one valid discard of ``hand`` sheds.  Jokers count 0, so the best set is
    all natural cards of a rank and the best run all natural cards of a stretch of one suit
    whose gaps and length the jokers make up (tests check it against the engine's list)."""
    jokers = (hand >> 52).bit_count()
    counts = [0] * 13
    suits = [0, 0, 0, 0]
    for card in yg.indices(hand & _NATURAL):
        counts[card >> 2] += 1
        suits[card & 3] |= 1 << (card >> 2)
    best = max(count * _POINTS[rank] for rank, count in enumerate(counts))
    for bits in suits:
        if bits:
            best = max(best, _best_run(bits, jokers))
    return best


_NATURAL: Final = (1 << 52) - 1
_POINTS: Final = tuple(min(rank + 1, 10) for rank in range(13))
"""Points by rank index (0 is the ace)."""


@lru_cache(maxsize=None)
def _best_run(bits: int, jokers: int) -> int:
    """The most points of a run from one suit's ranks ``bits`` (bit 0 the ace) and ``jokers``."""
    ranks = [rank for rank in range(13) if bits >> rank & 1]
    best = 0
    for i in range(len(ranks)):
        for j in range(i + 1, len(ranks)):
            span = ranks[j] - ranks[i] + 1
            gaps = span - (j - i + 1)
            if gaps <= jokers and span + jokers - gaps >= 3:
                best = max(best, sum(_POINTS[r] for r in ranks[i:j + 1]))
    return best


def turn_order(state: YanivState) -> list[int]:
    """The seats still in, from the one to move (its next discard comes first)."""
    first = state.to_play if state.to_play >= 0 else 0
    order = [first]
    seat = state.after[first]
    while seat != first and len(order) < state.n:
        order.append(seat)
        seat = state.after[seat]
    return order


def features(state: YanivState, summaries: Sequence[tuple[int, int, int, int]],
             order: Sequence[int]) -> dict[int, list[float]]:
    """Per seat still in, the model's inputs (:data:`FEATURES`) from the seats' hand summaries."""
    n = len(order)
    totals = state.totals
    result = {}
    for place, seat in enumerate(order):
        points, rest, cards, jokers = summaries[seat]
        others = [s for s in order if s != seat]
        threat = min(summaries[s][1] for s in others)
        threat_call = float(any(summaries[s][0] <= 5 for s in others))
        total = totals[seat] / 100
        other_totals = [totals[s] / 100 for s in others]
        can_call = float(points <= 5)
        result[seat] = [1.0, points, rest, cards, jokers, can_call, can_call * (place == 0), place / max(n - 1, 1),
                        threat, threat_call, total, total * total, total - sum(other_totals) / len(others),
                        max(other_totals), min(other_totals), points * total, rest * total]
    return result


def model_group(active: int) -> str:
    """The coefficient set for ``active`` players still in."""
    return str(min(active, 5))


class YanivEstimator(Estimator):
    game = "yaniv"
    version = VERSION

    def __init__(self, model: dict[str, Any] | None = None) -> None:
        """``model``: the frozen file's content (read on first use when not given)."""
        self._model = model

    @property
    def model(self) -> dict[str, Any]:
        if self._model is None:
            self._model = json.loads(resources.files("referee.luck").joinpath("models", MODEL_FILE).read_text())
            if self._model["version"] != VERSION or tuple(self._model["features"]) != FEATURES:
                raise ValueError(f"{MODEL_FILE} does not fit this estimator")
        return self._model

    def _weights(self, state: YanivState, order: Sequence[int]) -> list[float]:
        model = self.model
        scale = model["scale"][str(min(state.n, 5))]
        return [scale * w for w in model["coefficients"][model_group(len(order))]]

    def _table_part(self, state: YanivState, order: Sequence[int], w: Sequence[float]) -> dict[int, float]:
        """Per seat still in, the model's terms that do not depend on the hands."""
        n = len(order)
        totals = [state.totals[s] / 100 for s in order]
        part = {}
        for place, seat in enumerate(order):
            total = totals[place]
            others = totals[:place] + totals[place + 1:]
            part[seat] = (w[0] + w[7] * place / (n - 1) + w[10] * total + w[11] * total * total
                          + w[12] * (total - sum(others) / (n - 1)) + w[13] * max(others) + w[14] * min(others))
        return part

    def _values(self, state: YanivState, summaries: Sequence[tuple[int, int, int, int]], order: Sequence[int],
                w: Sequence[float], table: dict[int, float]) -> list[float]:
        """:func:`features` times the weights ``w``, term by term (the hot path of the draws)."""
        values = [float(t) for t in state.totals]
        rests = sorted((summaries[s][1], s) for s in order)
        callers = sum(1 for s in order if summaries[s][0] <= 5)
        first = order[0]
        for seat in order:
            points, rest, cards, jokers = summaries[seat]
            threat = rests[1][0] if rests[0][1] == seat else rests[0][0]
            can_call = points <= 5
            threat_call = callers - can_call > 0
            total = state.totals[seat] / 100
            values[seat] += (table[seat] + w[1] * points + w[2] * rest + w[3] * cards + w[4] * jokers
                             + w[5] * can_call + w[6] * (can_call and seat == first) + w[8] * threat
                             + w[9] * threat_call + w[15] * points * total + w[16] * rest * total)
        return values

    def value(self, state: Any) -> list[float]:
        order = turn_order(state)
        if state.is_terminal() or len(order) < 2:
            return [float(t) for t in state.totals]
        w = self._weights(state, order)
        return self._values(state, [hand_summary(h) for h in state.hands], order, w, self._table_part(state, order, w))

    def initial(self, game: Game, state: Any) -> list[float]:
        # The starter is drawn uniformly and the deal is exchangeable, and the value treats
        # seats by their place from the starter: every seat expects the same.
        return [float(self.model["mean_final"])] * game.num_players

    def may_resolve_chance(self, state: Any, action: Any) -> bool:
        kind = type(action)
        return kind is DrawStock or kind is Yaniv or (kind is TakeCard and state.turn + 1 >= state._max_turns)

    def chance(self, before: Any, action: Any, after: Any) -> tuple[str, Sequence[float]] | None:
        seat = before.to_play
        dealt = after.round_number != before.round_number
        if not dealt:
            if type(action) is not DrawStock:
                return None
            return f"seat {seat} draws from the stock", self._draw_expectation(before, after, seat)
        if after.is_terminal():
            return None
        key = (before.seed, before.round_number, before.turn, len(before.events))
        if type(action) is Yaniv:
            return f"deal of round {after.round_number}", self._deal_expectation(after, key)
        text = f"deal of round {after.round_number}"
        if type(action) is DrawStock:
            text = f"seat {seat} draws from the stock; {text}"
        redraw = _redraw_stock if type(action) is DrawStock else _redraw
        return text, sampled_expectation(self, before, action, redraw, DEAL_SAMPLES, key)

    def _deal_expectation(self, after: YanivState, key: Sequence[int]) -> list[float]:
        """An unbiased estimate of the value's mean over the deals that could have followed:
        :data:`DEAL_SAMPLES` deals of a freshly shuffled deck, as the engine deals (the value
        reads the hands, the totals and the starter, all else being fixed by the round's end)."""
        order = turn_order(after)
        w = self._weights(after, order)
        table = self._table_part(after, order, w)
        rng = random.Random(_sample_seed(key))
        summaries = [hand_summary(h) for h in after.hands]
        totals = [0.0] * after.n
        for _ in range(DEAL_SAMPLES):
            cards = rng.sample(range(yg.NUM_CARDS), HAND_SIZE * len(order))
            for place, seat in enumerate(order):
                summaries[seat] = hand_summary(sum(1 << c for c in cards[HAND_SIZE * place:HAND_SIZE * place + HAND_SIZE]))
            for seat, value in enumerate(self._values(after, summaries, order, w, table)):
                totals[seat] += value
        return [total / DEAL_SAMPLES for total in totals]

    def _draw_expectation(self, before: YanivState, after: YanivState, seat: int) -> list[float]:
        """The exact mean of the value over the cards the stock could have given ``seat``."""
        summaries = [hand_summary(h) for h in after.hands]
        order = turn_order(after)
        w = self._weights(after, order)
        table = self._table_part(after, order, w)
        held = before.hands[seat]
        outcomes: dict[tuple[int, int, int, int], int] = {}
        for card in before.stock:  # cards that leave the same summary give the same value
            summary = hand_summary(held | 1 << card)
            outcomes[summary] = outcomes.get(summary, 0) + 1
        totals = [0.0] * after.n
        for summary, count in outcomes.items():
            summaries[seat] = summary
            for other, value in enumerate(self._values(after, summaries, order, w, table)):
                totals[other] += count * value
        return [total / len(before.stock) for total in totals]


def _redraw(state: Any, rng: random.Random) -> None:
    """Draw the hidden chance of a round's end again: the generator of the next deal."""
    state.rng = random.Random(rng.getrandbits(64))


def _redraw_stock(state: Any, rng: random.Random) -> None:
    """Draw the hidden chance of a draw that ends the round again: the stock's order too."""
    rng.shuffle(state.stock)
    _redraw(state, rng)


ESTIMATOR: Final = YanivEstimator()
