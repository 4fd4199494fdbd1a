"""Opening a store: `open_store(...)` chooses the backend and returns a `GameStore` ready to serve.

Kept apart from the interface (`storage.store`) so that the interface imports no backend and a backend imports
only the interface: no import circle, and a second backend is one more branch here.
"""

from pathlib import Path

from storage.sqlite import SQLiteStore, Synchronous
from storage.store import GameStore


async def open_store(
    path: str | Path,
    *,
    synchronous: Synchronous = "FULL",
    create: bool = True,
    busy_timeout: float = 5.0,
) -> GameStore:
    """Open (creating if needed and allowed) the SQLite store at `path`, apply pending migrations, and return it
    ready to serve. ":memory:" gives a private in-memory store (tests).

    - `synchronous`: "FULL" (default) makes every acknowledged commit survive a power loss; "NORMAL" in WAL mode
      survives a process crash but may lose the last commits on power loss; "OFF"/"EXTRA" as in SQLite.
    - `create=False` refuses a missing file instead of creating an empty store.
    Raises `StoreFileError` naming the file if it is not a Boardroom database, is corrupt or cannot be opened,
    and `SchemaTooNew` if a newer Boardroom wrote it. The file is never overwritten."""
    return await SQLiteStore.open(path, synchronous=synchronous, create=create, busy_timeout=busy_timeout)


__all__ = ["open_store"]
