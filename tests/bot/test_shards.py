"""Shards (issue 30, goal 3): with `SHARD_COUNT` and `SHARD_IDS` the bot is an `AutoShardedBot` holding those shards,
and the start-up catch-up runs per shard as it connects, for the games whose server is on that shard."""

from collections.abc import Callable
from typing import Any

import discord
import pytest
import simcord
from pydantic import ValidationError

from bot.client import BoardroomBot, create_bot
from bot.settings import Settings
from bot.shards import shard_of
from tests.bot.helpers import make_server, start_toy, texts, thread_of
from tests.bot.toy_presentation import ToyPresentation
from tests.bot.toygame import Toy


def sharded(settings: Settings, ids: list[int] | None = None) -> Settings:
    # One name for every process of the test: a restart takes the old process's claims back at once, so only the
    # shard decides what is caught up with. A long lease: the takeover loop looks once every half lease.
    update = {"shard_count": 2, "shard_ids": ids, "process_name": "one", "claim_lease_seconds": 3600.0}
    return settings.model_copy(update=update)


@pytest.fixture
def simcord_bot(make_bot: Callable[..., BoardroomBot], settings: Settings) -> Any:
    return make_bot(settings=sharded(settings))


def test_a_server_is_on_the_shard_discord_sends_its_events_on() -> None:
    guild = (1234 << 22) + 99  # the shard is read from the id's timestamp bits
    assert shard_of(guild, 4) == 1234 % 4
    assert shard_of(None, 4) == 0  # no server: DMs, on shard 0


def test_shard_settings_are_checked(settings: Settings) -> None:
    made = Settings(_env_file=None, shard_count="4", shard_ids="1, 3")  # type: ignore[call-arg]
    assert (made.shard_count, made.shard_ids) == (4, [1, 3])
    for wrong in ({"shard_ids": "1"}, {"shard_count": 2, "shard_ids": "2"}, {"shard_count": 2, "shard_ids": "1,1"}):
        with pytest.raises(ValidationError):
            Settings(_env_file=None, **wrong)  # type: ignore[arg-type]
    toy = {"games": {"toy": Toy()}, "presentations": {"toy": ToyPresentation()}}
    bot = create_bot(sharded(settings, [1]), **toy)  # type: ignore[arg-type]
    assert isinstance(bot, discord.AutoShardedClient)
    assert (bot.shard_count, bot.shard_ids) == (2, [1])
    assert not isinstance(create_bot(settings, **toy), discord.AutoShardedClient)  # type: ignore[arg-type]


async def test_each_shard_catches_up_with_its_own_servers_games(
    env: simcord.Env, make_bot: Callable[..., BoardroomBot], settings: Settings
) -> None:
    server = make_server(env)
    await start_toy(server)
    thread = thread_of(server)
    # The thread refuses the bot's posts while the turn's deadline fires: its narration waits in the outbox.
    env.inject_error(
        "POST", f"/channels/{thread.id}/messages", status=403, code=50013, message="Missing Permissions", times=None
    )
    await env.advance_time(24 * 3600)
    assert [r.kind for r in await env.bot.store.outbox.undelivered(game_id=1)][:1] == ["post"]
    env.bot.scheduler.close()
    env.backend.faults.clear()
    home = shard_of(server.guild.id, 2)

    # A process holding only the other shard does not catch up with this server's game.
    await env.restart_bot(make_bot(settings=sharded(settings, [1 - home])))
    assert not any("ran out of time" in t for t in texts(thread))
    assert [r.kind for r in await env.bot.store.outbox.undelivered(game_id=1)][:1] == ["post"]

    # The process holding its shard does, as that shard connects: the narration arrives, once.
    env.bot.scheduler.close()
    await env.restart_bot(make_bot(settings=sharded(settings, [home])))
    assert sum("ran out of time" in t for t in texts(thread)) == 1
    # Only the status's move waits, for the table's next move (`Notifier.catch_up`).
    assert {r.kind for r in await env.bot.store.outbox.undelivered(game_id=1)} <= {"status"}
