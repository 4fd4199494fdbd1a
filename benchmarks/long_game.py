"""Benchmark of a move's cost along a game: does a move late in a long game cost more than an early one?

    .venv/bin/python benchmarks/long_game.py [--games N] [--sizes 10,230,700,2000] [--dir DIR]

1. Whole games of Kohle, Kies & Knete (4–6 seats, ~450 moves each) played one after the other through the real
   service, notifier and SQLite store with the fake Discord (the rig of benchmarks/action.py: no limits, no round
   trip, pictures off), each move delivered in full before the next. Each player move is put in the tenth of its
   game it falls in (move index × 10 // the game's length) and printed per tenth: the process's CPU time per move
   (command in to everything delivered; a game's final move apart, since it also builds the game's record), the
   time the database thread spent on the move's store operations (each operation timed where it runs), the part
   of it that read message references and how many such reads a move made, and how many message references the
   game held in the database when the move came (goal: the last tenth's CPU ≤ 1.1× the first's, and the database
   time not growing with the references).
2. One game's message references read the way a delivery pass reads the one it needs, against the number of
   references the game holds (each a settled offer's, as a long game would pile them up without retiring them):
   the whole game read (`refs.of_game`, what a pass did before looking one up) and the one reference by key
   (`refs.find_many`), mean of many reads each.
"""

import argparse
import asyncio
import logging
import platform
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.action import Move, Rig, settle  # noqa: E402
from benchmarks.fakecord import FakeDiscord  # noqa: E402
from bot import outbox, runtime  # noqa: E402
from storage import MessageRef, open_store  # noqa: E402
from storage.sqlite.iocount import _SKIP, op_name  # noqa: E402


class DbClock:
    """The time the database thread spends on each store operation (outside `uncounted()` blocks), by operation."""

    def __init__(self, store: Any) -> None:
        conn = store.db.connection
        original = conn._execute
        self.seconds: Counter[str] = Counter()
        self.calls: Counter[str] = Counter()

        async def timed(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
            if _SKIP.get() or not args or not isinstance(args[0], sqlite3.Connection):
                return await original(fn, *args, **kwargs)
            name = op_name(fn)
            self.calls[name] += 1

            def run(*a: Any, **kw: Any) -> Any:
                start = time.perf_counter()
                try:
                    return fn(*a, **kw)
                finally:
                    self.seconds[name] += time.perf_counter() - start

            return await original(run, *args, **kwargs)

        conn._execute = timed


def refs_held(rig: Rig, game_id: int) -> int:
    conn = sqlite3.connect(rig.bot.store.path)  # type: ignore[attr-defined]
    try:
        return int(conn.execute("SELECT count(*) FROM message_refs WHERE game_id = ?", (game_id,)).fetchone()[0])
    finally:
        conn.close()


async def whole_games(directory: Path, games: int, seed: int) -> None:
    fake = FakeDiscord()
    rig = Rig(directory, fake, pictures=False, seed=seed)
    await rig.start()
    rig.timeouts = 0.02
    clock = DbClock(rig.bot.store)
    # per game: [(cpu s, db s, refs-read s, refs held, refs round trips)] of its player moves, in order
    played: list[list[tuple[float, float, float, int, int]]] = []
    lengths: list[int] = []
    for _ in range(games):
        table = await rig.add_table()
        moves: list[tuple[float, float, float, int, int]] = []
        made = 0
        while True:
            chosen = await rig.next_move(table)
            if chosen is None:
                break
            held = refs_held(rig, table.game_id)
            db_before = Counter(clock.seconds)
            calls_before = Counter(clock.calls)
            cpu_before = time.process_time()
            move: Move = await rig.play(table, *chosen)
            await settle(rig.bot)
            cpu = time.process_time() - cpu_before
            spent = clock.seconds - db_before
            called = clock.calls - calls_before
            made += 1
            if move.kind == "timeout":
                continue
            refs_read = sum(s for op, s in spent.items() if op.startswith("messagerefs."))
            reads = sum(n for op, n in called.items() if op.startswith("messagerefs."))
            moves.append((cpu, sum(spent.values()), refs_read, held, reads))
        played.append(moves)
        lengths.append(made)
    await rig.close()
    tenths: dict[int, list[tuple[float, float, float, int, int]]] = defaultdict(list)
    for moves in played:
        for i, m in enumerate(moves[:-1]):  # the game's final move is shown apart: it also records the game
            tenths[i * 10 // (len(moves) - 1)].append(m)
    n = sum(len(m) for m in played)
    print(f"1. Whole games, one move at a time ({games} games of {min(lengths)}–{max(lengths)} moves, "
          f"mean {statistics.mean(lengths):.0f}; {n} player moves)")  # fmt: skip
    print(f"   {'tenth':>5}{'moves':>7}{'CPU mean ms':>13}{'CPU median':>12}{'DB ms':>8}{'refs read ms':>14}"
          f"{'refs reads':>11}{'refs held':>11}{'max':>6}")  # fmt: skip
    means = {}
    for t in range(10):
        xs = tenths[t]
        means[t] = statistics.mean(x[0] for x in xs)
        print(f"   {t + 1:>5}{len(xs):>7}{means[t] * 1000:>13.2f}{statistics.median(x[0] for x in xs) * 1000:>12.2f}"
              f"{statistics.mean(x[1] for x in xs) * 1000:>8.3f}{statistics.mean(x[2] for x in xs) * 1000:>14.3f}"
              f"{statistics.mean(x[4] for x in xs):>11.2f}{statistics.mean(x[3] for x in xs):>11.1f}"
              f"{max(x[3] for x in xs):>6d}")  # fmt: skip
    finals = [moves[-1] for moves in played]
    print(f"   the final move of each game (its record built by replaying the log: bot.records), apart: CPU mean "
          f"{statistics.mean(x[0] for x in finals) * 1000:.2f} ms")  # fmt: skip
    medians = [statistics.median(x[0] for x in tenths[t]) for t in (0, 9)]
    print(f"   last tenth / first tenth, CPU per move: mean {means[9] / means[0]:.2f}x, median "
          f"{medians[1] / medians[0]:.2f}x (goal <= 1.1x)")  # fmt: skip


async def refs_read(directory: Path, sizes: list[int], reads: int) -> None:
    print("2. Reading one game's message references, by how many it holds (mean of "
          f"{reads} reads; the database thread's time and the whole call)")  # fmt: skip
    print(f"   {'refs':>6}{'of_game ms':>12}{'(call)':>9}{'find_many ms':>14}{'(call)':>9}")
    for size in sizes:
        store = await open_store(directory / f"refs-{size}.sqlite3")
        clock = DbClock(store)
        game_id = (await store.games.create("kkk", guild_id=1, channel_id=2, thread_id=5)).id
        now = datetime.now(UTC)
        refs = [
            MessageRef(
                message_id=10_000 + i, channel_id=5, game_id=game_id, kind="kkk.offer", key=str(i), created_at=now
            )
            for i in range(size - 1)
        ]
        refs.append(MessageRef(message_id=9_999, channel_id=5, game_id=game_id, kind=outbox.STATUS, created_at=now))
        await store.outbox.mark_delivered_many([(None, refs)], now=now)
        assert len(await store.refs.of_game(game_id)) == size
        status = [(outbox.STATUS, None, "")]
        assert len(await store.refs.find_many(game_id, status)) == 1
        row: list[float] = [size]
        for by_key in (False, True):
            clock.seconds.clear()
            start = time.perf_counter()
            for _ in range(reads):
                if by_key:
                    await store.refs.find_many(game_id, status)
                else:
                    await store.refs.of_game(game_id)
            row += [sum(clock.seconds.values()) / reads * 1000, (time.perf_counter() - start) / reads * 1000]
        print(f"   {row[0]:>6.0f}{row[1]:>12.3f}{row[2]:>9.3f}{row[3]:>14.3f}{row[4]:>9.3f}")
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--games", type=int, default=10, help="whole games to play")
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--sizes", default="10,230,700,2000", help="part 2: references held")
    parser.add_argument("--reads", type=int, default=300, help="part 2: reads per size")
    parser.add_argument("--only", choices=("games", "refs"), default=None)
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    runtime.tune()  # as `python -m bot` does
    print(f"Machine: {platform.node()} {platform.machine()}, Python {platform.python_version()}, "
          f"SQLite {sqlite3.sqlite_version}; pictures off")  # fmt: skip
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        if args.only in (None, "games"):
            asyncio.run(whole_games(Path(tmp), args.games, args.seed))
        if args.only in (None, "refs"):
            asyncio.run(refs_read(Path(tmp), [int(s) for s in args.sizes.split(",")], args.reads))


if __name__ == "__main__":
    main()
