"""The timers of the PostgreSQL store (`store.timers`): one row each in `timers`, indexed by due time for the
scheduler and by game. A timer's id comes from the sequence `timer_ids`: never reused, so a scheduler holding an old
id can never delete a newer timer."""

from collections.abc import Collection, Sequence
from datetime import datetime

from storage.models import Claim, NewTimer, TimerRecord, now_utc
from storage.parts import Timers
from storage.postgres import rows
from storage.postgres.database import Conn, Database, transaction
from storage.postgres.rows import TIMER_COLUMNS

INSERT_TIMERS = (
    "WITH new AS (SELECT ord, nextval('timer_ids') AS id, kind, due_at, payload"
    " FROM unnest($2::text[], $3::timestamptz[], $4::text[]) WITH ORDINALITY AS t(kind, due_at, payload, ord)),"
    " ins AS (INSERT INTO timers (id, game_id, kind, due_at, payload, created_at)"
    " SELECT id, $1, kind, due_at, payload::jsonb, $5 FROM new)"
    " SELECT array(SELECT id FROM new ORDER BY ord)"
)

_CLAIM = (
    "UPDATE timers SET claimed_by = $2, claimed_until = $3"
    " WHERE id IN (SELECT id FROM timers"
    " WHERE id = ANY($1) AND (claimed_by IS NULL OR claimed_by = $2 OR claimed_until <= $4)"
    " ORDER BY id FOR UPDATE SKIP LOCKED)"
    " RETURNING id"
)


def timer_arrays(timers: Sequence[NewTimer]) -> tuple[list[str], list[datetime], list[str]]:
    """The columns of new timers as arrays, for `unnest` (one statement however many)."""
    return [t.kind for t in timers], [t.due_at for t in timers], [t.json_text("payload") or "{}" for t in timers]


async def insert_timers(conn: Conn, game_id: int, timers: Sequence[NewTimer], now: datetime) -> list[int]:
    if not timers:
        return []
    return list(await conn.fetchval(INSERT_TIMERS, game_id, *timer_arrays(timers), now))


class PostgresTimers(Timers):
    def __init__(self, db: Database) -> None:
        self._db = db

    async def add(self, game_id: int, timers: Sequence[NewTimer], *, now: datetime | None = None) -> list[int]:
        stamp = now or now_utc()

        async def run(conn: Conn) -> list[int]:
            async def body() -> list[int]:
                await rows.fetch_game(conn, game_id)
                return await insert_timers(conn, game_id, timers, stamp)

            return await transaction(conn, body)

        return await self._db.run(run, game=game_id)

    async def of_game(self, game_id: int) -> list[TimerRecord]:
        async def run(conn: Conn) -> list[TimerRecord]:
            found = await conn.fetch(
                f"SELECT {TIMER_COLUMNS} FROM timers WHERE game_id = $1 ORDER BY due_at, id", game_id
            )
            return [rows.timer(r) for r in found]

        return await self._db.run(run, game=game_id)

    async def soonest(self) -> TimerRecord | None:
        async def run(conn: Conn) -> TimerRecord | None:
            row = await conn.fetchrow(f"SELECT {TIMER_COLUMNS} FROM timers ORDER BY due_at, id LIMIT 1")
            return None if row is None else rows.timer(row)

        return await self._db.run(run)

    async def due(self, until: datetime, *, limit: int = 100) -> list[TimerRecord]:
        async def run(conn: Conn) -> list[TimerRecord]:
            found = await conn.fetch(
                f"SELECT {TIMER_COLUMNS} FROM timers WHERE due_at <= $1 ORDER BY due_at, id LIMIT $2", until, limit
            )
            return [rows.timer(r) for r in found]

        return await self._db.run(run)

    async def delete(self, timer_id: int) -> bool:
        async def run(conn: Conn) -> bool:
            return await conn.execute("DELETE FROM timers WHERE id = $1", timer_id) == "DELETE 1"

        return await self._db.run(run)

    async def clear(self, game_id: int, *, kinds: Collection[str] | None = None) -> int:
        async def run(conn: Conn) -> int:
            done = await conn.execute(
                "DELETE FROM timers WHERE game_id = $1 AND ($2::text[] IS NULL OR kind = ANY($2))",
                game_id,
                None if kinds is None else list(kinds),
            )
            return int(done.split()[-1])

        return await self._db.run(run, game=game_id)

    async def claim(self, timer_ids: Collection[int], claim: Claim, *, now: datetime) -> list[int]:
        wanted = list(dict.fromkeys(timer_ids))
        if not wanted:
            return []

        async def run(conn: Conn) -> list[int]:
            # One statement: a timer another process is claiming is skipped rather than waited for, and the WHERE
            # is checked again on the locked row, so of two owners racing for a timer exactly one gets it. A timer a
            # commit removed is simply not found (its claim went with its row).
            claimed = {r[0] for r in await conn.fetch(_CLAIM, wanted, claim.owner, claim.until, now)}
            return [t for t in wanted if t in claimed]

        return await self._db.run(run)
