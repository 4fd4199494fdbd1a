"""The starter's card: play one black-market card face up, draw a replacement at once, and either open a trading
round (an offer) or carry out an event.

Decision where the specification is silent: every black-market card that is done with (an offer after its round,
an event after its effect or its round, a void event) goes under the black-market pile, so the 30 cards are always
in hands, the pile or face up. The pile is therefore never empty while a starter draws (15 cards at most are in
hands); if it ever were, no card is drawn.
"""

from datetime import datetime

from pydantic import JsonValue

from engine.errors import rule
from engine.events import Event, private, public
from engine.schwarzmarkt import eventcards
from engine.schwarzmarkt.market import Card
from engine.schwarzmarkt.state import SchwarzmarktState
from engine.schwarzmarkt.turns import new_wait


def card_data(card: Card) -> dict[str, JsonValue]:
    """A black-market card's face as event values: `wants` (counts per kind) for an offer, else `event` (its kind)."""
    return {"wants": list(card.wants)} if card.event is None else {"event": card.event}


def play(state: SchwarzmarktState, seat: int, card: int, now: datetime, *, by_default: bool) -> list[Event]:
    if card not in state.black_market[seat]:
        raise rule("card_not_in_hand", card=card)
    state.black_market[seat].remove(card)
    state.trading_rounds += 1
    played = state.cards[card]
    events: list[Event] = []
    drew = bool(state.black_pile)
    if state.black_pile:
        new = state.black_pile.pop(0)
        state.black_market[seat].append(new)
        events.append(private(seat, "drew", seat=seat, card=new, **card_data(state.cards[new])))
    if played.is_offer:
        state.offer = card
        state.wanted = list(played.wants)
        state.marker = 1
        state.end_space = state.limit_space if state.force("limit") else len(state.track)
        state.last_call = False
        state.spoiled_paid = False
        state.phase = "trade"
        state.turn = seat
        new_wait(state, now)
        in_force = [k for k in ("shortage", "spoiled_goods", "limit") if state.force(k)]
        offer = public(
            "offer",
            seat=seat,
            card=card,
            wants=list(played.wants),
            marker=state.marker,
            price=state.price(),
            in_force=list(in_force),
            end_price=state.track[state.end_space - 1].price,
            drew=drew,
            by_default=by_default,
        )
        events.insert(0, offer)
        events.append(trade_call(state))
        return events
    assert played.event is not None
    played_event = public("event_played", seat=seat, card=card, event=played.event, drew=drew, by_default=by_default)
    events.insert(0, played_event)
    events.extend(eventcards.begin(state, card, now))
    return events


def trade_call(state: SchwarzmarktState) -> Event:
    """The call to the player whose trading turn it is: the same words whatever their hand holds."""
    seat = state.turn
    return public("trade_turn", seat=seat, marker=state.marker, price=state.price(), last_call=state.last_call)
