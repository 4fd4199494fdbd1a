"""How the PostgreSQL backend lays out the shared records as row values, and reads them back.

Timestamps are `timestamptz` (asyncpg gives aware datetimes), flags `boolean`, JSON values `jsonb` written from the
text the records encoded once (`json_text`) and read back as plain data (the pool's codec). A log entry's events
are `bytea` through `storage.logcodec`: the UTF-8 of the JSON text, or version 1's deflated value, which starts
with the byte 0x01 (no JSON text does).
"""

from collections.abc import Sequence
from typing import Any

from storage import logcodec
from storage.errors import GameNotFound
from storage.jsontext import dump_json
from storage.models import (
    GameRecord,
    LogEntry,
    MessageRef,
    NewLogEntry,
    OutboxRecord,
    SeatRecord,
    TimerRecord,
    as_json,
)
from storage.postgres.database import Conn

GAME_COLUMNS = (
    "id, kind, guild_id, channel_id, thread_id, status, options, seed, seat_count, setup_at, version, created_by,"
    " created_at, updated_at, finished_at"
)
LOG_COLUMNS = "game_id, seq, kind, actor_seat, user_id, action, events, at, undo_to, note"
OUTBOX_COLUMNS = "id, game_id, kind, target, payload, created_at, attempts, last_error"
REF_COLUMNS = "message_id, channel_id, game_id, kind, seat, key, created_at, token, token_expires"
SEAT_COLUMNS = (
    "game_id, seat, player_id, display_name, dm_ok, away_until, joined_at, autopilot, bot, missed, level,"
    " away_mode, away_pauses, handover"
)
TIMER_COLUMNS = "id, game_id, kind, due_at, payload, created_at"
INSERT_LOG = f"INSERT INTO action_log ({LOG_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"
INSERT_SEAT = f"INSERT INTO seats ({SEAT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)"
OVER = ("finished", "abandoned")
_COMPRESSED = 1  # logcodec's version byte


def options_json(options: Any) -> str:
    return dump_json(as_json(options) if options is not None else {})


def events_value(entry: NewLogEntry) -> bytes:
    value = entry.stored_events()
    return value if isinstance(value, bytes) else value.encode()


def read_events(value: bytes) -> Any:
    return logcodec.loads(value if value[:1] == bytes([_COMPRESSED]) else value.decode())


def log_values(game_id: int, seq: int, entry: NewLogEntry) -> tuple[Any, ...]:
    """The values of an `action_log` row, in the order of `LOG_COLUMNS`."""
    return (game_id, seq, *entry_values(entry))


def entry_values(entry: NewLogEntry) -> tuple[Any, ...]:
    """A log entry's own values, in the order of `LOG_COLUMNS` after the game and seq (the commit's function takes
    them in that order too)."""
    return (
        entry.kind,
        entry.actor_seat,
        entry.user_id,
        entry.json_text("action"),
        events_value(entry),
        entry.at,
        entry.undo_to,
        entry.note,
    )


def game(row: Sequence[Any]) -> GameRecord:
    return GameRecord(
        id=row[0],
        kind=row[1],
        guild_id=row[2],
        channel_id=row[3],
        thread_id=row[4],
        status=row[5],
        options=row[6],
        seed=row[7],
        seat_count=row[8],
        setup_at=row[9],
        version=row[10],
        created_by=row[11],
        created_at=row[12],
        updated_at=row[13],
        finished_at=row[14],
    )


def seat(row: Sequence[Any]) -> SeatRecord:
    return SeatRecord(
        game_id=row[0],
        seat=row[1],
        player_id=row[2],
        display_name=row[3],
        dm_ok=row[4],
        away_until=row[5],
        joined_at=row[6],
        autopilot=row[7],
        bot=row[8],
        missed=row[9],
        level=row[10],
        away_mode=row[11],
        away_pauses=row[12],
        handover=row[13],
    )


def log_entry(row: Sequence[Any]) -> LogEntry:
    return LogEntry(
        game_id=row[0],
        seq=row[1],
        kind=row[2],
        actor_seat=row[3],
        user_id=row[4],
        action=row[5],
        events=read_events(row[6]),
        at=row[7],
        undo_to=row[8],
        note=row[9],
    )


def timer(row: Sequence[Any]) -> TimerRecord:
    return TimerRecord(id=row[0], game_id=row[1], kind=row[2], due_at=row[3], payload=row[4], created_at=row[5])


def outbox(row: Sequence[Any]) -> OutboxRecord:
    return OutboxRecord(
        id=row[0],
        game_id=row[1],
        kind=row[2],
        target=row[3],
        payload=row[4],
        created_at=row[5],
        attempts=row[6],
        last_error=row[7],
        delivered_at=row[8] if len(row) > 8 else None,
    )


def ref(row: Sequence[Any]) -> MessageRef:
    return MessageRef(
        message_id=row[0],
        channel_id=row[1],
        game_id=row[2],
        kind=row[3],
        seat=row[4],
        key=row[5],
        created_at=row[6],
        token=row[7],
        token_expires=row[8],
    )


async def fetch_game(conn: Conn, game_id: int) -> GameRecord:
    row = await conn.fetchrow(f"SELECT {GAME_COLUMNS} FROM games WHERE id = $1", game_id)
    if row is None:
        raise GameNotFound(f"there is no game {game_id}")
    return game(row)
