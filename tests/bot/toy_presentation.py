"""A test-only presentation for the toy game: the platform's generic one plus a tracked STOP message per window.

Each reaction window gets its own thread message with 🛑 added by the bot; a player's 🛑 reaction on it means STOP.
This exercises the platform's tracked posts and its reaction mapping the way a real game's offers ("Shake!") will.
Any reaction there by someone who doesn't play is stray (`controls.reaction_allowed`), as a 🤝 by a non-party is
on an offer.
"""

from collections.abc import Sequence
from typing import Any

from bot.controls import Controls
from bot.presentation import GenericPresentation, Post, Table
from engine.events import Event
from storage.models import MessageRef


class ToyControls(Controls):
    """A player's 🛑 on a window's message is STOP; anyone else's reaction there is stray."""

    def reaction_action(self, table: Table, ref: MessageRef, seat: int, emoji: str, added: bool) -> Any | None:
        if ref.kind == "window" and emoji == "🛑" and added:
            return {"type": "stop"}
        return None

    def reaction_allowed(self, table: Table, ref: MessageRef, seat: int | None, emoji: str) -> bool:
        return not (ref.kind == "window" and seat is None)


class ToyPresentation(GenericPresentation):
    controls_type = ToyControls

    def event_posts(self, table: Table, events: Sequence[Event]) -> list[Post]:
        posts = []
        for event in events:
            if event.kind == "window":
                number = str(event.data["window"])
                posts.append(
                    Post(
                        content=f"🛑 React with 🛑 here to STOP card #{number}.",
                        ref=("window", number),
                        reactions=["🛑"],
                    )
                )
        return posts
