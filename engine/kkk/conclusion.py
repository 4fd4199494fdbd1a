"""Closing the deal (a last call), its conclusion, and failure.

Closing is a last call: the bot publishes the distribution (payout, every agreement, what the Boss keeps) and every
other player may let it go (Pass) or play a card, which cancels the call. When all others have let it go, or the
reaction time runs out, the deal concludes: used clan cards are discarded, unused ones go back to their owners,
every other played card is discarded (travel cards on investors included), the bank pays the Boss, the Boss pays
every binding agreement, the tile is placed, the marker moves to the next free space, the end die is rolled from
the tile that lists faces, and the turn passes left of the Boss.

Decisions where the rules are silent:
- The assignment fixed at the last call is the one concluded: nothing that could change it (a card play, a new
  agreement, a Boss change) can happen without cancelling the call.
- After the last tile (which always ends the game) no die is rolled.

Failure while a card is pending. kkk.md says "The Boss may declare failure at any time while they are Boss". We read
"at any time" as at any moment of the round at a real table, where a recruitment triple or a Boss card takes effect
the moment it is played (the rulebook's "immediately"; the Dutch "steelt onmiddellijk"). The reaction window is only
the asynchronous form of that moment, so it must not open a gap in which the Boss can undo such a card without a STOP:
- While a recruitment triple or a Boss card is pending, the Boss may not declare failure; the refusal names the card
  to wait for (or to STOP, if it is someone else's). A recruitment takes an investor for good and only a STOP may
  cancel it; a Boss card (or a stack of them) would already have decided who is Boss, and only the Boss may fail.
  The Boss-card refusal is older than this ruling; the recruitment one follows the same reading.
- A pending travel does not block failure: its effect would only last until the end of the round anyway, so ending
  the round ends it. The travel card is discarded with the other played cards, and the table is told so
  (`pending_discarded`, which names the window it closes).
- No wait can get stuck on this: while a card is pending the game waits on the reaction window (default at its
  deadline: everyone still awaited passes, and the card takes effect); only with nothing pending does it wait on the
  Boss, whose default at the deadline is the failure (see `waits`).
"""

from pydantic import JsonValue

from engine.errors import rule
from engine.events import Event, public
from engine.kkk import actions as A
from engine.kkk.assignment import auto_assign, missing, validate
from engine.kkk.cards import clan
from engine.kkk.negotiation import check_round, offer_data, promised, value
from engine.kkk.state import KkkState, LastCall, Use
from engine.kkk.table import (
    current_tile,
    dividend_value,
    effect_data,
    give,
    left,
    next_free,
    payout,
    roll_die,
    round_space,
    to_discard,
)
from engine.kkk.turns import start_turn

END_LAST_DEAL = "last_deal"
"""`end_reason`: the deal tile that always ends the game, or the last free space, was used (`deals` says which)."""
END_ROLL = "end_roll"
"""`end_reason`: the die after a deal showed one of its tile's ending faces (`end_roll`, `deals`)."""


def distribution(state: KkkState) -> dict[str, JsonValue]:
    """The last call's split: `payout`, the binding `agreements` (offer, seller, amount) and what the Boss `keeps`."""
    tv = dividend_value(state)
    total = payout(state)
    agreements: list[JsonValue] = [
        {"offer": o.id, "seller": o.seller, "amount": value(o, tv)} for o in state.offers if o.status == "binding"
    ]
    return {"payout": total, "agreements": agreements, "keeps": total - promised(state, tv)}


def close(state: KkkState, actor: int, action: A.Close) -> list[Event]:
    check_round(state)
    r = state.round
    assert r is not None
    if actor != r.boss:
        raise rule("only_boss_close", boss=r.boss)
    if state.pending:
        raise rule("close_pending")
    if r.last_call is not None:
        raise rule("last_call_running")
    if action.assignment is not None:
        uses = validate(state, action.assignment)
    else:
        found = auto_assign(state)
        if found is None:
            raise rule("cannot_close_yet", **missing(state))
        uses = found
    r.last_call = LastCall(uses=uses)
    state.passes = []
    state.window = state.seq
    return [
        public(
            "last_call",
            boss=r.boss,
            uses=[u.model_dump() for u in uses],
            window=state.window,
            **distribution(state),
        )
    ]


def cancel_close(state: KkkState, actor: int) -> list[Event]:
    check_round(state)
    r = state.round
    assert r is not None
    if actor != r.boss:
        raise rule("only_boss_cancel", boss=r.boss)
    if r.last_call is None:
        raise rule("no_last_call")
    r.last_call = None
    state.passes = []
    return [public("last_call_cancelled", window=state.window, reason="boss", by=actor)]


def cancel_last_call(state: KkkState, actor: int) -> list[Event]:
    """A card played during a last call cancels it (call this only once the play has passed all its checks)."""
    r = state.round
    if r is None or r.last_call is None:
        return []
    r.last_call = None
    state.passes = []
    return [public("last_call_cancelled", window=state.window, reason="card", by=actor)]


def _clear_table(state: KkkState, used: list[Use]) -> tuple[list[str], dict[int, list[str]]]:
    """Discard used clan cards, travel cards and pending cards; return unused clan cards to their owners."""
    r = state.round
    assert r is not None
    discarded: list[str] = []
    for u in used:
        if u.card == "clan":
            r.clans[u.seat].remove(u.family)
            discarded.append(clan(u.family))
    discarded += list(r.travel.values())
    for effect in state.pending:
        discarded += effect.cards
    returned: dict[int, list[str]] = {}
    for s, families in enumerate(r.clans):
        if families:
            returned[s] = [clan(f) for f in families]
            give(state, s, returned[s])
    to_discard(state, discarded)
    return discarded, returned


def _end_round(state: KkkState, concluded: bool, tile_value: int) -> list[Event]:
    """Clear the round; tell the bot how every offer still live ended (paid at conclusion, or dropped), with its
    terms (`offers`: each offer's data as in the offer events, plus `ended`: "paid" or "dropped")."""
    paid = [o.id for o in state.offers if o.status == "binding" and concluded]
    dropped = [o.id for o in state.offers if o.live and o.id not in paid]
    ended: list[JsonValue] = [
        {**offer_data(o, tile_value), "ended": "paid" if o.id in paid else "dropped"}
        for o in state.offers
        if o.id in paid or o.id in dropped
    ]
    state.offers = []
    state.round = None
    state.pending = []
    state.passes = []
    state.stopped_last = False
    return [public("offers_ended", "", paid=paid, dropped=dropped, offers=ended)] if ended else []


def conclude(state: KkkState) -> list[Event]:
    r = state.round
    assert r is not None and r.last_call is not None
    uses = r.last_call.uses
    boss = r.boss
    space = round_space(state)
    tile = current_tile(state)
    assert tile is not None
    tv = tile.value
    total = space.dividends * tv
    agreements = [o for o in state.offers if o.status == "binding"]
    events: list[Event] = [
        public(
            "deal_closed",
            boss=boss,
            space=space.number,
            uses=[u.model_dump() for u in uses],
            window=state.window,
        )
    ]
    discarded, returned = _clear_table(state, uses)
    if returned:
        events.append(public("clans_returned", returned={str(s): cards for s, cards in returned.items()}))
    events.append(public("discarded_played", "", cards=discarded))
    state.money[boss] += total
    state.paid_out += total
    events.append(public("payout", to_seat=boss, amount=total))
    for o in agreements:
        amount = value(o, tv)
        state.money[boss] -= amount
        state.money[o.seller] += amount
        events.append(
            public(
                "paid",
                offer=o.id,
                from_seat=boss,
                to_seat=o.seller,
                amount=amount,
            )
        )
    keeps = total - sum(value(o, tv) for o in agreements)
    gains = {boss: keeps}
    for o in agreements:
        gains[o.seller] = gains.get(o.seller, 0) + value(o, tv)
    state.best_gain += [0] * (len(state.money) - len(state.best_gain))
    for s, gain in gains.items():
        state.best_gain[s] = max(state.best_gain[s], gain)
    events.append(public("boss_keeps", seat=boss, amount=keeps))
    state.tiles[space.number - 1] = tile.number
    state.deals = tile.number
    events += _end_round(state, concluded=True, tile_value=tv)
    free_left = any(t is None for t in state.tiles)
    if free_left:
        state.marker = next_free(state, space.number)
    events.append(
        public(
            "tile_placed",
            tile=tile.number,
            space=space.number,
            marker=state.marker,
            moved=free_left,
        )
    )
    if tile.always_ends or not free_left:
        return events + end_game(state, END_LAST_DEAL, boss)
    if tile.end_faces:
        face = roll_die(state)
        state.end_roll = face
        ends = face in tile.end_faces
        faces: list[JsonValue] = list(tile.end_faces)
        events.append(public("end_roll", seat=boss, face=face, faces=faces, ends=ends, tile=tile.number))
        if ends:
            return events + end_game(state, END_ROLL, boss)
    start_turn(state, left(state, boss))
    events.append(public("turn", seat=state.turn))
    return events


def end_game(state: KkkState, reason: str, boss: int) -> list[Event]:
    """`reason`: `END_LAST_DEAL` or `END_ROLL` (kept as the state's `end_reason`, a code the bot words)."""
    state.phase = "over"
    state.end_reason = reason
    state.deadline = None
    data: dict[str, JsonValue] = {
        "money": list(state.money),
        "reason": reason,
        "deal": state.deals,
        "face": state.end_roll if reason == END_ROLL else None,
        "boss": boss,
    }
    return [Event(kind="game_over", data=data, reveals=True)]


def fail(state: KkkState, actor: int) -> list[Event]:
    check_round(state)
    r = state.round
    assert r is not None
    if actor != r.boss:
        raise rule("only_boss_fail", boss=r.boss)
    blocking = next((e for e in reversed(state.pending) if e.kind in ("recruit", "boss")), None)
    if blocking is not None:
        # Why the Boss can't fail yet, and what to do: STOP someone else's card, or wait for its window to close.
        raise rule("fail_pending", effect=effect_data(blocking), own=blocking.by == actor)
    return _fail(state, by_timer=False)


def timeout_fail(state: KkkState) -> list[Event]:
    return _fail(state, by_timer=True)


def _fail(state: KkkState, by_timer: bool) -> list[Event]:
    """`by_timer`: the Boss stayed silent until the deadline (else the Boss declared it)."""
    r = state.round
    assert r is not None
    boss = r.boss
    events = [public("deal_failed", boss=boss, space=r.space, by_timer=by_timer)]
    for effect in state.pending:  # only a travel can be pending here (see `fail`)
        events.append(
            public(
                "pending_discarded",
                effect=effect.kind,
                by=effect.by,
                family=effect.family,
                target=effect.target,
                on=effect.on,
                window=state.window,
            )
        )
    discarded, returned = _clear_table(state, [])
    if returned:
        events.append(public("clans_returned", returned={str(s): c for s, c in returned.items()}))
    events.append(public("discarded_played", "", cards=discarded))
    events += _end_round(state, concluded=False, tile_value=dividend_value(state))
    start_turn(state, left(state, boss))
    events.append(public("turn", seat=state.turn))
    return events
