"""The one aiosqlite connection the SQLite store's parts share, and how a store operation runs on it.

Each store operation is one plain function that runs in the connection's worker thread (aiosqlite's `_execute`),
so a whole transaction — BEGIN IMMEDIATE … COMMIT — is a single hop from the event loop: no other task's statement
can slip into it, no asyncio lock is needed, and a commit costs little more than SQLite's own work and the fsync.
aiosqlite is pinned below 0.23 in pyproject.toml because `_execute` is not public API; `Database.open` checks that
it exists.

Every SQLite error is turned into a `StorageError`; corruption ("database disk image is malformed", "file is not a
database") becomes a `DamagedData` (a `StoreFileError`) naming the file and the game the call was about, whenever
it is met. An id too large for SQLite's INTEGER (only forged input has one) names no row: `GameNotFound`.
Start-up reads only the header, the schema and indexed rows: corruption deep in old pages is found when those
pages are read, or by `check_integrity()`, not at start-up (a full check costs time proportional to the file).
"""

import contextlib
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, TypeVar

import aiosqlite

from storage.errors import DamagedData, GameNotFound, InvalidOperation, StorageError, StoreFileError
from storage.models import ID_MAX
from storage.sqlite.migrate import check_file, check_writable, inspect, load_migrations, migrate

T = TypeVar("T")
Conn = sqlite3.Connection

Synchronous = Literal["OFF", "NORMAL", "FULL", "EXTRA"]

_SQLITE_CORRUPT = 11
_SQLITE_NOTADB = 26


def corrupt(exc: sqlite3.DatabaseError) -> bool:
    """Whether SQLite says the file itself is damaged (rather than busy, full or refusing)."""
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    return code in (_SQLITE_CORRUPT, _SQLITE_NOTADB) or type(exc) is sqlite3.DatabaseError


def transaction(conn: Conn, body: Callable[[], T]) -> T:
    """`body()` in one write transaction (in the connection's thread): committed, or rolled back if it raises."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = body()
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return result


def unsynced_transaction(conn: Conn, body: Callable[[], T], synchronous: str) -> T:
    """`transaction`, committed without waiting for the disk: a write that must outlast the process (a kill, a
    crash) but may be lost with the machine. In WAL mode under `synchronous=NORMAL` the commit reaches the WAL in the
    operating system's cache, and the next synced commit takes it to the disk; the database stays consistent."""
    if synchronous not in ("FULL", "EXTRA"):
        return transaction(conn, body)
    conn.execute("PRAGMA synchronous = NORMAL")
    try:
        return transaction(conn, body)
    finally:
        conn.execute(f"PRAGMA synchronous = {synchronous}")


class Database:
    """The store's connection: runs a function in its thread, turning SQLite's errors into the store's."""

    def __init__(self, conn: aiosqlite.Connection, label: str) -> None:
        self.connection = conn
        self.label = label
        """The file's resolved path, or ":memory:"."""
        self.schema_version = 0
        self.closed = False
        self.synchronous = "FULL"
        """The connection's `PRAGMA synchronous` (as opened)."""

    @classmethod
    async def open(cls, path: str | Path, *, synchronous: Synchronous, create: bool, busy_timeout: float) -> "Database":
        if sqlite3.sqlite_version_info < (3, 35, 0):  # RETURNING, DROP COLUMN
            raise StorageError(f"Boardroom needs SQLite 3.35 or newer; this Python has {sqlite3.sqlite_version}")
        if synchronous not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise StorageError(f"synchronous must be OFF, NORMAL, FULL or EXTRA, not {synchronous!r}")
        memory = str(path) == ":memory:"
        label = ":memory:" if memory else str(Path(path).resolve())
        if not memory:
            check_file(Path(path), create)
        pending = aiosqlite.connect(":memory:" if memory else str(path), isolation_level=None, cached_statements=256)
        if not hasattr(pending, "_execute") or not hasattr(pending, "_thread"):
            raise StorageError("this aiosqlite version lacks Connection._execute; install aiosqlite<0.23")
        # A daemon worker: a bot that dies without closing the store still exits (an unfinished transaction is
        # rolled back at the next open, exactly as after a crash; nothing acknowledged is lost).
        pending._thread.daemon = True
        try:
            conn = await pending
        except sqlite3.Error as exc:
            raise StoreFileError(label, f"cannot be opened ({exc})") from None
        db = cls(conn, label)
        db.synchronous = synchronous
        try:
            db.schema_version = await db.run(_prepare, int(busy_timeout * 1000), synchronous, label, memory)
        except BaseException:
            await conn.close()
            raise
        return db

    async def close(self) -> None:
        if self.closed:
            return
        with contextlib.suppress(StorageError):
            await self.run(_optimize)
        self.closed = True
        await self.connection.close()

    async def run(self, fn: Callable[..., T], *args: Any, game: int | None = None) -> T:
        """Run `fn(sqlite3_connection, *args)` in the connection's thread; SQLite errors become StorageErrors.
        `game`: the game the call is about, named by `DamagedData` when a damaged page is met."""
        if self.closed:
            raise StorageError(f"{self.label}: the store is closed")
        conn = self.connection
        try:
            return await conn._execute(fn, conn._conn, *args)
        except StorageError:
            raise
        except OverflowError:
            # An id beyond SQLite's 64-bit INTEGER (forged input) cannot name a row: not found, whatever the call.
            raise GameNotFound(f"there is no record with an id beyond {ID_MAX}") from None
        except sqlite3.IntegrityError as exc:
            raise InvalidOperation(f"refused by the database: {exc}") from None
        except sqlite3.DatabaseError as exc:
            if corrupt(exc):
                raise DamagedData(self.label, f"is corrupt ({exc}); restore a backup", game) from None
            raise StorageError(f"{self.label}: {exc}") from None
        except ValueError as exc:
            if "closed" in str(exc).lower():
                raise StorageError(f"{self.label}: the store is closed") from None
            raise


def _optimize(conn: Conn) -> None:
    conn.execute("PRAGMA analysis_limit = 400")  # bounded work, whatever the size of the file
    conn.execute("PRAGMA optimize")


def _prepare(conn: Conn, busy_ms: int, synchronous: str, label: str, memory: bool) -> int:
    """Checks, pragmas and migrations at open; nothing is written before the file is known to be ours."""
    conn.execute(f"PRAGMA busy_timeout = {busy_ms:d}")
    migrations = load_migrations()
    inspect(conn, label, len(migrations))
    if not memory:
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise StoreFileError(label, f"cannot switch to WAL journal mode (got {mode})")
    conn.execute(f"PRAGMA synchronous = {synchronous}")
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA cache_size = -32768")  # 32 MiB of page cache: the open games' rows and the hot indexes
    version = migrate(conn, label, migrations)
    if not memory:
        check_writable(conn, label)
    # Touch what serving needs first, so damage there stops start-up rather than the first command.
    conn.execute("SELECT count(*) FROM games WHERE status IN ('lobby', 'active', 'paused')").fetchone()
    conn.execute("SELECT id FROM games WHERE next_due IS NOT NULL ORDER BY next_due LIMIT 1").fetchone()
    return version


__all__ = ["Conn", "Database", "Synchronous", "corrupt", "transaction"]
