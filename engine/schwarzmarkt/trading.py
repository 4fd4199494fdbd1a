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

from engine.errors import RuleError, refuse, rule
from engine.events import Event, public
from engine.schwarzmarkt import rounds
from engine.schwarzmarkt.market import GOODS
from engine.schwarzmarkt.playing import trade_call
from engine.schwarzmarkt.state import SchwarzmarktState
from engine.schwarzmarkt.turns import clear_table, new_wait


def why_not(state: SchwarzmarktState, seat: int, cards: Sequence[str], move: int) -> RuleError | None:
    """Why this trading turn is refused (a `rule(...)`), or None; shared by the rules and `legal_actions`."""
    counts = [0] * len(GOODS)
    for c in cards:
        if c not in GOODS:
            return rule("not_a_good", good=c)
        counts[GOODS.index(c)] += 1  # type: ignore[arg-type]
    for kind, n in enumerate(counts):
        if n > state.wanted[kind]:
            good = GOODS[kind]
            if state.wanted[kind] == 0:
                return rule("offer_doesnt_want", good=good, still=list(state.wanted))
            return rule("offer_wants_only", good=good, n=state.wanted[kind], still=list(state.wanted))
    traded = sum(counts)
    if traded > 1 and state.force("shortage"):
        return rule("shortage_one_card")
    for kind, n in enumerate(counts):
        have = state.goods[seat][kind]
        if n > have:
            return rule("not_enough_goods", good=GOODS[kind], n=have)
    if state.last_call:
        if move != 0:
            return rule("last_call_stays")
        return None
    if traded:
        if move != 1:
            return rule("trade_moves_one")
        return None
    room = state.end_space - state.marker
    top = min(state.die(), room)
    if not 1 <= move <= top:
        if move < 1:
            return rule("move_at_least_one", top=top)
        if move > state.die():
            return rule("move_past_die", space=state.marker, die=state.die())
        return rule("move_past_end", end=state.end_space, top=top)
    return None


def trade(
    state: SchwarzmarktState, seat: int, cards: Sequence[str], move: int, now: datetime, *, by_default: bool
) -> list[Event]:
    refuse(why_not(state, seat, cards, move))
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
        # A trade shows cards that were secret in a hand (as Quick Deal does): an undo must not take it back lightly.
        trade = public("trade", seat=seat, cards=counts, price=price, paid=paid, spoiled=spoiled, half=price // 2)
        events.append(trade.model_copy(update={"reveals": True}))
        if state.hand_count(seat) == 0:
            return events + rounds.end_game_round(state, seat, now)
        if sum(state.wanted) == 0:
            events.append(public("round_end", why="all_traded"))
            return events + end_trading_round(state, now)
    if state.last_call:
        if not traded:
            events.append(public("no_trade", seat=seat, move=0, by_default=by_default))
        events.append(public("round_end", why="last_call", price=price))
        return events + end_trading_round(state, now)
    state.marker += move
    where = {"marker": state.marker, "price": state.price()}
    if traded:
        events.append(public("moved", seat=seat, move=move, **where))
    else:
        events.append(public("no_trade", seat=seat, move=move, by_default=by_default, **where))
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
