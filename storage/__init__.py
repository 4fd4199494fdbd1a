"""Persistence: an event-sourced store of games (snapshots plus an append-only action log) on aiosqlite.

Public API: `open_store(path)` gives a `GameStore` (see `storage.store` for how the bot uses it), the records in
`storage.models` and the errors in `storage.errors`. The SQLite implementation lives in `storage.sqlite`, its
schema in `storage/migrations/*.sql`.
"""

from storage.errors import (
    DamagedData,
    GameNotFound,
    ImportRefused,
    InvalidOperation,
    ReplayError,
    SchemaTooNew,
    StaleVersion,
    StorageError,
    StoreFileError,
)
from storage.models import (
    OPEN_STATUSES,
    BotLevel,
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
    ReplayReport,
    SeatRecord,
    Snapshot,
    TimerRecord,
)
from storage.records import GameResult, Placement, PlayerStats, Rating, SeatResult, player_key
from storage.store import KEEP, GameStore, open_store

__all__ = [
    "KEEP",
    "OPEN_STATUSES",
    "BotLevel",
    "CommitResult",
    "DamagedData",
    "ExportedGame",
    "GameNotFound",
    "GameRecord",
    "GameResult",
    "GameStatus",
    "GameStore",
    "GuildSettings",
    "ImportRefused",
    "InvalidOperation",
    "LoadedGame",
    "LogEntry",
    "MessageRef",
    "NewLogEntry",
    "NewOutbox",
    "NewSeat",
    "NewTimer",
    "OutboxRecord",
    "Placement",
    "PlayerStats",
    "Rating",
    "ReplayError",
    "ReplayReport",
    "SchemaTooNew",
    "SeatRecord",
    "SeatResult",
    "Snapshot",
    "StaleVersion",
    "StorageError",
    "StoreFileError",
    "TimerRecord",
    "open_store",
    "player_key",
]
