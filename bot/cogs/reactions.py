"""Reactions on tracked messages (e.g. the "Shake!" 🤝 on an offer), read from raw gateway events.

Raw events arrive whether or not the message is in the client's cache, so reactions work on messages of any age and
after any restart. The message is looked up in the stored message references and the reaction goes to
`Play.react`, which decides under the game's lock what it is (see there):

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

Reactions added or taken off while the bot was offline send no event that it could read later. So at start-up
(`reconcile`, after the outbox is flushed and before timers fire) every active game's watched messages
(`Controls.reconcile_refs`, e.g. KKK's offers not yet binding) are read back from Discord — one REST call each —
and whatever differs from the reactions the game has heard of is handled like the missed events, stray ones and
refused ones included (`Play.reconcile_reactions`).
"""

import logging
from collections import OrderedDict
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot import damage
from bot.logs import GameLogger, game_logger
from bot.service import Reacted, Refusal
from storage import DamagedData, GameRecord, MessageRef

if TYPE_CHECKING:
    from bot.host import Host

log = logging.getLogger("boardroom.reactions")
ECHO_LIMIT = 500
REACTOR_PAGES = 5
"""At most this many pages of 100 reactors per watched message at start-up (a 🤝 has two parties and the bot)."""


@dataclass(frozen=True)
class Spot:
    """One member's reaction on one message."""

    guild_id: int | None
    channel_id: int
    message_id: int
    user_id: int
    emoji: str


class ReactionCog(commands.Cog):
    def __init__(self, bot: "Host") -> None:
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
        ref = await self.bot.store.refs.get(payload.message_id)
        if ref is None or ref.game_id is None:
            return
        glog = game_logger(ref.game_id, "boardroom.reactions")
        who = {"fields": {"user": payload.user_id, "emoji": emoji}}
        try:
            reacted = await self.bot.service.play.react(ref.game_id, payload.user_id, ref, emoji, added=added)
        except Refusal as exc:
            glog.info("reaction ignored: %s", exc.message, extra=who)
            return
        except Exception:
            glog.exception("reaction failed")
            return
        if reacted.done.outbox_ids:
            await self.bot.notifier.flush(reacted.done.game_id)
        spot = Spot(payload.guild_id, payload.channel_id, payload.message_id, payload.user_id, emoji)
        await self._after(spot, reacted, added, glog)

    async def _after(self, spot: "Spot", reacted: Reacted, added: bool, glog: GameLogger) -> None:
        """Log what became of a reaction, and take a stray or refused added one off (when the bot may)."""
        who = {"fields": {"user": spot.user_id, "emoji": spot.emoji}}
        if reacted.outcome == "stray":
            if added:
                await self._remove(spot, glog, "stray")
        elif reacted.outcome == "refused":
            glog.info("reaction refused: %s", reacted.reason, extra=who)
            if added:
                await self._remove(spot, glog, "refused")
        elif reacted.outcome == "ignored":
            glog.info("reaction ignored: %s", reacted.reason, extra=who)

    # --- reactions missed while offline -------------------------------------------------------------------

    async def reconcile(
        self,
        *,
        only: Collection[int] | None = None,
        skip: Collection[int] = (),
        caught_up: Callable[[int], None] = lambda _game_id: None,
    ) -> None:
        """At start-up (behind play, after the game's outbox is flushed), for every active game (those in `only`,
        if given; not those in `skip`): the reactions added or taken off while the bot wasn't listening, handled as
        the events it missed (`Play.reconcile_reactions`); `caught_up(game_id)` after each game. One REST
        call per message the game watches (`Controls.reconcile_refs`, e.g. KKK's live offers)."""
        try:
            records = await self.bot.store.games.find(statuses=("active",))
        except Exception:  # never let this keep the scheduler from starting
            log.exception("could not list the games to reconcile their reactions")
            return
        records = [r for r in records if (only is None or r.id in only) and r.id not in skip]
        for record in records:
            try:
                await self._reconcile_game(record)
            finally:
                caught_up(record.id)

    async def _reconcile_game(self, record: GameRecord) -> None:
        glog = game_logger(record.id, "boardroom.reactions")
        try:
            found = await self.bot.service.play.reconcile_reactions(record.id, self._reactors)
        except DamagedData as exc:
            damage.report(self.bot, record.id, exc.problem)
            return
        except Exception:
            glog.exception("reconciling reactions failed")
            return
        if any(r.reacted.done.outbox_ids for r in found):
            await self.bot.notifier.flush(record.id)
        for r in found:
            spot = Spot(record.guild_id, r.ref.channel_id, r.ref.message_id, r.user_id, r.emoji)
            await self._after(spot, r.reacted, r.added, glog)

    async def _reactors(self, ref: MessageRef, emoji: str) -> set[int] | None:
        """Who reacts to the message with `emoji` now (not the bot itself); None if Discord won't say."""
        me = self.bot.user
        users: set[int] = set()
        after: int | None = None
        for _ in range(REACTOR_PAGES):
            try:
                page = await self.bot.http.get_reaction_users(ref.channel_id, ref.message_id, emoji, 100, after=after)
            except discord.HTTPException as exc:
                game_logger(ref.game_id or 0, "boardroom.reactions").warning(
                    "could not read the reactions of a tracked message: %s %s", exc.status, exc.text
                )
                return None
            users |= {int(u["id"]) for u in page}
            if len(page) < 100:
                break
            after = int(page[-1]["id"])
        if me is not None:
            users.discard(me.id)
        return users

    async def _remove(self, spot: "Spot", glog: GameLogger, what: str) -> None:
        who = {"fields": {"user": spot.user_id, "emoji": spot.emoji}}
        if not self._may_manage_messages(spot):
            glog.info("%s reaction left in place: no Manage Messages here", what, extra=who)
            return
        message = self.bot.get_partial_messageable(spot.channel_id).get_partial_message(spot.message_id)
        echo = (spot.message_id, spot.user_id, spot.emoji)
        self._removing[echo] = None
        while len(self._removing) > ECHO_LIMIT:
            self._removing.popitem(last=False)
        try:
            await message.remove_reaction(spot.emoji, discord.Object(id=spot.user_id))
        except discord.Forbidden as exc:
            self._removing.pop(echo, None)
            glog.info("%s reaction left in place: %s", what, exc.text or "Missing Permissions", extra=who)
        except discord.HTTPException as exc:
            self._removing.pop(echo, None)
            glog.warning("could not remove a %s reaction: %s %s", what, exc.status, exc.text, extra=who)
        else:
            glog.info("%s reaction removed", what, extra=who)

    def _may_manage_messages(self, spot: "Spot") -> bool:
        """False only when the cache says the bot lacks Manage Messages there; unknown means try."""
        guild = self.bot.get_guild(spot.guild_id) if spot.guild_id is not None else None
        if guild is None or guild.me is None:
            return True
        channel = guild.get_channel_or_thread(spot.channel_id)
        if channel is None:
            return True
        return channel.permissions_for(guild.me).manage_messages
