"""Casablanca's controls: what a click on a bribe sheet's or an announcement's button, or the bribe form, means.

Decisions:

- Buttons and the bribe form are read by `prompts` (which also draws the private answers they open): a key that
  gets a private answer (`button_reply`) applies no move; the others are moves or fall back to the generic Pass.
- Away players (the platform's autopilot in reaction windows) don't object; as the active player they contest
  with their whole bribe (the deadline's default).
"""

from typing import TYPE_CHECKING, Any

from bot.controls import Controls
from bot.presentation import Post, Table
from engine.casablanca.actions import Contest, NoObjection
from engine.events import Wait

from . import prompts

if TYPE_CHECKING:
    from bot.forms import Form


class CasablancaControls(Controls):
    """The bribe sheet's and the announcement's buttons, the bribe form, and the away player's move."""

    def button_reply(self, table: Table, seat: int, key: str) -> Post | None:
        if table.state is None:
            return None
        return prompts.reply(table, seat, key)

    def button_form(self, table: Table, seat: int, key: str) -> "Form | None":
        return prompts.bribe_form(table, seat, key) if table.state is not None else None

    def form_action(self, table: Table, seat: int, key: str, values: list[str]) -> Any:
        return prompts.form_bribe(table, seat, key, values)

    def button_action(self, table: Table, seat: int, key: str) -> Any | None:
        if table.state is not None:
            found = prompts.action(table, seat, key)
            if found is not None:
                return found
        return super().button_action(table, seat, key)

    def away_action(self, table: Table, seat: int, wait: Wait) -> Any | None:
        if table.state is None or wait.kind != "reaction":
            return None
        view = prompts.seat_view(table, seat)
        ann = view.announcement
        if ann is None:
            return None
        if view.phase == "objections" and seat in view.asked and not view.answered_me:
            return NoObjection()
        if view.phase == "contest" and seat == ann.seat:
            return Contest(limit=view.bribes[ann.agent])
        return None
