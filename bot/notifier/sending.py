"""Sending exactly once: the in-flight guard, the history check after a crash, the interaction carrier, failures."""

import asyncio
import contextvars
import json
import logging
import re
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord

from bot import outbox
from bot.logs import game_logger
from bot.names import PINGS
from bot.notifier.tokens import TokenBook
from bot.presentation import Post, button_signature
from storage import GameRecord, MessageRef, OutboxRecord

if TYPE_CHECKING:
    from bot.host import Host


IN_FLIGHT = "in flight: sent, not yet confirmed"
MERGED_INTO = "merged into"
MAX_ATTEMPTS = 100
SHOWN_LIMIT = 2000
MENTIONS = PINGS  # the messages that may ping: user mentions only (see `bot.names`)
THREAD_KINDS = (outbox.POST, outbox.TRACKED, outbox.STATUS)
log = logging.getLogger("boardroom.notifier")


class Carrier:
    """An interaction not yet answered, usable once to deliver one of the rows `row_ids`."""

    def __init__(self, interaction: discord.Interaction) -> None:
        self.interaction = interaction
        self.row_ids: set[int] = set()
        self.claimed = False
        self.used = False
        self.deferred = False
        self.private = False
        """The clicked message is private (a hand DM, an ephemeral answer): the narration is not its reply."""
        self.settled = asyncio.Event()
        """Set once the interaction is answered (or could not be): its follow-ups may go out from then on."""

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
class Session:
    """One delivery pass over a game's rows: the game's message references, read once when first needed and kept up
    to date by the pass, and the rows delivered (with the references they created), marked in one transaction at the
    end (`Notifier._end_session`)."""

    game_id: int
    refs: dict[tuple[str, int | None, str], MessageRef] | None = None
    marks: list[tuple[int | None, list[MessageRef]]] = field(default_factory=list)


_SESSION: contextvars.ContextVar[Session | None] = contextvars.ContextVar("delivery_session", default=None)


@dataclass
class FlushReport:
    dm_closed: set[int] = field(default_factory=set)
    """Users found to have closed DMs during this delivery."""
    failed: int = 0


class DeliveryStop(Exception):
    """A thread row failed: stop this game's delivery until the retry, to keep narration in order."""


class SenderBase:
    """What every kind of delivery shares: the store, per-game locks, sending a new message exactly once, and
    failures reported to the game's creator."""

    def __init__(self, bot: "Host") -> None:
        self.bot = bot
        self._locks: dict[int, asyncio.Lock] = {}
        self._reported: set[tuple[int, str]] = set()
        self._retries: dict[int, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._flight: dict[int, int] = {}
        self._partial: set[int] = set()
        """Rows of which a part already reached Discord in this attempt (a split narration): a failure keeps them
        in flight, so the retry looks for those parts instead of posting them again."""
        self._shown: OrderedDict[int, str] = OrderedDict()
        """Tracked message id → what it shows, as last sent by this process (to skip edits that change nothing)."""
        self._tails: dict[int, tuple[int, str]] = {}
        """Thread id → the bot's narration message that is the thread's newest message, and its text: narration
        that pings nobody is added to it by an edit instead of a new message (`PostsOps._post`)."""
        self._status_at: dict[int, tuple[int, int]] = {}
        """Thread id → (the status message's id, how many messages were posted below it since this process knew
        it): a status buried too deep moves to the bottom (`StatusOps._status`)."""
        self._status_text: dict[int, bool] = {}
        """Status message id → whether it has text of its own (the narration it moved into), if this process knows."""

        self._fresh: set[int] = set()
        """Rows this process committed and has not tried to deliver yet: nothing of them can be on Discord, so
        sending them needs neither an in-flight mark in the database nor a look at the channel first."""
        self._marked: set[int] = set()
        """Rows delivered whose marking is not yet committed: no other pass delivers them again meanwhile."""
        self._queues: dict[int, Any] = {}
        """Game id → its `GameQueue` (bot.notifier.delivery)."""
        self.tokens = TokenBook(lambda: self.bot.clock())
        """Messages made by recent commands, edited with their tokens; rows posted as a command's follow-ups."""

    async def _status_rider(self, message_id: int, later: list[OutboxRecord], record: GameRecord, table: Any) -> Any:
        """The status riding on a narration edit (`StatusOps._status_rider`); None here."""
        return None

    async def _status_rode(self, ride: Any, message: discord.Message | None, message_id: int) -> None:
        """After the edit the status rode on (`StatusOps._status_rode`)."""

    def saw_message(self, channel_id: int, message_id: int) -> None:
        """A new message in a channel (anyone's, from the gateway; the bot's own too): it ends the narration
        message's run as the newest message, and buries the status message one message deeper."""
        tail = self._tails.get(channel_id)
        if tail is not None and message_id > tail[0]:
            del self._tails[channel_id]
        status = self._status_at.get(channel_id)
        if status is not None and message_id > status[0]:
            self._status_at[channel_id] = (status[0], status[1] + 1)

    @property
    def store(self):  # type: ignore[no-untyped-def]
        return self.bot.store

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    def _remember(self, message_id: int, shown: str) -> None:
        self._shown[message_id] = shown
        self._shown.move_to_end(message_id)
        while len(self._shown) > SHOWN_LIMIT:
            self._shown.popitem(last=False)

    # --- the pass's marks and message references ---------------------------------------------------------

    def _session(self, game_id: int | None) -> Session | None:
        session = _SESSION.get()
        return session if session is not None and session.game_id == game_id else None

    async def _mark(self, row: OutboxRecord, refs: Sequence[MessageRef] = ()) -> None:
        """The row is delivered (with the references of the messages it created): marked with the pass's other
        rows at its end, or at once outside a pass."""
        session = self._session(row.game_id)
        if session is None:
            await self.store.mark_delivered(row.id, refs=refs)
            return
        session.marks.append((row.id, list(refs)))
        self._marked.add(row.id)
        if session.refs is not None:
            for ref in refs:
                session.refs[(ref.kind, ref.seat, ref.key)] = ref

    async def _find_ref(self, game_id: int, kind: str, *, seat: int | None = None, key: str = "") -> MessageRef | None:
        session = self._session(game_id)
        if session is None:
            return await self.store.find_message_ref(game_id, kind, seat=seat, key=key)
        if session.refs is None:
            refs = {(r.kind, r.seat, r.key): r for r in await self.store.message_refs(game_id)}
            for _, made in session.marks:  # references of rows delivered but not yet marked (an answer's)
                for ref in made:
                    refs = {k: r for k, r in refs.items() if r.message_id != ref.message_id}
                    refs[(ref.kind, ref.seat, ref.key)] = ref
            session.refs = refs
        return session.refs.get((kind, seat, key))

    async def _put_ref(self, ref: MessageRef) -> None:
        session = self._session(ref.game_id)
        if session is None:
            await self.store.put_message_ref(ref)
            return
        session.marks.append((None, [ref]))
        if session.refs is not None:
            session.refs[(ref.kind, ref.seat, ref.key)] = ref

    async def _drop_ref(self, game_id: int, message_id: int, *, replaced: bool = False) -> None:
        """Forget a message reference. `replaced`: a reference of the same kind takes its place in this pass's
        marks, which replaces it in the database too (no write of its own)."""
        session = self._session(game_id)
        if session is not None:
            if session.refs is not None:
                session.refs = {k: r for k, r in session.refs.items() if r.message_id != message_id}
            session.marks = [(i, [r for r in refs if r.message_id != message_id]) for i, refs in session.marks]
            if replaced:
                return
        await self.store.delete_message_ref(message_id)

    async def _end_session(self, session: Session) -> None:
        """Mark the pass's rows delivered, in one transaction."""
        ids = {i for i, _ in session.marks if i is not None}
        try:
            if session.marks:
                await self.store.mark_delivered_many(session.marks, now=self.bot.clock())
        finally:
            self._marked -= ids
            self._fresh -= ids

    def _since(self, row: OutboxRecord) -> int | None:
        """Since when the row may already be on Discord (a message id to look after), or None if it cannot be:
        its in-flight mark, else (a row read back, e.g. after a crash) the guard its commit gave it."""
        since = _in_flight_since(row)
        if since is None and row.id not in self._fresh:
            guard = row.payload.get(outbox.GUARD)
            since = int(guard) if guard is not None else None
        return since

    # --- sending once -----------------------------------------------------------------------------------

    async def _send_once(
        self,
        group: list[OutboxRecord],
        channel_id: int,
        post: Post,
        send: Callable[[], Awaitable[discord.Message]],
    ) -> discord.Message:
        found = await self._already_sent(group, channel_id, post)
        if found is not None:
            return found
        await self._mark_in_flight(group[-1])
        return await send()

    async def _mark_in_flight(self, row: OutboxRecord, *, merged_into: int | None = None) -> None:
        # The lower bound lets a later check look only at messages sent since this attempt began. A row of this
        # process's own commit carries that bound already (its guard): nothing to write before sending it as a new
        # message. (Narration merged into an earlier message is recorded: a retry must know where it went.)
        guard = row.payload.get(outbox.GUARD)
        if row.id in self._fresh and guard is not None:
            # (A fresh row merged into an earlier message needs no mark either: after a crash, `_merged_before`
            # finds the message edited since the guard that holds its lines.)
            self._flight[row.id] = int(guard)
            return
        since = discord.utils.time_snowflake(self.bot.clock() - timedelta(seconds=5))
        self._flight[row.id] = since
        into = f" {MERGED_INTO} {merged_into}" if merged_into is not None else ""
        await self.store.mark_failed(row.id, f"{IN_FLIGHT} (after {since}){into}")

    async def _already_sent(self, group: list[OutboxRecord], channel_id: int, post: Post) -> discord.Message | None:
        """After a crash: the message an in-flight row already produced, if Discord has it."""
        bounds = [self._since(r) for r in group]
        known = [b for b in bounds if b is not None]
        if not known:
            return None
        me = self.bot.user
        channel = self.bot.get_partial_messageable(channel_id)
        signature = post.signature()
        async for message in channel.history(limit=50, after=discord.Object(id=min(known))):
            if me is not None and message.author.id != me.id:
                continue
            if _signature(message) == signature:
                log.info("in-flight message found; not sending it again", extra={"game": group[0].game_id})
                return message
        return None

    def _thread(self, channel_id: int) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.public_thread)

    async def _new_message(self, row: OutboxRecord, channel_id: int, args: dict[str, Any]) -> discord.Message:
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
        return await self._thread(channel_id).send(**args)

    async def _edit_message(self, channel_id: int, message_id: int, **kwargs: Any) -> discord.Message:
        """Edit a message of the bot: with the token of the command that made it while that lives (outside the
        global limit, `TokenBook.edit`), else as the bot."""
        return await self.tokens.edit(self._thread(channel_id).get_partial_message(message_id), **kwargs)

    # --- failures ---------------------------------------------------------------------------------------

    async def _failed(self, row: OutboxRecord, record: GameRecord, exc: discord.HTTPException) -> None:
        problem = _problem(exc, row.kind)
        error = f"{exc.status} {exc.code}: {exc.text}"
        since = self._flight.get(row.id)
        if since is not None and (exc.status >= 500 or row.id in self._partial):
            # Part of it is posted, or Discord may have applied it and still answered with a server error: the
            # retry must look for it before sending again. (A 4xx refusal means nothing was created.)
            error = f"{IN_FLIGHT} (after {since}) — {error}"
        attempts = await self.store.mark_failed(row.id, error[:500])
        game_logger(record.id, "boardroom.notifier").warning(
            "delivery failed: %s", problem, extra={"fields": {"row": row.id, "kind": row.kind, "attempts": attempts}}
        )
        await self.report(record, problem)

    async def report_stuck_timer(self, game_id: int, attempts: int) -> None:
        """A deadline or reminder of the game keeps failing to fire: tell its table (where moderators read) and its
        creator, once. Sent directly, not through the outbox: the database may be what is failing."""
        record = await self.store.get_game(game_id)
        problem = (
            f"a deadline of this game failed to fire {attempts} times in a row (the database was busy or failing). "
            "Nothing is lost: I keep retrying every few minutes."
        )
        if record.thread_id is not None:
            text = (
                f"⚠️ For moderators: {problem} If it doesn't clear up, check the bot's log; "
                "`/mod extend` gives the players more time meanwhile."
            )
            try:
                await self._thread(record.thread_id).send(text, allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException as exc:
                game_logger(game_id, "boardroom.notifier").warning("could not tell the thread: %s", exc)
        await self.report(record, problem[0].upper() + problem[1:])

    async def report(self, record: GameRecord, problem: str) -> None:
        """Tell the game's creator (by DM, else in the lobby channel) once per problem."""
        key = (record.id, problem)
        if key in self._reported:
            return
        self._reported.add(key)
        title = f"{self.bot.service.game(record.kind).title} #{record.id}"
        text = f"⚠️ Boardroom, {title} in <#{record.channel_id}>: {problem} The game itself is safe; I'll keep retrying."
        if record.created_by is not None:
            try:
                dm = await self.bot.create_dm(discord.Object(id=record.created_by))
                await dm.send(text)
                return
            except discord.HTTPException:
                pass
        if record.channel_id is not None:
            try:
                mention = f"<@{record.created_by}> " if record.created_by else ""
                await self.bot.get_partial_messageable(record.channel_id).send(mention + text, allowed_mentions=PINGS)
            except discord.HTTPException:
                game_logger(record.id, "boardroom.notifier").warning(
                    "could not report the problem to anyone: %s", problem
                )


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


def _problem(exc: discord.HTTPException, kind: str) -> str:
    where = "the table thread" if kind in THREAD_KINDS else "a player's DM" if kind in ("hand", "dm") else "Discord"
    if isinstance(exc, discord.Forbidden):
        return (
            f"I'm not allowed to post in {where} ({exc.text or 'Missing Permissions'}). Give the bot "
            "“Send Messages in Threads”, “Embed Links” and “Read Message History” in that channel."
        )
    if isinstance(exc, discord.NotFound):
        return (
            f"{where.capitalize()} no longer exists ({exc.text or 'Unknown Channel'}). If it was deleted on purpose, "
            "a moderator can end the game with `/mod end`."
        )
    if exc.status == 429:
        return "Discord is rate-limiting me; messages will follow shortly."
    return f"Discord refused a message ({exc.status} {exc.text or ''})."
