"""Observations and their protobuf form."""

from __future__ import annotations

from arena.v1 import bot_pb2, gin_rummy_pb2
from referee.games.gin_rummy import GinRummyGame, parse_action
from referee.wire import gin_rummy as wire

from .helpers import deck, new_match, play

LOW = "AS 2S 3S 4H 5H 6H 7C 7D 7S 2D"
JUNK = "KH KD QC QD JH JC 9H 9D 8C 6D"


def _strs(cards) -> list[str]:
    return [str(c) for c in cards]


class TestObservation:
    def test_own_hand_piles_and_scores(self) -> None:
        state = play(new_match(deck(LOW, JUNK, "TC", "5C 4S")), "take TC", "discard 2D", "take 2D")
        obs = state.observe(1)
        assert obs.phase == "discard" and obs.current_player == 1
        assert _strs(obs.hand) == ["2D", "6D", "8C", "9H", "9D", "JH", "JC", "QD", "QC", "KH", "KD"]
        assert str(obs.taken_card) == "2D"
        assert _strs(obs.opponent_took) == ["TC"]
        assert obs.discard_pile == () and obs.stock_size == 31
        assert (obs.dealer, obs.hand_number, obs.knock_limit, obs.doubled) == (1, 1, 10, False)
        assert obs.scores == (0, 0) and obs.hands_won == (0, 0) and obs.target == 100
        assert obs.opponent_hand_size == 10 and obs.last_hand is None
        assert obs.deadwood == 92 + 2 - 0
        other = state.observe(0)
        assert other.taken_card is None and _strs(other.opponent_took) == ["2D"]

    def test_opponent_took_forgets_a_card_discarded_again(self) -> None:
        state = play(new_match(deck(LOW, JUNK, "TC", "5C 4S")), "take TC", "discard 2D", "draw stock",
                     "discard 5C", "draw stock", "discard TC")
        assert state.observe(1).opponent_took == ()

    def test_short_text(self) -> None:
        text = str(new_match(deck(LOW, JUNK, "TC")).observe(0))
        assert text.startswith("seat 0 hand 1 offer: AS 2S 2D 3S") and "top TC" in text and "\n" not in text

    def test_straight_observation_counts_hands(self) -> None:
        obs = GinRummyGame(variant="straight").new_initial_state(1).observe(0)
        assert (obs.target, obs.hands_to_win, obs.knock_limit) == (0, 4, 0)


class TestWire:
    def test_observation_message(self) -> None:
        state = play(new_match(deck(LOW, JUNK, "TC", "5C"), target_score=500), "pass", "pass", "draw stock",
                     "discard 5C knock")
        message = wire.observation(state.observe(0))
        assert isinstance(message, gin_rummy_pb2.GinRummyObservation)
        assert message.phase == gin_rummy_pb2.GinRummyObservation.PHASE_OFFER
        assert list(message.hand) == _strs(state.observe(0).hand)
        assert list(message.scores) == [90, 0] and message.target == 500
        last = message.last_hand
        assert (last.kind, last.knocker, last.winner, last.points) == ("knock", 0, 0, 90)
        assert [list(m.cards) for m in last.knocker_melds] == [["AS", "2S", "3S"], ["4H", "5H", "6H"],
                                                               ["7S", "7D", "7C"]]
        assert list(last.knocker_unmatched) == ["2D"] and last.defender_deadwood == 92
        assert bot_pb2.Observation(gin_rummy=message).WhichOneof("game") == wire.FIELD

    def test_void_hand_message_has_only_number_and_kind(self) -> None:
        from referee.games.gin_rummy import HandResult
        message = wire.hand_result(HandResult(3, "void", None, None, 0, False, None))
        assert (message.hand_number, message.kind, len(message.knocker_melds)) == (3, "void", 0)

    def test_action_messages(self) -> None:
        kind = gin_rummy_pb2.GinRummyAction
        assert wire.action(parse_action("discard TD knock")) == kind(kind=kind.KIND_DISCARD, card="TD", knock=True)
        assert wire.action(parse_action("take 7H")) == kind(kind=kind.KIND_TAKE_DISCARD, card="7H")
        assert wire.action(parse_action("draw stock")) == kind(kind=kind.KIND_DRAW_STOCK)
        assert wire.action(parse_action("pass")) == kind(kind=kind.KIND_PASS)
        assert wire.action(parse_action("big gin")) == kind(kind=kind.KIND_BIG_GIN)
