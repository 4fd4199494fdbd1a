"""Benchmark of the database's size: bytes per finished game, after the outbox's retention.

    .venv/bin/python benchmarks/size.py [--games N]

Whole seeded games of Kohle, Kies & Knete are played through the bot (the rig of benchmarks/action.py: the real
service, notifier and store, a fake Discord), one after the other. Then the clock moves past the outbox's retention
(`OUTBOX_KEEP_DAYS`, 7 days by default) and the hourly housekeeping runs, as it would. Printed: the bytes each
table and index takes (SQLite's `dbstat`) before and after, and the bytes per finished game once the file is
vacuumed (minus an empty database's). Target: at most 150 KB per finished game.
"""

import argparse
import asyncio
import logging
import sqlite3
import sys
import tempfile
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.action import Rig, whole_games  # noqa: E402
from benchmarks.fakecord import FakeDiscord  # noqa: E402
from storage import open_store  # noqa: E402


def usage(path: Path) -> dict[str, int]:
    """Bytes in use per table and index (free pages left out)."""
    conn = sqlite3.connect(path)
    try:
        return dict(conn.execute("SELECT name, sum(pgsize) - sum(unused) FROM dbstat GROUP BY name").fetchall())
    finally:
        conn.close()


def vacuumed_size(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("VACUUM")
        count = conn.execute("PRAGMA page_count").fetchone()[0]
        size = conn.execute("PRAGMA page_size").fetchone()[0]
    finally:
        conn.close()
    return count * size


async def empty_size(directory: Path) -> int:
    path = directory / "empty.sqlite3"
    store = await open_store(path)
    await store.close()
    return vacuumed_size(path)


async def measure(directory: Path, games: int) -> None:
    rig = Rig(directory, FakeDiscord(), False, seed=55, backup_every_hours=0)
    await rig.start()
    moves = await whole_games(rig, games)
    from benchmarks.action import settle

    await settle(rig.bot)
    path = Path(rig.bot.store.path)  # type: ignore[attr-defined]
    before = usage(path)
    keep = rig.bot.settings.outbox_keep_days
    rig.offset += timedelta(days=keep, hours=1)  # a week later: the hourly housekeeping prunes the outbox
    await rig.bot.housekeeper.run_once()
    after = usage(path)
    await rig.close()
    empty = await empty_size(directory)
    total = vacuumed_size(path)
    per_game = (total - empty) / games
    print(f"{games} whole games, {moves} moves ({moves / games:.0f} a game), outbox kept {keep:g} days")
    print(f"  {'table or index':34}{'before pruning':>16}{'after':>12}{'per game after':>16}")
    for name in sorted(set(before) | set(after), key=lambda n: -before.get(n, 0)):
        b, a = before.get(name, 0), after.get(name, 0)
        if b < 8192 and a < 8192:
            continue
        print(f"  {name:34}{b / 1e3:13.0f} KB{a / 1e3:9.0f} KB{a / games / 1e3:13.1f} KB")
    verdict = "meets" if per_game <= 150e3 else "MISSES"
    print(f"  vacuumed file: {total / 1e3:.0f} KB, an empty store {empty / 1e3:.0f} KB: "
          f"{per_game / 1e3:.0f} KB per finished game ({verdict} the target of <= 150 KB)")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        asyncio.run(measure(Path(tmp), args.games))


if __name__ == "__main__":
    main()
