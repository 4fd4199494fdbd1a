"""A player who leaves: their cards go under the piles, the game goes on with at least 3 players."""

import pytest

from engine.errors import RuleError
from engine.game import Leave
from engine.schwarzmarkt.actions import Target

from .helpers import GAME, T0, arrange, hand, new_game, open_offer, play, play_event, total_cards


def test_a_leaver_s_cards_go_under_the_piles_and_the_game_goes_on() -> None:
    state = open_offer(new_game(), [0, 0, 3, 0, 0])
    state = play(state, (0, GAME.legal_actions(state, 0)[0]))
    assert state.turn == 1
    after = GAME.apply(state, None, Leave(seat=1), state.since).state
    assert after.left == [1] and sum(after.goods[1]) == 0 and after.black_market[1] == []
    assert after.turn == 2, "their trading turn passes on"
    assert total_cards(after) == (60, 30)
    assert GAME.legal_actions(after, 1) == []
    result = GAME.standings(after)
    assert result.standings[-1].seat == 1, "a player who left comes last"


def test_with_three_players_a_leaver_ends_the_game() -> None:
    state = new_game(3, dealer=2)
    with pytest.raises(RuleError, match="cannot go on"):
        GAME.apply(state, None, Leave(seat=1), state.since)


def test_a_chosen_target_who_leaves_voids_the_event() -> None:
    state = arrange(new_game(), {0: hand("coffee"), 2: hand("sugar")})
    state = play(play_event(state, "forced_swap"), (0, Target(seat=2)))
    after = GAME.apply(state, None, Leave(seat=2), state.since).state
    assert after.phase == "play" and after.starter == 1 and after.pending is None
    assert total_cards(after) == (60, 30)


def test_an_event_left_with_nobody_to_target_is_void_not_stuck() -> None:
    """From the rules review: the only player Espionage could target leaves while its player chooses. The event is
    void (nobody to target) and the game goes on, instead of waiting on a choice that has no option."""
    s = new_game(4)
    s = arrange(s, {0: hand("2 coffee"), 1: [0] * 5, 2: [0] * 5, 3: hand("3 sugar")})
    s = play_event(s, "espionage")
    assert s.phase == "event"
    out = GAME.apply(s, None, Leave(seat=3), T0)
    assert out.state.pending is None and out.state.phase != "event"
    assert any(e.kind == "void" for e in out.events)
    assert GAME.waiting_on(out.state), "the game waits on someone who can act"
