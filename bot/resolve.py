"""Which game a command is about, and whether its user is a moderator.

Used in a game's thread, a command acts on that game. Elsewhere the optional `game:` option names it; without it,
the one fitting game is taken (in this channel, else among the player's own games in this server) and, when several
fit, the person is asked which, with the candidates listed. Moderators are members with Manage Server, or with the
role set by `/mod role`.
"""

from collections.abc import Collection
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot import ids
from bot.service import Refusal
from storage import GameNotFound, GameRecord
from storage.models import OPEN_STATUSES, GameStatus

if TYPE_CHECKING:
    from bot.host import Host

STATUS_WORDS = {"lobby": "lobby", "active": "playing", "paused": "paused", "finished": "finished", "abandoned": "ended"}


def describe(bot: "Host", record: GameRecord) -> str:
    game = bot.service.read.games.get(record.kind)
    title = game.title if game else record.kind
    where = f" in <#{record.channel_id}>" if record.channel_id else ""
    return f"#{record.id} {title} ({STATUS_WORDS.get(record.status, record.status)}{where})"


async def resolve_game(
    bot: "Host",
    interaction: discord.Interaction,
    game_id: int | None,
    *,
    statuses: Collection[GameStatus] = OPEN_STATUSES,
    mine: bool = False,
) -> GameRecord:
    store = bot.store
    if game_id is not None:
        try:
            record = await store.games.get(ids.game_id(game_id))
        except GameNotFound:
            raise Refusal(f"There's no game #{game_id}.") from None
        if interaction.guild_id is not None and record.guild_id != interaction.guild_id:
            raise Refusal(f"There's no game #{game_id} in this server.")
        return record
    channel = interaction.channel
    if isinstance(channel, discord.Thread) or getattr(channel, "type", None) in (
        discord.ChannelType.public_thread,
        discord.ChannelType.private_thread,
    ):
        record = await store.games.by_thread(interaction.channel_id or 0)
        if record is not None:
            return record
    games = await store.games.find(statuses=list(statuses), guild_id=interaction.guild_id)
    if mine:
        held = {s.game_id for s in await store.seats.of_player(interaction.user.id, statuses=list(statuses))}
        games = [g for g in games if g.id in held]
    here = [g for g in games if g.channel_id == interaction.channel_id]
    candidates = here or games
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        if mine:
            raise Refusal("You're not in a game here. `/game list` shows this server's games.")
        raise Refusal("There's no game here. Start one with `/game new`, or see `/game list`.")
    listing = "\n".join(f"• {describe(bot, g)}" for g in candidates[:10])
    raise Refusal(f"Which game? Use the `game:` option (or the command in the game's thread):\n{listing}")


async def game_choices(bot: "Host", interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    """Autocomplete for `game:`: the open games of this server, the person's own first."""
    games = await bot.store.games.find(statuses=list(OPEN_STATUSES), guild_id=interaction.guild_id)
    held = {s.game_id for s in await bot.store.seats.of_player(interaction.user.id, statuses=list(OPEN_STATUSES))}
    games.sort(key=lambda g: (g.id not in held, -g.id))
    out = []
    for g in games:
        label = describe(bot, g).replace("<#", "#").replace(">", "")
        if current and current.lower() not in label.lower():
            continue
        out.append(app_commands.Choice(name=label[:100], value=g.id))
    return out[:25]


async def is_moderator(bot: "Host", interaction: discord.Interaction) -> bool:
    if interaction.guild_id is None:
        return False
    if interaction.permissions.manage_guild:
        return True
    settings = await bot.store.settings.guild(interaction.guild_id)
    role = settings.moderator_role_id
    member = interaction.user
    return role is not None and isinstance(member, discord.Member) and any(r.id == role for r in member.roles)


async def require_moderator(bot: "Host", interaction: discord.Interaction) -> None:
    if await is_moderator(bot, interaction):
        return
    role = None
    if interaction.guild_id is not None:
        role = (await bot.store.settings.guild(interaction.guild_id)).moderator_role_id
    who = "members with Manage Server" + (f" or the <@&{role}> role" if role else "")
    raise Refusal(f"🛡️ Only moderators can do that ({who}).")


async def resolve_own_game(
    bot: "Host", interaction: discord.Interaction, game_id: int | None, *, kind: str, group: str
) -> GameRecord:
    """The game a game's own command (`/<group> …`, e.g. `/kr duel`) is about: the game of this thread, the one
    named by `game:`, or the player's one running game of that kind in this server; refused (naming the right
    command group) when it is another game."""
    title = bot.service.read.game(kind).title
    in_thread = isinstance(interaction.channel, discord.Thread) or getattr(interaction.channel, "type", None) in (
        discord.ChannelType.public_thread,
        discord.ChannelType.private_thread,
    )
    if game_id is None and in_thread:
        record = await bot.store.games.by_thread(interaction.channel_id or 0)
        if record is not None:
            if record.kind != kind:
                other = bot.service.read.game(record.kind).title
                raise Refusal(f"This thread plays {other}: `/{group}` commands are for {title}.")
            return record
    if game_id is not None:
        record = await resolve_game(bot, interaction, game_id, mine=True)
        if record.kind != kind:
            raise Refusal(f"Game #{record.id} isn't a {title} game: `/{group}` commands are for {title}.")
        return record
    mine = await my_running_games(bot, interaction, kind)
    if len(mine) == 1:
        return mine[0]
    if not mine:
        raise Refusal(f"You're not in a {title} game in this server. Open one with `/game new game:{kind}`.")
    listing = "\n".join(f"• {describe(bot, g)}" for g in mine[:10])
    raise Refusal(f"Which game? Use the `game:` option (or the command in the game's thread):\n{listing}")


async def my_running_games(bot: "Host", interaction: discord.Interaction, kind: str) -> list[GameRecord]:
    """The user's started, open games of that kind in this server (for a game command's `game:` autocomplete)."""
    held = {s.game_id for s in await bot.store.seats.of_player(interaction.user.id, statuses=list(OPEN_STATUSES))}
    games = await bot.store.games.find(statuses=list(OPEN_STATUSES), guild_id=interaction.guild_id)
    return [g for g in games if g.kind == kind and g.id in held and g.status != "lobby"]


async def own_game_choices(
    bot: "Host", interaction: discord.Interaction, current: str, kind: str
) -> list[app_commands.Choice[int]]:
    """Autocomplete for a game command's `game:` option: the user's running games of that kind matching `current`."""
    out = []
    for g in await my_running_games(bot, interaction, kind):
        label = describe(bot, g).replace("<#", "#").replace(">", "")
        if current.lower() in label.lower():
            out.append(app_commands.Choice(name=label[:100], value=g.id))
    return out[:25]
