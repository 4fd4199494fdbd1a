"""Schwarzmarkt's controls: a click on a hand's button is the move `prompts` made it for (or the generic Pass).

Refusals of a button or command stay private (the platform's default).
"""

from typing import Any

from bot.controls import Controls
from bot.presentation import Table

from . import prompts


class SchwarzmarktControls(Controls):
    """The hand's buttons (see `prompts`)."""

    def button_action(self, table: Table, seat: int, key: str) -> Any | None:
        if table.state is not None:
            found = prompts.action(table, seat, key)
            if found is not None:
                return found
        return super().button_action(table, seat, key)
