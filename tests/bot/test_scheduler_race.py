"""The scheduler never sleeps past a timer that a commit added while it was arming (from the review's
`test_scheduler_race`): a `poke()` that arrives while the pass is inside `_arm()` (awaiting `next_timer`) makes the
pass look again, instead of being lost and leaving a new 10-minute window to fire up to `max_sleep` (1 h) late."""

import asyncio
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

from bot.scheduler import Scheduler

T0 = datetime(2026, 1, 1, tzinfo=UTC)


async def test_a_poke_during_arm_is_not_lost() -> None:
    gate = asyncio.Event()
    timers = {"next": SimpleNamespace(due_at=T0 + timedelta(hours=24))}  # the turn deadline
    reads = 0

    class Timers:
        damaged_games: frozenset[int] = frozenset()

        async def due(self, now: datetime, limit: int = 50) -> list[object]:
            return []

        async def soonest(self) -> object:
            nonlocal reads
            reads += 1
            seen = timers["next"]  # read before the commit lands ...
            await gate.wait()  # ... and the answer comes back after it
            return seen

    scheduler = Scheduler(SimpleNamespace(store=SimpleNamespace(timers=Timers())), lambda: T0)  # type: ignore[arg-type]
    try:
        scheduler.poke()
        await asyncio.sleep(0)  # the pass starts and is now awaiting next_timer()
        await asyncio.sleep(0)
        assert reads == 1
        # A commit opens a 10-minute reaction window and pokes the scheduler.
        timers["next"] = SimpleNamespace(due_at=T0 + timedelta(minutes=10))
        scheduler.poke()
        gate.set()
        await asyncio.sleep(0.05)
        assert scheduler.alarm.handle is not None
        armed_in = scheduler.alarm.handle.when() - asyncio.get_running_loop().time()
        assert 590 <= armed_in <= 600, f"armed for {armed_in:.0f}s: the window's timer was missed"
        assert reads == 2
    finally:
        scheduler.close()


async def test_without_a_poke_one_arm_is_enough() -> None:
    reads = 0

    class Timers:
        damaged_games: frozenset[int] = frozenset()

        async def due(self, now: datetime, limit: int = 50) -> list[object]:
            return []

        async def soonest(self) -> object:
            nonlocal reads
            reads += 1
            return SimpleNamespace(due_at=T0 + timedelta(minutes=30))

    scheduler = Scheduler(SimpleNamespace(store=SimpleNamespace(timers=Timers())), lambda: T0)  # type: ignore[arg-type]
    try:
        scheduler.poke()
        await asyncio.sleep(0.05)
        assert reads == 1 and scheduler.alarm.handle is not None
        assert 1790 <= scheduler.alarm.handle.when() - asyncio.get_running_loop().time() <= 1800
    finally:
        scheduler.close()
