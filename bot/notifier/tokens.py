"""Interaction tokens: a game's thread messages sent and edited with a recent command's own token.

Discord limits a bot to 50 REST calls a second in all — except the calls made with an interaction's token: its
response, its follow-up messages and the edits of the messages it made "are not bound to the bot's global rate
limit" (Discord's developer docs, Receiving and Responding: Endpoints). A token lives 15 minutes. Under load that
global limit is what makes deliveries queue (at 30 moves a second, ~2.6 calls a move is ~80 calls a second), so
what a command's token can carry, it carries:

- a narration row of the command's move that its answer could not carry (an earlier move of the game was still
  being delivered, so answering with it would have put the thread out of order) is posted later, in order, as the
  command's follow-up (`courier`) instead of as a bot message;
- a message a command made (its public answer, or a follow-up) is edited with that command's token while it lives
  (`edit`): the quiet narration growing by an edit, the status riding on it, a tracked post updated.

Players see the same messages with the same words; a message made by a command shows as its reply (as the narration
already does whenever the answer can carry it). Only slash commands lend their token to follow-ups: a deferred
("thinking…") answer would turn the first follow-up into that private answer, and a button's answer may be an edit
of the clicked message. A token is used until a minute before it expires; a call it fails (expired, revoked) falls
back to the bot's own call, so nothing depends on it. Tokens are not stored: after a restart every edit is the bot's.
"""

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from bot.notifier.sending import Carrier

TOKEN_LIFE = timedelta(minutes=15)
MARGIN = timedelta(minutes=1)
"""A token is not used in its last minute: a call queued behind Discord's limits must still find it alive."""
EDITS = frozenset({"content", "embed", "embeds", "attachments", "view", "allowed_mentions"})
"""The arguments an edit with a token takes (the bot's own edit takes a few more; those edits stay the bot's)."""
UNKNOWN_MESSAGE = 10008
ANSWER_WAIT = 3.0
"""How long a follow-up waits for its command's answer (Discord wants that within 3 s; `bot.replies` defers by 1.5)."""
KEEP = 5000
"""At most this many messages remembered (each entry dies with its token anyway; the bound is for bursts)."""


@dataclass
class Maker:
    """The command whose token made a message: with it, the message is edited outside the global limit."""

    interaction: discord.Interaction
    original: bool
    """The command's answer itself (edited as the original response) rather than one of its follow-ups."""
    until: datetime


class TokenBook:
    """Which recent commands made which messages, and which queued rows a command may still post as follow-ups."""

    def __init__(self, clock: Callable[[], datetime]) -> None:
        self._clock = clock
        self._made: OrderedDict[int, Maker] = OrderedDict()
        self._couriers: dict[int, Carrier] = {}

    def _until(self, interaction: discord.Interaction) -> datetime:
        created = getattr(interaction, "created_at", None)
        return (created if isinstance(created, datetime) else self._clock()) + TOKEN_LIFE - MARGIN

    # --- messages made by a command ------------------------------------------------------------------

    def made(self, message_id: int | None, interaction: discord.Interaction, *, original: bool) -> None:
        """`interaction` made message `message_id` (its answer, or a follow-up): its edits may use the token."""
        if message_id is None:
            return
        now = self._clock()
        while self._made and (len(self._made) >= KEEP or next(iter(self._made.values())).until <= now):
            self._made.popitem(last=False)
        self._made[message_id] = Maker(interaction, original, self._until(interaction))

    async def edit(self, message: discord.PartialMessage, **kwargs: Any) -> discord.Message:
        """Edit `message`: with the token of the command that made it while that lives, else as the bot."""
        maker = self._made.get(message.id)
        if maker is not None and self._clock() < maker.until and set(kwargs) <= EDITS:
            try:
                if maker.original:
                    return await maker.interaction.edit_original_response(**kwargs)
                return await maker.interaction.followup.edit_message(message.id, **kwargs)
            except discord.NotFound as exc:
                if exc.code == UNKNOWN_MESSAGE:
                    raise  # the message is gone: the bot's own edit would find the same
                self._made.pop(message.id, None)  # the token is (no longer) known to Discord
            except discord.HTTPException:
                self._made.pop(message.id, None)
        return await message.edit(**kwargs)

    # --- rows a command's follow-ups may post -------------------------------------------------------

    def carry_later(self, carrier: "Carrier", row_ids: set[int]) -> None:
        """The rows of `carrier`'s move its answer did not carry: the worker may post them as its follow-ups."""
        interaction = carrier.interaction
        if carrier.private or interaction.type != discord.InteractionType.application_command:
            return
        for row_id in row_ids:
            self._couriers[row_id] = carrier

    def courier(self, row_id: int, channel_id: int) -> "Carrier | None":
        """The command that may post row `row_id` in `channel_id` as its follow-up (once answered: `answered`).
        None: the bot posts it itself."""
        carrier = self._couriers.get(row_id)
        if carrier is None or carrier.interaction.channel_id != channel_id:
            return None
        return carrier

    async def answered(self, carrier: "Carrier") -> discord.Interaction | None:
        """The carrier's interaction once its answer is out (waited for: its follow-ups must come after it), if a
        follow-up may go out now: not deferred (see the module's docstring), its token alive."""
        if not carrier.settled.is_set():
            try:
                await asyncio.wait_for(carrier.settled.wait(), ANSWER_WAIT)
            except TimeoutError:
                return None
        interaction = carrier.interaction
        if carrier.deferred or not interaction.response.is_done():
            return None
        if self._clock() >= self._until(interaction):
            return None
        return interaction

    def done(self, row_id: int) -> None:
        """The row was delivered or failed: its command no longer carries it."""
        self._couriers.pop(row_id, None)
