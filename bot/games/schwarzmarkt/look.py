"""The Schwarzmarkt table in text, drawn from the engine's public view only (and a hand from its owner's view):
the price track with the marker and this round's end, the offer and what it still wants, the events in force, one
line per player. The picture (`picture.py`) draws the same view.
"""

from collections.abc import Mapping, Sequence
from typing import cast

from bot.presentation import Table
from engine.schwarzmarkt.market import GOODS, Card
from engine.schwarzmarkt.views import PublicView, SeatView

from .i18n import _, n_
from .words import amount, event_effect, event_name, offer_name, printed_name

EMOJI = {"potatoes": "🥔", "flour": "🌾", "coffee": "☕", "butter": "🧈", "sugar": "🍬"}
EVENT_EMOJI = {
    "shortage": "📉",
    "espionage": "🕵️",
    "quick_deal": "💸",
    "forced_swap": "🔀",
    "raid": "🚨",
    "new_goods": "📦",
    "limit": "🛑",
    "old_debt": "🧾",
    "spoiled_goods": "🤢",
}


def public(table: Table) -> PublicView:
    """The table's public view (the only state a public line is drawn from)."""
    assert table.state is not None
    return cast(PublicView, table.game.view(table.state, None))


def goods_line(counts: Mapping[str, int], empty: str | None = None) -> str:
    """{"coffee": 2, "sugar": 1} as "☕ 2 coffee · 🍬 1 sugar"; `empty` (default "nothing") if none."""
    parts = [f"{EMOJI[g]} {amount(n, g)}" for g in GOODS if (n := counts.get(g, 0))]
    return " · ".join(parts) if parts else (empty if empty is not None else _("nothing"))


def track_line(view: PublicView) -> str:
    """The 14 prices in a row: the marker's space in brackets, the round's last space flagged 🏁."""
    cells = []
    for space, price in enumerate(view.prices, start=1):
        cell = f"[{price}]" if space == view.marker else str(price)
        if space == view.end_space:
            cell += "🏁"
        cells.append(cell)
    return "`" + " ".join(cells) + "`"


def offer_lines(view: PublicView) -> list[str]:
    offer = view.offer
    if offer is None:
        return [_("No offer on the table.")]
    still = goods_line(offer.still, _("nothing more"))
    return [_("📜 **Offer:** %(goods)s", goods=goods_line(offer.wants)), _("Still wanted: %(goods)s", goods=still)]


def in_force_names(view: PublicView) -> list[str]:
    """The events face up, by name (Spoiled Goods marked once it has halved a price)."""
    names = []
    for kind in view.in_force:
        name = event_name(kind)
        if kind == "spoiled_goods" and view.spoiled_paid:
            name = _("%(event)s (used)", event=name)
        names.append(name)
    return names


def in_force_line(view: PublicView) -> str | None:
    if not view.in_force:
        return None
    names = [f"{EVENT_EMOJI[k]} {n}" for k, n in zip(view.in_force, in_force_names(view), strict=True)]
    return _("In force: %(events)s", events=", ".join(names))


def player_lines(view: PublicView, names: Sequence[str]) -> list[str]:
    lines = []
    for seat in range(view.seats):
        if seat in view.left:
            lines.append(_("~~%(who)s~~ — left the game · 💰 %(luxury)d", who=names[seat], luxury=view.luxury[seat]))
            continue
        marks = ""
        if seat == view.starter:
            marks += " 🃏"
        if seat == view.turn and view.phase != "over":
            marks += " ⏳"
        goods = n_("%(n)d goods", "%(n)d goods", view.hand_sizes[seat])
        black = n_("%(n)d black-market card", "%(n)d black-market cards", view.black_market_sizes[seat])
        lines.append(f"**{names[seat]}**{marks} — 💰 {view.luxury[seat]} · {goods} · {black}")
    return lines


def card_text(card: Card, view: PublicView) -> str:
    """A black-market card with what it does, for the hand."""
    if card.event is None:
        wants = {g: n for g, n in zip(GOODS, card.wants, strict=True) if n}
        return _("📜 Offer — wants %(goods)s", goods=goods_line(wants))
    effect = event_effect(card.event, view.quick_deal, view.new_goods_cost, view.prices[view.limit_space - 1])
    return f"{EVENT_EMOJI[card.event]} **{printed_name(card.event)}** — {effect}"


def card_label(card: Card) -> str:
    """A short button label for a black-market card (at most 80 characters)."""
    if card.event is None:
        return offer_name(card.wants)
    return event_name(card.event)


def hand_lines(view: SeatView) -> list[str]:
    total = sum(view.goods.values())
    return [
        _("**Your goods** (%(n)d): %(goods)s", n=total, goods=goods_line(view.goods, _none())),
        _("**Your luxury goods:** 💰 %(n)d", n=view.luxury[view.seat]),
        _("**Your black-market cards:**"),
        *(f"• {card_text(c, view)}" for c in view.black_market),
    ]


def _none() -> str:
    """ "none", looked up where it is said (Babel's extraction reads no call nested in another's arguments)."""
    return _("none")
