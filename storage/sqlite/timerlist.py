"""A game's timers as one JSON list in its games row (see migration 0001), and the pure helpers around it.

Each item is {"id", "kind", "due_at", "payload", "created_at"}; the list is kept soonest first and the row's
`next_due` is the first item's due time (text order is time order), which the scheduler's index reads. A timer's
id is (game id << TIMER_SHIFT) + n, with n counted by the game's `timer_seq` and never reused.
"""

import json
from collections.abc import Sequence

from storage.models import NewTimer, TimerRecord
from storage.sqlite.rows import timer_columns

TIMER_SHIFT = 24
"""Bits of a timer id for its number within the game: up to 16,777,215 timers per game."""


def timer_id(game_id: int, n: int) -> int:
    return (game_id << TIMER_SHIFT) + n


def game_of(timer: int) -> int:
    """The game a timer id belongs to."""
    return timer >> TIMER_SHIFT


def item(timer: int, new: NewTimer, created_at: str) -> tuple[str, str]:
    """(due_at text, JSON text of the item) for a new timer, from its pre-encoded columns."""
    kind, due_at, payload = timer_columns(new)
    return due_at, (
        f'{{"id":{timer},"kind":{kind},"due_at":"{due_at}","payload":{payload},"created_at":"{created_at}"}}'
    )


def record_item(record: TimerRecord) -> tuple[str, str]:
    kind, due_at, payload = timer_columns(record)
    created = record.created_at.isoformat(timespec="microseconds")
    return (
        due_at,
        f'{{"id":{record.id},"kind":{kind},"due_at":"{due_at}","payload":{payload},"created_at":"{created}"}}',
    )


def build(items: Sequence[tuple[str, str]]) -> tuple[str, str | None]:
    """(the list's JSON text, next_due) from (due_at, item JSON) pairs."""
    ordered = sorted(items, key=lambda pair: pair[0])
    return "[" + ",".join(text for _, text in ordered) + "]", (ordered[0][0] if ordered else None)


def parse(game_id: int, text: str) -> list[TimerRecord]:
    """The game's timers from its list, soonest first (ties by id)."""
    records = [
        TimerRecord(
            id=raw["id"],
            game_id=game_id,
            kind=raw["kind"],
            due_at=raw["due_at"],
            payload=raw["payload"],
            created_at=raw["created_at"],
        )
        for raw in json.loads(text)
    ]
    records.sort(key=lambda r: (r.due_at, r.id))
    return records
