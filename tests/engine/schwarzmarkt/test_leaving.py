"""A player who leaves: their cards go under the piles, the game goes on with at least 3 players."""

import pytest

from engine.errors import RuleError
from engine.game import Leave
from engine.schwarzmarkt.actions import Target

from .helpers import GAME, arrange, hand, new_game, open_offer, play, play_event, total_cards


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
