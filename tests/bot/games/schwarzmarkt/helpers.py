"""Helpers for the Schwarzmarkt bot tests: open and start a game, find each player's hand DM and its buttons, and
read what each person can see."""

import discord
import simcord
from simcord import ChannelHandle, MemberActor

from engine.schwarzmarkt.state import SchwarzmarktState
from tests.bot.games import helpers as shared
from tests.bot.games.helpers import hand_message as hand_message
from tests.bot.games.helpers import labels as buttons
from tests.bot.games.helpers import thread_of_game as thread_of_game
from tests.bot.helpers import Server, embed_text


async def start_game(
    server: Server, *, players: int = 4, options: str | None = None
) -> tuple[ChannelHandle, list[MemberActor]]:
    """`/game new` by the first member, Join by the next ones, Start: the thread and the players in seat order."""
    return await shared.start_game(server, "schwarzmarkt", players=players, options=options)


async def state(server: Server, game_id: int = 1) -> SchwarzmarktState:
    return await shared.game_state(server, "schwarzmarkt", game_id)  # type: ignore[return-value]


def status_message(thread: ChannelHandle, game_id: int = 1) -> discord.Message:
    return next(m for m in thread.history() if m.embeds and m.embeds[0].title == f"Schwarzmarkt #{game_id}")


def readable(channel: ChannelHandle, viewer: MemberActor | None = None) -> list[str]:
    """The channel's messages as `viewer` sees them (no viewer: no ephemeral replies), with embeds and buttons."""
    return shared.readable(channel, viewer, between=" | ")


async def click_hand(member: MemberActor, label: str, game_id: int = 1) -> simcord.InteractionResult:
    """Click a button of the member's hand DM; the response edits that DM."""
    hand = hand_message(member, game_id)
    assert label in buttons(hand), f"{member.name}'s hand has no {label!r}: {buttons(hand)}\n{embed_text(hand)}"
    clicked = await member.user.click(hand, label=label)
    assert clicked.response is not None, clicked
    return clicked
