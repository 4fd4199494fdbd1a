"""The outbox of the PostgreSQL store (`store.outbox`): pending rows in `outbox`, delivered ones moved to
`outbox_delivered` (with the message references they created, in the same transaction) until pruned. An outbox id
comes from the sequence `outbox_ids`: unique across both tables, increasing within a commit."""

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any

from storage.errors import GameNotFound
from storage.models import Claim, MessageRef, NewOutbox, OutboxRecord, now_utc
from storage.parts import Outbox
from storage.postgres import rows
from storage.postgres.database import Conn, Database, transaction
from storage.postgres.refs import put_ref, ref_arrays
from storage.postgres.rows import OUTBOX_COLUMNS

INSERT_OUTBOX = (
    "WITH new AS (SELECT ord, nextval('outbox_ids') AS id, kind, target, payload"
    " FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS t(kind, target, payload, ord)),"
    " ins AS (INSERT INTO outbox (id, game_id, kind, target, payload, created_at)"
    " SELECT id, $1, kind, target::jsonb, payload::jsonb, $5 FROM new)"
    " SELECT array(SELECT id FROM new ORDER BY ord)"
)
_DELIVER = (
    f"WITH moved AS (DELETE FROM outbox WHERE id = $1 RETURNING {OUTBOX_COLUMNS})"
    f" INSERT INTO outbox_delivered ({OUTBOX_COLUMNS}, delivered_at) SELECT {OUTBOX_COLUMNS}, $2 FROM moved"
)
DELIVER_MANY = "SELECT boardroom_deliver($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)"
_O_COLUMNS = ", ".join(f"o.{c.strip()}" for c in OUTBOX_COLUMNS.split(","))
_CLAIM = f"""
WITH free AS (
    SELECT id, coalesce(claimed_by = $1 AND claimed_until > $3, false) AS held
    FROM outbox
    WHERE ($4::bigint IS NULL OR game_id = $4) AND ($5::int IS NULL OR attempts < $5)
      AND (claimed_by IS NULL OR claimed_by = $1 OR claimed_until <= $3)
    ORDER BY id LIMIT $6
    FOR UPDATE SKIP LOCKED
), taken AS (
    UPDATE outbox o SET claimed_by = $1, claimed_until = $2
    FROM free f WHERE o.id = f.id AND NOT f.held
    RETURNING {_O_COLUMNS}
)
SELECT * FROM taken
UNION ALL
SELECT {_O_COLUMNS} FROM outbox o JOIN free f ON o.id = f.id WHERE f.held
"""
_PRUNE_BATCH = 2000


def outbox_arrays(items: Sequence[NewOutbox]) -> tuple[list[str], list[str], list[str]]:
    return (
        [o.kind for o in items],
        [o.json_text("target") or "{}" for o in items],
        [o.json_text("payload") or "{}" for o in items],
    )


async def insert_outbox(conn: Conn, game_id: int | None, items: Sequence[NewOutbox], now: datetime) -> list[int]:
    if not items:
        return []
    return list(await conn.fetchval(INSERT_OUTBOX, game_id, *outbox_arrays(items), now))


class PostgresOutbox(Outbox):
    def __init__(self, db: Database) -> None:
        self._db = db

    async def add(self, game_id: int | None, items: Sequence[NewOutbox], *, now: datetime | None = None) -> list[int]:
        stamp = now or now_utc()

        async def run(conn: Conn) -> list[int]:
            return await insert_outbox(conn, game_id, items, stamp)

        return await self._db.run(run, game=game_id)

    async def item(self, outbox_id: int) -> OutboxRecord:
        async def run(conn: Conn) -> OutboxRecord:
            row = await conn.fetchrow(f"SELECT {OUTBOX_COLUMNS} FROM outbox WHERE id = $1", outbox_id)
            if row is None:
                row = await conn.fetchrow(
                    f"SELECT {OUTBOX_COLUMNS}, delivered_at FROM outbox_delivered WHERE id = $1", outbox_id
                )
            if row is None:
                raise GameNotFound(f"there is no outbox row {outbox_id}")
            return rows.outbox(row)

        return await self._db.run(run)

    async def undelivered(
        self, *, game_id: int | None = None, max_attempts: int | None = None, limit: int = 100
    ) -> list[OutboxRecord]:
        sql = f"SELECT {OUTBOX_COLUMNS} FROM outbox WHERE true"
        params: list[Any] = []
        if game_id is not None:
            params.append(game_id)
            sql += f" AND game_id = ${len(params)}"
        if max_attempts is not None:
            params.append(max_attempts)
            sql += f" AND attempts < ${len(params)}"
        params.append(limit)
        sql += f" ORDER BY id LIMIT ${len(params)}"

        async def run(conn: Conn) -> list[OutboxRecord]:
            return [rows.outbox(r) for r in await conn.fetch(sql, *params)]

        return await self._db.run(run, game=game_id)

    async def claim(
        self,
        claim: Claim,
        *,
        now: datetime,
        game_id: int | None = None,
        max_attempts: int | None = None,
        limit: int = 100,
    ) -> list[OutboxRecord]:
        params = (claim.owner, claim.until, now, game_id, max_attempts, limit)

        async def run(conn: Conn) -> list[OutboxRecord]:
            # One statement: the rows are locked as they are chosen (another process's claiming ones are skipped, not
            # waited for), and the WHERE is checked again on each locked row, so two owners never both get one. A
            # row this owner holds already (lease running) is only read: no new row version per delivery pass.
            found = await conn.fetch(_CLAIM, *params)
            return sorted((rows.outbox(r) for r in found), key=lambda r: r.id)

        return await self._db.run(run, game=game_id)

    async def mark_delivered(
        self, outbox_id: int, *, refs: Sequence[MessageRef] = (), now: datetime | None = None
    ) -> bool:
        stamp = now or now_utc()

        async def run(conn: Conn) -> bool:
            async def body() -> bool:
                if await conn.execute(_DELIVER, outbox_id, stamp) != "INSERT 0 1":
                    if await conn.fetchval("SELECT 1 FROM outbox_delivered WHERE id = $1", outbox_id) is None:
                        raise GameNotFound(f"there is no outbox row {outbox_id}")
                    return False
                for ref in refs:
                    await put_ref(conn, ref)
                return True

            return await transaction(conn, body)

        return await self._db.run(run)

    async def mark_delivered_many(
        self,
        rows: Sequence[tuple[int | None, Sequence[MessageRef]]],
        *,
        now: datetime | None = None,
        retired: Collection[int] = (),
    ) -> int:
        if not rows and not retired:
            return 0
        refs = [ref for _, made in rows for ref in made]
        ids = sorted({outbox_id for outbox_id, _ in rows if outbox_id is not None})  # None: references only
        # `retired` goes last: the function deletes those references after storing the rows' ones.
        params = (ids, now or now_utc(), *ref_arrays(refs), list(retired))

        async def run(conn: Conn) -> int:
            # One call of the schema's function: one round trip, one transaction (a notifier pass at a time).
            return await conn.fetchval(DELIVER_MANY, *params)

        return await self._db.run(run)

    async def mark_failed(self, outbox_id: int, error: str) -> int:
        async def run(conn: Conn) -> int:
            attempts = await conn.fetchval(
                "UPDATE outbox SET attempts = attempts + 1, last_error = $1 WHERE id = $2 RETURNING attempts",
                error,
                outbox_id,
            )
            if attempts is None:
                raise GameNotFound(f"there is no undelivered outbox row {outbox_id}")
            return attempts

        return await self._db.run(run)

    async def mark_in_flight(self, outbox_ids: Sequence[int], note: str) -> None:
        ids = list(outbox_ids)
        if not ids:
            return

        async def run(conn: Conn) -> None:
            # Committed without waiting for the server's disk (the setting is the transaction's, one statement): the
            # mark guards against the bot's process dying before the send, which the server outlives; a server lost
            # in between costs at most a second post of these rows.
            await conn.execute(
                "UPDATE outbox SET last_error = $1 WHERE last_error IS NULL AND id = ANY($2::bigint[])"
                " AND set_config('synchronous_commit', 'off', true) = 'off'",
                note,
                ids,
            )

        await self._db.run(run)

    async def prune(self, delivered_before: datetime) -> int:
        async def run(conn: Conn) -> int:
            done = await conn.execute(
                "DELETE FROM outbox_delivered WHERE id IN"
                " (SELECT id FROM outbox_delivered WHERE delivered_at < $1 LIMIT $2)",
                delivered_before,
                _PRUNE_BATCH,
            )
            return int(done.split()[-1])

        total = 0
        while (pruned := await self._db.run(run)) > 0:
            total += pruned
            if pruned < _PRUNE_BATCH:
                break
        return total
