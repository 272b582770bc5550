from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class GinRummyObservation(_message.Message):
    __slots__ = ("seat", "variant", "phase", "current_player", "hand", "deadwood", "taken_card", "discard_pile", "opponent_took", "opponent_hand_size", "stock_size", "dealer", "hand_number", "knock_limit", "doubled", "scores", "hands_won", "target", "hands_to_win", "last_hand")
    class Phase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        PHASE_UNSPECIFIED: _ClassVar[GinRummyObservation.Phase]
        PHASE_OFFER: _ClassVar[GinRummyObservation.Phase]
        PHASE_DRAW: _ClassVar[GinRummyObservation.Phase]
        PHASE_DISCARD: _ClassVar[GinRummyObservation.Phase]
        PHASE_OVER: _ClassVar[GinRummyObservation.Phase]
    PHASE_UNSPECIFIED: GinRummyObservation.Phase
    PHASE_OFFER: GinRummyObservation.Phase
    PHASE_DRAW: GinRummyObservation.Phase
    PHASE_DISCARD: GinRummyObservation.Phase
    PHASE_OVER: GinRummyObservation.Phase
    SEAT_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    CURRENT_PLAYER_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    DEADWOOD_FIELD_NUMBER: _ClassVar[int]
    TAKEN_CARD_FIELD_NUMBER: _ClassVar[int]
    DISCARD_PILE_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_TOOK_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    STOCK_SIZE_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    HAND_NUMBER_FIELD_NUMBER: _ClassVar[int]
    KNOCK_LIMIT_FIELD_NUMBER: _ClassVar[int]
    DOUBLED_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    HANDS_WON_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    HANDS_TO_WIN_FIELD_NUMBER: _ClassVar[int]
    LAST_HAND_FIELD_NUMBER: _ClassVar[int]
    seat: int
    variant: str
    phase: GinRummyObservation.Phase
    current_player: int
    hand: _containers.RepeatedScalarFieldContainer[str]
    deadwood: int
    taken_card: str
    discard_pile: _containers.RepeatedScalarFieldContainer[str]
    opponent_took: _containers.RepeatedScalarFieldContainer[str]
    opponent_hand_size: int
    stock_size: int
    dealer: int
    hand_number: int
    knock_limit: int
    doubled: bool
    scores: _containers.RepeatedScalarFieldContainer[int]
    hands_won: _containers.RepeatedScalarFieldContainer[int]
    target: int
    hands_to_win: int
    last_hand: GinRummyHandResult
    def __init__(self, seat: _Optional[int] = ..., variant: _Optional[str] = ..., phase: _Optional[_Union[GinRummyObservation.Phase, str]] = ..., current_player: _Optional[int] = ..., hand: _Optional[_Iterable[str]] = ..., deadwood: _Optional[int] = ..., taken_card: _Optional[str] = ..., discard_pile: _Optional[_Iterable[str]] = ..., opponent_took: _Optional[_Iterable[str]] = ..., opponent_hand_size: _Optional[int] = ..., stock_size: _Optional[int] = ..., dealer: _Optional[int] = ..., hand_number: _Optional[int] = ..., knock_limit: _Optional[int] = ..., doubled: _Optional[bool] = ..., scores: _Optional[_Iterable[int]] = ..., hands_won: _Optional[_Iterable[int]] = ..., target: _Optional[int] = ..., hands_to_win: _Optional[int] = ..., last_hand: _Optional[_Union[GinRummyHandResult, _Mapping]] = ...) -> None: ...

class GinRummyHandResult(_message.Message):
    __slots__ = ("hand_number", "kind", "knocker", "winner", "points", "doubled", "knocker_melds", "knocker_unmatched", "knocker_deadwood", "defender_melds", "layoffs", "defender_unmatched", "defender_deadwood")
    HAND_NUMBER_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    KNOCKER_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    DOUBLED_FIELD_NUMBER: _ClassVar[int]
    KNOCKER_MELDS_FIELD_NUMBER: _ClassVar[int]
    KNOCKER_UNMATCHED_FIELD_NUMBER: _ClassVar[int]
    KNOCKER_DEADWOOD_FIELD_NUMBER: _ClassVar[int]
    DEFENDER_MELDS_FIELD_NUMBER: _ClassVar[int]
    LAYOFFS_FIELD_NUMBER: _ClassVar[int]
    DEFENDER_UNMATCHED_FIELD_NUMBER: _ClassVar[int]
    DEFENDER_DEADWOOD_FIELD_NUMBER: _ClassVar[int]
    hand_number: int
    kind: str
    knocker: int
    winner: int
    points: int
    doubled: bool
    knocker_melds: _containers.RepeatedCompositeFieldContainer[GinRummyMeld]
    knocker_unmatched: _containers.RepeatedScalarFieldContainer[str]
    knocker_deadwood: int
    defender_melds: _containers.RepeatedCompositeFieldContainer[GinRummyMeld]
    layoffs: _containers.RepeatedScalarFieldContainer[str]
    defender_unmatched: _containers.RepeatedScalarFieldContainer[str]
    defender_deadwood: int
    def __init__(self, hand_number: _Optional[int] = ..., kind: _Optional[str] = ..., knocker: _Optional[int] = ..., winner: _Optional[int] = ..., points: _Optional[int] = ..., doubled: _Optional[bool] = ..., knocker_melds: _Optional[_Iterable[_Union[GinRummyMeld, _Mapping]]] = ..., knocker_unmatched: _Optional[_Iterable[str]] = ..., knocker_deadwood: _Optional[int] = ..., defender_melds: _Optional[_Iterable[_Union[GinRummyMeld, _Mapping]]] = ..., layoffs: _Optional[_Iterable[str]] = ..., defender_unmatched: _Optional[_Iterable[str]] = ..., defender_deadwood: _Optional[int] = ...) -> None: ...

class GinRummyMeld(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, cards: _Optional[_Iterable[str]] = ...) -> None: ...

class GinRummyAction(_message.Message):
    __slots__ = ("kind", "card", "knock")
    class Kind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        KIND_UNSPECIFIED: _ClassVar[GinRummyAction.Kind]
        KIND_DRAW_STOCK: _ClassVar[GinRummyAction.Kind]
        KIND_TAKE_DISCARD: _ClassVar[GinRummyAction.Kind]
        KIND_PASS: _ClassVar[GinRummyAction.Kind]
        KIND_DISCARD: _ClassVar[GinRummyAction.Kind]
        KIND_BIG_GIN: _ClassVar[GinRummyAction.Kind]
    KIND_UNSPECIFIED: GinRummyAction.Kind
    KIND_DRAW_STOCK: GinRummyAction.Kind
    KIND_TAKE_DISCARD: GinRummyAction.Kind
    KIND_PASS: GinRummyAction.Kind
    KIND_DISCARD: GinRummyAction.Kind
    KIND_BIG_GIN: GinRummyAction.Kind
    KIND_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    KNOCK_FIELD_NUMBER: _ClassVar[int]
    kind: GinRummyAction.Kind
    card: str
    knock: bool
    def __init__(self, kind: _Optional[_Union[GinRummyAction.Kind, str]] = ..., card: _Optional[str] = ..., knock: _Optional[bool] = ...) -> None: ...
