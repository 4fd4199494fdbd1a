"""A seat's hand as a private answer: `/game hand`, Casablanca's `/cb sheet` and the status message's "My hand"
button (key `hand`), for a player whose hand DM is closed, buried or simply not at hand.

It is the same post as the hand DM (`bot.notifier.hand_post`), with the same buttons; a player whose DMs are closed
is told how to open them again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.clicks import Click, GameButton
from bot.components import view_for
from bot.i18n.platform import N_, _
from bot.notifier import hand_post
from bot.replies import Answer

if TYPE_CHECKING:
    from bot.host import Host

DMS_CLOSED = N_("📪 Your DMs are closed to me. After allowing DMs from this server's members, `/game dms` sends it.")


async def hand_answer(bot: Host, game_id: int, user_id: int) -> Answer:
    """The seat's hand as an ephemeral answer, with its buttons (an empty view when it has none)."""
    table, seat = await bot.service.read.private_view(game_id, user_id)
    post = hand_post(bot.service.read.presentation(table.record.kind), table, seat)
    text = post.text or None
    if any(s.seat == seat and s.dm_ok is False for s in table.seats):
        text = f"{text}\n{_(DMS_CLOSED)}" if text else _(DMS_CLOSED)
    return Answer(text=text, embed=post.embed(), view=view_for(game_id, post.buttons))


class HandButton(GameButton, keys="hand"):
    """ "My hand" on the status message: the clicker's hand, privately."""

    async def clicked(self, click: Click) -> Answer | None:
        return await hand_answer(click.bot, click.game_id, click.user.id)
