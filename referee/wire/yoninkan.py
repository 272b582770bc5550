"""Protobuf adapter for Yoninkan (``arena/v1/yoninkan.proto``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from arena.v1 import yoninkan_pb2
from referee.games.cards import Card
from referee.games.yoninkan import (Declare, GameResult, NameTrump, Pass, Play, Show, TrickRecord, YoninkanAction,
                                    YoninkanObservation)

FIELD: Final = "yoninkan"
"""This game's field in the ``game`` oneof of ``Observation`` and ``Action``."""

_Obs = yoninkan_pb2.YoninkanObservation
_PHASES: Final = {"play": _Obs.PHASE_PLAY, "right": _Obs.PHASE_RIGHT, "show": _Obs.PHASE_SHOW,
                  "trump": _Obs.PHASE_TRUMP, "over": _Obs.PHASE_OVER}
_Kind = yoninkan_pb2.YoninkanAction.Kind


def _texts(cards: Iterable[Card]) -> list[str]:
    return [str(card) for card in cards]


def _plays(plays: Iterable[tuple[int, Card]]) -> list[yoninkan_pb2.YoninkanPlay]:
    return [yoninkan_pb2.YoninkanPlay(seat=seat, card=str(card)) for seat, card in plays]


def _results(results: Iterable[tuple[str, str | None]]) -> list[yoninkan_pb2.YoninkanBattleResult]:
    return [yoninkan_pb2.YoninkanBattleResult(winner=winner, bonus=bonus or "") for winner, bonus in results]


def trick(record: TrickRecord) -> yoninkan_pb2.YoninkanTrick:
    return yoninkan_pb2.YoninkanTrick(number=record.number, leader=record.leader, plays=_plays(record.plays),
                                      call=record.call, winner=record.winner)


def game_result(result: GameResult) -> yoninkan_pb2.YoninkanGameResult:
    return yoninkan_pb2.YoninkanGameResult(game_number=result.game_number, kan_seats=result.kan_seats,
                                           battles=_results(result.battles), points=result.points)


def observation(obs: YoninkanObservation) -> yoninkan_pb2.YoninkanObservation:
    """``obs`` as its protobuf message."""
    message = _Obs(
        seat=obs.seat, phase=_PHASES[obs.phase], current_player=obs.current_player, game_number=obs.game_number,
        games=obs.games, battle=obs.battle, trump=obs.trump, table=obs.table, hand=_texts(obs.hand),
        trick_number=obs.trick_number, leader=obs.leader, trick=_plays(obs.trick), led_suit=obs.led_suit,
        tricks=[trick(t) for t in obs.tricks],
        captured=[yoninkan_pb2.YoninkanCards(cards=_texts(cards)) for cards in obs.captured],
        declarations=[yoninkan_pb2.YoninkanDeclaration(seat=seat, declaration=name)
                      for seat, name in obs.declarations],
        my_group=obs.my_group, partner=obs.partner, kan_seats=obs.kan_seats, shown_cards=_texts(obs.shown_cards),
        shown_by=obs.shown_by, kan_needs=obs.kan_needs, mukan_needs=obs.mukan_needs, right=obs.right,
        results=_results(obs.results), scores=obs.scores,
    )
    if obs.last_game is not None:
        message.last_game.CopyFrom(game_result(obs.last_game))
    return message


def action(a: YoninkanAction) -> yoninkan_pb2.YoninkanAction:
    """``a`` as its protobuf message.

    :raises TypeError: if ``a`` is not a Yoninkan action.
    """
    if isinstance(a, Play):
        return yoninkan_pb2.YoninkanAction(kind=_Kind.KIND_PLAY, card=str(a.card), call=a.call,
                                           declaration=a.declaration)
    if isinstance(a, Declare):
        return yoninkan_pb2.YoninkanAction(kind=_Kind.KIND_DECLARE, declaration=a.declaration)
    if isinstance(a, Pass):
        return yoninkan_pb2.YoninkanAction(kind=_Kind.KIND_PASS)
    if isinstance(a, Show):
        return yoninkan_pb2.YoninkanAction(kind=_Kind.KIND_SHOW, cards=_texts(a.cards))
    if isinstance(a, NameTrump):
        return yoninkan_pb2.YoninkanAction(kind=_Kind.KIND_TRUMP, suit=a.suit)
    raise TypeError(f"not a Yoninkan action: {a!r}")
