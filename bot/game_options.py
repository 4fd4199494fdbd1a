"""A game's own options, as typed in `/game new options:` — read, checked against the game's options model, and
described for `/game rules` and the lobby message.

The shared options (turn deadline, reaction time) have parameters of their own (`turn_hours`, `reaction_time`);
`options:` holds the rest: the fields a game's options model adds to `GameOptions`, e.g. Kohle, Kies & Knete's
`hide_hand_sizes`. The text is a list separated by commas, semicolons or spaces; each item is `name=value`, or a bare
`name` for a yes/no option (meaning on; `no_name` means off). Names ignore case, and a dash works for an
underscore. Yes/no values read as on/off, yes/no, true/false or 1/0; other values as the model's field wants them
(checked by pydantic). Anything else is refused with a message that names the option and lists the valid ones.

The table's clock is set in `options:` too, for every game: `deadline=daily 19:00` (a turn ends at that time of day,
instead of after `turn_hours`), `timezone=Europe/Amsterdam` (an IANA name; the server's default from `/mod defaults
timezone:`, else UTC) and `weekdays_only` (no turn deadline on a Saturday or Sunday): `CLOCK`, see `engine.daily`.

An option marked `PlayerOption` (e.g. Kesse Rügen's `first_seat`, who begins) names a player, not a seat number:
nobody knows the seats before the start, and a shuffled seat order would make any number point at someone else.
Its value is a `PlayerPick`: a @mention, `me` (whoever opens the game), or a join number (`2`: the second to join,
at most the lobby's seats). It is kept with the lobby's settings, shown in the lobby by name, and at the start
resolved to that person (before the seat order is shuffled) and then to their seat (after): `resolve_picks`. If the
person isn't at the table then, the start is refused saying who is missing.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from bot import ids
from engine.game import Game
from engine.options import GameOptions, PlayerOption

if TYPE_CHECKING:
    from bot.presentation import Presentation

SHARED = {
    "turn_deadline": "turn_hours",
    "reaction_time": "reaction_time",
    "away": "away",
}
"""Options every game has, each set by its own `/game new` parameter."""

CLOCK = ("deadline", "timezone", "weekdays_only")
"""Options every game has that are set in `options:` (the table's clock)."""
CLOCK_LINES = [
    "`deadline` (a time of day, `daily 19:00`, default not set) — every turn ends at that time in the table's time "
    "zone (at least 12 hours after it began) instead of after `turn_hours`",
    "`timezone` (an IANA name such as Europe/Amsterdam, default the server's, else UTC) — the table's time zone",
    "`weekdays_only` (on/off, default off) — no turn deadline on a Saturday or Sunday: it moves to Monday",
]
"""The table's clock in `/game rules`, after the game's own options."""


class OptionsError(ValueError):
    """Options that don't work for the game; the message is for the person who typed them."""


def own_fields(game: Game) -> dict[str, Any]:  # type: ignore[type-arg]
    """The game's own option fields (name → pydantic FieldInfo), beyond the shared ones."""
    model: type[BaseModel] = game.options_model
    return {name: info for name, info in model.model_fields.items() if name not in GameOptions.model_fields}


def _is_bool(info: Any) -> bool:
    return info.annotation is bool


def player_option(info: Any) -> PlayerOption | None:
    """The field's `PlayerOption` mark, if it names a player."""
    return next((m for m in info.metadata if isinstance(m, PlayerOption)), None)


def player_fields(game: Game) -> dict[str, PlayerOption]:  # type: ignore[type-arg]
    """The game's options that name a player, with their marks."""
    out = {}
    for name, info in own_fields(game).items():
        mark = player_option(info)
        if mark is not None:
            out[name] = mark
    return out


def _kind(info: Any) -> str:
    """The values an option takes, for people (`int | None` is just "int": not setting it is the None)."""
    if _is_bool(info):
        return "on/off"
    args = [a for a in getattr(info.annotation, "__args__", ()) if a is not type(None)]
    base = args[0] if len(args) == 1 else info.annotation
    return getattr(base, "__name__", str(base))


def describe(game: Game, presentation: "Presentation | None" = None) -> list[str]:  # type: ignore[type-arg]
    """One line per option: name, what values it takes, its default, and what it does (no final full stop: the
    caller joins the lines and ends the sentence). What it does is the game's presentation's words
    (`Presentation.option_help`, in the language spoken), else the options model's description."""
    if presentation is None:
        from bot.games import load_presentation

        presentation = load_presentation(game.name)
    lines = []
    for name, info in own_fields(game).items():
        helped = presentation.option_help(name)
        if helped is None and info.description:
            helped = info.description.strip()
        what = f" — {helped.rstrip('.')}" if helped else ""
        mark = player_option(info)
        if mark is not None:
            lines.append(
                f"`{name}` (a player: a @mention, `me`, or a join number such as `2` for the second to join){what}"
            )
            continue
        default = info.get_default(call_default_factory=True)
        shown = ("on" if default else "off") if _is_bool(info) else "not set" if default is None else default
        lines.append(f"`{name}` ({_kind(info)}, default {shown}){what}")
    return lines


def usage(game: Game) -> str:  # type: ignore[type-arg]
    """The options a game takes, for a refusal or `/game rules`."""
    lines = describe(game)
    if not lines:
        return f"{game.title} has no options of its own."
    return f"{game.title}'s options: " + "; ".join(lines) + "."


@dataclass(frozen=True)
class PlayerPick:
    """A player named for a `PlayerOption`: a member (`user_id`) or whoever joins `position`-th (1-based)."""

    user_id: int | None = None
    position: int | None = None

    def key(self) -> str:
        return f"u{self.user_id}" if self.user_id is not None else f"p{self.position}"

    @classmethod
    def from_key(cls, key: str) -> "PlayerPick | None":
        if len(key) > 1 and key[1:].isdigit():
            if key[0] == "u":
                return cls(user_id=int(key[1:]))
            if key[0] == "p":
                return cls(position=int(key[1:]))
        return None

    def person(self, joined: Sequence[Any]) -> Any | None:
        """The seat record (of `joined`, in join order) this pick names, or None if that person isn't there."""
        if self.user_id is not None:
            return next((s for s in joined if s.player_id == self.user_id), None)
        assert self.position is not None
        return joined[self.position - 1] if self.position <= len(joined) else None

    def shown(self, joined: Sequence[Any]) -> str:
        """The pick for the lobby message: the person's mention, or the join number while nobody holds it."""
        found = self.person(joined)
        if found is not None and found.player_id is not None:
            return f"<@{found.player_id}>"
        if self.user_id is not None:
            return f"<@{self.user_id}> (not joined yet)"
        return f"the {ordinal(self.position or 0)} to join"


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


MENTION = re.compile(r"<@!?(\d+)>")


def _player_pick(
    name: str, value: str, mark: PlayerOption, creator_id: int | None, max_seats: int | None
) -> PlayerPick:
    value = value.strip()
    if not value:
        raise OptionsError(
            f"The option `{name}` is empty: give the {mark.label} as a @mention, `me`, or a join number such as `2` "
            "(the second to join)."
        )
    found = MENTION.fullmatch(value)
    if found and ids.fits(int(found.group(1))):
        return PlayerPick(user_id=int(found.group(1)))
    if found:  # forged: no member has that id
        raise OptionsError(f"The option `{name}`: “{value}” names no member — pick the member from the list.")
    if value.lower() == "me" and creator_id is not None:
        return PlayerPick(user_id=creator_id)
    number = value.removeprefix("#")
    if number.isdigit():
        position = int(number)
        top = max_seats or 99
        if not 1 <= position <= top:
            raise OptionsError(
                f"The option `{name}` can't be “{value}”: this table has {top} seats, so the {mark.label} is one of "
                f"the first {top} to join — give a number from 1 to {top}, `me`, or a @mention."
            )
        return PlayerPick(position=position)
    if value.startswith("@"):
        raise OptionsError(
            f"The option `{name}`: “{value}” is plain text, not a mention — pick the member from the list Discord "
            "shows as you type @, or give their join number (such as `2` for the second to join), or `me`."
        )
    raise OptionsError(
        f"The option `{name}` names the {mark.label}: give a @mention, `me`, or a join number such as `2` "
        f"(the second to join), not “{value}”."
    )


def resolve_picks(game: Game, picks: Sequence[tuple[str, PlayerPick]], joined: Sequence[Any]) -> dict[str, int]:  # type: ignore[type-arg]
    """Each picked option's person, by user id, among the seats that have `joined` (in join order); `OptionsError`
    naming who is missing and what to do when someone isn't at the table."""
    marks = player_fields(game)
    out: dict[str, int] = {}
    for name, pick in picks:
        mark = marks.get(name)
        if mark is None:
            continue  # the game no longer has that option
        found = pick.person(joined)
        if found is None or found.player_id is None:
            if pick.user_id is not None:
                raise OptionsError(
                    f"The {mark.label} was set to <@{pick.user_id}>, who hasn't joined: they can press **Join** "
                    f"(or open a new game without `{name}`)."
                )
            raise OptionsError(
                f"The {mark.label} was set to the {ordinal(pick.position or 0)} to join, and {len(joined)} "
                f"{'has' if len(joined) == 1 else 'have'} joined: wait for a {ordinal(pick.position or 0)} "
                f"player (**Join**), or open a new game without `{name}`."
            )
        out[name] = found.player_id
    return out


def parse(
    game: Game,  # type: ignore[type-arg]
    text: str | None,
    *,
    creator_id: int | None = None,
    max_seats: int | None = None,
) -> dict[str, Any]:
    """The game's own options from `text`, checked against its options model; raises `OptionsError`. An option that
    names a player comes back as a `PlayerPick` (`creator_id` is `me`; a join number is at most `max_seats`)."""
    if not text or not text.strip():
        return {}
    # `deadline=daily 19:00`: one item, though the list is split at spaces.
    text = re.sub(r"(?i)\bdaily\s+(?=\d)", "daily@", text)
    fields = {**own_fields(game), **{name: GameOptions.model_fields[name] for name in CLOCK}}
    found: dict[str, Any] = {}
    picks: dict[str, PlayerPick] = {}
    for item in re.split(r"[,;\s]+", text.strip()):
        if not item:
            continue
        name, eq, value = item.partition("=")
        key = _normal(name)
        negated = not eq and key.startswith("no_") and key[3:] in fields
        if negated:
            key = key[3:]
        if key in SHARED:
            raise OptionsError(f"Set `{key}` with the `{SHARED[key]}` parameter of `/game new`, not in `options`.")
        if key not in fields:
            raise OptionsError(f"I don't know the option “{name}” for {game.title}. {usage(game)}")
        if not eq:
            if not _is_bool(fields[key]):
                raise OptionsError(f"Give `{key}` a value, e.g. `{key}=…`. {usage(game)}")
            value = "off" if negated else "on"
        if key in found or key in picks:
            raise OptionsError(f"The option `{key}` is given twice.")
        mark = player_option(fields[key])
        if mark is not None:
            picks[key] = _player_pick(key, value, mark, creator_id, max_seats)
            continue
        found[key] = value.strip()
    try:
        checked = game.options_model.model_validate(found)
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(p) for p in error.get("loc", ())) or "options"
        why = str(error["msg"]).removeprefix("Value error, ").rstrip(".")
        typed = str(found.get(where, "")).replace("daily@", "daily ")
        raise OptionsError(f"The option `{where}` can't be “{typed}”: {why}.") from None
    return {**{key: getattr(checked, key) for key in found}, **picks}


def chosen(game: Game, options: dict[str, Any]) -> list[str]:  # type: ignore[type-arg]
    """The game's own options that differ from their defaults, as `name=value` (for the lobby message)."""
    parsed = game.parse_options(options)
    out = []
    for name, info in own_fields(game).items():
        value = getattr(parsed, name)
        if player_option(info) is not None:
            continue  # shown by name from the lobby's settings, never as a seat number
        if value != info.get_default(call_default_factory=True):
            out.append(name if value is True else f"{name}={value}")
    return out


def _normal(name: str) -> str:
    return name.strip().lower().replace("-", "_").replace(" ", "_")
