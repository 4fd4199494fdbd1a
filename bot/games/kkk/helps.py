"""“What can I do now?” in Kohle, Kies & Knete's words: `/game help`'s lines and `/game move`'s suggestions.

`help_line` names, for each kind of legal move, the `/kkk` command and the button or reaction that makes it (the
commands are `cog.KkkCog`'s, the buttons `status.buttons`' and the window messages' of `posts`). `describe_action`
reads one move as a sentence ("Offer your Liebgeld investor to the Boss for 1 dividend"), from the player's own
view where a card's kind matters. Both are pure: they read the table, never change it.
"""

from collections.abc import Sequence
from typing import Any

from bot.games.kkk import reading
from bot.games.kkk.words import cards, family, money
from bot.presentation import Table
from engine.kkk import actions as A


def _offers(actions: Sequence[Any]) -> str:
    return ", ".join(f"#{a.offer}" for a in actions)


def _families(actions: Sequence[Any]) -> str:
    return ", ".join(dict.fromkeys(family(a.family) for a in actions))


def help_line(table: Table, seat: int, kind: str, actions: Sequence[Any]) -> str | None:
    """One line for one kind of legal move, with its command and button; None for a kind said elsewhere."""
    view = reading.public(table)
    window = reading.window_id(view) is not None
    match kind:
        case "place_marker":
            return "📍 **Place the dollar marker** on a space (1–16): `/kkk place space:`"
        case "open":
            return (
                f"🤝 **Open the deal** on space {view.marker}: the **Open the deal** button on the status, or "
                "`/kkk open`"
            )
        case "roll":
            return "🎲 **Roll** and move the marker: the **Roll** button on the status, or `/kkk roll`"
        case "draw":
            return "🃏 **Draw 3 cards** (your turn ends): the **Draw 3** button on the status, or `/kkk draw`"
        case "play_clan":
            return f"🃏 **Play a clan card** ({_families(actions)}): `/kkk clan family:`"
        case "offer":
            boss = view.round.boss if view.round is not None else None
            if seat == boss:
                return "💬 **Offer** a player money for their card, or a share: `/kkk offer price: family: to:`"
            return "💬 **Offer** your card to the Boss for $M or dividends: `/kkk offer price: family:`"
        case "shake":
            return (
                f"🤝 **Shake** an offer made to you ({_offers(actions)}): react 🤝 on its message, or "
                "`/kkk shake offer:`"
            )
        case "unshake":
            return f"✋ **Take back your 🤝** ({_offers(actions)}): remove it, or `/kkk unshake offer:`"
        case "withdraw":
            return f"↩️ **Withdraw or turn down** an offer ({_offers(actions)}): `/kkk withdraw offer:`"
        case "travel":
            return f"✈️ **Send a card on travel** ({_families(actions)}): `/kkk travel family:`"
        case "recruit":
            return f"🧲 **Recruit an investor** ({_families(actions)}) with 3 recruitment cards: `/kkk recruit family:`"
        case "boss":
            return "👔 **“I'm the Boss now!”** — play a Boss card: `/kkk boss`"
        case "stop":
            return "✋ **STOP** the card waiting in the reaction window: its **STOP** button, or `/kkk stop`"
        case "pass":
            if view.pending:
                return "👋 **No STOP from you**: the **Pass** button on the window's message, or `/kkk pass`"
            return "👋 **Let the last call go**: the **Let it go** button on its message, or `/kkk pass`"
        case "always_pass":
            on = any(a.on for a in actions)
            if on:
                return "💤 **Pass on everything** for the rest of this round: `/kkk pass always:on`"
            return "🔔 **Stop passing automatically** this round: `/kkk pass always:off`"
        case "close":
            return "✅ **Close the deal** (a last call): the **Close the deal** button on the status, or `/kkk close`"
        case "cancel_close":
            button = "the **Call off** button on its message, or " if window else ""
            return f"↩️ **Call off your last call**: {button}`/kkk cancel`"
        case "fail":
            return "💥 **Give the deal up**: the **Fail** button on the status, or `/kkk fail`"
        case "discard":
            return "🗑️ **Discard down to 12 cards** (or play a recruitment triple): `/kkk discard cards:`"
    return None


def describe_action(table: Table, seat: int, action: Any) -> str | None:
    """One move as a sentence; None: the generic words will do."""
    view = reading.public(table)
    names = [table.plain_name(s) for s in range(len(table.names))]
    match action:
        case A.PlaceMarker(space=space):
            return f"Place the dollar marker on space {space}"
        case A.Open():
            return f"Open the deal on space {view.marker}"
        case A.Roll():
            return "Roll the die"
        case A.Draw():
            return "Draw 3 cards"
        case A.PlayClan(family=fam):
            return f"Play your {family(fam)} clan card"
        case A.Offer():
            return _offer(view, names, seat, action)
        case A.Shake(offer=n):
            return f"🤝 Shake on offer #{n}"
        case A.Unshake(offer=n):
            return f"Take your 🤝 back from offer #{n}"
        case A.Withdraw(offer=n):
            return f"Withdraw (or turn down) offer #{n}"
        case A.Travel(target=target, family=fam, joker=joker, on=on):
            card = "clan card" if on == "clan" else "investor"
            whose = "the" if target is None else ("your" if target == seat else f"{names[target]}'s")
            where = " beside the board" if target is None else ""
            return f"Send {whose} {family(fam)} {card}{where} on travel{' (joker)' if joker else ''}"
        case A.Recruit(family=fam):
            return f"Recruit the {family(fam)} investor"
        case A.Boss():
            return "I'm the Boss now! (play a Boss card)"
        case A.Stop():
            return "STOP the card in the reaction window"
        case A.Pass():
            return "No STOP (pass)" if view.pending else "Let the last call go"
        case A.AlwaysPass(on=on):
            return "Pass on everything for the rest of this round" if on else "Stop passing automatically"
        case A.Close():
            return "Close the deal (last call, the bot's choice of cards)"
        case A.CancelClose():
            return "Call off your last call"
        case A.Fail():
            return "Give the deal up (fail)"
        case A.Discard(cards=codes):
            return f"Discard {cards(codes)}"
    return None


def _offer(view: Any, names: list[str], seat: int, action: A.Offer) -> str:
    price = money(action.price) if action.unit == "money" else f"{action.price} dividend{'s' * (action.price != 1)}"
    if action.counter is not None:
        return f"Counter-offer to #{action.counter}: {price}"
    boss = view.round.boss if view.round is not None else None
    seller = action.to if seat == boss and action.to is not None else seat
    if action.family is None:  # a share paid to a player who brings no card
        if seat == boss:
            return f"Offer {names[seller]} a share of {price} (no card)"
        return f"Ask the Boss for a share of {price} (no card)"
    else:
        kind = reading.card_kind(view, seller, action.family)
        what = f"{'your' if seller == seat else names[seller] + chr(39) + 's'} {family(action.family)} {kind}"
    if seat == boss:
        return f"Offer {names[seller]} {price} for {what}"
    return f"Offer the Boss {what} for {price}"
