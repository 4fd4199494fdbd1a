"""Building the `New…` records a commit writes: JSON given as plain data or as models (at any depth) is stored as
the same text, timestamps are kept in UTC, and what is not JSON is refused when the record is built; and how the
SQLite backend lays them out as row values (`storage.sqlite.rows`)."""

import json
from datetime import UTC, datetime, timedelta, timezone

import pytest
from pydantic import BaseModel, ValidationError

from engine.events import private, public
from storage import NewLogEntry, NewOutbox, NewTimer, OutboxRecord, TimerRecord, logcodec
from storage.sqlite.rows import log_columns, outbox_columns, timer_columns

PARIS = timezone(timedelta(hours=1))


class Box(BaseModel):
    seats: tuple[int, ...]
    label: str


def test_events_given_as_models_or_as_their_json_are_stored_alike() -> None:
    events = [public("turn", "{seat:1}'s turn", seat=1), private(2, "hand", "Your hand.", cards=["a", "b"])]
    at = datetime(2025, 1, 1, 12, tzinfo=PARIS)
    from_models = NewLogEntry.for_action(1, Box(seats=(1, 2), label="x"), at, events)
    from_json = NewLogEntry.for_action(
        1, {"seats": [1, 2], "label": "x"}, at, [e.model_dump(mode="json") for e in events]
    )
    assert log_columns(from_models) == log_columns(from_json)
    assert from_models.events == from_json.events and from_models.action == from_json.action
    assert from_models.at == datetime(2025, 1, 1, 11, tzinfo=UTC) and from_models.at.tzinfo is UTC
    assert log_columns(from_models)[2] == "2025-01-01T11:00:00.000000+00:00"


def test_a_model_nested_in_plain_data_is_dumped_and_the_record_holds_its_json() -> None:
    item = NewOutbox(kind="post", target={"to": "thread"}, payload={"box": Box(seats=(3,), label="b"), "n": [1]})
    assert json.loads(item.json_text("payload") or "") == {"box": {"seats": [3], "label": "b"}, "n": [1]}
    assert item.payload == {"box": {"seats": [3], "label": "b"}, "n": [1]}  # as it will read back
    timer = NewTimer(kind="deadline", due_at=datetime(2025, 1, 2, tzinfo=UTC), payload={"w": [Box(seats=(), label="")]})
    assert json.loads(timer_columns(timer)[2]) == {"w": [{"seats": [], "label": ""}]}


def test_plain_data_is_kept_as_given_and_tuples_are_stored_as_lists() -> None:
    payload = {"seats": (1, 2), "text": "hi"}
    item = NewOutbox(kind="dm", target={"seat": 1}, payload=payload)
    assert outbox_columns(item) == ("dm", '{"seat":1}', '{"seats":[1,2],"text":"hi"}')


def test_what_is_not_json_is_refused_when_built() -> None:
    with pytest.raises(TypeError, match="datetime"):
        NewOutbox(kind="post", payload={"when": datetime(2025, 1, 1, tzinfo=UTC)})
    with pytest.raises(TypeError, match="set"):
        NewLogEntry.for_note("x", datetime(2025, 1, 1, tzinfo=UTC), events=[{"seats": {1, 2}}])
    with pytest.raises(ValueError, match="timezone"):
        NewTimer(kind="deadline", due_at=datetime(2025, 1, 1))


def test_json_fields_are_checked_as_json_objects_when_built() -> None:
    at = datetime(2025, 1, 1, tzinfo=UTC)
    with pytest.raises(ValidationError, match="JSON object"):
        NewOutbox(kind="post", payload=["not", "an", "object"])  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match="keys are str"):
        NewTimer(kind="deadline", due_at=at, payload={1: "one"})  # type: ignore[dict-item]
    with pytest.raises(ValidationError, match="list of JSON objects"):
        NewLogEntry.for_note("x", at, events={"kind": "turn"})  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match="JSON object"):
        NewLogEntry.for_action(0, "roll", at)
    assert NewLogEntry(kind="note", at=at, events=None).events == []  # type: ignore[arg-type]
    entry = NewLogEntry.for_action(0, {"type": "roll"}, at, ({"kind": "turn"},))  # type: ignore[arg-type]
    assert entry.events == [{"kind": "turn"}] and entry.json_text("events") == '[{"kind":"turn"}]'


def test_records_read_back_encode_their_json_when_asked_and_equal_what_was_built() -> None:
    at = datetime(2025, 1, 1, tzinfo=UTC)
    built = NewTimer(kind="deadline", due_at=at, payload={"seats": [1]})
    read = TimerRecord(id=1, game_id=1, created_at=at, kind="deadline", due_at=at, payload={"seats": [1]})
    assert read.__pydantic_private__ == {"_texts": None}  # nothing encoded until it is needed
    assert timer_columns(read) == timer_columns(built) == ('"deadline"', "2025-01-01T00:00:00.000000+00:00",
                                                           '{"seats":[1]}')  # fmt: skip
    assert OutboxRecord.model_construct(id=1, game_id=None, kind="post", created_at=at).json_text("target") == "{}"


def test_the_sqlite_events_column_is_the_codecs_form_of_the_json() -> None:
    events = [public("turn", f"{{seat:{i}}}'s turn: roll, then move your piece.", seat=i) for i in range(4)]
    entry = NewLogEntry.for_action(0, {"type": "roll"}, datetime(2025, 1, 1, tzinfo=UTC), events)
    stored = log_columns(entry)[1]
    assert isinstance(stored, bytes)
    assert json.loads(logcodec.decode(stored)) == [e.model_dump(mode="json") for e in events]


def test_a_copy_is_encoded_again_only_when_a_json_field_changes() -> None:
    events = [public("turn", f"{{seat:{i}}}'s turn: roll, then move your piece.", seat=i) for i in range(4)]
    entry = NewLogEntry.for_action(0, {"type": "roll"}, datetime(2025, 1, 1, tzinfo=UTC), events)
    noted = entry.model_copy(update={"note": "reaction: 🤝"})
    text = entry.json_text("events")
    assert noted.note == "reaction: 🤝" and noted.json_text("events") is text  # the events not encoded again
    later = entry.model_copy(update={"at": datetime(2025, 1, 2, tzinfo=UTC), "events": events[:1]})
    assert log_columns(later)[2] == "2025-01-02T00:00:00.000000+00:00"
    assert json.loads(logcodec.decode(log_columns(later)[1])) == [events[0].model_dump(mode="json")]
    assert entry.json_text("events") is text  # the original keeps its own
    item = NewOutbox(kind="dm", target={"seat": 1}, payload={"text": "hi"})
    guarded = item.model_copy(update={"payload": {**item.payload, "guard": 3}})
    assert outbox_columns(guarded) == ("dm", '{"seat":1}', '{"text":"hi","guard":3}')
    assert outbox_columns(item) == ("dm", '{"seat":1}', '{"text":"hi"}')
