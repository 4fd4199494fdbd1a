"""“What can I do now?” in Schwarzmarkt's words: `/game help`'s lines and `/game move`'s suggestions.

The commands are `commands.SchwarzmarktCog`'s (`/sm play`, `/sm trade`); every move, the events' choices included,
also has its button on the hand DM (and on `/game hand`'s answer), see `prompts.buttons`.
"""

from collections.abc import Sequence
from typing import Any

from bot.presentation import Table
from engine.schwarzmarkt import actions as A
from engine.schwarzmarkt.words import counts_of

from .look import card_label
from .prompts import counts_text, seat_view

BUTTONS = "the buttons in your hand DM (or `/game hand`)"


def help_line(table: Table, seat: int, kind: str, actions: Sequence[Any]) -> str | None:
    match kind:
        case "play":
            return f"📜 **Play a black-market card** as the starter: {BUTTONS}, or `/sm play card:`"
        case "trade":
            return (
                f"💰 **Trade** wanted goods (or none) and move the price marker: {BUTTONS}, or `/sm trade cards: move:`"
            )
        case "target":
            return f"🎯 **Choose a player** for the event: {BUTTONS}"
        case "pick":
            return f"📦 **Choose a kind of goods** for the event: {BUTTONS}"
        case "give":
            return f"🔁 **Choose the goods to give**: {BUTTONS}"
    return None


def describe_action(table: Table, seat: int, action: Any) -> str | None:
    match action:
        case A.Play(card=card):
            cards = {c.id: c for c in seat_view(table, seat).black_market}
            return f"Play {card_label(cards[card])}" if card in cards else f"Play card {card}"
        case A.Trade(cards=goods, move=move):
            steps = f"move the marker {move}" if move else "the marker stays"
            if not goods:
                return f"No trade, {steps}"
            return f"Sell {counts_text(counts_of(goods))}, {steps}"
        case A.Target(seat=target):
            return f"Choose {table.plain_name(target)}"
        case A.Pick(good=good):
            return f"Choose {good}"
        case A.Give(cards=goods):
            return f"Give {counts_text(counts_of(goods))}"
    return None
