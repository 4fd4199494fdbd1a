"""The narration: one line per event, worded from its `kind` and values (the engine speaks no language), in the
language being spoken; and the private notes (`private_note`) of the events only some seats see.

Seats in the values become the table's names; a default applied at a deadline (`by_default`) is told as "Time's up".
"""

from collections.abc import Sequence
from typing import Any

from bot.presentation import Table
from engine.events import Event

from .i18n import _, n_
from .words import amount, event_name, good_name, goods_text, offer_name

ICONS = {
    "starter": "🃏",
    "offer": "📜",
    "event_played": "⚡",
    "trade_turn": "💱",
    "trade": "💰",
    "moved": "➡️",
    "no_trade": "➡️",
    "round_end": "🔔",
    "in_force": "📌",
    "void": "🚫",
    "choose": "⚡",
    "target": "🎯",
    "espionage": "🕵️",
    "quick_deal": "💸",
    "forced_swap": "🔀",
    "raid": "🚨",
    "new_goods": "📦",
    "old_debt": "🧾",
    "round_over": "🏁",
    "refill": "🂠",
    "all_empty": "🏁",
    "game_over": "🏆",
    "left": "🚪",
}

PUBLIC_KINDS = tuple(ICONS)
"""Every public event kind the engine emits."""
PRIVATE_KINDS = ("drew", "took", "swapped", "debt_paid", "refilled")
"""Every private event kind the engine emits (a seat's own notes)."""


def _name(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return "?"


def _pairs(names: Sequence[str], pairs: Any) -> str:
    """[[seat, n], …] as "anna 12, bert 30"."""
    return ", ".join(f"{_name(names, s)} {n}" for s, n in pairs or [])


def asking_words(data: dict[str, Any], names: Sequence[str]) -> str:
    """An event's question from the engine's values (`eventcards.asking`), as an instruction to its player."""
    kind, step = data.get("event"), data.get("step")
    name = event_name(str(kind))
    target = _name(names, data.get("target"))
    match kind, step:
        case "espionage", _:
            return _("choose a player for %(event)s: two of their goods cards will be shown to everyone", event=name)
        case "forced_swap", "target":
            return _("choose a player for %(event)s", event=name)
        case "forced_swap", _:
            return _("choose 1 or 2 of your goods cards to give %(target)s (%(event)s)", target=target, event=name)
        case "raid", "target":
            return _("choose a player for the %(event)s", event=name)
        case "raid", _:
            return _("name a kind of goods for the %(event)s on %(target)s", event=name, target=target)
        case "old_debt", _:
            return _("choose a player to take a goods card from (%(event)s)", event=name)
        case "quick_deal", _:
            return _(
                "choose one of your goods cards to trade for %(n)d (%(event)s)", n=data.get("quick_deal", 0), event=name
            )
        case "new_goods", _:
            return _("pay %(n)d and choose a card from the goods pile (%(event)s)", n=data.get("cost", 0), event=name)
    return _("make your choice")


def _in_force(kinds: Sequence[str], end_price: int) -> str:
    rules = []
    for kind in kinds:
        match kind:
            case "shortage":
                rules.append(_("%(event)s: at most one card per turn", event=event_name(kind)))
            case "spoiled_goods":
                rules.append(_("%(event)s: the first card traded pays half", event=event_name(kind)))
            case "limit":
                rules.append(_("%(event)s: the round ends at price %(price)d", event=event_name(kind), price=end_price))
    return " " + _("In force: %(rules)s.", rules="; ".join(rules)) if rules else ""


def _pile_empty(data: dict[str, Any]) -> str:
    return "" if data.get("drew", True) else " " + _("The black-market pile is empty, so no card is drawn.")


def line(table: Table, event: Event) -> str | None:
    """The public narration line of `event` (None: nothing to say), with its icon and, for a call to act, where
    the buttons are."""
    if not event.public:
        return None
    # An event stored before the engine stopped wording its events (an undelivered row) keeps the words it had.
    text = table.render(event.text) if event.text else words(event, table.names)
    if not text:
        return None
    icon = "⏰" if event.data.get("by_default") else ICONS.get(event.kind)
    return (f"{icon} {text}" if icon else text) + hint(event)


def words(event: Event, names: Sequence[str]) -> str | None:
    d: dict[str, Any] = dict(event.data)
    who = _name(names, d.get("seat"))
    target = _name(names, d.get("target"))
    timed = bool(d.get("by_default"))
    match event.kind:
        case "starter":
            if "dealer" in d:
                goods = n_("%(n)d goods card", "%(n)d goods cards", int(d.get("hand_size", 0)))
                black = n_("%(n)d black-market card", "%(n)d black-market cards", int(d.get("black_market_hand", 0)))
                dealt = _(
                    "%(dealer)s deals: %(goods)s and %(black)s each, in secret.",
                    dealer=_name(names, d["dealer"]),
                    goods=goods,
                    black=black,
                )
                start = _("%(who)s, you start the first trading round: play one of your black-market cards.", who=who)
                return f"{dealt} {start}"
            start = _("%(who)s, you start the next trading round: play one of your black-market cards.", who=who)
            if "round" in d:
                return _("Game round %(round)d begins.", round=d["round"]) + " " + start
            return start
        case "offer":
            wants = goods_text(d.get("wants", []))
            if timed:
                lead = _(
                    "Time's up: %(who)s plays a black-market card drawn at random: an offer: the market wants "
                    "%(goods)s.",
                    who=who,
                    goods=wants,
                )
            else:
                lead = _("%(who)s plays an offer: the market wants %(goods)s.", who=who, goods=wants)
            marker = _("The price marker is on 1 (price %(price)d).", price=d.get("price", 1))
            return f"{lead} {marker}{_in_force(d.get('in_force', []), d.get('end_price', 0))}{_pile_empty(d)}"
        case "event_played":
            name = event_name(str(d.get("event")))
            if timed:
                lead = _(
                    "Time's up: %(who)s plays a black-market card drawn at random: %(event)s!", who=who, event=name
                )
            else:
                lead = _("%(who)s plays %(event)s!", who=who, event=name)
            return lead + _pile_empty(d)
        case "trade_turn":
            if d.get("last_call"):
                return _(
                    "%(who)s, last call at price %(price)d: trade any wanted goods (or none); the marker stays and "
                    "the trading round ends after you.",
                    who=who,
                    price=d.get("price", 0),
                )
            return _(
                "%(who)s, your trading turn at price %(price)d: trade any wanted goods (or none), then move the "
                "marker.",
                who=who,
                price=d.get("price", 0),
            )
        case "trade":
            values = {"who": who, "goods": goods_text(d.get("cards", [])), "price": d.get("price", 0)}
            if d.get("spoiled"):
                return _(
                    "%(who)s trades %(goods)s at %(price)d: +%(paid)d luxury goods (%(event)s: the first pays only "
                    "%(half)d).",
                    paid=d.get("paid", 0),
                    event=event_name("spoiled_goods"),
                    half=d.get("half", 0),
                    **values,
                )
            return _("%(who)s trades %(goods)s at %(price)d: +%(paid)d luxury goods.", paid=d.get("paid", 0), **values)
        case "moved":
            return _(
                "The marker moves 1 to space %(space)d (price %(price)d).",
                space=d.get("marker", 0),
                price=d.get("price", 0),
            )
        case "no_trade":
            move = int(d.get("move", 0))
            if move == 0:
                if timed:
                    return _("Time's up: %(who)s doesn't trade.", who=who)
                return _("%(who)s doesn't trade.", who=who)
            values = {"who": who, "space": d.get("marker", 0), "price": d.get("price", 0)}
            if timed:
                return n_(
                    "Time's up: %(who)s doesn't trade and moves the marker %(n)d space to space %(space)d (price "
                    "%(price)d).",
                    "Time's up: %(who)s doesn't trade and moves the marker %(n)d spaces to space %(space)d (price "
                    "%(price)d).",
                    move,
                    **values,
                )
            return n_(
                "%(who)s doesn't trade and moves the marker %(n)d space to space %(space)d (price %(price)d).",
                "%(who)s doesn't trade and moves the marker %(n)d spaces to space %(space)d (price %(price)d).",
                move,
                **values,
            )
        case "round_end":
            match d.get("why"):
                case "all_traded":
                    return _("Every wanted card has been traded: the trading round is over.")
                case "last_call":
                    return _(
                        "The last call at price %(price)d is over: the trading round ends.", price=d.get("price", 50)
                    )
            return _("The last call is over: the trading round ends.")
        case "in_force":
            kind = str(d.get("event"))
            name = event_name(kind)
            match kind:
                case "shortage":
                    return _(
                        "%(event)s: in the next trading round everyone may trade at most one card per turn.",
                        event=name,
                    )
                case "limit":
                    return _(
                        "%(event)s: the next trading round ends at price %(price)d.",
                        event=name,
                        price=d.get("limit", 25),
                    )
            return _("%(event)s: the first goods card traded in the next trading round pays half.", event=name)
        case "void":
            name = event_name(str(d.get("event")))
            match d.get("why"):
                case "no_goods":
                    return _("%(event)s is void: %(who)s has no goods cards.", event=name, who=who)
                case "cant_pay":
                    return _("%(event)s is void: %(who)s can't pay %(n)d.", event=name, who=who, n=d.get("cost", 0))
                case "pile_empty":
                    return _("%(event)s is void: the goods pile is empty.", event=name)
                case "no_target":
                    return _("%(event)s is void: there is nobody it could target.", event=name)
            return _("%(event)s is void.", event=name)
        case "choose":
            return _("%(who)s, %(task)s.", who=who, task=asking_words(d, names))
        case "target":
            chose = _("%(who)s chooses %(target)s.", who=who, target=target)
            ask = _("%(who)s, %(task)s.", who=who, task=asking_words(d, names))
            return f"{_timed_choice(who) if timed else ''}{chose} {ask}"
        case "espionage":
            text = _(
                "%(who)s spies on %(target)s: they hold %(goods)s (shown to all, then given back).",
                who=who,
                target=target,
                goods=goods_text(d.get("shown", [])),
            )
            return _timed_choice(who) + text if timed else text
        case "quick_deal":
            text = _(
                "%(who)s trades %(goods)s for %(n)d (%(event)s).",
                who=who,
                goods=amount(1, str(d.get("good"))),
                n=d.get("paid", 0),
                event=event_name("quick_deal"),
            )
            return _timed_choice(who) + text if timed else text
        case "forced_swap":
            text = n_(
                "%(who)s gives %(target)s %(n)d card and takes as many from them at random.",
                "%(who)s gives %(target)s %(n)d cards and takes as many from them at random.",
                int(d.get("count", 0)),
                who=who,
                target=target,
            )
            return _timed_choice(who) + text if timed else text
        case "new_goods":
            text = _("%(who)s pays %(n)d and takes a card from the goods pile.", who=who, n=d.get("paid", 0))
            return _timed_choice(who) + text if timed else text
        case "raid":
            good = str(d.get("good"))
            lost = int(d.get("lost", 0))
            values = {"who": who, "target": target, "good": good_name(good)}
            if lost:
                text = n_(
                    "%(who)s raids %(target)s for %(good)s: %(goods)s goes under the goods pile.",
                    "%(who)s raids %(target)s for %(good)s: %(goods)s go under the goods pile.",
                    lost,
                    goods=amount(lost, good),
                    **values,
                )
            else:
                text = _("%(who)s raids %(target)s for %(good)s: they have no %(good)s.", **values)
            return _timed_choice(who) + text if timed else text
        case "old_debt":
            text = _(
                "%(who)s takes a goods card at random from %(target)s (%(event)s).",
                who=who,
                target=target,
                event=event_name("old_debt"),
            )
            return _timed_choice(who) + text if timed else text
        case "all_empty":
            return _("Every hand is empty, so nobody can trade a last card: the game round ends.")
        case "round_over":
            values = {
                "round": d.get("round", 1),
                "luxury": _pairs(names, d.get("luxury")),
                "size": d.get("hand_size", 9),
            }
            if d.get("emptier") is not None:
                return _(
                    "%(who)s traded in their last goods card: game round %(round)d is over. Luxury goods: "
                    "%(luxury)s. Everyone's goods are refilled to %(size)d; black-market cards are kept.",
                    who=_name(names, d["emptier"]),
                    **values,
                )
            return _(
                "Game round %(round)d is over. Luxury goods: %(luxury)s. Everyone's goods are refilled to %(size)d; "
                "black-market cards are kept.",
                **values,
            )
        case "refill":
            return _("New goods are dealt. Hand sizes: %(sizes)s.", sizes=_pairs(names, d.get("sizes")))
        case "game_over":
            # Everyone's luxury goods are the final standings, just below it in the final message: not said here.
            if d.get("emptier") is not None:
                return _(
                    "%(who)s traded in their last goods card: the second game round is over.",
                    who=_name(names, d["emptier"]),
                )
            return _("The second game round is over.")
        case "left":
            return _(
                "%(who)s has left the game: their goods go under the goods pile, their black-market cards under the "
                "black-market pile.",
                who=who,
            )
    return None


def _timed_choice(who: str) -> str:
    return _("Time's up: a random choice is made for %(who)s.", who=who) + " "


def hint(event: Event) -> str:
    """Where a call to act is answered."""
    match event.kind:
        case "starter":
            return " " + _("(buttons on your hand DM or `/game hand`, or `/sm play`)")
        case "trade_turn":
            return " " + _("(buttons on your hand DM or `/game hand`, or `/sm trade`)")
        case "choose" | "target":
            return " " + _("(buttons on your hand DM or `/game hand`)")
    return ""


def private_note(table: Table, event: Event) -> str | None:
    """The note of a private event, for the seats it is addressed to (their hand DM's "Latest")."""
    if event.text:  # stored before the engine stopped wording its events
        return table.render(event.text)
    d: dict[str, Any] = dict(event.data)
    names = table.names
    who = _name(names, d.get("seat"))
    target = _name(names, d.get("target"))
    match event.kind:
        case "drew":
            card = offer_name(d["wants"]) if "wants" in d else event_name(str(d.get("event")))
            return _("You draw a black-market card: %(card)s.", card=card)
        case "took":
            return _("You take %(goods)s from the goods pile.", goods=amount(1, str(d.get("good"))))
        case "swapped":
            return _(
                "%(event)s: %(who)s gave %(target)s %(given)s and took %(taken)s.",
                event=event_name("forced_swap"),
                who=who,
                target=target,
                given=goods_text(d.get("given", [])),
                taken=goods_text(d.get("taken", [])),
            )
        case "debt_paid":
            return _(
                "%(event)s: %(who)s took %(goods)s from %(target)s.",
                event=event_name("old_debt"),
                who=who,
                goods=amount(1, str(d.get("good"))),
                target=target,
            )
        case "refilled":
            return _("You draw %(goods)s for the new game round.", goods=goods_text(d.get("drawn", [])))
    return None


__all__ = ["PRIVATE_KINDS", "PUBLIC_KINDS", "line", "private_note"]
