"""What players type into the shared `/game` commands, read and checked before anything changes: when `/game away`
ends (`away_until`: exactly one of `until:`, `days:`, `duration:`) and the move typed into `/game move`
(`read_move`: bounded in length and nesting). Each answers bad input with a `Refusal` naming the fix.
"""

import json
from datetime import UTC, datetime, timedelta
from typing import Any

from bot import moves
from bot.durations import DurationTooLong, parse_duration
from bot.i18n.platform import N_, _
from bot.names import shown
from bot.service import Refusal

MAX_AWAY = timedelta(days=60)
"""The longest absence `/game away` takes; longer, `/game leave` hands the seat on."""


def _listed(items: list[str]) -> str:
    """Two or more items as "a, b and c" in the language being spoken."""
    return _("%(some)s and %(last)s", some=", ".join(items[:-1]), last=items[-1])


def away_until(now: datetime, *, until: str | None, days: int | None, duration: str | None) -> datetime:
    """When `/game away` ends, from exactly one of its three ways to say it, or a `Refusal` naming the fix."""
    given = [name for name, value in (("until", until), ("days", days), ("duration", duration)) if value is not None]
    if len(given) != 1:
        if given:
            raise Refusal(
                _(
                    "Say how long you're away with one of `until:` (a day such as 2026-12-24), `days:` (e.g. 3) or "
                    "`duration:` (e.g. 2h), not %(given)s together.",
                    given=_listed([f"`{g}:`" for g in given]),
                )
            )
        raise Refusal(
            _(
                "Say how long you're away with one of `until:` (a day such as 2026-12-24), `days:` (e.g. 3) or "
                "`duration:` (e.g. 2h)."
            )
        )
    longest = _("at most %(days)d days; for a longer absence, `/game leave` hands your seat on", days=MAX_AWAY.days)
    if days is not None:
        if days < 1:
            raise Refusal(_("`days:` must be at least 1 (you gave %(days)d).", days=days))
        if days > MAX_AWAY.days:
            raise Refusal(_("`days:%(days)d` is too long: %(longest)s.", days=days, longest=longest))
        return now + timedelta(days=days)
    if duration is not None:
        try:
            return now + parse_duration(duration, longest=MAX_AWAY)
        except DurationTooLong as exc:
            raise Refusal(
                _("%(problem)s For a longer absence, `/game leave` hands your seat on.", problem=exc)
            ) from None
        except ValueError as exc:
            raise Refusal(str(exc)) from None
    assert until is not None
    text = until.strip()
    try:
        when = datetime.fromisoformat(text.replace("/", "-"))
    except ValueError:
        raise Refusal(
            _(
                "I can't read “%(text)s” as a date: write it as YYYY-MM-DD (e.g. 2026-12-24), or with a time, "
                "2026-12-24 18:00 (UTC).",
                text=shown(text[:40]),
            )
        ) from None
    when = when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)
    if when <= now:
        raise Refusal(
            _(
                "%(when)s UTC is in the past: give a day after today (e.g. %(example)s).",
                when=f"{when:%Y-%m-%d %H:%M}",
                example=f"{(now + timedelta(days=7)):%Y-%m-%d}",
            )
        )
    if when - now > MAX_AWAY:
        raise Refusal(_("%(when)s is too far ahead: %(longest)s.", when=f"{when:%Y-%m-%d}", longest=longest))
    return when


MAX_MOVE_TEXT = 2000
MAX_MOVE_DEPTH = 8
UNREADABLE_MOVE = N_("I can't read that move: pick one of the suggestions that `/game move` shows.")


def _unreadable() -> str:
    return _(UNREADABLE_MOVE) + " " + _(moves.HELP)


def read_move(text: str) -> dict[str, Any]:
    """The move typed into `/game move`, or a `Refusal`: bounded in length and nesting before and after parsing, so
    no input can exhaust the parser (a move is a flat object with a few small lists)."""
    if len(text) > MAX_MOVE_TEXT:
        raise Refusal(
            _(
                "That move is too long (%(length)d characters; a move fits in %(most)d).",
                length=len(text),
                most=MAX_MOVE_TEXT,
            )
            + " "
            + _unreadable()
        )
    depth = deepest = 0
    for char in text:  # brackets inside strings count too: harmless over-counting for a bound
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    if deepest > MAX_MOVE_DEPTH:
        raise Refusal(_("That move is nested too deeply.") + " " + _unreadable())
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        data = None
    if not isinstance(data, dict):
        raise Refusal(_unreadable())
    return data
