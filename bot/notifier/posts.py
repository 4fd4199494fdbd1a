"""Thread posts: the narration of each action (split when long, or carried by a tracked post) and tracked messages."""

import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from bot import outbox
from bot.awaiting import prompt_words, stored_wait
from bot.components import view_for
from bot.i18n.platform import _
from bot.notifier.ledger import Ledger
from bot.notifier.sending import (
    MENTIONS,
    Carrier,
    Sender,
    _dt,
    _in_flight_since,
    _merged_into,
    _send_args,
    _shows,
    _signature,
)
from bot.notifier.threads import Threads
from bot.presentation import MAX_CONTENT, Aside, Post, Table, moment, standings_lines
from bot.routing import REMINDER, reminder_words
from engine.events import Event
from engine.text import render
from storage import GameRecord, MessageRef, OutboxRecord

if TYPE_CHECKING:
    from bot.notifier.status import Status

log = logging.getLogger("boardroom.notifier")
TAIL_LIMIT = 1600
"""How long a narration message may grow by quiet additions: past it, the next narration is a new message (Discord's
limit is 2000; a long block is also hard to read on a phone)."""


class Posts:
    """The table thread's narration and tracked messages (a reaction window's announcement, an offer…)."""

    def __init__(self, sender: Sender, ledger: Ledger, threads: Threads, status: "Status") -> None:
        self.sender = sender
        self.bot = sender.bot
        self.ledger = ledger
        self.threads = threads
        self.status = status
        """The status message, which may ride on a narration edit (`Status.rider`)."""

    async def narrate(
        self,
        row: OutboxRecord,
        rows: list[OutboxRecord],
        record: GameRecord,
        table: Table,
        carrier: Carrier | None,
    ) -> None:
        thread_id = record.thread_id
        assert thread_id is not None  # the delivery loop holds thread rows back until the thread exists
        presentation = self.bot.service.read.presentation(record.kind)
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
        actor = row.payload.get("actor")
        hush = {int(s) for s in row.payload.get("hush", [])}  # in their quiet hours: pinged when they end
        in_hand = {int(s) for s in row.payload.get(outbox.IN_HAND, [])}  # prompted in their hand DM (`Hands.hand`)
        reminder = row.payload.get(REMINDER)
        if reminder is not None:  # worded now, in the table's language (`bot.routing.reminder_rows`)
            tail.append(reminder_words(table, stored_wait(reminder), names, ping))
        for data in row.payload.get("awaits", []):
            wait = stored_wait(data)
            seats = list(wait.seats)
            # Never the player who just acted, for their own next step; nor those reached by DM, their hand DM or
            # the digest, nor those in their quiet hours (a `wake` reminder pings them when they end).
            unpinged = set(data.get(outbox.ELSEWHERE, ())) | in_hand | hush
            pinged_now = [s for s in seats if s != actor and s not in unpinged]
            said = prompt_words(table, wait, names, table.mention, pinged_now)
            line = _("⏳ %(said)s (deadline %(when)s)", said=said, when=moment(_dt(data["deadline"])))
            # The actor's own next step (e.g. their actions going on) is news to nobody: said where it costs no new
            # message, like any `Aside` (the status shows it anyway).
            tail.append(Aside(line) if seats == [actor] else line)
        if row.payload.get("result") and table.state is not None:
            # The end: everyone pinged once, the standings once, and the game's summary.
            result = table.result or table.game.standings(table.state)
            everyone = " ".join(names[s] if s in hush else table.mention(s) for s in range(len(names)))
            if table.result is not None:
                over = _("🏁 **%(title)s is over** — %(everyone)s", title=table.title, everyone=everyone)
            else:
                over = _("🏁 **%(title)s has ended** — %(everyone)s", title=table.title, everyone=everyone)
            standing = standings_lines(table, result, presentation)
            if result.reason and lines:
                standing = standing[:-1]  # the game's own last lines, just above, say how it ended: not twice
            tail += [over, *standing]
            tail += presentation.summary(table)
            tail.append(_("🔁 **Rematch** on the status message opens a new lobby for the same table."))
        narrating = await self._narrating_post(row, rows, record, table)
        if narrating is not None:
            await self._post_narrating(row, narrating, [*intro, *tail], record, carrier)
            return
        lines = [*intro, *lines, *tail]
        if not lines:
            return
        if all(isinstance(line, Aside) for line in lines):
            tail_message = self.threads.tails.get(thread_id)
            if tail_message is None or len(tail_message[1]) + 1 + len("\n".join(lines)) > TAIL_LIMIT:
                return  # shown elsewhere already (the status, a tracked message): not worth a new message
        parts = split_lines(lines, MAX_CONTENT)
        if len(parts) > 1:
            await self._post_parts(row, thread_id, parts, carrier)
            return
        content = parts[0]
        if await self._added_to_tail(row, rows, record, table, content, carrier):
            return
        post = Post(content=content)
        if carrier is not None and carrier.can_post(row, thread_id) and carrier.claim():
            await self.sender.mark_in_flight(row)
            response = await carrier.interaction.response.send_message(content, allowed_mentions=MENTIONS)
            carrier.used = True
            if response.message_id is not None:
                self.threads.tails[thread_id] = (response.message_id, content)
                self.threads.answers[thread_id] = (response.message_id, 0)
                self.sender.tokens.made(response.message_id, carrier.interaction, original=True)
            return
        message = await self.sender.send_once(
            [row], thread_id, post, lambda: self.sender.new_message(row, thread_id, _send_args(post, row))
        )
        self.threads.tails[thread_id] = (message.id, content)
        if self.sender.tokens.lives(message.id):  # a command's follow-up
            self.threads.answers[thread_id] = (message.id, 0)

    async def _added_to_tail(
        self,
        row: OutboxRecord,
        rows: list[OutboxRecord],
        record: GameRecord,
        table: Table,
        content: str,
        carrier: Carrier | None,
    ) -> bool:
        """A quiet thread: narration that pings nobody is added, by an edit, to the bot's narration message that is
        still the thread's newest message (`saw_message` ends that run), instead of posting one more message — so
        a pass, a half-shake or a card played costs no new message, and people read the table's story in a few
        messages, not one per click. A command's interaction is answered first, privately, with the same lines.
        When the same pass edits the status too, the status rides on that one edit (`Status.rider`).

        Exactly once: the row is marked in flight with the message it is added to; a retry after a crash first
        looks there and finds the lines if the edit went through."""
        thread_id = record.thread_id
        assert thread_id is not None
        merged = _merged_into(row)
        if merged is not None:
            try:
                found = await self.sender.thread(thread_id).fetch_message(merged)
                if content in found.content:
                    return True  # the edit went through before the crash
            except discord.NotFound:
                pass
        elif await self._merged_before(row, thread_id, content):
            return True
        tail = self.threads.tails.get(thread_id)
        if tail is None or "<@" in content:
            return False
        message_id, text = tail
        joined = f"{text}\n{content}"
        if len(joined) > TAIL_LIMIT:
            return False
        ride = await self.status.rider(message_id, rows[rows.index(row) + 1 :] if row in rows else [], record, table)
        await self.sender.mark_in_flight(row, merged_into=message_id)
        if (
            carrier is not None
            and carrier.interaction.type == discord.InteractionType.application_command
            and carrier.can_post(row, thread_id)
            and carrier.claim()
        ):
            await carrier.interaction.response.send_message(content, ephemeral=True, allowed_mentions=MENTIONS)
            carrier.used = True
        extra = ride.args if ride is not None else {}
        try:
            edited = await self.sender.edit_message(
                thread_id, message_id, content=joined, allowed_mentions=MENTIONS, **extra
            )
        except discord.NotFound:
            self.threads.tails.pop(thread_id, None)
            return False
        self.threads.tails[thread_id] = (message_id, joined)
        if ride is not None:
            await self.status.rode(ride, edited, message_id)
        return True

    async def _merged_before(self, row: OutboxRecord, thread_id: int, content: str) -> bool:
        """After a crash, for a row committed by an earlier process and not marked in flight (a fresh row is merged
        without a mark: no write per quiet move): whether its lines were already added to one of the thread's
        newest messages — the bot's, edited after the row's commit (its guard) or attempt, holding exactly these
        lines."""
        if row.id in self.ledger.fresh or outbox.never_attempted(row):
            return False  # (never tried: it can't have been added anywhere)
        bound = _in_flight_since(row) or row.payload.get(outbox.GUARD)
        if bound is None:
            return False
        committed = discord.utils.snowflake_time(int(bound))
        me = self.bot.user
        # (The thread's newest messages, read once: the same read tells `Sender.already_sent` whether the row was
        # posted as a message instead, if it comes to that.)
        for message in (await self.sender.newest(thread_id, row))[:10]:
            if me is not None and message.author.id != me.id:
                continue
            edited = message.edited_at
            if edited is not None and edited >= committed and f"\n{content}" in f"\n{message.content}\n":
                log.info("merged narration found after a restart; not adding it again", extra={"game": row.game_id})
                return True
        return False

    async def _post_parts(self, row: OutboxRecord, thread_id: int, parts: list[str], carrier: Carrier | None) -> None:
        """A narration too long for one message, as several split at line breaks, each posted once: the row is
        marked in flight before the first part (keeping an earlier attempt's mark, so its bound covers every part
        sent so far), and a retry first finds the parts that already reached the thread and sends only the rest."""
        posts = [Post(content=p) for p in parts]
        sent = await self._parts_sent(row, thread_id, posts)
        since = self.sender.since(row)
        if since is None:
            await self.sender.mark_in_flight(row)
        else:
            self.sender.flight[row.id] = since
        if sent:
            self.sender.partial.add(row.id)
        for index, post in enumerate(posts):
            if index in sent:
                continue
            if not sent and carrier is not None and carrier.can_post(row, thread_id) and carrier.claim():
                response = await carrier.interaction.response.send_message(post.text, allowed_mentions=MENTIONS)
                carrier.used = True
                self.sender.tokens.made(response.message_id, carrier.interaction, original=True)
            else:
                await self.sender.new_message(row, thread_id, _send_args(post, row, nonce=f"br{row.id}p{index}"))
            sent.add(index)
            self.sender.partial.add(row.id)

    async def _parts_sent(self, row: OutboxRecord, channel_id: int, posts: list[Post]) -> set[int]:
        """After a crash (or a failed part): which of a split narration's parts an in-flight row already posted."""
        since = self.sender.since(row)
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
        for post in self.bot.service.read.presentation(record.kind).event_posts(table, events):
            if post.replaces_narration and post.ref is not None:
                kind, key = post.ref
                if await self.ledger.find_ref(record.id, kind, key=key) is None:
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
            await self.sender.mark_in_flight(row)
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
            self.sender.tokens.made(message_id, carrier.interaction, original=True)
        else:
            args = _send_args(sent, row)
            if view is not None:
                args["view"] = view
            message_id = (
                await self.sender.send_once(
                    [row], thread_id, sent, lambda: self.sender.new_message(row, thread_id, args)
                )
            ).id
        # The reactions before the delivery is recorded: after a crash in between, the retry finds the message
        # (the row is in flight) and adds them again (adding the bot's own reaction twice is harmless).
        message = self.sender.thread(thread_id).get_partial_message(message_id)
        for emoji in post.reactions:
            await message.add_reaction(emoji)
        kind, key = post.ref
        ref = MessageRef(message_id=message_id, channel_id=thread_id, game_id=record.id, kind=kind, key=key)
        await self.ledger.mark(row, refs=[ref])
        self.sender.remember(message_id, _shows(post))

    async def tracked(
        self, row: OutboxRecord, record: GameRecord, table: Table, carrier: Carrier | None = None
    ) -> None:
        """The game's tracked messages for these events: edited through their reference, or posted (once). A
        button clicked on one of them answers by editing it (the interaction's response: no extra call)."""
        thread_id = record.thread_id
        assert thread_id is not None  # the delivery loop holds thread rows back until the thread exists
        events = [Event.model_validate(e) for e in row.payload.get("events", [])]
        presentation = self.bot.service.read.presentation(record.kind)
        posts = presentation.event_posts(table, events) if events and table.state is not None else []
        refs = {p.ref for p in posts}
        live = presentation.live_posts(table) if table.state is not None else []
        live = [p for p in live if p.ref is not None and p.ref not in refs]
        for index, post in enumerate([*posts, *live]):
            if post.ref is None:
                continue
            kind, key = post.ref
            ref = await self.ledger.find_ref(record.id, kind, key=key)
            if ref is None and index >= len(posts):
                continue  # a live post is only ever edited
            view = view_for(record.id, post.buttons) if post.buttons else None
            shown = _shows(post)
            if ref is not None:
                if self.sender.shown.get(ref.message_id) == shown:
                    await self._settle(record, post, ref.message_id)
                    continue
                try:
                    if carrier is not None and carrier.can_edit({row.id}, ref.message_id) and carrier.claim():
                        await carrier.interaction.response.edit_message(
                            content=post.text or None, embed=post.embed(), view=view
                        )
                        carrier.used = True
                        self.sender.remember(ref.message_id, shown)
                        await self._settle(record, post, ref.message_id)
                        continue
                    await self.sender.edit_message(
                        ref.channel_id,
                        ref.message_id,
                        content=post.text or None,
                        embed=post.embed(),
                        view=view,
                        allowed_mentions=MENTIONS,
                    )
                    self.sender.remember(ref.message_id, shown)
                    await self._settle(record, post, ref.message_id)
                    continue
                except discord.NotFound:
                    await self.ledger.drop_ref(record.id, ref.message_id)
                    self.sender.shown.pop(ref.message_id, None)
            args = _send_args(post, row, nonce=f"br{row.id}t{index}")
            if view is not None:
                args["view"] = view
            sent = await self.sender.send_once(
                [row], thread_id, post, lambda a=args: self.sender.new_message(row, thread_id, a)
            )
            if not post.settled:  # posted settled (e.g. made and void in one action): nothing will look it up
                await self.ledger.put_ref(
                    MessageRef(message_id=sent.id, channel_id=thread_id, game_id=record.id, kind=kind, key=key)
                )
                self.sender.remember(sent.id, shown)
            for emoji in post.reactions:
                await sent.add_reaction(emoji)

    async def _settle(self, record: GameRecord, post: Post, message_id: int) -> None:
        """A settled post shows its last look: its reference is retired with the pass (`Post.settled`)."""
        if post.settled:
            await self.ledger.retire_ref(record.id, message_id)
            self.sender.shown.pop(message_id, None)


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
