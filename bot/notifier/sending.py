"""Sending exactly once: the in-flight guard, the history check after a crash, the interaction carrier.

`Sender` is the REST side every collaborator shares (`Posts`, `Status`, `Hands`): new messages sent once, edits made
with a command's token where one lives (`bot.notifier.tokens`), and what tracked messages show as this process last
sent them."""

import asyncio
import json
import logging
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord

from bot import metrics, outbox
from bot.names import PINGS
from bot.notifier.ledger import Ledger
from bot.notifier.tokens import TokenBook
from bot.presentation import Post, button_signature
from storage import OutboxRecord

if TYPE_CHECKING:
    from bot.host import Host


IN_FLIGHT = "in flight: sent, not yet confirmed"
MERGED_INTO = "merged into"
MAX_ATTEMPTS = 100
SHOWN_LIMIT = 2000
RECENT = 50
"""How many of a channel's newest messages a look for a row's message after a crash reads (one call)."""
MENTIONS = PINGS  # the messages that may ping: user mentions only (see `bot.names`)
THREAD_KINDS = (outbox.POST, outbox.TRACKED, outbox.STATUS)
log = logging.getLogger("boardroom.notifier")


class Carrier:
    """An interaction not yet answered, usable once to deliver one of the rows `row_ids`."""

    def __init__(self, interaction: discord.Interaction) -> None:
        self.interaction = interaction
        self.row_ids: set[int] = set()
        self.claimed = False
        self.began = time.perf_counter()
        """When the interaction came in to `bot.replies.answer` (for `boardroom_ack_seconds`)."""
        self.answered_at: float | None = None
        """When it was first answered: set by `used` or `deferred` becoming true (whoever answered says so)."""
        self._used = False
        self._deferred = False
        self.private = False
        """The clicked message is private (a hand DM, an ephemeral answer): the narration is not its reply."""
        self.settled = asyncio.Event()
        """Set once the interaction is answered (or could not be): its follow-ups may go out from then on."""

    @property
    def used(self) -> bool:
        """The interaction's response carried one of the action's messages (or a form, an edit)."""
        return self._used

    @used.setter
    def used(self, value: bool) -> None:
        self._used = value
        if value and self.answered_at is None:
            self.answered_at = time.perf_counter()

    @property
    def deferred(self) -> bool:
        """The interaction was deferred ("thinking…"): its answer is a follow-up."""
        return self._deferred

    @deferred.setter
    def deferred(self, value: bool) -> None:
        self._deferred = value
        if value and self.answered_at is None:
            self.answered_at = time.perf_counter()

    def acknowledged(self) -> None:
        """Record the acknowledgement latency once the answer is done: when `used` or `deferred` was set, else now
        if the interaction's response is done (a reply sent by `bot.replies`); nothing if it was never answered."""
        answered = self.answered_at
        if answered is None and self.interaction.response.is_done():
            answered = self.answered_at = time.perf_counter()
        if answered is not None:
            metrics.acknowledged(answered - self.began)

    def for_rows(self, ids: list[int]) -> "Carrier":
        self.row_ids = set(ids)
        return self

    def claim(self) -> bool:
        """Take the right to answer the interaction (synchronously, so a deferral and a delivery cannot race)."""
        if self.claimed:
            return False
        self.claimed = True
        return True

    def can_post(self, row: OutboxRecord, channel_id: int) -> bool:
        return (
            not self.claimed
            and not self.private
            and row.id in self.row_ids
            and self.interaction.channel_id == channel_id
        )

    def can_edit(self, row_ids: set[int], message_id: int) -> bool:
        message = self.interaction.message
        return (
            not self.claimed
            and bool(self.row_ids & row_ids)
            and self.interaction.type == discord.InteractionType.component
            and message is not None
            and message.id == message_id
        )


@dataclass
class FlushReport:
    dm_closed: set[int] = field(default_factory=set)
    """Users found to have closed DMs during this delivery."""
    failed: int = 0


class DeliveryStop(Exception):
    """A thread row failed: stop this game's delivery until the retry, to keep narration in order."""


class Sender:
    """Sends a row's new message exactly once and edits the bot's messages, with a command's token where it can."""

    def __init__(self, bot: "Host", ledger: Ledger) -> None:
        self.bot = bot
        self.ledger = ledger
        self.tokens = TokenBook(lambda: self.bot.clock(), self._token_webhook)
        """Messages made by recent commands, edited with their tokens; rows posted as a command's follow-ups."""
        ledger.stamp = lambda ref: self.tokens.stamp(ref)
        ledger.learn = lambda ref: self.tokens.learn(ref)
        self.flight: dict[int, int] = {}
        """Rows being sent in this attempt → the message id after which a retry looks for what they sent."""
        self.partial: set[int] = set()
        """Rows of which a part already reached Discord in this attempt (a split narration): a failure keeps them
        in flight, so the retry looks for those parts instead of posting them again."""
        self.shown: OrderedDict[int, str] = OrderedDict()
        """Tracked message id → what it shows, as last sent by this process (to skip edits that change nothing)."""
        self.read: dict[int, tuple[int, list[discord.Message]]] = {}
        """Row id → the channel and its newest messages (newest first), read for the row (`newest`) and not yet
        used by `already_sent`: one read serves both looks for a narration row read back after a crash."""
        self.attempted: set[int] = set()
        """Rows this process committed whose attempt is marked in the database already (`attempting`)."""
        self.prefetched: dict[int, list[discord.Message]] = {}
        """Channel id → its newest messages, read at start-up to find its status (`Status.find_at_start`), for the
        first row of the pass that follows (nothing was sent there in between): one read for both."""

    def _token_webhook(self, token: str) -> discord.Webhook | None:
        """The interaction webhook of a stored token (`TokenBook.learn`): the bot's application id and the token,
        no Interaction needed. None before the bot knows its application id (it has not logged in)."""
        application_id = self.bot.application_id
        if application_id is None:
            return None
        try:
            return discord.Webhook.partial(application_id, token, client=self.bot)
        except TypeError:  # a client without an HTTP session (never logged in): no token calls
            return None

    async def attempting(self, rows: Sequence[OutboxRecord]) -> None:
        """Before a pass tries rows this process committed: they are marked in flight in the database, in one write
        for them all (`outbox.ATTEMPTS_MARKED`), so that after a crash a row read back without the mark is known
        never tried and goes out without a look at the channel (`since`, `Posts._merged_before`). Their bound is the
        earliest of their guards (a look may start earlier than it needs to, never later)."""
        due = [
            r
            for r in rows
            if r.id in self.ledger.fresh and r.id not in self.attempted and r.payload.get(outbox.ATTEMPTS_MARKED)
        ]
        guards = [int(r.payload[outbox.GUARD]) for r in due if r.payload.get(outbox.GUARD) is not None]
        if not due or not guards:
            return
        await self.bot.store.outbox.mark_in_flight([r.id for r in due], f"{IN_FLIGHT} (after {min(guards)})")
        self.attempted &= self.ledger.fresh  # (rows marked delivered since, and edits merged into a later row's)
        self.attempted.update(r.id for r in due)

    def tried(self, row_id: int) -> None:
        """The row's attempt is over (delivered or failed): from now on it may be on Discord."""
        self.attempted.discard(row_id)
        self.flight.pop(row_id, None)
        self.partial.discard(row_id)
        self.ledger.fresh.discard(row_id)
        self.tokens.done(row_id)
        self.read.pop(row_id, None)

    def remember(self, message_id: int, shown: str) -> None:
        self.shown[message_id] = shown
        self.shown.move_to_end(message_id)
        while len(self.shown) > SHOWN_LIMIT:
            self.shown.popitem(last=False)

    def since(self, row: OutboxRecord) -> int | None:
        """Since when the row may already be on Discord (a message id to look after), or None if it cannot be:
        its in-flight mark, else (a row read back, e.g. after a crash) the guard its commit gave it."""
        since = _in_flight_since(row)
        if since is None and row.id not in self.ledger.fresh and not outbox.never_attempted(row):
            guard = row.payload.get(outbox.GUARD)
            since = int(guard) if guard is not None else None
        return since

    # --- sending once -----------------------------------------------------------------------------------

    async def send_once(
        self,
        group: list[OutboxRecord],
        channel_id: int,
        post: Post,
        send: Callable[[], Awaitable[discord.Message]],
    ) -> discord.Message:
        found = await self.already_sent(group, channel_id, post)
        if found is not None:
            return found
        await self.mark_in_flight(group[-1])
        return await send()

    async def mark_in_flight(self, row: OutboxRecord, *, merged_into: int | None = None) -> None:
        # The lower bound lets a later check look only at messages sent since this attempt began. A row of this
        # process's own commit carries that bound already (its guard): nothing to write before sending it as a new
        # message. (Narration merged into an earlier message is recorded: a retry must know where it went.)
        guard = row.payload.get(outbox.GUARD)
        marked = row.id in self.attempted or not row.payload.get(outbox.ATTEMPTS_MARKED)
        if row.id in self.ledger.fresh and guard is not None and marked:
            # (A fresh row merged into an earlier message needs no mark either: after a crash, `Posts._merged_before`
            # finds the message edited since the guard that holds its lines.)
            self.flight[row.id] = int(guard)
            return
        since = discord.utils.time_snowflake(self.bot.clock() - timedelta(seconds=5))
        self.flight[row.id] = since
        into = f" {MERGED_INTO} {merged_into}" if merged_into is not None else ""
        await self.bot.store.outbox.mark_failed(row.id, f"{IN_FLIGHT} (after {since}){into}")

    async def newest(self, channel_id: int, row: OutboxRecord | None = None) -> list[discord.Message]:
        """The channel's `RECENT` newest messages, newest first (read now, or just before: `prefetched`); read for
        `row`, they are kept for its `already_sent`."""
        messages = self.prefetched.pop(channel_id, None)
        if messages is None:
            messages = [m async for m in self.thread(channel_id).history(limit=RECENT)]
        if row is not None:
            self.read[row.id] = (channel_id, messages)
        return messages

    async def already_sent(self, group: list[OutboxRecord], channel_id: int, post: Post) -> discord.Message | None:
        """After a crash: the message an in-flight row already produced, if Discord has it."""
        bounds = [self.since(r) for r in group]
        known = [b for b in bounds if b is not None]
        read = self.read.pop(group[-1].id, None)
        if not known:
            return None
        me = self.bot.user
        bound = min(known)
        signature = post.signature()
        if read is not None and read[0] == channel_id and (len(read[1]) < RECENT or read[1][-1].id <= bound):
            # Read a moment ago for this row, back past its bound (nothing was sent since): no second read.
            since = [m for m in reversed(read[1]) if m.id > bound]
            for message in since:
                if (me is None or message.author.id == me.id) and _signature(message) == signature:
                    log.info("in-flight message found; not sending it again", extra={"game": group[0].game_id})
                    return message
            return None
        channel = self.bot.get_partial_messageable(channel_id)
        async for message in channel.history(limit=RECENT, after=discord.Object(id=bound)):
            if me is not None and message.author.id != me.id:
                continue
            if _signature(message) == signature:
                log.info("in-flight message found; not sending it again", extra={"game": group[0].game_id})
                return message
        return None

    def thread(self, channel_id: int) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.public_thread)

    async def new_message(self, row: OutboxRecord, channel_id: int, args: dict[str, Any]) -> discord.Message:
        """Post a new thread message for `row`: as a follow-up of the command whose move it tells, when that command
        can carry it (`TokenBook.courier`: outside Discord's global limit), else as the bot."""
        carrier = self.tokens.courier(row.id, channel_id)
        if carrier is not None:
            interaction = await self.tokens.answered(carrier)
            if interaction is not None:
                try:
                    message = await interaction.followup.send(
                        wait=True, **{k: v for k, v in args.items() if k != "nonce"}
                    )
                except discord.HTTPException as exc:
                    if exc.status >= 500:
                        raise  # it may have been posted: the retry looks for it (the row is in flight)
                    # refused, so nothing was posted: the bot posts it itself
                else:
                    self.tokens.made(message.id, interaction, original=False)
                    return message
        return await self.thread(channel_id).send(**args)

    async def edit_message(self, channel_id: int, message_id: int, **kwargs: Any) -> discord.Message:
        """Edit a message of the bot: with the token of the command that made it while that lives (outside the
        global limit, `TokenBook.edit`), else as the bot."""
        return await self.tokens.edit(self.thread(channel_id).get_partial_message(message_id), **kwargs)


def _shows(post: Post) -> str:
    embed = post.embed()
    return json.dumps(
        [post.text, embed.to_dict() if embed else None, button_signature(post.buttons)], sort_keys=True, default=str
    )


def _merged_into(row: OutboxRecord) -> int | None:
    """The message an in-flight narration row was being added to (by an edit), if that is what it was doing."""
    if _in_flight_since(row) is None:
        return None
    match = re.search(rf"{MERGED_INTO} (\d+)", row.last_error or "")
    return int(match.group(1)) if match else None


def _in_flight_since(row: OutboxRecord) -> int | None:
    error = row.last_error or ""
    if not error.startswith(IN_FLIGHT):
        return None
    match = re.search(r"after (\d+)", error)
    return int(match.group(1)) if match else None


def _send_args(post: Post, row: OutboxRecord, *, nonce: str | None = None) -> dict[str, Any]:
    # Discord drops a message whose nonce repeats within a few minutes: one nonce per message we mean to send.
    args: dict[str, Any] = {"allowed_mentions": MENTIONS, "nonce": nonce or f"br{row.id}"}
    if post.text:
        args["content"] = post.text
    embed = post.embed()
    if embed is not None:
        args["embed"] = embed
    return args


def _signature(message: discord.Message) -> str:
    if message.content:
        return message.content
    if message.embeds:
        embed = message.embeds[0]
        return f"{embed.title}|{embed.footer.text if embed.footer else None}"
    return ""


def _dt(text: str):  # type: ignore[no-untyped-def]
    from datetime import datetime

    return datetime.fromisoformat(text)
