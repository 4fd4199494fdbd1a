"""Helpers for the Kesse Rügen bot tests: open and start a game, play a duel the way players do (commands, DM
buttons, prompt buttons), and read what each person can see."""

import re

import discord
import simcord
from simcord import ChannelHandle, MemberActor

from engine.kesse_ruegen.state import KesseRuegenState
from tests.bot.games import helpers as shared
from tests.bot.games.helpers import hand_message as hand_message
from tests.bot.games.helpers import labels as buttons
from tests.bot.games.helpers import public_messages as public_messages
from tests.bot.games.helpers import readable as readable
from tests.bot.games.helpers import thread_of_game as thread_of_game
from tests.bot.helpers import Server, dms, embed_text


async def start_game(server: Server, *, joiners: int = 1) -> tuple[ChannelHandle, list[MemberActor]]:
    """`/game new` by the first member, Join by the next ones, Start: the thread and the players in seat order."""
    return await shared.start_game(server, "kesse_ruegen", players=1 + joiners)


async def state(server: Server, game_id: int = 1) -> KesseRuegenState:
    return await shared.game_state(server, "kesse_ruegen", game_id)  # type: ignore[return-value]


def fist_prompt(member: MemberActor, game_id: int = 1) -> discord.Message:
    """The member's hand DM, which carries the fist buttons while their fist is awaited."""
    hand = hand_message(member, game_id)
    assert buttons(hand), f"{member.name}'s hand has no buttons: {embed_text(hand)}"
    return hand


async def close_fist_by_dm(member: MemberActor, tubers: int, game_id: int = 1) -> simcord.InteractionResult:
    """Click a number on the member's hand DM: the response edits that DM, which then tells what the fist holds."""
    clicked = await member.user.click(fist_prompt(member, game_id), label=str(tubers))
    assert clicked.response is not None, clicked
    assert "you closed your fist on" in embed_text(clicked.response.message), clicked
    return clicked


def action_prompt(thread: ChannelHandle) -> discord.Message:
    """The current duel's action prompt (the last one in the thread)."""
    return next(m for m in reversed(thread.history()) if any(line.startswith("🎯") for line in m.content.splitlines()))


def dm_texts(member: MemberActor) -> list[str]:
    return [embed_text(m) for m in dms(member)]


def normalised(texts: list[str]) -> list[str]:
    """Texts with what differs between two identical games taken out: game numbers, channel and message ids."""
    out = []
    for t in texts:
        t = re.sub(r"<#\d+>", "<#thread>", t)
        t = re.sub(r"#\d+\b", "#N", t)
        out.append(t)
    return out
