"""Protobuf adapter for Jass (``arena/v1/jass.proto``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from arena.v1 import jass_pb2
from referee.games.cards import Card
from referee.games.jass import Choose, JassAction, JassObservation, Play, Push, Trick, Weis

FIELD: Final = "jass"
"""This game's field in the ``game`` oneof of ``Observation`` and ``Action``."""

_PHASES: Final = {
    "declare": jass_pb2.JassObservation.PHASE_DECLARE,
    "play": jass_pb2.JassObservation.PHASE_PLAY,
    "over": jass_pb2.JassObservation.PHASE_OVER,
}
_Kind = jass_pb2.JassAction.Kind


def _texts(cards: Iterable[Card]) -> list[str]:
    return [str(card) for card in cards]


def trick(t: Trick) -> jass_pb2.JassTrick:
    return jass_pb2.JassTrick(leader=t.leader, cards=_texts(t.cards), winner=t.winner, points=t.points)


def weis(w: Weis) -> jass_pb2.JassWeis:
    return jass_pb2.JassWeis(seat=w.seat, kind=w.kind, cards=_texts(w.cards), points=w.points)


def observation(obs: JassObservation) -> jass_pb2.JassObservation:
    """``obs`` as its protobuf message."""
    return jass_pb2.JassObservation(
        seat=obs.seat,
        phase=_PHASES[obs.phase],
        current_player=obs.current_player,
        hand=_texts(obs.hand),
        hand_number=obs.hand_number,
        dealer=obs.dealer,
        forehand=obs.forehand,
        mode=obs.mode,
        chooser=obs.chooser,
        pushed=obs.pushed,
        multiplier=obs.multiplier,
        trick=_texts(obs.trick),
        trick_leader=obs.trick_leader,
        tricks=[trick(t) for t in obs.tricks],
        weis=[weis(w) for w in obs.weis],
        weis_points=obs.weis_points,
        stoeck=obs.stoeck,
        hand_points=obs.hand_points,
        scores=obs.scores,
        target=obs.target,
    )


def action(a: JassAction) -> jass_pb2.JassAction:
    """``a`` as its protobuf message.

    :raises TypeError: if ``a`` is not a Jass action.
    """
    if isinstance(a, Play):
        return jass_pb2.JassAction(kind=_Kind.KIND_PLAY, card=str(a.card))
    if isinstance(a, Choose):
        return jass_pb2.JassAction(kind=_Kind.KIND_CHOOSE, mode=a.mode)
    if isinstance(a, Push):
        return jass_pb2.JassAction(kind=_Kind.KIND_PUSH)
    raise TypeError(f"not a Jass action: {a!r}")
