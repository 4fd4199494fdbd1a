"""Delivers outbox rows to Discord: narration into the table thread, the one status message and the one hand DM per
player edited in place, reminders, the lobby message. Rows are marked delivered one by one.

Exactly once, across crashes. Edits (status, hand, lobby) are idempotent: they are rendered from the game's current
state, so delivering one twice is harmless and several pending ones collapse into one edit. A new message (a post,
a first status or hand message, a DM) is not idempotent, so before sending it the row is marked "in flight"
(`mark_failed(IN_FLIGHT)`), and the message is sent with a nonce derived from the row (Discord drops a repeated
nonce for a few minutes). If the process dies between sending and `mark_delivered`, the next delivery of that row
finds the in-flight mark and first looks at the channel's messages since the row was written: a message of the bot
with the same signature (its text, or for embeds its title and footer) is taken as the delivery instead of sending
again. The one way to post twice is a crash in the instant between Discord accepting a message and the bot getting
the answer, followed by someone editing that message before the restart; we accept that.

Discord errors never touch game state (it is committed before anything is delivered). A closed DM marks the seat
`dm_ok=false` and tells the thread once; other errors are logged, reported once per game and problem to the game's
creator (by DM, else in the lobby channel), recorded on the row and retried later with back-off. A failing thread
row stops that game's delivery until the retry, so narration never comes out of order.

An interaction that is not yet answered may be handed in as a `Carrier`: one of this action's rows is then
delivered as the interaction's response (a narration as the reply in the thread, or the status/lobby/hand message
edited by the button that was clicked), which saves a REST call per action. A `private` carrier (a click on a hand
DM or an ephemeral message) never carries the public narration.

A narration longer than one Discord message (2000 characters; e.g. the end of a big game: every payout, then the
standings) is split at line breaks into several messages, never cut. The parts share their row's exactly-once
guard: the row is marked in flight once, before the first part (a retry keeps the first attempt's mark), and a
retry posts only the parts it doesn't find among the bot's messages since that mark; a part that fails after
others went out leaves the row in flight, not merely failed, for the same reason.

A new tracked post marked `replaces_narration` (e.g. an offer's own message, a reaction window's announcement) is
posted in place of its action's narration message: one message with the post and, below it, the narration's own
lines (who is awaited, with mentions — a mention pings only in a new message); when the action came with an
interaction, that message is the reply, and its id (the response returns it) becomes the tracked reference, stored
with the narration row's delivery. Reply + post would be two calls; this is one.

Hand messages carry the hand's buttons (`Presentation.private_view(...).buttons`, as persistent `GameButton`s; an
empty view when there are none, which clears old ones). Tracked messages are edited only when what they show
changed since this process last sent them (`_shown`), so refreshing `live_posts` after every commit is free when
nothing changed; after a restart the first refresh edits once.
"""

import asyncio
import json
import logging
import re
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord

from bot import outbox
from bot.components import view_for
from bot.lobby import lobby_post
from bot.logs import game_logger
from bot.presentation import MAX_CONTENT, Post, Presentation, Table, button_signature, standings_lines, timestamp
from engine.events import Event
from engine.text import render
from storage import GameRecord, MessageRef, OutboxRecord, StorageError

if TYPE_CHECKING:
    from bot.client import BoardroomBot

IN_FLIGHT = "in flight: sent, not yet confirmed"
MAX_ATTEMPTS = 100
SHOWN_LIMIT = 2000
MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)
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


class Notifier:
    def __init__(self, bot: "BoardroomBot") -> None:
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

    @property
    def store(self):  # type: ignore[no-untyped-def]
        return self.bot.store

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

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
            try:
                if row.kind == outbox.POST:
                    await self._post(row, rows, record, table, carrier)
                    await self.store.mark_delivered(row.id)
                elif row.kind == outbox.TRACKED:
                    await self._tracked(row, record, table)
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

    # --- the kinds --------------------------------------------------------------------------------------

    async def _post(
        self,
        row: OutboxRecord,
        rows: list[OutboxRecord],
        record: GameRecord,
        table: Table,
        carrier: Carrier | None,
    ) -> None:
        thread_id = record.thread_id
        if thread_id is None:
            return
        presentation = self.bot.service.presentation(record.kind)
        events = [Event.model_validate(e) for e in row.payload.get("events", [])]
        ping = {int(s) for s in row.payload.get("ping", [])}
        names = list(table.names)
        pinged = [table.mention(i) if i in ping else n for i, n in enumerate(names)]
        intro = [render(t, pinged) for t in row.payload.get("intro", [])]
        lines: list[str] = []
        for event in events:
            line = presentation.event_line(table, event)
            if line:
                lines.append(line)
        tail = [render(t, pinged) for t in row.payload.get("texts", [])]
        for wait in row.payload.get("awaits", []):
            who = " ".join(table.mention(int(s)) for s in wait["seats"])
            due = timestamp(_dt(wait["deadline"]))
            tail.append(f"⏳ {who} — {render(wait['what'], names)} (deadline {due})")
        if row.payload.get("result") and table.state is not None:
            result = table.result or table.game.standings(table.state)
            tail += standings_lines(table, result, presentation)
        narrating = await self._narrating_post(row, rows, record, table)
        if narrating is not None:
            await self._post_narrating(row, narrating, [*intro, *tail], record, carrier)
            return
        lines = [*intro, *lines, *tail]
        if not lines:
            return
        parts = split_lines(lines, MAX_CONTENT)
        if len(parts) > 1:
            await self._post_parts(row, thread_id, parts, carrier)
            return
        content = parts[0]
        post = Post(content=content)
        if carrier is not None and carrier.can_post(row, thread_id) and carrier.claim():
            await self._mark_in_flight(row)
            await carrier.interaction.response.send_message(content, allowed_mentions=MENTIONS)
            carrier.used = True
            return
        await self._send_once([row], thread_id, post, lambda: self._thread(thread_id).send(**_send_args(post, row)))

    async def _post_parts(self, row: OutboxRecord, thread_id: int, parts: list[str], carrier: Carrier | None) -> None:
        """A narration too long for one message, as several split at line breaks, each posted once: the row is
        marked in flight before the first part (keeping an earlier attempt's mark, so its bound covers every part
        sent so far), and a retry first finds the parts that already reached the thread and sends only the rest."""
        posts = [Post(content=p) for p in parts]
        sent = await self._parts_sent(row, thread_id, posts)
        since = _in_flight_since(row)
        if since is None:
            await self._mark_in_flight(row)
        else:
            self._flight[row.id] = since
        if sent:
            self._partial.add(row.id)
        for index, post in enumerate(posts):
            if index in sent:
                continue
            if not sent and carrier is not None and carrier.can_post(row, thread_id) and carrier.claim():
                await carrier.interaction.response.send_message(post.text, allowed_mentions=MENTIONS)
                carrier.used = True
            else:
                await self._thread(thread_id).send(**_send_args(post, row, nonce=f"br{row.id}p{index}"))
            sent.add(index)
            self._partial.add(row.id)

    async def _parts_sent(self, row: OutboxRecord, channel_id: int, posts: list[Post]) -> set[int]:
        """After a crash (or a failed part): which of a split narration's parts an in-flight row already posted."""
        since = _in_flight_since(row)
        if since is None:
            return set()
        me = self.bot.user
        channel = self.bot.get_partial_messageable(channel_id)
        found: set[int] = set()
        async for message in channel.history(limit=50 + len(posts), after=discord.Object(id=since)):
            if me is not None and message.author.id != me.id:
                continue
            signature = _signature(message)
            index = next((i for i, p in enumerate(posts) if i not in found and p.signature() == signature), None)
            if index is not None:
                found.add(index)
        if found:
            log.info("in-flight parts found; not sending them again", extra={"game": row.game_id})
        return found

    async def _narrating_post(
        self, row: OutboxRecord, rows: list[OutboxRecord], record: GameRecord, table: Table
    ) -> Post | None:
        """The new tracked post that replaces this narration row (`Post.replaces_narration`), if the same action's
        tracked row, still to deliver, has one: the first such post whose message was not yet posted."""
        if table.state is None or not row.payload.get("events"):
            return None
        later = rows[rows.index(row) + 1 :]
        paired = next(
            (r for r in later if r.kind == outbox.TRACKED and r.payload.get("events") == row.payload["events"]), None
        )
        if paired is None:
            return None
        events = [Event.model_validate(e) for e in paired.payload["events"]]
        for post in self.bot.service.presentation(record.kind).event_posts(table, events):
            if post.replaces_narration and post.ref is not None:
                kind, key = post.ref
                if await self.store.find_message_ref(record.id, kind, key=key) is None:
                    return post
        return None

    async def _post_narrating(
        self, row: OutboxRecord, post: Post, extra: list[str], record: GameRecord, carrier: Carrier | None
    ) -> None:
        """Post a tracked message in place of the action's narration (with the narration's own lines below it), as
        the interaction's reply when there is one; its reference is stored with the narration row's delivery."""
        thread_id = record.thread_id
        assert thread_id is not None and post.ref is not None
        content = "\n".join([post.content, *extra]) if post.content else "\n".join(extra)
        sent = replace(post, content=content)
        view = view_for(record.id, post.buttons) if post.buttons else None
        if carrier is not None and carrier.can_post(row, thread_id) and carrier.claim():
            await self._mark_in_flight(row)
            args: dict[str, Any] = {"allowed_mentions": MENTIONS}
            if sent.text:
                args["content"] = sent.text
            if sent.embed() is not None:
                args["embed"] = sent.embed()
            if view is not None:
                args["view"] = view
            response = await carrier.interaction.response.send_message(**args)
            carrier.used = True
            message_id = response.message_id
            assert message_id is not None
        else:
            args = _send_args(sent, row)
            if view is not None:
                args["view"] = view
            message_id = (
                await self._send_once([row], thread_id, sent, lambda: self._thread(thread_id).send(**args))
            ).id
        # The reactions before the delivery is recorded: after a crash in between, the retry finds the message
        # (the row is in flight) and adds them again (adding the bot's own reaction twice is harmless).
        message = self._thread(thread_id).get_partial_message(message_id)
        for emoji in post.reactions:
            await message.add_reaction(emoji)
        kind, key = post.ref
        ref = MessageRef(message_id=message_id, channel_id=thread_id, game_id=record.id, kind=kind, key=key)
        await self.store.mark_delivered(row.id, refs=[ref])
        self._remember(message_id, _shows(post))

    async def _tracked(self, row: OutboxRecord, record: GameRecord, table: Table) -> None:
        """The game's tracked messages for these events: edited through their reference, or posted (once)."""
        thread_id = record.thread_id
        if thread_id is None:
            return
        events = [Event.model_validate(e) for e in row.payload.get("events", [])]
        presentation = self.bot.service.presentation(record.kind)
        posts = presentation.event_posts(table, events) if events and table.state is not None else []
        refs = {p.ref for p in posts}
        live = presentation.live_posts(table) if table.state is not None else []
        live = [p for p in live if p.ref is not None and p.ref not in refs]
        for index, post in enumerate([*posts, *live]):
            if post.ref is None:
                continue
            kind, key = post.ref
            ref = await self.store.find_message_ref(record.id, kind, key=key)
            if ref is None and index >= len(posts):
                continue  # a live post is only ever edited
            view = view_for(record.id, post.buttons) if post.buttons else None
            shown = _shows(post)
            if ref is not None:
                if self._shown.get(ref.message_id) == shown:
                    continue
                try:
                    message = self._thread(ref.channel_id).get_partial_message(ref.message_id)
                    await message.edit(
                        content=post.text or None, embed=post.embed(), view=view, allowed_mentions=MENTIONS
                    )
                    self._remember(ref.message_id, shown)
                    continue
                except discord.NotFound:
                    await self.store.delete_message_ref(ref.message_id)
                    self._shown.pop(ref.message_id, None)
            args = _send_args(post, row, nonce=f"br{row.id}t{index}")
            if view is not None:
                args["view"] = view
            sent = await self._send_once([row], thread_id, post, lambda a=args: self._thread(thread_id).send(**a))
            await self.store.put_message_ref(
                MessageRef(message_id=sent.id, channel_id=thread_id, game_id=record.id, kind=kind, key=key)
            )
            self._remember(sent.id, shown)
            for emoji in post.reactions:
                await sent.add_reaction(emoji)

    def _remember(self, message_id: int, shown: str) -> None:
        self._shown[message_id] = shown
        self._shown.move_to_end(message_id)
        while len(self._shown) > SHOWN_LIMIT:
            self._shown.popitem(last=False)

    async def _status(
        self, group: list[OutboxRecord], record: GameRecord, table: Table, carrier: Carrier | None
    ) -> None:
        last = group[-1]
        thread_id = record.thread_id
        if thread_id is None or table.state is None:
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

    async def _hand(
        self,
        group: list[OutboxRecord],
        record: GameRecord,
        table: Table,
        seat: int,
        notes: list[str],
        report: FlushReport,
        carrier: Carrier | None = None,
    ) -> None:
        last = group[-1]
        seat_rec = next((s for s in table.seats if s.seat == seat), None)
        retry = any(r.payload.get("retry_dm") for r in group)
        if (
            table.state is None
            or seat_rec is None
            or seat_rec.player_id is None
            or (seat_rec.dm_ok is False and not retry)
        ):
            await self.store.mark_delivered(last.id)
            return
        post = hand_post(self.bot.service.presentation(record.kind), table, seat, notes)
        view = view_for(record.id, post.buttons)
        ref = await self.store.find_message_ref(record.id, outbox.HAND, seat=seat)
        adopted: MessageRef | None = None
        if ref is None:
            welcome = await self.store.find_message_ref(record.id, outbox.WELCOME, key=str(seat_rec.player_id))
            if welcome is not None:
                adopted = ref = MessageRef(
                    message_id=welcome.message_id,
                    channel_id=welcome.channel_id,
                    game_id=record.id,
                    kind=outbox.HAND,
                    seat=seat,
                )
        if ref is not None:
            ids = {r.id for r in group}
            if carrier is not None and carrier.can_edit(ids, ref.message_id) and carrier.claim():
                # The player clicked a button on this very hand message: its response is the edit.
                await carrier.interaction.response.edit_message(content=None, embed=post.embed(), view=view)
                carrier.used = True
                await self.store.mark_delivered(last.id, refs=[adopted] if adopted else [])
                await self._dm_works(record, seat_rec.seat, seat_rec.dm_ok)
                return
            try:
                await (
                    self.bot.get_partial_messageable(ref.channel_id, type=discord.ChannelType.private)
                    .get_partial_message(ref.message_id)
                    .edit(content=None, embed=post.embed(), view=view)
                )
                await self.store.mark_delivered(last.id, refs=[adopted] if adopted else [])
                await self._dm_works(record, seat_rec.seat, seat_rec.dm_ok)
                return
            except discord.NotFound:
                if adopted is None:
                    await self.store.delete_message_ref(ref.message_id)
            except discord.Forbidden as exc:
                await self._dm_closed(record, table, seat, seat_rec.player_id, exc, report)
                await self.store.mark_delivered(last.id)
                return
        try:
            dm = await self.bot.create_dm(discord.Object(id=seat_rec.player_id))
            message = await self._send_once(group, dm.id, post, lambda: dm.send(**_send_args(post, last), view=view))
        except discord.Forbidden as exc:
            await self._dm_closed(record, table, seat, seat_rec.player_id, exc, report)
            await self.store.mark_delivered(last.id)
            return
        new = MessageRef(message_id=message.id, channel_id=dm.id, game_id=record.id, kind=outbox.HAND, seat=seat)
        await self.store.mark_delivered(last.id, refs=[new])
        await self._dm_works(record, seat, seat_rec.dm_ok)

    async def _dm(self, row: OutboxRecord, record: GameRecord, table: Table, report: FlushReport) -> None:
        seat = int(row.payload["seat"])
        seat_rec = next((s for s in table.seats if s.seat == seat), None)
        if seat_rec is None or seat_rec.player_id is None or seat_rec.dm_ok is False:
            await self.store.mark_delivered(row.id)
            return
        post = Post(content=table.render(row.payload.get("text", "")))
        try:
            dm = await self.bot.create_dm(discord.Object(id=seat_rec.player_id))
            await self._send_once([row], dm.id, post, lambda: dm.send(**_send_args(post, row)))
        except discord.Forbidden as exc:
            await self._dm_closed(record, table, seat, seat_rec.player_id, exc, report)
        await self.store.mark_delivered(row.id)

    async def _welcome(self, row: OutboxRecord, record: GameRecord, table: Table, report: FlushReport) -> None:
        user_id = int(row.payload["user_id"])
        seat_rec = next((s for s in table.seats if s.player_id == user_id), None)
        existing = await self.store.find_message_ref(record.id, outbox.WELCOME, key=str(user_id))
        if record.started or seat_rec is None or existing is not None:
            await self.store.mark_delivered(row.id)
            return
        where = f"<#{record.thread_id}>" if record.thread_id else f"<#{record.channel_id}>"
        title = f"{table.game.title} #{record.id}"
        post = Post(
            content=f"👋 You joined **{title}** ({where}). Your hand will appear in this message when the game starts."
        )
        try:
            dm = await self.bot.create_dm(discord.Object(id=user_id))
            message = await self._send_once([row], dm.id, post, lambda: dm.send(**_send_args(post, row)))
        except discord.Forbidden as exc:
            await self._dm_closed(record, table, seat_rec.seat, user_id, exc, report)
            await self.store.mark_delivered(row.id)
            return
        ref = MessageRef(
            message_id=message.id, channel_id=dm.id, game_id=record.id, kind=outbox.WELCOME, key=str(user_id)
        )
        await self.store.mark_delivered(row.id, refs=[ref])
        await self._dm_works(record, seat_rec.seat, seat_rec.dm_ok)

    # --- DMs --------------------------------------------------------------------------------------------

    async def _dm_works(self, record: GameRecord, seat: int, dm_ok: bool | None) -> None:
        if dm_ok is not True:
            await self.store.update_seat(record.id, seat, dm_ok=True)

    async def _dm_closed(
        self, record: GameRecord, table: Table, seat: int, user_id: int, exc: discord.Forbidden, report: FlushReport
    ) -> None:
        """The player's DMs are closed: note it once, tell the thread once; the game goes on."""
        report.dm_closed.add(user_id)
        seat_rec = next((s for s in table.seats if s.seat == seat), None)
        if seat_rec is not None and seat_rec.dm_ok is False:
            return
        await self.store.update_seat(record.id, seat, dm_ok=False)
        game_logger(record.id, "boardroom.notifier").info(
            "DMs closed", extra={"fields": {"user": user_id, "code": exc.code}}
        )
        if record.thread_id is None:
            return
        text = (
            f"📪 I can't send direct messages to <@{user_id}>, so their hand won't arrive by DM. "
            "Use `/game hand` any time to see it; after allowing DMs from this server's members, `/game dms` "
            "brings it back to your DMs."
        )
        try:
            await self._thread(record.thread_id).send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as err:
            game_logger(record.id, "boardroom.notifier").warning("could not tell the thread about closed DMs: %s", err)

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

    async def _mark_in_flight(self, row: OutboxRecord) -> None:
        # The lower bound lets a later check look only at messages sent since this attempt began.
        since = discord.utils.time_snowflake(self.bot.clock() - timedelta(seconds=5))
        self._flight[row.id] = since
        await self.store.mark_failed(row.id, f"{IN_FLIGHT} (after {since})")

    async def _already_sent(self, group: list[OutboxRecord], channel_id: int, post: Post) -> discord.Message | None:
        """After a crash: the message an in-flight row already produced, if Discord has it."""
        bounds = [_in_flight_since(r) for r in group]
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

    # --- failures ---------------------------------------------------------------------------------------

    async def _failed(self, row: OutboxRecord, record: GameRecord, exc: discord.HTTPException) -> None:
        problem = _problem(exc, row.kind)
        error = f"{exc.status} {exc.code}: {exc.text}"
        since = self._flight.get(row.id)
        if since is not None and row.id in self._partial:  # part of it is posted: the retry must look before sending
            error = f"{IN_FLIGHT} (after {since}) — {error}"
        attempts = await self.store.mark_failed(row.id, error[:500])
        game_logger(record.id, "boardroom.notifier").warning(
            "delivery failed: %s", problem, extra={"fields": {"row": row.id, "kind": row.kind, "attempts": attempts}}
        )
        await self.report(record, problem)

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
                await self.bot.get_partial_messageable(record.channel_id).send(mention + text)
            except discord.HTTPException:
                game_logger(record.id, "boardroom.notifier").warning(
                    "could not report the problem to anyone: %s", problem
                )


def hand_post(presentation: Presentation, table: Table, seat: int, notes: Sequence[str] = ()) -> Post:
    """The seat's hand message: the presentation's private view, with the seat's latest private events."""
    post = presentation.private_view(table, seat)
    if notes:
        post.fields = [*post.fields, ("Latest", "\n".join(table.render(n) for n in notes[-10:]))]
    return post


def split_lines(lines: Sequence[str], limit: int = MAX_CONTENT) -> list[str]:
    """Lines joined into as few messages of at most `limit` characters as they fit in, breaking only between lines
    (a single line longer than a message is cut, with "…")."""
    parts: list[str] = []
    current = ""
    for line in lines:
        if len(line) > limit:
            line = line[: limit - 1] + "…"
        if current and len(current) + 1 + len(line) > limit:
            parts.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current or not parts:
        parts.append(current)
    return parts


def _shows(post: Post) -> str:
    embed = post.embed()
    return json.dumps(
        [post.text, embed.to_dict() if embed else None, button_signature(post.buttons)], sort_keys=True, default=str
    )


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
