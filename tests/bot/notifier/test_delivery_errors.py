"""A message Discord applied but answered with an error is not posted again (issue 10, fault 4): the row stays "in
flight", so the retry first looks for the message in the thread, as after a crash."""

from types import SimpleNamespace
from typing import Any

import discord
import simcord

from bot import outbox
from storage import NewOutbox
from tests.bot.helpers import make_server, start_toy, texts, thread_of


async def test_a_post_applied_despite_an_error_is_not_posted_twice(env: simcord.Env) -> None:
    server = make_server(env)
    await start_toy(server)
    bot = server.bot
    thread = thread_of(server)
    send = bot.http.send_message
    calls = 0

    async def applied_then_error(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        message = await send(*args, **kwargs)
        if calls == 1:  # Discord stored it, then the answer was lost in a 502
            raise discord.HTTPException(SimpleNamespace(status=502, reason="Bad Gateway"), "injected")  # type: ignore[arg-type]
        return message

    bot.http.send_message = applied_then_error  # type: ignore[method-assign]
    payload = {"texts": ["📣 One announcement, said once."]}
    await bot.store.outbox.add(
        1, [NewOutbox(kind=outbox.POST, target={"to": "thread"}, payload=payload)], now=bot.clock()
    )
    await bot.notifier.flush(1)
    (row,) = await bot.store.outbox.undelivered(game_id=1)
    assert row.last_error is not None and row.last_error.startswith("in flight")
    bot.notifier.close()
    await bot.notifier.flush(1)  # the retry
    assert sum("One announcement, said once." in t for t in texts(thread)) == 1
    assert await bot.store.outbox.undelivered(game_id=1) == []
