"""Luck: how much of a seat's result the chance events of a match gave it.

A game's *estimator* (one module per game in this package, each a frozen, versioned
:class:`Estimator`) gives every seat's expected final score in any position.  At each chance
event of a match (a deal, a roll, a card drawn from the stock) the seat's luck is its
expected *result* after the event minus its expected result before it, that is, averaged
over everything the event could have produced from the same position::

    luck_i(event) = V_i(after) - E[V_i(after) | before]

and a seat's *adjusted* result is its result minus the sum of its luck.  When the
expectation is exact (or an unbiased sample of it), each luck term has mean zero whatever
happened before, so the adjusted result has the mean of the result whatever the estimator
(a poor estimator only removes less of the variance): docs/luck.md gives the argument and
its conditions, and where a game's estimator only approximates the expectation.

A seat's *result* here is its score relative to the table: its final score minus the mean
of the table's scores (negated in games where lower scores win), or the score itself at a
one-seat table.  It is a linear function of the scores, so expectations of scores map to
expectations of results exactly.

Everything here is pure Python over the engines: no gRPC, storage or CLI imports.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from referee.games import make_game
from referee.games.base import Game, State
from referee.result import MatchRecord

LUCK_FORMAT = 1
"""Version of :meth:`LuckReport.to_json`'s shape."""

_ESTIMATOR_MODULES = {
    "yahtzee": "referee.luck.yahtzee",
    "gin_rummy": "referee.luck.gin_rummy",
    "jass": "referee.luck.jass",
    "yaniv": "referee.luck.yaniv",
    "yoninkan": "referee.luck.yoninkan",
}


class LuckError(ValueError):
    """A record the estimator cannot analyse (unknown game, aborted or inconsistent match)."""


@dataclass(frozen=True)
class LuckStep:
    """One chance event and what it gave each seat."""

    move: int
    """How many of the record's moves were played when it happened (0: the first deal)."""
    text: str
    """What happened, in words a seat's view may show only when the event is public:
    e.g. ``"deal of hand 3"`` or ``"seat 1 rolls 3 dice"``."""
    luck: tuple[float, ...]
    """Per seat, in result points."""


@dataclass(frozen=True)
class LuckReport:
    """A match's luck, per seat, and the adjusted results."""

    estimator: str
    """``"game/version"``: which frozen estimator produced it."""
    result: tuple[float, ...]
    """Per seat: the result (score relative to the table, see the module docstring)."""
    luck: tuple[float, ...]
    """Per seat: the sum of the steps' luck."""
    steps: tuple[LuckStep, ...]

    @property
    def adjusted(self) -> tuple[float, ...]:
        return tuple(r - l for r, l in zip(self.result, self.luck))

    def to_json(self) -> dict[str, Any]:
        return {"format": LUCK_FORMAT, "estimator": self.estimator,
                "result": [round(x, 6) for x in self.result], "luck": [round(x, 6) for x in self.luck],
                "adjusted": [round(x, 6) for x in self.adjusted],
                "steps": [[s.move, s.text, [round(x, 4) for x in s.luck]] for s in self.steps]}

    @classmethod
    def from_json(cls, data: Any) -> LuckReport:
        """:raises ValueError: for anything but :meth:`to_json`'s shape."""
        if isinstance(data, str):
            data = json.loads(data)
        if not isinstance(data, dict) or data.get("format") != LUCK_FORMAT:
            raise ValueError("not a luck report of format 1")
        try:
            steps = tuple(LuckStep(int(move), str(text), tuple(float(x) for x in luck))
                          for move, text, luck in data["steps"])
            return cls(str(data["estimator"]), tuple(float(x) for x in data["result"]),
                       tuple(float(x) for x in data["luck"]), steps)
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"bad luck report: {error}") from None


def results_of(game: Game | type[Game], scores: Sequence[float]) -> tuple[float, ...]:
    """Each seat's result from the table's final (or expected) scores: see the module docstring."""
    if len(scores) == 1:
        return (float(scores[0]),)
    mean = sum(scores) / len(scores)
    sign = -1.0 if game.lower_scores_win else 1.0
    return tuple(sign * (float(s) - mean) for s in scores)


class Estimator(ABC):
    """A game's frozen value estimate and its chance model.

    Subclasses never change behaviour under the same :attr:`version`: a stored report names
    the version that made it, and a better estimator is a new version beside the old one.
    """

    game: ClassVar[str]
    version: ClassVar[int]
    for_verdicts: ClassVar[bool] = True
    """Whether ratings and the SPRT take this estimator's luck out (:func:`verdict_estimator`).
    ``False`` for a version measured to add variance where verdicts are made: its reports are
    still measured, stored and shown, and the verdicts read the plain results."""

    @property
    def name(self) -> str:
        return f"{self.game}/{self.version}"

    @abstractmethod
    def value(self, state: State[Any, Any]) -> Sequence[float]:
        """Every seat's expected final score from ``state`` (the referee's full view)."""

    @abstractmethod
    def initial(self, game: Game, state: State[Any, Any]) -> Sequence[float]:
        """Every seat's expected final score before the first deal of ``game``; ``state`` is
        the dealt position (the estimator must not let it choose the figure beyond what
        docs/luck.md allows, e.g. the dealer's seat)."""

    @abstractmethod
    def may_resolve_chance(self, state: State[Any, Any], action: Any) -> bool:
        """Whether applying ``action`` to ``state`` may resolve chance (a cheap test: the
        analysis copies the position only then)."""

    def snapshot(self, state: State[Any, Any]) -> State[Any, Any]:
        """What :meth:`chance` gets as ``before``: a copy of ``state`` that ``state.apply``
        leaves alone.  By default the whole state; an estimator that reads little of it may
        copy less (the analysis takes one at every event that may resolve chance)."""
        return state.clone()

    @abstractmethod
    def chance(self, before: State[Any, Any], action: Any, after: State[Any, Any]) -> tuple[str, Sequence[float]] | None:
        """``None`` when applying ``action`` to ``before`` resolved no chance; otherwise a short
        text for the event and every seat's expected final score over all the outcomes the
        chance could have produced from ``before`` (exact, or an unbiased estimate)."""


def estimator_for(game_name: str) -> Estimator:
    """The current estimator of a game.

    :raises LuckError: when the game has none.
    """
    module_name = _ESTIMATOR_MODULES.get(game_name)
    if module_name is None:
        raise LuckError(f"no luck estimator for game {game_name!r}")
    module = importlib.import_module(module_name)
    return module.ESTIMATOR  # type: ignore[no-any-return]


def verdict_estimator(game_name: str) -> Estimator | None:
    """The estimator whose luck ratings and the SPRT take out of ``game_name``'s results: its
    current one, unless that is not :attr:`~Estimator.for_verdicts`; ``None`` when there is none."""
    try:
        estimator = estimator_for(game_name)
    except LuckError:
        return None
    return estimator if estimator.for_verdicts else None


def analyse(record: MatchRecord, estimator: Estimator | None = None) -> LuckReport:
    """Replay ``record`` and measure each chance event's luck.

    :raises LuckError: for an aborted match, or a record the engine does not replay to its
        recorded scores.
    """
    if record.termination == "aborted":
        raise LuckError(f"the match was aborted ({record.reason}): it has no result")
    game = make_game(record.game, variant=record.variant, num_players=record.num_players, settings=record.settings)
    estimator = estimator or estimator_for(record.game)
    state = game.new_initial_state(record.seed)
    steps = [LuckStep(0, "the deal", _difference(game, estimator.value(state), estimator.initial(game, state)))]
    for number, move in enumerate(record.moves):
        legal = state.legal_actions()
        if state.is_terminal() or state.current_player() != move.seat or not 0 <= move.index < len(legal) \
                or str(legal[move.index]) != move.action:
            raise LuckError(f"move {number} does not replay")
        action = legal[move.index]
        if not estimator.may_resolve_chance(state, action):
            state.apply(action)
            continue
        before = estimator.snapshot(state)
        state.apply(action)
        found = estimator.chance(before, action, state)
        if found is not None:
            text, expected = found
            steps.append(LuckStep(number + 1, text, _difference(game, estimator.value(state), expected)))
    if not state.is_terminal():
        raise LuckError("the game is not over after the recorded moves")
    scores = state.outcome().scores
    if list(scores) != list(record.scores):
        raise LuckError(f"the replay scores {list(scores)}, the record says {record.scores}")
    result = results_of(game, scores)
    luck = tuple(sum(step.luck[seat] for step in steps) for seat in range(game.num_players))
    return LuckReport(estimator.name, result, luck, tuple(steps))


def report_json(record: MatchRecord) -> str | None:
    """The record's luck report as stored (compact JSON), or ``None`` when there is none: a game
    without an estimator, an aborted match, or an analysis that failed.  Never raises: a
    match's result is stored whether or not its luck could be measured (``arena luck`` can
    measure it later)."""
    if record.game not in _ESTIMATOR_MODULES or record.termination not in ("normal", "cap"):
        return None
    try:
        return json.dumps(analyse(record).to_json(), separators=(",", ":"))
    except Exception:  # noqa: BLE001 - an estimator's failure must not cost the match its result
        return None


def sampled_expectation(estimator: Estimator, before: State[Any, Any], action: Any,
                        reshuffle: Callable[[State[Any, Any], random.Random], None], samples: int,
                        key: Sequence[int]) -> list[float]:
    """An unbiased estimate of every seat's expected score after ``action``: the mean over
    ``samples`` copies of ``before`` whose hidden chance ``reshuffle`` draws again (the order
    of the undealt cards, the engine's random generator) from its true distribution given
    everything the referee knows, each then given ``action``.

    ``key`` (the match's seed and the move number, say) seeds the draws, so a report is
    reproducible; the draws are independent of the match's own chance.
    """
    rng = random.Random(_sample_seed(key))
    totals = [0.0] * before.game.num_players
    for _ in range(samples):
        copy = before.clone()
        reshuffle(copy, rng)
        copy.apply(action)
        for seat, value in enumerate(estimator.value(copy)):
            totals[seat] += value
    return [total / samples for total in totals]


def _sample_seed(key: Sequence[int]) -> int:
    digest = hashlib.blake2b(repr(("luck", *key)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def _difference(game: Game, after: Sequence[float], expected: Sequence[float]) -> tuple[float, ...]:
    return tuple(a - e for a, e in zip(results_of(game, after), results_of(game, expected)))
