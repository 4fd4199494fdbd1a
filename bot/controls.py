"""How a game's players act in Discord: the input-mapping half of a game's presentation.

A `Presentation` (`bot.presentation`) draws; its `controls` (a `Controls`, or a game's subclass in
`bot/games/<game>/controls.py`) turn what a player does — a button click, a form's answers, a reaction — into the
engine action behind it, and say what the table hears when the engine refuses one. The platform asks, e.g.
`presentation.controls.button_action(table, seat, key)`:

- `button_action(table, seat, key)`: the engine action behind a button (`Button.key`), or raise `Refusal`;
- `button_form(table, seat, key)` / `form_action(table, seat, key, values)`: a button that opens a form (a modal
  with a few text fields, e.g. an amount per agent) and the move its answers make (see `bot.forms`);
- `button_reply(table, seat, key)`: a private answer to a button instead of a move: a `Post` (with its own buttons)
  shown to the clicker alone, ephemerally — e.g. "Choose in secret" on the public status message answering each
  duellist with their own choice buttons. Asked before `button_action`: a key that gets a reply applies no move;
  `None` (the default) passes the click on to `button_action`. It may raise `Refusal`;
- `reaction_action(table, ref, seat, emoji, added)`: the engine action behind a reaction on a tracked message;
- `reaction_allowed(table, ref, seat, emoji)`: whether a reaction added to a tracked message may stand (`seat` is
  None for someone who doesn't play). False: it is stray — the platform removes it when it may (Manage Messages;
  otherwise it stays and is ignored) and never asks `reaction_action` about it (nor about its removal);
- `reaction_refused(table, ref, seat, emoji, added, message)`: what to tell the table when the engine refused the
  action behind a reaction (`message`: the engine's reason, with seat references). The platform asks it under the
  game's lock right after the one refused `apply` (no second check that could disagree), posts the returned `Post`'s
  text in the thread (None: say nothing) and removes a refused added reaction when it may. Default: a short line
  mentioning the reactor with the reason;
- `action_refused(table, seat, action, message)`: what to tell the table when the engine refused a move made by
  command or button (`message`: the engine's reason, with seat references). The player always gets the refusal
  privately; a returned `Post`'s text is also posted in the thread. Default None: refusals stay private. (For a
  game whose move can come both as a reaction and as a command, e.g. KKK's shake, so the table hears the same.)
- `reconcile_refs(table)`: the tracked messages whose reactions are moves, as (kind, key, emoji): at start-up (and
  after a reconnect that may have lost gateway events) the platform reads who reacts there now, compares it with the
  reactions the game has heard of, and hands each difference to `reaction_allowed` / `reaction_action` like the
  event it missed (`Play.reconcile_reactions`). One REST call per message: list only live ones (e.g. KKK's
  offers not yet binding). Default: none;
- `away_action(table, seat, wait)`: what to do for a player who is away when a reaction window waits on them.

The defaults work for any game from its engine alone: a **Pass** button (key "pass") and the away player's pass
in a reaction window are the legal `pass` found among `legal_actions`. A controls object holds its presentation
(`self.presentation`) for the rare answer that is a drawing (a `button_reply`'s post): composed, not inherited.
Everything here is pure mapping: no Discord calls, no database.
"""

from typing import TYPE_CHECKING, Any

from bot.i18n.platform import _
from bot.post import Post
from bot.table import Table
from engine.events import Wait
from storage.models import MessageRef

if TYPE_CHECKING:
    from bot.forms import Form
    from bot.presentation import Presentation


def legal_pass(table: Table, seat: int) -> Any | None:
    """The seat's legal `pass` action right now, if the game lists one."""
    if table.state is None:
        return None
    for action in table.game.legal_actions(table.state, seat):  # type: ignore[arg-type]
        if getattr(action, "type", None) == "pass":
            return action
    return None


class Controls:
    """The input-mapping hooks; see the module docstring. A game subclasses this for its own buttons and reactions."""

    def __init__(self, presentation: "Presentation") -> None:
        self.presentation = presentation

    def button_action(self, table: Table, seat: int, key: str) -> Any | None:
        if key == "pass":
            return legal_pass(table, seat)
        return None

    def button_reply(self, table: Table, seat: int, key: str) -> Post | None:
        """A private answer to this button instead of a move (see the module docstring); None: it is a move."""
        return None

    def button_form(self, table: Table, seat: int, key: str) -> "Form | None":
        """A form (a Discord modal) this button opens instead of a reply or a move (see `bot.forms`); None: none."""
        return None

    def form_action(self, table: Table, seat: int, key: str, values: list[str]) -> Any:
        """The engine action behind a submitted form's answers (in the order of its fields); raise `Refusal`."""
        return None

    def reaction_action(self, table: Table, ref: MessageRef, seat: int, emoji: str, added: bool) -> Any | None:
        return None

    def reaction_allowed(self, table: Table, ref: MessageRef, seat: int | None, emoji: str) -> bool:
        """False: a stray reaction (e.g. a 🤝 by someone who isn't a party to the offer), removed if the bot may."""
        return True

    def reaction_refused(
        self, table: Table, ref: MessageRef, seat: int, emoji: str, added: bool, message: str
    ) -> Post | None:
        """The thread's answer to a reaction whose action the engine refused (`message`: its reason, with seat
        references); None says nothing. A refused added reaction is removed by the platform when it may."""
        values = {"who": table.mention(seat), "emoji": emoji, "why": table.render(message)}
        if added:
            return Post(content=_("%(who)s: your %(emoji)s doesn't count — %(why)s", **values))
        return Post(content=_("%(who)s: taking %(emoji)s off doesn't count — %(why)s", **values))

    def reconcile_refs(self, table: Table) -> list[tuple[str, str, str]]:
        """(kind, key, emoji) of each tracked message whose reactions with that emoji are moves right now: checked
        against Discord at start-up, for reactions added or taken off while the bot wasn't listening."""
        return []

    def action_refused(self, table: Table, seat: int, action: Any, message: str) -> Post | None:
        """What the thread is told when the engine refused this move made by command or button (`message`: its
        reason, with seat references); None (the default): only the player hears it, privately."""
        return None

    def away_action(self, table: Table, seat: int, wait: Wait) -> Any | None:
        return legal_pass(table, seat) if wait.kind == "reaction" else None
