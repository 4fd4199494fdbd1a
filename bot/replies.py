"""Answering an interaction: in time, exactly once, and never with a traceback.

`answer(bot, interaction, work)` runs `work(carrier)`; if it has not finished after `interaction_defer_after`
seconds (1.5 by default; Discord allows 3) the interaction is deferred, so a slow commit or a queue behind another
player's move never makes Discord show "This interaction failed". `work` may hand the `Carrier` to the notifier,
which then uses the interaction's response for one of the action's messages (saving a REST call); otherwise the
answer is sent here, ephemeral. Refusals (`Refusal`, and the engine's `RuleError` rendered with the players' names)
are ephemeral replies; a damaged page of the database (`DamagedData`) is one error line naming the game and a
private word that a backup is the remedy; anything unexpected is logged with its traceback and the person gets a
short apology.
"""

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot import damage, reader
from bot.i18n import current, speaking
from bot.i18n.platform import N_, _
from bot.notifier import Carrier
from bot.presentation import MAX_CONTENT
from bot.service import Refusal
from engine.errors import RuleError
from engine.text import render
from storage import DamagedData, GameNotFound

if TYPE_CHECKING:
    from bot.host import Host

log = logging.getLogger("boardroom.replies")
SORRY = N_(
    "Sorry — something went wrong on my side and nothing was changed. Please try again in a moment; "
    "if it keeps happening, tell a moderator."
)

GONE = N_("That game doesn't exist (any more): nothing was changed. `/game list` shows the games here.")

DAMAGED = N_(
    "⚠️ This game's saved data is damaged, so I can't go on with it: nothing was changed. A moderator can have the "
    "newest backup restored where the bot runs (the README's steps under “Backups and restoring one”). The other "
    "games go on as usual."
)


@dataclass
class Answer:
    text: str | None = None
    embed: discord.Embed | None = None
    file: discord.File | None = None
    view: discord.ui.View | None = None
    ephemeral: bool = True
    always: bool = False
    """Send `text` even when the carrier already answered (as a follow-up)."""


Work = Callable[[Carrier], Awaitable[Answer | str | None]]


async def answer(bot: "Host", interaction: discord.Interaction, work: Work, *, game_id: int | None = None) -> None:
    """Answer `interaction` with what `work` returns, privately unless it says otherwise, in the reader's language
    (`bot.reader`): chosen here, once, for the work and the reply, so nothing else chooses; what `work` words for the
    table (its narration, a lobby message) is said in the table's language inside it."""
    with speaking(await reader.language_for(bot, interaction, game_id)), reader.reading(interaction):
        await _answer(bot, interaction, work, game_id)


async def _answer(bot: "Host", interaction: discord.Interaction, work: Work, game_id: int | None) -> None:
    carrier = Carrier(interaction)
    task = asyncio.get_running_loop().create_task(_run(work, carrier))
    done, _pending = await asyncio.wait({task}, timeout=bot.settings.interaction_defer_after)
    if not done and carrier.claim():
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
            carrier.deferred = True
        except discord.HTTPException as exc:
            log.warning("could not defer an interaction: %s", exc, extra={"game": game_id})
    result, language = await task
    with speaking(language):  # the language the work ended in: the table's for a reader `reader.at_table` chose it
        await _finish(bot, interaction, carrier, result, game_id)


async def _finish(
    bot: "Host",
    interaction: discord.Interaction,
    carrier: Carrier,
    result: "Answer | str | BaseException | None",
    game_id: int | None,
) -> None:
    if isinstance(result, Refusal) and result.outbox_ids and result.game_id is not None:
        # The refusal has something for the table too (`Controls.action_refused`): deliver it, then answer.
        try:
            await bot.notifier.flush(result.game_id)
        except Exception:
            log.exception("could not deliver a refusal's post", extra={"game": result.game_id})
    if isinstance(result, RuleError) and game_id is not None:
        result = await _rule_words(bot, result, game_id)
    if isinstance(result, BaseException):
        result = _explain(bot, result, game_id)
    if isinstance(result, str):
        result = Answer(text=result)
    if result is None:
        result = Answer()
    try:
        await _send(interaction, carrier, result)
    except discord.HTTPException as exc:
        log.warning("could not answer an interaction: %s", exc, extra={"game": game_id})
    finally:
        carrier.acknowledged()  # `boardroom_ack_seconds`: when the interaction was first answered, if it was
        carrier.settled.set()  # its follow-ups (the move's later narration, `bot.notifier.tokens`) may go out


async def _run(work: Work, carrier: Carrier) -> tuple[Answer | str | BaseException | None, str]:
    """The work's result (or its exception) and the language it ended in (`bot.reader.at_table`)."""
    try:
        return await work(carrier), current()
    except Exception as exc:  # handed back to `answer`, which words it for the person
        return exc, current()


async def _rule_words(bot: "Host", exc: RuleError, game_id: int) -> Answer | RuleError:
    """A bare refusal of the engine in the game's own words (`Presentation.refusal_words`); the engine's fallback
    text if the game can't be read."""
    try:
        table = await bot.service.read.table(game_id)
        return Answer(text=table.presentation.refusal_words(table, exc), always=True)
    except Exception:
        log.warning("could not word a refusal", exc_info=True, extra={"game": game_id})
        return exc


def _explain(bot: "Host", exc: BaseException, game_id: int | None) -> Answer:
    if isinstance(exc, Refusal):
        return Answer(text=exc.message, always=True)
    if isinstance(exc, RuleError):
        return Answer(text=render(exc.message, []), always=True)
    if isinstance(exc, GameNotFound):
        return Answer(text=_(GONE), always=True)
    if isinstance(exc, DamagedData):
        # No traceback: the cause is the file, not the code, and the remedy is the moderator's backup.
        damage.report(bot, exc.game_id if exc.game_id is not None else game_id, exc.problem)
        return Answer(text=_(DAMAGED), always=True)
    log.error("unexpected error answering an interaction", exc_info=exc, extra={"game": game_id})
    return Answer(text=_(SORRY), always=True)


async def _send(interaction: discord.Interaction, carrier: Carrier, result: Answer) -> None:
    kwargs: dict[str, Any] = {}
    if result.embed is not None:
        kwargs["embed"] = result.embed
    if result.file is not None:
        kwargs["file"] = result.file
    if result.view is not None:
        kwargs["view"] = result.view
    text = result.text[:MAX_CONTENT] if result.text else None
    if carrier.used:
        if result.always and (text or kwargs):
            await interaction.followup.send(text or "\u200b", ephemeral=True, **kwargs)
        return
    if carrier.deferred or interaction.response.is_done():
        await interaction.followup.send(text or _("Done."), ephemeral=result.ephemeral, **kwargs)
        return
    carrier.claim()
    if not text and not kwargs and interaction.type == discord.InteractionType.component:
        await interaction.response.defer()  # a click whose effect shows in the messages it changed: nothing to add
        return
    if not text and not kwargs:
        text = _("Done.")
    await interaction.response.send_message(text, ephemeral=result.ephemeral, **kwargs)
