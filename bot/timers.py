"""The timers that follow from what a game waits on: deadlines, reminders, and frozen clocks while paused.

Every commit recomputes the game's timers from `game.waiting_on(new_state)`; the engine's `Wait.until` knows
nothing of moderators, so the platform keeps one adjustment per wait, carried in the timer rows themselves:

- a wait is identified by its key: kind + since + the timeout action (e.g. "turn timeout for turn 7"). A wait that
  is still the same wait after an action (a reaction window where one more player passed) keeps its key;
- `shift` is what moderators added to that wait: `/mod extend` adds its hours, a pause adds the time it lasted.
  The effective deadline is `until + shift`. A recomputation after an action carries the shift over to the wait
  with the same key and starts new waits (the next turn) with no shift: an extension is for the turn it was given
  in, and a pause never eats into a later turn;
- while a game is paused its deadlines become `frozen` rows holding the remaining time (due far in the future, so
  the scheduler never fires them); resuming turns each back into a deadline `remaining` from the moment of resuming.

Reminders: for a wait of at least an hour, one halfway to the (effective) deadline; for a wait of more than two
hours also one an hour before it. Reminders already in the past are not re-created, so a recomputation never
repeats one; a short reaction window (under an hour, e.g. a table's `reaction_time:15m`) gets none.

Away on `pause` (`bot.away`): a turn deadline of an away player stands still for their pause intervals (`Clock.away`,
worked out anew by every commit: `away_clocks`), and a reminder that would fall inside a pause is dropped.

Quiet hours (`bot.quiet`, each awaited person's own): a turn deadline that would end inside an awaited player's
quiet hours moves to their end (kept on the deadline's payload as `quiet`, with the seats whose hours moved it:
`Clock.moved`, shown by the status); a reminder that would reach a player inside them waits until they end (each
player's reminder is timed on its own); a player whose wait began inside their quiet hours was named without a
ping (`bot.service.commit`) and gets a `wake` reminder when their quiet hours end (if that is no earlier than the
deadline, the turn's time runs from their end instead: nobody is told of a turn as it passes). Recomputed with
every commit from the quiet hours as they are then, so a recomputation gives the same timers while nobody changes
theirs.
"""

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from bot import away
from bot import quiet as quietness
from bot.awaiting import same_task
from engine.events import Wait
from engine.game import Game
from storage.models import NewTimer, QuietHours, TimerRecord

DEADLINE = "deadline"
REMINDER = "reminder"
FROZEN = "frozen"
KINDS = (DEADLINE, REMINDER, FROZEN)
FAR_FUTURE = datetime(9999, 12, 31, tzinfo=UTC)
HOUR = timedelta(hours=1)


@dataclass
class Clock:
    """The platform's adjustment of one wait."""

    shift: timedelta = timedelta(0)
    remaining: timedelta | None = None
    """Set while the game is paused: the time left when it was paused (plus any extension since)."""
    floor: datetime | None = None
    """Set by `/mod extend`: the deadline is never earlier than this, for this wait and the waits that follow it for
    the same players and kind (e.g. the Boss's time, restarted by every move of a round: `carry_floors`)."""
    away: timedelta = timedelta(0)
    """The time the clock stood still while an awaited player was away on `pause` (`bot.away`), worked out anew
    from the seats by every commit (`away_clocks`)."""
    moved: datetime | None = None
    """Set when an awaited player's quiet hours moved the deadline: to their end (`plan` works it out anew)."""

    def base(self, until: datetime) -> datetime:
        """The deadline without the away players' pauses and quiet hours: the engine's, with the moderators' shift
        and floor."""
        due = until + self.shift
        return max(due, self.floor) if self.floor is not None else due

    def due(self, until: datetime) -> datetime:
        raw = self.raw(until)
        return self.moved if self.moved is not None and self.moved > raw else raw

    def raw(self, until: datetime) -> datetime:
        """The deadline before quiet hours: with the away players' pauses."""
        return self.base(until) + self.away


def timeout_json(game: Game, wait: Wait) -> dict[str, Any]:  # type: ignore[type-arg]
    if isinstance(wait.timeout, dict):
        return wait.timeout
    return game.dump_action(wait.timeout)


def wait_key(game: Game, wait: Wait) -> str:  # type: ignore[type-arg]
    found = _KEYS.get(id(wait))
    if found is not None and found[0] is wait:
        return found[1]
    raw = json.dumps([wait.kind, wait.since.isoformat(), timeout_json(game, wait)], sort_keys=True)
    key = hashlib.sha256(raw.encode()).hexdigest()[:20]
    _KEYS[id(wait)] = (wait, key)
    if len(_KEYS) > KEYS_KEPT:
        del _KEYS[next(iter(_KEYS))]
    return key


KEYS_KEPT = 4096
_KEYS: dict[int, tuple[Wait, str]] = {}
"""The keys of the waits seen last, by object (a wait is frozen, and a commit asks for the key of each of its waits
five times: the clocks carried over, the timers, the seat players, the deadlines shown and those handed on). The
entry holds the wait itself, so its id cannot be reused while the entry lasts."""


def clocks_from(timers: Sequence[NewTimer]) -> dict[str, Clock]:
    """Each wait's clock, from the game's timers (as stored, or as just planned: their payloads are the same)."""
    clocks: dict[str, Clock] = {}
    for t in timers:
        if t.kind not in (DEADLINE, FROZEN) or "wait" not in t.payload:
            continue
        remaining = t.payload.get("remaining")
        floor = t.payload.get("floor")
        moved = t.payload.get("quiet")
        clocks[t.payload["wait"]] = Clock(
            shift=timedelta(seconds=float(t.payload.get("shift", 0))),
            remaining=timedelta(seconds=float(remaining)) if remaining is not None else None,
            floor=datetime.fromisoformat(floor) if floor else None,
            away=timedelta(seconds=float(t.payload.get("away", 0))),
            moved=datetime.fromisoformat(moved) if moved else None,
        )
    return clocks


def interruptions(before: list[Wait], after: list[Wait], timers: list[TimerRecord]) -> list[list[Any]]:
    """The turns a reaction window interrupts, kept on the window's timers while it (or the next window) is open:
    [kind, what, seats, about] of each turn wait that was there before and is gone now, plus those already kept. None
    once no reaction wait is left (the turn has resumed, or moved on)."""
    if not any(w.kind == "reaction" for w in after):
        return []
    kept = [[kind, what, list(seats), about] for kind, what, seats, about in _interrupted(timers)]
    for w in before:
        if w.kind == "turn" and not any(same_task(a, w) and a.seats == w.seats for a in after):
            kept.append([w.kind, w.what, list(w.seats), dict(w.about)])
    out: list[list[Any]] = []
    for x in kept:
        if x not in out:
            out.append(x)
    return out


def _interrupted(timers: list[TimerRecord]) -> list[tuple[str, str, tuple[int, ...], dict[str, Any]]]:
    """The interrupted turns kept on the deadlines' payloads (`interruptions`), in order (older payloads: no
    `about`)."""
    return [
        (str(x[0]), str(x[1]), tuple(int(s) for s in x[2]), dict(x[3]) if len(x) > 3 else {})
        for t in timers
        if t.kind == DEADLINE
        for x in t.payload.get("interrupted", [])
    ]


def carry_floors(
    game: Game,  # type: ignore[type-arg]
    waits: list[Wait],
    clocks: dict[str, Clock],
    timers: list[TimerRecord],
) -> dict[str, Clock]:
    """Clocks with each extension's floor carried over to a new wait for the same players and of the same kind (a
    moderator's `/mod extend` is never shortened by the next move of the same turn); a wait for other players (the
    next turn) starts without one."""
    floors: dict[tuple[str, tuple[int, ...]], datetime] = {}
    for t in timers:
        floor = t.payload.get("floor") if t.kind == DEADLINE else None
        if floor:
            floors[(str(t.payload.get("wait_kind")), tuple(t.payload.get("seats", ())))] = datetime.fromisoformat(floor)
    if not floors:
        return clocks
    out = dict(clocks)
    for wait in waits:
        key = wait_key(game, wait)
        floor = floors.get((wait.kind, tuple(wait.seats)))
        clock = out.get(key, Clock())
        if floor is not None and clock.floor is None and floor > wait.until + clock.shift:
            out[key] = Clock(shift=clock.shift, remaining=clock.remaining, floor=floor)
    return out


def moved_by_quiet(game: Game, waits: list[Wait], timers: Sequence[NewTimer]) -> dict[int, list[int]]:  # type: ignore[type-arg]
    """The waits (by index) whose deadline an awaited player's quiet hours moved, with those players' seats."""
    by_key = {
        t.payload["wait"]: [int(s) for s in t.payload.get("quiet_seats", [])]
        for t in timers
        if t.kind == DEADLINE and "wait" in t.payload and t.payload.get("quiet")
    }
    if not by_key:
        return {}
    return {i: by_key[key] for i, w in enumerate(waits) if (key := wait_key(game, w)) in by_key}


def effective_deadlines(game: Game, waits: list[Wait], clocks: dict[str, Clock]) -> dict[int, datetime]:  # type: ignore[type-arg]
    out: dict[int, datetime] = {}
    for i, wait in enumerate(waits):
        clock = clocks.get(wait_key(game, wait))
        out[i] = clock.due(wait.until) if clock else wait.until
    return out


def plan(
    game: Game,  # type: ignore[type-arg]
    waits: list[Wait],
    clocks: dict[str, Clock],
    now: datetime,
    *,
    paused: bool,
    reminders: bool = True,
    interrupted: list[list[Any]] | None = None,
    pauses: Mapping[int, Sequence[away.Interval]] | None = None,
    quiet: Mapping[int, QuietHours] | None = None,
) -> list[NewTimer]:
    """The full set of timers for these waits (a commit replaces the game's timers by them). `interrupted`: the turns
    a reaction window interrupts, kept on the reaction waits' deadlines (`interruptions`). `pauses`: the away
    players' pause intervals by seat (`bot.away`): the clocks' `away` comes from them (`away_clocks`), and a
    reminder that would fall inside one is dropped. `quiet`: the awaited players' quiet hours, by seat
    (`bot.quiet.of_seats`)."""
    quiet = quiet or {}
    timers: list[NewTimer] = []
    for wait in waits:
        key = wait_key(game, wait)
        clock = clocks.get(key, Clock())
        common: dict[str, Any] = {"wait": key, "shift": clock.shift.total_seconds(), "seats": list(wait.seats)}
        common |= {"what": wait.what, "about": dict(wait.about), "wait_kind": wait.kind}
        if clock.floor is not None:
            common["floor"] = clock.floor.isoformat()
        if clock.away:
            common["away"] = clock.away.total_seconds()
        if interrupted and wait.kind == "reaction":
            common["interrupted"] = interrupted
        if paused:
            remaining = clock.remaining
            if remaining is None:
                remaining = max(clock.due(wait.until) - now, timedelta(0))
            payload = {**common, "remaining": remaining.total_seconds(), "action": timeout_json(game, wait)}
            timers.append(NewTimer(kind=FROZEN, due_at=FAR_FUTURE, payload=payload))
            continue
        due = clock.raw(wait.until)
        deadline = {**common, "action": timeout_json(game, wait)}
        if wait.kind != "reaction":  # a window is the same for everyone it asks (see `bot.quiet`)
            raw = due
            due, moved_by = quietness.after(quiet, wait.seats, due)
            # A player whose turn began inside their quiet hours hears of it when they end (`wake`): if that is no
            # earlier than the deadline, they would be told at the very moment it passes — their turn's time runs
            # from then instead.
            woken = [e for s in wait.seats if (e := _quiet_end(quiet.get(s), wait.since)) is not None]
            if woken and max(woken) >= due:
                due, moved_by = quietness.after(quiet, wait.seats, max(woken) + (raw - wait.since))
                deadline |= {"quiet": due.isoformat(), "quiet_seats": moved_by}
            if moved_by:
                deadline |= {"quiet": due.isoformat(), "quiet_seats": moved_by}
        timers.append(NewTimer(kind=DEADLINE, due_at=due, payload=deadline))
        if not reminders:
            continue
        span = due - wait.since
        marks: list[tuple[str, datetime]] = []
        if span >= HOUR:
            marks.append(("half", wait.since + span / 2))
        if span > 2 * HOUR:
            marks.append(("hour", due - HOUR))
        # Named without a ping while in their quiet hours (`bot.service.commit`): pinged when they end.
        if any(quietness.inside(quiet.get(s), wait.since) for s in wait.seats):
            marks.insert(0, ("wake", wait.since))
        still = away.wait_pauses(wait.seats, pauses or {}) if wait.kind != "reaction" else []
        timers += _reminders(common, wait, marks, due, now, quiet, still)
    return timers


def _quiet_end(hours: QuietHours | None, when: datetime) -> datetime | None:
    return quietness.period_end(hours, when) if hours is not None else None


def _reminders(
    common: dict[str, Any],
    wait: Wait,
    marks: list[tuple[str, datetime]],
    due: datetime,
    now: datetime,
    quiet: Mapping[int, QuietHours],
    still: Sequence[away.Interval],
) -> list[NewTimer]:
    """The wait's reminders at `marks`, each awaited player's after their quiet hours: one timer per moment, for the
    seats reminded then. A reminder that quiet hours would push to the deadline or past it is dropped, and so is one
    inside an away player's pause (`still`); a `wake` one is only for those whose quiet hours it falls in. Two
    reminders that quiet hours push to the same moment are one."""
    out: list[NewTimer] = []
    seen: set[tuple[int, datetime]] = set()
    for which, at in marks:
        when: dict[datetime, list[int]] = {}
        for s in wait.seats:
            moved, by = quietness.after(quiet, [s], at)
            if (which == "wake" and not by) or (s, moved) in seen:
                continue
            seen.add((s, moved))
            if now < moved < due and not away.inside(moved, still):
                when.setdefault(moved, []).append(s)
        for moment, seats in sorted(when.items()):
            payload = {**common, "seats": seats, "which": which, "deadline": due.isoformat(), "kind": wait.kind}
            out.append(NewTimer(kind=REMINDER, due_at=moment, payload=payload))
    return out


def away_clocks(
    game: Game,  # type: ignore[type-arg]
    waits: list[Wait],
    clocks: dict[str, Clock],
    pauses: Mapping[int, Sequence[away.Interval]],
    off_weekend: Callable[[datetime], datetime] | None = None,
) -> dict[str, Clock]:
    """Clocks with each turn wait's `away` worked out anew: the time its clock stands still in the pauses of the
    players it waits for (`bot.away.stretched`). A reaction window never stands still: it passes for them.
    `off_weekend`: a table with weekends off moves a stretched deadline that lands on one to the Monday after."""
    out = dict(clocks)
    for wait in waits:
        key = wait_key(game, wait)
        clock = out.get(key, Clock())
        still = away.wait_pauses(wait.seats, pauses) if wait.kind != "reaction" else []
        extra = timedelta(0)
        if still:
            base = clock.base(wait.until)
            stretched = away.stretched(wait.since, base, still)
            extra = (off_weekend(stretched) if off_weekend is not None else stretched) - base
        if extra != clock.away:
            out[key] = Clock(shift=clock.shift, remaining=clock.remaining, floor=clock.floor, away=extra)
    return out


def resumed(game: Game, waits: list[Wait], clocks: dict[str, Clock], now: datetime) -> dict[str, Clock]:  # type: ignore[type-arg]
    """Clocks after a resume: each frozen wait gets its remaining time from `now`."""
    out: dict[str, Clock] = {}
    for wait in waits:
        key = wait_key(game, wait)
        clock = clocks.get(key, Clock())
        remaining = clock.remaining if clock.remaining is not None else max(wait.until - now, timedelta(0))
        # A frozen clock's remaining time holds the away players' stood-still time (`away_clocks`), which the commit
        # works out anew from their pauses: kept apart from the shift, so it is not counted a second time.
        away_part = clock.away if clock.remaining is not None else timedelta(0)
        out[key] = Clock(shift=(now + remaining) - wait.until - away_part, away=away_part)
    return out


def extended(
    game: Game,  # type: ignore[type-arg]
    waits: list[Wait],
    clocks: dict[str, Clock],
    by: timedelta,
    *,
    paused: bool,
    now: datetime,
) -> dict[str, Clock]:
    """Clocks after `/mod extend`: every current wait gets `by` more (on its remaining time if paused)."""
    out: dict[str, Clock] = {}
    for wait in waits:
        key = wait_key(game, wait)
        clock = clocks.get(key, Clock())
        if paused:
            remaining = clock.remaining if clock.remaining is not None else max(wait.until + clock.shift - now, by * 0)
            out[key] = Clock(shift=clock.shift, remaining=remaining + by)
        else:
            due = clock.base(wait.until) + by  # the away players' pauses are added anew by the commit
            out[key] = Clock(shift=due - wait.until, floor=due)
    return out
