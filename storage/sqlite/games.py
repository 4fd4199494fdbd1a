"""The games of the SQLite store (`store.games`): records, snapshots and the one atomic commit.

Layout (storage/sqlite/migrations/*.sql): a game's row holds its record, its snapshot (`state`, read only by
`snapshot` and `load`) and its timers (a JSON list, `storage.sqlite.timerlist`, with `next_due` indexed for the
scheduler); the log is appended in insertion order and found through a unique index on (game, seq)
(`storage.sqlite.log`). A commit is one read, one UPDATE of the games row and two INSERTs (log, outbox), and writes
about six database pages: the game's row (which overflows a page; a commit pads the snapshot so that the row keeps
its size and SQLite rewrites it in place, see `_SLOT_STEP`), the scheduler's index entry (only when the soonest due
time moves), the last page of the log and its index entry, and the last page of the outbox. benchmarks/store.py
measures it against a bare INSERT of one row.
"""

from collections.abc import Collection, Sequence
from datetime import datetime
from functools import cache
from typing import Any

from pydantic import BaseModel

from storage.errors import GameNotFound, InvalidOperation, StaleVersion
from storage.games import Games, checked_commit, dump_snapshot
from storage.models import (
    KEEP,
    SEED_MAX,
    SEED_MIN,
    Claim,
    CommitResult,
    GameRecord,
    GameStatus,
    Keep,
    LoadedGame,
    NewLogEntry,
    NewOutbox,
    NewSeat,
    NewTimer,
    PlayerGame,
    Snapshot,
    now_utc,
)
from storage.sqlite import rows, timerlist
from storage.sqlite.database import Conn, Database, transaction
from storage.sqlite.outbox import NEXT_OUTBOX_ID, insert_outbox, insert_outbox_rows
from storage.sqlite.rows import (
    GAME_COLUMNS,
    INSERT_LOG,
    OVER,
    SEAT_COLUMNS,
    db_time,
    db_time_or_none,
    fetch_game,
    in_list,
    log_columns,
    options_json,
    outbox_columns,
)
from storage.sqlite.seats import check_seats, replace_seats
from storage.sqlite.timers import write_timers


@cache
def _commit_check(outbox: bool, timers: bool) -> str:
    """The commit's one read: (version, seed, timer_seq, next_due, first free outbox id or NULL, [timers])."""
    first_id = f"({NEXT_OUTBOX_ID})" if outbox else "NULL"
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


_CLEAR_MISSED = "UPDATE seats SET missed = 0 WHERE game_id = ? AND seat = ? AND missed <> 0"

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


def _finished_at(old: GameRecord, status: GameStatus, now: str) -> str | None:
    if status in OVER:
        return db_time_or_none(old.finished_at) or now
    return None


class SQLiteGames(Games):
    def __init__(self, db: Database) -> None:
        self._db = db
        self._slots: dict[int, int] = {}  # game id -> bytes of state + timers in its row, as last committed here

    async def create(
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
        stamp = db_time(now or now_utc())
        opts = options_json(options)

        def run(conn: Conn) -> GameRecord:
            def body() -> GameRecord:
                cur = conn.execute(
                    "INSERT INTO games (kind, guild_id, channel_id, thread_id, status, options, version, created_by,"
                    " created_at, updated_at) VALUES (?, ?, ?, ?, 'lobby', ?, 0, ?, ?, ?)",
                    (kind, guild_id, channel_id, thread_id, opts, created_by, stamp, stamp),
                )
                return fetch_game(conn, cur.lastrowid)  # type: ignore[arg-type]

            return transaction(conn, body)

        return await self._db.run(run)

    async def get(self, game_id: int) -> GameRecord:
        return await self._db.run(fetch_game, game_id, game=game_id)

    async def by_thread(self, thread_id: int) -> GameRecord | None:
        def run(conn: Conn) -> GameRecord | None:
            row = conn.execute(
                f"SELECT {GAME_COLUMNS} FROM games WHERE thread_id = ? ORDER BY id DESC LIMIT 1", (thread_id,)
            ).fetchone()
            return None if row is None else rows.game(row)

        return await self._db.run(run)

    async def find(
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
            where.append(f"status IN {in_list(statuses)}")
            params += statuses
        for column, value in (("guild_id", guild_id), ("channel_id", channel_id), ("kind", kind)):
            if value is not None:
                where.append(f"{column} = ?")
                params.append(value)
        sql = f"SELECT {GAME_COLUMNS} FROM games"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY id"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)

        def run(conn: Conn) -> list[GameRecord]:
            return [rows.game(r) for r in conn.execute(sql, params).fetchall()]

        return await self._db.run(run)

    async def update(
        self,
        game_id: int,
        *,
        status: GameStatus | Keep = KEEP,
        channel_id: int | Keep | None = KEEP,
        thread_id: int | Keep | None = KEEP,
        options: dict[str, Any] | BaseModel | Keep = KEEP,
        now: datetime | None = None,
    ) -> GameRecord:
        stamp = db_time(now or now_utc())
        opts = None if isinstance(options, Keep) else options_json(options)

        def run(conn: Conn) -> GameRecord:
            def body() -> GameRecord:
                old = fetch_game(conn, game_id)
                sets: dict[str, Any] = {"updated_at": stamp}
                if not isinstance(status, Keep) and status != old.status:
                    if status == "lobby":
                        raise InvalidOperation(f"game {game_id} has started; it cannot go back to the lobby")
                    if not old.started and status in ("active", "paused"):
                        raise InvalidOperation(f"game {game_id} is still in its lobby: start it with store.games.start")
                    sets["status"] = status
                    sets["finished_at"] = _finished_at(old, status, stamp)
                    if status in OVER:  # nothing may fire for a game that is over
                        sets["timers"], sets["next_due"] = "[]", None
                if not isinstance(channel_id, Keep):
                    sets["channel_id"] = channel_id
                if not isinstance(thread_id, Keep):
                    sets["thread_id"] = thread_id
                if opts is not None:
                    if old.started:
                        raise InvalidOperation(f"game {game_id} has started; its options can no longer change")
                    sets["options"] = opts
                assignments = ", ".join(f"{k} = ?" for k in sets)
                conn.execute(f"UPDATE games SET {assignments} WHERE id = ?", (*sets.values(), game_id))
                return fetch_game(conn, game_id)

            return transaction(conn, body)

        return await self._db.run(run, game=game_id)

    async def start(
        self,
        game_id: int,
        *,
        seed: int,
        setup_at: datetime,
        seats: Sequence[NewSeat],
        snapshot: str | BaseModel,
        options: dict[str, Any] | BaseModel | Keep = KEEP,
        timers: Sequence[NewTimer] = (),
        outbox: Sequence[NewOutbox] = (),
    ) -> CommitResult:
        if not SEED_MIN <= seed <= SEED_MAX:
            raise InvalidOperation("the seed must fit a signed 64-bit integer (use secrets.randbits(63))")
        if not seats:
            raise InvalidOperation("a game needs at least one seat to start")
        check_seats(seats, contiguous=True)
        state = dump_snapshot(snapshot)
        setup = db_time(setup_at)
        opts = None if isinstance(options, Keep) else options_json(options)

        def run(conn: Conn) -> CommitResult:
            def body() -> CommitResult:
                old = fetch_game(conn, game_id)
                if old.status != "lobby":
                    raise InvalidOperation(f"game {game_id} is not in its lobby (it is {old.status})")
                conn.execute(
                    "UPDATE games SET status = 'active', seed = ?, seat_count = ?, setup_at = ?,"
                    " options = coalesce(?, options), updated_at = ?, state = ? WHERE id = ? AND status = 'lobby'",
                    (seed, len(seats), setup, opts, setup, state, game_id),
                )
                replace_seats(conn, game_id, seats, setup)
                timer_ids = write_timers(conn, game_id, lambda _, n: list(enumerate(timers, n)))
                outbox_ids = insert_outbox(conn, game_id, outbox, setup)
                return CommitResult(game_id=game_id, version=0, outbox_ids=outbox_ids, timer_ids=timer_ids)

            return transaction(conn, body)

        return await self._db.run(run, game=game_id)

    async def snapshot(self, game_id: int) -> Snapshot:
        def run(conn: Conn) -> Snapshot:
            row = conn.execute("SELECT version, state FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                raise GameNotFound(f"there is no game {game_id}")
            if row[1] is None:
                raise GameNotFound(f"game {game_id} has not started yet: it has no state")
            return Snapshot(game_id=game_id, version=row[0], state=row[1].rstrip(" "))  # without the slot's padding

        return await self._db.run(run, game=game_id)

    async def load(self, game_id: int) -> LoadedGame:
        def run(conn: Conn) -> LoadedGame:
            # One read transaction: the four reads see the same moment even while another connection writes.
            conn.execute("BEGIN")
            try:
                row = conn.execute(
                    f"SELECT {GAME_COLUMNS}, state, timers FROM games WHERE id = ?", (game_id,)
                ).fetchone()
                if row is None:
                    raise GameNotFound(f"there is no game {game_id}")
                seats = conn.execute(
                    f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
                ).fetchall()
            finally:
                conn.execute("COMMIT")
            record = rows.game(row)
            state, timers = row[-2], row[-1]
            snapshot = (
                None if state is None else Snapshot(game_id=game_id, version=record.version, state=state.rstrip(" "))
            )
            return LoadedGame.model_construct(
                record=record,
                seats=[rows.seat(r) for r in seats],
                snapshot=snapshot,
                timers=timerlist.parse(game_id, timers),
            )

        return await self._db.run(run, game=game_id)

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
        claim: Claim | None = None,
    ) -> CommitResult:
        state, timers, kinds = checked_commit(entry, expected_version, snapshot, status, timers, timer_kinds)
        new_version = expected_version + 1
        # What does not depend on the row read in the transaction is prepared here, before the hop to the database
        # thread.
        now = db_time(now_utc())
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
        pad = state is not None and timers is not None and status not in OVER

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
                conn.execute(INSERT_LOG, log_row)
                outbox_ids = insert_outbox_rows(conn, outbox_rows, row[4], claim) if outbox_rows else []
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
            return CommitResult.of(game_id, new_version, outbox_ids, timer_ids)

        return await self._db.run(run, game=game_id)

    # --- a player's games ---------------------------------------------------------------------------------

    async def of_player(self, player_id: int, *, statuses: Collection[GameStatus]) -> list[PlayerGame]:
        statuses = list(statuses)
        if not statuses:
            return []
        columns = ", ".join(f"g.{c.strip()}" for c in GAME_COLUMNS.split(","))

        def run(conn: Conn) -> list[PlayerGame]:
            # One read transaction: the games and their seats as of one moment.
            conn.execute("BEGIN")
            try:
                games = conn.execute(
                    f"SELECT DISTINCT {columns}, g.timers FROM games g JOIN seats s ON s.game_id = g.id"
                    f" WHERE s.player_id = ? AND g.status IN {in_list(statuses)} ORDER BY g.id",
                    (player_id, *statuses),
                ).fetchall()
                ids = [r[0] for r in games]
                seats = conn.execute(
                    f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id IN {in_list(ids)} ORDER BY game_id, seat", ids
                ).fetchall()
            finally:
                conn.execute("COMMIT")
            by_game: dict[int, list[Any]] = {}
            for r in seats:
                by_game.setdefault(r[0], []).append(rows.seat(r))
            return [
                PlayerGame.model_construct(
                    record=rows.game(r[:-1]), seats=by_game.get(r[0], []), timers=timerlist.parse(r[0], r[-1])
                )
                for r in games
            ]

        return await self._db.run(run)
