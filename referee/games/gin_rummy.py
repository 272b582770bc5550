"""Gin Rummy for two, with the Oklahoma and Straight variants (docs/rules/gin_rummy.md).

A match is a whole game: hands are dealt until a player reaches the target (100, Oklahoma
150) or, in Straight, wins 4 hands.  Each hand: 10 cards each, the upcard offered to the
non-dealer, then the dealer; if both pass the non-dealer draws from the stock.  Then players
alternate drawing (stock or discard pile top) and discarding.  Knocking is part of the
discard (``discard TD knock``); big gin is a knock without a discard (``big gin``).  The
engine arranges both hands when a hand ends (:func:`gin_rummy_melds.settle`).

Rule decisions (docs/rules/gin_rummy.md **Decisions** and the ones taken here where both texts are silent):

- *Arrangement* (docs/rules/gin_rummy.md): the knocker's melds minimise the knocker's deadwood, ties broken
  to leave the defender the fewest lay-off points, i.e. the defender's best deadwood after
  lay-offs is largest; the defender's melds and lay-offs minimise the defender's deadwood.
  Remaining ties: the first arrangement found; the defender prefers fewer lay-offs.
- *Shutout* (docs/rules/gin_rummy.md): +100 to a winner whose opponent won no hand.
- *Gin cannot be undercut*: after gin or big gin the knocker scores the defender's deadwood
  (0 included) plus the bonus, even if the defender's deadwood is 0.
- *Gin with a knock limit of 0*: in Oklahoma after an ace upcard and in Straight, only a knock
  with deadwood 0 (gin) or big gin is legal.  Big gin is always legal with 11 cards melded,
  and a player may also discard (gin) or play on instead.
- *Void hand*: after a discard without a knock that leaves 2 or fewer cards in the stock, the
  hand is void; it still counts as a hand for the alternating dealer (docs/rules/gin_rummy.md: "the dealer
  alternates each hand") and for the ``max_hands`` cap.
- *First dealer*: drawn by the seeded RNG; then the dealer alternates every hand.
- *Deal*: from the shuffled deck, the non-dealer gets cards 0-9, the dealer 10-19, card 20
  is the upcard and cards 21.. the stock, drawn in order.
- *Forced draw*: once both players passed the upcard, the non-dealer's only action is
  ``draw stock``.
- *Oklahoma*: each hand's upcard sets that hand's knock limit (J Q K 10, 2-10 its value, A 0)
  and a spade upcard doubles everything that hand scores, bonuses included (box bonuses
  count hands, not points, so they are not doubled).
- *Straight*: hands are scored as usual (points are shown) but the match is won by the first
  to win ``hands_to_win`` (4) hands (gin cannot be undercut, so the knocker always wins the
  hand).  The outcome's scores are the hands won, with no end-of-game bonuses.
- *End-of-game bonuses* (standard, Oklahoma): game +100 to the winner, box +25 per hand won
  to both, shutout +100; the outcome's scores are the totals with bonuses.  The ranking puts
  the player who reached the target first, even if the loser's box bonuses give a higher
  total.
- *Safety cap* ``max_hands`` (default 200): the match ends after that many hands with
  :attr:`Termination.CAP`; no bonuses; players are ranked by points (Straight: hands won),
  equal ties.
- *Safety cap* ``max_draws_per_hand`` (default 200): players who keep taking from the discard
  pile never run the stock down, so a discard without a knock after that many draws in the
  hand (stock and pile together) voids the hand, as the stock rule does.

Information: the discard pile and every decision are public; a stock draw is public as an
action, the card drawn is told only to the drawer (a private event), as are the dealt hands.
Both hands become public when a hand ends (the show event, ``last_hand`` in observations).
Settings: ``target_score`` (0 = the variant's), ``hands_to_win``, and the two caps above.

Test hook: ``GinRummyGame.new_initial_state(seed, *, decks=..., first_dealer=...)`` stacks
the deck of the first hands (see :meth:`GinRummyGame.new_initial_state`).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Union

from referee.games import gin_rummy_melds as gm
from referee.games.base import (CHANCE, TERMINAL, Game, IllegalActionError, Immutable, InvalidActionError, Outcome,
                                Seat, Setting, State, Termination, competition_ranking)
from referee.games.cards import Card, cards_text
from referee.games.gin_rummy_melds import KnockScore

__all__ = ["BigGin", "Discard", "DrawStock", "GinRummyAction", "GinRummyGame", "GinRummyObservation",
           "GinRummyState", "HandResult", "KnockScore", "Pass", "TakeDiscard", "deadwood", "end_bonuses",
           "parse_action", "knock_limit_of", "score_knock"]

_NUM_PLAYERS: Final = 2
_HAND_SIZE: Final = 10
_VOID_STOCK: Final = 2
"""A discard without a knock that leaves this many stock cards or fewer voids the hand."""
_GAME_BONUS: Final = 100
_BOX_BONUS: Final = 25
_SHUTOUT_BONUS: Final = 100
_TARGETS: Final = {"standard": 100, "oklahoma": 150, "straight": 0}

# Phases.
_P_OFFER_NONDEALER, _P_OFFER_DEALER, _P_DRAW, _P_DISCARD, _P_OVER = range(5)
_PHASE_NAMES: Final = ("offer", "offer", "draw", "discard", "over")
_VISIBLE: Final = (frozenset({0}), frozenset({1}))
_SUIT_INDEX: Final = {"S": 0, "H": 1, "D": 2, "C": 3}


# --- actions -------------------------------------------------------------------------------

@dataclass(frozen=True, repr=False)
class DrawStock(Immutable):
    """Draw the top card of the stock."""

    def __str__(self) -> str:
        return "draw stock"

    def __repr__(self) -> str:
        return "DrawStock()"


@dataclass(frozen=True, repr=False)
class TakeDiscard(Immutable):
    """Take the top card of the discard pile (the upcard during the offer)."""

    card: Card

    def __str__(self) -> str:
        return f"take {self.card}"

    def __repr__(self) -> str:
        return f"TakeDiscard(Card.parse({str(self.card)!r}))"


@dataclass(frozen=True, repr=False)
class Pass(Immutable):
    """Decline the upcard."""

    def __str__(self) -> str:
        return "pass"

    def __repr__(self) -> str:
        return "Pass()"


@dataclass(frozen=True, repr=False)
class Discard(Immutable):
    """Discard a card, and with ``knock`` end the hand (gin when no deadwood is left)."""

    card: Card
    knock: bool = False

    def __str__(self) -> str:
        return f"discard {self.card}" + (" knock" if self.knock else "")

    def __repr__(self) -> str:
        return f"Discard(Card.parse({str(self.card)!r}){', knock=True' if self.knock else ''})"


@dataclass(frozen=True, repr=False)
class BigGin(Immutable):
    """Show 11 melded cards without discarding."""

    def __str__(self) -> str:
        return "big gin"

    def __repr__(self) -> str:
        return "BigGin()"


GinRummyAction = Union[DrawStock, TakeDiscard, Pass, Discard, BigGin]

_DRAW_STOCK: Final = DrawStock()
_PASS: Final = Pass()
_BIG_GIN: Final = BigGin()
_TAKE: Final = tuple(TakeDiscard(card) for card in gm.CARDS)
_DISCARD: Final = tuple(Discard(card) for card in gm.CARDS)
_KNOCK: Final = tuple(Discard(card, knock=True) for card in gm.CARDS)


def parse_action(text: str) -> GinRummyAction:
    """Read an action's text form: ``draw stock``, ``take 7H``, ``pass``, ``discard TD``,
    ``discard TD knock`` or ``big gin``.

    >>> parse_action("discard TD knock")
    Discard(Card.parse('TD'), knock=True)

    :raises InvalidActionError: for anything else.
    """
    words = text.split()
    try:
        if words in (["draw", "stock"], ["pass"], ["big", "gin"]):
            return {"draw": _DRAW_STOCK, "pass": _PASS, "big": _BIG_GIN}[words[0]]
        if len(words) == 2 and words[0] == "take":
            return _TAKE[gm.card_index(words[1])]
        if words[:1] == ["discard"] and (len(words) == 2 or words[2:] == ["knock"]):
            return (_KNOCK if len(words) == 3 else _DISCARD)[gm.card_index(words[1])]
    except ValueError:
        pass
    raise InvalidActionError(f"not a Gin Rummy action: {text!r} "
                             "(expected draw stock, take XX, pass, discard XX [knock] or big gin)")


def _discard_actions(hand: int, taken: int, limit: int) -> list[GinRummyAction]:
    """The legal actions of a hand of 11 about to discard (``taken``: card index or -1)."""
    own, after = gm.discard_deadwoods(hand, limit)
    if after is None:
        return [_DISCARD[card] for card in gm.indices(hand) if card != taken]
    actions: list[GinRummyAction] = []
    for card, dw in after:
        if card != taken:
            actions.append(_DISCARD[card])
            if dw <= limit:
                actions.append(_KNOCK[card])
    if own == 0:
        actions.append(_BIG_GIN)
    return actions


# --- public checking functions -------------------------------------------------------------

def deadwood(cards: Iterable[Card | str] | str) -> int:
    """The smallest deadwood of any cards (texts, :class:`Card` objects or one string).

    >>> deadwood(["AS", "2S", "3S", "KD"])
    10

    :raises ValueError: for a bad or repeated card.
    """
    return gm.min_deadwood(gm.to_mask(cards))


def score_knock(knocker_cards: Iterable[Card | str] | str, defender_cards: Iterable[Card | str] | str, *,
                knock_limit: int = 10) -> KnockScore:
    """Settle a knock, lay-offs applied, and say who scores what.

    ``knocker_cards`` are the knocker's 10 cards after the discard (11 for big gin: all of
    them melded); ``defender_cards`` the defender's 10.  Returns a :class:`KnockScore`
    (``points``, ``winner`` ``"knocker"``/``"defender"``, ``kind``
    ``"knock"``/``"undercut"``/``"gin"``/``"big_gin"``, both deadwoods and the laid-out hands).

    >>> score_knock("AS 2S 3S 4H 5H 6H 7C 7D 7S 2D", "KS KH QD QC JD JC TS 9H 8D 3C").points
    88

    :raises ValueError: for bad, repeated or shared cards, wrong hand sizes, a knocker's
        deadwood above ``knock_limit``, or 11 knocker cards that are not all melded.
    """
    knocker = gm.to_mask(knocker_cards)
    defender = gm.to_mask(defender_cards)
    if knocker & defender:
        raise ValueError(f"cards in both hands: {cards_text(gm.to_cards(knocker & defender))}")
    if knocker.bit_count() not in (_HAND_SIZE, _HAND_SIZE + 1):
        raise ValueError(f"the knocker holds 10 cards (11 for big gin), not {knocker.bit_count()}")
    if defender.bit_count() != _HAND_SIZE:
        raise ValueError(f"the defender holds 10 cards, not {defender.bit_count()}")
    own = gm.min_deadwood(knocker)
    if knocker.bit_count() == _HAND_SIZE + 1 and own:
        raise ValueError(f"big gin needs all 11 cards melded; deadwood is {own}")
    if own > knock_limit:
        raise ValueError(f"the knocker's deadwood {own} is above the knock limit {knock_limit}")
    return gm.settle(knocker, defender)


def knock_limit_of(upcard: Card) -> int:
    """The Oklahoma knock limit set by an upcard: J Q K 10, 2-10 its value, ace 0 (gin only)."""
    return 0 if upcard.rank == 1 else min(upcard.rank, 10)


# --- observations --------------------------------------------------------------------------

@dataclass(frozen=True)
class HandResult:
    """How a hand ended; public once it has ended (both hands were shown)."""

    hand_number: int
    """1 for the match's first hand."""
    kind: str
    """``"knock"``, ``"undercut"``, ``"gin"``, ``"big_gin"`` or ``"void"``."""
    knocker: Seat | None
    """Who knocked (``None`` for a void hand)."""
    winner: Seat | None
    """Who scored the hand (``None`` for a void hand)."""
    points: int
    """What the winner scored, Oklahoma doubling included."""
    doubled: bool
    """Whether an Oklahoma spade upcard doubled the hand."""
    score: KnockScore | None
    """The shown hands: melds, lay-offs and deadwood (``None`` for a void hand)."""

    def __str__(self) -> str:
        if self.score is None:
            return f"hand {self.hand_number} void"
        word = self.kind.replace("_", " ")
        return f"hand {self.hand_number}: {word}, seat {self.winner} scores {self.points}"


def end_bonuses(scores: Sequence[int], hands_won: Sequence[int], target: int) -> tuple[dict[str, int], ...]:
    """Each seat's end-of-game bonuses by name (``box``, ``game``, ``shutout``) once a seat has
    reached ``target`` (standard, Oklahoma): the outcome's scores are the points plus these,
    and the boards show them one by one.
    """
    winner = 0 if scores[0] >= target else 1
    bonuses = tuple({"box": _BOX_BONUS * hands_won[s]} for s in (0, 1))
    bonuses[winner]["game"] = _GAME_BONUS
    if hands_won[1 - winner] == 0:
        bonuses[winner]["shutout"] = _SHUTOUT_BONUS
    return bonuses


@dataclass(frozen=True)
class GinRummyObservation:
    """What one seat may know: its hand, the public piles and scores, the last hand shown."""

    seat: Seat
    variant: str
    phase: str
    """``"offer"`` (upcard offered), ``"draw"``, ``"discard"`` or ``"over"``."""
    current_player: Seat
    """The seat to act, or ``-1`` when the match is over."""
    hand: tuple[Card, ...]
    """This seat's cards, by rank then suit (S H D C)."""
    deadwood: int
    """This seat's smallest deadwood."""
    taken_card: Card | None
    """The card this seat just took from the discard pile (it may not discard it now)."""
    discard_pile: tuple[Card, ...]
    """The whole discard pile, bottom first: its last card is the top."""
    opponent_took: tuple[Card, ...]
    """Cards the opponent took from the discard pile and still holds."""
    opponent_hand_size: int
    stock_size: int
    dealer: Seat
    hand_number: int
    """1 for the first hand."""
    knock_limit: int
    """The deadwood allowed when knocking this hand (0: gin only)."""
    doubled: bool
    """Oklahoma: a spade upcard doubles this hand's score."""
    scores: tuple[int, ...]
    """Points per seat so far (no end-of-game bonuses)."""
    hands_won: tuple[int, ...]
    target: int
    """Points to reach (0 in Straight, which counts hands)."""
    hands_to_win: int
    """Straight: hands to win the match (0 in the other variants)."""
    last_hand: HandResult | None
    """The previous hand's result with both hands shown, if any."""

    def __str__(self) -> str:
        top = f"top {self.discard_pile[-1]}" if self.discard_pile else "pile empty"
        return (f"seat {self.seat} hand {self.hand_number} {self.phase}: {cards_text(self.hand)} "
                f"(deadwood {self.deadwood}); {top}; stock {self.stock_size}; "
                f"scores {'-'.join(map(str, self.scores))}")


# --- the game ------------------------------------------------------------------------------

class GinRummyGame(Game):
    """Gin Rummy: variants standard, Oklahoma and Straight; exactly 2 players."""

    name: ClassVar[str] = "gin_rummy"
    variants: ClassVar[tuple[str, ...]] = ("standard", "oklahoma", "straight")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    default_players: ClassVar[int] = 2
    short_match_settings: ClassVar[Mapping[str, Any]] = {"max_hands": 3}
    settings_spec: ClassVar[tuple[Setting, ...]] = (
        Setting("target_score", 0, "points that win the match; 0 = the variant's (100, Oklahoma 150; "
                "unused in Straight)", minimum=0, maximum=10_000),
        Setting("hands_to_win", 4, "Straight: hands that win the match", minimum=1, maximum=100),
        Setting("max_hands", 200, "safety cap: the match ends after this many hands (Termination.CAP)",
                minimum=1, maximum=100_000),
        Setting("max_draws_per_hand", 200, "safety cap: a hand is void after this many draws (stock or pile)",
                minimum=1, maximum=100_000),
    )

    @property
    def target(self) -> int:
        """Points that win a standard or Oklahoma match (0 in Straight)."""
        if self.variant == "straight":
            return 0
        return int(self.settings["target_score"]) or _TARGETS[self.variant]

    def new_initial_state(self, seed: int, *, decks: Sequence[Sequence[Card | str] | str] = (),
                          first_dealer: Seat | None = None) -> GinRummyState:
        """A new match.

        Test hooks (keyword-only): ``decks[i]`` stacks the deck of hand ``i`` (0-based) as a
        sequence of cards (or one space-separated string), top first: the non-dealer gets
        cards 0-9, the dealer 10-19, card 20 is the upcard and the rest is the stock, drawn in
        order.  A deck may be a prefix: the missing cards follow in seeded random order.
        Later hands are shuffled.  ``first_dealer`` fixes the first hand's dealer.

        :raises ValueError: for a bad or repeated card in a deck, or a bad dealer.
        """
        stacked = [[gm.card_index(c) for c in (deck.split() if isinstance(deck, str) else deck)] for deck in decks]
        for deck in stacked:
            if len(set(deck)) != len(deck):
                repeated = next(c for c in deck if deck.count(c) > 1)
                raise ValueError(f"a stacked deck repeats {gm.TEXTS[repeated]}")
        if first_dealer is not None and first_dealer not in (0, 1):
            raise ValueError(f"first_dealer must be 0 or 1, not {first_dealer!r}")
        return GinRummyState(self, seed, stacked, first_dealer)


class GinRummyState(State[GinRummyAction, GinRummyObservation]):
    """A match in progress: the current hand, scores and the previous hand's result."""

    game: GinRummyGame

    def __init__(self, game: GinRummyGame, seed: int, decks: list[list[int]] | None = None,
                 first_dealer: Seat | None = None) -> None:
        super().__init__(game, seed)
        self._decks = decks or []
        self._oklahoma = game.variant == "oklahoma"
        self._straight = game.variant == "straight"
        self._target = game.target
        self._hands_to_win = int(game.settings["hands_to_win"]) if self._straight else 0
        self._max_hands = int(game.settings["max_hands"])
        self._max_draws = int(game.settings["max_draws_per_hand"])
        self.scores = [0, 0]
        self.hands_won = [0, 0]
        self.hand_number = 0
        self.dealer: Seat = self.rng.randrange(_NUM_PLAYERS) if first_dealer is None else first_dealer
        self.last_hand: HandResult | None = None
        self.results: list[HandResult] = []
        """Every hand's result, in order."""
        self.termination = Termination.NORMAL
        self.hands: list[int] = [0, 0]
        """Each seat's cards as a mask (see :mod:`gin_rummy_melds`)."""
        self.stock: list[int] = []
        """Card indices of the stock; the last one is drawn next."""
        self.discard_pile: list[int] = []
        """Card indices of the discard pile, bottom first."""
        self.took: list[int] = [0, 0]
        """Per seat, the cards (mask) it took from the discard pile and still holds."""
        self.taken = -1
        """The card index taken from the pile this turn (not to be discarded), or -1."""
        self.knock_limit = 10
        self.doubled = False
        self.draws = 0
        """Draws (stock or pile) in this hand, for the ``max_draws_per_hand`` cap."""
        self._phase = _P_OFFER_NONDEALER
        self.to_play: Seat = 0
        self._stock_only = False
        self._deal(first=True)

    # --- dealing and ending hands --------------------------------------------------------
    def _deal(self, *, first: bool = False) -> None:
        if not first:
            self.dealer = 1 - self.dealer
        index = self.hand_number
        self.hand_number += 1
        if index < len(self._decks):
            deck = list(self._decks[index])
            given = set(deck)
            rest = [c for c in range(gm.NUM_CARDS) if c not in given]
            self.rng.shuffle(rest)
            deck += rest
        else:
            deck = list(range(gm.NUM_CARDS))
            self.rng.shuffle(deck)
        dealer = self.dealer
        nondealer = 1 - dealer
        self.hands = [0, 0]
        for c in deck[:10]:
            self.hands[nondealer] |= 1 << c
        for c in deck[10:20]:
            self.hands[dealer] |= 1 << c
        upcard = deck[20]
        self.discard_pile = [upcard]
        self.stock = deck[:20:-1]
        self.took = [0, 0]
        self.taken = -1
        self._phase = _P_OFFER_NONDEALER
        self.to_play = nondealer
        self.knock_limit = 0 if self._straight else 10
        self.doubled = False
        if self._oklahoma:
            self.knock_limit = knock_limit_of(gm.CARDS[upcard])
            self.doubled = upcard % 4 == 0
        self._stock_only = False
        self.draws = 0
        note = f"; knock limit {self.knock_limit}" + (", doubled" if self.doubled else "") if self._oklahoma else ""
        self.log(CHANCE, f"hand {self.hand_number}: seat {dealer} deals, upcard {gm.TEXTS[upcard]}{note}")
        for seat in (0, 1):
            self.log(CHANCE, f"seat {seat} is dealt {cards_text(gm.to_cards(self.hands[seat]))}",
                     visible_to=_VISIBLE[seat])

    def _end_hand(self, result: HandResult) -> None:
        self.last_hand = result
        self.results.append(result)
        if result.winner is not None:
            self.scores[result.winner] += result.points
            self.hands_won[result.winner] += 1
        over = (self._straight and max(self.hands_won) >= self._hands_to_win
                or not self._straight and max(self.scores) >= self._target)
        if over:
            self._finish(Termination.NORMAL)
        elif self.hand_number >= self._max_hands:
            self._finish(Termination.CAP)
        else:
            self._deal()

    def _finish(self, termination: Termination) -> None:
        self._phase = _P_OVER
        self.to_play = TERMINAL
        self.termination = termination
        self.log(CHANCE, f"match over after {self.hand_number} hands: points {self.scores[0]}-{self.scores[1]}, "
                         f"hands won {self.hands_won[0]}-{self.hands_won[1]}", milestone=True)

    def _knock(self, seat: Seat) -> None:
        score = gm.settle(self.hands[seat], self.hands[1 - seat])
        winner = seat if score.winner == "knocker" else 1 - seat
        points = score.points * (2 if self.doubled else 1)
        result = HandResult(self.hand_number, score.kind, seat, winner, points, self.doubled, score)
        melds = " ".join("[" + cards_text(m) + "]" for m in score.knocker_melds)
        d_melds = " ".join("[" + cards_text(m) + "]" for m in score.defender_melds)
        self.log(seat, f"seat {seat} shows {melds} deadwood {cards_text(score.knocker_unmatched) or '-'} "
                       f"({score.knocker_deadwood}); seat {1 - seat} shows {d_melds or '-'} "
                       f"lays off {cards_text(score.layoffs) or '-'} "
                       f"deadwood {cards_text(score.defender_unmatched) or '-'} ({score.defender_deadwood}); "
                       f"{score.kind.replace('_', ' ')}: seat {winner} scores {points}"
                       + (" (doubled)" if self.doubled else ""), milestone=True)
        self._end_hand(result)

    # --- the State API -------------------------------------------------------------------
    def current_player(self) -> Seat:
        return self.to_play

    def _legal_actions(self) -> list[GinRummyAction]:
        phase = self._phase
        if phase == _P_DISCARD:
            return _discard_actions(self.hands[self.to_play], self.taken, self.knock_limit)
        if phase == _P_DRAW:
            if self._stock_only:
                return [_DRAW_STOCK]
            return [_DRAW_STOCK, _TAKE[self.discard_pile[-1]]]
        if phase == _P_OVER:
            return []
        return [_TAKE[self.discard_pile[-1]], _PASS]

    def apply(self, action: GinRummyAction) -> None:
        """Validate and apply ``action`` for :meth:`current_player`.

        :raises InvalidActionError: if ``action`` is not a Gin Rummy action at all.
        :raises IllegalActionError: if it is not legal now (the state is unchanged).
        """
        if type(action) not in _HANDLERS:
            raise InvalidActionError(f"not a Gin Rummy action: {action!r}")
        super().apply(action)

    def _apply(self, action: GinRummyAction) -> None:
        _HANDLERS[type(action)](self, action)

    def _draw_stock(self, action: DrawStock) -> None:
        seat = self.to_play
        card = self.stock.pop()
        self.draws += 1
        self.hands[seat] |= 1 << card
        self._phase = _P_DISCARD
        self.log(seat, f"seat {seat} draws from the stock", action)
        self.log(seat, f"seat {seat} draws {gm.TEXTS[card]}", visible_to=_VISIBLE[seat])

    def _take(self, action: TakeDiscard) -> None:
        seat = self.to_play
        card = self.discard_pile.pop()
        self.draws += 1
        self.hands[seat] |= 1 << card
        self.took[seat] |= 1 << card
        self.taken = card
        self._phase = _P_DISCARD
        self.log(seat, f"seat {seat} takes {gm.TEXTS[card]}", action)

    def _pass(self, action: Pass) -> None:
        seat = self.to_play
        self.log(seat, f"seat {seat} passes", action)
        if self._phase == _P_OFFER_NONDEALER:
            self._phase = _P_OFFER_DEALER
        else:
            self._phase = _P_DRAW
            self._stock_only = True
        self.to_play = 1 - seat

    def _discard(self, action: Discard) -> None:
        seat = self.to_play
        card = (action.card.rank - 1) * 4 + _SUIT_INDEX[action.card.suit]
        bit = 1 << card
        self.hands[seat] ^= bit
        self.took[seat] &= ~bit
        self.discard_pile.append(card)
        self.taken = -1
        if action.knock:
            self.log(seat, f"seat {seat} discards {gm.TEXTS[card]} and knocks", action)
            self._knock(seat)
            return
        self.log(seat, f"seat {seat} discards {gm.TEXTS[card]}", action)
        if len(self.stock) <= _VOID_STOCK or self.draws >= self._max_draws:
            why = (f"{len(self.stock)} cards left in the stock" if len(self.stock) <= _VOID_STOCK
                   else f"{self.draws} draws, the cap")
            self.log(CHANCE, f"hand {self.hand_number} is void: {why}", milestone=True)
            self._end_hand(HandResult(self.hand_number, "void", None, None, 0, self.doubled, None))
            return
        self._phase = _P_DRAW
        self._stock_only = False
        self.to_play = 1 - seat

    def _big_gin(self, action: BigGin) -> None:
        seat = self.to_play
        self.taken = -1
        self.log(seat, f"seat {seat} has big gin", action)
        self._knock(seat)

    def observe(self, seat: Seat) -> GinRummyObservation:
        if seat not in (0, 1):
            raise ValueError(f"gin rummy has seats 0 and 1, not {seat!r}")
        hand = self.hands[seat]
        return GinRummyObservation(
            seat=seat, variant=self.game.variant, phase=_PHASE_NAMES[self._phase], current_player=self.to_play,
            hand=gm.to_cards(hand), deadwood=gm.min_deadwood(hand),
            taken_card=gm.CARDS[self.taken] if self.taken >= 0 and self.to_play == seat else None,
            discard_pile=tuple(map(gm.CARDS.__getitem__, self.discard_pile)),
            opponent_took=gm.to_cards(self.took[1 - seat]), opponent_hand_size=self.hands[1 - seat].bit_count(),
            stock_size=len(self.stock), dealer=self.dealer, hand_number=self.hand_number,
            knock_limit=self.knock_limit, doubled=self.doubled, scores=tuple(self.scores),
            hands_won=tuple(self.hands_won), target=self._target, hands_to_win=self._hands_to_win,
            last_hand=self.last_hand)

    def final_scores(self) -> tuple[int, ...]:
        """The outcome's scores: points plus end-of-game bonuses (Straight: hands won).

        Before the end, or after the cap, the points (Straight: hands won) without bonuses.
        """
        if self._straight:
            return tuple(self.hands_won)
        if self._phase != _P_OVER or self.termination is Termination.CAP:
            return tuple(self.scores)
        bonuses = end_bonuses(self.scores, self.hands_won, self._target)
        return tuple(self.scores[s] + sum(bonuses[s].values()) for s in (0, 1))

    def outcome(self) -> Outcome:
        if self._phase != _P_OVER:
            raise ValueError("the match is not over")
        scores = self.final_scores()
        if self.termination is Termination.CAP:
            keys = self.hands_won if self._straight else self.scores
            ranking = competition_ranking(keys)
            detail = f"cap of {self._max_hands} hands reached"
        else:
            if self._straight:
                winner = 0 if self.hands_won[0] >= self._hands_to_win else 1
            else:
                winner = 0 if self.scores[0] >= self._target else 1
            ranking = (0, 1) if winner == 0 else (1, 0)
            detail = (f"seat {winner} wins after {self.hand_number} hands: points {self.scores[0]}-{self.scores[1]}, "
                      f"hands won {self.hands_won[0]}-{self.hands_won[1]}")
        return Outcome(scores=tuple(float(s) for s in scores), ranking=ranking, termination=self.termination,
                       detail=detail)

    def clone(self) -> GinRummyState:
        other = copy.copy(self)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.events = list(self.events)
        for name in ("scores", "hands_won", "results", "hands", "discard_pile", "stock", "took"):
            setattr(other, name, list(getattr(self, name)))
        return other

    def __str__(self) -> str:
        return (f"hand {self.hand_number} {_PHASE_NAMES[self._phase]}, seat {self.to_play} to play; "
                f"seat 0: {cards_text(gm.to_cards(self.hands[0]))}; seat 1: {cards_text(gm.to_cards(self.hands[1]))}; "
                f"pile {cards_text(gm.CARDS[c] for c in self.discard_pile)}; stock {len(self.stock)}; "
                f"scores {self.scores[0]}-{self.scores[1]}")


_HANDLERS: Final[dict[type, Any]] = {
    DrawStock: GinRummyState._draw_stock,
    TakeDiscard: GinRummyState._take,
    Pass: GinRummyState._pass,
    Discard: GinRummyState._discard,
    BigGin: GinRummyState._big_gin,
}

