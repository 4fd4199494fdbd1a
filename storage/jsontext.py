"""Compact JSON text for the database, encoded fast through a public API (orjson).

`dump_json(value)` is the text `json.dumps(value, separators=(",", ":"), ensure_ascii=False)` gives, for the
JSON-like data the store keeps (dicts with str keys, lists, tuples, str, int, float, bool, None): a commit encodes
about ten such values, and orjson does it about ten times faster than the standard library, whose `json.dumps`
also builds a new encoder on every call. tests/storage/test_jsontext.py checks the text is the same on every
game's real log.

What orjson does not take, the standard library encodes instead, so it is stored as it always was: a dict key that
is not a str (`{1: …}` becomes `{"1": …}`), an int beyond 64 bits. What neither takes as JSON (a datetime, a set,
bytes, a dataclass…) raises TypeError: the store refuses it rather than store something that reads back different.
Where the two differ, on values the bot does not store: orjson writes a small float without an exponent
(`0.00001`, not `1e-05`: the same number when read), NaN and the infinities as null (the standard library writes
`NaN`, which is not JSON), and an `Enum` or `UUID` as its value (the standard library refuses them).
"""

import json
from typing import Any

import orjson

ORJSON_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
"""Hand datetimes and dataclasses to `refuse` (orjson would write them as text, which reads back as a str)."""


def refuse(value: Any) -> Any:
    raise TypeError(f"a {type(value).__name__} cannot be stored as JSON")


_slow = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, default=refuse).encode


def dump_json(value: Any) -> str:
    """Compact JSON text of JSON-like data (dicts, lists, str, int, float, bool, None). Raises TypeError for
    anything else."""
    try:
        return orjson.dumps(value, default=refuse, option=ORJSON_OPTIONS).decode()
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return _slow(value)
