"""A compact simulator of one Yoninkan battle for the search, on card texts (``"AS"``, ``"X1"``).

It plays the rest of a battle whose four hands and groups are fixed (one sampled deal):
legal plays (follow the led or called suit, or the joker), trick winners (the joker is the
weakest card in trick 10), honours captured per group, open declarations and the battle's
verdict by :func:`yoninkan_scoring.judge` (a copy of the engine's pure scoring module).  A
skunk's right to 16 is passed.  The referee's engine is not imported: the bot is
self-contained, as a bot in any language would be.
"""

from __future__ import annotations

from heuristic_yoninkan import JOKER, is_honour, strength, suit_cards
from yoninkan_scoring import KAN, KAN_NEEDS, MUKAN, MUKAN_NEEDS, game_points, judge

SUITS = "SHDC"
DECK = [c for s in SUITS for c in suit_cards(s)] + [JOKER]
STRENGTH = {c: strength(c) for c in DECK}
HONOURS = frozenset(c for c in DECK if is_honour(c))
HIGHER = {c: tuple(suit_cards(c[1])[:suit_cards(c[1]).index(c)]) for c in DECK if c != JOKER}
"""The cards of a card's suit that beat it."""


def winner_index(plays: list[tuple[int, str]], trump: str, led: str, last: bool) -> int:
    """:func:`heuristic_yoninkan.trick_winner` with table lookups (the playouts' hot spot)."""
    best, best_key = 0, -2
    for i, (_, card) in enumerate(plays):
        if card == JOKER:
            if not last:
                return i
            key = 19 if i == 0 else -1
        elif card[1] == trump:
            key = 50 + STRENGTH[card]
        elif card[1] == led:
            key = 20 + STRENGTH[card]
        else:
            continue
        if key > best_key:
            best, best_key = i, key
    return best


class Battle:
    """The rest of one battle, everything known."""

    def __init__(self, *, battle: int, trump: str, table: list[int], hands: list[list[str]], kan: frozenset[int],
                 trick: list[tuple[int, str]], led: str, trick_number: int, count: dict[str, int],
                 open_: dict[str, str | None], declared: dict[str, bool]) -> None:
        self.battle, self.trump, self.table = battle, trump, table
        self.hands, self.kan = hands, kan
        self.trick, self.led, self.trick_number = trick, led, trick_number
        self.count, self.open, self.declared = count, open_, declared
        self.out = {c for h in hands for c in h}
        self.verdict: tuple[str, str | None] | None = None

    def group(self, seat: int) -> str:
        return KAN if seat in self.kan else MUKAN

    def to_play(self) -> int:
        leader = self.trick[0][0] if self.trick else self._leader
        return self.table[(self.table.index(leader) + len(self.trick)) % 4]

    def set_leader(self, seat: int) -> None:
        self._leader = seat

    def legal(self, seat: int) -> list[str]:
        hand = self.hands[seat]
        if not self.trick:
            return hand
        follow = [c for c in hand if c != JOKER and c[1] == self.led]
        if follow:
            return follow + ([JOKER] if JOKER in hand else [])
        return hand

    def play(self, seat: int, card: str, call: str = "") -> None:
        self.hands[seat].remove(card)
        self.out.discard(card)
        if not self.trick:
            self.led = call if card == JOKER else card[1]
        self.trick.append((seat, card))
        if len(self.trick) == 4:
            self._finish_trick()

    def _finish_trick(self) -> None:
        last = self.trick_number == 10
        winner = self.trick[winner_index(self.trick, self.trump, self.led, last)][0]
        taken = sum(1 for _, c in self.trick if c in HONOURS)
        group = self.group(winner)
        self.count[group] += taken
        self.trick, self._leader = [], winner
        self.trick_number += 1
        verdict = judge(self.battle, self.count[KAN], self.count[MUKAN], capturer=group, captured=taken,
                        kan_open=self.open[KAN], mukan_open=self.open[MUKAN], kan_declared=self.declared[KAN],
                        mukan_declared=self.declared[MUKAN])
        if verdict == "right":
            verdict = (group, "skunk" if group == KAN else "reverse_skunk")
        if verdict is None and self.trick_number > 10:  # a deal the sampling got wrong: by the count
            verdict = (KAN, None) if self.count[KAN] >= self.count[MUKAN] else (MUKAN, None)
        self.verdict = verdict

    def run(self) -> tuple[str, str | None]:
        """Play to the battle's end with :func:`playout` for every seat; its verdict."""
        while self.verdict is None:
            seat = self.to_play()
            card, call = playout(self, seat)
            self.play(seat, card, call)
        return self.verdict

    def beaten_by_out(self, card: str, seat: int) -> bool:
        """Whether a card in another hand than ``seat``'s could beat ``card`` (led or followed)."""
        if card == JOKER:
            return self.trick_number == 10
        hand = self.hands[seat]
        out = self.out
        if JOKER in out and JOKER not in hand and self.trick_number < 10:
            return True
        if any(c in out and c not in hand for c in HIGHER[card]):
            return True
        trump = self.trump
        return card[1] != trump and any(c[1] == trump and c not in hand for c in out if c != JOKER)


def playout(sim: Battle, seat: int) -> tuple[str, str]:
    """The heuristic's play (heuristic_yoninkan.py) in short, with the groups known: ``(card, call)``."""
    legal = sim.legal(seat)
    if len(legal) == 1 and legal[0] != JOKER:
        return legal[0], ""
    trump, last = sim.trump, sim.trick_number == 10
    if sim.trick_number == 9 and JOKER in legal:  # the joker is the weakest card in trick 10
        return JOKER, trump if not sim.trick else ""
    plain = [c for c in legal if c != JOKER]
    rank = STRENGTH
    kan = sim.kan
    mine = seat in kan
    declared = sim.open[KAN if mine else MUKAN] or sim.open[MUKAN if mine else KAN]
    if not sim.trick:
        sure = [c for c in plain if c in HONOURS and not sim.beaten_by_out(c, seat)]
        if sure:
            return max(sure, key=rank.__getitem__), ""
        trumps = [c for c in plain if c[1] == trump]
        if JOKER in legal and (len(trumps) >= 3 or declared) and not last:
            return JOKER, trump
        if not plain:
            return JOKER, trump
        aces = [c for c in plain if c[0] == "A" and c[1] != trump]
        if aces:
            return aces[0], ""
        high = [c for c in trumps if c[0] in "AK"]
        if high:
            return max(high, key=rank.__getitem__), ""
        return min(plain, key=lambda c: (c[1] == trump, c in HONOURS, rank[c])), ""
    plays = sim.trick
    led = sim.led
    index = winner_index(plays, trump, led, last)
    honours = any(c in HONOURS for _, c in plays)
    to_come = 3 - len(plays)
    if (plays[index][0] in kan) == mine:
        if to_come == 0 or not sim.beaten_by_out(plays[index][1], seat):
            gifts = [c for c in plain if c in HONOURS and (c[1] != trump or declared)]
            if gifts:
                return max(gifts, key=rank.__getitem__), ""
        return _cheapest(plain, legal, trump), ""
    n = len(plays)
    winners = [c for c in plain if winner_index([*plays, (seat, c)], trump, led, last) == n]
    if winners and (honours or to_come == 0 or any(c in HONOURS and c[1] == led for c in plain)):
        safe = [c for c in winners if to_come == 0 or not sim.beaten_by_out(c, seat)]
        return min(safe or winners, key=lambda c: (c[1] == trump, rank[c])), ""
    if honours and JOKER in legal and not last:
        return JOKER, ""
    return _cheapest(plain, legal, trump), ""


def _cheapest(plain: list[str], legal: list[str], trump: str) -> str:
    if not plain:
        return legal[0]
    return min(plain, key=lambda c: (c in HONOURS, c[1] == trump, STRENGTH[c]))


def value(results: list[tuple[str, str | None]], verdict: tuple[str, str | None], battle: int) -> float:
    """Points per kan player for the game, the battles to come counted as if kan then lost
    (plus one point: a battle to come is worth a little to kan)."""
    done = [*results, verdict]
    try:
        if verdict[0] == MUKAN or battle == 3:
            return game_points(done)
        return game_points([*done, (MUKAN, None)]) + 1.0
    except ValueError:  # a bonus this battle cannot give (a deal the sampling got wrong): plain
        return value(results, (verdict[0], None), battle) if verdict[1] else 0.0


__all__ = ["DECK", "KAN_NEEDS", "MUKAN_NEEDS", "Battle", "playout", "value"]
