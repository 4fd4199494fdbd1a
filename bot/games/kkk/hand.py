"""A player's private message: their hand grouped by type, their investors, their money, their agreements.

Rendered from `view(state, seat)` only. The same lines, with seat references instead of names, are the hand's
digest: the platform edits the DM exactly when what it shows changes (a new offer elsewhere at the table does not
touch anyone's DM; a binding agreement does).
"""

import json

from pydantic import BaseModel

from bot.games.kkk.status import COLOUR
from bot.games.kkk.words import family, hand_block, money
from bot.presentation import Post, Table
from engine.game import Game
from engine.kkk.views import PlayerView
from engine.text import seat as seat_ref


def hand_fields(view: PlayerView) -> list[tuple[str, str]]:
    """The DM's fields, with seat references (`engine.text.seat`) for other players."""
    me = view.you
    fields = [
        ("💰 Your money", f"**{money(view.my_money)}** — only you see this until the end."),
        (f"🃏 Your hand ({len(view.hand)} card{'s' if len(view.hand) != 1 else ''})", hand_block(view.hand)),
    ]
    travel = {i.family for i in view.investors if i.on_travel}
    investors = [f"{family(f)}{' (on travel ✈️)' if f in travel else ''}" for f in view.my_investors]
    fields.append(("👔 Your investors", ", ".join(investors) if investors else "none"))
    agreements = []
    if view.round is not None:
        for o in view.round.offers:
            if o.status != "binding" or me not in (o.seller, o.boss):
                continue
            what = f"{family(o.family)}" if o.family else "no card"
            if me == o.boss:
                agreements.append(f"#{o.id}: you pay {seat_ref(o.seller)} {money(o.value)} for {what}")
            else:
                agreements.append(f"#{o.id}: {seat_ref(o.boss)} pays you {money(o.value)} for {what}")
    if agreements:
        fields.append(("🤝 Your binding agreements", "\n".join(agreements)))
    if view.wait is not None and view.wait.key.startswith("discard:") and view.wait.seats == [me]:
        extra = len(view.hand) - 12
        fields.append(
            ("✋ Over the limit", f"Discard {extra} with `/kkk discard` or play a recruitment triple (`/kkk recruit`).")
        )
    return fields


def hand_post(table: Table, seat: int) -> Post:
    assert table.state is not None
    view = table.game.view(table.state, seat)
    assert isinstance(view, PlayerView)
    names = table.names
    return Post(
        title=f"Your hand — {table.title}",
        description=f"You play **{names[seat]}** (seat {seat + 1}). Only you see this message.",
        fields=[(name, table.render(value)) for name, value in hand_fields(view)],
        colour=COLOUR,
        footer=f"Game #{table.record.id} · seat {seat + 1} ({names[seat]})",
    )


def digest(game: Game, state: BaseModel, seat: int) -> str:  # type: ignore[type-arg]
    view = game.view(state, seat)
    assert isinstance(view, PlayerView)
    return json.dumps(hand_fields(view))
