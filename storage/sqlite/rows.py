"""How the SQLite backend lays out the shared records as row values, and reads them back: its own format, kept out
of `storage.models`.

- A timestamp is text: UTC, ISO 8601 with microseconds (`db_time`), so that text order is time order and the
  indexes on due times sort correctly.
- A log entry's events are stored through `storage.logcodec` (compressed when that is shorter); its action is JSON
  text, readable with the sqlite3 shell and `json_extract`.
- A timer is an item of its game's timer list (`storage.sqlite.timerlist`), whose kind is written as a JSON string.
The JSON text comes from the records themselves (`json_text`, encoded once when they were built), so laying out
a commit's rows costs the compression (`NewLogEntry.stored_events`) and the timestamps, nothing more.
"""

import json
import sqlite3
from collections.abc import Collection
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel

from storage import logcodec
from storage.errors import GameNotFound
from storage.jsontext import dump_json
from storage.models import (
    GameRecord,
    LogEntry,
    MessageRef,
    NewLogEntry,
    NewOutbox,
    NewTimer,
    OutboxRecord,
    SeatRecord,
    as_json,
    utc,
)

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

INSERT_LOG = (
    "INSERT INTO action_log (game_id, seq, kind, actor_seat, user_id, action, events, at, undo_to, note)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
OVER = ("finished", "abandoned")
"""The statuses of a game that is over: nothing may fire for it."""


def db_time(dt: datetime) -> str:
    """A timestamp as stored: UTC, ISO 8601 with microseconds, so that text order is time order."""
    if dt.tzinfo is UTC:  # a record's timestamps are UTC already (`storage.models.UtcTime`), as is `now_utc()`
        return dt.isoformat(timespec="microseconds")
    return utc(dt).isoformat(timespec="microseconds")


def db_time_or_none(dt: datetime | None) -> str | None:
    return None if dt is None else db_time(dt)


def read_time(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def options_json(options: dict[str, Any] | BaseModel | None) -> str:
    return dump_json(as_json(options) if options is not None else {})


def in_list(values: Collection[Any]) -> str:
    """The placeholders of `IN (…)` for these values."""
    return "(" + ", ".join("?" * len(values)) + ")"


# --- record → row --------------------------------------------------------------------------------------


def log_columns(entry: NewLogEntry) -> tuple[str | None, str | bytes, str]:
    """(action text or None, events as stored: text or compressed, at text)."""
    return entry.json_text("action"), entry.stored_events(), db_time(entry.at)


def timer_columns(timer: NewTimer) -> tuple[str, str, str]:
    """(kind as a JSON string, due_at text, payload text): the parts of a timer-list item."""
    payload = timer.json_text("payload")
    assert payload is not None
    kind = _KIND_TEXTS.get(timer.kind)
    if kind is None:
        kind = _KIND_TEXTS[timer.kind] = dump_json(timer.kind)
    return kind, db_time(timer.due_at), payload


_KIND_TEXTS: dict[str, str] = {}
"""Timer kinds as JSON strings: a bot has a handful ("deadline", "reminder", …), encoded once each."""


def outbox_columns(item: NewOutbox) -> tuple[str, str, str]:
    """(kind, target text, payload text)."""
    target, payload = item.json_text("target"), item.json_text("payload")
    assert target is not None and payload is not None
    return item.kind, target, payload


# --- row → record --------------------------------------------------------------------------------------


def game(row: tuple[Any, ...]) -> GameRecord:
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
        setup_at=read_time(row[9]),
        version=row[10],
        created_by=row[11],
        created_at=read_time(row[12]),
        updated_at=read_time(row[13]),
        finished_at=read_time(row[14]),
    )


def seat(row: tuple[Any, ...]) -> SeatRecord:
    return SeatRecord(
        game_id=row[0],
        seat=row[1],
        player_id=row[2],
        display_name=row[3],
        dm_ok=None if row[4] is None else bool(row[4]),
        away_until=read_time(row[5]),
        joined_at=read_time(row[6]),
        autopilot=bool(row[7]),
        bot=bool(row[8]),
        missed=row[9],
        level=row[10],
        away_mode=row[11],
        away_pauses=json.loads(row[12]) if row[12] else [],
        handover=json.loads(row[13]) if row[13] else None,
    )


def log_entry(row: tuple[Any, ...]) -> LogEntry:
    return LogEntry(
        game_id=row[0],
        seq=row[1],
        kind=row[2],
        actor_seat=row[3],
        user_id=row[4],
        action=None if row[5] is None else json.loads(row[5]),
        events=logcodec.loads(row[6]),
        at=read_time(row[7]),
        undo_to=row[8],
        note=row[9],
    )


def outbox(row: tuple[Any, ...]) -> OutboxRecord:
    return OutboxRecord(
        id=row[0],
        game_id=row[1],
        kind=row[2],
        target=json.loads(row[3]),
        payload=json.loads(row[4]),
        created_at=read_time(row[5]),
        attempts=row[6],
        last_error=row[7],
        delivered_at=read_time(row[8]) if len(row) > 8 else None,
    )


def ref(row: tuple[Any, ...]) -> MessageRef:
    return MessageRef(
        message_id=row[0],
        channel_id=row[1],
        game_id=row[2],
        kind=row[3],
        seat=row[4],
        key=row[5],
        created_at=read_time(row[6]),
        token=row[7],
        token_expires=read_time(row[8]),
    )


def fetch_game(conn: sqlite3.Connection, game_id: int) -> GameRecord:
    """The game's record, read in the connection's thread. Raises `GameNotFound`."""
    row = conn.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise GameNotFound(f"there is no game {game_id}")
    return game(row)
