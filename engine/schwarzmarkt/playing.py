"""The starter's card: play one black-market card face up, draw a replacement at once, and either open a trading
round (an offer) or carry out an event.

Decision where the specification is silent: every black-market card that is done with (an offer after its round,
an event after its effect or its round, a void event) goes under the black-market pile, so the 30 cards are always
in hands, the pile or face up. The pile is therefore never empty while a starter draws (15 cards at most are in
hands); if it ever were, no card is drawn.
"""

from datetime import datetime

from engine.errors import RuleError
from engine.events import Event, private, public
from engine.schwarzmarkt import eventcards
from engine.schwarzmarkt.state import SchwarzmarktState
from engine.schwarzmarkt.turns import new_wait
from engine.schwarzmarkt.words import EVENT_NAMES, card_name, goods_text
from engine.text import seat as ref


def play(state: SchwarzmarktState, seat: int, card: int, now: datetime, *, by_default: bool) -> list[Event]:
    if card not in state.black_market[seat]:
        raise RuleError("That black-market card isn't in your hand — play one of your own.")
    state.black_market[seat].remove(card)
    state.trading_rounds += 1
    played = state.cards[card]
    lead = f"Time's up: {ref(seat)} plays a black-market card drawn at random: " if by_default else ""
    events: list[Event] = []
    drew = "" if state.black_pile else " The black-market pile is empty, so no card is drawn."
    if state.black_pile:
        new = state.black_pile.pop(0)
        state.black_market[seat].append(new)
        events.append(
            private(seat, "drew", f"You draw a black-market card: {card_name(state.cards[new])}.", seat=seat, card=new)
        )
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
        rules = []
        if state.force("shortage"):
            rules.append("Shortage: at most one card per turn")
        if state.force("spoiled_goods"):
            rules.append("Spoiled Goods: the first card traded pays half")
        if state.force("limit"):
            rules.append(f"Limit: the round ends at price {state.track[state.end_space - 1].price}")
        extra = f" In force: {'; '.join(rules)}." if rules else ""
        text = (
            f"{lead or f'{ref(seat)} plays '}an offer: the market wants {goods_text(played.wants)}. "
            f"The price marker is on 1 (price {state.price()}).{extra}{drew}"
        )
        events.insert(0, public("offer", text, seat=seat, card=card, wants=list(played.wants)))
        events.append(trade_call(state))
        return events
    assert played.event is not None
    text = f"{lead or f'{ref(seat)} plays '}{EVENT_NAMES[played.event]}!{drew}"
    events.insert(0, public("event_played", text, seat=seat, card=card, event=played.event))
    events.extend(eventcards.begin(state, card, now))
    return events


def trade_call(state: SchwarzmarktState) -> Event:
    """The call to the player whose trading turn it is: the same words whatever their hand holds."""
    seat = state.turn
    if state.last_call:
        text = (
            f"{ref(seat)}, last call at price {state.price()}: trade any wanted goods (or none); "
            "the marker stays and the trading round ends after you."
        )
    else:
        text = (
            f"{ref(seat)}, your trading turn at price {state.price()}: "
            "trade any wanted goods (or none), then move the marker."
        )
    return public("trade_turn", text, seat=seat, marker=state.marker, price=state.price(), last_call=state.last_call)
