"""The seats of the PostgreSQL store (`store.seats`): one row per seat of a game, in the `seats` table."""

from collections.abc import Callable, Collection, Sequence
from datetime import datetime
from typing import Any

from storage.errors import GameNotFound, InvalidOperation
from storage.jsontext import dump_json
from storage.models import KEEP, AwayMode, BotLevel, GameStatus, Keep, NewSeat, SeatRecord, given, now_utc, utc
from storage.parts import Seats
from storage.postgres import rows
from storage.postgres.database import Conn, Database, transaction
from storage.postgres.rows import INSERT_SEAT, SEAT_COLUMNS


def check_seats(seats: Sequence[NewSeat], *, contiguous: bool) -> None:
    numbers = sorted(s.seat for s in seats)
    if len(set(numbers)) != len(numbers):
        raise InvalidOperation("two seats have the same number")
    if contiguous and numbers != list(range(len(numbers))):
        raise InvalidOperation(f"a started game's seats must be numbered 0…{len(numbers) - 1} (got {numbers})")


def pauses_json(pauses: Sequence[tuple[datetime, datetime]]) -> str:
    """`away_pauses` as stored: a JSON list of [start, end] timestamps (ISO 8601, UTC)."""
    return dump_json(
        [[utc(a).isoformat(timespec="microseconds"), utc(b).isoformat(timespec="microseconds")] for a, b in pauses]
    )


def _same(value: Any) -> Any:
    return value


def _json_or_none(value: Any) -> str | None:
    return None if value is None else dump_json(value)


SEAT_ENCODING: dict[str, Callable[[Any], Any]] = {"away_pauses": pauses_json, "handover": _json_or_none}
"""How `Seats.update`'s arguments are stored in PostgreSQL's columns (the others as they are)."""


def seat_values(game_id: int, s: NewSeat, joined_at: datetime) -> tuple[Any, ...]:
    return (
        game_id,
        s.seat,
        s.player_id,
        s.display_name,
        s.dm_ok,
        s.away_until,
        joined_at,
        s.autopilot,
        s.bot,
        s.missed,
        s.level,
        s.away_mode,
        pauses_json(s.away_pauses),
        None if s.handover is None else dump_json(s.handover),
    )


async def replace_seats(conn: Conn, game_id: int, seats: Sequence[NewSeat], joined_default: datetime) -> None:
    """Write a lobby's seats anew, keeping when each player first joined (new players: `joined_default`)."""
    joined = {
        r[0]: r[1]
        for r in await conn.fetch(
            "SELECT player_id, joined_at FROM seats WHERE game_id = $1 AND player_id IS NOT NULL", game_id
        )
    }
    await conn.execute("DELETE FROM seats WHERE game_id = $1", game_id)
    if seats:
        await conn.executemany(
            INSERT_SEAT, [seat_values(game_id, s, joined.get(s.player_id, joined_default)) for s in seats]
        )


class PostgresSeats(Seats):
    def __init__(self, db: Database) -> None:
        self._db = db

    async def of_game(self, game_id: int) -> list[SeatRecord]:
        async def run(conn: Conn) -> list[SeatRecord]:
            found = await conn.fetch(f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = $1 ORDER BY seat", game_id)
            return [rows.seat(r) for r in found]

        return await self._db.run(run, game=game_id)

    async def of_games(self, game_ids: Collection[int]) -> dict[int, list[SeatRecord]]:
        ids = sorted(set(game_ids))
        if not ids:
            return {}

        async def run(conn: Conn) -> dict[int, list[SeatRecord]]:
            found: dict[int, list[SeatRecord]] = {}
            for r in await conn.fetch(
                f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ANY($1::bigint[]) ORDER BY game_id, seat", ids
            ):
                seat = rows.seat(r)
                found.setdefault(seat.game_id, []).append(seat)
            return found

        return await self._db.run(run)

    async def set_lobby(self, game_id: int, seats: Sequence[NewSeat], *, now: datetime | None = None) -> None:
        check_seats(seats, contiguous=False)
        stamp = now or now_utc()

        async def run(conn: Conn) -> None:
            async def body() -> None:
                old = await conn.fetchrow("SELECT status FROM games WHERE id = $1 FOR UPDATE", game_id)
                if old is None:
                    raise GameNotFound(f"there is no game {game_id}")
                if old[0] != "lobby":
                    raise InvalidOperation(f"game {game_id} has started: change a seat with store.seats.update")
                await replace_seats(conn, game_id, seats, stamp)
                await conn.execute("UPDATE games SET updated_at = $1 WHERE id = $2", stamp, game_id)

            await transaction(conn, body)

        await self._db.run(run, game=game_id)

    async def update(
        self,
        game_id: int,
        seat: int,
        *,
        player_id: int | Keep | None = KEEP,
        display_name: str | Keep = KEEP,
        dm_ok: bool | Keep | None = KEEP,
        away_until: datetime | Keep | None = KEEP,
        autopilot: bool | Keep = KEEP,
        bot: bool | Keep = KEEP,
        missed: int | Keep = KEEP,
        level: BotLevel | Keep = KEEP,
        away_mode: AwayMode | Keep | None = KEEP,
        away_pauses: Sequence[tuple[datetime, datetime]] | Keep = KEEP,
        handover: dict[str, Any] | Keep | None = KEEP,
    ) -> SeatRecord:
        sets = {
            column: SEAT_ENCODING.get(column, _same)(value)
            for column, value in given(
                player_id=player_id,
                display_name=display_name,
                dm_ok=dm_ok,
                away_until=away_until,
                autopilot=autopilot,
                bot=bot,
                missed=missed,
                level=level,
                away_mode=away_mode,
                away_pauses=away_pauses,
                handover=handover,
            ).items()
        }
        if sets:
            assignments = ", ".join(f"{k} = ${i}" for i, k in enumerate(sets, 3))
            sql = f"UPDATE seats SET {assignments} WHERE game_id = $1 AND seat = $2 RETURNING {SEAT_COLUMNS}"
        else:
            sql = f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = $1 AND seat = $2"

        async def run(conn: Conn) -> SeatRecord:
            row = await conn.fetchrow(sql, game_id, seat, *sets.values())
            if row is None:
                raise GameNotFound(f"game {game_id} has no seat {seat}")
            return rows.seat(row)

        return await self._db.run(run, game=game_id)

    async def of_player(self, player_id: int, *, statuses: Collection[GameStatus] | None = None) -> list[SeatRecord]:
        columns = ", ".join(f"s.{c.strip()}" for c in SEAT_COLUMNS.split(","))
        sql = f"SELECT {columns} FROM seats s JOIN games g ON g.id = s.game_id WHERE s.player_id = $1"
        params: list[Any] = [player_id]
        if statuses is not None:
            statuses = list(statuses)
            if not statuses:
                return []
            sql += " AND g.status = ANY($2::text[])"
            params.append(statuses)
        sql += " ORDER BY s.game_id, s.seat"

        async def run(conn: Conn) -> list[SeatRecord]:
            return [rows.seat(r) for r in await conn.fetch(sql, *params)]

        return await self._db.run(run)
