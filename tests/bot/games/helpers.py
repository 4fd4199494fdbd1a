"""Helpers the games' bot tests share: open and start a table of one game, find a member's hand DM and a message's
buttons, and read what each person can see.

Each game's own `helpers.py` (`tests/bot/games/<game>/helpers.py`) builds on these with its game's state type and the
moves its players make; what reads differently per game (e.g. how two games' texts are normalised) stays there.
"""

import discord
import simcord
from simcord import ChannelHandle, MemberActor

from engine import registry
from tests.bot.helpers import Server, dms, embed_text, seat_players


async def start_game(
    server: Server, game: str, *, players: int, options: str | None = None, language: str | None = None
) -> tuple[ChannelHandle, list[MemberActor]]:
    """`/game new` of `game` by the first member (at a table in `language`, if given), Join by the next ones up to
    `players`, Start: the thread and the players in seat order. The lobby's buttons are clicked by their ids, which
    are the same in every language."""
    opener = server.members[0]
    kwargs = {"options": options} if options else {}
    if language:
        kwargs["language"] = language
    opened = await opener.slash(server.channel, "game new", game=game, random_order=False, **kwargs)
    assert not opened.response.ephemeral, opened.response.content
    game_id = (await server.bot.store.games.find())[-1].id
    for m in server.members[1:players]:
        await m.click(opened.response, custom_id=f"br:{game_id}:join")
    await opener.click(opened.response, custom_id=f"br:{game_id}:start")
    return thread_of_game(server, game_id), await seat_players(server, game_id)


def thread_of_game(server: Server, game_id: int) -> ChannelHandle:
    return next(t for t in server.channel.threads if t.name.endswith(f"#{game_id}"))


async def game_state(server: Server, game: str, game_id: int = 1) -> object:
    """The game's state as stored (each game's `helpers.state` gives it its type)."""
    snap = await server.bot.store.games.snapshot(game_id)
    return registry.get(game).load_state(snap.state)


def hand_message(member: MemberActor, game_id: int = 1) -> discord.Message:
    """The member's hand DM of game `game_id` (one message, edited in place), found by the game's number in its
    footer ("Game #1 · …", "Spel #1 · …", "Spiel #1 · …")."""
    mark = f"#{game_id} "
    (hand,) = [m for m in dms(member) if m.embeds and mark in (m.embeds[0].footer.text or "").split("·")[0] + " "]
    return hand


def labels(message: discord.Message | simcord.InteractionResult) -> list[str]:
    """The labels of a message's buttons."""
    if isinstance(message, simcord.InteractionResult):
        message = message.response.message
    return [c.label for row in message.components for c in getattr(row, "children", []) if getattr(c, "label", None)]


def readable(channel: ChannelHandle, viewer: MemberActor | None = None, *, between: str = " ") -> list[str]:
    """The channel's messages as `viewer` sees them (without a viewer: no ephemeral replies at all), with embeds and
    button labels (joined by `between`)."""
    out = []
    for m in channel.history(viewer=viewer):
        if viewer is None and m.flags.ephemeral:
            continue
        out.append(embed_text(m) + (f"\n[{between.join(labels(m))}]" if labels(m) else ""))
    return out


def public_messages(server: Server, viewer: MemberActor | None = None) -> list[str]:
    """What a member (or any onlooker) can read in the server: the channel and every thread."""
    return [t for channel in (server.channel, *server.channel.threads) for t in readable(channel, viewer)]
