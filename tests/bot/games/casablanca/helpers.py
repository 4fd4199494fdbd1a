"""Helpers for the Casablanca bot tests: open and start a game, answer announcements the ways players do (DM
buttons, the announcement's buttons, commands), and read what each person can see."""

import re

import discord
import simcord
from simcord import ChannelHandle, MemberActor

from engine.casablanca.state import CasablancaState
from tests.bot.games import helpers as shared
from tests.bot.games.helpers import hand_message as hand_message  # the member's bribe sheet DM
from tests.bot.games.helpers import labels as labels
from tests.bot.games.helpers import public_messages as public_messages
from tests.bot.games.helpers import readable as readable
from tests.bot.games.helpers import thread_of_game as thread_of_game
from tests.bot.helpers import Server, embed_text


async def start_game(
    server: Server, *, players: int, options: str | None = None
) -> tuple[ChannelHandle, list[MemberActor]]:
    """`/game new` by the first member, Join by the next ones, Start: the thread and the players in seat order."""
    return await shared.start_game(server, "casablanca", players=players, options=options)


async def state(server: Server, game_id: int = 1) -> CasablancaState:
    return await shared.game_state(server, "casablanca", game_id)  # type: ignore[return-value]


def announcement(thread: ChannelHandle) -> discord.Message:
    """The latest announcement post in the thread."""
    return next(m for m in reversed(thread.history()) if m.content.startswith("📣"))


def status(thread: ChannelHandle) -> discord.Message:
    return next(m for m in thread.history() if m.embeds and (m.embeds[0].title or "").startswith("Casablanca #"))


def normalised(texts: list[str]) -> list[str]:
    out = []
    for t in texts:
        t = re.sub(r"<#\d+>", "<#thread>", t)
        t = re.sub(r"<t:\d+:[fR]>", "<t:…>", t)
        t = re.sub(r"#\d+\b", "#N", t)
        out.append(t)
    return out


async def answer_by_dm(member: MemberActor, label: str, game_id: int = 1) -> simcord.InteractionResult:
    """Click a button of the member's bribe sheet DM."""
    hand = hand_message(member, game_id)
    assert label in labels(hand), f"{member.name}'s sheet has {labels(hand)}: {embed_text(hand)}"
    return await member.user.click(hand, label=label)


async def object_by_dm(member: MemberActor, limit_label: str, game_id: int = 1) -> simcord.InteractionResult:
    """Object… on the sheet, then the limit in the private answer."""
    asked = await answer_by_dm(member, "Object…", game_id)
    assert asked.response.ephemeral, asked.response.content
    assert limit_label in labels(asked), labels(asked)
    return await member.user.click(asked.response.message, label=limit_label)


async def no_objection_in_thread(member: MemberActor, thread: ChannelHandle) -> simcord.InteractionResult:
    """No objection on the announcement post: a private confirmation, then its button."""
    asked = await member.click(announcement(thread), label="No objection")
    assert asked.response.ephemeral, asked.response.content
    return await member.click(asked.response.message, label="No objection")


async def contest_in_thread(member: MemberActor, thread: ChannelHandle, limit_label: str) -> simcord.InteractionResult:
    asked = await member.click(announcement(thread), label="Contest…")
    assert asked.response.ephemeral, asked.response.content
    return await member.click(asked.response.message, label=limit_label)
