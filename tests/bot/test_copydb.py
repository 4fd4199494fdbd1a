"""`python -m bot copy-db --to postgresql://…` on a database with finished, running and paused games of all four
games (played by seeded random players, committed as the bot does), a lobby, settings, message references and
delivered messages: every row arrives, every game replays there and plays on; a second copy is refused."""

import random
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from engine import registry
from replay import check_replay
from storage import (
    GameStore,
    GuildSettings,
    MessageRef,
    NewOutbox,
    PlayerDelivery,
    QuietHours,
    open_store,
)
from tests.storage.helpers import T0, deadline_clock, random_step, start, uniform_chooser

STEPS = {"finished": 12, "active": 8, "paused": 5}


async def build(path: Path) -> dict[int, str]:
    """The source database: per game kind a finished, a running and a paused game. Returns {game id: status}."""
    store = await open_store(path, synchronous="OFF")
    made: dict[int, str] = {}
    try:
        for n, (kind, game) in enumerate(sorted(registry.build().items())):
            seats = max(game.min_seats, 3)
            for status, steps in STEPS.items():
                seed = 100 * n + steps
                gid = await start(store, game, seats=seats, seed=seed)
                rnd = random.Random(seed)
                chooser, clock = uniform_chooser(game, seats), deadline_clock(game, rnd)
                for _ in range(steps):
                    if await random_step(store, game, gid, rnd, note_chance=0.1, chooser=chooser, clock=clock) is None:
                        break
                record = await store.games.get(gid)
                if record.status != status:
                    await store.games.update(gid, status=status)  # type: ignore[arg-type]
                made[gid] = f"{kind}/{status}"
        lobby = await store.games.create("kkk", guild_id=10, channel_id=20, options={"x": 1})
        made[lobby.id] = "kkk/lobby"
        await store.settings.put_guild(GuildSettings(guild_id=10, moderator_role_id=5, timezone="Europe/Berlin"))
        await store.settings.put_delivery(PlayerDelivery(player_id=1000, notify="dm", language="nl"))
        await store.settings.set_quiet(1001, QuietHours(start=T0.time(), end=T0.time().replace(hour=7), timezone="UTC"))
        await store.settings.set_profile_private(1002, True)
        first = min(made)
        await store.refs.put(MessageRef(message_id=77, channel_id=20, game_id=first, kind="status", created_at=T0))
        pending = await store.outbox.undelivered(limit=3)
        await store.outbox.mark_delivered(
            pending[0].id,
            refs=[MessageRef(message_id=78, channel_id=20, game_id=first, kind="hand", seat=1, created_at=T0)],
        )
        await store.outbox.add(None, [NewOutbox(kind="post", target={"channel_id": 20}, payload={"text": "hi"})])
    finally:
        await store.close()
    return made


async def same_everywhere(source: GameStore, target: GameStore, game_ids: list[int]) -> None:
    for gid in game_ids:
        a, b = await source.export_game(gid), await target.export_game(gid)
        assert a.model_dump(exclude={"exported_at"}) == b.model_dump(exclude={"exported_at"}), gid
        assert await source.timers.of_game(gid) == await target.timers.of_game(gid)
        assert await source.refs.of_game(gid) == await target.refs.of_game(gid)
    assert await source.outbox.undelivered(limit=1000) == await target.outbox.undelivered(limit=1000)
    delivered = min(o.id for o in await source.outbox.undelivered(limit=1000)) - 1
    assert await source.outbox.item(delivered) == await target.outbox.item(delivered)
    assert await source.settings.guild(10) == await target.settings.guild(10)
    assert await source.settings.deliveries([1000]) == await target.settings.deliveries([1000])
    assert await source.settings.quiet_of([1001]) == await target.settings.quiet_of([1001])
    assert await target.settings.profile_private(1002)


async def test_copy_db_moves_everything_replays_every_game_and_refuses_a_second_copy(
    tmp_path: Path, fresh_postgres: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "boardroom.sqlite3"
    made = await build(path)
    assert {v.split("/")[1] for v in made.values()} == {"finished", "active", "paused", "lobby"}
    assert len({v.split("/")[0] for v in made.values()}) == 4
    monkeypatch.setenv("DATABASE_PATH", str(path))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.chdir(tmp_path)  # no .env of the developer's

    assert await _main(["copy-db", "--to", fresh_postgres]) == 0
    out = capsys.readouterr().out
    assert f"all {len(made) - 1} started games replay" in out, out

    source, target = await open_store(path), await open_store(fresh_postgres)
    try:
        await same_everywhere(source, target, sorted(made))
        games: dict[str, Any] = registry.build()
        running = [gid for gid, what in made.items() if what.endswith("/active")]
        for gid in running:  # plays on in the new database
            record = await target.games.get(gid)
            game = games[record.kind]
            rnd = random.Random(gid)
            version = await random_step(target, game, gid, rnd, chooser=uniform_chooser(game, record.seat_count or 0))
            assert version == record.version + 1
            assert (await check_replay(target, game, gid)).ok
        new = await target.games.create("kkk")
        assert new.id > max(made)  # the ids go on above the copied ones
    finally:
        await source.close()
        await target.close()

    assert await _main(["copy-db", "--to", fresh_postgres]) == 1
    assert "not empty" in capsys.readouterr().out


async def _main(args: list[str]) -> int:
    """`python -m bot …` as a command line runs it (in a thread: it runs its own event loop)."""
    import asyncio

    return await asyncio.to_thread(main, args)
