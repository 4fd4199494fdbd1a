"""Reactions on tracked messages (e.g. the "Shake!" 🤝 on an offer), read from raw gateway events.

Raw events arrive whether or not the message is in the client's cache, so reactions work on messages of any age and
after any restart. The message is looked up in the stored message references; the game's presentation decides what
the reaction means (`reaction_action`), and the action goes through the service like any move. Reactions on other
messages, by the bot itself, or by people who don't play are ignored; a refused reaction is only logged (there is
nobody to answer privately).

Stray reactions: before anything else the presentation is asked whether a reaction may stand
(`reaction_allowed(table, ref, seat, emoji)`, `seat` None for someone who doesn't play). One that may not (e.g. a 🤝
on an offer by someone who isn't a party to it) is removed when the bot has Manage Messages there — checked from the
cache first, so no call is wasted where it surely lacks it — and otherwise left in place; either way it means
nothing, and neither it nor its later removal reaches `reaction_action`. A refused removal is logged, not reported:
Manage Messages is optional.
"""

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.logs import GameLogger, game_logger
from bot.presentation import Presentation
from bot.service import Refusal
from storage import GameRecord, MessageRef

if TYPE_CHECKING:
    from bot.client import BoardroomBot

log = logging.getLogger("boardroom.reactions")


class ReactionCog(commands.Cog):
    def __init__(self, bot: "BoardroomBot") -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_raw_reaction_add(self, payload: discord.RawReactionActionEvent) -> None:
        await self._handle(payload, added=True)

    @commands.Cog.listener()
    async def on_raw_reaction_remove(self, payload: discord.RawReactionActionEvent) -> None:
        await self._handle(payload, added=False)

    async def _handle(self, payload: discord.RawReactionActionEvent, *, added: bool) -> None:
        me = self.bot.user
        if me is not None and payload.user_id == me.id:
            return
        ref = await self.bot.store.message_ref(payload.message_id)
        if ref is None or ref.game_id is None:
            return
        service = self.bot.service
        record = await self.bot.store.get_game(ref.game_id)
        presentation = service.presentation(record.kind)
        emoji = str(payload.emoji)
        glog = game_logger(ref.game_id, "boardroom.reactions")
        try:
            if not await self._allowed(ref, record, presentation, payload.user_id, emoji):
                if added:
                    await self._remove_stray(payload, glog)
                return
        except Exception:
            glog.exception("checking a reaction failed")
            return
        try:
            done = await service.act_for_seat(
                ref.game_id,
                payload.user_id,
                lambda table, seat: presentation.reaction_action(table, ref, seat, emoji, added),
            )
        except Refusal as exc:
            glog.info("reaction ignored: %s", exc.message, extra={"fields": {"user": payload.user_id}})
            return
        except Exception:
            glog.exception("reaction failed")
            return
        await self.bot.notifier.flush(done.game_id)

    async def _allowed(
        self, ref: MessageRef, record: GameRecord, presentation: Presentation, user_id: int, emoji: str
    ) -> bool:
        table = await self.bot.service.table(record.id, record=record)
        if table.state is None:
            return True
        seat = next((s.seat for s in table.seats if s.player_id == user_id), None)
        return presentation.reaction_allowed(table, ref, seat, emoji)

    async def _remove_stray(self, payload: discord.RawReactionActionEvent, glog: GameLogger) -> None:
        who = {"fields": {"user": payload.user_id, "emoji": str(payload.emoji)}}
        if not self._may_manage_messages(payload):
            glog.info("stray reaction left in place: no Manage Messages here", extra=who)
            return
        message = self.bot.get_partial_messageable(payload.channel_id).get_partial_message(payload.message_id)
        try:
            await message.remove_reaction(payload.emoji, discord.Object(id=payload.user_id))
        except discord.Forbidden as exc:
            glog.info("stray reaction left in place: %s", exc.text or "Missing Permissions", extra=who)
        except discord.HTTPException as exc:
            glog.warning("could not remove a stray reaction: %s %s", exc.status, exc.text, extra=who)
        else:
            glog.info("stray reaction removed", extra=who)

    def _may_manage_messages(self, payload: discord.RawReactionActionEvent) -> bool:
        """False only when the cache says the bot lacks Manage Messages there; unknown means try."""
        guild = self.bot.get_guild(payload.guild_id) if payload.guild_id is not None else None
        if guild is None or guild.me is None:
            return True
        channel = guild.get_channel_or_thread(payload.channel_id)
        if channel is None:
            return True
        return channel.permissions_for(guild.me).manage_messages
