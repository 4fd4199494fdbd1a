"""Replay and export/import with Kohle, Kies & Knete over random games (played by the engine's seeded random
player, committed step by step as the bot would, with moderator undos and notes in between)."""

import asyncio
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.kkk.randomplay import choose
from engine.kkk.rules import KKK
from replay import check_replay
from storage import GameStore
from tests.replay.checks import check_replay_and_export, play_random_game
from tests.storage.helpers import Chooser


def kkk_chooser(game: KKK) -> Chooser:
    def pick(state: Any, rnd: random.Random) -> tuple[int | None, Any]:
        return choose(game, state, rnd)

    return pick


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**40), seats=st.integers(3, 6), steps=st.integers(1, 700))
def test_random_kkk_games_replay_and_export(seed: int, seats: int, steps: int) -> None:
    game = KKK()
    entries = asyncio.run(check_replay_and_export(game, seed=seed, seats=seats, steps=steps, chooser=kkk_chooser(game)))
    assert entries >= 1


async def test_a_whole_kkk_game_to_the_end(store: GameStore) -> None:
    game = KKK()
    gid, _ = await play_random_game(
        store, game, seed=2024, seats=4, steps=3000, undo_chance=0.01, note_chance=0.01, chooser=kkk_chooser(game)
    )
    record = await store.games.get(gid)
    state = game.load_state((await store.games.snapshot(gid)).state)
    assert game.result(state) is not None, "the random game should reach its end"
    assert record.status == "finished" and record.finished_at is not None
    assert await store.timers.of_game(gid) == []  # a finished game waits for nothing
    report = await check_replay(store, game, gid)
    assert report.ok, report.differing_fields
    assert [e.seq for e in await store.log.entries(gid)] == list(range(1, record.version + 1))
