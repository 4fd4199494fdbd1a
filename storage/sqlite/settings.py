"""The settings of the SQLite store (`store.settings`): per-server settings (`guild_settings`, with the time zone of
new tables since migration 0008 and their language since 0012), per-player choices (`player_settings`, migration
0007), quiet hours (`quiet_hours`, migration 0008) and where prompts reach a person with their daily digest
(`player_delivery`, migration 0009), which a rebuild of the records leaves alone."""

from collections.abc import Collection, Iterable
from datetime import datetime, time, timedelta
from typing import Any

from storage.models import GuildSettings, PlayerDelivery, QuietHours, now_utc, utc
from storage.parts import Settings
from storage.sqlite.database import Conn, Database
from storage.sqlite.rows import db_time, db_time_or_none, in_list, read_time


class SQLiteSettings(Settings):
    def __init__(self, db: Database) -> None:
        self._db = db

    async def guild(self, guild_id: int) -> GuildSettings:
        def run(conn: Conn) -> GuildSettings:
            row = conn.execute(
                "SELECT moderator_role_id, turn_deadline_s, reaction_time_s, updated_at, timezone, language"
                " FROM guild_settings WHERE guild_id = ?",
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
                timezone=row[4],
                language=row[5],
            )

        return await self._db.run(run)

    async def put_guild(self, settings: GuildSettings, *, now: datetime | None = None) -> GuildSettings:
        stamp = now or now_utc()
        stored = settings.model_copy(update={"updated_at": utc(stamp)})

        def run(conn: Conn) -> None:
            conn.execute(
                "INSERT OR REPLACE INTO guild_settings"
                " (guild_id, moderator_role_id, turn_deadline_s, reaction_time_s, updated_at, timezone, language)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    stored.guild_id,
                    stored.moderator_role_id,
                    None if stored.turn_deadline is None else stored.turn_deadline.total_seconds(),
                    None if stored.reaction_time is None else stored.reaction_time.total_seconds(),
                    db_time(stamp),
                    stored.timezone,
                    stored.language,
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

    # --- player_delivery ----------------------------------------------------------------------------------

    async def deliveries(self, player_ids: Collection[int]) -> dict[int, PlayerDelivery]:
        ids = sorted(set(player_ids))
        if not ids:
            return {}

        def run(conn: Conn) -> dict[int, PlayerDelivery]:
            found = {
                r[0]: _delivery(r)
                for r in conn.execute(f"SELECT {_DELIVERY} FROM player_delivery WHERE player_id IN {in_list(ids)}", ids)
            }
            return {i: found.get(i) or PlayerDelivery(player_id=i) for i in ids}

        return await self._db.run(run)

    async def put_delivery(self, delivery: PlayerDelivery, *, now: datetime | None = None) -> PlayerDelivery:
        stamp = now or now_utc()
        stored = delivery.model_copy(update={"updated_at": utc(stamp)})

        def run(conn: Conn) -> None:
            conn.execute(
                f"INSERT OR REPLACE INTO player_delivery ({_DELIVERY}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    stored.player_id,
                    stored.notify,
                    stored.digest_at,
                    stored.digest_zone,
                    db_time_or_none(stored.digest_next),
                    db_time(stamp),
                    stored.language,
                ),
            )

        await self._db.run(run)
        return stored

    async def due_digests(self, until: datetime, *, limit: int = 100) -> list[PlayerDelivery]:
        def run(conn: Conn) -> list[PlayerDelivery]:
            return [
                _delivery(r)
                for r in conn.execute(
                    f"SELECT {_DELIVERY} FROM player_delivery WHERE digest_next IS NOT NULL AND digest_next <= ?"
                    " ORDER BY digest_next, player_id LIMIT ?",
                    (db_time(until), limit),
                )
            ]

        return await self._db.run(run)

    async def soonest_digest(self) -> datetime | None:
        def run(conn: Conn) -> datetime | None:
            row = conn.execute("SELECT min(digest_next) FROM player_delivery WHERE digest_next IS NOT NULL").fetchone()
            return read_time(row[0]) if row else None

        return await self._db.run(run)

    async def claim_digest(self, player_id: int, due: datetime, next_at: datetime) -> bool:
        def run(conn: Conn) -> bool:
            # Compare and set: only the caller that still sees the run due at `due` moves it on.
            done = conn.execute(
                "UPDATE player_delivery SET digest_next = ? WHERE player_id = ? AND digest_next = ?",
                (db_time(next_at), player_id, db_time(due)),
            )
            return done.rowcount == 1

        return await self._db.run(run)

    async def quiet_of(self, player_ids: Iterable[int]) -> dict[int, QuietHours]:
        ids = sorted(set(player_ids))
        if not ids:
            return {}

        def run(conn: Conn) -> dict[int, QuietHours]:
            marks = ",".join("?" * len(ids))
            rows = conn.execute(
                f"SELECT player_id, start_min, end_min, timezone FROM quiet_hours WHERE player_id IN ({marks})", ids
            ).fetchall()
            return {row[0]: QuietHours(start=_clock(row[1]), end=_clock(row[2]), timezone=row[3]) for row in rows}

        return await self._db.run(run)

    async def set_quiet(self, player_id: int, hours: QuietHours | None, *, now: datetime | None = None) -> None:
        stamp = db_time(now or now_utc())

        def run(conn: Conn) -> None:
            if hours is None:
                conn.execute("DELETE FROM quiet_hours WHERE player_id = ?", (player_id,))
                return
            conn.execute(
                "INSERT OR REPLACE INTO quiet_hours (player_id, start_min, end_min, timezone, updated_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (player_id, _minutes(hours.start), _minutes(hours.end), hours.timezone, stamp),
            )

        await self._db.run(run)


def _minutes(at: time) -> int:
    return at.hour * 60 + at.minute


def _clock(minutes: int) -> time:
    return time(minutes // 60, minutes % 60)


_DELIVERY = "player_id, notify, digest_at, digest_zone, digest_next, updated_at, language"


def _delivery(row: tuple[Any, ...]) -> PlayerDelivery:
    return PlayerDelivery(
        player_id=row[0],
        notify=row[1],
        digest_at=row[2],
        digest_zone=row[3],
        digest_next=read_time(row[4]),
        updated_at=read_time(row[5]),
        language=row[6],
    )
