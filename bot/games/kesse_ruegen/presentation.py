"""How Kesse Rügen looks in Discord: the status message with the emoji board, the private view, the narration, and
the action prompt whose buttons are Plant / Move ↖↑↗←→↙↓↘ / Evict / Reclaim.

Everything is drawn from the engine's views (`view(state, None)` for the table, `view(state, seat)` for a hand), so
a closed fist can only ever appear in its owner's hand. Decisions:

- The status message shows what the table waits for with the command to use, the board (see `board`), the barn's
  contents, one line per player (fields held of those needed, supply, barn, where the pawn stands) and the last
  revealed duel.
- The action prompt is one thread message per won duel (a tracked post, key = the duel's number), posted at the
  reveal and edited in place after every action: it shows the board and the legal actions as buttons, and loses
  its buttons when the actions are over. Only legal actions get a button; `Done` appears only when no action is
  left — which the engine never leaves waiting (it ends the turn itself), so in practice the prompt just closes.
  It is also a live post: after any change, a moderator's undo included, the platform re-renders it from the
  current state, so an undone action's button comes back (and a prompt whose reveal was undone says so).
  Its first lines are the guess and the reveal that opened it, redrawn from the state (`last_duel`, with the
  engine's own wording), so it is posted *instead of* the reveal's narration (`replaces_narration`): the
  `/kr guess` reply is the prompt, one message and one REST call less. Not when the guess was the deadline's
  default: the state can't tell that, so the narration ("Time's up: … by default") is posted as usual and the
  prompt after it repeats the reveal line.
- The hand shows the seat's tuber kind and colour and, during a duel, its own fist. While the fist is awaited it
  asks the question and carries the 0 / 1 / 2 buttons (see `prompts`); once closed it says "Duel #N vs Bert: you
  closed your fist on 2 …", which stays true after the reveal. `KesseRuegenHands.digest` leaves the fist out: every
  change the DM must show comes with a change of its buttons or a private event (see `KesseRuegenHands.digest`), so
  the reveal edits no hand DM. `/game hand` after the reveal also names the seat's last duel while the state still
  has it; the DM keeps the line it had (still true). With three or four players a seat that has left shows crossed
  out in the status.
- The status message has **Choose in secret** while fists are awaited: it answers each duellist privately with
  their own buttons (`controls.button_reply`, see `controls.py`) — the way for a player whose DMs are closed (as is
  `/kr choose`).
"""

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from pydantic import BaseModel

from bot.hands import Hands
from bot.presentation import Aside, Button, GenericPresentation, Post, Table, standings_lines, waiting_lines
from engine.events import Event, Wait
from engine.game import Game
from engine.kesse_ruegen import geometry
from engine.kesse_ruegen.actions import Evict, Move, Plant, Reclaim
from engine.kesse_ruegen.duelling import guess_text, reveal_text
from engine.kesse_ruegen.rules import KesseRuegen
from engine.kesse_ruegen.views import PublicView, SeatView

from . import helps
from .board import barn_line, colours, grid, player_lines, under_pawn
from .controls import KesseRuegenControls
from .picture import draw_picture
from .prompts import FIST, fist_buttons, fist_line, guess_buttons, guess_question, question

if TYPE_CHECKING:
    from discord.ext import commands

DETAILS = Button("Details", "details", "secondary", "📋")
"""The platform's Details button (`Presentation.status_details`): the whole table, privately."""
NAME = KesseRuegen.name
"""The engine's name for the game, which names this folder too."""
COLOUR = 0x8D5524

ACTION_KINDS = frozenset({"planted", "moved", "evicted", "reclaimed", "actions_lost", "won", "stalled"})
"""Events that change the action prompt of the duel under way."""
PROMPT = "kr.actions"
"""Kind of the tracked action prompt message."""

ICONS = {
    "placed": "📍",
    "turn": "➡️",
    "challenged": "⚔️",
    "chosen": "✊",
    "guess_now": "🔢",
    "guessed": "🔢",
    "revealed": "👐",
    "planted": "🌱",
    "moved": "👣",
    "evicted": "🧹",
    "reclaimed": "♻️",
    "actions_lost": "⛔",
    "timeout": "⏰",
    "won": "🏆",
    "stalled": "🏁",
    "left": "🚪",
    "duel_off": "✋",
}


def public(table: Table) -> PublicView:
    assert table.state is not None
    return cast(PublicView, table.game.view(table.state, None))


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def action_buttons(actions: Sequence[Any]) -> list[Button]:
    """Buttons for the legal actions: Plant, Evict, Reclaim first, then the moves in compass order."""
    buttons: list[Button] = []
    kinds = {type(a) for a in actions}
    if Plant in kinds:
        buttons.append(Button("Plant", "plant", "success", "🌱"))
    if Evict in kinds:
        buttons.append(Button("Evict", "evict", "danger", "🧹"))
    if Reclaim in kinds:
        buttons.append(Button("Reclaim", "reclaim", "primary", "♻️"))
    moves = {a.direction for a in actions if isinstance(a, Move)}
    for direction in geometry.STEPS:
        if direction in moves:
            buttons.append(Button(geometry.ARROWS[direction], f"move.{direction}", "secondary"))
    return buttons


class KesseRuegenHands(Hands):
    """The hand's fingerprint (its buttons come from `private_view`, as by default)."""

    def digest(self, game: Game, state: Any, seat: int) -> str:  # type: ignore[type-arg]
        """The part of the hand that must be redrawn when it changes: what the seat plays and its goal.

        The fist line is left out on purpose. Everything about the fist that the DM must show arrives with a change
        of the hand's buttons (which the platform compares too) or with a private event (which always edits the
        hand): a challenge brings the fist buttons, closing the fist (a click, `/kr choose`, the deadline's random pick)
        takes them away and sends "your fist holds …", an undo brings them back or takes them away, a duel called
        off because a player left sends "your fist goes back". The reveal changes neither — and the line the DM
        shows then ("Duel #N vs Bert: you closed your fist on 2 …") stays true after it — so the reveal costs no
        edit of either hand DM (the default digest, the seat's secret `my_choice`, would edit both)."""
        view = cast(SeatView, game.view(state, seat))
        me = view.players[seat]
        return json.dumps([me.tuber, me.tubers, view.win_fields, me.left])


class KesseRuegenPresentation(GenericPresentation):
    colour = COLOUR
    controls_type = KesseRuegenControls
    hands_type = KesseRuegenHands

    # --- the status message ---------------------------------------------------------------------------

    def picture(self, game: Game, view: BaseModel, names: Sequence[str]) -> bytes | None:  # type: ignore[type-arg]
        assert isinstance(view, PublicView)
        return draw_picture(view, names)

    def status(self, table: Table) -> Post:
        if table.state is None:
            return super().status(table)
        view = public(table)
        names = table.names
        post = Post(
            title=table.title,
            colour=self.colour,
            footer=f"Game #{table.record.id} · {NAME} · a1 is bottom left, {geometry.last(view.size)} top right",
        )
        lines: list[str] = []
        result = table.result
        over = result is not None or table.record.status in ("finished", "abandoned")
        if over:
            if result is not None and view.stalled:
                most = view.players[view.winners[0]].fields
                lines.append(
                    f"🏁 No tubers left in any supply, so the game ended: 🏆 {winners_text(view, names)} with tubers "
                    f"on {plural(most, 'field')}!"
                )
            elif result is not None and view.winner is not None:
                lines.append(f"🏆 **{names[view.winner]}** wins with tubers on {view.win_fields} fields!")
            else:
                lines.append("**Game ended by a moderator.** Standings so far:")
            lines += standings_lines(table, result or table.game.standings(table.state))
        else:
            if table.record.status == "paused":
                lines.append("⏸️ **Paused by a moderator** — deadlines are on hold.")
            lines.append(now_line(view, names))
            lines += waiting_lines(table)
        # The board is the picture's (and the Details'): the text keeps to one phone screen beside it.
        lines += [barn_line(view, names), f"**First to {view.win_fields} fields wins:**", *player_lines(view, names)]
        if view.last_duel is not None:
            lines.append(f"Last duel: {last_duel_line(view, names)}")
        post.description = "\n".join(lines)
        post.buttons = [] if over else [Button("My hand", "hand", "primary", "🂠")]
        if not over and view.phase == "choose":
            post.buttons.append(Button("Choose in secret", FIST, "success", "✊"))
        post.buttons.append(DETAILS)
        return post

    def status_details(self, table: Table) -> Post | None:
        """The whole table in text: the board as a grid with its legend, the barn, the players, the last duel."""
        if table.state is None:
            return None
        view = public(table)
        names = table.names
        post = Post(
            title=f"{table.title} — the whole table",
            colour=self.colour,
            footer=f"Game #{table.record.id} · a1 is bottom left, {geometry.last(view.size)} top right",
        )
        lines = [grid(view), barn_line(view, names), "", *player_lines(view, names)]
        if view.last_duel is not None:
            lines.append(f"Last duel: {last_duel_line(view, names)}")
        post.description = "\n".join(lines)
        return post

    # --- the hand -------------------------------------------------------------------------------------

    def private_view(self, table: Table, seat: int) -> Post:
        assert table.state is not None
        view = cast(SeatView, table.game.view(table.state, seat))
        me = view.players[seat]
        c = colours(view)[seat]
        lines = [
            f"You play the **{me.tubers}** {c.tuber}; your pawn is {c.pawn}.",
            f"Goal: your {me.tubers} on {view.win_fields} fields. The board is in the table thread's status message.",
            "",
        ]
        duel = view.duel
        last = view.last_duel
        buttons: list[Button] = []
        if view.phase == "over" or table.record.status in ("finished", "abandoned"):
            lines.append("The game is over.")
        elif me.left:
            lines.append("You have left this game.")
        elif duel is not None and seat in (duel.challenger, duel.challenged):
            other = duel.challenged if seat == duel.challenger else duel.challenger
            if view.my_choice is not None:
                lines.append(
                    f"{fist_line(view, view.duels, table.names[other], view.my_choice)} — secret until the reveal."
                )
                if view.phase == "guess" and seat == guesser(view):
                    buttons = guess_buttons(table, seat)
                    lines.append(guess_question(table, seat))
            else:
                buttons = fist_buttons(table, seat)
                lines.append(question(table, seat) + (" Press a button below." if buttons else ""))
        elif last is not None and seat in (last.challenger, last.challenged):
            # The duel this hand last showed, now revealed: what it said then is still true.
            number = view.duels if duel is None else view.duels - 1
            other = last.challenged if seat == last.challenger else last.challenger
            held = last.challenger_choice if seat == last.challenger else last.challenged_choice
            lines.append(
                "Nothing secret right now: your fist is only secret during your duels. Last: "
                f"{fist_line(view, number, table.names[other], held)} (shown at the reveal)."
            )
        else:
            lines.append("Nothing secret right now: your fist is only secret during your duels.")
        return Post(
            title=f"Your tubers — {table.title}",
            description="\n".join(lines),
            colour=self.colour,
            footer=f"Game #{table.record.id} · seat {seat + 1} ({table.plain_name(seat)})",
            buttons=buttons,
        )

    # --- narration and the action prompt --------------------------------------------------------------

    def event_line(self, table: Table, event: Event) -> str | None:
        if not event.text:
            return None
        line = table.render(event.text)
        icon = "⏰" if event.text.startswith("Time's up") else ICONS.get(event.kind)
        if icon:
            line = f"{icon} {line}"
        line += event_hint(table, event)
        if event.kind in ACTION_KINDS and table.state is not None and public(table).phase == "act":
            # An action with more to come: the duel's action prompt shows it (its last lines), so the thread
            # is told only where it costs no new message.
            return Aside(line)
        return line

    def event_posts(self, table: Table, events: Sequence[Event]) -> list[Post]:
        if table.state is None:
            return []
        kinds = {e.kind for e in events}
        # A reveal that opens the actions: the new prompt carries the guess and the reveal at its top (redrawn from
        # the state), so it is posted instead of the narration — as the `/kr guess` reply — saving a message.
        # Not when the guess was the deadline's default: the prompt can't tell that from the state, and the
        # narration's "Time's up" says it.
        replaces = kinds == {"guessed", "revealed"} and not any(e.text.startswith("Time's up") for e in events)
        opened = any(
            e.kind == "revealed" and e.data.get("winner") is not None and int(e.data.get("total") or 0) > 0  # type: ignore[arg-type]
            for e in events
        )
        if opened and "actions_lost" in kinds:
            return []  # the right guesser could not act at all: the narration says so, no prompt needed
        if not opened and not kinds & ACTION_KINDS:
            return []
        actor = next(
            (
                int(e.data[key])  # type: ignore[arg-type]
                for e in events
                for key in ("seat", "winner")
                if (e.kind in ACTION_KINDS or e.kind == "revealed") and e.data.get(key) is not None
            ),
            None,
        )
        post = self.action_prompt(table, actor)
        if view_phase(table) == "act":
            done = [line for e in events if e.kind in ACTION_KINDS and (line := self.event_line(table, e))]
            post.content = "\n".join([post.content, *done])  # the action just taken, under the prompt
        post.replaces_narration = replaces
        return [post]

    def live_posts(self, table: Table) -> list[Post]:
        """The current duel's prompt, re-rendered after any change (the platform edits it only if it was posted)."""
        if table.state is None or public(table).duels == 0:
            return []
        return [self.action_prompt(table)]

    def action_prompt(self, table: Table, actor: int | None = None) -> Post:
        """The prompt of the current duel's actions: buttons while they last, a closing line after."""
        view = public(table)
        names = table.names
        ref = (PROMPT, str(view.duels))
        post = self._prompt(table, view, names, ref, actor)
        header = self._reveal_header(table, view)
        if header:
            post.content = f"{header}\n{post.content}"
        return post

    def _reveal_header(self, table: Table, view: PublicView) -> str:
        """The guess and the reveal that opened this prompt's actions, as the narration said them (the prompt is
        posted in place of that narration); empty while the duel's reveal is undone."""
        d = view.last_duel
        if d is None or view.duel is not None or d.winner is None or d.total == 0:
            return ""
        guessed = Event(kind="guessed", text=guess_text(d.challenged, d.challenged_guess))
        revealed = Event(kind="revealed", text=reveal_text(d))
        return "\n".join(line for e in (guessed, revealed) if (line := self.event_line(table, e)))

    def _prompt(
        self, table: Table, view: PublicView, names: Sequence[str], ref: tuple[str, str], actor: int | None
    ) -> Post:
        if view.phase == "act" and view.actor is not None:
            assert table.state is not None
            who = view.actor
            legal = table.game.legal_actions(table.state, who)
            buttons = action_buttons(legal) or [Button("Done", "done", "secondary")]
            pawn = under_pawn(view, view.players[who], names)
            done = view.actions_total - view.actions_left
            content = (
                f"🎯 **{names[who]}**, take your actions: **{view.actions_left} left** of "
                f"{view.actions_total} (done {done}). Your pawn is {pawn}."
            )
            return Post(content=content, description=grid(view), colour=self.colour, buttons=buttons, ref=ref)
        if view.phase == "over" and view.winners:
            return Post(content=f"🏆 {winners_text(view, names, past=True)} — the game is over.", ref=ref)
        if view.phase in ("choose", "guess"):  # only after a moderator undid this duel's reveal
            return Post(content="↩️ A moderator took this duel back before the reveal: no actions yet.", ref=ref)
        if actor is None and view.last_duel is not None:
            actor = view.last_duel.winner
        who_name = names[actor] if actor is not None else "The right guesser"
        return Post(content=f"✅ {who_name}'s actions are done.", ref=ref)

    # --- prompts ------------------------------------------------------------------------------------

    def prompt_in_hand(self, table: Table, wait: Wait) -> bool:
        """A duel is played in the duellists' DMs: the fists (secret) and the guesses have their buttons on the
        hand, so their prompts come there, and the thread tells the duel in one message, edited as it goes. The
        turn's hand-overs — who acts after the reveal, who challenges next — are pinged in the thread."""
        return table.state is not None and public(table).phase in ("choose", "guess")

    # --- scores and the rest -------------------------------------------------------------------------

    def score_text(self, table: Table, score: int) -> str:
        return f"{score} field{'s' if score != 1 else ''}"

    def summary(self, table: Table) -> list[str]:
        if table.state is None:
            return []
        view = cast(PublicView, table.game.view(table.state, None))
        names = table.names
        # The fields held are the standings' (just above it in the final message): only what they don't say.
        left = " · ".join(f"{names[p.seat]} {p.supply} {p.tubers}" for p in view.players if not p.left)
        return [f"📊 {plural(view.duels, 'duel')} played · left in supply: {left}"]

    def help_line(self, table: Table, seat: int, kind: str, actions: Sequence[Any]) -> str | None:
        return helps.help_line(table, seat, kind, actions) or super().help_line(table, seat, kind, actions)

    def describe_action(self, table: Table, seat: int, action: Any) -> str:
        return helps.describe_action(table, seat, action) or super().describe_action(table, seat, action)

    def rules(self, game: Game) -> str:  # type: ignore[type-arg]
        return (
            f"{game.summary}\n"
            "Commands: `/kr place square:` to set your pawn, `/kr duel opponent:` to challenge (with two players the "
            "duel starts by itself), your fist with the "
            "buttons on your hand DM (or **Choose in secret** on the status message, or `/kr choose`), "
            "`/kr guess total:`; the actions with the buttons on the prompt."
        )

    def cog(self, bot: "commands.Bot") -> "commands.Cog | None":
        from .commands import KesseRuegenCog

        return KesseRuegenCog(bot)  # type: ignore[arg-type]


def view_phase(table: Table) -> str | None:
    return public(table).phase if table.state is not None else None


def guesser(view: PublicView) -> int | None:
    """The duellist whose guess the duel waits for (the challenger first)."""
    duel = view.duel
    if duel is None or view.phase != "guess":
        return None
    return duel.challenger if duel.challenger_guess is None else duel.challenged


def winners_text(view: PublicView, names: Sequence[str], *, past: bool = False) -> str:
    """ "**anna** wins" / "**anna** and **bert** share the win" (past: "won", "shared")."""
    who = [f"**{names[w]}**" for w in view.winners]
    if len(who) == 1:
        return f"{who[0]} {'won' if past else 'wins'}"
    joined = ", ".join(who[:-1]) + f" and {who[-1]}"
    return f"{joined} {'shared' if past else 'share'} the win"


def last_duel_line(view: PublicView, names: Sequence[str]) -> str:
    d = view.last_duel
    assert d is not None
    a, b = names[d.challenger], names[d.challenged]
    right = f"{names[d.winner]} was right" if d.winner is not None else "nobody was right"
    return (
        f"{a} held {d.challenger_choice}, {b} held {d.challenged_choice} — total {d.total}. "
        f"Guesses: {a} {d.challenger_guess}, {b} {d.challenged_guess}; {right}."
    )


def now_line(view: PublicView, names: Sequence[str]) -> str:
    duel = view.duel
    match view.phase:
        case "place":
            return f"📍 **{names[view.turn]}** places a pawn on a free field: `/kr place square:`"
        case "challenge":
            return f"⚔️ **{names[view.turn]}**'s turn: challenge someone with `/kr duel opponent:`"
        case "choose" if duel is not None:
            fists = [
                f"{names[s]} {'✅ closed' if s in duel.chosen else '⏳ choosing'}"
                for s in (duel.challenger, duel.challenged)
            ]
            return (
                f"✊ Duel **{names[duel.challenger]}** vs **{names[duel.challenged]}** — fists: "
                f"{', '.join(fists)}. (Buttons in your hand DM, or **Choose in secret** below.)"
            )
        case "guess" if duel is not None:
            if duel.challenger_guess is None:
                return f"🔢 Both fists are closed. **{names[duel.challenger]}** guesses first: `/kr guess total:`"
            return (
                f"🔢 **{names[duel.challenger]}** guessed {duel.challenger_guess}. **{names[duel.challenged]}**, "
                f"your guess (any total 0–4 but {duel.challenger_guess}): `/kr guess total:`"
            )
        case "act" if view.actor is not None:
            return (
                f"🎯 **{names[view.actor]}** guessed right: {view.actions_left} of "
                f"{plural(view.actions_total, 'action')} left (buttons on the prompt below the reveal)."
            )
    return ""


def event_hint(table: Table, event: Event) -> str:
    match event.kind:
        case "turn":
            return " (`/kr place square:`)" if "place your pawn" in event.text else " (`/kr duel opponent:`)"
        case "challenged":
            closed = [
                s.seat
                for s in table.seats
                if s.dm_ok is False and s.seat in (event.data.get("challenger"), event.data.get("challenged"))
            ]
            hint = " Your buttons are on your hand DMs (or press **Choose in secret** on the status message)."
            for seat in closed:
                hint += (
                    f"\n📪 {table.names[seat]}: I can't DM you — press **Choose in secret** on the status "
                    "message (or `/kr choose`) for your buttons."
                )
            return hint
        case "guess_now":
            return " (`/kr guess total:`)"
        case "guessed" if "your guess" in event.text:
            return " (`/kr guess total:`)"
    return ""
