"""How Casablanca looks in Discord: the status message with the map as text, the bribe sheet (the hand), the
narration, and one announcement post per move or hit.

Everything public is drawn from `view(state, None)`; a seat's sheet from `view(state, seat)`. Decisions:

- The announcement post (a tracked post, key = the announcement's number) is posted instead of the narration of the
  announcement and its question ("Bert, Cleo: do you object?"), with **Object** and **No objection** buttons. Both
  answer privately (ephemerally): Object with the limit buttons, No objection with a one-click confirmation — so
  nobody's answer shows in the thread until the window closes. It is edited as things run: who has answered, the
  deadline, the objectors once the window closes, each auction's claims in one compact line, the active player's
  **Contest** / **Withdraw** buttons (the prompt names the objector), and finally what became of it. It is the
  one compact message of the claims; the narration says each auction once, as one line.
- The hand DM is the bribe sheet: capital left, money on each agent, money lost — with buttons for the common moves
  (Move…, Hit…, Bribe…, End turn) on the player's turn, Object / No objection while they are asked, Contest /
  Withdraw while an objection to them is taken, Drop objection while their own objection waits for its auction (the
  ruling "a waiting objector may drop out"), the HQ buttons in the variant's set-up. Everyone asked gets the
  same buttons at the same moment, whatever they hold. Several agents at once (the first turn): `/cb bribe`.
- The status shows the map as text (agents by building, the suitcase, who has carried it, agents out with the
  bribes lost on them), what the game waits for with its deadline, and in the variant who owns which HQ and whose
  sheet lies face down.
- The buttons, the bribe form and the away players' moves are the game's controls (`controls.py`).
"""

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from pydantic import BaseModel

from bot.hands import Hands
from bot.presentation import (
    Aside,
    Button,
    GenericPresentation,
    Post,
    Table,
    Task,
    moment,
    standings_lines,
    waiting_lines,
)
from engine.casablanca.actions import Bribe
from engine.casablanca.rules import Casablanca
from engine.casablanca.views import PublicView, SeatView
from engine.errors import RuleError
from engine.events import Event, Wait
from engine.game import Game

from . import helps
from .bribe_ideas import bribe_ideas
from .controls import CasablancaControls
from .i18n import N_, _, and_list, n_
from .maptext import colour_word, dot, map_lines, money, out_line, place, player_lines, said, suitcase_line
from .narration import announcement_of, claims_words, event_words
from .picture import draw_picture
from .refusals import option_help, refusal_words

if TYPE_CHECKING:
    from discord.ext import commands


NAME = Casablanca.name
"""The engine's name for the game, which names this folder too."""
COLOUR = 0x1F1F1F
ANNOUNCEMENT = "cb.ann"
"""Kind of the tracked announcement post."""

ICONS = {
    "turn": "➡️",
    "bribed": "💵",
    "announced": "📣",
    "contest_now": "⚖️",
    "auction": "⚖️",
    "withdrawn": "↩️",
    "objection_dropped": "🏳️",
    "undone": "❌",
    "face_down": "🙈",
    "sheet_up": "🙉",
    "moved": "👣",
    "hit": "💥",
    "won": "🏆",
    "sheets": "📜",
    "timeout": "⏰",
    "left": "🚪",
    "hq": "🏠",
    "choose_hq": "🏠",
    "turn_ended": "⏭️",
    "no_window": "🙈",
}
SHOWN_ON_THE_ANNOUNCEMENT = {"answered", "window_closed", "sheets"}
"""News that has its one place elsewhere, so the narration says it no second time: who has answered (the
announcement's ✅), how the window closed (the announcement's "No objections. ✅ It took effect." or "Objections
from …"), and at the end every bribe sheet (the final message's summary, and the final status's "Bribe sheets")."""
HINTS = {
    "choose_hq": N_("(the buttons on your sheet, or `/cb hq`)"),
    "contest_now": N_("(the buttons on the announcement, or `/cb contest limit:` / `/cb withdraw`)"),
}
ASIDES = {"moved"}
"""News the announcement shows already ("No objections. ✅ It took effect."): said only in a message posted anyway
(the next player's ping), so a window closed by the player whose turn comes next adds no message to the thread."""


def details_button() -> Button:
    """The platform's Details button (`Presentation.status_details`): the whole table, privately."""
    return Button(_("Details"), "details", "secondary", "📋")


def ordinary_turn(event: Event) -> bool:
    """An ordinary turn (not a first turn, nor the game's first), which only the prompt says."""
    return event.kind == "turn" and not event.data.get("first") and not event.data.get("begins")


def public(table: Table) -> PublicView:
    assert table.state is not None
    return cast(PublicView, table.game.view(table.state, None))


def mine(table: Table, seat: int) -> SeatView:
    assert table.state is not None
    return cast(SeatView, table.game.view(table.state, seat))


class CasablancaHands(Hands):
    """The bribe sheet's fingerprint (its buttons come from `private_view`, as by default)."""

    def digest(self, game: Game, state: Any, seat: int) -> str:  # type: ignore[type-arg]
        """What the sheet shows: its secrets, the agents out, the seat's own HQ and sheet, and which question it asks
        now (`prompt_kind`). The DM is edited only when that changes (the platform compares the buttons too), so an
        ordinary move or another player's turn edits nobody's sheet, and an objection window edits the sheets of
        everyone asked at once, whatever they hold."""
        view = cast(SeatView, game.view(state, seat))
        me = view.players[seat]
        out = [a.at is None for a in view.agents]
        return json.dumps([view.capital, list(view.bribes), view.lost, out, me.hq, me.face_down, prompt_kind(view)])


class CasablancaPresentation(GenericPresentation):
    colour = COLOUR
    controls_type = CasablancaControls
    hands_type = CasablancaHands

    # --- the status message -----------------------------------------------------------------------------

    def status(self, table: Table) -> Post:
        if table.state is None:
            return super().status(table)
        view = public(table)
        names = table.names
        title = _("%(title)s — HQ variant", title=table.title) if view.variant else table.title
        post = Post(title=title, colour=self.colour, footer=footer(table))
        lines: list[str] = []
        result = table.result
        over = result is not None or table.record.status in ("finished", "abandoned")
        if over:
            lines.append(
                _("**Game over.**") if result is not None else _("**Game ended by a moderator.** Standings so far:")
            )
            final = result or table.game.standings(table.state)
            lines += standings_lines(table, final.model_copy(update={"reason": reason_words(final.reason)}), self)
        else:
            if table.record.status == "paused":
                lines.append("⏸️ " + _("**Paused by a moderator** — deadlines are on hold."))
            lines.append(now_line(view, names))
            lines += waiting_lines(table)
        # The map is the picture's (and the Details'): the text keeps to one phone screen beside it.
        lines.append(suitcase_line(view))
        out = out_line(view, names)
        if out:
            lines.append(out)
        if view.variant or any(p.left for p in view.players):
            lines.append(_("Players: %(players)s", players=" · ".join(player_lines(view, names))))
        post.description = "\n".join(lines)
        if view.sheets is not None:
            post.fields.append((_("Bribe sheets"), sheets_text(view, names)))
        post.buttons = [] if over else [Button(_("My bribe sheet"), "hand", "primary", "📜")]
        post.buttons.append(details_button())
        return post

    def status_details(self, table: Table) -> Post | None:
        """The whole table in text: every building with its agents, the suitcase, the agents out, the players."""
        if table.state is None:
            return None
        view = public(table)
        names = table.names
        lines = [*map_lines(view, names), "", suitcase_line(view)]
        out = out_line(view, names)
        if out:
            lines.append(out)
        return Post(
            title=_("%(title)s — the whole table", title=table.title),
            description="\n".join(lines),
            fields=[(_("Players"), "\n".join(player_lines(view, names)))],
            colour=self.colour,
            footer=footer(table),
        )

    def picture(self, game: Game, view: BaseModel, names: Sequence[str]) -> bytes | None:  # type: ignore[type-arg]
        assert isinstance(view, PublicView)
        return draw_picture(view, names)

    # --- the bribe sheet ----------------------------------------------------------------------------------

    def private_view(self, table: Table, seat: int) -> Post:
        view = mine(table, seat)
        lines = [
            _(
                "Capital left: **%(capital)s** · money lost: %(lost)s",
                capital=money(view.capital),
                lost=money(view.lost),
            ),
            "",
            *sheet_lines(view),
            "",
        ]
        prompt, buttons = self._sheet_prompt(table, view)
        if prompt:
            lines.append(prompt)
        if view.variant:
            hq = view.players[seat].hq
            line = _("Your HQ: %(building)s.", building=place(hq)) if hq else _("Your HQ: none yet.")
            if view.players[seat].face_down:
                line += " " + _("Your sheet lies face down.")
            lines.append(line)
        lines.append(_("Only you see this sheet. The map is in the table thread's status message."))
        return Post(
            title=_("Your bribe sheet — %(title)s", title=table.title),
            description="\n".join(lines),
            colour=self.colour,
            footer=_(
                "Game #%(id)s · seat %(seat)s (%(player)s)",
                id=table.record.id,
                seat=seat + 1,
                player=table.names[seat],
            ),
            buttons=buttons,
        )

    def _sheet_prompt(self, table: Table, view: SeatView) -> tuple[str, list[Button]]:
        """What the sheet asks of its seat now, and the buttons for it (the same for everyone asked)."""
        seat = view.seat
        ann = view.announcement
        if view.phase == "over" or table.record.status in ("finished", "abandoned"):
            return _("The game is over."), []
        if view.players[seat].left:
            return _("You have left this game."), []
        if view.phase == "hq" and view.turn == seat:
            free = [hq for hq in view.hqs if all(p.hq != hq for p in view.players)]
            return _("Choose your HQ:"), [Button(place(hq), f"hq.{view.hqs.index(hq)}", "primary", "🏠") for hq in free]
        if view.phase == "objections" and ann is not None and seat in view.asked:
            text = "📣 " + _(
                "%(player)s announces: %(what)s. Do you object?", player=table.names[ann.seat], what=said(view, ann)
            )
            if view.answered_me and view.my_limit is not None:
                text += " " + _("You object with a limit of %(limit)s.", limit=money(view.my_limit))
            elif view.answered_me:
                text += " " + _("You don't object.")
            text += deadline_text(table) + " " + _("(You may change your answer while the window is open.)")
            return text, [
                Button(_("Object…"), f"obj.{ann.no}", "danger"),
                Button(_("No objection"), f"noobj.{ann.no}", "secondary"),
            ]
        if view.phase == "contest" and ann is not None and view.objectors:
            if seat == ann.seat:
                taken = len(view.auctions)
                text = "⚖️ " + _(
                    "%(objector)s objects to: %(what)s. Contest or withdraw?",
                    objector=table.names[view.objectors[0]],
                    what=said(view, ann),
                )
                return text + deadline_text(table), [
                    Button(_("Contest…"), f"con.{ann.no}.{taken}", "primary"),
                    Button(_("Withdraw"), f"wd.{ann.no}.{taken}", "secondary"),
                ]
            if view.my_limit is not None:
                drop = [Button(_("Drop objection"), f"drop.{ann.no}", "secondary", "🏳️")]
                if view.objectors[0] == seat:
                    text = "⚖️ " + _(
                        "Your objection is being taken: %(player)s decides whether to contest it. "
                        "Until they do, you may still drop it.",
                        player=table.names[ann.seat],
                    )
                    return text, drop
                return (
                    _(
                        "Your objection waits its turn, with a limit of %(limit)s (`/cb object` changes it). Until its "
                        "auction starts you may drop it: **Drop objection** or `/cb dropobjection`.",
                        limit=money(view.my_limit),
                    ),
                    drop,
                )
        if view.phase == "turn" and view.turn == seat:
            if view.first_turn:
                return (
                    "➡️ "
                    + _(
                        "Your first turn: bribe at least three agents — **Bribe…** picks them and asks an amount for "
                        "each (or `/cb bribe amounts:`, e.g. `%(example)s`).",
                        example=bribe_example(view),
                    ),
                    [Button(_("Bribe…"), "brs.0", "success", "💵")],
                )
            buttons = [Button(_("Move…"), "mv", "primary", "👣"), Button(_("Hit…"), "hit", "danger", "💥")]
            if view.objected:
                buttons.append(Button(_("End turn"), "end", "secondary"))
                return "➡️ " + _("Stopped by an objection: announce another move or hit, or end your turn."), buttons
            buttons.insert(0, Button(_("Bribe…"), "br", "success", "💵"))
            if view.variant:
                return "➡️ " + _("Your turn: move an agent, bribe one agent, or hit."), buttons
            return "➡️ " + _("Your turn: bribe, move an agent, or hit."), buttons
        return "", []

    # --- narration and the announcement post ---------------------------------------------------------------

    def reason_words(self, table: Table, reason: str) -> str:
        return reason_words(reason)

    def private_line(self, table: Table, event: Event) -> str | None:
        """A private event (your bribe, your objection and its limit) for its seat's hand DM."""
        if event.text:
            return table.render(event.text)
        return event_words(table, public(table), event) if table.state is not None else None

    def event_line(self, table: Table, event: Event) -> str | None:
        if event.kind in SHOWN_ON_THE_ANNOUNCEMENT or table.state is None:
            return None
        if ordinary_turn(event):
            return None  # the prompt's "⏳ @cleo, your turn" says it, once (the status and the sheet say what to do)
        # An event stored before the engine stopped wording (an undelivered row) keeps its words.
        line = table.render(event.text) if event.text else event_words(table, public(table), event)
        if line is None:
            return None
        icon = "⏰" if event.data.get("by_default") else ICONS.get(event.kind)
        if icon:
            line = f"{icon} {line}"
        if event.kind in HINTS:
            line += " " + _(HINTS[event.kind])
        return Aside(line) if event.kind in ASIDES else line

    def event_posts(self, table: Table, events: Sequence[Event]) -> list[Post]:
        if table.state is None:
            return []
        announced = [e for e in events if e.kind == "announced"]
        if not announced:
            return []
        post = self.announcement_post(table)
        if post is None:
            return []
        # The post says all an announcement and its question say: it stands in for their narration, unless the
        # same action said more (e.g. nobody could be asked, and it took effect at once).
        post.replaces_narration = {e.kind for e in events if e.public} <= {"announced", "object_now"}
        return [post]

    def live_posts(self, table: Table) -> list[Post]:
        if table.state is None:
            return []
        post = self.announcement_post(table)
        return [post] if post is not None else []

    def announcement_post(self, table: Table) -> Post | None:
        view = public(table)
        ann = view.last_announcement
        if ann is None:
            return None
        names = table.names
        ref = (ANNOUNCEMENT, str(ann.no))
        lines = ["📣 " + _("**%(player)s** announces: %(what)s.", player=names[ann.seat], what=said(view, ann))]
        buttons: list[Button] = []
        current = view.announcement is not None and view.announcement.no == ann.no
        if current and view.phase == "objections":
            asked = ", ".join(f"{names[s]} ✅" if s in view.answered else f"{names[s]} ⏳" for s in view.asked)
            lines.append(_("Do you object? %(asked)s", asked=asked) + deadline_text(table))
            lines.append(_("Answers stay secret until the window closes; only then is it told who objects."))
            buttons = [
                Button(_("Object…"), f"obj.{ann.no}", "danger"),
                Button(_("No objection"), f"askno.{ann.no}", "secondary"),
            ]
        elif view.objected_by:
            objectors = [names[s] for s in view.objected_by]
            lines.append(
                n_(
                    "Objection from %(players)s.",
                    "Objections from %(players)s.",
                    len(objectors),
                    players=and_list(objectors),
                )
            )
            dropped = [s for s in view.objected_by if s not in {a.objector for a in view.auctions}]
            if view.verdict == "stopped" and dropped:
                lines.append(
                    _(
                        "(%(players)s: not taken — the announcement was already off.)",
                        players=", ".join(names[s] for s in dropped),
                    )
                )
        elif not current and view.verdict == "effect":
            lines.append(_("No objections."))
        for auction in view.auctions:
            lines.append(auction_line(view, auction, ann.seat, ann.agent, names))
        if current and view.phase == "contest" and view.objectors:
            taken_no = len(view.auctions)
            lines.append(
                "⚖️ "
                + _(
                    "**%(player)s**: **%(objector)s** objects — contest or withdraw?",
                    player=names[ann.seat],
                    objector=names[view.objectors[0]],
                )
                + deadline_text(table)
            )
            buttons = [
                Button(_("Contest…"), f"con.{ann.no}.{taken_no}", "primary"),
                Button(_("Withdraw"), f"wd.{ann.no}.{taken_no}", "secondary"),
            ]
        if not current:
            match view.verdict:
                case "effect":
                    lines.append("✅ " + _("It took effect."))
                case "stopped":
                    lines.append("❌ " + _("Stopped by an objection: nothing of it happened."))
                case "off":
                    lines.append("❌ " + _("Called off: nothing of it happened."))
        return Post(content="\n".join(line for line in lines if line), buttons=buttons, ref=ref)

    # --- scores, the rest ------------------------------------------------------------------------

    def summary(self, table: Table) -> list[str]:
        """The final message's one showing of every bribe sheet (the status, up the thread, has them too)."""
        view = public(table) if table.state is not None else None
        if view is None or view.sheets is None:
            return []
        return ["📜 **" + _("Bribe sheets") + "**", sheets_text(view, table.names)]

    def score_text(self, table: Table, score: int) -> str:
        if table.state is not None and public(table).variant:
            return _("brought the suitcase home") if score else "—"
        return money(score)

    def help_line(self, table: Table, seat: int, kind: str, actions: Sequence[Any]) -> str | None:
        return helps.help_line(table, seat, kind, actions) or super().help_line(table, seat, kind, actions)

    def describe_action(self, table: Table, seat: int, action: Any) -> str:
        return helps.describe_action(table, seat, action) or super().describe_action(table, seat, action)

    def move_choices(self, table: Table, seat: int, actions: Sequence[Any]) -> list[tuple[Any, str]]:
        """The legal list only samples bribes (the same sum on three agents): `/game move` suggests a few unequal
        ones instead, worked out from the seat's own sheet and the map (`bribe_ideas`), then the other moves."""
        ideas = bribe_ideas(mine(table, seat)) if any(isinstance(a, Bribe) for a in actions) else []
        if not ideas:
            return super().move_choices(table, seat, actions)
        rest = [a for a in actions if not isinstance(a, Bribe)]
        return [(Bribe(amounts=i.amounts), i.label) for i in ideas] + super().move_choices(table, seat, rest)

    def rules(self, game: Game) -> str:  # type: ignore[type-arg]
        summary = _(
            "Bribe eight agents in secret, move them around the city, and carry the black suitcase home. Every move "
            "or hit is announced first: anyone may object, and the two then claim, step by step, how much they have "
            "on the agent. Main game (2–8): the most money on the agent who brings the suitcase into its own HQ "
            "wins. Variant `variant=hq` (2–4): each player owns an HQ — bring the suitcase into yours."
        )
        commands = _(
            "Commands: `/cb bribe amounts:` (e.g. `purple 1300, green 500`), `/cb move agent: to: suitcase:`, "
            "`/cb hit agent: victim:`, `/cb object limit:` / `/cb noobjection` / `/cb dropobjection`, "
            "`/cb contest limit:` / `/cb withdraw`, `/cb endturn`, `/cb hq` (variant) — or the buttons on your "
            "bribe sheet (DM, `/game hand`) and on each announcement."
        )
        return f"{summary}\n{commands}"

    def wait_task(self, table: Table, wait: Wait, names: Sequence[str]) -> Task:
        """What the awaited are to do (`engine.casablanca.waits`: `choose_hq`, `turn`, `objections`, `contest`)."""
        about: dict[str, Any] = dict(wait.about)
        match wait.what:
            case "choose_hq":
                return Task(_("choose your HQ"))
            case "turn" if about.get("first"):
                return Task(_("your first turn: bribe at least three agents"))
            case "turn" if about.get("objected"):
                return Task(_("announce another move or hit, or end your turn"))
            case "turn":
                return Task("")
            case "objections" | "contest" if table.state is not None:
                what = said(public(table), announcement_of(about))
                seat = int(about.get("seat", 0))
                player = names[seat] if seat < len(names) else "?"
                if wait.what == "contest":
                    objector = int(about.get("objector", 0))
                    return Task(
                        _(
                            "contest %(objector)s's objection or withdraw: %(what)s",
                            objector=names[objector] if objector < len(names) else "?",
                            what=what,
                        ),
                        named=(objector,),
                    )
                return Task(
                    _("object to %(player)s's announcement or let it pass: %(what)s", player=player, what=what),
                    named=(seat,),
                )
        return super().wait_task(table, wait, names)

    def refusal_words(self, table: Table, error: RuleError) -> str:
        words = refusal_words(table, error)
        return words if words is not None else super().refusal_words(table, error)

    def option_help(self, name: str) -> str | None:
        return option_help(name)

    def cog(self, bot: "commands.Bot") -> "commands.Cog | None":
        from .commands import CasablancaCog

        return CasablancaCog(bot)  # type: ignore[arg-type]


def footer(table: Table) -> str:
    return _("Game #%(id)s · %(game)s", id=table.record.id, game="Casablanca")


def reason_words(reason: str) -> str:
    """The result's reason (the engine's code) as the standings' last line says it."""
    match reason:
        case "home":
            return _("The suitcase was brought home.")
        case "hq":
            return _("The suitcase was brought into its owner's HQ.")
        case "last_agent":
            return _("Only one agent was left.")
        case "ended early":
            return _("Ended early.")
    return reason


def bribe_example(view: SeatView) -> str:
    """A bribe as `/cb bribe amounts:` reads it, in the colours of the language being spoken."""
    return _("%(a)s 1300, %(b)s 500, %(c)s 400", a=colour_word("purple"), b=colour_word("green"), c=colour_word("grey"))


def prompt_kind(view: SeatView) -> list[Any]:
    """Which question the sheet asks its seat now (mirrors `_sheet_prompt`), for `CasablancaHands.digest`."""
    seat, ann = view.seat, view.announcement
    if view.phase == "over":
        return ["over"]
    if view.players[seat].left:
        return ["left"]
    if view.phase == "hq" and view.turn == seat:
        return ["hq"]
    if view.phase == "objections" and ann is not None and seat in view.asked:
        return ["asked", ann.no, view.answered_me, view.my_limit]
    if view.phase == "contest" and ann is not None and view.objectors:
        if seat == ann.seat:
            return ["contest", ann.no, len(view.auctions)]
        if view.my_limit is not None:
            return ["queued", view.my_limit, view.objectors[0] == seat]
    if view.phase == "turn" and view.turn == seat:
        return ["turn", view.first_turn, view.objected]
    return []


def sheet_lines(view: SeatView) -> list[str]:
    lines = []
    for a in view.agents:
        amount = f"**{money(view.bribes[a.index])}**"
        colour = colour_word(a.colour)
        if a.at is None:
            line = _("%(agent)s (%(colour)s): %(amount)s — out of the game", agent=a.name, colour=colour, amount=amount)
        else:
            line = f"{a.name} ({colour}): {amount}"
        lines.append(f"{dot(a.colour)} {line}")
    return lines


def sheets_text(view: PublicView, names: Sequence[str]) -> str:
    assert view.sheets is not None
    out = []
    for seat, row in enumerate(view.sheets):
        spent = ", ".join(f"{dot(view.agents[a].colour)} {money(v)}" for a, v in enumerate(row) if v) or _("nothing")
        out.append(f"**{names[seat]}**: {spent}")
    return "\n".join(out)


def auction_line(view: PublicView, auction: Any, active: int, agent: int, names: Sequence[str]) -> str:
    """One auction's claims, compact: "Bert $100 · Anna matches · … · Bert $500 · Anna passes → stopped"."""
    o, a = names[auction.objector], names[active]
    if auction.ending == "withdrawn":
        return "↩️ " + _("%(player)s withdrew before %(objector)s's objection — it stands.", player=a, objector=o)
    if auction.ending == "no_opening":
        return "⚖️ " + _("%(objector)s passes without a claim — the objection fails.", objector=o)
    claims = " · ".join(claims_words(auction, active, names, " · "))
    name = view.agents[agent].name
    if auction.succeeded:
        return "⚖️ " + _("Claims on %(agent)s: %(claims)s → the objection succeeds.", agent=name, claims=claims)
    return "⚖️ " + _("Claims on %(agent)s: %(claims)s → the objection fails.", agent=name, claims=claims)


def now_line(view: PublicView, names: Sequence[str]) -> str:
    ann = view.announcement
    match view.phase:
        case "hq":
            return "🏠 " + _(
                "**%(player)s** chooses an HQ (buttons on their sheet, or `/cb hq`).", player=names[view.turn]
            )
        case "turn" if view.first_turn:
            return "➡️ " + _(
                "**%(player)s**'s first turn: a bribe of at least three agents (**Bribe…**).", player=names[view.turn]
            )
        case "turn" if view.objected:
            return "➡️ " + _(
                "**%(player)s** was stopped: announce another move or hit, or end the turn.", player=names[view.turn]
            )
        case "turn":
            return "➡️ " + _(
                "**%(player)s**'s turn: bribe, move or hit (`/cb …` or the buttons on the sheet).",
                player=names[view.turn],
            )
        case "objections" if ann is not None:
            return "📣 " + _(
                "%(player)s announced: %(what)s. Objections are open.", player=names[ann.seat], what=said(view, ann)
            )
        case "contest" if ann is not None and view.objectors:
            return "⚖️ " + _(
                "%(objector)s objects to %(player)s's announcement: contest or withdraw?",
                objector=names[view.objectors[0]],
                player=names[ann.seat],
            )
    return ""


def deadline_text(table: Table) -> str:
    waits = table.waits
    if not waits or table.record.status == "paused":
        return ""
    return " — " + _("deadline %(when)s", when=moment(table.deadline(0, waits[0])))
