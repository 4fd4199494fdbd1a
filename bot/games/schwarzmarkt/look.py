"""The Schwarzmarkt table in text, drawn from the engine's public view only (and a hand from its owner's view):
the price track with the marker and this round's end, the offer and what it still wants, the events in force, one
line per player. A picture (`picture.py`, when the platform's picture support exists) can draw the same view.
"""

from collections.abc import Sequence
from typing import cast

from bot.presentation import Table
from engine.schwarzmarkt.market import GOODS, Card
from engine.schwarzmarkt.views import PublicView, SeatView
from engine.schwarzmarkt.words import EVENT_NAMES, GERMAN, amount, event_effect

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


def goods_line(counts: dict[str, int], empty: str = "nothing") -> str:
    """{"coffee": 2, "sugar": 1} as "☕ 2 coffee · 🍬 1 sugar"."""
    parts = [f"{EMOJI[g]} {amount(n, g)}" for g in GOODS if (n := counts.get(g, 0))]
    return " · ".join(parts) if parts else empty


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
        return ["No offer on the table."]
    still = goods_line(offer.still, "nothing more")
    lines = [f"📜 **Offer:** {goods_line(offer.wants)}", f"Still wanted: {still}"]
    return lines


def in_force_line(view: PublicView) -> str | None:
    if not view.in_force:
        return None
    names = []
    for kind in view.in_force:
        name = f"{EVENT_EMOJI[kind]} {EVENT_NAMES[kind]}"
        if kind == "spoiled_goods" and view.spoiled_paid:
            name += " (used)"
        names.append(name)
    return "In force: " + ", ".join(names)


def player_lines(view: PublicView, names: Sequence[str]) -> list[str]:
    lines = []
    for seat in range(view.seats):
        if seat in view.left:
            lines.append(f"~~{names[seat]}~~ — left the game · 💰 {view.luxury[seat]}")
            continue
        marks = ""
        if seat == view.starter:
            marks += " 🃏"
        if seat == view.turn and view.phase != "over":
            marks += " ⏳"
        lines.append(
            f"**{names[seat]}**{marks} — 💰 {view.luxury[seat]} · {view.hand_sizes[seat]} goods · "
            f"{view.black_market_sizes[seat]} black-market cards"
        )
    return lines


def card_text(card: Card, view: PublicView) -> str:
    """A black-market card with what it does, for the hand."""
    if card.event is None:
        wants = {g: n for g, n in zip(GOODS, card.wants, strict=True) if n}
        return f"📜 Offer — wants {goods_line(wants)}"
    effect = event_effect(card.event, view.quick_deal, view.new_goods_cost, view.prices[view.limit_space - 1])
    return f"{EVENT_EMOJI[card.event]} **{EVENT_NAMES[card.event]}** ({GERMAN[card.event]}) — {effect}"


def card_label(card: Card) -> str:
    """A short button label for a black-market card (at most 80 characters)."""
    if card.event is None:
        return "Offer: " + ", ".join(f"{n} {g}" for g, n in zip(GOODS, card.wants, strict=True) if n)
    return EVENT_NAMES[card.event]


def hand_lines(view: SeatView) -> list[str]:
    total = sum(view.goods.values())
    return [
        f"**Your goods** ({total}): {goods_line(view.goods, 'none')}",
        f"**Your luxury goods:** 💰 {view.luxury[view.seat]}",
        "**Your black-market cards:**",
        *(f"• {card_text(c, view)}" for c in view.black_market),
    ]
