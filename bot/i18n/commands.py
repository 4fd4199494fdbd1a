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

import asyncio
import inspect
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
from babel.messages.catalog import Catalog
from discord import app_commands
from discord.app_commands import TranslationContextLocation, TranslationContextTypes, locale_str

from bot.i18n import LOCALE_DIR, translation

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
OWN_CONTEXT = frozenset({"/me quiet to:", "/cb move to:"})
"""Occurrences that cannot share their word's translation with its other uses, so they get a context of their own
(`parameter_name /me quiet to:`): `to:` is a person where a seat or an offer goes (`/game leave`, `/kkk offer`:
German `an`), but the end of the quiet hours (`bis`) and the building an agent moves to (`nach`)."""


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
    `OWN_CONTEXT` its location and path (`parameter_name /me quiet to:`)."""
    return f"{location.name} {path}" if path in OWN_CONTEXT else location.name


# --- the template, from the command tree ---------------------------------------------------------------------


@dataclass
class Found:
    """One string of the tree at one kind of location: where it is used (command paths) and in which files."""

    message: str
    location: TranslationContextLocation
    context: str
    paths: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)


class _Recorder(app_commands.Translator):
    """Writes down every string the tree asks to translate (for one locale), in the order asked, and translates
    nothing."""

    def __init__(self) -> None:
        self.found: dict[tuple[str, str], Found] = {}
        self._parameter = ""

    async def translate(
        self, string: locale_str, locale: discord.Locale, context: TranslationContextTypes
    ) -> str | None:
        if locale is not discord.Locale.dutch:
            return None
        location = context.location
        data: Any = context.data
        path = path_of(context)
        if location in (TranslationContextLocation.parameter_name, TranslationContextLocation.parameter_description):
            self._parameter = path or ""
            source = _source(data.command)
        elif location is TranslationContextLocation.choice_name:
            path, source = f"{self._parameter} {data.value!r}", None  # a choice follows its option's name
        else:
            source = _source(data)
        key = message_context(location, path)
        found = self.found.setdefault((key, string.message), Found(string.message, location, key))
        if path and path not in found.paths:
            found.paths.append(path)
        if source and source not in found.files:
            found.files.append(source)
        return None


def _source(command: Any) -> str | None:
    """The file that declares a command or a group (its module's), from the repository root."""
    module = sys.modules.get(getattr(command, "module", None) or "")
    try:
        path = Path(inspect.getsourcefile(module) or "")  # type: ignore[arg-type]
        return path.resolve().relative_to(REPOSITORY).as_posix()
    except (TypeError, ValueError):
        return None


async def _walk(tree: app_commands.CommandTree) -> list[Found]:  # type: ignore[type-arg]
    recorder = _Recorder()
    for command in tree.get_commands():
        await command.get_translated_payload(tree, recorder)
    return list(recorder.found.values())


async def full_tree() -> tuple[app_commands.CommandTree, Any]:  # type: ignore[type-arg]
    """The command tree of a bot with every real game, its cogs added as at start-up, not connected."""
    from bot.client import create_bot
    from bot.settings import Settings

    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, discord_token="offline", database_path=Path(":memory:"), command_sync="never"
    )
    bot = create_bot(settings, intents=discord.Intents.none())
    await bot.add_commands()
    return bot.tree, bot


def strings() -> list[Found]:
    """Every string the slash commands of a fully set-up bot ask to translate, with where it is used."""

    async def run() -> list[Found]:
        tree, bot = await full_tree()
        try:
            return await _walk(tree)
        finally:
            await bot.tree.set_translator(None)

    return asyncio.run(run()) if not _loop_running() else _in_thread(run)


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _in_thread(run: Any) -> list[Found]:
    """`strings()` called from inside an event loop (a test): its own loop in a thread."""
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, run()).result()


def _comments(found: Found, limit: int = 6) -> list[str]:
    """The translator's note: what kind of string it is (Discord's rule for it) and where it is used."""
    if found.location in NAME_LOCATIONS:
        kind = "name (lower case, no spaces, at most 32 characters)"
    elif found.location is TranslationContextLocation.choice_name:
        kind = "choice shown in the option's list (at most 100 characters)"
    else:
        kind = "description (at most 100 characters)"
    shown = found.paths[:limit]
    more = len(found.paths) - len(shown)
    return [f"{kind}: " + ", ".join(shown) + (f" and {more} more" if more else "")]


def command_catalog(found: Iterable[Found] | None = None) -> Catalog:
    """The `commands` domain's template: every name, description and choice of the slash commands, each with its
    location as the message context."""
    catalog = Catalog(project="Boardroom", domain=DOMAIN, fuzzy=False, charset="utf-8")
    for item in found if found is not None else strings():
        catalog.add(
            item.message,
            None,
            [(file, 0) for file in item.files],
            auto_comments=_comments(item),
            context=item.context,
        )
    return catalog
