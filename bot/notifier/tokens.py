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
back to the bot's own call, so nothing depends on it.

A message's token is stored with its reference (`MessageRef.token`: `stamp`, in the write that stores the reference
anyway), so that after a restart a message made by a command less than 15 minutes ago (the status riding on its
narration, a tracked post) is still edited with it (`learn`, through an interaction webhook made from the bot's
application id and the token: `discord.Webhook.partial`), not as the bot under the global limit. The store clears
expired tokens on its next write of references; a token is never logged.
"""

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord

from storage import MessageRef

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

    interaction: discord.Interaction | None
    """The interaction itself (this process received it), or None: its token read back with the message's
    reference after a restart (`token`)."""
    original: bool
    """The command's answer itself (edited as the original response) rather than one of its follow-ups."""
    until: datetime
    token: str | None = field(default=None, repr=False)
    """The interaction's token (read from the interaction when it is there)."""
    expires: datetime | None = None
    """When the token expires (`until` is a `MARGIN` earlier)."""

    def secret(self) -> str | None:
        token = self.token if self.interaction is None else getattr(self.interaction, "token", None)
        return token if isinstance(token, str) and token else None


class TokenBook:
    """Which recent commands made which messages, and which queued rows a command may still post as follow-ups."""

    def __init__(
        self, clock: Callable[[], datetime], webhook: Callable[[str], discord.Webhook | None] | None = None
    ) -> None:
        self._clock = clock
        self._webhook = webhook
        """The interaction webhook of a token read back (`learn`): None if the bot's application id is not known."""
        self._made: OrderedDict[int, Maker] = OrderedDict()
        self._couriers: dict[int, Carrier] = {}
        self._refused: OrderedDict[str, None] = OrderedDict()
        """Stored tokens Discord refused (revoked, unknown): not learned again from the references that hold them."""

    def _expires(self, interaction: discord.Interaction) -> datetime:
        created = getattr(interaction, "created_at", None)
        return (created if isinstance(created, datetime) else self._clock()) + TOKEN_LIFE

    def _until(self, interaction: discord.Interaction) -> datetime:
        return self._expires(interaction) - MARGIN

    def _keep(self, message_id: int, maker: Maker) -> None:
        now = self._clock()
        while self._made and (len(self._made) >= KEEP or next(iter(self._made.values())).until <= now):
            self._made.popitem(last=False)
        self._made[message_id] = maker

    # --- messages made by a command ------------------------------------------------------------------

    def made(self, message_id: int | None, interaction: discord.Interaction, *, original: bool) -> None:
        """`interaction` made message `message_id` (its answer, or a follow-up): its edits may use the token."""
        if message_id is None:
            return
        expires = self._expires(interaction)
        self._keep(message_id, Maker(interaction, original, expires - MARGIN, expires=expires))

    def stamp(self, ref: MessageRef) -> MessageRef:
        """`ref` with the token of the command that made its message, while that lives (stored with it, so that a
        restarted bot still edits the message with the token); else without a token."""
        maker = self._made.get(ref.message_id)
        token = maker.secret() if maker is not None and self._clock() < maker.until else None
        if maker is None or token is None:
            if ref.token is None:
                return ref
            return ref.model_copy(update={"token": None, "token_expires": None})
        return ref.model_copy(update={"token": token, "token_expires": maker.expires})

    def learn(self, ref: MessageRef) -> None:
        """A reference read back from the store: if it holds a live token (stored by an earlier process), its
        message's edits use it. A message this process knows the maker of already keeps it."""
        if ref.token is None or ref.token_expires is None or ref.message_id in self._made or self._webhook is None:
            return
        if ref.token in self._refused:
            return
        until = ref.token_expires - MARGIN
        if self._clock() >= until:
            return  # expired, or too close to it: the bot's own edits (the store clears it with its next write)
        self._keep(ref.message_id, Maker(None, False, until, token=ref.token, expires=ref.token_expires))

    def lives(self, message_id: int) -> bool:
        """Whether `message_id` can be edited with the token of the command that made it (outside the global limit)."""
        maker = self._made.get(message_id)
        return maker is not None and self._clock() < maker.until

    async def edit(self, message: discord.PartialMessage, **kwargs: Any) -> discord.Message:
        """Edit `message`: with the token of the command that made it while that lives, else as the bot."""
        maker = self._made.get(message.id)
        if maker is not None and self._clock() < maker.until and set(kwargs) <= EDITS:
            interaction = maker.interaction
            # A token read back (no Interaction): its interaction webhook, from the application id and the token.
            webhook = None
            if interaction is None and self._webhook is not None and maker.token:
                webhook = self._webhook(maker.token)
            try:
                if interaction is not None:
                    if maker.original:
                        return await interaction.edit_original_response(**kwargs)
                    return await interaction.followup.edit_message(message.id, **kwargs)
                if webhook is not None:
                    # By the message's id, the answer's too: the webhook's message route takes any message of the
                    # interaction, and discord.py would send "@original" escaped as "%40original".
                    return await webhook.edit_message(message.id, **kwargs)
            except discord.NotFound as exc:
                if exc.code == UNKNOWN_MESSAGE:
                    raise  # the message is gone: the bot's own edit would find the same
                self._refuse(message.id, maker)  # the token is (no longer) known to Discord
            except discord.HTTPException:
                self._refuse(message.id, maker)
        return await message.edit(**kwargs)

    def _refuse(self, message_id: int, maker: Maker) -> None:
        self._made.pop(message_id, None)
        token = maker.secret()
        if token is not None:
            self._refused[token] = None
            while len(self._refused) > KEEP:
                self._refused.popitem(last=False)

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
