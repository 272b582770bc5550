"""The seat change before battle 2 and the 決め役 (choosing trump) of battles 2 and 3."""

from __future__ import annotations

from .helpers import STRONG_ADJACENT, STRONG_OPPOSITE, deal, new_match, play, run, texts




def test_adjacent_partners_change_seats_and_the_jack_holder_shows_in_battle_2() -> None:
    # Kan: seat 0 (joker, B) and seat 1 (JC, A), side by side.  A swaps with the mukan player
    # opposite B (seat 2): the table becomes 0-2-1-3.
    state = run(new_match(STRONG_ADJACENT, STRONG_ADJACENT, STRONG_ADJACENT), lambda s: s.battle == 2)
    assert state.results == [("kan", "skunk")]
    assert state.table == [0, 2, 1, 3]
    assert "seat change: seats 1 and 2 swap places; table 0-2-1-3" in [e.text for e in state.events]
    assert state.phase == "show" and state.current_player() == 1
    assert len(state.legal_actions()) == 45  # every pair of 10 cards
    assert state.observe(1).trump == ""
    play(state, "show AC KC")
    assert state.phase == "trump" and state.current_player() == 0
    assert texts(state.legal_actions()) == ["trump S", "trump H", "trump D", "trump C"]
    assert [str(c) for c in state.observe(0).shown_cards] == ["AC", "KC"] and state.observe(0).shown_by == 1
    assert [str(c) for c in state.observe(1).hand].count("AC") == 1  # shown cards stay in the hand
    assert state.observe(2).shown_cards == () and state.observe(3).shown_cards == ()
    play(state, "trump C")
    assert state.phase == "play" and state.current_player() == 0  # the chooser leads
    assert state.observe(0).kan_needs == 8 and state.observe(0).mukan_needs == 9
    state.apply(state.legal_actions()[0])
    assert state.current_player() == 2  # play follows the new table


def test_battle_3_swaps_the_roles_and_the_game_scores_its_bonuses() -> None:
    state = run(new_match(STRONG_ADJACENT, STRONG_ADJACENT, STRONG_ADJACENT),
                lambda s: s.battle == 2 and s.phase == "show")
    play(state, "show AC KC", "trump C")
    state = run(state, lambda s: s.battle == 3)
    assert state.results == [("kan", "skunk"), ("kan", "skunk")]
    assert state.table == [0, 2, 1, 3]  # the change lasts for the game
    assert state.phase == "show" and state.current_player() == 0  # B shows
    play(state, "show X1 AS")
    assert state.current_player() == 1 and [str(c) for c in state.observe(1).shown_cards] == ["X1", "AS"]
    play(state, "trump C")
    assert state.current_player() == 1 and state.observe(1).kan_needs == 9
    state = run(state, lambda s: s.game_number == 2)
    assert state.history[0].battles == (("kan", "skunk"),) * 3
    assert state.history[0].points == 8 + 2 + 2 + 2
    assert state.scores == [14, 14, -14, -14]
    # The next game is played in seat order again, with diamonds as battle-1 trump.
    assert state.table == [0, 1, 2, 3] and state.observe(3).trump == "D"


def test_partners_opposite_do_not_change_seats() -> None:
    state = run(new_match(STRONG_OPPOSITE), lambda s: s.battle == 2)
    assert state.table == [0, 1, 2, 3]
    assert state.current_player() == 2  # A, the JC holder, shows


def test_juukan_holder_chooses_trump_in_battle_2_and_shows_in_battle_3() -> None:
    # Seat 0 holds JC and the joker: partner seat 2 plays A's part.
    strong = deal("X1 JC AS KS QS JS AH KH QH JH", "", "AC KC QC TC 9C 8C 7C 6C 5C AD")
    state = run(new_match(strong, strong, strong), lambda s: s.battle == 2)
    assert state.table == [0, 1, 2, 3]
    assert state.current_player() == 2
    play(state, "show AC KC")
    assert state.current_player() == 0
    play(state, "trump C")
    state = run(state, lambda s: s.battle == 3)
    assert state.current_player() == 0 and state.phase == "show"
    play(state, "show X1 JC")
    assert state.current_player() == 2 and state.phase == "trump"
