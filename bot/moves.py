"""`/game move` without JSON: a player's legal moves as readable suggestions, and the chosen one found again.

Each suggestion's name is the game's words for the move ("Place the dollar marker on space 5"), the moves and their
order as the game's `move_choices` gives them (by default its legal moves, by `describe_action`); its value is a
short opaque token (`MARK` and a hash of the action), which is what Discord sends back when the player picks it. At
submission the token is looked up among the moves open to the seat *now* (those suggested, and its legal ones): a
move that is no longer open (the game went on since the list was shown) is refused kindly, never applied to a
different situation. A player who types instead of picking may type a suggestion's words (any case); JSON is still
read (`bot.typed.read_move`) for scripts and old habits, but never shown.
"""

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from bot.i18n.platform import N_, _
from bot.presentation import Presentation, Table
from bot.service import Refusal

MARK = "mv:"
MAX_CHOICES = 25
"""Discord shows at most 25 suggestions."""
MAX_NAME = 100
"""A suggestion's name and value are at most 100 characters each."""
HELP = N_("`/game help` says what you can do right now.")
STALE = N_("That move isn't open to you now: the game has moved on since the suggestions were shown.")
UNKNOWN = N_("I don't know that move: pick one of the suggestions that `/game move` shows while you type.")
"""Marked: worded where they are said (`_(STALE) + " " + _(HELP)`)."""


def token(table: Table, action: Any) -> str:
    """The action's token: the same for the same move, whatever the state (so it survives a refresh of the list)."""
    data = json.dumps(table.game.dump_action(action), sort_keys=True, separators=(",", ":"))
    return MARK + hashlib.sha256(data.encode()).hexdigest()[:16]


def suggestions(
    presentation: Presentation, table: Table, seat: int, current: str, actions: Sequence[Any] | None = None
) -> list[tuple[str, str]]:
    """(name, value) for the seat's legal moves whose words contain what was typed, at most 25."""
    if table.state is None:
        return []
    if actions is None:
        actions = table.game.legal_actions(table.state, seat)  # type: ignore[arg-type]
    typed = current.strip().lower()
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for action, words in presentation.move_choices(table, seat, actions):
        name = words[:MAX_NAME]
        if name in seen or (typed and typed not in name.lower()):
            continue  # two moves that read the same would be one suggestion the player can't tell apart
        seen.add(name)
        out.append((name, token(table, action)))
        if len(out) == MAX_CHOICES:
            break
    return out


def find(presentation: Presentation, table: Table, seat: int, text: str) -> Any | None:
    """The legal move behind a picked token or a suggestion's words; None if `text` is neither (e.g. JSON).
    Raises `Refusal` for a token or words that name no move open to the seat now."""
    if table.state is None:
        raise Refusal(_("The game hasn't started yet."))
    actions = table.game.legal_actions(table.state, seat)  # type: ignore[arg-type]
    # The suggested moves first (a game may offer more than its legal list samples), then the legal list's own.
    choices = [*presentation.move_choices(table, seat, actions)]
    choices += [(a, presentation.describe_action(table, seat, a)) for a in actions]
    typed = text.strip()
    if typed.startswith(MARK):
        for action, _words in choices:
            if token(table, action) == typed:
                return action
        raise Refusal(_(STALE) + " " + _(HELP))
    if typed.startswith(("{", "[", '"')):
        return None  # JSON: read as such by the caller
    matches = [a for a, words in choices if words.lower() == typed.lower()]
    if matches:
        return matches[0]
    raise Refusal(_(UNKNOWN) + " " + _(HELP))
