"""One pass at a time, woken when asked or when it is due: what the timer scheduler (`bot.scheduler`) and the digest
loop (`bot.digest`) share.

An `Alarm` runs its pass as one short task. `poke` starts it, or — while it runs — marks `again`, which the pass
reads before it ends (so a change that lands during a pass is never slept through). The pass re-arms the alarm
with `arm_in(seconds)`: a single `loop.call_later` handle, moved only ever sooner, whose wake-up pokes. `close`
stops it for good (a pass in flight checks `closed` between its steps).
"""

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any


class Alarm:
    def __init__(self, run: Callable[[], Awaitable[Any]], *, closed: bool = True) -> None:
        self._run = run
        self.handle: asyncio.TimerHandle | None = None
        """The armed wake-up, if any."""
        self.task: asyncio.Task[Any] | None = None
        """The pass running or last run."""
        self.again = False
        """Poked while the pass ran: the pass looks again before it ends."""
        self.closed = closed

    def start(self) -> None:
        self.closed = False
        self.poke()

    def close(self) -> None:
        self.closed = True
        self.disarm()

    def poke(self) -> None:
        """Something changed (or it is time): run the pass, or have the running one look again."""
        if self.closed:
            return
        if self.task is not None and not self.task.done():
            self.again = True
            return
        self.task = asyncio.get_running_loop().create_task(self._run())

    def arm_in(self, delay: float) -> None:
        """Wake up (poke) in `delay` seconds — or sooner, if already armed for sooner.

        A wake-up armed for sooner is kept: a pass is always safe to run early (it finds nothing due and arms again),
        while replacing a handle at every commit leaves a cancelled one behind each time — asyncio sweeps those
        only in bulk, and SimCord's real-time fallback of a virtual timer stays scheduled after its timer is
        cancelled, so a long test game piled up thousands and every settle scanned them all."""
        if self.closed:
            return
        loop = asyncio.get_running_loop()
        if self.handle is not None and not self.handle.cancelled() and self.handle.when() <= loop.time() + delay:
            return
        self.disarm()
        self.handle = loop.call_later(delay, self._wake)

    def disarm(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None

    def _wake(self) -> None:
        self.handle = None
        self.poke()
