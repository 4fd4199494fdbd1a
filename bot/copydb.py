"""`python -m bot copy-db --to postgresql://…`: move a bot's SQLite file into an empty PostgreSQL database.

Copies every row (`storage.postgres.copy`: games, seats, logs, snapshots, timers, outbox, message references,
settings, records) in one transaction, then replays every started game in the new database with its engine and
compares it with its snapshot (`replay.check_replay`), and compares the row counts. Refuses a database that holds
anything. The SQLite file is only read: stop the bot first, so that nothing moves on while it is copied. Then set
`DATABASE_URL` to the same URL and start the bot (docs/postgres.md).
"""

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import registry
from engine.game import Game
from replay import check_replay
from storage import GameStore, open_store
from storage.backends import is_postgres
from storage.errors import StorageError
from storage.postgres import PostgresStore
from storage.postgres.copy import copy_sqlite_to_postgres
from storage.sqlite import SQLiteStore


@dataclass
class CopyReport:
    counts: dict[str, int]
    replayed: int = 0
    failed: list[str] = field(default_factory=list)
    """One line per game that does not replay to its snapshot in the new database (or whose kind is unknown)."""
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.failed


async def check_games(store: GameStore, games: dict[str, Game[Any, Any]]) -> tuple[int, list[str]]:
    """Replay every started game of `store` and compare it with its snapshot: (games replayed, failures)."""
    replayed, failed = 0, []
    for record in await store.games.find():
        if not record.started:
            continue
        game = games.get(record.kind)
        if game is None:
            failed.append(f"game {record.id}: no game called {record.kind!r} is installed")
            continue
        report = await check_replay(store, game, record.id)
        replayed += 1
        if not report.ok:
            failed.append(
                f"game {record.id} ({record.kind}): does not replay to its snapshot"
                f" (fields {report.differing_fields}, events of entries {report.event_mismatches})"
            )
    return replayed, failed


async def copy_db(source_path: Path, url: str, games: dict[str, Game[Any, Any]]) -> CopyReport:
    """Copy the SQLite store at `source_path` into the empty PostgreSQL database at `url` and check every game
    there. Raises `StorageError` (nothing written) if either cannot be used or the target is not empty."""
    if not is_postgres(url):
        raise StorageError(f"--to must be a postgresql:// URL, not {url!r}")
    started = time.perf_counter()
    source = await open_store(source_path, create=False)
    try:
        target = await open_store(url)
        try:
            assert isinstance(source, SQLiteStore) and isinstance(target, PostgresStore)
            counts = await copy_sqlite_to_postgres(source, target)
            replayed, failed = await check_games(target, games)
            async with target.db.pool.acquire() as conn:
                for table, copied in counts.items():
                    found = await conn.fetchval(f"SELECT count(*) FROM {table}")
                    if found != copied:
                        failed.append(f"{table}: {copied} rows in the file, {found} in the database")
        finally:
            await target.close()
    finally:
        await source.close()
    return CopyReport(counts=counts, replayed=replayed, failed=failed, seconds=time.perf_counter() - started)


async def run_copy(source_path: Path, url: str, data_dir: Path | None) -> int:
    """The command: prints what was copied and checked; exit code 0, or 1 with the reason."""
    from storage.postgres.database import redacted

    try:
        report = await copy_db(source_path, url, registry.build(data_dir))
    except StorageError as exc:
        print(f"Boardroom: copy-db: {exc}")
        return 1
    rows = ", ".join(f"{n} {table}" for table, n in report.counts.items() if n)
    print(f"Boardroom: copied {source_path} into {redacted(url)} in {report.seconds:.1f} s: {rows or 'no rows'}.")
    if not report.ok:
        for line in report.failed:
            print(f"Boardroom: copy-db: {line}")
        print("Boardroom: copy-db: the copy is NOT sound; do not switch DATABASE_URL to it.")
        return 1
    print(f"Boardroom: all {report.replayed} started games replay to their snapshots. Set DATABASE_URL to use it.")
    return 0
