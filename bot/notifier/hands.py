"""Private messages: each player's hand DM (edited in place), one-off DMs, lobby welcomes, and closed DMs."""

import contextlib
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import discord

from bot import outbox
from bot.awaiting import stored_wait, task_of
from bot.components import view_for
from bot.i18n import speaking
from bot.i18n.platform import _
from bot.logs import game_logger
from bot.notifier.ledger import Ledger
from bot.notifier.sending import (
    MENTIONS,
    Carrier,
    FlushReport,
    Sender,
    _dt,
    _send_args,
    _shows,
)
from bot.presentation import Post, Presentation, Table, moment, private_post, standings_lines
from bot.routing import FALLBACK, REMINDER, WAIT, dm_words, fallback_words
from engine.events import Event, Wait
from engine.text import render
from storage import GameRecord, MessageRef, OutboxRecord


class Hands:
    """The players' DMs: the hand message of each seat, one-off DMs, welcomes, a retired seat's last word."""

    def __init__(self, sender: Sender, ledger: Ledger) -> None:
        self.sender = sender
        self.bot = sender.bot
        self.ledger = ledger

    async def hand(
        self,
        group: list[OutboxRecord],
        record: GameRecord,
        table: Table,
        seat: int,
        notes: list[str | dict[str, Any]],
        report: FlushReport,
        carrier: Carrier | None = None,
    ) -> None:
        last = group[-1]
        seat_rec = next((s for s in table.seats if s.seat == seat), None)
        retry = any(r.payload.get("retry_dm") for r in group)
        prompt = _prompt_of(group)
        if (
            table.state is None
            or seat_rec is None
            or seat_rec.player_id is None
            or (seat_rec.dm_ok is False and not retry)
        ):
            if seat_rec is not None and seat_rec.player_id is not None and table.state is not None:
                await self._prompt_in_thread(last, record, table, seat, prompt)  # their DMs closed since the commit
            await self.ledger.mark(last)
            return
        post = hand_post(self.bot.service.read.presentation(record.kind), table, seat, notes)
        if prompt is not None and not post.text and table.record.status == "active":
            post = replace(post, content=prompt_line(table, seat, prompt))
        view = view_for(record.id, post.buttons)
        ref = await self.ledger.find_ref(record.id, outbox.HAND, seat=seat)
        if ref is not None and post.text and prompt is not None:
            # It's on them, for a decision made here: the hand comes down to them as a new DM (which notifies; an
            # edit doesn't), and the old one goes — one hand message per game, at the bottom when it's their turn.
            await self._send_new(group, record, table, seat, seat_rec.player_id, post, view, report, old=ref)
            return
        adopted: MessageRef | None = None
        if ref is None:
            welcome = await self.ledger.find_ref(record.id, outbox.WELCOME, key=str(seat_rec.player_id))
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
                await carrier.interaction.response.edit_message(
                    content=post.text or None, embed=post.embed(), view=view
                )
                carrier.used = True
                self.sender.remember(ref.message_id, _shows(post))
                await self.ledger.mark(last, refs=[adopted] if adopted else [])
                await self._dm_works(record, seat_rec.seat, seat_rec.dm_ok)
                return
            looks = _shows(post)
            if adopted is None and self.sender.shown.get(ref.message_id) == looks:
                # The DM already shows exactly this hand (as this process last sent it): no edit needed.
                await self.ledger.mark(last)
                return
            self.sender.shown.pop(ref.message_id, None)
            try:
                await (
                    self.bot.get_partial_messageable(ref.channel_id, type=discord.ChannelType.private)
                    .get_partial_message(ref.message_id)
                    .edit(content=post.text or None, embed=post.embed(), view=view)
                )
                self.sender.remember(ref.message_id, looks)
                await self.ledger.mark(last, refs=[adopted] if adopted else [])
                await self._dm_works(record, seat_rec.seat, seat_rec.dm_ok)
                return
            except discord.NotFound:
                if adopted is None:
                    await self.ledger.drop_ref(record.id, ref.message_id)
            except discord.Forbidden as exc:
                await self._dm_closed(record, table, seat, seat_rec.player_id, exc, report)
                await self.ledger.mark(last)
                return
        await self._send_new(group, record, table, seat, seat_rec.player_id, post, view, report)

    async def _send_new(
        self,
        group: list[OutboxRecord],
        record: GameRecord,
        table: Table,
        seat: int,
        player_id: int,
        post: Post,
        view: discord.ui.View,
        report: FlushReport,
        old: MessageRef | None = None,
    ) -> None:
        """The hand as a new DM; `old`: the hand message it replaces, deleted once the new one is recorded (a crash in
        between leaves the old one showing a stale hand, never the hand twice as the current one)."""
        last = group[-1]
        seat_rec = next((s for s in table.seats if s.seat == seat), None)
        try:
            dm = await self.bot.create_dm(discord.Object(id=player_id))
            message = await self.sender.send_once(
                group, dm.id, post, lambda: dm.send(**_send_args(post, last), view=view)
            )
        except discord.Forbidden as exc:
            await self._dm_closed(record, table, seat, player_id, exc, report)
            await self._prompt_in_thread(last, record, table, seat, _prompt_of(group))
            await self.ledger.mark(last)
            return
        new = MessageRef(message_id=message.id, channel_id=dm.id, game_id=record.id, kind=outbox.HAND, seat=seat)
        if old is not None and old.message_id != message.id:
            await self.ledger.drop_ref(record.id, old.message_id, replaced=True)
        await self.ledger.mark(last, refs=[new])
        self.sender.remember(message.id, _shows(post))
        await self._dm_works(record, seat, seat_rec.dm_ok if seat_rec is not None else None)
        if old is not None and old.message_id != message.id:
            # Gone already, or not ours to delete any more: the new hand is the one that counts.
            with contextlib.suppress(discord.HTTPException):
                await (
                    self.bot.get_partial_messageable(old.channel_id, type=discord.ChannelType.private)
                    .get_partial_message(old.message_id)
                    .delete()
                )

    async def dm(self, row: OutboxRecord, record: GameRecord, table: Table, report: FlushReport) -> None:
        """A one-off DM (a prompt or a reminder for a player who chose DMs). If it can't reach them, its
        `fallback` is posted in the thread, mentioning them: a closed DM never loses a prompt."""
        seat = int(row.payload["seat"])
        seat_rec = next((s for s in table.seats if s.seat == seat), None)
        if seat_rec is None or seat_rec.player_id is None:
            await self.ledger.mark(row)
            return
        if seat_rec.dm_ok is False:
            await self._fall_back(row, record, table, seat)
            await self.ledger.mark(row)
            return
        data = row.payload.get(WAIT)
        if data is not None:  # worded now (`bot.routing.prompt_rows`, `reminder_rows`)
            text = dm_words(table, _own_wait(data, seat), reminder=bool(row.payload.get(REMINDER)))
        else:  # a row of an older database, worded when it was written
            text = table.render(row.payload.get("text", ""))
        post = Post(content=text)
        try:
            dm = await self.bot.create_dm(discord.Object(id=seat_rec.player_id))
            await self.sender.send_once([row], dm.id, post, lambda: dm.send(**_send_args(post, row)))
        except discord.Forbidden as exc:
            await self._dm_closed(record, table, seat, seat_rec.player_id, exc, report)
            await self._fall_back(row, record, table, seat)
        await self.ledger.mark(row)

    async def _prompt_in_thread(
        self, row: OutboxRecord, record: GameRecord, table: Table, seat: int, prompt: dict[str, Any] | None
    ) -> None:
        """A hand that should have come down as a prompt can't reach its player (their DMs are closed): the thread
        pings them with it instead, so no prompt is lost (issue 27: a closed DM falls back to the thread)."""
        if prompt is None or record.status != "active":
            return
        with speaking(table.language):  # the thread's words
            text = fallback_words(table, _own_wait(prompt, seat), seat)
        await self._fall_back(row, record, table, seat, text=text)

    async def _fall_back(
        self, row: OutboxRecord, record: GameRecord, table: Table, seat: int, *, text: str | None = None
    ) -> None:
        """The DM row's thread text (or `text`), mentioning its seat's player, once (`send_once`, like any row)."""
        data = row.payload.get(WAIT)
        if text is None and data is not None:
            with speaking(table.language):  # the thread's words
                text = fallback_words(table, _own_wait(data, seat), seat, reminder=bool(row.payload.get(REMINDER)))
        text = text or row.payload.get(FALLBACK)
        if not text or record.thread_id is None:
            return
        names = [table.mention(i) if i == seat else n for i, n in enumerate(table.names)]
        post = Post(content=render(str(text), names))
        thread = self.sender.thread(record.thread_id)
        await self.sender.send_once(
            [row], record.thread_id, post, lambda: thread.send(post.content, allowed_mentions=MENTIONS)
        )

    async def retire(self, row: OutboxRecord) -> None:
        """A player who lost their seat: their old hand DM now says so, without the hand (whose cards someone else
        holds now); a new DM when that message is gone. Closed DMs: nothing more to do."""
        text = str(row.payload["text"])
        hand = row.payload.get("hand")
        try:
            if hand is not None:
                try:
                    message = self.bot.get_partial_messageable(int(hand[0])).get_partial_message(int(hand[1]))
                    self.sender.shown.pop(message.id, None)
                    await message.edit(content=text, embed=None, view=None, attachments=[])
                    await self.ledger.mark(row)
                    return
                except discord.NotFound:
                    pass
            dm = await self.bot.create_dm(discord.Object(id=int(row.payload["user_id"])))
            post = Post(content=text)
            await self.sender.send_once([row], dm.id, post, lambda: dm.send(**_send_args(post, row)))
        except discord.Forbidden:
            pass
        await self.ledger.mark(row)

    async def welcome(self, row: OutboxRecord, record: GameRecord, table: Table, report: FlushReport) -> None:
        user_id = int(row.payload["user_id"])
        seat_rec = next((s for s in table.seats if s.player_id == user_id), None)
        existing = await self.ledger.find_ref(record.id, outbox.WELCOME, key=str(user_id))
        if record.started or seat_rec is None or existing is not None:
            await self.ledger.mark(row)
            return
        where = f"<#{record.thread_id}>" if record.thread_id else f"<#{record.channel_id}>"
        title = f"{table.game.title} #{record.id}"
        post = Post(
            content=_(
                "👋 You joined **%(title)s** (%(where)s). Your hand will appear in this message when the game starts.",
                title=title,
                where=where,
            )
        )
        try:
            dm = await self.bot.create_dm(discord.Object(id=user_id))
            message = await self.sender.send_once([row], dm.id, post, lambda: dm.send(**_send_args(post, row)))
        except discord.Forbidden as exc:
            await self._dm_closed(record, table, seat_rec.seat, user_id, exc, report)
            await self.ledger.mark(row)
            return
        ref = MessageRef(
            message_id=message.id, channel_id=dm.id, game_id=record.id, kind=outbox.WELCOME, key=str(user_id)
        )
        await self.ledger.mark(row, refs=[ref])
        await self._dm_works(record, seat_rec.seat, seat_rec.dm_ok)

    # --- DMs --------------------------------------------------------------------------------------------

    async def _dm_works(self, record: GameRecord, seat: int, dm_ok: bool | None) -> None:
        if dm_ok is not True:
            await self.bot.store.seats.update(record.id, seat, dm_ok=True)

    async def _dm_closed(
        self, record: GameRecord, table: Table, seat: int, user_id: int, exc: discord.Forbidden, report: FlushReport
    ) -> None:
        """The player's DMs are closed: note it once, tell the thread once; the game goes on."""
        report.dm_closed.add(user_id)
        seat_rec = next((s for s in table.seats if s.seat == seat), None)
        if seat_rec is not None and seat_rec.dm_ok is False:
            return
        await self.bot.store.seats.update(record.id, seat, dm_ok=False)
        game_logger(record.id, "boardroom.notifier").info(
            "DMs closed", extra={"fields": {"user": user_id, "code": exc.code}}
        )
        if record.thread_id is None:
            return
        with speaking(table.language):  # said in the thread
            text = _(
                "📪 I can't send direct messages to %(who)s, so their hand won't arrive by DM. "
                "Use `/game hand` any time to see it; after allowing DMs from this server's members, `/game dms` "
                "brings it back to your DMs.",
                who=f"<@{user_id}>",
            )
        try:
            await self.sender.thread(record.thread_id).send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as err:
            game_logger(record.id, "boardroom.notifier").warning("could not tell the thread about closed DMs: %s", err)


def prompt_line(table: Table, seat: int, prompt: dict[str, Any]) -> str:
    """The line a hand sent as a prompt starts with: it's your turn, for what, by when, and where the table is."""
    task = task_of(table, _own_wait(prompt, seat), table.names)
    if task.role and task.task:
        words = _("as the %(role)s: %(task)s", role=task.role, task=task.task)
    else:
        words = _("as the %(role)s", role=task.role) if task.role else task.task
    where = f" (<#{table.record.thread_id}>)" if table.record.thread_id else ""
    head = _("⏳ **Your turn** in %(title)s%(where)s", title=table.title, where=where)
    if not words:
        return head
    if prompt.get("deadline"):
        due = moment(_dt(prompt["deadline"]))
        return _("%(head)s: %(task)s — deadline %(when)s", head=head, task=words, when=due)
    return _("%(head)s: %(task)s", head=head, task=words)


def _own_wait(data: dict[str, Any], seat: int) -> Wait:
    """The stored wait (`bot.awaiting.wait_data`) as one seat's: a prompt of an older database has no seats."""
    wait = stored_wait(data)
    return wait if wait.seats == (seat,) else wait.model_copy(update={"seats": (seat,)})


def hand_post(presentation: Presentation, table: Table, seat: int, notes: Sequence[str | dict[str, Any]] = ()) -> Post:
    """The seat's hand message: the presentation's private view, with the seat's latest private events (worded
    here, in the language being spoken: the player's; an older row's notes are text already)."""
    post = private_post(presentation, table, seat)
    lines = [line for line in (_note(presentation, table, n) for n in notes) if line]
    if lines:
        latest = "\n".join(lines[-10:])
        post = replace(post, fields=[*post.fields, (_("Latest"), latest)])
    if table.record.status in ("finished", "abandoned") and table.state is not None:
        # The game is over: the hand says so, with the final standings, and its buttons go.
        result = table.result or table.game.standings(table.state)
        if table.result is not None:
            head = _("🏁 **%(title)s is over.**", title=table.title)
        else:
            head = _("🏁 **%(title)s was ended by a moderator.**", title=table.title)
        if table.record.thread_id:
            head += " " + _("The table: %(thread)s.", thread=f"<#{table.record.thread_id}>")
        lines = [head, *standings_lines(table, result, presentation)]
        post = replace(post, content="\n".join(lines), buttons=[])  # a copy: the table's view is shared
    return post


def _prompt_of(group: list[OutboxRecord]) -> dict[str, Any] | None:
    """The prompt the newest of a seat's hand rows carries, if any (`outbox.hand(prompt=…)`)."""
    return next((r.payload["prompt"] for r in reversed(group) if r.payload.get("prompt")), None)


def _note(presentation: Presentation, table: Table, note: str | dict[str, Any]) -> str | None:
    if isinstance(note, str):
        return table.render(note)
    return presentation.private_line(table, Event.model_validate(note))
