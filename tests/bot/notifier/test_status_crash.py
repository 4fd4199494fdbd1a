"""The status message survives a crash at any point of its move: after the restart, and three moves later, the
thread shows the status exactly once.

The status moves down when enough messages pile up below it: onto the newest narration message (which then carries
its embed and buttons) or, with no such message, posted afresh; the old message loses it. These tests kill the
process right after each REST call of the delivery pass in which it moves — Discord has done what was asked, the
bot never hears back and never writes again — then start a new bot on the same database.
"""

import discord
import pytest
import simcord

from bot import outbox
from bot.notifier.status import STATUS_DEPTH
from storage import StorageError
from tests.bot.helpers import make_server, move, start_toy, thread_of


class Killed(BaseException):
    """The process died: raised past every `except Exception` in the bot, as a SIGKILL would leave it."""


def statuses(thread) -> list[discord.Message]:  # type: ignore[no-untyped-def]
    return [m for m in thread.history() if m.embeds and m.embeds[0].title == "Toy #1"]


def below(thread, message: discord.Message) -> int:  # type: ignore[no-untyped-def]
    return sum(1 for m in thread.history() if m.id > message.id)


async def buried(server, players, thread) -> int:  # type: ignore[no-untyped-def]
    """Draws until the status sits just above the depth at which the next message moves it; returns whose turn."""
    turn = 0
    while below(thread, statuses(thread)[0]) < 6:
        await players[turn % 3].slash(thread, "game move", action=move({"type": "draw"}))
        turn += 1
    return turn


def kill_after(bot, calls: int) -> list[str]:  # type: ignore[no-untyped-def]
    """After `calls` more REST calls the bot is dead: its store closed, every later call refused."""
    made: list[str] = []
    real = bot.http.request

    async def request(route, **kwargs):  # type: ignore[no-untyped-def]
        if len(made) >= calls:
            raise Killed(f"dead after {calls} calls")
        made.append(f"{route.method} {route.path}")
        result = await real(route, **kwargs)
        if len(made) == calls:
            await bot.store.close()
            raise Killed(f"killed right after {made[-1]}")
        return result

    bot.http.request = request
    return made


async def moving_pass(env: simcord.Env, make_bot, calls: int):  # type: ignore[no-untyped-def]
    server = make_server(env)
    players = await start_toy(server)
    thread = thread_of(server)
    # People talk below the status (the bot's own message, without text) until the next message moves it. (Moves
    # would move it onto the first one's answer at once: `Status._cheaper_below`.)
    for k in range(STATUS_DEPTH):
        await server.members[3].send(thread, f"chat {k}")
    turn = 0
    (status,) = statuses(thread)
    assert below(thread, status) == STATUS_DEPTH and not status.content
    old = env.bot
    done = await old.service.play.act(1, players[turn % 3].id, {"type": "draw"})
    made = kill_after(old, calls)
    # (The pass's `finally` may still try to write: the closed store refuses, as a dead process would not write.)
    with pytest.raises((Killed, StorageError)):
        await old.notifier.flush(done.game_id)
    return server, players, thread, turn + 1, made


MOVING_PASS = [
    "POST /channels/{channel_id}/messages",  # the move's narration, a new message below the status
    "PATCH /channels/{channel_id}/messages/{message_id}",  # the narration message now carries the status too
    "DELETE /channels/{channel_id}/messages/{message_id}",  # the old status message (no text of its own) goes
    "PATCH /channels/{channel_id}/messages/{message_id}",  # the mover's hand DM
]


async def test_the_status_moves_into_the_newest_narration_message(env: simcord.Env, make_bot) -> None:  # type: ignore[no-untyped-def]
    server = make_server(env)
    players = await start_toy(server)
    thread = thread_of(server)
    turn = await buried(server, players, thread)
    await players[turn % 3].slash(thread, "game move", action=move({"type": "draw"}))
    (status,) = statuses(thread)
    assert below(thread, status) == 0 and "draws a card" in status.content


@pytest.mark.parametrize("calls", range(1, len(MOVING_PASS) + 1))
async def test_a_kill_at_any_call_of_the_move_leaves_one_status(env: simcord.Env, make_bot, calls: int) -> None:  # type: ignore[no-untyped-def]
    server, players, thread, turn, made = await moving_pass(env, make_bot, calls)
    assert made == MOVING_PASS[:calls]
    await env.restart_bot(make_bot())
    (status,) = statuses(thread)
    # Where the move left it, or where it was if it never moved: then one message deeper, its row waiting for the
    # table's next move (`bot.notifier.delivery.can_wait`) — found at start-up all the same, so never shown twice.
    assert below(thread, status) <= STATUS_DEPTH + 1
    assert [r.kind for r in await server.bot.store.outbox.undelivered(game_id=1)] in ([], ["status"])
    for i in range(3):
        await players[(turn + i) % 3].slash(thread, "game move", action=move({"type": "draw"}))
        assert len(statuses(thread)) == 1, made
        assert below(thread, statuses(thread)[0]) <= STATUS_DEPTH
    assert await server.bot.store.outbox.undelivered(game_id=1) == []
    ref = await server.bot.store.refs.find(1, "status")
    assert ref is not None and ref.message_id == statuses(thread)[0].id


REPOST_PASS = [
    "DELETE /channels/{channel_id}/messages/{message_id}",  # the old status message goes
    "POST /channels/{channel_id}/messages",  # the status, posted afresh at the bottom
]


@pytest.mark.parametrize("calls", range(1, len(REPOST_PASS) + 1))
async def test_a_kill_while_the_status_is_posted_afresh_leaves_one_status(
    env: simcord.Env, make_bot, calls: int
) -> None:  # type: ignore[no-untyped-def]
    server = make_server(env)
    players = await start_toy(server)
    thread = thread_of(server)
    # People talk in the thread: the status sinks past the deepest it may go, with no narration message to move
    # into, so the next status update posts it afresh.
    for k in range(14):
        await server.members[3].send(thread, f"chat {k}")
    old = env.bot
    await old.store.outbox.add(1, [outbox.status()], now=old.clock())
    made = kill_after(old, calls)
    with pytest.raises((Killed, StorageError)):
        await old.notifier.flush(1)
    assert made == REPOST_PASS[:calls]
    await env.restart_bot(make_bot())
    (status,) = statuses(thread)
    assert below(thread, status) == 0
    for i in range(3):
        await players[i % 3].slash(thread, "game move", action=move({"type": "draw"}))
        assert len(statuses(thread)) == 1, made
