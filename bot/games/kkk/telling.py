"""What each engine event says, in the language being spoken: one sentence from its `kind` and `data`.

The engine speaks no language (its events carry codes and values, seats as numbers); this module words them for
`narration` (one line per public event), `posts` (an offer's or a window's own message) and the hand DM (the
private notes). Names come from `table.names`; `who` may wrap them (e.g. in bold).
"""

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.games.kkk.i18n import _, n_
from bot.games.kkk.words import and_list, cards, family, money
from engine.events import Event

Who = Callable[[int], str]


def _int(value: Any, default: int = 0) -> int:
    return value if isinstance(value, int) else default


def plain(names: Sequence[str]) -> Who:
    return lambda s: names[s] if 0 <= s < len(names) else _("seat %(n)d", n=s + 1)


def bold(names: Sequence[str]) -> Who:
    return lambda s: f"**{plain(names)(s)}**"


# --- pending cards -----------------------------------------------------------------------------------------------


def effect_target(fam: str | None, target: int | None, on: str | None, who: Who) -> str:
    """ "Anna's Liebgeld investor", "the Raffzahn investor beside the board", "Bert's Knetowitz clan card"."""
    if target is None:
        return _("the %(family)s investor beside the board", family=family(fam))
    if on == "clan":
        return _("%(who)s's %(family)s clan card", who=who(target), family=family(fam))
    return _("%(who)s's %(family)s investor", who=who(target), family=family(fam))


def effect(kind: str, by: int, fam: str | None, target: int | None, on: str | None, who: Who) -> str:
    """A pending card as a noun phrase: "Anna's Boss card", "Anna's travel card on …", "Anna's recruitment of …"."""
    if kind == "boss":
        return _("%(who)s's Boss card", who=who(by))
    what = effect_target(fam, target, on, who)
    if kind == "travel":
        return _("%(who)s's travel card on %(target)s", who=who(by), target=what)
    return _("%(who)s's recruitment of %(target)s", who=who(by), target=what)


def effect_of(data: Mapping[str, Any], who: Who) -> str:
    """`effect` from an event's or a refusal's data: `effect` a dict (`engine.kkk.table.effect_data`) or the
    pending event's own fields (`effect` the kind)."""
    e = data.get("effect")
    if isinstance(e, dict):
        return effect(str(e.get("kind")), _int(e.get("by")), e.get("family"), e.get("target"), e.get("on"), who)
    return effect(str(e), _int(data.get("by")), data.get("family"), data.get("target"), data.get("on"), who)


def pending_line(data: Mapping[str, Any], who: Who) -> str:
    """The card just played, waiting for STOPs (without the "anyone may STOP" tail)."""
    kind, by = str(data.get("effect")), _int(data.get("by"))
    if data.get("again"):
        return _("%(effect)s stands again; anyone may STOP it, or pass.", effect=effect_of(data, who))
    if kind == "boss":
        if data.get("answers"):
            return _("👔 %(who)s answers with a Boss card: “I'm the Boss now!”", who=who(by))
        return _("👔 %(who)s plays a Boss card: “I'm the Boss now!”", who=who(by))
    target = effect_target(data.get("family"), data.get("target"), data.get("on"), who)
    if kind == "travel":
        if data.get("joker"):
            return _("✈️ %(who)s plays a travel card (joker) on %(target)s.", who=who(by), target=target)
        return _("✈️ %(who)s plays a travel card on %(target)s.", who=who(by), target=target)
    return _("🎣 %(who)s plays a recruitment triple on %(target)s.", who=who(by), target=target)


# --- offers ------------------------------------------------------------------------------------------------------


def price(data: Mapping[str, Any]) -> str:
    value = money(_int(data.get("value")))
    if data.get("unit") == "dividends":
        n = _int(data.get("price"))
        return n_("%(n)d dividend (%(value)s)", "%(n)d dividends (%(value)s)", n, value=value)
    return value


def terms(data: Mapping[str, Any], who: Who) -> str:
    """ "#3: Knetowitz from Anna for $8M", "#4: $2M to Bert (no card)"."""
    offer, seller = _int(data.get("offer")), who(_int(data.get("seller")))
    if data.get("family") is None:
        return _("#%(offer)d: %(price)s to %(who)s (no card)", offer=offer, price=price(data), who=seller)
    return _(
        "#%(offer)d: %(family)s from %(who)s for %(price)s",
        offer=offer,
        family=family(data.get("family")),
        who=seller,
        price=price(data),
    )


def void_reason(data: Mapping[str, Any], who: Who) -> str:
    """Why an offer is void (`Offer.reason`, a code, with the offer's data)."""
    reason = data.get("reason")
    seller, boss = _int(data.get("seller")), _int(data.get("boss"))
    if reason == "replaced":
        return _(
            "agreement #%(old)d, which it would replace, was replaced by #%(new)d",
            old=_int(data.get("was", data.get("counters"))),
            new=_int(data.get("replaced_by")),
        )
    if reason == "no_card":
        return _("%(who)s no longer has %(family)s to bring", who=who(seller), family=family(data.get("family")))
    if reason == "seller_boss":
        return _("%(who)s is the Boss now", who=who(seller))
    if reason == "old_boss":
        return _("it was made with %(who)s, who is no longer the Boss", who=who(_int(data.get("previous_boss"), boss)))
    return _("it no longer holds")


def void_line(data: Mapping[str, Any], who: Who) -> str:
    offer, why = _int(data.get("offer")), void_reason(data, who)
    seller, boss = who(_int(data.get("seller"))), who(_int(data.get("boss")))
    if data.get("reason") == "replaced":
        return _(
            "Offer #%(offer)d is void: %(why)s. %(seller)s and %(boss)s may counter #%(new)d.",
            offer=offer,
            why=why,
            seller=seller,
            boss=boss,
            new=_int(data.get("replaced_by")),
        )
    if data.get("reason") == "no_card":
        if data.get("was_binding"):
            return _(
                "Agreement #%(offer)d is void: %(why)s. %(seller)s and %(boss)s may agree anew.",
                offer=offer,
                why=why,
                seller=seller,
                boss=boss,
            )
        return _(
            "Offer #%(offer)d is void: %(why)s. %(seller)s and %(boss)s may agree anew.",
            offer=offer,
            why=why,
            seller=seller,
            boss=boss,
        )
    if data.get("was_binding"):
        return _("Agreement #%(offer)d is void: %(why)s.", offer=offer, why=why)
    return _("Offer #%(offer)d is void: %(why)s.", offer=offer, why=why)


def offer_line(data: Mapping[str, Any], who: Who) -> str:
    """A new offer: who offers whom what, and whose 🤝 makes it binding."""
    proposer, boss, seller = _int(data.get("proposer")), _int(data.get("boss")), _int(data.get("seller"))
    other = boss if proposer != boss else seller
    values = {"who": who(proposer), "other": who(other), "terms": terms(data, who)}
    if data.get("counters") is not None:
        return _(
            "%(who)s offers %(other)s %(terms)s — a counter-offer: if agreed, it replaces agreement #%(old)d. "
            "It binds when %(other)s shakes 🤝.",
            old=_int(data.get("counters")),
            **values,
        )
    return _("%(who)s offers %(other)s %(terms)s. It binds when %(other)s shakes 🤝.", **values)


# --- one sentence per event --------------------------------------------------------------------------------------


def uses_text(uses: Any, boss: int, who: Who) -> str:
    """ "Heiermann (own investor), Liebgeld (Anna's clan card)"."""
    parts = []
    for u in uses if isinstance(uses, list) else []:
        if not isinstance(u, dict):
            continue
        fam, s, kind = family(u.get("family")), _int(u.get("seat")), u.get("card")
        if s == boss:
            part = (
                _("%(family)s (own clan card)", family=fam)
                if kind == "clan"
                else _("%(family)s (own investor)", family=fam)
            )
        elif kind == "clan":
            part = _("%(family)s (%(who)s's clan card)", family=fam, who=who(s))
        else:
            part = _("%(family)s (%(who)s's investor)", family=fam, who=who(s))
        parts.append(part)
    return ", ".join(parts)


def sentence(event: Event, who: Who) -> str | None:
    """The event in one sentence (None: an event that says nothing by itself, e.g. `discarded_played`)."""
    d = event.data
    k = event.kind
    if k == "setup":
        investors = d.get("investors") or {}
        parts = [
            _("%(family)s: %(who)s", family=family(f), who=who(o))
            if isinstance(o, int)
            else _("%(family)s: beside the board", family=family(f))
            for f, o in investors.items()  # type: ignore[union-attr]
        ]
        return _("Investors — %(owners)s.", owners=", ".join(parts))
    if k == "starting_player":
        return _(
            "%(starter)s holds the first investor alphabetically and starts; %(placer)s places the dollar marker.",
            starter=who(_int(d.get("starter"))),
            placer=who(_int(d.get("placer"))),
        )
    if k == "marker_placed":
        if d.get("by") is None:
            return _(
                "Time's up: the dollar marker goes on space %(space)d, chosen at random.", space=_int(d.get("space"))
            )
        return _(
            "%(who)s places the dollar marker on space %(space)d.",
            who=who(_int(d.get("by"))),
            space=_int(d.get("space")),
        )
    if k == "turn":
        return _("It's %(who)s's turn.", who=who(_int(d.get("seat"))))
    if k == "rolled":
        return _(
            "%(who)s rolls %(face)d: the marker moves to space %(space)d. Open the deal there, or draw 3.",
            who=who(_int(d.get("seat"))),
            face=_int(d.get("face")),
            space=_int(d.get("space")),
        )
    if k == "round_opened":
        return _(
            "Let's make a deal! %(who)s opens space %(space)d: %(dividends)d dividends × %(value)s = %(payout)s.",
            who=who(_int(d.get("boss"))),
            space=_int(d.get("space")),
            dividends=_int(d.get("dividends")),
            value=money(_int(d.get("dividend_value"))),
            payout=money(_int(d.get("payout"))),
        )
    if k == "draw":
        return n_(
            "%(who)s draws %(n)d card.",
            "%(who)s draws %(n)d cards.",
            _int(d.get("count")),
            who=who(_int(d.get("seat"))),
        )
    if k == "drew":
        return _("You drew %(cards)s.", cards=cards(d.get("cards") or []))  # type: ignore[arg-type]
    if k == "piles_empty":
        return _("The draw and discard piles are both empty: no more cards to draw.")
    if k == "reshuffle":
        return _("The discard pile is shuffled into a new draw pile of %(n)d.", n=_int(d.get("count")))
    if k == "over_limit":
        return _(
            "%(who)s must get down to %(limit)d cards before play goes on.",
            who=who(_int(d.get("seat"))),
            limit=_int(d.get("limit"), 12),
        )
    if k == "must_discard":
        return n_(
            "You hold %(held)d cards: discard %(n)d or play a recruitment triple.",
            "You hold %(held)d cards: discard %(n)d or play a recruitment triple.",
            _int(d.get("excess")),
            held=_int(d.get("held")),
        )
    if k == "discarded":
        n = _int(d.get("count"))
        if d.get("random"):
            return n_(
                "Time's up: %(n)d random card of %(who)s discarded.",
                "Time's up: %(n)d random cards of %(who)s discarded.",
                n,
                who=who(_int(d.get("seat"))),
            )
        return n_("%(who)s discards %(n)d card.", "%(who)s discards %(n)d cards.", n, who=who(_int(d.get("seat"))))
    if k == "you_discarded":
        return _("You discarded %(cards)s.", cards=cards(d.get("cards") or []))  # type: ignore[arg-type]
    if k == "timeout":
        what = d.get("what")
        if what == "turn":
            return _("Time's up for %(who)s: the bot rolls and draws 3 cards for them.", who=who(_int(d.get("seat"))))
        if what == "rolled":
            return _("Time's up for %(who)s: the bot draws 3 cards for them.", who=who(_int(d.get("seat"))))
        if what == "window":
            return _("Time's up: nobody STOPped %(effect)s.", effect=effect_of(d, who))
        return _("Time's up: the last call goes through.")
    if k == "passed":
        if d.get("on") == "card":
            return _("%(who)s: no STOP.", who=who(_int(d.get("seat"))))
        return _("%(who)s lets the last call go.", who=who(_int(d.get("seat"))))
    if k == "always_pass":
        return _("%(who)s passes on everything for the rest of this round.", who=who(_int(d.get("seat"))))
    if k == "always_pass_off":
        return _("%(who)s no longer passes automatically.", who=who(_int(d.get("seat"))))
    if k == "offer":
        return offer_line(d, who)
    if k == "offer_replaced":
        return _("Offer #%(old)d is replaced by #%(new)d.", old=_int(d.get("offer")), new=_int(d.get("replaced_by")))
    if k == "agreement":
        text = _("🤝 Shake! %(terms)s is now binding.", terms=terms(d, who))
        superseded = [f"#{o}" for o in d.get("superseded") or []]  # type: ignore[union-attr]
        if superseded:
            text += " " + n_(
                "It replaces agreement %(ids)s.",
                "It replaces agreements %(ids)s.",
                len(superseded),
                ids=", ".join(superseded),
            )
        return text
    if k == "shaken":
        return _("%(who)s shakes on %(terms)s.", who=who(_int(d.get("by"))), terms=terms(d, who))
    if k == "unshaken":
        return _(
            "%(who)s takes back their 🤝 on offer #%(offer)d.", who=who(_int(d.get("by"))), offer=_int(d.get("offer"))
        )
    if k == "withdrawn":
        return _("%(who)s withdraws offer #%(offer)d.", who=who(_int(d.get("by"))), offer=_int(d.get("offer")))
    if k == "offer_void":
        return void_line(d, who)
    if k == "offer_reopened":
        return _(
            "Agreement #%(offer)d reopens as an offer to the new Boss %(boss)s: %(terms)s. "
            "Both shake 🤝 again to agree.",
            offer=_int(d.get("offer")),
            boss=who(_int(d.get("boss"))),
            terms=terms(d, who),
        )
    if k == "last_call_cancelled":
        if d.get("reason") == "boss":
            return _("%(who)s calls off the last call.", who=who(_int(d.get("by"))))
        if d.get("reason") == "card":
            return _(
                "%(who)s plays a card: the last call is off (the Boss may call again).", who=who(_int(d.get("by")))
            )
        return _("The terms changed, so the last call is off; the Boss may call again.")
    if k == "clan_played":
        return _("%(who)s plays a %(family)s clan card.", who=who(_int(d.get("seat"))), family=family(d.get("family")))
    if k == "pending":
        return pending_line(d, who)
    if k == "stopped":
        e = effect(str(d.get("effect")), _int(d.get("owner")), d.get("family"), d.get("target"), d.get("on"), who)
        return _("✋ %(who)s plays STOP: %(effect)s is cancelled.", who=who(_int(d.get("by"))), effect=e)
    if k == "boss_stays":
        return _("Nobody STOPped it: %(who)s stays the Boss.", who=who(_int(d.get("boss"))))
    if k == "boss_changed":
        return _(
            "%(who)s is the Boss now (and has the turn); %(old)s negotiates like anyone else.",
            who=who(_int(d.get("boss"))),
            old=who(_int(d.get("previous"))),
        )
    if k == "on_travel":
        return _("The %(family)s investor goes on travel for this round.", family=family(d.get("family")))
    if k == "clan_travelled":
        return _(
            "%(who)s's %(family)s clan card goes on travel: both cards are discarded.",
            who=who(_int(d.get("seat"))),
            family=family(d.get("family")),
        )
    if k == "recruited":
        if d.get("previous") is None:
            return _(
                "%(who)s recruits the %(family)s investor from beside the board.",
                who=who(_int(d.get("by"))),
                family=family(d.get("family")),
            )
        return _(
            "%(who)s recruits the %(family)s investor from %(from)s.",
            who=who(_int(d.get("by"))),
            family=family(d.get("family")),
            **{"from": who(_int(d.get("previous")))},
        )
    if k == "last_call":
        boss = _int(d.get("boss"))
        return _(
            "Last call! %(who)s closes the deal with %(uses)s: payout %(payout)s, keeps %(keeps)s. Play a card to stop "
            "it, or let it go.",
            who=who(boss),
            uses=uses_text(d.get("uses"), boss, who),
            payout=money(_int(d.get("payout"))),
            keeps=money(_int(d.get("keeps"))),
        )
    if k == "deal_closed":
        boss = _int(d.get("boss"))
        return _(
            "The deal is closed! %(who)s concludes space %(space)d with %(uses)s.",
            who=who(boss),
            space=_int(d.get("space")),
            uses=uses_text(d.get("uses"), boss, who),
        )
    if k == "clans_returned":
        returned = d.get("returned") or {}
        parts = [
            _(
                "%(who)s takes back %(families)s",
                who=who(int(s)),
                families=and_list([family(str(c)[5:]) for c in codes]),  # type: ignore[union-attr]
            )
            for s, codes in returned.items()  # type: ignore[union-attr]
        ]
        return "; ".join(parts) + "."
    if k == "payout":
        return _(
            "The bank pays %(who)s %(amount)s.", who=who(_int(d.get("to_seat"))), amount=money(_int(d.get("amount")))
        )
    if k == "paid":
        return _(
            "%(boss)s pays %(who)s %(amount)s (#%(offer)d).",
            boss=who(_int(d.get("from_seat"))),
            who=who(_int(d.get("to_seat"))),
            amount=money(_int(d.get("amount"))),
            offer=_int(d.get("offer")),
        )
    if k == "boss_keeps":
        return _("%(who)s keeps %(amount)s.", who=who(_int(d.get("seat"))), amount=money(_int(d.get("amount"))))
    if k == "tile_placed":
        if d.get("moved"):
            return _(
                "Deal tile %(tile)d goes on space %(space)d; the marker moves to space %(marker)d.",
                tile=_int(d.get("tile")),
                space=_int(d.get("space")),
                marker=_int(d.get("marker")),
            )
        return _("Deal tile %(tile)d goes on space %(space)d.", tile=_int(d.get("tile")), space=_int(d.get("space")))
    if k == "end_roll":
        faces = ", ".join(str(f) for f in d.get("faces") or [])  # type: ignore[union-attr]
        values = {"who": who(_int(d.get("seat"))), "face": _int(d.get("face")), "faces": faces}
        if d.get("ends"):
            return _("%(who)s rolls %(face)d (ends on %(faces)s): the game is over!", **values)
        return _("%(who)s rolls %(face)d (ends on %(faces)s): play goes on.", **values)
    if k == "game_over":
        return end_reason(str(d.get("reason")), _int(d.get("deal")), d.get("face"))
    if k == "deal_failed":
        if d.get("by_timer"):
            return _("Time's up: the Boss %(who)s stayed silent, so the deal fails.", who=who(_int(d.get("boss"))))
        return _("%(who)s declares the negotiations failed.", who=who(_int(d.get("boss"))))
    if k == "pending_discarded":
        return _("%(effect)s is discarded: the round ended before it took effect.", effect=effect_of(d, who))
    return None


def end_reason(reason: str, deal: int, face: Any) -> str:
    """Why the game ended (the state's `end_reason` code, the number of the last deal, the die's face)."""
    if reason == "end_roll" and isinstance(face, int):
        return _("The die showed %(face)d after deal %(deal)d: the game is over.", face=face, deal=deal)
    return _("Deal %(deal)d ends the game.", deal=deal)
