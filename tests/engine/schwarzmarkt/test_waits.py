"""Deadlines: the trading turn's own deadline, the same question for everyone whatever their hand, and the defaults
(a random card, no trade and a move of 1, a random legal choice); stale deadlines are refused."""

from datetime import timedelta
from typing import Any

import pytest

from engine.errors import RuleError
from engine.schwarzmarkt.actions import Target, Timeout, Trade

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
    assert outcome.events[0].kind == "no_trade" and outcome.events[0].data["by_default"] is True
    with pytest.raises(RuleError) as info:
        GAME.apply(after, None, wait.timeout, later(13))
    assert info.value.code == "stale_deadline"


def test_the_starters_default_is_a_random_card_from_their_hand() -> None:
    state = new_game()
    (wait,) = GAME.waiting_on(state)
    outcome = GAME.apply(state, None, wait.timeout, wait.until)
    played = outcome.events[0]
    assert played.data["card"] in state.black_market[0] and played.data["by_default"] is True
    assert len(outcome.state.black_market[0]) == 3, "the starter draws a replacement"


def test_an_events_default_is_a_random_legal_choice() -> None:
    state = arrange(new_game(), {1: hand("coffee"), 2: hand(), 3: hand()})
    state = play_event(state, "old_debt")
    (wait,) = GAME.waiting_on(state)
    assert wait.seats == (0,) and wait.what == "event"
    assert wait.about == {"event": "old_debt", "step": "target", "seat": 0, "target": None}
    after = GAME.apply(state, None, wait.timeout, wait.until).state
    assert after.goods[1] == hand() and after.phase == "play", "the only legal target was seat 1"


def test_only_the_clock_applies_deadlines() -> None:
    state = new_game()
    (wait,) = GAME.waiting_on(state)
    with pytest.raises(RuleError) as info:
        GAME.apply(state, 0, wait.timeout, wait.until)
    assert info.value.code == "clock_only"
    with pytest.raises(RuleError) as info:
        GAME.apply(state, None, Trade(cards=(), move=1), wait.until)
    assert info.value.code == "clock_deadlines_only"
    with pytest.raises(RuleError) as info:
        GAME.apply(state, None, Timeout(key="0:play:0"), wait.until)
    assert info.value.code == "stale_deadline"


def test_play_moves_the_game_on_to_the_next_trader() -> None:
    state = open_offer(new_game(), [0, 0, 3, 0, 0])
    state = play(state, (0, Trade(cards=(), move=1)))
    (wait,) = GAME.waiting_on(state)
    assert wait.seats == (1,)


def _forced_swap_timed_out(chooser_hand: list[int], seed: int) -> list[Any]:
    """The issue's repro: 3 players, seat 0 plays Forced Swap, targets seat 1 (9 potatoes; seat 2 holds 9 flour) and
    lets the deadline pass; the public events of the default."""
    state = arrange(new_game(3, dealer=2, seed=seed), {0: chooser_hand, 1: hand("9 potatoes"), 2: hand("9 flour")})
    state = play(play_event(state, "forced_swap"), (0, Target(seat=1)))
    (wait,) = GAME.waiting_on(state)
    return [e for e in GAME.apply(state, None, wait.timeout, wait.until).events if e.public]


@pytest.mark.parametrize("seed", range(40))
def test_a_timed_out_forced_swap_gives_one_card_whatever_the_hand_holds(seed: int) -> None:
    """From issue 23: the default used to pick among the legal gives, whose list depends on the mix of kinds in the
    hand, so the public count told the table about it (2 cards half the time for 9 of a kind, 14 in 19 for a mixed
    hand). Now it always gives 1 card, and the table sees the same whatever the hand."""
    one_kind = _forced_swap_timed_out(hand("9 coffee"), seed)
    mixed = _forced_swap_timed_out(hand("2 coffee", "2 sugar", "2 flour", "2 butter", "potatoes"), seed)
    assert one_kind[0].kind == "forced_swap" and one_kind[0].data["count"] == 1
    assert one_kind == mixed


def test_a_timed_out_raid_names_any_of_the_five_kinds() -> None:
    """Raid's default is one of the five kinds at random, not one drawn from what the target is known to hold."""
    named = set()
    for seed in range(60):
        state = arrange(new_game(3, dealer=2, seed=seed), {0: hand("coffee"), 1: hand("9 potatoes"), 2: hand("sugar")})
        state = play(play_event(state, "raid"), (0, Target(seat=1)))
        (wait,) = GAME.waiting_on(state)
        (raid,) = [e for e in GAME.apply(state, None, wait.timeout, wait.until).events if e.kind == "raid"]
        named.add(raid.data["good"])
    assert named == {"potatoes", "flour", "coffee", "butter", "sugar"}


def test_a_timed_out_new_goods_found_takes_a_card_drawn_from_the_pile() -> None:
    """Every card of the pile is as likely as any other: with a pile of one kind but for a single card, the single
    card is taken rarely (picking among the kinds would take it about half the time)."""
    taken = []
    for seed in range(60):
        state = arrange(new_game(3, dealer=2, seed=seed), {0: hand("coffee"), 1: hand("potatoes"), 2: hand("sugar")})
        pile = state.goods_pile
        state = arrange(state, luxury=[10, 0, 0], goods_pile=[0, 0, 0, 0, 0])
        state.goods_pile = [sum(pile) - 1, 0, 0, 0, 1]  # keeps the 60 cards: potatoes all but one, one sugar
        state = play_event(state, "new_goods")
        (wait,) = GAME.waiting_on(state)
        (took,) = [e for e in GAME.apply(state, None, wait.timeout, wait.until).events if e.kind == "took"]
        taken.append(took.data["good"])
    assert taken.count("sugar") < 10, "about 1 in 57"
