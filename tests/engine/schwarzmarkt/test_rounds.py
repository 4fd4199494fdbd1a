"""Game rounds: a last trade ends the round on the spot, the refill to 9, black-market hands kept, the second
round's starter, and the end of the game with ties sharing."""

from engine.schwarzmarkt.actions import Trade

from .helpers import GAME, arrange, hand, new_game, open_offer, pass_turn, play, play_event, total_cards


def test_trading_in_the_last_card_ends_the_game_round_refills_and_passes_the_start() -> None:
    state = arrange(
        new_game(),
        {0: hand("4 potatoes"), 1: hand("coffee"), 2: hand("12 sugar"), 3: hand("2 coffee")},
    )
    state = play_event(state, "shortage")  # face up: must lapse with the game round
    assert state.starter == 1
    state = open_offer(state, [0, 0, 3, 0, 0])
    black_market_before = [sorted(h) for h in state.black_market]
    assert state.turn == 1
    outcome = GAME.apply(state, 1, Trade(cards=("coffee",), move=1), state.since)
    state = outcome.state
    assert state.luxury[1] == 1
    assert state.game_round == 2
    assert [sum(h) for h in state.goods] == [9, 9, 12, 9], "tops up to 9; a hand above 9 keeps its cards"
    assert state.goods[0][0] >= 4 and state.goods[3][2] >= 2, "a top-up keeps the cards held"
    assert not state.in_force and state.offer is None, "everything pending lapses"
    assert [sorted(h) for h in state.black_market] == black_market_before
    assert state.phase == "play" and state.starter == 2, "the player who would have started next starts"
    assert total_cards(state) == (60, 30)
    kinds = [e.kind for e in outcome.events]
    assert kinds.index("trade") < kinds.index("round_over") < kinds.index("refill")
    refills = [e for e in outcome.events if e.kind == "refilled"]
    assert {e.to for e in refills} == {(0,), (1,), (3,)}, "each hears privately what they drew; seat 2 drew none"


def test_a_hand_emptied_by_a_raid_stays_empty_and_its_owner_is_still_asked() -> None:
    state = arrange(new_game(), {1: hand("2 coffee")})
    state = play_event(state, "raid")
    from engine.schwarzmarkt.actions import Pick, Target

    state = play(state, (0, Target(seat=1)), (0, Pick(good="coffee")))
    assert sum(state.goods[1]) == 0 and state.game_round == 1
    state = open_offer(state, [0, 0, 3, 0, 0])  # seat 1 starts
    assert state.turn == 1 and GAME.waiting_on(state)[0].seats == (1,)
    state = pass_turn(state, 2)
    assert state.game_round == 1 and state.turn == 2


def test_the_second_game_round_ends_the_game_and_the_richest_win_sharing_ties() -> None:
    state = arrange(new_game(), {0: hand("coffee")}, game_round=2, luxury=[100, 140, 139, 0])
    state = open_offer(state, [0, 0, 3, 0, 0])
    state = pass_turn(state, 4)  # seat 0 → space 5, seat 1 → 8, seat 2 → 10, seat 3 → 12
    state = pass_turn(state, 3)
    state = pass_turn(state, 2)
    state = pass_turn(state, 2)
    assert state.turn == 0 and state.price() == 25
    state = play(state, (0, Trade(cards=("coffee",), move=1)))
    assert state.phase == "over"
    result = GAME.result(state)
    assert result is not None
    assert [(s.seat, s.score, s.rank) for s in result.standings] == [(1, 140, 1), (2, 139, 2), (0, 125, 3), (3, 0, 4)]
    assert GAME.legal_actions(state, 0) == [] and GAME.waiting_on(state) == []


def test_equal_totals_share_the_win() -> None:
    state = arrange(new_game(), game_round=2, luxury=[50, 50, 10, 0], phase="over")
    result = GAME.result(state)
    assert result is not None and result.winners == (0, 1)


def test_standings_of_a_game_ended_early_are_the_luxury_totals() -> None:
    state = arrange(new_game(), luxury=[5, 30, 20, 0])
    assert GAME.result(state) is None
    assert [s.seat for s in GAME.standings(state).standings] == [1, 2, 0, 3]
