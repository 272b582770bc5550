"""Yaniv for 2 to 8 players (docs/rules/yaniv.md).

A match is a series of rounds.  Each round: 5 cards each, the stock's top card turned face
up for the round's first player; on a turn a player either calls Yaniv (hand of 5 points or
less, at the start of the turn) or discards a single card, a set or a run and then draws one
card: the stock's top, or the first or last card of the group the previous player discarded.
Round scores are added to the totals; exact 100 and exact 50 are halved, and a total above
100 puts the player out.  The last player left wins.

Decision structure: a turn is **two decisions**, discard (or Yaniv) and then draw.  Nothing
hidden is revealed between them, so this loses a bot nothing over one combined decision, and
it keeps each legal-action list short: a five-card hand with two jokers has up to 95
distinct discards (``5H 5S 5D X1 X2``; four of a kind and a joker, 165), which combined with
up to three draws would make lists of 300 to 500 actions.  Bots evaluate each discard with
its best follow-up draw just as well across two calls.

Rule decisions (docs/rules/yaniv.md **Decisions** first, then the ones taken here where both texts are
silent):

- *Joker discards* (docs/rules/yaniv.md): a multi-card discard holds at least one natural card; a run
  lands lowest rank first, a joker at the rank it stands for; a set in the order chosen.
- *Which joker* does not matter: each set or run appears once per distinct meaning, a group
  uses X1 before X2, and a joker alone is one discard (see :mod:`yaniv_groups`).
- *Set order*: only the first and last cards of a group can be taken, so set orders that
  differ only in the middle are one discard.  A group that reads the same as a set and a run
  (``X1 5H X2``) is one discard.  When the first and last cards of the group offered are
  both jokers, taking either is one draw (``take`` the first).
- *Runs* go up only, A low (A-2-3 is a run, Q-K-A is not); a joker may stand for a card the
  player holds.
- *Reshuffle*: when a draw empties the stock, the dead discards (every discard except the
  group the next player may take from) are shuffled at once into a new stock.  With five
  cards at most per hand and per group, at least 9 dead cards are then on the table.
- *Yaniv* (seed): only at the start of a turn, instead of discarding, with 5 points or less.
  The declarer scores 0 if every other player is strictly higher, else 30 plus their own
  points (Assaf); the others always score their own points.  All hands are revealed in a
  public event.
- *Turn cap* (docs/rules/yaniv.md): a round without a Yaniv ends after ``max_turns_per_round`` turns
  (300); every player scores their hand, and the hands are revealed as after a Yaniv.
- *Halving* (docs/rules/yaniv.md): after adding a round, a total of exactly 100 becomes 50; otherwise a
  total of exactly 50 becomes 25 (also a player halved to 50 in an earlier round who added 0
  since); a total above 100 is out.
- *Next starter* (docs/rules/yaniv.md): the lowest hand of the round; ties go to the declarer, else the
  first tied player after the declarer.  Decided here: only players still in count (one who
  went out in that round does not start), and after a capped round the player who was to
  move stands in for the declarer.  The first round's starter is
  drawn by the seeded RNG.
- *Ranking* (docs/rules/yaniv.md): the player left wins; the others by the round they went out (later
  is better), then by lower total, equal totals tied.  If all remaining players go out in the
  same round, the lowest totals among them win.  The match cap ``max_rounds`` (200) ends it
  with :attr:`Termination.CAP`, remaining players ranked by lower total.
- *Deal*: the shuffled deck gives 5 cards to each player still in, from the starter in play
  order, then the face-up card; the rest is the stock, drawn in order.

Information: discards, takes from the pile and the fact of a stock draw are public; the card
drawn from the stock and the dealt hands are private events.  Scores are the totals.

Test hook: ``YanivGame.new_initial_state(seed, *, decks=..., first_player=..., totals=...)``.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar, Final, Union

from referee.games import yaniv_groups as yg
from referee.games.base import (CHANCE, TERMINAL, Event, Game, IllegalActionError, Immutable, InvalidActionError,
                                Outcome, Seat, Setting, State, Termination)
from referee.games.cards import Card, cards_text, parse_cards

__all__ = ["Discard", "DrawStock", "RoundResult", "TakeCard", "Yaniv", "YanivAction", "YanivGame",
           "YanivObservation", "YanivState", "hand_value", "parse_action", "valid_discards"]

HAND_SIZE: Final = 5
YANIV_LIMIT: Final = 5
"""A hand of this many points or fewer may call Yaniv."""
ASSAF_PENALTY: Final = 30
ELIMINATION: Final = 100
"""A total above this is out; a total of exactly this is halved."""
HALF: Final = 50
"""A total of exactly this becomes 25 (unless it was just halved from 100)."""

_P_DISCARD, _P_DRAW, _P_OVER = range(3)
_PHASE_NAMES: Final = ("discard", "draw", "over")


# --- actions -------------------------------------------------------------------------------

@dataclass(frozen=True, repr=False)
class Yaniv(Immutable):
    """Call Yaniv: end the round (start of the turn, hand of 5 points or less)."""

    def __str__(self) -> str:
        return "yaniv"

    def __repr__(self) -> str:
        return "Yaniv()"


@dataclass(frozen=True, repr=False)
class Discard(Immutable):
    """Discard a group: its cards in the order they land (the first and last can be taken)."""

    cards: tuple[Card, ...]
    ids: tuple[int, ...] = field(init=False, compare=False, repr=False)
    """The cards' indices (see :mod:`yaniv_groups`), derived from ``cards``."""
    mask: int = field(init=False, compare=False, repr=False)
    text: str = field(init=False, compare=False, repr=False)
    """The cards' text, space-separated."""
    value: int = field(init=False, compare=False, repr=False)
    """The cards' points."""

    def __post_init__(self) -> None:
        ids = tuple(yg.INDEX[str(card)] for card in self.cards)
        object.__setattr__(self, "ids", ids)
        object.__setattr__(self, "mask", sum(1 << c for c in set(ids)))
        object.__setattr__(self, "text", cards_text(self.cards))
        object.__setattr__(self, "value", sum(yg.VALUES[c] for c in ids))

    @classmethod
    def from_text(cls, text: str) -> Discard:
        """A discard of space-separated cards, e.g. ``Discard.from_text("5H X1 7H")``."""
        return cls(tuple(parse_cards(text)))

    def __str__(self) -> str:
        return "discard " + self.text

    def __repr__(self) -> str:
        return f"Discard.from_text({cards_text(self.cards)!r})"


@dataclass(frozen=True, repr=False)
class DrawStock(Immutable):
    """Draw the top card of the stock."""

    def __str__(self) -> str:
        return "draw stock"

    def __repr__(self) -> str:
        return "DrawStock()"


@dataclass(frozen=True, repr=False)
class TakeCard(Immutable):
    """Take the first or last card of the group the previous player discarded."""

    card: Card
    index: int = field(init=False, compare=False, repr=False)
    """The card's index (see :mod:`yaniv_groups`)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", yg.INDEX[str(self.card)])

    def __str__(self) -> str:
        return f"take {self.card}"

    def __repr__(self) -> str:
        return f"TakeCard(Card.parse({str(self.card)!r}))"


YanivAction = Union[Yaniv, Discard, DrawStock, TakeCard]

_ONLY: Final = tuple(frozenset({seat}) for seat in range(8))
"""The ``visible_to`` of a private event, per seat."""
_YANIV: Final = Yaniv()
_DRAW_STOCK: Final = DrawStock()
_TAKE: Final = tuple(TakeCard(card) for card in yg.CARDS)
_DISCARDS: dict[tuple[int, ...], Discard] = {}
"""One interned :class:`Discard` per group (at most a few thousand), so legal lists share objects."""


def _discard(group: tuple[int, ...]) -> Discard:
    action = _DISCARDS.get(group)
    if action is None:
        action = _DISCARDS[group] = Discard(tuple(yg.CARDS[c] for c in group))
    return action


@lru_cache(maxsize=1 << 16)
def _discard_actions(hand: int) -> tuple[Discard, ...]:
    """The discard actions of a hand mask (cached: hands recur)."""
    groups = yg.groups_of(hand)
    try:
        return tuple(map(_DISCARDS.__getitem__, groups))
    except KeyError:
        return tuple(_discard(group) for group in groups)


def parse_action(text: str) -> YanivAction:
    """Read an action's text form: ``yaniv``, ``discard 5H 6H 7H``, ``draw stock``, ``take 7H``.

    >>> parse_action("discard 5H X1 7H")
    Discard.from_text('5H X1 7H')

    :raises InvalidActionError: for anything else.
    """
    words = text.split()
    try:
        if words == ["yaniv"]:
            return _YANIV
        if words == ["draw", "stock"]:
            return _DRAW_STOCK
        if len(words) == 2 and words[0] == "take":
            return _TAKE[yg.card_index(words[1])]
        if len(words) >= 2 and words[0] == "discard":
            return Discard(tuple(yg.CARDS[yg.card_index(w)] for w in words[1:]))
    except ValueError:
        pass
    raise InvalidActionError(f"not a Yaniv action: {text!r} (expected yaniv, discard <cards>, draw stock or take XX)")


# --- public checking functions -------------------------------------------------------------

def hand_value(cards: Iterable[Card | str] | str) -> int:
    """The points of some cards: A=1, 2-10 face value, J Q K 10, jokers 0.

    >>> hand_value(["X1", "AH", "5S", "TD", "QC"])
    26

    :raises ValueError: for a bad or repeated card.
    """
    return yg.mask_value(yg.to_mask(cards))


def valid_discards(hand: Iterable[Card | str] | str) -> list[list[str]]:
    """Every distinct valid discard of a hand, each in the order its cards land on the pile.

    >>> valid_discards("5H 6H X1")  # doctest: +NORMALIZE_WHITESPACE
    [['5H'], ['6H'], ['X1'], ['X1', '5H'], ['5H', 'X1'], ['X1', '6H'], ['6H', 'X1'],
     ['X1', '5H', '6H'], ['5H', '6H', 'X1']]

    :raises ValueError: for a bad or repeated card.
    """
    return [[yg.TEXTS[c] for c in group] for group in yg.groups_of(yg.to_mask(hand))]


# --- observations --------------------------------------------------------------------------

@dataclass(frozen=True)
class RoundResult:
    """How a round ended; public (every hand was revealed)."""

    round_number: int
    """1 for the match's first round."""
    kind: str
    """``"yaniv"`` (the declarer was lowest), ``"assaf"`` (someone was lower or equal) or ``"cap"``."""
    declarer: Seat | None
    """Who called Yaniv (``None`` after the turn cap)."""
    assaf_by: tuple[Seat, ...]
    """The players whose hands were lower than or equal to the declarer's."""
    hands: tuple[tuple[Card, ...], ...]
    """Every seat's revealed hand (empty for players already out)."""
    hand_values: tuple[int, ...]
    round_scores: tuple[int, ...]
    """What each seat added this round (0 for players already out)."""
    totals: tuple[int, ...]
    """Totals after halving."""
    halved: tuple[str, ...]
    """Per seat ``"100->50"``, ``"50->25"`` or ``""``."""
    eliminated: tuple[Seat, ...]
    """Players who went out in this round."""

    def __str__(self) -> str:
        who = "cap" if self.declarer is None else f"seat {self.declarer} {self.kind}"
        return f"round {self.round_number}: {who}, totals {'-'.join(map(str, self.totals))}"


@dataclass(frozen=True)
class YanivObservation:
    """What one seat may know: its hand, hand sizes, the public discards, takes and scores."""

    seat: Seat
    phase: str
    """``"discard"`` (discard or call Yaniv), ``"draw"`` or ``"over"``."""
    current_player: Seat
    """The seat to act, or ``-1`` when the match is over."""
    round_number: int
    starter: Seat
    """Who started this round."""
    turn: int
    """Turns completed in this round."""
    hand: tuple[Card, ...]
    """This seat's cards, rank order, jokers last."""
    hand_value: int
    hand_sizes: tuple[int, ...]
    """Cards per seat (0 for players out)."""
    stock_size: int
    draw_group: tuple[Card, ...]
    """The group the player to move may take the first or last card of."""
    discards: tuple[tuple[Seat, tuple[Card, ...]], ...]
    """This round's groups in order, as (seat, cards); the face-up card has seat -2."""
    dead: tuple[Card, ...]
    """Discards no one can take any more, to be shuffled into the next stock."""
    took: tuple[tuple[Card, ...], ...]
    """Per seat, the cards it took from the discards this round and still holds."""
    totals: tuple[int, ...]
    out_round: tuple[int, ...]
    """Per seat, the round in which it went out, 0 while it is in."""
    last_round: RoundResult | None

    def __str__(self) -> str:
        group = cards_text(self.draw_group) or "-"
        return (f"seat {self.seat} round {self.round_number} {self.phase}: {cards_text(self.hand)} "
                f"({self.hand_value}); may take from {group}; stock {self.stock_size}; "
                f"totals {'-'.join(map(str, self.totals))}")


# --- the game ------------------------------------------------------------------------------

class YanivGame(Game):
    """Yaniv: 2 to 8 players, every player for themselves."""

    name: ClassVar[str] = "yaniv"
    variants: ClassVar[tuple[str, ...]] = ("standard",)
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    default_players: ClassVar[int] = 4
    lower_scores_win: ClassVar[bool] = True
    short_match_settings: ClassVar[Mapping[str, Any]] = {"max_rounds": 3}
    settings_spec: ClassVar[tuple[Setting, ...]] = (
        Setting("max_turns_per_round", 300, "safety cap: a round without a Yaniv ends after this many turns",
                minimum=1, maximum=100_000),
        Setting("max_rounds", 200, "safety cap: the match ends after this many rounds (Termination.CAP)",
                minimum=1, maximum=100_000),
    )

    def new_initial_state(self, seed: int, *, decks: Sequence[Sequence[Card | str] | str] = (),
                          first_player: Seat | None = None, totals: Sequence[int] | None = None) -> YanivState:
        """A new match.

        Test hooks (keyword-only): ``decks[i]`` stacks round ``i`` (0-based), top first: 5
        cards to each player still in, from the round's starter in play order, then the
        face-up card, then the stock in drawing order.  A deck may be a prefix; the missing
        cards follow in seeded random order.  ``first_player`` fixes the first round's
        starter, ``totals`` the starting totals (each 0..100).

        :raises ValueError: for a bad or repeated card, a bad seat or bad totals.
        """
        stacked = [[yg.card_index(c) for c in (deck.split() if isinstance(deck, str) else deck)] for deck in decks]
        for deck in stacked:
            if len(set(deck)) != len(deck):
                raise ValueError("a stacked deck repeats a card")
        n = self.num_players
        if first_player is not None and not 0 <= first_player < n:
            raise ValueError(f"first_player must be a seat 0..{n - 1}, not {first_player!r}")
        if totals is not None and (len(totals) != n or not all(0 <= t <= ELIMINATION for t in totals)):
            raise ValueError(f"totals must be {n} numbers in 0..{ELIMINATION}")
        return YanivState(self, seed, stacked, first_player, totals)


class YanivState(State[YanivAction, YanivObservation]):
    """A match in progress: the current round, the totals and the previous round's result."""

    game: YanivGame

    def __init__(self, game: YanivGame, seed: int, decks: list[list[int]] | None = None,
                 first_player: Seat | None = None, totals: Sequence[int] | None = None) -> None:
        super().__init__(game, seed)
        n = game.num_players
        self.n = n
        self._decks = decks or []
        self._max_turns = int(game.settings["max_turns_per_round"])
        self._max_rounds = int(game.settings["max_rounds"])
        self.totals: list[int] = list(totals) if totals is not None else [0] * n
        self.out_round: list[int] = [0] * n
        """Per seat, the round in which it went out; 0 while it is in."""
        self.round_number = 0
        self.turn = 0
        """Turns completed in this round."""
        self.starter: Seat = self.rng.randrange(n) if first_player is None else first_player
        self.after: list[Seat] = list(range(n))
        """Per seat, the next seat still in (set at each deal: players go out between rounds)."""
        self.hands: list[int] = [0] * n
        """Each seat's cards as a mask (see :mod:`yaniv_groups`)."""
        self.values: list[int] = [0] * n
        """Each seat's hand points, kept up to date with ``hands``."""
        self.took: list[int] = [0] * n
        """Per seat, cards (mask) taken from the discards this round and still held."""
        self.stock: list[int] = []
        """Card indices of the stock; the last one is drawn next."""
        self.dead: list[int] = []
        """Discards no one can take any more."""
        self.offered: tuple[int, ...] = ()
        """The group the player to move may take the first or last card of."""
        self.pending: tuple[int, ...] = ()
        """The group the player to move has just discarded (draw phase)."""
        self.history: list[tuple[Seat, tuple[int, ...]]] = []
        """This round's groups in order; the face-up card has seat :data:`CHANCE`."""
        self.results: list[RoundResult] = []
        self.termination = Termination.NORMAL
        self.to_play: Seat = self.starter
        self._phase = _P_DISCARD
        self._deal()

    # --- rounds --------------------------------------------------------------------------
    def _active(self) -> list[Seat]:
        """The seats still in, in play order from seat 0."""
        return [s for s in range(self.n) if not self.out_round[s]]

    def _next(self, seat: Seat) -> Seat:
        """The next seat still in after ``seat`` (``seat`` itself if no other is in)."""
        n = self.n
        for step in range(1, n + 1):
            other = (seat + step) % n
            if not self.out_round[other]:
                return other
        return seat

    def _seat_order(self) -> list[Seat]:
        """Per seat, the next seat still in (kept in :attr:`after` for the hot path)."""
        return [self._next(seat) for seat in range(self.n)]

    def _deal(self) -> None:
        self.after = self._seat_order()
        index = self.round_number
        self.round_number += 1
        self.turn = 0
        if index < len(self._decks):
            deck = list(self._decks[index])
            given = set(deck)
            rest = [c for c in range(yg.NUM_CARDS) if c not in given]
            self.rng.shuffle(rest)
            deck += rest
        else:
            deck = list(range(yg.NUM_CARDS))
            self.rng.shuffle(deck)
        self.hands = [0] * self.n
        self.took = [0] * self.n
        self.values = [0] * self.n
        seat, pos = self.starter, 0
        order = []
        for _ in range(len(self._active())):
            order.append(seat)
            for card in deck[pos:pos + HAND_SIZE]:
                self.hands[seat] |= 1 << card
            pos += HAND_SIZE
            seat = self._next(seat)
        self.values = [yg.mask_value(hand) for hand in self.hands]
        upcard = deck[pos]
        self.stock = deck[:pos:-1]
        self.dead = []
        self.offered = (upcard,)
        self.pending = ()
        self.history = [(CHANCE, self.offered)]
        self.to_play = self.starter
        self._phase = _P_DISCARD
        self.log(CHANCE, f"round {self.round_number}: seat {self.starter} starts; face-up card {yg.TEXTS[upcard]}")
        for seat in order:
            self.log(CHANCE, f"seat {seat} is dealt {cards_text(yg.to_cards(self.hands[seat]))}",
                     visible_to=frozenset({seat}))

    def _end_round(self, declarer: Seat | None) -> None:
        active = self._active()
        n = self.n
        values = [yg.mask_value(self.hands[s]) if s in active else 0 for s in range(n)]
        scores = list(values)
        assaf: tuple[Seat, ...] = ()
        kind = "cap"
        if declarer is not None:
            assaf = tuple(s for s in active if s != declarer and values[s] <= values[declarer])
            kind = "assaf" if assaf else "yaniv"
            scores[declarer] = ASSAF_PENALTY + values[declarer] if assaf else 0
        halved = [""] * n
        eliminated = []
        for s in active:
            total = self.totals[s] + scores[s]
            if total == ELIMINATION:
                total, halved[s] = ELIMINATION // 2, "100->50"
            elif total == HALF:
                total, halved[s] = HALF // 2, "50->25"
            elif total > ELIMINATION:
                self.out_round[s] = self.round_number
                eliminated.append(s)
            self.totals[s] = total
        hands = tuple(yg.to_cards(self.hands[s]) if s in active else () for s in range(n))
        result = RoundResult(self.round_number, kind, declarer, assaf, hands, tuple(values),
                             tuple(scores), tuple(self.totals), tuple(halved), tuple(eliminated))
        self.results.append(result)
        shown = "; ".join(f"seat {s} {cards_text(hands[s])} ({values[s]})" for s in active)
        how = ("the turn cap ends the round" if declarer is None else
               f"Assaf by seat {', '.join(map(str, assaf))}" if assaf else f"seat {declarer} is lowest")
        self.log(CHANCE, f"round {self.round_number} ends, {how}; hands: {shown}")
        notes = [f"seat {s} halved {halved[s]}" for s in active if halved[s]]
        notes += [f"seat {s} is out" for s in eliminated]
        self.log(CHANCE, f"round {self.round_number} scores {'-'.join(map(str, scores))}; totals "
                         f"{'-'.join(map(str, self.totals))}" + ("; " + ", ".join(notes) if notes else ""),
                 milestone=True)
        still = self._active()
        if len(still) <= 1:
            self._finish(Termination.NORMAL)
            return
        if self.round_number >= self._max_rounds:
            self._finish(Termination.CAP)
            return
        origin = self.to_play
        lowest = min(values[s] for s in still)
        self.starter = next(s for s in ((origin + k) % n for k in range(n)) if s in still and values[s] == lowest)
        self._deal()

    def _finish(self, termination: Termination) -> None:
        self._phase = _P_OVER
        self.to_play = TERMINAL
        self.termination = termination
        self.log(CHANCE, f"match over after {self.round_number} rounds: totals {'-'.join(map(str, self.totals))}",
                 milestone=True)

    # --- the State API -------------------------------------------------------------------
    def current_player(self) -> Seat:
        return self.to_play

    def _legal_actions(self) -> list[YanivAction]:
        phase = self._phase
        if phase == _P_DISCARD:
            hand = self.hands[self.to_play]
            if self.values[self.to_play] <= YANIV_LIMIT:
                return [_YANIV, *_discard_actions(hand)]
            return list(_discard_actions(hand))
        if phase == _P_DRAW:
            group = self.offered
            first, last = group[0], group[-1]
            if len(group) == 1 or first >= 52 and last >= 52:
                return [_DRAW_STOCK, _TAKE[first]]
            return [_DRAW_STOCK, _TAKE[first], _TAKE[last]]
        return []

    def apply(self, action: YanivAction) -> None:
        """Validate and apply ``action`` for :meth:`current_player`.

        :raises InvalidActionError: if ``action`` is not a Yaniv action at all.
        :raises IllegalActionError: if it is not legal now (the state is unchanged).
        """
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise InvalidActionError(f"not a Yaniv action: {action!r}")
        # The base class's checks, inlined: this is the engine's hot path.
        if self.to_play == TERMINAL:
            raise IllegalActionError(f"the game is over; {action} cannot be played")
        if not self.is_legal(action):
            raise IllegalActionError(f"{action} is not legal for seat {self.to_play} now")
        self._legal = None
        handler(self, action)

    def is_legal(self, action: YanivAction) -> bool:
        """Whether ``action`` is legal now.

        Legal lists hold interned actions, so an action is looked up by identity after
        interning; comparing dataclasses one by one is slow with long discard lists.
        """
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_actions()
        kind = type(action)
        if kind is Discard:
            action = _DISCARDS.get(action.ids, action)
        elif kind is TakeCard:
            action = _TAKE[action.index]
        elif kind is DrawStock:
            action = _DRAW_STOCK
        elif kind is Yaniv:
            action = _YANIV
        else:
            return False
        return any(a is action for a in legal)

    def _apply(self, action: YanivAction) -> None:
        _HANDLERS[type(action)](self, action)

    def _yaniv(self, action: Yaniv) -> None:
        seat = self.to_play
        self.log(seat, f"seat {seat} calls Yaniv", action)
        self._end_round(seat)

    def _discard(self, action: Discard) -> None:
        seat = self.to_play
        group = action.ids
        mask = action.mask
        self.hands[seat] ^= mask
        self.values[seat] -= action.value
        self.took[seat] &= ~mask
        self.pending = group
        self.history.append((seat, group))
        self._phase = _P_DRAW
        self.events.append(Event(seat, f"seat {seat} discards {action.text}", action))

    def _draw_stock(self, action: DrawStock) -> None:
        seat = self.to_play
        card = self.stock.pop()
        self.hands[seat] |= 1 << card
        self.values[seat] += yg.VALUES[card]
        self.dead.extend(self.offered)
        events = self.events
        events.append(Event(seat, f"seat {seat} draws from the stock", action))
        events.append(Event(seat, f"seat {seat} draws {yg.TEXTS[card]}", None, _ONLY[seat]))
        self._end_turn()

    def _take(self, action: TakeCard) -> None:
        seat = self.to_play
        card = action.index
        self.hands[seat] |= 1 << card
        self.values[seat] += yg.VALUES[card]
        self.took[seat] |= 1 << card
        dead = self.dead
        for other in self.offered:
            if other != card:
                dead.append(other)
        self.events.append(Event(seat, f"seat {seat} takes {yg.TEXTS[card]}", action))
        self._end_turn()

    def _end_turn(self) -> None:
        self.offered = self.pending
        self.pending = ()
        if not self.stock:
            self.stock = self.dead
            self.dead = []
            self.rng.shuffle(self.stock)
            self.log(CHANCE, f"the stock is empty: {len(self.stock)} dead discards are shuffled into a new stock")
        self.turn += 1
        self.to_play = self.after[self.to_play]
        if self.turn >= self._max_turns:
            self._end_round(None)
            return
        self._phase = _P_DISCARD

    def observe(self, seat: Seat) -> YanivObservation:
        if not 0 <= seat < self.n:
            raise ValueError(f"this Yaniv match has seats 0..{self.n - 1}, not {seat!r}")
        hand = self.hands[seat]
        cards = yg.CARDS
        return YanivObservation(
            seat=seat, phase=_PHASE_NAMES[self._phase], current_player=self.to_play, round_number=self.round_number,
            starter=self.starter, turn=self.turn, hand=yg.to_cards(hand), hand_value=yg.mask_value(hand),
            hand_sizes=tuple(0 if self.out_round[s] else h.bit_count() for s, h in enumerate(self.hands)),
            stock_size=len(self.stock), draw_group=tuple(cards[c] for c in self.offered),
            discards=tuple((s, tuple(cards[c] for c in group)) for s, group in self.history),
            dead=tuple(cards[c] for c in self.dead), took=tuple(yg.to_cards(t) for t in self.took),
            totals=tuple(self.totals), out_round=tuple(self.out_round),
            last_round=self.results[-1] if self.results else None)

    def ranking_keys(self) -> list[tuple[int, int]]:
        """Per seat, a key where greater is better: (round gone out, or above any round while
        still in; minus the total)."""
        still = self._max_rounds + 1
        return [(self.out_round[s] or still, -self.totals[s]) for s in range(self.n)]

    def outcome(self) -> Outcome:
        if self._phase != _P_OVER:
            raise ValueError("the match is not over")
        keys = self.ranking_keys()
        ranking = tuple(sum(1 for other in keys if other > key) for key in keys)
        winners = [s for s in range(self.n) if ranking[s] == 0]
        if self.termination is Termination.CAP:
            detail = f"cap of {self._max_rounds} rounds reached; lowest total: seat {', '.join(map(str, winners))}"
        else:
            detail = f"seat {', '.join(map(str, winners))} wins after {self.round_number} rounds"
        return Outcome(scores=tuple(float(t) for t in self.totals), ranking=ranking, termination=self.termination,
                       detail=f"{detail}; totals {'-'.join(map(str, self.totals))}")

    def clone(self) -> YanivState:
        other = copy.copy(self)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        for name in ("events", "totals", "out_round", "after", "hands", "values", "took", "stock", "dead", "history",
                     "results"):
            setattr(other, name, list(getattr(self, name)))
        return other

    def __str__(self) -> str:
        hands = "; ".join(f"seat {s}: {cards_text(yg.to_cards(h))}" for s, h in enumerate(self.hands)
                          if not self.out_round[s])
        return (f"round {self.round_number} turn {self.turn} {_PHASE_NAMES[self._phase]}, seat {self.to_play} to play; "
                f"{hands}; offered {cards_text(yg.CARDS[c] for c in self.offered)}; stock {len(self.stock)}; "
                f"totals {'-'.join(map(str, self.totals))}")


_HANDLERS: Final[dict[type, Any]] = {
    Yaniv: YanivState._yaniv,
    Discard: YanivState._discard,
    DrawStock: YanivState._draw_stock,
    TakeCard: YanivState._take,
}
