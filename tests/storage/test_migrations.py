"""Opening a store: migrations from empty and re-run, and refusal of files that are not ours or not healthy.

A refused file must be left byte for byte as it was, and the error must name the file (the bot prints it)."""

import sqlite3
from pathlib import Path

import pytest

from storage import SchemaTooNew, StorageError, StoreFileError, open_store
from storage.migrate import APPLICATION_ID, Migration, load_migrations, migrate


def tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


async def test_migrates_an_empty_file_and_rerunning_changes_nothing(db_path: Path) -> None:
    store = await open_store(db_path)
    assert store.schema_version == len(load_migrations()) >= 1
    await store.close()
    expected = {
        "games",
        "snapshots",
        "seats",
        "action_log",
        "timers",
        "outbox",
        "message_refs",
        "guild_settings",
        "schema_migrations",
    }
    assert expected <= tables(db_path)
    for _ in range(2):
        store = await open_store(db_path)
        await store.close()
    with sqlite3.connect(db_path) as conn:
        applied = conn.execute("SELECT version, name FROM schema_migrations ORDER BY version").fetchall()
        assert applied == [(m.number, m.name) for m in load_migrations()]
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(load_migrations())
        assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_keeps_data_across_reopen(db_path: Path) -> None:
    store = await open_store(db_path)
    game = await store.create_game("toy", guild_id=1)
    await store.close()
    store = await open_store(db_path)
    assert (await store.get_game(game.id)).kind == "toy"
    await store.close()


async def test_a_zero_byte_file_becomes_a_store(db_path: Path) -> None:
    db_path.write_bytes(b"")
    store = await open_store(db_path)
    await store.close()
    assert "games" in tables(db_path)


def test_migrations_apply_in_order_each_in_a_transaction(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite3"
    good = Migration(1, "one", "CREATE TABLE a (x INTEGER);\nCREATE INDEX a_x ON a (x);")
    bad = Migration(2, "two", "CREATE TABLE b (y INTEGER);\nINSERT INTO nowhere VALUES (1);")
    conn = sqlite3.connect(path, isolation_level=None)
    with pytest.raises(sqlite3.OperationalError):
        migrate(conn, str(path), (good, bad))
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    assert "a" in names and "b" not in names  # the failed migration left nothing behind
    fixed = Migration(2, "two", "CREATE TABLE b (y INTEGER);")
    assert migrate(conn, str(path), (good, fixed)) == 2
    assert migrate(conn, str(path), (good, fixed)) == 2  # idempotent
    assert conn.execute("SELECT version FROM schema_migrations ORDER BY version").fetchall() == [(1,), (2,)]
    conn.close()


async def test_refuses_a_newer_schema_and_leaves_the_file_alone(db_path: Path) -> None:
    store = await open_store(db_path)
    await store.close()
    with sqlite3.connect(db_path) as conn:
        conn.execute("PRAGMA user_version = 99")
    before = db_path.read_bytes()
    with pytest.raises(SchemaTooNew) as err:
        await open_store(db_path)
    message = str(err.value)
    assert str(db_path.resolve()) in message
    assert "99" in message and "newer" in message
    assert db_path.read_bytes() == before


@pytest.mark.parametrize(
    "content",
    [
        b"hello, I am a text file, not a database\n" * 20,
        bytes(range(256)) * 64,
        b"SQLite format 3\x00" + b"\x00" * 20,  # a header cut short
    ],
    ids=["text", "random-bytes", "truncated"],
)
async def test_refuses_a_file_that_is_not_a_database(db_path: Path, content: bytes) -> None:
    db_path.write_bytes(content)
    with pytest.raises(StoreFileError) as err:
        await open_store(db_path)
    assert str(db_path) in str(err.value)
    assert db_path.read_bytes() == content  # never overwritten


async def test_refuses_another_programs_sqlite_database(db_path: Path) -> None:
    with sqlite3.connect(db_path) as conn:
        conn.execute("CREATE TABLE recipes (name TEXT)")
        conn.execute("INSERT INTO recipes VALUES ('soup')")
    before = db_path.read_bytes()
    with pytest.raises(StoreFileError, match="another program"):
        await open_store(db_path)
    assert db_path.read_bytes() == before


async def _checkpointed_store(path: Path) -> None:
    store = await open_store(path)
    for i in range(30):
        await store.create_game("toy", guild_id=i, options={"padding": "x" * 2000})
    await store.close()
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


async def test_refuses_a_store_whose_schema_page_is_corrupt(db_path: Path) -> None:
    await _checkpointed_store(db_path)
    data = bytearray(db_path.read_bytes())
    data[100:4096] = b"\xa5" * (4096 - 100)  # page 1 after the header: the schema table
    db_path.write_bytes(bytes(data))
    with pytest.raises(StoreFileError) as err:
        await open_store(db_path)
    assert str(db_path.resolve()) in str(err.value)
    assert "corrupt" in str(err.value) or "not" in str(err.value)
    assert db_path.read_bytes() == bytes(data)


async def test_corrupt_data_pages_give_a_storage_error_naming_the_file(db_path: Path) -> None:
    await _checkpointed_store(db_path)
    data = bytearray(db_path.read_bytes())
    page = 4096
    for n in range(1, len(data) // page):  # every page but the schema page
        data[n * page : (n + 1) * page] = b"\x5a" * page
    db_path.write_bytes(bytes(data))
    with pytest.raises(StoreFileError) as err:
        store = await open_store(db_path)
        try:
            await store.list_games()
        finally:
            await store.close()
    assert str(db_path.resolve()) in str(err.value)
    assert "corrupt" in str(err.value)


async def test_refuses_a_missing_file_when_creating_is_not_allowed(tmp_path: Path) -> None:
    with pytest.raises(StoreFileError, match="no such database file"):
        await open_store(tmp_path / "absent.sqlite3", create=False)
    assert not (tmp_path / "absent.sqlite3").exists()


async def test_refuses_a_directory_or_a_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(StoreFileError, match="directory"):
        await open_store(tmp_path)
    with pytest.raises(StoreFileError, match="does not exist"):
        await open_store(tmp_path / "nope" / "db.sqlite3")


async def test_synchronous_setting(db_path: Path) -> None:
    store = await open_store(db_path, synchronous="NORMAL")
    await store.close()
    with pytest.raises(StorageError):
        await open_store(db_path, synchronous="SOMETIMES")  # type: ignore[arg-type]
