"""Reading the durations people type ("2h", "3 days", "1d12h", "45m") into timedeltas."""

import re
from datetime import timedelta

_PART = re.compile(r"(\d+(?:\.\d+)?)\s*(w|weeks?|d|days?|h|hours?|hrs?|m|mins?|minutes?)", re.IGNORECASE)
_UNIT = {"w": timedelta(weeks=1), "d": timedelta(days=1), "h": timedelta(hours=1), "m": timedelta(minutes=1)}


def parse_duration(text: str) -> timedelta:
    """A duration such as "2h", "3d", "1d 12h" or "90m"; ValueError with a friendly message otherwise."""
    cleaned = text.strip().lower().replace(",", " ")
    if not cleaned:
        raise ValueError("Give a duration such as `2h`, `3d` or `1d12h`.")
    total = timedelta(0)
    pos = 0
    for match in _PART.finditer(cleaned):
        if cleaned[pos : match.start()].strip(" and"):
            break
        unit = match.group(2)[0]
        if unit == "h" and match.group(2).startswith("hr"):
            unit = "h"
        total += float(match.group(1)) * _UNIT[unit]
        pos = match.end()
    if pos == 0 or cleaned[pos:].strip():
        raise ValueError(f"I can't read “{text}” as a duration: try `2h`, `3d`, `1d12h` or `45m`.")
    if total <= timedelta(0):
        raise ValueError("The duration must be more than zero.")
    return total


def describe(td: timedelta) -> str:
    minutes = round(td.total_seconds() / 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    parts = [f"{n} {w}{'s' if n != 1 else ''}" for n, w in ((days, "day"), (hours, "hour"), (mins, "minute")) if n]
    return " ".join(parts) or "less than a minute"
