"""What a seat may do now: a bounded list of actions for autocomplete, random play and fuzzing.

Free amounts are sampled (an offer is listed at one or two prices, a discard at a few card sets), so the list stays
short. Every action listed is accepted by `apply`; actions not listed may still be legal (other prices, other
discard sets, explicit assignments).
"""

from typing import Any

from engine.kkk import actions as A
from engine.kkk.assignment import auto_assign, sources
from engine.kkk.cards import BOSS, FAMILIES, HAND_LIMIT, JOKER, RECRUIT, RECRUIT_TRIPLE, STOP
from engine.kkk.data import SPACES
from engine.kkk.negotiation import promised, replaced_on_binding, serves, value
from engine.kkk.state import KkkState, Offer
from engine.kkk.table import dividend_value, over_limit, payout, round_space
from engine.kkk.windows import awaited, window_owner


def legal_actions(state: KkkState, s: int | None) -> list[Any]:
    if state.phase == "over":
        return []
    if s is None:
        return [A.Timeout(key=state.deadline.key)] if state.deadline is not None else []
    hand = state.hands[s]
    acts: list[Any] = []
    r = state.round
    if state.pending:
        top = state.pending[-1]
        if s in awaited(state):
            acts.append(A.Pass())
        if top.by != s and STOP in hand:
            acts.append(A.Stop())
        if top.kind == "boss" and top.by != s and BOSS in hand:
            acts.append(A.Boss())
        if r is not None:
            acts += _talk(state, s)
            if s == r.boss and top.kind == "travel":  # a recruitment or Boss card must take effect first
                acts.append(A.Fail())
        return acts
    over = over_limit(state)
    if over is not None:
        return _get_down(state, s) if s == over else []
    if state.phase == "place_marker":
        return [A.PlaceMarker(space=n) for n in range(1, SPACES + 1)] if s == state.placer else []
    if state.phase == "turn":
        return [A.Open(), A.Roll()] if s == state.turn else []
    if state.phase == "rolled":
        return [A.Open(), A.Draw()] if s == state.turn else []
    assert r is not None
    if window_owner(state) is not None and s in awaited(state):
        acts.append(A.Pass())
    for f in sorted({c[5:] for c in hand if c.startswith("clan:")}):
        acts.append(A.PlayClan(family=f))  # type: ignore[arg-type]
    acts += _travels(state, s)
    if hand.count(RECRUIT) >= RECRUIT_TRIPLE:
        acts += _recruits(state, s)
    if BOSS in hand and s != r.boss:
        acts.append(A.Boss())
    if s == r.boss:
        if r.last_call is None:
            if auto_assign(state) is not None:
                acts.append(A.Close())
        else:
            acts.append(A.CancelClose())
        acts.append(A.Fail())
    acts += _talk(state, s)
    return acts


def _get_down(state: KkkState, s: int) -> list[Any]:
    hand = state.hands[s]
    n = len(hand) - HAND_LIMIT
    sets = {tuple(hand[:n]), tuple(hand[-n:]), tuple(hand[len(hand) // 2 - n // 2 :][:n])}
    acts: list[Any] = [A.Discard(cards=c) for c in sorted(sets)]
    if hand.count(RECRUIT) >= RECRUIT_TRIPLE:
        acts += _recruits(state, s)
    return acts


def _recruits(state: KkkState, s: int) -> list[Any]:
    beside = [f for f, o in state.investors.items() if o is None]
    targets = beside or [f for f, o in state.investors.items() if o != s]
    return [A.Recruit(family=f) for f in targets]  # type: ignore[arg-type]


def _travels(state: KkkState, s: int) -> list[Any]:
    r = state.round
    assert r is not None
    hand = state.hands[s]
    joker = JOKER in hand
    acts: list[Any] = []
    for f in FAMILIES:
        own = f"travel:{f}" in hand
        if not own and not joker:
            continue
        targets: list[tuple[int | None, str]] = []
        owner = state.investors[f]
        if f not in r.travel:
            targets.append((owner, "investor"))
        targets += [(t, "clan") for t in range(state.seats) if f in r.clans[t]]
        for target, on in targets:
            acts.append(A.Travel(target=target, family=f, joker=not own, on=on))  # type: ignore[arg-type]
    return acts


def _counter(state: KkkState, s: int, agreement: Offer, total: int, tv: int) -> list[Any]:
    """One counter-offer to a binding agreement of `s`'s (the seller asks a little more, the Boss offers a little
    less), unless one is already on the table."""
    if any(o.unbound and o.counters == agreement.id for o in state.offers):
        return []
    price = agreement.price + 1 if s == agreement.seller else agreement.price - 1
    if price < 0 or (price * tv if agreement.unit == "dividends" else price) > total:
        return []
    return [A.Offer(price=price, unit=agreement.unit, counter=agreement.id)]  # its card and seller: the agreement's


def _talk(state: KkkState, s: int) -> list[Any]:
    """Offers (sampled prices), shakes, unshakes and withdrawals; always-pass."""
    r = state.round
    assert r is not None
    acts: list[Any] = []
    space = round_space(state)
    tv = dividend_value(state)
    total = payout(state)
    owed = promised(state, tv)
    for o in state.offers:
        if s not in (o.seller, o.boss):
            continue
        if o.status == "binding":
            acts += _counter(state, s, o, total, tv)
            continue
        if not o.unbound:
            continue
        if s in o.shaken:
            if not (o.by_offer and s == o.proposer):  # the proposer takes their offer back by withdrawing it
                acts.append(A.Unshake(offer=o.id))
        else:
            replaced = sum(value(x, tv) for x in replaced_on_binding(state, o))
            if not o.shaken or owed - replaced + value(o, tv) <= total:
                acts.append(A.Shake(offer=o.id))
        acts.append(A.Withdraw(offer=o.id))
    live = {(o.seller, o.family) for o in state.offers if o.live and o.family is not None}
    live |= {(o.seller, None) for o in state.offers if o.unbound and o.family is None}  # shares add up
    if s == r.boss:
        for f in space.families:
            if sources(state, f):
                continue
            for t in range(state.seats):
                if t != s and serves(state, t, f) and (t, f) not in live:
                    acts.append(A.Offer(price=tv, unit="money", family=f, to=t))  # type: ignore[arg-type]
    else:
        for f in space.families:
            if serves(state, s, f) and (s, f) not in live:
                acts.append(A.Offer(price=1, unit="dividends", family=f))  # type: ignore[arg-type]
                acts.append(A.Offer(price=max(1, total // 4), unit="money", family=f))  # type: ignore[arg-type]
        if (s, None) not in live:
            acts.append(A.Offer(price=1, unit="money"))
    acts.append(A.AlwaysPass(on=s not in r.always_pass))
    return acts
