"""“What can I do now?” in Schwarzmarkt's words: `/game help`'s lines and `/game move`'s suggestions.

The commands are `commands.SchwarzmarktCog`'s (`/sm play`, `/sm trade`); every move, the events' choices included,
also has its button on the hand DM (and on `/game hand`'s answer), see `prompts.buttons`.
"""

from collections.abc import Sequence
from typing import Any

from bot.presentation import Table
from engine.schwarzmarkt import actions as A
from engine.schwarzmarkt.market import counts_of

from .i18n import _
from .look import card_label
from .prompts import counts_text, seat_view
from .words import good_name


def help_line(table: Table, seat: int, kind: str, actions: Sequence[Any]) -> str | None:
    match kind:
        case "play":
            return _(
                "📜 **Play a black-market card** as the starter: the buttons in your hand DM (or `/game hand`), "
                "or `/sm play card:`"
            )
        case "trade":
            return _(
                "💰 **Trade** wanted goods (or none) and move the price marker: the buttons in your hand DM (or "
                "`/game hand`), or `/sm trade cards: move:`"
            )
        case "target":
            return _("🎯 **Choose a player** for the event: the buttons in your hand DM (or `/game hand`)")
        case "pick":
            return _("📦 **Choose a kind of goods** for the event: the buttons in your hand DM (or `/game hand`)")
        case "give":
            return _("🔁 **Choose the goods to give**: the buttons in your hand DM (or `/game hand`)")
    return None


def describe_action(table: Table, seat: int, action: Any) -> str | None:
    match action:
        case A.Play(card=card):
            cards = {c.id: c for c in seat_view(table, seat).black_market}
            if card in cards:
                return _("Play %(card)s", card=card_label(cards[card]))
            return _("Play card %(n)d", n=card)
        case A.Trade(cards=goods, move=move):
            if not goods:
                if move:
                    return _("No trade, move the marker %(n)d", n=move)
                return _("No trade, the marker stays")
            sold = counts_text(counts_of(goods))
            if move:
                return _("Sell %(goods)s, move the marker %(n)d", goods=sold, n=move)
            return _("Sell %(goods)s, the marker stays", goods=sold)
        case A.Target(seat=target):
            return _("Choose %(who)s", who=table.plain_name(target))
        case A.Pick(good=good):
            return _("Choose %(good)s", good=good_name(good))
        case A.Give(cards=goods):
            return _("Give %(goods)s", goods=counts_text(counts_of(goods)))
    return None
