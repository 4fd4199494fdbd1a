"""Child process for the crash test: commits random steps of a game ("toy" or "kkk") in a loop, as fast as it can,
and prints "ack <game_id> <version>" after each commit has returned. The parent kills it with SIGKILL at a random
moment.

Run as `python -m tests.storage.crash_child DB_PATH SEED GAME` from the repository root.
"""

import asyncio
import random
import sys
from typing import Any

from engine.game import Game
from storage import open_store
from tests.storage.helpers import Chooser, deadline_clock, random_step, start


def game_and_chooser(kind: str) -> tuple[Game[Any, Any], Chooser | None]:
    if kind == "kkk":
        from engine.kkk.randomplay import choose
        from engine.kkk.rules import KKK

        kkk = KKK()
        return kkk, lambda state, rnd: choose(kkk, state, rnd)
    from tests.storage.toy_game import ToyDraw

    return ToyDraw(), None


async def main(path: str, seed: int, kind: str) -> None:
    store = await open_store(path)
    game, chooser = game_and_chooser(kind)
    rnd = random.Random(seed)
    clock = deadline_clock(game, rnd)
    active = [g for g in await store.games.find(statuses=["active"]) if g.kind == kind]
    seats = max(game.min_seats, 3)
    game_id = active[-1].id if active else await start(store, game, seats=seats, seed=seed)
    ready = False
    while True:
        version = await random_step(
            store, game, game_id, rnd, undo_chance=0.03, note_chance=0.03, chooser=chooser, clock=clock
        )
        if version is None:
            await store.games.update(game_id, status="finished")
            game_id = await start(store, game, seats=seats, seed=rnd.randrange(1 << 40))
            continue
        if not ready:  # after a first commit: the connection is warm, so the kill lands among commits
            print("ready", flush=True)
            ready = True
        sys.stdout.write(f"ack {game_id} {version}\n")
        sys.stdout.flush()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3]))
