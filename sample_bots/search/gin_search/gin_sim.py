"""A compact Gin Rummy hand simulator and the heuristic playout policy, on bitmasks.

The bot simulates its own sampled deals with the rules in its own folder, self-contained as
a bot in any language would be, and several times faster to step than the referee's engine
(``referee.games``, with its checks and logs). ``tests/games/gin_rummy/test_gin_search.py`` checks deadwood and knock
settlement here against the engine on random hands, so the two cannot drift apart unseen.

Cards are ints ``suit * 16 + rank`` (rank 0 = ace .. 12 = king, suits S H D C), so a run is
consecutive bits of one 16-bit word; a hand is a mask. Deadwood: cards that fit no meld of the
hand are found with a few bit operations and counted at once; the rest by recursion on the
lowest card (it is either deadwood or the lowest card of a meld), memoised per mask.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

RANKS: Final = "A23456789TJQK"
SUITS: Final = "SHDC"
VALUES: Final = tuple(min(c % 16 + 1, 10) if c % 16 < 13 else 0 for c in range(64))
DECK: Final = tuple(suit * 16 + rank for suit in range(4) for rank in range(13))
_RANK_BITS: Final = 0x1FFF
_WORD_VALUE: Final = tuple(sum(min(r + 1, 10) for r in range(13) if w >> r & 1) for w in range(1 << 13))
UNDERCUT_BONUS: Final = 25
GIN_BONUS: Final = 25
BIG_GIN_BONUS: Final = 31
VOID_STOCK: Final = 2
"""A discard without a knock leaving this many stock cards or fewer voids the hand."""
WAIT_FOR_GIN_DEADWOOD: Final = 3
WAIT_FOR_GIN_STOCK: Final = 12

OFFER, DRAW, DISCARD, OVER = range(4)


def parse(text: str) -> int:
    return SUITS.index(text[1]) * 16 + RANKS.index(text[0])


def text(card: int) -> str:
    return RANKS[card % 16] + SUITS[card // 16]


def to_mask(cards: list[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _melds_from() -> tuple[tuple[int, ...], ...]:
    """Per card, every meld whose lowest card (lowest bit) it is."""
    table: list[list[int]] = [[] for _ in range(64)]
    for rank in range(13):
        same = [suit * 16 + rank for suit in range(4)]
        for size in (3, 4):
            for start in range(4):
                for rest in _combinations(same[start + 1:], size - 1):
                    table[same[start]].append(to_mask([same[start], *rest]))
    for suit in range(4):
        for low in range(11):
            for high in range(low + 2, 13):
                table[suit * 16 + low].append(to_mask([suit * 16 + r for r in range(low, high + 1)]))
    return tuple(tuple(t) for t in table)


def _combinations(items: list[int], k: int) -> list[list[int]]:
    if k == 0:
        return [[]]
    return [[items[i], *rest] for i in range(len(items)) for rest in _combinations(items[i + 1:], k - 1)]


MELDS_FROM: Final = _melds_from()
_MEMO: dict[int, int] = {}
_MEMO_LIMIT = 400_000


def loose(mask: int) -> int:
    """The cards of ``mask`` that fit no meld of ``mask``."""
    run = mask & mask >> 1 & mask >> 2
    a, b, c, d = mask & _RANK_BITS, mask >> 16 & _RANK_BITS, mask >> 32 & _RANK_BITS, mask >> 48
    sets = a & b & c | a & b & d | a & c & d | b & c & d
    fits = run | run << 1 | run << 2 | sets | sets << 16 | sets << 32 | sets << 48
    return mask & ~fits


def value(mask: int) -> int:
    return (_WORD_VALUE[mask & _RANK_BITS] + _WORD_VALUE[mask >> 16 & _RANK_BITS]
            + _WORD_VALUE[mask >> 32 & _RANK_BITS] + _WORD_VALUE[mask >> 48])


def deadwood(mask: int) -> int:
    """The smallest deadwood of the cards in ``mask``."""
    found = _MEMO.get(mask)
    if found is not None:
        return found
    if not mask:
        return 0
    alone = loose(mask)
    if alone:
        best = value(alone) + deadwood(mask ^ alone)
        if len(_MEMO) > _MEMO_LIMIT:
            _MEMO.clear()
        _MEMO[mask] = best
        return best
    low = mask & -mask
    card = low.bit_length() - 1
    best = VALUES[card] + deadwood(mask ^ low)
    for meld in MELDS_FROM[card]:
        if meld & mask == meld:
            dw = deadwood(mask ^ meld)
            if dw < best:
                best = dw
    if len(_MEMO) > _MEMO_LIMIT:
        _MEMO.clear()
    _MEMO[mask] = best
    return best


def arrangement(mask: int) -> list[int]:
    """The melds of one arrangement of ``mask`` with the smallest deadwood."""
    melds: list[int] = []
    target = deadwood(mask)
    while mask:
        low = mask & -mask
        card = low.bit_length() - 1
        for meld in MELDS_FROM[card]:
            if meld & mask == meld and deadwood(mask ^ meld) == target:
                melds.append(meld)
                mask ^= meld
                break
        else:
            target -= VALUES[card]
            mask ^= low
    return melds


def _extensions(melds: list[int]) -> dict[int, list[int]]:
    """Lay-off blocks onto the knocker's ``melds``, keyed by their lowest card: the fourth
    card of a set of three, and runs of cards extending a run at either end."""
    blocks: dict[int, list[int]] = {}
    for meld in melds:
        cards = cards_of(meld)
        if cards[0] % 16 == cards[-1] % 16:  # a set
            if len(cards) == 3:
                rank = cards[0] % 16
                missing = next(s * 16 + rank for s in range(4) if not meld >> (s * 16 + rank) & 1)
                blocks.setdefault(missing, []).append(1 << missing)
            continue
        suit, low, high = cards[0] // 16, cards[0] % 16, cards[-1] % 16
        for start in range(low):
            block = to_mask([suit * 16 + r for r in range(start, low)])
            blocks.setdefault(suit * 16 + start, []).append(block)
        for end in range(high + 1, 13):
            block = to_mask([suit * 16 + r for r in range(high + 1, end + 1)])
            blocks.setdefault(suit * 16 + high + 1, []).append(block)
    return blocks


def _defence(mask: int, blocks: dict[int, list[int]], memo: dict[int, int]) -> int:
    """The defender's smallest deadwood with its own melds and lay-offs onto ``blocks``."""
    if not mask:
        return 0
    found = memo.get(mask)
    if found is not None:
        return found
    low = mask & -mask
    card = low.bit_length() - 1
    best = VALUES[card] + _defence(mask ^ low, blocks, memo)
    for meld in (*MELDS_FROM[card], *blocks.get(card, ())):
        if meld & mask == meld:
            dw = _defence(mask ^ meld, blocks, memo)
            if dw < best:
                best = dw
    memo[mask] = best
    return best


def settle(knocker: int, defender: int) -> tuple[int, bool]:
    """Points of a knock and whether the knocker scores them (False: undercut)."""
    own = deadwood(knocker)
    if own == 0:
        bonus = BIG_GIN_BONUS if knocker.bit_count() == 11 else GIN_BONUS
        return deadwood(defender) + bonus, True
    # The knocker's melds are chosen to leave the defender the fewest lay-offs (the rules).
    theirs = max(_defence(defender, _extensions(melds), {}) for melds in _optimal_arrangements(knocker, own))
    if own < theirs:
        return theirs - own, True
    return own - theirs + UNDERCUT_BONUS, False


def _optimal_arrangements(mask: int, target: int) -> list[list[int]]:
    """Every set of melds leaving ``mask`` with deadwood ``target`` (the smallest)."""
    out: list[list[int]] = []

    def walk(rest: int, left: int, melds: list[int]) -> None:
        if not rest:
            out.append(melds)
            return
        low = rest & -rest
        card = low.bit_length() - 1
        if VALUES[card] <= left and deadwood(rest ^ low) == left - VALUES[card]:
            walk(rest ^ low, left - VALUES[card], melds)
        for meld in MELDS_FROM[card]:
            if meld & rest == meld and deadwood(rest ^ meld) == left:
                walk(rest ^ meld, left, [*melds, meld])

    walk(mask, target, [])
    return out


# --- the heuristic playout policy (sample_bots/python/gin_heuristic, on masks) ---------------

def _partners(card: int, rest: int) -> int:
    rank, suit = card % 16, card // 16
    count = 0
    for other in cards_of(rest):
        if other % 16 == rank or other // 16 == suit and abs(other % 16 - rank) <= 2:
            count += 1
    return count


def best_discard(hand: int, forbidden: int) -> tuple[int, int]:
    """The discard leaving the least deadwood (then fewest partners, then highest): card, deadwood."""
    best: tuple[int, int, int, int] | None = None
    ties: list[int] = []
    for card in cards_of(hand):
        if card == forbidden:
            continue
        dw = deadwood(hand ^ (1 << card))
        if best is None or dw < best[0]:
            best = (dw, 0, 0, card)
            ties = [card]
        elif dw == best[0]:
            ties.append(card)
    assert best is not None
    if len(ties) > 1:
        keyed = min((_partners(c, hand ^ (1 << c)), -VALUES[c], c % 16, SUITS[c // 16], c) for c in ties)
        return keyed[4], best[0]
    return best[3], best[0]


def worst_card(hand: int, fixed: int) -> int:
    """The card of ``hand`` outside ``fixed`` whose loss leaves the least deadwood (highest first)."""
    return min((deadwood(hand ^ (1 << c)), -VALUES[c], c) for c in cards_of(hand & ~fixed))[2]


def joins(hand: int, card: int) -> bool:
    """Whether ``card`` would complete a meld with two cards of ``hand`` (a set or a run)."""
    rank = card % 16
    if sum(hand >> (suit * 16 + rank) & 1 for suit in range(4)) >= 2:
        return True
    def held(other: int) -> bool:
        return other // 16 == card // 16 and 0 <= other % 16 < 13 and other >= 0 and bool(hand >> other & 1)
    below, above = held(card - 1), held(card + 1)
    return below and (held(card - 2) or above) or above and held(card + 2)


def worth_taking(hand: int, card: int) -> bool:
    """Whether ``card`` must be in a meld of the hand left after taking it and the best discard."""
    bit = 1 << card
    discard, dw = best_discard(hand | bit, card)
    rest = (hand | bit) ^ (1 << discard)
    return deadwood(rest ^ bit) + VALUES[card] > dw


@dataclass
class Hand:
    """One hand in play, from a seat's sampled view: both hands, stock (top last), pile."""

    hands: list[int]
    stock: list[int]
    pile: list[int]
    to_play: int
    phase: int
    taken: int
    knock_limit: int
    offer_left: int
    """Offers of the upcard still to come (2 before the non-dealer passes, 1 after)."""
    draws: int = 0
    max_draws: int = 200
    stock_only: bool = False
    result: tuple[int, int] | None = None
    """(winner, points) once over; winner -1 for a void hand."""

    def copy(self) -> Hand:
        return Hand(list(self.hands), list(self.stock), list(self.pile), self.to_play, self.phase, self.taken,
                    self.knock_limit, self.offer_left, self.draws, self.max_draws, self.stock_only, self.result)

    # actions: ("take",), ("pass",), ("stock",), ("discard", card, knock), ("big_gin",)
    def apply(self, action: tuple) -> None:
        kind = action[0]
        seat = self.to_play
        if kind == "take":
            card = self.pile.pop()
            self.hands[seat] |= 1 << card
            self.taken = card
            self.draws += 1
            self.phase = DISCARD
        elif kind == "pass":
            self.offer_left -= 1
            self.to_play = 1 - seat
            if self.offer_left == 0:
                self.phase = DRAW
                self.stock_only = True
        elif kind == "stock":
            self.hands[seat] |= 1 << self.stock.pop()
            self.draws += 1
            self.phase = DISCARD
        elif kind == "big_gin":
            self._knock(seat)
        else:
            card, knock = action[1], action[2]
            self.hands[seat] ^= 1 << card
            self.pile.append(card)
            self.taken = -1
            if knock:
                self._knock(seat)
            elif len(self.stock) <= VOID_STOCK or self.draws >= self.max_draws:
                self.phase, self.result = OVER, (-1, 0)
            else:
                self.phase, self.stock_only, self.to_play = DRAW, False, 1 - seat

    def _knock(self, seat: int) -> None:
        points, knocker_wins = settle(self.hands[seat], self.hands[1 - seat])
        self.phase, self.result = OVER, (seat if knocker_wins else 1 - seat, points)

    def policy(self) -> tuple:
        """The heuristic's action for the seat to play."""
        hand = self.hands[self.to_play]
        if self.phase in (OFFER, DRAW):
            if not self.stock_only and worth_taking(hand, self.pile[-1]):
                return ("take",)
            return ("pass",) if self.phase == OFFER else ("stock",)
        if deadwood(hand) == 0:
            return ("big_gin",)
        card, dw = best_discard(hand, self.taken)
        wait = 0 < dw <= WAIT_FOR_GIN_DEADWOOD and len(self.stock) >= WAIT_FOR_GIN_STOCK
        return ("discard", card, dw <= self.knock_limit and not wait)

    def rollout(self, rng: random.Random | None = None) -> tuple[int, int]:
        """Play the hand to its end with the heuristic for both seats; (winner, points)."""
        while self.result is None:
            self.apply(self.policy())
        return self.result
