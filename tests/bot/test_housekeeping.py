"""The hourly housekeeping prunes the outbox: delivered rows past the retention go, pending and recent ones stay."""

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import simcord

from bot.client import BoardroomBot
from bot.settings import Settings
from storage import GameNotFound, NewOutbox

T0 = datetime(2026, 3, 1, tzinfo=UTC)


async def test_housekeeping_prunes_delivered_outbox_rows_after_the_retention(
    env: simcord.Env, make_bot: Callable[..., BoardroomBot], db_path: Path
) -> None:
    now = [T0]
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, discord_token="t", database_path=db_path, outbox_keep_days=2, backup_every_hours=0
    )
    bot = make_bot(settings=settings, clock=lambda: now[0])
    await env.restart_bot(bot)
    store = bot.store
    row = NewOutbox(kind="post", target={}, payload={"texts": ["x"]})
    old, recent, pending = await store.outbox.add(None, [row, row, row], now=T0)
    await store.outbox.mark_delivered(old, now=T0)
    await store.outbox.mark_delivered(recent, now=T0 + timedelta(days=2))

    now[0] = T0 + timedelta(days=2, hours=1)  # `old` is past the two days kept, `recent` is not
    await bot.housekeeper.run_once()

    try:
        await store.outbox.item(old)
        raise AssertionError("the old delivered row should be gone")
    except GameNotFound:
        pass
    assert (await store.outbox.item(recent)).delivered_at == T0 + timedelta(days=2)
    assert (await store.outbox.item(pending)).delivered_at is None
