"""Trading rounds as the specification plays them: the climb to 50 and the last trade, Limit's end at 25, Shortage and
Spoiled Goods together, the round ending when every wanted card is traded, and the next starter."""

from engine.schwarzmarkt.actions import Trade

from .helpers import GAME, T0, arrange, hand, new_game, open_offer, pass_turn, play, play_event, total_cards

THREE_COFFEE = [0, 0, 3, 0, 0]


def quiet_table():  # type: ignore[no-untyped-def]
    """Four players, seat 0 starts; only seat 2 holds coffee (one card)."""
    return arrange(
        new_game(),
        {0: hand("3 potatoes"), 1: hand("3 flour"), 2: hand("coffee", "2 sugar"), 3: hand("3 butter")},
    )


def test_the_marker_climbs_to_50_and_the_next_player_trades_there_without_moving() -> None:
    state = open_offer(quiet_table(), THREE_COFFEE)
    assert (state.phase, state.turn, state.marker, state.price()) == ("trade", 0, 1, 1)
    for move, where in ((4, 5), (3, 8), (2, 10), (2, 12), (1, 13)):
        state = pass_turn(state, move)
        assert state.marker == where and not state.last_call
    state = pass_turn(state, 1)  # seat 1 moves onto 50
    assert (state.marker, state.price(), state.last_call, state.turn) == (14, 50, True, 2)
    outcome = play(state, (2, Trade(cards=("coffee",), move=0)))
    assert outcome.luxury == [0, 0, 50, 0]
    assert outcome.phase == "play" and outcome.starter == 1, "the player left of the starter starts next"
    assert outcome.offer is None and outcome.marker == 1
    assert outcome.goods[2] == hand("2 sugar")
    assert total_cards(outcome) == (60, 30)


def test_the_last_call_ends_the_round_even_without_a_trade() -> None:
    state = open_offer(quiet_table(), THREE_COFFEE)
    for move in (4, 3, 2, 2, 1, 1):
        state = pass_turn(state, move)
    state = pass_turn(state, 0)
    assert state.phase == "play" and state.starter == 1 and state.luxury == [0, 0, 0, 0]


def test_limit_ends_the_next_trading_round_at_25() -> None:
    state = play_event(quiet_table(), "limit")
    assert state.phase == "play" and state.starter == 1 and state.in_force
    state = open_offer(state, THREE_COFFEE)
    assert state.end_space == 12
    for move in (4, 3, 2):
        state = pass_turn(state, move)
    assert state.marker == 10 and state.die() == 2
    refused = _refusal(state, Trade(cards=(), move=3))
    assert refused == ("move_past_die", {"space": 10, "die": 2})
    state = pass_turn(state, 2)  # seat 0 reaches 25: the end under Limit
    assert (state.marker, state.price(), state.last_call, state.turn) == (12, 25, True, 1)
    state = pass_turn(state, 0)  # seat 1 has the last call
    assert state.phase == "play" and state.starter == 2
    assert not state.in_force, "Limit lasts for one trading round"
    state = open_offer(state, THREE_COFFEE)
    assert state.end_space == 14


def test_shortage_and_spoiled_goods_in_the_same_round() -> None:
    state = arrange(new_game(), {0: hand("2 coffee", "flour"), 1: hand("2 coffee", "flour"), 2: hand("flour")})
    state = play_event(state, "shortage")
    state = play_event(state, "spoiled_goods")
    assert len(state.in_force) == 2 and state.starter == 2
    state = open_offer(state, THREE_COFFEE)
    state = pass_turn(state, 4)  # seat 2: price 5 now
    state = pass_turn(state, 3)  # seat 3: space 8, price 10
    assert state.turn == 0 and state.price() == 10
    assert _refusal(state, Trade(cards=("coffee", "coffee"), move=1)) == ("shortage_one_card", {})
    state = play(state, (0, Trade(cards=("coffee",), move=1)))
    assert state.luxury[0] == 5, "the first card traded pays half (10 // 2)"
    assert state.price() == 12
    state = play(state, (1, Trade(cards=("coffee",), move=1)))
    assert state.luxury[1] == 12, "only the first card is spoiled"
    state = pass_turn(state, 1)  # seat 2, seat 3
    state = pass_turn(state, 1)
    state = play(state, (0, Trade(cards=("coffee",), move=1)))  # the third and last wanted coffee
    assert state.phase == "play" and state.starter == 3, "every wanted card traded ends the round"
    assert not state.in_force and total_cards(state) == (60, 30)


def test_a_card_already_received_is_no_longer_wanted() -> None:
    state = arrange(new_game(), {0: hand("2 coffee", "sugar"), 1: hand("2 coffee", "sugar")})
    state = open_offer(state, [0, 0, 4, 0, 1])
    state = play(state, (0, Trade(cards=("coffee", "sugar"), move=1)))
    assert state.luxury[0] == 2 and state.wanted == [0, 0, 3, 0, 0]
    refused = _refusal(state, Trade(cards=("sugar",), move=1))
    assert refused == ("offer_doesnt_want", {"good": "sugar", "still": [0, 0, 3, 0, 0]})
    more = _refusal(state, Trade(cards=("coffee",) * 4, move=1))
    assert more == ("offer_wants_only", {"good": "coffee", "n": 3, "still": [0, 0, 3, 0, 0]})


def test_a_trader_moves_exactly_1_and_a_non_trader_1_up_to_the_die() -> None:
    state = open_offer(quiet_table(), [0, 0, 0, 0, 3])  # sugar: only seat 2 has some
    assert _refusal(state, Trade(cards=(), move=0)) == ("move_at_least_one", {"top": 4})
    assert _refusal(state, Trade(cards=(), move=5)) == ("move_past_die", {"space": 1, "die": 4})
    state = pass_turn(state, 2)
    state = pass_turn(state, 1)
    assert _refusal(state, Trade(cards=("sugar",), move=2)) == ("trade_moves_one", {})
    assert _refusal(state, Trade(cards=("sugar",), move=0)) == ("trade_moves_one", {})
    state = play(state, (2, Trade(cards=("sugar", "sugar"), move=1)))
    assert state.luxury[2] == 8 and state.marker == 5


def test_the_marker_never_passes_the_round_end() -> None:
    state = open_offer(quiet_table(), THREE_COFFEE)
    for move in (4, 3, 2, 2):
        state = pass_turn(state, move)
    assert state.marker == 12
    assert _refusal(state, Trade(cards=(), move=2)) == ("move_past_die", {"space": 12, "die": 1})
    state = pass_turn(state, 1)
    state = pass_turn(state, 1)
    assert state.last_call
    assert _refusal(state, Trade(cards=(), move=1)) == ("last_call_stays", {})
    assert _refusal(state, Trade(cards=("coffee",), move=1)) == ("last_call_stays", {})


def test_refusals_speak_only_of_the_offer_and_your_own_hand() -> None:
    state = open_offer(quiet_table(), THREE_COFFEE)
    # Seat 0 holds no coffee; seat 2 does. The refusal says what seat 0 holds, nothing of seat 2.
    refused = _refusal(state, Trade(cards=("coffee",), move=1))
    assert refused == ("not_enough_goods", {"good": "coffee", "n": 0})
    assert _refusal(state, Trade(cards=("tea",), move=1)) == ("not_a_good", {"good": "tea"})
    from engine.errors import RuleError

    from .helpers import GAME

    try:
        GAME.apply(state, 1, Trade(cards=(), move=1), state.since)
    except RuleError as error:
        assert (error.code, error.values) == ("not_your_trading_turn", {"seat": 0})
    else:
        raise AssertionError("a trade out of turn was accepted")


def _refusal(state, action) -> tuple[str, dict]:  # type: ignore[no-untyped-def,type-arg]
    from engine.errors import RuleError

    from .helpers import GAME

    try:
        GAME.apply(state, state.turn, action, state.since)
    except RuleError as error:
        return error.code, error.values
    raise AssertionError(f"{action} was accepted")


def test_a_trade_reveals_cards_that_were_secret() -> None:
    """From the rules review: a trade shows what was in a secret hand, so an undo needs everyone's agreement (as for
    Quick Deal), while passing with no trade reveals nothing."""
    s = new_game(4)
    s = arrange(s, {0: hand("2 coffee", "5 sugar")})
    s = open_offer(s, [0, 0, 3, 0, 0])
    traded = GAME.apply(s, 0, Trade(cards=("coffee", "coffee"), move=1), T0)
    assert traded.reveals_hidden
    passed = GAME.apply(s, 0, Trade(cards=(), move=1), T0)
    assert not passed.reveals_hidden
