"""Kohle, Kies & Knete's presentation: the platform's hooks, wired to this package's renderers.

- `status` → `status.status_post`; `private_view` / `hand_digest` → `hand`; `event_line` → `narration`;
  `event_posts` → `posts` (offers, reaction windows, last calls).
- `button_action`: the status and window buttons (Open, Roll, Draw, Close, Fail, and Pass / STOP / Call off keyed by
  the window they were made for: a click on a window that has closed is refused, never applied to a newer one).
- `reaction_allowed`: a 🤝 on an offer's message is stray (removed if the bot may) when it comes from someone who
  isn't one of the offer's two parties, or lands on the old message of an agreement that reopened (its new message
  is the one that counts, see `posts`).
- `reaction_action`: a 🤝 on an offer's message by one of its two parties is `Shake` (also on an offer whose round
  is over: the engine then says why it doesn't count); taking it off before the offer binds is `Unshake`; any other
  reaction, a 🤝 by a party who already shook (e.g. with `/kkk shake`), or a removal after binding means nothing.
- `reaction_refused`: a 🤝 the engine refused (a void or replaced offer, over the deal's payout…) is answered in the
  thread with the engine's reason, mentioning the player; the platform takes the 🤝 off when it may.
- `score_text`: money, "$48M", in the standings the platform posts (game over, `/mod end`).
- `away_action`: the generic one (a player who is away passes in reaction windows and last calls).
- `cog`: the `/kkk` commands (`cog.KkkCog`).

The engine decides everything: every action built here goes through `GameService` and `game.apply`, which refuses
what the rules refuse, with the reason.
"""

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from bot.games.kkk import hand, narration, posts, reading, status
from bot.games.kkk.words import money
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

    def reaction_allowed(self, table: Table, ref: MessageRef, seat: int | None, emoji: str) -> bool:
        key = _shake_key(table, ref, emoji)
        if key is None:
            return True  # not a 🤝 on an offer: it means nothing, and stays
        if seat is None:
            return False
        offer = reading.offer(reading.public(table), key[0])
        if offer is None:
            return True  # the round is over: the engine says so (`reaction_action` asks it)
        return key[1] == offer.reopened and seat in (offer.seller, offer.boss)

    def reaction_action(self, table: Table, ref: MessageRef, seat: int, emoji: str, added: bool) -> Any | None:
        key = _shake_key(table, ref, emoji)
        if key is None:
            return None
        offer = reading.offer(reading.public(table), key[0])
        if offer is None:
            return A.Shake(offer=key[0]) if added else None
        if key[1] != offer.reopened or seat not in (offer.seller, offer.boss):
            return None
        if added:
            if offer.status == "binding" or seat in offer.shaken:
                return None  # already agreed (e.g. with `/kkk shake`): the 🤝 only shows it
            return A.Shake(offer=offer.id)
        if offer.status in ("open", "shaken") and seat in offer.shaken:
            return A.Unshake(offer=offer.id)
        return None  # after it binds (or if that side never shook), taking the 🤝 off changes nothing

    def reaction_refused(
        self, table: Table, ref: MessageRef, seat: int, emoji: str, added: bool, message: str
    ) -> Post | None:
        key = _shake_key(table, ref, emoji)
        if key is None or not added:
            return super().reaction_refused(table, ref, seat, emoji, added, message)
        return Post(
            content=f"{posts.SHAKE} {table.mention(seat)}'s shake on offer #{key[0]} doesn't count: "
            f"{table.render(message)}"
        )

    def score_text(self, table: Table, score: int) -> str:
        return money(score)

    def rules(self, game: Game) -> str:  # type: ignore[type-arg]
        return RULES

    def cog(self, bot: "commands.Bot") -> "commands.Cog | None":
        from bot.games.kkk.cog import KkkCog

        return KkkCog(bot)  # type: ignore[arg-type]


def _shake_key(table: Table, ref: MessageRef, emoji: str) -> tuple[int, int] | None:
    """(offer id, reopening) for a 🤝 on an offer's message; None for anything else."""
    if ref.kind != posts.OFFER or emoji != posts.SHAKE or table.state is None:
        return None
    return posts.parse_offer_key(ref.key)
