"""“What can I do now?” in Kesse Rügen's words: `/game help`'s lines and `/game move`'s suggestions.

The commands are `commands.KesseRuegenCog`'s (`/kr place`, `/kr duel`, `/kr choose`, `/kr guess`); the fist's buttons
ride on the hand DM and on the status's **Choose in secret**, the actions' on the prompt posted after the reveal.
"""

from collections.abc import Sequence
from typing import Any

from bot.presentation import Table
from engine.kesse_ruegen import actions as A
from engine.kesse_ruegen import geometry

DIRECTIONS = {"nw": "up-left", "n": "up", "ne": "up-right", "w": "left", "e": "right", "sw": "down-left"}
DIRECTIONS |= {"s": "down", "se": "down-right"}
PROMPT = "its button on the actions prompt in the thread (below the reveal)"


def help_line(table: Table, seat: int, kind: str, actions: Sequence[Any]) -> str | None:
    match kind:
        case "place":
            return f"📍 **Place your pawn** on a free field ({len(actions)} free): `/kr place square:` (e.g. `b2`)"
        case "challenge":
            who = ", ".join(table.names[a.opponent] for a in actions)
            return f"⚔️ **Challenge** someone to a duel ({who}): `/kr duel opponent:`"
        case "choose":
            counts = "/".join(str(a.tubers) for a in actions)
            return (
                f"✊ **Close your fist** on {counts} tubers, in secret: the buttons in your hand DM, or **Choose in "
                "secret** on the status message, or `/kr choose`"
            )
        case "guess":
            totals = ", ".join(str(a.total) for a in actions)
            return f"🔢 **Guess the total** ({totals}): `/kr guess total:`"
        case "plant":
            return f"🌱 **Plant** a tuber under your pawn: the **Plant** button ({PROMPT})"
        case "move":
            arrows = " ".join(geometry.ARROWS[a.direction] for a in actions)
            return f"👣 **Move** your pawn one square ({arrows}): {PROMPT.replace('its button', 'the arrow buttons')}"
        case "evict":
            return f"🧹 **Evict** the tuber under your pawn to the barn: the **Evict** button ({PROMPT})"
        case "reclaim":
            return f"♻️ **Reclaim** one of your tubers from the barn: the **Reclaim** button ({PROMPT})"
        case "done":
            return f"✅ **End your actions** (none is left): the **Done** button ({PROMPT})"
    return None


def describe_action(table: Table, seat: int, action: Any) -> str | None:
    match action:
        case A.Place(square=square):
            return f"Place your pawn on {square}"
        case A.Challenge(opponent=opponent):
            return f"Challenge {table.plain_name(opponent)} to a duel"
        case A.Choose(tubers=n):
            return f"Close your fist on {n} tuber{'s' * (n != 1)}"
        case A.Guess(total=n):
            return f"Guess a total of {n}"
        case A.Plant():
            return "Plant a tuber under your pawn"
        case A.Move(direction=d):
            return f"Move your pawn {geometry.ARROWS[d]} ({DIRECTIONS[d]})"
        case A.Evict():
            return "Evict the tuber under your pawn to the barn"
        case A.Reclaim():
            return "Reclaim a tuber from the barn"
        case A.Done():
            return "End your actions"
    return None
