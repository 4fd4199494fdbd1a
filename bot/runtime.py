"""The interpreter's settings for a long-running bot: `python -m bot` (`main`) calls `tune` once, first.

- The cyclic garbage collector scans the young objects every 700 new container objects (lists, dicts, models). A
  move makes thousands (the state's copy, views, posts, records), and the bot keeps every active game's table, so
  most of what a scan finds is still alive and gets scanned again one generation up: with 200 games playing at once
  the collector took about a quarter of the process's time (`benchmarks/action.py`'s closed loop). Scanning after
  50,000 new objects instead scans nearly the same survivors a seventieth as often. Only garbage with reference
  cycles waits longer (reference counting frees everything else at once): a few megabytes at most. `gc.freeze`
  takes what exists then (the modules and what they hold) out of every later scan.
- The GIL's switch interval: the database runs in its own thread (aiosqlite), which needs the GIL between SQLite's
  calls, several times per query; while the event loop's thread computes, it gets it only when that thread is made
  to let go, after the switch interval (5 ms by default). Under load every query then waited milliseconds for the
  interpreter, not for SQLite, and the moves behind it with it: at 200 games 50 µs gave 30 % more moves a second.
  Threads that only compute (a status picture being drawn) switch more often too; each switch costs microseconds.
"""

import gc
import sys

GC_THRESHOLDS = (50_000, 20, 20)
"""Young objects between two young scans; young scans between two middle ones; middle between two full ones
(CPython's defaults: 700, 10, 10)."""
SWITCH_INTERVAL = 50e-6
"""Seconds a thread may hold the GIL while another waits for it (CPython's default: 0.005)."""


def tune() -> None:
    """Freeze what exists now, set `GC_THRESHOLDS` and `SWITCH_INTERVAL`: for the whole process (the tests keep
    CPython's defaults)."""
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    sys.setswitchinterval(SWITCH_INTERVAL)
