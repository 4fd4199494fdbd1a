"""The errors the store raises. Every one is a `StorageError`; those about the database file name the file.

The bot catches `StorageError` at start-up, prints the message and exits: a broken or foreign file is never
overwritten and never produces a traceback. `StaleVersion` is the one error a caller is expected to handle in
normal operation: reload the game and retry on the fresh state.
"""


class StorageError(Exception):
    """Anything the store refuses or cannot do. `str(error)` is a complete message for a person."""


class StoreFileError(StorageError):
    """The database file cannot be used: not a database, corrupt, foreign, unreadable. Names the file."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


class DamagedData(StoreFileError):
    """A damaged page met while reading or writing ("database disk image is malformed"): the file opened, and what
    lies on other pages (other games) may still be sound. `game_id`: the game being read or written, when the call
    named one. The remedy is the newest backup (README: "Backups and restoring one")."""

    def __init__(self, path: str, problem: str, game_id: int | None = None) -> None:
        super().__init__(path, problem)
        self.game_id = game_id


class SchemaTooNew(StoreFileError):
    """The file was written by a newer Boardroom (its schema version is above the newest migration we know)."""

    def __init__(self, path: str, found: int, known: int) -> None:
        super().__init__(
            path,
            f"this database has schema version {found}, written by a newer Boardroom; this version knows up to "
            f"{known}. Upgrade Boardroom (or open a backup made before the upgrade); the file was left untouched.",
        )
        self.found = found
        self.known = known


class GameNotFound(StorageError, LookupError):
    """No game with that id (or no snapshot yet: the game is still in its lobby)."""


class StaleVersion(StorageError):
    """A commit named a version that is no longer current: someone else committed first. Reload and retry."""

    def __init__(self, game_id: int, expected: int, actual: int | None) -> None:
        super().__init__(f"game {game_id}: expected version {expected}, but it is now {actual}; reload and retry")
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


class InvalidOperation(StorageError, ValueError):
    """A request that contradicts the game's record (e.g. starting a game that is not in its lobby)."""


class BackupUnsupported(StorageError):
    """This backend makes no backup files: the database server's own tools do (PostgreSQL: `pg_dump`). The message
    says what to use instead; `/mod backup` shows it rather than pretend."""
