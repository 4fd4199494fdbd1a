"""The process's garbage collector, set for a long-running bot: `python -m bot` (`main`) calls `tune_gc` first.

CPython's cyclic collector scans the young objects every 700 new container objects (lists, dicts, models). A move
makes thousands (the state's copy, views, posts, records), and the bot keeps every active game's table, so most of
what a scan finds is still alive and gets scanned again one generation up: with 200 games playing at once the
collector took about a quarter of the process's time (`benchmarks/action.py`'s closed loop). Scanning after 50,000
new objects instead scans nearly the same survivors a seventieth as often. Only garbage with reference cycles waits
longer for its collection (reference counting frees everything else at once); that is a few megabytes at most.
`gc.freeze` takes what exists then (the modules and what they hold) out of every later scan.
"""

import gc

GC_THRESHOLDS = (50_000, 20, 20)
"""Young objects between two young scans; young scans between two middle ones; middle between two full ones
(CPython's defaults: 700, 10, 10)."""


def tune_gc() -> None:
    """Freeze what exists now and set `GC_THRESHOLDS`, for the whole process (the tests keep CPython's defaults)."""
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
