"""The action benchmark's tables under way have the log the service writes, so their records can be derived.

`benchmarks/action.py` sets tables up at every stage of a game (`Rig.add_table(advance=n)`: n moves of the random
player made on the engine alone). Those moves must be in the log, one action entry each, as the service writes them:
a game's record (`bot.records`), `/mod verify` and an export all replay the log from set-up. They used to be stored
as one log note carrying the advanced state; a note changes nothing on replay, so when such a table ended, the rules
refused the first move the bot had made on it and the game was never recorded ("game 1 could not be recorded"), and
neither `/mod records rebuild` nor `python -m bot rebuild-records` could recover it: the moves were in no log.
"""

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from replay.stored import check_replay

ROOT = Path(__file__).resolve().parents[2]


def load_action() -> ModuleType:
    """`benchmarks/action.py` as a module (the benchmarks folder is not a package)."""
    spec = importlib.util.spec_from_file_location("action_benchmark", ROOT / "benchmarks" / "action.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("action_benchmark", module)
    spec.loader.exec_module(module)
    return module


ACTION = load_action()


async def test_a_table_set_up_under_way_replays_and_is_recorded_when_it_ends(tmp_path: Path) -> None:
    from benchmarks.fakecord import FakeDiscord

    rig = ACTION.Rig(tmp_path, FakeDiscord(), False, seed=22)
    await rig.start()
    try:
        table = await rig.add_table(advance=299)
        store = rig.bot.store
        assert (await store.games.get(table.game_id)).version > 200  # the advanced moves are in the log
        report = await check_replay(store, ACTION.KKK, table.game_id)
        assert report.ok, report.differing_fields
        while await rig.step(table) is not None:  # the bot plays it to its end
            pass
        await ACTION.settle(rig.bot)
        await rig.bot.recorder.settled(timeout=None)
        assert (await store.games.get(table.game_id)).status == "finished"
        result = await store.records.game_result(table.game_id)
        assert result is not None, "the finished table was not recorded"
        assert result.outcome == "finished" and result.rated
        assert (await check_replay(store, ACTION.KKK, table.game_id)).ok
    finally:
        await rig.close()
