"""The settings of the SQLite store (`store.settings`): per-server settings (`guild_settings`) and per-player
choices (`player_settings`, migration 0007), which a rebuild of the records leaves alone."""

from datetime import datetime, timedelta

from storage.models import GuildSettings, now_utc, utc
from storage.parts import Settings
from storage.sqlite.database import Conn, Database
from storage.sqlite.rows import db_time, read_time


class SQLiteSettings(Settings):
    def __init__(self, db: Database) -> None:
        self._db = db

    async def guild(self, guild_id: int) -> GuildSettings:
        def run(conn: Conn) -> GuildSettings:
            row = conn.execute(
                "SELECT moderator_role_id, turn_deadline_s, reaction_time_s, updated_at FROM guild_settings"
                " WHERE guild_id = ?",
                (guild_id,),
            ).fetchone()
            if row is None:
                return GuildSettings(guild_id=guild_id)
            return GuildSettings(
                guild_id=guild_id,
                moderator_role_id=row[0],
                turn_deadline=None if row[1] is None else timedelta(seconds=row[1]),
                reaction_time=None if row[2] is None else timedelta(seconds=row[2]),
                updated_at=read_time(row[3]),
            )

        return await self._db.run(run)

    async def put_guild(self, settings: GuildSettings, *, now: datetime | None = None) -> GuildSettings:
        stamp = now or now_utc()
        stored = settings.model_copy(update={"updated_at": utc(stamp)})

        def run(conn: Conn) -> None:
            conn.execute(
                "INSERT OR REPLACE INTO guild_settings"
                " (guild_id, moderator_role_id, turn_deadline_s, reaction_time_s, updated_at) VALUES (?, ?, ?, ?, ?)",
                (
                    stored.guild_id,
                    stored.moderator_role_id,
                    None if stored.turn_deadline is None else stored.turn_deadline.total_seconds(),
                    None if stored.reaction_time is None else stored.reaction_time.total_seconds(),
                    db_time(stamp),
                ),
            )

        await self._db.run(run)
        return stored

    async def profile_private(self, player_id: int) -> bool:
        def run(conn: Conn) -> bool:
            row = conn.execute("SELECT private FROM player_settings WHERE player_id = ?", (player_id,)).fetchone()
            return bool(row and row[0])

        return await self._db.run(run)

    async def set_profile_private(self, player_id: int, private: bool, *, now: datetime | None = None) -> None:
        stamp = db_time(now or now_utc())

        def run(conn: Conn) -> None:
            conn.execute(
                "INSERT INTO player_settings (player_id, private, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (player_id) DO UPDATE SET private = excluded.private, updated_at = excluded.updated_at",
                (player_id, int(private), stamp),
            )

        await self._db.run(run)
