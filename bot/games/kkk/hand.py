"""A player's private message: their hand grouped by type, their investors, their money, their open agreements.

"Their open agreements" are the agreements of this round they are a party to that are still outstanding:
binding, to be paid when the deal concludes, each with its number, who pays whom, how much and for which card. An
agreement leaves the list when it is paid, void, reopened to a new Boss or the round ends. Offers not yet agreed
are not listed: each has its own message in the thread showing its state, and keeping them out of the DM keeps an
offer (its proposer's 🤝) at three REST calls (the reply, the bot's 🤝 / the offer's edit, the status); an agreement
that binds updates both parties' DMs.

Rendered from `view(state, seat)` only. The same lines, with seat references instead of names, are the hand's
digest: the platform edits the DM exactly when what it shows changes (an offer between two other players touches
only their DMs).
"""

import json

from pydantic import BaseModel

from bot.games.kkk.i18n import _, n_
from bot.games.kkk.status import COLOUR
from bot.games.kkk.words import family, hand_block, money
from bot.hands import Hands
from bot.i18n import current
from bot.presentation import Button, Post, Table
from engine.game import Game
from engine.kkk.views import PlayerView
from engine.text import seat as seat_ref


def hand_fields(view: PlayerView) -> list[tuple[str, str]]:
    """The DM's fields, with seat references (`engine.text.seat`) for other players."""
    me = view.you
    fields = [
        ("💰 " + _("Your money"), _("**%(money)s** — only you see this until the end.", money=money(view.my_money))),
        ("🃏 " + n_("Your hand (%(n)d card)", "Your hand (%(n)d cards)", len(view.hand)), hand_block(view.hand)),
    ]
    travel = {i.family for i in view.investors if i.on_travel}
    investors = [
        _("%(family)s (on travel ✈️)", family=family(f)) if f in travel else family(f) for f in view.my_investors
    ]
    fields.append(("👔 " + _("Your investors"), ", ".join(investors) if investors else _("none")))
    agreements = open_agreements(view)
    if agreements:
        fields.append(("🤝 " + _("Your open agreements"), "\n".join(agreements)))
    if view.wait is not None and view.wait.key.startswith("discard:") and view.wait.seats == [me]:
        extra = len(view.hand) - 12
        fields.append(
            (
                "✋ " + _("Over the limit"),
                _("Discard %(n)d with `/kkk discard` or play a recruitment triple (`/kkk recruit`).", n=extra),
            )
        )
    return fields


def open_agreements(view: PlayerView) -> list[str]:
    """The binding agreements this player is a party to, not yet paid (with seat references)."""
    if view.round is None:
        return []
    me = view.you
    lines = []
    for o in sorted(view.round.offers, key=lambda o: o.id):
        if o.id not in view.my_offers or o.status != "binding":
            continue
        values = {"offer": o.id, "amount": money(o.value), "family": family(o.family)}
        if me == o.boss and o.family:
            line = _(
                "#%(offer)d ✅ binding: you pay %(who)s %(amount)s for %(family)s", who=seat_ref(o.seller), **values
            )
        elif me == o.boss:
            line = _(
                "#%(offer)d ✅ binding: you pay %(who)s %(amount)s as a share (no card)",
                who=seat_ref(o.seller),
                **values,
            )
        elif o.family:
            line = _(
                "#%(offer)d ✅ binding: %(who)s pays you %(amount)s for %(family)s", who=seat_ref(o.boss), **values
            )
        else:
            line = _(
                "#%(offer)d ✅ binding: %(who)s pays you %(amount)s as a share (no card)",
                who=seat_ref(o.boss),
                **values,
            )
        lines.append(line)
    return lines


def table_fields(table: Table, seat: int) -> list[tuple[str, str]]:
    """`hand_fields` of the table's view of the seat, computed once per state and seat: the commit's digest and
    the hand's post share them. Callers must not change the list."""
    key = ("kkk.hand_fields", seat, id(table.state), current())  # the words are the language's being spoken
    found = table.memo.get(key)
    if found is None:
        view = table.view(seat)
        assert isinstance(view, PlayerView)
        found = table.memo[key] = hand_fields(view)
    return found  # type: ignore[no-any-return]


def hand_post(table: Table, seat: int) -> Post:
    assert table.state is not None
    names = table.names
    return Post(
        title=_("Your hand — %(title)s", title=table.title),
        description=_(
            "You play **%(name)s** (seat %(seat)d). Only you see this message.", name=names[seat], seat=seat + 1
        ),
        fields=[(name, table.render(value)) for name, value in table_fields(table, seat)],
        colour=COLOUR,
        footer=_(
            "Game #%(game)d · seat %(seat)d (%(name)s)",
            game=table.record.id,
            seat=seat + 1,
            name=table.plain_name(seat),
        ),
    )


def digest(game: Game, state: BaseModel, seat: int) -> str:  # type: ignore[type-arg]
    return view_digest(game.view(state, seat))


def table_digest(table: Table, seat: int) -> str:
    """`digest` from the table's once-computed view of the seat (and its fields, which the hand's post shares)."""
    return json.dumps(table_fields(table, seat))


def view_digest(view: BaseModel) -> str:
    assert isinstance(view, PlayerView)
    return json.dumps(hand_fields(view))


class KkkHands(Hands):
    """The hand DM's fingerprint: its digest (`digest`, `table_digest` above); the DM has no buttons."""

    def digest(self, game: Game, state: BaseModel, seat: int) -> str:  # type: ignore[type-arg]
        return digest(game, state, seat)

    def table_digest(self, table: Table, seat: int) -> str:
        return table_digest(table, seat)

    def buttons(self, table: Table, seat: int) -> list[Button]:
        return []  # the hand DM (`hand_post`) has no buttons: its digest alone says when it changes
