"""Persistence: an event-sourced store of games (snapshots plus an append-only action log) on aiosqlite.

Public API: `open_store(path)` gives a `GameStore` (see `storage.store` for how the bot uses it), the records in
`storage.models` and the errors in `storage.errors`; all three are backend-neutral. The SQLite implementation
lives in `storage.sqlite`, with its row format in `storage.sqliterows` (and the parts it uses: `storage.timerlist`,
`storage.logcodec`), its schema in `storage/migrations/*.sql` applied by `storage.migrate`.

The store knows nothing of the games (tests/storage/test_layers.py checks that no module here imports `engine`):
replaying a stored game, checking it and importing an export are in the `replay` package above both.
"""

from storage.errors import (
    DamagedData,
    GameNotFound,
    InvalidOperation,
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
