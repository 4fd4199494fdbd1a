"""Replay (set-up plus log equals the snapshot, undo included) and export/import, with the toy game.

The same checks run with Kohle, Kies & Knete in tests/replay/test_kkk.py."""

import asyncio
import json
import random
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay import ImportRefused, ReplayError, check_replay, import_game, replay_game
from storage import GameStore, NewLogEntry, open_store
from tests.replay.checks import check_replay_and_export, play_random_game
from tests.storage.helpers import T0, random_step, start
from tests.storage.toy_game import ToyDraw


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**40), seats=st.integers(2, 5), steps=st.integers(0, 70))
def test_random_games_replay_to_their_snapshot_and_survive_export_import(seed: int, seats: int, steps: int) -> None:
    asyncio.run(check_replay_and_export(ToyDraw(), seed=seed, seats=seats, steps=steps, options={"turns": 60}))


async def test_undo_goes_back_and_replay_honours_it(store: GameStore, toy: ToyDraw) -> None:
    gid, snapshots = await play_random_game(store, toy, seed=3, seats=3, steps=10, undo_chance=0, note_chance=0)
    assert max(snapshots) == 10
    back = await replay_game(store, toy, gid, upto=4)
    assert toy.dump_state(back) == snapshots[4]
    await store.games.commit(gid, 10, NewLogEntry.for_undo(4, T0, user_id=1, note="oops"), toy.dump_state(back))
    # play on from the undone state, then undo the undo (back to entry 10's state)
    rnd = random.Random(5)
    await random_step(store, toy, gid, rnd)
    await random_step(store, toy, gid, rnd)
    state_after_10 = await replay_game(store, toy, gid, upto=10)
    assert toy.dump_state(state_after_10) == snapshots[10]
    await store.games.commit(gid, 13, NewLogEntry.for_undo(10, T0), toy.dump_state(state_after_10))
    report = await check_replay(store, toy, gid)
    assert report.ok and report.version == 14
    assert (await store.games.snapshot(gid)).state == snapshots[10]
    log = await store.log.entries(gid)
    assert [e.kind for e in log].count("undo") == 2 and len(log) == 14  # nothing was removed


async def test_a_wrong_snapshot_is_found(store: GameStore, toy: ToyDraw, db_path: Path) -> None:
    gid, _ = await play_random_game(store, toy, seed=9, seats=2, steps=8, undo_chance=0, note_chance=0)
    state = json.loads((await store.games.snapshot(gid)).state)
    state["scores"][0] += 100
    with sqlite3.connect(db_path) as conn:
        conn.execute("UPDATE games SET state = ? WHERE id = ?", (json.dumps(state), gid))
    report = await check_replay(store, toy, gid)
    assert not report.ok and not report.state_matches
    assert report.differing_fields == ["scores"]


async def test_a_wrong_undo_snapshot_is_found(store: GameStore, toy: ToyDraw) -> None:
    gid, snapshots = await play_random_game(store, toy, seed=4, seats=2, steps=6, undo_chance=0, note_chance=0)
    # the caller stores the wrong state with an undo: replay tells
    await store.games.commit(gid, 6, NewLogEntry.for_undo(2, T0), snapshots[3])
    assert not (await check_replay(store, toy, gid)).state_matches


async def test_logged_events_are_checked_too(store: GameStore, toy: ToyDraw) -> None:
    gid = await start(store, toy, seats=2)
    snap = await store.games.snapshot(gid)
    state = toy.load_state(snap.state)
    action = toy.legal_actions(state, 0)[0]
    outcome = toy.apply(state, 0, action, T0)
    wrong = [e.model_copy(update={"text": "something else"}) for e in outcome.events]
    entry = NewLogEntry.for_action(0, toy.dump_action(action), T0, wrong)
    await store.games.commit(gid, 0, entry, toy.dump_state(outcome.state))
    report = await check_replay(store, toy, gid)
    assert report.state_matches and report.event_mismatches == [1] and not report.ok


async def test_a_log_the_rules_refuse_does_not_replay(store: GameStore, toy: ToyDraw) -> None:
    gid = await start(store, toy, seats=2)
    bogus = NewLogEntry.for_action(1, {"type": "play", "card": 99}, T0)  # not seat 1's turn, no such card
    await store.games.commit(gid, 0, bogus, (await store.games.snapshot(gid)).state)
    with pytest.raises(ReplayError) as err:
        await check_replay(store, toy, gid)
    assert err.value.seq == 1 and "turn" in err.value.problem
    with pytest.raises(ReplayError, match="no entry 5"):
        await replay_game(store, toy, gid, upto=5)


async def test_a_lobby_game_does_not_replay_but_exports(store: GameStore, toy: ToyDraw, tmp_path: Path) -> None:
    lobby = await store.games.create("toy", options={"turns": 5})
    with pytest.raises(ReplayError, match="lobby"):
        await replay_game(store, toy, lobby.id)
    exported = await store.export_game(lobby.id)
    assert exported.snapshot is None and exported.log == []
    other = await open_store(tmp_path / "other.sqlite3")
    try:
        imported = await import_game(other, exported.to_json(), toy)
        assert (imported.status, imported.options, imported.seed) == ("lobby", {"turns": 5}, None)
    finally:
        await other.close()


async def test_import_refusals_write_nothing(store: GameStore, toy: ToyDraw, tmp_path: Path) -> None:
    gid, _ = await play_random_game(store, toy, seed=11, seats=3, steps=12, undo_chance=0, note_chance=0)
    good = await store.export_game(gid)
    target = await open_store(tmp_path / "target.sqlite3")
    try:
        with pytest.raises(ImportRefused, match="not a Boardroom game export"):
            await import_game(target, '{"hello": 1}', toy)
        with pytest.raises(ImportRefused, match="not a Boardroom game export"):
            await import_game(target, "not json at all", toy)
        with pytest.raises(ImportRefused, match="'kkk' game"):
            await import_game(target, good.model_copy(update={"kind": "kkk"}), toy)
        gap = good.model_copy(update={"log": good.log[:3] + good.log[4:]})
        with pytest.raises(ImportRefused, match="without gaps"):
            await import_game(target, gap, toy)
        state = json.loads(good.snapshot or "")
        state["scores"][1] += 1
        with pytest.raises(ImportRefused, match="scores"):
            await import_game(target, good.model_copy(update={"snapshot": json.dumps(state)}), toy)
        tampered_log = list(good.log)
        first = tampered_log[0]
        tampered_log[0] = first.model_copy(update={"actor_seat": (first.actor_seat or 0) + 1})
        with pytest.raises(ImportRefused, match="does not replay"):
            await import_game(target, good.model_copy(update={"log": tampered_log}), toy)
        assert await target.games.find() == []
        # the good one goes in, keeps its id; a second import of it gets a new id
        first_import = await import_game(target, good, toy)
        second_import = await import_game(target, good, toy)
        assert first_import.id == gid and second_import.id != gid
        assert (await check_replay(target, toy, second_import.id)).ok
    finally:
        await target.close()
