"""“What can I do?” as a private answer: `/game help` and the status message's “❓ What can I do?” button (key
`help`, `bot.helping.HELP_BUTTON`), for anyone who asks — player or onlooker (the button is answered before any
seat check).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.clicks import Click, GameButton
from bot.helping import HELP_KEY, help_post
from bot.replies import Answer
from storage import GameRecord

if TYPE_CHECKING:
    from bot.host import Host


async def help_answer(bot: Host, record: GameRecord, user_id: int) -> Answer:
    """“What can I do?” for this user in this game (`bot.helping`), shown to them alone."""
    table = await bot.service.read.table(record.id, record=record)
    seat = next((s.seat for s in table.seats if s.player_id == user_id), None)
    post = help_post(bot.service.read.presentation(record.kind), table, seat)
    return Answer(text=post.text or None, embed=post.embed())


class HelpButton(GameButton, keys=HELP_KEY):
    async def clicked(self, click: Click) -> Answer | None:
        return await help_answer(click.bot, click.record, click.user.id)
