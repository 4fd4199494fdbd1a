"""The handover buttons on the status message (`bot.handover`): **Take seat N** / **Decline** for an offered seat,
**Yes** / **No** for a replacement vote. Each acts through `service.handover` for the clicker, who is checked there
(the offered person, the leaver, the other players)."""

from bot.clicks import Click, GameButton
from bot.handover import KEYS
from bot.replies import Answer


class HandoverButton(GameButton, keys=KEYS):
    async def clicked(self, click: Click) -> Answer | None:
        _, what, number = click.key.split(".")
        handover = click.bot.service.handover
        seat = int(number)
        if what == "take":
            done = await handover.take(click.game_id, click.person, seat)
        elif what == "drop":
            done = await handover.drop(click.game_id, click.person, seat)
        else:
            done = await handover.cast(click.game_id, click.person, seat, what == "yes")
        await click.bot.notifier.flush(done.game_id)
        return Answer(text=done.message)
