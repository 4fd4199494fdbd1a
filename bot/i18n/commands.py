"""The slash commands in Dutch and German: discord.py's `app_commands.Translator` over the `commands` domain.

The commands are declared in English in the cogs' decorators (names, descriptions, option names and descriptions,
choice names), and that English is what Discord sends back and what the bot dispatches on: a translation only adds
`name_localizations` / `description_localizations` to the synced payload, shown to a person whose Discord client is
in Dutch or German. Choice *values* are never translated.

Each string is looked up with a message context naming where it stands (discord.py's `TranslationContextLocation`:
`command_name`, `command_description`, `group_name`, `group_description`, `parameter_name`, `parameter_description`,
`choice_name`), so the same English word can be one thing as a name (`spel`, lower case, no spaces) and another as
a description.

The catalog's template is not extracted from the code by Babel (it cannot read decorators) but from the command
tree itself (`command_catalog`): a fully set-up bot, every cog and every game's own group, built without connecting
to Discord, asked for its translated payload by a translator that writes down every string it is asked for — exactly
the strings the real translator will be asked for when the commands are synced.

    python -m bot.i18n.catalogs extract commands   # bot/locale/commands.pot from the command tree
    python -m bot.i18n.catalogs update commands    # nl and de follow it
"""

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation, TranslationContextTypes, locale_str

from bot.i18n import LOCALE_DIR, command_context, translation

DOMAIN = "commands"
LOCALES: dict[discord.Locale, str] = {discord.Locale.dutch: "nl", discord.Locale.german: "de"}
"""The Discord locales we translate the commands into, and our language for each (English is the default)."""
NAME_LOCATIONS = frozenset(
    {
        TranslationContextLocation.command_name,
        TranslationContextLocation.group_name,
        TranslationContextLocation.parameter_name,
    }
)
"""Where a string is a name (lower case, no spaces, ≤ 32: Discord's rule); everything else is read text."""
REPOSITORY = LOCALE_DIR.parent.parent


class BoardroomTranslator(app_commands.Translator):
    """Dutch and German names and descriptions from the `commands` catalogs; None (Discord's default, the English)
    for every other locale."""

    async def translate(
        self, string: locale_str, locale: discord.Locale, context: TranslationContextTypes
    ) -> str | None:
        return translate(string.message, locale, message_context(context.location, path_of(context)))


def translate(message: str, locale: discord.Locale, context: str) -> str | None:
    """`message` in its message `context` (`message_context`), in `locale`'s language; None for a locale we don't
    translate into."""
    language = LOCALES.get(locale)
    if language is None:
        return None
    return translation(DOMAIN, language).pgettext(context, message)


def path_of(context: TranslationContextTypes) -> str | None:
    """Where a string stands, as a player types it: `/game new` (a command or group), `/game new seats:` (an
    option); None for a choice (it does not know its option)."""
    location, data = context.location, context.data
    if location in (TranslationContextLocation.parameter_name, TranslationContextLocation.parameter_description):
        return f"/{data.command.qualified_name} {data.display_name}:"  # type: ignore[union-attr]
    if location is TranslationContextLocation.choice_name or location is TranslationContextLocation.other:
        return None
    return f"/{data.qualified_name}"  # type: ignore[union-attr]


def message_context(location: TranslationContextLocation, path: str | None) -> str:
    """The catalog's message context of a string: its location (`parameter_name`), or for an occurrence in
    `bot.i18n.OWN_CONTEXT` its location and path (`parameter_name /me quiet to:`)."""
    return command_context(location.name, path)
