"""A game's own options, as typed in `/game new options:` — read, checked against the game's options model, and
described for `/game rules` and the lobby message.

The shared options (turn deadline, reaction time) have parameters of their own (`turn_hours`, `reaction_minutes`);
`options:` holds the rest: the fields a game's options model adds to `GameOptions`, e.g. Kohle, Kies & Knete's
`hide_hand_sizes`. The text is a list separated by commas, semicolons or spaces; each item is `name=value`, or a bare
`name` for a yes/no option (meaning on; `no_name` means off). Names ignore case, and a dash works for an
underscore. Yes/no values read as on/off, yes/no, true/false or 1/0; other values as the model's field wants them
(checked by pydantic). Anything else is refused with a message that names the option and lists the valid ones.
"""

import re
from typing import Any

from pydantic import BaseModel, ValidationError

from engine.game import Game
from engine.options import GameOptions

SHARED = {
    "turn_deadline": "turn_hours",
    "reaction_time": "reaction_minutes",
}
"""Options every game has, each set by its own `/game new` parameter."""


class OptionsError(ValueError):
    """Options that don't work for the game; the message is for the person who typed them."""


def own_fields(game: Game) -> dict[str, Any]:  # type: ignore[type-arg]
    """The game's own option fields (name → pydantic FieldInfo), beyond the shared ones."""
    model: type[BaseModel] = game.options_model
    return {name: info for name, info in model.model_fields.items() if name not in GameOptions.model_fields}


def _is_bool(info: Any) -> bool:
    return info.annotation is bool


def describe(game: Game) -> list[str]:  # type: ignore[type-arg]
    """One line per option: name, what values it takes, its default, and what it does."""
    lines = []
    for name, info in own_fields(game).items():
        kind = "on/off" if _is_bool(info) else getattr(info.annotation, "__name__", str(info.annotation))
        default = info.get_default(call_default_factory=True)
        shown = ("on" if default else "off") if _is_bool(info) else default
        what = f" — {info.description}" if info.description else ""
        lines.append(f"`{name}` ({kind}, default {shown}){what}")
    return lines


def usage(game: Game) -> str:  # type: ignore[type-arg]
    """The options a game takes, for a refusal or `/game rules`."""
    lines = describe(game)
    if not lines:
        return f"{game.title} has no options of its own."
    return f"{game.title}'s options: " + "; ".join(lines) + "."


def parse(game: Game, text: str | None) -> dict[str, Any]:  # type: ignore[type-arg]
    """The game's own options from `text`, checked against its options model; raises `OptionsError`."""
    if not text or not text.strip():
        return {}
    fields = own_fields(game)
    found: dict[str, Any] = {}
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
        if key in found:
            raise OptionsError(f"The option `{key}` is given twice.")
        found[key] = value.strip()
    try:
        checked = game.options_model.model_validate(found)
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(p) for p in error.get("loc", ())) or "options"
        raise OptionsError(f"The option `{where}` can't be “{found.get(where, '')}”: {error['msg']}.") from None
    return {key: getattr(checked, key) for key in found}


def chosen(game: Game, options: dict[str, Any]) -> list[str]:  # type: ignore[type-arg]
    """The game's own options that differ from their defaults, as `name=value` (for the lobby message)."""
    parsed = game.parse_options(options)
    out = []
    for name, info in own_fields(game).items():
        value = getattr(parsed, name)
        if value != info.get_default(call_default_factory=True):
            out.append(name if value is True else f"{name}={value}")
    return out


def _normal(name: str) -> str:
    return name.strip().lower().replace("-", "_").replace(" ", "_")
