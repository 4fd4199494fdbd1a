"""The table's public messages edited in place: the status message in the thread and the lobby message."""

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

import discord

from bot import away, outbox
from bot.components import view_for
from bot.helping import with_help
from bot.i18n.platform import N_, _
from bot.lobby import lobby_post
from bot.logs import game_logger
from bot.notifier.ledger import Ledger
from bot.notifier.sending import (
    MENTIONS,
    Carrier,
    Sender,
    _send_args,
    _shows,
)
from bot.notifier.threads import Threads
from bot.pictures import Picture, Pictures
from bot.presentation import Button, Post, Table
from storage import GameRecord, MessageRef, OutboxRecord

REMATCH = Button(N_("Rematch"), "rematch", "success", "🔁")
"""On a finished game's status: a new lobby for the same game, options and players (`bot.rematch`)."""
STATUS_DEPTH = 6
"""How many messages may pile up below the status message before it moves down, into the newest narration message."""
STATUS_DEPTH_MAX = 12
"""How deep it may sink waiting for a narration message to move into, before it is posted afresh instead."""
RECONCILE_DEPTH = 50
"""How many of a thread's newest messages a start-up reads to find its status (`Status._reconcile`): deeper than
`STATUS_DEPTH_MAX`, so a status kept there is one that would be posted afresh anyway."""

log = logging.getLogger("boardroom.notifier")


@dataclass
class StatusRide:
    """The status riding on a narration edit (`Status.rider`): its rows, where it was, the edit's
    arguments (embed, buttons, picture) and what it then shows."""

    group: list[OutboxRecord]
    ref: MessageRef
    args: dict[str, Any]
    picture: Picture | None
    looks: str


class Status:
    """The status message of each table thread: edited in place, moved down when buried, found again after a
    restart (`_reconcile`), with the table's picture."""

    def __init__(
        self,
        sender: Sender,
        ledger: Ledger,
        threads: Threads,
        tasks: set["asyncio.Task[Any]"],
        flush: Callable[[int], Awaitable[Any]],
    ) -> None:
        self.sender = sender
        self.bot = sender.bot
        self.ledger = ledger
        self.threads = threads
        self._tasks = tasks
        """The notifier's background tasks (a picture that missed its edit is shown by one: `_show_when_ready`)."""
        self._flush = flush
        """The notifier's `flush`: delivers a game's pending rows."""
        self.pictures = Pictures()
        """The tables' pictures (`bot.pictures`): rendered, cached, and which one each status message shows."""
        self._status_text: dict[int, bool] = {}
        """Status message id → whether it has text of its own (the narration it moved into), if this process knows."""
        self.suspects: set[int] | None = None
        """Games whose status may not be where its stored reference says: those with a status row a previous process
        left undelivered (`Notifier.starting`; a move of the status cut short leaves one). Until start-up has
        looked (None), every game is; the others' stored references are right, and need no look at the thread."""

    async def deliver(
        self, group: list[OutboxRecord], record: GameRecord, table: Table, carrier: Carrier | None
    ) -> None:
        last = group[-1]
        thread_id = record.thread_id
        assert thread_id is not None  # the delivery loop holds thread rows back until the thread exists
        if table.state is None:  # a status asked for before the start: the start posts its own
            await self.ledger.mark(last)
            return
        post, view, picture = await self._status_look(record, table)
        ref = await self.ledger.find_ref(record.id, outbox.STATUS)
        adopted: list[MessageRef] = []  # the status found elsewhere than its stored reference says (`_reconcile`)
        if ref is not None and not self._placed(ref):
            if self.suspects is not None and record.id not in self.suspects:
                # Where the stored reference says (no move of it was cut short), at a depth this process doesn't
                # know: it moves down into the next narration message, without a read of the thread, and is never
                # posted afresh for not being known.
                self.threads.status_at[ref.channel_id] = (ref.message_id, STATUS_DEPTH + 1)
            else:
                found = await self._reconcile(ref, post)
                if self.suspects is not None:
                    self.suspects.discard(record.id)  # placed now (or not to be found by reading)
                if found.message_id != ref.message_id:
                    ref = found
                    adopted = [found]
        # A finished table's status stays where it is (edited to its final look): the end message below says the
        # winner and the standings once, and a status moved onto it or posted after it would say them again.
        over = record.status in ("finished", "abandoned")
        buried = ref is not None and self._buried(ref) > STATUS_DEPTH
        onto = None  # (buried, with a narration message at the bottom: it moves there, the newest)
        if ref is not None and not over and not (buried and ref.channel_id in self.threads.tails):
            onto = self._cheaper_below(ref, picture)  # (a message below it that a live token edits)
        if ref is not None and not over and (buried or onto is not None):
            moved = await self._move_into_tail(ref, record, post, view, picture, onto)
            if moved is not None:
                await self.ledger.mark(last, refs=[moved])
                return
            if self._buried(ref) > STATUS_DEPTH_MAX:  # no narration message to move into for too long: repost
                await self._remove_status(ref)
                ref = None
        if ref is not None:
            ids = {r.id for r in group}
            shown = self.pictures.edit_args(ref.message_id, picture, post.embed())
            looks = _looks(post, picture)
            clicked = carrier is not None and carrier.can_edit(ids, ref.message_id)
            if not clicked and self.sender.shown.get(ref.message_id) == looks:
                # The message already shows exactly this (as this process last sent it): no edit needed.
                await self.ledger.mark(last, refs=adopted)
                return
            self.sender.shown.pop(ref.message_id, None)
            if clicked and carrier is not None and carrier.claim():
                response = await carrier.interaction.response.edit_message(view=view, **_text(post), **shown)
                carrier.used = True
                if "attachments" in shown:
                    self.pictures.sent(_resource(response), picture)
                self.sender.remember(ref.message_id, looks)
                await self.ledger.mark(last, refs=adopted)
                return
            try:
                edited = await self.sender.edit_message(
                    ref.channel_id, ref.message_id, view=view, allowed_mentions=MENTIONS, **_text(post), **shown
                )
                if "attachments" in shown:
                    self.pictures.sent(edited, picture)
                self.sender.remember(ref.message_id, looks)
                await self.ledger.mark(last, refs=adopted)
                return
            except discord.NotFound:
                self.pictures.forget(ref.message_id)
                await self.ledger.drop_ref(record.id, ref.message_id)
        first = self.pictures.edit_args(None, picture, post.embed())
        # As the follow-up of the command whose move it shows, when that command can carry it: then its token, not
        # the bot's rate-limited call, edits it while it lives (`Sender.new_message`).
        args = {**_send_args(post, last), **first, "view": view}
        message = await self.sender.send_once(
            group, thread_id, post, lambda: self.sender.new_message(last, thread_id, args)
        )
        self.pictures.sent(message, picture)
        self.threads.status_at[thread_id] = (message.id, 0)
        self._status_text[message.id] = bool(post.text)
        ref = MessageRef(message_id=message.id, channel_id=thread_id, game_id=record.id, kind=outbox.STATUS)
        await self.ledger.mark(last, refs=[ref])

    async def _status_look(self, record: GameRecord, table: Table) -> tuple[Post, discord.ui.View, Picture | None]:
        """The status as it is now: its post (with the platform's buttons), their view, and its picture."""
        presentation = self.bot.service.read.presentation(record.kind)
        post = presentation.status(table)
        away.add_status_lines(post, table)  # "💤 name away until …", the same for every game
        post.buttons = with_help(table, post.buttons)  # the platform's "❓ What can I do?" (`bot.helping`)
        if record.status in ("finished", "abandoned"):
            post.buttons = [*post.buttons, replace(REMATCH, label=_(REMATCH.label))]
        view = view_for(record.id, post.buttons)
        # Rendered from the current state, like the text: a retried edit shows the picture of now.
        picture, late = await self.pictures.picture_or_task(presentation, table)
        if late is not None:
            self._show_when_ready(record.id, late)
        return post, view, picture

    async def rider(
        self, message_id: int, later: list[OutboxRecord], record: GameRecord, table: Table
    ) -> StatusRide | None:
        """The status riding on an edit of the thread's newest narration message (`Posts._added_to_tail`):
        when the same pass also edits the status and the status is on that message already — or buried deep
        enough to move down anyway (`STATUS_DEPTH`; the old one then loses it: `_strip_status`) — one edit shows
        both, the narration's new lines and the status. So a quiet move costs one edit, not two. None: it can't
        ride (no status row in the pass, no status message yet, a status that stays where it is, or one with text
        of its own, which would overwrite the narration)."""
        group = [r for r in later if r.kind == outbox.STATUS and r.id not in self.ledger.marked]
        if not group or table.state is None or record.status in ("finished", "abandoned"):
            return None  # (a finished table's status stays where it is: see `deliver`)
        ref = await self.ledger.find_ref(record.id, outbox.STATUS)
        if ref is None or ref.message_id > message_id or not self._placed(ref):
            return None  # (a status this process hasn't placed yet is found first: `deliver` reconciles it)
        stays = ref.message_id != message_id and self._buried(ref) <= STATUS_DEPTH
        if stays and self._cheaper_below(ref) != (message_id, 0):
            return None  # not worth moving (a status that moved with every quiet line would jump under people's taps)
        post, view, picture = await self._status_look(record, table)
        if post.text or (stays and self._cheaper_below(ref, picture) != (message_id, 0)):
            return None
        args = {"view": view, **self.pictures.edit_args(message_id, picture, post.embed())}
        return StatusRide(group, ref, args, picture, _looks(post, picture))

    async def rode(self, ride: StatusRide, message: discord.Message | None, message_id: int) -> None:
        """The edit with the status went through: its rows are delivered, and the status now lives there."""
        moved = await self._status_landed(ride.ref, message_id, message, ride.picture, ride.args)
        for row in ride.group[:-1]:
            await self.ledger.mark(row)
        await self.ledger.mark(ride.group[-1], refs=[moved] if ride.ref.message_id != message_id else [])
        self.sender.remember(message_id, ride.looks)

    async def _status_landed(
        self,
        old: MessageRef,
        message_id: int,
        edited: discord.Message | None,
        picture: Picture | None,
        args: Any,
        depth: int = 0,
    ) -> MessageRef:
        """The status now shows on the narration message `message_id` (edited with `args`; `depth` messages below
        it): its picture noted, and if it moved there, the old message loses it (`_strip_status`). Returns its
        reference there."""
        if "attachments" in args or "file" in args:
            self.pictures.sent(edited, picture)
        if old.message_id != message_id:
            await self.ledger.drop_ref(old.game_id or 0, old.message_id, replaced=True)
            await self._strip_status(old)
        self.threads.status_at[old.channel_id] = (message_id, depth)
        self._status_text[message_id] = True
        return MessageRef(message_id=message_id, channel_id=old.channel_id, game_id=old.game_id, kind=outbox.STATUS)

    def _cheaper_below(self, ref: MessageRef, picture: Picture | bool | None = True) -> tuple[int, int] | None:
        """Where the status is better moved down now, though not buried deep, as (message id, messages below it):
        its message is one only the bot's own, rate-limited call can edit (posted by the bot, or its command's token
        expired) while a narration message below it is one a command made and its token still edits — the thread's
        newest narration message, or else the newest a command's answer made (`Threads.answers`: offers or windows
        may have been posted after it, as long as fewer than `STATUS_DEPTH`). Moving costs one such call (the old
        message stripped) like the edit it replaces, and the status's next edits are free while the token lives;
        it then stays there as any status does (it moves again only when buried or when that token dies).
        None: it stays. Also when the table's picture could not be drawn this time (`picture` None) and the message
        shows the last one: it stays with the message, which keeps it (`True`: not known yet)."""
        if (
            (picture is None and self.pictures.shows(ref.message_id))
            or ref.message_id not in self._status_text  # (its text must be known: stripping it needs no read)
            or self.sender.tokens.lives(ref.message_id)
        ):
            return None
        tail = self.threads.tails.get(ref.channel_id)
        below = [(tail[0], 0)] if tail is not None else []
        answer = self.threads.answers.get(ref.channel_id)
        if answer is not None and answer[1] < STATUS_DEPTH:
            below.append(answer)
        for message_id, depth in below:
            if message_id > ref.message_id and self.sender.tokens.lives(message_id):
                return message_id, depth
        return None

    def _placed(self, ref: MessageRef) -> bool:
        """Whether this process knows where the status is: it posted or moved it, or `_reconcile` found it."""
        at = self.threads.status_at.get(ref.channel_id)
        return at is not None and at[0] == ref.message_id

    async def _reconcile(self, ref: MessageRef, post: Post) -> MessageRef:
        """Where the status really is, the first time this process delivers it (after a start-up): the thread's
        newest messages, back to the stored one, are read once. Every message of the bot's that carries the status
        (its embed's title: `_carries`) but the newest loses it, and the newest is the status from now on.

        This is what makes moving the status crash-safe without a write of its own. A move edits a newer message
        to carry the status, strips the old one, then records the new reference with the pass's marks; a process
        killed anywhere in between leaves the stored reference on the old message while the new one may already
        carry the status (or a fresh copy may be posted). The row is still undelivered, so the restart's catch-up
        comes here before it shows the status anywhere: a copy left by the move is found and kept, the rest are
        stripped, and the thread never shows the status twice. The read also tells how deep the status is, so a
        status that is still near the bottom is edited where it is instead of being posted again."""
        me = self.bot.user
        newest: list[discord.Message] = []  # newest first, down to the stored status message
        try:
            for message in (await self.sender.newest(ref.channel_id))[:RECONCILE_DEPTH]:
                if message.id < ref.message_id:
                    break
                newest.append(message)
        except discord.Forbidden:  # no "Read Message History" (the README asks for it): the status is posted afresh
            log.warning("can't read the thread to find the status", extra={"game": ref.game_id})
            return ref
        carriers = [
            (depth, m)
            for depth, m in enumerate(newest)
            if me is not None and m.author.id == me.id and _carries(m, post)
        ]
        if not carriers:
            stored = newest[-1] if newest and newest[-1].id == ref.message_id else None
            if stored is not None:  # there, without the status (stripped before a crash): it is shown there again
                self.threads.status_at[ref.channel_id] = (stored.id, len(newest) - 1)
                self._status_text[stored.id] = bool(stored.content)
            return ref
        (depth, kept), *others = carriers
        for _depth, other in others:
            self._status_text[other.id] = bool(other.content)
            await self._strip_status(
                MessageRef(message_id=other.id, channel_id=ref.channel_id, game_id=ref.game_id, kind=outbox.STATUS)
            )
        if others:
            log.warning("the status was shown %d times; kept the newest", len(carriers), extra={"game": ref.game_id})
        self.threads.status_at[ref.channel_id] = (kept.id, depth)
        self._status_text[kept.id] = bool(kept.content)
        if kept.id == ref.message_id:
            return ref
        if ref.game_id is not None:  # the kept message's reference, marked with the row, replaces the stored one
            await self.ledger.drop_ref(ref.game_id, ref.message_id, replaced=True)
        return MessageRef(message_id=kept.id, channel_id=ref.channel_id, game_id=ref.game_id, kind=outbox.STATUS)

    async def find_at_start(self, record: GameRecord, table: Table) -> bool:
        """At start-up, for a table whose status row could wait for its next move (`bot.notifier.delivery.can_wait`)
        while a move of the status may have been cut short (`suspects`): the status is found now (`_reconcile`),
        so the thread never shows it twice, even for a while. The read is handed on to the pass's narration
        (`Sender.prefetched`) unless this changed the thread. False: the status shows nowhere (taken off its
        message before a crash): it can't wait."""
        ref = await self.ledger.find_ref(record.id, outbox.STATUS)
        if ref is None or table.state is None or record.thread_id is None:
            return False
        if self._placed(ref):
            return True
        post = self.bot.service.read.presentation(record.kind).status(table)
        messages = await self.sender.newest(record.thread_id)
        self.sender.prefetched[record.thread_id] = messages  # for `_reconcile`
        found = await self._reconcile(ref, post)
        if self.suspects is not None:
            self.suspects.discard(record.id)
        if found.message_id != ref.message_id:
            await self.ledger.put_ref(found)  # (its move's reference, which the cut-short pass never wrote)
        me = self.bot.user
        mine = [m for m in messages if m.id >= ref.message_id and me is not None and m.author.id == me.id]
        carriers = sum(1 for m in mine if _carries(m, post))
        if carriers <= 1:  # nothing stripped: the read still holds
            self.sender.prefetched[record.thread_id] = messages
        return carriers > 0

    def _buried(self, ref: MessageRef) -> int:
        """How many messages sit below the status message (after a restart, when this process doesn't know:
        more than any limit). Past `STATUS_DEPTH` it moves to the bottom — into the newest narration message, so
        moving costs no new message — and past `STATUS_DEPTH_MAX` without such a message it is posted afresh: the
        table's state is always a short scroll away, and never in the thread twice. Moving beats pinning: it needs
        no permission, and a phone shows a thread's newest messages first."""
        at = self.threads.status_at.get(ref.channel_id)
        return STATUS_DEPTH_MAX + 1 if at is None or at[0] != ref.message_id else at[1]

    async def _move_into_tail(
        self,
        ref: MessageRef,
        record: GameRecord,
        post: Post,
        view: discord.ui.View,
        picture: Picture | None,
        onto: tuple[int, int] | None = None,
    ) -> MessageRef | None:
        """Move the status without a new message: onto the thread's newest narration message (the bot's, posted
        after the status), or `onto` (a narration message below the status and how deep it is: `_cheaper_below`),
        which then carries the embed, picture and buttons; the old status keeps its own text (its narration) and
        loses them, or is deleted if it had no text. None: there is no such message."""
        tail = self.threads.tails.get(ref.channel_id)
        if onto is None and tail is not None:
            onto = (tail[0], 0)
        if onto is None or onto[0] <= ref.message_id or post.text:
            return None  # (a status with text of its own would overwrite the narration's)
        message_id, depth = onto
        shown = self.pictures.edit_args(message_id, picture, post.embed())
        try:
            edited = await self.sender.edit_message(
                ref.channel_id, message_id, view=view, allowed_mentions=MENTIONS, **shown
            )
        except discord.NotFound:  # deleted (by a moderator): not a message to move onto any more
            if self.threads.answers.get(ref.channel_id, (None,))[0] == message_id:
                del self.threads.answers[ref.channel_id]
            return None
        return await self._status_landed(ref, message_id, edited, picture, shown, depth)

    async def _strip_status(self, ref: MessageRef) -> None:
        """The old status message after a move: its own narration stays, the status goes (deleted if nothing else)."""
        old = self.sender.thread(ref.channel_id).get_partial_message(ref.message_id)
        self.pictures.forget(ref.message_id)
        try:
            text = self._status_text.pop(ref.message_id, None)
            if text is None:
                text = bool((await old.fetch()).content)
            if text:
                await self.sender.tokens.edit(old, embed=None, view=None, attachments=[])
            else:
                await old.delete()
        except discord.NotFound:
            pass

    async def _remove_status(self, ref: MessageRef) -> None:
        """The status leaves its message to be posted afresh in this pass: the new message's reference, marked with
        the row, replaces this one in the database (no write of its own; until then it names a message that no
        longer shows the status, which the next attempt handles as it does any status it cannot find)."""
        await self._strip_status(ref)
        if ref.game_id is not None:
            await self.ledger.drop_ref(ref.game_id, ref.message_id, replaced=True)
        else:
            await self.bot.store.refs.delete(ref.message_id)
        self.threads.status_at.pop(ref.channel_id, None)

    def _show_when_ready(self, game_id: int, task: "asyncio.Task[Picture | None]") -> None:
        """A picture that missed its status edit: once drawn, another status row (through the outbox, so it
        survives a failure like any edit) shows it — from the cache, without drawing again."""

        async def follow() -> None:
            try:
                if await task is None:
                    return
            except Exception:
                return  # logged where it was drawn; the text is already out
            await self.bot.store.outbox.add(game_id, [outbox.status()], now=self.bot.clock())
            await self._flush(game_id)

        job = asyncio.get_running_loop().create_task(follow())
        self._tasks.add(job)
        job.add_done_callback(self._tasks.discard)


class LobbyMessage:
    """The lobby's message in its channel, edited as players join and options change."""

    def __init__(self, sender: Sender, ledger: Ledger) -> None:
        self.sender = sender
        self.bot = sender.bot
        self.ledger = ledger

    async def deliver(
        self, group: list[OutboxRecord], record: GameRecord, table: Table, carrier: Carrier | None
    ) -> None:
        last = group[-1]
        refs = await self.bot.store.refs.of_game(record.id, kind="lobby")
        if not refs:
            await self.ledger.mark(last)
            return
        ref = refs[0]
        settings = await self.bot.service.read.lobby_settings(record)
        post = lobby_post(table, random_order=settings.random_order, picks=settings.picks)
        view = view_for(record.id, post.buttons) if post.buttons else None
        ids = {r.id for r in group}
        if carrier is not None and carrier.can_edit(ids, ref.message_id) and carrier.claim():
            await carrier.interaction.response.edit_message(embed=post.embed(), view=view)
            carrier.used = True
        else:
            try:
                await (
                    self.sender.thread(ref.channel_id)
                    .get_partial_message(ref.message_id)
                    .edit(embed=post.embed(), view=view)
                )
            except discord.NotFound:
                game_logger(record.id, "boardroom.notifier").warning("the lobby message is gone")
        await self.ledger.mark(last)


def _resource(response: object) -> discord.Message | None:
    """The message an interaction's edit answered with, if discord.py hands it back."""
    resource = getattr(response, "resource", None)
    return resource if isinstance(resource, discord.Message) else None


def _carries(message: discord.Message, post: Post) -> bool:
    """Whether a message of the bot's in a table's thread shows its status: its embed has the status's title, which
    no other message there has (the table's name; a status moved into a narration message has the narration's
    text beside it). Not the footer: some games count piles in it, so it changes from move to move."""
    shown = post.embed()
    return shown is not None and bool(message.embeds) and message.embeds[0].title == shown.title


def _looks(post: Post, picture: Picture | None) -> str:
    """What a status message shows (its post and picture), to skip an edit that would change nothing."""
    return _shows(post) + (picture.digest if picture is not None else "")


def _text(post: Post) -> dict[str, str]:
    """The content argument of a status edit: only when the status has text. Left out, an edit keeps the message's
    text — the narration of a message the status moved into (`content=None` would erase it)."""
    return {"content": post.text} if post.text else {}
