"""How close any layout of the store could come to the floor of benchmarks/store.py (issue 14, goal 6: <= 1.5x).

    .venv/bin/python benchmarks/commit_bound.py [--commits N] [--block N] [--dir DIR]

The store's commit runs five statements on three tables and four b-trees; the floor one INSERT of one row. This
script asks whether a different layout could meet the goal on this disk, by timing the least a structured commit
of the same step can do, beside the floor and the real store, in the same run:

- floor: one hop to aiosqlite's thread, BEGIN, INSERT of one row as long as what the store writes, COMMIT
  (`benchmarks.store.floor_row`, the same bytes as there: the events counted compressed, so the floor is a shade
  shorter than what the text variant below writes, which does not flatter it);
- store: `store.games.commit` with its records built (`benchmarks.store.commit_args`), as store.py's headline;
- bound: the records built the same way, then one hop running BEGIN, an UPDATE of the games row (version checked
  in its WHERE, snapshot, timer list, next due; one index, on the next due time), an INSERT of one row holding the
  log entry and the step's outbox rows as one JSON list (one table with its (game, seq) index: no separate outbox
  table, no outbox ids, no triggers, no read), COMMIT. Nothing a bot needs besides is kept (no delivery marks,
  no gap check, no seats): it is a lower bound, not a design;
- bound, events as text: the same with the log's events left as JSON text, i.e. compression
  (`storage.logcodec`, goal 5's size) moved out of the commit.

All sides run in rounds of short blocks, in an order that rotates every round, on the same disk with WAL and
synchronous=FULL. Printed: the median of each and its ratio to the floor's median.
"""

import argparse
import asyncio
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import aiosqlite
from store import FLOOR_TABLE, LANES, T0, Step, commit_args, floor_row, floor_transaction, kkk_games, lane_steps

from storage import NewSeat, logcodec, open_store
from storage.jsontext import dump_json
from storage.sqlite import timerlist
from storage.sqlite.rows import db_time, log_columns, outbox_columns

_BOUND_SCHEMA = (
    "CREATE TABLE games (id INTEGER PRIMARY KEY, version INTEGER NOT NULL, updated_at TEXT NOT NULL,"
    " state TEXT NOT NULL, timers TEXT NOT NULL, next_due TEXT)",
    "CREATE INDEX games_due ON games (next_due)",
    "CREATE TABLE steps (game_id INTEGER NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL, actor_seat INTEGER,"
    " user_id INTEGER, action TEXT, events TEXT NOT NULL, at TEXT NOT NULL, outbox TEXT NOT NULL)",
    "CREATE UNIQUE INDEX steps_seq ON steps (game_id, seq)",
)
_BOUND_UPDATE = (
    "UPDATE games SET version = ?, updated_at = ?, state = ?, timers = ?, next_due = ? WHERE id = ? AND version = ?"
)
_BOUND_INSERT = "INSERT INTO steps VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"


async def _connect(path: Path) -> aiosqlite.Connection:
    conn = await aiosqlite.connect(path, isolation_level=None)
    await conn.execute("PRAGMA journal_mode = WAL")
    await conn.execute("PRAGMA synchronous = FULL")
    return conn


def _bound_transaction(conn: sqlite3.Connection, game_id: int, version: int, columns: tuple[Any, ...]) -> None:
    state, listed, due, now, log, outbox = columns
    conn.execute("BEGIN IMMEDIATE")
    try:
        changed = conn.execute(_BOUND_UPDATE, (version + 1, now, state, listed, due, game_id, version)).rowcount
        if changed != 1:
            raise RuntimeError(f"game {game_id} is not at version {version}")
        conn.execute(_BOUND_INSERT, (game_id, version + 1, *log, outbox))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _bound_columns(args: dict[str, Any]) -> tuple[Any, ...]:
    """What the bound's transaction writes, from records built as the store's caller builds them."""
    now = db_time(T0)
    entry = args["entry"]
    action, events, at = log_columns(entry)
    listed, due = timerlist.build([timerlist.item(i, t, now) for i, t in enumerate(args["timers"], 1)])
    outbox = (
        "["
        + ",".join(
            f"[{dump_json(kind)},{target},{payload}]" for kind, target, payload in map(outbox_columns, args["outbox"])
        )
        + "]"
    )
    return args["snapshot"], listed, due, now, (entry.kind, entry.actor_seat, entry.user_id, action, events, at), outbox


async def run(directory: Path, commits: int, block: int) -> None:
    games = kkk_games(24, 1)
    rounds = -(-commits // block)
    per_lane = -(-(rounds * block * 3 + block) // LANES)
    plays = lane_steps(games, LANES, per_lane)
    steps: list[Step] = [plays[k % LANES][k // LANES] for k in range(LANES * per_lane)]
    rows = [floor_row(commit_args(s, 1)) for s in steps]

    floor = await _connect(directory / "floor.sqlite3")
    await floor.execute(FLOOR_TABLE)
    bounds = {name: await _connect(directory / f"{name}.sqlite3") for name in ("bound", "bound_text")}
    for conn in bounds.values():
        for sql in _BOUND_SCHEMA:
            await conn.execute(sql)
        for lane in range(LANES):
            await conn.execute("INSERT INTO games VALUES (?, 0, '', '', '[]', NULL)", (lane + 1,))
    store = await open_store(directory / "store.sqlite3")
    store_ids = []
    for lane in range(LANES):
        record = await store.games.create("kkk")
        seats = [NewSeat(seat=i, player_id=i) for i in range(4)]
        await store.games.start(record.id, seed=lane, setup_at=T0, seats=seats, snapshot=games[lane].setup_state)
        store_ids.append(record.id)
    versions: dict[str, list[int]] = {name: [0] * LANES for name in ("store", "bound", "bound_text")}
    encode = logcodec.encode

    async def floor_commit(k: int) -> float:
        t = time.perf_counter()
        await floor._execute(floor_transaction, floor._conn, rows[k])  # type: ignore[attr-defined]
        return time.perf_counter() - t

    async def store_commit(k: int) -> float:
        lane = k % LANES
        t = time.perf_counter()
        a = commit_args(steps[k], store_ids[lane])
        result = await store.games.commit(store_ids[lane], versions["store"][lane], a["entry"], a["snapshot"],
                                    timers=a["timers"], outbox=a["outbox"])  # fmt: skip
        versions["store"][lane] = result.version
        return time.perf_counter() - t

    def bound_commit(name: str) -> Callable[[int], Awaitable[float]]:
        conn = bounds[name]

        async def commit(k: int) -> float:
            lane = k % LANES
            if name == "bound_text":
                logcodec.encode = lambda text: text  # the events stay JSON text: compressed later, off the move
            try:
                t = time.perf_counter()
                columns = _bound_columns(commit_args(steps[k], lane + 1))
                await conn._execute(_bound_transaction, conn._conn, lane + 1, versions[name][lane], columns)  # type: ignore[attr-defined]
                dt = time.perf_counter() - t
            finally:
                logcodec.encode = encode
            versions[name][lane] += 1
            return dt

        return commit

    sides: dict[str, Callable[[int], Awaitable[float]]] = {
        "floor": floor_commit,
        "store": store_commit,
        "bound": bound_commit("bound"),
        "bound_text": bound_commit("bound_text"),
    }
    times: dict[str, list[float]] = {name: [] for name in sides}
    names = list(sides)
    cursor = 0
    for name in names:  # warm-up: every side once
        for k in range(cursor, cursor + block):
            await sides[name](k)
    cursor += block
    for r in range(rounds):
        order = names[r % len(names) :] + names[: r % len(names)]
        start = cursor
        for name in order:
            # Every side commits the same steps of the round (the floor their rows), each on its own database.
            for k in range(start, start + block):
                times[name].append(await sides[name](k))
        cursor += block
    await store.close()
    for conn in (floor, *bounds.values()):
        await conn.close()

    floor_median = statistics.median(times["floor"])
    labels = {
        "floor": "floor (one hop: BEGIN, INSERT of one row, COMMIT)",
        "store": "store (GameStore.commit, records built)",
        "bound": "bound (games UPDATE + one row, records built)",
        "bound_text": "bound, events as text (compression out)",
    }
    print(f"{rounds * block} commits a side, blocks of {block}, order rotating every round; WAL, synchronous=FULL")
    print(f"  {'':52}{'median':>10}{'p90':>10}{'x floor':>9}")
    for name, label in labels.items():
        ordered = sorted(times[name])
        median, p90 = statistics.median(ordered), ordered[int(0.9 * (len(ordered) - 1))]
        print(f"  {label:52}{median * 1000:8.3f} ms{p90 * 1000:7.3f} ms{median / floor_median:8.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--dir", type=Path, default=None, help="where the databases go (default: a temp dir)")
    parser.add_argument("--commits", type=int, default=1500, help="commits a side")
    parser.add_argument("--block", type=int, default=50)
    args = parser.parse_args()
    if args.dir is not None:
        args.dir.mkdir(parents=True, exist_ok=True)
        asyncio.run(run(args.dir, args.commits, args.block))
        return
    with tempfile.TemporaryDirectory() as directory:
        asyncio.run(run(Path(directory), args.commits, args.block))


if __name__ == "__main__":
    main()
