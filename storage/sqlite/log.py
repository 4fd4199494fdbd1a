"""The action log of the SQLite store (`store.log`): read only here; `SQLiteGames.commit` appends to it.

The log is appended in insertion order and found through a unique index on (game, seq); each entry's events are
deflated with a preset dictionary when that is shorter (`storage.logcodec`: a BLOB, where JSON text is what older
rows and short values hold), and every reader goes through `rows.log_entry`.
"""

from storage.errors import GameNotFound
from storage.models import LogEntry
from storage.parts import Log
from storage.sqlite import rows
from storage.sqlite.database import Conn, Database
from storage.sqlite.rows import LOG_COLUMNS

REACTION_NOTES = "reaction:"
"""The one note prefix the log has an index for (`notes`)."""


class SQLiteLog(Log):
    def __init__(self, db: Database) -> None:
        self._db = db

    async def entries(self, game_id: int, *, after: int = 0, limit: int | None = None) -> list[LogEntry]:
        def run(conn: Conn) -> list[LogEntry]:
            found = conn.execute(
                f"SELECT {LOG_COLUMNS} FROM action_log WHERE game_id = ? AND seq > ? ORDER BY seq LIMIT ?",
                (game_id, after, -1 if limit is None else limit),
            )
            return [rows.log_entry(r) for r in found.fetchall()]

        return await self._db.run(run, game=game_id)

    async def notes(self, game_id: int, prefix: str) -> list[LogEntry]:
        if prefix != REACTION_NOTES:
            return await super().notes(game_id, prefix)

        def run(conn: Conn) -> list[LogEntry]:
            # The term matches the partial index action_log_reactions (schema 4) word for word, so only the
            # reaction entries are read.
            found = conn.execute(
                f"SELECT {LOG_COLUMNS} FROM action_log WHERE game_id = ? AND note LIKE 'reaction:%' ORDER BY seq",
                (game_id,),
            )
            return [rows.log_entry(r) for r in found.fetchall()]

        return await self._db.run(run, game=game_id)

    async def entry(self, game_id: int, seq: int) -> LogEntry:
        def run(conn: Conn) -> LogEntry:
            row = conn.execute(
                f"SELECT {LOG_COLUMNS} FROM action_log WHERE game_id = ? AND seq = ?", (game_id, seq)
            ).fetchone()
            if row is None:
                raise GameNotFound(f"game {game_id} has no log entry {seq}")
            return rows.log_entry(row)

        return await self._db.run(run, game=game_id)
