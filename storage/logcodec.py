"""How the action log's events are stored: compact JSON text, deflated with a preset dictionary when that is shorter.

The events of a move are the log's bulk (~1 KB of JSON a move, most of it the same keys and sentences again and
again) and the log is kept for ever, so the SQLite backend stores a log entry's events column through `encode`
(`storage.sqlite.rows`):

- a value shorter than `MIN_LENGTH` characters, or one that would not shrink, stays JSON text (a TEXT value);
- otherwise it is a BLOB: one version byte, then raw deflate data (RFC 1951, no zlib header or checksum: the
  version byte says how to read it, and a damaged value fails to inflate or to parse as JSON). Version 1 is deflate
  level 6 with the preset dictionary `storage/logdict-1.zdict` (events of every game, built by
  benchmarks/logsamples.py), which shrinks a Kohle, Kies & Knete game's events about 6× where plain deflate gets 1.7×.
  It is read with a 32 KB window; it is written with 16 KB (`_ENCODE_WBITS`), which reads the same.

The SQL type of the value is the marker: TEXT is JSON as written before this codec existed (or a short value), a
BLOB is compressed; SQLite keeps a BLOB as it is in a TEXT column, so old databases need no migration and old rows
are read as they are. `decode` reads both. A released version is never changed: a new dictionary or method gets a
new version byte (and a new file), and `decode` keeps reading the old ones. The dictionary file is checked against
its SHA-256 when this module is imported, so an edited dictionary stops the bot instead of misreading old rows.

Only the events are compressed. The action (~50 B) stays text, readable with the sqlite3 shell and `json_extract`.
Compressing costs ~10 µs a move (a copy of a deflate stream primed with the dictionary, not a new one: priming
costs more than compressing); inflating ~4 µs an entry.
"""

import hashlib
import json
import zlib
from importlib import resources
from typing import Any

from storage.errors import StorageError

MIN_LENGTH = 64
"""Shorter events text (e.g. "[]", one short event) is stored as text: deflate would save a few bytes at best."""

_V1 = 1
_V1_FILE = "logdict-1.zdict"
_V1_SHA256 = "f57f91e804ad04ae9c7e5e47df512f75a09971615364483a9c198cc1cc0157f8"
_WBITS = -15  # raw deflate, 32 KB window: reads any version 1 value, whatever window it was written with
_ENCODE_WBITS = -14
"""Values are written with a 16 KB window: deflate then reaches the dictionary's last 16 KB only, which costs 0-6 %
in size on the four games' events (a KKK move's: 52 B, was 49 B; Casablanca's the same), but each move copies half
the primed state (the window and its chain table): compressing a move's events takes a fifth less time.
The stream is the same format either way (raw deflate, every distance within the dictionary and the value):
values written with the full window (before this was chosen) and with this one read alike with `_WBITS`."""
_MEM_LEVEL = 5  # events are short: a smaller hash table compresses them as well and is cheaper to copy


def _dictionary(name: str, sha256: str) -> bytes:
    data = resources.files("storage").joinpath(name).read_bytes()
    if hashlib.sha256(data).hexdigest() != sha256:
        raise StorageError(f"storage/{name} is not the released dictionary: the log's old entries could not be read")
    return data


_DICTS: dict[int, bytes] = {_V1: _dictionary(_V1_FILE, _V1_SHA256)}
_PRIMED = zlib.compressobj(6, zlib.DEFLATED, _ENCODE_WBITS, _MEM_LEVEL, zlib.Z_DEFAULT_STRATEGY, _DICTS[_V1])
_PREFIX = bytes([_V1])


def encode(text: str) -> str | bytes:
    """The stored form of JSON `text`: itself, or version 1's BLOB when that is shorter."""
    if len(text) < MIN_LENGTH:
        return text
    raw = text.encode()
    deflate = _PRIMED.copy()
    packed = _PREFIX + deflate.compress(raw) + deflate.flush()
    return packed if len(packed) < len(raw) else text


def decode(value: str | bytes) -> str:
    """The JSON text of a stored value (text as it is, a BLOB inflated)."""
    return value if isinstance(value, str) else _inflate(value).decode()


def loads(value: str | bytes) -> Any:
    """The JSON data of a stored value."""
    return json.loads(value if isinstance(value, str) else _inflate(value))


def _inflate(blob: bytes) -> bytes:
    zdict = _DICTS.get(blob[0]) if blob else None
    if zdict is None:
        version = blob[0] if blob else "none"
        raise StorageError(f"a log value has compression version {version}, unknown here (a newer Boardroom's?)")
    try:
        inflate = zlib.decompressobj(_WBITS, zdict)
        data = inflate.decompress(blob[1:]) + inflate.flush()
    except zlib.error as exc:
        raise StorageError(f"a compressed log value is damaged ({exc})") from None
    if not inflate.eof:
        raise StorageError("a compressed log value is damaged (it ends early)")
    return data
