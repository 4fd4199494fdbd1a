"""“What can I do now?” in Casablanca's words: `/game help`'s lines and `/game move`'s suggestions.

The commands are `commands.CasablancaCog`'s (`/cb bribe`, `/cb move`, `/cb hit`, `/cb object`, `/cb noobjection`,
`/cb dropobjection`, `/cb contest`, `/cb withdraw`, `/cb endturn`, `/cb hq`); the buttons ride on the bribe sheet
(the hand DM) and on the announcement's message in the thread.
"""

from collections.abc import Sequence
from typing import Any

from bot.presentation import Table
from engine.casablanca import actions as A

from .i18n import _
from .maptext import colour_word, in_words, money, place


def _agent(colour: str) -> str:
    return colour_word(colour)


def help_line(table: Table, seat: int, kind: str, actions: Sequence[Any]) -> str | None:
    match kind:
        case "choose_hq":
            hqs = ", ".join(place(a.hq) for a in actions)
            return "🏠 " + _("**Choose your HQ** (%(hqs)s): its button in your DM, or `/cb hq`", hqs=hqs)
        case "bribe" if getattr(table.view(seat), "first_turn", False):
            return "💵 " + _(
                "**Bribe** agents in secret, in $100 steps — at least three, this first turn: **Bribe…** on your "
                "sheet (DM or `/game hand`) picks them and opens a form with an amount for each; or `/cb bribe "
                "amounts:` (e.g. `%(example)s`)",
                example=_example(),
            )
        case "bribe":
            return "💵 " + _(
                "**Bribe** agents in secret, in $100 steps: **Bribe…** on your sheet (DM or `/game hand`) picks them "
                "and opens a form with an amount for each; or `/cb bribe amounts:` (e.g. `%(example)s`)",
                example=_example(),
            )
        case "move":
            agents = ", ".join(dict.fromkeys(_agent(a.agent) for a in actions))
            return "👣 " + _(
                "**Move** an agent one street (%(agents)s): **Move…** in your DM, or `/cb move agent: to:`",
                agents=agents,
            )
        case "hit":
            return "💥 " + _(
                "**Hit**: one agent hits another in its building: **Hit…** in your DM, or `/cb hit agent: victim:`"
            )
        case "object":
            return "✋ " + _(
                "**Object** to the announcement, with your secret limit: **Object…** on its message, or "
                "`/cb object limit:`"
            )
        case "no_objection":
            return "👍 " + _("**Let it pass**: **No objection** on the announcement's message, or `/cb noobjection`")
        case "drop_objection":
            return "🏳️ " + _(
                "**Drop your objection** before its auction starts (the table is told; you won't be contested): "
                "**Drop objection** on your sheet, or `/cb dropobjection`"
            )
        case "contest":
            return "⚖️ " + _("**Contest** the objection, with your secret limit: **Contest…**, or `/cb contest limit:`")
        case "withdraw":
            return "↩️ " + _("**Withdraw** your announcement (the objection stands): **Withdraw**, or `/cb withdraw`")
        case "end_turn":
            return "⏭️ " + _("**End your turn** instead of announcing again: `/cb endturn`")
    return None


def _example() -> str:
    return _("%(a)s 1300, %(b)s 500", a=colour_word("purple"), b=colour_word("green"))


def describe_action(table: Table, seat: int, action: Any) -> str | None:
    match action:
        case A.ChooseHq(hq=hq):
            return _("Choose %(building)s as your HQ", building=in_words(hq))
        case A.Bribe(amounts=amounts):
            return _("Bribe %(amounts)s", amounts=", ".join(f"{_agent(a)} {money(n)}" for a, n in amounts.items()))
        case A.Move(agent=agent, to=to, suitcase=True):
            return _("Move %(agent)s to %(building)s with the suitcase", agent=_agent(agent), building=in_words(to))
        case A.Move(agent=agent, to=to):
            return _("Move %(agent)s to %(building)s", agent=_agent(agent), building=in_words(to))
        case A.Hit(agent=agent, victim=victim):
            return _("%(agent)s hits %(victim)s", agent=_agent(agent), victim=_agent(victim))
        case A.Object(limit=limit):
            return _("Object, with a limit of %(limit)s", limit=money(limit))
        case A.NoObjection():
            return _("No objection")
        case A.DropObjection():
            return _("Drop your objection")
        case A.Contest(limit=limit):
            return _("Contest, with a limit of %(limit)s", limit=money(limit))
        case A.Withdraw():
            return _("Withdraw your announcement")
        case A.EndTurn():
            return _("End your turn")
    return None
