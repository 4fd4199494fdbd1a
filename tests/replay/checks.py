"""Game-independent checks of replay and export/import, run against the toy game and against real games."""

import random
import tempfile
from pathlib import Path
from typing import Any

from engine.game import Game
from replay import check_replay, import_game, replay_game
from storage import ExportedGame, GameStore, open_store
from tests.storage.helpers import Chooser, Clock, deadline_clock, random_step, start


async def play_random_game(
    store: GameStore,
    game: Game[Any, Any],
    *,
    seed: int,
    seats: int,
    steps: int,
    options: dict[str, Any] | None = None,
    undo_chance: float = 0.05,
    note_chance: float = 0.03,
    chooser: Chooser | None = None,
    clock: Clock | None = None,
) -> tuple[int, dict[int, str]]:
    """Start and play a random game; returns its id and the snapshot after each version (to check `upto`)."""
    rnd = random.Random(seed)
    gid = await start(store, game, seats=seats, seed=seed, options=options)
    snapshots = {0: (await store.games.snapshot(gid)).state}
    clock = clock or deadline_clock(game, rnd)
    for _ in range(steps):
        version = await random_step(
            store, game, gid, rnd, undo_chance=undo_chance, note_chance=note_chance, chooser=chooser, clock=clock
        )
        if version is None:
            break
        snapshots[version] = (await store.games.snapshot(gid)).state
    return gid, snapshots


async def check_replay_and_export(
    game: Game[Any, Any],
    *,
    seed: int,
    seats: int,
    steps: int,
    options: dict[str, Any] | None = None,
    chooser: Chooser | None = None,
) -> int:
    """Play a random game in a fresh store, check that replay reproduces every snapshot, export it, import it into
    an empty store, and check the import is the same game. Returns the number of log entries."""
    with tempfile.TemporaryDirectory() as tmp:
        source = await open_store(Path(tmp) / "source.sqlite3", synchronous="NORMAL")
        target = await open_store(Path(tmp) / "target.sqlite3", synchronous="NORMAL")
        try:
            gid, snapshots = await play_random_game(source, game, seed=seed, seats=seats, steps=steps, options=options)
            report = await check_replay(source, game, gid)
            assert report.state_matches, report.differing_fields
            assert report.event_mismatches == []
            assert report.ok
            versions = sorted(snapshots)
            for version in random.Random(seed).sample(versions, min(6, len(versions))):
                replayed = await replay_game(source, game, gid, upto=version)
                assert game.dump_state(replayed) == snapshots[version], f"replay up to {version}"

            exported = await source.export_game(gid)
            text = exported.to_json()
            imported = await import_game(target, text, game)
            assert imported.id == gid
            original = await source.games.get(gid)
            assert imported.model_dump(exclude={"updated_at"}) == original.model_dump(exclude={"updated_at"})
            assert (await target.games.snapshot(gid)).state == (await source.games.snapshot(gid)).state
            assert await target.log.entries(gid) == await source.log.entries(gid)
            strip = {"joined_at"}
            assert [s.model_dump(exclude=strip) for s in await target.seats.of_game(gid)] == [
                s.model_dump(exclude=strip) for s in await source.seats.of_game(gid)
            ]
            assert (await check_replay(target, game, gid)).ok
            assert ExportedGame.from_json(text) == exported
            assert await target.maintenance.check_integrity() == []
            return original.version
        finally:
            await source.close()
            await target.close()
