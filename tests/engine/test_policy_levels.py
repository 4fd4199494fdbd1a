"""Every game's policy at every level (`engine.policy.Level`): legal, deterministic, blind to what it can't see.

Random legal play from a seeded set-up (hypothesis draws the seed and the table); at every state, every seat with
something to do asks each level's policy (and the autopilot) for a move:
- the move is one of the seat's legal actions (or None: nothing now), or one the rules accept (a free amount, such
  as a price, that the bounded legal list only samples);
- the same view, legal list and seed give the same move (determinism from the seeded generator);
- the policy is handed the seat's view, never the state.
"""

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.policy import LEVELS, policies, policy_for
from engine.registry import build

GAMES = build()
NAMES = sorted(policies())
STEPS = 40
"""Random moves per drawn game: enough to reach duels, trades and events in each game, cheap enough for every level."""


def _policies_of(name: str) -> dict[str, Any]:
    return {level: policy_for(GAMES[name], level) for level in LEVELS}


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 10_000), extra=st.integers(0, 2))
def test_every_level_picks_only_legal_moves_and_the_same_one_for_the_same_seed(
    name: str, seed: int, extra: int
) -> None:
    game = GAMES[name]
    seats = min(game.min_seats + extra, game.max_seats)
    policies = _policies_of(name)
    rnd = random.Random(seed)
    state = game.setup(seats, game.parse_options({}), seed, _now())
    asked = 0
    for step in range(STEPS):
        if game.result(state) is not None:
            break
        movers = []
        for seat in range(seats):
            legal = game.legal_actions(state, seat)
            if not legal:
                continue
            movers.append((seat, legal))
            view = game.view(state, seat)
            for level, policy in policies.items():
                for autopilot in (False, True):
                    one = policy.decide(view, legal, seat, random.Random(step), autopilot=autopilot)
                    two = policy.decide(view, legal, seat, random.Random(step), autopilot=autopilot)
                    assert one == two, (name, level, autopilot)
                    if one is not None and one not in legal:
                        # A free amount (a price) may be one the bounded legal list only samples around: the rules
                        # must take it.
                        game.apply(state, seat, one, _now())
                    asked += 1
        if movers:
            seat, legal = rnd.choice(movers)
            state = game.apply(state, seat, rnd.choice(legal), _now()).state
        else:
            waits = game.waiting_on(state)
            if not waits:
                break
            wait = min(waits, key=lambda w: w.until)
            state = game.apply(state, None, wait.timeout, wait.until).state
    assert asked > 0


def _now() -> Any:
    from datetime import UTC, datetime

    return datetime(2025, 1, 1, tzinfo=UTC)
