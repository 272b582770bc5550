"""Yoninkan: four players, secret partnerships, a 40-card deck and one joker (docs/rules/yoninkan.md).

A match is ``games`` games (default 10); each game is 1 to 3 battles; each battle is a fresh
deal of 10 cards each and up to 10 tricks.  In battle 1 the holders of the trump J and of
the joker (``X1``) form the *kan* group, the other two are *mukan*; the groups stay for the
game.  The first group to capture its number of honours (A K Q J, 16 in all) wins the
battle: kan 9 / mukan 8 in battles 1 and 3, 8 / 9 in battle 2.  A kan win leads to the next
battle, a mukan win or the end of battle 3 ends the game, scored by :func:`game_points`.

Decisions (docs/rules/yoninkan.md **Decisions**, then those taken here where that page and the seed are silent):

- *Deck*: 40 cards (the seed's "50" is a typo); the joker is ``X1``; honours are A K Q J.
- *Trump*: battle 1 of game g is clubs, diamonds, hearts, clubs, ... (g = 1, 2, 3, ...); of
  the match's last game, spades.  Battle 1 is led by the holder of AS (last game: AC).
- *重カン*: one player holding the trump J and the joker is partnered with the player opposite.
- *Seat change* (docs/rules/yoninkan.md): before battle 2, if the partners sit side by side, the kan partner
  who did not hold the joker swaps places with the mukan player opposite the joker holder.
  It lasts for battles 2 and 3 of that game; every game's battle 1 is played in seat order
  0-1-2-3 (the convention that seats are numbered in play order).
- *決め役* (docs/rules/yoninkan.md): before battle 2 the battle-1 trump-J holder (A) shows 2 cards of the new
  hand to the battle-1 joker holder (B), who names trump and leads; before battle 3 B shows,
  A names and leads.  重カン: the holder is B, the partner opposite is A.  Showing is one
  action naming both cards; the cards stay in the shower's hand.
- *Following*: a player holding the led suit plays one of it or the joker; otherwise any
  card.  A led joker names the suit to follow (part of the action: ``play X1 call H``).
- *The joker in trick 10* is the weakest card.  Led there, it stands as the lowest card of
  the suit it names: it wins only if nobody plays that suit or a trump.
- *Declarations* (docs/rules/yoninkan.md): only in trick 1, attached to the card played; at most one per
  group per battle; battle 1 offers only kan's ``16`` (rule 17), battles 2 and 3 ``skunk`` /
  ``16`` to kan and ``reverse_skunk`` / ``reverse_16`` to mukan.  Playing the joker in
  trick 1 forces one (it is played without one only if its group has already declared).
- *Who is offered a declaration*: only a seat that knows its group.  In battle 1 that is the
  holder of the trump J or of the joker; the partner of a 重カン holder does not know it is
  kan, so it is offered none.  From battle 2 on every seat knows its group.
- *Skunk and the right to 16* (docs/rules/yoninkan.md): when kan reaches its number while mukan holds no
  honour and kan has declared nothing, the trick winner is asked ``declare 16`` / ``pass``;
  the same for mukan with reverse 16, except in battle 1 (rule 17: a mukan win there is a
  plain win).  A group that declared in trick 1 has used its one declaration: a declared
  skunk that succeeds ends the battle.
- *Open declarations*: play goes on while one is open, even past the battle's number; it
  fails the moment the other group captures an honour, and the battle ends there.
- *One bonus per battle* (docs/rules/yoninkan.md): the final one; a 16 (reverse 16) declared after a skunk
  replaces it: 16 scores +16 (not +18), 16 failed -32.
- *Reverse 16 failed* is a kan win (+64 added), as docs/rules/yoninkan.md decides.
- *Points*: per game, each kan player gets :func:`game_points` of the battle results, each
  mukan player the negative (zero-sum).  The match ranks players by total, ties allowed.
  Every game ends after at most 3 battles of at most 10 tricks, so no safety cap is needed.

Information (who learns what, and when):

- Each seat sees its own hand.  Cards played, declarations (with the declarer), trick
  winners and the honours each seat captured are public.  The leader of battle 1 is public
  as the holder of AS (AC), since the rule names that card.
- The groups are secret in battle 1: no event, observation field or seat order names them,
  until a group reaches its number (or a declaration succeeds or fails): then the battle
  ends, or stops for the 16 question, and the winning group claims its honours, naming both
  groups to everyone.  Before that each seat is told only its own group, and only if its
  cards tell it (trump J or joker holder: kan; a 重カン holder also learns its partner).  A
  seat holding neither is told nothing: it may be mukan or a 重カン holder's partner.
- From battle 2 on the groups are public (the seat change and the 決め役 would show them
  anyway).  The two shown cards go to the shower and the partner only.

Test hook: ``YoninkanGame.new_initial_state(seed, deals=[...])`` stacks the first battles'
deals (see :meth:`YoninkanGame.new_initial_state`).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, ClassVar, Final, Union

from referee.games.base import (CHANCE, TERMINAL, Game, Immutable, InvalidActionError, Outcome, Seat, Setting, State,
                                competition_ranking)
from referee.games.cards import Card, cards_text
from referee.games.yoninkan_scoring import (BONUSES, KAN, KAN_NEEDS, MUKAN, MUKAN_NEEDS,
                                            declarations_on_offer, game_points, judge, open_bonus)

__all__ = ["BONUSES", "CARDS", "Declare", "GameResult", "NameTrump", "Pass", "Play", "Show", "TrickRecord",
           "YoninkanAction", "YoninkanGame", "YoninkanObservation", "YoninkanState", "card_id", "game_points",
           "parse_action", "trick_winner"]

_PLAYERS: Final = 4
_SUITS: Final = "SHDC"
_SUIT_LETTERS: Final = tuple(_SUITS)
_RANKS: Final = "56789TJQKA"
"""Rank characters, weakest first; a card's id is ``suit * 10 + rank`` (no 5 of spades)."""
_JOKER: Final = 40
_JOKER_BIT: Final = 1 << _JOKER
_J, _A = 6, 9
_SUIT_MASK: Final = tuple(((1 << 10) - 1) << (10 * s) for s in range(4))
_HONOUR_MASK: Final = sum(1 << (10 * s + r) for s in range(4) for r in range(6, 10))
_DECK: Final = tuple(c for c in range(41) if c != 0)
_CARD_RANK: Final = (5, 6, 7, 8, 9, 10, 11, 12, 13, 1)
CARDS: Final = tuple(Card(0, "X", 1) if c == _JOKER else Card(_CARD_RANK[c % 10], _SUITS[c // 10]) for c in range(41))
TEXTS: Final = tuple(str(card) for card in CARDS)
_ID: Final = {text: c for c, text in enumerate(TEXTS) if c in _DECK}
_BATTLE1_TRUMPS: Final = (3, 2, 1)
"""Clubs, diamonds, hearts, cycling by game; the last game is spades."""

# Phases.
_PLAY, _RIGHT, _SHOW, _TRUMP, _OVER = range(5)
_PHASE_NAMES: Final = ("play", "right", "show", "trump", "over")
_ONLY: Final = tuple(frozenset({seat}) for seat in range(_PLAYERS))


def card_id(card: Card | str) -> int:
    """The engine's number of a Yoninkan card (``"X1"`` is 40).

    :raises InvalidActionError: for a card not in the 40-card deck (2-4 of any suit, 5S, X2).
    """
    try:
        return _ID[str(card)]
    except KeyError:
        raise InvalidActionError(f"not a Yoninkan card: {card!s} (A 5-10 J Q K of H D C, A 6-10 J Q K of S, X1)") \
            from None


_DISPLAY_ORDER: Final = (_JOKER, *(10 * s + r for s in range(4) for r in range(9, -1, -1) if 10 * s + r in _DECK))
"""The order of cards in hands and shows: the joker, then by suit (S H D C), strongest first."""


def _mask_ids(mask: int) -> list[int]:
    return [c for c in _DISPLAY_ORDER if mask >> c & 1]


def _mask_cards(mask: int) -> tuple[Card, ...]:
    """Cards of a mask in display order (the joker, then by suit S H D C, strongest first)."""
    return tuple(CARDS[c] for c in _DISPLAY_ORDER if mask >> c & 1)


def trick_winner(plays: Sequence[tuple[Seat, int]], trump: int, led: int, *, last: bool) -> Seat:
    """Who wins a trick of ``plays`` (``(seat, card number)`` in play order, the leader first).

    ``trump`` and ``led`` are suit numbers (S H D C = 0..3; ``led`` is the suit a led joker
    named).  The joker wins, except in the last trick (``last``), where it is the weakest
    card: led there, it stands as the lowest card of the suit it named.  Otherwise the
    highest trump wins, else the highest card of the led suit.
    """
    best_key, best_seat = -2, -1
    for position, (seat, card) in enumerate(plays):
        if card == _JOKER:
            if not last:
                return seat
            key = 19 if position == 0 else -1
        elif card // 10 == trump:
            key = 50 + card % 10
        elif card // 10 == led:
            key = 20 + card % 10
        else:
            key = -1
        if key > best_key:
            best_key, best_seat = key, seat
    return best_seat


# --- actions -------------------------------------------------------------------------------

@dataclass(frozen=True, repr=False)
class Play(Immutable):
    """Play a card.  A led joker names (``call``) the suit to follow; in trick 1 a
    ``declaration`` (``skunk``, ``16``, ``reverse_skunk``, ``reverse_16``) may ride on it."""

    card: Card
    call: str = ""
    declaration: str = ""
    index: int = field(default=-1, compare=False)
    """The engine's card number (set on the engine's own actions; -1: look it up)."""

    def __str__(self) -> str:
        return (f"play {self.card}" + (f" call {self.call}" if self.call else "")
                + (f" declare {self.declaration}" if self.declaration else ""))

    def __repr__(self) -> str:
        return f"parse_action({str(self)!r})"


@dataclass(frozen=True, repr=False)
class Declare(Immutable):
    """After a skunk (reverse skunk), the trick winner declares 16 (reverse 16): play goes on."""

    declaration: str

    def __str__(self) -> str:
        return f"declare {self.declaration}"

    def __repr__(self) -> str:
        return f"parse_action({str(self)!r})"


@dataclass(frozen=True, repr=False)
class Pass(Immutable):
    """After a skunk (reverse skunk), the trick winner does not declare: the battle ends."""

    def __str__(self) -> str:
        return "pass"

    def __repr__(self) -> str:
        return "Pass()"


@dataclass(frozen=True, repr=False)
class Show(Immutable):
    """決め役: show two cards of one's hand to the partner (they stay in the hand)."""

    cards: tuple[Card, Card]

    def __str__(self) -> str:
        return f"show {self.cards[0]} {self.cards[1]}"

    def __repr__(self) -> str:
        return f"parse_action({str(self)!r})"


@dataclass(frozen=True, repr=False)
class NameTrump(Immutable):
    """決め役: name the trump suit of battle 2 or 3 (and lead)."""

    suit: str

    def __str__(self) -> str:
        return f"trump {self.suit}"

    def __repr__(self) -> str:
        return f"parse_action({str(self)!r})"


YoninkanAction = Union[Play, Declare, Pass, Show, NameTrump]

_PASS: Final = Pass()
_DECLARE: Final = {name: Declare(name) for name in ("16", "reverse_16")}
_NAME_TRUMP: Final = tuple(NameTrump(suit) for suit in _SUITS)
_PLAYS: dict[tuple[int, str, str], Play] = {}
_SHOWS: dict[tuple[int, int], Show] = {}


def _play(card: int, call: str = "", declaration: str = "") -> Play:
    """The one :class:`Play` object for these fields (identity makes legality checks fast)."""
    key = (card, call, declaration)
    action = _PLAYS.get(key)
    if action is None:
        action = _PLAYS[key] = Play(CARDS[card], call, declaration, card)
    return action


def _show(first: int, second: int) -> Show:
    key = (first, second)
    action = _SHOWS.get(key)
    if action is None:
        action = _SHOWS[key] = Show((CARDS[first], CARDS[second]))
    return action


_DECLARATION_NAMES: Final = ("skunk", "16", "reverse_skunk", "reverse_16")


def parse_action(text: str) -> YoninkanAction:
    """Read an action's text form: ``play AS``, ``play X1 call H``, ``play KD declare 16``,
    ``play X1 call S declare reverse_skunk``, ``declare 16``, ``declare reverse_16``,
    ``pass``, ``show AS X1`` or ``trump H``.

    >>> parse_action("play X1 call H declare 16")
    parse_action('play X1 call H declare 16')

    :raises InvalidActionError: for anything else.
    """
    words = text.split()
    try:
        if words == ["pass"]:
            return _PASS
        if len(words) == 2 and words[0] == "declare" and words[1] in _DECLARE:
            return _DECLARE[words[1]]
        if len(words) == 2 and words[0] == "trump" and words[1] in _SUIT_LETTERS:
            return _NAME_TRUMP[_SUITS.index(words[1])]
        if len(words) == 3 and words[0] == "show" and words[1] != words[2]:
            return Show((CARDS[card_id(words[1])], CARDS[card_id(words[2])]))
        if len(words) >= 2 and words[0] == "play":
            card, rest = card_id(words[1]), words[2:]
            call = declaration = ""
            if rest[:1] == ["call"] and len(rest) >= 2 and rest[1] in _SUIT_LETTERS:
                call, rest = rest[1], rest[2:]
            if rest[:1] == ["declare"] and len(rest) == 2 and rest[1] in _DECLARATION_NAMES:
                declaration, rest = rest[1], []
            if not rest and (not call or card == _JOKER):
                return _play(card, call, declaration)
    except InvalidActionError:
        pass
    raise InvalidActionError(f"not a Yoninkan action: {text!r} (expected play XX [call S] [declare D], "
                             "declare 16|reverse_16, pass, show XX YY or trump S)")


# --- observations --------------------------------------------------------------------------

@dataclass(frozen=True)
class TrickRecord:
    """A finished trick of the current battle (public)."""

    number: int
    leader: Seat
    plays: tuple[tuple[Seat, Card], ...]
    """``(seat, card)`` in play order."""
    call: str
    """The suit a led joker named, else empty."""
    winner: Seat


@dataclass(frozen=True)
class GameResult:
    """A finished game: public once it is over."""

    game_number: int
    kan_seats: tuple[Seat, Seat]
    battles: tuple[tuple[str, str | None], ...]
    """``(winner, bonus)`` per battle."""
    points: int
    """Per kan player (each mukan player got the negative)."""


@dataclass(frozen=True)
class YoninkanObservation:
    """What one seat may know now (see the module docstring, "Information")."""

    seat: Seat
    phase: str
    """``"play"``, ``"right"`` (declare 16 / reverse 16 or pass), ``"show"``, ``"trump"`` or ``"over"``."""
    current_player: Seat
    game_number: int
    """1-based; the match has ``games`` games."""
    games: int
    battle: int
    """1, 2 or 3."""
    trump: str
    """Suit letter, empty while the 決め役 has not named it."""
    table: tuple[Seat, ...]
    """Seats in play order (changes after a seat change before battle 2)."""
    hand: tuple[Card, ...]
    trick_number: int
    """1..10."""
    leader: Seat
    """The seat that led (or leads) the current trick."""
    trick: tuple[tuple[Seat, Card], ...]
    """Cards played to the current trick, in order."""
    led_suit: str
    """The suit to follow (the named suit when the joker was led), empty before the lead."""
    tricks: tuple[TrickRecord, ...]
    """Finished tricks of this battle."""
    captured: tuple[tuple[Card, ...], ...]
    """Honours each seat captured this battle (public)."""
    declarations: tuple[tuple[Seat, str], ...]
    """Declarations made this battle, in order: ``(seat, name)``."""
    my_group: str
    """``"kan"``, ``"mukan"``, or empty while this seat cannot know it."""
    partner: Seat
    """This seat's partner, or -1 while this seat cannot know it."""
    kan_seats: tuple[Seat, ...]
    """The kan group once public, else empty."""
    shown_cards: tuple[Card, ...]
    """The two cards shown this battle, if this seat showed them or was shown them."""
    shown_by: Seat
    """Who showed ``shown_cards`` (-1 if none)."""
    kan_needs: int
    mukan_needs: int
    right: str
    """Phase ``"right"``: the declaration on offer (``16`` or ``reverse_16``)."""
    results: tuple[tuple[str, str | None], ...]
    """``(winner, bonus)`` of this game's finished battles."""
    scores: tuple[int, ...]
    """Match totals per seat."""
    last_game: GameResult | None

    def __str__(self) -> str:
        trick = " ".join(f"{seat}:{card}" for seat, card in self.trick) or "-"
        group = self.my_group or "group unknown"
        return (f"seat {self.seat} ({group}), game {self.game_number}/{self.games} battle {self.battle}, "
                f"trump {self.trump or '?'}, trick {self.trick_number}: {trick}; hand {cards_text(self.hand)}; "
                f"scores {' '.join(map(str, self.scores))}")


# --- the game ------------------------------------------------------------------------------

class YoninkanGame(Game):
    """Yoninkan for exactly four players."""

    name: ClassVar[str] = "yoninkan"
    variants: ClassVar[tuple[str, ...]] = ("standard",)
    min_players: ClassVar[int] = 4
    max_players: ClassVar[int] = 4
    default_players: ClassVar[int] = 4
    settings_spec: ClassVar[tuple[Setting, ...]] = (
        Setting("games", 10, "games in the match (the last one has spades as battle-1 trump)", minimum=1,
                maximum=1000),
    )
    short_match_settings: ClassVar[dict[str, Any]] = {"games": 2}

    def new_initial_state(self, seed: int, *, deals: Sequence[Sequence[Sequence[Card | str] | str]] = ()
                          ) -> YoninkanState:
        """A new match.

        Test hook (keyword-only): ``deals[i]`` stacks the i-th battle dealt in the match (0 is
        game 1 battle 1) as four hands of 10 cards, by seat, each a sequence of cards or one
        space-separated string.  Later battles are shuffled.

        :raises ValueError: for a deal that is not the 40 cards, 10 to each seat.
        """
        stacked = []
        for deal in deals:
            hands = [[card_id(c) for c in (hand.split() if isinstance(hand, str) else hand)] for hand in deal]
            flat = [c for hand in hands for c in hand]
            if len(hands) != _PLAYERS or any(len(hand) != 10 for hand in hands) or sorted(flat) != list(_DECK):
                raise ValueError("a stacked deal is the 40 cards, 10 to each of 4 seats")
            stacked.append([sum(1 << c for c in hand) for hand in hands])
        return YoninkanState(self, seed, stacked)


class YoninkanState(State[YoninkanAction, YoninkanObservation]):
    """A match in progress."""

    game: YoninkanGame

    def __init__(self, game: YoninkanGame, seed: int, deals: list[list[int]] | None = None) -> None:
        super().__init__(game, seed)
        self._deals = deals or []
        self._dealt = 0
        self.games = int(game.settings["games"])
        self.scores = [0] * _PLAYERS
        self.game_number = 0
        self.history: list[GameResult] = []
        self.to_play: Seat = 0
        self._start_game()

    # --- structure: games and battles --------------------------------------------------
    def _start_game(self) -> None:
        self.game_number += 1
        self.battle = 0
        self.results: list[tuple[str, str | None]] = []
        self.table = [0, 1, 2, 3]
        self.revealed = False
        """Whether the groups are public."""
        self._start_battle()

    def _deal(self) -> None:
        if self._dealt < len(self._deals):
            self.hands = list(self._deals[self._dealt])
        else:
            deck = list(_DECK)
            self.rng.shuffle(deck)
            self.hands = [sum(1 << c for c in deck[10 * s:10 * s + 10]) for s in range(_PLAYERS)]
        self._dealt += 1
        for seat in range(_PLAYERS):
            self.log(CHANCE, f"seat {seat} is dealt {cards_text(_mask_cards(self.hands[seat]))}",
                     visible_to=_ONLY[seat])

    def _start_battle(self) -> None:
        self.battle += 1
        self.trick_number = 1
        self.trick: list[tuple[Seat, int]] = []
        self.led = -1
        self.call = ""
        self.tricks: list[TrickRecord] = []
        self.captured = [0] * _PLAYERS
        """Honours (mask) each seat captured this battle."""
        self.count = {KAN: 0, MUKAN: 0}
        self.declarations: list[tuple[Seat, str]] = []
        self.open: dict[str, str | None] = {KAN: None, MUKAN: None}
        self.declared = {KAN: False, MUKAN: False}
        self.shown: tuple[Seat, Seat, int, int] | None = None
        self.right = ""
        self._deal()
        if self.battle == 1:
            last = self.game_number == self.games
            self.trump = 0 if last else _BATTLE1_TRUMPS[(self.game_number - 1) % 3]
            self.log(CHANCE, f"game {self.game_number}, battle 1: trump {_SUITS[self.trump]}")
            jack = 10 * self.trump + _J
            self.jack_holder = next(s for s in range(_PLAYERS) if self.hands[s] >> jack & 1)
            self.joker_holder = next(s for s in range(_PLAYERS) if self.hands[s] & _JOKER_BIT)
            if self.jack_holder == self.joker_holder:  # 重カン: B is the holder, A the partner opposite
                self.a_seat, self.b_seat = (self.joker_holder + 2) % 4, self.joker_holder
            else:
                self.a_seat, self.b_seat = self.jack_holder, self.joker_holder
            self.kan = frozenset({self.a_seat, self.b_seat})
            opener = 10 * (3 if last else 0) + _A
            self.leader = next(s for s in range(_PLAYERS) if self.hands[s] >> opener & 1)
            self.log(CHANCE, f"seat {self.leader} holds {TEXTS[opener]} and leads")
            self._phase = _PLAY
            self.to_play = self.leader
            return
        self.trump = -1
        if self.battle == 2:
            self._change_seats()
        shower, chooser = (self.a_seat, self.b_seat) if self.battle == 2 else (self.b_seat, self.a_seat)
        self.log(CHANCE, f"game {self.game_number}, battle {self.battle}: seat {shower} shows two cards to "
                         f"seat {chooser}, who names trump and leads")
        self._phase = _SHOW
        self.to_play = shower

    def _change_seats(self) -> None:
        position = self.table.index
        a, b = self.a_seat, self.b_seat
        if (position(a) - position(b)) % 4 == 2:
            self.log(CHANCE, f"the partners sit opposite: no seat change; table {self._table_text()}")
            return
        mukan = self.table[(position(b) + 2) % 4]
        i, j = position(a), position(mukan)
        self.table[i], self.table[j] = mukan, a
        self.log(CHANCE, f"seat change: seats {a} and {mukan} swap places; table {self._table_text()}")

    def _table_text(self) -> str:
        return "-".join(map(str, self.table))

    @property
    def phase(self) -> str:
        """``"play"``, ``"right"``, ``"show"``, ``"trump"`` or ``"over"``."""
        return _PHASE_NAMES[self._phase]

    def group_of(self, seat: Seat) -> str:
        return KAN if seat in self.kan else MUKAN

    def knows_group(self, seat: Seat) -> bool:
        """Whether ``seat`` may know its group now (module docstring, "Information")."""
        return self.revealed or seat == self.jack_holder or seat == self.joker_holder

    def _next(self, seat: Seat) -> Seat:
        table = self.table
        return table[(table.index(seat) + 1) % 4]

    def _reveal(self) -> None:
        if not self.revealed:
            self.revealed = True
            kan = sorted(self.kan)
            mukan = sorted(set(range(_PLAYERS)) - self.kan)
            self.log(CHANCE, f"the groups: kan seats {kan[0]} and {kan[1]}, mukan seats {mukan[0]} and {mukan[1]}")

    # --- the State API -------------------------------------------------------------------
    def current_player(self) -> Seat:
        return self.to_play

    def _legal_actions(self) -> list[YoninkanAction]:
        phase = self._phase
        seat = self.to_play
        if phase == _PLAY:
            return self._play_actions(seat)
        if phase == _RIGHT:
            return [_DECLARE[self.right], _PASS]
        if phase == _SHOW:
            hand = _mask_ids(self.hands[seat])
            return [_show(a, b) for a, b in combinations(hand, 2)]
        if phase == _TRUMP:
            return list(_NAME_TRUMP)
        return []

    def _play_actions(self, seat: Seat) -> list[YoninkanAction]:
        hand = self.hands[seat]
        leading = not self.trick
        if not leading:
            follow = hand & _SUIT_MASK[self.led]
            if follow:
                hand = follow | (hand & _JOKER_BIT)
        declarations: tuple[str, ...] = ()
        if self.trick_number == 1 and self.knows_group(seat):
            group = self.group_of(seat)
            if not self.declared[group]:
                declarations = declarations_on_offer(group, self.battle)
        actions: list[YoninkanAction] = []
        card = 0
        while hand:
            if hand & 1:
                if card == _JOKER:
                    for call in (_SUITS if leading else ("",)):
                        if declarations:
                            actions.extend(_play(card, call, d) for d in declarations)
                        else:
                            actions.append(_play(card, call))
                else:
                    actions.append(_play(card))
                    for d in declarations:
                        actions.append(_play(card, "", d))
            hand >>= 1
            card += 1
        return actions

    def apply(self, action: YoninkanAction) -> None:
        """Validate and apply ``action`` for :meth:`current_player`.

        :raises InvalidActionError: if ``action`` is not a Yoninkan action at all.
        :raises IllegalActionError: if it is not legal now (the state is unchanged).
        """
        if type(action) not in _HANDLERS:
            raise InvalidActionError(f"not a Yoninkan action: {action!r}")
        super().apply(action)

    def _apply(self, action: YoninkanAction) -> None:
        _HANDLERS[type(action)](self, action)

    def _on_play(self, action: Play) -> None:
        seat = self.to_play
        card = action.index if action.index >= 0 else card_id(action.card)
        self.hands[seat] &= ~(1 << card)
        text = f"seat {seat} plays {TEXTS[card]}"
        if not self.trick:
            self.leader = seat
            if card == _JOKER:
                self.led, self.call = _SUITS.index(action.call), action.call
                text += f" calling {action.call}"
            else:
                self.led, self.call = card // 10, ""
        if action.declaration:
            group = self.group_of(seat)
            self.declared[group] = True
            self.open[group] = open_bonus(action.declaration)
            self.declarations.append((seat, action.declaration))
            text += f" and declares {action.declaration}"
        self.trick.append((seat, card))
        self.log(seat, text, action)
        if len(self.trick) < _PLAYERS:
            self.to_play = self._next(seat)
        else:
            self._finish_trick()

    def _finish_trick(self) -> None:
        winner = trick_winner(self.trick, self.trump, self.led, last=self.trick_number == 10)
        honours = sum(1 << card for _, card in self.trick) & _HONOUR_MASK
        self.captured[winner] |= honours
        group = self.group_of(winner)
        taken = honours.bit_count()
        self.count[group] += taken
        self.tricks.append(TrickRecord(self.trick_number, self.leader, tuple((s, CARDS[c]) for s, c in self.trick),
                                       self.call, winner))
        self.log(CHANCE, f"seat {winner} wins trick {self.trick_number}"
                         + (f", capturing {cards_text(_mask_cards(honours))}" if taken else ""))
        self.trick = []
        self.led, self.call = -1, ""
        self.trick_number += 1
        self.leader = self.to_play = winner
        verdict = judge(self.battle, self.count[KAN], self.count[MUKAN], capturer=group, captured=taken,
                        kan_open=self.open[KAN], mukan_open=self.open[MUKAN], kan_declared=self.declared[KAN],
                        mukan_declared=self.declared[MUKAN])
        if verdict == "right":
            self._reveal()
            self.right = "16" if group == KAN else "reverse_16"
            skunk = "skunk" if group == KAN else "reverse skunk"
            self.log(CHANCE, f"{group} reaches {self.count[group]} honours, the other group none: {skunk}; "
                             f"seat {winner} may declare {self.right}")
            self._phase = _RIGHT
        elif verdict is not None:
            self._end_battle(*verdict)
        elif self.trick_number > 10:  # cannot happen: 16 honours always settle a battle
            raise AssertionError("a battle ended without a winner")

    def _on_declare(self, action: Declare) -> None:
        seat = self.to_play
        group = self.group_of(seat)
        self.declared[group] = True
        self.open[group] = open_bonus(action.declaration, after_skunk=True)
        self.declarations.append((seat, action.declaration))
        self.log(seat, f"seat {seat} declares {action.declaration}", action)
        self._phase = _PLAY
        self.right = ""

    def _on_pass(self, action: Pass) -> None:
        seat = self.to_play
        group = self.group_of(seat)
        self.log(seat, f"seat {seat} does not declare {self.right}", action)
        self.right = ""
        self._end_battle(group, "skunk" if group == KAN else "reverse_skunk")

    def _on_show(self, action: Show) -> None:
        seat = self.to_play
        first, second = (card_id(c) for c in action.cards)
        partner = self.b_seat if seat == self.a_seat else self.a_seat
        self.shown = (seat, partner, first, second)
        self.log(seat, f"seat {seat} shows two cards to seat {partner}")
        self.log(seat, f"seat {seat} shows {TEXTS[first]} {TEXTS[second]} to seat {partner}", action,
                 visible_to=frozenset({seat, partner}))
        self._phase = _TRUMP
        self.to_play = partner

    def _on_trump(self, action: NameTrump) -> None:
        seat = self.to_play
        self.trump = _SUITS.index(action.suit)
        self.log(seat, f"seat {seat} names trump {action.suit} and leads", action)
        self._phase = _PLAY
        self.leader = seat

    def _end_battle(self, winner: str, bonus: str | None) -> None:
        self._reveal()
        self.results.append((winner, bonus))
        self.log(CHANCE, f"battle {self.battle} to {winner}: honours kan {self.count[KAN]}, mukan {self.count[MUKAN]}"
                         + (f"; bonus {bonus}" if bonus else ""), milestone=True)
        if winner == KAN and self.battle < 3:
            self._start_battle()
        else:
            self._end_game()

    def _end_game(self) -> None:
        points = game_points(self.results)
        for seat in range(_PLAYERS):
            self.scores[seat] += points if seat in self.kan else -points
        kan = tuple(sorted(self.kan))
        self.history.append(GameResult(self.game_number, (kan[0], kan[1]), tuple(self.results), points))
        self.log(CHANCE, f"game {self.game_number} over: kan seats {kan[0]} and {kan[1]} score {points:+d} each, "
                         f"mukan {-points:+d}; totals {' '.join(map(str, self.scores))}", milestone=True)
        if self.game_number >= self.games:
            self._phase = _OVER
            self.to_play = TERMINAL
            self._legal = None
        else:
            self._start_game()

    # --- views ---------------------------------------------------------------------------
    def observe(self, seat: Seat) -> YoninkanObservation:
        if seat not in range(_PLAYERS):
            raise ValueError(f"yoninkan has seats 0 to 3, not {seat!r}")
        knows = self.knows_group(seat)
        partner = -1
        if self.revealed or seat == self.jack_holder == self.joker_holder:
            partner = next(s for s in self.kan if s != seat) if seat in self.kan else \
                next(s for s in range(_PLAYERS) if s != seat and s not in self.kan)
        shown: tuple[Card, ...] = ()
        shown_by = -1
        if self.shown is not None and seat in self.shown[:2]:
            shown, shown_by = (CARDS[self.shown[2]], CARDS[self.shown[3]]), self.shown[0]
        led = ""
        if self.trick:
            led = self.call or _SUITS[self.led]
        return YoninkanObservation(
            seat=seat, phase=_PHASE_NAMES[self._phase], current_player=self.to_play, game_number=self.game_number,
            games=self.games, battle=self.battle, trump=_SUITS[self.trump] if self.trump >= 0 else "",
            table=tuple(self.table), hand=_mask_cards(self.hands[seat]), trick_number=min(self.trick_number, 10),
            leader=self.leader if self.trump >= 0 else -1, trick=tuple((s, CARDS[c]) for s, c in self.trick),
            led_suit=led, tricks=tuple(self.tricks), captured=tuple(_mask_cards(m) for m in self.captured),
            declarations=tuple(self.declarations), my_group=self.group_of(seat) if knows else "", partner=partner,
            kan_seats=tuple(sorted(self.kan)) if self.revealed else (), shown_cards=shown, shown_by=shown_by,
            kan_needs=KAN_NEEDS[self.battle - 1], mukan_needs=MUKAN_NEEDS[self.battle - 1],
            right=self.right if self._phase == _RIGHT else "", results=tuple(self.results),
            scores=tuple(self.scores), last_game=self.history[-1] if self.history else None)

    def outcome(self) -> Outcome:
        if self._phase != _OVER:
            raise ValueError("the match is not over")
        return Outcome(scores=tuple(float(s) for s in self.scores), ranking=competition_ranking(self.scores),
                       detail=f"after {self.games} games: totals {' '.join(map(str, self.scores))}")

    def clone(self) -> YoninkanState:
        other = copy.copy(self)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        for name in ("events", "scores", "history", "results", "table", "hands", "trick", "tricks", "captured",
                     "declarations"):
            setattr(other, name, list(getattr(self, name)))
        for name in ("count", "open", "declared"):
            setattr(other, name, dict(getattr(self, name)))
        return other

    def __str__(self) -> str:
        hands = "; ".join(f"seat {s}: {cards_text(_mask_cards(self.hands[s]))}" for s in range(_PLAYERS))
        return (f"game {self.game_number} battle {self.battle} {_PHASE_NAMES[self._phase]}, seat {self.to_play} to "
                f"play; kan {sorted(self.kan)}; trump {_SUITS[self.trump] if self.trump >= 0 else '?'}; {hands}")


_HANDLERS: Final[dict[type, Any]] = {
    Play: YoninkanState._on_play,
    Declare: YoninkanState._on_declare,
    Pass: YoninkanState._on_pass,
    Show: YoninkanState._on_show,
    NameTrump: YoninkanState._on_trump,
}
