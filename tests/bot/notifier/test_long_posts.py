"""A narration longer than one Discord message is split at line breaks, never cut — and each part is posted once,
across a crash between parts and across a failed part."""

from types import SimpleNamespace
from typing import Any

import discord
import pytest
import simcord

from bot import outbox
from bot.notifier import split_lines
from storage import NewOutbox, StorageError
from tests.bot.helpers import make_server, start_toy, texts, thread_of

LINES = [f"Line {n:03d}: " + "x" * 60 for n in range(80)]  # about 5,800 characters: three messages


async def queue_long_post(server) -> list[int]:  # type: ignore[no-untyped-def]
    bot = server.bot
    row = NewOutbox(kind=outbox.POST, target={"to": "thread"}, payload={"texts": LINES})
    return await bot.store.outbox.add(1, [row], now=bot.clock())


def posted_lines(thread) -> list[str]:  # type: ignore[no-untyped-def]
    return [line for t in texts(thread) for line in t.splitlines() if line.startswith("Line ")]


def test_lines_are_packed_into_as_few_messages_as_fit_and_only_an_overlong_line_is_cut() -> None:
    parts = split_lines(LINES, 2000)
    assert [len(p) <= 2000 for p in parts] == [True, True, True]
    assert "\n".join(parts).splitlines() == LINES
    assert split_lines(["short", "y" * 2500, "end"], 2000) == ["short", "y" * 1999 + "…", "end"]
    assert split_lines(["one line"], 2000) == ["one line"]


async def test_a_long_narration_arrives_whole_in_several_messages(env: simcord.Env) -> None:
    server = make_server(env)
    await start_toy(server)
    thread = thread_of(server)
    await queue_long_post(server)
    await server.bot.notifier.flush(1)
    assert posted_lines(thread) == LINES  # every line, in order, once
    parts = [t for t in texts(thread) if t.startswith("Line ")]
    assert len(parts) == 3 and all(len(p) <= 2000 for p in parts)
    assert await server.bot.store.outbox.undelivered(game_id=1) == []


async def test_a_crash_between_the_parts_posts_each_part_once_after_restart(env: simcord.Env, make_bot) -> None:  # type: ignore[no-untyped-def]
    server = make_server(env)
    await start_toy(server)
    thread = thread_of(server)
    old = env.bot
    send = old.http.send_message
    calls = 0

    async def dies_after_the_first_part(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise StorageError("simulated crash: the process died between two parts")
        return await send(*args, **kwargs)

    old.http.send_message = dies_after_the_first_part  # type: ignore[method-assign]
    await queue_long_post(server)
    with pytest.raises(StorageError):
        await old.notifier.flush(1)
    assert posted_lines(thread) == LINES[: len(posted_lines(thread))] and 0 < len(posted_lines(thread)) < len(LINES)
    assert [r.kind for r in await old.store.outbox.undelivered(game_id=1)] == ["post"]

    await env.restart_bot(make_bot())
    assert posted_lines(thread) == LINES  # the first part was found, not posted again
    assert await server.bot.store.outbox.undelivered(game_id=1) == []
    await env.restart_bot(make_bot())
    assert posted_lines(thread) == LINES


async def test_a_failed_part_is_retried_without_posting_the_earlier_ones_again(env: simcord.Env) -> None:
    server = make_server(env)
    await start_toy(server)
    thread = thread_of(server)
    bot = server.bot
    send = bot.http.send_message
    calls = 0

    async def second_part_refused(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise discord.HTTPException(SimpleNamespace(status=500, reason="Server Error"), "injected")  # type: ignore[arg-type]
        return await send(*args, **kwargs)

    bot.http.send_message = second_part_refused  # type: ignore[method-assign]
    await queue_long_post(server)
    await bot.notifier.flush(1)
    first = posted_lines(thread)
    assert 0 < len(first) < len(LINES)
    (row,) = await bot.store.outbox.undelivered(game_id=1)
    assert row.last_error is not None and row.last_error.startswith("in flight")  # not merely "failed"
    assert 1 in bot.notifier.retries  # a retry is scheduled (on the event loop's clock): run it now
    bot.notifier.close()
    await bot.notifier.flush(1)
    assert posted_lines(thread) == LINES
    assert await bot.store.outbox.undelivered(game_id=1) == []
