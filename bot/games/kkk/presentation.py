"""Kohle, Kies & Knete's presentation: the platform's hooks, wired to this package's renderers.

- `status` → `status.status_post`; `private_view` / `hand_digest` → `hand`; `event_line` → `narration`;
  `event_posts` → `posts` (offers, reaction windows, last calls).
- `button_action`: the status and window buttons (Open, Roll, Draw, Close, Fail, and Pass / STOP / Call off keyed by
  the window they were made for: a click on a window that has closed is refused, never applied to a newer one).
- `reaction_action`: a 🤝 on an offer's message by one of its two parties is `Shake`; taking it off before the offer
  binds is `Unshake`; any other reaction, anyone else's, or a removal after binding means nothing.
- `away_action`: the generic one (a player who is away passes in reaction windows and last calls).
- `cog`: the `/kkk` commands (`cog.KkkCog`).

The engine decides everything: every action built here goes through `GameService` and `game.apply`, which refuses
what the rules refuse, with the reason.
"""

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from bot.games.kkk import hand, narration, posts, reading, status
from bot.presentation import GenericPresentation, Post, Table
from bot.service import Refusal
from engine.events import Event
from engine.game import Game
from engine.kkk import actions as A
from storage.models import MessageRef

if TYPE_CHECKING:
    from discord.ext import commands

SIMPLE_BUTTONS: dict[str, Any] = {
    "open": A.Open(),
    "roll": A.Roll(),
    "draw": A.Draw(),
    "close": A.Close(),
    "fail": A.Fail(),
}

RULES = """\
Sid Sackson's dealmaking game (3–6 players). On your turn open the deal under the dollar marker, or roll and then \
open or draw 3. As Boss, gather the investors the space needs: your own, clan cards, and other players' cards bought \
with a share of the payout — each offer gets its own message; both sides react 🤝 to agree ("Shake!"). Travel, \
recruitment and Boss cards wait for a STOP until everyone has passed or the reaction time runs out. After 10–15 deals \
the richest player wins. Your hand and money are in your DM (or `/game hand`).

Commands in the table thread: `/kkk place`, `/kkk open`, `/kkk roll`, `/kkk draw`, `/kkk clan`, `/kkk offer`, \
`/kkk withdraw`, `/kkk shake`, `/kkk travel`, `/kkk recruit`, `/kkk boss`, `/kkk stop`, `/kkk pass`, `/kkk close`, \
`/kkk cancel`, `/kkk fail`, `/kkk discard`."""


class KkkPresentation(GenericPresentation):
    colour = status.COLOUR

    def status(self, table: Table) -> Post:
        if table.state is None:
            return super().status(table)
        return status.status_post(table)

    def private_view(self, table: Table, seat: int) -> Post:
        return hand.hand_post(table, seat)

    def hand_digest(self, game: Game, state: BaseModel, seat: int) -> str:  # type: ignore[type-arg]
        return hand.digest(game, state, seat)

    def event_line(self, table: Table, event: Event) -> str | None:
        return narration.event_line(table, event)

    def event_posts(self, table: Table, events: Sequence[Event]) -> list[Post]:
        if table.state is None:
            return []
        return posts.event_posts(table, events)

    def button_action(self, table: Table, seat: int, key: str) -> Any | None:
        if table.state is None:
            return None
        if key in SIMPLE_BUTTONS:
            return SIMPLE_BUTTONS[key]
        what, _, number = key.partition(":")
        if what not in ("pass", "stop", "cancel") or not number.isdigit():
            return super().button_action(table, seat, key)
        if reading.window_id(reading.public(table)) != int(number):
            raise Refusal("That window has already closed — see the latest messages in the thread.")
        return {"pass": A.Pass(), "stop": A.Stop(), "cancel": A.CancelClose()}[what]

    def reaction_action(self, table: Table, ref: MessageRef, seat: int, emoji: str, added: bool) -> Any | None:
        if ref.kind != posts.OFFER or emoji != posts.SHAKE or table.state is None or not ref.key.isdigit():
            return None
        offer = reading.offer(reading.public(table), int(ref.key))
        if offer is None or seat not in (offer.seller, offer.boss):
            return None
        if added:
            return A.Shake(offer=offer.id)
        if offer.status in ("open", "shaken") and seat in offer.shaken:
            return A.Unshake(offer=offer.id)
        return None  # after it binds (or if that side never shook), taking the 🤝 off changes nothing

    def rules(self, game: Game) -> str:  # type: ignore[type-arg]
        return RULES

    def cog(self, bot: "commands.Bot") -> "commands.Cog | None":
        from bot.games.kkk.cog import KkkCog

        return KkkCog(bot)  # type: ignore[arg-type]
