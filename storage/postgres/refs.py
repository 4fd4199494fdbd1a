"""The message references of the PostgreSQL store (`store.refs`): what a Discord message stands for, one row each."""

from collections.abc import Collection, Sequence
from typing import Any

from storage.models import MessageRef
from storage.parts import MessageRefs
from storage.postgres import rows
from storage.postgres.database import Conn, Database
from storage.postgres.rows import REF_COLUMNS

_SAME_WHAT = (
    "coalesce(game_id, -1) = coalesce($1, -1) AND kind = $2 AND coalesce(seat, -1) = coalesce($3, -1) AND key = $4"
)

_FIND_MANY = (
    "SELECT {columns}, w.ord"
    " FROM unnest($2::text[], $3::integer[], $4::text[]) WITH ORDINALITY AS w(kind, seat, key, ord)"
    " JOIN message_refs r ON coalesce(r.game_id, -1) = coalesce($1::bigint, -1) AND r.kind = w.kind"
    " AND coalesce(r.seat, -1) = coalesce(w.seat, -1) AND r.key = w.key"
).format(columns=", ".join(f"r.{c.strip()}" for c in REF_COLUMNS.split(",")))


async def put_ref(conn: Conn, ref: MessageRef) -> None:
    """Store a reference (in the caller's transaction), replacing any with the same message id or the same
    (game, kind, seat, key). (Expired tokens are cleared by `boardroom_deliver`, which a pass's marks and
    `refs.put` call: no round trip of their own here.)"""
    await conn.execute(
        "DELETE FROM message_refs WHERE message_id = $5 OR (" + _SAME_WHAT + ")",
        ref.game_id,
        ref.kind,
        ref.seat,
        ref.key,
        ref.message_id,
    )
    await conn.execute(
        f"INSERT INTO message_refs ({REF_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        ref.message_id,
        ref.channel_id,
        ref.game_id,
        ref.kind,
        ref.seat,
        ref.key,
        ref.created_at,
        ref.token,
        ref.token_expires,
    )


def ref_arrays(refs: Sequence[MessageRef]) -> tuple[list[Any], ...]:
    """The columns of these references as arrays, for the schema's `boardroom_deliver`."""
    return (
        [r.message_id for r in refs],
        [r.channel_id for r in refs],
        [r.game_id for r in refs],
        [r.kind for r in refs],
        [r.seat for r in refs],
        [r.key for r in refs],
        [r.created_at for r in refs],
        [r.token for r in refs],
        [r.token_expires for r in refs],
    )


class PostgresMessageRefs(MessageRefs):
    def __init__(self, db: Database) -> None:
        self._db = db

    async def put(self, ref: MessageRef) -> None:
        async def run(conn: Conn) -> None:
            # The schema's delivery function with no outbox row: the replacement in one round trip.
            await conn.fetchval(
                "SELECT boardroom_deliver('{}', now(), $1, $2, $3, $4, $5, $6, $7, $8, $9)", *ref_arrays([ref])
            )

        await self._db.run(run)

    async def get(self, message_id: int) -> MessageRef | None:
        async def run(conn: Conn) -> MessageRef | None:
            row = await conn.fetchrow(f"SELECT {REF_COLUMNS} FROM message_refs WHERE message_id = $1", message_id)
            return None if row is None else rows.ref(row)

        return await self._db.run(run)

    async def find(
        self, game_id: int | None, kind: str, *, seat: int | None = None, key: str = ""
    ) -> MessageRef | None:
        async def run(conn: Conn) -> MessageRef | None:
            row = await conn.fetchrow(
                f"SELECT {REF_COLUMNS} FROM message_refs WHERE {_SAME_WHAT}", game_id, kind, seat, key
            )
            return None if row is None else rows.ref(row)

        return await self._db.run(run, game=game_id)

    async def find_many(
        self, game_id: int | None, wanted: Collection[tuple[str, int | None, str]]
    ) -> dict[tuple[str, int | None, str], MessageRef]:
        keys = list(dict.fromkeys(wanted))
        if not keys:
            return {}
        kinds, seats, names = [k[0] for k in keys], [k[1] for k in keys], [k[2] for k in keys]

        async def run(conn: Conn) -> dict[tuple[str, int | None, str], MessageRef]:
            # One round trip: the keys as a table joined to the references, each row found by `message_refs_what`.
            found = await conn.fetch(_FIND_MANY, game_id, kinds, seats, names)
            return {keys[r[-1] - 1]: rows.ref(r[:-1]) for r in found}

        return await self._db.run(run, game=game_id)

    async def of_game(self, game_id: int, *, kind: str | None = None) -> list[MessageRef]:
        sql = f"SELECT {REF_COLUMNS} FROM message_refs WHERE coalesce(game_id, -1) = $1"
        params: list[Any] = [game_id]
        if kind is not None:
            sql += " AND kind = $2"
            params.append(kind)
        sql += " ORDER BY kind, seat NULLS FIRST, key"

        async def run(conn: Conn) -> list[MessageRef]:
            return [rows.ref(r) for r in await conn.fetch(sql, *params)]

        return await self._db.run(run, game=game_id)

    async def delete(self, message_id: int) -> bool:
        async def run(conn: Conn) -> bool:
            return await conn.execute("DELETE FROM message_refs WHERE message_id = $1", message_id) == "DELETE 1"

        return await self._db.run(run)
