"""Trading turns: trade any number of still-wanted goods at the current price, then move the price marker; the last
call at the round's final space; the end of a trading round.

A turn is one action (`Trade(cards, move)`). Checks, in the order a player would want to hear about them: the kinds
named, the offer still wanting them, Shortage (one card), the player's own hand, then the move. Refusals speak only of
the offer (public) and of the player's own hand.

Decisions where the specification is silent:
- When the last wanted card is traded the trading round ends with that turn (the trader's move would change nothing).
- Spoiled Goods halves the first card of the first trade in the round, rounded down; the rest of that trade, and
  every later one, pays the full price.
- A player whose trade empties their hand ends the game round at once (before any other check).
"""

from collections.abc import Sequence
from datetime import datetime

from engine.errors import RuleError
from engine.events import Event, public
from engine.schwarzmarkt import rounds
from engine.schwarzmarkt.market import GOODS
from engine.schwarzmarkt.playing import trade_call
from engine.schwarzmarkt.state import SchwarzmarktState
from engine.schwarzmarkt.turns import clear_table, new_wait
from engine.schwarzmarkt.words import amount, goods_text
from engine.text import seat as ref

KINDS = "potatoes, flour, coffee, butter or sugar"


def why_not(state: SchwarzmarktState, seat: int, cards: Sequence[str], move: int) -> str | None:
    """Why this trading turn is refused, or None; shared by the rules and `legal_actions`."""
    counts = [0] * len(GOODS)
    for c in cards:
        if c not in GOODS:
            return f"'{c}' isn't a kind of goods — name {KINDS}."
        counts[GOODS.index(c)] += 1  # type: ignore[arg-type]
    for kind, n in enumerate(counts):
        if n > state.wanted[kind]:
            good = GOODS[kind]
            still = goods_text(state.wanted, "nothing more")
            if state.wanted[kind] == 0:
                return f"The offer doesn't want {good} (any more) — it still wants {still}."
            return f"The offer wants only {amount(state.wanted[kind], good)} more — it still wants {still}."
    traded = sum(counts)
    if traded > 1 and state.force("shortage"):
        return "Shortage is in force: you may trade at most one card this turn."
    for kind, n in enumerate(counts):
        have = state.goods[seat][kind]
        if n > have:
            return f"You have only {amount(have, GOODS[kind])} in your hand."
    if state.last_call:
        if move != 0:
            return "The marker is on the round's last space: it stays there — trade (or not) and move 0."
        return None
    if traded:
        if move != 1:
            return "After a trade the price marker moves exactly 1 space."
        return None
    room = state.end_space - state.marker
    top = min(state.die(), room)
    if not 1 <= move <= top:
        if move < 1:
            return f"Without a trade you must move the marker 1 to {top} space{'s' if top > 1 else ''}."
        if move > state.die():
            return f"The die symbol on space {state.marker} lets the marker move at most {state.die()}."
        return f"The marker can't go past space {state.end_space}, the end of this trading round: move at most {top}."
    return None


def trade(
    state: SchwarzmarktState, seat: int, cards: Sequence[str], move: int, now: datetime, *, by_default: bool
) -> list[Event]:
    problem = why_not(state, seat, cards, move)
    if problem is not None:
        raise RuleError(problem)
    counts = [0] * len(GOODS)
    for c in cards:
        counts[GOODS.index(c)] += 1  # type: ignore[arg-type]
    traded = sum(counts)
    price = state.price()
    events: list[Event] = []
    if traded:
        paid = price * traded
        spoiled = state.force("spoiled_goods") and not state.spoiled_paid
        if spoiled:
            paid -= price - price // 2
            state.spoiled_paid = True
        for kind, n in enumerate(counts):
            state.goods[seat][kind] -= n
            state.goods_pile[kind] += n
            state.wanted[kind] -= n
        state.luxury[seat] += paid
        note = f" (Spoiled Goods: the first pays only {price // 2})" if spoiled else ""
        text = f"{ref(seat)} trades {goods_text(counts)} at {price}: +{paid} luxury goods{note}."
        # A trade shows cards that were secret in a hand (as Quick Deal does): an undo must not take it back lightly.
        trade = public("trade", text, seat=seat, cards=counts, price=price, paid=paid, spoiled=spoiled)
        events.append(trade.model_copy(update={"reveals": True}))
        if state.hand_count(seat) == 0:
            return events + rounds.end_game_round(state, seat, now)
        if sum(state.wanted) == 0:
            events.append(public("round_end", "Every wanted card has been traded: the trading round is over."))
            return events + end_trading_round(state, now)
    if state.last_call:
        if not traded:
            lead = "Time's up: " if by_default else ""
            events.append(public("no_trade", f"{lead}{ref(seat)} doesn't trade.", seat=seat, move=0))
        events.append(public("round_end", f"The last call at price {price} is over: the trading round ends."))
        return events + end_trading_round(state, now)
    state.marker += move
    where = f"space {state.marker} (price {state.price()})"
    if traded:
        events.append(public("moved", f"The marker moves 1 to {where}.", seat=seat, move=move, marker=state.marker))
    else:
        lead = "Time's up: " if by_default else ""
        spaces = f"{move} space{'s' if move != 1 else ''}"
        text = f"{lead}{ref(seat)} doesn't trade and moves the marker {spaces} to {where}."
        events.append(public("no_trade", text, seat=seat, move=move, marker=state.marker))
    if state.marker >= state.end_space:
        state.last_call = True
    state.turn = state.next_seat(seat)
    new_wait(state, now)
    events.append(trade_call(state))
    return events


def end_trading_round(state: SchwarzmarktState, now: datetime) -> list[Event]:
    """Traded goods are already under the goods pile; the offer and the face-up events go under the black-market
    pile; the player left of the starter starts next."""
    clear_table(state)
    return rounds.next_starter(state, now)
