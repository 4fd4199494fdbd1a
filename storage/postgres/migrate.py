"""Schema migrations of the PostgreSQL store: numbered SQL files in storage/postgres/migrations/ (their own
numbering, apart from SQLite's), applied in order when the store opens, each in a transaction.

Each application is recorded in `schema_migrations`; the whole run holds a transaction-level advisory lock, so
several bot processes starting at once apply each migration exactly once. A database that has tables but no
`schema_migrations` belongs to another program and is refused, untouched; one written by a newer Boardroom too.
"""

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path

import asyncpg

from storage.errors import SchemaTooNew, StoreFileError

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_FILE_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")
LOCK_KEY = 0x42524D31
"""The advisory lock the migrations run under ('BRM1', as SQLite's application id)."""


@dataclass(frozen=True)
class Migration:
    number: int
    name: str
    sql: str


@cache
def load_migrations(directory: Path = MIGRATIONS_DIR) -> tuple[Migration, ...]:
    found: list[Migration] = []
    for path in sorted(directory.glob("*.sql")):
        match = _FILE_NAME.match(path.name)
        if not match:
            raise RuntimeError(f"{path}: migration files must be named NNNN_name.sql")
        found.append(Migration(int(match.group(1)), match.group(2), path.read_text(encoding="utf-8")))
    if [m.number for m in found] != list(range(1, len(found) + 1)):
        raise RuntimeError(f"{directory}: migrations must be numbered 0001, 0002, … without gaps")
    return tuple(found)


async def current_version(conn: asyncpg.Connection, label: str) -> int:
    """The schema version of the database (0: an empty one). Refuses another program's database."""
    tables = await conn.fetch("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")
    names = {r[0] for r in tables}
    if "schema_migrations" not in names:
        if names:
            raise StoreFileError(label, "is a database of another program (it has tables, but not Boardroom's)")
        return 0
    return await conn.fetchval("SELECT coalesce(max(version), 0) FROM schema_migrations")


async def migrate(conn: asyncpg.Connection, label: str, migrations: tuple[Migration, ...], create: bool) -> int:
    """Apply the pending migrations (each in its own transaction, under the advisory lock); the version now."""
    known = len(migrations)
    version = await current_version(conn, label)
    if version > known:
        raise SchemaTooNew(label, version, known)
    if version == known:
        return version
    if version == 0 and not create:
        raise StoreFileError(label, "holds no Boardroom store (and creating one was not allowed)")
    for migration in migrations:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", LOCK_KEY)
            current = await current_version(conn, label)
            if current >= migration.number:
                continue
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations"
                " (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL)"
            )
            await conn.execute(migration.sql)
            await conn.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
                migration.number,
                migration.name,
                datetime.now(UTC),
            )
    return await current_version(conn, label)


__all__ = ["Migration", "current_version", "load_migrations", "migrate"]
