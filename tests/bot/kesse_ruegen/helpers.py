"""Helpers for the Kesse Rügen bot tests: open and start a game, play a duel the way players do (commands, DM
buttons, prompt buttons), and read what each person can see."""

import re

import discord
import simcord
from simcord import ChannelHandle, MemberActor

from engine import registry
from engine.kesse_ruegen.state import KesseRuegenState
from tests.bot.helpers import Server, dms, embed_text, seat_players

GAME = registry.get("kesse_ruegen")


async def start_game(server: Server, *, joiners: int = 1) -> tuple[ChannelHandle, list[MemberActor]]:
    """`/game new` by the first member, Join by the next ones, Start: the thread and the players in seat order."""
    opener = server.members[0]
    opened = await opener.slash(server.channel, "game new", game="kesse_ruegen", random_order=False)
    for m in server.members[1 : 1 + joiners]:
        await m.click(opened.response, label="Join")
    await opener.click(opened.response, label="Start")
    game_id = (await server.bot.store.games.find())[-1].id
    return thread_of_game(server, game_id), await seat_players(server, game_id)


def thread_of_game(server: Server, game_id: int) -> ChannelHandle:
    return next(t for t in server.channel.threads if t.name.endswith(f"#{game_id}"))


async def state(server: Server, game_id: int = 1) -> KesseRuegenState:
    snap = await server.bot.store.games.snapshot(game_id)
    return GAME.load_state(snap.state)  # type: ignore[return-value]


def hand_message(member: MemberActor, game_id: int = 1) -> discord.Message:
    """The member's hand DM of game `game_id` (one message, edited in place)."""
    (hand,) = [m for m in dms(member) if m.embeds and (m.embeds[0].footer.text or "").startswith(f"Game #{game_id} ")]
    return hand


def buttons(message: discord.Message | simcord.InteractionResult) -> list[str]:
    """The labels of a message's buttons."""
    if isinstance(message, simcord.InteractionResult):
        message = message.response.message
    return [c.label for row in message.components for c in getattr(row, "children", []) if getattr(c, "label", None)]


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


def readable(channel: ChannelHandle, viewer: MemberActor | None = None) -> list[str]:
    """The channel's messages as `viewer` sees them (without a viewer: no ephemeral replies at all), with embeds and
    button labels."""
    out = []
    for m in channel.history(viewer=viewer):
        if viewer is None and m.flags.ephemeral:
            continue
        labels = [c.label for row in m.components for c in getattr(row, "children", []) if getattr(c, "label", None)]
        out.append(embed_text(m) + (f"\n[{' '.join(labels)}]" if labels else ""))
    return out


def public_messages(server: Server, viewer: MemberActor | None = None) -> list[str]:
    """What a member (or any onlooker) can read in the server: the channel and every thread."""
    return [t for channel in (server.channel, *server.channel.threads) for t in readable(channel, viewer)]


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
