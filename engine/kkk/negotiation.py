"""Offers and agreements of the negotiation round: propose, counter, shake ("Shake!"), unshake, withdraw.

An offer is between the Boss and one other player (the seller, whom the Boss would pay out of this deal's
dividends), about a card of one family (the seller's investor or played clan card) or about no card at all (house
rule 1). Making an offer is its proposer's consent (their shake): it binds when the other party shakes 🤝, and until
then the proposer may withdraw it. A binding agreement cannot be withdrawn. The sum of binding agreements may never
exceed the deal's payout.

Agreements add up (house rule 2: "All bargains with the Boss are binding until either the end of the negotiations
round or until the Boss changes"): each binding agreement stands on its own, and a later one never cancels an
earlier one silently. Only a counter-offer replaces an agreement, and only when it binds itself:
- an offer made as a counter-offer to a named agreement (`Offer.counter`), between the same two players about the
  same card (or the same kind of share: no card);
- an offer for a card already under an agreement (one card, one agreement), whether it names it or not.
The offer's own message says which agreement it would replace. A counter-offer to an offer not yet binding (named,
or for the same card) replaces that offer at once, as before.

Decisions where the rules are silent:
- Either party may withdraw an offer that is not binding (for the one it was made to, that is turning it down).
  The proposer's consent is the offer itself, so they take it back by withdrawing; `Unshake` is for a 🤝 given by
  hand (the other party's, or both parties' on an agreement reopened to a new Boss).
- A counter-offer is about the same thing as what it counters: a card agreement is countered for the same card, a
  share for a share (to change what the deal is about, withdraw or let the round end). Countering an offer that is
  itself a counter-offer to an agreement counters that agreement too.
- An offer is about a family, not about one physical card: if the seller has both the investor and a played clan
  card of that family, either may serve, and the agreement is void only when neither can.
- When the Boss changes, binding agreements with the old Boss reopen as open offers to the new Boss (same id, same
  terms, `reopened` counted, shakes cleared: both shake again, since nobody made that offer to the new Boss); an
  agreement whose seller becomes the Boss is void, and offers not yet binding with the old Boss are void (their
  terms were never agreed; offer anew).
- Offers and shakes are allowed while an effect is pending ("offers and talk go on"). A new agreement during a last
  call changes the distribution that was announced, so it cancels the last call.
"""

from pydantic import JsonValue

from engine.errors import rule
from engine.events import Event, public
from engine.kkk import actions as A
from engine.kkk.state import KkkState, Offer
from engine.kkk.table import NO_SUCH_PLAYER, dividend_value, payout, round_space

VOID_REPLACED = "replaced"
"""`Offer.reason` of a counter-offer void because the agreement it would replace (`counters`) was replaced."""
VOID_NO_CARD = "no_card"
"""`Offer.reason`: the seller no longer has a card of the family to bring (a travel or a recruitment)."""
VOID_SELLER_BOSS = "seller_boss"
"""`Offer.reason`: the seller became the Boss."""
VOID_OLD_BOSS = "old_boss"
"""`Offer.reason`: made with a Boss who is no longer the Boss (`boss` is that old Boss)."""


def check_round(state: KkkState) -> None:
    if state.round is None:
        raise rule("no_round", turn=None if state.phase == "place_marker" else state.turn)


def serves(state: KkkState, s: int, family: str) -> bool:
    """Seat `s` has a card of `family` that can serve this round: an investor not on travel or a played clan card."""
    r = state.round
    assert r is not None
    if state.investors[family] == s and family not in r.travel:
        return True
    return family in r.clans[s]


def value(offer: Offer, tile_value: int) -> int:
    return offer.price * tile_value if offer.unit == "dividends" else offer.price


def promised(state: KkkState, tile_value: int, excluding: tuple[int, ...] = ()) -> int:
    """The sum of binding agreements."""
    return sum(value(o, tile_value) for o in state.offers if o.status == "binding" and o.id not in excluding)


def find(state: KkkState, offer_id: int) -> Offer:
    for o in state.offers:
        if o.id == offer_id:
            return o
    raise rule("no_such_offer", offer=offer_id)


def offer_data(offer: Offer, tile_value: int) -> dict[str, JsonValue]:
    """An offer's terms and state, as the offer events carry them."""
    return {
        "offer": offer.id,
        "seller": offer.seller,
        "boss": offer.boss,
        "family": offer.family,
        "price": offer.price,
        "unit": offer.unit,
        "value": value(offer, tile_value),
        "status": offer.status,
        "shaken": list(offer.shaken),
        "replaces": offer.replaces,
        "counters": offer.counters,
        "proposer": offer.proposer,
        "by_offer": offer.by_offer,
        "reopened": offer.reopened,
    }


def offer_event(kind: str, offer: Offer, tile_value: int, **extra: JsonValue) -> Event:
    return public(kind, **offer_data(offer, tile_value), **extra)


# --- actions ------------------------------------------------------------------------------------------


def make_offer(state: KkkState, actor: int, action: A.Offer) -> list[Event]:
    check_round(state)
    r = state.round
    assert r is not None
    boss = r.boss
    countered = _countered(state, actor, action)
    family = action.family
    to = action.to
    if countered is not None:
        # A counter-offer is about what it counters: its card (or share) and its seller, unless said otherwise.
        if family is None:
            family = countered.family
        elif family != countered.family:
            raise rule("counter_same_thing", **_named(countered))
        if actor == boss and to is None:
            to = countered.seller
    if actor == boss:
        if to is None:
            raise rule("offer_to_whom")
        if to == boss:
            raise rule("offer_to_self")
        if not 0 <= to < state.seats:
            raise rule(NO_SUCH_PLAYER)
        seller = to
    else:
        if to is not None and to != boss:
            raise rule("offer_to_boss", boss=boss)
        seller = actor
    if countered is not None and countered.seller != seller:
        raise rule("counter_same_pair", **_named(countered))
    space = round_space(state)
    if family is not None:
        if family not in space.families:
            raise rule("family_not_needed", family=family, space=space.number)
        if not serves(state, seller, family):
            if seller == actor:
                raise rule("you_lack_family", family=family)
            raise rule("seller_lacks_family", seller=seller, family=family)
    tv = dividend_value(state)
    total = payout(state)
    price = action.price * tv if action.unit == "dividends" else action.price
    if price > total:
        raise rule("over_payout", payout=total)

    # Making the offer is the proposer's own shake: it waits only for the other party's.
    offer = Offer(
        id=state.next_offer,
        seller=seller,
        boss=boss,
        family=family,
        price=action.price,
        unit=action.unit,
        proposer=actor,
        shaken=[actor],
        status="shaken",
        by_offer=True,
    )
    events: list[Event] = []
    for old in state.offers:
        if not old.live or old.seller != seller or old.boss != boss:
            continue
        if old.id != action.counter and (family is None or old.family != family):
            continue  # agreements add up: a share stands beside the others unless it names one to counter
        if old.status == "binding":
            offer.counters = old.id  # replaced only when this one binds
            continue
        old.status = "replaced"
        offer.replaces = old.id
        if old.counters is not None and offer.counters is None:
            offer.counters = old.counters  # countering a counter-offer counters its agreement too
        events.append(offer_event("offer_replaced", old, tv, replaced_by=offer.id))
    if offer.counters is not None and find(state, offer.counters).status != "binding":
        offer.counters = None
    state.next_offer += 1
    state.offers.append(offer)
    events.insert(0, offer_event("offer", offer, tv))
    return events


def _countered(state: KkkState, actor: int, action: A.Offer) -> Offer | None:
    """The live offer or agreement the action names as countered, if it names one."""
    if action.counter is None:
        return None
    old = find(state, action.counter)
    if not old.live:
        raise rule("counter_dead", offer=old.id, status=old.status)
    if actor not in (old.seller, old.boss):
        raise rule("counter_not_party", offer=old.id, seller=old.seller, boss=old.boss)
    return old


def _named(offer: Offer) -> dict[str, JsonValue]:
    """An offer as a refusal names it: its number, whether it binds, its card's family (None: a share), its seller."""
    return {"offer": offer.id, "binding": offer.status == "binding", "family": offer.family, "seller": offer.seller}


def replaced_on_binding(state: KkkState, offer: Offer) -> list[Offer]:
    """The agreements `offer` replaces when it binds: the one it counters, and any for the same card (one card, one
    agreement; this also covers offers stored before counter-offers were named)."""
    return [
        o
        for o in state.offers
        if o.status == "binding"
        and o.id != offer.id
        and o.seller == offer.seller
        and o.boss == offer.boss
        and (o.id == offer.counters or (offer.family is not None and o.family == offer.family))
    ]


def _check_party(offer: Offer, actor: int) -> None:
    if actor not in (offer.seller, offer.boss):
        raise rule("shake_not_party", offer=offer.id, seller=offer.seller, boss=offer.boss)


def _other(offer: Offer, s: int) -> int:
    return offer.boss if s == offer.seller else offer.seller


def shake(state: KkkState, actor: int, action: A.Shake) -> list[Event]:
    check_round(state)
    offer = find(state, action.offer)
    _check_party(offer, actor)
    if offer.status == "binding":
        raise rule("shake_binding", offer=offer.id)
    if not offer.unbound:
        raise rule("shake_dead", offer=offer.id, status=offer.status)
    if actor in offer.shaken:
        other = _other(offer, actor)
        if offer.by_offer and actor == offer.proposer:
            raise rule("shake_own_offer", offer=offer.id, other=other)
        raise rule("shaken_already", offer=offer.id, other=other)
    tv = dividend_value(state)
    binds = len(offer.shaken) == 1
    events: list[Event] = []
    if binds:
        superseded = replaced_on_binding(state, offer)
        already = promised(state, tv, excluding=tuple(o.id for o in superseded))
        total = payout(state)
        if already + value(offer, tv) > total:
            # The fix: a lower counter-offer about what it counters (the same card, or a share), or a withdrawal.
            raise rule(
                "shake_over_payout",
                offer=offer.id,
                would=already + value(offer, tv),
                payout=total,
                promised=already,
                family=offer.family,
            )
        offer.shaken.append(actor)
        offer.status = "binding"
        for old in superseded:
            old.status = "replaced"
            events.append(offer_event("offer_replaced", old, tv, replaced_by=offer.id))
            events += _void_rival_counters(state, old, offer, tv)
        events.insert(0, offer_event("agreement", offer, tv, superseded=[o.id for o in superseded]))
        events += cancel_last_call_for_terms(state)
    else:
        offer.shaken.append(actor)
        offer.status = "shaken"
        events.append(offer_event("shaken", offer, tv, by=actor))
    return events


def _void_rival_counters(state: KkkState, old: Offer, new: Offer, tile_value: int) -> list[Event]:
    """Other offers that countered `old` offered terms *instead of* it; now that `new` took its place, they would
    silently add up instead: void them (their parties may counter `new`)."""
    events: list[Event] = []
    for o in state.offers:
        if o.unbound and o.counters == old.id and o.id != new.id:
            o.status = "void"
            o.reason = VOID_REPLACED
            o.shaken = []
            events.append(offer_event("offer_void", o, tile_value, reason=o.reason, was=old.id, replaced_by=new.id))
    return events


def cancel_last_call_for_terms(state: KkkState) -> list[Event]:
    r = state.round
    if r is None or r.last_call is None:
        return []
    r.last_call = None
    state.passes = []
    return [public("last_call_cancelled", window=state.window, reason="terms")]


def unshake(state: KkkState, actor: int, action: A.Unshake) -> list[Event]:
    check_round(state)
    offer = find(state, action.offer)
    _check_party(offer, actor)
    if offer.status == "binding":
        raise rule("unshake_binding", offer=offer.id)
    if not offer.unbound:
        raise rule("unshake_dead", offer=offer.id, status=offer.status)
    if actor not in offer.shaken:
        raise rule("not_shaken", offer=offer.id)
    if offer.by_offer and actor == offer.proposer:
        raise rule("unshake_own_offer", offer=offer.id)
    offer.shaken.remove(actor)
    offer.status = "shaken" if offer.shaken else "open"
    tv = dividend_value(state)
    return [offer_event("unshaken", offer, tv, by=actor)]


def withdraw(state: KkkState, actor: int, action: A.Withdraw) -> list[Event]:
    check_round(state)
    offer = find(state, action.offer)
    if actor not in (offer.seller, offer.boss):
        raise rule("withdraw_not_party", offer=offer.id, seller=offer.seller, boss=offer.boss)
    if offer.status == "binding":
        raise rule("withdraw_binding", offer=offer.id)
    if not offer.unbound:
        raise rule("withdraw_dead", offer=offer.id, status=offer.status)
    offer.status = "withdrawn"
    tv = dividend_value(state)
    return [offer_event("withdrawn", offer, tv, by=actor)]


# --- consequences of other plays -----------------------------------------------------------------------


def void_unserviceable(state: KkkState) -> list[Event]:
    """Void every live offer whose card can no longer serve (after a travel or a recruitment)."""
    events: list[Event] = []
    tv = dividend_value(state)
    for o in state.offers:
        if o.live and o.family is not None and not serves(state, o.seller, o.family):
            was_binding = o.status == "binding"
            o.status = "void"
            o.reason = VOID_NO_CARD
            o.shaken = []
            events.append(offer_event("offer_void", o, tv, reason=o.reason, was_binding=was_binding))
    return events


def reopen_for_boss(state: KkkState, old: int, new: int) -> list[Event]:
    """The Boss changed: agreements with the old Boss reopen to the new one; other offers with them are void."""
    events: list[Event] = []
    tv = dividend_value(state)
    for o in state.offers:
        if not o.live or o.boss != old:
            continue
        if o.seller == new:
            was_binding = o.status == "binding"
            o.status = "void"
            o.reason = VOID_SELLER_BOSS
            o.shaken = []
            events.append(offer_event("offer_void", o, tv, reason=o.reason, was_binding=was_binding))
        elif o.status == "binding":
            o.status = "open"
            o.boss = new
            o.shaken = []
            o.by_offer = False  # nobody made this offer to the new Boss: both shake again
            o.counters = None
            o.reopened += 1
            events.append(offer_event("offer_reopened", o, tv, previous_boss=old))
        else:
            o.status = "void"
            o.reason = VOID_OLD_BOSS
            o.shaken = []
            events.append(offer_event("offer_void", o, tv, reason=o.reason, previous_boss=old))
    return events
