"""The engine interface every game implements.

A :class:`Game` is a frozen configuration (variant, number of seats, settings) and a factory
of :class:`State` objects.  A state knows whose decision it is, enumerates the legal actions
in a deterministic order, applies an action (always validated: the referee has no unchecked
path), builds one seat's :class:`Observation` and, when terminal, the :class:`Outcome`.

Chance (shuffles, dice) is not a player: each state owns one ``random.Random(seed)`` and
resolves chance inside :meth:`State.apply`, so a match is reproduced from
``(game, variant, settings, seed, actions)`` alone and replay logs hold only decisions.
Tests that need a stacked deck or fixed dice use the engine's own keyword-only hooks.

Engines are pure Python: no gRPC, storage or CLI imports.  Conversion to protobuf lives in
:mod:`referee.wire`.
"""

from __future__ import annotations

import copy
import enum
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Generic, TypeVar

Seat = int
"""A seat number, ``0..n-1`` in play order."""

TERMINAL: Final[Seat] = -1
"""What :meth:`State.current_player` returns once the game is over."""

CHANCE: Final[Seat] = -2
"""The ``seat`` of an :class:`Event` that no player caused (a roll, a deal)."""


class InvalidActionError(ValueError):
    """An action that is malformed: not an action of this game at all."""


class IllegalActionError(ValueError):
    """A well-formed action that the rules do not allow in this position."""


class SettingsError(ValueError):
    """A game configuration the engine cannot play (bad variant, seat count or setting)."""


class Termination(enum.Enum):
    """Why a game ended."""

    NORMAL = "normal"
    """The rules ended it."""
    CAP = "cap"
    """A safety cap (turns, rounds) ended it; docs/rules.md names each cap."""


@dataclass(frozen=True)
class Outcome:
    """The end of a game: per-seat scores and a ranking with ties."""

    scores: tuple[float, ...]
    """Final score per seat (for team games, each seat carries its team's score)."""
    ranking: tuple[int, ...]
    """Rank per seat, 0 is best; equal numbers are ties (competition ranking: 0, 0, 2)."""
    termination: Termination = Termination.NORMAL
    detail: str = ""
    """One human-readable line for logs."""

    @property
    def winners(self) -> tuple[Seat, ...]:
        """The seats ranked first."""
        return tuple(seat for seat, rank in enumerate(self.ranking) if rank == 0)


def player_count_text(low: int, high: int) -> str:
    """How many players a game seats, for messages: ``"4 players"``, not ``"4 to 4 players"``.

    >>> player_count_text(2, 8), player_count_text(4, 4), player_count_text(1, 1)
    ('2 to 8 players', '4 players', '1 player')
    """
    count = str(low) if low == high else f"{low} to {high}"
    return f"{count} player{'' if high == 1 else 's'}"


def competition_ranking(keys: Sequence[float], *, higher_is_better: bool = True) -> tuple[int, ...]:
    """Rank seats by ``keys``: each seat's rank is the number of seats strictly better.

    >>> competition_ranking([10, 30, 30, 5])
    (2, 0, 0, 3)
    """
    if higher_is_better:
        return tuple(sum(1 for other in keys if other > key) for key in keys)
    return tuple(sum(1 for other in keys if other < key) for key in keys)


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, as the referee tells it to the seats allowed to see it.

    Observations carry the events since the seat's previous decision, so a bot learns what
    the others did without diffing states.
    """

    seat: Seat
    """Who acted, or :data:`CHANCE`."""
    text: str
    """One line for logs and bots, e.g. ``"seat 1 scores 25 in full_house"``."""
    action: Any = None
    """The action taken, when the event is a decision (its typed form goes on the wire)."""
    visible_to: frozenset[Seat] | None = None
    """Seats that may see this event; ``None`` means everyone."""
    milestone: bool = False
    """The end of a hand, round, battle or the match: the lines of a match's short summary
    (``arena play`` without ``-v``)."""

    def visible(self, seat: Seat) -> bool:
        return self.visible_to is None or seat in self.visible_to


class Immutable:
    """Base of an engine's action types: an action never changes, so a copy is the action
    itself, and :meth:`State.clone` (a deep copy) shares the cached legal actions' objects."""

    __slots__ = ()

    def __copy__(self) -> Any:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        return self


@dataclass(frozen=True)
class Setting:
    """One game setting: its name, type, default and the range the engine accepts."""

    name: str
    default: int | str | bool
    help: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] | None = None

    def parse(self, value: Any) -> int | str | bool:
        """Convert ``value`` (often text from a CLI or the wire) to this setting's type.

        :raises SettingsError: when the value has the wrong type or is out of range.
        """
        kind = type(self.default)
        try:
            if kind is bool:
                if isinstance(value, str):
                    if value.lower() not in ("true", "false", "1", "0", "yes", "no"):
                        raise ValueError(value)
                    parsed: int | str | bool = value.lower() in ("true", "1", "yes")
                else:
                    parsed = bool(value)
            else:
                parsed = kind(value)
        except (TypeError, ValueError):
            raise SettingsError(f"setting {self.name!r} must be {kind.__name__}, got {value!r}") from None
        if self.choices is not None and parsed not in self.choices:
            raise SettingsError(f"setting {self.name!r} must be one of {', '.join(self.choices)}; got {parsed!r}")
        if isinstance(parsed, int) and not isinstance(parsed, bool):
            if self.minimum is not None and parsed < self.minimum:
                raise SettingsError(f"setting {self.name!r} must be at least {self.minimum}; got {parsed}")
            if self.maximum is not None and parsed > self.maximum:
                raise SettingsError(f"setting {self.name!r} must be at most {self.maximum}; got {parsed}")
        return parsed


ActionT = TypeVar("ActionT")
ObservationT = TypeVar("ObservationT")


class Game(ABC):
    """A game's configuration and the factory of its states.

    Subclasses declare their metadata as class attributes and are listed in
    :data:`referee.games.GAMES`.
    """

    name: ClassVar[str]
    """Registry name, e.g. ``"yahtzee"``."""
    variants: ClassVar[tuple[str, ...]]
    """Variant names; the first is the default."""
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int]
    settings_spec: ClassVar[tuple[Setting, ...]] = ()
    short_match_settings: ClassVar[Mapping[str, Any]] = {}
    """Settings for a short match (``arena check-bot``, smoke tests): e.g. fewer hands."""
    teams: ClassVar[tuple[tuple[Seat, ...], ...] | None] = None
    """Fixed partnerships (Jass), or ``None`` for every-seat-for-itself games."""
    lower_scores_win: ClassVar[bool] = False
    """True when a lower score is better (Yaniv's penalty points): tables of mean scores say so."""

    def __init__(self, *, variant: str | None = None, num_players: int | None = None,
                 settings: Mapping[str, Any] | None = None) -> None:
        self.variant: str = variant or self.variants[0]
        if self.variant not in self.variants:
            raise SettingsError(f"{self.name} has no variant {self.variant!r} (variants: {', '.join(self.variants)})")
        self.num_players: int = self.default_players if num_players is None else num_players
        if not self.min_players <= self.num_players <= self.max_players:
            raise SettingsError(f"{self.name} is played by {player_count_text(self.min_players, self.max_players)}, "
                                f"not {self.num_players}")
        known = {s.name: s for s in self.settings_spec}
        given = dict(settings or {})
        unknown = sorted(set(given) - set(known))
        if unknown:
            listed = ", ".join(known) or "none"
            raise SettingsError(f"{self.name} has no setting {unknown[0]!r} (settings: {listed})")
        self.settings: dict[str, Any] = {name: spec.parse(given[name]) if name in given else spec.default
                                         for name, spec in known.items()}

    @abstractmethod
    def new_initial_state(self, seed: int) -> State[Any, Any]:
        """A fresh game whose every chance event comes from ``random.Random(seed)``."""

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(variant={self.variant!r}, num_players={self.num_players}, "
                f"settings={self.settings!r})")


class State(ABC, Generic[ActionT, ObservationT]):
    """One position of a game, mutated in place by :meth:`apply`."""

    def __init__(self, game: Game, seed: int) -> None:
        self.game = game
        self.seed = seed
        self.rng = random.Random(seed)
        self.events: list[Event] = []
        """Everything that happened, in order; :meth:`events_for` filters one seat's view."""
        self._legal: list[ActionT] | None = None

    # --- the fixed API -------------------------------------------------------------------
    @abstractmethod
    def current_player(self) -> Seat:
        """The seat that decides next, or :data:`TERMINAL`."""

    @abstractmethod
    def _legal_actions(self) -> list[ActionT]:
        """Compute the legal actions (:meth:`legal_actions` caches them until the next apply)."""

    def legal_actions(self) -> list[ActionT]:
        """The actions :meth:`current_player` may take, in a deterministic order.

        Empty exactly when the state is terminal.  Computed once per position: the referee
        asks for the list and then applies one of them, which checks it again.
        """
        if self._legal is None:
            self._legal = self._legal_actions()
        return list(self._legal)

    @abstractmethod
    def _apply(self, action: ActionT) -> None:
        """Apply an action already known to be legal."""

    @abstractmethod
    def observe(self, seat: Seat) -> ObservationT:
        """What ``seat`` may know now: the only place private information is filtered."""

    @abstractmethod
    def outcome(self) -> Outcome:
        """Scores and ranking.

        :raises ValueError: if the game is not over.
        """

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_legal(self, action: ActionT) -> bool:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_actions()
        for candidate in legal:  # the referee applies an object from the list: cheap identity first
            if candidate is action:
                return True
        return action in legal

    def apply(self, action: ActionT) -> None:
        """Validate and apply ``action`` for :meth:`current_player`.

        :raises IllegalActionError: if the action is not legal here (the state is unchanged).
        """
        if self.is_terminal():
            raise IllegalActionError(f"the game is over; {action} cannot be played")
        if not self.is_legal(action):
            raise IllegalActionError(f"{action} is not legal for seat {self.current_player()} now")
        self._legal = None
        self._apply(action)

    def clone(self) -> State[ActionT, ObservationT]:
        """An independent copy, random generator included."""
        return copy.deepcopy(self)

    def events_for(self, seat: Seat, since: int = 0) -> list[Event]:
        """The events from index ``since`` on that ``seat`` may see."""
        return [event for event in self.events[since:] if event.visible(seat)]

    def log(self, seat: Seat, text: str, action: Any = None, visible_to: frozenset[Seat] | None = None, *,
            milestone: bool = False) -> None:
        """Record an :class:`Event` (engines call this from :meth:`_apply`)."""
        self.events.append(Event(seat, text, action, visible_to, milestone))

