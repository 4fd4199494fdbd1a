"""The delivery loop: a game's pending outbox rows in order, each handed to its kind; retries with back-off."""

import asyncio
import logging

import discord

from bot import outbox
from bot.logs import game_logger
from bot.notifier.hands import HandsOps
from bot.notifier.posts import PostsOps
from bot.notifier.sending import (
    IN_FLIGHT,
    MAX_ATTEMPTS,
    THREAD_KINDS,
    Carrier,
    DeliveryStop,
    FlushReport,
    SenderBase,
    _dt,
)
from bot.notifier.status import StatusOps
from storage import OutboxRecord, StorageError

log = logging.getLogger("boardroom.notifier")


class Notifier(PostsOps, StatusOps, HandsOps, SenderBase):
    """Delivers outbox rows to Discord (see the package's docstring)."""

    # --- entry points -----------------------------------------------------------------------------------

    async def flush(self, game_id: int, carrier: Carrier | None = None) -> FlushReport:
        """Deliver every pending row of the game, in order."""
        report = FlushReport()
        async with self.lock(game_id):
            rows = await self.store.undelivered(game_id=game_id, max_attempts=MAX_ATTEMPTS, limit=200)
            if not rows:
                return report
            try:
                await self._deliver_rows(game_id, rows, carrier, report)
            except DeliveryStop:
                report.failed += 1
            if report.failed:  # any row left undelivered (a thread row, a hand DM, …) is tried again later
                self._schedule_retry(game_id, max(r.attempts for r in rows) + 1)
        return report

    async def flush_all(self) -> None:
        """Deliver what is pending for every game (at start-up: what a crash left behind)."""
        seen: list[int] = []
        for row in await self.store.undelivered(max_attempts=MAX_ATTEMPTS, limit=1000):
            if row.game_id is not None and row.game_id not in seen:
                seen.append(row.game_id)
        for game_id in seen:
            try:
                await self.flush(game_id)
            except Exception:
                game_logger(game_id, "boardroom.notifier").exception("delivery failed")

    def close(self) -> None:
        for handle in self._retries.values():
            handle.cancel()
        self._retries.clear()

    def _schedule_retry(self, game_id: int, attempts: int) -> None:
        if game_id in self._retries:
            return
        delay = min(30 * 2 ** max(attempts - 1, 0), 3600)

        def fire() -> None:
            self._retries.pop(game_id, None)
            task = asyncio.get_running_loop().create_task(self.flush(game_id))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        self._retries[game_id] = asyncio.get_running_loop().call_later(delay, fire)
        game_logger(game_id, "boardroom.notifier").info("delivery retry scheduled", extra={"fields": {"in_s": delay}})

    # --- one game's rows --------------------------------------------------------------------------------

    async def _deliver_rows(
        self, game_id: int, rows: list[OutboxRecord], carrier: Carrier | None, report: FlushReport
    ) -> None:
        service = self.bot.service
        record = await self.store.get_game(game_id)
        table = await service.table(game_id, record=record)
        # Edits are rendered from the current state: only the last row of each target needs delivering.
        groups: dict[tuple[str, int | None], list[OutboxRecord]] = {}
        for row in rows:
            if row.kind in (outbox.STATUS, outbox.LOBBY, outbox.HAND):
                groups.setdefault((row.kind, row.payload.get("seat")), []).append(row)
        notes: dict[int, list[str]] = {}
        for row in rows:
            if row.kind == outbox.HAND:
                notes.setdefault(int(row.payload["seat"]), []).extend(row.payload.get("notes", []))
        for row in rows:
            group = groups.get((row.kind, row.payload.get("seat")))
            if group is not None and row is not group[-1]:
                continue  # delivered with the last of its group
            expires = row.payload.get("expires")
            if expires and _dt(expires) <= self.bot.clock():
                game_logger(game_id, "boardroom.notifier").info("outbox row %s expired undelivered; dropped", row.id)
                await self.store.mark_delivered(row.id)
                continue
            if row.kind in THREAD_KINDS and record.thread_id is None:
                if record.status == "abandoned" and not record.started:
                    # A lobby closed before its thread ever opened: there is no table to tell, ever.
                    game_logger(game_id, "boardroom.notifier").info("row %s for a closed lobby dropped", row.id)
                    await self.store.mark_delivered(row.id)
                    continue
                # Never marked delivered undelivered: it waits for the thread (`bot.lobby_repair` opens it).
                await self.store.mark_failed(row.id, "waiting for the table thread")
                raise DeliveryStop
            try:
                if row.kind == outbox.POST:
                    await self._post(row, rows, record, table, carrier)
                    await self.store.mark_delivered(row.id)
                elif row.kind == outbox.TRACKED:
                    await self._tracked(row, record, table, carrier)
                    await self.store.mark_delivered(row.id)
                elif row.kind == outbox.STATUS:
                    assert group is not None
                    await self._status(group, record, table, carrier)
                elif row.kind == outbox.LOBBY:
                    assert group is not None
                    await self._lobby(group, record, table, carrier)
                elif row.kind == outbox.HAND:
                    assert group is not None
                    seat = int(row.payload["seat"])
                    await self._hand(group, record, table, seat, notes.get(seat, []), report, carrier)
                elif row.kind == outbox.DM:
                    await self._dm(row, record, table, report)
                elif row.kind == outbox.RETIRE:
                    await self._retire(row)
                elif row.kind == outbox.WELCOME:
                    await self._welcome(row, record, table, report)
                else:
                    log.warning("unknown outbox kind %r", row.kind, extra={"game": game_id})
                    await self.store.mark_delivered(row.id)
            except discord.HTTPException as exc:
                await self._failed(row, record, exc)
                if row.kind in THREAD_KINDS:
                    raise DeliveryStop from exc
                report.failed += 1
            except (StorageError, asyncio.CancelledError):
                raise
            except Exception as exc:
                game_logger(game_id, "boardroom.notifier").exception("delivering outbox row %s failed", row.id)
                error = f"{type(exc).__name__}: {exc}"
                since = self._flight.get(row.id)
                if since is not None:  # it may have reached Discord: keep it in doubt, not failed
                    error = f"{IN_FLIGHT} (after {since}) — {error}"
                await self.store.mark_failed(row.id, error[:500])
                if row.kind in THREAD_KINDS:
                    raise DeliveryStop from exc
                report.failed += 1
            finally:
                self._flight.pop(row.id, None)
                self._partial.discard(row.id)
            if group is not None:
                for other in group[:-1]:
                    await self.store.mark_delivered(other.id)
