"""Moving up: copy a whole SQLite store into an empty PostgreSQL one (`python -m bot copy-db`, bot/copydb.py).

Every row of every table is copied as it is — games (their snapshots, less SQLite's padding), seats, the log
(the events keep their stored form: the same codec), timers (out of each game's list into rows, with their ids),
pending and delivered outbox rows (with their ids), message references, settings, quiet hours, delivery choices
and the players' records — with PostgreSQL's COPY, in ONE transaction: the target ends up with all of it or
nothing. The sequences then start above the ids copied. A target that holds anything is refused before a row is
written. Checking that every game replays needs the engine, so it is the caller's (the `replay` package).
"""

import sqlite3
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from storage.errors import InvalidOperation
from storage.jsontext import dump_json
from storage.postgres.database import Conn
from storage.postgres.store import PostgresStore
from storage.sqlite import SQLiteStore

Convert = Callable[[Any], Any]


def _time(value: Any) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


def _bool(value: Any) -> bool | None:
    return None if value is None else bool(value)


def _float(value: Any) -> float | None:
    return None if value is None else float(value)


def _events(value: Any) -> bytes:
    return value if isinstance(value, bytes) else value.encode()


def _state(value: Any) -> str | None:
    return None if value is None else value.rstrip(" ")  # SQLite's slot padding


def _same(value: Any) -> Any:
    return value


_ = _same
TABLES: dict[str, tuple[str, list[tuple[str, Convert]]]] = {
    # table: (ORDER BY in SQLite, [(column, conversion)]) — parents before children
    "games": (
        "id",
        [("id", _), ("kind", _), ("guild_id", _), ("channel_id", _), ("thread_id", _), ("status", _),
         ("options", _), ("seed", _), ("seat_count", _), ("setup_at", _time), ("version", _), ("created_by", _),
         ("created_at", _time), ("updated_at", _time), ("finished_at", _time), ("state", _state)],
    ),
    "seats": (
        "game_id, seat",
        [("game_id", _), ("seat", _), ("player_id", _), ("display_name", _), ("dm_ok", _bool),
         ("away_until", _time), ("joined_at", _time), ("autopilot", _bool), ("bot", _bool), ("missed", _),
         ("level", _), ("away_mode", _), ("away_pauses", _), ("handover", _)],
    ),
    "action_log": (
        "game_id, seq",
        [("game_id", _), ("seq", _), ("kind", _), ("actor_seat", _), ("user_id", _), ("action", _),
         ("events", _events), ("at", _time), ("undo_to", _), ("note", _)],
    ),
    "outbox": (
        "id",
        [("id", _), ("game_id", _), ("kind", _), ("target", _), ("payload", _), ("created_at", _time),
         ("attempts", _), ("last_error", _)],
    ),
    "outbox_delivered": (
        "id",
        [("id", _), ("game_id", _), ("kind", _), ("target", _), ("payload", _), ("created_at", _time),
         ("attempts", _), ("last_error", _), ("delivered_at", _time)],
    ),
    "message_refs": (
        "message_id",
        [("message_id", _), ("channel_id", _), ("game_id", _), ("kind", _), ("seat", _), ("key", _),
         ("created_at", _time)],
    ),
    "guild_settings": (
        "guild_id",
        [("guild_id", _), ("moderator_role_id", _), ("turn_deadline_s", _float), ("reaction_time_s", _float),
         ("updated_at", _time), ("timezone", _), ("language", _)],
    ),
    "game_results": (
        "game_id",
        [("game_id", _), ("guild_id", _), ("kind", _), ("thread_id", _), ("started_at", _time),
         ("ended_at", _time), ("outcome", _), ("rated", _bool), ("rating_done", _bool), ("moves", _),
         ("seats", _), ("recorded_at", _time)],
    ),
    "placements": (
        "rowid",
        [("game_id", _), ("seat", _), ("player_id", _), ("name", _), ("bot", _bool), ("held", _bool),
         ("rank", _), ("score", _), ("moves", _), ("answers", _), ("answer_s", _float), ("turns", _),
         ("missed", _), ("mu", _float), ("sigma", _float)],
    ),
    "player_stats": (
        "player_id, guild_id, kind",
        [("player_id", _), ("guild_id", _), ("kind", _), ("played", _), ("finished", _), ("won", _),
         ("rank_sum", _), ("seats_sum", _), ("left_", _), ("moves", _), ("answers", _), ("answer_s", _float),
         ("turns", _), ("missed", _), ("last_at", _time)],
    ),
    "ratings": (
        "guild_id, kind, player",
        [("guild_id", _), ("kind", _), ("player", _), ("player_id", _), ("name", _), ("bot", _bool),
         ("mu", _float), ("sigma", _float), ("ordinal", _float), ("games", _), ("wins", _),
         ("updated_at", _time)],
    ),
    "player_settings": ("player_id", [("player_id", _), ("private", _bool), ("updated_at", _time)]),
    "quiet_hours": (
        "player_id",
        [("player_id", _), ("start_min", _), ("end_min", _), ("timezone", _), ("updated_at", _time)],
    ),
    "player_delivery": (
        "player_id",
        [("player_id", _), ("notify", _), ("digest_at", _), ("digest_zone", _), ("digest_next", _time),
         ("updated_at", _time), ("language", _)],
    ),
}  # fmt: skip
_TIMER_COLUMNS = ["id", "game_id", "kind", "due_at", "payload", "created_at"]
_BATCH = 5000


def _read(conn: sqlite3.Connection, table: str) -> list[tuple[Any, ...]]:
    order, columns = TABLES[table]
    names = ", ".join(name for name, _ in columns)
    found = conn.execute(f"SELECT {names} FROM {table} ORDER BY {order}").fetchall()
    return [tuple(convert(v) for (_, convert), v in zip(columns, row, strict=True)) for row in found]


def _timers(conn: sqlite3.Connection) -> list[tuple[Any, ...]]:
    """Each game's timer list (SQLite keeps them in the game's row) as rows of the timers table, ids kept."""
    import json

    found = []
    for game_id, listed in conn.execute("SELECT id, timers FROM games WHERE timers <> '[]' ORDER BY id"):
        for t in json.loads(listed):
            found.append(
                (t["id"], game_id, t["kind"], _time(t["due_at"]), dump_json(t["payload"]), _time(t["created_at"]))
            )
    return found


async def _busy(conn: Conn) -> list[str]:
    """The tables of the target that hold rows (none: it may be written)."""
    return [t for t in [*TABLES, "timers"] if await conn.fetchval(f"SELECT EXISTS (SELECT 1 FROM {t})")]


async def copy_sqlite_to_postgres(source: SQLiteStore, target: PostgresStore) -> dict[str, int]:
    """Copy every row of `source` into `target`, which must be empty, in one transaction. Returns the number of
    rows copied per table. Raises `InvalidOperation` (nothing written) if the target holds anything."""
    async with target.db.pool.acquire() as conn:
        busy = await _busy(conn)
        if busy:
            raise InvalidOperation(
                f"{target.path} is not empty (it has rows in {', '.join(busy)}): copy-db writes only into an empty"
                " database, so that nothing there is mixed with or overwritten by the copy"
            )
        counts: dict[str, int] = {}
        async with conn.transaction():
            await conn.execute("LOCK TABLE games IN EXCLUSIVE MODE")  # no one else writes while we copy
            if await _busy(conn):
                raise InvalidOperation(f"{target.path} was written to while copy-db started; nothing was copied")
            for table, (_order, columns) in TABLES.items():
                rows: Sequence[tuple[Any, ...]] = await source.db.run(_read, table)
                for start in range(0, len(rows), _BATCH):
                    await conn.copy_records_to_table(
                        table, records=rows[start : start + _BATCH], columns=[name for name, _ in columns]
                    )
                counts[table] = len(rows)
                if table == "games":
                    timers = await source.db.run(_timers)
                    # the timers go after the games they belong to, before anything else
                    await conn.copy_records_to_table("timers", records=timers, columns=_TIMER_COLUMNS)
                    counts["timers"] = len(timers)
            await conn.execute(
                "SELECT setval(pg_get_serial_sequence('games', 'id'), coalesce((SELECT max(id) FROM games), 0) + 1,"
                " false)"
            )
            await conn.execute("SELECT setval('timer_ids', coalesce((SELECT max(id) FROM timers), 0) + 1, false)")
            await conn.execute(
                "SELECT setval('outbox_ids', greatest(coalesce((SELECT max(id) FROM outbox), 0),"
                " coalesce((SELECT max(id) FROM outbox_delivered), 0)) + 1, false)"
            )
    return counts


__all__ = ["TABLES", "copy_sqlite_to_postgres"]
