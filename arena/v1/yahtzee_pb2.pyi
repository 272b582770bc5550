from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class YahtzeeObservation(_message.Message):
    __slots__ = ("seat", "variant", "current_player", "dice", "rerolls_left", "round", "rounds", "cards")
    class Box(_message.Message):
        __slots__ = ("name", "filled", "score")
        NAME_FIELD_NUMBER: _ClassVar[int]
        FILLED_FIELD_NUMBER: _ClassVar[int]
        SCORE_FIELD_NUMBER: _ClassVar[int]
        name: str
        filled: bool
        score: int
        def __init__(self, name: _Optional[str] = ..., filled: _Optional[bool] = ..., score: _Optional[int] = ...) -> None: ...
    class Scorecard(_message.Message):
        __slots__ = ("boxes", "upper_total", "upper_bonus", "delta", "yahtzee_bonus", "total")
        BOXES_FIELD_NUMBER: _ClassVar[int]
        UPPER_TOTAL_FIELD_NUMBER: _ClassVar[int]
        UPPER_BONUS_FIELD_NUMBER: _ClassVar[int]
        DELTA_FIELD_NUMBER: _ClassVar[int]
        YAHTZEE_BONUS_FIELD_NUMBER: _ClassVar[int]
        TOTAL_FIELD_NUMBER: _ClassVar[int]
        boxes: _containers.RepeatedCompositeFieldContainer[YahtzeeObservation.Box]
        upper_total: int
        upper_bonus: int
        delta: int
        yahtzee_bonus: int
        total: int
        def __init__(self, boxes: _Optional[_Iterable[_Union[YahtzeeObservation.Box, _Mapping]]] = ..., upper_total: _Optional[int] = ..., upper_bonus: _Optional[int] = ..., delta: _Optional[int] = ..., yahtzee_bonus: _Optional[int] = ..., total: _Optional[int] = ...) -> None: ...
    SEAT_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    CURRENT_PLAYER_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    REROLLS_LEFT_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    variant: str
    current_player: int
    dice: _containers.RepeatedScalarFieldContainer[int]
    rerolls_left: int
    round: int
    rounds: int
    cards: _containers.RepeatedCompositeFieldContainer[YahtzeeObservation.Scorecard]
    def __init__(self, seat: _Optional[int] = ..., variant: _Optional[str] = ..., current_player: _Optional[int] = ..., dice: _Optional[_Iterable[int]] = ..., rerolls_left: _Optional[int] = ..., round: _Optional[int] = ..., rounds: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[YahtzeeObservation.Scorecard, _Mapping]]] = ...) -> None: ...

class YahtzeeAction(_message.Message):
    __slots__ = ("reroll", "score")
    class Reroll(_message.Message):
        __slots__ = ("dice",)
        DICE_FIELD_NUMBER: _ClassVar[int]
        dice: _containers.RepeatedScalarFieldContainer[int]
        def __init__(self, dice: _Optional[_Iterable[int]] = ...) -> None: ...
    class Score(_message.Message):
        __slots__ = ("box", "points", "bonus")
        BOX_FIELD_NUMBER: _ClassVar[int]
        POINTS_FIELD_NUMBER: _ClassVar[int]
        BONUS_FIELD_NUMBER: _ClassVar[int]
        box: str
        points: int
        bonus: int
        def __init__(self, box: _Optional[str] = ..., points: _Optional[int] = ..., bonus: _Optional[int] = ...) -> None: ...
    REROLL_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    reroll: YahtzeeAction.Reroll
    score: YahtzeeAction.Score
    def __init__(self, reroll: _Optional[_Union[YahtzeeAction.Reroll, _Mapping]] = ..., score: _Optional[_Union[YahtzeeAction.Score, _Mapping]] = ...) -> None: ...
