"""Naming a player in a command option: any seat at the table, people and computer players alike.

A command that takes another player (`/kkk offer to:`, `/kkk travel target:`, `/kr duel opponent:`) cannot use a
Discord user option: a computer player has no Discord user. It takes a string instead, with autocomplete listing the
table's seats by name (`choices`; a computer player's name carries its 🤖, a person's seat on autopilot says so), and
`resolve` reads what came back. In order, the first that fits wins:

1. a picked suggestion (`seat:N`, the value `choices` gives; never typed by hand);
2. a mention (`<@123>`, which is what Discord sends when someone types @name into a string option): that user's seat;
3. a seat's name, exactly (case, the 🤖, a leading `@` and extra spaces don't matter);
4. a seat number as shown in the table (`2`, `#2`, `seat 2`);
5. the start of exactly one seat's name, else a part of exactly one seat's name ("anna" for "Robo Anna 🤖" when no
   one else's name holds "anna").

Anything else is refused (`bot.service.Refusal`: the command's answer is ephemeral) with the choices listed, so the
player sees whom they can name; so is an option given but blank (`opponent:""` or only spaces: Discord's own client
never sends one, an API client can), which is not the same as leaving an optional one out. A name that fits
several seats is refused the same way rather than guessed. The asker's own seat is left out of the suggestions
(`exclude`) but not refused here: whether a player may name themselves is the engine's rule, and its refusal says
why.

`find` is the lenient reading for autocomplete of other options (e.g. `/kkk travel family:` narrowed to the
`target:` typed so far): None instead of a refusal.
"""

import re
from collections.abc import Sequence
from typing import overload

from discord import app_commands

from bot.i18n.platform import _
from bot.names import plain, shown
from bot.seat_players import MARK
from bot.service import Refusal
from storage.models import SeatRecord

PICK = "seat:"
"""The prefix of a suggestion's value: `seat:3` is the third seat, whatever anyone is called."""
_MENTION = re.compile(r"<@!?(\d+)>")
_NUMBER = re.compile(r"(?:seat\s*|#)?(\d{1,2})")


def label(seat: SeatRecord) -> str:
    """The seat as the table shows it (unescaped: callers escape for where it goes)."""
    name = seat.display_name or _("seat %(n)d", n=seat.seat + 1)
    if seat.autopilot and not seat.bot:
        name = _("%(name)s (autopilot)", name=name)
    return name


def _norm(text: str) -> str:
    text = text.replace(MARK, " ").strip().lstrip("@").casefold()
    return " ".join(text.split())


def choices(seats: Sequence[SeatRecord], current: str, *, exclude: int | None = None) -> list[app_commands.Choice[str]]:
    """Autocomplete: the table's seats (but `exclude`) whose name holds what was typed, in seat order."""
    typed = _norm(current)
    out = []
    for s in sorted(seats, key=lambda s: s.seat):
        if s.seat == exclude or (typed and typed not in _norm(label(s))):
            continue
        out.append(app_commands.Choice(name=plain(label(s))[:100], value=f"{PICK}{s.seat + 1}"))
    return out[:25]


def find(seats: Sequence[SeatRecord], text: str | None) -> int | None:
    """The seat `text` names (see the module's order), or None when it names none or several."""
    if text is None or not text.strip():
        return None
    raw = text.strip()
    by_number = {s.seat + 1: s.seat for s in seats}
    if raw.startswith(PICK) and raw[len(PICK) :].isdigit():
        return by_number.get(int(raw[len(PICK) :]))
    if mention := _MENTION.fullmatch(raw):
        return next((s.seat for s in seats if s.player_id == int(mention.group(1))), None)
    typed = _norm(raw)
    exact = [s.seat for s in seats if _norm(label(s)) == typed or _norm(s.display_name) == typed]
    if len(exact) == 1:
        return exact[0]
    if not exact and (number := _NUMBER.fullmatch(typed)):
        return by_number.get(int(number.group(1)))
    for fits in (str.startswith, str.__contains__):
        found = [s.seat for s in seats if fits(_norm(s.display_name), typed)]
        if len(found) == 1:
            return found[0]
        if found:
            return None
    return None


@overload
def resolve(seats: Sequence[SeatRecord], text: str, *, where: str, option: str, exclude: int | None = None) -> int: ...
@overload
def resolve(
    seats: Sequence[SeatRecord], text: str | None, *, where: str, option: str, exclude: int | None = None
) -> int | None: ...
def resolve(
    seats: Sequence[SeatRecord], text: str | None, *, where: str, option: str, exclude: int | None = None
) -> int | None:
    """The seat `text` names, None for an option left out (`text` None); refused (listing the seats but `exclude`)
    otherwise, a blank `text` too. `where` names the table in the refusal ("Kohle, Kies & Knete #3"), `option` the
    command's option (`opponent`)."""
    if text is None:
        return None
    others = ", ".join(shown(label(s)) for s in sorted(seats, key=lambda s: s.seat) if s.seat != exclude)
    raw = text.strip()
    if not raw:
        raise Refusal(
            _(
                "`%(option)s:` is empty: name a player of %(where)s. The players you can name: %(others)s.",
                option=option,
                where=where,
                others=others,
            )
        )
    seat = find(seats, raw)
    if seat is not None:
        return seat
    who = raw if _MENTION.fullmatch(raw) else f"“{shown(raw[:60])}”"  # a mention shows as the name, unpinged
    raise Refusal(
        _(
            "%(who)s isn't playing at %(where)s. The players you can name: %(others)s.",
            who=who,
            where=where,
            others=others,
        )
    )
