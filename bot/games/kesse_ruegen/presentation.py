"""How Kesse Rügen looks in Discord, in the language being spoken (the `kesse_ruegen` catalog, `i18n`; the events'
and refusals' words are `words.Speaker`'s): the status message with the emoji board, the private view, the
narration, and the action prompt whose buttons are Plant / Move ↖↑↗←→↙↓↘ / Evict / Reclaim.

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
  Its first lines are the guess and the reveal that opened it, redrawn from the state (`last_duel`, in the
  narration's words, `words.Speaker`), so it is posted *instead of* the reveal's narration (`replaces_narration`): the
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
from bot.i18n import typed_commands
from bot.presentation import Aside, Button, GenericPresentation, Post, Table, Task, standings_lines, waiting_lines
from engine.errors import RuleError
from engine.events import Event, Wait
from engine.game import Game
from engine.kesse_ruegen import geometry
from engine.kesse_ruegen.actions import Evict, Move, Plant, Reclaim
from engine.kesse_ruegen.rules import KesseRuegen
from engine.kesse_ruegen.views import PublicView, SeatView

from . import helps
from .board import barn_line, colours, grid, player_lines, under_pawn
from .controls import KesseRuegenControls
from .i18n import N_, _, and_list, counted, kind_name, n_
from .picture import draw_picture
from .prompts import FIST, fist_buttons, fist_line, guess_buttons, guess_question, question
from .words import Speaker

if TYPE_CHECKING:
    from discord.ext import commands

DETAILS_LABEL = N_("Details")
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


def details_button() -> Button:
    """The platform's Details button (`Presentation.status_details`): the whole table, privately."""
    return Button(_(DETAILS_LABEL), "details", "secondary", "📋")


def public(table: Table) -> PublicView:
    assert table.state is not None
    return cast(PublicView, table.game.view(table.state, None))


def speaker(table: Table) -> Speaker:
    return Speaker(public(table), table.names)


def timed_out(event: Event) -> bool:
    """An event the deadline's default brought about (its words start "Time's up")."""
    return bool(event.data.get("by_default")) or event.kind == "timeout" or event.data.get("why") == "timeout"


def fields_text(n: int) -> str:
    return n_("%(n)d field", "%(n)d fields", n)


def action_buttons(actions: Sequence[Any]) -> list[Button]:
    """Buttons for the legal actions: Plant, Evict, Reclaim first, then the moves in compass order."""
    buttons: list[Button] = []
    kinds = {type(a) for a in actions}
    if Plant in kinds:
        buttons.append(Button(_("Plant"), "plant", "success", "🌱"))
    if Evict in kinds:
        buttons.append(Button(_("Evict"), "evict", "danger", "🧹"))
    if Reclaim in kinds:
        buttons.append(Button(_("Reclaim"), "reclaim", "primary", "♻️"))
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
            footer=_(
                "Game #%(id)s · %(game)s · a1 is bottom left, %(last)s top right",
                id=table.record.id,
                game=NAME,
                last=geometry.last(view.size),
            ),
        )
        lines: list[str] = []
        result = table.result
        over = result is not None or table.record.status in ("finished", "abandoned")
        if over:
            if result is not None and view.stalled:
                most = view.players[view.winners[0]].fields
                lines.append(
                    "🏁 "
                    + n_(
                        "No tubers left in any supply, so the game ended: 🏆 %(result)s with tubers on %(n)d field!",
                        "No tubers left in any supply, so the game ended: 🏆 %(result)s with tubers on %(n)d fields!",
                        most,
                        result=winners_text(view, names),
                    )
                )
            elif result is not None and view.winner is not None:
                lines.append(
                    "🏆 "
                    + n_(
                        "**%(who)s** wins with tubers on %(n)d field!",
                        "**%(who)s** wins with tubers on %(n)d fields!",
                        view.win_fields,
                        who=names[view.winner],
                    )
                )
            else:
                lines.append(_("**Game ended by a moderator.** Standings so far:"))
            lines += standings_lines(table, result or table.game.standings(table.state), self)
        else:
            if table.record.status == "paused":
                lines.append("⏸️ " + _("**Paused by a moderator** — deadlines are on hold."))
            lines.append(now_line(view, names))
            lines += waiting_lines(table)
        # The board is the picture's (and the Details'): the text keeps to one phone screen beside it.
        lines += [
            barn_line(view, names),
            n_("**First to %(n)d field wins:**", "**First to %(n)d fields wins:**", view.win_fields),
            *player_lines(view, names),
        ]
        if view.last_duel is not None:
            lines.append(_("Last duel: %(duel)s", duel=last_duel_line(view, names)))
        post.description = "\n".join(lines)
        post.buttons = [] if over else [Button(_("My hand"), "hand", "primary", "🂠")]
        if not over and view.phase == "choose":
            post.buttons.append(Button(_("Choose in secret"), FIST, "success", "✊"))
        post.buttons.append(details_button())
        return post

    def status_details(self, table: Table) -> Post | None:
        """The whole table in text: the board as a grid with its legend, the barn, the players, the last duel."""
        if table.state is None:
            return None
        view = public(table)
        names = table.names
        post = Post(
            title=_("%(title)s — the whole table", title=table.title),
            colour=self.colour,
            footer=_(
                "Game #%(id)s · a1 is bottom left, %(last)s top right",
                id=table.record.id,
                last=geometry.last(view.size),
            ),
        )
        lines = [grid(view), barn_line(view, names), "", *player_lines(view, names)]
        if view.last_duel is not None:
            lines.append(_("Last duel: %(duel)s", duel=last_duel_line(view, names)))
        post.description = "\n".join(lines)
        return post

    # --- the hand -------------------------------------------------------------------------------------

    def private_view(self, table: Table, seat: int) -> Post:
        assert table.state is not None
        view = cast(SeatView, table.game.view(table.state, seat))
        me = view.players[seat]
        c = colours(view)[seat]
        lines = [
            _(
                "You play the **%(tubers)s** %(shape)s; your pawn is %(pawn)s.",
                tubers=kind_name(me.tuber, me.tubers),
                shape=c.tuber,
                pawn=c.pawn,
            ),
            n_(
                "Goal: your %(tubers)s on %(n)d field. The board is in the table thread's status message.",
                "Goal: your %(tubers)s on %(n)d fields. The board is in the table thread's status message.",
                view.win_fields,
                tubers=kind_name(me.tuber, me.tubers),
            ),
            "",
        ]
        duel = view.duel
        last = view.last_duel
        buttons: list[Button] = []
        if view.phase == "over" or table.record.status in ("finished", "abandoned"):
            lines.append(_("The game is over."))
        elif me.left:
            lines.append(_("You have left this game."))
        elif duel is not None and seat in (duel.challenger, duel.challenged):
            other = duel.challenged if seat == duel.challenger else duel.challenger
            if view.my_choice is not None:
                lines.append(
                    _(
                        "%(fist)s — secret until the reveal.",
                        fist=fist_line(view, view.duels, table.names[other], view.my_choice),
                    )
                )
                if view.phase == "guess" and seat == guesser(view):
                    buttons = guess_buttons(table, seat)
                    lines.append(guess_question(table, seat))
            else:
                buttons = fist_buttons(table, seat)
                asked = question(table, seat)
                lines.append(_("%(question)s Press a button below.", question=asked) if buttons else asked)
        elif last is not None and seat in (last.challenger, last.challenged):
            # The duel this hand last showed, now revealed: what it said then is still true.
            number = view.duels if duel is None else view.duels - 1
            other = last.challenged if seat == last.challenger else last.challenger
            held = last.challenger_choice if seat == last.challenger else last.challenged_choice
            lines.append(
                _(
                    "Nothing secret right now: your fist is only secret during your duels. Last: %(fist)s (shown at "
                    "the reveal).",
                    fist=fist_line(view, number, table.names[other], held),
                )
            )
        else:
            lines.append(_("Nothing secret right now: your fist is only secret during your duels."))
        return Post(
            title=_("Your tubers — %(title)s", title=table.title),
            description="\n".join(lines),
            colour=self.colour,
            footer=_(
                "Game #%(id)s · seat %(number)d (%(name)s)",
                id=table.record.id,
                number=seat + 1,
                name=table.plain_name(seat),
            ),
            buttons=buttons,
        )

    # --- narration and the action prompt --------------------------------------------------------------

    def event_line(self, table: Table, event: Event) -> str | None:
        if table.state is None or not event.public:
            return None
        said = speaker(table).event(event)
        if not said:
            return None
        icon = "⏰" if timed_out(event) else ICONS.get(event.kind)
        line = f"{icon} {said}" if icon else said
        line += event_hint(table, event)
        if event.kind in ACTION_KINDS and public(table).phase == "act":
            # An action with more to come: the duel's action prompt shows it (its last lines), so the thread
            # is told only where it costs no new message.
            return Aside(line)
        return line

    def private_line(self, table: Table, event: Event) -> str | None:
        """A private event's words for its seat (the fist's number; the fist going back when a duel is off)."""
        return speaker(table).private(event) if table.state is not None else None

    def event_posts(self, table: Table, events: Sequence[Event]) -> list[Post]:
        if table.state is None:
            return []
        kinds = {e.kind for e in events}
        # A reveal that opens the actions: the new prompt carries the guess and the reveal at its top (redrawn from
        # the state), so it is posted instead of the narration — as the `/kr guess` reply — saving a message.
        # Not when the guess was the deadline's default: the prompt can't tell that from the state, and the
        # narration's "Time's up" says it.
        replaces = kinds == {"guessed", "revealed"} and not any(timed_out(e) for e in events)
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
        words = Speaker(view, table.names)
        return "\n".join(
            [
                f"{ICONS['guessed']} {words.guess(d.challenged, d.challenged_guess)}",
                f"{ICONS['revealed']} {words.reveal(d)}",
            ]
        )

    def _prompt(
        self, table: Table, view: PublicView, names: Sequence[str], ref: tuple[str, str], actor: int | None
    ) -> Post:
        if view.phase == "act" and view.actor is not None:
            assert table.state is not None
            who = view.actor
            legal = table.game.legal_actions(table.state, who)
            buttons = action_buttons(legal) or [Button(_("Done"), "done", "secondary")]
            pawn = under_pawn(view, view.players[who], names)
            done = view.actions_total - view.actions_left
            content = "🎯 " + _(
                "**%(who)s**, take your actions: **%(left)d left** of %(total)d (done %(done)d). "
                "Your pawn is %(pawn)s.",
                who=names[who],
                left=view.actions_left,
                total=view.actions_total,
                done=done,
                pawn=pawn,
            )
            return Post(content=content, description=grid(view), colour=self.colour, buttons=buttons, ref=ref)
        if view.phase == "over" and view.winners:
            return Post(
                content="🏆 " + _("%(result)s — the game is over.", result=winners_text(view, names, past=True)),
                ref=ref,
            )
        if view.phase in ("choose", "guess"):  # only after a moderator undid this duel's reveal
            return Post(content="↩️ " + _("A moderator took this duel back before the reveal: no actions yet."), ref=ref)
        if actor is None and view.last_duel is not None:
            actor = view.last_duel.winner
        if actor is not None:
            return Post(content="✅ " + _("%(who)s's actions are done.", who=names[actor]), ref=ref)
        return Post(content="✅ " + _("The right guesser's actions are done."), ref=ref)

    # --- prompts ------------------------------------------------------------------------------------

    def prompt_in_hand(self, table: Table, wait: Wait) -> bool:
        """A duel is played in the duellists' DMs: the fists (secret) and the guesses have their buttons on the
        hand, so their prompts come there, and the thread tells the duel in one message, edited as it goes. The
        turn's hand-overs — who acts after the reveal, who challenges next — are pinged in the thread."""
        return table.state is not None and public(table).phase in ("choose", "guess")

    # --- waits, refusals, options --------------------------------------------------------------------

    def wait_task(self, table: Table, wait: Wait, names: Sequence[str]) -> Task:
        """What the awaited are to do, by the engine's wait code (`engine.kesse_ruegen.waits`)."""
        match wait.what:
            case "place":
                return Task(_("place your pawn on a free field"))
            case "challenge":
                return Task(_("challenge another player to a duel"))
            case "choose":
                return Task(_("close your fist on 0, 1 or 2 tubers in secret"))
            case "guess":
                return Task(_("guess the total in both fists"))
            case "act":
                left = int(wait.about.get("left") or 0)  # type: ignore[arg-type]
                return Task(n_("take your %(n)d remaining action", "take your %(n)d remaining actions", left))
        return super().wait_task(table, wait, names)

    # --- refusals, options --------------------------------------------------------------------------

    def refusal_words(self, table: Table, error: RuleError) -> str:
        """A refused move in words naming the fix (see `words.Speaker.refusal`); the platform's default for a
        code this game doesn't raise (an action it can't read at all)."""
        if table.state is not None and error.code:
            said = speaker(table).refusal(error)
            if said:
                return said
        if error.code in REFUSALS_WITHOUT_STATE:
            return REFUSALS_WITHOUT_STATE[error.code](error)
        return super().refusal_words(table, error)

    def option_help(self, name: str) -> str | None:
        if name == "first_seat":
            return _(
                "Who places the first pawn and makes the first challenge (the rulebook: the oldest player); not "
                "set: drawn at random"
            )
        return None

    # --- scores and the rest -------------------------------------------------------------------------

    def score_text(self, table: Table, score: int) -> str:
        return fields_text(score)

    def summary(self, table: Table) -> list[str]:
        if table.state is None:
            return []
        view = cast(PublicView, table.game.view(table.state, None))
        names = table.names
        # How the game ended is the last narration's (the win, or the supplies running out) and the status's; the
        # engine gives the standings no `reason` (it speaks no language): nothing here repeats it.
        # The fields held are the standings' (just above it in the final message): only what they don't say.
        left = " · ".join(f"{names[p.seat]} {counted(p.tuber, p.tubers, p.supply)}" for p in view.players if not p.left)
        return [
            "📊 "
            + n_(
                "%(n)d duel played · left in supply: %(left)s",
                "%(n)d duels played · left in supply: %(left)s",
                view.duels,
                left=left,
            )
        ]

    def help_line(self, table: Table, seat: int, kind: str, actions: Sequence[Any]) -> str | None:
        return helps.help_line(table, seat, kind, actions) or super().help_line(table, seat, kind, actions)

    def describe_action(self, table: Table, seat: int, action: Any) -> str:
        return helps.describe_action(table, seat, action) or super().describe_action(table, seat, action)

    def rules(self, game: Game) -> str:  # type: ignore[type-arg]
        return "\n".join(
            [
                _(
                    "Plant your tubers on the 5×5 field. Each turn, challenge a player to a duel: both hide 0–2 tubers "
                    "in a fist, both guess the total (different numbers). Guess right and take that many actions: "
                    "plant, move, evict a rival's tuber to the barn, reclaim your own. First with tubers on 13 / 9 / 7 "
                    "fields wins."
                ),
                _(
                    "Commands: `/kr place square:` to set your pawn, `/kr duel opponent:` to challenge (with two "
                    "players the duel starts by itself), your fist with the buttons on your hand DM (or **Choose in "
                    "secret** on the status message, or `/kr choose`), `/kr guess total:`; the actions with the "
                    "buttons on the prompt."
                ),
            ]
        )

    def cog(self, bot: "commands.Bot") -> "commands.Cog | None":
        from .commands import KesseRuegenCog

        return KesseRuegenCog(bot)  # type: ignore[arg-type]


REFUSALS_WITHOUT_STATE = {
    "player_count": lambda e: _(
        "Kesse Rügen is for %(least)d to %(most)d players, not %(seats)d.",
        least=e.values["least"],
        most=e.values["most"],
        seats=e.values["seats"],
    ),
    "first_seat_out_of_range": lambda e: _(
        "The first player must be one of the %(seats)d seats.", seats=int(e.values["seats"])
    ),
}
"""The refusals of the set-up, which come before the game has a state (no names, no kinds needed)."""


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
        return _("%(who)s won", who=who[0]) if past else _("%(who)s wins", who=who[0])
    if past:
        return _("%(who)s shared the win", who=and_list(who))
    return _("%(who)s share the win", who=and_list(who))


def last_duel_line(view: PublicView, names: Sequence[str]) -> str:
    d = view.last_duel
    assert d is not None
    a, b = names[d.challenger], names[d.challenged]
    held = _(
        "%(challenger)s held %(held)d, %(challenged)s held %(other)d — total %(total)d.",
        challenger=a,
        held=d.challenger_choice,
        challenged=b,
        other=d.challenged_choice,
        total=d.total,
    )
    if d.winner is not None:
        guesses = _(
            "Guesses: %(challenger)s %(guess)d, %(challenged)s %(other)d; %(who)s was right.",
            challenger=a,
            guess=d.challenger_guess,
            challenged=b,
            other=d.challenged_guess,
            who=names[d.winner],
        )
    else:
        guesses = _(
            "Guesses: %(challenger)s %(guess)d, %(challenged)s %(other)d; nobody was right.",
            challenger=a,
            guess=d.challenger_guess,
            challenged=b,
            other=d.challenged_guess,
        )
    return f"{held} {guesses}"


def now_line(view: PublicView, names: Sequence[str]) -> str:
    duel = view.duel
    match view.phase:
        case "place":
            return "📍 " + _("**%(who)s** places a pawn on a free field: `/kr place square:`", who=names[view.turn])
        case "challenge":
            return "⚔️ " + _("**%(who)s**'s turn: challenge someone with `/kr duel opponent:`", who=names[view.turn])
        case "choose" if duel is not None:
            fists = [
                _("%(who)s ✅ closed", who=names[s]) if s in duel.chosen else _("%(who)s ⏳ choosing", who=names[s])
                for s in (duel.challenger, duel.challenged)
            ]
            return "✊ " + _(
                "Duel **%(challenger)s** vs **%(challenged)s** — fists: %(fists)s. (Buttons in your hand DM, or "
                "**Choose in secret** below.)",
                challenger=names[duel.challenger],
                challenged=names[duel.challenged],
                fists=", ".join(fists),
            )
        case "guess" if duel is not None:
            if duel.challenger_guess is None:
                return "🔢 " + _(
                    "Both fists are closed. **%(who)s** guesses first: `/kr guess total:`", who=names[duel.challenger]
                )
            return "🔢 " + _(
                "**%(challenger)s** guessed %(guess)d. **%(challenged)s**, your guess (any total 0–4 but %(guess)d): "
                "`/kr guess total:`",
                challenger=names[duel.challenger],
                guess=duel.challenger_guess,
                challenged=names[duel.challenged],
            )
        case "act" if view.actor is not None:
            return "🎯 " + n_(
                "**%(who)s** guessed right: %(left)d of %(n)d action left (buttons on the prompt below the reveal).",
                "**%(who)s** guessed right: %(left)d of %(n)d actions left (buttons on the prompt below the reveal).",
                view.actions_total,
                who=names[view.actor],
                left=view.actions_left,
            )
    return ""


def event_hint(table: Table, event: Event) -> str:
    match event.kind:
        case "turn":
            command = "`/kr place square:`" if event.data.get("step") == "place" else "`/kr duel opponent:`"
            return f" ({typed_commands(command)})"
        case "challenged":
            closed = [
                s.seat
                for s in table.seats
                if s.dm_ok is False and s.seat in (event.data.get("challenger"), event.data.get("challenged"))
            ]
            hint = " " + _("Your buttons are on your hand DMs (or press **Choose in secret** on the status message).")
            for seat in closed:
                hint += "\n📪 " + _(
                    "%(who)s: I can't DM you — press **Choose in secret** on the status message (or `/kr choose`) "
                    "for your buttons.",
                    who=table.names[seat],
                )
            return hint
        case "guess_now":
            return typed_commands(" (`/kr guess total:`)")
        case "guessed" if event.data.get("next") is not None:
            return typed_commands(" (`/kr guess total:`)")
    return ""
