"""The delivery loop: a game's pending outbox rows in order, each pass handed to the `Dispatcher` (which gives each row
to the collaborator of its kind); retries with back-off.

A move's rows come straight from its commit (`enqueue`, in commit order, with the table after it), so delivering
them reads nothing back. The move's interaction is answered at once (`_answer_first`): with one of its rows when that
keeps the thread in order, else by the command itself; everything else goes to the game's worker, which delivers all
that is queued in one pass (several edits of one message: one REST call), marks the pass's rows in one transaction,
and holds only the notifier's lock of the game (never the service's) while it waits on Discord. Rows read back
from the database (at start-up, on a retry, for other callers of `flush`) are delivered the same way, in order.

At start-up an active table's pending status edits wait (`flush(defer=True)`, `can_wait`): rendered from the
game's state whenever they are delivered, they go out with the table's next move, in its pass (several rows of one
message: one edit), while its narration and hands go out at once. They stay undelivered in the database meanwhile,
so a crash loses none of them."""

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot import damage, outbox
from bot.logs import game_logger
from bot.notifier.dispatch import Dispatcher
from bot.notifier.ledger import Ledger, Session
from bot.notifier.sending import MAX_ATTEMPTS, Carrier, DeliveryStop, FlushReport, Sender
from bot.notifier.threads import Threads
from bot.presentation import Table
from storage import DamagedData, MessageRef, OutboxRecord

if TYPE_CHECKING:
    from bot.host import Host

log = logging.getLogger("boardroom.notifier")


class DeliveryQueue:
    """Every game's queue of committed rows and its worker; the notifier's per-game locks."""

    def __init__(
        self,
        bot: "Host",
        sender: Sender,
        ledger: Ledger,
        threads: Threads,
        dispatcher: Dispatcher,
        retries: "Retries",
        tasks: set["asyncio.Task[Any]"],
    ) -> None:
        self.bot = bot
        self.sender = sender
        self.ledger = ledger
        self.threads = threads
        self.dispatcher = dispatcher
        self.retries = retries
        self._tasks = tasks
        """The notifier's background tasks (the workers among them)."""
        self._locks: dict[int, asyncio.Lock] = {}
        self._queues: dict[int, GameQueue] = {}
        self._waiting: dict[int, dict[int, OutboxRecord]] = {}
        """Game → rows read back at start-up that wait for its next move (`flush(defer=True)`): row id → row."""

    def lock(self, game_id: int) -> asyncio.Lock:
        """The notifier's own lock of the game, held while a pass delivers its rows (never the service's)."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    # --- the read-back pass ------------------------------------------------------------------------------

    async def flush(self, game_id: int, carrier: Carrier | None = None, *, defer: bool = False) -> FlushReport:
        """Deliver the game's pending rows. With the interaction of a move whose rows are queued (`enqueue`):
        answer first, deliver behind (`_answer_first`). Otherwise every pending row, in order, read from the
        database, before returning — but with `defer` (an active table at start-up) the status edits (`can_wait`)
        are left for the table's next commit, which delivers them with its own rows."""
        queue = self._queues.get(game_id)
        if carrier is not None and queue is not None and carrier.row_ids and carrier.row_ids <= queue.seen:
            return await self._answer_first(game_id, queue, carrier)
        report = FlushReport()
        async with self.lock(game_id):
            if queue is not None:
                queue.rows.clear()  # committed, so read back below with the rest
            # Claimed for this process (`bot.claims`): a row another live process holds is its to deliver.
            claims = self.bot.claims
            now = claims.clock()
            rows = await self.bot.store.outbox.claim(
                claims.hold(now), now=now, game_id=game_id, max_attempts=MAX_ATTEMPTS, limit=200
            )
            rows = [r for r in rows if r.id not in self.ledger.marked]
            waiting: dict[int, OutboxRecord] = {}
            if defer:  # (never a row this process committed meanwhile: its move is delivering it)
                waiting = can_wait([r for r in rows if r.id not in self.ledger.fresh])
                rows = [r for r in rows if r.id not in waiting]
                if waiting:
                    self._waiting.setdefault(game_id, {}).update(waiting)
            else:
                self._waiting.pop(game_id, None)  # read back with the rest, delivered now
            session = Session(game_id, marks=queue.take_marks() if queue is not None else [])
            if not rows and not session.marks and not waiting:
                return report
            token = self.ledger.open(session)
            table = None
            try:
                suspects = self.dispatcher.status.suspects
                if waiting and (suspects is None or game_id in suspects):
                    # Its status waits, but a move of it may have been cut short: found now, never shown twice.
                    table = await self.bot.service.read.table(game_id)
                    if not await self.dispatcher.status.find_at_start(table.record, table):
                        rows = sorted([*rows, *waiting.values()], key=lambda r: r.id)  # shown nowhere: now
                        self._waiting.pop(game_id, None)
                if rows:
                    await self.dispatcher.deliver(game_id, rows, carrier, report, table=table)
            except DeliveryStop:
                report.failed += 1
            finally:
                self.ledger.leave(token)
                if table is not None and table.record.thread_id is not None:
                    self.sender.prefetched.pop(table.record.thread_id, None)  # (unused: no row to deliver)
                await self.ledger.close(session)
            if report.failed:  # any row left undelivered (a thread row, a hand DM, …) is tried again later
                self.retries.schedule(game_id, max((r.attempts for r in rows), default=0) + 1)
        return report

    # --- the queue: answer first, deliver behind --------------------------------------------------------

    def enqueue(self, game_id: int, rows: list[OutboxRecord]) -> None:
        """A commit's rows (`MovePath.on_committed`), in commit order. They are delivered by `flush` (a move's
        interaction) or by the game's worker, started soon in any case. Until the move that committed them is
        complete (`settled`), the game is read back to render them: something else may still change it."""
        queue = self._queues.get(game_id)
        if queue is None:
            queue = self._queues[game_id] = GameQueue()
        queue.rows.extend(rows)
        # Rows that waited since start-up for this move (`flush(defer=True)`) go with it: after its own rows, so the
        # answer still carries the move's narration (edits are grouped by message and delivered as one anyway).
        waited = self._waiting.pop(game_id, {})
        queue.rows.extend(r for r in waited.values() if r.id not in self.ledger.marked)
        queue.seen.update(r.id for r in rows)
        queue.table = None
        self.ledger.fresh.update(r.id for r in rows)
        asyncio.get_running_loop().call_soon(self.start_worker, game_id)

    def settled(self, game_id: int, table: Table) -> None:
        """A move is complete and `table` is its game as it is now (`MovePath.on_settled`): render from it."""
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
                    token = self.ledger.open(session)
                    try:
                        # The move's other rows are marked tried with the answer's, in its one write: the worker's
                        # pass behind it has none of its own to make.
                        await self.sender.attempting(context)
                        await self.dispatcher.deliver(
                            game_id, chosen, carrier, report, table=queue.table, context=context
                        )
                    except DeliveryStop:
                        report.failed += 1
                    finally:
                        self.ledger.leave(token)
                        queue.marks += session.marks  # marked with the worker's rows, in one transaction
        # The move's rows its answer did not carry may go out as the command's follow-ups (`bot.notifier.tokens`).
        self.sender.tokens.carry_later(carrier, carrier.row_ids - {r.id for r in chosen})
        user = getattr(carrier.interaction, "user", None)
        if user is not None:
            queue.watch[user.id] = carrier  # a DM found closed behind the answer is told as a follow-up
        self.start_worker(game_id)
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
                ref = await self.ledger.find_ref(game_id, outbox.HAND, seat=int(row.payload["seat"]))
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
        status group when the status was clicked (known without a read: `Threads.status_at`)."""
        message = carrier.interaction.message
        if message is None or carrier.interaction.type != discord.InteractionType.component:
            return []
        tracked = [r for r in queue.rows[1:] if r.kind == outbox.TRACKED and r.id in carrier.row_ids]
        status = self.threads.status_at.get(carrier.interaction.channel_id or 0)
        if status is not None and status[0] == message.id:
            return [*tracked, *(r for r in queue.rows if r.kind == outbox.STATUS)]
        return tracked

    def start_worker(self, game_id: int) -> None:
        """Start the game's worker if it has something to deliver and is not running already."""
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
            async with self.bot.service.moves.lock(game_id):
                pass
            async with self.lock(game_id):
                rows = sorted((r for r in queue.rows if r.id not in self.ledger.marked), key=lambda r: r.id)
                queue.rows = []
                session = Session(game_id, marks=queue.take_marks())
                if not rows and not session.marks:
                    break
                token = self.ledger.open(session)
                try:
                    if rows:
                        table = await self._fresh(game_id, queue.table)
                        await self.dispatcher.deliver(game_id, rows, None, report, table=table, context=rows)
                except DeliveryStop:
                    report.failed += 1
                except DamagedData as exc:  # said once, without a traceback; the rows wait for a restored backup
                    damage.report(self.bot, game_id, exc.problem)
                    report.failed += 1
                except Exception:
                    glog.exception("delivery failed")
                    report.failed += 1
                finally:
                    self.ledger.leave(token)
                    try:
                        await self.ledger.close(session)
                    except Exception:
                        glog.exception("marking delivered rows failed; they are delivered again (once) later")
                        report.failed += 1
                if report.failed:  # what is left is in the database: the retry reads it from there
                    self.retries.schedule(game_id, 1)
            await self._tell_closed_dms(queue, report)
        if not queue.rows and not queue.marks and not queue.watch and (queue.task is None or queue.task.done()):
            self._queues.pop(game_id, None)

    async def _fresh(self, game_id: int, table: Table | None) -> Table | None:
        """The table this process's last move left, unless another process on the database has moved the game
        since (its version is no longer the stored one): then None, and the game is read back to render from."""
        if table is None or not self.bot.claims.shared:
            return table
        stored = await self.bot.store.games.get(game_id)
        return table if stored.version == table.record.version else None

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


def can_wait(rows: list[OutboxRecord]) -> dict[int, OutboxRecord]:
    """Of a table's rows read back at start-up, those that may wait for its next move: its status edits. The status
    shows the table as it is when delivered, so nothing of it is lost by waiting, and a status found deep in the
    thread then moves down with that move, without a start-up read of every thread. Narration, tracked posts,
    hands (a player's own cards: never shown stale when they can be helped) and DMs go out at once."""
    return {r.id: r for r in rows if r.kind == outbox.STATUS}


class Retries:
    """A game whose delivery failed is flushed again later, with back-off (one retry pending per game)."""

    def __init__(self, flush: Callable[[int], Awaitable[Any]], tasks: set["asyncio.Task[Any]"]) -> None:
        self._flush = flush
        self._tasks = tasks
        self._pending: dict[int, asyncio.TimerHandle] = {}

    def __contains__(self, game_id: int) -> bool:
        return game_id in self._pending

    def close(self) -> None:
        for handle in self._pending.values():
            handle.cancel()
        self._pending.clear()

    def schedule(self, game_id: int, attempts: int) -> None:
        """Flush the game again after a delay that doubles with its `attempts` (at most an hour)."""
        if game_id in self._pending:
            return
        delay = min(30 * 2 ** max(attempts - 1, 0), 3600)

        def fire() -> None:
            self._pending.pop(game_id, None)
            task = asyncio.get_running_loop().create_task(self._flush(game_id))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        self._pending[game_id] = asyncio.get_running_loop().call_later(delay, fire)
        game_logger(game_id, "boardroom.notifier").info("delivery retry scheduled", extra={"fields": {"in_s": delay}})


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
