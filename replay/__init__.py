"""Replaying a stored game with its engine: rebuild it from set-up plus its log, check it against its snapshot,
import an export.

It sits above both `engine/` and `storage/` (which know nothing of each other): the store keeps a log it does not
understand, the engine applies actions without knowing where they are kept, and this package joins the two for
whoever uses both (the bot's moderation, tests, benchmarks). It is a package of its own rather than part of `bot/`
so that tests and scripts can replay a game without importing the Discord adapter.

- `replay.log`: the meaning of a log, entry by entry (pure: `replay_entries`, `compare_states`);
- `replay.stored`: the same over a `GameStore` (`replay_game`, `check_replay`, `import_game`).
"""

from replay.errors import ImportRefused, ReplayError
from replay.stored import ReplayReport, check_replay, import_game, replay_game

__all__ = ["ImportRefused", "ReplayError", "ReplayReport", "check_replay", "import_game", "replay_game"]
