"""Kesse Rügen's controls: what a click on the action prompt's, the hand's or the status's buttons means.

- The action prompt's buttons (Plant / Move ↖↑↗←→↙↓↘ / Evict / Reclaim / Done) are the engine's actions as they are.
- A fist button (`fist.<duel>.<tubers>`) closes the seat's fist in that duel (see `prompts`): a click on a duel that
  is over is refused.
- A guess button (`guess.<duel>.<total>`, on the guesser's hand) is that guess (see `prompts`).
- **Choose in secret** on the status answers each duellist privately with their own fist buttons (`button_reply`).
"""

from typing import Any

from bot.controls import Controls
from bot.presentation import Post, Table
from engine.kesse_ruegen import geometry
from engine.kesse_ruegen.actions import Done, Evict, Move, Plant, Reclaim

from .prompts import FIST, GUESS, fist_action, fist_post, guess_action


class KesseRuegenControls(Controls):
    """The prompt's, the hand's and the status's buttons; see the module docstring."""

    def button_action(self, table: Table, seat: int, key: str) -> Any | None:
        simple = {"plant": Plant, "evict": Evict, "reclaim": Reclaim, "done": Done}
        if key in simple:
            return simple[key]()
        if key.startswith("move.") and key[5:] in geometry.STEPS:
            return Move(direction=key[5:])  # type: ignore[arg-type]
        if key.startswith(FIST + ".") and table.state is not None:
            return fist_action(table, seat, key)
        if key.startswith(GUESS + ".") and table.state is not None:
            return guess_action(table, seat, key)
        return super().button_action(table, seat, key)

    def button_reply(self, table: Table, seat: int, key: str) -> Post | None:
        if key == FIST and table.state is not None:
            return fist_post(table, seat)
        return None
