"""Every table's round trip through the store's API: what goes in comes back out, and nothing else changes."""

import sqlite3
from datetime import UTC, datetime, time, timedelta, timezone
from pathlib import Path

import pytest

from storage import (
    OPEN_STATUSES,
    GameNotFound,
    GameStore,
    GuildSettings,
    InvalidOperation,
    MessageRef,
    NewLogEntry,
    NewOutbox,
    NewSeat,
    NewTimer,
    QuietHours,
)
from storage.store import KEEP

T = datetime(2025, 5, 1, 12, 0, 0, 123456, tzinfo=UTC)


async def started(store: GameStore, seats: int = 2, **kw: object) -> int:
    game = await store.games.create("toy", guild_id=1, channel_id=2, thread_id=3, **kw)  # type: ignore[arg-type]
    await store.games.start(
        game.id,
        seed=42,
        setup_at=T,
        seats=[NewSeat(seat=i, player_id=100 + i, display_name=f"P{i}") for i in range(seats)],
        snapshot='{"n": 0}',
    )
    return game.id


async def test_games_round_trip(store: GameStore) -> None:
    created = await store.games.create(
        "toy", guild_id=11, channel_id=22, thread_id=33, options={"turns": 5, "x": [1, 2]}, created_by=7, now=T
    )
    assert created.status == "lobby" and created.version == 0 and not created.started
    assert created.created_at == T and created.updated_at == T
    got = await store.games.get(created.id)
    assert got == created
    assert got.options == {"turns": 5, "x": [1, 2]}
    assert await store.games.by_thread(33) == created
    assert await store.games.by_thread(999) is None
    with pytest.raises(GameNotFound):
        await store.games.get(12345)

    moved = await store.games.update(created.id, thread_id=44, options={"turns": 9}, now=T + timedelta(hours=1))
    assert moved.thread_id == 44 and moved.channel_id == 22 and moved.options == {"turns": 9}
    assert moved.updated_at == T + timedelta(hours=1)
    with pytest.raises(InvalidOperation, match=r"games\.start"):
        await store.games.update(created.id, status="active")

    await store.games.start(
        created.id, seed=-5, setup_at=T, seats=[NewSeat(seat=0), NewSeat(seat=1)], snapshot="{}", options={"turns": 3}
    )
    running = await store.games.get(created.id)
    assert (running.status, running.seed, running.seat_count, running.setup_at) == ("active", -5, 2, T)
    assert running.options == {"turns": 3}
    with pytest.raises(InvalidOperation, match="options"):
        await store.games.update(created.id, options={"turns": 4})
    with pytest.raises(InvalidOperation, match="lobby"):
        await store.games.update(created.id, status="lobby")
    with pytest.raises(InvalidOperation, match="not in its lobby"):
        await store.games.start(created.id, seed=1, setup_at=T, seats=[NewSeat(seat=0)], snapshot="{}")

    paused = await store.games.update(created.id, status="paused")
    assert paused.status == "paused" and paused.finished_at is None
    over = await store.games.update(created.id, status="abandoned", now=T + timedelta(days=2))
    assert over.finished_at == T + timedelta(days=2)
    assert over.channel_id == 22  # KEEP left it alone
    assert KEEP is not None


async def test_list_games_filters_and_never_loads_snapshots(store: GameStore) -> None:
    a = await store.games.create("toy", guild_id=1)
    b = await started(store)
    c = await started(store)
    await store.games.update(c, status="finished")
    d = await store.games.create("other", guild_id=2)
    assert [g.id for g in await store.games.find(statuses=OPEN_STATUSES)] == [a.id, b, d.id]
    assert [g.id for g in await store.games.find(statuses=["finished"])] == [c]
    assert [g.id for g in await store.games.find(guild_id=2)] == [d.id]
    assert [g.id for g in await store.games.find(kind="toy", limit=2)] == [a.id, b]
    assert await store.games.find(statuses=[]) == []


async def test_snapshot_round_trip_and_lobby_has_none(store: GameStore) -> None:
    lobby = await store.games.create("toy")
    with pytest.raises(GameNotFound, match="not started"):
        await store.games.snapshot(lobby.id)
    with pytest.raises(GameNotFound, match="no game"):
        await store.games.snapshot(999)
    gid = await started(store)
    snap = await store.games.snapshot(gid)
    assert (snap.version, snap.state) == (0, '{"n": 0}')


async def test_seats_round_trip(store: GameStore) -> None:
    game = await store.games.create("toy")
    await store.seats.set_lobby(
        game.id, [NewSeat(seat=0, player_id=5, display_name="Anna"), NewSeat(seat=3, player_id=6)]
    )
    seats = await store.seats.of_game(game.id)
    assert [(s.seat, s.player_id, s.display_name, s.dm_ok, s.away_until) for s in seats] == [
        (0, 5, "Anna", None, None),
        (3, 6, "", None, None),
    ]
    with pytest.raises(InvalidOperation, match="same number"):
        await store.seats.set_lobby(game.id, [NewSeat(seat=1), NewSeat(seat=1)])
    with pytest.raises(InvalidOperation, match="numbered"):
        await store.games.start(game.id, seed=1, setup_at=T, seats=[NewSeat(seat=0), NewSeat(seat=2)], snapshot="{}")
    joined_anna = seats[0].joined_at
    await store.games.start(
        game.id,
        seed=1,
        setup_at=T,
        seats=[NewSeat(seat=0, player_id=6, display_name="Bert"), NewSeat(seat=1, player_id=5, display_name="Anna")],
        snapshot="{}",
    )
    seats = await store.seats.of_game(game.id)
    assert [(s.seat, s.player_id) for s in seats] == [(0, 6), (1, 5)]
    assert seats[1].joined_at == joined_anna  # joining time survives the re-seating at start
    away = datetime(2025, 6, 1, 9, 0, tzinfo=timezone(timedelta(hours=2)))
    updated = await store.seats.update(game.id, 1, dm_ok=False, away_until=away, display_name="Anna B.")
    assert (updated.dm_ok, updated.away_until, updated.display_name, updated.player_id) == (False, away, "Anna B.", 5)
    assert updated.away_until.tzinfo == UTC  # kept in UTC, same instant
    sub = await store.seats.update(game.id, 1, player_id=77, away_until=None)
    assert (sub.player_id, sub.away_until, sub.dm_ok) == (77, None, False)
    with pytest.raises(GameNotFound):
        await store.seats.update(game.id, 5, dm_ok=True)
    with pytest.raises(InvalidOperation, match=r"seats\.update"):
        await store.seats.set_lobby(game.id, [])
    assert [(s.game_id, s.seat) for s in await store.seats.of_player(77)] == [(game.id, 1)]
    assert await store.seats.of_player(77, statuses=["finished"]) == []
    assert await store.seats.of_player(5) == []


async def test_the_seats_of_several_games_in_one_read(store: GameStore) -> None:
    """`/game list` shows who sits at each listed game: one read for all of them, not one per game."""
    first, empty, second = [await store.games.create("toy") for _ in range(3)]
    await store.seats.set_lobby(first.id, [NewSeat(seat=1, player_id=6), NewSeat(seat=0, player_id=5)])
    await store.seats.set_lobby(second.id, [NewSeat(seat=0, player_id=7)])
    found = await store.seats.of_games([second.id, first.id, empty.id, 999, first.id])
    assert {g: [(s.seat, s.player_id) for s in seats] for g, seats in found.items()} == {
        first.id: [(0, 5), (1, 6)],
        second.id: [(0, 7)],
    }
    assert await store.seats.of_games([]) == {}


async def test_a_computer_players_level_is_kept_with_its_seat(store: GameStore) -> None:
    game = await store.games.create("toy", guild_id=1, channel_id=2, thread_id=3)
    await store.seats.set_lobby(
        game.id,
        [
            NewSeat(seat=0, player_id=5, display_name="Anna"),
            NewSeat(seat=1, display_name="Robo Anna 🤖 (hard)", bot=True, level="hard"),
        ],
    )
    assert [(s.bot, s.level) for s in await store.seats.of_game(game.id)] == [(False, "normal"), (True, "hard")]
    changed = await store.seats.update(game.id, 1, level="easy")
    assert (changed.bot, changed.level) == (True, "easy")
    assert [s.level for s in await store.seats.of_game(game.id)] == ["normal", "easy"]
    with pytest.raises(ValueError):
        NewSeat(seat=2, bot=True, level="expert")  # type: ignore[arg-type]


async def test_log_round_trip(store: GameStore) -> None:
    gid = await started(store)
    at = datetime(2025, 5, 2, 8, 30, 1, 5, tzinfo=UTC)
    events = [{"kind": "play", "text": "{seat:0} plays", "data": {"card": 3}, "to": None, "reveals": False}]
    entries = [
        NewLogEntry.for_action(0, {"type": "play", "card": 3}, at, events, user_id=100),
        NewLogEntry.for_action(None, {"type": "timeout", "seat": 1}, at + timedelta(seconds=1)),
        NewLogEntry.for_note("Anna is on holiday", at + timedelta(seconds=2), user_id=9),
        NewLogEntry.for_undo(1, at + timedelta(seconds=3), user_id=9, note="misclick"),
    ]
    for version, entry in enumerate(entries):
        result = await store.games.commit(gid, version, entry, None if entry.kind == "note" else f'{{"n": {version}}}')
        assert result.version == version + 1
    log = await store.log.entries(gid)
    assert [e.seq for e in log] == [1, 2, 3, 4]
    for entry, stored in zip(entries, log, strict=True):
        assert stored.model_dump(exclude={"game_id", "seq"}) == entry.model_dump()
        assert stored.game_id == gid
    assert await store.log.entries(gid, after=2) == log[2:]
    assert await store.log.entries(gid, limit=1) == log[:1]
    assert await store.log.entry(gid, 4) == log[3]
    with pytest.raises(GameNotFound):
        await store.log.entry(gid, 5)
    snap = await store.games.snapshot(gid)
    assert snap.version == 4 and snap.state == '{"n": 3}'


def test_log_entry_kinds_are_consistent() -> None:
    with pytest.raises(ValueError):
        NewLogEntry(kind="action", at=T)
    with pytest.raises(ValueError):
        NewLogEntry(kind="undo", at=T)
    with pytest.raises(ValueError):
        NewLogEntry(kind="note", at=T, undo_to=1)
    with pytest.raises(ValueError, match="timezone"):
        NewLogEntry.for_note("naive", datetime(2025, 1, 1))


@pytest.mark.parametrize("backend", ["sqlite"])  # PostgreSQL's: tests/storage/test_postgres.py
async def test_the_log_is_append_only_even_for_raw_sql(store: GameStore, db_path: Path) -> None:
    gid = await started(store)
    other = await started(store)
    await store.games.commit(gid, 0, NewLogEntry.for_note("hello", T), None)
    insert = "INSERT INTO action_log (game_id, seq, kind, at, note) VALUES (?, ?, 'note', 'x', ?)"
    with sqlite3.connect(db_path) as conn:  # a plain connection: no store code, foreign keys off
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute("UPDATE action_log SET note = 'changed'")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute("DELETE FROM action_log")
        with pytest.raises(sqlite3.IntegrityError, match="gap-free"):
            conn.execute(insert, (gid, 5, "a gap"))
        with pytest.raises(sqlite3.IntegrityError, match="gap-free"):
            conn.execute(insert, (other, 2, "the first entry of a game is 1"))
        with pytest.raises(sqlite3.IntegrityError, match="UNIQUE"):
            conn.execute(insert, (gid, 1, "a second entry 1"))
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute(insert, (other, 0, "before the first"))
        conn.execute(insert, (other, 1, "the next entry is fine"))
        conn.execute(insert, (other, 2, "and the one after"))
        conn.rollback()
    assert [e.note for e in await store.log.entries(gid)] == ["hello"]
    assert await store.log.entries(other) == []


async def test_restoring_a_log_with_a_gap_or_a_repeat_is_refused_and_writes_nothing(store: GameStore) -> None:
    """`restore_game` writes a log as given, with no check of its own: the database refuses what would break it."""
    gid = await started(store)
    for n in range(3):
        await store.games.commit(gid, n, NewLogEntry.for_note(f"n{n}", T), None)
    exported = await store.export_game(gid)
    games_before = await store.games.find()
    for log in (exported.log[:1] + exported.log[2:], [*exported.log[:2], exported.log[1]]):
        broken = exported.model_copy(update={"log": log})
        with pytest.raises(InvalidOperation, match=r"(?i)gap-free|unique"):
            await store.maintenance.restore(broken, '{"n": 0}', keep_id=False)
        assert await store.games.find() == games_before
    restored = await store.maintenance.restore(exported, '{"n": 0}', keep_id=False)
    assert [e.seq for e in await store.log.entries(restored.id)] == [1, 2, 3]


async def test_timers_round_trip(store: GameStore) -> None:
    g1 = await started(store)
    g2 = await started(store)
    ids = await store.timers.add(
        g1,
        [
            NewTimer(kind="deadline", due_at=T + timedelta(hours=2), payload={"action": {"type": "timeout"}}),
            NewTimer(kind="reminder", due_at=T + timedelta(hours=1)),
        ],
    )
    (other,) = await store.timers.add(g2, [NewTimer(kind="reaction", due_at=T + timedelta(minutes=10))])
    timers = await store.timers.of_game(g1)
    assert [(t.id, t.kind, t.due_at) for t in timers] == [
        (ids[1], "reminder", T + timedelta(hours=1)),
        (ids[0], "deadline", T + timedelta(hours=2)),
    ]
    assert timers[1].payload == {"action": {"type": "timeout"}}
    nxt = await store.timers.soonest()
    assert nxt is not None and nxt.id == other and nxt.game_id == g2
    assert [t.id for t in await store.timers.due(T + timedelta(hours=1))] == [other, ids[1]]
    assert [t.id for t in await store.timers.due(T + timedelta(hours=5), limit=1)] == [other]
    assert await store.timers.delete(other) is True
    assert await store.timers.delete(other) is False
    # a commit replaces the game's timers of the given kinds only
    result = await store.games.commit(
        g1,
        0,
        NewLogEntry.for_note("n", T),
        None,
        timers=[NewTimer(kind="deadline", due_at=T + timedelta(hours=3))],
        timer_kinds=["deadline"],
    )
    kinds = {t.kind: t for t in await store.timers.of_game(g1)}
    assert set(kinds) == {"deadline", "reminder"}
    assert kinds["deadline"].id == result.timer_ids[0] and kinds["deadline"].due_at == T + timedelta(hours=3)
    # all kinds when timer_kinds is None; None timers leave them alone
    await store.games.commit(g1, 1, NewLogEntry.for_note("n", T), None)
    assert len(await store.timers.of_game(g1)) == 2
    await store.games.commit(g1, 2, NewLogEntry.for_note("n", T), None, timers=[])
    assert await store.timers.of_game(g1) == []
    await store.timers.add(g1, [NewTimer(kind="a", due_at=T), NewTimer(kind="b", due_at=T)])
    assert await store.timers.clear(g1, kinds=["a"]) == 1
    assert await store.timers.clear(g1) == 1


async def test_outbox_round_trip(store: GameStore) -> None:
    gid = await started(store)
    (lobby_msg,) = await store.outbox.add(None, [NewOutbox(kind="post", target={"channel_id": 2}, payload={"t": 1})])
    result = await store.games.commit(
        gid,
        0,
        NewLogEntry.for_note("n", T),
        None,
        outbox=[
            NewOutbox(kind="post", target={"thread_id": 3}, payload={"text": "hi"}),
            NewOutbox(kind="dm", target={"user_id": 100}, payload={"text": "your hand"}),
        ],
    )
    assert len(result.outbox_ids) == 2
    pending = await store.outbox.undelivered()
    assert [o.id for o in pending] == [lobby_msg, *result.outbox_ids]  # oldest first
    assert pending[1].target == {"thread_id": 3} and pending[1].payload == {"text": "hi"}
    assert pending[0].game_id is None and pending[1].game_id == gid
    assert [o.id for o in await store.outbox.undelivered(game_id=gid, limit=1)] == result.outbox_ids[:1]
    assert await store.outbox.mark_failed(result.outbox_ids[0], "Discord is down") == 1
    assert await store.outbox.mark_failed(result.outbox_ids[0], "still down") == 2
    failed = await store.outbox.item(result.outbox_ids[0])
    assert (failed.attempts, failed.last_error, failed.delivered_at) == (2, "still down", None)
    # About to be tried: one write for several rows, the attempts not counted; a row's own error is kept.
    await store.outbox.mark_in_flight(result.outbox_ids, "in flight")
    assert (await store.outbox.item(result.outbox_ids[0])).last_error == "still down"
    marked = await store.outbox.item(result.outbox_ids[1])
    assert (marked.attempts, marked.last_error) == (0, "in flight")
    assert [o.id for o in await store.outbox.undelivered(max_attempts=2)] == [lobby_msg, result.outbox_ids[1]]
    status = MessageRef(message_id=555, channel_id=3, game_id=gid, kind="status")
    assert await store.outbox.mark_delivered(result.outbox_ids[0], refs=[status], now=T) is True
    assert await store.outbox.mark_delivered(result.outbox_ids[0], now=T + timedelta(days=1)) is False
    assert (await store.outbox.item(result.outbox_ids[0])).delivered_at == T
    assert await store.refs.get(555) == status
    assert [o.id for o in await store.outbox.undelivered()] == [lobby_msg, result.outbox_ids[1]]
    with pytest.raises(GameNotFound):
        await store.outbox.mark_delivered(9999)
    assert await store.outbox.prune(T) == 0
    assert await store.outbox.prune(T + timedelta(seconds=1)) == 1
    with pytest.raises(GameNotFound):
        await store.outbox.item(result.outbox_ids[0])


async def test_a_delivery_pass_marks_its_rows_and_stores_its_references_at_once(store: GameStore) -> None:
    """`mark_delivered_many`, as the notifier calls it: rows with the references they made, rows delivered already
    (left as they are), and references of a pass that delivered no row of its own (id None)."""
    gid = await started(store)
    a, b, c = (
        await store.games.commit(gid, 0, NewLogEntry.for_note("n", T), None, outbox=[NewOutbox(kind="post")] * 3)
    ).outbox_ids
    assert await store.outbox.mark_delivered(b, now=T)
    old = MessageRef(message_id=7, channel_id=3, game_id=gid, kind="status", created_at=T)
    await store.refs.put(old)
    new = MessageRef(message_id=8, channel_id=3, game_id=gid, kind="status", created_at=T)  # replaces the old one
    hand = MessageRef(message_id=9, channel_id=4, game_id=gid, kind="hand", seat=1, created_at=T)
    marks = [(a, [new]), (b, []), (None, [hand])]
    assert await store.outbox.mark_delivered_many(marks, now=T + timedelta(hours=1)) == 1  # type: ignore[list-item]
    assert [o.id for o in await store.outbox.undelivered()] == [c]
    assert (await store.outbox.item(a)).delivered_at == T + timedelta(hours=1)
    assert (await store.outbox.item(b)).delivered_at == T  # delivered before: left as it was
    assert await store.refs.get(7) is None
    assert await store.refs.of_game(gid) == [hand, new]


async def test_a_reference_keeps_its_interaction_token_until_it_expires(store: GameStore) -> None:
    """A message made with an interaction's token keeps it with its reference (read back by every lookup); each later
    write of references clears the tokens that have expired by then: the store holds none for longer."""
    gid = await started(store)
    expires = T + timedelta(minutes=15)
    made = MessageRef(
        message_id=5, channel_id=3, game_id=gid, kind="status", created_at=T, token="tok-5", token_expires=expires
    )
    answer = MessageRef(
        message_id=6, channel_id=3, game_id=gid, kind="offer", key="o", created_at=T, token="tok-6",
        token_expires=expires + timedelta(minutes=5),
    )  # fmt: skip
    assert "tok-5" not in repr(made)  # a credential: never in a log line that shows a reference
    await store.outbox.mark_delivered_many([(None, [made, answer])], now=T)
    assert await store.refs.get(5) == made
    assert await store.refs.find_many(gid, [("status", None, ""), ("offer", None, "o")]) == {
        ("status", None, ""): made,
        ("offer", None, "o"): answer,
    }
    hand = MessageRef(message_id=9, channel_id=4, game_id=gid, kind="hand", seat=1, created_at=T)
    await store.outbox.mark_delivered_many([(None, [hand])], now=expires)  # the next write: 5's token has expired
    assert (await store.refs.get(5)) == made.model_copy(update={"token": None, "token_expires": None})
    assert (await store.refs.get(6)) == answer


async def test_message_refs_round_trip(store: GameStore) -> None:
    gid = await started(store)
    status = MessageRef(message_id=1, channel_id=3, game_id=gid, kind="status", created_at=T)
    hand0 = MessageRef(message_id=2, channel_id=50, game_id=gid, kind="hand", seat=0, created_at=T)
    offer = MessageRef(message_id=3, channel_id=3, game_id=gid, kind="offer", seat=1, key="offer-7", created_at=T)
    for ref in (status, hand0, offer):
        await store.refs.put(ref)
    assert await store.refs.get(3) == offer
    assert await store.refs.find(gid, "status") == status
    assert await store.refs.find(gid, "hand", seat=0) == hand0
    assert await store.refs.find(gid, "hand", seat=1) is None
    assert await store.refs.find(gid, "offer", seat=1, key="offer-7") == offer
    # a new status message replaces the old reference
    new_status = MessageRef(message_id=10, channel_id=3, game_id=gid, kind="status", created_at=T)
    await store.refs.put(new_status)
    assert await store.refs.get(1) is None
    assert await store.refs.find(gid, "status") == new_status
    assert [r.message_id for r in await store.refs.of_game(gid)] == [2, 3, 10]
    assert [r.message_id for r in await store.refs.of_game(gid, kind="offer")] == [3]
    assert await store.refs.delete(3) is True
    assert await store.refs.delete(3) is False
    lone = MessageRef(message_id=20, channel_id=4, game_id=None, kind="help", created_at=T)
    await store.refs.put(lone)
    assert await store.refs.find(None, "help") == lone


async def test_guild_settings_round_trip(store: GameStore) -> None:
    assert await store.settings.guild(5) == GuildSettings(guild_id=5)
    saved = await store.settings.put_guild(
        GuildSettings(
            guild_id=5, moderator_role_id=99, turn_deadline=timedelta(hours=36), reaction_time=timedelta(minutes=15)
        ),
        now=T,
    )
    assert saved.updated_at == T
    assert await store.settings.guild(5) == saved
    cleared = await store.settings.put_guild(GuildSettings(guild_id=5, moderator_role_id=99), now=T)
    assert (await store.settings.guild(5)) == cleared
    assert (await store.settings.guild(5)).turn_deadline is None
    with pytest.raises(ValueError):
        GuildSettings(guild_id=5, turn_deadline=timedelta(0))
    zoned = await store.settings.put_guild(cleared.model_copy(update={"timezone": "Europe/Amsterdam"}), now=T)
    assert (await store.settings.guild(5)) == zoned and zoned.timezone == "Europe/Amsterdam"


async def test_quiet_hours_round_trip_per_person(store: GameStore) -> None:
    assert await store.settings.quiet_of([]) == {}
    assert await store.settings.quiet_of([1, 2]) == {}
    night = QuietHours(start=time(23, 0), end=time(8, 0), timezone="Europe/Berlin")
    lunch = QuietHours(start=time(12, 15), end=time(13, 45), timezone="Asia/Tokyo")
    await store.settings.set_quiet(1, night, now=T)
    await store.settings.set_quiet(2, lunch, now=T)
    assert await store.settings.quiet_of([1, 2, 3, 1]) == {1: night, 2: lunch}
    await store.settings.set_quiet(1, lunch, now=T)  # replaced, not added
    await store.settings.set_quiet(2, None, now=T)  # off
    assert await store.settings.quiet_of([1, 2]) == {1: lunch}


async def test_durability_is_full_by_default(db_path: Path) -> None:  # PostgreSQL's: tests/storage/test_postgres.py
    from storage import open_store
    from storage.sqlite import SQLiteStore

    for setting, code in ((None, 2), ("NORMAL", 1)):
        store = await (open_store(db_path) if setting is None else open_store(db_path, synchronous=setting))
        assert isinstance(store, SQLiteStore)
        assert await store.db.run(lambda c: c.execute("PRAGMA synchronous").fetchone()[0]) == code
        assert await store.db.run(lambda c: c.execute("PRAGMA journal_mode").fetchone()[0]) == "wal"
        await store.close()


async def test_timer_ids_are_never_reused_so_a_stale_delete_is_harmless(store: GameStore) -> None:
    gid = await started(store)
    first = await store.games.commit(gid, 0, NewLogEntry.for_note("n", T), None, timers=[NewTimer(kind="d", due_at=T)])
    second = await store.games.commit(gid, 1, NewLogEntry.for_note("n", T), None, timers=[NewTimer(kind="d", due_at=T)])
    assert second.timer_ids[0] > first.timer_ids[0]
    # the scheduler fired the first timer, its action was refused: deleting it must not touch the new one
    assert await store.timers.delete(first.timer_ids[0]) is False
    assert [t.id for t in await store.timers.of_game(gid)] == second.timer_ids
    assert await store.timers.delete(123456789) is False  # a game that does not exist


async def test_timers_must_match_the_kinds_they_replace(store: GameStore) -> None:
    gid = await started(store)
    with pytest.raises(InvalidOperation, match="timer_kinds"):
        await store.games.commit(
            gid, 0, NewLogEntry.for_note("n", T), None, timers=[NewTimer(kind="x", due_at=T)], timer_kinds=["y"]
        )


async def test_due_timers_across_many_games_in_order(store: GameStore) -> None:
    games = [await started(store) for _ in range(6)]
    expected = []
    for i, gid in enumerate(games):
        ids = await store.timers.add(
            gid,
            [
                NewTimer(kind="a", due_at=T + timedelta(minutes=10 * i)),
                NewTimer(kind="b", due_at=T + timedelta(minutes=10 * i + 5)),
                NewTimer(kind="c", due_at=T + timedelta(days=1)),
            ],
        )
        expected += [(T + timedelta(minutes=10 * i), ids[0]), (T + timedelta(minutes=10 * i + 5), ids[1])]
    expected.sort()
    until = T + timedelta(hours=2)
    assert [(t.due_at, t.id) for t in await store.timers.due(until)] == expected
    assert [(t.due_at, t.id) for t in await store.timers.due(until, limit=5)] == expected[:5]
    assert [(t.due_at, t.id) for t in await store.timers.due(T + timedelta(minutes=12))] == expected[:3]
    nxt = await store.timers.soonest()
    assert nxt is not None and (nxt.due_at, nxt.id) == expected[0]
    for gid in games:
        await store.timers.clear(gid)
    assert await store.timers.soonest() is None
    assert await store.timers.due(T + timedelta(days=9)) == []


async def test_a_game_that_is_over_has_no_timers(store: GameStore) -> None:
    finished = await started(store)
    await store.timers.add(finished, [NewTimer(kind="deadline", due_at=T)])
    await store.games.commit(finished, 0, NewLogEntry.for_note("the end", T), None, status="finished")
    assert await store.timers.of_game(finished) == []
    abandoned = await started(store)
    await store.timers.add(abandoned, [NewTimer(kind="deadline", due_at=T)])
    await store.games.update(abandoned, status="abandoned")
    assert await store.timers.of_game(abandoned) == []
    assert await store.timers.soonest() is None


async def test_starting_a_game_replaces_its_lobby_timers(store: GameStore) -> None:
    game = await store.games.create("toy")
    await store.timers.add(game.id, [NewTimer(kind="lobby-expiry", due_at=T)])
    assert [t.kind for t in await store.timers.of_game(game.id)] == ["lobby-expiry"]
    result = await store.games.start(
        game.id,
        seed=3,
        setup_at=T,
        seats=[NewSeat(seat=0), NewSeat(seat=1)],
        snapshot="{}",
        timers=[NewTimer(kind="deadline", due_at=T + timedelta(hours=1), payload={"a": 1})],
    )
    timers = await store.timers.of_game(game.id)
    assert [(t.id, t.kind, t.payload) for t in timers] == [(result.timer_ids[0], "deadline", {"a": 1})]


async def test_prune_deletes_only_delivered_rows_older_than_the_bound_in_batches(
    store: GameStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    import storage.sqlite.outbox

    monkeypatch.setattr(storage.sqlite.outbox, "_PRUNE_BATCH", 3)  # several batches for a handful of rows
    gid = await started(store)
    ids = await store.outbox.add(gid, [NewOutbox(kind="post", target={}, payload={"n": i}) for i in range(10)])
    old, recent, pending = ids[:7], ids[7:9], ids[9:]
    for i in old:
        await store.outbox.mark_delivered(i, now=T)
    for i in recent:
        await store.outbox.mark_delivered(i, now=T + timedelta(days=7))
    assert await store.outbox.prune(T + timedelta(days=6)) == len(old)
    for i in old:
        with pytest.raises(GameNotFound):
            await store.outbox.item(i)
    assert [(await store.outbox.item(i)).delivered_at for i in recent] == [T + timedelta(days=7)] * 2
    assert [o.id for o in await store.outbox.undelivered(game_id=gid)] == pending
    assert await store.outbox.prune(T + timedelta(days=6)) == 0


async def _steps_of(store: GameStore) -> list[int]:
    """A counter of the SQLite VM's steps on the store's connection (SQLite's own measure of the work a read does:
    a scan steps once per row, a look-up by key does not), set in the connection's thread."""
    steps = [0]

    def tick() -> int:
        steps[0] += 1
        return 0

    await store.db.run(lambda conn: conn.set_progress_handler(tick, 1))  # type: ignore[attr-defined]
    return steps


async def test_find_many_finds_the_references_of_the_keys_asked(store: GameStore) -> None:
    gid = await started(store)
    status = MessageRef(message_id=1, channel_id=3, game_id=gid, kind="status", created_at=T)
    hand1 = MessageRef(message_id=2, channel_id=50, game_id=gid, kind="hand", seat=1, created_at=T)
    lone = MessageRef(message_id=3, channel_id=4, game_id=None, kind="help", key="x", created_at=T)
    offer = MessageRef(message_id=4, channel_id=3, game_id=gid, kind="offer", key="7", created_at=T)
    for ref in (status, hand1, lone, offer):
        await store.refs.put(ref)
    wanted = [("status", None, ""), ("hand", 1, ""), ("hand", 0, ""), ("offer", None, "7"), ("offer", None, "8")]
    assert await store.refs.find_many(gid, wanted) == {
        ("status", None, ""): status,
        ("hand", 1, ""): hand1,
        ("offer", None, "7"): offer,
    }
    assert await store.refs.find_many(None, [("help", None, "x"), ("status", None, "")]) == {("help", None, "x"): lone}
    assert await store.refs.find_many(gid + 1, [("status", None, "")]) == {}
    assert await store.refs.find_many(gid, []) == {}


@pytest.mark.parametrize("backend", ["sqlite"])  # counts SQLite's own VM steps
async def test_find_many_reads_each_reference_by_key(store: GameStore) -> None:
    gid = await started(store)
    await store.refs.put(MessageRef(message_id=1, channel_id=3, game_id=gid, kind="status", created_at=T))

    async def work(held: int) -> tuple[int, int]:
        """(VM steps of find_many, of of_game) with `held` offer references besides the status."""
        offers = [
            MessageRef(message_id=100 + i, channel_id=3, game_id=gid, kind="offer", key=str(i)) for i in range(held)
        ]
        await store.outbox.mark_delivered_many([(None, offers)])
        steps = await _steps_of(store)
        await store.refs.find_many(gid, [("status", None, "")])
        by_key = steps[0]
        await store.refs.of_game(gid)
        await store.db.run(lambda conn: conn.set_progress_handler(None, 1))  # type: ignore[attr-defined]
        return by_key, steps[0] - by_key

    few, many = await work(10), await work(400)
    assert many[1] > 10 * few[1]  # reading all of them grows with the game...
    assert many[0] <= few[0] + 5  # ...the look-up by key does not


async def test_marking_rows_delivered_retires_references(store: GameStore) -> None:
    """A delivery pass's closing transaction stores the references it made and deletes those it retired."""
    gid = await started(store)
    result = await store.games.commit(
        gid, 0, NewLogEntry.for_note("n", T), None, outbox=[NewOutbox(kind="post", target={}, payload={})]
    )
    offer = MessageRef(message_id=7, channel_id=3, game_id=gid, kind="offer", key="1", created_at=T)
    window = MessageRef(message_id=8, channel_id=3, game_id=gid, kind="window", key="1", created_at=T)
    await store.refs.put(offer)
    status = MessageRef(message_id=9, channel_id=3, game_id=gid, kind="status", created_at=T)
    marked = await store.outbox.mark_delivered_many(
        [(result.outbox_ids[0], [status]), (None, [window])], now=T, retired=[offer.message_id]
    )
    assert marked == 1
    assert [r.message_id for r in await store.refs.of_game(gid)] == [9, 8]
    assert await store.refs.get(7) is None
    # Retiring alone is a transaction too; an unknown message id is no error.
    assert await store.outbox.mark_delivered_many([], retired=[8, 12345]) == 0
    assert [r.message_id for r in await store.refs.of_game(gid)] == [9]
