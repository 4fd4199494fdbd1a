"""How Schwarzmarkt looks in Discord: the status message, the hand, the narration, and the buttons.

Everything is drawn from the engine's views (`view(state, None)` for the table, `view(state, seat)` for a hand), so
a goods hand or black-market hand can only ever appear in its owner's DM or `/game hand`. Decisions:

- The status message shows what the table waits for (with the deadline), the price track with the marker and this
  round's last space, the offer and what it still wants, the events in force, one line per player (luxury total,
  goods and black-market hand sizes), the game round and the pile sizes.
- The hand (DM and `/game hand`) shows the goods by kind, the black-market cards with what each does, the luxury
  total and — only while the game waits on this seat — the question and its buttons (see `prompts`). It is edited
  when the hand, the luxury total or the buttons change, never for a move that doesn't concern it.
- Every word is this package's, in the language being spoken (`i18n`, the `schwarzmarkt` catalogs; the terms are
  the glossary's, `docs/glossary/schwarzmarkt.<lang>.md`): the engine hands out codes and values only. The
  narration (`narration`) words each event from its kind and values, with an icon and, for a call to act, where
  the buttons are; refusals (`refusals`) word every rule code, naming the fix; a wait is worded from its code.
- A trading turn is announced in the same words for everyone. Trading turns are prompted on the hand
  (`prompt_in_hand`): the player's hand comes down to them as a new DM, and the thread's round message is edited,
  not added to; the starter of a trading round is pinged in the thread.
- The hand's buttons are read by the game's controls (`controls.py`).
"""

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from pydantic import BaseModel

from bot.hands import Hands
from bot.presentation import (
    Button,
    GenericPresentation,
    Post,
    Table,
    Task,
    standings_lines,
    waiting_lines,
)
from engine.errors import RuleError
from engine.events import Event, Wait
from engine.game import Game
from engine.schwarzmarkt.rules import Schwarzmarkt
from engine.schwarzmarkt.views import PublicView, SeatView

from . import helps, narration, prompts, refusals
from .controls import SchwarzmarktControls
from .i18n import _
from .look import hand_lines, in_force_line, offer_lines, player_lines, public, track_line
from .picture import draw_picture
from .words import event_name

if TYPE_CHECKING:
    from discord.ext import commands

NAME = Schwarzmarkt.name
"""The engine's name for the game, which names this folder too."""
COLOUR = 0x3A3A3A
ICONS = narration.ICONS


class SchwarzmarktHands(Hands):
    """The hand's fingerprint (its buttons come from `private_view`, as by default)."""

    def digest(self, game: Game, state: Any, seat: int) -> str:  # type: ignore[type-arg]
        """The hand, the luxury total and the pile (New Goods Found): the DM changes with these (and its buttons,
        which the platform compares too), not with every move at the table."""
        view = cast(SeatView, game.view(state, seat))
        return json.dumps(
            [view.goods, [c.id for c in view.black_market], view.luxury[seat], view.pile_goods, view.phase == "over"]
        )


class SchwarzmarktPresentation(GenericPresentation):
    controls_type = SchwarzmarktControls
    hands_type = SchwarzmarktHands
    colour = COLOUR

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
                "Game #%(id)d · %(game)s · game round %(round)d of 2 · goods pile %(goods)d · black-market pile "
                "%(black)d",
                id=table.record.id,
                game=NAME,
                round=view.game_round,
                goods=view.goods_pile,
                black=view.black_pile,
            ),
        )
        lines: list[str] = []
        result = table.result
        over = result is not None or table.record.status in ("finished", "abandoned")
        if over:
            if result is not None:
                lines.append(_("**Game over.**"))
            else:
                lines.append(_("**Game ended by a moderator.** Standings so far:"))
            lines += standings_lines(table, result or table.game.standings(table.state), self)
            if result is not None:
                lines.append(_("_Richest in luxury goods after two game rounds._"))
        else:
            if table.record.status == "paused":
                lines.append(_("⏸️ **Paused by a moderator** — deadlines are on hold."))
            lines.append(_("**Game round %(round)d of 2.**", round=view.game_round) + " " + now_line(view, names))
            lines += waiting_lines(table)
            lines += ["", _("Price track (🏁 ends this round): %(track)s", track=track_line(view))]
            if view.phase == "trade":
                if view.last_call:
                    lines.append(_("Price now: **%(price)d** — last call!", price=view.price))
                else:
                    lines.append(_("Price now: **%(price)d**", price=view.price))
                lines += offer_lines(view)
            force = in_force_line(view)
            if force:
                lines.append(force)
        post.description = "\n".join(lines)
        post.fields = [(_("Players — 💰 luxury goods"), "\n".join(player_lines(view, names)))]
        post.buttons = [] if over else [Button(_("My hand"), "hand", "primary", "🂠")]
        return post

    # --- the hand -------------------------------------------------------------------------------------

    def private_view(self, table: Table, seat: int) -> Post:
        assert table.state is not None
        view = cast(SeatView, table.game.view(table.state, seat))
        lines = hand_lines(view)
        buttons: list[Button] = []
        if view.phase == "over" or table.record.status in ("finished", "abandoned"):
            lines += ["", _("The game is over.")]
        elif seat in view.left:
            lines += ["", _("You have left this game.")]
        else:
            asked = prompts.question(table, seat)
            if asked:
                lines += ["", asked]
                buttons = prompts.buttons(table, seat)
        return Post(
            title=_("Your hand — %(title)s", title=table.title),
            description="\n".join(lines),
            colour=self.colour,
            footer=_(
                "Game #%(id)d · seat %(seat)d (%(name)s)", id=table.record.id, seat=seat + 1, name=table.names[seat]
            ),
            buttons=buttons,
        )

    # --- narration ------------------------------------------------------------------------------------

    def event_line(self, table: Table, event: Event) -> str | None:
        return narration.line(table, event)

    def private_line(self, table: Table, event: Event) -> str | None:
        """A private event's note for the seats it is addressed to (the hand DM's "Latest"), in words."""
        return narration.private_note(table, event)

    # --- prompts, waits and refusals ------------------------------------------------------------------

    def prompt_in_hand(self, table: Table, wait: Wait) -> bool:
        """A trading round is many short turns in a row, each decided on the hand's buttons: each trading turn is
        prompted there (the hand comes down to its player as a new DM), and the thread tells the round in one
        message, edited turn by turn. Who starts a trading round (a card to play, a new chapter) is pinged in the
        thread."""
        return table.state is not None and public(table).phase == "trade"

    def wait_task(self, table: Table, wait: Wait, names: Sequence[str]) -> Task:
        """What the awaited is to do, from the wait's code and values alone (a stored wait is worded later, when the
        table may have moved on): a card to play, a trading turn, the last call, an event's choice."""
        match wait.what:
            case "play":
                return Task(_("play a black-market card to start the trading round"))
            case "trade":
                return Task(_("trade wanted goods or not, and move the price marker"))
            case "last_call":
                return Task(_("last call: trade wanted goods or not (the marker stays)"))
            case "event":
                about = dict(wait.about)
                target = about.get("target")
                named = (target,) if isinstance(target, int) and about.get("step") != "target" else ()
                return Task(narration.asking_words(about, names), None, named)
        return super().wait_task(table, wait, names)

    def refusal_words(self, table: Table, error: RuleError) -> str:
        found = refusals.words(error, table.names)
        return found if found is not None else super().refusal_words(table, error)

    def option_help(self, name: str) -> str | None:
        match name:
            case "trade_hours":
                return _("Hours a player has for each trading turn (trade and move the price marker)")
            case "dealer":
                return _(
                    "The dealer: the player to their left starts the first trading round; not set: drawn at random"
                )
        return None

    # --- scores and the rest -------------------------------------------------------------------------

    def summary(self, table: Table) -> list[str]:
        if table.result is None:
            return []
        return [_("_Richest in luxury goods after two game rounds._")]

    def score_text(self, table: Table, score: int) -> str:
        return f"💰 {score}"

    def help_line(self, table: Table, seat: int, kind: str, actions: Sequence[Any]) -> str | None:
        return helps.help_line(table, seat, kind, actions) or super().help_line(table, seat, kind, actions)

    def describe_action(self, table: Table, seat: int, action: Any) -> str:
        return helps.describe_action(table, seat, action) or super().describe_action(table, seat, action)

    def rules(self, game: Game) -> str:  # type: ignore[type-arg]
        return "\n".join(
            [
                _(
                    "Sell your secret goods on the black market. The starter plays a black-market card: an offer "
                    "opens a trading round, an event strikes at once. In turn, each player trades wanted goods at "
                    "the current price and moves the price marker (1 after a trade, up to the die symbol without) — "
                    "wait for a higher price, but others may sell first. A game round ends when someone trades in "
                    "their last goods card; richest in luxury goods after two game rounds wins."
                ),
                _(
                    "Commands: the buttons on your hand DM (or `/game hand`) for your card, your trading turn and an "
                    "event's choices; `/sm play card:` and `/sm trade cards: move:` (any mix of wanted cards) as "
                    "commands."
                ),
            ]
        )

    def cog(self, bot: "commands.Bot") -> "commands.Cog | None":
        from .commands import SchwarzmarktCog

        return SchwarzmarktCog(bot)  # type: ignore[arg-type]


def now_line(view: PublicView, names: Sequence[str]) -> str:
    who = names[view.turn]
    match view.phase:
        case "play":
            return _("🃏 **%(who)s** starts: play a black-market card (hand DM buttons, or `/sm play`).", who=who)
        case "trade":
            return _("💱 **%(who)s**'s trading turn (hand DM buttons, or `/sm trade`).", who=who)
        case "event" if view.event is not None:
            return _(
                "⚡ **%(who)s** is carrying out %(event)s (buttons on their hand DM).",
                who=who,
                event=event_name(view.event.kind),
            )
    return ""


__all__ = ["NAME", "SchwarzmarktPresentation"]
