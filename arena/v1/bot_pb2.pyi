from arena.v1 import yahtzee_pb2 as _yahtzee_pb2
from arena.v1 import gin_rummy_pb2 as _gin_rummy_pb2
from arena.v1 import yaniv_pb2 as _yaniv_pb2
from arena.v1 import yoninkan_pb2 as _yoninkan_pb2
from arena.v1 import jass_pb2 as _jass_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ProtocolVersion(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PROTOCOL_VERSION_UNSPECIFIED: _ClassVar[ProtocolVersion]
    PROTOCOL_VERSION_1: _ClassVar[ProtocolVersion]
PROTOCOL_VERSION_UNSPECIFIED: ProtocolVersion
PROTOCOL_VERSION_1: ProtocolVersion

class IdentifyRequest(_message.Message):
    __slots__ = ("protocol_version",)
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    protocol_version: int
    def __init__(self, protocol_version: _Optional[int] = ...) -> None: ...

class BotInfo(_message.Message):
    __slots__ = ("name", "version", "author", "protocol_version", "games")
    NAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    AUTHOR_FIELD_NUMBER: _ClassVar[int]
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    name: str
    version: str
    author: str
    protocol_version: int
    games: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, name: _Optional[str] = ..., version: _Optional[str] = ..., author: _Optional[str] = ..., protocol_version: _Optional[int] = ..., games: _Optional[_Iterable[str]] = ...) -> None: ...

class TimeControl(_message.Message):
    __slots__ = ("move_timeout_ms", "time_bank_ms", "max_faults")
    MOVE_TIMEOUT_MS_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_MS_FIELD_NUMBER: _ClassVar[int]
    MAX_FAULTS_FIELD_NUMBER: _ClassVar[int]
    move_timeout_ms: int
    time_bank_ms: int
    max_faults: int
    def __init__(self, move_timeout_ms: _Optional[int] = ..., time_bank_ms: _Optional[int] = ..., max_faults: _Optional[int] = ...) -> None: ...

class StartMatchRequest(_message.Message):
    __slots__ = ("match_id", "game", "variant", "settings", "seat", "players", "time_control")
    class SettingsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    TIME_CONTROL_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    game: str
    variant: str
    settings: _containers.ScalarMap[str, str]
    seat: int
    players: _containers.RepeatedScalarFieldContainer[str]
    time_control: TimeControl
    def __init__(self, match_id: _Optional[str] = ..., game: _Optional[str] = ..., variant: _Optional[str] = ..., settings: _Optional[_Mapping[str, str]] = ..., seat: _Optional[int] = ..., players: _Optional[_Iterable[str]] = ..., time_control: _Optional[_Union[TimeControl, _Mapping]] = ...) -> None: ...

class StartMatchResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class DecideRequest(_message.Message):
    __slots__ = ("match_id", "decision_number", "observation", "legal_actions", "time_left_ms", "bank_left_ms")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    DECISION_NUMBER_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    TIME_LEFT_MS_FIELD_NUMBER: _ClassVar[int]
    BANK_LEFT_MS_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    decision_number: int
    observation: Observation
    legal_actions: _containers.RepeatedCompositeFieldContainer[Action]
    time_left_ms: int
    bank_left_ms: int
    def __init__(self, match_id: _Optional[str] = ..., decision_number: _Optional[int] = ..., observation: _Optional[_Union[Observation, _Mapping]] = ..., legal_actions: _Optional[_Iterable[_Union[Action, _Mapping]]] = ..., time_left_ms: _Optional[int] = ..., bank_left_ms: _Optional[int] = ...) -> None: ...

class DecideResponse(_message.Message):
    __slots__ = ("action_index", "comment")
    ACTION_INDEX_FIELD_NUMBER: _ClassVar[int]
    COMMENT_FIELD_NUMBER: _ClassVar[int]
    action_index: int
    comment: str
    def __init__(self, action_index: _Optional[int] = ..., comment: _Optional[str] = ...) -> None: ...

class Observation(_message.Message):
    __slots__ = ("text", "events", "yahtzee", "gin_rummy", "yaniv", "yoninkan", "jass")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    YAHTZEE_FIELD_NUMBER: _ClassVar[int]
    GIN_RUMMY_FIELD_NUMBER: _ClassVar[int]
    YANIV_FIELD_NUMBER: _ClassVar[int]
    YONINKAN_FIELD_NUMBER: _ClassVar[int]
    JASS_FIELD_NUMBER: _ClassVar[int]
    text: str
    events: _containers.RepeatedCompositeFieldContainer[Event]
    yahtzee: _yahtzee_pb2.YahtzeeObservation
    gin_rummy: _gin_rummy_pb2.GinRummyObservation
    yaniv: _yaniv_pb2.YanivObservation
    yoninkan: _yoninkan_pb2.YoninkanObservation
    jass: _jass_pb2.JassObservation
    def __init__(self, text: _Optional[str] = ..., events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., yahtzee: _Optional[_Union[_yahtzee_pb2.YahtzeeObservation, _Mapping]] = ..., gin_rummy: _Optional[_Union[_gin_rummy_pb2.GinRummyObservation, _Mapping]] = ..., yaniv: _Optional[_Union[_yaniv_pb2.YanivObservation, _Mapping]] = ..., yoninkan: _Optional[_Union[_yoninkan_pb2.YoninkanObservation, _Mapping]] = ..., jass: _Optional[_Union[_jass_pb2.JassObservation, _Mapping]] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("seat", "text", "action")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    text: str
    action: Action
    def __init__(self, seat: _Optional[int] = ..., text: _Optional[str] = ..., action: _Optional[_Union[Action, _Mapping]] = ...) -> None: ...

class Action(_message.Message):
    __slots__ = ("text", "yahtzee", "gin_rummy", "yaniv", "yoninkan", "jass")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    YAHTZEE_FIELD_NUMBER: _ClassVar[int]
    GIN_RUMMY_FIELD_NUMBER: _ClassVar[int]
    YANIV_FIELD_NUMBER: _ClassVar[int]
    YONINKAN_FIELD_NUMBER: _ClassVar[int]
    JASS_FIELD_NUMBER: _ClassVar[int]
    text: str
    yahtzee: _yahtzee_pb2.YahtzeeAction
    gin_rummy: _gin_rummy_pb2.GinRummyAction
    yaniv: _yaniv_pb2.YanivAction
    yoninkan: _yoninkan_pb2.YoninkanAction
    jass: _jass_pb2.JassAction
    def __init__(self, text: _Optional[str] = ..., yahtzee: _Optional[_Union[_yahtzee_pb2.YahtzeeAction, _Mapping]] = ..., gin_rummy: _Optional[_Union[_gin_rummy_pb2.GinRummyAction, _Mapping]] = ..., yaniv: _Optional[_Union[_yaniv_pb2.YanivAction, _Mapping]] = ..., yoninkan: _Optional[_Union[_yoninkan_pb2.YoninkanAction, _Mapping]] = ..., jass: _Optional[_Union[_jass_pb2.JassAction, _Mapping]] = ...) -> None: ...

class EndMatchRequest(_message.Message):
    __slots__ = ("match_id", "scores", "ranking", "reason", "observation")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    RANKING_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    scores: _containers.RepeatedScalarFieldContainer[float]
    ranking: _containers.RepeatedScalarFieldContainer[int]
    reason: str
    observation: Observation
    def __init__(self, match_id: _Optional[str] = ..., scores: _Optional[_Iterable[float]] = ..., ranking: _Optional[_Iterable[int]] = ..., reason: _Optional[str] = ..., observation: _Optional[_Union[Observation, _Mapping]] = ...) -> None: ...

class EndMatchResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...
