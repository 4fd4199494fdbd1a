"""Opening a store: `open_store(...)` chooses the backend and returns a `GameStore` ready to serve.

Kept apart from the interface (`storage.store`) so that the interface imports no backend and a backend imports
only the interface: no import circle. A `postgresql://` URL opens the PostgreSQL store (`storage.postgres`, imported
only then: asyncpg is needed only there); anything else is an SQLite file.
"""

from pathlib import Path

from storage.errors import StorageError
from storage.sqlite import SQLiteStore, Synchronous
from storage.store import GameStore

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(target: str | Path) -> bool:
    """Whether `target` names a PostgreSQL database (a `postgresql://` URL) rather than an SQLite file."""
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


async def open_store(
    path: str | Path,
    *,
    synchronous: Synchronous = "FULL",
    create: bool = True,
    busy_timeout: float = 5.0,
) -> GameStore:
    """Open (creating if needed and allowed) the store at `path`, apply pending migrations, and return it ready to
    serve. `path` is an SQLite file, ":memory:" (a private in-memory store, tests), or a PostgreSQL URL
    (`postgresql://user:password@host:5432/boardroom`; `synchronous` and `busy_timeout` are SQLite's only).

    - `synchronous`: "FULL" (default) makes every acknowledged commit survive a power loss; "NORMAL" in WAL mode
      survives a process crash but may lose the last commits on power loss; "OFF"/"EXTRA" as in SQLite.
    - `create=False` refuses a missing file (an empty PostgreSQL database) instead of creating an empty store.
    Raises `StoreFileError` naming the file (the URL without its password) if it is not a Boardroom database, is
    corrupt or cannot be opened, and `SchemaTooNew` if a newer Boardroom wrote it. Nothing is ever overwritten."""
    if is_postgres(path):
        try:
            from storage.postgres import PostgresStore
        except ImportError as exc:
            raise StorageError(
                f"DATABASE_URL names a PostgreSQL database, but its driver is missing ({exc}): install Boardroom"
                " with its postgres extra (pip install '.[postgres]')"
            ) from None

        return await PostgresStore.open(str(path), create=create)
    return await SQLiteStore.open(path, synchronous=synchronous, create=create, busy_timeout=busy_timeout)


__all__ = ["is_postgres", "open_store"]
