"""Persistence: an event-sourced store of games (snapshots plus an append-only action log) on SQLite (aiosqlite) or
PostgreSQL (asyncpg, `DATABASE_URL`).

Public API: `open_store(path)` (`storage.backends`) gives a `GameStore` (see `storage.store` for how the bot uses
it): an object made of small parts, `store.games` (with the atomic `commit`), `store.seats`, `store.log`,
`store.timers`, `store.outbox`, `store.refs`, `store.settings`, `store.records` and `store.maintenance`, whose
interfaces are in `storage.games`, `storage.parts` and `storage.records`; the records in `storage.models` and the
errors in `storage.errors`. All of these are backend-neutral. The SQLite implementation is the package
`storage.sqlite`, one module per part, with its row format (`storage.sqlite.rows`, `storage.sqlite.timerlist`) and
its schema (`storage/sqlite/migrations/*.sql`, applied by `storage.sqlite.migrate`); the PostgreSQL one is the
package `storage.postgres`, laid out the same way with its own migrations; `storage.logcodec` compresses
a log entry's events for any backend.

The store knows nothing of the games (tests/storage/test_layers.py checks that no module here imports `engine`):
replaying a stored game, checking it and importing an export are in the `replay` package above both.
"""

from storage.backends import open_store
from storage.errors import (
    BackupUnsupported,
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
    AwayMode,
    BotLevel,
    Claim,
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
    NotifyMode,
    OutboxRecord,
    PlayerDelivery,
    PlayerGame,
    QuietHours,
    SeatRecord,
    Snapshot,
    TimerRecord,
)
from storage.records import GameResult, Placement, PlayerStats, Rating, SeatResult, player_key
from storage.store import KEEP, GameStore

__all__ = [
    "KEEP",
    "OPEN_STATUSES",
    "AwayMode",
    "BackupUnsupported",
    "BotLevel",
    "Claim",
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
    "NotifyMode",
    "OutboxRecord",
    "Placement",
    "PlayerDelivery",
    "PlayerGame",
    "PlayerStats",
    "QuietHours",
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
