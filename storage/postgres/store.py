"""`PostgresStore`: the game store on a PostgreSQL database, its parts sharing one pool of connections."""

from storage.postgres.database import Database
from storage.postgres.games import PostgresGames
from storage.postgres.log import PostgresLog
from storage.postgres.maintenance import PostgresMaintenance
from storage.postgres.outbox import PostgresOutbox
from storage.postgres.records import PostgresRecords
from storage.postgres.refs import PostgresMessageRefs
from storage.postgres.seats import PostgresSeats
from storage.postgres.settings import PostgresSettings
from storage.postgres.timers import PostgresTimers
from storage.store import GameStore


class PostgresStore(GameStore):
    """`GameStore` on PostgreSQL. Create it with `open_store("postgresql://…")` / `PostgresStore.open`."""

    def __init__(self, db: Database) -> None:
        self.db = db
        super().__init__(
            games=PostgresGames(db),
            seats=PostgresSeats(db),
            log=PostgresLog(db),
            timers=PostgresTimers(db),
            outbox=PostgresOutbox(db),
            refs=PostgresMessageRefs(db),
            settings=PostgresSettings(db),
            records=PostgresRecords(db),
            maintenance=PostgresMaintenance(db),
        )

    @classmethod
    async def open(cls, url: str, *, create: bool = True, pool_size: int | None = None) -> "PostgresStore":
        """See `storage.open_store`."""
        if pool_size is None:
            return cls(await Database.open(url, create=create))
        return cls(await Database.open(url, create=create, min_size=min(2, pool_size), max_size=pool_size))

    async def close(self) -> None:
        await self.db.close()

    @property
    def path(self) -> str:
        """The database URL without its password (as `SQLiteStore.path` names the file)."""
        return self.db.label
