"""Opening a store: migrations from empty and re-run, and refusal of files that are not ours or not healthy.

A refused file must be left byte for byte as it was, and the error must name the file (the bot prints it)."""

import json
import sqlite3
from pathlib import Path

import pytest

from replay import check_replay
from storage import NewLogEntry, NewOutbox, SchemaTooNew, StorageError, StoreFileError, open_store
from storage.sqlite.migrate import APPLICATION_ID, Migration, load_migrations, migrate


def tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        return {
            r[0]
            for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        }


async def test_migrates_an_empty_file_and_rerunning_changes_nothing(db_path: Path) -> None:
    store = await open_store(db_path)
    assert store.maintenance.schema_version == len(load_migrations()) >= 1
    await store.close()
    expected = {
        "games",
        "outbox_delivered",
        "seats",
        "action_log",
        "outbox",
        "message_refs",
        "guild_settings",
        "schema_migrations",
        "game_results",
        "placements",
        "player_stats",
        "ratings",
        "player_settings",
        "player_delivery",
        "quiet_hours",
        "timer_claims",
    }
    assert tables(db_path) == expected
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
    game = await store.games.create("toy", guild_id=1)
    await store.close()
    store = await open_store(db_path)
    assert (await store.games.get(game.id)).kind == "toy"
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
        await store.games.create("toy", guild_id=i, options={"padding": "x" * 2000})
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
            await store.games.find()
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


async def test_upgrades_a_schema_1_store_and_keeps_its_games(db_path: Path) -> None:
    """A store written by the first release (snapshots and timers in their own tables, delivered outbox rows
    in place) opens with the current code: everything is still there and the game still replays."""
    from datetime import UTC, datetime, timedelta

    from tests.storage.toy_game import ToyDraw

    conn = sqlite3.connect(db_path, isolation_level=None)
    migrate(conn, str(db_path), load_migrations()[:1])
    toy = ToyDraw()
    t0 = datetime(2025, 1, 1, tzinfo=UTC)
    state = toy.setup(3, toy.parse_options({"turns": 9}), 77, t0)
    log = []
    for seq in range(1, 4):
        seat = state.turn
        action = toy.legal_actions(state, seat)[0]
        at = t0 + timedelta(minutes=seq)
        outcome = toy.apply(state, seat, action, at)
        events = json.dumps([e.model_dump(mode="json") for e in outcome.events])
        log.append((1, seq, "action", seat, None, json.dumps(toy.dump_action(action)), events, at.isoformat()))
        state = outcome.state
    stamp = t0.isoformat(timespec="microseconds")
    conn.execute("BEGIN")
    conn.execute(
        "INSERT INTO games (id, kind, status, options, seed, seat_count, setup_at, version, created_at, updated_at)"
        " VALUES (1, 'toy', 'active', '{\"turns\": 9}', 77, 3, ?, 3, ?, ?)",
        (t0.isoformat(timespec="microseconds"), stamp, stamp),
    )
    for s in range(3):
        conn.execute("INSERT INTO seats (game_id, seat, player_id, joined_at) VALUES (1, ?, ?, ?)", (s, 50 + s, stamp))
    conn.executemany(
        "INSERT INTO action_log (game_id, seq, kind, actor_seat, user_id, action, events, at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(*row[:7], datetime.fromisoformat(row[7]).isoformat(timespec="microseconds")) for row in log],
    )
    conn.execute("INSERT INTO snapshots (game_id, version, state) VALUES (1, 3, ?)", (toy.dump_state(state),))
    conn.executemany(
        "INSERT INTO timers (game_id, kind, due_at, payload, created_at) VALUES (1, ?, ?, ?, ?)",
        [
            ("reminder", "2025-01-02T00:00:00.000000+00:00", '{"seat":1}', stamp),
            ("deadline", "2025-01-02T12:00:00.000000+00:00", '{"action":{"type":"timeout"}}', stamp),
        ],
    )
    conn.executemany(
        "INSERT INTO outbox (id, game_id, kind, target, payload, created_at, delivered_at)"
        " VALUES (?, 1, ?, '{}', ?, ?, ?)",
        [(1, "post", '{"n":1}', stamp, stamp), (2, "dm", '{"n":2}', stamp, None)],
    )
    conn.execute("COMMIT")
    conn.close()

    store = await open_store(db_path)
    try:
        assert store.maintenance.schema_version == len(load_migrations()) == 15
        assert (await store.games.snapshot(1)).state == toy.dump_state(state)
        assert (await check_replay(store, toy, 1)).ok
        timers = await store.timers.of_game(1)
        assert [(t.kind, t.payload) for t in timers] == [
            ("reminder", {"seat": 1}),
            ("deadline", {"action": {"type": "timeout"}}),
        ]
        nxt = await store.timers.soonest()
        assert nxt is not None and nxt.kind == "reminder" and nxt.game_id == 1
        assert [(o.id, o.payload) for o in await store.outbox.undelivered()] == [(2, {"n": 2})]
        assert (await store.outbox.item(1)).delivered_at == t0
        new_ids = await store.outbox.add(1, [NewOutbox(kind="post")])
        assert new_ids[0] > 2  # ids stay unique across delivered and pending rows
        assert [s.player_id for s in await store.seats.of_game(1)] == [50, 51, 52]
        assert await store.maintenance.check_integrity() == []
        # the log (rebuilt by migration 3) keeps its entries and its protection, and takes the next commit
        assert [e.seq for e in await store.log.entries(1)] == [1, 2, 3]
        with sqlite3.connect(db_path) as raw:
            with pytest.raises(sqlite3.IntegrityError, match="gap-free"):
                raw.execute("INSERT INTO action_log (game_id, seq, kind, at) VALUES (1, 5, 'note', 'x')")
            with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                raw.execute("DELETE FROM action_log WHERE seq = 3")
        await store.games.commit(1, 3, NewLogEntry.for_note("after the upgrade", t0), None)
        assert [e.seq for e in await store.log.entries(1)] == [1, 2, 3, 4]
    finally:
        await store.close()
