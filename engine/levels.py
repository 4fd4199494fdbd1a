"""How well a computer player plays: the `Level` every game's policy is built with.

It lives apart from `engine.policy` (which reads the games' registrations) so that a game's policy can import it
without importing every other game: the levels import nothing.

A computer player plays at a `Level` — "easy" (the gentlest: the issue-16 policy or softer), "normal" (the default)
or "hard" (the strongest this game has). The autopilot is the same whatever the level: it keeps an absent player's
seat safe, it does not play to win.
"""

from typing import Literal, get_args

Level = Literal["easy", "normal", "hard"]
"""How well a computer player plays; see the module docstring."""
LEVELS: tuple[Level, ...] = get_args(Level)
"""The levels from the gentlest to the strongest."""
