"""“What can I do now?” in Kesse Rügen's words: `/game help`'s lines and `/game move`'s suggestions.

The commands are `commands.KesseRuegenCog`'s (`/kr place`, `/kr duel`, `/kr choose`, `/kr guess`); the fist's buttons
ride on the hand DM and on the status's **Choose in secret**, the actions' on the prompt posted after the reveal.
"""

from collections.abc import Sequence
from typing import Any

from bot.presentation import Table
from engine.kesse_ruegen import actions as A
from engine.kesse_ruegen import geometry

from .i18n import N_, _, n_

DIRECTIONS = {
    "nw": N_("up-left"),
    "n": N_("up"),
    "ne": N_("up-right"),
    "w": N_("left"),
    "e": N_("right"),
    "sw": N_("down-left"),
    "s": N_("down"),
    "se": N_("down-right"),
}


def help_line(table: Table, seat: int, kind: str, actions: Sequence[Any]) -> str | None:
    match kind:
        case "place":
            return "📍 " + n_(
                "**Place your pawn** on a free field (%(n)d free): `/kr place square:` (e.g. `b2`)",
                "**Place your pawn** on a free field (%(n)d free): `/kr place square:` (e.g. `b2`)",
                len(actions),
            )
        case "challenge":
            who = ", ".join(table.names[a.opponent] for a in actions)
            return "⚔️ " + _("**Challenge** someone to a duel (%(who)s): `/kr duel opponent:`", who=who)
        case "choose":
            counts = "/".join(str(a.tubers) for a in actions)
            return "✊ " + _(
                "**Close your fist** on %(counts)s tubers, in secret: the buttons in your hand DM, or **Choose in "
                "secret** on the status message, or `/kr choose`",
                counts=counts,
            )
        case "guess":
            totals = ", ".join(str(a.total) for a in actions)
            return "🔢 " + _("**Guess the total** (%(totals)s): `/kr guess total:`", totals=totals)
        case "plant":
            return "🌱 " + _(
                "**Plant** a tuber under your pawn: the **Plant** button (on the actions prompt in the thread, "
                "below the reveal)"
            )
        case "move":
            arrows = " ".join(geometry.ARROWS[a.direction] for a in actions)
            return "👣 " + _(
                "**Move** your pawn one square (%(arrows)s): the arrow buttons on the actions prompt in the thread "
                "(below the reveal)",
                arrows=arrows,
            )
        case "evict":
            return "🧹 " + _(
                "**Evict** the tuber under your pawn to the barn: the **Evict** button (on the actions prompt in the "
                "thread, below the reveal)"
            )
        case "reclaim":
            return "♻️ " + _(
                "**Reclaim** one of your tubers from the barn: the **Reclaim** button (on the actions prompt in the "
                "thread, below the reveal)"
            )
        case "done":
            return "✅ " + _(
                "**End your actions** (none is left): the **Done** button (on the actions prompt in the thread, "
                "below the reveal)"
            )
    return None


def describe_action(table: Table, seat: int, action: Any) -> str | None:
    match action:
        case A.Place(square=square):
            return _("Place your pawn on %(square)s", square=square)
        case A.Challenge(opponent=opponent):
            return _("Challenge %(who)s to a duel", who=table.plain_name(opponent))
        case A.Choose(tubers=n):
            return n_("Close your fist on %(n)d tuber", "Close your fist on %(n)d tubers", n)
        case A.Guess(total=n):
            return _("Guess a total of %(n)d", n=n)
        case A.Plant():
            return _("Plant a tuber under your pawn")
        case A.Move(direction=d):
            return _("Move your pawn %(arrow)s (%(direction)s)", arrow=geometry.ARROWS[d], direction=_(DIRECTIONS[d]))
        case A.Evict():
            return _("Evict the tuber under your pawn to the barn")
        case A.Reclaim():
            return _("Reclaim a tuber from the barn")
        case A.Done():
            return _("End your actions")
    return None
