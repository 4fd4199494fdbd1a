"""Claims with a lease (issue 30, goal 3): of several processes on one database, one fires a timer and one delivers
an outbox row; a process that died leaves its claims behind, and they are taken over once their lease has run out.

Each "process" is a store connection of its own (`store_factory`), so the claims meet in the database itself."""

import asyncio
from datetime import UTC, datetime, timedelta

from storage import Claim, GameStore, NewLogEntry, NewOutbox, NewSeat, NewTimer
from tests.conftest import StoreFactory

T = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
LEASE = timedelta(seconds=60)


def held(owner: str, at: datetime = T) -> Claim:
    return Claim(owner=owner, until=at + LEASE)


async def started(store: GameStore, timers: int = 0) -> int:
    game = await store.games.create("toy")
    await store.games.start(
        game.id,
        seed=1,
        setup_at=T,
        seats=[NewSeat(seat=0), NewSeat(seat=1)],
        snapshot='"s0"',
        timers=[NewTimer(kind="deadline", due_at=T + timedelta(minutes=n)) for n in range(timers)],
    )
    return game.id


def post(n: int) -> NewOutbox:
    return NewOutbox(kind="post", target={"to": "thread"}, payload={"texts": [f"m{n}"]})


async def test_a_timer_is_claimed_by_one_owner_until_its_lease_runs_out(store_factory: StoreFactory) -> None:
    a, b = await store_factory(), await store_factory()
    gid = await started(a, timers=2)
    first, second = [t.id for t in await a.timers.of_game(gid)]
    assert await a.timers.claim([first], held("A"), now=T) == [first]
    # B finds it held: it gets only the other one.
    assert await b.timers.claim([first, second], held("B"), now=T) == [second]
    # The owner claims again (a retry): its lease moves on.
    assert await a.timers.claim([first], held("A", T + LEASE / 2), now=T + LEASE / 2) == [first]
    assert await b.timers.claim([first], held("B", T + LEASE), now=T + LEASE) == []  # A's lease still runs
    # A died: once its lease has run out, B takes the timer over.
    later = T + LEASE * 1.5
    assert await b.timers.claim([first], held("B", later), now=later) == [first]
    assert await a.timers.claim([first], held("A", later), now=later) == []


async def test_a_timer_a_commit_replaced_is_not_claimed(store_factory: StoreFactory) -> None:
    a = await store_factory()
    gid = await started(a, timers=1)
    (old,) = [t.id for t in await a.timers.of_game(gid)]
    entry = NewLogEntry.for_action(0, {"type": "n"}, T)
    await a.games.commit(gid, 0, entry, '"s1"', timers=[NewTimer(kind="deadline", due_at=T)])
    (new,) = [t.id for t in await a.timers.of_game(gid)]
    assert await a.timers.claim([old, new], held("A"), now=T) == [new]
    # A deleted timer takes its claim with it; nothing is left to claim.
    assert await a.timers.delete(new)
    assert await a.timers.claim([new], held("B"), now=T) == []


async def test_owners_racing_for_timers_share_them_out(store_factory: StoreFactory) -> None:
    stores = [await store_factory() for _ in range(4)]
    gid = await started(stores[0], timers=20)
    ids = [t.id for t in await stores[0].timers.of_game(gid)]
    got = await asyncio.gather(*(s.timers.claim(ids, held(f"P{n}"), now=T) for n, s in enumerate(stores)))
    claimed = [i for part in got for i in part]
    assert sorted(claimed) == sorted(ids)  # every timer claimed, none twice


async def test_a_commits_rows_are_born_claimed_by_the_committing_process(store_factory: StoreFactory) -> None:
    a, b = await store_factory(), await store_factory()
    gid = await started(a)
    entry = NewLogEntry.for_action(0, {"type": "n"}, T)
    result = await a.games.commit(gid, 0, entry, '"s1"', outbox=[post(1), post(2)], claim=held("A"))
    # B reads back the game's rows for delivery: A holds them (it delivers them behind its move).
    assert await b.outbox.claim(held("B"), now=T, game_id=gid) == []
    # A reads back its own rows (a retry): they are its, unchanged.
    mine = await a.outbox.claim(held("A", T + LEASE / 2), now=T + LEASE / 2, game_id=gid)
    assert [r.id for r in mine] == result.outbox_ids
    # A died before marking them delivered: after the lease, B takes them over, A no longer has them.
    later = T + LEASE * 1.5
    taken = await b.outbox.claim(held("B", later), now=later, game_id=gid)
    assert [r.id for r in taken] == result.outbox_ids
    assert [r.payload for r in taken] == [{"texts": ["m1"]}, {"texts": ["m2"]}]
    assert await a.outbox.claim(held("A", later), now=later, game_id=gid) == []
    assert await b.outbox.mark_delivered_many([(i, []) for i in result.outbox_ids]) == 2
    assert await b.outbox.claim(held("B", later), now=later) == []


async def test_unclaimed_rows_go_to_one_of_the_owners_racing_for_them(store_factory: StoreFactory) -> None:
    stores = [await store_factory() for _ in range(4)]
    gid = await started(stores[0])
    ids = await stores[0].outbox.add(gid, [post(n) for n in range(30)], now=T)
    got = await asyncio.gather(*(s.outbox.claim(held(f"P{n}"), now=T, limit=10) for n, s in enumerate(stores)))
    claimed = [r.id for part in got for r in part]
    assert sorted(claimed) == ids and len(set(claimed)) == len(claimed)
    for part in got:
        assert [r.id for r in part] == sorted(r.id for r in part)  # oldest first


async def test_a_claim_respects_the_game_the_attempts_and_the_limit(store_factory: StoreFactory) -> None:
    a = await store_factory()
    g1, g2 = await started(a), await started(a)
    ids1 = await a.outbox.add(g1, [post(n) for n in range(3)], now=T)
    await a.outbox.add(g2, [post(9)], now=T)
    await a.outbox.mark_failed(ids1[0], "boom")
    assert [r.id for r in await a.outbox.claim(held("A"), now=T, game_id=g1, max_attempts=1)] == ids1[1:]
    assert [r.id for r in await a.outbox.claim(held("A"), now=T, game_id=g1, limit=2)] == ids1[:2]
    assert len(await a.outbox.claim(held("A"), now=T)) == 4
    # Rows marked delivered are nobody's to claim.
    await a.outbox.mark_delivered_many([(i, []) for i in ids1])
    assert [r.game_id for r in await a.outbox.claim(held("B"), now=T + LEASE)] == [g2]
