"""One delivery pass over a game's rows: each row handed to the collaborator of its kind (narration and tracked
posts, the status, the lobby message, hands and DMs), several edits of one message delivered as one, and a row that
fails recorded (`Problems`) — a failing thread row stops the pass, so narration never comes out of order."""

import asyncio
import logging
from typing import Any

import discord

from bot import outbox
from bot.i18n import speaking
from bot.logs import game_logger
from bot.me_language import person_language
from bot.notifier.hands import Hands
from bot.notifier.ledger import Ledger
from bot.notifier.posts import Posts
from bot.notifier.problems import Problems
from bot.notifier.sending import IN_FLIGHT, THREAD_KINDS, Carrier, DeliveryStop, FlushReport, Sender, _dt
from bot.notifier.status import LobbyMessage, Status
from bot.presentation import Table
from storage import OutboxRecord, StorageError

log = logging.getLogger("boardroom.notifier")


class Dispatcher:
    """Delivers a pass's rows, each by the collaborator of its kind."""

    def __init__(
        self,
        sender: Sender,
        ledger: Ledger,
        problems: Problems,
        posts: Posts,
        status: Status,
        lobby: LobbyMessage,
        hands: Hands,
    ) -> None:
        self.sender = sender
        self.bot = sender.bot
        self.ledger = ledger
        self.problems = problems
        self.posts = posts
        self.status = status
        self.lobby = lobby
        self.hands = hands

    async def deliver(
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
            table = await self.bot.service.read.table(game_id)
        await self.sender.attempting(rows)  # (one write, before anything of them can reach Discord)
        record = table.record
        context = rows if context is None else context
        # Edits are rendered from the current state: only the last row of each target needs delivering.
        groups: dict[tuple[str, int | None], list[OutboxRecord]] = {}
        for row in rows:
            if row.kind in (outbox.STATUS, outbox.LOBBY, outbox.HAND):
                groups.setdefault((row.kind, row.payload.get("seat")), []).append(row)
        notes: dict[int, list[str | dict[str, Any]]] = {}
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
                await self.ledger.mark(row)
                continue
            if row.kind in THREAD_KINDS and record.thread_id is None:
                if record.status == "abandoned" and not record.started:
                    # A lobby closed before its thread ever opened: there is no table to tell, ever.
                    game_logger(game_id, "boardroom.notifier").info("row %s for a closed lobby dropped", row.id)
                    await self.ledger.mark(row)
                    continue
                # Never marked delivered undelivered: it waits for the thread (`bot.lobby_repair` opens it).
                await self.bot.store.outbox.mark_failed(row.id, "waiting for the table thread")
                raise DeliveryStop
            language = await self._language(row, table)
            with speaking(language):  # the table's; a DM its player's own (`/me language`)
                try:
                    if row.kind == outbox.POST:
                        await self.posts.narrate(row, context, record, table, carrier)
                        await self.ledger.mark(row)
                    elif row.kind == outbox.TRACKED:
                        await self.posts.tracked(row, record, table, carrier)
                        await self.ledger.mark(row)
                    elif row.kind == outbox.STATUS:
                        assert group is not None
                        await self.status.deliver(group, record, table, carrier)
                    elif row.kind == outbox.LOBBY:
                        assert group is not None
                        await self.lobby.deliver(group, record, table, carrier)
                    elif row.kind == outbox.HAND:
                        assert group is not None
                        seat = int(row.payload["seat"])
                        await self.hands.hand(group, record, table, seat, notes.get(seat, []), report, carrier)
                    elif row.kind == outbox.DM:
                        await self.hands.dm(row, record, table, report)
                    elif row.kind == outbox.RETIRE:
                        await self.hands.retire(row)
                    elif row.kind == outbox.WELCOME:
                        await self.hands.welcome(row, record, table, report)
                    else:
                        log.warning("unknown outbox kind %r", row.kind, extra={"game": game_id})
                        await self.ledger.mark(row)
                except discord.HTTPException as exc:
                    await self.problems.failed(row, record, exc)
                    if row.kind in THREAD_KINDS:
                        raise DeliveryStop from exc
                    report.failed += 1
                except (StorageError, asyncio.CancelledError):
                    raise
                except Exception as exc:
                    game_logger(game_id, "boardroom.notifier").exception("delivering outbox row %s failed", row.id)
                    error = f"{type(exc).__name__}: {exc}"
                    since = self.sender.flight.get(row.id)
                    if since is not None:  # it may have reached Discord: keep it in doubt, not failed
                        error = f"{IN_FLIGHT} (after {since}) — {error}"
                    await self.bot.store.outbox.mark_failed(row.id, error[:500])
                    if row.kind in THREAD_KINDS:
                        raise DeliveryStop from exc
                    report.failed += 1
                finally:
                    self.sender.tried(row.id)  # from now on it may be on Discord
                    if record.thread_id is not None:  # a start-up read serves the pass's first row only
                        self.sender.prefetched.pop(record.thread_id, None)
            if group is not None:
                for other in group[:-1]:
                    await self.ledger.mark(other)
        return table

    async def _language(self, row: OutboxRecord, table: Table) -> str:
        """The language a row is worded in: the table's, but a hand or a DM speaks its player's own
        (`/me language`, `bot.me_language`), else the table's."""
        if row.kind in (outbox.HAND, outbox.DM):
            seat = int(row.payload["seat"])
            player = next((s.player_id for s in table.seats if s.seat == seat and not s.bot), None)
            return await person_language(self.bot, player, table.language)
        if row.kind == outbox.WELCOME:
            return await person_language(self.bot, int(row.payload["user_id"]), table.language)
        return table.language
