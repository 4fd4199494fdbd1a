"""A seat's hand message, fingerprinted: what decides whether its DM must be edited.

A `Presentation` draws the hand (`private_view`); its `hands` (a `Hands`, or a game's subclass) say what of it
matters for an edit:

- `digest(game, state, seat)`: what the hand message shows, as text; the DM is edited only when it changes
  (default: the fields of the seat's view that the public view lacks — its secrets). The platform adds the hand's
  buttons to it (`hand_fingerprint`), so a change of offered buttons alone also updates the DM;
- `table_digest(table, seat)`: `digest` for a table's state (a game may read the table's once-computed views);
- `buttons(table, seat)`: the hand message's buttons, for the fingerprint (default: `private_view`'s, drawn once per
  table and seat by `private_post`); a game whose hand never has buttons says so, so that a move renders only the
  hands that changed.

A hands object holds its presentation (`self.presentation`), whose drawing it reads: composed, not inherited.
"""

import json
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from bot.i18n import current
from bot.post import Button, Post
from bot.table import Table
from engine.game import Game

if TYPE_CHECKING:
    from bot.presentation import Presentation

log = logging.getLogger("boardroom.presentation")


def private_part(game: Game, state: BaseModel, seat: int) -> dict[str, Any]:  # type: ignore[type-arg]
    """The fields of a seat's view that the public view does not show (or shows differently): its secrets."""
    mine = game.view(state, seat).model_dump(mode="json")
    public = game.view(state, None).model_dump(mode="json")
    return {k: v for k, v in mine.items() if k not in public or public[k] != v}


class Hands:
    """The hand fingerprint hooks; see the module docstring."""

    def __init__(self, presentation: "Presentation") -> None:
        self.presentation = presentation

    def digest(self, game: Game, state: BaseModel, seat: int) -> str:  # type: ignore[type-arg]
        """What the seat's hand message shows, as text: the platform edits the DM only when this changes."""
        return json.dumps(private_part(game, state, seat), sort_keys=True)

    def table_digest(self, table: Table, seat: int) -> str:
        """`digest` for a table's state: a game may read the table's once-computed views (`Table.view`)."""
        assert table.state is not None
        return self.digest(table.game, table.state, seat)

    def buttons(self, table: Table, seat: int) -> list[Button]:
        """The buttons of the seat's hand message (`private_view(table, seat).buttons`), for its fingerprint. A game
        whose hand message never has buttons may say so here, so that a move renders only the hands that changed."""
        return private_post(self.presentation, table, seat).buttons


def button_signature(buttons: Sequence[Button]) -> str:
    return json.dumps([[b.label, b.key, b.style, b.emoji] for b in buttons])


def private_post(presentation: "Presentation", table: Table, seat: int) -> Post:
    """`presentation.private_view(table, seat)`, computed once per table and seat (a table holds one state): the
    commit's fingerprint and the hand message's delivery share it. Callers must not change the post."""
    key = ("private", seat, id(table.state), current())  # words: one drawing per language
    post = table.memo.get(key)
    if post is None:
        post = table.memo[key] = presentation.private_view(table, seat)
    return post


def hand_fingerprint(presentation: "Presentation", table: Table, seat: int) -> str:
    """What decides whether a seat's hand DM must be edited: the game's `hands.digest` plus the hand's buttons.
    Computed once per table and seat."""
    assert table.state is not None
    key = ("fingerprint", seat, id(table.state))
    found = table.memo.get(key)
    if found is not None:
        return found
    digest = presentation.hands.table_digest(table, seat)
    try:
        buttons = presentation.hands.buttons(table, seat)
    except Exception:  # a rendering bug must not block a commit: the digest alone still decides
        log.exception("rendering the hand of seat %s failed", seat, extra={"game": table.record.id})
        buttons = []
    found = table.memo[key] = f"{digest}\n{button_signature(buttons)}" if buttons else digest
    return found
