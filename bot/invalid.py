"""Wording pydantic's validation errors for the person who typed the input.

`str(ValidationError)` is several lines for developers and ends with pydantic's help link ("For further information
visit https://errors.pydantic.dev/…"), which must never reach a player. `problem(exc)` gives one short phrase from
the first error instead: where it is (the field's name) and what is wrong, e.g. "`square`: input should be a valid
string", "there is no move called “fly” (the moves are: place, challenge, …)", "it isn't valid JSON".

A move the engine can't read reaches here as the game's `RuleError` coded `UNKNOWN_ACTION` or `MALFORMED_ACTION`
(`Game.parse_action`), worded from its values in the same phrases.
"""

from typing import Any

from pydantic import ValidationError

from bot.i18n.platform import _
from engine.errors import MALFORMED_ACTION, UNKNOWN_ACTION, RuleError

UNREADABLE_ACTION = (UNKNOWN_ACTION, MALFORMED_ACTION)


def problem(exc: Exception) -> str:
    """One short phrase saying what is wrong with the input (no links, no developer detail)."""
    if isinstance(exc, RuleError) and exc.code in UNREADABLE_ACTION:
        return _action_problem(exc.code, exc.values)
    if not isinstance(exc, ValidationError):
        lines = [line.strip() for line in str(exc).splitlines() if line.strip() and "errors.pydantic.dev" not in line]
        return lines[0] if lines else type(exc).__name__
    errors = exc.errors(include_url=False)
    if not errors:
        return _("it doesn't fit")
    error = errors[0]
    kind = error.get("type", "")
    ctx = error.get("ctx") or {}
    if kind == "union_tag_invalid":
        expected = str(ctx.get("expected_tags", "")).replace("'", "")
        return _(
            "there is no move called “%(move)s” (the moves are: %(moves)s)", move=ctx.get("tag", "?"), moves=expected
        )
    if kind == "union_tag_not_found":
        return _(
            "it doesn't say which move it is (a `%(field)s` is missing)",
            field=str(ctx.get("discriminator", "type")).strip(chr(39)),
        )
    if kind == "json_invalid":
        return _("it isn't valid JSON")
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        return _('it should be an object like {"type": …}')
    # A discriminated union puts the move's tag first ("place", "square"): the field is the last name.
    names = [str(p) for p in error.get("loc", ()) if isinstance(p, str)]
    where = names[-1] if names else ""
    message = str(error.get("msg") or _("it doesn't fit"))  # pydantic's own words (English) otherwise
    message = message[:1].lower() + message[1:]
    return f"`{where}`: {message}" if where else message


def _action_problem(code: str, values: dict[str, Any]) -> str:
    if code == UNKNOWN_ACTION:
        if values.get("move") is None:
            return _("it doesn't say which move it is (a `%(field)s` is missing)", field="type")
        return _(
            "there is no move called “%(move)s” (the moves are: %(moves)s)",
            move=values["move"],
            moves=", ".join(values.get("moves", ())),
        )
    if values.get("problem") == "json_invalid":
        return _("it isn't valid JSON")
    field = values.get("field")
    if field is None:
        return _('it should be an object like {"type": …}')
    detail = str(values.get("detail") or _("it doesn't fit"))
    return f"`{field}`: {detail[:1].lower() + detail[1:]}"
