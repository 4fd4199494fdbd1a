"""The SQLite backend of the game store, on aiosqlite: `SQLiteStore` and its parts, one module each.

One aiosqlite connection carries everything (`database`: each store operation is one function run in the
connection's thread, a whole transaction in one hop). The parts — `games` (records, snapshots and the atomic
commit), `seats`, `log`, `timers`, `outbox`, `refs`, `settings`, `records`, `maintenance` — each hold that one
`Database` and implement their part of the interface (`storage.games`, `storage.parts`, `storage.records`);
`store.SQLiteStore` puts them together. The row format is this package's own: `rows` (records ↔ row values),
`timerlist` (a game's timers as a JSON list in its row); the schema is `migrations/*.sql`, applied by `migrate`.
`iocount` counts the database work for benchmarks.

WAL journal, `synchronous=FULL` by default (an acknowledged commit survives power loss), foreign keys on.
"""

from storage.sqlite.database import Synchronous
from storage.sqlite.store import SQLiteStore

__all__ = ["SQLiteStore", "Synchronous"]
