"""Swiss Jass, Schieber style, for four players in two fixed teams (docs/rules/jass.md).

Seats 0+2 (team 0) play against 1+3 (team 1).  A match is hands of 9 cards each until a team
reaches ``target`` points.  Each hand: the forehand (the seat after the dealer) chooses a mode
(hearts, diamonds, spades, clubs, Obenabe, Undenufe) or pushes, and after a push the partner
must choose; the forehand leads trick 1, each trick's winner leads the next.  Hand scores
(trick points, last trick +5, match +100, weis, Stöck) are multiplied by the mode's
multiplier (x1 hearts/diamonds, x2 spades/clubs, x3 Obenabe, x4 Undenufe).

Rule decisions (docs/rules/jass.md **Decisions**, and the ones taken here where both texts are silent):

- *First forehand* (docs/rules/jass.md): in hand 1 the holder of the club 7 (``7C``) is the forehand;
  the dealer is the seat before it.  Then the dealer moves to the next seat every hand.
- *Under-trumping* (docs/rules/jass.md, read literally): on a non-trump lead a trump must beat every
  trump already in the trick, unless the hand holds nothing else playable; a hand holding
  only trumps must over-trump if it can.  The trump J may be played at any time, and a hand
  whose only trump is the J need not follow a trump lead.  In Obenabe/Undenufe: follow suit
  if able, else anything.
- *Card points* (docs/rules/jass.md): in Undenufe the A stays 11 and the 6 stays 0; the 8 scores 8 in
  both Obenabe and Undenufe.
- *Weis* (docs/rules/jass.md): detected and declared by the engine for every player; only the team of
  the single best weis scores, all weis of both its players.  Best: higher points, then
  more cards, then the higher top card in the mode's order, then a trump-suit sequence, then
  the earlier player from the forehand.  Decided here: a sequence is a maximal run (a run of
  7 is one weis of 100, never split); the "mode's order" for a top card is the plain order
  (A high), reversed in Undenufe, whatever the trump; four 10s, 8s, 7s or 6s are no weis (the
  seed and docs/rules/jass.md list only A K Q 9 J).  The scoring team's weis (cards and points) become
  public when trick 1 ends; the other team's weis are never told.
- *Stöck* (docs/rules/jass.md): K and Q of the trump suit dealt to one hand, trump modes only, 20
  points scored when the second of the two is played.
- *Game end* (docs/rules/jass.md): weis are added at the end of trick 1, Stöck when its second card is
  played, tricks at the end of the hand; the first team to reach ``target`` wins at once,
  mid-hand too.  Decided here: at the end of a hand both teams' trick points are added
  together; if both reach the target then, the higher total wins, and equal totals tie.
- *Safety cap* ``max_hands`` (default 200): the match ends after that many hands with
  :attr:`Termination.CAP`; teams are ranked by points, equal points tie.
- *Deal*: the seeded shuffle gives seat ``s`` cards ``9s .. 9s+8`` of the shuffled deck.

Information: each seat sees its own hand, the mode, who chose it and whether it was pushed,
the trick in play, the hand's completed tricks, the public weis, Stöck once scored and both
teams' scores.  The deal is told to each seat privately; in hand 1 the forehand is known to
hold the 7C (that is public by the rule above).

Checking functions for other code, on card texts: :func:`legal_cards`, :func:`trick_winner`,
:func:`card_points`.  Test hook: ``JassGame.new_initial_state(seed, deals=...)``.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, Union

from referee.games import jass_cards as jc
from referee.games.base import (CHANCE, TERMINAL, Event, Game, IllegalActionError, Immutable, InvalidActionError,
                                Outcome, Seat, Setting, State, Termination, competition_ranking)
from referee.games.cards import Card, cards_text
from referee.games.jass_cards import MODES, Weis

__all__ = ["Choose", "HandResult", "JassAction", "JassGame", "JassObservation", "JassState", "MODES", "Play", "Push",
           "Trick", "Weis", "card_points", "legal_cards", "parse_action", "trick_winner", "team_of"]

_NUM_PLAYERS: Final = 4
_TEAMS: Final = ((0, 2), (1, 3))
_TEAM_NAMES: Final = ("team 0+2", "team 1+3")
_LAST_TRICK: Final = 5
_MATCH_BONUS: Final = 100
_STOECK: Final = 20
_CLUB_SEVEN: Final = jc.card_index("7C")
_P_DECLARE, _P_PLAY, _P_OVER = range(3)
_PHASE_NAMES: Final = ("declare", "play", "over")
_VISIBLE: Final = tuple(frozenset({seat}) for seat in range(_NUM_PLAYERS))


def team_of(seat: Seat) -> int:
    """The team (0: seats 0+2, 1: seats 1+3) of a seat."""
    return seat % 2


# --- actions -------------------------------------------------------------------------------

@dataclass(frozen=True, repr=False)
class Choose(Immutable):
    """Choose the hand's mode: a trump suit, ``obenabe`` or ``undenufe``."""

    mode: str

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise InvalidActionError(f"not a Jass mode: {self.mode!r} (modes: {', '.join(MODES)})")

    def __str__(self) -> str:
        return f"choose {self.mode}"

    def __repr__(self) -> str:
        return f"Choose({self.mode!r})"


@dataclass(frozen=True, repr=False)
class Push(Immutable):
    """Leave the choice of mode to the partner (forehand only, once per hand)."""

    def __str__(self) -> str:
        return "push"

    def __repr__(self) -> str:
        return "Push()"


@dataclass(frozen=True, repr=False)
class Play(Immutable):
    """Play a card to the trick."""

    card: Card
    index: int = field(default=-1, compare=False, repr=False)
    """The card's index in :mod:`jass_cards` (filled in from ``card``)."""

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "index", jc.card_index(self.card))
        except ValueError as error:
            raise InvalidActionError(str(error)) from None

    def __str__(self) -> str:
        return f"play {self.card}"

    def __repr__(self) -> str:
        return f"Play(Card.parse({str(self.card)!r}))"


JassAction = Union[Choose, Push, Play]

_CHOOSE: Final = tuple(Choose(mode) for mode in MODES)
_PUSH: Final = Push()
_PLAY: Final = tuple(Play(card) for card in jc.CARDS)
_DECLARE_ACTIONS: Final = (*_CHOOSE, _PUSH)
_PLAYS_BY_SUIT: Final = jc.by_suit_pattern(_PLAY)
_TEXTS_BY_SUIT: Final = jc.by_suit_pattern(jc.TEXTS)
_PLAY_TEXTS: Final = tuple(tuple(f"seat {seat} plays {text}" for text in jc.TEXTS) for seat in range(_NUM_PLAYERS))


def _hand_text(mask: int) -> str:
    return " ".join([*_TEXTS_BY_SUIT[0][mask & 0x1FF], *_TEXTS_BY_SUIT[1][mask >> 9 & 0x1FF],  # type: ignore[list-item]
                     *_TEXTS_BY_SUIT[2][mask >> 18 & 0x1FF], *_TEXTS_BY_SUIT[3][mask >> 27 & 0x1FF]])


def parse_action(text: str) -> JassAction:
    """Read an action's text form: ``choose hearts``, ``push`` or ``play TD``.

    >>> parse_action("play JH")
    Play(Card.parse('JH'))

    :raises InvalidActionError: for anything else.
    """
    words = text.split()
    if words == ["push"]:
        return _PUSH
    if len(words) == 2 and words[0] == "choose" and words[1] in MODES:
        return _CHOOSE[MODES.index(words[1])]
    if len(words) == 2 and words[0] == "play" and words[1] in jc.INDEX:
        return _PLAY[jc.INDEX[words[1]]]
    raise InvalidActionError(f"not a Jass action: {text!r} (expected choose <mode>, push or play <card>)")


# --- public checking functions -------------------------------------------------------------

def _mode_number(mode: str) -> int:
    try:
        return MODES.index(mode)
    except ValueError:
        raise ValueError(f"not a Jass mode: {mode!r} (modes: {', '.join(MODES)})") from None


def _card_list(cards: Iterable[Card | str] | str) -> list[int]:
    items = cards.split() if isinstance(cards, str) else list(cards)
    return [jc.card_index(card) for card in items]


def legal_cards(hand: Iterable[Card | str] | str, trick: Iterable[Card | str] | str, mode: str) -> list[str]:
    """The cards of ``hand`` that may be played on ``trick`` (the cards played so far, in
    order) in ``mode``, as texts in hand order (suits S H D C, 6 to A).

    >>> legal_cards("6H AS JC", "KS", "clubs")
    ['AS', 'JC']

    :raises ValueError: for a bad or repeated card or mode.
    """
    mask = jc.to_mask(hand)
    played = _card_list(trick)
    if len(played) > 3:
        raise ValueError(f"a trick holds at most 4 cards, {len(played)} are already played")
    return [jc.TEXTS[c] for c in jc.indices(jc.legal_mask(mask, played, _mode_number(mode)))]


def trick_winner(trick: Iterable[Card | str] | str, mode: str) -> int:
    """The index into ``trick`` of the card that wins it in ``mode``.

    >>> trick_winner(["KS", "AS", "6H", "QS"], "hearts")
    2

    :raises ValueError: for an empty trick, a bad card or a bad mode.
    """
    played = _card_list(trick)
    if not played:
        raise ValueError("an empty trick has no winner")
    return jc.winner_index(played, _mode_number(mode))


def card_points(card: Card | str, mode: str) -> int:
    """What a card counts in ``mode``, before the multiplier.

    >>> card_points("JH", "hearts"), card_points("8S", "undenufe")
    (20, 8)

    :raises ValueError: for a bad card or mode.
    """
    return jc.POINTS[_mode_number(mode)][jc.card_index(card)]


# --- observations --------------------------------------------------------------------------

@dataclass(frozen=True)
class Trick:
    """A completed trick of the hand in play."""

    leader: Seat
    cards: tuple[Card, ...]
    """In play order, from the leader."""
    winner: Seat
    points: int
    """Card points (plus 5 for the last trick), before the multiplier."""


@dataclass(frozen=True)
class HandResult:
    """A finished hand's score, per team (index 0: seats 0+2)."""

    hand_number: int
    mode: str
    card_points: tuple[int, int]
    """Trick points with the last trick's 5, before the multiplier (they sum to 157)."""
    match: int
    """The team that took all 9 tricks (+100 before the multiplier), or -1."""
    bonus: tuple[int, int]
    """Weis and Stöck, multiplier included (scored during the hand)."""
    total: tuple[int, int]
    """Everything the hand scored, multiplier included."""


@dataclass(frozen=True)
class JassObservation:
    """What one seat may know: its hand and everything public about the hand and the match."""

    seat: Seat
    phase: str
    """``"declare"`` (the mode is being chosen), ``"play"`` or ``"over"``."""
    current_player: Seat
    """The seat to act, or ``-1`` when the match is over."""
    hand: tuple[Card, ...]
    """This seat's cards, suit by suit (S H D C), 6 to A."""
    hand_number: int
    """1 for the first hand."""
    dealer: Seat
    forehand: Seat
    """The seat after the dealer: it chooses or pushes, and leads trick 1."""
    mode: str
    """The hand's mode, or ``""`` while it is being chosen."""
    chooser: Seat
    """The seat that chose the mode, or ``-1``."""
    pushed: bool
    """Whether the forehand pushed the choice to its partner."""
    multiplier: int
    """The mode's multiplier (0 while the mode is being chosen)."""
    trick: tuple[Card, ...]
    """The trick in play, from its leader."""
    trick_leader: Seat
    tricks: tuple[Trick, ...]
    """The hand's completed tricks."""
    weis: tuple[Weis, ...]
    """The scoring team's weis, public once trick 1 is over."""
    weis_points: int
    """What those weis scored, multiplier included."""
    stoeck: Seat
    """The seat that scored Stöck this hand, or ``-1``."""
    hand_points: tuple[int, int]
    """Card points taken by each team in this hand so far (before the multiplier)."""
    scores: tuple[int, int]
    """Each team's match points (team 0: seats 0+2)."""
    target: int

    def __str__(self) -> str:
        mode = self.mode or ("pushed" if self.pushed else "choosing")
        return (f"seat {self.seat} hand {self.hand_number} {self.phase} ({mode}): {cards_text(self.hand)}; "
                f"trick {cards_text(self.trick) or '-'}; scores {self.scores[0]}-{self.scores[1]}")


# --- the game ------------------------------------------------------------------------------

class JassGame(Game):
    """Schieber Jass for four (seats 0+2 against 1+3)."""

    name: ClassVar[str] = "jass"
    variants: ClassVar[tuple[str, ...]] = ("schieber",)
    min_players: ClassVar[int] = 4
    max_players: ClassVar[int] = 4
    default_players: ClassVar[int] = 4
    teams: ClassVar[tuple[tuple[Seat, ...], ...] | None] = _TEAMS
    settings_spec: ClassVar[tuple[Setting, ...]] = (
        Setting("target", 2500, "points a team needs to win", minimum=1, maximum=1_000_000),
        Setting("max_hands", 200, "safety cap: the match ends after this many hands (Termination.CAP)",
                minimum=1, maximum=100_000),
    )
    short_match_settings: ClassVar[dict[str, Any]] = {"target": 300, "max_hands": 10}

    def new_initial_state(self, seed: int, *, deals: Sequence[Sequence[Iterable[Card | str] | str]] = ()
                          ) -> JassState:
        """A new match.

        Test hook (keyword-only): ``deals[i]`` stacks hand ``i`` (0-based) as four hands of 9
        cards (texts, :class:`Card` objects or one space-separated string each), by seat.
        Later hands are shuffled from the seed.

        :raises ValueError: for a bad deal (not 4 x 9 distinct Jass cards).
        """
        stacked = []
        for deal in deals:
            if len(deal) != _NUM_PLAYERS:
                raise ValueError(f"a deal gives 4 hands, not {len(deal)}")
            masks = [jc.to_mask(hand) for hand in deal]
            if any(m.bit_count() != 9 for m in masks) or (masks[0] | masks[1] | masks[2] | masks[3]) != jc.FULL:
                raise ValueError("a deal gives each seat 9 cards, all 36 distinct")
            stacked.append(masks)
        return JassState(self, seed, stacked)


class JassState(State[JassAction, JassObservation]):
    """A match in progress: scores, the hand in play and its tricks."""

    game: JassGame

    def __init__(self, game: JassGame, seed: int, deals: list[list[int]] | None = None) -> None:
        super().__init__(game, seed)
        self._deals = deals or []
        self.target = int(game.settings["target"])
        self.max_hands = int(game.settings["max_hands"])
        self.scores = [0, 0]
        """Match points per team."""
        self.hand_number = 0
        self.dealer: Seat = 0
        self.forehand: Seat = 0
        self.hands: list[int] = [0, 0, 0, 0]
        """Each seat's cards as a mask (see :mod:`jass_cards`)."""
        self.played = 0
        """Mask of the cards played in this hand."""
        self.mode = -1
        self.chooser: Seat = -1
        self.pushed = False
        self.trick: list[int] = []
        self.trick_leader: Seat = 0
        self.tricks: list[tuple[Seat, tuple[int, ...], Seat, int]] = []
        """This hand's tricks: (leader, cards, winner, points)."""
        self.hand_points = [0, 0]
        self.tricks_won = [0, 0]
        self.weis: list[list[tuple[Weis, tuple[int, int, int, int]]]] = [[], [], [], []]
        """Each seat's weis in this hand with its comparison key (found when the mode is chosen)."""
        self.public_weis: tuple[Weis, ...] = ()
        self.weis_points = 0
        self.stoeck_seat: Seat = -1
        """The seat holding trump K and Q this hand, or -1."""
        self.stoeck_left = 0
        """Mask of the Stöck cards not yet played."""
        self.stoeck_scored: Seat = -1
        self.bonus = [0, 0]
        """Weis and Stöck scored in this hand, per team, multiplied."""
        self.results: list[HandResult] = []
        """Every finished hand, in order."""
        self.to_play: Seat = 0
        self._phase = _P_DECLARE
        self._mask: int | None = None
        self.winner: int | None = None
        """The winning team once the match is over (``None``: a tie or the cap)."""
        self.termination = Termination.NORMAL
        self._deal()

    # --- hands ------------------------------------------------------------------------------
    def _deal(self) -> None:
        index = self.hand_number
        self.hand_number += 1
        if index < len(self._deals):
            self.hands = list(self._deals[index])
        else:
            deck = list(range(jc.NUM_CARDS))
            self.rng.shuffle(deck)
            hands = [0, 0, 0, 0]
            for i, card in enumerate(deck):
                hands[i // 9] |= 1 << card
            self.hands = hands
        if index == 0:
            self.forehand = next(s for s in range(_NUM_PLAYERS) if self.hands[s] >> _CLUB_SEVEN & 1)
            self.dealer = (self.forehand - 1) % _NUM_PLAYERS
            note = f" (seat {self.forehand} holds 7C)"
        else:
            self.dealer = (self.dealer + 1) % _NUM_PLAYERS
            self.forehand = (self.dealer + 1) % _NUM_PLAYERS
            note = ""
        self.played = 0
        self.mode = -1
        self.chooser = -1
        self.pushed = False
        self.trick = []
        self.trick_leader = self.forehand
        self.tricks = []
        self.hand_points = [0, 0]
        self.tricks_won = [0, 0]
        self.weis = [[], [], [], []]
        self.public_weis = ()
        self.weis_points = 0
        self.stoeck_seat = -1
        self.stoeck_left = 0
        self.stoeck_scored = -1
        self.bonus = [0, 0]
        self._phase = _P_DECLARE
        self.to_play = self.forehand
        self.log(CHANCE, f"hand {self.hand_number}: seat {self.dealer} deals, seat {self.forehand} is forehand{note}")
        for seat in range(_NUM_PLAYERS):
            self.log(CHANCE, f"seat {seat} is dealt {_hand_text(self.hands[seat])}", visible_to=_VISIBLE[seat])

    def _set_mode(self, seat: Seat, mode: int) -> None:
        self.mode = mode
        self.chooser = seat
        self._phase = _P_PLAY
        self.to_play = self.forehand
        for s in range(_NUM_PLAYERS):
            self.weis[s] = [(w, jc.weis_key(w, top, suit, mode)) for w, top, suit in jc.find_weis(s, self.hands[s])]
        trump = jc.TRUMP_SUIT[mode]
        if trump >= 0:
            pair = 1 << (trump * 9 + jc.KING) | 1 << (trump * 9 + jc.QUEEN)
            for s in range(_NUM_PLAYERS):
                if self.hands[s] & pair == pair:
                    self.stoeck_seat = s
                    self.stoeck_left = pair

    def _add(self, team: int, points: int) -> bool:
        """Add weis or Stöck points to a team; ``True`` when that ends the match."""
        self.scores[team] += points
        self.bonus[team] += points
        if self.scores[team] >= self.target:
            self.winner = team
            self._finish(Termination.NORMAL, f"{_TEAM_NAMES[team]} reaches {self.scores[team]} and wins")
            return True
        return False

    def _finish(self, termination: Termination, why: str) -> None:
        self._phase = _P_OVER
        self.to_play = TERMINAL
        self.termination = termination
        self.log(CHANCE, f"match over after {self.hand_number} hands: {why}; "
                         f"scores {self.scores[0]}-{self.scores[1]}", milestone=True)

    def _score_weis(self) -> bool:
        """At the end of trick 1: the team of the best weis scores all its weis."""
        best: tuple[tuple[int, int, int, int], int] | None = None
        for offset in range(_NUM_PLAYERS):
            seat = (self.forehand + offset) % _NUM_PLAYERS
            for _, key in self.weis[seat]:
                if best is None or key > best[0]:  # strictly better: the earlier seat keeps ties
                    best = (key, seat)
        if best is None:
            return False
        team = team_of(best[1])
        declared = tuple(w for seat in _TEAMS[team] for w, _ in self.weis[seat])
        self.public_weis = declared
        multiplier = jc.MULTIPLIER[self.mode]
        self.weis_points = sum(w.points for w in declared) * multiplier
        self.log(CHANCE, f"{_TEAM_NAMES[team]} scores weis {self.weis_points}: "
                         + "; ".join(map(str, declared)) + f" (x{multiplier})")
        return self._add(team, self.weis_points)

    def _end_hand(self) -> None:
        multiplier = jc.MULTIPLIER[self.mode]
        last = team_of(self.tricks[-1][2])
        totals = []
        for team in (0, 1):
            points = self.hand_points[team]
            if self.tricks_won[team] == 9:
                points += _MATCH_BONUS
            totals.append(points * multiplier)
        self.scores[0] += totals[0]
        self.scores[1] += totals[1]
        self.results.append(HandResult(self.hand_number, MODES[self.mode], (self.hand_points[0], self.hand_points[1]),
                                       self.tricks_won.index(9) if 9 in self.tricks_won else -1,
                                       (self.bonus[0], self.bonus[1]),
                                       (totals[0] + self.bonus[0], totals[1] + self.bonus[1])))
        sums = "; ".join(self._hand_sum(team, last, multiplier, totals[team] + self.bonus[team]) for team in (0, 1))
        self.log(CHANCE, f"hand {self.hand_number} ({MODES[self.mode]} x{multiplier}): {sums}; "
                         f"scores {self.scores[0]}-{self.scores[1]}", milestone=True)
        reached = [team for team in (0, 1) if self.scores[team] >= self.target]
        if reached:
            if len(reached) == 2 and self.scores[0] == self.scores[1]:
                self.winner = None
                self._finish(Termination.NORMAL, "both teams reach the target with equal points: a tie")
                return
            self.winner = max(reached, key=lambda team: self.scores[team])
            self._finish(Termination.NORMAL, f"{_TEAM_NAMES[self.winner]} reaches {self.scores[self.winner]} "
                                             "and wins")
        elif self.hand_number >= self.max_hands:
            self._finish(Termination.CAP, f"cap of {self.max_hands} hands reached")
        else:
            self._deal()

    def _hand_sum(self, team: int, last: int, multiplier: int, total: int) -> str:
        """One team's hand score as a sum a reader can check against the scores' move: card points,
        last trick and match before the multiplier, then the weis and Stöck it scored (already
        multiplied, as their own events say)."""
        cards = self.hand_points[team] - (_LAST_TRICK if team == last else 0)
        parts = [f"cards {cards}"]
        if team == last:
            parts.append(f"last trick {_LAST_TRICK}")
        if self.tricks_won[team] == 9:
            parts.append(f"match {_MATCH_BONUS}")
        text = f"({' + '.join(parts)})" if len(parts) > 1 else parts[0]
        text = f"{_TEAM_NAMES[team]}: {text} x{multiplier}"
        stoeck = _STOECK * multiplier if self.stoeck_scored >= 0 and team_of(self.stoeck_scored) == team else 0
        if self.bonus[team] - stoeck:
            text += f" + weis {self.bonus[team] - stoeck}"
        if stoeck:
            text += f" + Stöck {stoeck}"
        return f"{text} = {total}"

    # --- the State API ----------------------------------------------------------------------
    def current_player(self) -> Seat:
        return self.to_play

    def legal_mask(self) -> int:
        """The playable cards of the seat to play, as a mask (0 outside the play phase)."""
        if self._mask is None:
            self._mask = (jc.legal_mask(self.hands[self.to_play], self.trick, self.mode)
                          if self._phase == _P_PLAY else 0)
        return self._mask

    def legal_actions(self) -> list[JassAction]:
        """The actions :meth:`current_player` may take: cards in hand order (suits S H D C, 6
        to A), or the six modes then ``push``.  A fresh list each call, built from the cached
        legal mask."""
        phase = self._phase
        if phase == _P_PLAY:
            mask = self._mask
            if mask is None:
                mask = self._mask = jc.legal_mask(self.hands[self.to_play], self.trick, self.mode)
            return [*_PLAYS_BY_SUIT[0][mask & 0x1FF], *_PLAYS_BY_SUIT[1][mask >> 9 & 0x1FF],  # type: ignore[list-item]
                    *_PLAYS_BY_SUIT[2][mask >> 18 & 0x1FF], *_PLAYS_BY_SUIT[3][mask >> 27 & 0x1FF]]
        if phase == _P_DECLARE:
            return list(_CHOOSE) if self.pushed else list(_DECLARE_ACTIONS)
        return []

    def _legal_actions(self) -> list[JassAction]:
        return self.legal_actions()

    def is_legal(self, action: JassAction) -> bool:
        if type(action) is Play:
            return self._phase == _P_PLAY and bool(self.legal_mask() >> action.index & 1)
        if type(action) is Choose:
            return self._phase == _P_DECLARE
        if type(action) is Push:
            return self._phase == _P_DECLARE and not self.pushed
        return False

    def is_terminal(self) -> bool:
        return self.to_play == TERMINAL

    def apply(self, action: JassAction) -> None:
        """Validate and apply ``action`` for :meth:`current_player`.

        :raises InvalidActionError: if ``action`` is not a Jass action at all.
        :raises IllegalActionError: if it is not legal now (the state is unchanged).
        """
        kind = type(action)
        if kind is Play:  # the hot path: a card checked against the cached legal mask
            mask = self._mask
            if mask is None:
                mask = self.legal_mask()
            if not mask >> action.index & 1:  # type: ignore[union-attr]
                self._refuse(action)
            self._mask = None
            self._play(action)  # type: ignore[arg-type]
            return
        if kind is not Choose and kind is not Push:
            raise InvalidActionError(f"not a Jass action: {action!r}")
        if not self.is_legal(action):
            self._refuse(action)
        self._mask = None
        self._apply(action)

    def _refuse(self, action: JassAction) -> None:
        if self._phase == _P_OVER:
            raise IllegalActionError(f"the game is over; {action} cannot be played")
        raise IllegalActionError(f"{action} is not legal for seat {self.to_play} now")

    def _apply(self, action: JassAction) -> None:
        kind = type(action)
        if kind is Play:
            self._play(action)  # type: ignore[arg-type]
        elif kind is Choose:
            seat = self.to_play
            self.log(seat, f"seat {seat} chooses {action.mode}", action)  # type: ignore[union-attr]
            self._set_mode(seat, MODES.index(action.mode))  # type: ignore[union-attr]
        else:
            seat = self.to_play
            self.pushed = True
            self.to_play = (seat + 2) % _NUM_PLAYERS
            self.log(seat, f"seat {seat} pushes to seat {self.to_play}", action)

    def _play(self, action: Play) -> None:
        seat = self.to_play
        card = action.index
        bit = 1 << card
        self.hands[seat] ^= bit
        self.played |= bit
        trick = self.trick
        trick.append(card)
        if len(trick) < 4:
            self.events.append(Event(seat, _PLAY_TEXTS[seat][card], action))
            if self.stoeck_left & bit and self._stoeck(seat, bit):
                return
            self.to_play = (seat + 1) % _NUM_PLAYERS
            return
        leader = self.trick_leader
        mode = self.mode
        winner = (leader + jc.winner_index(trick, mode)) % _NUM_PLAYERS
        table = jc.POINTS[mode]
        points = table[trick[0]] + table[trick[1]] + table[trick[2]] + table[trick[3]]
        number = len(self.tricks) + 1
        if number == 9:
            points += _LAST_TRICK
        taken = f"seat {winner} takes trick {number} ({points} points)"
        if self.stoeck_left & bit and seat == self.stoeck_seat:  # Stöck is scored before the trick
            self.events.append(Event(seat, _PLAY_TEXTS[seat][card], action))
            if self._stoeck(seat, bit):
                return
            self.log(CHANCE, taken)
        else:
            self.events.append(Event(seat, f"{_PLAY_TEXTS[seat][card]}; {taken}", action))
        team = winner % 2
        self.hand_points[team] += points
        self.tricks_won[team] += 1
        self.tricks.append((leader, tuple(trick), winner, points))
        self.trick = []
        self.trick_leader = winner
        self.to_play = winner
        if number == 1 and self._score_weis():
            return
        if number == 9:
            self._end_hand()

    def _stoeck(self, seat: Seat, bit: int) -> bool:
        """A Stöck card was played; ``True`` if scoring it ended the match."""
        if seat != self.stoeck_seat:
            return False
        self.stoeck_left ^= bit
        if self.stoeck_left:
            return False
        self.stoeck_scored = seat
        points = _STOECK * jc.MULTIPLIER[self.mode]
        self.log(CHANCE, f"seat {seat} scores Stöck {points}")
        return self._add(team_of(seat), points)

    def observe(self, seat: Seat) -> JassObservation:
        if seat not in range(_NUM_PLAYERS):
            raise ValueError(f"jass has seats 0 to 3, not {seat!r}")
        mode = self.mode
        return JassObservation(
            seat=seat, phase=_PHASE_NAMES[self._phase], current_player=self.to_play,
            hand=tuple(jc.CARDS[c] for c in jc.indices(self.hands[seat])), hand_number=self.hand_number,
            dealer=self.dealer, forehand=self.forehand, mode=MODES[mode] if mode >= 0 else "", chooser=self.chooser,
            pushed=self.pushed, multiplier=jc.MULTIPLIER[mode] if mode >= 0 else 0,
            trick=tuple(jc.CARDS[c] for c in self.trick), trick_leader=self.trick_leader,
            tricks=tuple(Trick(leader, tuple(jc.CARDS[c] for c in cards), winner, points)
                         for leader, cards, winner, points in self.tricks),
            weis=self.public_weis, weis_points=self.weis_points, stoeck=self.stoeck_scored,
            hand_points=(self.hand_points[0], self.hand_points[1]), scores=(self.scores[0], self.scores[1]),
            target=self.target)

    def outcome(self) -> Outcome:
        if self._phase != _P_OVER:
            raise ValueError("the match is not over")
        scores = tuple(float(self.scores[team_of(seat)]) for seat in range(_NUM_PLAYERS))
        if self.termination is Termination.NORMAL and self.winner is not None:
            ranking = tuple(0 if team_of(seat) == self.winner else 2 for seat in range(_NUM_PLAYERS))
        else:
            ranking = competition_ranking(scores)
        detail = (f"{'tie' if self.winner is None else _TEAM_NAMES[self.winner] + ' wins'} after "
                  f"{self.hand_number} hands: {self.scores[0]}-{self.scores[1]}")
        if self.termination is Termination.CAP:
            detail = f"cap of {self.max_hands} hands reached: {self.scores[0]}-{self.scores[1]}"
        return Outcome(scores=scores, ranking=ranking, termination=self.termination, detail=detail)

    def clone(self) -> JassState:
        other = copy.copy(self)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.events = list(self.events)
        for name in ("scores", "hands", "trick", "tricks", "hand_points", "tricks_won", "bonus", "results"):
            setattr(other, name, list(getattr(self, name)))
        other.weis = [list(w) for w in self.weis]
        return other

    def __str__(self) -> str:
        hands = "; ".join(f"seat {s}: {cards_text(jc.CARDS[c] for c in jc.indices(self.hands[s]))}"
                          for s in range(_NUM_PLAYERS))
        mode = MODES[self.mode] if self.mode >= 0 else "-"
        return (f"hand {self.hand_number} {_PHASE_NAMES[self._phase]} ({mode}), seat {self.to_play} to play; {hands}; "
                f"trick {cards_text(jc.CARDS[c] for c in self.trick) or '-'}; "
                f"scores {self.scores[0]}-{self.scores[1]}")
