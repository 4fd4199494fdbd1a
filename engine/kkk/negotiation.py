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

from engine.errors import RuleError
from engine.events import Event, public
from engine.kkk import actions as A
from engine.kkk.cards import family_name
from engine.kkk.state import KkkState, Offer
from engine.kkk.table import NO_SUCH_PLAYER, dividend_value, money, payout, round_space
from engine.text import seat


def check_round(state: KkkState) -> None:
    if state.round is None:
        who = "" if state.phase == "place_marker" else f" ({seat(state.turn)} is to move)"
        raise RuleError(
            f"No negotiation round is open: offers and shakes wait until the player to move opens a deal{who}."
        )


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
    raise RuleError(f"There is no offer #{offer_id} in this round.")


def terms(offer: Offer, tile_value: int) -> str:
    """ "#3: Knetowitz from {seat:1} for $8M" """
    price = (
        f"{offer.price} dividend{'s' if offer.price != 1 else ''} ({money(value(offer, tile_value))})"
        if offer.unit == "dividends"
        else money(offer.price)
    )
    if offer.family is None:
        return f"#{offer.id}: {price} to {seat(offer.seller)} (no card)"
    return f"#{offer.id}: {family_name(offer.family)} from {seat(offer.seller)} for {price}"


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


def offer_event(kind: str, text: str, offer: Offer, tile_value: int, **extra: JsonValue) -> Event:
    return public(kind, text, **offer_data(offer, tile_value), **extra)


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
            raise RuleError(
                f"{_name(countered)} is about {_about(countered)}: a counter-offer to it is about the same, "
                "so leave the family out (or make a new offer without countering)."
            )
        if actor == boss and to is None:
            to = countered.seller
    if actor == boss:
        if to is None:
            raise RuleError("As the Boss, say who the offer is for.")
        if to == boss:
            raise RuleError("You can't make an offer to yourself.")
        if not 0 <= to < state.seats:
            raise RuleError(NO_SUCH_PLAYER)
        seller = to
    else:
        if to is not None and to != boss:
            raise RuleError(f"Only the Boss pays out of this deal: make your offer to {seat(boss)}.")
        seller = actor
    if countered is not None and countered.seller != seller:
        raise RuleError(
            f"{_name(countered)} is between {seat(countered.seller)} and the Boss: only they can counter it, "
            "with an offer between the same two."
        )
    space = round_space(state)
    if family is not None:
        if family not in space.families:
            raise RuleError(f"This deal has no use for {family_name(family)} (it needs {space.describe()}).")
        if not serves(state, seller, family):
            if seller == actor:
                raise RuleError(
                    f"You have no {family_name(family)} on the table to offer: an investor of yours not on "
                    "travel, or a clan card you have played."
                )
            raise RuleError(f"{seat(seller)} has no {family_name(family)} on the table to offer.")
    tv = dividend_value(state)
    total = payout(state)
    price = action.price * tv if action.unit == "dividends" else action.price
    if price > total:
        raise RuleError(f"That's more than the whole deal pays ({money(total)}).")

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
        events.append(
            offer_event("offer_replaced", f"Offer #{old.id} is replaced by #{offer.id}.", old, tv, replaced_by=offer.id)
        )
    if offer.counters is not None and find(state, offer.counters).status != "binding":
        offer.counters = None
    state.next_offer += 1
    state.offers.append(offer)
    other = boss if actor != boss else seller
    text = f"{seat(actor)} offers {seat(other)} {terms(offer, tv)}"
    if offer.counters is not None:
        text += f" — a counter-offer: if agreed, it replaces agreement #{offer.counters}"
    text += f". It binds when {seat(other)} shakes 🤝."
    events.insert(0, offer_event("offer", text, offer, tv))
    return events


def _countered(state: KkkState, actor: int, action: A.Offer) -> Offer | None:
    """The live offer or agreement the action names as countered, if it names one."""
    if action.counter is None:
        return None
    old = find(state, action.counter)
    if not old.live:
        raise RuleError(f"Offer #{old.id} is {old.status}: there is nothing to counter. Make a new offer instead.")
    if actor not in (old.seller, old.boss):
        raise RuleError(f"Only {seat(old.seller)} and the Boss {seat(old.boss)} can counter #{old.id}.")
    return old


def _name(offer: Offer) -> str:
    return f"{'Agreement' if offer.status == 'binding' else 'Offer'} #{offer.id}"


def _about(offer: Offer) -> str:
    return f"{family_name(offer.family)}" if offer.family is not None else "a share without a card"


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
        raise RuleError(f"Only {seat(offer.seller)} and the Boss {seat(offer.boss)} can shake on offer #{offer.id}.")


def _other(offer: Offer, s: int) -> int:
    return offer.boss if s == offer.seller else offer.seller


def shake(state: KkkState, actor: int, action: A.Shake) -> list[Event]:
    check_round(state)
    offer = find(state, action.offer)
    _check_party(offer, actor)
    if offer.status == "binding":
        raise RuleError(f"Offer #{offer.id} is already binding.")
    if not offer.unbound:
        raise RuleError(f"Offer #{offer.id} is {offer.status}: make a new offer.")
    if actor in offer.shaken:
        other = seat(_other(offer, actor))
        if offer.by_offer and actor == offer.proposer:
            raise RuleError(f"Making offer #{offer.id} was your 🤝 already: it binds when {other} shakes.")
        raise RuleError(f"You've already shaken on #{offer.id}: waiting for {other}.")
    tv = dividend_value(state)
    binds = len(offer.shaken) == 1
    events: list[Event] = []
    if binds:
        superseded = replaced_on_binding(state, offer)
        already = promised(state, tv, excluding=tuple(o.id for o in superseded))
        total = payout(state)
        if already + value(offer, tv) > total:
            # A counter-offer is about what it counters: the same card, or a share without a card.
            about = "for a smaller share"
            if offer.family is not None:
                about = f"for the same {family_name(offer.family)} card"
            raise RuleError(
                f"Shaking on #{offer.id} would promise {money(already + value(offer, tv))}, but the deal pays only "
                f"{money(total)} ({money(already)} already promised): make a lower counter-offer to #{offer.id} "
                f"{about} (it replaces this one), or withdraw this one."
            )
        offer.shaken.append(actor)
        offer.status = "binding"
        text = f"🤝 Shake! {terms(offer, tv)} is now binding."
        if superseded:
            text += f" It replaces agreement {', '.join(f'#{o.id}' for o in superseded)}."
        for old in superseded:
            old.status = "replaced"
            events.append(
                offer_event(
                    "offer_replaced", f"Agreement #{old.id} is replaced by #{offer.id}.", old, tv, replaced_by=offer.id
                )
            )
            events += _void_rival_counters(state, old, offer, tv)
        events.insert(0, offer_event("agreement", text, offer, tv))
        events += cancel_last_call_for_terms(state)
    else:
        offer.shaken.append(actor)
        offer.status = "shaken"
        events.append(offer_event("shaken", f"{seat(actor)} shakes on {terms(offer, tv)}.", offer, tv))
    return events


def _void_rival_counters(state: KkkState, old: Offer, new: Offer, tile_value: int) -> list[Event]:
    """Other offers that countered `old` offered terms *instead of* it; now that `new` took its place, they would
    silently add up instead: void them (their parties may counter `new`)."""
    events: list[Event] = []
    for o in state.offers:
        if o.unbound and o.counters == old.id and o.id != new.id:
            o.status = "void"
            o.reason = f"agreement #{old.id}, which it would replace, was replaced by #{new.id}"
            o.shaken = []
            events.append(
                offer_event(
                    "offer_void",
                    f"Offer #{o.id} is void: {o.reason}. {seat(o.seller)} and {seat(o.boss)} may counter #{new.id}.",
                    o,
                    tile_value,
                )
            )
    return events


def cancel_last_call_for_terms(state: KkkState) -> list[Event]:
    r = state.round
    if r is None or r.last_call is None:
        return []
    r.last_call = None
    state.passes = []
    text = "The terms changed, so the last call is off; the Boss may call again."
    return [public("last_call_cancelled", text, window=state.window)]


def unshake(state: KkkState, actor: int, action: A.Unshake) -> list[Event]:
    check_round(state)
    offer = find(state, action.offer)
    _check_party(offer, actor)
    if offer.status == "binding":
        raise RuleError(f"Offer #{offer.id} is already binding: removing your 🤝 changes nothing.")
    if not offer.unbound:
        raise RuleError(f"Offer #{offer.id} is {offer.status}.")
    if actor not in offer.shaken:
        raise RuleError(f"You haven't shaken on #{offer.id}.")
    if offer.by_offer and actor == offer.proposer:
        raise RuleError(f"Offer #{offer.id} is your own: making it was your 🤝. To take it back, withdraw it.")
    offer.shaken.remove(actor)
    offer.status = "shaken" if offer.shaken else "open"
    tv = dividend_value(state)
    return [offer_event("unshaken", f"{seat(actor)} takes back their 🤝 on offer #{offer.id}.", offer, tv)]


def withdraw(state: KkkState, actor: int, action: A.Withdraw) -> list[Event]:
    check_round(state)
    offer = find(state, action.offer)
    if actor not in (offer.seller, offer.boss):
        raise RuleError(f"Only {seat(offer.seller)} and the Boss {seat(offer.boss)} can withdraw offer #{offer.id}.")
    if offer.status == "binding":
        raise RuleError(f"Offer #{offer.id} is binding: it stands until the round ends or the Boss changes.")
    if not offer.unbound:
        raise RuleError(f"Offer #{offer.id} is already {offer.status}.")
    offer.status = "withdrawn"
    tv = dividend_value(state)
    return [offer_event("withdrawn", f"{seat(actor)} withdraws offer #{offer.id}.", offer, tv)]


# --- consequences of other plays -----------------------------------------------------------------------


def void_unserviceable(state: KkkState) -> list[Event]:
    """Void every live offer whose card can no longer serve (after a travel or a recruitment)."""
    events: list[Event] = []
    tv = dividend_value(state)
    for o in state.offers:
        if o.live and o.family is not None and not serves(state, o.seller, o.family):
            was = "Agreement" if o.status == "binding" else "Offer"
            o.status = "void"
            o.reason = f"{seat(o.seller)} no longer has {family_name(o.family)} to bring"
            o.shaken = []
            events.append(
                offer_event(
                    "offer_void",
                    f"{was} #{o.id} is void: {o.reason}. {seat(o.seller)} and {seat(o.boss)} may agree anew.",
                    o,
                    tv,
                )
            )
    return events


def reopen_for_boss(state: KkkState, old: int, new: int) -> list[Event]:
    """The Boss changed: agreements with the old Boss reopen to the new one; other offers with them are void."""
    events: list[Event] = []
    tv = dividend_value(state)
    for o in state.offers:
        if not o.live or o.boss != old:
            continue
        if o.seller == new:
            was = "Agreement" if o.status == "binding" else "Offer"
            o.status = "void"
            o.reason = f"{seat(new)} is the Boss now"
            o.shaken = []
            events.append(offer_event("offer_void", f"{was} #{o.id} is void: {o.reason}.", o, tv))
        elif o.status == "binding":
            o.status = "open"
            o.boss = new
            o.shaken = []
            o.by_offer = False  # nobody made this offer to the new Boss: both shake again
            o.counters = None
            o.reopened += 1
            events.append(
                offer_event(
                    "offer_reopened",
                    f"Agreement #{o.id} reopens as an offer to the new Boss {seat(new)}: {terms(o, tv)}. "
                    "Both shake 🤝 again to agree.",
                    o,
                    tv,
                    previous_boss=old,
                )
            )
        else:
            o.status = "void"
            o.reason = f"it was made with {seat(old)}, who is no longer the Boss"
            o.shaken = []
            events.append(offer_event("offer_void", f"Offer #{o.id} is void: {o.reason}.", o, tv))
    return events
