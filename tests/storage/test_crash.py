"""Crash safety for real: a child process commits in a loop and reports each acknowledged commit; we kill it with
SIGKILL at random moments (rounds alternate the toy game and Kohle, Kies & Knete), reopen the store, and check that
every acknowledged commit is there, every log is gap-free, replay equals every snapshot, and the file is healthy.
Several rounds on the same database.

A SIGKILL tests a process crash (the OS still holds written data); a power cut cannot be simulated here, which is
what `synchronous=FULL` (SQLite) and `synchronous_commit = on` with `fsync` (PostgreSQL) additionally cover."""

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from engine.game import Game
from engine.kkk.rules import KKK
from replay import check_replay
from storage import open_store
from tests.storage.toy_game import ToyDraw

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = {"sqlite": 6, "postgres": 4}
"""Rounds per backend: each costs a child process's start (~1 s); PostgreSQL's four still alternate both games."""
BEFORE_KILL = 10
"""Acknowledged commits a round waits for before its random wait and kill: on a busy machine (a whole suite's
workers) a fixed wait alone let the child make a handful, and the round tested little."""


def run_and_kill(db: str | Path, seed: int, kind: str, rnd: random.Random) -> list[tuple[int, int]]:
    """One round: start the child, let it commit for a random while, SIGKILL it; return its acknowledgements."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.storage.crash_child", str(db), str(seed), kind],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert child.stdout is not None
        first = child.stdout.readline()
        assert first == b"ready\n", (first, child.stderr.read() if child.stderr else b"")
        early = [child.stdout.readline() for _ in range(BEFORE_KILL)]
        time.sleep(rnd.uniform(0.01, 0.35))
        child.send_signal(signal.SIGKILL)
        out, err = child.communicate(timeout=10)
        out = b"".join(early) + out
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == -signal.SIGKILL, err.decode()
    acks: list[tuple[int, int]] = []
    for line in out.decode().splitlines(keepends=True):
        if line.startswith("ack ") and line.endswith("\n"):  # a line cut by the kill is not an acknowledgement
            _, game_id, version = line.split()
            acks.append((int(game_id), int(version)))
    return acks


async def check_store(db: str | Path, acked: dict[int, int]) -> None:
    store = await open_store(db)
    try:
        games: dict[str, Game[Any, Any]] = {"toy": ToyDraw(), "kkk": KKK()}
        for game_id, version in acked.items():
            record = await store.games.get(game_id)
            assert record.version >= version, f"game {game_id}: acknowledged {version}, found {record.version}"
        for record in await store.games.find():
            if not record.started:
                continue
            log = await store.log.entries(record.id)
            assert [e.seq for e in log] == list(range(1, record.version + 1))
            report = await check_replay(store, games[record.kind], record.id)
            assert report.ok, (record.id, report.differing_fields, report.event_mismatches)
        assert await store.maintenance.check_integrity() == []
    finally:
        await store.close()


def test_sigkill_loses_no_acknowledged_commit(backend: str, target: str | Path) -> None:
    """On each backend (`target`: the SQLite file or the PostgreSQL database): on PostgreSQL the kill leaves the
    server a connection that vanished mid-statement, whose open transaction it rolls back."""
    db = target
    rnd = random.Random(20250301)
    acked: dict[int, int] = {}
    total = 0
    for round_no in range(ROUNDS[backend]):
        acks = run_and_kill(db, seed=round_no, kind=("toy", "kkk")[round_no % 2], rnd=rnd)
        total += len(acks)
        for game_id, version in acks:
            acked[game_id] = max(acked.get(game_id, 0), version)
        asyncio.run(check_store(db, acked))
    assert total > 8 * ROUNDS[backend], f"the child acknowledged only {total} commits: the test did not exercise much"
