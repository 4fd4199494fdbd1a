"""The delivery loop: a game's pending outbox rows in order, each handed to its kind; retries with back-off.

A move's rows come straight from its commit (`enqueue`, in commit order, with the table after it), so delivering
them reads nothing back. The move's interaction is answered at once (`_answer_first`): with one of its rows when that
keeps the thread in order, else by the command itself; everything else goes to the game's worker, which delivers all
that is queued in one pass (several edits of one message: one REST call), marks the pass's rows in one transaction,
and holds only the notifier's lock of the game (never the service's) while it waits on Discord. Rows read back
from the database (at start-up, on a retry, for other callers of `flush`) are delivered the same way, in order."""

import asyncio
import logging
from dataclasses import dataclass, field

import discord

from bot import damage, outbox
from bot.logs import game_logger
from bot.notifier.hands import HandsOps
from bot.notifier.posts import PostsOps
from bot.notifier.sending import (
    _SESSION,
    IN_FLIGHT,
    MAX_ATTEMPTS,
    THREAD_KINDS,
    Carrier,
    DeliveryStop,
    FlushReport,
    SenderBase,
    Session,
    _dt,
)
from bot.notifier.status import StatusOps
from bot.presentation import Table
from storage import DamagedData, MessageRef, OutboxRecord, StorageError

log = logging.getLogger("boardroom.notifier")


class Notifier(PostsOps, StatusOps, HandsOps, SenderBase):
    """Delivers outbox rows to Discord (see the package's docstring)."""

    # --- entry points -----------------------------------------------------------------------------------

    async def flush(self, game_id: int, carrier: Carrier | None = None) -> FlushReport:
        """Deliver the game's pending rows. With the interaction of a move whose rows are queued (`enqueue`):
        answer first, deliver behind (`_answer_first`). Otherwise every pending row, in order, read from the
        database, before returning."""
        queue = self._queues.get(game_id)
        if carrier is not None and queue is not None and carrier.row_ids and carrier.row_ids <= queue.seen:
            return await self._answer_first(game_id, queue, carrier)
        report = FlushReport()
        async with self.lock(game_id):
            if queue is not None:
                queue.rows.clear()  # committed, so read back below with the rest
            rows = await self.store.undelivered(game_id=game_id, max_attempts=MAX_ATTEMPTS, limit=200)
            rows = [r for r in rows if r.id not in self._marked]
            session = Session(game_id, marks=queue.take_marks() if queue is not None else [])
            if not rows and not session.marks:
                return report
            token = _SESSION.set(session)
            try:
                await self._deliver_rows(game_id, rows, carrier, report)
            except DeliveryStop:
                report.failed += 1
            finally:
                _SESSION.reset(token)
                await self._end_session(session)
            if report.failed:  # any row left undelivered (a thread row, a hand DM, …) is tried again later
                self._schedule_retry(game_id, max(r.attempts for r in rows) + 1)
        return report

    # --- the queue: answer first, deliver behind --------------------------------------------------------

    def enqueue(self, game_id: int, rows: list[OutboxRecord]) -> None:
        """A commit's rows (`GameService.on_committed`), in commit order. They are delivered by `flush` (a move's
        interaction) or by the game's worker, started soon in any case. Until the move that committed them is
        complete (`settled`), the game is read back to render them: something else may still change it."""
        queue = self._queues.get(game_id)
        if queue is None:
            queue = self._queues[game_id] = GameQueue()
        queue.rows.extend(rows)
        queue.seen.update(r.id for r in rows)
        queue.table = None
        self._fresh.update(r.id for r in rows)
        asyncio.get_running_loop().call_soon(self._start_worker, game_id)

    def settled(self, game_id: int, table: Table) -> None:
        """A move is complete and `table` is its game as it is now (`GameService.on_settled`): render from it."""
        queue = self._queues.get(game_id)
        if queue is not None:
            queue.table = table

    async def _answer_first(self, game_id: int, queue: "GameQueue", carrier: Carrier) -> FlushReport:
        """The move's interaction is answered now, with one of its rows when that keeps the thread in order (the
        narration as the reply, or the clicked status or hand message edited), and the rest is left to the game's
        worker, which never holds the game's lock while waiting on Discord: only the notifier's own per-game lock."""
        report = FlushReport()
        lock = self.lock(game_id)
        chosen: list[OutboxRecord] = []
        if not lock.locked():  # nothing of this game is being delivered: the carrier may take its row now
            async with lock:
                chosen = await self._carried_rows(game_id, queue, carrier)
                if chosen:
                    context = list(queue.rows)  # a narration's tracked post is among the move's later rows
                    queue.rows = [r for r in queue.rows if r not in chosen]
                    session = Session(game_id)
                    token = _SESSION.set(session)
                    try:
                        await self._deliver_rows(game_id, chosen, carrier, report, table=queue.table, context=context)
                    except DeliveryStop:
                        report.failed += 1
                    finally:
                        _SESSION.reset(token)
                        queue.marks += session.marks  # marked with the worker's rows, in one transaction
        # The move's rows its answer did not carry may go out as the command's follow-ups (`bot.notifier.tokens`).
        self.tokens.carry_later(carrier, carrier.row_ids - {r.id for r in chosen})
        user = getattr(carrier.interaction, "user", None)
        if user is not None:
            queue.watch[user.id] = carrier  # a DM found closed behind the answer is told as a follow-up
        self._start_worker(game_id)
        return report

    async def _carried_rows(self, game_id: int, queue: "GameQueue", carrier: Carrier) -> list[OutboxRecord]:
        """The rows the interaction's response may deliver now: the first queued row if it is the narration or an
        edit (with the other edits of its message), or for a click on a hand DM that seat's hand rows."""
        if not queue.rows:
            return []
        if carrier.private:
            message = carrier.interaction.message
            if message is None:
                return []
            hands = [r for r in queue.rows if r.kind == outbox.HAND]
            for row in hands:
                ref = await self._find_ref(game_id, outbox.HAND, seat=int(row.payload["seat"]))
                if ref is not None and ref.message_id == message.id:
                    return [r for r in hands if r.payload.get("seat") == row.payload.get("seat")]
            return []
        first = queue.rows[0]
        if first.id not in carrier.row_ids:
            return []  # an earlier move's rows come first
        if first.kind == outbox.POST:
            return [first, *self._edits_of_clicked(queue, carrier)]
        if first.kind in (outbox.STATUS, outbox.LOBBY, outbox.HAND):
            key = (first.kind, first.payload.get("seat"))
            return [r for r in queue.rows if (r.kind, r.payload.get("seat")) == key]
        return []

    def _edits_of_clicked(self, queue: "GameQueue", carrier: Carrier) -> list[OutboxRecord]:
        """A button clicked on a thread message is best answered by editing that message (no call of its own): the
        move's rows that may edit it come along with its narration — its tracked rows (a prompt's buttons), or the
        status group when the status was clicked (known without a read: `_status_at`)."""
        message = carrier.interaction.message
        if message is None or carrier.interaction.type != discord.InteractionType.component:
            return []
        tracked = [r for r in queue.rows[1:] if r.kind == outbox.TRACKED and r.id in carrier.row_ids]
        status = self._status_at.get(carrier.interaction.channel_id or 0)
        if status is not None and status[0] == message.id:
            return [*tracked, *(r for r in queue.rows if r.kind == outbox.STATUS)]
        return tracked

    def _start_worker(self, game_id: int) -> None:
        queue = self._queues.get(game_id)
        if queue is None or (queue.task is not None and not queue.task.done()):
            return
        if not queue.rows and not queue.marks:
            return
        queue.task = asyncio.get_running_loop().create_task(self._work(game_id, queue))
        self._tasks.add(queue.task)
        queue.task.add_done_callback(self._tasks.discard)

    async def _work(self, game_id: int, queue: "GameQueue") -> None:
        """The game's worker: delivers what is queued, everything queued at once (several edits of one message
        become one), the rows marked in one transaction per pass; again while more comes."""
        glog = game_logger(game_id, "boardroom.notifier")
        while True:
            report = FlushReport()
            # A move still under way (the game's lock held by the service) is let finish first: its own `flush`
            # takes the row its interaction answers with. Only waited for, never held while delivering.
            async with self.bot.service.lock(game_id):
                pass
            async with self.lock(game_id):
                rows = sorted((r for r in queue.rows if r.id not in self._marked), key=lambda r: r.id)
                queue.rows = []
                session = Session(game_id, marks=queue.take_marks())
                if not rows and not session.marks:
                    break
                token = _SESSION.set(session)
                try:
                    if rows:
                        await self._deliver_rows(game_id, rows, None, report, table=queue.table, context=rows)
                except DeliveryStop:
                    report.failed += 1
                except DamagedData as exc:  # said once, without a traceback; the rows wait for a restored backup
                    damage.report(self.bot, game_id, exc.problem)
                    report.failed += 1
                except Exception:
                    glog.exception("delivery failed")
                    report.failed += 1
                finally:
                    _SESSION.reset(token)
                    try:
                        await self._end_session(session)
                    except Exception:
                        glog.exception("marking delivered rows failed; they are delivered again (once) later")
                        report.failed += 1
                if report.failed:  # what is left is in the database: the retry reads it from there
                    self._schedule_retry(game_id, 1)
            await self._tell_closed_dms(queue, report)
        if not queue.rows and not queue.marks and not queue.watch and (queue.task is None or queue.task.done()):
            self._queues.pop(game_id, None)

    async def _tell_closed_dms(self, queue: "GameQueue", report: FlushReport) -> None:
        """A player whose hand DM failed behind the answer to their move hears it as a follow-up of that answer."""
        watch, queue.watch = queue.watch, {}
        for user_id in report.dm_closed & set(watch):
            from bot.people import dm_note

            interaction = watch[user_id].interaction
            try:
                if interaction.response.is_done():
                    await interaction.followup.send(dm_note({user_id}, user_id).strip(), ephemeral=True)
            except discord.HTTPException as exc:
                log.warning("could not tell a player their DMs are closed: %s", exc)

    async def flush_all(self) -> None:
        """Deliver what is pending for every game (at start-up: what a crash left behind)."""
        seen: list[int] = []
        for row in await self.store.undelivered(max_attempts=MAX_ATTEMPTS, limit=1000):
            if row.game_id is not None and row.game_id not in seen:
                seen.append(row.game_id)
        for game_id in seen:
            try:
                await self.flush(game_id)
            except DamagedData as exc:
                damage.report(self.bot, game_id, exc.problem)
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
        self,
        game_id: int,
        rows: list[OutboxRecord],
        carrier: Carrier | None,
        report: FlushReport,
        *,
        table: Table | None = None,
        context: list[OutboxRecord] | None = None,
    ) -> Table:
        """Deliver the rows, rendered from `table` (the game as it is now; read if not given). `context`: the rows
        a narration looks among for its tracked post (all of `rows` by default). Returns the table used."""
        if table is None:
            table = await self.bot.service.table(game_id)
        record = table.record
        context = rows if context is None else context
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
                await self._mark(row)
                continue
            if row.kind in THREAD_KINDS and record.thread_id is None:
                if record.status == "abandoned" and not record.started:
                    # A lobby closed before its thread ever opened: there is no table to tell, ever.
                    game_logger(game_id, "boardroom.notifier").info("row %s for a closed lobby dropped", row.id)
                    await self._mark(row)
                    continue
                # Never marked delivered undelivered: it waits for the thread (`bot.lobby_repair` opens it).
                await self.store.mark_failed(row.id, "waiting for the table thread")
                raise DeliveryStop
            try:
                if row.kind == outbox.POST:
                    await self._post(row, context, record, table, carrier)
                    await self._mark(row)
                elif row.kind == outbox.TRACKED:
                    await self._tracked(row, record, table, carrier)
                    await self._mark(row)
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
                    await self._mark(row)
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
                self._fresh.discard(row.id)  # tried: from now on it may be on Discord
                self.tokens.done(row.id)
            if group is not None:
                for other in group[:-1]:
                    await self._mark(other)
        return table


@dataclass
class GameQueue:
    """A game's committed rows not yet delivered, in commit order, and the table after the last commit."""

    rows: list[OutboxRecord] = field(default_factory=list)
    table: Table | None = None
    marks: list[tuple[int | None, list[MessageRef]]] = field(default_factory=list)
    """Rows delivered by an answer, marked with the worker's next pass."""
    watch: dict[int, Carrier] = field(default_factory=dict)
    """Players whose move's answer is out while their hand may still fail: user id → the interaction."""
    task: "asyncio.Task[None] | None" = None
    seen: set[int] = field(default_factory=set)
    """Every row queued since the queue was last empty (some may be on their way already)."""

    def take_marks(self) -> list[tuple[int | None, list[MessageRef]]]:
        marks, self.marks = self.marks, []
        return marks
