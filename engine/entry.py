"""A game's one registration: what `engine/<game>/__init__.py` exports as `ENTRY`.

`engine.registry` finds every package under `engine/` and reads its `ENTRY`: the `Game` class (with its options
model and its data loader, `from_data_folder`) and its policy factory (`engine.policy.policy_for` builds it at a
level). The bot finds the game's presentation by the same name under `bot/games/<game>/`. Adding a game touches
no file of another game and no central list.
"""

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.game import Game

if TYPE_CHECKING:  # the protocol only; `engine.policy` reads the registry, which reads the entries
    from engine.policy import PolicyFactory


@dataclass(frozen=True)
class Entry:
    """One game as the platform finds it; see the module docstring."""

    game: type[Game]  # type: ignore[type-arg]
    """The rules: `name` (the package's name too), options (`options_model`), data files (`from_data_folder`)."""
    policy: "PolicyFactory | None" = None
    """The computer player and autopilot, built as `policy(game, level=level)`; None: the game has none yet."""
    listed: int = 100
    """Where the game comes in lists of games (the `/game new` choices, `/game rules`): lower first, then by name."""
