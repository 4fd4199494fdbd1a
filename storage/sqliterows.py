"""How the SQLite backend lays out the shared records as row values: its own format, kept out of `storage.models`.

- A timestamp is text: UTC, ISO 8601 with microseconds (`db_time`), so that text order is time order and the
  indexes on due times sort correctly.
- A log entry's events are stored through `storage.logcodec` (compressed when that is shorter); its action is JSON
  text, readable with the sqlite3 shell and `json_extract`.
- A timer is an item of its game's timer list (`storage.timerlist`), whose kind is written as a JSON string.
The JSON text comes from the records themselves (`json_text`, encoded once when they were built), so laying out
a commit's rows costs the compression and the timestamps, nothing more.
"""

from datetime import datetime

from storage import logcodec
from storage.jsontext import dump_json
from storage.models import NewLogEntry, NewOutbox, NewTimer, utc


def db_time(dt: datetime) -> str:
    """A timestamp as stored: UTC, ISO 8601 with microseconds, so that text order is time order."""
    return utc(dt).isoformat(timespec="microseconds")


def log_columns(entry: NewLogEntry) -> tuple[str | None, str | bytes, str]:
    """(action text or None, events as stored: text or compressed, at text)."""
    events = entry.json_text("events")
    assert events is not None  # a list, never None
    return entry.json_text("action"), logcodec.encode(events), db_time(entry.at)


def timer_columns(timer: NewTimer) -> tuple[str, str, str]:
    """(kind as a JSON string, due_at text, payload text): the parts of a timer-list item."""
    payload = timer.json_text("payload")
    assert payload is not None
    return dump_json(timer.kind), db_time(timer.due_at), payload


def outbox_columns(item: NewOutbox) -> tuple[str, str, str]:
    """(kind, target text, payload text)."""
    target, payload = item.json_text("target"), item.json_text("payload")
    assert target is not None and payload is not None
    return item.kind, target, payload
