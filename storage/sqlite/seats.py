"""The seats of the SQLite store (`store.seats`): one row per seat of a game, in the `seats` table."""

from collections.abc import Callable, Collection, Sequence
from datetime import datetime
from typing import Any

from storage.errors import GameNotFound, InvalidOperation
from storage.jsontext import dump_json
from storage.models import KEEP, AwayMode, BotLevel, GameStatus, Keep, NewSeat, SeatRecord, given, now_utc
from storage.parts import Seats
from storage.sqlite import rows
from storage.sqlite.database import Conn, Database, transaction
from storage.sqlite.rows import SEAT_COLUMNS, db_time, db_time_or_none, fetch_game, in_list


def check_seats(seats: Sequence[NewSeat], *, contiguous: bool) -> None:
    numbers = sorted(s.seat for s in seats)
    if len(set(numbers)) != len(numbers):
        raise InvalidOperation("two seats have the same number")
    if contiguous and numbers != list(range(len(numbers))):
        raise InvalidOperation(f"a started game's seats must be numbered 0…{len(numbers) - 1} (got {numbers})")


def pauses_json(pauses: Sequence[tuple[datetime, datetime]]) -> str:
    """`away_pauses` as stored: a JSON list of [start, end] timestamps."""
    return dump_json([[db_time(start), db_time(end)] for start, end in pauses])


def _same(value: Any) -> Any:
    return value


def _json_or_none(value: Any) -> str | None:
    return None if value is None else dump_json(value)


SEAT_ENCODING: dict[str, Callable[[Any], Any]] = {
    "dm_ok": lambda ok: None if ok is None else int(ok),
    "away_until": db_time_or_none,
    "autopilot": int,
    "bot": int,
    "away_pauses": pauses_json,
    "handover": _json_or_none,
}
"""How `Seats.update`'s arguments are stored in SQLite's columns (the others as they are)."""


def seat_row(game_id: int, s: NewSeat, joined_at: str) -> tuple[Any, ...]:
    """The values of a `seats` row, in the order of `SEAT_COLUMNS`."""
    return (
        game_id,
        s.seat,
        s.player_id,
        s.display_name,
        None if s.dm_ok is None else int(s.dm_ok),
        db_time_or_none(s.away_until),
        joined_at,
        int(s.autopilot),
        int(s.bot),
        s.missed,
        s.level,
        s.away_mode,
        pauses_json(s.away_pauses),
        None if s.handover is None else dump_json(s.handover),
    )


INSERT_SEAT = f"INSERT INTO seats ({SEAT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"


def replace_seats(conn: Conn, game_id: int, seats: Sequence[NewSeat], joined_default: str) -> None:
    """Write a lobby's seats anew, keeping when each player first joined (new players: `joined_default`)."""
    joined = dict(
        conn.execute(
            "SELECT player_id, joined_at FROM seats WHERE game_id = ? AND player_id IS NOT NULL", (game_id,)
        ).fetchall()
    )
    conn.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
    conn.executemany(INSERT_SEAT, [seat_row(game_id, s, joined.get(s.player_id, joined_default)) for s in seats])


class SQLiteSeats(Seats):
    def __init__(self, db: Database) -> None:
        self._db = db

    async def of_game(self, game_id: int) -> list[SeatRecord]:
        def run(conn: Conn) -> list[SeatRecord]:
            found = conn.execute(f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
            return [rows.seat(r) for r in found.fetchall()]

        return await self._db.run(run, game=game_id)

    async def of_games(self, game_ids: Collection[int]) -> dict[int, list[SeatRecord]]:
        ids = sorted(set(game_ids))
        if not ids:
            return {}
        sql = f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id IN {in_list(ids)} ORDER BY game_id, seat"

        def run(conn: Conn) -> dict[int, list[SeatRecord]]:
            found: dict[int, list[SeatRecord]] = {}
            for r in conn.execute(sql, ids).fetchall():
                seat = rows.seat(r)
                found.setdefault(seat.game_id, []).append(seat)
            return found

        return await self._db.run(run)

    async def set_lobby(self, game_id: int, seats: Sequence[NewSeat], *, now: datetime | None = None) -> None:
        check_seats(seats, contiguous=False)
        stamp = db_time(now or now_utc())

        def run(conn: Conn) -> None:
            def body() -> None:
                old = fetch_game(conn, game_id)
                if old.status != "lobby":
                    raise InvalidOperation(f"game {game_id} has started: change a seat with store.seats.update")
                replace_seats(conn, game_id, seats, stamp)
                # A join or leave is a touch of the lobby (an idle lobby is closed after a while).
                conn.execute("UPDATE games SET updated_at = ? WHERE id = ?", (stamp, game_id))

            transaction(conn, body)

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

        def run(conn: Conn) -> SeatRecord:
            def body() -> SeatRecord:
                if sets:
                    assignments = ", ".join(f"{k} = ?" for k in sets)
                    conn.execute(
                        f"UPDATE seats SET {assignments} WHERE game_id = ? AND seat = ?",
                        (*sets.values(), game_id, seat),
                    )
                row = conn.execute(
                    f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat)
                ).fetchone()
                if row is None:
                    raise GameNotFound(f"game {game_id} has no seat {seat}")
                return rows.seat(row)

            return transaction(conn, body)

        return await self._db.run(run, game=game_id)

    async def of_player(self, player_id: int, *, statuses: Collection[GameStatus] | None = None) -> list[SeatRecord]:
        columns = ", ".join(f"s.{c.strip()}" for c in SEAT_COLUMNS.split(","))
        sql = f"SELECT {columns} FROM seats s JOIN games g ON g.id = s.game_id WHERE s.player_id = ?"
        params: list[Any] = [player_id]
        if statuses is not None:
            statuses = list(statuses)
            if not statuses:
                return []
            sql += f" AND g.status IN {in_list(statuses)}"
            params += statuses
        sql += " ORDER BY s.game_id, s.seat"

        def run(conn: Conn) -> list[SeatRecord]:
            return [rows.seat(r) for r in conn.execute(sql, params).fetchall()]

        return await self._db.run(run)
