"""“What can I do now?” in Kohle, Kies & Knete's words: `/game help`'s lines and `/game move`'s suggestions.

`help_line` names, for each kind of legal move, the `/kkk` command and the button or reaction that makes it (the
commands are `cog.KkkCog`'s, the buttons `status.buttons`' and the window messages' of `posts`). `describe_action`
reads one move as a sentence ("Offer your Liebgeld investor to the Boss for 1 dividend"), from the player's own
view where a card's kind matters. Both are pure: they read the table, never change it.
"""

from collections.abc import Sequence
from typing import Any

from bot.games.kkk import reading
from bot.games.kkk.i18n import _, n_
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
            return "📍 " + _("**Place the dollar marker** on a space (1–16): `/kkk place space:`")
        case "open":
            return "🤝 " + _(
                "**Open the deal** on space %(space)d: the **Open the deal** button on the status, or `/kkk open`",
                space=view.marker or 0,
            )
        case "roll":
            return "🎲 " + _("**Roll** and move the marker: the **Roll** button on the status, or `/kkk roll`")
        case "draw":
            return "🃏 " + _("**Draw 3 cards** (your turn ends): the **Draw 3** button on the status, or `/kkk draw`")
        case "play_clan":
            return "🃏 " + _("**Play a clan card** (%(families)s): `/kkk clan family:`", families=_families(actions))
        case "offer":
            boss = view.round.boss if view.round is not None else None
            if seat == boss:
                return "💬 " + _("**Offer** a player money for their card, or a share: `/kkk offer price: family: to:`")
            return "💬 " + _("**Offer** your card to the Boss for $M or dividends: `/kkk offer price: family:`")
        case "shake":
            return "🤝 " + _(
                "**Shake** an offer made to you (%(offers)s): react 🤝 on its message, or `/kkk shake offer:`",
                offers=_offers(actions),
            )
        case "unshake":
            return "✋ " + _(
                "**Take back your 🤝** (%(offers)s): remove it, or `/kkk unshake offer:`", offers=_offers(actions)
            )
        case "withdraw":
            return "↩️ " + _(
                "**Withdraw or turn down** an offer (%(offers)s): `/kkk withdraw offer:`", offers=_offers(actions)
            )
        case "travel":
            return "✈️ " + _(
                "**Send a card on travel** (%(families)s): `/kkk travel family:`", families=_families(actions)
            )
        case "recruit":
            return "🧲 " + _(
                "**Recruit an investor** (%(families)s) with 3 recruitment cards: `/kkk recruit family:`",
                families=_families(actions),
            )
        case "boss":
            return "👔 " + _("**“I'm the Boss now!”** — play a Boss card: `/kkk boss`")
        case "stop":
            return "✋ " + _("**STOP** the card waiting in the reaction window: its **STOP** button, or `/kkk stop`")
        case "pass":
            if view.pending:
                return "👋 " + _("**No STOP from you**: the **Pass** button on the window's message, or `/kkk pass`")
            return "👋 " + _("**Let the last call go**: the **Let it go** button on its message, or `/kkk pass`")
        case "always_pass":
            on = any(a.on for a in actions)
            if on:
                return "💤 " + _("**Pass on everything** for the rest of this round: `/kkk pass always:on`")
            return "🔔 " + _("**Stop passing automatically** this round: `/kkk pass always:off`")
        case "close":
            return "✅ " + _(
                "**Close the deal** (a last call): the **Close the deal** button on the status, or `/kkk close`"
            )
        case "cancel_close":
            if window:
                return "↩️ " + _("**Call off your last call**: the **Call off** button on its message, or `/kkk cancel`")
            return "↩️ " + _("**Call off your last call**: `/kkk cancel`")
        case "fail":
            return "💥 " + _("**Give the deal up**: the **Fail** button on the status, or `/kkk fail`")
        case "discard":
            return "🗑️ " + _("**Discard down to 12 cards** (or play a recruitment triple): `/kkk discard cards:`")
    return None


def describe_action(table: Table, seat: int, action: Any) -> str | None:
    """One move as a sentence; None: the generic words will do."""
    view = reading.public(table)
    names = [table.plain_name(s) for s in range(len(table.names))]
    match action:
        case A.PlaceMarker(space=space):
            return _("Place the dollar marker on space %(space)d", space=space)
        case A.Open():
            return _("Open the deal on space %(space)d", space=view.marker or 0)
        case A.Roll():
            return _("Roll the die")
        case A.Draw():
            return _("Draw 3 cards")
        case A.PlayClan(family=fam):
            return _("Play your %(family)s clan card", family=family(fam))
        case A.Offer():
            return _offer(view, names, seat, action)
        case A.Shake(offer=n):
            return "🤝 " + _("Shake on offer #%(offer)d", offer=n)
        case A.Unshake(offer=n):
            return _("Take your 🤝 back from offer #%(offer)d", offer=n)
        case A.Withdraw(offer=n):
            return _("Withdraw (or turn down) offer #%(offer)d", offer=n)
        case A.Travel(target=target, family=fam, joker=joker, on=on):
            return _travel(names, seat, target, family(fam), on, joker)
        case A.Recruit(family=fam):
            return _("Recruit the %(family)s investor", family=family(fam))
        case A.Boss():
            return _("I'm the Boss now! (play a Boss card)")
        case A.Stop():
            return _("STOP the card in the reaction window")
        case A.Pass():
            return _("No STOP (pass)") if view.pending else _("Let the last call go")
        case A.AlwaysPass(on=on):
            return _("Pass on everything for the rest of this round") if on else _("Stop passing automatically")
        case A.Close():
            return _("Close the deal (last call, the bot's choice of cards)")
        case A.CancelClose():
            return _("Call off your last call")
        case A.Fail():
            return _("Give the deal up (fail)")
        case A.Discard(cards=codes):
            return _("Discard %(cards)s", cards=cards(codes))
    return None


def _travel(names: list[str], seat: int, target: int | None, fam: str, on: str | None, joker: bool) -> str:
    if target is None:
        what = _("the %(family)s investor beside the board", family=fam)
    elif target == seat:
        what = _("your %(family)s clan card", family=fam) if on == "clan" else _("your %(family)s investor", family=fam)
    elif on == "clan":
        what = _("%(who)s's %(family)s clan card", who=names[target], family=fam)
    else:
        what = _("%(who)s's %(family)s investor", who=names[target], family=fam)
    if joker:
        return _("Send %(what)s on travel (joker)", what=what)
    return _("Send %(what)s on travel", what=what)


def _offer(view: Any, names: list[str], seat: int, action: A.Offer) -> str:
    price = money(action.price) if action.unit == "money" else n_("%(n)d dividend", "%(n)d dividends", action.price)
    if action.counter is not None:
        return _("Counter-offer to #%(offer)d: %(price)s", offer=action.counter, price=price)
    boss = view.round.boss if view.round is not None else None
    seller = action.to if seat == boss and action.to is not None else seat
    if action.family is None:  # a share paid to a player who brings no card
        if seat == boss:
            return _("Offer %(who)s a share of %(price)s (no card)", who=names[seller], price=price)
        return _("Ask the Boss for a share of %(price)s (no card)", price=price)
    kind = reading.card_kind(view, seller, action.family)
    if seller == seat:
        what = _("your %(family)s %(card)s", family=family(action.family), card=kind)
    else:
        what = _("%(who)s's %(family)s %(card)s", who=names[seller], family=family(action.family), card=kind)
    if seat == boss:
        return _("Offer %(who)s %(price)s for %(what)s", who=names[seller], price=price, what=what)
    return _("Offer the Boss %(what)s for %(price)s", what=what, price=price)
