"""How Schwarzmarkt looks in Discord: the status message, the hand, the narration, and the buttons.

Everything is drawn from the engine's views (`view(state, None)` for the table, `view(state, seat)` for a hand), so
a goods hand or black-market hand can only ever appear in its owner's DM or `/game hand`. Decisions:

- The status message shows what the table waits for (with the deadline), the price track with the marker and this
  round's last space, the offer and what it still wants, the events in force, one line per player (luxury total,
  goods and black-market hand sizes), the game round and the pile sizes.
- The hand (DM and `/game hand`) shows the goods by kind, the black-market cards with what each does, the luxury
  total and — only while the game waits on this seat — the question and its buttons (see `prompts`). It is edited
  when the hand, the luxury total or the buttons change, never for a move that doesn't concern it.
- The narration is the engine's own text with an icon and, for a call to act, where the buttons are. A trading
  turn is announced in the same words for everyone. Trading turns are prompted on the hand (`prompt_in_hand`):
  the player's hand comes down to them as a new DM, and the thread's round message is edited, not added to; the
  starter of a trading round is pinged in the thread.
- The hand's buttons are read by the game's controls (`controls.py`).
"""

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from pydantic import BaseModel

from bot.hands import Hands
from bot.presentation import Button, GenericPresentation, Post, Table, standings_lines, waiting_lines
from engine.events import Event, Wait
from engine.game import Game
from engine.schwarzmarkt.rules import Schwarzmarkt
from engine.schwarzmarkt.views import PublicView, SeatView
from engine.schwarzmarkt.words import EVENT_NAMES

from . import helps, prompts
from .controls import SchwarzmarktControls
from .look import goods_line, hand_lines, in_force_line, offer_lines, player_lines, public, track_line
from .picture import draw_picture

if TYPE_CHECKING:
    from discord.ext import commands

NAME = Schwarzmarkt.name
"""The engine's name for the game, which names this folder too."""
COLOUR = 0x3A3A3A

ICONS = {
    "starter": "🃏",
    "offer": "📜",
    "event_played": "⚡",
    "trade_turn": "💱",
    "trade": "💰",
    "moved": "➡️",
    "no_trade": "➡️",
    "round_end": "🔔",
    "in_force": "📌",
    "void": "🚫",
    "choose": "⚡",
    "target": "🎯",
    "espionage": "🕵️",
    "quick_deal": "💸",
    "forced_swap": "🔀",
    "raid": "🚨",
    "new_goods": "📦",
    "old_debt": "🧾",
    "round_over": "🏁",
    "refill": "🂠",
    "all_empty": "🏁",
    "game_over": "🏆",
    "left": "🚪",
}


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
            footer=(
                f"Game #{table.record.id} · {NAME} · game round {view.game_round} of 2 · goods pile {view.goods_pile}"
                f" · black-market pile {view.black_pile}"
            ),
        )
        lines: list[str] = []
        result = table.result
        over = result is not None or table.record.status in ("finished", "abandoned")
        if over:
            lines.append("**Game over.**" if result is not None else "**Game ended by a moderator.** Standings so far:")
            lines += standings_lines(table, result or table.game.standings(table.state), self)
        else:
            if table.record.status == "paused":
                lines.append("⏸️ **Paused by a moderator** — deadlines are on hold.")
            lines.append(f"**Game round {view.game_round} of 2.** {now_line(view, names)}")
            lines += waiting_lines(table)
            lines += ["", f"Price track (🏁 ends this round): {track_line(view)}"]
            if view.phase == "trade":
                lines.append(f"Price now: **{view.price}**" + (" — last call!" if view.last_call else ""))
                lines += offer_lines(view)
            force = in_force_line(view)
            if force:
                lines.append(force)
        post.description = "\n".join(lines)
        post.fields = [("Players — 💰 luxury goods", "\n".join(player_lines(view, names)))]
        post.buttons = [] if over else [Button("My hand", "hand", "primary", "🂠")]
        return post

    # --- the hand -------------------------------------------------------------------------------------

    def private_view(self, table: Table, seat: int) -> Post:
        assert table.state is not None
        view = cast(SeatView, table.game.view(table.state, seat))
        lines = hand_lines(view)
        buttons: list[Button] = []
        if view.phase == "over" or table.record.status in ("finished", "abandoned"):
            lines += ["", "The game is over."]
        elif seat in view.left:
            lines += ["", "You have left this game."]
        else:
            asked = prompts.question(table, seat)
            if asked:
                lines += ["", asked]
                buttons = prompts.buttons(table, seat)
        return Post(
            title=f"Your hand — {table.title}",
            description="\n".join(lines),
            colour=self.colour,
            footer=f"Game #{table.record.id} · seat {seat + 1} ({table.names[seat]})",
            buttons=buttons,
        )

    # --- narration ------------------------------------------------------------------------------------

    def event_line(self, table: Table, event: Event) -> str | None:
        if not event.text:
            return None
        line = table.render(event.text)
        if event.kind == "game_over":
            # Everyone's luxury goods are the final standings, just below it in the final message: said once.
            line = line.split(" Luxury goods:", 1)[0]
        icon = "⏰" if event.text.startswith("Time's up") else ICONS.get(event.kind)
        if icon:
            line = f"{icon} {line}"
        return line + event_hint(event)

    # --- prompts ------------------------------------------------------------------------------------

    def prompt_in_hand(self, table: Table, wait: Wait) -> bool:
        """A trading round is many short turns in a row, each decided on the hand's buttons: each trading turn is
        prompted there (the hand comes down to its player as a new DM), and the thread tells the round in one
        message, edited turn by turn. Who starts a trading round (a card to play, a new chapter) is pinged in the
        thread."""
        return table.state is not None and public(table).phase == "trade"

    # --- scores and the rest -------------------------------------------------------------------------

    def score_text(self, table: Table, score: int) -> str:
        return f"💰 {score}"

    def help_line(self, table: Table, seat: int, kind: str, actions: Sequence[Any]) -> str | None:
        return helps.help_line(table, seat, kind, actions) or super().help_line(table, seat, kind, actions)

    def describe_action(self, table: Table, seat: int, action: Any) -> str:
        return helps.describe_action(table, seat, action) or super().describe_action(table, seat, action)

    def rules(self, game: Game) -> str:  # type: ignore[type-arg]
        return (
            f"{game.summary}\n"
            "Commands: the buttons on your hand DM (or `/game hand`) for your card, your trading turn and an "
            "event's choices; `/sm play card:` and `/sm trade cards: move:` (any mix of wanted cards) as commands."
        )

    def cog(self, bot: "commands.Bot") -> "commands.Cog | None":
        from .commands import SchwarzmarktCog

        return SchwarzmarktCog(bot)  # type: ignore[arg-type]


def now_line(view: PublicView, names: Sequence[str]) -> str:
    who = names[view.turn]
    match view.phase:
        case "play":
            return f"🃏 **{who}** starts: play a black-market card (hand DM buttons, or `/sm play`)."
        case "trade":
            return f"💱 **{who}**'s trading turn (hand DM buttons, or `/sm trade`)."
        case "event" if view.event is not None:
            return f"⚡ **{who}** is carrying out {EVENT_NAMES[view.event.kind]} (buttons on their hand DM)."
    return ""


def event_hint(event: Event) -> str:
    match event.kind:
        case "starter":
            return " (buttons on your hand DM or `/game hand`, or `/sm play`)"
        case "trade_turn":
            return " (buttons on your hand DM or `/game hand`, or `/sm trade`)"
        case "choose" | "target":
            return " (buttons on your hand DM or `/game hand`)"
    return ""


__all__ = ["NAME", "SchwarzmarktPresentation", "goods_line"]
