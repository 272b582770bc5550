"""Protobuf adapter for Gin Rummy (``arena/v1/gin_rummy.proto``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from arena.v1 import gin_rummy_pb2
from referee.games.cards import Card
from referee.games.gin_rummy import (BigGin, Discard, DrawStock, GinRummyAction, GinRummyObservation, HandResult,
                                     Pass, TakeDiscard)

FIELD: Final = "gin_rummy"
"""This game's field in the ``game`` oneof of ``Observation`` and ``Action``."""

_PHASES: Final = {
    "offer": gin_rummy_pb2.GinRummyObservation.PHASE_OFFER,
    "draw": gin_rummy_pb2.GinRummyObservation.PHASE_DRAW,
    "discard": gin_rummy_pb2.GinRummyObservation.PHASE_DISCARD,
    "over": gin_rummy_pb2.GinRummyObservation.PHASE_OVER,
}
_Kind = gin_rummy_pb2.GinRummyAction.Kind


def _texts(cards: Iterable[Card]) -> list[str]:
    return list(map(str, cards))


def hand_result(result: HandResult) -> gin_rummy_pb2.GinRummyHandResult:
    """A finished hand as its protobuf message (only number and kind for a void hand)."""
    message = gin_rummy_pb2.GinRummyHandResult(hand_number=result.hand_number, kind=result.kind,
                                               doubled=result.doubled)
    score = result.score
    if score is None or result.knocker is None or result.winner is None:
        return message
    message.knocker = result.knocker
    message.winner = result.winner
    message.points = result.points
    message.knocker_melds.extend(gin_rummy_pb2.GinRummyMeld(cards=_texts(m)) for m in score.knocker_melds)
    message.knocker_unmatched.extend(_texts(score.knocker_unmatched))
    message.knocker_deadwood = score.knocker_deadwood
    message.defender_melds.extend(gin_rummy_pb2.GinRummyMeld(cards=_texts(m)) for m in score.defender_melds)
    message.layoffs.extend(_texts(score.layoffs))
    message.defender_unmatched.extend(_texts(score.defender_unmatched))
    message.defender_deadwood = score.defender_deadwood
    return message


def observation(obs: GinRummyObservation) -> gin_rummy_pb2.GinRummyObservation:
    """``obs`` as its protobuf message."""
    message = gin_rummy_pb2.GinRummyObservation(
        seat=obs.seat,
        variant=obs.variant,
        phase=_PHASES[obs.phase],
        current_player=obs.current_player,
        hand=_texts(obs.hand),
        deadwood=obs.deadwood,
        taken_card="" if obs.taken_card is None else str(obs.taken_card),
        discard_pile=_texts(obs.discard_pile),
        opponent_took=_texts(obs.opponent_took),
        opponent_hand_size=obs.opponent_hand_size,
        stock_size=obs.stock_size,
        dealer=obs.dealer,
        hand_number=obs.hand_number,
        knock_limit=obs.knock_limit,
        doubled=obs.doubled,
        scores=obs.scores,
        hands_won=obs.hands_won,
        target=obs.target,
        hands_to_win=obs.hands_to_win,
    )
    if obs.last_hand is not None:
        message.last_hand.CopyFrom(hand_result(obs.last_hand))
    return message


def action(a: GinRummyAction) -> gin_rummy_pb2.GinRummyAction:
    """``a`` as its protobuf message.

    :raises TypeError: if ``a`` is not a Gin Rummy action.
    """
    if isinstance(a, Discard):
        return gin_rummy_pb2.GinRummyAction(kind=_Kind.KIND_DISCARD, card=str(a.card), knock=a.knock)
    if isinstance(a, DrawStock):
        return gin_rummy_pb2.GinRummyAction(kind=_Kind.KIND_DRAW_STOCK)
    if isinstance(a, TakeDiscard):
        return gin_rummy_pb2.GinRummyAction(kind=_Kind.KIND_TAKE_DISCARD, card=str(a.card))
    if isinstance(a, Pass):
        return gin_rummy_pb2.GinRummyAction(kind=_Kind.KIND_PASS)
    if isinstance(a, BigGin):
        return gin_rummy_pb2.GinRummyAction(kind=_Kind.KIND_BIG_GIN)
    raise TypeError(f"not a Gin Rummy action: {a!r}")
