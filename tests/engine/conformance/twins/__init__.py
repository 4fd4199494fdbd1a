"""Each registered game's twin hook for `test_twin_timeouts`, in `twins/<game>.py` as `HOOK` (found by the game's
name, so adding a game adds one file here and edits no list), and what the hooks share: the walk through seeded
random play to states at deadlines.
"""

import importlib
import random
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

from engine import registry

T0 = datetime(2026, 3, 1, 12, tzinfo=UTC)
NO_SECRET = "no hidden information at this deadline"

Hook = tuple[Callable[[Any], str], Callable[[Any], Any], Callable[[], Iterator[Any]], set[str], set[str]]
"""Per game: the kind of a state's deadline, its twin (or why there is none), the states to try, the kinds of
deadline the game has, and those of them at which it never holds hidden information (said, and checked)."""


def hooks() -> dict[str, Hook]:
    """The hook of every registered game that has one (`twins/<game>.py`)."""
    found: dict[str, Hook] = {}
    for name in registry.games():
        try:
            module = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
            continue
        found[name] = module.HOOK
    return found


def walk(name: str, seeds: range, steps: int, seats: int | None = None, **options: Any) -> Iterator[Any]:
    """Every state at which the game waits, along seeded random games (moves by the waited-on seats, now and then
    a deadline)."""
    game = registry.get(name)
    for seed in seeds:
        pick = random.Random(seed)
        n = seats or pick.randint(game.min_seats, game.max_seats)
        state = game.setup(n, game.parse_options(options), seed, T0)
        for _ in range(steps):
            waits = game.waiting_on(state)
            if not waits or game.result(state) is not None:
                break
            yield state
            wait = waits[0]
            moves = [(s, a) for s in wait.seats for a in game.legal_actions(state, s)]
            if not moves or pick.random() < 0.25:
                state = game.apply(state, None, wait.timeout, wait.until).state
            else:
                seat, action = pick.choice(moves)
                state = game.apply(state, seat, action, wait.since).state
