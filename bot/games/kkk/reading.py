"""Reading the engine's views for rendering: the public table, a player's view, the open window, an offer.

Everything the Discord layer shows comes from `game.view(state, None)` (the public table) or `game.view(state, seat)`
(that seat only): never from the raw state, so a hand can only reach its owner.
"""

from datetime import datetime

from bot.games.kkk.i18n import _
from bot.presentation import Table
from engine.kkk.views import OfferView, PlayerView, PublicView


def public(table: Table) -> PublicView:
    view = table.view(None)
    assert isinstance(view, PublicView)
    return view


def mine(table: Table, seat: int) -> PlayerView:
    view = table.view(seat)
    assert isinstance(view, PlayerView)
    return view


def window_id(view: PublicView) -> int | None:
    """The number of the open reaction window or last call (the engine's wait key "window:N" / "call:N")."""
    wait = view.wait
    if wait is None or wait.kind != "reaction":
        return None
    try:
        return int(wait.key.split(":", 1)[1])
    except (IndexError, ValueError):
        return None


def reaction_deadline(table: Table) -> datetime | None:
    """When the open reaction window closes (the platform's effective deadline, after pauses and extensions)."""
    for i, wait in enumerate(table.waits):
        if wait.kind == "reaction":
            return table.deadline(i, wait)
    return None


def wait_deadline(table: Table) -> datetime | None:
    """When the current wait (there is at most one) runs out."""
    waits = table.waits
    return table.deadline(0, waits[0]) if waits else None


def offer(view: PublicView, offer_id: int) -> OfferView | None:
    if view.round is None:
        return None
    return next((o for o in view.round.offers if o.id == offer_id), None)


def card_kind(view: PublicView, seat: int, family: str | None) -> str:
    """Which card of `family` the seat has on the table: "investor", "clan card" or "investor or clan card" (in the
    language being spoken)."""
    if family is None:
        return ""
    investor = any(i.family == family and i.owner == seat and not i.on_travel for i in view.investors)
    clan = view.round is not None and seat < len(view.round.clans) and family in view.round.clans[seat]
    if investor and clan:
        return _("investor or clan card")
    if clan:
        return _("clan card")
    return _("investor")
