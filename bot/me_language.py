"""`/me language`: the language of a person's hand DM — its hand, the prompt it comes down with, and their DM
prompts and reminders — in every server (`PlayerDelivery.language`); `reset`: each table's own language.

Everything a table shows publicly stays in the table's language (`/game new language:`): only what reaches the
person alone follows their choice. A hand already in their DMs is worded anew the next time it changes.
"""

import logging
from typing import TYPE_CHECKING

from bot import outbox
from bot.i18n import LANGUAGE_NAMES, LANGUAGES, speaking
from bot.i18n.platform import _
from bot.service import Refusal

if TYPE_CHECKING:
    from bot.host import Host

log = logging.getLogger("boardroom.me")
RESET = "reset"
CHOICES: tuple[str, ...] = (*LANGUAGES, RESET)


async def set_language(bot: "Host", user_id: int, value: str) -> str:
    """Store the person's language (`reset`: none) and say so, in the language chosen."""
    if value not in CHOICES:
        raise Refusal(_("Pick en, nl, de or reset. Nothing was changed."))
    deliveries = bot.service.read.deliveries
    deliveries.forget(user_id)  # the digest loop may have moved the digest on: read it as it is
    current = await deliveries.get(user_id)
    language = None if value == RESET else value
    await deliveries.put(current.model_copy(update={"language": language}), now=bot.clock())
    if current.language != language:
        await _hands_anew(bot, user_id)
    if language is None:
        return _("✅ Your hand DMs now speak each table's own language.")
    with speaking(language):
        return _(
            "✅ Your hand DMs, their prompts and your DM reminders now speak %(language)s, in every server. "
            "A table's thread keeps the table's language.",
            language=LANGUAGE_NAMES[language],
        )


async def _hands_anew(bot: "Host", user_id: int) -> None:
    """The person's hand DMs in every running game, drawn again in the language just chosen (a DM found closed is
    left alone: `/game dms` retries it)."""
    store = bot.store
    for seat in await store.seats.of_player(user_id, statuses=("active", "paused")):
        async with bot.service.moves.lock(seat.game_id):
            await store.outbox.add(seat.game_id, [outbox.hand(seat.seat)], now=bot.clock())
        try:
            await bot.notifier.flush(seat.game_id)
        except Exception:  # delivered later by the notifier's own pass
            log.warning("could not redraw a hand in its new language", exc_info=True, extra={"game": seat.game_id})


async def person_language(bot: "Host", player_id: int | None, table_language: str) -> str:
    """The language of what reaches this person alone at a table: their `/me language`, else the table's."""
    if player_id is None:
        return table_language
    chosen = (await bot.service.read.deliveries.get(player_id)).language
    return chosen or table_language
