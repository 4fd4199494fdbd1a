"""The action log of the PostgreSQL store (`store.log`): read only here; `PostgresGames.commit` appends to it."""

from storage.errors import GameNotFound
from storage.models import LogEntry
from storage.parts import Log
from storage.postgres import rows
from storage.postgres.database import Conn, Database
from storage.postgres.rows import LOG_COLUMNS

REACTION_NOTES = "reaction:"
"""The one note prefix the log has an index for (`notes`)."""


class PostgresLog(Log):
    def __init__(self, db: Database) -> None:
        self._db = db

    async def entries(self, game_id: int, *, after: int = 0, limit: int | None = None) -> list[LogEntry]:
        async def run(conn: Conn) -> list[LogEntry]:
            found = await conn.fetch(
                f"SELECT {LOG_COLUMNS} FROM action_log WHERE game_id = $1 AND seq > $2 ORDER BY seq LIMIT $3",
                game_id,
                after,
                limit,
            )
            return [rows.log_entry(r) for r in found]

        return await self._db.run(run, game=game_id)

    async def notes(self, game_id: int, prefix: str) -> list[LogEntry]:
        if prefix != REACTION_NOTES:
            return await super().notes(game_id, prefix)

        async def run(conn: Conn) -> list[LogEntry]:
            # The term matches the partial index action_log_reactions word for word.
            found = await conn.fetch(
                f"SELECT {LOG_COLUMNS} FROM action_log WHERE game_id = $1 AND note LIKE 'reaction:%' ORDER BY seq",
                game_id,
            )
            return [rows.log_entry(r) for r in found]

        return await self._db.run(run, game=game_id)

    async def entry(self, game_id: int, seq: int) -> LogEntry:
        async def run(conn: Conn) -> LogEntry:
            row = await conn.fetchrow(
                f"SELECT {LOG_COLUMNS} FROM action_log WHERE game_id = $1 AND seq = $2", game_id, seq
            )
            if row is None:
                raise GameNotFound(f"game {game_id} has no log entry {seq}")
            return rows.log_entry(row)

        return await self._db.run(run, game=game_id)
