"""Game rounds: handing on to the next starter, the end of a game round (a player traded in their last goods card),
the refill to 9, the second round's starter, and the end of the game after the second round.

Decisions where the specification is silent:
- The refill deals from the shuffled pile one card at a time, the player who emptied their hand first, then
  clockwise; should the pile run short, the last players get fewer (60 cards make that all but impossible).
- If every hand still in play is empty before a starter plays (Raids and Old Debts can empty hands without a
  trade), nobody could ever trade a last card: the game round ends there, as if by a last trade, with no one
  having emptied it by trading; everyone is refilled to 9.
"""

from datetime import datetime

from pydantic import JsonValue

from engine.events import Event, private, public
from engine.schwarzmarkt.market import GOODS
from engine.schwarzmarkt.state import SchwarzmarktState
from engine.schwarzmarkt.turns import clear_table, new_wait, start_play

GAME_ROUNDS = 2


def draw_goods(state: SchwarzmarktState, seat: int, n: int) -> list[int]:
    """Draw up to `n` goods cards at random from the pile into `seat`'s hand; the counts drawn."""
    drawn = [0] * len(GOODS)
    pile = state.goods_pile
    for _ in range(n):
        total = sum(pile)
        if total == 0:
            break
        pick = state.rng.below(total)
        for kind, count in enumerate(pile):
            if pick < count:
                pile[kind] -= 1
                state.goods[seat][kind] += 1
                drawn[kind] += 1
                break
            pick -= count
    return drawn


def next_starter(state: SchwarzmarktState, now: datetime) -> list[Event]:
    """The player left of the current starter starts the next trading round (or the game round ends if every hand
    is empty)."""
    if all(state.hand_count(s) == 0 for s in range(state.seats) if state.playing(s)):
        return [public("all_empty"), *end_game_round(state, None, now)]
    return [start_play(state, state.next_seat(state.starter), now)]


def end_game_round(state: SchwarzmarktState, emptier: int | None, now: datetime) -> list[Event]:
    """End the game round at once: everything pending lapses; refill, or end the game after the second round."""
    clear_table(state)
    events: list[Event] = []
    # Everyone still playing, with their luxury goods: [[seat, luxury], …].
    lux: list[JsonValue] = [[s, state.luxury[s]] for s in range(state.seats) if state.playing(s)]
    # Why the round ends (`emptier`: who traded in their last goods card, None when every hand ran empty).
    if state.game_round >= GAME_ROUNDS:
        state.phase = "over"
        state.turn = state.starter
        new_wait(state, now)
        events.append(public("game_over", round=2, emptier=emptier, luxury=lux))
        return events
    events.append(public("round_over", round=state.game_round, emptier=emptier, luxury=lux, hand_size=state.hand_size))
    first = emptier if emptier is not None else state.next_seat(state.starter)
    order = [first]
    while (nxt := state.next_seat(order[-1])) != first:
        order.append(nxt)
    for seat in order:
        need = max(0, state.hand_size - state.hand_count(seat))
        drawn = draw_goods(state, seat, need)
        if need:
            events.append(private(seat, "refilled", seat=seat, drawn=drawn))
    sizes: list[JsonValue] = [[s, state.hand_count(s)] for s in order]
    events.append(public("refill", round=state.game_round + 1, sizes=sizes))
    state.game_round += 1
    events.append(start_play(state, state.next_seat(state.starter), now, round=state.game_round))
    return events
