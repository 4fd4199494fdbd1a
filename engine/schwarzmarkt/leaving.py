"""A player who leaves mid-game (a moderator's kick; the platform's `Leave`), which the rulebook doesn't cover.

Their goods go under the goods pile and their black-market cards under the black-market pile, and the game goes on
while at least 3 players remain (otherwise None: the platform ends it with the standings so far). From then on the
seat is skipped in turn order and can't be targeted; its luxury total stays in the standings, after everyone
still playing. If the game was waiting on them:
- as the starter: the next player clockwise starts;
- on their trading turn: the turn passes without a move (at the last call the trading round ends);
- as an event's player, or as its chosen target before the event was carried out: the event is void and discarded,
  and the next player clockwise from the starter starts.
"""

from datetime import datetime

from engine.errors import rule
from engine.events import Event, public
from engine.schwarzmarkt import eventcards, rounds
from engine.schwarzmarkt.market import MIN_PLAYERS
from engine.schwarzmarkt.playing import trade_call
from engine.schwarzmarkt.state import SchwarzmarktState
from engine.schwarzmarkt.trading import end_trading_round
from engine.schwarzmarkt.turns import discard, new_wait


def remove_seat(state: SchwarzmarktState, seat: int, now: datetime) -> list[Event] | None:
    if state.phase == "over":
        raise rule("game_over")
    if not state.playing(seat):
        raise rule("already_left", seat=seat)
    if state.seats - len(state.left) - 1 < MIN_PLAYERS:
        return None
    state.left.append(seat)
    for kind, n in enumerate(state.goods[seat]):
        state.goods_pile[kind] += n
    state.goods[seat] = [0] * len(state.goods[seat])
    for card in state.black_market[seat]:
        discard(state, card)
    state.black_market[seat] = []
    events = [public("left", seat=seat)]
    p = state.pending
    match state.phase:
        case "play" if state.turn == seat:
            events += rounds.next_starter(state, now)
        case "trade" if state.turn == seat:
            if state.last_call:
                events.append(public("round_end", why="left_last_call"))
                events += end_trading_round(state, now)
            else:
                state.turn = state.next_seat(seat)
                new_wait(state, now)
                events.append(trade_call(state))
        # Void when the leaver chose or was chosen, or took with them the only player the event could target.
        case "event" if p is not None and (seat in (p.chooser, p.target) or eventcards.void_reason(state)):
            discard(state, p.card)
            state.pending = None
            events.append(public("void", event=p.kind, card=p.card, seat=p.chooser, why="left"))
            events += rounds.next_starter(state, now)
    return events
