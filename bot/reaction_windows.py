"""Reaction windows for people: what each kind is called, how long a table's windows stay open, and reading the
`reaction_time` typed at `/game new`.

Each game declares its kinds of reaction window with a default length each (`Game.reaction_windows`, codes such as
"objection"); a table's `reaction_time`, if set, replaces them all (`GameOptions.window_length`). The lobby message
and `/game rules` show the lengths (`lengths`, `rules_text`), so a table knows how long it has to STOP or object.

`/game new reaction_time:` takes a duration as people type it (`90m`, `4h`, `1d`, `1d12h`; `bot.durations`) from a
minute to a week — the range `/mod defaults` and the old integer `reaction_minutes` (1–10,080 minutes) allow too.
`default`/`reset` means the games' own lengths. Anything else (`0`, `-2h`, `soon`, `30d`) is refused with a private
answer that names the fix, and nothing is opened.
"""

from datetime import timedelta

from bot.durations import DurationTooLong, parse_duration
from bot.durations import compact as compact_duration
from bot.durations import describe as describe_duration
from bot.i18n.platform import N_, _
from engine.game import Game
from engine.options import GameOptions

SHORTEST = timedelta(minutes=1)
LONGEST = timedelta(days=7)
"""The range of a reaction time, as for `/mod defaults` and the old `reaction_minutes`: a window longer than a week
would stall a table for good, and one under a minute can't be answered."""

GAME_DEFAULTS = frozenset({"default", "reset", "auto", "none"})
"""Words for "not set": each kind of window its game's own length."""

WINDOW_NAMES = {
    "objection": N_("objection window"),
    "contest": N_("contest or withdraw"),
    "stop": N_("STOP window"),
    "last_call": N_("last call"),
}
"""What each kind of reaction window (the engine's code) is called for players."""


class ReactionTimeError(ValueError):
    """A reaction time that can't be used; the message names the fix, for the person who typed it."""


def window_name(code: str) -> str:
    found = WINDOW_NAMES.get(code)
    return _(found) if found is not None else code.replace("_", " ")


def read_reaction_time(text: str) -> timedelta | None:
    """A typed reaction time: a duration from a minute to a week, or None for the games' own lengths (`default`)."""
    cleaned = text.strip().lower()
    if cleaned in GAME_DEFAULTS:
        return None
    fix = _("give a duration such as `90m`, `4h` or `1d` (from 1 minute to 7 days), or `default` for the game's own")
    typed = text.strip()[:40]
    if cleaned.startswith("-"):
        raise ReactionTimeError(_("A reaction time can't be negative (“%(text)s”): %(fix)s.", text=typed, fix=fix))
    if cleaned.replace(".", "").isdigit():
        raise ReactionTimeError(
            _(
                "“%(text)s” has no unit: %(fix)s — or the old `reaction_minutes` for a number of minutes.",
                text=typed,
                fix=fix,
            )
        )
    try:
        value = parse_duration(text, longest=LONGEST)
    except DurationTooLong:
        raise ReactionTimeError(
            _(
                "A reaction window of more than %(longest)s would stall the table: %(fix)s.",
                longest=describe_duration(LONGEST),
                fix=fix,
            )
        ) from None
    except ValueError as exc:
        raise ReactionTimeError(_("The reaction time: %(problem)s (%(fix)s).", problem=exc, fix=fix)) from None
    return value


def read_reaction_minutes(minutes: int) -> timedelta:
    """The old integer parameter, checked like the new one (Discord keeps it within 1–10,080 already)."""
    value = timedelta(minutes=minutes)
    if not SHORTEST <= value <= LONGEST:
        most = int(LONGEST.total_seconds() // 60)
        raise ReactionTimeError(_("`reaction_minutes` is from 1 to %(most)d minutes.", most=most))
    return value


def lengths(game: Game, options: GameOptions) -> list[tuple[str, timedelta]]:  # type: ignore[type-arg]
    """Each kind of reaction window the game opens, with its length at this table (the table's `reaction_time`
    if set, else the game's default for that kind)."""
    return [(window_name(code), options.window_length(default)) for code, default in game.reaction_windows.items()]


def summary(game: Game, options: GameOptions) -> str:  # type: ignore[type-arg]
    """The table's windows in one line for the lobby, e.g. "objection window 12 hours, contest or withdraw 8 hours"
    or "every reaction window 30 minutes"; empty for a game without reaction windows."""
    if not game.uses_reaction_time or not game.reaction_windows:
        return ""
    if options.reaction_time is not None:
        return _("every reaction window %(length)s", length=describe_duration(options.reaction_time))
    return ", ".join(
        _("%(window)s %(length)s", window=name, length=describe_duration(length))
        for name, length in lengths(game, options)
    )


def rules_text(game: Game) -> str:  # type: ignore[type-arg]
    """The game's kinds of window and their default lengths, and how a table changes them, for `/game rules`."""
    if not game.uses_reaction_time or not game.reaction_windows:
        return ""
    each = "; ".join(f"{window_name(code)}: {describe_duration(d)}" for code, d in game.reaction_windows.items())
    example = compact_duration(min(game.reaction_windows.values()) // 2)
    return _(
        "%(windows)s. A window closes as soon as everyone it asks has answered. `/game new reaction_time:` "
        "(e.g. `%(example)s` or `15m`) sets one length for every window of the table.",
        windows=each,
        example=example,
    )
