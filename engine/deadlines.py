"""One wait at a time with its deadline kept in the state: what Kohle, Kies & Knete and Casablanca share.

Such a game names its current wait (`Current`: a key, who, what kind); its state keeps the key with the wait's
since/until in `state.deadline` (from the `now` of the action that began it: the engine has no clock). `refresh`
runs after every accepted action: a new wait gets its deadline (the shared `reaction_time` for a reaction window,
the table's turn deadline otherwise: `GameOptions.turn_until`, a duration or a daily time), an unchanged one keeps
it. `waiting_on` is the one `Wait` the platform schedules, with the game's `Timeout(key)` as the action applied at
the deadline.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

from pydantic import BaseModel

from engine.events import Wait


@dataclass(frozen=True)
class Current:
    """The wait the game is in now: its key (what a Timeout must name), what it waits for, its kind, who."""

    key: str
    what: str
    kind: str
    seats: tuple[int, ...]


class _Deadline(Protocol):
    key: str
    since: datetime
    until: datetime


class _Timings(Protocol):
    reaction_time: timedelta
    turn_deadline: timedelta

    def turn_until(self, since: datetime) -> datetime: ...


class _State(Protocol):
    deadline: Any
    options: Any


def refresh(state: _State, cur: Current | None, now: datetime, deadline: Callable[..., BaseModel]) -> None:
    """After an accepted action: a new wait gets its deadline (built by `deadline`, the state's own model); an
    unchanged wait keeps it; no wait, no deadline."""
    if cur is None:
        state.deadline = None
        return
    if state.deadline is not None and state.deadline.key == cur.key:
        return
    timings: _Timings = state.options
    until = now + timings.reaction_time if cur.kind == "reaction" else timings.turn_until(now)
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
