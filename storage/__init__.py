"""Persistence: an event-sourced store of games (snapshots plus an append-only action log) on aiosqlite.

Public API: `open_store(path)` gives a `GameStore` (see `storage.store` for how the bot uses it), the records in
`storage.models` and the errors in `storage.errors`. The SQLite implementation lives in `storage.sqlite`, its
schema in `storage/migrations/*.sql`.
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
