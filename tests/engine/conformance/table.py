"""A seeded table over any registered game, through `engine.game.Game` alone: what the conformance suite plays.

Nothing here knows a game's rules. Each step, the seats the game waits on or lets act freely (`waiting_on`,
`free_to_act`) are asked in a seeded order; a seat that acts picks from its `legal_actions` (`chooser`: uniformly at
random, or the game's policy on the seat's own view); when nobody acts, the soonest wait's `timeout` is applied by
the clock (actor None) at its deadline. Every action moves the clock a little, like people answering in turn.
"""

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from engine.errors import RuleError
from engine.events import Event
from engine.game import Game
from engine.policy import Level, policy_for

START = datetime(2026, 1, 1, 9, tzinfo=UTC)

Chooser = Callable[[Game, Any, int, list[Any], random.Random], Any | None]  # type: ignore[type-arg]
"""(game, state, seat, legal, rng) → one of `legal`, or None: the seat does nothing now."""


def at_random(game: Game, state: Any, seat: int, legal: list[Any], rng: random.Random) -> Any | None:  # type: ignore[type-arg]
    """A seat that acts now and then, choosing uniformly among what the rules allow it."""
    return rng.choice(legal) if rng.random() < 0.9 else None


def by_policy(level: Level = "normal") -> Chooser:
    """The game's computer player of `level` in every seat (see `policy_choice`)."""

    def choose(game: Game, state: Any, seat: int, legal: list[Any], rng: random.Random) -> Any | None:  # type: ignore[type-arg]
        return policy_choice(game, level, state, seat, legal, rng)

    return choose


def policy_choice(game: Game, level: Level, state: Any, seat: int, legal: list[Any], rng: random.Random) -> Any | None:  # type: ignore[type-arg]
    """The game's computer player in the seat, seeing the seat's own view only. Its choice must be one the rules
    accept: one of `legal`, or a free amount `legal` only samples (a price in Kohle, Kies & Knete)."""
    policy = policy_for(game, level)
    assert policy is not None, f"{game.name} has no policy"
    action = policy.decide(game.view(state, seat), legal, seat, rng)
    if action is not None and action not in legal:
        try:
            game.apply(state, seat, action, START)
        except RuleError as exc:
            raise AssertionError(f"{game.name}'s policy chose {action!r}, which the rules refuse: {exc}") from None
    return action


@dataclass
class Step:
    actor: int | None
    action: Any
    now: datetime
    events: list[Event]


@dataclass
class Played:
    game: Game  # type: ignore[type-arg]
    seats: int
    seed: int
    first: Any
    state: Any
    steps: list[Step] = field(default_factory=list)

    @property
    def over(self) -> bool:
        return self.game.result(self.state) is not None


def play(
    game: Game,  # type: ignore[type-arg]
    seats: int,
    seed: int,
    *,
    chooser: Chooser = at_random,
    cap: int = 300,
    on_step: Callable[[Any, Step], None] | None = None,
) -> Played:
    """Play up to `cap` actions (or to the end) from a fresh set-up; `on_step(state_before, step)` sees each one."""
    rng = random.Random(seed)
    now = START
    state = game.setup(seats, game.parse_options(), seed, now)
    played = Played(game, seats, seed, first=state, state=state)
    for _ in range(cap):
        waits = game.waiting_on(state)
        if game.result(state) is not None or not waits:
            break
        asked = sorted({s for w in waits for s in w.seats} | game.free_to_act(state))
        rng.shuffle(asked)
        actor: int | None = None
        action: Any = None
        for seat in asked:
            legal = game.legal_actions(state, seat)
            chosen = chooser(game, state, seat, legal, rng) if legal else None
            if chosen is not None:
                actor, action = seat, chosen
                break
        if action is None:
            wait = min(waits, key=lambda w: w.until)
            now = max(now, wait.until)
            action = wait.timeout
        outcome = game.apply(state, actor, action, now)
        step = Step(actor, action, now, outcome.events)
        if on_step is not None:
            on_step(state, step)
        played.steps.append(step)
        state = played.state = outcome.state
        now += timedelta(seconds=rng.randint(1, 900))
    return played
