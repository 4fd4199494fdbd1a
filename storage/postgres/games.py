"""The games of the PostgreSQL store (`store.games`): records, snapshots and the one atomic commit.

A commit is ONE statement (data-modifying CTEs), so one round trip to the server and one transaction of its own:
the UPDATE of the game's row names the expected version (`WHERE id = $1 AND version = $2`), and every other write
(the log entry, the timers replaced, the outbox rows, the seat's missed count) reads from that UPDATE, so a stale
version writes nothing at all. Two commits racing on one game: the second waits for the first's row lock, then
finds the version moved and writes nothing (`StaleVersion`, told apart from "not found" and "not started" by a
read on that path only). The log's triggers keep it append-only and gap-free whatever the code does.
"""

from collections.abc import Collection, Sequence
from datetime import datetime
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
from storage.postgres import rows
from storage.postgres.database import Conn, Database, transaction
from storage.postgres.outbox import insert_outbox, outbox_arrays
from storage.postgres.rows import (
    GAME_COLUMNS,
    OVER,
    SEAT_COLUMNS,
    TIMER_COLUMNS,
    entry_values,
    fetch_game,
    options_json,
)
from storage.postgres.seats import check_seats, replace_seats
from storage.postgres.timers import insert_timers, timer_arrays

_COMMIT = """
WITH g AS (
    UPDATE games SET version = $2 + 1, updated_at = $3, state = coalesce($4, state),
        status = coalesce($5, status),
        finished_at = CASE WHEN $5::text IS NULL THEN finished_at
                           WHEN $5 IN ('finished', 'abandoned') THEN coalesce(finished_at, $3) ELSE NULL END
    WHERE id = $1 AND version = $2 AND seed IS NOT NULL
    RETURNING id
), entry AS (
    INSERT INTO action_log (game_id, seq, kind, actor_seat, user_id, action, events, at, undo_to, note)
    SELECT id, $2 + 1, $6, $7, $8, $9::text::jsonb, $10, $11, $12, $13 FROM g
), dropped AS (
    DELETE FROM timers WHERE $14 AND game_id = (SELECT id FROM g) AND ($15::text[] IS NULL OR kind = ANY($15))
), new_timers AS (
    SELECT ord, nextval('timer_ids') AS id, kind, due_at, payload
    FROM unnest($16::text[], $17::timestamptz[], $18::text[]) WITH ORDINALITY AS t(kind, due_at, payload, ord)
    WHERE EXISTS (SELECT 1 FROM g)
), timers_in AS (
    INSERT INTO timers (id, game_id, kind, due_at, payload, created_at)
    SELECT id, $1, kind, due_at, payload::jsonb, $3 FROM new_timers
), new_outbox AS (
    SELECT ord, nextval('outbox_ids') AS id, kind, target, payload
    FROM unnest($19::text[], $20::text[], $21::text[]) WITH ORDINALITY AS o(kind, target, payload, ord)
    WHERE EXISTS (SELECT 1 FROM g)
), outbox_in AS (
    INSERT INTO outbox (id, game_id, kind, target, payload, created_at, claimed_by, claimed_until)
    SELECT id, $1, kind, target::jsonb, payload::jsonb, $3, $23, $24 FROM new_outbox
), missed AS (
    UPDATE seats SET missed = 0 WHERE game_id = (SELECT id FROM g) AND seat = $22 AND missed <> 0
)
SELECT EXISTS (SELECT 1 FROM g), array(SELECT id FROM new_timers ORDER BY ord),
       array(SELECT id FROM new_outbox ORDER BY ord)
"""

_LOAD = f"""
SELECT {GAME_COLUMNS}, state,
    array(SELECT row({SEAT_COLUMNS}) FROM seats WHERE game_id = $1 ORDER BY seat),
    array(SELECT row({TIMER_COLUMNS}) FROM timers WHERE game_id = $1 ORDER BY due_at, id)
FROM games WHERE id = $1
"""


def _finished_at(old: GameRecord, status: GameStatus, now: datetime) -> datetime | None:
    if status in OVER:
        return old.finished_at or now
    return None


class PostgresGames(Games):
    def __init__(self, db: Database) -> None:
        self._db = db

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
        stamp = now or now_utc()
        opts = options_json(options)

        async def run(conn: Conn) -> GameRecord:
            row = await conn.fetchrow(
                "INSERT INTO games (kind, guild_id, channel_id, thread_id, status, options, version, created_by,"
                " created_at, updated_at) VALUES ($1, $2, $3, $4, 'lobby', $5, 0, $6, $7, $7)"
                f" RETURNING {GAME_COLUMNS}",
                kind,
                guild_id,
                channel_id,
                thread_id,
                opts,
                created_by,
                stamp,
            )
            return rows.game(row)

        return await self._db.run(run)

    async def get(self, game_id: int) -> GameRecord:
        return await self._db.run(fetch_game, game_id, game=game_id)

    async def by_thread(self, thread_id: int) -> GameRecord | None:
        async def run(conn: Conn) -> GameRecord | None:
            row = await conn.fetchrow(
                f"SELECT {GAME_COLUMNS} FROM games WHERE thread_id = $1 ORDER BY id DESC LIMIT 1", thread_id
            )
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
            params.append(statuses)
            where.append(f"status = ANY(${len(params)}::text[])")
        for column, value in (("guild_id", guild_id), ("channel_id", channel_id), ("kind", kind)):
            if value is not None:
                params.append(value)
                where.append(f"{column} = ${len(params)}")
        sql = f"SELECT {GAME_COLUMNS} FROM games"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY id"
        if limit is not None:
            params.append(limit)
            sql += f" LIMIT ${len(params)}"

        async def run(conn: Conn) -> list[GameRecord]:
            return [rows.game(r) for r in await conn.fetch(sql, *params)]

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
        stamp = now or now_utc()
        opts = None if isinstance(options, Keep) else options_json(options)

        async def run(conn: Conn) -> GameRecord:
            async def body() -> GameRecord:
                row = await conn.fetchrow(f"SELECT {GAME_COLUMNS} FROM games WHERE id = $1 FOR UPDATE", game_id)
                if row is None:
                    raise GameNotFound(f"there is no game {game_id}")
                old = rows.game(row)
                sets: dict[str, Any] = {"updated_at": stamp}
                over = False
                if not isinstance(status, Keep) and status != old.status:
                    if status == "lobby":
                        raise InvalidOperation(f"game {game_id} has started; it cannot go back to the lobby")
                    if not old.started and status in ("active", "paused"):
                        raise InvalidOperation(f"game {game_id} is still in its lobby: start it with store.games.start")
                    sets["status"] = status
                    sets["finished_at"] = _finished_at(old, status, stamp)
                    over = status in OVER
                if not isinstance(channel_id, Keep):
                    sets["channel_id"] = channel_id
                if not isinstance(thread_id, Keep):
                    sets["thread_id"] = thread_id
                if opts is not None:
                    if old.started:
                        raise InvalidOperation(f"game {game_id} has started; its options can no longer change")
                    sets["options"] = opts
                if over:  # nothing may fire for a game that is over
                    await conn.execute("DELETE FROM timers WHERE game_id = $1", game_id)
                assignments = ", ".join(f"{k} = ${i}" for i, k in enumerate(sets, 2))
                updated = await conn.fetchrow(
                    f"UPDATE games SET {assignments} WHERE id = $1 RETURNING {GAME_COLUMNS}", game_id, *sets.values()
                )
                return rows.game(updated)

            return await transaction(conn, body)

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
        opts = None if isinstance(options, Keep) else options_json(options)

        async def run(conn: Conn) -> CommitResult:
            async def body() -> CommitResult:
                old = await conn.fetchval("SELECT status FROM games WHERE id = $1 FOR UPDATE", game_id)
                if old is None:
                    raise GameNotFound(f"there is no game {game_id}")
                if old != "lobby":
                    raise InvalidOperation(f"game {game_id} is not in its lobby (it is {old})")
                await conn.execute(
                    "UPDATE games SET status = 'active', seed = $1, seat_count = $2, setup_at = $3,"
                    " options = coalesce($4::text::jsonb, options), updated_at = $3, state = $5 WHERE id = $6",
                    seed,
                    len(seats),
                    setup_at,
                    opts,
                    state,
                    game_id,
                )
                await replace_seats(conn, game_id, seats, setup_at)
                await conn.execute("DELETE FROM timers WHERE game_id = $1", game_id)
                timer_ids = await insert_timers(conn, game_id, timers, setup_at)
                outbox_ids = await insert_outbox(conn, game_id, outbox, setup_at)
                return CommitResult(game_id=game_id, version=0, outbox_ids=outbox_ids, timer_ids=timer_ids)

            return await transaction(conn, body)

        return await self._db.run(run, game=game_id)

    async def snapshot(self, game_id: int) -> Snapshot:
        async def run(conn: Conn) -> Snapshot:
            row = await conn.fetchrow("SELECT version, state FROM games WHERE id = $1", game_id)
            if row is None:
                raise GameNotFound(f"there is no game {game_id}")
            if row[1] is None:
                raise GameNotFound(f"game {game_id} has not started yet: it has no state")
            return Snapshot(game_id=game_id, version=row[0], state=row[1].rstrip(" "))

        return await self._db.run(run, game=game_id)

    async def load(self, game_id: int) -> LoadedGame:
        async def run(conn: Conn) -> LoadedGame:
            # One statement: the record, seats and timers as of one moment, in one round trip.
            row = await conn.fetchrow(_LOAD, game_id)
            if row is None:
                raise GameNotFound(f"there is no game {game_id}")
            record = rows.game(row)
            state = row[15]
            snapshot = (
                None if state is None else Snapshot(game_id=game_id, version=record.version, state=state.rstrip(" "))
            )
            return LoadedGame.model_construct(
                record=record,
                seats=[rows.seat(r) for r in row[16]],
                snapshot=snapshot,
                timers=[rows.timer(r) for r in row[17]],
            )

        return await self._db.run(run, game=game_id)

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
        params = (
            game_id,
            expected_version,
            now_utc(),
            state,
            status,
            *entry_values(entry),
            timers is not None,
            kinds,
            *timer_arrays(timers or ()),
            *outbox_arrays(outbox),
            clear_missed,
            None if claim is None else claim.owner,  # the rows are born claimed by the committing process
            None if claim is None else claim.until,
        )

        async def run(conn: Conn) -> CommitResult:
            done, timer_ids, outbox_ids = await conn.fetchrow(_COMMIT, *params)
            if not done:
                row = await conn.fetchrow("SELECT version, seed FROM games WHERE id = $1", game_id)
                if row is None:
                    raise GameNotFound(f"there is no game {game_id}")
                if row[1] is None:
                    raise InvalidOperation(f"game {game_id} has not started: there is nothing to commit to")
                raise StaleVersion(game_id, expected_version, row[0])
            return CommitResult.of(game_id, new_version, list(outbox_ids), list(timer_ids))

        return await self._db.run(run, game=game_id)

    async def of_player(self, player_id: int, *, statuses: Collection[GameStatus]) -> list[PlayerGame]:
        statuses = list(statuses)
        if not statuses:
            return []
        columns = ", ".join(f"g.{c.strip()}" for c in GAME_COLUMNS.split(","))
        sql = (
            f"SELECT {columns},"
            f" array(SELECT row({SEAT_COLUMNS}) FROM seats WHERE game_id = g.id ORDER BY seat),"
            f" array(SELECT row({TIMER_COLUMNS}) FROM timers WHERE game_id = g.id ORDER BY due_at, id)"
            " FROM games g WHERE g.status = ANY($2::text[])"
            " AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.player_id = $1) ORDER BY g.id"
        )

        async def run(conn: Conn) -> list[PlayerGame]:
            found = await conn.fetch(sql, player_id, statuses)
            return [
                PlayerGame.model_construct(
                    record=rows.game(r), seats=[rows.seat(s) for s in r[15]], timers=[rows.timer(t) for t in r[16]]
                )
                for r in found
            ]

        return await self._db.run(run)
