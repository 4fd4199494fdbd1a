"""The whole SQLite database (`store.maintenance`): its schema version, backups made while play goes on, the full
integrity check, and restoring an exported game as is."""

import asyncio
import os
import sqlite3
from pathlib import Path

from storage.errors import InvalidOperation, StorageError
from storage.models import SEED_MAX, SEED_MIN, ExportedGame, GameRecord, now_utc
from storage.parts import Maintenance
from storage.sqlite.database import Conn, Database, transaction
from storage.sqlite.rows import (
    GAME_COLUMNS,
    INSERT_LOG,
    db_time,
    db_time_or_none,
    fetch_game,
    log_columns,
    options_json,
)
from storage.sqlite.seats import INSERT_SEAT, check_seats, seat_row


class SQLiteMaintenance(Maintenance):
    def __init__(self, db: Database) -> None:
        self._db = db

    @property
    def schema_version(self) -> int:
        return self._db.schema_version

    async def backup(self, dest: Path) -> None:
        if self._db.label == ":memory:":
            raise StorageError("an in-memory store has nothing to back up")
        await asyncio.to_thread(_backup, self._db.label, Path(dest))

    async def check_integrity(self) -> list[str]:
        def run(conn: Conn) -> list[str]:
            problems = [r[0] for r in conn.execute("PRAGMA integrity_check").fetchall() if r[0] != "ok"]
            problems += [f"foreign key: {tuple(r)}" for r in conn.execute("PRAGMA foreign_key_check").fetchall()]
            rows = conn.execute(
                "SELECT g.id, g.version, coalesce(l.n, 0), coalesce(l.top, 0), g.state IS NOT NULL FROM games g"
                " LEFT JOIN (SELECT game_id, count(*) AS n, max(seq) AS top FROM action_log GROUP BY game_id) l"
                " ON l.game_id = g.id"
                " WHERE coalesce(l.n, 0) != g.version OR coalesce(l.top, 0) != g.version"
                " OR ((g.seed IS NOT NULL) != (g.state IS NOT NULL))"
            ).fetchall()
            problems += [
                f"game {gid}: version {v}, {n} log entries up to {top}, {'a' if has else 'no'} snapshot"
                for gid, v, n, top, has in rows
            ]
            return problems

        return await self._db.run(run)

    async def restore(self, exported: ExportedGame, snapshot: str | None, *, keep_id: bool = True) -> GameRecord:
        if exported.seed is not None and snapshot is None:
            raise InvalidOperation("a started game needs its snapshot")
        if exported.seed is not None and not SEED_MIN <= exported.seed <= SEED_MAX:
            raise InvalidOperation("the seed must fit a signed 64-bit integer")
        check_seats(exported.seats, contiguous=exported.seed is not None)
        stamp = db_time(now_utc())
        created = db_time(exported.created_at)

        def run(conn: Conn) -> GameRecord:
            def body() -> GameRecord:
                free = conn.execute("SELECT 1 FROM games WHERE id = ?", (exported.id,)).fetchone() is None
                cur = conn.execute(
                    f"INSERT INTO games ({GAME_COLUMNS}, state) VALUES ({', '.join('?' * 16)})",
                    (
                        exported.id if keep_id and free else None,
                        exported.kind,
                        exported.guild_id,
                        exported.channel_id,
                        exported.thread_id,
                        exported.status,
                        options_json(exported.options),
                        exported.seed,
                        exported.seat_count,
                        db_time_or_none(exported.setup_at),
                        exported.version,
                        exported.created_by,
                        created,
                        stamp,
                        db_time_or_none(exported.finished_at),
                        snapshot,
                    ),
                )
                game_id: int = cur.lastrowid  # type: ignore[assignment]
                for s in exported.seats:
                    conn.execute(INSERT_SEAT, seat_row(game_id, s, created))
                for e in exported.log:
                    conn.execute(
                        INSERT_LOG,
                        (game_id, e.seq, e.kind, e.actor_seat, e.user_id, *log_columns(e), e.undo_to, e.note),
                    )
                return fetch_game(conn, game_id)

            return transaction(conn, body)

        return await self._db.run(run)


def _backup(source: str, dest: Path) -> None:
    """`VACUUM INTO` on a connection of its own, in a worker thread: one read transaction, so the copy is the
    database as of one moment, and in WAL mode the bot's writer goes on committing meanwhile. The copy is written
    under a temporary name, checked, and only then renamed to `dest`."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    part = dest.with_name(dest.name + ".part")
    part.unlink(missing_ok=True)
    try:
        conn = sqlite3.connect(source, isolation_level=None)
        try:
            conn.execute("PRAGMA busy_timeout = 5000")
            conn.execute("VACUUM INTO ?", (str(part),))
        finally:
            conn.close()
        check = sqlite3.connect(part)
        try:
            verdict = check.execute("PRAGMA integrity_check").fetchone()[0]
        finally:
            check.close()
        if verdict != "ok":
            raise StorageError(f"{dest}: the backup failed its integrity check ({verdict})")
        os.replace(part, dest)
    except (sqlite3.Error, OSError) as exc:
        raise StorageError(f"{dest}: the backup could not be written ({exc})") from None
    finally:
        part.unlink(missing_ok=True)
