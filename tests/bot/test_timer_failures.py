"""A deadline that fails to fire is retried, never dropped (issue 10, fault 1): the database stays locked past its
busy timeout at the deadline, the timer stays, fires once the database answers again, and when it keeps failing the
table and the game's creator are told once."""

import sqlite3

import simcord

from tests.bot.helpers import make_server, start_toy, state, texts, thread_of

HOUR = 3600


async def start(server):  # type: ignore[no-untyped-def]
    server.bot.service.moves.reminders = False  # only the deadline: its failures are the ones counted
    return await start_toy(server)


def failing_fire(server, failures: int):  # type: ignore[no-untyped-def]
    """Make the service's `fire_timer` fail `failures` times as a locked database does, then work again."""
    real = server.bot.service.clock.fire_timer
    calls = {"failed": 0}

    async def fire(timer_id: int, game_id: int):  # type: ignore[no-untyped-def]
        if calls["failed"] < failures:
            calls["failed"] += 1
            raise sqlite3.OperationalError("database is locked")
        return await real(timer_id, game_id)

    server.bot.service.clock.fire_timer = fire  # type: ignore[method-assign]
    return calls


async def test_a_deadline_that_fails_to_fire_stays_and_fires_later(env: simcord.Env) -> None:
    server = make_server(env)
    await start(server)
    calls = failing_fire(server, 2)
    await env.advance_time(24 * HOUR + 1)  # the turn deadline: the database is locked
    assert calls["failed"] >= 1
    assert (await state(server, 1)).turn == 0
    timers = await server.bot.store.timers.of_game(1)
    assert any(t.kind == "deadline" for t in timers), "the failing deadline was dropped"
    await env.advance_time(60)  # back-off: 5 s, then 10 s
    assert calls["failed"] == 2
    assert (await state(server, 1)).turn == 1, "the deadline never fired once the database answered"
    assert any("ran out of time; the turn passes" in t for t in texts(thread_of(server)))
    assert not server.bot.scheduler.failing
    assert not any("For moderators" in t for t in texts(thread_of(server))), "two failures are not worth a report"


async def test_a_deadline_that_keeps_failing_is_reported_once_and_still_retried(env: simcord.Env) -> None:
    server = make_server(env)
    await start(server)
    calls = failing_fire(server, 10_000)
    await env.advance_time(24 * HOUR + 1)
    await env.advance_time(3 * HOUR)  # many retries, at most every 5 minutes
    assert calls["failed"] >= 10
    reports = [t for t in texts(thread_of(server)) if "For moderators" in t and "failed to fire" in t]
    assert len(reports) == 1
    creator_dms = [m.content for m in server.members[0].user.dm_channel.history()]
    assert any("failed to fire" in t for t in creator_dms)
    assert any(t.kind == "deadline" for t in await server.bot.store.timers.of_game(1))
    del server.bot.service.clock.fire_timer  # the database answers again
    await env.advance_time(6 * 60)
    assert (await state(server, 1)).turn == 1
