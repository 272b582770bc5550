from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class JassObservation(_message.Message):
    __slots__ = ("seat", "phase", "current_player", "hand", "hand_number", "dealer", "forehand", "mode", "chooser", "pushed", "multiplier", "trick", "trick_leader", "tricks", "weis", "weis_points", "stoeck", "hand_points", "scores", "target")
    class Phase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        PHASE_UNSPECIFIED: _ClassVar[JassObservation.Phase]
        PHASE_DECLARE: _ClassVar[JassObservation.Phase]
        PHASE_PLAY: _ClassVar[JassObservation.Phase]
        PHASE_OVER: _ClassVar[JassObservation.Phase]
    PHASE_UNSPECIFIED: JassObservation.Phase
    PHASE_DECLARE: JassObservation.Phase
    PHASE_PLAY: JassObservation.Phase
    PHASE_OVER: JassObservation.Phase
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    CURRENT_PLAYER_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    HAND_NUMBER_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    FOREHAND_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    CHOOSER_FIELD_NUMBER: _ClassVar[int]
    PUSHED_FIELD_NUMBER: _ClassVar[int]
    MULTIPLIER_FIELD_NUMBER: _ClassVar[int]
    TRICK_FIELD_NUMBER: _ClassVar[int]
    TRICK_LEADER_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    WEIS_FIELD_NUMBER: _ClassVar[int]
    WEIS_POINTS_FIELD_NUMBER: _ClassVar[int]
    STOECK_FIELD_NUMBER: _ClassVar[int]
    HAND_POINTS_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    seat: int
    phase: JassObservation.Phase
    current_player: int
    hand: _containers.RepeatedScalarFieldContainer[str]
    hand_number: int
    dealer: int
    forehand: int
    mode: str
    chooser: int
    pushed: bool
    multiplier: int
    trick: _containers.RepeatedScalarFieldContainer[str]
    trick_leader: int
    tricks: _containers.RepeatedCompositeFieldContainer[JassTrick]
    weis: _containers.RepeatedCompositeFieldContainer[JassWeis]
    weis_points: int
    stoeck: int
    hand_points: _containers.RepeatedScalarFieldContainer[int]
    scores: _containers.RepeatedScalarFieldContainer[int]
    target: int
    def __init__(self, seat: _Optional[int] = ..., phase: _Optional[_Union[JassObservation.Phase, str]] = ..., current_player: _Optional[int] = ..., hand: _Optional[_Iterable[str]] = ..., hand_number: _Optional[int] = ..., dealer: _Optional[int] = ..., forehand: _Optional[int] = ..., mode: _Optional[str] = ..., chooser: _Optional[int] = ..., pushed: _Optional[bool] = ..., multiplier: _Optional[int] = ..., trick: _Optional[_Iterable[str]] = ..., trick_leader: _Optional[int] = ..., tricks: _Optional[_Iterable[_Union[JassTrick, _Mapping]]] = ..., weis: _Optional[_Iterable[_Union[JassWeis, _Mapping]]] = ..., weis_points: _Optional[int] = ..., stoeck: _Optional[int] = ..., hand_points: _Optional[_Iterable[int]] = ..., scores: _Optional[_Iterable[int]] = ..., target: _Optional[int] = ...) -> None: ...

class JassTrick(_message.Message):
    __slots__ = ("leader", "cards", "winner", "points")
    LEADER_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    leader: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    winner: int
    points: int
    def __init__(self, leader: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ..., winner: _Optional[int] = ..., points: _Optional[int] = ...) -> None: ...

class JassWeis(_message.Message):
    __slots__ = ("seat", "kind", "cards", "points")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    kind: str
    cards: _containers.RepeatedScalarFieldContainer[str]
    points: int
    def __init__(self, seat: _Optional[int] = ..., kind: _Optional[str] = ..., cards: _Optional[_Iterable[str]] = ..., points: _Optional[int] = ...) -> None: ...

class JassAction(_message.Message):
    __slots__ = ("kind", "mode", "card")
    class Kind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        KIND_UNSPECIFIED: _ClassVar[JassAction.Kind]
        KIND_CHOOSE: _ClassVar[JassAction.Kind]
        KIND_PUSH: _ClassVar[JassAction.Kind]
        KIND_PLAY: _ClassVar[JassAction.Kind]
    KIND_UNSPECIFIED: JassAction.Kind
    KIND_CHOOSE: JassAction.Kind
    KIND_PUSH: JassAction.Kind
    KIND_PLAY: JassAction.Kind
    KIND_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    kind: JassAction.Kind
    mode: str
    card: str
    def __init__(self, kind: _Optional[_Union[JassAction.Kind, str]] = ..., mode: _Optional[str] = ..., card: _Optional[str] = ...) -> None: ...
