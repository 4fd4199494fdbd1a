"""The store's life in a process: a bot that dies without closing the store still exits, and nothing it
committed is lost; a closed store refuses work with a clear error."""

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from storage import GameStore, StorageError, open_store

ROOT = Path(__file__).resolve().parents[2]

DIES = """
import asyncio, sys
from storage import open_store

async def main():
    store = await open_store(sys.argv[1])
    game = await store.games.create("toy", guild_id=1)
    print(game.id, flush=True)
    raise RuntimeError("the bot crashed")  # no close()

asyncio.run(main())
"""


def test_a_process_that_never_closes_the_store_still_exits(db_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", DIES, str(db_path)], cwd=ROOT, capture_output=True, text=True, timeout=30
    )
    assert done.returncode != 0 and "the bot crashed" in done.stderr
    game_id = int(done.stdout.strip())

    async def check() -> None:
        store = await open_store(db_path)
        try:
            assert (await store.games.get(game_id)).kind == "toy"
        finally:
            await store.close()

    asyncio.run(check())


async def test_a_closed_store_refuses_work(store: GameStore) -> None:
    await store.close()
    await store.close()  # idempotent
    with pytest.raises(StorageError, match="closed"):
        await store.games.find()
