"""“What can I do now?” in Casablanca's words: `/game help`'s lines and `/game move`'s suggestions.

The commands are `commands.CasablancaCog`'s (`/cb bribe`, `/cb move`, `/cb hit`, `/cb object`, `/cb noobjection`,
`/cb dropobjection`, `/cb contest`, `/cb withdraw`, `/cb endturn`, `/cb hq`); the buttons ride on the bribe sheet
(the hand DM) and on the announcement's message in the thread.
"""

from collections.abc import Sequence
from typing import Any

from bot.presentation import Table
from engine.casablanca import actions as A

from .maptext import in_words, money, place


def help_line(table: Table, seat: int, kind: str, actions: Sequence[Any]) -> str | None:
    match kind:
        case "choose_hq":
            hqs = ", ".join(a.hq for a in actions)
            return f"🏠 **Choose your HQ** ({hqs}): its button in your DM, or `/cb hq`"
        case "bribe":
            first = " — at least three, this first turn" if getattr(table.view(seat), "first_turn", False) else ""
            return (
                f"💵 **Bribe** agents in secret, in $100 steps{first}: **Bribe…** on your sheet (DM or `/game hand`) "
                "picks them and opens a form with an amount for each; or `/cb bribe amounts:` "
                "(e.g. `purple 1300, green 500`)"
            )
        case "move":
            agents = ", ".join(dict.fromkeys(a.agent for a in actions))
            return f"👣 **Move** an agent one street ({agents}): **Move…** in your DM, or `/cb move agent: to:`"
        case "hit":
            return (
                "💥 **Hit**: one agent hits another in its building: **Hit…** in your DM, or `/cb hit agent: victim:`"
            )
        case "object":
            return (
                "✋ **Object** to the announcement, with your secret limit: **Object…** on its message, or "
                "`/cb object limit:`"
            )
        case "no_objection":
            return "👍 **Let it pass**: **No objection** on the announcement's message, or `/cb noobjection`"
        case "drop_objection":
            return (
                "🏳️ **Drop your objection** before its auction starts (the table is told; you won't be contested): "
                "**Drop objection** on your sheet, or `/cb dropobjection`"
            )
        case "contest":
            return "⚖️ **Contest** the objection, with your secret limit: **Contest…**, or `/cb contest limit:`"
        case "withdraw":
            return "↩️ **Withdraw** your announcement (the objection stands): **Withdraw**, or `/cb withdraw`"
        case "end_turn":
            return "⏭️ **End your turn** instead of announcing again: `/cb endturn`"
    return None


def describe_action(table: Table, seat: int, action: Any) -> str | None:
    match action:
        case A.ChooseHq(hq=hq):
            return f"Choose {place(hq)} as your HQ"
        case A.Bribe(amounts=amounts):
            return "Bribe " + ", ".join(f"{agent} {money(n)}" for agent, n in amounts.items())
        case A.Move(agent=agent, to=to, suitcase=suitcase):
            return f"Move {agent} to {in_words(to)}{' with the suitcase' if suitcase else ''}"
        case A.Hit(agent=agent, victim=victim):
            return f"{agent} hits {victim}"
        case A.Object(limit=limit):
            return f"Object, with a limit of {money(limit)}"
        case A.NoObjection():
            return "No objection"
        case A.DropObjection():
            return "Drop your objection"
        case A.Contest(limit=limit):
            return f"Contest, with a limit of {money(limit)}"
        case A.Withdraw():
            return "Withdraw your announcement"
        case A.EndTurn():
            return "End your turn"
    return None
