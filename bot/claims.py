"""Who this process is among several bot processes on one database, its claims' lease, and the takeover of what a
process that died left claimed (issue 30, goal 3).

Each timer and outbox row is claimed by one process before it is fired or delivered (`store.timers.claim`,
`store.outbox.claim`); a commit's rows are born claimed by the process that committed them (`Games.commit(claim=…)`),
which delivers them behind its move. A claim holds for `lease` from when it is taken (`CLAIM_LEASE_SECONDS`, 60 s),
so a process that dies stalls its timers and deliveries for at most that long: then another one takes them over.

The owner id is the process's name (`PROCESS_NAME`), by default this host and its shards: stable across restarts,
so a process that comes back at once takes its own claims back at once instead of waiting out its lease (one
process: nothing changes for `make run`). Two processes on one database must have different names — and do, by
default, since each holds other shards.

`Takeover` is the one loop that looks for deliveries left behind (run by a sharded bot, one of several processes;
one process alone has no one to take over from): every half lease it flushes the games with
undelivered rows that no retry of this process is waiting on. `Notifier.flush` claims before delivering, so a
game whose rows a live process holds costs one empty claim and is left to that process; the rows of a dead one,
once its lease has run out, are taken over and delivered here. (A timer left behind needs no loop of its own: the
scheduler meets it as due, finds it held, and tries again when the lease ends: `bot.scheduler`.)
"""

import logging
import socket
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from bot.alarm import Alarm
from bot.notifier import MAX_ATTEMPTS
from storage import Claim

if TYPE_CHECKING:
    from bot.host import Host

log = logging.getLogger("boardroom.claims")


def default_owner(shard_ids: Sequence[int] | None) -> str:
    """This host and the shards it holds (all of them when not sharded): stable across a restart."""
    shards = "all" if shard_ids is None else ",".join(str(s) for s in sorted(shard_ids))
    return f"{socket.gethostname()}/shards:{shards}"


class Claims:
    """This process's claims: its owner id and lease, on the bot's clock."""

    def __init__(self, owner: str, lease: timedelta, clock: Callable[[], datetime], *, shared: bool = False) -> None:
        self.owner = owner
        self.lease = lease
        self.clock = clock
        self.shared = shared
        """Other processes may move this process's games (a sharded bot): what this process kept of a game since
        its last move is checked against the stored version before it is used to render (`bot.notifier`)."""

    def hold(self, now: datetime | None = None) -> Claim:
        """A claim taken now (or at `now`), held until the lease runs out."""
        return Claim(owner=self.owner, until=(now or self.clock()) + self.lease)


class Takeover:
    """Every half lease: deliver what other processes left claimed when they died (see the module docstring)."""

    def __init__(self, bot: "Host") -> None:
        self.bot = bot
        self.alarm = Alarm(self._pass)
        """One pass at a time, re-armed after each (`bot.alarm`)."""

    @property
    def every(self) -> float:
        return self.bot.claims.lease.total_seconds() / 2

    def start(self) -> None:
        self.alarm.closed = False
        self.alarm.arm_in(self.every)  # the first look a half lease after start-up, whose catch-up delivers the rest

    def close(self) -> None:
        self.alarm.close()

    async def _pass(self) -> None:
        try:
            await self.run_once()
        except Exception:
            log.exception("looking for deliveries left behind failed")
        finally:
            self.alarm.arm_in(self.every)

    async def run_once(self) -> int:
        """Flush every game with undelivered rows that no retry of ours waits for; returns how many were flushed."""
        notifier = self.bot.notifier
        games: list[int] = []
        for row in await self.bot.store.outbox.undelivered(max_attempts=MAX_ATTEMPTS, limit=1000):
            if row.game_id is not None and row.game_id not in games and row.game_id not in notifier.retries:
                games.append(row.game_id)
        for game_id in games:
            try:
                await notifier.flush(game_id)
            except Exception:
                log.exception("delivery of rows left behind failed", extra={"game": game_id})
        return len(games)
