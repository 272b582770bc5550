"""A compact Yaniv round simulator and the heuristic playout policy.

The bot simulates its own sampled deals, so the rules live in its own folder: the sandbox
shows a bot its folder and the ``arena`` SDK, never the referee's engine (``referee.games``).
``tests/games/yaniv/test_yaniv_search.py`` checks the discards listed here against the engine's.

Cards are ints ``suit * 16 + rank`` (rank 1 = ace .. 13 = king, suits S H D C); the jokers
are 64 and 65. A card of suit 5 (``80 + rank``) stands for an unseen card of that rank, which
joins sets but no run (the heuristic's view of a stock draw).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

RANKS: Final = "A23456789TJQK"
SUITS: Final = "SHDC"
JOKERS: Final = (64, 65)
YANIV_LIMIT: Final = 5
ASSAF_PENALTY: Final = 30
ELIMINATION: Final = 100
HALF: Final = 50
UNKNOWN_CARD_FLOOR: Final = 2
DECK: Final = tuple([s * 16 + r for s in range(4) for r in range(1, 14)] + list(JOKERS))
TURN_CAP: Final = 120
"""Turns after which a simulated round ends as the engine's turn cap would (it allows 300)."""


def value(card: int) -> int:
    return 0 if card >= 64 and card < 80 else min(card % 16, 10)


def rank(card: int) -> int:
    return 0 if 64 <= card < 80 else card % 16


def parse(text: str) -> int:
    if text[0] == "X":
        return JOKERS[int(text[1]) - 1]
    return SUITS.index(text[1]) * 16 + RANKS.index(text[0]) + 1


def points(cards: Sequence[int]) -> int:
    return sum(value(c) for c in cards)


def groups(hand: Sequence[int]) -> list[tuple[int, ...]]:
    """Every discard of ``hand``, each once (first and last card as they would land)."""
    jokers = [c for c in hand if 64 <= c < 80]
    naturals = sorted(c for c in hand if not 64 <= c < 80)
    out: list[tuple[int, ...]] = [(c,) for c in naturals]
    if jokers:
        out.append((jokers[0],))
    by_rank: dict[int, list[int]] = {}
    for card in naturals:
        by_rank.setdefault(card % 16, []).append(card)
    for same in by_rank.values():
        for extra in range(len(jokers) + 1):
            if len(same) + extra >= 2:
                out.append((*same, *jokers[:extra]))
    by_suit: dict[int, set[int]] = {}
    for card in naturals:
        if card < 64:
            by_suit.setdefault(card // 16, set()).add(card % 16)
    for suit, ranks in by_suit.items():
        for low in range(1, 12):
            for high in range(low + 2, min(low + 6, 14)):
                present = [r for r in range(low, high + 1) if r in ranks]
                gaps = high - low + 1 - len(present)
                if present and gaps <= len(jokers):
                    fill = iter(jokers)
                    out.append(tuple(suit * 16 + r if r in ranks else next(fill) for r in range(low, high + 1)))
    return out


_BEST: dict[tuple[int, ...], int] = {}


def best_group(hand: Sequence[int]) -> int:
    """The most points one discard of ``hand`` could shed: a card, a set (all naturals of a
    rank, jokers adding nothing) or a run (naturals of a suit whose gaps the jokers fill)."""
    key = tuple(sorted(hand))
    found = _BEST.get(key)
    if found is not None:
        return found
    jokers = sum(1 for c in key if 64 <= c < 80)
    by_rank: dict[int, int] = {}
    by_suit: dict[int, list[int]] = {}
    for card in key:
        if not 64 <= card < 80:
            by_rank[card % 16] = by_rank.get(card % 16, 0) + value(card)
            if card < 64:
                by_suit.setdefault(card // 16, []).append(card % 16)
    found = max(by_rank.values(), default=0)
    for ranks in by_suit.values():  # sorted, as key is
        for i in range(len(ranks)):
            total = 0
            for j in range(i, len(ranks)):
                total += min(ranks[j], 10)
                gaps = ranks[j] - ranks[i] + 1 - (j - i + 1)
                if gaps <= jokers and j - i + 1 + jokers >= 3 and total > found:
                    found = total
    if len(_BEST) > 200_000:
        _BEST.clear()
    _BEST[key] = found
    return found


def cost(hand: Sequence[int]) -> int:
    """Points left after the best discard of the next turn (the heuristic's measure)."""
    return points(hand) - best_group(hand)


def unknown_draws(unseen: dict[int, int]) -> list[tuple[int, int]]:
    """(stand-in card, count) for each rank not yet seen: a stock draw as the heuristic sees it."""
    return [(JOKERS[0] if r == 0 else 80 + r, n) for r, n in unseen.items() if n]


def stock_cost(hand: Sequence[int], draws: list[tuple[int, int]], memo: dict[tuple[int, ...], float]) -> float:
    key = tuple(sorted(hand))
    found = memo.get(key)
    if found is None:
        total = sum(n for _, n in draws)
        found = (sum(n * cost([*hand, card]) for card, n in draws) / total if total else cost(hand) + 5.0)
        memo[key] = found
    return found


def ends(group: Sequence[int]) -> list[int]:
    """The cards of a discarded group the next player may take: its first and last."""
    first, last = group[0], group[-1]
    return [first] if first == last or first in JOKERS and last in JOKERS else [first, last]


def draw_choice(hand: Sequence[int], takes: Sequence[int], draws: list[tuple[int, int]],
                memo: dict[tuple[int, ...], float]) -> tuple:
    """The heuristic's draw for ``hand`` (after its discard): a card of ``takes`` that leaves a
    lower cost than the stock's average, else the stock."""
    best: tuple[float, tuple] = (stock_cost(hand, draws, memo), ("stock",))
    for card in takes:
        c = float(cost([*hand, card]))
        if c < best[0]:
            best = (c, ("take", card))
    return best[1]


def discard_key(hand: Sequence[int], group: Sequence[int], takes: Sequence[int], draws: list[tuple[int, int]],
                memo: dict[tuple[int, ...], float]) -> tuple[float, int, int]:
    """How the heuristic ranks discarding ``group`` (lowest first): the cost left after the best
    draw to follow, then fewer jokers shed, then more points shed."""
    rest = list(hand)
    for card in group:
        rest.remove(card)
    follow = min([stock_cost(rest, draws, memo)] + [float(cost([*rest, c])) for c in takes])
    return follow, sum(1 for c in group if c in JOKERS), -points(group)


@dataclass
class Round:
    """One round in play from a seat's sampled view (every hand dealt, the stock in order)."""

    hands: list[list[int]]
    took: list[set[int]]
    stock: list[int]
    dead: list[int]
    offered: tuple[int, ...]
    to_play: int
    drawing: bool
    """True when the seat to play has discarded and draws."""
    order: list[int]
    """Seats still in, in play order."""
    pending: tuple[int, ...] = ()
    turn: int = 0
    declarer: int | None = None
    over: bool = False
    draws: list[tuple[int, int]] = field(default_factory=list)
    memo: dict[tuple[int, ...], float] = field(default_factory=dict)

    def copy(self) -> Round:
        return Round([list(h) for h in self.hands], [set(t) for t in self.took], list(self.stock),
                     list(self.dead), self.offered, self.to_play, self.drawing, self.order, self.pending,
                     self.turn, self.declarer, self.over, self.draws, self.memo)

    # actions: ("yaniv",), ("discard", group), ("stock",), ("take", card)
    def apply(self, action: tuple, rng: random.Random) -> None:
        seat = self.to_play
        kind = action[0]
        if kind == "yaniv":
            self.declarer, self.over = seat, True
            return
        if kind == "discard":
            for card in action[1]:
                self.hands[seat].remove(card)
                self.took[seat].discard(card)
            self.pending = action[1]
            self.drawing = True
            return
        if kind == "stock":
            self.hands[seat].append(self.stock.pop())
            self.dead.extend(self.offered)
        else:
            card = action[1]
            self.hands[seat].append(card)
            self.took[seat].add(card)
            self.dead.extend(c for c in self.offered if c != card)
        self.offered, self.pending = self.pending, ()
        if not self.stock:
            self.stock, self.dead = self.dead, []
            rng.shuffle(self.stock)
        self.turn += 1
        self.to_play = self.order[(self.order.index(seat) + 1) % len(self.order)]
        self.drawing = False
        if self.turn >= TURN_CAP:
            self.over = True

    def safe_to_call(self, seat: int) -> bool:
        """The heuristic's test: no other player's public floor is at or under this hand."""
        mine = points(self.hands[seat])
        for other in self.order:
            if other != seat:
                known = self.took[other]
                floor = points(list(known)) + UNKNOWN_CARD_FLOOR * (len(self.hands[other]) - len(known))
                if floor <= mine:
                    return False
        return True

    def takes(self) -> list[int]:
        return ends(self.offered)

    def policy(self) -> tuple:
        """The heuristic's action for the seat to play."""
        seat = self.to_play
        hand = self.hands[seat]
        if self.drawing:
            return draw_choice(hand, self.takes(), self.draws, self.memo)
        if points(hand) <= YANIV_LIMIT and self.safe_to_call(seat):
            return ("yaniv",)
        takes = self.takes()
        return ("discard", min(groups(hand), key=lambda g: discard_key(hand, g, takes, self.draws, self.memo)))

    def rollout(self, rng: random.Random) -> None:
        while not self.over:
            self.apply(self.policy(), rng)

    def scores(self) -> dict[int, int]:
        """What each seat still in adds this round."""
        values = {s: points(self.hands[s]) for s in self.order}
        scores = dict(values)
        d = self.declarer
        if d is not None and any(values[s] <= values[d] for s in self.order if s != d):
            scores[d] = ASSAF_PENALTY + values[d]
        elif d is not None:
            scores[d] = 0
        return scores


def after_round(total: int, score: int) -> tuple[int, bool]:
    """A total after adding ``score``, halvings applied, and whether it puts the player out."""
    new = total + score
    if new == ELIMINATION:
        return HALF, False
    if new == HALF:
        return HALF // 2, False
    return new, new > ELIMINATION
