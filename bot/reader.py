"""Which language a private answer is worded in: the reader's (issue 28).

An ephemeral answer or refusal is said in the reader's Discord client language (`interaction.locale`) where it is
one of ours (nl, de, en); else in the table's language when the command concerns a game (`at_table`, called where
a command finds its game: `bot.resolve`, `bot.clicks.button_game`); else in the server's default (`/mod defaults
language:`, else the server's own preferred locale where it is one of ours); else English.

`bot.replies.answer` is the one place that chooses (`speaking(...)` around the work and the reply), so a command
never does: it words its answer in whatever is being spoken. Words for the table itself (a move's narration posted
as the command's reply, the lobby message) are chosen inside, in the table's language (`speaking(table.language)`),
which wins over the reader's since the innermost `speaking` does.
"""

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import known, switch_to

if TYPE_CHECKING:
    from bot.host import Host

log = logging.getLogger("boardroom.reader")

_reader: ContextVar[str | None] = ContextVar("boardroom_reader_locale", default=None)
"""The reader's own language while an answer is being worded ("" when their locale is not one of ours; None
outside an answer)."""


def own_language(interaction: discord.Interaction) -> str | None:
    """The reader's Discord client language, where it is one of ours."""
    return known(getattr(interaction, "locale", None))


def server_default(settings_language: str | None, interaction: discord.Interaction | None) -> str:
    """A server's language: its `/mod defaults language:`, else its preferred locale where it is one of ours, else
    English."""
    found = known(settings_language)
    if found is None and interaction is not None:
        guild = interaction.guild
        found = known(getattr(guild, "preferred_locale", None)) if guild is not None else None
        found = found or known(getattr(interaction, "guild_locale", None))
    return found or "en"


async def server_language(bot: "Host", interaction: discord.Interaction) -> str:
    """The language of the interaction's server (`server_default`), read from its settings."""
    if interaction.guild_id is None:
        return "en"
    settings = await bot.store.settings.guild(interaction.guild_id)
    return server_default(settings.language, interaction)


async def fallback(bot: "Host", interaction: discord.Interaction, game_id: int | None) -> str:
    """The language of an answer to a reader whose own is not one of ours: the game's (when known), else the
    server's."""
    if game_id is not None:
        try:
            record = await bot.store.games.get(int(game_id))
        except Exception:  # not a game here (the work refuses it): the server's language
            record = None
        if record is not None and known(record.options.get("language")):
            return str(record.options["language"])
    return await server_language(bot, interaction)


async def language_for(bot: "Host", interaction: discord.Interaction, game_id: int | None = None) -> str:
    """The language a private answer to `interaction` starts in (`at_table` may narrow it to the table's)."""
    own = own_language(interaction)
    if own is not None:
        return own
    try:
        return await fallback(bot, interaction, game_id)
    except Exception:  # a damaged or unreadable store: the answer still goes out (its work words the problem)
        log.warning("could not read the server's language", exc_info=True)
        return "en"


@contextmanager
def reading(interaction: discord.Interaction) -> Iterator[None]:
    """Inside the block an answer is worded for this reader (`at_table` may then choose the table's language)."""
    token = _reader.set(own_language(interaction) or "")
    try:
        yield
    finally:
        _reader.reset(token)


def at_table(record: Any) -> None:
    """The answer being worded concerns this game: a reader whose own language is not one of ours reads it in the
    table's. Only inside an answer's work, whose context is its own task's, so the choice ends with the work (the
    reply is then sent in it: `bot.replies`)."""
    if _reader.get() == "":
        language = known((getattr(record, "options", None) or {}).get("language"))
        if language is not None:
            switch_to(language)
