"""Stray reactions: a reaction the game says may not stand (here: a 🛑 on a STOP window by someone who doesn't play)
is removed when the bot has Manage Messages, left alone (and ignored) when it hasn't; either way it changes
nothing, and taking it off again means nothing either."""

import logging

import discord
import pytest
import simcord

from tests.bot.helpers import Server, make_server, move, seat_players, state, thread_of


async def open_window(server: Server) -> tuple[list[simcord.MemberActor], discord.Message]:
    opener = server.members[0]
    opened = await opener.slash(server.channel, "game new", game="toy")
    await server.members[1].click(opened.response, label="Join")
    await opener.click(opened.response, label="Start")
    players = await seat_players(server, 1)
    thread = thread_of(server)
    card = (await state(server, 1)).hands[0][0]
    await players[0].slash(thread, "game move", action=move({"type": "play", "card": card}))
    return players, window_message(server)


def window_message(server: Server) -> discord.Message:
    return next(m for m in thread_of(server).history() if "STOP card #1" in m.content)


def stops(server: Server) -> int:
    (reaction,) = [r for r in window_message(server).reactions if str(r.emoji) == "🛑"]
    return reaction.count


async def test_a_stray_reaction_is_removed_and_means_nothing(
    env: simcord.Env, caplog: pytest.LogCaptureFixture
) -> None:
    server = make_server(env)
    players, window = await open_window(server)
    outsider = server.guild.add_member(env.create_user("olga"))
    version = (await server.bot.store.games.get(1)).version
    assert stops(server) == 1  # the bot's own 🛑
    caplog.set_level(logging.INFO, logger="boardroom")
    before = len(env.http_requests)
    await outsider.react(window, "🛑")
    calls = [f"{e.method} {e.path}" for e in env.http_requests[before:]]
    assert any(c.startswith("DELETE") and c.endswith(f"/{outsider.id}") for c in calls), calls
    assert stops(server) == 1  # hers is gone
    assert (await server.bot.store.games.get(1)).version == version
    assert any(r.getMessage() == "stray reaction removed" for r in caplog.records)
    # A player's 🛑 is not stray: it STOPs the card.
    await players[1].react(window, "🛑")
    assert any("STOPs" in m.content for m in thread_of(server).history())
    assert (await state(server, 1)).window is None


async def test_without_manage_messages_a_stray_reaction_stays_and_is_ignored(
    env: simcord.Env, caplog: pytest.LogCaptureFixture
) -> None:
    guild = env.create_guild()
    channel = guild.create_text_channel(
        "games", overwrites={env.bot.user: discord.PermissionOverwrite(manage_messages=False)}
    )
    members = [guild.add_member(env.create_user(name)) for name in ("anna", "bert")]
    server = Server(env, guild, channel, members)
    _, window = await open_window(server)
    outsider = guild.add_member(env.create_user("olga"))
    version = (await server.bot.store.games.get(1)).version
    caplog.set_level(logging.INFO, logger="boardroom")
    before = len(env.http_requests)
    await outsider.react(window, "🛑")
    assert not [e for e in env.http_requests[before:] if e.method == "DELETE"]  # no call it surely can't make
    assert stops(server) == 2
    await outsider.unreact(window, "🛑")  # taking it off means nothing either
    assert (await server.bot.store.games.get(1)).version == version
    assert any("no Manage Messages here" in r.getMessage() for r in caplog.records)


async def test_a_refused_removal_is_logged_and_ignored(env: simcord.Env, caplog: pytest.LogCaptureFixture) -> None:
    server = make_server(env)
    _, window = await open_window(server)
    outsider = server.guild.add_member(env.create_user("olga"))
    # The cache thinks the bot may, Discord says no (e.g. a permission changed a moment ago).
    env.inject_error(
        "DELETE",
        f"/channels/{window.channel.id}/messages/{window.id}/reactions/*/*",
        status=403,
        code=50013,
        message="Missing Permissions",
    )
    version = (await server.bot.store.games.get(1)).version
    caplog.set_level(logging.INFO, logger="boardroom")
    await outsider.react(window, "🛑")
    assert stops(server) == 2
    assert (await server.bot.store.games.get(1)).version == version
    assert any("stray reaction left in place: Missing Permissions" in r.getMessage() for r in caplog.records)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
