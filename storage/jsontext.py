"""Compact JSON text for the database, encoded once and fast.

`dump_json` gives the same text as `json.dumps(value, separators=(",", ":"), ensure_ascii=False)`, using the C
encoder directly: `json.dumps` builds a new encoder on every call, which costs more than encoding the small values
a commit stores (a commit encodes about ten of them).
"""

import json
from collections.abc import Callable
from json import encoder as _encoder
from typing import Any


def _refuse(value: Any) -> Any:
    raise TypeError(f"a {type(value).__name__} cannot be stored as JSON")


def _make() -> Callable[[Any], str]:
    c_make = getattr(_encoder, "c_make_encoder", None)
    if c_make is None:  # not CPython: the portable way
        return json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, default=_refuse).encode
    # markers=None: no circular-reference check; stored values come from pydantic models and never loop.
    chunks = c_make(None, _refuse, _encoder.encode_basestring, None, ":", ",", False, False, True)

    def encode(value: Any) -> str:
        return "".join(chunks(value, 0))

    return encode


dump_json: Callable[[Any], str] = _make()
"""Compact JSON text of JSON-like data (dicts, lists, str, int, float, bool, None)."""
