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
from bot.i18n import speaking
from bot.i18n.platform import N_, _
from bot.reader import at_table, language_for
from bot.service import Refusal
from storage import GameNotFound, GameRecord
from storage.models import OPEN_STATUSES, GameStatus

if TYPE_CHECKING:
    from bot.host import Host

STATUS_WORDS = {
    "lobby": N_("lobby"),
    "active": N_("playing"),
    "paused": N_("paused"),
    "finished": N_("finished"),
    "abandoned": N_("ended"),
}


def describe(bot: "Host", record: GameRecord) -> str:
    game = bot.service.read.games.get(record.kind)
    title = game.title if game else record.kind
    status = _(STATUS_WORDS[record.status]) if record.status in STATUS_WORDS else record.status
    if record.channel_id:
        return _(
            "#%(id)d %(title)s (%(status)s in %(channel)s)",
            id=record.id,
            title=title,
            status=status,
            channel=f"<#{record.channel_id}>",
        )
    return _("#%(id)d %(title)s (%(status)s)", id=record.id, title=title, status=status)


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
            raise Refusal(_("There's no game #%(id)d.", id=game_id)) from None
        if interaction.guild_id is not None and record.guild_id != interaction.guild_id:
            raise Refusal(_("There's no game #%(id)d in this server.", id=game_id))
        at_table(record)
        return record
    channel = interaction.channel
    if isinstance(channel, discord.Thread) or getattr(channel, "type", None) in (
        discord.ChannelType.public_thread,
        discord.ChannelType.private_thread,
    ):
        record = await store.games.by_thread(interaction.channel_id or 0)
        if record is not None:
            at_table(record)
            return record
    games = await store.games.find(statuses=list(statuses), guild_id=interaction.guild_id)
    if mine:
        held = {s.game_id for s in await store.seats.of_player(interaction.user.id, statuses=list(statuses))}
        games = [g for g in games if g.id in held]
    here = [g for g in games if g.channel_id == interaction.channel_id]
    candidates = here or games
    if len(candidates) == 1:
        at_table(candidates[0])
        return candidates[0]
    if not candidates:
        if mine:
            raise Refusal(_("You're not in a game here. `/game list` shows this server's games."))
        raise Refusal(_("There's no game here. Start one with `/game new`, or see `/game list`."))
    raise Refusal(_which_game(bot, candidates))


def _which_game(bot: "Host", candidates: list[GameRecord]) -> str:
    listing = "\n".join(f"• {describe(bot, g)}" for g in candidates[:10])
    return _("Which game? Use the `game:` option (or the command in the game's thread):\n%(listing)s", listing=listing)


async def game_choices(bot: "Host", interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    """Autocomplete for `game:`: the open games of this server, the person's own first (in the reader's language)."""
    with speaking(await language_for(bot, interaction)):
        return await _game_choices(bot, interaction, current)


async def _game_choices(bot: "Host", interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
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
    if role:
        raise Refusal(
            _("🛡️ Only moderators can do that (members with Manage Server or the %(role)s role).", role=f"<@&{role}>")
        )
    raise Refusal(_("🛡️ Only moderators can do that (members with Manage Server)."))


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
                raise Refusal(
                    _(
                        "This thread plays %(other)s: `/%(group)s` commands are for %(title)s.",
                        other=other,
                        group=group,
                        title=title,
                    )
                )
            at_table(record)
            return record
    if game_id is not None:
        record = await resolve_game(bot, interaction, game_id, mine=True)
        if record.kind != kind:
            raise Refusal(
                _(
                    "Game #%(id)d isn't a %(title)s game: `/%(group)s` commands are for %(title)s.",
                    id=record.id,
                    title=title,
                    group=group,
                )
            )
        return record
    mine = await my_running_games(bot, interaction, kind)
    if len(mine) == 1:
        at_table(mine[0])
        return mine[0]
    if not mine:
        raise Refusal(
            _(
                "You're not in a %(title)s game in this server. Open one with `/game new game:%(kind)s`.",
                title=title,
                kind=kind,
            )
        )
    raise Refusal(_which_game(bot, mine))


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
    with speaking(await language_for(bot, interaction)):
        for g in await my_running_games(bot, interaction, kind):
            label = describe(bot, g).replace("<#", "#").replace(">", "")
            if current.lower() in label.lower():
                out.append(app_commands.Choice(name=label[:100], value=g.id))
    return out[:25]
