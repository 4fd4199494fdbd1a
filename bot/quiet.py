"""Quiet hours per person (`/me quiet`): when they are, and what moves because of them.

A person's quiet hours are theirs in every server (`store.settings`, migration 0008): from `start` to `end` on their
own clock, across midnight when `end` is earlier (23:00–08:00), in their IANA time zone (daylight saving included:
local times through `engine.daily.local`). Inside them:

- a reminder (its thread ping and its DM) waits until they end (`bot.timers.plan` times each awaited player's reminder
  after their quiet hours; one that would come after the deadline is dropped);
- a turn deadline of theirs that would end inside them moves to their end (`bot.timers.plan`, the same rule for every
  player; the status shows the moved deadline and says why). Reaction windows keep their time: they are the same for
  everyone they ask, and their deadline must not depend on who is asked.

The bot layer reads them here; `describe` words them for `/me quiet` and the `/me` overview.
"""

from collections.abc import Iterable, Mapping
from datetime import datetime, time, timedelta

from bot.i18n.platform import _
from bot.kept import KeptPerPerson
from engine import daily
from storage import GameStore, NewSeat, QuietHours, SeatRecord

__all__ = [
    "KnownQuietHours",
    "QuietHours",
    "after",
    "describe",
    "inside",
    "next_period",
    "of_seats",
    "parse",
    "period_end",
]


def period_end(hours: QuietHours, when: datetime) -> datetime | None:
    """The end of the quiet hours `when` falls in (an aware UTC instant), or None if `when` is outside them."""
    tz = daily.zone(hours.timezone)
    today = when.astimezone(tz).date()
    for day in (today - timedelta(days=1), today):
        start = daily.local(day, hours.start, tz)
        end_day = day if hours.end > hours.start else day + timedelta(days=1)
        end = daily.local(end_day, hours.end, tz)
        if start <= when < end:
            return end
    return None


def inside(hours: QuietHours | None, when: datetime) -> bool:
    return hours is not None and period_end(hours, when) is not None


def after(hours: Mapping[int, QuietHours], seats: Iterable[int], when: datetime) -> tuple[datetime, list[int]]:
    """`when`, moved to the end of the quiet hours of any of `seats` it falls in (again while the end falls in
    another's): the moment and the seats whose quiet hours moved it."""
    moved_by: list[int] = []
    seats = list(seats)
    for _round in range(2 * len(seats) + 1):  # each round moves past one person's hours: overlapping hours can't loop
        for seat in seats:
            q = hours.get(seat)
            end = period_end(q, when) if q is not None else None
            if end is not None:
                when = end
                if seat not in moved_by:
                    moved_by.append(seat)
                break
        else:
            break
    return when, moved_by


def of_seats(seats: Iterable[SeatRecord | NewSeat], by_person: Mapping[int, QuietHours]) -> dict[int, QuietHours]:
    """Each seat's quiet hours, for seats held by a person (not a computer player, not on autopilot)."""
    return {
        s.seat: by_person[s.player_id]
        for s in seats
        if s.player_id is not None and not s.bot and not s.autopilot and s.player_id in by_person
    }


class KnownQuietHours:
    """Each person's quiet hours as read or set so far (`store.settings.quiet_of`, `set_quiet`). They change only
    through `/me quiet`, in this process, so a move reads none after the first (one read for the people it lacks)
    and the move path keeps its round trips (as `bot.routing.Deliveries` does for `/me notify`)."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self._kept = KeptPerPerson[QuietHours](store.settings.quiet_of)

    async def of(self, player_ids: Iterable[int]) -> dict[int, QuietHours]:
        """The quiet hours of those of these people who have some."""
        known = await self._kept.of(set(player_ids))
        return {p: hours for p, hours in known.items() if hours is not None}

    async def get(self, player_id: int) -> QuietHours | None:
        """A person's quiet hours, or None (for `/me` and whoever shows a person's settings)."""
        return (await self.of([player_id])).get(player_id)

    async def put(self, player_id: int, hours: QuietHours | None, *, now: datetime) -> None:
        await self.store.settings.set_quiet(player_id, hours, now=now)
        self._kept.keep(player_id, hours)


def parse(start: str, end: str, timezone: str) -> QuietHours:
    """`/me quiet`'s input, checked: `ValueError` with a message naming the fix."""
    try:
        begins = daily.parse_clock(start)
    except ValueError as exc:
        raise ValueError(_("`from`: %(problem)s.", problem=exc)) from None
    try:
        ends = daily.parse_clock(end)
    except ValueError as exc:
        raise ValueError(_("`to`: %(problem)s.", problem=exc)) from None
    if begins == ends:
        raise ValueError(
            _(
                "`from` and `to` are both %(time)s: quiet hours need an end different from their start "
                "(e.g. from:23:00 to:08:00), or turn them off with `/me quiet off:True`.",
                time=f"{begins:%H:%M}",
            )
        )
    name = timezone.strip()
    if not daily.is_zone(name):
        raise ValueError(
            _(
                "“%(zone)s” is not a time zone I know: give an IANA name such as Europe/Berlin, America/New_York "
                "or Asia/Tokyo (the list: <https://en.wikipedia.org/wiki/List_of_tz_database_time_zones>).",
                zone=timezone,
            )
        )
    return QuietHours(start=begins, end=ends, timezone=name)


def describe(hours: QuietHours | None) -> str:
    """The quiet hours in words (their clock: fixed times of day in their zone, so no Discord timestamp)."""
    if hours is None:
        return _("no quiet hours")
    return _(
        "quiet hours %(start)s–%(end)s (%(zone)s)",
        start=_clock(hours.start),
        end=_clock(hours.end),
        zone=hours.timezone,
    )


def next_period(hours: QuietHours, now: datetime) -> tuple[datetime, datetime]:
    """The quiet hours `now` is in, else the next ones: their start and end (aware UTC instants)."""
    tz = daily.zone(hours.timezone)
    today = now.astimezone(tz).date()
    for day in (today - timedelta(days=1), today, today + timedelta(days=1)):
        start = daily.local(day, hours.start, tz)
        end = daily.local(day if hours.end > hours.start else day + timedelta(days=1), hours.end, tz)
        if now < end:
            return start, end
    raise AssertionError("quiet hours recur every day")  # pragma: no cover


def _clock(at: time) -> str:
    return f"{at:%H:%M}"
