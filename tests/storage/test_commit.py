"""The commit: one transaction (log, snapshot, version, timers, outbox — all or nothing), optimistic concurrency,
and many tasks (and several connections) committing to one game at once."""

import asyncio
import json
import random
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import asyncpg
import pytest

from storage import (
    GameNotFound,
    GameStore,
    InvalidOperation,
    NewLogEntry,
    NewOutbox,
    NewSeat,
    NewTimer,
    StaleVersion,
    StorageError,
    open_store,
)

T = datetime(2025, 5, 1, 12, 0, tzinfo=UTC)


async def started(store: GameStore) -> int:
    game = await store.games.create("toy")
    await store.games.start(game.id, seed=1, setup_at=T, seats=[NewSeat(seat=0), NewSeat(seat=1)], snapshot='"s0"')
    return game.id


def action(n: int) -> NewLogEntry:
    return NewLogEntry.for_action(n % 2, {"type": "n", "n": n}, T + timedelta(seconds=n))


async def test_commit_writes_everything_and_bumps_the_version(store: GameStore) -> None:
    gid = await started(store)
    result = await store.games.commit(
        gid,
        0,
        action(0),
        '"s1"',
        timers=[NewTimer(kind="deadline", due_at=T + timedelta(days=1))],
        outbox=[NewOutbox(kind="post", payload={"text": "a"}), NewOutbox(kind="dm", payload={"text": "b"})],
    )
    assert result.version == 1 and len(result.outbox_ids) == 2 and len(result.timer_ids) == 1
    assert (await store.games.get(gid)).version == 1
    assert (await store.games.snapshot(gid)).state == '"s1"'
    assert [e.seq for e in await store.log.entries(gid)] == [1]
    assert [t.id for t in await store.timers.of_game(gid)] == result.timer_ids
    assert [o.id for o in await store.outbox.undelivered(game_id=gid)] == result.outbox_ids


async def test_a_stale_commit_is_refused_and_changes_nothing(store: GameStore) -> None:
    gid = await started(store)
    await store.games.commit(gid, 0, action(0), '"s1"')
    with pytest.raises(StaleVersion) as err:
        await store.games.commit(gid, 0, action(1), '"other"', outbox=[NewOutbox(kind="post")], timers=[])
    assert (err.value.expected, err.value.actual) == (0, 1)
    assert (await store.games.snapshot(gid)).state == '"s1"'
    assert len(await store.log.entries(gid)) == 1
    assert await store.outbox.undelivered() == []
    with pytest.raises(StaleVersion):
        await store.games.commit(gid, 5, action(1), '"ahead"')  # a version from the future is stale too


async def test_a_commit_clears_the_movers_missed_deadlines_with_the_move_only(store: GameStore) -> None:
    gid = await started(store)
    await store.seats.update(gid, 0, missed=2)
    await store.seats.update(gid, 1, missed=1)
    with pytest.raises(StaleVersion):
        await store.games.commit(gid, 5, action(0), '"s1"', clear_missed=0)
    assert [s.missed for s in await store.seats.of_game(gid)] == [2, 1]  # a refused commit clears nothing
    await store.games.commit(gid, 0, action(0), '"s1"', clear_missed=0)
    assert [s.missed for s in await store.seats.of_game(gid)] == [0, 1]  # only the seat named
    await store.games.commit(gid, 1, action(1), '"s2"')
    assert [s.missed for s in await store.seats.of_game(gid)] == [0, 1]  # and only when asked


async def test_commit_refusals(store: GameStore) -> None:
    with pytest.raises(GameNotFound):
        await store.games.commit(999, 0, action(0), '"x"')
    lobby = await store.games.create("toy")
    with pytest.raises(InvalidOperation, match="not started"):
        await store.games.commit(lobby.id, 0, action(0), '"x"')
    gid = await started(store)
    with pytest.raises(InvalidOperation, match="earlier entry"):
        await store.games.commit(gid, 0, NewLogEntry.for_undo(1, T), '"x"')
    with pytest.raises(InvalidOperation, match="state it goes back to"):
        await store.games.commit(gid, 0, NewLogEntry.for_undo(0, T), None)
    with pytest.raises(InvalidOperation, match="new state"):
        await store.games.commit(gid, 0, action(0), None)
    with pytest.raises(InvalidOperation, match="lobby"):
        await store.games.commit(gid, 0, action(0), '"x"', status="lobby")
    assert (await store.games.get(gid)).version == 0


async def test_status_change_with_a_commit(store: GameStore) -> None:
    gid = await started(store)
    await store.games.commit(gid, 0, action(0), '"end"', status="finished")
    over = await store.games.get(gid)
    assert over.status == "finished" and over.finished_at is not None
    await store.games.commit(gid, 1, NewLogEntry.for_undo(0, T), '"s0"', status="active")
    back = await store.games.get(gid)
    assert back.status == "active" and back.finished_at is None


async def _fail_outbox_inserts(backend: str, target: str | Path) -> None:
    """Make the database refuse an outbox row of kind 'boom' (the last step of a commit), behind the store's back."""
    if backend == "sqlite":
        with sqlite3.connect(target) as conn:
            conn.execute(
                "CREATE TRIGGER test_fail BEFORE INSERT ON outbox WHEN NEW.kind = 'boom'"
                " BEGIN SELECT RAISE(ABORT, 'injected failure'); END"
            )
        return
    conn = await asyncpg.connect(str(target))
    try:
        await conn.execute(
            "CREATE FUNCTION test_fail() RETURNS trigger LANGUAGE plpgsql AS"
            " $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$;"
            " CREATE TRIGGER test_fail BEFORE INSERT ON outbox FOR EACH ROW WHEN (NEW.kind = 'boom')"
            " EXECUTE FUNCTION test_fail();"
        )
    finally:
        await conn.close()


async def _drop_failure(backend: str, target: str | Path) -> None:
    if backend == "postgres":  # the database outlives the test (it is emptied, not dropped)
        conn = await asyncpg.connect(str(target))
        try:
            await conn.execute("DROP TRIGGER test_fail ON outbox; DROP FUNCTION test_fail()")
        finally:
            await conn.close()


async def test_a_commit_failing_midway_leaves_nothing_behind(
    store: GameStore, backend: str, target: str | Path
) -> None:
    gid = await started(store)
    await store.timers.add(gid, [NewTimer(kind="deadline", due_at=T)])
    await _fail_outbox_inserts(backend, target)
    try:
        await _commit_failing_midway(store, gid)
    finally:
        await _drop_failure(backend, target)


async def _commit_failing_midway(store: GameStore, gid: int) -> None:
    with pytest.raises(StorageError, match="injected failure"):
        await store.games.commit(
            gid,
            0,
            action(0),
            '"s1"',
            status="finished",
            timers=[NewTimer(kind="deadline", due_at=T + timedelta(hours=5))],
            outbox=[NewOutbox(kind="post"), NewOutbox(kind="boom")],
        )
    game = await store.games.get(gid)
    assert (game.version, game.status) == (0, "active")
    assert (await store.games.snapshot(gid)).state == '"s0"'
    assert await store.log.entries(gid) == []
    assert [t.due_at for t in await store.timers.of_game(gid)] == [T]
    assert await store.outbox.undelivered() == []
    # and the store is still usable: the next commit at version 0 goes through
    assert (await store.games.commit(gid, 0, action(0), '"s1"')).version == 1


async def test_many_tasks_same_version_exactly_one_wins(store: GameStore) -> None:
    gid = await started(store)
    for version in range(5):
        results = await asyncio.gather(
            *(store.games.commit(gid, version, action(100 * version + i), f'"{version}-{i}"') for i in range(20)),
            return_exceptions=True,
        )
        winners = [r for r in results if not isinstance(r, BaseException)]
        losers = [r for r in results if isinstance(r, BaseException)]
        assert len(winners) == 1 and winners[0].version == version + 1
        assert len(losers) == 19 and all(isinstance(e, StaleVersion) for e in losers)
    assert [e.seq for e in await store.log.entries(gid)] == [1, 2, 3, 4, 5]


async def _worker(store: GameStore, gid: int, commits: int, seed: int, won: list[int]) -> None:
    rnd = random.Random(seed)
    done = 0
    while done < commits:
        snap = await store.games.snapshot(gid)
        await asyncio.sleep(rnd.random() * 0.002)  # think a little, so others overtake
        n = int(snap.state) + 1
        try:
            result = await store.games.commit(gid, snap.version, action(n), str(n))
        except StaleVersion:
            continue
        won.append(result.version)
        done += 1


async def test_many_tasks_racing_with_retries_leave_a_gapless_log(store: GameStore) -> None:
    gid = await started(store)
    await store.games.commit(gid, 0, action(0), "0")
    won: list[int] = []
    await asyncio.gather(*(_worker(store, gid, 8, seed, won) for seed in range(25)))
    total = 1 + 25 * 8
    assert sorted(won) == list(range(2, total + 1))  # every version won exactly once
    log = await store.log.entries(gid)
    assert [e.seq for e in log] == list(range(1, total + 1))
    # each commit built on the state it read: the counter in the snapshot counts every commit
    assert (await store.games.snapshot(gid)).state == str(total - 1)
    assert [e.action["n"] for e in log if e.action] == list(range(total))  # type: ignore[index]


async def test_two_connections_racing_keep_exactly_one_commit_per_version(target: str | Path) -> None:
    a = await open_store(target)
    b = await open_store(target)
    try:
        gid = await started(a)
        await a.games.commit(gid, 0, action(0), "0")
        won: list[int] = []
        await asyncio.gather(*(_worker(s, gid, 10, seed, won) for seed, s in enumerate([a, b, a, b, a, b])))
        assert sorted(won) == list(range(2, 62))
        assert [e.seq for e in await b.log.entries(gid)] == list(range(1, 62))
        assert (await a.games.snapshot(gid)).state == "60"
        assert await a.maintenance.check_integrity() == []
    finally:
        await a.close()
        await b.close()


async def test_snapshots_come_back_exactly_whatever_their_size(store: GameStore, backend: str, db_path: Path) -> None:
    """A commit pads the stored snapshot to keep the game's row the same size (storage.sqlite, _SLOT_STEP); what
    get_snapshot returns is exactly what was committed, and the stored column stays valid JSON. (PostgreSQL keeps
    the text as committed.)"""
    gid = await started(store)
    sizes = [10, 40, 900, 1500, 1400, 3000, 2990, 6000, 20, 5000, 5001, 100]
    for version, size in enumerate(sizes):
        state = json.dumps({"v": version, "pad": "ü€" * (size // 2) if version % 3 == 0 else "x" * size})
        timers = [NewTimer(kind="deadline", due_at=T + timedelta(minutes=version), payload={"n": "é" * version})]
        await store.games.commit(gid, version, action(version), state, timers=timers)
        snap = await store.games.snapshot(gid)
        assert (snap.version, snap.state) == (version + 1, state)
        if backend == "sqlite":
            with sqlite3.connect(db_path) as conn:
                (stored,) = conn.execute("SELECT state FROM games WHERE id = ?", (gid,)).fetchone()
            assert json.loads(stored) == json.loads(state)
    await store.games.commit(gid, len(sizes), action(99), '"done"  ', status="finished")
    assert (await store.games.snapshot(gid)).state == '"done"'  # trailing spaces are not part of the JSON
    assert await store.maintenance.check_integrity() == []


@pytest.mark.parametrize("backend", ["sqlite"])  # SQLite's row layout
async def test_a_game_row_keeps_its_size_while_the_state_changes_a_little(store: GameStore, db_path: Path) -> None:
    """The point of the padding: state + timers fill the same slot from one commit to the next, so SQLite rewrites
    the row in place instead of freeing and reallocating its overflow pages."""
    gid = await started(store)

    def stored_size() -> int:
        with sqlite3.connect(db_path) as conn:
            return conn.execute(
                "SELECT length(CAST(state AS BLOB)) + length(CAST(timers AS BLOB)) FROM games WHERE id = ?", (gid,)
            ).fetchone()[0]

    sizes = []
    for version, size in enumerate([4100, 4150, 4090, 4300, 3900, 4200]):
        timers = [NewTimer(kind="deadline", due_at=T + timedelta(hours=version))]
        await store.games.commit(gid, version, action(version), json.dumps({"x": "y" * size}), timers=timers)
        sizes.append(stored_size())
    assert len(set(sizes)) == 1 and sizes[0] >= 4300
    await store.games.commit(gid, 6, action(6), json.dumps({"x": "y" * 9000}), timers=[])
    assert stored_size() >= 9000  # outgrown: a bigger slot


async def test_the_next_timer_is_right_whether_or_not_a_commit_moves_the_soonest_due_time(store: GameStore) -> None:
    """A commit leaves the scheduler's index alone when the soonest due time stays (a page less to write)."""
    gid = await started(store)
    other = await started(store)
    await store.timers.add(other, [NewTimer(kind="deadline", due_at=T + timedelta(hours=5))])

    async def commit_timers(version: int, *dues: timedelta) -> list[int]:
        timers = [NewTimer(kind=f"t{i}", due_at=T + d) for i, d in enumerate(dues)]
        return (await store.games.commit(gid, version, action(version), f'"{version}"', timers=timers)).timer_ids

    first = await commit_timers(0, timedelta(hours=1), timedelta(hours=2))
    same = await commit_timers(1, timedelta(hours=1), timedelta(hours=3))  # the soonest stays at one hour
    nxt = await store.timers.soonest()
    assert nxt is not None and (nxt.id, nxt.game_id, nxt.due_at) == (same[0], gid, T + timedelta(hours=1))
    assert not set(first) & {t.id for t in await store.timers.of_game(gid)}
    assert [t.id for t in await store.timers.due(T + timedelta(hours=3))] == same
    later = await commit_timers(2, timedelta(hours=7))  # now the other game's timer comes first
    nxt = await store.timers.soonest()
    assert nxt is not None and nxt.game_id == other
    assert [t.id for t in await store.timers.due(T + timedelta(hours=6))] == [nxt.id]
    assert [t.id for t in await store.timers.due(T + timedelta(hours=7))] == [nxt.id, *later]
    await commit_timers(3)
    assert [t.game_id for t in await store.timers.due(T + timedelta(days=1))] == [other]


async def test_outbox_ids_stay_unique_after_everything_was_delivered(store: GameStore) -> None:
    gid = await started(store)
    first = (await store.games.commit(gid, 0, action(0), '"1"', outbox=[NewOutbox(kind="post")] * 3)).outbox_ids
    for outbox_id in first:
        assert await store.outbox.mark_delivered(outbox_id)
    assert await store.outbox.undelivered() == []  # the pending table is empty: its own largest id says nothing
    many = (await store.games.commit(gid, 1, action(1), '"2"', outbox=[NewOutbox(kind="dm")] * 450)).outbox_ids
    assert many == list(range(max(first) + 1, max(first) + 451))
    assert [o.id for o in await store.outbox.undelivered(limit=1000)] == many
    assert (await store.outbox.item(first[0])).delivered_at is not None
