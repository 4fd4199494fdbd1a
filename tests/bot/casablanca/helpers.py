"""Helpers for the Casablanca bot tests: open and start a game, answer announcements the ways players do (DM
buttons, the announcement's buttons, commands), and read what each person can see."""

import re

import discord
import simcord
from simcord import ChannelHandle, MemberActor

from engine import registry
from engine.casablanca.state import CasablancaState
from tests.bot.helpers import Server, dms, embed_text, seat_players

GAME = registry.get("casablanca")


async def start_game(
    server: Server, *, players: int, options: str | None = None
) -> tuple[ChannelHandle, list[MemberActor]]:
    """`/game new` by the first member, Join by the next ones, Start: the thread and the players in seat order."""
    opener = server.members[0]
    kwargs = {"options": options} if options else {}
    opened = await opener.slash(server.channel, "game new", game="casablanca", random_order=False, **kwargs)
    assert not opened.response.ephemeral, opened.response.content
    for m in server.members[1:players]:
        await m.click(opened.response, label="Join")
    await opener.click(opened.response, label="Start")
    game_id = (await server.bot.store.games.find())[-1].id
    return thread_of_game(server, game_id), await seat_players(server, game_id)


def thread_of_game(server: Server, game_id: int) -> ChannelHandle:
    return next(t for t in server.channel.threads if t.name.endswith(f"#{game_id}"))


async def state(server: Server, game_id: int = 1) -> CasablancaState:
    snap = await server.bot.store.games.snapshot(game_id)
    return GAME.load_state(snap.state)  # type: ignore[return-value]


def hand_message(member: MemberActor, game_id: int = 1) -> discord.Message:
    """The member's bribe sheet DM of game `game_id` (one message, edited in place)."""
    (hand,) = [m for m in dms(member) if m.embeds and (m.embeds[0].footer.text or "").startswith(f"Game #{game_id} ")]
    return hand


def labels(message: discord.Message | simcord.InteractionResult) -> list[str]:
    if isinstance(message, simcord.InteractionResult):
        message = message.response.message
    return [c.label for row in message.components for c in getattr(row, "children", []) if getattr(c, "label", None)]


def announcement(thread: ChannelHandle) -> discord.Message:
    """The latest announcement post in the thread."""
    return next(m for m in reversed(thread.history()) if m.content.startswith("📣"))


def status(thread: ChannelHandle) -> discord.Message:
    return next(m for m in thread.history() if m.embeds and (m.embeds[0].title or "").startswith("Casablanca #"))


def readable(channel: ChannelHandle, viewer: MemberActor | None = None) -> list[str]:
    out = []
    for m in channel.history(viewer=viewer):
        if viewer is None and m.flags.ephemeral:
            continue
        out.append(embed_text(m) + (f"\n[{' '.join(labels(m))}]" if labels(m) else ""))
    return out


def public_messages(server: Server, viewer: MemberActor | None = None) -> list[str]:
    return [t for channel in (server.channel, *server.channel.threads) for t in readable(channel, viewer)]


def normalised(texts: list[str]) -> list[str]:
    out = []
    for t in texts:
        t = re.sub(r"<#\d+>", "<#thread>", t)
        t = re.sub(r"<t:\d+:R>", "<t:…>", t)
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
