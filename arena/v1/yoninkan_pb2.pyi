from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class YoninkanObservation(_message.Message):
    __slots__ = ("seat", "phase", "current_player", "game_number", "games", "battle", "trump", "table", "hand", "trick_number", "leader", "trick", "led_suit", "tricks", "captured", "declarations", "my_group", "partner", "kan_seats", "shown_cards", "shown_by", "kan_needs", "mukan_needs", "right", "results", "scores", "last_game")
    class Phase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        PHASE_UNSPECIFIED: _ClassVar[YoninkanObservation.Phase]
        PHASE_PLAY: _ClassVar[YoninkanObservation.Phase]
        PHASE_RIGHT: _ClassVar[YoninkanObservation.Phase]
        PHASE_SHOW: _ClassVar[YoninkanObservation.Phase]
        PHASE_TRUMP: _ClassVar[YoninkanObservation.Phase]
        PHASE_OVER: _ClassVar[YoninkanObservation.Phase]
    PHASE_UNSPECIFIED: YoninkanObservation.Phase
    PHASE_PLAY: YoninkanObservation.Phase
    PHASE_RIGHT: YoninkanObservation.Phase
    PHASE_SHOW: YoninkanObservation.Phase
    PHASE_TRUMP: YoninkanObservation.Phase
    PHASE_OVER: YoninkanObservation.Phase
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    CURRENT_PLAYER_FIELD_NUMBER: _ClassVar[int]
    GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    BATTLE_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    TRICK_NUMBER_FIELD_NUMBER: _ClassVar[int]
    LEADER_FIELD_NUMBER: _ClassVar[int]
    TRICK_FIELD_NUMBER: _ClassVar[int]
    LED_SUIT_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    CAPTURED_FIELD_NUMBER: _ClassVar[int]
    DECLARATIONS_FIELD_NUMBER: _ClassVar[int]
    MY_GROUP_FIELD_NUMBER: _ClassVar[int]
    PARTNER_FIELD_NUMBER: _ClassVar[int]
    KAN_SEATS_FIELD_NUMBER: _ClassVar[int]
    SHOWN_CARDS_FIELD_NUMBER: _ClassVar[int]
    SHOWN_BY_FIELD_NUMBER: _ClassVar[int]
    KAN_NEEDS_FIELD_NUMBER: _ClassVar[int]
    MUKAN_NEEDS_FIELD_NUMBER: _ClassVar[int]
    RIGHT_FIELD_NUMBER: _ClassVar[int]
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    LAST_GAME_FIELD_NUMBER: _ClassVar[int]
    seat: int
    phase: YoninkanObservation.Phase
    current_player: int
    game_number: int
    games: int
    battle: int
    trump: str
    table: _containers.RepeatedScalarFieldContainer[int]
    hand: _containers.RepeatedScalarFieldContainer[str]
    trick_number: int
    leader: int
    trick: _containers.RepeatedCompositeFieldContainer[YoninkanPlay]
    led_suit: str
    tricks: _containers.RepeatedCompositeFieldContainer[YoninkanTrick]
    captured: _containers.RepeatedCompositeFieldContainer[YoninkanCards]
    declarations: _containers.RepeatedCompositeFieldContainer[YoninkanDeclaration]
    my_group: str
    partner: int
    kan_seats: _containers.RepeatedScalarFieldContainer[int]
    shown_cards: _containers.RepeatedScalarFieldContainer[str]
    shown_by: int
    kan_needs: int
    mukan_needs: int
    right: str
    results: _containers.RepeatedCompositeFieldContainer[YoninkanBattleResult]
    scores: _containers.RepeatedScalarFieldContainer[int]
    last_game: YoninkanGameResult
    def __init__(self, seat: _Optional[int] = ..., phase: _Optional[_Union[YoninkanObservation.Phase, str]] = ..., current_player: _Optional[int] = ..., game_number: _Optional[int] = ..., games: _Optional[int] = ..., battle: _Optional[int] = ..., trump: _Optional[str] = ..., table: _Optional[_Iterable[int]] = ..., hand: _Optional[_Iterable[str]] = ..., trick_number: _Optional[int] = ..., leader: _Optional[int] = ..., trick: _Optional[_Iterable[_Union[YoninkanPlay, _Mapping]]] = ..., led_suit: _Optional[str] = ..., tricks: _Optional[_Iterable[_Union[YoninkanTrick, _Mapping]]] = ..., captured: _Optional[_Iterable[_Union[YoninkanCards, _Mapping]]] = ..., declarations: _Optional[_Iterable[_Union[YoninkanDeclaration, _Mapping]]] = ..., my_group: _Optional[str] = ..., partner: _Optional[int] = ..., kan_seats: _Optional[_Iterable[int]] = ..., shown_cards: _Optional[_Iterable[str]] = ..., shown_by: _Optional[int] = ..., kan_needs: _Optional[int] = ..., mukan_needs: _Optional[int] = ..., right: _Optional[str] = ..., results: _Optional[_Iterable[_Union[YoninkanBattleResult, _Mapping]]] = ..., scores: _Optional[_Iterable[int]] = ..., last_game: _Optional[_Union[YoninkanGameResult, _Mapping]] = ...) -> None: ...

class YoninkanPlay(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ...) -> None: ...

class YoninkanTrick(_message.Message):
    __slots__ = ("number", "leader", "plays", "call", "winner")
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    LEADER_FIELD_NUMBER: _ClassVar[int]
    PLAYS_FIELD_NUMBER: _ClassVar[int]
    CALL_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    number: int
    leader: int
    plays: _containers.RepeatedCompositeFieldContainer[YoninkanPlay]
    call: str
    winner: int
    def __init__(self, number: _Optional[int] = ..., leader: _Optional[int] = ..., plays: _Optional[_Iterable[_Union[YoninkanPlay, _Mapping]]] = ..., call: _Optional[str] = ..., winner: _Optional[int] = ...) -> None: ...

class YoninkanCards(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, cards: _Optional[_Iterable[str]] = ...) -> None: ...

class YoninkanDeclaration(_message.Message):
    __slots__ = ("seat", "declaration")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DECLARATION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    declaration: str
    def __init__(self, seat: _Optional[int] = ..., declaration: _Optional[str] = ...) -> None: ...

class YoninkanBattleResult(_message.Message):
    __slots__ = ("winner", "bonus")
    WINNER_FIELD_NUMBER: _ClassVar[int]
    BONUS_FIELD_NUMBER: _ClassVar[int]
    winner: str
    bonus: str
    def __init__(self, winner: _Optional[str] = ..., bonus: _Optional[str] = ...) -> None: ...

class YoninkanGameResult(_message.Message):
    __slots__ = ("game_number", "kan_seats", "battles", "points")
    GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
    KAN_SEATS_FIELD_NUMBER: _ClassVar[int]
    BATTLES_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    game_number: int
    kan_seats: _containers.RepeatedScalarFieldContainer[int]
    battles: _containers.RepeatedCompositeFieldContainer[YoninkanBattleResult]
    points: int
    def __init__(self, game_number: _Optional[int] = ..., kan_seats: _Optional[_Iterable[int]] = ..., battles: _Optional[_Iterable[_Union[YoninkanBattleResult, _Mapping]]] = ..., points: _Optional[int] = ...) -> None: ...

class YoninkanAction(_message.Message):
    __slots__ = ("kind", "card", "call", "declaration", "cards", "suit")
    class Kind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        KIND_UNSPECIFIED: _ClassVar[YoninkanAction.Kind]
        KIND_PLAY: _ClassVar[YoninkanAction.Kind]
        KIND_DECLARE: _ClassVar[YoninkanAction.Kind]
        KIND_PASS: _ClassVar[YoninkanAction.Kind]
        KIND_SHOW: _ClassVar[YoninkanAction.Kind]
        KIND_TRUMP: _ClassVar[YoninkanAction.Kind]
    KIND_UNSPECIFIED: YoninkanAction.Kind
    KIND_PLAY: YoninkanAction.Kind
    KIND_DECLARE: YoninkanAction.Kind
    KIND_PASS: YoninkanAction.Kind
    KIND_SHOW: YoninkanAction.Kind
    KIND_TRUMP: YoninkanAction.Kind
    KIND_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    CALL_FIELD_NUMBER: _ClassVar[int]
    DECLARATION_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    SUIT_FIELD_NUMBER: _ClassVar[int]
    kind: YoninkanAction.Kind
    card: str
    call: str
    declaration: str
    cards: _containers.RepeatedScalarFieldContainer[str]
    suit: str
    def __init__(self, kind: _Optional[_Union[YoninkanAction.Kind, str]] = ..., card: _Optional[str] = ..., call: _Optional[str] = ..., declaration: _Optional[str] = ..., cards: _Optional[_Iterable[str]] = ..., suit: _Optional[str] = ...) -> None: ...
