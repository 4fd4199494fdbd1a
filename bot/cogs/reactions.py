"""Reactions on tracked messages (e.g. the "Shake!" 🤝 on an offer), read from raw gateway events.

Raw events arrive whether or not the message is in the client's cache, so reactions work on messages of any age and
after any restart. The message is looked up in the stored message references and the reaction goes to
`GameService.react`, which decides under the game's lock what it is (see there):

- stray (`reaction_allowed` says it may not stand, e.g. a 🤝 on an offer by someone who isn't a party to it): it
  means nothing, and neither does its later removal;
- a move (`reaction_action`), applied like any other; if the engine refuses it, the game's `reaction_refused`
  answer is posted in the thread (by default a line mentioning the reactor with the reason) — it comes from that one
  refused `apply`, so nothing can slip between a check and the move;
- nothing (a reaction that means nothing here, or a reaction by someone who doesn't play): only logged.

A stray reaction, and a refused added one, is removed when the bot has Manage Messages there — checked from the
cache first, so no call is wasted where it surely lacks it — and otherwise left in place (it counts for nothing). A
refused removal is logged, not reported: Manage Messages is optional. Discord reports the bot's own removal as the
member's: that echo is recognised and ignored, so removing a refused 🤝 can never read as its owner taking it back.
"""

import logging
from collections import OrderedDict
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.logs import GameLogger, game_logger
from bot.service import Refusal

if TYPE_CHECKING:
    from bot.client import BoardroomBot

log = logging.getLogger("boardroom.reactions")
ECHO_LIMIT = 500


class ReactionCog(commands.Cog):
    def __init__(self, bot: "BoardroomBot") -> None:
        self.bot = bot
        self._removing: OrderedDict[tuple[int, int, str], None] = OrderedDict()
        """Reactions this bot is removing: (message, user, emoji); their removal events are our own echo."""

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
        emoji = str(payload.emoji)
        echo = (payload.message_id, payload.user_id, emoji)
        if not added and echo in self._removing:
            del self._removing[echo]
            return
        ref = await self.bot.store.message_ref(payload.message_id)
        if ref is None or ref.game_id is None:
            return
        glog = game_logger(ref.game_id, "boardroom.reactions")
        who = {"fields": {"user": payload.user_id, "emoji": emoji}}
        try:
            reacted = await self.bot.service.react(ref.game_id, payload.user_id, ref, emoji, added=added)
        except Refusal as exc:
            glog.info("reaction ignored: %s", exc.message, extra=who)
            return
        except Exception:
            glog.exception("reaction failed")
            return
        if reacted.done.outbox_ids:
            await self.bot.notifier.flush(reacted.done.game_id)
        if reacted.outcome == "stray":
            if added:
                await self._remove(payload, glog, "stray")
        elif reacted.outcome == "refused":
            glog.info("reaction refused: %s", reacted.reason, extra=who)
            if added:
                await self._remove(payload, glog, "refused")
        elif reacted.outcome == "ignored":
            glog.info("reaction ignored: %s", reacted.reason, extra=who)

    async def _remove(self, payload: discord.RawReactionActionEvent, glog: GameLogger, what: str) -> None:
        who = {"fields": {"user": payload.user_id, "emoji": str(payload.emoji)}}
        if not self._may_manage_messages(payload):
            glog.info("%s reaction left in place: no Manage Messages here", what, extra=who)
            return
        message = self.bot.get_partial_messageable(payload.channel_id).get_partial_message(payload.message_id)
        echo = (payload.message_id, payload.user_id, str(payload.emoji))
        self._removing[echo] = None
        while len(self._removing) > ECHO_LIMIT:
            self._removing.popitem(last=False)
        try:
            await message.remove_reaction(payload.emoji, discord.Object(id=payload.user_id))
        except discord.Forbidden as exc:
            self._removing.pop(echo, None)
            glog.info("%s reaction left in place: %s", what, exc.text or "Missing Permissions", extra=who)
        except discord.HTTPException as exc:
            self._removing.pop(echo, None)
            glog.warning("could not remove a %s reaction: %s %s", what, exc.status, exc.text, extra=who)
        else:
            glog.info("%s reaction removed", what, extra=who)

    def _may_manage_messages(self, payload: discord.RawReactionActionEvent) -> bool:
        """False only when the cache says the bot lacks Manage Messages there; unknown means try."""
        guild = self.bot.get_guild(payload.guild_id) if payload.guild_id is not None else None
        if guild is None or guild.me is None:
            return True
        channel = guild.get_channel_or_thread(payload.channel_id)
        if channel is None:
            return True
        return channel.permissions_for(guild.me).manage_messages
