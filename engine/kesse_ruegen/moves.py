"""Kesse Rügen on the board: placing the pawns at the start, and the actions a duel's winner takes (plant, move,
evict, reclaim, and `Done` when none is possible), with the win they may bring.

Decisions:

- A player must take all their actions. When none is legal (e.g. a pawn boxed in on its own tuber), the game
  says so and ends the turn at once: the rest are lost. `Done` is refused while any action is legal.
- The win is checked after every action; only planting can complete it, and the game ends on the spot.
"""

from datetime import datetime
from typing import Any

from engine.errors import RuleError, refuse
from engine.events import Event, public
from engine.kesse_ruegen import geometry, legal
from engine.kesse_ruegen.actions import Evict, Move, Plant, Reclaim
from engine.kesse_ruegen.state import KesseRuegenState
from engine.kesse_ruegen.turns import (
    after_action,
    lose_actions,
    new_wait,
    plural,
    start_turn,
    waiting_text,
)
from engine.text import seat as ref


def place(state: KesseRuegenState, actor: int, text: str, now: datetime) -> list[Event]:
    if state.phase != "place":
        raise RuleError(f"All pawns are already placed — {waiting_text(state)}.")
    if actor != state.turn:
        raise RuleError(f"It's {ref(state.turn)}'s turn to place a pawn — yours comes in seat order.")
    square = geometry.parse(text, state.size)
    if square is None:
        raise RuleError(f"There's no square '{text.strip()}' — the board runs a1 to {geometry.last(state.size)}.")
    if square == state.barn:
        raise RuleError(f"{square} is the barn — start your pawn on a field.")
    other = state.pawn_at(square)
    if other is not None:
        raise RuleError(f"{ref(other)}'s pawn already stands on {square} — pick a free field.")
    return put_pawn(state, actor, square, now, by_default=False)


def put_pawn(state: KesseRuegenState, seat: int, square: str, now: datetime, *, by_default: bool) -> list[Event]:
    state.pawns[seat] = square
    lead = f"Time's up: {ref(seat)}'s pawn goes to a random free field, {square}." if by_default else ""
    events = [public("placed", lead or f"{ref(seat)} places their pawn on {square}.", seat=seat, square=square)]
    nxt = state.next_seat(seat)
    if state.pawns[nxt] is None:
        state.turn = nxt
        events.append(public("turn", f"{ref(nxt)}, place your pawn on a free field.", seat=nxt))
        new_wait(state, now)
    else:
        first = state.first if state.playing(state.first) else state.next_seat(state.first)
        events += start_turn(state, first, now, "All pawns are placed. ")
    return events


def act(state: KesseRuegenState, actor: int, action: Any, now: datetime) -> list[Event]:
    if state.phase != "act" or actor != state.actor:
        raise RuleError(f"You have no actions to take — {waiting_text(state)}.")
    at = state.pawns[actor]
    assert at is not None
    match action:
        case Plant():
            refuse(legal.why_not_plant(state, actor))
            state.tubers[at] = actor
            state.supply[actor] -= 1
            text = f"{ref(actor)} plants a {state.kind(actor)} on {at}"
            event = public("planted", text, seat=actor, square=at)
        case Move():
            refuse(legal.why_not_move(state, actor, action.direction))
            target = geometry.neighbour(at, action.direction, state.size)
            assert target is not None
            state.pawns[actor] = target
            into = "into the barn" if target == state.barn else f"to {target}"
            text = f"{ref(actor)} moves {geometry.ARROWS[action.direction]} {into}"
            event = public("moved", text, seat=actor, source=at, target=target)
        case Evict():
            refuse(legal.why_not_evict(state, actor))
            owner = state.tubers.pop(at)
            state.barn_tubers[owner] += 1
            text = f"{ref(actor)} evicts {ref(owner)}'s {state.kind(owner)} from {at} to the barn"
            event = public("evicted", text, seat=actor, owner=owner, square=at)
        case Reclaim():
            refuse(legal.why_not_reclaim(state, actor))
            state.barn_tubers[actor] -= 1
            state.supply[actor] += 1
            text = f"{ref(actor)} takes a {state.kind(actor)} from the barn back to their supply"
            event = public("reclaimed", text, seat=actor)
        case _:
            raise RuleError("That's not an action.")
    state.actions_left -= 1
    fields = state.fields_of(actor)
    if fields >= state.win_fields:
        return [public(event.kind, event.text + ".", **event.data), win(state, actor, fields)]
    left = state.actions_left
    tail = f" ({plural(left, 'action')} left)." if left else "."
    events = [public(event.kind, event.text + tail, **event.data, left=left)]
    new_wait(state, now)
    events.extend(after_action(state, now))
    return events


def done(state: KesseRuegenState, actor: int, now: datetime) -> list[Event]:
    if state.phase != "act" or actor != state.actor:
        raise RuleError(f"You have nothing to finish — {waiting_text(state)}.")
    if legal.field_actions(state, actor):
        raise RuleError(
            f"You must take all your actions — {plural(state.actions_left, 'action')} left. "
            "Done is only for when none is possible."
        )
    return lose_actions(state, now, f"{ref(actor)} has no legal action left")


def win(state: KesseRuegenState, seat: int, fields: int) -> Event:
    state.phase = "over"
    state.winner = seat
    state.winners = [seat]
    state.actions_left = 0
    text = f"{ref(seat)} has {state.kind(seat, 2)} on {fields} fields and wins Kesse Rügen!"
    return public("won", text, seat=seat, fields=fields)
