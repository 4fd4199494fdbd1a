"""The daily digest (`/me digest at:08:00 timezone:Europe/Berlin`): one DM a day, at the hour the player chose in
their own time zone, listing what waits on them in every server (`bot.mine`) — sent only when something waits.

A digest is a person's, not a game's: it is kept with their delivery choices (`player_delivery.digest_next`, the
next run in UTC, indexed), not among the games' timers, and this loop fires it. Like the scheduler it keeps a single
`loop.call_later` handle, armed for the soonest run (at most `max_sleep` ahead, so a changed wall clock is caught up
with); `/me digest` pokes it. At start-up it runs at once, so a run missed while the bot was down is sent then (once,
however many days were missed), and the next one is at the chosen hour.

Never twice: a run is claimed before it is sent by moving `digest_next` on to the next day in one compare-and-set
statement (`store.settings.claim_digest`), so only one process (or one pass) ever sends it, across restarts too. A
crash between the claim and the DM loses that day's digest rather than sending it twice (as for a reminder, which
is deleted before its messages go out). A player whose DMs are closed simply gets no digest; the log says so.
"""

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

import discord

from bot.alarm import Alarm
from bot.i18n import speaking
from bot.local_time import BadInput, next_local, parse_time_of_day, parse_zone
from bot.mine import digest_text, waiting_on
from bot.names import NO_MENTIONS
from storage import PlayerDelivery

if TYPE_CHECKING:
    from bot.host import Host

log = logging.getLogger("boardroom.digest")
BATCH = 100


def next_run(delivery: PlayerDelivery, after: datetime) -> datetime | None:
    """The person's next digest strictly after `after` (None: no digest, or one that can no longer be read)."""
    if delivery.digest_at is None or delivery.digest_zone is None:
        return None
    try:
        return next_local(parse_time_of_day(delivery.digest_at), parse_zone(delivery.digest_zone), after)
    except BadInput:
        return None


class Digests:
    """The digest loop (see the module docstring); `sent` and `skipped` count its runs (nothing waited: no DM)."""

    def __init__(self, bot: "Host", clock: Callable[[], datetime], *, max_sleep: float = 3600.0) -> None:
        self.bot = bot
        self.clock = clock
        self.max_sleep = max_sleep
        self.alarm = Alarm(self._run)
        """Runs one pass at a time, when poked or when the soonest digest is due (`bot.alarm`)."""
        self.sent = 0
        self.skipped = 0

    def start(self) -> None:
        self.alarm.start()

    def close(self) -> None:
        self.alarm.close()

    def poke(self) -> None:
        """A digest changed (or it is time): send what is due and re-arm."""
        self.alarm.poke()

    async def _run(self) -> None:
        try:
            while True:
                self.alarm.again = False
                due = await self.bot.store.settings.due_digests(self.clock(), limit=BATCH)
                for delivery in due:
                    if self.alarm.closed:
                        return
                    await self._fire(delivery)
                if len(due) < BATCH and not self.alarm.again:
                    break
            await self._arm()
        except Exception:
            log.exception("digest pass failed; retrying in a minute")
            self.alarm.arm_in(60.0)

    async def _fire(self, delivery: PlayerDelivery) -> None:
        assert delivery.digest_next is not None
        now = self.clock()
        following = next_run(delivery, now) or now + timedelta(days=1)
        if not await self.bot.store.settings.claim_digest(delivery.player_id, delivery.digest_next, following):
            return  # claimed by another pass or process, or changed by the player meanwhile
        self.bot.service.read.deliveries.forget(delivery.player_id)
        with speaking(delivery.language):  # a DM: the person's own language (`/me language`), else English
            waits, _games = await waiting_on(self.bot, delivery.player_id)
            text = digest_text(waits) if waits else ""
        if not waits:
            self.skipped += 1
            return
        try:
            dm = await self.bot.create_dm(discord.Object(id=delivery.player_id))
            await dm.send(text, allowed_mentions=NO_MENTIONS)
            self.sent += 1
        except discord.HTTPException as exc:
            log.info("digest not delivered", extra={"fields": {"user": delivery.player_id, "error": str(exc)}})

    async def _arm(self) -> None:
        if self.alarm.closed:
            return
        soonest = await self.bot.store.settings.soonest_digest()
        if soonest is None:
            self.alarm.disarm()
            return
        delay = (soonest - self.clock()).total_seconds()
        self.alarm.arm_in(min(max(delay, 0.0), self.max_sleep))
