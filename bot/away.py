"""Away for days: what `/game away` does to a player's turns, as pure functions of the seats and the waits.

A table's `away` option (`engine.options.GameOptions.away`) decides, for each game of a player who says they are
away until a time:

- `pause` (the default): the clocks of the turns that wait on them stand still. Each absence records an interval on
  the seat (`SeatRecord.away_pauses`), from when they said it to when they return — at most what is left of the
  seat's budget in this game (the bot's `AWAY_MAX_DAYS`, 7 days by default, counted over all their absences in the
  game, so no one holds a table hostage by saying it again). A turn wait whose seats include a paused player has
  its deadline worked out with those intervals left out (`stretched`): its clock runs before and after them. The
  intervals stay on the seat after the return (`/game back` cuts the current one short), so the deadlines worked out
  from them never jump back; a turn that starts after them runs as usual. Reminders that would fall inside a pause
  are dropped: nobody is reminded of a clock that stands still.
- `autopilot`: the autopilot plays safe moves for them (the seat's `autopilot` flag, with `away_mode` saying why)
  until they return: `/game back`, or the time they gave (an `away_end` timer, planned with every commit from the
  seats, switches it off).

Either way reaction windows pass for them at once (`bot.service.moves.MovePath.auto_pass`), as they did before, and
a deadline that passes while they are away never counts toward the automatic autopilot
(`bot.service.autopilot.SeatPlayers.missed_deadline`).

Why `pause` is the default: a player's decisions are theirs, and an autopilot's safe moves can decide a close game
for someone else's benefit; a table that prefers pace chooses `autopilot` when it opens (`/game new away:`). The
budget keeps a pause from costing the others more than a week per player and game.
"""

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from bot import handover
from bot.i18n.platform import _
from bot.names import shown
from storage.models import NewSeat

if TYPE_CHECKING:
    from bot.presentation import Post
    from bot.table import Table

AWAY_END = "away_end"
"""The timer kind that ends an absence on autopilot at the time the player gave."""
Interval = tuple[datetime, datetime]


def merged(intervals: Iterable[Interval]) -> list[Interval]:
    """The intervals sorted, overlapping ones joined (several awaited players away at once)."""
    out: list[Interval] = []
    for start, end in sorted(i for i in intervals if i[1] > i[0]):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def stretched(since: datetime, due: datetime, intervals: Sequence[Interval]) -> datetime:
    """The deadline of a clock that starts at `since` and would end at `due`, when it stands still in `intervals`
    (merged): the same running time, the pauses left out."""
    t, left = since, due - since
    for start, end in intervals:
        if end <= t:
            continue
        if start > t:
            if t + left <= start:
                return t + left
            left -= start - t
        t = max(t, end)
    return t + left


def spent(pauses: Sequence[Interval], now: datetime) -> timedelta:
    """The pause budget a seat has used in its game up to `now`."""
    return sum((min(end, now) - start for start, end in pauses if start < now), timedelta(0))


def new_pause(pauses: Sequence[Interval], now: datetime, until: datetime, budget: timedelta) -> Interval | None:
    """The interval an absence from `now` to `until` pauses, within what is left of the seat's budget (None: none)."""
    left = budget - spent(pauses, now)
    if left <= timedelta(0):
        return None
    return (now, min(until, now + left))


def cut(pauses: Sequence[Interval], now: datetime) -> list[Interval]:
    """The pauses when the player returns at `now`: the current one ends now, later ones never happen."""
    return [(start, min(end, now)) for start, end in pauses if start < now]


def paused_seats(seats: Sequence[NewSeat]) -> dict[int, list[Interval]]:
    """Each seat's pause intervals (only seats that have any)."""
    return {s.seat: list(s.away_pauses) for s in seats if s.away_pauses}


def wait_pauses(seats: Iterable[int], pauses: Mapping[int, Sequence[Interval]]) -> list[Interval]:
    """The intervals a turn wait for `seats` stands still in: any awaited player's pause."""
    return merged(i for s in seats for i in pauses.get(s, ()))


def inside(at: datetime, intervals: Sequence[Interval]) -> bool:
    return any(start <= at < end for start, end in intervals)


def away_now(seat: NewSeat, now: datetime) -> bool:
    return seat.away_until is not None and seat.away_until > now


def ends(seats: Sequence[NewSeat], now: datetime) -> list[tuple[int, datetime]]:
    """The seats away on autopilot, each with when their absence ends (for the `away_end` timers)."""
    return [
        (s.seat, s.away_until)
        for s in seats
        if s.away_mode == "autopilot" and s.away_until is not None and s.away_until > now
    ]


def status_lines(seats: Sequence[NewSeat], now: datetime) -> list[str]:
    """The status's line for each player away now: "💤 name away until <t:…:f>" (and how the table plays on)."""
    lines = []
    for s in seats:
        if away_now(s, now) and s.away_until is not None and s.display_name:
            values = {"name": shown(s.display_name), "until": f"<t:{int(s.away_until.timestamp())}:f>"}
            if s.away_mode == "autopilot":
                lines.append(_("💤 **%(name)s** away until %(until)s (the autopilot plays for them)", **values))
            else:
                lines.append(_("💤 **%(name)s** away until %(until)s", **values))
    return lines


def add_status_lines(post: "Post", table: "Table") -> None:
    """The platform's part of a running game's status, the same for every game: the away players' lines
    (`status_lines`), and each pending handover's line and buttons (`bot.handover`)."""
    if table.state is None or table.record.status not in ("active", "paused"):
        return
    lines = status_lines(table.seats, table.now) + handover.status_lines(table.seats)
    post.buttons = [*post.buttons, *handover.buttons(table.seats)]
    if lines:
        post.description = "\n".join([post.description or "", *lines]).strip()
