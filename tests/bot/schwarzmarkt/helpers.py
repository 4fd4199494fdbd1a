"""Helpers for the Schwarzmarkt bot tests: open and start a game, find each player's hand DM and its buttons, and
read what each person can see."""

import discord
import simcord
from simcord import ChannelHandle, MemberActor

from engine import registry
from engine.schwarzmarkt.state import SchwarzmarktState
from tests.bot.helpers import Server, dms, embed_text, seat_players

GAME = registry.get("schwarzmarkt")


async def start_game(
    server: Server, *, players: int = 4, options: str | None = None
) -> tuple[ChannelHandle, list[MemberActor]]:
    """`/game new` by the first member, Join by the next ones, Start: the thread and the players in seat order."""
    opener = server.members[0]
    extra = {"options": options} if options else {}
    opened = await opener.slash(server.channel, "game new", game="schwarzmarkt", random_order=False, **extra)
    for m in server.members[1:players]:
        await m.click(opened.response, label="Join")
    await opener.click(opened.response, label="Start")
    game_id = (await server.bot.store.games.find())[-1].id
    return thread_of_game(server, game_id), await seat_players(server, game_id)


def thread_of_game(server: Server, game_id: int) -> ChannelHandle:
    return next(t for t in server.channel.threads if t.name.endswith(f"#{game_id}"))


async def state(server: Server, game_id: int = 1) -> SchwarzmarktState:
    snap = await server.bot.store.games.snapshot(game_id)
    return GAME.load_state(snap.state)  # type: ignore[return-value]


def hand_message(member: MemberActor, game_id: int = 1) -> discord.Message:
    """The member's hand DM of game `game_id` (one message, edited in place)."""
    (hand,) = [m for m in dms(member) if m.embeds and (m.embeds[0].footer.text or "").startswith(f"Game #{game_id} ")]
    return hand


def buttons(message: discord.Message) -> list[str]:
    return [c.label for row in message.components for c in getattr(row, "children", []) if getattr(c, "label", None)]


def status_message(thread: ChannelHandle, game_id: int = 1) -> discord.Message:
    return next(m for m in thread.history() if m.embeds and m.embeds[0].title == f"Schwarzmarkt #{game_id}")


def readable(channel: ChannelHandle, viewer: MemberActor | None = None) -> list[str]:
    """The channel's messages as `viewer` sees them (no viewer: no ephemeral replies), with embeds and buttons."""
    out = []
    for m in channel.history(viewer=viewer):
        if viewer is None and m.flags.ephemeral:
            continue
        out.append(embed_text(m) + (f"\n[{' | '.join(buttons(m))}]" if buttons(m) else ""))
    return out


async def click_hand(member: MemberActor, label: str, game_id: int = 1) -> simcord.InteractionResult:
    """Click a button of the member's hand DM; the response edits that DM."""
    hand = hand_message(member, game_id)
    assert label in buttons(hand), f"{member.name}'s hand has no {label!r}: {buttons(hand)}\n{embed_text(hand)}"
    clicked = await member.user.click(hand, label=label)
    assert clicked.response is not None, clicked
    return clicked
