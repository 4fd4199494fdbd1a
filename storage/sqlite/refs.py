"""The message references of the SQLite store (`store.refs`): what a Discord message stands for, one row each."""

from collections.abc import Collection
from datetime import datetime
from typing import Any

from storage.models import MessageRef, now_utc
from storage.parts import MessageRefs
from storage.sqlite import rows
from storage.sqlite.database import Conn, Database, transaction
from storage.sqlite.rows import REF_COLUMNS, db_time, db_time_or_none

_FIND = (
    f"SELECT {REF_COLUMNS} FROM message_refs WHERE ifnull(game_id, -1) = ifnull(?, -1) AND kind = ?"
    " AND ifnull(seat, -1) = ifnull(?, -1) AND key = ?"
)
"""One reference by what it stands for: the unique index `message_refs_what` (0001) is on exactly these terms."""


def put_ref(conn: Conn, ref: MessageRef) -> None:
    """Store a reference in the connection's thread (in the caller's transaction), replacing any with the same
    message id or the same (game, kind, seat, key)."""
    conn.execute(
        "DELETE FROM message_refs WHERE message_id = ? OR (ifnull(game_id, -1) = ifnull(?, -1) AND kind = ?"
        " AND ifnull(seat, -1) = ifnull(?, -1) AND key = ?)",
        (ref.message_id, ref.game_id, ref.kind, ref.seat, ref.key),
    )
    conn.execute(
        f"INSERT INTO message_refs ({REF_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            ref.message_id,
            ref.channel_id,
            ref.game_id,
            ref.kind,
            ref.seat,
            ref.key,
            db_time(ref.created_at),
            ref.token,
            db_time_or_none(ref.token_expires),
        ),
    )


def clear_expired_tokens(conn: Conn, now: datetime) -> None:
    """Forget the interaction tokens that have expired (in the caller's transaction, which writes references: no
    write of its own). The partial index `message_refs_tokens` (0015) holds only references with a token, so this
    reads just the expired ones, however many references there are."""
    conn.execute(
        "UPDATE message_refs SET token = NULL, token_expires = NULL"
        " WHERE token_expires IS NOT NULL AND token_expires <= ?",
        (db_time(now),),
    )


class SQLiteMessageRefs(MessageRefs):
    def __init__(self, db: Database) -> None:
        self._db = db

    async def put(self, ref: MessageRef) -> None:
        def run(conn: Conn) -> None:
            def body() -> None:
                put_ref(conn, ref)
                clear_expired_tokens(conn, now_utc())

            transaction(conn, body)

        await self._db.run(run)

    async def get(self, message_id: int) -> MessageRef | None:
        def run(conn: Conn) -> MessageRef | None:
            row = conn.execute(f"SELECT {REF_COLUMNS} FROM message_refs WHERE message_id = ?", (message_id,)).fetchone()
            return None if row is None else rows.ref(row)

        return await self._db.run(run)

    async def find(
        self, game_id: int | None, kind: str, *, seat: int | None = None, key: str = ""
    ) -> MessageRef | None:
        def run(conn: Conn) -> MessageRef | None:
            row = conn.execute(_FIND, (game_id, kind, seat, key)).fetchone()
            return None if row is None else rows.ref(row)

        return await self._db.run(run, game=game_id)

    async def find_many(
        self, game_id: int | None, wanted: Collection[tuple[str, int | None, str]]
    ) -> dict[tuple[str, int | None, str], MessageRef]:
        keys = list(wanted)

        def run(conn: Conn) -> dict[tuple[str, int | None, str], MessageRef]:
            found: dict[tuple[str, int | None, str], MessageRef] = {}
            for kind, seat, key in keys:  # each by the unique index `message_refs_what`, in one hop
                row = conn.execute(_FIND, (game_id, kind, seat, key)).fetchone()
                if row is not None:
                    found[(kind, seat, key)] = rows.ref(row)
            return found

        if not keys:
            return {}
        return await self._db.run(run, game=game_id)

    async def of_game(self, game_id: int, *, kind: str | None = None) -> list[MessageRef]:
        sql = f"SELECT {REF_COLUMNS} FROM message_refs WHERE ifnull(game_id, -1) = ?"
        params: list[Any] = [game_id]
        if kind is not None:
            sql += " AND kind = ?"
            params.append(kind)
        sql += " ORDER BY kind, seat, key"

        def run(conn: Conn) -> list[MessageRef]:
            return [rows.ref(r) for r in conn.execute(sql, params).fetchall()]

        return await self._db.run(run, game=game_id)

    async def delete(self, message_id: int) -> bool:
        def run(conn: Conn) -> bool:
            return conn.execute("DELETE FROM message_refs WHERE message_id = ?", (message_id,)).rowcount == 1

        return await self._db.run(run)
