"""The outbox of the SQLite store (`store.outbox`): pending rows in `outbox`, delivered ones moved to
`outbox_delivered` (with the message references they created, in the same transaction) until pruned.

An outbox id is above any in use in either table (the pending one may be empty while delivered rows keep their
ids), read in the same write transaction as the INSERT.
"""

from collections.abc import Collection, Sequence
from datetime import datetime
from functools import cache
from typing import Any

from storage.errors import GameNotFound
from storage.models import Claim, MessageRef, NewOutbox, OutboxRecord, now_utc
from storage.parts import Outbox
from storage.sqlite import rows
from storage.sqlite.database import Conn, Database, transaction, unsynced_transaction
from storage.sqlite.refs import clear_expired_tokens, put_ref
from storage.sqlite.rows import OUTBOX_COLUMNS, db_time, outbox_columns

NEXT_OUTBOX_ID = (
    "1 + max(coalesce((SELECT max(id) FROM outbox), 0), coalesce((SELECT max(id) FROM outbox_delivered), 0))"
)
_PRUNE_BATCH = 2000
"""Delivered outbox rows deleted per transaction by `prune`."""
_OUTBOX_CHUNK = 200  # rows per INSERT: well within SQLite's limit on bound variables
_DELIVER = (
    f"INSERT INTO outbox_delivered ({OUTBOX_COLUMNS}, delivered_at) SELECT {OUTBOX_COLUMNS}, ? FROM outbox WHERE id = ?"
)


@cache
def _insert_outbox_sql(rows: int, claimed: bool = False) -> str:
    if claimed:  # born claimed by the committing process (`Games.commit(claim=…)`): two more columns, same INSERT
        return (
            "INSERT INTO outbox (id, game_id, kind, target, payload, created_at, claimed_by, claimed_until) VALUES "
            + ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?)"] * rows)
        )
    return "INSERT INTO outbox (id, game_id, kind, target, payload, created_at) VALUES " + ", ".join(
        ["(?, ?, ?, ?, ?, ?)"] * rows
    )


def insert_outbox(conn: Conn, game_id: int | None, items: Sequence[NewOutbox], now: str) -> list[int]:
    if not items:
        return []
    first = conn.execute(f"SELECT {NEXT_OUTBOX_ID}").fetchone()[0]
    return insert_outbox_rows(conn, [(game_id, *outbox_columns(o), now) for o in items], first)


def insert_outbox_rows(conn: Conn, rows: list[tuple[Any, ...]], first: int, claim: Claim | None = None) -> list[int]:
    """Rows (game_id, kind, target, payload, created_at) in multi-row INSERTs, numbered from `first`: an id above
    any in use in either outbox table (the pending one may be empty while delivered rows keep their ids), read in
    the same write transaction. `claim`: the rows are written claimed by it."""
    ids = list(range(first, first + len(rows)))
    held = () if claim is None else (claim.owner, db_time(claim.until))
    for start in range(0, len(rows), _OUTBOX_CHUNK):
        chunk = rows[start : start + _OUTBOX_CHUNK]
        params = [v for i, row in zip(ids[start:], chunk, strict=False) for v in (i, *row, *held)]
        conn.execute(_insert_outbox_sql(len(chunk), claim is not None), params)
    return ids


class SQLiteOutbox(Outbox):
    def __init__(self, db: Database) -> None:
        self._db = db

    async def add(self, game_id: int | None, items: Sequence[NewOutbox], *, now: datetime | None = None) -> list[int]:
        stamp = db_time(now or now_utc())

        def run(conn: Conn) -> list[int]:
            return transaction(conn, lambda: insert_outbox(conn, game_id, items, stamp))

        return await self._db.run(run, game=game_id)

    async def item(self, outbox_id: int) -> OutboxRecord:
        def run(conn: Conn) -> OutboxRecord:
            row = conn.execute(f"SELECT {OUTBOX_COLUMNS} FROM outbox WHERE id = ?", (outbox_id,)).fetchone()
            if row is None:
                row = conn.execute(
                    f"SELECT {OUTBOX_COLUMNS}, delivered_at FROM outbox_delivered WHERE id = ?", (outbox_id,)
                ).fetchone()
            if row is None:
                raise GameNotFound(f"there is no outbox row {outbox_id}")
            return rows.outbox(row)

        return await self._db.run(run)

    async def undelivered(
        self, *, game_id: int | None = None, max_attempts: int | None = None, limit: int = 100
    ) -> list[OutboxRecord]:
        sql = f"SELECT {OUTBOX_COLUMNS} FROM outbox WHERE 1"
        params: list[Any] = []
        if game_id is not None:
            sql += " AND game_id = ?"
            params.append(game_id)
        if max_attempts is not None:
            sql += " AND attempts < ?"
            params.append(max_attempts)
        sql += " ORDER BY id LIMIT ?"
        params.append(limit)

        def run(conn: Conn) -> list[OutboxRecord]:
            return [rows.outbox(r) for r in conn.execute(sql, params).fetchall()]

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
        owner, until, bound = claim.owner, db_time(claim.until), db_time(now)
        sql = (
            f"SELECT {OUTBOX_COLUMNS}, claimed_by = ? AND claimed_until > ? FROM outbox"
            " WHERE (claimed_by IS NULL OR claimed_by = ? OR claimed_until <= ?)"
        )
        params: list[Any] = [owner, bound, owner, bound]
        if game_id is not None:
            sql += " AND game_id = ?"
            params.append(game_id)
        if max_attempts is not None:
            sql += " AND attempts < ?"
            params.append(max_attempts)
        sql += " ORDER BY id LIMIT ?"
        params.append(limit)

        def run(conn: Conn) -> list[OutboxRecord]:
            def body() -> list[OutboxRecord]:
                found = conn.execute(sql, params).fetchall()
                # Rows this owner holds already keep their lease: reading back one's own rows writes nothing.
                taken = [r[0] for r in found if not r[-1]]
                for start in range(0, len(taken), _OUTBOX_CHUNK):
                    chunk = taken[start : start + _OUTBOX_CHUNK]
                    conn.execute(
                        f"UPDATE outbox SET claimed_by = ?, claimed_until = ? WHERE id IN {rows.in_list(chunk)}",
                        (owner, until, *chunk),
                    )
                return [rows.outbox(r[:-1]) for r in found]

            # One write transaction (BEGIN IMMEDIATE): SQLite's writers take turns, so the rows read are still free
            # when they are claimed, whatever another process does meanwhile. One that claims nothing writes nothing.
            return transaction(conn, body)

        return await self._db.run(run, game=game_id)

    async def mark_delivered(
        self, outbox_id: int, *, refs: Sequence[MessageRef] = (), now: datetime | None = None
    ) -> bool:
        stamp = db_time(now or now_utc())

        def run(conn: Conn) -> bool:
            def body() -> bool:
                moved = conn.execute(_DELIVER, (stamp, outbox_id)).rowcount
                if moved != 1:
                    if conn.execute("SELECT 1 FROM outbox_delivered WHERE id = ?", (outbox_id,)).fetchone() is None:
                        raise GameNotFound(f"there is no outbox row {outbox_id}")
                    return False
                conn.execute("DELETE FROM outbox WHERE id = ?", (outbox_id,))
                for ref in refs:
                    put_ref(conn, ref)
                if refs:
                    clear_expired_tokens(conn, now or now_utc())
                return True

            return transaction(conn, body)

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
        stamp = db_time(now or now_utc())

        def run(conn: Conn) -> int:
            def body() -> int:
                marked = 0
                for outbox_id, refs in rows:
                    moved = conn.execute(_DELIVER, (stamp, outbox_id)).rowcount
                    if moved:
                        conn.execute("DELETE FROM outbox WHERE id = ?", (outbox_id,))
                        marked += 1
                    for ref in refs:
                        put_ref(conn, ref)
                if any(refs for _, refs in rows):
                    clear_expired_tokens(conn, now or now_utc())
                for message_id in retired:
                    conn.execute("DELETE FROM message_refs WHERE message_id = ?", (message_id,))
                return marked

            return transaction(conn, body)

        return await self._db.run(run)

    async def mark_failed(self, outbox_id: int, error: str) -> int:
        def run(conn: Conn) -> int:
            row = conn.execute(
                "UPDATE outbox SET attempts = attempts + 1, last_error = ? WHERE id = ? RETURNING attempts",
                (error, outbox_id),
            ).fetchone()
            if row is None:
                raise GameNotFound(f"there is no undelivered outbox row {outbox_id}")
            return row[0]

        return await self._db.run(run)

    async def mark_in_flight(self, outbox_ids: Sequence[int], note: str) -> None:
        ids = list(outbox_ids)
        if not ids:
            return

        def run(conn: Conn) -> None:
            def body() -> None:
                for start in range(0, len(ids), _OUTBOX_CHUNK):
                    chunk = ids[start : start + _OUTBOX_CHUNK]
                    conn.execute(
                        f"UPDATE outbox SET last_error = ? WHERE last_error IS NULL AND id IN {rows.in_list(chunk)}",
                        (note, *chunk),
                    )

            # The mark guards against a kill between it and the send; a machine lost in between costs at most a
            # second post of those rows, so it does not wait for the disk (one fsync a move less).
            unsynced_transaction(conn, body, synchronous)

        synchronous = self._db.synchronous
        run.unsynced = True  # type: ignore[attr-defined]  # (for `iocount`)
        await self._db.run(run)

    async def prune(self, delivered_before: datetime) -> int:
        bound = db_time(delivered_before)

        def run(conn: Conn) -> int:
            return conn.execute(
                "DELETE FROM outbox_delivered WHERE id IN"
                " (SELECT id FROM outbox_delivered WHERE delivered_at < ? LIMIT ?)",
                (bound, _PRUNE_BATCH),
            ).rowcount

        # In batches, each its own short transaction: the first prune of a big database (or one after a long
        # pause) must not hold the writer for seconds while moves wait.
        total = 0
        while (pruned := await self._db.run(run)) > 0:
            total += pruned
            if pruned < _PRUNE_BATCH:
                break
        return total
