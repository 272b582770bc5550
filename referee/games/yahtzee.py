"""Yahtzee and its French variant Yams, for 1 to 8 players (docs/rules/yahtzee.md).

A turn: the engine rolls five dice for the current seat, who may reroll any chosen dice up
to twice, then must fill one empty box of their card.  Seats take turns in order; the game
ends once every card is full and the highest total wins (ties allowed).  With one player it
is a solitaire: the score is what matters and the lone seat ranks 0.

Dice are kept sorted, so a :class:`Reroll` names the *multiset* of values to roll again
(``Reroll((3, 3, 6))`` rerolls two 3s and the 6) and equivalent choices collapse into one
action.  A :class:`Score` names the box and carries the points it writes (and the Yahtzee
bonus it earns), so a bot sees each choice's value in the action list.

Legal actions, in this order: one :class:`Score` per box that may be filled now (card
order), then, while rerolls remain, one :class:`Reroll` per distinct non-empty multiset of
the dice (fewest dice first, then ascending).

Scoring is in :mod:`referee.games.yahtzee_scoring`; this module re-exports
:func:`score_box`, :func:`yahtzee_bonus`, :func:`fillable_boxes`, :func:`upper_bonus`,
:func:`delta` and :func:`card_total`.

Test hook: ``YahtzeeGame.new_initial_state(seed, dice_source=[[1, 3, 3, 3, 6], [4, 4], ...])``
scripts the rolls: each item is one roll, the values of exactly the dice rolled then (five
for a turn's first roll, as many as the reroll names after).  When the script runs out the
seeded generator takes over.

Decisions (from docs/rules/yahtzee.md, marked *seed* when the seed text settles it, else ours):

1. Upper bonus, Yahtzee: +35 when Ones..Sixes total **63 or more** (docs/rules/yahtzee.md; the seed
   says "exceeds 63").
2. Upper bonus, Yams: 30 + (upper total - 60) when the upper total is **60 or more**
   (docs/rules/yahtzee.md; the seed says "exceeds 60", e.g. 65 gives 35).
3. Yams Plus and Minus are not counted themselves; Delta = Plus - Minus is, and may be
   negative (docs/rules/yahtzee.md).  Ours: Plus and Minus may be filled in either order with any dice
   (no "Plus must beat Minus" condition, which the seed does not have); Delta counts in a
   running total only once both are filled.
4. Joker rule (Yahtzee only, docs/rules/yahtzee.md and seed): when a Yahtzee is rolled and the Yahtzee box
   holds 50, the turn earns +100; the upper box of the face must be filled if empty; else
   any empty lower box may be filled at full value (full house 25, straights 30 and 40, the
   kinds and chance the dice sum); else an empty upper box must be filled with 0.  With 0
   in the Yahtzee box, or in Yams, a Yahtzee scores as plain dice and any empty box may be
   filled.  Ours: the +100 is earned by every roll meeting that condition whichever box the
   roll fills, and it is shown on the :class:`Score` action (``bonus=100``).
5. Ours: Yams has no +100 bonus either (the seed puts the bonus inside the joker rule, which
   Yams does not have).
6. Ours: a full house is three of one face and two of *another*: five equal dice are a full
   house only through the joker rule (Yahtzee), never in Yams.  Three/four of a kind means
   at least 3/4 equal dice, so five equal dice qualify.
7. Yams small straight: 4 dice in a row (45); large straight: 5 in a row (50) (*seed*: the
   same runs as Yahtzee, not the 1-2-3-4-5 / 2-3-4-5-6 split some French tables use).
8. Yams four of a kind 40 + the sum of all five dice; full house 30 + sum; Yahtzee 50 + sum
   (docs/rules/yahtzee.md; the seed's "目の合計" is read as all the dice).  Rigole: exactly four equal dice
   whose face plus the fifth die makes 7, 50 points (five equal dice can never make 7).
9. Ours: seat 0 takes the first turn (the referee decides who sits where); there are no
   settings and no cap (a game always lasts players x boxes turns).
10. Ours: a reroll may name all five dice; rerolling is never compulsory, so a seat may score
    after the first or second roll.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations_with_replacement
from typing import ClassVar

from referee.games.base import (
    CHANCE,
    TERMINAL,
    Game,
    InvalidActionError,
    Outcome,
    Seat,
    State,
    competition_ranking,
)
from referee.games.yahtzee_scoring import (
    ALL_BOXES,
    NUM_DICE,
    VARIANTS,
    UPPER_BOXES,
    YAHTZEE_BONUS,
    boxes,
    card_total,
    checked_card_total,
    delta,
    dice_table,
    fillable_boxes,
    score_box,
    upper_bonus,
    yahtzee_bonus,
)

__all__ = [
    "Reroll",
    "Score",
    "YahtzeeAction",
    "YahtzeeGame",
    "YahtzeeObservation",
    "YahtzeeState",
    "card_total",
    "delta",
    "fillable_boxes",
    "parse_action",
    "score_box",
    "upper_bonus",
    "yahtzee_bonus",
]

REROLLS_PER_TURN = 2
"""Rerolls after a turn's first roll."""


def _faces(dice: Iterable[int]) -> str:
    dice = tuple(dice)
    return _FACES.get(dice) or " ".join(str(d) for d in dice)


_FACES: dict[tuple[int, ...], str] = {}
"""Texts of sorted dice tuples, filled once (every event line names dice)."""
for _count in range(1, 6):
    for _dice in combinations_with_replacement(range(1, 7), _count):
        _FACES[_dice] = " ".join(map(str, _dice))


# --- actions ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Reroll:
    """Roll again the dice showing these values (one to five of them), keeping the others.

    >>> Reroll((6, 3, 3))
    Reroll((3, 3, 6))
    >>> str(Reroll((3, 3, 6)))
    'reroll 3 3 6'
    """

    dice: tuple[int, ...]
    """The values rerolled, sorted ascending (the constructor sorts them)."""

    def __post_init__(self) -> None:
        try:
            values = tuple(sorted(self.dice))
        except TypeError:
            raise InvalidActionError(f"a reroll names dice values, got {self.dice!r}") from None
        if not 1 <= len(values) <= NUM_DICE:
            raise InvalidActionError(f"a reroll names 1 to {NUM_DICE} dice, got {len(values)}")
        if any(isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6 for v in values):
            raise InvalidActionError(f"die values are ints from 1 to 6, got {values!r}")
        object.__setattr__(self, "dice", values)

    @classmethod
    def parse(cls, text: str) -> Reroll:
        """Read ``"reroll 3 3 6"``.

        :raises InvalidActionError: for anything else.
        """
        words = text.split()
        if len(words) < 2 or words[0] != "reroll" or not all(w.isdigit() for w in words[1:]):
            raise InvalidActionError(f"not a reroll: {text!r}")
        return cls(tuple(int(w) for w in words[1:]))

    def __str__(self) -> str:
        return f"reroll {_faces(self.dice)}"

    def __repr__(self) -> str:
        return f"Reroll({self.dice!r})"


_SCORE_TEXT = re.compile(r"score ([a-z_]+) (\d+)(?: \+(\d+))?")


@dataclass(frozen=True)
class Score:
    """Fill ``box`` with ``points``; ``bonus`` is the Yahtzee bonus the roll earns (0 or 100).

    >>> str(Score("full_house", 25)), str(Score("fives", 25, bonus=100))
    ('score full_house 25', 'score fives 25 +100')
    >>> Score.parse("score fives 25 +100")
    Score('fives', 25, bonus=100)
    """

    box: str
    """A box name of the variant (see :data:`~referee.games.yahtzee_scoring.YAHTZEE_BOXES`)."""
    points: int
    """What the box will hold."""
    bonus: int = 0
    """Yahtzee bonus points earned with it (100 under the joker rule, else 0)."""

    def __post_init__(self) -> None:
        if self.box not in ALL_BOXES:
            raise InvalidActionError(f"no such box: {self.box!r}")
        for name in ("points", "bonus"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise InvalidActionError(f"{name} must be an int >= 0, got {value!r}")

    @classmethod
    def parse(cls, text: str) -> Score:
        """Read ``"score full_house 25"`` or ``"score fives 25 +100"``.

        :raises InvalidActionError: for anything else.
        """
        match = _SCORE_TEXT.fullmatch(text.strip())
        if match is None:
            raise InvalidActionError(f"not a score action: {text!r}")
        box, points, bonus = match.groups()
        return cls(box, int(points), int(bonus or 0))

    def __str__(self) -> str:
        return f"score {self.box} {self.points}" + (f" +{self.bonus}" if self.bonus else "")

    def __repr__(self) -> str:
        return f"Score({self.box!r}, {self.points}" + (f", bonus={self.bonus})" if self.bonus else ")")


YahtzeeAction = Reroll | Score
"""Every action of this game."""


def parse_action(text: str) -> YahtzeeAction:
    """Read an action's text form (its ``str``).

    >>> parse_action("reroll 1 6")
    Reroll((1, 6))

    :raises InvalidActionError: if ``text`` is neither a reroll nor a score.
    """
    if text.startswith("reroll"):
        return Reroll.parse(text)
    return Score.parse(text)


# --- observation --------------------------------------------------------------------------
@dataclass(frozen=True)
class YahtzeeObservation:
    """What a seat knows: everything (Yahtzee has no hidden information) and its own seat."""

    seat: Seat
    """The seat observing."""
    variant: str
    """``"yahtzee"`` or ``"yams"``."""
    current_player: Seat
    """The seat to play, or :data:`~referee.games.base.TERMINAL` once the game is over."""
    dice: tuple[int, ...]
    """The current player's dice, sorted; empty once the game is over."""
    rerolls_left: int
    """Rerolls the current player has left this turn (2, 1 or 0)."""
    round: int
    """The round being played, 1-based (a round is one turn of every seat)."""
    rounds: int
    """Rounds in a game: the number of boxes (13 Yahtzee, 14 Yams)."""
    boxes: tuple[str, ...]
    """The variant's boxes in card order."""
    cards: tuple[tuple[int | None, ...], ...]
    """Per seat, the score in each box (``boxes`` order), ``None`` while empty."""
    yahtzee_bonus: tuple[int, ...]
    """Per seat, Yahtzee bonus points earned so far."""
    totals: tuple[int, ...]
    """Per seat, the running total (bonuses and Delta included)."""

    def card(self, seat: Seat) -> dict[str, int | None]:
        """Seat ``seat``'s card as a mapping box -> score (``None`` while empty)."""
        return dict(zip(self.boxes, self.cards[seat], strict=True))

    def __str__(self) -> str:
        totals = " ".join(str(t) for t in self.totals)
        if self.current_player == TERMINAL:
            return f"{self.variant} (seat {self.seat}): game over; totals {totals}"
        return (f"{self.variant} (seat {self.seat}): round {self.round}/{self.rounds}, "
                f"seat {self.current_player} has {_faces(self.dice)}, {self.rerolls_left} rerolls left; "
                f"totals {totals}")


@cache
def _roll_actions(variant: str, dice: tuple[int, ...]) -> tuple[dict[str, Score], dict[str, Score] | None,
                                                                tuple[Reroll, ...]]:
    """The actions one sorted roll allows, built once per roll (252 of them): a :class:`Score`
    per box, the joker rule's :class:`Score` per box (Yahtzee variant, five equal dice; ``None``
    otherwise) and every :class:`Reroll`.  Actions are frozen, so states share them."""
    plain, joker, rerolls = dice_table(variant, dice)
    jokers = None
    if variant == "yahtzee" and len(set(dice)) == 1:
        jokers = {box: Score(box, points, YAHTZEE_BONUS) for box, points in joker.items()}
    return ({box: Score(box, points) for box, points in plain.items()}, jokers,
            tuple(Reroll(subset) for subset in rerolls))


def roll_dice(rng: random.Random, count: int) -> tuple[int, ...]:
    """``count`` dice from ``rng``: exactly the values ``rng.randint(1, 6)`` would give, in
    the same order and using the generator the same way (so seeds replay stored matches), but
    drawn with ``getrandbits(3)`` and rejection, as ``randint`` does inside, without its
    argument handling, which was a fifth of the engine's time.  A test holds the two equal."""
    bits = rng.getrandbits
    dice = []
    for _ in range(count):
        value = bits(3)
        while value >= 6:
            value = bits(3)
        dice.append(value + 1)
    return tuple(dice)


@cache
def _kept(dice: tuple[int, ...], rerolled: tuple[int, ...]) -> tuple[int, ...]:
    """``dice`` without the values of ``rerolled`` (a sub-multiset of them)."""
    kept = list(dice)
    for value in rerolled:
        kept.remove(value)
    return tuple(kept)


# --- game and state -----------------------------------------------------------------------
class YahtzeeGame(Game):
    """Yahtzee (13 boxes, joker rule) or Yams (14 boxes), 1 to 8 players."""

    name: ClassVar[str] = "yahtzee"
    variants: ClassVar[tuple[str, ...]] = VARIANTS
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 8
    default_players: ClassVar[int] = 2

    def new_initial_state(self, seed: int, *, dice_source: Iterable[Sequence[int]] | None = None) -> YahtzeeState:
        """A new game, seat 0 to play with its first roll made.

        :param dice_source: test hook: scripted rolls, used before the seeded generator (see
            the module docstring).
        """
        return YahtzeeState(self, seed, dice_source=dice_source)


@dataclass
class _Script:
    """Scripted rolls (the test hook), consumed in order."""

    rolls: list[tuple[int, ...]] = field(default_factory=list)
    used: int = 0


class YahtzeeState(State[YahtzeeAction, YahtzeeObservation]):
    """A Yahtzee or Yams game in progress."""

    def __init__(self, game: YahtzeeGame, seed: int, *, dice_source: Iterable[Sequence[int]] | None = None) -> None:
        super().__init__(game, seed)
        self.variant: str = game.variant
        self.boxes: tuple[str, ...] = boxes(self.variant)
        self.num_players: int = game.num_players
        self.cards: list[dict[str, int | None]] = [dict.fromkeys(self.boxes) for _ in range(self.num_players)]
        """Per seat, box -> score (``None`` while empty)."""
        self.bonus: list[int] = [0] * self.num_players
        """Per seat, Yahtzee bonus points."""
        self.turns_played: int = 0
        self.dice: tuple[int, ...] = ()
        self.rerolls_left: int = 0
        self._seat: Seat = 0
        self._total_turns = self.num_players * len(self.boxes)
        self._script = _Script([tuple(roll) for roll in dice_source or ()])
        self._start_turn()

    # --- the fixed API ------------------------------------------------------------------
    def current_player(self) -> Seat:
        return TERMINAL if self.turns_played == self._total_turns else self._seat

    def _legal_actions(self) -> list[YahtzeeAction]:
        # The engine's dice and cards are well formed, so this reads precomputed per-roll
        # actions (:func:`_roll_actions`) instead of re-checking them with every call of
        # :func:`fillable_boxes` and :func:`score_box`; the property tests compare the two.
        if self.is_terminal():
            return []
        card = self.cards[self._seat]
        plain, joker, rerolls = _roll_actions(self.variant, self.dice)
        empty = [box for box in self.boxes if card[box] is None]
        if joker is None or card["yahtzee"] != 50:
            actions: list[YahtzeeAction] = [plain[box] for box in empty]
        else:  # the joker rule: own upper box if empty, else any empty lower box, else any empty box
            own = UPPER_BOXES[self.dice[0] - 1]
            lower = [box for box in empty if box not in UPPER_BOXES]
            actions = [joker[box] for box in ([own] if own in empty else lower or empty)]
        if self.rerolls_left:
            actions.extend(rerolls)
        return actions

    def _apply(self, action: YahtzeeAction) -> None:
        seat = self._seat
        if isinstance(action, Reroll):
            kept = _kept(self.dice, action.dice)
            rolled = tuple(sorted(self._roll(len(action.dice))))
            self.log(seat, f"seat {seat} rerolls {_faces(action.dice)}", action)
            self.dice = tuple(sorted(kept + rolled))
            self.rerolls_left -= 1
            self.log(CHANCE, f"seat {seat} rolled {_faces(rolled)}: dice {_faces(self.dice)}")
            return
        text = f"seat {seat} scores {action.points} in {action.box}"
        if action.bonus:
            text += f" and a {action.bonus} Yahtzee bonus"
        self.log(seat, text, action, milestone=True)
        self.cards[seat][action.box] = action.points
        self.bonus[seat] += action.bonus
        self.turns_played += 1
        self._seat = (seat + 1) % self.num_players
        self._start_turn()

    def observe(self, seat: Seat) -> YahtzeeObservation:
        if not 0 <= seat < self.num_players:
            raise ValueError(f"no seat {seat} in a {self.num_players}-player game")
        return YahtzeeObservation(
            seat=seat,
            variant=self.variant,
            current_player=self.current_player(),
            dice=self.dice,
            rerolls_left=self.rerolls_left,
            round=min(self.turns_played // self.num_players + 1, len(self.boxes)),
            rounds=len(self.boxes),
            boxes=self.boxes,
            cards=tuple(tuple(card[box] for box in self.boxes) for card in self.cards),
            yahtzee_bonus=tuple(self.bonus),
            totals=self.totals(),
        )

    def outcome(self) -> Outcome:
        if not self.is_terminal():
            raise ValueError("the game is not over")
        totals = self.totals()
        return Outcome(scores=tuple(float(t) for t in totals), ranking=competition_ranking(totals),
                       detail="totals " + ", ".join(f"seat {s} {t}" for s, t in enumerate(totals)))

    def clone(self) -> YahtzeeState:
        """An independent copy, as :meth:`State.clone` promises, without a deep copy of the
        events (frozen, shared): the luck analysis clones before every roll, and the deep
        copy of a long log made it quadratic in the match's length."""
        other = copy.copy(self)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.cards = [dict(card) for card in self.cards]
        other.bonus = list(self.bonus)
        other.events = list(self.events)
        other._script = _Script(list(self._script.rolls), self._script.used)
        other._legal = None
        return other

    # --- helpers ------------------------------------------------------------------------
    @property
    def total_turns(self) -> int:
        """Turns in the whole game: one per box per seat."""
        return self.num_players * len(self.boxes)

    def totals(self) -> tuple[int, ...]:
        """Each seat's running total (the final score once the game is over)."""
        return tuple(checked_card_total(self.variant, card, bonus)
                     for card, bonus in zip(self.cards, self.bonus, strict=True))

    def _start_turn(self) -> None:
        if self.is_terminal():
            self.dice, self.rerolls_left = (), 0
            return
        self.dice = tuple(sorted(self._roll(NUM_DICE)))
        self.rerolls_left = REROLLS_PER_TURN
        self.log(CHANCE, f"seat {self._seat} rolled {_faces(self.dice)}")

    def _roll(self, count: int) -> tuple[int, ...]:
        script = self._script
        if script.used < len(script.rolls):
            roll = script.rolls[script.used]
            script.used += 1
            if len(roll) != count or any(not isinstance(v, int) or not 1 <= v <= 6 for v in roll):
                raise ValueError(f"scripted roll {script.used} is {roll!r}; "
                                 f"the engine rolls {count} dice from 1 to 6 here")
            return roll
        return roll_dice(self.rng, count)

    def __str__(self) -> str:
        return str(self.observe(0)).replace(" (seat 0)", "", 1)

    def __repr__(self) -> str:
        return f"<YahtzeeState {self.variant} seed={self.seed} turn={self.turns_played}/{self.total_turns}>"
