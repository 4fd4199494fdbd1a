"""The `commands` catalog's template, read from the command tree itself: a fully set-up bot, every cog and every
game's own group, built without connecting to Discord, asked for its translated payload by a translator that writes
down every string it is asked for — exactly the strings `bot.i18n.commands.BoardroomTranslator` will be asked for
when the commands are synced. Babel cannot read discord.py's decorators, so `bot.i18n.catalogs` extracts the
`commands` domain from here.

It builds the client (`bot.client.create_bot`), so it is a tool on top of the import graph, like the entry point:
nothing in the bot imports it.
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

from bot.client import create_bot
from bot.i18n.commands import DOMAIN, NAME_LOCATIONS, REPOSITORY, message_context, path_of
from bot.settings import Settings

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
