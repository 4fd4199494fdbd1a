"""`/me language`: the language of a person's hand DM — its hand, the prompt it comes down with, and their DM
prompts and reminders — in every server (`PlayerDelivery.language`); `reset`: each table's own language.

Everything a table shows publicly stays in the table's language (`/game new language:`): only what reaches the
person alone follows their choice. A hand already in their DMs is worded anew the next time it changes.
"""

from typing import TYPE_CHECKING

from bot.i18n import LANGUAGE_NAMES, LANGUAGES, speaking
from bot.i18n.platform import _
from bot.service import Refusal

if TYPE_CHECKING:
    from bot.host import Host

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
    if language is None:
        return _("✅ Your hand DMs now speak each table's own language.")
    with speaking(language):
        return _(
            "✅ Your hand DMs, their prompts and your DM reminders now speak %(language)s, in every server. "
            "A table's thread keeps the table's language.",
            language=LANGUAGE_NAMES[language],
        )


async def person_language(bot: "Host", player_id: int | None, table_language: str) -> str:
    """The language of what reaches this person alone at a table: their `/me language`, else the table's."""
    if player_id is None:
        return table_language
    chosen = (await bot.service.read.deliveries.get(player_id)).language
    return chosen or table_language
