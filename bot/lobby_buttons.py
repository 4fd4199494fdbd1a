"""The lobby message's buttons: Join, Leave, Start, and Add / Remove a computer player (`bot.lobby` draws them).

"Add a computer player" answers privately with one button per level (`bot.lobby.level_choice`), after the same
checks as the adding itself; the level's button adds it. Every change is said privately to the clicker (with the
closed-DMs note when their welcome DM failed), and the lobby message shows it to everyone.
"""

from bot.clicks import Click, GameButton
from bot.components import view_for
from bot.lobby import ADD_BOT, REMOVE_BOT, added_level, level_choice
from bot.people import dm_note
from bot.replies import Answer
from bot.resolve import is_moderator
from bot.service import Done
from engine.policy import LEVELS


async def _changed(click: Click, done: Done) -> Answer:
    """Deliver the lobby's change (the answer's carrier may carry it) and say it privately."""
    report = await click.bot.notifier.flush(click.game_id, click.carrier.for_rows(done.outbox_ids))
    note = dm_note(report.dm_closed, click.user.id)
    return Answer(text=(done.message or "") + note, always=bool(note))


async def _moderator(click: Click) -> bool:
    return await is_moderator(click.bot, click.interaction)


class JoinButton(GameButton, keys="join"):
    async def clicked(self, click: Click) -> Answer | None:
        return await _changed(click, await click.bot.service.lobby.join(click.game_id, click.person))


class LeaveButton(GameButton, keys="leave"):
    async def clicked(self, click: Click) -> Answer | None:
        return await _changed(click, await click.bot.service.lobby.leave(click.game_id, click.person))


class StartButton(GameButton, keys="start"):
    async def clicked(self, click: Click) -> Answer | None:
        mod = await _moderator(click)
        return await _changed(click, await click.bot.service.lobby.start(click.game_id, click.person, is_moderator=mod))


class AddBotButton(GameButton, keys=ADD_BOT):
    """Which level: asked privately, after the same checks as the adding itself."""

    async def clicked(self, click: Click) -> Answer | None:
        await click.bot.service.lobby.check_add_bot(click.game_id, click.person, is_moderator=await _moderator(click))
        choice = level_choice()
        return Answer(text=choice.content, view=view_for(click.game_id, choice.buttons))


class AddBotLevelButton(GameButton, keys=rf"{ADD_BOT}:(?:{'|'.join(LEVELS)})"):
    """One level's button of the private level choice: adds a computer player at that level."""

    async def clicked(self, click: Click) -> Answer | None:
        level = added_level(click.key)
        assert level is not None  # the template admits the levels only
        mod = await _moderator(click)
        done = await click.bot.service.lobby.add_bot(click.game_id, click.person, is_moderator=mod, level=level)
        return await _changed(click, done)


class RemoveBotButton(GameButton, keys=REMOVE_BOT):
    async def clicked(self, click: Click) -> Answer | None:
        mod = await _moderator(click)
        return await _changed(
            click, await click.bot.service.lobby.remove_bot(click.game_id, click.person, is_moderator=mod)
        )


LOBBY_BUTTONS = (JoinButton, LeaveButton, StartButton, AddBotButton, AddBotLevelButton, RemoveBotButton)
