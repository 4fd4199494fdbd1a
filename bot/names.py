"""How people's names are printed: never as a ping, never as markdown.

A display name is whatever its owner typed: `<@123…>` would ping that user and `@everyone` everyone, and `**`,
`_`, `>` or a backtick would restyle the rest of the line. `shown(name)` is a name for text Discord renders as
markdown (messages, embed descriptions and fields); `plain(name)` for text it shows as typed (embed footers and
titles, autocomplete choices), where a backslash would show. Both defuse mentions with a zero-width space.

Every message the bot sends allows no mention unless it says so (`NO_MENTIONS` is the client's default); the
messages that ping someone on purpose allow user mentions only (`PINGS`), never `@everyone`, `@here` or roles.
"""

import discord

NO_MENTIONS = discord.AllowedMentions.none()
PINGS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)


def shown(name: str) -> str:
    """A name for markdown text: markdown and mentions escaped."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


def plain(name: str) -> str:
    """A name for text shown as typed: mentions defused, nothing else changed."""
    return discord.utils.escape_mentions(name)
