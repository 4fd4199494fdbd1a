"""The running bot as its features see it: `Host`, what a cog, a button, the notifier or the scheduler reaches
through `bot`.

`bot.client.BoardroomBot` builds, wires and starts it; every feature names this class instead (for its types only),
so that nothing but the entry point imports the client — the client imports every feature, and nothing imports
it back.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from discord.ext import commands

if TYPE_CHECKING:
    from bot.claims import Claims
    from bot.digest import Digests
    from bot.housekeeping import Housekeeper
    from bot.notifier import Notifier
    from bot.records import Recorder
    from bot.scheduler import Scheduler
    from bot.service import GameService
    from bot.settings import Settings
    from storage import GameStore


class Host(commands.Bot):
    """A discord.py bot with Boardroom's parts: its settings, clock, store, service and delivery."""

    settings: Settings
    clock: Callable[[], datetime]
    claims: Claims
    """This process's owner id and lease among several on one database (`bot.claims`)."""
    notifier: Notifier
    scheduler: Scheduler
    housekeeper: Housekeeper
    digests: Digests
    recorder: Recorder
    synced_commands: bool | None
    damaged_reported: set[int]
    """Games whose damaged data was logged (`bot.damage`)."""
    _store: GameStore | None
    _service: GameService

    @property
    def store(self) -> GameStore:
        if self._store is None:
            raise RuntimeError("the store is opened in setup_hook")
        return self._store

    @property
    def service(self) -> GameService:
        return self._service
