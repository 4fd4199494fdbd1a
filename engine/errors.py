"""The one error type a game raises when an action breaks a rule.

Its message is written for the player who tried: short, friendly, naming the fix, and never revealing anything
secret. Seats are referred to with `engine.text.seat(n)` so the bot can put display names in.

A refusal the bot words itself carries a `code` and its `values` (JSON-like) beside the message, e.g. an action the
game can't read at all (`UNKNOWN_ACTION`, `MALFORMED_ACTION`, see `Game.parse_action`): the presentation chooses the
words from them, and the message is the engine's own plain fallback (for logs, replays and tests).
"""

from collections.abc import Mapping
from typing import Any

UNKNOWN_ACTION = "unknown_action"
"""No move of this game has the action's `type` (values: `move`, the type given, or None when there is none;
`moves`, the game's move types)."""
MALFORMED_ACTION = "malformed_action"
"""The action names a move but its fields don't fit it, or it isn't readable at all (values: `field`, the field's
name or None; `problem`, pydantic's error type, e.g. "int_parsing", "extra_forbidden", "json_invalid"; `detail`,
pydantic's one-line description)."""


class RuleError(Exception):
    """An action that the rules refuse. The state it was applied to is untouched."""

    def __init__(self, message: str, code: str = "", values: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        """Empty for the ordinary refusals, whose message is all there is."""
        self.values: dict[str, Any] = dict(values or {})


def rule(code: str, **values: Any) -> RuleError:
    """A refusal with no words: its `code` (e.g. "no_tuber_left") and the `values` the bot's words need (JSON-like;
    seats as seat numbers). The message is only for logs and tests: the presentation words it for the player."""
    shown = ", ".join(f"{k}={v!r}" for k, v in values.items())
    return RuleError(f"{code}({shown})" if shown else code, code, values)


def refuse(problem: "str | RuleError | None") -> None:
    """Raise the refusal a rule's check (a `why_not_…` function) found (a `rule(...)`, or a message); None passes."""
    if isinstance(problem, RuleError):
        raise problem
    if problem is not None:
        raise RuleError(problem)


class DataFileError(Exception):
    """A game's data file is missing or invalid; the message names the file and the field."""


class RegistrationError(Exception):
    """The games are registered inconsistently (a package under `engine/` without its `ENTRY`, a presentation under
    `bot/games/` without a game, or a game without a presentation); the message is one line naming the folder."""
