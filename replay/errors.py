"""The errors of replaying and importing a stored game.

Both are `StorageError`s, as they were when the store itself replayed: a caller that handles the store's errors
handles these too.
"""

from storage.errors import StorageError


class ReplayError(StorageError):
    """A game's log cannot be replayed (an action is refused by the rules, or the log is malformed)."""

    def __init__(self, game_id: int, seq: int, problem: str) -> None:
        super().__init__(f"game {game_id}: replay fails at log entry {seq}: {problem}")
        self.game_id = game_id
        self.seq = seq
        self.problem = problem


class ImportRefused(StorageError):
    """An exported game cannot be imported (bad format, does not replay, or does not match its snapshot)."""
