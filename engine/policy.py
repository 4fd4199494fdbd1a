"""Computer players and the autopilot: the interface a game's policy implements.

A policy decides one move for one seat from what a person in that seat would know: the seat's own view
(`game.view(state, seat)`) and the moves open to it (`game.legal_actions(state, seat)`), never the state itself.
The platform (or a benchmark) computes both and calls `decide`; it then applies the chosen action for the seat
through the same path as a person's move.

Two modes:

- `autopilot=False`: a computer player that plays to win (opens deals, bargains, bluffs within reason).
- `autopilot=True`: an absent player's seat kept moving safely: only legal moves that give nothing away and never
  make or accept an agreement that pays the seat less than nothing — in practice the game's own deadline default
  (pass in a reaction window, the safe choice on a turn), taken early.

`decide` returns None when the seat has nothing it wants to do now (e.g. it lets an open negotiation run); the
deadline's default then applies as for anyone. A policy is deterministic given `rng` (the caller seeds it; never the
game's generator) and must be fast: the benchmark's goal is a median decision ≤ 50 ms.

Levels: a computer player plays at a `Level` (`engine.levels`: "easy", "normal" or "hard"). A policy class is built
as `PolicyClass(game, level=level)`; the autopilot (`autopilot=True`) is the same whatever the level: it keeps an
absent player's seat safe, it does not play to win.

A game registers its policy factory in its one registration, `ENTRY.policy` in `engine/<game>/__init__.py` (see
`engine.entry`); `policy_for` reads it from the registry.
"""

import random
from collections.abc import Sequence
from typing import Any, Protocol

from pydantic import BaseModel

from engine import registry
from engine.game import Game
from engine.levels import LEVELS, Level

__all__ = ["LEVELS", "Level", "Policy", "PolicyFactory", "policies", "policy_for"]


class Policy(Protocol):
    """One game's decision rule; see the module docstring."""

    def decide(
        self,
        view: BaseModel,
        legal: Sequence[Any],
        seat: int,
        rng: random.Random,
        *,
        autopilot: bool = False,
    ) -> Any | None:
        """One of `legal` (or None: nothing now) for `seat`, from its own `view` alone."""


class PolicyFactory(Protocol):
    """A game's policy class: built from the game (with its data files) and a level."""

    def __call__(self, game: Game, *, level: Level = "normal") -> Policy: ...  # type: ignore[type-arg]


def policies() -> dict[str, PolicyFactory]:
    """Each registered game's policy factory by the game's name (games without a policy are left out)."""
    return {name: entry.policy for name, entry in registry.entries().items() if entry.policy is not None}


def policy_for(game: Game, level: Level = "normal") -> Policy | None:  # type: ignore[type-arg]
    """The policy of a game at `level` (None: the game has none yet, or is no registered game, e.g. a test's toy)."""
    entry = registry.entries().get(game.name)
    make = entry.policy if entry is not None else None
    return make(game, level=level) if make is not None else None
