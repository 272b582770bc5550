"""Protobuf adapter for Yaniv (``arena/v1/yaniv.proto``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from arena.v1 import yaniv_pb2
from referee.games.cards import Card
from referee.games.yaniv import (Discard, DrawStock, RoundResult, TakeCard, Yaniv, YanivAction,
                                 YanivObservation)

FIELD: Final = "yaniv"
"""This game's field in the ``game`` oneof of ``Observation`` and ``Action``."""

_PHASES: Final = {
    "discard": yaniv_pb2.YanivObservation.PHASE_DISCARD,
    "draw": yaniv_pb2.YanivObservation.PHASE_DRAW,
    "over": yaniv_pb2.YanivObservation.PHASE_OVER,
}
_Kind = yaniv_pb2.YanivAction.Kind


def _texts(cards: Iterable[Card]) -> list[str]:
    return [str(card) for card in cards]


def _per_seat(groups: Iterable[Iterable[Card]]) -> list[yaniv_pb2.YanivCards]:
    return [yaniv_pb2.YanivCards(cards=_texts(group)) for group in groups]


def round_result(result: RoundResult) -> yaniv_pb2.YanivRoundResult:
    """A finished round as its protobuf message."""
    return yaniv_pb2.YanivRoundResult(
        round_number=result.round_number, kind=result.kind,
        declarer=-1 if result.declarer is None else result.declarer, assaf_by=result.assaf_by,
        hands=_per_seat(result.hands), hand_values=result.hand_values, round_scores=result.round_scores,
        totals=result.totals, halved=result.halved, eliminated=result.eliminated)


def observation(obs: YanivObservation) -> yaniv_pb2.YanivObservation:
    """``obs`` as its protobuf message."""
    message = yaniv_pb2.YanivObservation(
        seat=obs.seat,
        phase=_PHASES[obs.phase],
        current_player=obs.current_player,
        round_number=obs.round_number,
        starter=obs.starter,
        turn=obs.turn,
        hand=_texts(obs.hand),
        hand_value=obs.hand_value,
        hand_sizes=obs.hand_sizes,
        stock_size=obs.stock_size,
        draw_group=_texts(obs.draw_group),
        discards=[yaniv_pb2.YanivGroup(seat=seat, cards=_texts(cards)) for seat, cards in obs.discards],
        dead=_texts(obs.dead),
        took=_per_seat(obs.took),
        totals=obs.totals,
        out_round=obs.out_round,
    )
    if obs.last_round is not None:
        message.last_round.CopyFrom(round_result(obs.last_round))
    return message


def action(a: YanivAction) -> yaniv_pb2.YanivAction:
    """``a`` as its protobuf message.

    :raises TypeError: if ``a`` is not a Yaniv action.
    """
    if isinstance(a, Discard):
        return yaniv_pb2.YanivAction(kind=_Kind.KIND_DISCARD, cards=[str(c) for c in a.cards])
    if isinstance(a, DrawStock):
        return yaniv_pb2.YanivAction(kind=_Kind.KIND_DRAW_STOCK)
    if isinstance(a, TakeCard):
        return yaniv_pb2.YanivAction(kind=_Kind.KIND_TAKE, cards=[str(a.card)])
    if isinstance(a, Yaniv):
        return yaniv_pb2.YanivAction(kind=_Kind.KIND_YANIV)
    raise TypeError(f"not a Yaniv action: {a!r}")
