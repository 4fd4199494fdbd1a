"""A person's local time of day: reading "08:00" and "Europe/Berlin" as typed, and the next moment a local time of
day comes round (`/me digest`).

Time zones are IANA names read by the standard library's `zoneinfo` (its data from the system, or the `tzdata`
package), never hand-made offsets, so daylight-saving changes are the zone's: a digest at 08:00 stays at 08:00 local
time across them. A local time that a spring change skips (02:30 on that night) comes at the same wall-clock
distance after the change (03:30), and one an autumn change repeats comes once, the first time (`engine.daily.local`,
which the tables' daily deadlines use too).
"""

import re
from datetime import datetime, time, timedelta
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from bot.i18n.platform import _
from engine import daily

_TIME = re.compile(r"\s*(\d{1,2})[:.h](\d{2})\s*")


class BadInput(ValueError):
    """A value a person typed that can't be read: the message names the fix."""


def parse_time_of_day(text: str) -> time:
    """ "08:00", "8:00", "19.30" or "7h05" as a time of day; `BadInput` naming the fix otherwise ("25:00")."""
    match = _TIME.fullmatch(text or "")
    hour, minute = (int(match[1]), int(match[2])) if match else (-1, -1)
    if not (0 <= hour <= 23 and 0 <= minute <= 59):
        raise BadInput(
            _(
                "“%(text)s” isn't a time of day: give hours and minutes on a 24-hour clock, from 00:00 to 23:59, "
                "e.g. `08:00` or `19:30`.",
                text=text,
            )
        )
    return time(hour, minute)


def parse_zone(text: str) -> ZoneInfo:
    """An IANA time zone ("Europe/Berlin", any case); `BadInput` naming the fix otherwise."""
    name = (text or "").strip()
    canonical = _zones_by_key().get(name.lower())
    if canonical is not None:
        try:
            return ZoneInfo(canonical)
        except (ZoneInfoNotFoundError, ValueError):
            pass
    raise BadInput(
        _(
            "“%(text)s” isn't a time zone I know: give an IANA name such as `Europe/Berlin`, `America/New_York` or "
            "`UTC` (the suggestions list them).",
            text=text,
        )
    )


def zone_suggestions(typed: str, limit: int = 25) -> list[str]:
    """The time zones that contain what was typed (all of it, in any case), best first: those starting with it."""
    typed = typed.strip().lower()
    names = sorted(_zones_by_key().values())
    starts = [n for n in names if n.lower().startswith(typed) or n.lower().split("/")[-1].startswith(typed)]
    rest = [n for n in names if typed in n.lower() and n not in starts]
    return (starts + rest)[:limit]


def next_local(at: time, zone: ZoneInfo, after: datetime) -> datetime:
    """The first moment strictly after `after` (aware) when the clock in `zone` shows `at`, in UTC."""
    local_day = after.astimezone(zone).date()
    for offset in range(3):
        candidate = daily.local(local_day + timedelta(days=offset), at, zone)
        if candidate > after:
            return candidate
    raise AssertionError("a local time of day comes round within three days")


@cache
def _zones_by_key() -> dict[str, str]:
    return {name.lower(): name for name in available_timezones()}
