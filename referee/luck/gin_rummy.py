"""Gin Rummy's luck estimator, version 1 (every variant): docs/luck.md, section Gin Rummy.

The value of a position is seat 0's expected final score margin ``D`` (seat 1's is ``-D``):
the realised margin (points, plus 25 a hand won for the box bonus; Straight: hands won)
plus a frozen linear model of what the rest of the match adds.  The model has two stages,
both linear and antisymmetric in the seats (so swapping the seats negates ``D``):

1. *the hand*: the current hand's expected margin ``m`` from each seat's deadwood (after the
   best discard when it holds 11 cards), its distance to the knock limit, whether it may
   knock or has gin, what the discard-pile top would save it, who acts and deals, and the
   stock left;
2. *the match*: the margin still to come from ``m`` and a few smooth functions of the race
   to the target with ``m`` added (the game, box and shutout bonuses).

The coefficients live in ``models/gin_rummy-1.json``, fitted by scripts/fit_luck_gin_rummy.py
on seeds no test or benchmark uses; :data:`MODEL_DIGESTS` pins the file's SHA-256 to the
version, so a refit is a new version.

Chance events: a card drawn from the stock (the exact average over the stock's cards, from
the drawer's deadwood with each card, without copying the state) and each hand's deal after
the first (an unbiased sample of deals, antithetic pairs with the two hands swapped).  The
first deal, dealer included, gets a constant: both seats are dealt alike, so its luck has
mean zero for each seat (docs/luck.md).
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, Final

from referee.games import gin_rummy_melds as gm
from referee.games.base import Game, State
from referee.games.gin_rummy import BigGin, Discard, DrawStock, GinRummyState, TakeDiscard, knock_limit_of
from referee.luck import Estimator

VERSION: Final = 1
MODEL_FILE: Final = "models/gin_rummy-1.json"
MODEL_DIGESTS: Final[dict[int, str]] = {
    1: "28497ca811d1179b8fc8d20dbc903946169db4013a6b2337b7d3831371d3fdf9",
}
"""SHA-256 of each version's model file: a changed file needs a new version."""

DEAL_PAIRS: Final = 8
"""Antithetic pairs of deals sampled for a deal's expectation."""

_BOX: Final = 25
_NIBBLES: Final = 0x1111111111111
_FOURS: Final = _NIBBLES << 2
_FIVES: Final = 0x5555555555555
_THREES: Final = 0x3333333333333
_STOCK_DEALT: Final = 31
_KAPPAS: Final = (0.25, 0.5, 1.0, 2.0)
_RACE_SCALES: Final = (0.5, 1.5)
HAND_FEATURES: Final = ("deadwood", "over_limit", "may_knock", "gin", "to_act", "take_gain", "deadwood_x_stock",
                        "over_limit_x_stock", "may_knock_x_stock", "take_gain_x_stock", "dealer",
                        *(f"knock_race_{k}" for k in _RACE_SCALES))
"""Per seat, seat 0's minus seat 1's; then the race to knock, tanh(k (seat 1's over_limit -
seat 0's)): how far ahead seat 0 is saturates, so against a hand far from knocking one more
good card changes little."""
MATCH_FEATURES: Final = ("hand", *(f"race_{k}" for k in _KAPPAS), "shutout")


def _seat_features(dw: int, limit: int, to_act: bool, take_gain: int, dealer: bool, stock: float) -> tuple[float, ...]:
    over = max(dw - limit, 0) / 10
    knock = 1.0 if dw <= limit else 0.0
    gain = take_gain / 10
    return (dw / 10, over, knock, 1.0 if dw == 0 else 0.0, 1.0 if to_act else 0.0, gain,
            dw / 10 * stock, over * stock, knock * stock, gain * stock, 1.0 if dealer else 0.0)


@dataclass(frozen=True)
class Position:
    """What the value reads from a position, all of it the referee's (both hands)."""

    variant: str
    deadwood: tuple[int, int]
    """Each seat's deadwood, after its best discard when it holds 11 cards."""
    take_gain: tuple[int, int]
    """What taking the pile's top would save the seat to act (0 when it may not take it)."""
    to_act: int
    dealer: int
    stock: int
    limit: int
    doubled: bool
    scores: tuple[int, int]
    hands_won: tuple[int, int]
    target: int
    """Points to reach; Straight: hands to win."""


def _seat(p: Position, seat: int, deadwood: int | None = None) -> tuple[float, ...]:
    dw = p.deadwood[seat] if deadwood is None else deadwood
    return _seat_features(dw, p.limit, p.to_act == seat, p.take_gain[seat], p.dealer == seat, p.stock / _STOCK_DEALT)


def _hand_row(mine: tuple[float, ...], theirs: tuple[float, ...]) -> list[float]:
    """One seat's hand features against the other's (see :data:`HAND_FEATURES`)."""
    return [x - y for x, y in zip(mine, theirs)] + [math.tanh(k * (theirs[1] - mine[1])) for k in _RACE_SCALES]


def hand_features(p: Position) -> list[float]:
    """Seat 0's hand features (see :data:`HAND_FEATURES`)."""
    return _hand_row(_seat(p, 0), _seat(p, 1))


def match_features(p: Position, hand: float) -> list[float]:
    """The match stage's features given the hand stage's margin ``hand`` (doubling included)."""
    if p.variant == "straight":
        left = (p.target - p.hands_won[0], p.target - p.hands_won[1])
        unit = 1.0
    else:
        left = (max(p.target - p.scores[0], 0), max(p.target - p.scores[1], 0))
        unit = float(_BOX)
    z = (left[1] - left[0] + hand) / math.sqrt(left[0] + left[1] + unit)
    races = [math.tanh(k * z) for k in _KAPPAS]
    shutout = 0.0
    if p.variant != "straight":
        t = races[1]
        shutout = (p.hands_won[1] == 0) * (1 + t) / 2 - (p.hands_won[0] == 0) * (1 - t) / 2
    return [hand, *races, shutout]


def realised(p: Position) -> int:
    """Seat 0's margin so far as the final scores will count it (the box bonus included)."""
    if p.variant == "straight":
        return p.hands_won[0] - p.hands_won[1]
    return p.scores[0] - p.scores[1] + _BOX * (p.hands_won[0] - p.hands_won[1])


def _dot(w: Sequence[float], x: Sequence[float]) -> float:
    return sum(a * b for a, b in zip(w, x))


def features(weights: dict[str, Any], p: Position, seat: int = 0, deadwoods: Sequence[int] | None = None
             ) -> list[list[float]]:
    """The value's features (:data:`MATCH_FEATURES`) of ``p``, or of ``p`` with each of
    ``deadwoods`` for ``seat``'s deadwood (one pass for a stock draw's outcomes, which change
    only the drawer's deadwood).  The value is ``realised(p)`` plus their dot product with the
    variant's ``match`` weights."""
    other = _seat(p, 1 - seat)
    scale = (1 if seat == 0 else -1) * (2 if p.doubled else 1)
    w_hand = weights["hand"]
    return [match_features(p, scale * _dot(w_hand, _hand_row(_seat(p, seat, dw), other)))
            for dw in (deadwoods if deadwoods is not None else [p.deadwood[seat]])]


def margin(model: dict[str, Any], p: Position) -> float:
    """Seat 0's expected final margin from ``p``."""
    weights = model[p.variant]
    return realised(p) + _dot(weights["match"], features(weights, p)[0])


# --- deadwood -----------------------------------------------------------------------------

@functools.lru_cache(maxsize=1 << 16)
def _covers(mask: int) -> list[tuple[int, int]]:
    """``(cover, melded value)`` of every packing of ``mask``'s melds, the empty one first."""
    melds = [(m, gm.MELD_VALUES[m]) for m in gm.find_melds(mask)]
    out = [(0, 0)]

    def extend(start: int, used: int, value: int) -> None:
        for i in range(start, len(melds)):
            meld, v = melds[i]
            if not meld & used:
                out.append((used | meld, value + v))
                extend(i + 1, used | meld, value + v)

    extend(0, 0, 0)
    return out


def _top_value(mask: int) -> int:
    """The highest card value in ``mask`` (card indices are rank-major), 0 when empty."""
    return gm.VALUES[mask.bit_length() - 1] if mask else 0


@functools.lru_cache(maxsize=1 << 16)
def after_discard(mask: int) -> int:
    """The least deadwood an 11-card hand keeps after one discard (any card)."""
    total = gm.hand_value(mask)
    return total - max(v + _top_value(mask ^ u) for u, v in _covers(mask))


@functools.lru_cache(maxsize=1 << 16)
def _deadwood(mask: int) -> int:
    return after_discard(mask) if mask.bit_count() > 10 else gm.min_deadwood(mask)


def fitting(hand: int) -> int:
    """The cards that may join a meld with cards of ``hand`` (two of its rank, or two
    neighbours of a run); any other card drawn only adds its value to the deadwood."""
    counts = hand - ((hand >> 1) & _FIVES)
    counts = (counts & _THREES) + ((counts >> 2) & _THREES)
    pairs = ((counts + 2 * _NIBBLES) & _FOURS) >> 2  # bit 0 of each nibble holding 2 or more cards
    runs = (hand << 4 & hand >> 4) | (hand << 4 & hand << 8) | (hand >> 4 & hand >> 8)
    return (pairs * 0b1111 | runs) & gm.FULL_DECK & ~hand


def draw_deadwoods(hand: int, stock: Sequence[int]) -> dict[int, int]:
    """How many stock cards leave each deadwood (after the best discard) when drawn to the
    10 cards ``hand``: the cards that meld with nothing only add their value, so one pass
    over ``hand``'s packings serves them all."""
    counts: dict[int, int] = {}
    plain: dict[int, int] = {}
    fits = fitting(hand)
    for card in stock:
        if fits >> card & 1:
            dw = after_discard(hand | 1 << card)
            counts[dw] = counts.get(dw, 0) + 1
        else:
            value = gm.VALUES[card]
            plain[value] = plain.get(value, 0) + 1
    if plain:
        total = gm.hand_value(hand)
        covers = [(total - v, _top_value(hand ^ u)) for u, v in _covers(hand)]
        for value, n in plain.items():
            dw = min(left + value - max(top, value) for left, top in covers)
            counts[dw] = counts.get(dw, 0) + n
    return counts


# --- the estimator ------------------------------------------------------------------------

def load_model(version: int = VERSION) -> dict[str, Any]:
    """The frozen coefficients of ``version``.

    :raises ValueError: when the file's digest is not the one pinned for the version.
    """
    data = resources.files("referee.luck").joinpath(f"models/gin_rummy-{version}.json").read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if MODEL_DIGESTS.get(version) != digest:
        raise ValueError(f"models/gin_rummy-{version}.json has digest {digest}, not the one version {version} "
                         "was frozen with: a changed model is a new version")
    model = json.loads(data)
    if model.get("version") != version:
        raise ValueError(f"models/gin_rummy-{version}.json says version {model.get('version')}")
    return model["variants"]  # type: ignore[no-any-return]


def position(state: GinRummyState) -> Position:
    """The :class:`Position` of a referee's state (not terminal)."""
    hands = state.hands
    to_act = state.to_play
    gains = [0, 0]
    if hands[to_act].bit_count() == 10 and any(isinstance(a, TakeDiscard) for a in state.legal_actions()):
        own = _deadwood(hands[to_act])
        gains[to_act] = own - min(own, after_discard(hands[to_act] | 1 << state.discard_pile[-1]))
    return _position_of(state, (_deadwood(hands[0]), _deadwood(hands[1])), (gains[0], gains[1]))


def _position_of(state: GinRummyState, deadwood: tuple[int, int], gains: tuple[int, int], *, stock: int | None = None,
                 to_act: int | None = None, limit: int | None = None, doubled: bool | None = None) -> Position:
    game = state.game
    straight = game.variant == "straight"
    return Position(game.variant, deadwood, gains, state.to_play if to_act is None else to_act, state.dealer,
                    len(state.stock) if stock is None else stock, state.knock_limit if limit is None else limit,
                    state.doubled if doubled is None else doubled, (state.scores[0], state.scores[1]),
                    (state.hands_won[0], state.hands_won[1]),
                    int(game.settings["hands_to_win"]) if straight else game.target)


def _scores(state: GinRummyState, d: float) -> list[float]:
    """Expected final scores with margin ``d``: only the margin matters to results."""
    mean = sum(state.final_scores()) / 2
    return [mean + d / 2, mean - d / 2]


class GinRummyEstimator(Estimator):
    """Version 1: see the module docstring."""

    game = "gin_rummy"
    version = VERSION

    def __init__(self) -> None:
        self._model: dict[str, Any] | None = None

    @property
    def model(self) -> dict[str, Any]:
        if self._model is None:
            self._model = load_model(self.version)
        return self._model

    def value(self, state: State[Any, Any]) -> Sequence[float]:
        assert isinstance(state, GinRummyState)
        if state.is_terminal():
            return [float(s) for s in state.final_scores()]
        return _scores(state, margin(self.model, position(state)))

    def initial(self, game: Game, state: State[Any, Any]) -> Sequence[float]:
        return [0.0, 0.0]  # the same for both seats: the first deal, dealer included, is symmetric

    def may_resolve_chance(self, state: State[Any, Any], action: Any) -> bool:
        assert isinstance(state, GinRummyState)
        if isinstance(action, (DrawStock, BigGin)):
            return True
        return isinstance(action, Discard) and (action.knock or len(state.stock) <= 2
                                                or state.draws >= int(state.game.settings["max_draws_per_hand"]))

    def snapshot(self, state: State[Any, Any]) -> State[Any, Any]:
        """A shallow copy with its own copies of the lists a move changes: :meth:`chance` reads
        no history and no random generator, so neither is copied."""
        copied = copy.copy(state)
        for name in ("scores", "hands_won", "hands", "discard_pile", "stock", "took"):
            setattr(copied, name, list(getattr(state, name)))
        return copied

    def chance(self, before: State[Any, Any], action: Any, after: State[Any, Any]) -> tuple[str, Sequence[float]] | None:
        assert isinstance(before, GinRummyState) and isinstance(after, GinRummyState)
        if isinstance(action, DrawStock):
            return f"seat {before.to_play} draws from the stock", self.draw_expectation(before)
        if after.hand_number == before.hand_number or after.is_terminal():
            return None
        return f"deal of hand {after.hand_number}", self.deal_expectation(after)

    def draw_expectation(self, before: GinRummyState) -> list[float]:
        """The exact mean value over the stock's cards of ``before`` after ``draw stock``."""
        weights = self.model[before.game.variant]
        return _scores(before, realised(_position_of(before, (0, 0), (0, 0))) + _dot(weights["match"], draw_features(weights, before)))

    def deal_expectation(self, after: GinRummyState) -> list[float]:
        """An unbiased estimate of the value over the deals of ``after``'s hand (see
        :func:`deal_features`)."""
        weights = self.model[after.game.variant]
        expected = _dot(weights["match"], deal_features(weights, after, self.version))
        return _scores(after, realised(_position_of(after, (0, 0), (0, 0))) + expected)


def draw_features(weights: dict[str, Any], before: GinRummyState) -> list[float]:
    """The exact mean of :func:`features` over the stock's cards of ``before`` after ``draw stock``."""
    seat = before.to_play
    deadwood = [0, 0]
    deadwood[1 - seat] = _deadwood(before.hands[1 - seat])
    p = _position_of(before, (deadwood[0], deadwood[1]), (0, 0), stock=len(before.stock) - 1)
    counts = draw_deadwoods(before.hands[seat], before.stock)
    rows = features(weights, p, seat, list(counts))
    total = [0.0] * len(rows[0])
    for n, row in zip(counts.values(), rows):
        for i, x in enumerate(row):
            total[i] += n * x
    return [x / len(before.stock) for x in total]


def deal_features(weights: dict[str, Any], after: GinRummyState, version: int = VERSION) -> list[float]:
    """An unbiased estimate of the mean of :func:`features` over the deals of ``after``'s hand:
    the mean over :data:`DEAL_PAIRS` uniform deals, each also with the two hands swapped (as
    likely), seeded by the match's seed and the hand's number."""
    rng = random.Random(f"gin_rummy/{version}/{after.seed}/{after.hand_number}")
    first = 1 - after.dealer
    variant = after.game.variant
    total: list[float] = []
    for _ in range(DEAL_PAIRS):
        cards = rng.sample(range(gm.NUM_CARDS), 21)
        upcard = cards[20]
        a = sum(1 << c for c in cards[:10])
        b = sum(1 << c for c in cards[10:20])
        limit = knock_limit_of(gm.CARDS[upcard]) if variant == "oklahoma" else 0 if variant == "straight" else 10
        doubled = variant == "oklahoma" and upcard % 4 == 0
        for mine, theirs in ((a, b), (b, a)):
            own = _deadwood(mine)
            gain = own - min(own, after_discard(mine | 1 << upcard))
            deadwood = (own, _deadwood(theirs)) if first == 0 else (_deadwood(theirs), own)
            gains = (gain, 0) if first == 0 else (0, gain)
            row = features(weights, _position_of(after, deadwood, gains, stock=_STOCK_DEALT, to_act=first,
                                                 limit=limit, doubled=doubled))[0]
            total = [t + x for t, x in zip(total, row)] if total else row
    return [t / (2 * DEAL_PAIRS) for t in total]


ESTIMATOR: Final = GinRummyEstimator()
