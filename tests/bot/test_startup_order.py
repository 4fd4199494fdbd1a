"""Start-up serves first and catches up behind: once the gateway is ready the scheduler runs at once, while the
delivery of what a crash left in the outbox and the reading back of missed reactions go on in the background; a
game with an overdue timer is caught up with first, and its timer fires right after that, before the others are."""

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.client import create_bot
from bot.service import Done
from bot.settings import Settings
from storage import NewSeat, NewTimer, open_store
from tests.bot.toy_presentation import ToyPresentation
from tests.bot.toygame import Toy

T0 = datetime(2026, 2, 1, tzinfo=UTC)


async def test_the_scheduler_runs_before_the_catch_up_and_holds_overdue_games_until_caught_up(
    tmp_path: Path,
) -> None:
    store = await open_store(tmp_path / "db.sqlite3")
    toy = Toy()
    ids = []
    for n in range(2):
        record = await store.games.create("toy", guild_id=1, channel_id=2, thread_id=10 + n)
        await store.games.start(
            record.id,
            seed=n,
            setup_at=T0,
            seats=[NewSeat(seat=i, player_id=100 + i, display_name=f"P{i}") for i in range(2)],
            snapshot=toy.dump_state(toy.setup(2, toy.parse_options(), n, T0)),
            timers=[NewTimer(kind="deadline", due_at=T0 + timedelta(hours=n * 48), payload={})],
        )
        ids.append(record.id)
    overdue, later = ids  # at T0 + 1 h the first game's deadline is overdue, the second's is not
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, discord_token="t", database_path=tmp_path / "db.sqlite3", command_sync="never"
    )
    bot = create_bot(
        settings,
        games={"toy": toy},
        presentations={"toy": ToyPresentation()},
        clock=lambda: T0 + timedelta(hours=1),
        store=store,
    )
    await bot.setup_hook()
    gate = asyncio.Event()
    fired: list[int] = []
    caught_up: list[int] = []

    async def slow_flush_all() -> None:  # the catch-up of every other game takes its time
        await gate.wait()
        caught_up.append(later)

    async def fire_timer(timer_id: int, game_id: int) -> Done:
        fired.append(game_id)
        await store.timers.delete(timer_id)
        return Done(game_id)

    bot.notifier.flush_all = slow_flush_all  # type: ignore[method-assign]
    bot.service.clock.fire_timer = fire_timer  # type: ignore[method-assign]
    try:
        await asyncio.wait_for(bot.on_ready(), 5)  # returns although the catch-up is still waiting
        assert bot.scheduler.held == {overdue} and fired == []  # held until its own catch-up (first) is done
        for _ in range(200):  # the timer is claimed (one write) before it fires: a busy machine takes a moment
            if fired:
                break
            await asyncio.sleep(0.01)
        # The overdue game was caught up with first and its timer fired, while the rest is still being caught up.
        assert fired == [overdue] and bot.scheduler.held == set() and caught_up == []
        gate.set()
        while bot._tasks:
            await asyncio.wait(set(bot._tasks))
        assert caught_up == [later] and fired == [overdue]
    finally:
        bot.scheduler.close()
        bot.housekeeper.close()
        await store.close()
