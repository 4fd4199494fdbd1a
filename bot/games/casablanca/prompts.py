"""The private side of the table: the bribe sheet's buttons and the answers with amount buttons.

Keys (persistent platform buttons, `bot.presentation.Button`):

| key                          | where                               | does                                        |
|------------------------------|-------------------------------------|---------------------------------------------|
| `obj.<no>`                   | the announcement post, the hand     | answers privately with the limit buttons    |
| `lim.<no>.<dollars>`         | that private answer                 | Object(limit)                               |
| `askno.<no>`                 | the announcement post               | answers privately with a No objection button |
| `noobj.<no>`                 | the hand, that private answer       | NoObjection                                 |
| `con.<no>.<taken>`           | the announcement post, the hand     | answers privately with the limit buttons    |
| `cl.<no>.<taken>.<dollars>`  | that private answer                 | Contest(limit)                              |
| `wd.<no>.<taken>`            | the announcement post, the hand     | Withdraw                                    |
| `drop.<no>`                  | the hand (an objector still waiting) | DropObjection                              |
| `mv` / `mva.<agent>`         | the hand / the answer               | private answers: pick an agent, then where  |
| `mvt.<agent>.<to>.<0/1>`     | the private answer                  | Move (to = the building's index on the map) |
| `hit` / `hta.<a>.<v>`        | the hand / the answer               | the hits you may announce / Hit             |
| `br` / `bra.<agent>`         | the hand / the answer               | pick an agent, then an amount               |
| `brt.<agent>.<dollars>`      | the private answer                  | Bribe one agent                             |
| `brs.<mask>`                 | the hand (first turn), the answer   | pick several agents (each click toggles one) |
| `brf.<mask>`                 | that private answer                 | a form: an amount per agent picked → Bribe  |
| `end`                        | the hand                            | EndTurn                                     |
| `hq.<index>`                 | the hand                            | ChooseHq                                    |

Amounts offered are a few round sums up to what the seat has (its own secret, shown to it alone); any other amount
goes with a `/cb` command. The announcement's number in a key makes a click on an old message harmless.
"""

from typing import TYPE_CHECKING, Any, cast

from bot.presentation import Button, Post
from bot.service import Refusal
from engine.casablanca.actions import (
    Bribe,
    ChooseHq,
    Contest,
    DropObjection,
    EndTurn,
    Hit,
    Move,
    NoObjection,
    Object,
    Withdraw,
)
from engine.casablanca.state import STEP
from engine.casablanca.views import SeatView

from .bribe_ideas import suggested_amounts
from .i18n import _
from .maptext import colour_word, dot, money, place, said

if TYPE_CHECKING:
    from bot.forms import Form
    from bot.presentation import Table

SUMS = (100, 200, 300, 500, 800, 1_000, 1_500, 2_000, 3_000, 5_000, 8_000, 10_000)


def seat_view(table: "Table", seat: int) -> SeatView:
    assert table.state is not None
    return cast(SeatView, table.game.view(table.state, seat))


def amounts_up_to(top: int, *, with_zero: bool) -> list[int]:
    """Round sums up to `top`, and `top` itself."""
    found = [0] if with_zero else []
    found += [s for s in SUMS if s < top]
    if top > 0:
        found.append(top)
    return found[:20]


def buildings(view: SeatView) -> list[str]:
    return list(view.streets)


# --- objections ----------------------------------------------------------------------------------------------


def asked(view: SeatView) -> bool:
    return view.phase == "objections" and view.seat in view.asked


def limit_post(table: "Table", seat: int, no: int) -> Post:
    """The private question "object with what limit?" with amount buttons (0 = a bluff: the bot passes at once)."""
    view = seat_view(table, seat)
    ann = view.announcement
    if ann is None or ann.no != no or view.phase != "objections":
        raise Refusal(_("That announcement is no longer open to objections."))
    if ann.seat == seat:
        raise Refusal(_("You can't object to your own announcement."))
    if seat not in view.asked:
        raise Refusal(_("You can't object now (a face-down sheet can't object until your next turn)."))
    agent = view.agents[ann.agent]
    mine = view.bribes[ann.agent]
    buttons = [
        Button(_("$0 (bluff)") if v == 0 else money(v), f"lim.{no}.{v}", "danger")
        for v in amounts_up_to(mine, with_zero=True)
    ]
    buttons.append(Button(_("No objection"), f"noobj.{no}", "secondary"))
    text = (
        f"**{table.title}** — "
        + _("object to: %(what)s?", what=said(view, ann))
        + "\n"
        + _(
            "Pick your **limit**: the most I may claim for you in the auction about %(agent)s (you have %(amount)s on "
            "them — only you see this). $0 is a bluff: if contested, I pass at once. Any other amount: "
            "`/cb object limit:`. You can change it until your auction runs.",
            agent=dot(agent.colour) + " " + agent.name,
            amount=money(mine),
        )
    )
    return Post(content=text, buttons=buttons)


def no_objection_post(table: "Table", seat: int, no: int) -> Post:
    view = seat_view(table, seat)
    ann = view.announcement
    if ann is None or ann.no != no or view.phase != "objections":
        raise Refusal(_("That announcement is no longer open to objections."))
    if seat not in view.asked:
        raise Refusal(_("You aren't asked about this announcement."))
    return Post(
        content=f"**{table.title}** — " + _("let it pass: %(what)s?", what=said(view, ann)),
        buttons=[Button(_("No objection"), f"noobj.{no}", "success"), Button(_("Object…"), f"obj.{no}", "danger")],
    )


def contest_post(table: "Table", seat: int, no: int, taken: int) -> Post:
    view = seat_view(table, seat)
    ann = view.announcement
    if ann is None or ann.no != no or view.phase != "contest" or len(view.auctions) != taken:
        raise Refusal(_("That objection is no longer waiting for an answer."))
    if ann.seat != seat:
        raise Refusal(_("Only the player who announced it contests or withdraws."))
    objector = (view.objectors or (None,))[0]
    agent = view.agents[ann.agent]
    mine = view.bribes[ann.agent]
    buttons = [Button(money(v), f"cl.{no}.{taken}.{v}", "primary") for v in amounts_up_to(mine, with_zero=True)]
    buttons.append(Button(_("Withdraw"), f"wd.{no}.{taken}", "secondary"))
    who = table.names[objector] if objector is not None else "?"
    text = (
        f"**{table.title}** — "
        + _("%(player)s objects to: %(what)s.", player=who, what=said(view, ann))
        + "\n"
        + _(
            "Contest with a **limit**: the most I may claim for you about %(agent)s (you have %(amount)s on them — "
            "only you see this). A tie is yours. Or withdraw. Any other amount: `/cb contest limit:`.",
            agent=dot(agent.colour) + " " + agent.name,
            amount=money(mine),
        )
    )
    return Post(content=text, buttons=buttons)


# --- the turn ------------------------------------------------------------------------------------------------


def move_post(table: "Table", seat: int, agent: int | None = None) -> Post:
    assert table.state is not None
    view = seat_view(table, seat)
    legal = [a for a in table.game.legal_actions(table.state, seat) if isinstance(a, Move)]
    if not legal:
        raise Refusal(_("You can't move an agent right now."))
    colours = [a.colour for a in view.agents]
    if agent is None:
        movable = sorted({colours.index(m.agent) for m in legal})
        buttons = [Button(view.agents[a].name, f"mva.{a}", "primary", dot(view.agents[a].colour)) for a in movable]
        return Post(content=f"**{table.title}** — " + _("which agent moves?"), buttons=buttons)
    names = buildings(view)
    mine = [m for m in legal if m.agent == colours[agent]]
    buttons = []
    for m in mine:
        label = _("%(building)s with 💼", building=place(m.to)) if m.suitcase else place(m.to)
        buttons.append(Button(label, f"mvt.{agent}.{names.index(m.to)}.{int(m.suitcase)}", "primary"))
    where = view.agents[agent].at or "?"
    text = _("%(agent)s moves from %(building)s to…", agent=view.agents[agent].name, building=place(where))
    return Post(content=f"**{table.title}** — {text}", buttons=buttons)


def hit_post(table: "Table", seat: int) -> Post:
    assert table.state is not None
    view = seat_view(table, seat)
    colours = [a.colour for a in view.agents]
    legal = [a for a in table.game.legal_actions(table.state, seat) if isinstance(a, Hit)]
    if not legal:
        raise Refusal(
            _(
                "No hit is possible for you now: the hitter needs $1,000 of your money on it and a victim in its "
                "building."
            )
        )
    buttons = [
        Button(
            _(
                "%(agent)s hits %(victim)s",
                agent=view.agents[colours.index(h.agent)].name,
                victim=view.agents[colours.index(h.victim)].name,
            ),
            f"hta.{colours.index(h.agent)}.{colours.index(h.victim)}",
            "danger",
        )
        for h in legal[:20]
    ]
    return Post(
        content=f"**{table.title}** — " + _("which hit do you announce? (It costs $1,000 of the hitter's bribe.)"),
        buttons=buttons,
    )


def bribe_post(table: "Table", seat: int, agent: int | None = None) -> Post:
    view = seat_view(table, seat)
    if view.phase != "turn" or view.turn != seat:
        raise Refusal(_("You can bribe only on your turn."))
    if view.first_turn:
        return several_post(table, seat, 0)
    if view.objected:
        raise Refusal(_("An objection stopped you this turn: no more bribing (announce something else or end it)."))
    if agent is None:
        alive = [a for a in view.agents if a.at is not None]
        buttons = [Button(a.name, f"bra.{a.index}", "primary", dot(a.colour)) for a in alive]
        buttons.append(Button(_("Several agents…"), "brs.0", "secondary", "📝"))
        return Post(content=f"**{table.title}** — " + _("bribe which agent?"), buttons=buttons)
    buttons = [Button(money(v), f"brt.{agent}.{v}", "success") for v in amounts_up_to(view.capital, with_zero=False)]
    text = _(
        "how much on %(agent)s? (Capital left %(capital)s.)", agent=view.agents[agent].name, capital=money(view.capital)
    )
    return Post(content=f"**{table.title}** — {text}", buttons=buttons)


FORM_AGENTS = 5
"""A form holds at most five fields (Discord's limit): a bribe by form names up to five agents."""


def chosen(view: SeatView, mask: int) -> list[int]:
    """The living agents whose bits are set in `mask`, at most `FORM_AGENTS`."""
    return [a.index for a in view.agents if a.at is not None and mask >> a.index & 1][:FORM_AGENTS]


def several_post(table: "Table", seat: int, mask: int) -> Post:
    """Pick the agents to bribe at once (each click toggles one: the choice so far rides in the keys), then
    **Amounts…** opens the form with an amount per agent picked (`bribe_form`)."""
    view = seat_view(table, seat)
    if view.phase != "turn" or view.turn != seat or view.objected:
        raise Refusal(_("You can bribe only on your turn."))
    picked = chosen(view, mask)
    least = 3 if view.first_turn else 1
    buttons = [
        Button(a.name, f"brs.{mask ^ (1 << a.index)}", "success" if a.index in picked else "secondary", dot(a.colour))
        for a in view.agents
        if a.at is not None and (a.index in picked or len(picked) < FORM_AGENTS)
    ]
    if len(picked) >= least:
        buttons.append(Button(_("Amounts…"), f"brf.{sum(1 << i for i in picked)}", "primary", "📝"))
    first = _("Your first turn: bribe at least three agents.") + " " if view.first_turn else ""
    names = ", ".join(view.agents[i].name for i in picked) or _("none yet")
    text = _(
        "Pick the agents to bribe (up to %(most)d), then **Amounts…**. Picked: %(picked)s. (Capital left %(capital)s.)",
        most=FORM_AGENTS,
        picked=names,
        capital=money(view.capital),
    )
    return Post(content=f"**{table.title}** — {first}{text}", buttons=buttons)


def bribe_form(table: "Table", seat: int, key: str) -> "Form | None":
    """The form behind **Amounts…** (`brf.<mask>`): an amount per agent picked."""
    from bot.forms import Form, FormField

    head, _dot, rest = key.partition(".")
    if head != "brf" or not rest.isdigit():
        return None
    view = seat_view(table, seat)
    picked = chosen(view, int(rest))
    if not picked:
        return None
    hints = suggested_amounts(view, picked)  # from the seat's own sheet and the map (`bribe_ideas`)
    fields = tuple(
        FormField(
            f"{view.agents[i].name} ({colour_word(view.agents[i].colour)})",
            _("in $100 steps, e.g. %(amount)s", amount=hints.get(i, STEP)),
            required=True,
        )
        for i in picked
    )
    return Form(title=_("Bribe in secret — capital %(capital)s", capital=money(view.capital)), key=key, fields=fields)


def form_bribe(table: "Table", seat: int, key: str, values: list[str]) -> Bribe:
    """The bribe a submitted form makes: each amount read as dollars ("1300", "$1,300", "1.3k" is refused)."""
    view = seat_view(table, seat)
    picked = chosen(view, int(key.partition(".")[2] or 0))
    amounts = {}
    for i, value in zip(picked, values, strict=False):
        digits = value.replace("$", "").replace(",", "").replace(" ", "")
        if not digits.isdigit():
            raise Refusal(
                _(
                    "“%(value)s” for %(agent)s is not an amount: write it in dollars, e.g. 500.",
                    value=value,
                    agent=view.agents[i].name,
                )
            )
        amounts[view.agents[i].colour] = int(digits)
    return Bribe(amounts=amounts)


# --- keys to actions and answers -----------------------------------------------------------------------------


def _ints(parts: list[str]) -> list[int] | None:
    return [int(p) for p in parts] if all(p.isdigit() for p in parts) else None


def reply(table: "Table", seat: int, key: str) -> Post | None:
    """The private answer behind a key, or None when the key is a move."""
    head, *rest = key.split(".")
    nums = _ints(rest)
    if nums is None:
        return None
    match head, nums:
        case "obj", [no]:
            return limit_post(table, seat, no)
        case "askno", [no]:
            return no_objection_post(table, seat, no)
        case "con", [no, taken]:
            return contest_post(table, seat, no, taken)
        case "mv", []:
            return move_post(table, seat)
        case "mva", [agent]:
            return move_post(table, seat, agent)
        case "hit", []:
            return hit_post(table, seat)
        case "br", []:
            return bribe_post(table, seat)
        case "bra", [agent]:
            return bribe_post(table, seat, agent)
        case "brs", [mask]:
            return several_post(table, seat, mask)
    return None


def action(table: "Table", seat: int, key: str) -> Any | None:
    """The engine action behind a key, or None."""
    head, *rest = key.split(".")
    nums = _ints(rest)
    if nums is None:
        return None
    view = seat_view(table, seat)
    colours = [a.colour for a in view.agents]
    ann = view.announcement
    match head, nums:
        case "lim", [no, limit]:
            _current(ann is not None and ann.no == no)
            return Object(limit=limit)
        case "noobj", [no]:
            _current(ann is not None and ann.no == no)
            return NoObjection()
        case "cl", [no, taken, limit]:
            _current(ann is not None and ann.no == no and len(view.auctions) == taken)
            return Contest(limit=limit)
        case "drop", [no]:
            _current(ann is not None and ann.no == no)
            return DropObjection()
        case "wd", [no, taken]:
            _current(ann is not None and ann.no == no and len(view.auctions) == taken)
            return Withdraw()
        case "mvt", [agent, to, case] if agent < len(colours) and to < len(view.streets):
            return Move(agent=colours[agent], to=buildings(view)[to], suitcase=bool(case))
        case "hta", [agent, victim] if max(agent, victim) < len(colours):
            return Hit(agent=colours[agent], victim=colours[victim])
        case "brt", [agent, amount] if agent < len(colours):
            return Bribe(amounts={colours[agent]: amount})
        case "end", []:
            return EndTurn()
        case "hq", [index] if index < len(view.hqs):
            return ChooseHq(hq=view.hqs[index])
    return None


def _current(ok: bool) -> None:
    if not ok:
        raise Refusal(_("Those buttons are out of date — the game has moved on."))
