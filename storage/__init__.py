"""Persistence: an event-sourced store of games (snapshots plus an append-only action log) on aiosqlite.

Public API: `open_store(path)` gives a `GameStore` (see `storage.store` for how the bot uses it), the records in
`storage.models` and the errors in `storage.errors`; all three are backend-neutral. The SQLite implementation
lives in `storage.sqlite`, with its row format in `storage.sqliterows` (and the parts it uses: `storage.timerlist`,
`storage.logcodec`), its schema in `storage/migrations/*.sql` applied by `storage.migrate`.

The store knows nothing of the games (tests/storage/test_layers.py checks that no module here imports `engine`):
replaying a stored game, checking it and importing an export are in the `replay` package above both.
"""

from storage.errors import (
    GameNotFound,
    InvalidOperation,
    SchemaTooNew,
    StaleVersion,
    StorageError,
    StoreFileError,
)
from storage.models import (
    OPEN_STATUSES,
    CommitResult,
    ExportedGame,
    GameRecord,
    GameStatus,
    GuildSettings,
    LoadedGame,
    LogEntry,
    MessageRef,
    NewLogEntry,
    NewOutbox,
    NewSeat,
    NewTimer,
    OutboxRecord,
    SeatRecord,
    Snapshot,
    TimerRecord,
)
from storage.store import KEEP, GameStore, open_store

__all__ = [
    "KEEP",
    "OPEN_STATUSES",
    "CommitResult",
    "ExportedGame",
    "GameNotFound",
    "GameRecord",
    "GameStatus",
    "GameStore",
    "GuildSettings",
    "InvalidOperation",
    "LoadedGame",
    "LogEntry",
    "MessageRef",
    "NewLogEntry",
    "NewOutbox",
    "NewSeat",
    "NewTimer",
    "OutboxRecord",
    "SchemaTooNew",
    "SeatRecord",
    "Snapshot",
    "StaleVersion",
    "StorageError",
    "StoreFileError",
    "TimerRecord",
    "open_store",
]
