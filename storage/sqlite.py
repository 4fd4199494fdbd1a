"""The SQLite implementation of `GameStore`, on aiosqlite.

One aiosqlite connection carries everything. Each store operation is one plain function that runs in the
connection's worker thread (aiosqlite's `_execute`), so a whole transaction — BEGIN IMMEDIATE … COMMIT — is a
single hop from the event loop: no other task's statement can slip into it, no asyncio lock is needed, and a commit
costs little more than SQLite's own work and the fsync. aiosqlite is pinned below 0.23 in pyproject.toml because
`_execute` is not public API; `SQLiteStore.open` checks that it exists.

Layout (storage/migrations/*.sql): a game's row holds its record, its snapshot (`state`, read only by
`get_snapshot`) and its timers (a JSON list, `storage.timerlist`, with `next_due` indexed for the scheduler); the
log is appended in insertion order and found through a unique index on (game, seq), each entry's events deflated
with a preset dictionary when that is shorter (`storage.logcodec`: a BLOB, where JSON text is what older rows and
short values hold; every reader goes through `_log`). A commit is one read, one
UPDATE of the games row and two INSERTs (log, outbox), and writes about six database pages: the game's row (which
overflows a page; a commit pads the snapshot so that the row keeps its size and SQLite rewrites it in place, see
`_SLOT_STEP`), the scheduler's index entry (only when the soonest due time moves), the last page of the log and
its index entry, and the last page of the outbox. benchmarks/store.py measures it against a bare INSERT of one row.

WAL journal, `synchronous=FULL` by default (an acknowledged commit survives power loss), foreign keys on. Every
SQLite error is turned into a `StorageError`; corruption ("database disk image is malformed", "file is not a
database") becomes a `DamagedData` (a `StoreFileError`) naming the file and the game the call was about, whenever
it is met. An id too large for SQLite's INTEGER (only forged input has one) names no row: `GameNotFound`.
Start-up reads only the header, the schema and indexed rows: corruption deep in old pages is found when those
pages are read, or by `check_integrity()`, not at start-up (a full check costs time proportional to the file).
"""

import asyncio
import contextlib
import json
import os
import sqlite3
from collections.abc import Callable, Collection, Iterator, Sequence
from datetime import datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite
from pydantic import BaseModel

from storage import logcodec, timerlist
from storage.errors import (
    DamagedData,
    GameNotFound,
    InvalidOperation,
    StaleVersion,
    StorageError,
    StoreFileError,
)
from storage.jsontext import dump_json
from storage.migrate import check_file, check_writable, inspect, load_migrations, migrate
from storage.models import (
    ID_MAX,
    SEED_MAX,
    SEED_MIN,
    BotLevel,
    CommitResult,
    ExportedGame,
    GameRecord,
    GameStatus,
    GuildSettings,
    LoadedGame,
    LogEntry,
    MessageRef,
    NewLogEntry,
    NewOutbox,
    NewSeat,
    NewTimer,
    OutboxRecord,
    SeatRecord,
    Snapshot,
    TimerRecord,
    as_json,
    now_utc,
    utc,
)
from storage.sqlite_records import SQLiteRecords
from storage.sqliterows import db_time, log_columns, outbox_columns
from storage.store import KEEP, GameStore, Synchronous, _Keep, dump_snapshot

T = TypeVar("T")
Conn = sqlite3.Connection

_OVER = ("finished", "abandoned")
_SQLITE_CORRUPT = 11
_SQLITE_NOTADB = 26

_GAME_COLUMNS = (
    "id, kind, guild_id, channel_id, thread_id, status, options, seed, seat_count, setup_at, version, created_by,"
    " created_at, updated_at, finished_at"
)
_LOG_COLUMNS = "game_id, seq, kind, actor_seat, user_id, action, events, at, undo_to, note"
_OUTBOX_COLUMNS = "id, game_id, kind, target, payload, created_at, attempts, last_error"
_REF_COLUMNS = "message_id, channel_id, game_id, kind, seat, key, created_at"
_SEAT_COLUMNS = "game_id, seat, player_id, display_name, dm_ok, away_until, joined_at, autopilot, bot, missed, level"

_NEXT_OUTBOX_ID = (
    "1 + max(coalesce((SELECT max(id) FROM outbox), 0), coalesce((SELECT max(id) FROM outbox_delivered), 0))"
)


@cache
def _commit_check(outbox: bool, timers: bool) -> str:
    """The commit's one read: (version, seed, timer_seq, next_due, first free outbox id or NULL, [timers])."""
    first_id = f"({_NEXT_OUTBOX_ID})" if outbox else "NULL"
    return (
        f"SELECT version, seed, timer_seq, next_due, {first_id}{', timers' if timers else ''} FROM games WHERE id = ?"
    )


@cache
def _commit_update(state: bool, status: bool, timers: bool, due: bool) -> str:
    """The games UPDATE of a commit, with positional parameters in this order: version, now, [state],
    [status, status, now], [timer_seq, timers], [next_due], id, expected version.

    Only what changes is set: setting `status` or `next_due` rewrites their index entries even when the value stays,
    which would cost a page in every commit (a game often waits on the same deadline for several steps)."""
    sets = "version = ?, updated_at = ?"
    if state:
        sets += ", state = ?"
    if status:
        sets += (
            ", status = ?, finished_at = CASE WHEN ? IN ('finished', 'abandoned')"
            " THEN coalesce(finished_at, ?) ELSE NULL END"
        )
    if timers:
        sets += ", timer_seq = ?, timers = ?"
    if due:
        sets += ", next_due = ?"
    return f"UPDATE games SET {sets} WHERE id = ? AND version = ?"


_INSERT_LOG = (
    "INSERT INTO action_log (game_id, seq, kind, actor_seat, user_id, action, events, at, undo_to, note)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_CLEAR_MISSED = "UPDATE seats SET missed = 0 WHERE game_id = ? AND seat = ? AND missed <> 0"
_REACTION_NOTES = "reaction:"
"""The one note prefix the log has an index for (`log_notes`)."""
_PRUNE_BATCH = 2000
"""Delivered outbox rows deleted per transaction by `prune_outbox`."""
_OUTBOX_CHUNK = 200  # rows per INSERT: well within SQLite's limit on bound variables


@cache
def _insert_outbox_sql(rows: int) -> str:
    return "INSERT INTO outbox (id, game_id, kind, target, payload, created_at) VALUES " + ", ".join(
        ["(?, ?, ?, ?, ?, ?)"] * rows
    )


_SLOT_STEP = 1024
"""A commit pads the snapshot with spaces (which JSON ignores) so that state + timers fill a slot of a multiple of
this many bytes. While the game's row keeps its size, SQLite rewrites it in place; a row that changes size has its
overflow pages freed and new ones allocated, which writes the file header and a free-list page too: two more pages
in every commit. The slot grows when the data outgrows it and shrinks when the data is more than two steps
smaller, so a state that wavers around a boundary does not change its slot each time."""


def _utf8_len(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode())


def _padded(state: str, timers: str, slot: int) -> tuple[str, int]:
    """(state padded to fill the slot, slot) for a row that held `slot` bytes of state + timers (0: unknown)."""
    used = _utf8_len(state) + _utf8_len(timers)
    if not slot - 2 * _SLOT_STEP < used <= slot:
        slot = used + (-used) % _SLOT_STEP
    return state + " " * (slot - used), slot


_ts = db_time


def _ts_or_none(dt: datetime | None) -> str | None:
    return None if dt is None else _ts(dt)


def _dt(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def _options_json(options: dict[str, Any] | BaseModel | None) -> str:
    return dump_json(as_json(options) if options is not None else {})


# --- row → record --------------------------------------------------------------------------------------


def _game(row: tuple[Any, ...]) -> GameRecord:
    return GameRecord(
        id=row[0],
        kind=row[1],
        guild_id=row[2],
        channel_id=row[3],
        thread_id=row[4],
        status=row[5],
        options=json.loads(row[6]),
        seed=row[7],
        seat_count=row[8],
        setup_at=_dt(row[9]),
        version=row[10],
        created_by=row[11],
        created_at=_dt(row[12]),
        updated_at=_dt(row[13]),
        finished_at=_dt(row[14]),
    )


def _replace_seats(conn: Conn, game_id: int, seats: Sequence[NewSeat], joined_default: str) -> None:
    """Write a lobby's seats anew, keeping when each player first joined (new players: `joined_default`)."""
    joined = dict(
        conn.execute(
            "SELECT player_id, joined_at FROM seats WHERE game_id = ? AND player_id IS NOT NULL", (game_id,)
        ).fetchall()
    )
    conn.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
    conn.executemany(
        f"INSERT INTO seats ({_SEAT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                game_id,
                s.seat,
                s.player_id,
                s.display_name,
                None if s.dm_ok is None else int(s.dm_ok),
                _ts_or_none(s.away_until),
                joined.get(s.player_id, joined_default),
                int(s.autopilot),
                int(s.bot),
                s.missed,
                s.level,
            )
            for s in seats
        ],
    )


def _seat(row: tuple[Any, ...]) -> SeatRecord:
    return SeatRecord(
        game_id=row[0],
        seat=row[1],
        player_id=row[2],
        display_name=row[3],
        dm_ok=None if row[4] is None else bool(row[4]),
        away_until=_dt(row[5]),
        joined_at=_dt(row[6]),
        autopilot=bool(row[7]),
        bot=bool(row[8]),
        missed=row[9],
        level=row[10],
    )


def _log(row: tuple[Any, ...]) -> LogEntry:
    return LogEntry(
        game_id=row[0],
        seq=row[1],
        kind=row[2],
        actor_seat=row[3],
        user_id=row[4],
        action=None if row[5] is None else json.loads(row[5]),
        events=logcodec.loads(row[6]),
        at=_dt(row[7]),
        undo_to=row[8],
        note=row[9],
    )


def _outbox(row: tuple[Any, ...]) -> OutboxRecord:
    return OutboxRecord(
        id=row[0],
        game_id=row[1],
        kind=row[2],
        target=json.loads(row[3]),
        payload=json.loads(row[4]),
        created_at=_dt(row[5]),
        attempts=row[6],
        last_error=row[7],
        delivered_at=_dt(row[8]) if len(row) > 8 else None,
    )


def _ref(row: tuple[Any, ...]) -> MessageRef:
    return MessageRef(
        message_id=row[0],
        channel_id=row[1],
        game_id=row[2],
        kind=row[3],
        seat=row[4],
        key=row[5],
        created_at=_dt(row[6]),
    )


# --- helpers that run in the connection's thread ----------------------------------------------------


def _transaction(conn: Conn, body: Callable[[], T]) -> T:
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = body()
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return result


def _fetch_game(conn: Conn, game_id: int) -> GameRecord:
    row = conn.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise GameNotFound(f"there is no game {game_id}")
    return _game(row)


def _write_timers(conn: Conn, game_id: int, change: Callable[[list[TimerRecord], int], list[Any]]) -> list[int]:
    """Read-modify-write a game's timer list outside a commit. `change(current, next_number)` returns the new list
    as TimerRecords (kept) and (number, NewTimer) pairs (new); returns the ids of the new ones."""
    row = conn.execute("SELECT timer_seq, timers FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise GameNotFound(f"there is no game {game_id}")
    seq, text = row
    wanted = change(timerlist.parse(game_id, text), seq + 1)
    now = _ts(now_utc())
    items, new_ids = [], []
    for entry in wanted:
        if isinstance(entry, TimerRecord):
            items.append(timerlist.record_item(entry))
        else:
            number, timer = entry
            new_ids.append(timerlist.timer_id(game_id, number))
            seq = max(seq, number)
            items.append(timerlist.item(new_ids[-1], timer, now))
    listed, next_due = timerlist.build(items)
    conn.execute(
        "UPDATE games SET timer_seq = ?, timers = ?, next_due = ? WHERE id = ?", (seq, listed, next_due, game_id)
    )
    return new_ids


def _insert_outbox(conn: Conn, game_id: int | None, items: Sequence[NewOutbox], now: str) -> list[int]:
    if not items:
        return []
    first = conn.execute(f"SELECT {_NEXT_OUTBOX_ID}").fetchone()[0]
    return _insert_outbox_rows(conn, [(game_id, *outbox_columns(o), now) for o in items], first)


def _insert_outbox_rows(conn: Conn, rows: list[tuple[Any, ...]], first: int) -> list[int]:
    """Rows (game_id, kind, target, payload, created_at) in multi-row INSERTs, numbered from `first`: an id above
    any in use in either outbox table (the pending one may be empty while delivered rows keep their ids), read in
    the same write transaction."""
    ids = list(range(first, first + len(rows)))
    for start in range(0, len(rows), _OUTBOX_CHUNK):
        chunk = rows[start : start + _OUTBOX_CHUNK]
        params = [v for i, row in zip(ids[start:], chunk, strict=False) for v in (i, *row)]
        conn.execute(_insert_outbox_sql(len(chunk)), params)
    return ids


def _put_ref(conn: Conn, ref: MessageRef) -> None:
    conn.execute(
        "DELETE FROM message_refs WHERE message_id = ? OR (ifnull(game_id, -1) = ifnull(?, -1) AND kind = ?"
        " AND ifnull(seat, -1) = ifnull(?, -1) AND key = ?)",
        (ref.message_id, ref.game_id, ref.kind, ref.seat, ref.key),
    )
    conn.execute(
        f"INSERT INTO message_refs ({_REF_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (ref.message_id, ref.channel_id, ref.game_id, ref.kind, ref.seat, ref.key, _ts(ref.created_at)),
    )


def _finished_at(old: GameRecord, status: GameStatus, now: str) -> str | None:
    if status in _OVER:
        return _ts_or_none(old.finished_at) or now
    return None


def _check_seats(seats: Sequence[NewSeat], *, contiguous: bool) -> None:
    numbers = sorted(s.seat for s in seats)
    if len(set(numbers)) != len(numbers):
        raise InvalidOperation("two seats have the same number")
    if contiguous and numbers != list(range(len(numbers))):
        raise InvalidOperation(f"a started game's seats must be numbered 0…{len(numbers) - 1} (got {numbers})")


def _corrupt(exc: sqlite3.DatabaseError) -> bool:
    """Whether SQLite says the file itself is damaged (rather than busy, full or refusing)."""
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    return code in (_SQLITE_CORRUPT, _SQLITE_NOTADB) or type(exc) is sqlite3.DatabaseError


def _timer_rows(conn: Conn, where: str, params: tuple[Any, ...], damaged: set[int]) -> Iterator[tuple[int, str, str]]:
    """(game, timers, next_due) of the games with timers `where` says, soonest first. The order comes from the
    `games_next_due` index alone; each game's timers are then read from its own row, so a game whose row is
    damaged is skipped (and added to `damaged`) instead of stopping the timers of every game after it."""
    for game_id, next_due in conn.execute(
        f"SELECT id, next_due FROM games WHERE {where} ORDER BY next_due, id", params
    ):
        try:
            row = conn.execute("SELECT timers FROM games WHERE id = ?", (game_id,)).fetchone()
        except sqlite3.DatabaseError as exc:
            if not _corrupt(exc):
                raise
            damaged.add(game_id)
            continue
        if row is not None:
            yield game_id, row[0], next_due


def _in_list(values: Collection[Any]) -> str:
    return "(" + ", ".join("?" * len(values)) + ")"


class SQLiteStore(SQLiteRecords, GameStore):
    """`GameStore` on one SQLite file (or ":memory:"). Create it with `open_store` / `SQLiteStore.open`."""

    def __init__(self, conn: aiosqlite.Connection, label: str, schema_version: int) -> None:
        self._conn = conn
        self._label = label
        self._schema_version = schema_version
        self._closed = False
        self._slots: dict[int, int] = {}  # game id -> bytes of state + timers in its row, as last committed here
        self._damaged: set[int] = set()  # games the timer scans found damaged (`damaged_games`)

    # --- opening and closing ---------------------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        synchronous: Synchronous = "FULL",
        create: bool = True,
        busy_timeout: float = 5.0,
    ) -> "SQLiteStore":
        if sqlite3.sqlite_version_info < (3, 35, 0):  # RETURNING, DROP COLUMN
            raise StorageError(f"Boardroom needs SQLite 3.35 or newer; this Python has {sqlite3.sqlite_version}")
        if synchronous not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise StorageError(f"synchronous must be OFF, NORMAL, FULL or EXTRA, not {synchronous!r}")
        memory = str(path) == ":memory:"
        label = ":memory:" if memory else str(Path(path).resolve())
        if not memory:
            check_file(Path(path), create)
        pending = aiosqlite.connect(":memory:" if memory else str(path), isolation_level=None, cached_statements=256)
        if not hasattr(pending, "_execute") or not hasattr(pending, "_thread"):
            raise StorageError("this aiosqlite version lacks Connection._execute; install aiosqlite<0.23")
        # A daemon worker: a bot that dies without closing the store still exits (an unfinished transaction is
        # rolled back at the next open, exactly as after a crash; nothing acknowledged is lost).
        pending._thread.daemon = True
        try:
            conn = await pending
        except sqlite3.Error as exc:
            raise StoreFileError(label, f"cannot be opened ({exc})") from None
        store = cls(conn, label, 0)
        try:
            store._schema_version = await store._run(_prepare, int(busy_timeout * 1000), synchronous, label, memory)
        except BaseException:
            await conn.close()
            raise
        return store

    async def close(self) -> None:
        if self._closed:
            return
        with contextlib.suppress(StorageError):
            await self._run(_optimize)
        self._closed = True
        await self._conn.close()

    async def backup(self, dest: Path) -> None:
        if self._label == ":memory:":
            raise StorageError("an in-memory store has nothing to back up")
        await asyncio.to_thread(_backup, self._label, Path(dest))

    @property
    def schema_version(self) -> int:
        return self._schema_version

    @property
    def path(self) -> str:
        return self._label

    async def _run(self, fn: Callable[..., T], *args: Any, game: int | None = None) -> T:
        """Run `fn(sqlite3_connection, *args)` in the connection's thread; SQLite errors become StorageErrors.
        `game`: the game the call is about, named by `DamagedData` when a damaged page is met."""
        if self._closed:
            raise StorageError(f"{self._label}: the store is closed")
        conn = self._conn
        try:
            return await conn._execute(fn, conn._conn, *args)
        except StorageError:
            raise
        except OverflowError:
            # An id beyond SQLite's 64-bit INTEGER (forged input) cannot name a row: not found, whatever the call.
            raise GameNotFound(f"there is no record with an id beyond {ID_MAX}") from None
        except sqlite3.IntegrityError as exc:
            raise InvalidOperation(f"refused by the database: {exc}") from None
        except sqlite3.DatabaseError as exc:
            if _corrupt(exc):
                raise DamagedData(self._label, f"is corrupt ({exc}); restore a backup", game) from None
            raise StorageError(f"{self._label}: {exc}") from None
        except ValueError as exc:
            if "closed" in str(exc).lower():
                raise StorageError(f"{self._label}: the store is closed") from None
            raise

    # --- games --------------------------------------------------------------------------------------------

    async def create_game(
        self,
        kind: str,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        thread_id: int | None = None,
        options: dict[str, Any] | BaseModel | None = None,
        created_by: int | None = None,
        now: datetime | None = None,
    ) -> GameRecord:
        stamp = _ts(now or now_utc())
        opts = _options_json(options)

        def run(conn: Conn) -> GameRecord:
            def body() -> GameRecord:
                cur = conn.execute(
                    "INSERT INTO games (kind, guild_id, channel_id, thread_id, status, options, version, created_by,"
                    " created_at, updated_at) VALUES (?, ?, ?, ?, 'lobby', ?, 0, ?, ?, ?)",
                    (kind, guild_id, channel_id, thread_id, opts, created_by, stamp, stamp),
                )
                return _fetch_game(conn, cur.lastrowid)  # type: ignore[arg-type]

            return _transaction(conn, body)

        return await self._run(run)

    async def get_game(self, game_id: int) -> GameRecord:
        return await self._run(_fetch_game, game_id, game=game_id)

    async def find_game_by_thread(self, thread_id: int) -> GameRecord | None:
        def run(conn: Conn) -> GameRecord | None:
            row = conn.execute(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE thread_id = ? ORDER BY id DESC LIMIT 1", (thread_id,)
            ).fetchone()
            return None if row is None else _game(row)

        return await self._run(run)

    async def list_games(
        self,
        *,
        statuses: Collection[GameStatus] | None = None,
        guild_id: int | None = None,
        channel_id: int | None = None,
        kind: str | None = None,
        limit: int | None = None,
    ) -> list[GameRecord]:
        where: list[str] = []
        params: list[Any] = []
        if statuses is not None:
            statuses = list(statuses)
            if not statuses:
                return []
            where.append(f"status IN {_in_list(statuses)}")
            params += statuses
        for column, value in (("guild_id", guild_id), ("channel_id", channel_id), ("kind", kind)):
            if value is not None:
                where.append(f"{column} = ?")
                params.append(value)
        sql = f"SELECT {_GAME_COLUMNS} FROM games"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY id"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)

        def run(conn: Conn) -> list[GameRecord]:
            return [_game(r) for r in conn.execute(sql, params).fetchall()]

        return await self._run(run)

    async def update_game(
        self,
        game_id: int,
        *,
        status: GameStatus | _Keep = KEEP,
        channel_id: int | _Keep | None = KEEP,
        thread_id: int | _Keep | None = KEEP,
        options: dict[str, Any] | BaseModel | _Keep = KEEP,
        now: datetime | None = None,
    ) -> GameRecord:
        stamp = _ts(now or now_utc())
        opts = None if isinstance(options, _Keep) else _options_json(options)

        def run(conn: Conn) -> GameRecord:
            def body() -> GameRecord:
                old = _fetch_game(conn, game_id)
                sets: dict[str, Any] = {"updated_at": stamp}
                if not isinstance(status, _Keep) and status != old.status:
                    if status == "lobby":
                        raise InvalidOperation(f"game {game_id} has started; it cannot go back to the lobby")
                    if not old.started and status in ("active", "paused"):
                        raise InvalidOperation(f"game {game_id} is still in its lobby: start it with start_game")
                    sets["status"] = status
                    sets["finished_at"] = _finished_at(old, status, stamp)
                    if status in _OVER:  # nothing may fire for a game that is over
                        sets["timers"], sets["next_due"] = "[]", None
                if not isinstance(channel_id, _Keep):
                    sets["channel_id"] = channel_id
                if not isinstance(thread_id, _Keep):
                    sets["thread_id"] = thread_id
                if opts is not None:
                    if old.started:
                        raise InvalidOperation(f"game {game_id} has started; its options can no longer change")
                    sets["options"] = opts
                assignments = ", ".join(f"{k} = ?" for k in sets)
                conn.execute(f"UPDATE games SET {assignments} WHERE id = ?", (*sets.values(), game_id))
                return _fetch_game(conn, game_id)

            return _transaction(conn, body)

        return await self._run(run, game=game_id)

    async def start_game(
        self,
        game_id: int,
        *,
        seed: int,
        setup_at: datetime,
        seats: Sequence[NewSeat],
        snapshot: str | BaseModel,
        options: dict[str, Any] | BaseModel | _Keep = KEEP,
        timers: Sequence[NewTimer] = (),
        outbox: Sequence[NewOutbox] = (),
    ) -> CommitResult:
        if not SEED_MIN <= seed <= SEED_MAX:
            raise InvalidOperation("the seed must fit a signed 64-bit integer (use secrets.randbits(63))")
        if not seats:
            raise InvalidOperation("a game needs at least one seat to start")
        _check_seats(seats, contiguous=True)
        state = dump_snapshot(snapshot)
        setup = _ts(setup_at)
        opts = None if isinstance(options, _Keep) else _options_json(options)

        def run(conn: Conn) -> CommitResult:
            def body() -> CommitResult:
                old = _fetch_game(conn, game_id)
                if old.status != "lobby":
                    raise InvalidOperation(f"game {game_id} is not in its lobby (it is {old.status})")
                conn.execute(
                    "UPDATE games SET status = 'active', seed = ?, seat_count = ?, setup_at = ?,"
                    " options = coalesce(?, options), updated_at = ?, state = ? WHERE id = ? AND status = 'lobby'",
                    (seed, len(seats), setup, opts, setup, state, game_id),
                )
                _replace_seats(conn, game_id, seats, setup)
                timer_ids = _write_timers(conn, game_id, lambda _, n: list(enumerate(timers, n)))
                outbox_ids = _insert_outbox(conn, game_id, outbox, setup)
                return CommitResult(game_id=game_id, version=0, outbox_ids=outbox_ids, timer_ids=timer_ids)

            return _transaction(conn, body)

        return await self._run(run, game=game_id)

    async def get_snapshot(self, game_id: int) -> Snapshot:
        def run(conn: Conn) -> Snapshot:
            row = conn.execute("SELECT version, state FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                raise GameNotFound(f"there is no game {game_id}")
            if row[1] is None:
                raise GameNotFound(f"game {game_id} has not started yet: it has no state")
            return Snapshot(game_id=game_id, version=row[0], state=row[1].rstrip(" "))  # without the slot's padding

        return await self._run(run, game=game_id)

    async def load_game(self, game_id: int) -> LoadedGame:
        def run(conn: Conn) -> LoadedGame:
            # One read transaction: the four reads see the same moment even while another connection writes.
            conn.execute("BEGIN")
            try:
                row = conn.execute(
                    f"SELECT {_GAME_COLUMNS}, state, timers FROM games WHERE id = ?", (game_id,)
                ).fetchone()
                if row is None:
                    raise GameNotFound(f"there is no game {game_id}")
                seats = conn.execute(
                    f"SELECT {_SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
                ).fetchall()
            finally:
                conn.execute("COMMIT")
            record = _game(row)
            state, timers = row[-2], row[-1]
            snapshot = (
                None if state is None else Snapshot(game_id=game_id, version=record.version, state=state.rstrip(" "))
            )
            return LoadedGame.model_construct(
                record=record,
                seats=[_seat(r) for r in seats],
                snapshot=snapshot,
                timers=timerlist.parse(game_id, timers),
            )

        return await self._run(run, game=game_id)

    # --- the commit ---------------------------------------------------------------------------------------

    async def commit(
        self,
        game_id: int,
        expected_version: int,
        entry: NewLogEntry,
        snapshot: str | BaseModel | None,
        *,
        status: GameStatus | None = None,
        timers: Sequence[NewTimer] | None = None,
        timer_kinds: Collection[str] | None = None,
        outbox: Sequence[NewOutbox] = (),
        clear_missed: int | None = None,
    ) -> CommitResult:
        if status == "lobby":
            raise InvalidOperation("a started game cannot go back to the lobby")
        new_version = expected_version + 1
        if entry.kind == "undo" and entry.undo_to is not None and entry.undo_to >= new_version:
            raise InvalidOperation(
                f"an undo goes back to an earlier entry; {entry.undo_to} is not before {new_version}"
            )
        if entry.kind == "undo" and snapshot is None:
            raise InvalidOperation(
                "an undo needs the state it goes back to (replay.replay_game(store, game, id, upto=n))"
            )
        if entry.kind == "action" and snapshot is None:
            raise InvalidOperation("an action needs the new state")
        state = None if snapshot is None else dump_snapshot(snapshot)
        if status in _OVER and timers is None:
            timers = ()  # nothing may fire for a game that is over
        kinds = None if timer_kinds is None else set(timer_kinds)
        if kinds is not None and timers and any(t.kind not in kinds for t in timers):
            raise InvalidOperation("every timer given must be of one of the kinds it replaces (timer_kinds)")
        # What does not depend on the row read in the transaction is prepared here, before the hop to the database
        # thread.
        now = _ts(now_utc())
        action_text, events_text, at_text = log_columns(entry)
        log_row = (
            game_id,
            new_version,
            entry.kind,
            entry.actor_seat,
            entry.user_id,
            action_text,
            events_text,
            at_text,
            entry.undo_to,
            entry.note,
        )
        outbox_rows = [(game_id, *outbox_columns(o), now) for o in outbox]
        check = _commit_check(bool(outbox_rows), kinds is not None and timers is not None)
        update = _commit_update(state is not None, status is not None, timers is not None, False)
        update_due = _commit_update(state is not None, status is not None, timers is not None, True)
        slots = self._slots
        pad = state is not None and timers is not None and status not in _OVER

        def run(conn: Conn) -> CommitResult:
            conn.execute("BEGIN IMMEDIATE")
            try:
                row = conn.execute(check, (game_id,)).fetchone()
                if row is None:
                    raise GameNotFound(f"there is no game {game_id}")
                if row[1] is None:
                    raise InvalidOperation(f"game {game_id} has not started: there is nothing to commit to")
                if row[0] != expected_version:
                    raise StaleVersion(game_id, expected_version, row[0])
                params: list[Any] = [new_version, now]
                if state is not None:
                    params.append(state)
                if status is not None:
                    params += (status, status, now)
                sql = update
                timer_ids: list[int] = []
                slot = 0
                if timers is not None:
                    items = (
                        []
                        if kinds is None
                        else [timerlist.record_item(t) for t in timerlist.parse(game_id, row[5]) if t.kind not in kinds]
                    )
                    first = timerlist.timer_id(game_id, row[2] + 1)
                    timer_ids = list(range(first, first + len(timers)))
                    items += [timerlist.item(i, t, now) for i, t in zip(timer_ids, timers, strict=True)]
                    listed, next_due = timerlist.build(items)
                    params += (row[2] + len(timers), listed)
                    if next_due != row[3]:
                        params.append(next_due)
                        sql = update_due
                    if pad:
                        params[2], slot = _padded(state, listed, slots.get(game_id, 0))  # type: ignore[arg-type]
                conn.execute(sql, (*params, game_id, expected_version))
                conn.execute(_INSERT_LOG, log_row)
                outbox_ids = _insert_outbox_rows(conn, outbox_rows, row[4]) if outbox_rows else []
                if clear_missed is not None:
                    conn.execute(_CLEAR_MISSED, (game_id, clear_missed))
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            if slot:
                slots[game_id] = slot
            else:
                slots.pop(game_id, None)
            return CommitResult.model_construct(
                game_id=game_id, version=new_version, outbox_ids=outbox_ids, timer_ids=timer_ids
            )

        return await self._run(run, game=game_id)

    # --- seats ----------------------------------------------------------------------------------------

    async def seats(self, game_id: int) -> list[SeatRecord]:
        def run(conn: Conn) -> list[SeatRecord]:
            rows = conn.execute(f"SELECT {_SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
            return [_seat(r) for r in rows.fetchall()]

        return await self._run(run, game=game_id)

    async def set_seats(self, game_id: int, seats: Sequence[NewSeat], *, now: datetime | None = None) -> None:
        _check_seats(seats, contiguous=False)
        stamp = _ts(now or now_utc())

        def run(conn: Conn) -> None:
            def body() -> None:
                old = _fetch_game(conn, game_id)
                if old.status != "lobby":
                    raise InvalidOperation(f"game {game_id} has started: change a seat with update_seat")
                _replace_seats(conn, game_id, seats, stamp)
                # A join or leave is a touch of the lobby (an idle lobby is closed after a while).
                conn.execute("UPDATE games SET updated_at = ? WHERE id = ?", (stamp, game_id))

            _transaction(conn, body)

        await self._run(run, game=game_id)

    async def update_seat(
        self,
        game_id: int,
        seat: int,
        *,
        player_id: int | _Keep | None = KEEP,
        display_name: str | _Keep = KEEP,
        dm_ok: bool | _Keep | None = KEEP,
        away_until: datetime | _Keep | None = KEEP,
        autopilot: bool | _Keep = KEEP,
        bot: bool | _Keep = KEEP,
        missed: int | _Keep = KEEP,
        level: BotLevel | _Keep = KEEP,
    ) -> SeatRecord:
        sets: dict[str, Any] = {}
        if not isinstance(player_id, _Keep):
            sets["player_id"] = player_id
        if not isinstance(display_name, _Keep):
            sets["display_name"] = display_name
        if not isinstance(dm_ok, _Keep):
            sets["dm_ok"] = None if dm_ok is None else int(dm_ok)
        if not isinstance(away_until, _Keep):
            sets["away_until"] = _ts_or_none(away_until)
        if not isinstance(autopilot, _Keep):
            sets["autopilot"] = int(autopilot)
        if not isinstance(bot, _Keep):
            sets["bot"] = int(bot)
        if not isinstance(missed, _Keep):
            sets["missed"] = missed
        if not isinstance(level, _Keep):
            sets["level"] = level

        def run(conn: Conn) -> SeatRecord:
            def body() -> SeatRecord:
                if sets:
                    assignments = ", ".join(f"{k} = ?" for k in sets)
                    conn.execute(
                        f"UPDATE seats SET {assignments} WHERE game_id = ? AND seat = ?",
                        (*sets.values(), game_id, seat),
                    )
                row = conn.execute(
                    f"SELECT {_SEAT_COLUMNS} FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat)
                ).fetchone()
                if row is None:
                    raise GameNotFound(f"game {game_id} has no seat {seat}")
                return _seat(row)

            return _transaction(conn, body)

        return await self._run(run, game=game_id)

    async def seats_of_player(
        self, player_id: int, *, statuses: Collection[GameStatus] | None = None
    ) -> list[SeatRecord]:
        columns = ", ".join(f"s.{c.strip()}" for c in _SEAT_COLUMNS.split(","))
        sql = f"SELECT {columns} FROM seats s JOIN games g ON g.id = s.game_id WHERE s.player_id = ?"
        params: list[Any] = [player_id]
        if statuses is not None:
            statuses = list(statuses)
            if not statuses:
                return []
            sql += f" AND g.status IN {_in_list(statuses)}"
            params += statuses
        sql += " ORDER BY s.game_id, s.seat"

        def run(conn: Conn) -> list[SeatRecord]:
            return [_seat(r) for r in conn.execute(sql, params).fetchall()]

        return await self._run(run)

    # --- the log --------------------------------------------------------------------------------------

    async def log(self, game_id: int, *, after: int = 0, limit: int | None = None) -> list[LogEntry]:
        def run(conn: Conn) -> list[LogEntry]:
            rows = conn.execute(
                f"SELECT {_LOG_COLUMNS} FROM action_log WHERE game_id = ? AND seq > ? ORDER BY seq LIMIT ?",
                (game_id, after, -1 if limit is None else limit),
            )
            return [_log(r) for r in rows.fetchall()]

        return await self._run(run, game=game_id)

    async def log_notes(self, game_id: int, prefix: str) -> list[LogEntry]:
        if prefix != _REACTION_NOTES:
            return await super().log_notes(game_id, prefix)

        def run(conn: Conn) -> list[LogEntry]:
            # The term matches the partial index action_log_reactions (schema 4) word for word, so only the
            # reaction entries are read.
            rows = conn.execute(
                f"SELECT {_LOG_COLUMNS} FROM action_log WHERE game_id = ? AND note LIKE 'reaction:%' ORDER BY seq",
                (game_id,),
            )
            return [_log(r) for r in rows.fetchall()]

        return await self._run(run, game=game_id)

    async def log_entry(self, game_id: int, seq: int) -> LogEntry:
        def run(conn: Conn) -> LogEntry:
            row = conn.execute(
                f"SELECT {_LOG_COLUMNS} FROM action_log WHERE game_id = ? AND seq = ?", (game_id, seq)
            ).fetchone()
            if row is None:
                raise GameNotFound(f"game {game_id} has no log entry {seq}")
            return _log(row)

        return await self._run(run, game=game_id)

    # --- timers ---------------------------------------------------------------------------------------

    async def add_timers(self, game_id: int, timers: Sequence[NewTimer], *, now: datetime | None = None) -> list[int]:
        def run(conn: Conn) -> list[int]:
            return _transaction(
                conn, lambda: _write_timers(conn, game_id, lambda current, n: [*current, *enumerate(timers, n)])
            )

        return await self._run(run, game=game_id)

    async def timers(self, game_id: int) -> list[TimerRecord]:
        def run(conn: Conn) -> list[TimerRecord]:
            row = conn.execute("SELECT timers FROM games WHERE id = ?", (game_id,)).fetchone()
            return [] if row is None else timerlist.parse(game_id, row[0])

        return await self._run(run, game=game_id)

    @property
    def damaged_games(self) -> frozenset[int]:
        return frozenset(self._damaged)

    async def next_timer(self) -> TimerRecord | None:
        def run(conn: Conn) -> TimerRecord | None:
            for game_id, listed, _ in _timer_rows(conn, "next_due IS NOT NULL", (), self._damaged):
                return timerlist.parse(game_id, listed)[0]
            return None

        return await self._run(run)

    async def due_timers(self, until: datetime, *, limit: int = 100) -> list[TimerRecord]:
        bound = _ts(until)

        def run(conn: Conn) -> list[TimerRecord]:
            due: list[TimerRecord] = []
            for game_id, listed, next_due in _timer_rows(conn, "next_due <= ?", (bound,), self._damaged):
                if len(due) >= limit and _ts(due[limit - 1].due_at) < next_due:
                    break  # every later game's timers come after the ones we have
                due += [t for t in timerlist.parse(game_id, listed) if _ts(t.due_at) <= bound]
                due.sort(key=lambda t: (t.due_at, t.id))
            return due[:limit]

        return await self._run(run)

    async def delete_timer(self, timer_id: int) -> bool:
        game_id = timerlist.game_of(timer_id)

        def run(conn: Conn) -> bool:
            def body() -> bool:
                row = conn.execute("SELECT timers FROM games WHERE id = ?", (game_id,)).fetchone()
                if row is None or all(t.id != timer_id for t in timerlist.parse(game_id, row[0])):
                    return False
                _write_timers(conn, game_id, lambda current, _: [t for t in current if t.id != timer_id])
                return True

            return _transaction(conn, body)

        return await self._run(run)

    async def delete_timers(self, game_id: int, *, kinds: Collection[str] | None = None) -> int:
        def run(conn: Conn) -> int:
            removed: list[int] = []

            def change(current: list[TimerRecord], _: int) -> list[Any]:
                kept = [t for t in current if kinds is not None and t.kind not in kinds]
                removed.append(len(current) - len(kept))
                return kept

            _transaction(conn, lambda: _write_timers(conn, game_id, change))
            return removed[0]

        return await self._run(run, game=game_id)

    # --- outbox ---------------------------------------------------------------------------------------

    async def add_outbox(
        self, game_id: int | None, items: Sequence[NewOutbox], *, now: datetime | None = None
    ) -> list[int]:
        stamp = _ts(now or now_utc())

        def run(conn: Conn) -> list[int]:
            return _transaction(conn, lambda: _insert_outbox(conn, game_id, items, stamp))

        return await self._run(run, game=game_id)

    async def outbox_item(self, outbox_id: int) -> OutboxRecord:
        def run(conn: Conn) -> OutboxRecord:
            row = conn.execute(f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE id = ?", (outbox_id,)).fetchone()
            if row is None:
                row = conn.execute(
                    f"SELECT {_OUTBOX_COLUMNS}, delivered_at FROM outbox_delivered WHERE id = ?", (outbox_id,)
                ).fetchone()
            if row is None:
                raise GameNotFound(f"there is no outbox row {outbox_id}")
            return _outbox(row)

        return await self._run(run)

    async def undelivered(
        self, *, game_id: int | None = None, max_attempts: int | None = None, limit: int = 100
    ) -> list[OutboxRecord]:
        sql = f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE 1"
        params: list[Any] = []
        if game_id is not None:
            sql += " AND game_id = ?"
            params.append(game_id)
        if max_attempts is not None:
            sql += " AND attempts < ?"
            params.append(max_attempts)
        sql += " ORDER BY id LIMIT ?"
        params.append(limit)

        def run(conn: Conn) -> list[OutboxRecord]:
            return [_outbox(r) for r in conn.execute(sql, params).fetchall()]

        return await self._run(run, game=game_id)

    async def mark_delivered(
        self, outbox_id: int, *, refs: Sequence[MessageRef] = (), now: datetime | None = None
    ) -> bool:
        stamp = _ts(now or now_utc())

        def run(conn: Conn) -> bool:
            def body() -> bool:
                moved = conn.execute(
                    f"INSERT INTO outbox_delivered ({_OUTBOX_COLUMNS}, delivered_at)"
                    f" SELECT {_OUTBOX_COLUMNS}, ? FROM outbox WHERE id = ?",
                    (stamp, outbox_id),
                ).rowcount
                if moved != 1:
                    if conn.execute("SELECT 1 FROM outbox_delivered WHERE id = ?", (outbox_id,)).fetchone() is None:
                        raise GameNotFound(f"there is no outbox row {outbox_id}")
                    return False
                conn.execute("DELETE FROM outbox WHERE id = ?", (outbox_id,))
                for ref in refs:
                    _put_ref(conn, ref)
                return True

            return _transaction(conn, body)

        return await self._run(run)

    async def mark_delivered_many(
        self, rows: Sequence[tuple[int, Sequence[MessageRef]]], *, now: datetime | None = None
    ) -> int:
        if not rows:
            return 0
        stamp = _ts(now or now_utc())

        def run(conn: Conn) -> int:
            def body() -> int:
                marked = 0
                for outbox_id, refs in rows:
                    moved = conn.execute(
                        f"INSERT INTO outbox_delivered ({_OUTBOX_COLUMNS}, delivered_at)"
                        f" SELECT {_OUTBOX_COLUMNS}, ? FROM outbox WHERE id = ?",
                        (stamp, outbox_id),
                    ).rowcount
                    if moved:
                        conn.execute("DELETE FROM outbox WHERE id = ?", (outbox_id,))
                        marked += 1
                    for ref in refs:
                        _put_ref(conn, ref)
                return marked

            return _transaction(conn, body)

        return await self._run(run)

    async def mark_failed(self, outbox_id: int, error: str) -> int:
        def run(conn: Conn) -> int:
            row = conn.execute(
                "UPDATE outbox SET attempts = attempts + 1, last_error = ? WHERE id = ? RETURNING attempts",
                (error, outbox_id),
            ).fetchone()
            if row is None:
                raise GameNotFound(f"there is no undelivered outbox row {outbox_id}")
            return row[0]

        return await self._run(run)

    async def prune_outbox(self, delivered_before: datetime) -> int:
        bound = _ts(delivered_before)

        def run(conn: Conn) -> int:
            return conn.execute(
                "DELETE FROM outbox_delivered WHERE id IN"
                " (SELECT id FROM outbox_delivered WHERE delivered_at < ? LIMIT ?)",
                (bound, _PRUNE_BATCH),
            ).rowcount

        # In batches, each its own short transaction: the first prune of a big database (or one after a long
        # pause) must not hold the writer for seconds while moves wait.
        total = 0
        while (pruned := await self._run(run)) > 0:
            total += pruned
            if pruned < _PRUNE_BATCH:
                break
        return total

    # --- message references ---------------------------------------------------------------------------

    async def put_message_ref(self, ref: MessageRef) -> None:
        def run(conn: Conn) -> None:
            _transaction(conn, lambda: _put_ref(conn, ref))

        await self._run(run)

    async def message_ref(self, message_id: int) -> MessageRef | None:
        def run(conn: Conn) -> MessageRef | None:
            row = conn.execute(
                f"SELECT {_REF_COLUMNS} FROM message_refs WHERE message_id = ?", (message_id,)
            ).fetchone()
            return None if row is None else _ref(row)

        return await self._run(run)

    async def find_message_ref(
        self, game_id: int | None, kind: str, *, seat: int | None = None, key: str = ""
    ) -> MessageRef | None:
        def run(conn: Conn) -> MessageRef | None:
            row = conn.execute(
                f"SELECT {_REF_COLUMNS} FROM message_refs WHERE ifnull(game_id, -1) = ifnull(?, -1) AND kind = ?"
                " AND ifnull(seat, -1) = ifnull(?, -1) AND key = ?",
                (game_id, kind, seat, key),
            ).fetchone()
            return None if row is None else _ref(row)

        return await self._run(run, game=game_id)

    async def message_refs(self, game_id: int, *, kind: str | None = None) -> list[MessageRef]:
        sql = f"SELECT {_REF_COLUMNS} FROM message_refs WHERE ifnull(game_id, -1) = ?"
        params: list[Any] = [game_id]
        if kind is not None:
            sql += " AND kind = ?"
            params.append(kind)
        sql += " ORDER BY kind, seat, key"

        def run(conn: Conn) -> list[MessageRef]:
            return [_ref(r) for r in conn.execute(sql, params).fetchall()]

        return await self._run(run, game=game_id)

    async def delete_message_ref(self, message_id: int) -> bool:
        def run(conn: Conn) -> bool:
            return conn.execute("DELETE FROM message_refs WHERE message_id = ?", (message_id,)).rowcount == 1

        return await self._run(run)

    # --- per-server settings --------------------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        def run(conn: Conn) -> GuildSettings:
            row = conn.execute(
                "SELECT moderator_role_id, turn_deadline_s, reaction_time_s, updated_at FROM guild_settings"
                " WHERE guild_id = ?",
                (guild_id,),
            ).fetchone()
            if row is None:
                return GuildSettings(guild_id=guild_id)
            return GuildSettings(
                guild_id=guild_id,
                moderator_role_id=row[0],
                turn_deadline=None if row[1] is None else timedelta(seconds=row[1]),
                reaction_time=None if row[2] is None else timedelta(seconds=row[2]),
                updated_at=_dt(row[3]),
            )

        return await self._run(run)

    async def put_guild_settings(self, settings: GuildSettings, *, now: datetime | None = None) -> GuildSettings:
        stamp = now or now_utc()
        stored = settings.model_copy(update={"updated_at": utc(stamp)})

        def run(conn: Conn) -> None:
            conn.execute(
                "INSERT OR REPLACE INTO guild_settings"
                " (guild_id, moderator_role_id, turn_deadline_s, reaction_time_s, updated_at) VALUES (?, ?, ?, ?, ?)",
                (
                    stored.guild_id,
                    stored.moderator_role_id,
                    None if stored.turn_deadline is None else stored.turn_deadline.total_seconds(),
                    None if stored.reaction_time is None else stored.reaction_time.total_seconds(),
                    _ts(stamp),
                ),
            )

        await self._run(run)
        return stored

    # --- whole games ----------------------------------------------------------------------------------

    async def restore_game(self, exported: ExportedGame, snapshot: str | None, *, keep_id: bool = True) -> GameRecord:
        if exported.seed is not None and snapshot is None:
            raise InvalidOperation("a started game needs its snapshot")
        if exported.seed is not None and not SEED_MIN <= exported.seed <= SEED_MAX:
            raise InvalidOperation("the seed must fit a signed 64-bit integer")
        _check_seats(exported.seats, contiguous=exported.seed is not None)
        stamp = _ts(now_utc())
        created = _ts(exported.created_at)

        def run(conn: Conn) -> GameRecord:
            def body() -> GameRecord:
                free = conn.execute("SELECT 1 FROM games WHERE id = ?", (exported.id,)).fetchone() is None
                cur = conn.execute(
                    f"INSERT INTO games ({_GAME_COLUMNS}, state) VALUES ({', '.join('?' * 16)})",
                    (
                        exported.id if keep_id and free else None,
                        exported.kind,
                        exported.guild_id,
                        exported.channel_id,
                        exported.thread_id,
                        exported.status,
                        _options_json(exported.options),
                        exported.seed,
                        exported.seat_count,
                        _ts_or_none(exported.setup_at),
                        exported.version,
                        exported.created_by,
                        created,
                        stamp,
                        _ts_or_none(exported.finished_at),
                        snapshot,
                    ),
                )
                game_id: int = cur.lastrowid  # type: ignore[assignment]
                for s in exported.seats:
                    conn.execute(
                        f"INSERT INTO seats ({_SEAT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (
                            game_id,
                            s.seat,
                            s.player_id,
                            s.display_name,
                            None if s.dm_ok is None else int(s.dm_ok),
                            _ts_or_none(s.away_until),
                            created,
                            int(s.autopilot),
                            int(s.bot),
                            s.missed,
                            s.level,
                        ),
                    )
                for e in exported.log:
                    conn.execute(
                        _INSERT_LOG,
                        (
                            game_id,
                            e.seq,
                            e.kind,
                            e.actor_seat,
                            e.user_id,
                            *log_columns(e),
                            e.undo_to,
                            e.note,
                        ),
                    )
                return _fetch_game(conn, game_id)

            return _transaction(conn, body)

        return await self._run(run)

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

        return await self._run(run)


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


def _optimize(conn: Conn) -> None:
    conn.execute("PRAGMA analysis_limit = 400")  # bounded work, whatever the size of the file
    conn.execute("PRAGMA optimize")


def _prepare(conn: Conn, busy_ms: int, synchronous: str, label: str, memory: bool) -> int:
    """Checks, pragmas and migrations at open; nothing is written before the file is known to be ours."""
    conn.execute(f"PRAGMA busy_timeout = {busy_ms:d}")
    migrations = load_migrations()
    inspect(conn, label, len(migrations))
    if not memory:
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise StoreFileError(label, f"cannot switch to WAL journal mode (got {mode})")
    conn.execute(f"PRAGMA synchronous = {synchronous}")
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA cache_size = -32768")  # 32 MiB of page cache: the open games' rows and the hot indexes
    version = migrate(conn, label, migrations)
    if not memory:
        check_writable(conn, label)
    # Touch what serving needs first, so damage there stops start-up rather than the first command.
    conn.execute("SELECT count(*) FROM games WHERE status IN ('lobby', 'active', 'paused')").fetchone()
    conn.execute("SELECT id FROM games WHERE next_due IS NOT NULL ORDER BY next_due LIMIT 1").fetchone()
    return version
