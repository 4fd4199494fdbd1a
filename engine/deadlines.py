"""One wait at a time with its deadline kept in the state: what Kohle, Kies & Knete and Casablanca share.

Such a game names its current wait (`Current`: a key, who, what kind); its state keeps the key with the wait's
since/until in `state.deadline` (from the `now` of the action that began it: the engine has no clock). `refresh`
runs after every accepted action: a new wait gets its deadline (for a reaction window the length of its kind — the
game's `WINDOWS` default, or the table's `reaction_time` if set: `GameOptions.window_length`; for a turn the table's
turn deadline: `GameOptions.turn_until`, a duration or a daily time), an unchanged one keeps it. The length depends on
the kind of wait and the options only, never on what anyone holds. `waiting_on` is the one `Wait` the platform
schedules, with the game's `Timeout(key)` as the action applied at the deadline.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

from pydantic import BaseModel

from engine.events import Wait


@dataclass(frozen=True)
class Current:
    """The wait the game is in now: its key (what a Timeout must name), what it waits for, its kind, who; a reaction
    window also names its kind of window (`window`, a key of the game's `WINDOWS`)."""

    key: str
    what: str
    kind: str
    seats: tuple[int, ...]
    window: str | None = None


class _Deadline(Protocol):
    key: str
    since: datetime
    until: datetime


class _Timings(Protocol):
    turn_deadline: timedelta

    def window_length(self, default: timedelta) -> timedelta: ...
    def turn_until(self, since: datetime) -> datetime: ...


class _State(Protocol):
    deadline: Any
    options: Any


def refresh(
    state: _State,
    cur: Current | None,
    now: datetime,
    deadline: Callable[..., BaseModel],
    windows: Mapping[str, timedelta],
) -> None:
    """After an accepted action: a new wait gets its deadline (built by `deadline`, the state's own model; a reaction
    window's length from `windows`, the game's default per kind of window, unless the table set `reaction_time`); an
    unchanged wait keeps it; no wait, no deadline."""
    if cur is None:
        state.deadline = None
        return
    if state.deadline is not None and state.deadline.key == cur.key:
        return
    timings: _Timings = state.options
    if cur.kind == "reaction":
        assert cur.window is not None, f"the reaction window {cur.key} names no kind of window"
        until = now + timings.window_length(windows[cur.window])
    else:
        until = timings.turn_until(now)
    state.deadline = deadline(key=cur.key, since=now, until=until)


def waiting_on(cur: Current | None, deadline: _Deadline | None, timeout: Callable[..., BaseModel]) -> list[Wait]:
    """The current wait with its deadline, and `timeout(key=…)` (the game's Timeout action) to apply at it."""
    if cur is None or deadline is None:
        return []
    return [
        Wait(
            seats=cur.seats,
            what=cur.what,
            kind=cur.kind,  # type: ignore[arg-type]
            since=deadline.since,
            until=deadline.until,
            timeout=timeout(key=deadline.key),
        )
    ]
