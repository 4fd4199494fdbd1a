"""Kohle, Kies & Knete's presentation: the platform's hooks, wired to this package's renderers.

- `status` → `status.status_post` (one phone screen), `status_details` → `status.details_post` (all of it);
  `private_view` → `hand`; `event_line` → `narration`; `event_posts` → `posts` (offers, reaction windows, last calls).
- `controls` → `controls.KkkControls`: the buttons, the 🤝 reactions on offers and what the table hears of refused
  ones; `hands` → `hand.KkkHands`: the hand's digest (the hand DM has no buttons: its `buttons` are empty).
- `help_line` / `describe_action`: `/game help`'s lines and `/game move`'s suggestions in the game's words (`helps`).
- `score_text`: money, "$48M", in the standings the platform posts (game over, `/mod end`).
- `refusal_words` → `refusals` (every code the engine raises, naming the fix); `option_help`: the game's own options.
- `summary`: the deals concluded and each player's biggest payout.
- `commands`: the `/kkk` commands (`commands.KkkCog`).
"""

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from bot.games.kkk import hand, helps, narration, picture, posts, reading, refusals, status, telling
from bot.games.kkk.controls import KkkControls
from bot.games.kkk.i18n import _, n_
from bot.games.kkk.words import money
from bot.presentation import GenericPresentation, Post, Table, Task
from engine.errors import RuleError
from engine.events import Event, Wait
from engine.game import Game
from engine.kkk.views import PublicView

if TYPE_CHECKING:
    from discord.ext import commands

COMMANDS = (
    "`/kkk place`, `/kkk open`, `/kkk roll`, `/kkk draw`, `/kkk clan`, `/kkk offer`, `/kkk withdraw`, `/kkk shake`, "
    "`/kkk travel`, `/kkk recruit`, `/kkk boss`, `/kkk stop`, `/kkk pass`, `/kkk close`, `/kkk cancel`, `/kkk fail`, "
    "`/kkk discard`"
)


def rules_text() -> str:
    """`/game rules`' summary of the game, in the language being spoken."""
    summary = _(
        "Sid Sackson's dealmaking game (3–6 players). On your turn open the deal under the dollar marker, or roll and "
        "then open or draw 3. As Boss, gather the investors the space needs: your own, clan cards, and other players' "
        "cards bought with a share of the payout — each offer gets its own message; making it is your 🤝, and it "
        "binds when the other side reacts 🤝 (“Shake!”). Agreements add up; to change one, make a counter-offer "
        "naming it (`/kkk offer counter:`). Travel, recruitment and Boss cards wait for a STOP until everyone has "
        "passed or the reaction time runs out. After 10–15 deals the richest player wins. Your hand and money are in "
        "your DM (or `/game hand`)."
    )
    return summary + "\n\n" + _("Commands in the table thread: %(commands)s.", commands=COMMANDS)


OPTIONS = {
    "hide_hand_sizes": lambda: _(
        "On: the table doesn't show how many cards each player holds. It hides the running count only: a careful "
        "player can still reckon it from the public plays (5 dealt, 3 per draw, each card played or discarded)."
    ),
}
"""The words of the game's own options (`engine.kkk.options.KkkOptions`)."""


def wait_task(wait: Wait, names: Sequence[str]) -> Task:
    """What the awaited of `wait` are to do (its `what` code, `engine.kkk.waits`; its values in `about`)."""
    a = wait.about
    who = telling.plain(names)
    match wait.what:
        case "stop_or_pass":
            e = a.get("effect") if isinstance(a.get("effect"), dict) else {}
            named = tuple(s for s in (e.get("by"), e.get("target")) if isinstance(s, int))  # type: ignore[union-attr]
            return Task(_("STOP or pass on %(effect)s", effect=telling.effect_of(a, who)), None, named)
        case "discard":
            limit = a.get("limit") if isinstance(a.get("limit"), int) else 12
            return Task(_("get down to %(limit)d cards: discard or play a recruitment triple", limit=limit))
        case "place_marker":
            return Task(_("place the dollar marker"))
        case "last_call":
            boss = a.get("boss") if isinstance(a.get("boss"), int) else 0
            return Task(_("let %(boss)s's last call go, or play a card", boss=who(boss)), None, (boss,))
        case "close_or_fail":
            return Task(_("close the deal (or fail)"), _("Boss"))
        case "open_or_roll":
            return Task(_("open the deal or roll"))
        case "open_or_draw":
            return Task(_("open the deal or draw 3"))
    from bot.awaiting import legacy_task  # a wait stored by an older version: English with seat references

    return legacy_task(wait, names)


class KkkPresentation(GenericPresentation):
    colour = status.COLOUR
    controls_type = KkkControls
    hands_type = hand.KkkHands

    def status(self, table: Table) -> Post:
        if table.state is None:
            return super().status(table)
        return status.status_post(table)

    def summary(self, table: Table) -> list[str]:
        view = reading.public(table)
        lines: list[str] = []  # why it ended is the game-over narration's line (and the status's)
        if view.best_gain is None:
            return lines
        names = table.names
        gains = " · ".join(f"{names[s]} {money(g)}" for s, g in enumerate(view.best_gain))
        deals = n_("%(n)d deal concluded", "%(n)d deals concluded", view.deals)
        return [*lines, "📊 " + deals + " · " + _("biggest payout from one deal: %(gains)s", gains=gains)]

    def status_details(self, table: Table) -> Post | None:
        return status.details_post(table) if table.state is not None else None

    def picture(self, game: Game, view: BaseModel, names: Sequence[str]) -> bytes | None:  # type: ignore[type-arg]
        assert isinstance(view, PublicView)
        return picture.draw_picture(view, names)

    def private_view(self, table: Table, seat: int) -> Post:
        return hand.hand_post(table, seat)

    def event_line(self, table: Table, event: Event) -> str | None:
        return narration.event_line(table, event)

    def private_line(self, table: Table, event: Event) -> str | None:
        """A private event ("you drew …") for its seat's hand DM; an event stored before the engine stopped wording
        keeps its text."""
        if event.text:
            return table.render(event.text)
        return telling.sentence(event, telling.plain(table.names))

    def event_posts(self, table: Table, events: Sequence[Event]) -> list[Post]:
        if table.state is None:
            return []
        return posts.event_posts(table, events)

    def score_text(self, table: Table, score: int) -> str:
        return money(score)

    def help_line(self, table: Table, seat: int, kind: str, actions: Sequence[Any]) -> str | None:
        return helps.help_line(table, seat, kind, actions) or super().help_line(table, seat, kind, actions)

    def describe_action(self, table: Table, seat: int, action: Any) -> str:
        return helps.describe_action(table, seat, action) or super().describe_action(table, seat, action)

    def rules(self, game: Game) -> str:  # type: ignore[type-arg]
        return rules_text()

    def wait_task(self, table: Table, wait: Wait, names: Sequence[str]) -> Task:
        return wait_task(wait, names)

    def refusal_words(self, table: Table, error: RuleError) -> str:
        return refusals.refusal_words(table, error)

    def option_help(self, name: str) -> str | None:
        words = OPTIONS.get(name)
        return words() if words is not None else None

    def cog(self, bot: "commands.Bot") -> "commands.Cog | None":
        from bot.games.kkk.commands import KkkCog

        return KkkCog(bot)  # type: ignore[arg-type]
