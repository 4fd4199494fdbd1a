"""Turn deadlines at a time of day: `deadline=daily 19:00` in the table's time zone, and weekends off.

A pure function of public options and the moment a wait began (`next_deadline`), so the engine keeps the deadline in
its state as before and a replay computes the same one. Time zones are IANA names read through the standard
library's `zoneinfo` (the `tzdata` package supplies the rules where the system has none): static data, like the
games' boards.

- A daily deadline is the first time `at` (local) that leaves at least `DAILY_MIN` after the wait began: a player
  who looks in twice a day, twelve hours apart, always sees their turn before it ends. A turn that begins at 06:00
  ends at 19:00 the same day, one that begins at 08:00 ends at 19:00 the next day.
- `weekdays_only`: a deadline that would fall on a Saturday or Sunday (local) moves to the Monday after, at the same
  local time. It applies to duration deadlines as well (a 24-hour turn begun on Friday 10:00 ends Monday 10:00).
- Daylight saving: a local time the clocks skip (02:30 on the spring-forward night in Europe/Amsterdam) is read as
  the same time after the change (03:30 CEST, PEP 495's `fold=0`); a time that happens twice (01:30 on the
  fall-back night in America/New_York) is the first of the two.
"""

from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

DAILY_MIN = timedelta(hours=12)
SATURDAY = 5


@lru_cache(maxsize=256)
def zone(name: str) -> ZoneInfo:
    """The IANA time zone `name`; `ValueError` if there is none by that name."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: a name such as "../x" is refused by zoneinfo
        raise ValueError(f"unknown time zone {name!r}") from None


def is_zone(name: str) -> bool:
    try:
        zone(name)
    except ValueError:
        return False
    return True


def local(day: date, at: time, tz: ZoneInfo) -> datetime:
    """`at` on `day` in `tz`, as an aware UTC instant (a skipped time reads as after the change, see the docstring)."""
    wall = datetime.combine(day, at.replace(tzinfo=None), tzinfo=tz)  # fold=0
    # A skipped wall time round-trips to a later one: normalise through UTC so the instant is unambiguous.
    return wall.astimezone(UTC)


def next_deadline(now: datetime, rule: time | timedelta, tz: str, weekdays_only: bool = False) -> datetime:
    """The deadline of a wait that begins at `now` (aware): `now + rule` for a duration, else the first local time
    `rule` at least `DAILY_MIN` after `now`; then, if `weekdays_only`, moved off a weekend to the Monday after at the
    same local time. Always in UTC."""
    zone_info = zone(tz)
    if isinstance(rule, timedelta):
        due = (now + rule).astimezone(UTC)
    else:
        earliest = now + DAILY_MIN
        day = earliest.astimezone(zone_info).date()
        due = local(day, rule, zone_info)
        while due < earliest:
            day += timedelta(days=1)
            due = local(day, rule, zone_info)
    if not weekdays_only:
        return due
    wall = due.astimezone(zone_info)
    if wall.weekday() < SATURDAY:
        return due
    monday = wall.date() + timedelta(days=7 - wall.weekday())
    return local(monday, wall.time(), zone_info)


def parse_daily(text: str) -> time:
    """`daily 19:00`, `daily@19:00` or `19:00` → 19:00; `ValueError` naming the fix otherwise."""
    raw = text.strip().lower()
    for prefix in ("daily", "@", "_", "-"):
        raw = raw.removeprefix(prefix).strip()
    return parse_clock(raw)


def parse_clock(text: str) -> time:
    """`HH:MM` (24-hour) → a time; `ValueError` naming the fix otherwise (`25:00`, `7pm`)."""
    hours, sep, minutes = text.strip().partition(":")
    if not (sep and hours.isdigit() and minutes.isdigit() and len(minutes) == 2 and 1 <= len(hours) <= 2):
        raise ValueError(f"“{text}” is not a time of day: give it as HH:MM on a 24-hour clock, e.g. 19:00")
    h, m = int(hours), int(minutes)
    if h > 23 or m > 59:
        raise ValueError(f"“{text}” is not a time of day: hours go from 00 to 23 and minutes from 00 to 59")
    return time(h, m)
