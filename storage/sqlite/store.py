"""`SQLiteStore`: the game store on one SQLite file (or ":memory:"), its parts sharing one connection."""

from pathlib import Path

from storage.sqlite.database import Database, Synchronous
from storage.sqlite.games import SQLiteGames
from storage.sqlite.log import SQLiteLog
from storage.sqlite.maintenance import SQLiteMaintenance
from storage.sqlite.outbox import SQLiteOutbox
from storage.sqlite.records import SQLiteRecords
from storage.sqlite.refs import SQLiteMessageRefs
from storage.sqlite.seats import SQLiteSeats
from storage.sqlite.settings import SQLiteSettings
from storage.sqlite.timers import SQLiteTimers
from storage.store import GameStore


class SQLiteStore(GameStore):
    """`GameStore` on one SQLite file (or ":memory:"). Create it with `open_store` / `SQLiteStore.open`."""

    def __init__(self, db: Database) -> None:
        self.db = db
        """The connection every part runs its statements on (`db.run`)."""
        super().__init__(
            games=SQLiteGames(db),
            seats=SQLiteSeats(db),
            log=SQLiteLog(db),
            timers=SQLiteTimers(db),
            outbox=SQLiteOutbox(db),
            refs=SQLiteMessageRefs(db),
            settings=SQLiteSettings(db),
            records=SQLiteRecords(db),
            maintenance=SQLiteMaintenance(db),
        )

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        synchronous: Synchronous = "FULL",
        create: bool = True,
        busy_timeout: float = 5.0,
    ) -> "SQLiteStore":
        """See `storage.open_store`."""
        return cls(await Database.open(path, synchronous=synchronous, create=create, busy_timeout=busy_timeout))

    async def close(self) -> None:
        await self.db.close()

    @property
    def path(self) -> str:
        """The database file's resolved path, or ":memory:"."""
        return self.db.label
