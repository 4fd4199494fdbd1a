"""`dump_json` (storage/jsontext.py): orjson's text is the standard library's for what the store keeps, so rows
written before and after the switch are alike; what is not JSON is still refused."""

import dataclasses
import json
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest

import storage.jsontext
from benchmarks.logsamples import samples
from storage.jsontext import dump_json


def stdlib(value: Any) -> str:
    """What the store wrote before orjson (and what `dump_json` promises)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@pytest.mark.parametrize("name", ["kkk", "kesse_ruegen", "casablanca", "schwarzmarkt"])
def test_every_games_real_actions_and_events_give_the_same_text(name: str) -> None:
    values = [
        json.loads(text) for action, events in samples(name, 1, seed=3)[:300] for text in (action, events) if text
    ]
    assert len(values) > 100
    assert [dump_json(v) for v in values] == [stdlib(v) for v in values]


@pytest.mark.parametrize(
    "value",
    [
        {"text": "Zoë’s turn 😀 — «Shake!»", "seats": (1, (2, 3)), "n": -(2**63), "big": 2**63 - 1},
        'quote " backslash \\ newline \n tab \t nul \x00 unit \x1f del \x7f separators \u2028\u2029',
        {"pi": 3.14159, "half": 0.5, "neg": -0.0, "huge": 1e300, "e16": 1e16, "none": None, "yes": True, "no": False},
        {1: "a", "2": [True, None]},  # int keys: orjson refuses them, the standard library writes "1"
        {True: 1, None: 2},
        2**64,  # beyond orjson's 64 bits
        [[[[[]]]]],
        {},
        "",
    ],
)
def test_edge_values_give_the_standard_librarys_text(value: Any) -> None:
    assert dump_json(value) == stdlib(value)


@dataclasses.dataclass
class Point:
    x: int


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        (datetime(2025, 1, 1, tzinfo=UTC), "datetime"),
        ({"when": date(2025, 1, 1)}, "date"),
        ({"seats": {1, 2}}, "set"),
        ([b"raw"], "bytes"),
        (Point(1), "Point"),
        (object(), "object"),
    ],
)
def test_what_is_not_json_is_refused_by_name(value: Any, kind: str) -> None:
    with pytest.raises(TypeError, match=f"a {kind} cannot be stored as JSON"):
        dump_json(value)


def test_only_public_json_apis_are_used() -> None:
    source = Path(storage.jsontext.__file__).read_text(encoding="utf-8")
    assert "c_make_encoder" not in source and "json.encoder" not in source
