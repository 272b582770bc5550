"""Yaniv's luck estimator, version 1 (docs/luck.md, "Yaniv").

Value: each seat's expected final total, in two parts fitted by ``scripts/fit_luck_yaniv.py``
on in-process matches of the sample bots and frozen in ``models/yaniv-1.json``:

- a *table* of the expected final totals at a round start, from the totals (exact value
  iteration over the observed round process for two seats in; a regression on simulated
  matches of that process for three or more), which knows that 20 more points cost little at
  30 and everything at 90;
- a *round model* that turns the hands into the round's likely outcomes: the chance that the
  seat to move calls Yaniv now (then the round's scores are exact, Assaf included), else a
  conditional logit of which seat ends the round lowest from the hand summaries, the others
  adding their predicted points at five quantiles.  The value is the mean of the table over
  those outcomes, times a scale per table size; a seat that is out keeps its total.

Chance: the first deal (:meth:`YanivEstimator.initial`: by seat symmetry every seat expects
the same), each draw from the stock (the exact mean over the stock's cards, which are in
uniformly random order for everything but the referee's list), and each later deal (the
unbiased :func:`~referee.luck.sampled_expectation`).  A reshuffle of the dead discards reveals
nothing the value reads, so it is not an event of its own: its draws are.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from typing import Any, Final

from referee.games import yaniv_groups as yg
from referee.games.base import Game
from referee.games.yaniv import (ASSAF_PENALTY, ELIMINATION, HAND_SIZE, YANIV_LIMIT, DrawStock, TakeCard, Yaniv,
                                 YanivState)
from referee.luck import Estimator, _sample_seed, sampled_expectation

VERSION: Final = 1
MODEL_FILE: Final = f"yaniv-{VERSION}.json"
DEAL_SAMPLES: Final = 32
"""Deals drawn per round end (the expectation's sampling noise is the value's spread over
deals divided by this)."""

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


def halve(total: int) -> int:
    """A total after the round's halving rule (exact 100 becomes 50, exact 50 becomes 25)."""
    return 50 if total == 100 else 25 if total == 50 else total


def caller_features(summary: tuple[int, int, int, int], place: int, active: int) -> tuple[float, ...]:
    """What the round model reads of a seat still in (:data:`CALLER_FEATURES`): its hand summary
    and its place in the turn order (0: the seat to move)."""
    points, rest, cards, jokers = summary
    can_call = float(points <= 5)
    mover = float(place == 0)
    return (rest, points, can_call, mover, can_call * mover, place / (active - 1), cards, jokers)


CALLER_FEATURES: Final = ("rest", "points", "can_call", "mover", "can_call_mover", "place", "cards", "jokers")
LOSER_FEATURES: Final = ("one", "rest", "points", "cards", "jokers")


def hats(x: float) -> tuple[tuple[int, float], tuple[int, float]]:
    """Piecewise-linear basis over totals 0..100 with knots every 10: the two knots around ``x``
    and their weights (they sum to 1)."""
    x = min(max(x, 0.0), 100.0) / 10
    low = min(int(x), 9)
    return (low, 1 - (x - low)), (low + 1, x - low)


def hats_of(x: float, offset: int) -> list[tuple[int, float]]:
    """:func:`hats` of ``x`` as inputs from ``offset`` on."""
    return [(offset + i, w) for i, w in hats(x)]


def products(x: float, y: float, offset: int) -> list[tuple[int, float]]:
    """The 121-input block of the products of the hats of ``x`` and of ``y``, from ``offset`` on."""
    return [(offset + 11 * i + j, wi * wj) for i, wi in hats(x) for j, wj in hats(y)]


def table_terms(own: int, others: Sequence[int], place: float) -> list[tuple[int, float]]:
    """The nonzero inputs of the 3+ seat table's regression for a seat with total ``own`` among
    ``others`` at a round start, ``place`` its place from the starter over (seats - 1): index
    and value.  Blocks of 11 hats: own total, the others' lowest, mean and highest total; then
    own x lowest and own x mean (121 each), then 1 and ``place``."""
    low, high, mean = min(others), max(others), sum(others) / len(others)
    return (hats_of(own, 0) + hats_of(low, 11) + hats_of(mean, 22) + hats_of(high, 33) + products(own, low, 44)
            + products(own, mean, 165) + [(286, 1.0), (287, place)])


TABLE_INPUTS: Final = 288


class YanivEstimator(Estimator):
    game = "yaniv"
    version = VERSION

    def __init__(self, model: dict[str, Any] | None = None) -> None:
        """``model``: the frozen file's content (read on first use when not given)."""
        self._model = model
        self._finals_cache: dict[tuple[int, ...], tuple[float, ...]] = {}
        self._dense_tables: dict[int, Any] = {}

    @property
    def model(self) -> dict[str, Any]:
        if self._model is None:
            model = json.loads(resources.files("referee.luck").joinpath("models", MODEL_FILE).read_text())
            if model["version"] != VERSION or tuple(model["caller_features"]) != CALLER_FEATURES:
                raise ValueError(f"{MODEL_FILE} does not fit this estimator")
            self._model = model
        return self._model

    def finals(self, totals: tuple[int, ...]) -> tuple[float, ...]:
        """Expected final totals of seats whose totals after a round are ``totals``, listed from the
        next round's starter (a total above 100 is out and final).  Two seats left: the exact
        table of the round process; three or more: its fitted regression."""
        found = self._finals_cache.get(totals)
        if found is not None:
            return found
        model = self.model
        still = [i for i, t in enumerate(totals) if t <= 100]
        result = [float(t) for t in totals]
        if len(still) == 2:
            a, b = totals[still[0]], totals[still[1]]
            result[still[0]] = model["table2"]["starter"][a][b]
            result[still[1]] = model["table2"]["other"][a][b]
        elif len(still) > 2:
            own_low, own_sum, high, const, slope = self._dense(len(still))
            for place, i in enumerate(still):
                others = [totals[j] for j in still if j != i]
                own = totals[i]
                low = min(others)
                result[i] = (own_low[own][low] + own_sum[own][sum(others)] + high[max(others)] + const
                             + slope * place / (len(still) - 1))
        found = tuple(result)
        if len(self._finals_cache) > 1 << 17:
            self._finals_cache.clear()
        self._finals_cache[totals] = found
        return found

    def _dense(self, seats: int) -> tuple[list[list[float]], list[list[float]], list[float], float, float]:
        """The 3+ seat regression at ``seats`` in, tabulated over whole totals (it is piecewise
        bilinear, so the tables are exact): own x lowest other (with the hats of each), own x the
        others' sum (the mean's hats and own x mean), the highest other, the constant, ``place``'s
        slope."""
        found = self._dense_tables.get(seats)
        if found is None:
            tables = self.model["table3"]
            w = tables[str(min(seats, max(int(k) for k in tables)))]
            whole = range(101)
            own_low = [[sum(w[k] * x for k, x in hats_of(o, 0) + hats_of(lo, 11) + products(o, lo, 44)) for lo in whole]
                       for o in whole]
            means = [total / (seats - 1) for total in range(100 * (seats - 1) + 1)]
            own_sum = [[sum(w[k] * x for k, x in hats_of(mean, 22) + products(o, mean, 165)) for mean in means]
                       for o in whole]
            high = [sum(w[k] * x for k, x in hats_of(h, 33)) for h in whole]
            found = self._dense_tables[seats] = (own_low, own_sum, high, w[286], w[287])
        return found

    def _values(self, totals: Sequence[int], summaries: Sequence[tuple[int, int, int, int]],
                order: Sequence[int]) -> list[float]:
        """Every seat's expected final total (scaled): the chance that the seat to move calls Yaniv
        now times the table's value of that call's exact outcome, plus the rest times the round
        model's mixture (:meth:`_continued`)."""
        model = self.model
        table, points = self._scales(len(totals))
        values = self._out_values(totals, order)
        mover = summaries[order[0]][0]
        call = 0.0
        if mover <= YANIV_LIMIT:
            others = min(summaries[s][0] for s in order[1:])
            g = model["call"]
            call = 1 / (1 + math.exp(-(g[0] + g[1] * mover + g[2] * (others <= mover) + g[3] * min(others, 20) / 10)))
            for seat, (final, after) in self._called(totals, summaries, order).items():
                values[seat] += call * (table * final + points * after)
        if call < 1.0:
            for seat, (final, after) in self._continued(totals, summaries, order).items():
                values[seat] += (1 - call) * (table * final + points * after)
        return values

    def _called(self, totals: Sequence[int], summaries: Sequence[tuple[int, int, int, int]],
                order: Sequence[int]) -> dict[int, tuple[float, float]]:
        """Per seat in ``order``, its expected final total and its total after the round if the
        first calls Yaniv now: the round's exact scores (Assaf included), then the table from
        the next starter."""
        hands = [summaries[s][0] for s in order]
        caller = hands[0]
        assaf = any(v <= caller for v in hands[1:])
        after = [halve(totals[s] + (v if j else (ASSAF_PENALTY + v if assaf else 0)))
                 for j, (s, v) in enumerate(zip(order, hands))]
        still = [j for j in range(len(order)) if after[j] <= ELIMINATION]
        first = min(still, key=lambda j: (hands[j], j)) if still else 0
        rotated = tuple(after[first:] + after[:first])
        finals = self.finals(rotated)
        k = len(order)
        return {order[(first + j) % k]: (finals[j], float(rotated[j])) for j in range(k)}

    def _continued(self, totals: Sequence[int], summaries: Sequence[tuple[int, int, int, int]],
                   order: Sequence[int]) -> dict[int, tuple[float, float]]:
        """Per seat in ``order``, its expected final total and total after the round if the round
        goes on: the round model's chance of each seat ending it lowest, times the table's value
        of the totals that leaves (the others adding their predicted points, at a few quantiles)."""
        model = self.model
        k = len(order)
        beta = model["caller"]["2" if k == 2 else "3+"]
        utilities = [sum(b * x for b, x in zip(beta, caller_features(summaries[s], place, k)))
                     for place, s in enumerate(order)]
        top = max(utilities)
        weights = [math.exp(u - top) for u in utilities]
        lw = model["loser"]["coefficients"]
        predicted = []
        for s in order:
            points, rest, cards, jokers = summaries[s]
            predicted.append(lw[0] + lw[1] * rest + lw[2] * points + lw[3] * cards + lw[4] * jokers)
        quantiles = model["loser"]["quantiles"]
        share = 1.0 / (sum(weights) * len(quantiles))
        values = {seat: [0.0, 0.0] for seat in order}
        for first in range(k):
            ordered = order[first:] + order[:first]
            places = [(first + j) % k for j in range(k)]
            for q in quantiles:
                after = tuple(totals[ordered[0]] if j == 0 else
                              halve(totals[ordered[j]] + min(max(round(predicted[places[j]] + q), 1), 50))
                              for j in range(k))
                for j, final in enumerate(self.finals(after)):
                    cell = values[ordered[j]]
                    cell[0] += weights[first] * share * final
                    cell[1] += weights[first] * share * after[j]
        return {seat: (final, after) for seat, (final, after) in values.items()}

    def _out_values(self, totals: Sequence[int], order: Sequence[int]) -> list[float]:
        """The values of the seats out of the match (their totals, scaled) and 0 for ``order``."""
        table, points = self._scales(len(totals))
        values = [(table + points) * t for t in totals]
        for seat in order:
            values[seat] = 0.0
        return values

    def _scales(self, seats: int) -> tuple[float, float]:
        """The weights of the table's expected final totals and of the expected totals after the
        round in the value, at a table of ``seats``."""
        scales = self.model["scale"]
        table, points = scales.get(str(min(seats, max(int(k) for k in scales))), (1.0, 0.0))
        return table, points

    def value(self, state: Any) -> list[float]:
        order = turn_order(state)
        if state.is_terminal() or len(order) < 2:
            return self._out_values(state.totals, ())
        return self._values(state.totals, [hand_summary(h) for h in state.hands], order)

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
        rng = random.Random(_sample_seed(key))
        summaries = [hand_summary(h) for h in after.hands]
        totals = [0.0] * after.n
        for _ in range(DEAL_SAMPLES):
            cards = rng.sample(range(yg.NUM_CARDS), HAND_SIZE * len(order))
            for place, seat in enumerate(order):
                hand = cards[HAND_SIZE * place:HAND_SIZE * place + HAND_SIZE]
                summaries[seat] = hand_summary(sum(1 << c for c in hand))
            for seat, value in enumerate(self._values(after.totals, summaries, order)):
                totals[seat] += value
        return [total / DEAL_SAMPLES for total in totals]

    def _draw_expectation(self, before: YanivState, after: YanivState, seat: int) -> list[float]:
        """The exact mean of the value over the cards the stock could have given ``seat``."""
        summaries = [hand_summary(h) for h in after.hands]
        order = turn_order(after)
        held = before.hands[seat]
        outcomes: dict[tuple[int, int, int, int], int] = {}
        for card in before.stock:  # cards that leave the same summary give the same value
            summary = hand_summary(held | 1 << card)
            outcomes[summary] = outcomes.get(summary, 0) + 1
        totals = [0.0] * after.n
        for summary, count in outcomes.items():
            summaries[seat] = summary
            for other, value in enumerate(self._values(after.totals, summaries, order)):
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
