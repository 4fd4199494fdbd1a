"""The log's compressed events (storage/logcodec.py): every game's real events round-trip through the store, rows
written before compression are still read, and replay and export see no difference."""

import hashlib
import json
import random
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.logsamples import samples
from engine.kkk.rules import KKK
from replay import check_replay, import_game
from storage import ExportedGame, GameStore, LogEntry, NewLogEntry, NewSeat, StorageError, logcodec, open_store
from storage.jsontext import dump_json
from tests.replay.checks import play_random_game
from tests.replay.test_kkk import kkk_chooser
from tests.storage.helpers import T0, random_step


def stored_types(path: Path) -> dict[str, int]:
    conn = sqlite3.connect(path)
    try:
        return dict(conn.execute("SELECT typeof(events), count(*) FROM action_log GROUP BY 1").fetchall())
    finally:
        conn.close()


@pytest.mark.parametrize("name", ["kkk", "kesse_ruegen", "casablanca", "schwarzmarkt"])
async def test_every_games_real_events_round_trip_through_the_store(name: str, tmp_path: Path) -> None:
    steps = [(a, e) for a, e in samples(name, 1, seed=5) if a][:400]
    path = tmp_path / "log.sqlite3"
    store = await open_store(path, synchronous="OFF")
    try:
        game = await store.games.create(name)
        await store.games.start(game.id, seed=1, setup_at=T0, seats=[NewSeat(seat=0)], snapshot="{}")
        for version, (action, events) in enumerate(steps):
            entry = NewLogEntry.for_action(0, json.loads(action), T0, json.loads(events))
            await store.games.commit(game.id, version, entry, "{}")
        logged = await store.log.entries(game.id)
    finally:
        await store.close()
    assert [(dump_json(e.action), dump_json(e.events)) for e in logged] == steps
    types = stored_types(path)
    assert types.get("blob", 0) > len(steps) // 2, types  # most moves' events are long enough to be compressed


def test_stored_values_decode_to_the_same_text_and_are_never_longer() -> None:
    for name in ("kkk", "casablanca"):
        for _, events in samples(name, 1, seed=9)[:300]:
            stored = logcodec.encode(events)
            assert logcodec.decode(stored) == events
            assert logcodec.loads(stored) == json.loads(events)
            size = len(stored) if isinstance(stored, bytes) else len(stored.encode())
            assert size <= len(events.encode())


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_text_round_trips_and_never_grows(text: str) -> None:
    stored = logcodec.encode(text)
    assert logcodec.decode(stored) == text
    size = len(stored) if isinstance(stored, bytes) else len(stored.encode())
    assert size <= len(text.encode())
    if len(text) < logcodec.MIN_LENGTH:
        assert stored == text


def test_short_events_stay_text_and_long_repetitive_ones_shrink() -> None:
    assert logcodec.encode("[]") == "[]"
    event = {"kind": "passed", "text": "{seat:0}: lets the last call go.", "data": {"seat": 0}, "to": None}
    text = dump_json([event] * 3)
    stored = logcodec.encode(text)
    assert isinstance(stored, bytes) and stored[0] == 1 and len(stored) < len(text) // 3


def test_unknown_versions_and_damaged_values_are_refused() -> None:
    good = logcodec.encode(dump_json([{"kind": "x", "text": "Something long enough to be compressed, surely."}] * 2))
    assert isinstance(good, bytes)
    with pytest.raises(StorageError, match="version 7"):
        logcodec.decode(bytes([7]) + good[1:])
    with pytest.raises(StorageError, match="damaged"):
        logcodec.decode(good[: len(good) // 2])
    with pytest.raises(StorageError, match="damaged"):
        logcodec.decode(good[:1] + b"\xff" * 20)


def test_a_log_entry_gives_its_events_as_stored_and_a_copy_with_other_events_gives_those() -> None:
    events = [{"kind": "deal", "text": "Something long enough to be compressed, surely.", "n": n} for n in range(3)]
    entry = NewLogEntry.for_action(1, {"type": "deal"}, T0, events)
    stored = entry.stored_events()
    assert isinstance(stored, bytes) and logcodec.decode(stored) == entry.json_text("events")
    assert entry.model_copy(update={"note": "n"}).stored_events() == stored
    assert entry.model_copy(update={"events": [{"kind": "x"}]}).stored_events() == '[{"kind":"x"}]'
    read_back = LogEntry(game_id=1, seq=1, kind="action", at=T0, action={"type": "deal"}, events=events)
    assert read_back.stored_events() == stored


def test_the_released_dictionary_is_the_one_checked_for() -> None:
    data = (Path(logcodec.__file__).parent / "logdict-1.zdict").read_bytes()
    assert hashlib.sha256(data).hexdigest() == logcodec._V1_SHA256
    with pytest.raises(StorageError, match="not the released dictionary"):
        logcodec._dictionary("logdict-1.zdict", "0" * 64)


async def test_rows_written_before_compression_still_read_replay_and_export(
    db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first half of a game is written as the code before compression wrote it (events as JSON text), the rest
    compressed: the log reads as one, the game replays, and export/import gives the same game."""
    game = KKK()
    with monkeypatch.context() as patch:
        patch.setattr(logcodec, "encode", lambda text: text)  # what the store wrote before this codec
        store = await open_store(db_path, synchronous="OFF")
        gid, _ = await play_random_game(store, game, seed=31, seats=4, steps=150, chooser=kkk_chooser(game))
        await store.close()
    assert set(stored_types(db_path)) == {"text"}
    store: GameStore = await open_store(db_path, synchronous="OFF")
    target = await open_store(tmp_path / "target.sqlite3", synchronous="OFF")
    try:
        version = (await store.games.get(gid)).version
        rnd = random.Random(8)
        chooser = kkk_chooser(game)
        for _ in range(150):
            if await random_step(store, game, gid, rnd, chooser=chooser) is None:
                break
        types = stored_types(db_path)
        assert types.get("text", 0) >= version and types.get("blob", 0) > 0, types
        report = await check_replay(store, game, gid)
        assert report.ok, (report.differing_fields, report.event_mismatches)

        exported = await store.export_game(gid)
        text = exported.to_json()
        assert '"kind":' in text.replace(" ", "")  # the export holds the events as JSON, whatever the row's form
        imported = await import_game(target, ExportedGame.from_json(text), game)
        source_log = [e.model_dump(exclude={"game_id"}) for e in await store.log.entries(gid)]
        target_log = [e.model_dump(exclude={"game_id"}) for e in await target.log.entries(imported.id)]
        assert target_log == source_log
        assert (await check_replay(target, game, imported.id)).ok
    finally:
        await store.close()
        await target.close()
    assert "blob" in stored_types(tmp_path / "target.sqlite3")  # imported entries are stored compressed


OLD_EVENTS = [
    {"kind": "planted", "text": "", "data": {"seat": 0, "square": "b2", "left": 3}, "to": None, "reveals": False}
]
OLD_BLOB = bytes.fromhex("018bc63da1852db290efd9206ad5642c00")
"""`OLD_EVENTS` as version 1 wrote them with a 32 KB window (before values were written with 16 KB): the bytes as
they are in databases of that time."""


def test_values_written_with_the_full_window_still_read() -> None:
    assert logcodec.loads(OLD_BLOB) == OLD_EVENTS
    assert logcodec.decode(OLD_BLOB) == dump_json(OLD_EVENTS)
    assert logcodec.encode(dump_json(OLD_EVENTS)) != OLD_BLOB  # (this test would prove nothing otherwise)


async def test_a_log_row_written_with_the_full_window_still_loads(db_path: Path) -> None:
    store = await open_store(db_path, synchronous="OFF")
    record = await store.games.create("kkk")
    await store.games.start(record.id, seed=1, setup_at=T0, seats=[NewSeat(seat=0, player_id=5)], snapshot="{}")
    await store.close()
    conn = sqlite3.connect(db_path, isolation_level=None)
    try:  # the row as the store wrote it then (its events column a BLOB of the old bytes)
        conn.execute(
            "INSERT INTO action_log (game_id, seq, kind, actor_seat, user_id, action, events, at, undo_to, note)"
            " VALUES (?, 1, 'action', 0, 5, '{\"type\":\"roll\"}', ?, '2025-01-01T00:00:00.000000+00:00', NULL, '')",
            (record.id, OLD_BLOB),
        )
        conn.execute("UPDATE games SET version = 1 WHERE id = ?", (record.id,))
    finally:
        conn.close()
    assert stored_types(db_path) == {"blob": 1}
    store = await open_store(db_path, synchronous="OFF")
    try:
        [entry] = await store.log.entries(record.id)
        assert entry.events == OLD_EVENTS and entry.action == {"type": "roll"}
        exported = await store.export_game(record.id)
        assert exported.log[0].events == OLD_EVENTS
    finally:
        await store.close()
