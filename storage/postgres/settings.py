"""The settings of the PostgreSQL store (`store.settings`): per-server settings, per-player choices, quiet hours and
where prompts reach a person with their daily digest (the tables of SQLite's migrations 0007-0012)."""

from collections.abc import Collection, Iterable
from datetime import datetime, time, timedelta
from typing import Any

from storage.models import GuildSettings, PlayerDelivery, QuietHours, now_utc, utc
from storage.parts import Settings
from storage.postgres.database import Conn, Database

_DELIVERY = "player_id, notify, digest_at, digest_zone, digest_next, updated_at, language"


def _delivery(row: Any) -> PlayerDelivery:
    return PlayerDelivery(
        player_id=row[0],
        notify=row[1],
        digest_at=row[2],
        digest_zone=row[3],
        digest_next=row[4],
        updated_at=row[5],
        language=row[6],
    )


class PostgresSettings(Settings):
    def __init__(self, db: Database) -> None:
        self._db = db

    async def guild(self, guild_id: int) -> GuildSettings:
        async def run(conn: Conn) -> GuildSettings:
            row = await conn.fetchrow(
                "SELECT moderator_role_id, turn_deadline_s, reaction_time_s, updated_at, timezone, language"
                " FROM guild_settings WHERE guild_id = $1",
                guild_id,
            )
            if row is None:
                return GuildSettings(guild_id=guild_id)
            return GuildSettings(
                guild_id=guild_id,
                moderator_role_id=row[0],
                turn_deadline=None if row[1] is None else timedelta(seconds=row[1]),
                reaction_time=None if row[2] is None else timedelta(seconds=row[2]),
                updated_at=row[3],
                timezone=row[4],
                language=row[5],
            )

        return await self._db.run(run)

    async def put_guild(self, settings: GuildSettings, *, now: datetime | None = None) -> GuildSettings:
        stamp = now or now_utc()
        stored = settings.model_copy(update={"updated_at": utc(stamp)})

        async def run(conn: Conn) -> None:
            await conn.execute(
                "INSERT INTO guild_settings"
                " (guild_id, moderator_role_id, turn_deadline_s, reaction_time_s, updated_at, timezone, language)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (guild_id) DO UPDATE SET"
                " moderator_role_id = excluded.moderator_role_id, turn_deadline_s = excluded.turn_deadline_s,"
                " reaction_time_s = excluded.reaction_time_s, updated_at = excluded.updated_at,"
                " timezone = excluded.timezone, language = excluded.language",
                stored.guild_id,
                stored.moderator_role_id,
                None if stored.turn_deadline is None else stored.turn_deadline.total_seconds(),
                None if stored.reaction_time is None else stored.reaction_time.total_seconds(),
                stamp,
                stored.timezone,
                stored.language,
            )

        await self._db.run(run)
        return stored

    async def profile_private(self, player_id: int) -> bool:
        async def run(conn: Conn) -> bool:
            return bool(await conn.fetchval("SELECT private FROM player_settings WHERE player_id = $1", player_id))

        return await self._db.run(run)

    async def set_profile_private(self, player_id: int, private: bool, *, now: datetime | None = None) -> None:
        stamp = now or now_utc()

        async def run(conn: Conn) -> None:
            await conn.execute(
                "INSERT INTO player_settings (player_id, private, updated_at) VALUES ($1, $2, $3)"
                " ON CONFLICT (player_id) DO UPDATE SET private = excluded.private, updated_at = excluded.updated_at",
                player_id,
                private,
                stamp,
            )

        await self._db.run(run)

    async def deliveries(self, player_ids: Collection[int]) -> dict[int, PlayerDelivery]:
        ids = sorted(set(player_ids))
        if not ids:
            return {}

        async def run(conn: Conn) -> dict[int, PlayerDelivery]:
            found = {
                r[0]: _delivery(r)
                for r in await conn.fetch(
                    f"SELECT {_DELIVERY} FROM player_delivery WHERE player_id = ANY($1::bigint[])", ids
                )
            }
            return {i: found.get(i) or PlayerDelivery(player_id=i) for i in ids}

        return await self._db.run(run)

    async def put_delivery(self, delivery: PlayerDelivery, *, now: datetime | None = None) -> PlayerDelivery:
        stamp = now or now_utc()
        stored = delivery.model_copy(update={"updated_at": utc(stamp)})

        async def run(conn: Conn) -> None:
            await conn.execute(
                f"INSERT INTO player_delivery ({_DELIVERY}) VALUES ($1, $2, $3, $4, $5, $6, $7)"
                " ON CONFLICT (player_id) DO UPDATE SET notify = excluded.notify, digest_at = excluded.digest_at,"
                " digest_zone = excluded.digest_zone, digest_next = excluded.digest_next,"
                " updated_at = excluded.updated_at, language = excluded.language",
                stored.player_id,
                stored.notify,
                stored.digest_at,
                stored.digest_zone,
                stored.digest_next,
                stamp,
                stored.language,
            )

        await self._db.run(run)
        return stored

    async def due_digests(self, until: datetime, *, limit: int = 100) -> list[PlayerDelivery]:
        async def run(conn: Conn) -> list[PlayerDelivery]:
            found = await conn.fetch(
                f"SELECT {_DELIVERY} FROM player_delivery WHERE digest_next IS NOT NULL AND digest_next <= $1"
                " ORDER BY digest_next, player_id LIMIT $2",
                until,
                limit,
            )
            return [_delivery(r) for r in found]

        return await self._db.run(run)

    async def soonest_digest(self) -> datetime | None:
        async def run(conn: Conn) -> datetime | None:
            return await conn.fetchval("SELECT min(digest_next) FROM player_delivery WHERE digest_next IS NOT NULL")

        return await self._db.run(run)

    async def claim_digest(self, player_id: int, due: datetime, next_at: datetime) -> bool:
        async def run(conn: Conn) -> bool:
            # Compare and set: only the caller that still sees the run due at `due` moves it on.
            done = await conn.execute(
                "UPDATE player_delivery SET digest_next = $1 WHERE player_id = $2 AND digest_next = $3",
                next_at,
                player_id,
                due,
            )
            return done == "UPDATE 1"

        return await self._db.run(run)

    async def quiet_of(self, player_ids: Iterable[int]) -> dict[int, QuietHours]:
        ids = sorted(set(player_ids))
        if not ids:
            return {}

        async def run(conn: Conn) -> dict[int, QuietHours]:
            found = await conn.fetch(
                "SELECT player_id, start_min, end_min, timezone FROM quiet_hours WHERE player_id = ANY($1::bigint[])",
                ids,
            )
            return {r[0]: QuietHours(start=_clock(r[1]), end=_clock(r[2]), timezone=r[3]) for r in found}

        return await self._db.run(run)

    async def set_quiet(self, player_id: int, hours: QuietHours | None, *, now: datetime | None = None) -> None:
        stamp = now or now_utc()

        async def run(conn: Conn) -> None:
            if hours is None:
                await conn.execute("DELETE FROM quiet_hours WHERE player_id = $1", player_id)
                return
            await conn.execute(
                "INSERT INTO quiet_hours (player_id, start_min, end_min, timezone, updated_at)"
                " VALUES ($1, $2, $3, $4, $5) ON CONFLICT (player_id) DO UPDATE SET start_min = excluded.start_min,"
                " end_min = excluded.end_min, timezone = excluded.timezone, updated_at = excluded.updated_at",
                player_id,
                _minutes(hours.start),
                _minutes(hours.end),
                hours.timezone,
                stamp,
            )

        await self._db.run(run)


def _minutes(at: time) -> int:
    return at.hour * 60 + at.minute


def _clock(minutes: int) -> time:
    return time(minutes // 60, minutes % 60)
