"""Counting a SQLite store's database work, for benchmarks: hops to the connection's thread and fsync'd writes.

`count_io(store)` wraps the store's aiosqlite connection (the one place every store operation passes through,
`Database.run` → `Connection._execute`) and returns the `IoCounts` it keeps: how many round trips to the
database thread, by store operation, and how many of them wrote (changed rows, so in WAL mode with
`synchronous=FULL` ended in an fsync of the WAL). Nothing is counted, and nothing costs anything, unless a benchmark
asks for it; production code never calls this. Work done inside `uncounted()` (a benchmark's own reads of the
state, to choose its next move) is left out.
"""

import contextlib
import contextvars
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

_SKIP: contextvars.ContextVar[bool] = contextvars.ContextVar("iocount_skip", default=False)


@dataclass
class IoCounts:
    round_trips: int = 0
    writes: int = 0
    """Writes that waited for the disk (an fsync of the WAL)."""
    unsynced: int = 0
    """Writes committed without waiting for the disk (an operation whose function says `unsynced`)."""
    by_op: Counter[str] = field(default_factory=Counter)
    writes_by_op: Counter[str] = field(default_factory=Counter)

    def snapshot(self) -> "IoCounts":
        return IoCounts(self.round_trips, self.writes, self.unsynced, Counter(self.by_op), Counter(self.writes_by_op))

    def since(self, earlier: "IoCounts") -> "IoCounts":
        return IoCounts(
            self.round_trips - earlier.round_trips,
            self.writes - earlier.writes,
            self.unsynced - earlier.unsynced,
            self.by_op - earlier.by_op,
            self.writes_by_op - earlier.writes_by_op,
        )


def op_name(fn: Callable[..., Any]) -> str:
    """`SQLiteSeats.of_game.<locals>.run` → "seats.of_game" (the part and its method); a module-level helper keeps
    its own name."""
    qualname = getattr(fn, "__qualname__", repr(fn))
    if ".<locals>" in qualname:
        names = qualname.split(".<locals>")[0].split(".")
        if len(names) == 1:
            return names[0]
        return f"{names[-2].removeprefix('SQLite').lower()}.{names[-1]}"
    return qualname.rsplit(".", 1)[-1]


@contextlib.contextmanager
def uncounted() -> Iterator[None]:
    """Leave the store operations of this block (in this task) out of the counts."""
    token = _SKIP.set(True)
    try:
        yield
    finally:
        _SKIP.reset(token)


def count_io(store: Any) -> IoCounts:
    """Start counting the round trips and writes of a `SQLiteStore` (see the module docstring)."""
    conn = store.db.connection
    original = conn._execute
    counts = IoCounts()

    async def counted(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if _SKIP.get():
            return await original(fn, *args, **kwargs)
        name = op_name(fn)
        counts.round_trips += 1
        counts.by_op[name] += 1

        def run(raw: sqlite3.Connection, *rest: Any, **kw: Any) -> Any:
            before = raw.total_changes
            try:
                return fn(raw, *rest, **kw)
            finally:
                wrote = raw.total_changes != before  # runs in the database thread, one operation at a time
                if wrote and getattr(fn, "unsynced", False):
                    counts.unsynced += 1
                elif wrote:
                    counts.writes += 1
                    counts.writes_by_op[name] += 1

        if args and isinstance(args[0], sqlite3.Connection):
            return await original(run, *args, **kwargs)
        return await original(fn, *args, **kwargs)

    conn._execute = counted
    return counts
