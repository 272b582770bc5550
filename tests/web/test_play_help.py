"""What the person's page says beside the legal actions, over seeded games of the real engines
(fast: no bots, no server): every card of the hand that no legal action plays is marked with
the game's reason, never the fallback, and a card that can be played is never marked."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from arena.web.renderers import play_help, renderer_for
from referee.games import make_game

FALLBACK = "no legal action plays this card now"


@pytest.mark.parametrize("game", ["jass", "yoninkan", "gin_rummy", "yaniv"])
def test_every_card_that_cannot_be_played_says_why_in_the_games_words(game: str) -> None:
    reasons: Counter[str] = Counter()
    for seed in range(3):
        state = make_game(game).new_initial_state(seed)
        rng = random.Random(seed)
        for _ in range(150):
            if state.is_terminal():
                break
            seat = state.current_player()
            actions = [str(a) for a in state.legal_actions()]
            observation = state.observe(seat)
            shown = play_help(renderer_for(game), observation, actions)
            named = {word for text in actions for word in text.split()}
            hand = {str(card) for card in observation.hand}
            assert set(shown["blocked"]) == hand - named
            for card, reason in shown["blocked"].items():
                assert reason != FALLBACK, (game, card, actions)
                reasons[reason.split(":")[0]] += 1
                if reason.startswith("you must follow suit"):  # true: the hand holds the suit led
                    led = observation.trick[0] if game == "jass" else None
                    suit = str(led)[-1] if led is not None else observation.led_suit
                    assert any(str(c)[-1] == suit for c in observation.hand) and card[-1] != suit
            assert shown["hint"]
            state.apply(rng.choice(state.legal_actions()))
    assert reasons, f"no {game} decision had a card it could not play"
    if game in ("jass", "yoninkan"):
        assert reasons["you must follow suit"] > 0


def test_yahtzees_hint_is_about_dice_and_yanivs_explains_the_discard_order() -> None:
    state = make_game("yahtzee").new_initial_state(1)
    shown = play_help(renderer_for("yahtzee"), state.observe(0), [str(a) for a in state.legal_actions()])
    assert "dice" in shown["hint"] and "card" not in shown["hint"] and shown["blocked"] == {}
    for seed in range(30):
        state = make_game("yaniv").new_initial_state(seed)
        actions = [str(a) for a in state.legal_actions()]
        if any(len(text.split()) > 2 for text in actions if text.startswith("discard ")):
            hint = play_help(renderer_for("yaniv"), state.observe(state.current_player()), actions)["hint"]
            assert "first or last" in hint and "order" in hint
            return
    raise AssertionError("no first Yaniv turn offered a group")
