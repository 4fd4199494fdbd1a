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
import re
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
    moment,
    standings_lines,
    waiting_lines,
)
from engine.casablanca.actions import Bribe
from engine.casablanca.rules import Casablanca
from engine.casablanca.views import PublicView, SeatView
from engine.events import Event
from engine.game import Game

from . import helps
from .bribe_ideas import bribe_ideas
from .controls import CasablancaControls
from .maptext import dot, map_lines, money, out_line, player_lines, suitcase_line
from .picture import draw_picture

if TYPE_CHECKING:
    from discord.ext import commands


NAME = Casablanca.name
"""The engine's name for the game, which names this folder too."""
DETAILS = Button("Details", "details", "secondary", "📋")
"""The platform's Details button (`Presentation.status_details`): the whole table, privately."""
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
    "choose_hq": " (the buttons on your sheet, or `/cb hq`)",
    "contest_now": " (the buttons on the announcement, or `/cb contest limit:` / `/cb withdraw`)",
}
ASIDES = {"moved"}
"""News the announcement shows already ("No objections. ✅ It took effect."): said only in a message posted anyway
(the next player's ping), so a window closed by the player whose turn comes next adds no message to the thread."""
NEXT_TURN = re.compile(r"\{seat:\d+\}, it's your turn: .*")
"""The engine's words for an ordinary turn (not a first turn, nor the game's first), which only the prompt says."""


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
        title = table.title + (" — HQ variant" if view.variant else "")
        post = Post(title=title, colour=self.colour, footer=f"Game #{table.record.id} · {NAME}")
        lines: list[str] = []
        result = table.result
        over = result is not None or table.record.status in ("finished", "abandoned")
        if over:
            lines.append("**Game over.**" if result is not None else "**Game ended by a moderator.** Standings so far:")
            lines += standings_lines(table, result or table.game.standings(table.state), self)
        else:
            if table.record.status == "paused":
                lines.append("⏸️ **Paused by a moderator** — deadlines are on hold.")
            lines.append(now_line(view, names))
            lines += waiting_lines(table)
        # The map is the picture's (and the Details'): the text keeps to one phone screen beside it.
        lines.append(suitcase_line(view))
        out = out_line(view, names)
        if out:
            lines.append(out)
        if view.variant or any(p.left for p in view.players):
            lines.append("Players: " + " · ".join(player_lines(view, names)))
        post.description = "\n".join(lines)
        if view.sheets is not None:
            post.fields.append(("Bribe sheets", sheets_text(view, names)))
        post.buttons = [] if over else [Button("My bribe sheet", "hand", "primary", "📜")]
        post.buttons.append(DETAILS)
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
            title=f"{table.title} — the whole table",
            description="\n".join(lines),
            fields=[("Players", "\n".join(player_lines(view, names)))],
            colour=self.colour,
            footer=f"Game #{table.record.id} · {NAME}",
        )

    def picture(self, game: Game, view: BaseModel, names: Sequence[str]) -> bytes | None:  # type: ignore[type-arg]
        assert isinstance(view, PublicView)
        return draw_picture(view, names)

    # --- the bribe sheet ----------------------------------------------------------------------------------

    def private_view(self, table: Table, seat: int) -> Post:
        view = mine(table, seat)
        lines = [
            f"Capital left: **{money(view.capital)}** · money lost: {money(view.lost)}",
            "",
            *sheet_lines(view),
            "",
        ]
        prompt, buttons = self._sheet_prompt(table, view)
        if prompt:
            lines.append(prompt)
        if view.variant:
            hq = view.players[seat].hq
            lines.append(
                f"Your HQ: {hq or 'none yet'}."
                + (" Your sheet lies face down." if view.players[seat].face_down else "")
            )
        lines.append("Only you see this sheet. The map is in the table thread's status message.")
        return Post(
            title=f"Your bribe sheet — {table.title}",
            description="\n".join(lines),
            colour=self.colour,
            footer=f"Game #{table.record.id} · seat {seat + 1} ({table.names[seat]})",
            buttons=buttons,
        )

    def _sheet_prompt(self, table: Table, view: SeatView) -> tuple[str, list[Button]]:
        """What the sheet asks of its seat now, and the buttons for it (the same for everyone asked)."""
        seat = view.seat
        ann = view.announcement
        if view.phase == "over" or table.record.status in ("finished", "abandoned"):
            return "The game is over.", []
        if view.players[seat].left:
            return "You have left this game.", []
        if view.phase == "hq" and view.turn == seat:
            free = [hq for hq in view.hqs if all(p.hq != hq for p in view.players)]
            return "Choose your HQ:", [Button(hq, f"hq.{view.hqs.index(hq)}", "primary", "🏠") for hq in free]
        if view.phase == "objections" and ann is not None and seat in view.asked:
            answer = (
                ""
                if not view.answered_me
                else (
                    f" You object with a limit of {money(view.my_limit)}."
                    if view.my_limit is not None
                    else " You don't object."
                )
            )
            text = (
                f"📣 {table.names[ann.seat]} announces: {ann.said}. Do you object?{answer}{deadline_text(table)} "
                "(You may change your answer while the window is open.)"
            )
            return text, [
                Button("Object…", f"obj.{ann.no}", "danger"),
                Button("No objection", f"noobj.{ann.no}", "secondary"),
            ]
        if view.phase == "contest" and ann is not None and view.objectors:
            if seat == ann.seat:
                taken = len(view.auctions)
                text = (
                    f"⚖️ {table.names[view.objectors[0]]} objects to: {ann.said}. Contest or withdraw?"
                    f"{deadline_text(table)}"
                )
                return text, [
                    Button("Contest…", f"con.{ann.no}.{taken}", "primary"),
                    Button("Withdraw", f"wd.{ann.no}.{taken}", "secondary"),
                ]
            if view.my_limit is not None:
                drop = [Button("Drop objection", f"drop.{ann.no}", "secondary", "🏳️")]
                if view.objectors[0] == seat:
                    text = (
                        f"⚖️ Your objection is being taken: {table.names[ann.seat]} decides whether to contest it. "
                        "Until they do, you may still drop it."
                    )
                    return text, drop
                return (
                    f"Your objection waits its turn, with a limit of {money(view.my_limit)} (`/cb object` changes "
                    "it). Until its auction starts you may drop it: **Drop objection** or `/cb dropobjection`.",
                    drop,
                )
        if view.phase == "turn" and view.turn == seat:
            if view.first_turn:
                return (
                    "➡️ Your first turn: bribe at least three agents — **Bribe…** picks them and asks an amount for "
                    "each (or `/cb bribe amounts:`, e.g. `purple 1300, green 500, grey 400`).",
                    [Button("Bribe…", "brs.0", "success", "💵")],
                )
            buttons = [Button("Move…", "mv", "primary", "👣"), Button("Hit…", "hit", "danger", "💥")]
            if view.objected:
                buttons.append(Button("End turn", "end", "secondary"))
                return "➡️ Stopped by an objection: announce another move or hit, or end your turn.", buttons
            buttons.insert(0, Button("Bribe…", "br", "success", "💵"))
            what = "move an agent, bribe one agent, or hit" if view.variant else "bribe, move an agent, or hit"
            return f"➡️ Your turn: {what}.", buttons
        return "", []

    # --- narration and the announcement post ---------------------------------------------------------------

    def event_line(self, table: Table, event: Event) -> str | None:
        if not event.text or event.kind in SHOWN_ON_THE_ANNOUNCEMENT:
            return None
        if event.kind == "turn" and NEXT_TURN.fullmatch(event.text):
            return None  # the prompt's "⏳ @cleo, your turn" says it, once (the status and the sheet say what to do)
        line = table.render(event.text)
        icon = "⏰" if event.text.startswith("Time's up") else ICONS.get(event.kind)
        if icon:
            line = f"{icon} {line}"
        line += HINTS.get(event.kind, "")
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
        lines = [f"📣 **{names[ann.seat]}** announces: {ann.said}."]
        buttons: list[Button] = []
        current = view.announcement is not None and view.announcement.no == ann.no
        if current and view.phase == "objections":
            asked = ", ".join(f"{names[s]} ✅" if s in view.answered else f"{names[s]} ⏳" for s in view.asked)
            when = deadline_text(table)
            lines.append(f"Do you object? {asked}{when}")
            lines.append("Answers stay secret until the window closes; only then is it told who objects.")
            buttons = [
                Button("Object…", f"obj.{ann.no}", "danger"),
                Button("No objection", f"askno.{ann.no}", "secondary"),
            ]
        elif view.objected_by:
            lines.append(f"Objections from {', '.join(names[s] for s in view.objected_by)}.")
            dropped = [s for s in view.objected_by if s not in {a.objector for a in view.auctions}]
            if view.verdict == "stopped" and dropped:
                lines.append(f"({', '.join(names[s] for s in dropped)}: not taken — the announcement was already off.)")
        elif not current and view.verdict == "effect":
            lines.append("No objections.")
        for auction in view.auctions:
            lines.append(auction_line(view, auction, ann.seat, ann.agent, names))
        if current and view.phase == "contest" and view.objectors:
            taken_no = len(view.auctions)
            lines.append(
                f"⚖️ **{names[ann.seat]}**: **{names[view.objectors[0]]}** objects — contest or withdraw?"
                f"{deadline_text(table)}"
            )
            buttons = [
                Button("Contest…", f"con.{ann.no}.{taken_no}", "primary"),
                Button("Withdraw", f"wd.{ann.no}.{taken_no}", "secondary"),
            ]
        if not current:
            lines.append(
                {
                    "effect": "✅ It took effect.",
                    "stopped": "❌ Stopped by an objection: nothing of it happened.",
                    "off": "❌ Called off: nothing of it happened.",
                }.get(view.verdict, "")
            )
        return Post(content="\n".join(line for line in lines if line), buttons=buttons, ref=ref)

    # --- scores, the rest ------------------------------------------------------------------------

    def summary(self, table: Table) -> list[str]:
        """The final message's one showing of every bribe sheet (the status, up the thread, has them too)."""
        view = public(table) if table.state is not None else None
        if view is None or view.sheets is None:
            return []
        return ["📜 **Bribe sheets**", sheets_text(view, table.names)]

    def score_text(self, table: Table, score: int) -> str:
        if table.state is not None and public(table).variant:
            return "brought the suitcase home" if score else "—"
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
        return (
            f"{game.summary}\n"
            "Commands: `/cb bribe amounts:` (e.g. `purple 1300, green 500`), `/cb move agent: to: suitcase:`, "
            "`/cb hit agent: victim:`, `/cb object limit:` / `/cb noobjection` / `/cb dropobjection`, "
            "`/cb contest limit:` / `/cb withdraw`, "
            "`/cb endturn`, `/cb hq` (variant) — or the buttons on your bribe sheet (DM, `/game hand`) and on each "
            "announcement."
        )

    def cog(self, bot: "commands.Bot") -> "commands.Cog | None":
        from .commands import CasablancaCog

        return CasablancaCog(bot)  # type: ignore[arg-type]


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
        amount = view.bribes[a.index]
        out = " — out of the game" if a.at is None else ""
        lines.append(f"{dot(a.colour)} {a.name} ({a.colour}): **{money(amount)}**{out}")
    return lines


def sheets_text(view: PublicView, names: Sequence[str]) -> str:
    assert view.sheets is not None
    out = []
    for seat, row in enumerate(view.sheets):
        spent = ", ".join(f"{dot(view.agents[a].colour)} {money(v)}" for a, v in enumerate(row) if v) or "nothing"
        out.append(f"**{names[seat]}**: {spent}")
    return "\n".join(out)


def auction_line(view: PublicView, auction: Any, active: int, agent: int, names: Sequence[str]) -> str:
    """One auction's claims, compact: "Bert $100 · Anna matches · … · Bert $500 · Anna passes → stopped"."""
    o, a = names[auction.objector], names[active]
    if auction.ending == "withdrawn":
        return f"↩️ {a} withdrew before {o}'s objection — it stands."
    if auction.ending == "no_opening":
        return f"⚖️ {o} passes without a claim — the objection fails."
    words = []
    for seat, word, amount in auction.claims(active):
        who = o if seat == auction.objector else a
        words.append(
            f"{who} {money(amount)}" if word == "claim" else f"{who} {'matches' if word == 'match' else 'passes'}"
        )
    if len(words) > 8:
        words = [*words[:4], "…", *words[-4:]]
    verdict = "the objection succeeds" if auction.succeeded else "the objection fails"
    return f"⚖️ Claims on {view.agents[agent].name}: " + " · ".join(words) + f" → {verdict}."


def now_line(view: PublicView, names: Sequence[str]) -> str:
    ann = view.announcement
    match view.phase:
        case "hq":
            return f"🏠 **{names[view.turn]}** chooses an HQ (buttons on their sheet, or `/cb hq`)."
        case "turn" if view.first_turn:
            return f"➡️ **{names[view.turn]}**'s first turn: a bribe of at least three agents (**Bribe…**)."
        case "turn" if view.objected:
            return f"➡️ **{names[view.turn]}** was stopped: announce another move or hit, or end the turn."
        case "turn":
            return f"➡️ **{names[view.turn]}**'s turn: bribe, move or hit (`/cb …` or the buttons on the sheet)."
        case "objections" if ann is not None:
            return f"📣 {names[ann.seat]} announced: {ann.said}. Objections are open."
        case "contest" if ann is not None and view.objectors:
            return f"⚖️ {names[view.objectors[0]]} objects to {names[ann.seat]}'s announcement: contest or withdraw?"
    return ""


def deadline_text(table: Table) -> str:
    waits = table.waits
    if not waits or table.record.status == "paused":
        return ""
    return f" — deadline {moment(table.deadline(0, waits[0]))}"
