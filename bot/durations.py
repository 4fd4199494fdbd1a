"""Reading the durations people type ("2h", "3 days", "1d12h", "45m") into timedeltas.

Every duration is at least a minute (nothing the bot times is shorter) and at most `longest` (a year unless the
caller has a tighter limit, e.g. `/game away` takes at most 60 days): the amount is added up in seconds and checked
before a `timedelta` is made, so "9999999999d" is refused with a message instead of overflowing. Each refusal is a
`ValueError` whose message names the fix (`DurationTooLong` for one over the limit, so a caller can add its own
advice).
"""

import re
from datetime import timedelta

from bot.i18n.platform import _, n_

# Longer unit words first, so "3 days" is not read as "3 d" followed by "ays".
_PART = re.compile(r"(\d+(?:\.\d+)?)\s*(weeks?|w|days?|d|hours?|hrs?|h|minutes?|mins?|m)(?![a-z])", re.IGNORECASE)
_UNIT = {"w": timedelta(weeks=1), "d": timedelta(days=1), "h": timedelta(hours=1), "m": timedelta(minutes=1)}

SHORTEST = timedelta(minutes=1)
LONGEST = timedelta(days=366)


class DurationTooLong(ValueError):
    """A duration over the caller's limit; `longest` is that limit."""

    def __init__(self, message: str, longest: timedelta) -> None:
        super().__init__(message)
        self.longest = longest


def parse_duration(text: str, *, longest: timedelta = LONGEST) -> timedelta:
    """A duration such as "2h", "3d", "1d 12h" or "90m", from one minute to `longest`; ValueError with a friendly
    message otherwise (`DurationTooLong` above `longest`)."""
    cleaned = text.strip().lower().replace(",", " ")
    if not cleaned:
        raise ValueError(_("Give a duration such as `2h`, `3d` or `1d12h`."))
    seconds = 0.0
    pos = 0
    for match in _PART.finditer(cleaned):
        if cleaned[pos : match.start()].strip(" and"):
            break
        seconds += float(match.group(1)) * _UNIT[match.group(2)[0]].total_seconds()
        pos = match.end()
    if pos == 0 or cleaned[pos:].strip():
        raise ValueError(
            _("I can't read “%(text)s” as a duration: try `2h`, `3d`, `1d12h` or `45m`.", text=_shown(text))
        )
    shown = _shown(text)
    if seconds > longest.total_seconds():
        said = _(
            "“%(text)s” is more than %(longest)s: give at most `%(most)s`.",
            text=shown,
            longest=describe(longest),
            most=compact(longest),
        )
        raise DurationTooLong(said, longest)
    if seconds < SHORTEST.total_seconds():
        raise ValueError(_("“%(text)s” is less than a minute: give at least `1m`.", text=shown))
    return timedelta(seconds=round(seconds))


def compact(td: timedelta) -> str:
    """A duration as it can be typed back, e.g. `60d`, `1d12h`, `45m`."""
    minutes = round(td.total_seconds() / 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    return "".join(f"{n}{u}" for n, u in ((days, "d"), (hours, "h"), (mins, "m")) if n) or "0m"


def describe(td: timedelta) -> str:
    minutes = round(td.total_seconds() / 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    parts = []
    if days:
        parts.append(n_("%(n)d day", "%(n)d days", days))
    if hours:
        parts.append(n_("%(n)d hour", "%(n)d hours", hours))
    if mins:
        parts.append(n_("%(n)d minute", "%(n)d minutes", mins))
    return " ".join(parts) or _("less than a minute")


def _shown(text: str) -> str:
    text = text.strip()
    return text if len(text) <= 40 else text[:39] + "…"
