"""One loop over the timers table: sleep until the soonest timer, fire what is due, sleep again.

There is no long-lived task: the scheduler keeps a single `loop.call_later` handle armed for the next due timer
(at most `max_sleep` ahead, so a changed wall clock is caught up with), and each wake-up runs one short task that
fires every due timer through `GameService.fire_timer` (the same lock and commit as a player's move; a deadline is
the wait's timeout action applied with actor None) and hands the result to the notifier. A commit that changes
timers calls `poke()`, which re-arms the handle; a poke that arrives while a pass is running (even while it is
arming) makes that pass look again before it ends, so no change of timers is ever missed. At start-up `start()`
runs at once, so overdue timers fire immediately. Paused games hold `frozen` timers due far in the future, which
never fire.
"""

import asyncio
import logging
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from bot.logs import game_logger

if TYPE_CHECKING:
    from bot.client import BoardroomBot

log = logging.getLogger("boardroom.scheduler")


class Scheduler:
    def __init__(self, bot: "BoardroomBot", clock: Callable[[], datetime], *, max_sleep: float = 3600.0) -> None:
        self.bot = bot
        self.clock = clock
        self.max_sleep = max_sleep
        self._handle: asyncio.TimerHandle | None = None
        self._task: asyncio.Task[Any] | None = None
        self._again = False
        self._closed = False
        self.fired = 0

    def start(self) -> None:
        self._closed = False
        self.poke()

    def close(self) -> None:
        self._closed = True
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def poke(self) -> None:
        """Timers changed (or it is time): fire what is due and re-arm."""
        if self._closed:
            return
        if self._task is not None and not self._task.done():
            self._again = True
            return
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        store = self.bot.store
        try:
            fired = 0
            while True:
                self._again = False
                due = await store.due_timers(self.clock(), limit=50)
                for timer in due:
                    if self._closed:
                        return
                    await self._fire(timer.id, timer.game_id)
                    fired += 1
                if fired >= 500:
                    # A game whose timeouts keep producing overdue waits must not starve the bot.
                    log.warning("fired %d timers in one pass; pausing a second", fired)
                    self._arm_in(1.0)
                    return
                if due or self._again:
                    continue
                await self._arm()
                # A poke while arming (a commit landing during `next_timer`) may have added a sooner timer than
                # the one just armed for: look again rather than sleep past it.
                if not self._again:
                    break
        except Exception:
            log.exception("scheduler pass failed; retrying in a minute")
            self._arm_in(60.0)

    async def _fire(self, timer_id: int, game_id: int) -> None:
        glog = game_logger(game_id, "boardroom.scheduler")
        try:
            done = await self.bot.service.fire_timer(timer_id, game_id)
            self.fired += 1
        except Exception:
            glog.exception("timer %s failed to fire; dropping it", timer_id)
            await self.bot.store.delete_timer(timer_id)
            return
        if done.outbox_ids:
            try:
                await self.bot.notifier.flush(game_id)
            except Exception:
                glog.exception("delivery after a timer failed")

    async def _arm(self) -> None:
        if self._closed:
            return
        nxt = await self.bot.store.next_timer()
        if nxt is None:
            if self._handle is not None:
                self._handle.cancel()
                self._handle = None
            return
        delay = (nxt.due_at - self.clock()).total_seconds()
        self._arm_in(min(max(delay, 0.0), self.max_sleep))

    def _arm_in(self, delay: float) -> None:
        if self._closed:
            return
        if self._handle is not None:
            self._handle.cancel()
        self._handle = asyncio.get_running_loop().call_later(delay, self._wake)

    def _wake(self) -> None:
        self._handle = None
        self.poke()
