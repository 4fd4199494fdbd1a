"""A game's own buttons: every key the platform's buttons don't claim goes to the game's presentation, which opens a
form (`button_form`), answers privately (`button_reply`) or makes the move (`button_action`); and the status
message's "Details" (key `details`), the whole table shown privately, to players and onlookers alike.

A click on a private message (a hand DM, an ephemeral answer) acts for the clicker's seat and answers by bringing
that message up to date as the seat's hand; a refusal there is shown on top of it. A hand DM must be the clicker's
own current one: a stale or someone else's is refused.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot import outbox
from bot.clicks import Click, GameButton
from bot.cogs.mod import UndoButton
from bot.components import unclaimed, view_for
from bot.forms import DONE, GameForm
from bot.hand_answer import HandButton, hand_answer
from bot.handover_buttons import HandoverButton
from bot.help_answer import HelpButton
from bot.i18n.platform import _
from bot.lobby_buttons import LOBBY_BUTTONS
from bot.rematch import RematchButton
from bot.replies import Answer
from bot.service import Refusal

if TYPE_CHECKING:
    from bot.notifier import Carrier


class DetailsButton(GameButton, keys="details"):
    """The whole table, privately: for onlookers too (no seat check)."""

    async def clicked(self, click: Click) -> Answer | None:
        service = click.bot.service
        presentation = service.read.presentation(click.record.kind)
        details = presentation.status_details(await service.read.table(click.game_id, record=click.record))
        if details is None:
            raise Refusal(_("The status message shows all there is."))
        return Answer(text=details.text or None, embed=details.embed())


PLATFORM_BUTTONS = (HandButton, RematchButton, HelpButton, UndoButton, *LOBBY_BUTTONS, DetailsButton, HandoverButton)
"""The buttons whose keys are the platform's: a game's own key is any other."""


class OwnButton(GameButton, keys=unclaimed(PLATFORM_BUTTONS)):
    """A key of the game's own: its presentation's form, private reply or move, for the clicker's seat."""

    async def clicked(self, click: Click) -> Answer | None:
        bot, interaction, game_id, key, carrier = click.bot, click.interaction, click.game_id, click.key, click.carrier
        service = bot.service
        user_id = click.user.id
        presentation = service.read.presentation(click.record.kind)
        seat = await service.read.seat_of(game_id, user_id)  # refuses anyone who doesn't play
        private = await _private_click(click, seat)
        if click.record.started:
            table = await service.read.table(game_id, record=click.record)
            form = presentation.controls.button_form(table, seat, key)
            if form is not None:  # a modal must be the click's first and only response
                if not carrier.claim():
                    raise Refusal(_("That took too long: click the button again to open the form."))
                await interaction.response.send_modal(GameForm(bot, game_id, form))
                carrier.used = True
                return None
            reply = presentation.controls.button_reply(table, seat, key)
            if reply is not None:
                return Answer(text=reply.text or None, embed=reply.embed(), view=view_for(game_id, reply.buttons))
        try:
            done = await service.play.act_for_seat(
                game_id, user_id, lambda table, seat: presentation.controls.button_action(table, seat, key)
            )
        except Refusal as refusal:
            if private and _ephemeral(interaction.message):
                return await _refresh_private(click, refusal.message)
            raise
        carrier.for_rows(done.outbox_ids).private = private
        await bot.notifier.flush(game_id, carrier)
        if private and not carrier.used:
            if _answer_to_a_click(interaction.message) and await _hand_in_dm(click, seat):
                return await _settled(interaction, carrier)
            return await _refresh_private(click)
        return None


async def _private_click(click: Click, seat: int) -> bool:
    """Whether the clicked message is private (a hand DM or an ephemeral answer). A hand DM must be the
    clicker's own current one: a stale or someone else's is refused."""
    message = click.interaction.message
    if message is None:
        return False
    if _ephemeral(message):
        return True
    ref = await click.bot.store.refs.get(message.id)
    if ref is not None and ref.game_id == click.game_id and ref.kind == outbox.HAND:
        if ref.seat != seat:
            raise Refusal(_("These buttons belong to another seat's hand. `/game hand` shows yours."))
        return True
    if click.interaction.guild_id is None:  # a DM that is no longer anyone's hand message
        raise Refusal(_("This message is out of date: your hand is in my latest DM for this game, or `/game hand`."))
    return False


async def _hand_in_dm(click: Click, seat: int) -> bool:
    """Whether the seat's hand is a DM the bot can edit (it then shows the move's outcome)."""
    store = click.bot.store
    seats = await store.seats.of_game(click.game_id)
    if any(s.seat == seat and s.dm_ok is False for s in seats):
        return False
    return await store.refs.find(click.game_id, outbox.HAND, seat=seat) is not None


async def _settled(interaction: discord.Interaction, carrier: Carrier) -> Answer | None:
    """A private answer to a button (e.g. the limits behind Object…) whose choice was made: it says so, without
    buttons — a second copy of the hand would only go stale beside the DM, which shows the move already."""
    text = _(DONE)
    if carrier.claim():
        await interaction.response.edit_message(content=text, embed=None, view=discord.ui.View())
        carrier.used = True
        return None
    return Answer(text=text, always=True)  # deferred: a follow-up instead


async def _refresh_private(click: Click, note: str | None = None) -> Answer | None:
    """Edit the clicked private message into the seat's current hand (with `note` on top), as the response."""
    interaction, carrier = click.interaction, click.carrier
    hand = await hand_answer(click.bot, click.game_id, click.user.id)
    text = note or None
    view = hand.view or discord.ui.View()
    if carrier.claim():
        if interaction.message is not None:  # (a hand DM shows this now, not what the notifier last sent it)
            click.bot.notifier.edited_elsewhere(interaction.message.id)
        await interaction.response.edit_message(content=text, embed=hand.embed, view=view)
        carrier.used = True
        return None
    return Answer(text=text, embed=hand.embed, view=view, always=True)  # deferred: a follow-up instead


def _ephemeral(message: discord.Message | None) -> bool:
    return message is not None and message.flags.ephemeral


def _answer_to_a_click(message: discord.Message | None) -> bool:
    """An ephemeral message that answered a button (a `button_reply`), not a `/game hand` answer."""
    meta = message.interaction_metadata if message is not None else None
    return _ephemeral(message) and meta is not None and meta.type == discord.InteractionType.component


GAME_BUTTONS = (*PLATFORM_BUTTONS, OwnButton)
"""Every game button, for the client to register at start-up."""
