"""The outbox's in-flight mark is committed without waiting for the disk (it guards against a kill of the bot's
process, which it outlives), and only that write: the store's other commits still wait for the disk after it."""

import sqlite3
from pathlib import Path

from storage import GameStore, NewLogEntry, NewOutbox, open_store
from storage.postgres import PostgresStore
from storage.sqlite import SQLiteStore
from storage.sqlite.iocount import count_io
from tests.storage.test_tables import T, started


async def _commit_two_rows(store: GameStore) -> tuple[int, list[int]]:
    gid = await started(store)
    result = await store.games.commit(
        gid,
        0,
        NewLogEntry.for_note("n", T),
        None,
        outbox=[NewOutbox(kind="post", target={"thread_id": 3}, payload={"text": f"row {i}"}) for i in range(2)],
    )
    return gid, result.outbox_ids


async def test_sqlite_marks_without_an_fsync_and_keeps_full_for_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "b.db"
    store = await open_store(path)
    assert isinstance(store, SQLiteStore)
    try:
        gid, ids = await _commit_two_rows(store)
        counts = count_io(store)
        await store.outbox.mark_in_flight(ids, "in flight")
        assert (counts.writes, counts.unsynced) == (0, 1)
        # Committed for any other reader at once (what a killed process leaves is the WAL, which the next open reads).
        other = sqlite3.connect(path)
        assert [r[0] for r in other.execute("SELECT last_error FROM outbox ORDER BY id")] == ["in flight"] * 2
        other.close()
        assert await store.db.run(lambda conn: conn.execute("PRAGMA synchronous").fetchone()[0]) == 2  # FULL
        await store.games.commit(gid, 1, NewLogEntry.for_note("next", T), None)
        assert (counts.writes, counts.unsynced) == (1, 1)
    finally:
        await store.close()


async def test_postgres_marks_without_waiting_and_the_setting_stays_in_its_transaction(fresh_postgres: str) -> None:
    store = await open_store(fresh_postgres)
    assert isinstance(store, PostgresStore)
    try:
        _, ids = await _commit_two_rows(store)
        await store.outbox.mark_in_flight(ids, "in flight")
        assert [(await store.outbox.item(i)).last_error for i in ids] == ["in flight"] * 2
        settings = set()
        conns = [await store.db.pool.acquire() for _ in range(store.db.pool.get_size())]
        try:
            for conn in conns:
                settings.add(await conn.fetchval("SHOW synchronous_commit"))
        finally:
            for conn in conns:
                await store.db.pool.release(conn)
        assert settings == {"on"}
    finally:
        await store.close()
