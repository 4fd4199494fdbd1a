"""A lobby can be closed, and one that is half made is completed or closed (issue 10, faults 2 and 10).

Closing: its creator (`/game cancel`) or a moderator (`/game cancel`, `/mod end`) closes it, and a lobby nobody
touched for 14 days closes by itself; the lobby message says so and it leaves `/game list`. Half made: a process
killed during `/game new` leaves the game's row with or without its lobby message but without its thread; at the
next start-up (or when its buttons are used) it is completed from its message, or closed when there is none, and
no game ever starts without its thread. The database is put in the state such a kill leaves, then the bot restarts.
"""

from collections.abc import Callable

import discord
import pytest
import simcord

from bot import outbox
from bot.client import BoardroomBot
from bot.components import view_for
from bot.lobby import lobby_post
from bot.presentation import Table
from bot.service import LobbySettings, Person, Refusal
from storage import NewOutbox
from tests.bot.helpers import embed_text, make_server, texts, thread_of

DAY = 24 * 3600


def lobby_message(server) -> discord.Message:  # type: ignore[no-untyped-def]
    return next(m for m in server.channel.history() if m.embeds and "Game #1" in (m.embeds[0].footer.text or ""))


async def test_the_creator_cancels_a_lobby_and_nobody_else_can(env: simcord.Env) -> None:
    server = make_server(env)
    anna, bert = server.members[:2]
    opened = await anna.slash(server.channel, "game new", game="toy")
    await bert.click(opened.response, label="Join")
    refused = await bert.slash(thread_of(server), "game cancel")
    assert refused.response.ephemeral and "Only the player who opened this lobby" in refused.response.content
    await anna.slash(thread_of(server), "game cancel")
    assert (await server.bot.store.games.get(1)).status == "abandoned"
    assert "— closed" in embed_text(lobby_message(server)) and not lobby_message(server).components
    assert any("This lobby was closed by **anna**" in t for t in texts(thread_of(server)))
    listed = await anna.slash(server.channel, "game list")
    assert "#1" not in listed.response.content
    cleo = server.members[2]
    with pytest.raises(Refusal, match="was closed before it started"):  # e.g. `/game join game:1`
        await server.bot.service.lobby.join(1, Person(cleo.id, "cleo"))


async def test_a_moderator_ends_a_lobby(env: simcord.Env) -> None:
    server = make_server(env)
    admin_role = server.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    mia = server.guild.add_member(env.create_user("mia"), roles=[admin_role])
    await server.members[0].slash(server.channel, "game new", game="toy")
    ended = await mia.slash(thread_of(server), "mod end")
    assert "This lobby was closed by **mia**" in ended.response.content
    assert (await server.bot.store.games.get(1)).status == "abandoned"


async def test_an_idle_lobby_closes_by_itself_and_a_touched_one_does_not(env: simcord.Env) -> None:
    server = make_server(env)
    anna, bert = server.members[:2]
    await anna.slash(server.channel, "game new", game="toy")
    second = await bert.slash(server.channel, "game new", game="toy")
    await env.advance_time(10 * DAY)
    await anna.click(second.response, label="Join")  # a touch: its fortnight starts again
    await env.advance_time(4 * DAY + 2 * 3600)
    assert (await server.bot.store.games.get(1)).status == "abandoned"
    assert (await server.bot.store.games.get(2)).status == "lobby"
    assert any(
        "closed by itself: nobody joined, left or started it for 14 days" in t for t in texts(thread_of_game(server, 1))
    )
    await env.advance_time(10 * DAY + 2 * 3600)
    assert (await server.bot.store.games.get(2)).status == "abandoned"


def thread_of_game(server, game_id: int):  # type: ignore[no-untyped-def]
    return next(t for t in server.channel.threads if f"#{game_id}" in t.name)


async def half_made(server, *, with_message: bool) -> int:  # type: ignore[no-untyped-def]
    """The state a kill during `/game new` leaves: the game's row and seat, maybe its lobby message, no thread."""
    bot = server.bot
    anna = server.members[0]
    record = await bot.service.lobby.create_lobby(
        "toy", guild_id=server.guild.id, channel_id=server.channel.id, creator=Person(anna.id, "anna"), options={}
    )
    if with_message:
        table = Table(
            bot.service.read.game("toy"),
            record,
            await bot.store.seats.of_game(record.id),
            None,
            bot.clock(),
            lobby_max=4,
        )
        post = lobby_post(table, random_order=True)
        channel = bot.get_partial_messageable(server.channel.id, guild_id=server.guild.id)
        message = await channel.send(embed=post.embed(), view=view_for(record.id, post.buttons))
        await bot.service.lobby.attach_lobby_message(
            record.id, message_id=message.id, channel_id=server.channel.id, settings=LobbySettings(4, True)
        )
    return record.id


async def test_a_lobby_killed_before_its_thread_is_completed_at_start_up(
    env: simcord.Env, make_bot: Callable[..., BoardroomBot]
) -> None:
    server = make_server(env)
    game_id = await half_made(server, with_message=True)
    with pytest.raises(Refusal, match="no table thread yet"):
        await server.bot.service.lobby.start(game_id, Person(server.members[0].id, "anna"), is_moderator=True)
    await env.restart_bot(make_bot())
    record = await server.bot.store.games.get(game_id)
    assert record.status == "lobby" and record.thread_id is not None
    thread = thread_of(server)
    assert any("The table for **Toy #1**" in t for t in texts(thread))
    for m in server.members[1:3]:
        await m.click(lobby_message(server), label="Join")
    await server.members[0].click(lobby_message(server), label="Start")
    assert (await server.bot.store.games.get(game_id)).status == "active"
    assert any("Toy #1 begins!" in t for t in texts(thread))


async def test_a_lobby_killed_before_its_message_is_closed_cleanly(
    env: simcord.Env, make_bot: Callable[..., BoardroomBot]
) -> None:
    server = make_server(env)
    game_id = await half_made(server, with_message=False)
    await env.restart_bot(make_bot())
    record = await server.bot.store.games.get(game_id)
    assert record.status == "abandoned" and record.thread_id is None
    assert await server.bot.store.outbox.undelivered(game_id=game_id) == []
    listed = await server.members[0].slash(server.channel, "game list")
    assert f"#{game_id}" not in listed.response.content


async def test_a_thread_row_is_never_marked_delivered_without_a_thread(
    env: simcord.Env, make_bot: Callable[..., BoardroomBot]
) -> None:
    server = make_server(env)
    game_id = await half_made(server, with_message=True)
    bot = server.bot
    row = NewOutbox(kind=outbox.POST, target={"to": "thread"}, payload={"texts": ["📣 for the table"]})
    await bot.store.outbox.add(game_id, [row], now=bot.clock())
    await bot.notifier.flush(game_id)
    (pending,) = await bot.store.outbox.undelivered(game_id=game_id)
    assert pending.delivered_at is None and pending.last_error == "waiting for the table thread"
    await env.restart_bot(make_bot())  # the repair opens the thread; the row then reaches it
    assert any("📣 for the table" in t for t in texts(thread_of(server)))
    assert await server.bot.store.outbox.undelivered(game_id=game_id) == []
