"""One loop over the timers table: sleep until the soonest timer, fire what is due, sleep again.

There is no long-lived task: the scheduler keeps a single `loop.call_later` handle armed for the next due timer
(at most `max_sleep` ahead, so a changed wall clock is caught up with), and each wake-up runs one short task that
fires every due timer through `GameClock.fire_timer` (the same lock and commit as a player's move; a deadline is
the wait's timeout action applied with actor None) and hands the result to the notifier. A commit that changes
timers calls `poke()`, which re-arms the handle; a poke that arrives while a pass is running (even while it is
arming) makes that pass look again before it ends, so no change of timers is ever missed. At start-up `start()`
runs at once, so overdue timers fire immediately (except those of games `held` until start-up has caught up with
them: see `bot.client`). Paused games hold `frozen` timers due far in the future, which never fire.

A timer that fails to fire (e.g. the database stays locked by another writer past its busy timeout) is never
dropped: it stays in the database, and this process retries it with back-off (5 s, doubling, at most 5 minutes)
while the other timers go on firing. After `REPORT_AFTER` failures in a row the game's creator and its table are
told once (moderators read the thread), and the retries go on; a restart retries it at once, since it is still
in the database. A game whose data is damaged (SQLite finds its row malformed) is left out of the store's timer
scans (`store.timers.damaged_games`) and said once in the log (`bot.damage`): its timers can't fire, the others' do.

Several processes on one database: a due timer is claimed before it fires (`store.timers.claim`, with this
process's owner id and lease: `bot.claims`), so it fires in one process. One another live process holds is left to
it (`elsewhere`) and looked at again when that claim's lease would have run out: fired by then (gone), or taken
over from a process that died. Firing checks again under the game's lock (`GameClock.fire_timer`): a timer a
commit replaced is gone, and one deleted by someone else does not act.
"""

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from bot import damage
from bot.alarm import Alarm
from bot.logs import game_logger
from storage import TimerRecord

if TYPE_CHECKING:
    from bot.host import Host

log = logging.getLogger("boardroom.scheduler")
REPORT_AFTER = 3


@dataclass
class Failing:
    """A timer that failed to fire: how often in a row, and when (loop time) to try it again."""

    attempts: int
    retry_at: float


class Scheduler:
    def __init__(
        self,
        bot: "Host",
        clock: Callable[[], datetime],
        *,
        max_sleep: float = 3600.0,
        backoff: float = 5.0,
        max_backoff: float = 300.0,
    ) -> None:
        self.bot = bot
        self.clock = clock
        self.max_sleep = max_sleep
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.failing: dict[int, Failing] = {}
        """Timers that failed to fire, by id: skipped until their retry time, never deleted."""
        self.reported: set[int] = set()
        """Games whose failing timers were reported (once, until one of their timers fires again)."""
        self.alarm = Alarm(self._run, closed=False)
        """Runs one pass at a time, when poked or when the soonest timer is due (`bot.alarm`)."""
        self.fired = 0
        self.held: set[int] = set()
        """Games whose due timers wait (at start-up, until the game is caught up with: `bot.client._catch_up`)."""
        self.elsewhere: dict[int, datetime] = {}
        """Due timers another live process holds (its claim), by id: left to it until (this clock's time) its lease
        would have run out, then claimed again — taken over if that process died."""

    def hold(self, game_ids: set[int]) -> None:
        self.held |= game_ids

    def release(self, game_id: int) -> None:
        if game_id in self.held:
            self.held.discard(game_id)
            self.poke()

    def release_all(self) -> None:
        if self.held:
            self.held.clear()
            self.poke()

    def start(self) -> None:
        self.alarm.start()

    def close(self) -> None:
        self.alarm.close()

    def poke(self) -> None:
        """Timers changed (or it is time): fire what is due and re-arm."""
        self.alarm.poke()

    async def _run(self) -> None:
        store = self.bot.store
        try:
            fired = 0
            while True:
                self.alarm.again = False
                due = await store.timers.due(self.clock(), limit=50 + len(self.failing) + len(self.elsewhere))
                damage.report_skipped(self.bot)  # their timers were left out: said once, the others fire
                for timer_id in set(self.failing) - {t.id for t in due}:
                    if not self._waiting(timer_id):
                        del self.failing[timer_id]  # no longer due: a commit replaced or removed it
                for timer_id in set(self.elsewhere) - {t.id for t in due}:
                    del self.elsewhere[timer_id]  # fired by the process that held it (or replaced)
                due = [t for t in due if not self._waiting(t.id) and t.game_id not in self.held]
                due = await self._claim(due)
                for timer in due:
                    if self.alarm.closed:
                        return
                    await self._fire(timer.id, timer.game_id)
                    fired += 1
                if fired >= 500:
                    # A game whose timeouts keep producing overdue waits must not starve the bot.
                    log.warning("fired %d timers in one pass; pausing a second", fired)
                    self.alarm.arm_in(1.0)
                    return
                if due or self.alarm.again:
                    continue
                await self._arm()
                # A poke while arming (a commit landing during `next_timer`) may have added a sooner timer than
                # the one just armed for: look again rather than sleep past it.
                if not self.alarm.again:
                    break
        except Exception:
            log.exception("scheduler pass failed; retrying in a minute")
            self.alarm.arm_in(60.0)

    async def _claim(self, due: list[TimerRecord]) -> list[TimerRecord]:
        """The due timers this process may fire: those it claims now (`store.timers.claim`). Those another live
        process holds are left to it (`elsewhere`) until its lease would have run out."""
        now = self.clock()
        for timer_id, until in list(self.elsewhere.items()):
            if until <= now:
                del self.elsewhere[timer_id]
        if not due:
            return due
        claims = self.bot.claims
        mine = set(await self.bot.store.timers.claim([t.id for t in due], claims.hold(now), now=now))
        for timer in due:
            if timer.id not in mine:
                self.elsewhere[timer.id] = now + claims.lease
        return [t for t in due if t.id in mine]

    async def _fire(self, timer_id: int, game_id: int) -> None:
        glog = game_logger(game_id, "boardroom.scheduler")
        try:
            done = await self.bot.service.clock.fire_timer(timer_id, game_id)
            self.fired += 1
        except Exception as exc:
            await self._failed(timer_id, game_id, exc)
            return
        self.failing.pop(timer_id, None)
        self.reported.discard(game_id)
        if done.outbox_ids:
            try:
                await self.bot.notifier.flush(game_id)
            except Exception:
                glog.exception("delivery after a timer failed")

    def _waiting(self, timer_id: int) -> bool:
        if timer_id in self.elsewhere and self.elsewhere[timer_id] > self.clock():
            return True
        failing = self.failing.get(timer_id)
        return failing is not None and failing.retry_at > asyncio.get_running_loop().time()

    async def _failed(self, timer_id: int, game_id: int, exc: Exception) -> None:
        """Keep the timer and try it again later; tell people once when it keeps failing."""
        glog = game_logger(game_id, "boardroom.scheduler")
        failing = self.failing.get(timer_id) or Failing(attempts=0, retry_at=0.0)
        failing.attempts += 1
        delay = min(self.backoff * 2 ** (failing.attempts - 1), self.max_backoff)
        failing.retry_at = asyncio.get_running_loop().time() + delay
        self.failing[timer_id] = failing
        glog.warning(
            "timer %s failed to fire (%s: %s); retrying in %.0f s",
            timer_id,
            type(exc).__name__,
            exc,
            delay,
            extra={"fields": {"attempts": failing.attempts}},
            exc_info=failing.attempts == 1,
        )
        if failing.attempts >= REPORT_AFTER and game_id not in self.reported:
            self.reported.add(game_id)
            glog.error("timer %s keeps failing to fire; reporting it", timer_id)
            try:
                await self.bot.notifier.report_stuck_timer(game_id, failing.attempts)
            except Exception:
                glog.exception("could not report the failing timer")

    async def _arm(self) -> None:
        if self.alarm.closed:
            return
        if not self.failing and not self.held and not self.elsewhere:
            nxt = await self.bot.store.timers.soonest()
            damage.report_skipped(self.bot)
            if nxt is None:
                self.alarm.disarm()
                return
            delay = (nxt.due_at - self.clock()).total_seconds()
            self.alarm.arm_in(min(max(delay, 0.0), self.max_sleep))
            return
        # Failing timers are overdue but wait for their retry: arm for the sooner of their retries and the first
        # timer that is not failing (every other overdue timer was fired by the pass that is ending).
        # Held games' timers wait for their release, which pokes.
        now = self.clock()
        soon = await self.bot.store.timers.due(
            now + timedelta(seconds=self.max_sleep),
            limit=len(self.failing) + len(self.held) * 8 + len(self.elsewhere) + 1,
        )
        loop_now = asyncio.get_running_loop().time()
        delays = [f.retry_at - loop_now for f in self.failing.values()]
        delays += [(until - now).total_seconds() for until in self.elsewhere.values()]
        fresh = next(
            (t for t in soon if t.id not in self.failing and t.id not in self.elsewhere and t.game_id not in self.held),
            None,
        )
        if fresh is not None:
            delays.append((fresh.due_at - now).total_seconds())
        self.alarm.arm_in(min(max(min(delays, default=self.max_sleep), 0.0), self.max_sleep))
