"""The table's public messages edited in place: the status message in the thread and the lobby message."""

import discord

from bot import outbox
from bot.components import view_for
from bot.lobby import lobby_post
from bot.logs import game_logger
from bot.notifier.sending import (
    MENTIONS,
    Carrier,
    SenderBase,
    _send_args,
)
from bot.presentation import Table
from storage import GameRecord, MessageRef, OutboxRecord


class StatusOps(SenderBase):
    async def _status(
        self, group: list[OutboxRecord], record: GameRecord, table: Table, carrier: Carrier | None
    ) -> None:
        last = group[-1]
        thread_id = record.thread_id
        assert thread_id is not None  # the delivery loop holds thread rows back until the thread exists
        if table.state is None:  # a status asked for before the start: the start posts its own
            await self.store.mark_delivered(last.id)
            return
        post = self.bot.service.presentation(record.kind).status(table)
        view = view_for(record.id, post.buttons)
        ref = await self.store.find_message_ref(record.id, outbox.STATUS)
        if ref is not None:
            ids = {r.id for r in group}
            if carrier is not None and carrier.can_edit(ids, ref.message_id) and carrier.claim():
                await carrier.interaction.response.edit_message(
                    content=post.text or None, embed=post.embed(), view=view
                )
                carrier.used = True
                await self.store.mark_delivered(last.id)
                return
            try:
                await (
                    self._thread(ref.channel_id)
                    .get_partial_message(ref.message_id)
                    .edit(content=post.text or None, embed=post.embed(), view=view, allowed_mentions=MENTIONS)
                )
                await self.store.mark_delivered(last.id)
                return
            except discord.NotFound:
                await self.store.delete_message_ref(ref.message_id)
        message = await self._send_once(
            group, thread_id, post, lambda: self._thread(thread_id).send(**_send_args(post, last), view=view)
        )
        ref = MessageRef(message_id=message.id, channel_id=thread_id, game_id=record.id, kind=outbox.STATUS)
        await self.store.mark_delivered(last.id, refs=[ref])

    async def _lobby(
        self, group: list[OutboxRecord], record: GameRecord, table: Table, carrier: Carrier | None
    ) -> None:
        last = group[-1]
        refs = await self.store.message_refs(record.id, kind="lobby")
        if not refs:
            await self.store.mark_delivered(last.id)
            return
        ref = refs[0]
        settings = await self.bot.service.lobby_settings(record)
        post = lobby_post(table, random_order=settings.random_order, picks=settings.picks)
        view = view_for(record.id, post.buttons) if post.buttons else None
        ids = {r.id for r in group}
        if carrier is not None and carrier.can_edit(ids, ref.message_id) and carrier.claim():
            await carrier.interaction.response.edit_message(embed=post.embed(), view=view)
            carrier.used = True
        else:
            try:
                await (
                    self._thread(ref.channel_id).get_partial_message(ref.message_id).edit(embed=post.embed(), view=view)
                )
            except discord.NotFound:
                game_logger(record.id, "boardroom.notifier").warning("the lobby message is gone")
        await self.store.mark_delivered(last.id)
