"""The specification's edge cases (issue 23, part 4): every hand empty before a starter plays, a moderator's
removal, Spoiled Goods at price 1."""

import pytest

from engine.errors import RuleError
from engine.game import Leave
from engine.schwarzmarkt.actions import Pick, Target, Trade

from .helpers import GAME, T0, arrange, hand, new_game, open_offer, play, play_event, total_cards

NONE = [0, 0, 0, 0, 0]


def test_every_hand_empty_before_a_starter_plays_ends_the_game_round_and_everyone_refills() -> None:
    # Seat 1's Raid takes seat 0's last coffee; every other hand is empty already.
    state = arrange(new_game(3, dealer=0), {0: hand("coffee"), 1: NONE, 2: NONE})
    assert state.starter == 1
    state = play_event(state, "raid")
    out = GAME.apply(play(state, (1, Target(seat=0))), 1, Pick(good="coffee"), T0)
    kinds = [e.kind for e in out.events]
    assert "all_empty" in kinds and kinds.index("all_empty") < kinds.index("round_over") < kinds.index("refill")
    after = out.state
    assert after.game_round == 2 and [sum(h) for h in after.goods] == [9, 9, 9]
    assert after.phase == "play" and after.starter == 2, "the player who would have started next starts"
    assert total_cards(after) == (60, 30)


def test_a_removed_player_s_cards_go_under_the_piles_and_their_seat_is_skipped() -> None:
    state = new_game(4)
    pile = len(state.black_pile)
    after = GAME.apply(state, None, Leave(seat=2), T0).state
    assert after.goods[2] == NONE and after.black_market[2] == [] and len(after.black_pile) == pile + 3
    assert set(after.black_pile[-3:]) == set(state.black_market[2]), "under the black-market pile"
    assert total_cards(after) == (60, 30)
    after = open_offer(after, [0, 0, 3, 0, 0])
    after = play(after, (0, Trade(cards=(), move=1)), (1, Trade(cards=(), move=1)))
    assert after.turn == 3, "seat 2 is skipped"


def test_a_removed_starter_is_followed_by_the_next_player() -> None:
    state = new_game(4)
    assert state.starter == 0
    after = GAME.apply(state, None, Leave(seat=0), T0).state
    assert after.phase == "play" and after.starter == 1


def test_an_event_chosen_by_a_removed_player_is_void() -> None:
    state = arrange(new_game(4), {0: hand("coffee"), 2: hand("sugar")})
    state = play_event(state, "forced_swap")
    out = GAME.apply(state, None, Leave(seat=0), T0)
    assert any(e.kind == "void" for e in out.events)
    assert out.state.pending is None and out.state.phase == "play" and out.state.starter == 1


def test_with_three_players_a_removal_ends_the_game() -> None:
    with pytest.raises(RuleError, match="cannot go on"):
        GAME.apply(new_game(3, dealer=2), None, Leave(seat=0), T0)


def test_spoiled_goods_at_price_1_pays_0() -> None:
    state = arrange(new_game(), {0: hand("3 coffee"), 1: hand("2 coffee")})
    state = play_event(state, "spoiled_goods")
    assert state.starter == 1
    state = open_offer(state, [0, 0, 3, 0, 0])
    assert state.price() == 1
    state = play(state, (1, Trade(cards=("coffee",), move=1)))
    assert state.luxury[1] == 0, "half of 1, rounded down"
