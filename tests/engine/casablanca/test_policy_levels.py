"""The Casablanca computer player's levels (easy, normal, hard): each only ever chooses a legal move the rules accept,
is deterministic from its seed, and its limits never exceed its bribe. (All three play the same player for now: see
`engine/casablanca/policy.py`.)"""

import random
from datetime import timedelta
from typing import Any, get_args

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.casablanca import randomplay
from engine.casablanca.actions import Bribe, Contest, Object
from engine.casablanca.policy import CasablancaPolicy, Level
from engine.casablanca.state import CasablancaState

from .helpers import GAME, RED, T0, new_game

LEVELS: tuple[Level, ...] = get_args(Level)
POLICIES = {level: CasablancaPolicy(GAME, level=level) for level in LEVELS}


def play(
    seed: int, variant: str, seats: int, levels: dict[int, Level], steps: int
) -> list[tuple[CasablancaState, int]]:
    """A game where the seats in `levels` are computer players of that level (each decision checked to be legal;
    `apply` raises on a refused one) and the others random; returns (state, seat) of every decision taken."""
    rnd = random.Random(seed)
    state = new_game(seats, variant=variant, first=None, seed=seed)
    now = T0
    asked: list[tuple[CasablancaState, int]] = []
    for _ in range(steps):
        if state.phase == "over":
            break
        waits = GAME.waiting_on(state)
        order = list(waits[0].seats)
        rnd.shuffle(order)
        actor: int | None = None
        action: Any = None
        for seat in order:
            legal = GAME.legal_actions(state, seat)
            if seat in levels:
                choice = POLICIES[levels[seat]].decide(GAME.view(state, seat), legal, seat, random.Random(seed))
                asked.append((state, seat))
                if choice is not None:
                    assert choice in legal, f"{levels[seat]}: {choice} is not among the legal moves"
                    if isinstance(choice, Object | Contest) and state.announcement is not None:
                        assert choice.limit <= state.bribes[seat][state.announcement.agent]
                    if isinstance(choice, Bribe):
                        assert sum(choice.amounts.values()) <= state.capital[seat]
            elif legal:
                choice = rnd.choices(legal, [randomplay.weight(state, seat, a) for a in legal])[0]
            else:
                choice = None
            if choice is not None:
                actor, action = seat, choice
                break
        if actor is None:
            now = max(now, waits[0].until)
            action = waits[0].timeout
        else:
            now += timedelta(seconds=rnd.randint(1, 120))
        state = GAME.apply(state, actor, action, now).state
    return asked


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    variant=st.sampled_from(["main", "hq"]),
    seats=st.integers(2, 4),
    levels=st.lists(st.sampled_from(LEVELS), min_size=4, max_size=4),
)
def test_every_level_only_chooses_legal_moves(seed: int, variant: str, seats: int, levels: list[Level]) -> None:
    chosen = {s: levels[s] for s in range(seats) if s % 2 == 0 or levels[s] != "easy"}
    play(seed, variant, seats, chosen, steps=300)


def test_every_level_is_deterministic_from_its_seed() -> None:
    decisions = play(3, "main", 4, {0: "easy", 1: "normal", 2: "hard"}, steps=300)
    assert len(decisions) > 50
    for state, seat in decisions[::7]:
        view, legal = GAME.view(state, seat), GAME.legal_actions(state, seat)
        for policy in POLICIES.values():
            assert policy.decide(view, legal, seat, random.Random(5)) == policy.decide(
                view, legal, seat, random.Random(5)
            )


def _crowded() -> CasablancaState:
    """Main game, seat 0 to move: everything it has ($8,000) is on Rudy Red, who shares house 6 with two others."""
    state = new_game(3, first=0, seed=1)
    state.started = [True] * 3
    state.capital = [0, 2_000, 2_000]
    state.bribes = [[0] * 8 for _ in range(3)]
    state.bribes[0][RED] = 8_000
    for seat in (1, 2):
        state.bribes[seat] = [1_000] * 8
    state.at = ["6", "6", "10", "11", "6", "7", "1", "12"]
    return state
