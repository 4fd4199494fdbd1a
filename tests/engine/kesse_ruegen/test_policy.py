"""The Kesse Rügen computer player and autopilot (`engine.kesse_ruegen.policy`).

- It reads only its own view: the opponent's closed fist never changes its decision.
- It never makes a move the rules refuse, in either mode, over seeded games (the driver applies every decision
  through `apply`), and those games end by the rules.
- Its fist is mixed, in both modes: over seeds it is not one fixed number.
- Its guesses and actions: a total its own fist makes possible; plant on an empty field, evict a rival tuber,
  reclaim when its supply is empty.
"""

import random
from typing import Any

import pytest

from engine.kesse_ruegen.actions import Choose, Evict, Guess, Plant, Reclaim
from engine.kesse_ruegen.policy import KesseRuegenPolicy
from engine.kesse_ruegen.state import KesseRuegenState
from engine.policy import Level

from ..test_policy import BOTS, GAMES
from .helpers import GAME, placed, play

POLICY = KesseRuegenPolicy(GAME)


def decide(state: KesseRuegenState, seat: int, seed: int = 0, *, autopilot: bool = False, policy: Any = POLICY) -> Any:
    return policy.decide(
        GAME.view(state, seat), GAME.legal_actions(state, seat), seat, random.Random(seed), autopilot=autopilot
    )


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_the_opponents_fist_never_changes_a_decision(level: Level) -> None:
    policy = KesseRuegenPolicy(GAME, level=level)
    compared = 0
    for seed in range(12):
        state = placed(2, seed=seed)
        # Seat 1 closes its fist on 0 or on 2: seat 0 must choose (then guess) the same either way.
        for autopilot in (False, True):
            low = play(state, (1, Choose(tubers=0)))
            high = play(state, (1, Choose(tubers=2)))
            assert decide(low, 0, seed, autopilot=autopilot, policy=policy) == decide(
                high, 0, seed, autopilot=autopilot, policy=policy
            )
            mine = decide(low, 0, seed, autopilot=autopilot, policy=policy)
            low, high = play(low, (0, mine)), play(high, (0, mine))
            assert low.duel != high.duel  # the states do differ, in the opponent's secret
            assert decide(low, 0, seed, autopilot=autopilot, policy=policy) == decide(
                high, 0, seed, autopilot=autopilot, policy=policy
            )
            compared += 2
    assert compared == 48


def test_policies_play_whole_games_without_a_refused_move() -> None:
    game = GAMES["kesse_ruegen"]
    runs: list[tuple[int, set[int], set[int]]] = [
        (2, {0}, set()),
        (2, {0, 1}, set()),
        (2, {1}, {1}),
        (3, {0, 1, 2}, {2}),
        (4, {0, 2}, set()),
    ]
    for i, (seats, policies, autopilot) in enumerate(runs):
        for seed in range(3):
            played = BOTS.play_one(game, seats, 10 * i + seed, policies, autopilot_seats=autopilot)
            assert not played.capped, (i, seed)


def test_the_fist_is_mixed_in_both_modes() -> None:
    state = placed(2)
    for autopilot in (False, True):
        fists = {decide(state, 0, seed, autopilot=autopilot).tubers for seed in range(40)}
        assert fists == {0, 1, 2}


def test_the_fist_never_holds_more_than_the_supply() -> None:
    state = placed(2)
    state.supply[0] = 1
    assert {decide(state, 0, seed).tubers for seed in range(30)} == {0, 1}


def test_a_guess_is_a_total_its_own_fist_allows() -> None:
    for seed in range(20):
        state = play(placed(2, seed=seed), (0, Choose(tubers=2)), (1, Choose(tubers=seed % 3)))
        first = decide(state, 0, seed)
        assert isinstance(first, Guess) and 2 <= first.total <= 4
        state = play(state, (0, first))
        second = decide(state, 1, seed)
        assert isinstance(second, Guess) and second.total != first.total
        assert seed % 3 <= second.total <= seed % 3 + 2


def acting(state: KesseRuegenState, seat: int, actions: int) -> KesseRuegenState:
    state.phase = "act"
    state.duel = None
    state.actor = seat
    state.actions_left = state.actions_total = actions
    return state


def test_it_plants_evicts_and_reclaims() -> None:
    # One action on an empty field, with tubers in supply: plant.
    assert decide(acting(placed(2), 0, 1), 0) == Plant()
    # One action on a rival's tuber: evict it.
    state = acting(placed(2), 0, 1)
    state.tubers["a1"] = 1
    assert decide(state, 0) == Evict()
    # In the barn with an empty supply and tubers there: reclaim.
    state = acting(placed(2), 0, 1)
    state.pawns[0] = state.barn
    state.supply[0] = 0
    state.barn_tubers[0] = 3
    assert decide(state, 0) == Reclaim()


def test_a_table_of_computer_players_never_waits_for_a_deadline() -> None:
    def no_timeout(state: KesseRuegenState, actor: int | None, action: Any, after: KesseRuegenState) -> None:
        assert actor is not None, action

    for seats, autopilot in ((2, set()), (3, {0, 1, 2})):
        played = BOTS.play_one(
            GAMES["kesse_ruegen"], seats, 7, set(range(seats)), autopilot_seats=autopilot, on_step=no_timeout
        )
        assert not played.capped
