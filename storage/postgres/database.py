"""The pool of asyncpg connections the PostgreSQL store's parts share, and how a store operation runs on it.

A store operation is one coroutine `fn(connection, *args)` run on a connection taken from the pool
(`Database.run`); PostgreSQL's errors become the store's: a refused constraint or trigger is `InvalidOperation`, an
id beyond a signed 64-bit integer (only forged input has one) names no row (`GameNotFound`), anything else (the
server gone, a query cancelled) a `StorageError` naming the database. Every connection runs with
`synchronous_commit = on` whatever the server's default, so that an acknowledged commit is durable; jsonb values go
in as the JSON text the records already hold and come out as plain data (orjson).
"""

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import orjson

from storage.errors import GameNotFound, InvalidOperation, StorageError, StoreFileError
from storage.models import ID_MAX
from storage.postgres.migrate import load_migrations, migrate

T = TypeVar("T")
Conn = asyncpg.Connection

POOL_MIN = 2
POOL_MAX = 10
"""Connections per process: a commit holds one for a single round trip, so a few serve hundreds of games."""


def redacted(url: str) -> str:
    """The URL without its password, to name the database in messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def is_postgres_url(value: object) -> bool:
    return isinstance(value, str) and value.startswith(("postgresql://", "postgres://"))


def _jsonb_out(text: str) -> bytes:
    return b"\x01" + text.encode()  # jsonb's binary form: a version byte, then the JSON text


def _jsonb_in(data: bytes) -> object:
    return orjson.loads(data[1:])


async def _init(conn: Conn) -> None:
    # Binary, so that jsonb inside a record (a row of `load`'s seats and timers) is decoded the same way.
    await conn.set_type_codec("jsonb", encoder=_jsonb_out, decoder=_jsonb_in, schema="pg_catalog", format="binary")


def _out_of_range(exc: BaseException) -> bool:
    text = str(exc)
    return "out of int64 range" in text or "value out of" in text or "int too big" in text


class Database:
    """The store's pool: runs a coroutine on one of its connections, turning PostgreSQL's errors into the store's."""

    def __init__(self, pool: asyncpg.Pool, label: str) -> None:
        self.pool = pool
        self.label = label
        """The database URL without its password."""
        self.schema_version = 0
        self.closed = False

    @classmethod
    async def open(
        cls, url: str, *, create: bool = True, min_size: int = POOL_MIN, max_size: int = POOL_MAX
    ) -> "Database":
        label = redacted(url)
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=min_size,
                max_size=max_size,
                init=_init,
                server_settings={"synchronous_commit": "on", "application_name": "boardroom"},
            )
        except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise StoreFileError(label, f"cannot be opened ({type(exc).__name__}: {exc})") from None
        db = cls(pool, label)
        try:
            db.schema_version = await db.run(migrate, label, load_migrations(), create)
        except BaseException:
            await pool.close()
            raise
        return db

    async def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        await self.pool.close()

    async def run(self, fn: Callable[..., Awaitable[T]], *args: Any, game: int | None = None) -> T:
        """Run `fn(connection, *args)` on a pooled connection; PostgreSQL's errors become StorageErrors."""
        if self.closed:
            raise StorageError(f"{self.label}: the store is closed")
        try:
            async with self.pool.acquire() as conn:
                return await fn(conn, *args)
        except StorageError:
            raise
        except OverflowError:
            raise GameNotFound(f"there is no record with an id beyond {ID_MAX}") from None
        except asyncpg.DataError as exc:
            if _out_of_range(exc):
                raise GameNotFound(f"there is no record with an id beyond {ID_MAX}") from None
            raise StorageError(f"{self.label}: {exc}") from None
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise InvalidOperation(f"refused by the database: {exc}") from None
        except asyncpg.RaiseError as exc:
            raise InvalidOperation(f"refused by the database: {exc}") from None
        except asyncpg.PostgresError as exc:
            raise StorageError(f"{self.label}: {exc}") from None
        except (OSError, asyncpg.InterfaceError) as exc:
            if self.closed or ("closed" in str(exc).lower() and self.pool.is_closing()):
                raise StorageError(f"{self.label}: the store is closed") from None
            raise StorageError(f"{self.label}: {type(exc).__name__}: {exc}") from None


async def transaction(conn: Conn, body: Callable[[], Awaitable[T]]) -> T:
    """`body()` in one transaction on `conn`: committed, or rolled back if it raises."""
    async with conn.transaction():
        return await body()


__all__ = ["Conn", "Database", "is_postgres_url", "redacted", "transaction"]
