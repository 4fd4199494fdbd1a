"""What only the PostgreSQL store does (the contract itself runs on both backends: the other files here): its
durability setting, the log's triggers against raw SQL, its migrations and refusals, its integrity check,
backups refused in words that say what to use, and claims that write no new row version when nothing changes."""

from datetime import timedelta
from pathlib import Path

import asyncpg
import pytest

from storage import BackupUnsupported, Claim, NewLogEntry, NewOutbox, NewSeat, SchemaTooNew, StoreFileError, open_store
from storage.postgres import PostgresStore
from storage.postgres.migrate import load_migrations
from tests.pg import create_database
from tests.storage.test_tables import T, started


async def test_every_connection_commits_synchronously_whatever_the_database_says(fresh_postgres: str) -> None:
    admin = await asyncpg.connect(fresh_postgres)
    name = await admin.fetchval("SELECT current_database()")
    try:
        await admin.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = off')
        store = await open_store(fresh_postgres)
        assert isinstance(store, PostgresStore)
        try:
            async with store.db.pool.acquire() as conn:
                assert await conn.fetchval("SHOW synchronous_commit") == "on"
        finally:
            await store.close()
    finally:
        await admin.execute(f'ALTER DATABASE "{name}" RESET synchronous_commit')
        await admin.close()


class _RolledBack(Exception):
    pass


async def test_the_log_is_append_only_and_gap_free_even_for_raw_sql(fresh_postgres: str) -> None:
    store = await open_store(fresh_postgres)
    conn = await asyncpg.connect(fresh_postgres)
    try:
        gid = await started(store)
        other = await started(store)
        await store.games.commit(gid, 0, NewLogEntry.for_note("hello", T), None)
        insert = "INSERT INTO action_log (game_id, seq, kind, at, note, events) VALUES ($1, $2, 'note', now(), $3, '')"
        with pytest.raises(asyncpg.IntegrityConstraintViolationError, match="append-only"):
            await conn.execute("UPDATE action_log SET note = 'changed'")
        with pytest.raises(asyncpg.IntegrityConstraintViolationError, match="append-only"):
            await conn.execute("DELETE FROM action_log")
        with pytest.raises(asyncpg.IntegrityConstraintViolationError, match="append-only"):
            await conn.execute("TRUNCATE action_log CASCADE")
        with pytest.raises(asyncpg.IntegrityConstraintViolationError, match="gap-free"):
            await conn.execute(insert, gid, 5, "a gap")
        with pytest.raises(asyncpg.IntegrityConstraintViolationError, match="gap-free"):
            await conn.execute(insert, other, 2, "the first entry of a game is 1")
        with pytest.raises(asyncpg.UniqueViolationError):
            await conn.execute(insert, gid, 1, "a second entry 1")
        with pytest.raises(asyncpg.IntegrityConstraintViolationError):  # the trigger or the CHECK, whichever first
            await conn.execute(insert, other, 0, "before the first")
        with pytest.raises(_RolledBack):
            async with conn.transaction():
                await conn.execute(insert, other, 1, "the next entry is fine")
                await conn.execute(insert, other, 2, "and the one after")
                raise _RolledBack
        assert [e.note for e in await store.log.entries(gid)] == ["hello"]
        assert await store.log.entries(other) == []
    finally:
        await conn.close()
        await store.close()


async def test_backup_is_refused_with_what_to_use_instead(fresh_postgres: str, tmp_path: Path) -> None:
    store = await open_store(fresh_postgres)
    try:
        with pytest.raises(BackupUnsupported, match="pg_dump") as err:
            await store.maintenance.backup(tmp_path / "b.sqlite3")
        assert "PostgreSQL" in str(err.value)
        assert list(tmp_path.iterdir()) == []  # nothing pretends to be a backup
    finally:
        await store.close()


async def test_the_integrity_check_finds_a_version_that_left_its_log(fresh_postgres: str) -> None:
    store = await open_store(fresh_postgres)
    conn = await asyncpg.connect(fresh_postgres)
    try:
        gid = await started(store)
        await store.games.commit(gid, 0, NewLogEntry.for_note("n", T), None)
        assert await store.maintenance.check_integrity() == []
        await conn.execute("UPDATE games SET version = 7 WHERE id = $1", gid)
        assert await store.maintenance.check_integrity() == [f"game {gid}: a game's version differs from its log"]
    finally:
        await conn.close()
        await store.close()


async def test_migrations_once_and_refusals(postgres_server: str) -> None:
    url = await create_database(postgres_server, "boardroom_migrations", migrate=False)
    with pytest.raises(StoreFileError, match="creating one was not allowed"):
        await open_store(url, create=False)
    first, second = await open_store(url), await open_store(url)  # the second finds it done
    try:
        newest = len(load_migrations())
        assert newest >= 2  # 0002: claims
        assert first.maintenance.schema_version == second.maintenance.schema_version == newest
        game = await first.games.create("toy")
        await first.games.start(game.id, seed=1, setup_at=T, seats=[NewSeat(seat=0)], snapshot="{}")
    finally:
        await first.close()
        await second.close()
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("INSERT INTO schema_migrations VALUES (99, 'future', now())")
        with pytest.raises(SchemaTooNew):
            await open_store(url)
    finally:
        await conn.close()
    foreign = await create_database(postgres_server, "boardroom_foreign", migrate=False)
    conn = await asyncpg.connect(foreign)
    try:
        await conn.execute("CREATE TABLE invoices (id int)")
    finally:
        await conn.close()
    with pytest.raises(StoreFileError, match="another program"):
        await open_store(foreign)


async def test_reading_back_ones_own_claimed_rows_writes_no_new_row_version(fresh_postgres: str) -> None:
    """A process reads back its own rows at every delivery pass: their lease stands, and no UPDATE leaves a dead
    row behind (`xmin` names the transaction that wrote a row's version). Unclaimed rows are claimed (written)."""
    store = await open_store(fresh_postgres)
    assert isinstance(store, PostgresStore)
    try:
        gid = await started(store)
        lease = Claim(owner="A", until=T + timedelta(minutes=1))
        post = NewOutbox(kind="post", target={}, payload={})
        born = await store.games.commit(gid, 0, NewLogEntry.for_note("n", T), None, outbox=[post], claim=lease)
        loose = await store.outbox.add(gid, [post], now=T)

        async def versions() -> dict[int, tuple[str, str | None, object]]:
            async with store.db.pool.acquire() as conn:
                found = await conn.fetch("SELECT id, xmin::text, claimed_by, claimed_until FROM outbox")
            return {r[0]: (r[1], r[2], r[3]) for r in found}

        before = await versions()
        later = Claim(owner="A", until=T + timedelta(minutes=2))
        got = await store.outbox.claim(later, now=T + timedelta(seconds=30), game_id=gid)
        assert [r.id for r in got] == [*born.outbox_ids, *loose]
        after = await versions()
        assert after[born.outbox_ids[0]] == before[born.outbox_ids[0]]  # same version, lease unmoved
        assert after[loose[0]][1:] == ("A", later.until) and after[loose[0]][0] != before[loose[0]][0]
    finally:
        await store.close()
