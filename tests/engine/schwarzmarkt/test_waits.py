"""Deadlines: the trading turn's own deadline, the same question for everyone whatever their hand, and the defaults
(a random card, no trade and a move of 1, a random legal choice); stale deadlines are refused."""

from datetime import timedelta

import pytest

from engine.errors import RuleError
from engine.schwarzmarkt.actions import Timeout, Trade

from .helpers import GAME, arrange, hand, later, new_game, open_offer, play, play_event


def test_the_starter_has_the_turn_deadline_and_a_trading_turn_its_own() -> None:
    state = new_game(turn_deadline=timedelta(hours=24), trade_hours=6)
    (wait,) = GAME.waiting_on(state)
    assert wait.seats == (0,) and wait.until - wait.since == timedelta(hours=24)
    state = open_offer(state, [0, 0, 3, 0, 0])
    (wait,) = GAME.waiting_on(state)
    assert wait.seats == (0,) and wait.until - wait.since == timedelta(hours=6)


def test_the_default_trading_deadline_is_12_hours() -> None:
    state = open_offer(new_game(), [0, 0, 3, 0, 0])
    (wait,) = GAME.waiting_on(state)
    assert wait.until - wait.since == timedelta(hours=12)


def test_every_player_is_asked_in_the_same_words_whether_or_not_they_hold_a_wanted_card() -> None:
    holder = arrange(new_game(), {0: hand("3 coffee")})
    without = arrange(new_game(), {0: hand("3 sugar")})
    a, b = open_offer(holder, [0, 0, 3, 0, 0]), open_offer(without, [0, 0, 3, 0, 0])
    assert GAME.waiting_on(a) == GAME.waiting_on(b)
    assert GAME.view(a, None) == GAME.view(b, None)


def test_the_trading_default_is_no_trade_and_a_move_of_1_at_the_deadline() -> None:
    state = arrange(new_game(), {0: hand("3 coffee")})
    state = open_offer(state, [0, 0, 3, 0, 0])
    (wait,) = GAME.waiting_on(state)
    outcome = GAME.apply(state, None, wait.timeout, wait.until)
    after = outcome.state
    assert after.marker == 2 and after.luxury[0] == 0 and after.goods[0] == hand("3 coffee") and after.turn == 1
    assert outcome.events[0].text.startswith("Time's up: {seat:0} doesn't trade")
    with pytest.raises(RuleError, match="moved on"):
        GAME.apply(after, None, wait.timeout, later(13))


def test_the_starters_default_is_a_random_card_from_their_hand() -> None:
    state = new_game()
    (wait,) = GAME.waiting_on(state)
    outcome = GAME.apply(state, None, wait.timeout, wait.until)
    played = outcome.events[0]
    assert played.data["card"] in state.black_market[0] and played.text.startswith("Time's up")
    assert len(outcome.state.black_market[0]) == 3, "the starter draws a replacement"


def test_an_events_default_is_a_random_legal_choice() -> None:
    state = arrange(new_game(), {1: hand("coffee"), 2: hand(), 3: hand()})
    state = play_event(state, "old_debt")
    (wait,) = GAME.waiting_on(state)
    assert wait.seats == (0,) and "choose a player" in wait.what
    after = GAME.apply(state, None, wait.timeout, wait.until).state
    assert after.goods[1] == hand() and after.phase == "play", "the only legal target was seat 1"


def test_only_the_clock_applies_deadlines() -> None:
    state = new_game()
    (wait,) = GAME.waiting_on(state)
    with pytest.raises(RuleError):
        GAME.apply(state, 0, wait.timeout, wait.until)
    with pytest.raises(RuleError):
        GAME.apply(state, None, Trade(cards=(), move=1), wait.until)
    with pytest.raises(RuleError):
        GAME.apply(state, None, Timeout(key="0:play:0"), wait.until)


def test_play_moves_the_game_on_to_the_next_trader() -> None:
    state = open_offer(new_game(), [0, 0, 3, 0, 0])
    state = play(state, (0, Trade(cards=(), move=1)))
    (wait,) = GAME.waiting_on(state)
    assert wait.seats == (1,)
