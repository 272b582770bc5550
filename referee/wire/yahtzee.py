"""Protobuf adapter for Yahtzee and Yams (``arena/v1/yahtzee.proto``)."""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from arena.v1 import yahtzee_pb2
from referee.games.yahtzee import Reroll, Score, YahtzeeAction, YahtzeeObservation
from referee.games.yahtzee_scoring import delta, upper_bonus, upper_total
from referee.wire import delimited

FIELD: Final = "yahtzee"
"""This game's field in the ``game`` oneof of ``Observation`` and ``Action``."""


@lru_cache(maxsize=4096)
def _scorecard(variant: str, boxes: tuple[str, ...], scores: tuple[int | None, ...], bonus: int,
               total: int) -> yahtzee_pb2.YahtzeeObservation.Scorecard:
    """One seat's card as a message, built once per distinct card: a card changes once a turn
    while the referee sends every seat's card with every request.  The caller copies it
    (protobuf constructors copy message arguments), so the cached one is never changed."""
    card = dict(zip(boxes, scores, strict=True))
    return yahtzee_pb2.YahtzeeObservation.Scorecard(
        boxes=[yahtzee_pb2.YahtzeeObservation.Box(name=box, filled=score is not None, score=score or 0)
               for box, score in card.items()],
        upper_total=upper_total(card),
        upper_bonus=upper_bonus(variant, card),
        delta=delta(variant, card),
        yahtzee_bonus=bonus,
        total=total,
    )


def _without_cards(obs: YahtzeeObservation) -> yahtzee_pb2.YahtzeeObservation:
    return yahtzee_pb2.YahtzeeObservation(
        seat=obs.seat,
        variant=obs.variant,
        current_player=obs.current_player,
        dice=obs.dice,
        rerolls_left=obs.rerolls_left,
        round=obs.round,
        rounds=obs.rounds,
    )


def observation(obs: YahtzeeObservation) -> yahtzee_pb2.YahtzeeObservation:
    """``obs`` as its protobuf message, scorecards with their computed totals."""
    message = _without_cards(obs)
    message.cards.extend(_scorecard(obs.variant, obs.boxes, obs.cards[seat], obs.yahtzee_bonus[seat], total)
                         for seat, total in enumerate(obs.totals))
    return message


_CARDS_KEY: Final = bytes([yahtzee_pb2.YahtzeeObservation.DESCRIPTOR.fields_by_name["cards"].number << 3 | 2])


@lru_cache(maxsize=4096)
def _scorecard_field(variant: str, boxes: tuple[str, ...], scores: tuple[int | None, ...], bonus: int,
                     total: int) -> bytes:
    """One ``cards`` entry, serialised once per distinct card."""
    return delimited(_CARDS_KEY, _scorecard(variant, boxes, scores, bonus, total).SerializeToString())


def observation_bytes(obs: YahtzeeObservation) -> bytes:
    """``observation(obs)`` serialised: the same bytes, with each seat's card serialised once
    per distinct card (``cards`` is the last field, so it goes last either way)."""
    return _without_cards(obs).SerializeToString() + b"".join(
        [_scorecard_field(obs.variant, obs.boxes, obs.cards[seat], obs.yahtzee_bonus[seat], total)
         for seat, total in enumerate(obs.totals)])


def action(a: YahtzeeAction) -> yahtzee_pb2.YahtzeeAction:
    """``a`` as its protobuf message.

    :raises TypeError: if ``a`` is not a Yahtzee action.
    """
    if isinstance(a, Reroll):
        return yahtzee_pb2.YahtzeeAction(reroll=yahtzee_pb2.YahtzeeAction.Reroll(dice=a.dice))
    if isinstance(a, Score):
        return yahtzee_pb2.YahtzeeAction(score=yahtzee_pb2.YahtzeeAction.Score(box=a.box, points=a.points,
                                                                               bonus=a.bonus))
    raise TypeError(f"not a Yahtzee action: {a!r}")
