"""An away player's stood-still time and a moderator's pause, together (issue 27): a turn clock that stood still while
its player was away on `pause`, then paused and resumed by a moderator, keeps exactly the time it had left — the away
time is not added a second time when the game resumes."""

from pathlib import Path

import discord
import pytest
import simcord

from bot.settings import Settings
from tests.bot.helpers import make_server, seat_players, thread_of

HOUR = 3600


@pytest.fixture
def settings(db_path: Path) -> Settings:
    return Settings(  # type: ignore[call-arg]
        _env_file=None, discord_token="test-token", database_path=db_path, reminders=False, away_max_days=2
    )


async def left(server) -> float:  # type: ignore[no-untyped-def]
    (timer,) = [t for t in await server.bot.store.timers.of_game(1) if t.kind in ("deadline", "frozen")]
    if timer.kind == "frozen":
        return float(timer.payload["remaining"])
    return (timer.due_at - server.bot.clock()).total_seconds()


async def test_a_resumed_game_keeps_the_time_left_after_an_away_pause(env: simcord.Env) -> None:
    server = make_server(env)
    admin_role = server.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = server.guild.add_member(env.create_user("mia"), roles=[admin_role])
    opened = await server.members[0].slash(server.channel, "game new", game="toy")
    for m in server.members[1:3]:
        await m.click(opened.response, label="Join")
    await server.members[0].click(opened.response, label="Start")
    first = (await seat_players(server, 1))[0]
    thread = thread_of(server)
    await env.advance_time(HOUR)
    away = await first.slash(thread, "game away", duration="1d")  # 23 hours left, standing still for a day
    assert away.response.ephemeral, away.response.content
    assert await left(server) == pytest.approx(24 * HOUR + 23 * HOUR, abs=2)
    await env.advance_time(25 * HOUR)  # back since an hour: 22 hours left
    assert await left(server) == pytest.approx(22 * HOUR, abs=2)
    paused = await admin.slash(thread, "mod pause")
    assert "paused the game" in paused.response.content, paused.response.content
    assert await left(server) == pytest.approx(22 * HOUR, abs=2)
    await env.advance_time(HOUR)
    resumed = await admin.slash(thread, "mod resume")
    assert "resumed the game" in resumed.response.content, resumed.response.content
    assert await left(server) == pytest.approx(22 * HOUR, abs=2), "the away day is not counted twice"
