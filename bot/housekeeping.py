"""Chores that keep a long-running bot tidy, run every hour: idle lobbies closed, delivered outbox rows older than
`outbox_keep_days` deleted, the database backed up.

One `Alarm` (`bot.alarm`), re-armed after each pass (like the scheduler's), the first pass ten minutes after
start-up so that start-up itself stays quick. A pass closes every lobby nobody touched for `lobby_idle_days` and
makes an automatic backup when the last one is `backup_every_hours` old (or there is none yet). A failure is logged
and the next pass tries again; play never waits for a pass (the backup runs on its own connection and thread).
"""

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from bot.alarm import Alarm
from bot.backups import backups, make_backup, taken_at
from storage import StorageError

if TYPE_CHECKING:
    from bot.host import Host

log = logging.getLogger("boardroom.housekeeping")
FIRST_PASS = 600.0
EVERY = 3600.0


class Housekeeper:
    def __init__(self, bot: "Host", clock: Callable[[], datetime]) -> None:
        self.bot = bot
        self.clock = clock
        self.alarm = Alarm(self._pass)
        """One pass at a time, re-armed after each (`bot.alarm`)."""

    def start(self) -> None:
        self.alarm.closed = False
        self.alarm.arm_in(FIRST_PASS)

    def close(self) -> None:
        self.alarm.close()

    async def _pass(self) -> None:
        try:
            await self.run_once()
        except Exception:
            log.exception("housekeeping pass failed")
        finally:
            self.alarm.arm_in(EVERY)

    async def run_once(self) -> None:
        settings = self.bot.settings
        for done in await self.bot.service.lobby.close_idle_lobbies(timedelta(days=settings.lobby_idle_days)):
            await self.bot.notifier.flush(done.game_id)
        pruned = await self.bot.store.outbox.prune(self.clock() - timedelta(days=settings.outbox_keep_days))
        if pruned:
            log.info("pruned %d delivered outbox rows", pruned)
        if self.backup_due():
            try:
                await make_backup(self.bot.store, settings.backups, "auto", self.clock(), settings.backup_keep)
            except StorageError as exc:  # a complete message (a damaged database can't be backed up, e.g.)
                log.error("the automatic backup failed: %s; trying again in an hour", exc)
            except Exception:
                log.exception("the automatic backup failed; trying again in an hour")

    def backup_due(self) -> bool:
        every = self.bot.settings.backup_every_hours
        # PostgreSQL is backed up with its own tools (pg_dump: docs/postgres.md), not by the bot.
        if every <= 0 or self.bot.settings.database_url or str(self.bot.settings.database_path) == ":memory:":
            return False
        made = backups(self.bot.settings.backups, "auto")
        return not made or self.clock() - taken_at(made[-1]) >= timedelta(hours=every)
