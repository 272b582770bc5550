from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class YanivObservation(_message.Message):
    __slots__ = ("seat", "phase", "current_player", "round_number", "starter", "turn", "hand", "hand_value", "hand_sizes", "stock_size", "draw_group", "discards", "dead", "took", "totals", "out_round", "last_round")
    class Phase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        PHASE_UNSPECIFIED: _ClassVar[YanivObservation.Phase]
        PHASE_DISCARD: _ClassVar[YanivObservation.Phase]
        PHASE_DRAW: _ClassVar[YanivObservation.Phase]
        PHASE_OVER: _ClassVar[YanivObservation.Phase]
    PHASE_UNSPECIFIED: YanivObservation.Phase
    PHASE_DISCARD: YanivObservation.Phase
    PHASE_DRAW: YanivObservation.Phase
    PHASE_OVER: YanivObservation.Phase
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    CURRENT_PLAYER_FIELD_NUMBER: _ClassVar[int]
    ROUND_NUMBER_FIELD_NUMBER: _ClassVar[int]
    STARTER_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    HAND_VALUE_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZES_FIELD_NUMBER: _ClassVar[int]
    STOCK_SIZE_FIELD_NUMBER: _ClassVar[int]
    DRAW_GROUP_FIELD_NUMBER: _ClassVar[int]
    DISCARDS_FIELD_NUMBER: _ClassVar[int]
    DEAD_FIELD_NUMBER: _ClassVar[int]
    TOOK_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    OUT_ROUND_FIELD_NUMBER: _ClassVar[int]
    LAST_ROUND_FIELD_NUMBER: _ClassVar[int]
    seat: int
    phase: YanivObservation.Phase
    current_player: int
    round_number: int
    starter: int
    turn: int
    hand: _containers.RepeatedScalarFieldContainer[str]
    hand_value: int
    hand_sizes: _containers.RepeatedScalarFieldContainer[int]
    stock_size: int
    draw_group: _containers.RepeatedScalarFieldContainer[str]
    discards: _containers.RepeatedCompositeFieldContainer[YanivGroup]
    dead: _containers.RepeatedScalarFieldContainer[str]
    took: _containers.RepeatedCompositeFieldContainer[YanivCards]
    totals: _containers.RepeatedScalarFieldContainer[int]
    out_round: _containers.RepeatedScalarFieldContainer[int]
    last_round: YanivRoundResult
    def __init__(self, seat: _Optional[int] = ..., phase: _Optional[_Union[YanivObservation.Phase, str]] = ..., current_player: _Optional[int] = ..., round_number: _Optional[int] = ..., starter: _Optional[int] = ..., turn: _Optional[int] = ..., hand: _Optional[_Iterable[str]] = ..., hand_value: _Optional[int] = ..., hand_sizes: _Optional[_Iterable[int]] = ..., stock_size: _Optional[int] = ..., draw_group: _Optional[_Iterable[str]] = ..., discards: _Optional[_Iterable[_Union[YanivGroup, _Mapping]]] = ..., dead: _Optional[_Iterable[str]] = ..., took: _Optional[_Iterable[_Union[YanivCards, _Mapping]]] = ..., totals: _Optional[_Iterable[int]] = ..., out_round: _Optional[_Iterable[int]] = ..., last_round: _Optional[_Union[YanivRoundResult, _Mapping]] = ...) -> None: ...

class YanivCards(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, cards: _Optional[_Iterable[str]] = ...) -> None: ...

class YanivGroup(_message.Message):
    __slots__ = ("seat", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ...) -> None: ...

class YanivRoundResult(_message.Message):
    __slots__ = ("round_number", "kind", "declarer", "assaf_by", "hands", "hand_values", "round_scores", "totals", "halved", "eliminated")
    ROUND_NUMBER_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    DECLARER_FIELD_NUMBER: _ClassVar[int]
    ASSAF_BY_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    HAND_VALUES_FIELD_NUMBER: _ClassVar[int]
    ROUND_SCORES_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    HALVED_FIELD_NUMBER: _ClassVar[int]
    ELIMINATED_FIELD_NUMBER: _ClassVar[int]
    round_number: int
    kind: str
    declarer: int
    assaf_by: _containers.RepeatedScalarFieldContainer[int]
    hands: _containers.RepeatedCompositeFieldContainer[YanivCards]
    hand_values: _containers.RepeatedScalarFieldContainer[int]
    round_scores: _containers.RepeatedScalarFieldContainer[int]
    totals: _containers.RepeatedScalarFieldContainer[int]
    halved: _containers.RepeatedScalarFieldContainer[str]
    eliminated: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, round_number: _Optional[int] = ..., kind: _Optional[str] = ..., declarer: _Optional[int] = ..., assaf_by: _Optional[_Iterable[int]] = ..., hands: _Optional[_Iterable[_Union[YanivCards, _Mapping]]] = ..., hand_values: _Optional[_Iterable[int]] = ..., round_scores: _Optional[_Iterable[int]] = ..., totals: _Optional[_Iterable[int]] = ..., halved: _Optional[_Iterable[str]] = ..., eliminated: _Optional[_Iterable[int]] = ...) -> None: ...

class YanivAction(_message.Message):
    __slots__ = ("kind", "cards")
    class Kind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        KIND_UNSPECIFIED: _ClassVar[YanivAction.Kind]
        KIND_YANIV: _ClassVar[YanivAction.Kind]
        KIND_DISCARD: _ClassVar[YanivAction.Kind]
        KIND_DRAW_STOCK: _ClassVar[YanivAction.Kind]
        KIND_TAKE: _ClassVar[YanivAction.Kind]
    KIND_UNSPECIFIED: YanivAction.Kind
    KIND_YANIV: YanivAction.Kind
    KIND_DISCARD: YanivAction.Kind
    KIND_DRAW_STOCK: YanivAction.Kind
    KIND_TAKE: YanivAction.Kind
    KIND_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    kind: YanivAction.Kind
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, kind: _Optional[_Union[YanivAction.Kind, str]] = ..., cards: _Optional[_Iterable[str]] = ...) -> None: ...
