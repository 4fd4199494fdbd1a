"""The PostgreSQL backend of the game store, on asyncpg: `PostgresStore` and its parts, one module each.

Chosen by `DATABASE_URL=postgresql://…` (`storage.backends.open_store`). A pool of connections carries everything
(`database`: each store operation runs on one connection taken from the pool; a commit is one statement, so one
round trip and its own transaction). The parts — `games` (records, snapshots and the atomic commit), `seats`, `log`,
`timers`, `outbox`, `refs`, `settings`, `records`, `maintenance` — each hold that one `Database` and implement their
part of the interface (`storage.games`, `storage.parts`, `storage.records`); `store.PostgresStore` puts them
together. The row format is this package's own (`rows`); the schema is `migrations/*.sql` (its own numbering),
applied by `migrate` under an advisory lock, so several processes starting at once apply each migration once.

Every session runs with `synchronous_commit = on`: an acknowledged commit is on the server's disk (and on its
synchronous standbys, if it has any). Backups are PostgreSQL's own (`pg_dump`): `maintenance.backup` refuses.
"""

from storage.postgres.store import PostgresStore

__all__ = ["PostgresStore"]
