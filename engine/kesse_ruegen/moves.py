"""Kesse Rügen on the board: placing the pawns at the start, and the actions a duel's winner takes (plant, move,
evict, reclaim, and `Done` when none is possible), with the win they may bring.

Decisions:

- A player must take all their actions. When none is legal (e.g. a pawn boxed in on its own tuber), the game
  says so and ends the turn at once: the rest are lost. `Done` is refused while any action is legal.
- The win is checked after every action; only planting can complete it, and the game ends on the spot.
"""

from datetime import datetime
from typing import Any

from engine.errors import refuse, rule
from engine.events import Event, public
from engine.kesse_ruegen import geometry, legal
from engine.kesse_ruegen.actions import Evict, Move, Plant, Reclaim
from engine.kesse_ruegen.state import KesseRuegenState
from engine.kesse_ruegen.turns import after_action, lose_actions, new_wait, start_turn


def place(state: KesseRuegenState, actor: int, text: str, now: datetime) -> list[Event]:
    if state.phase != "place":
        raise rule("all_placed")
    if actor != state.turn:
        raise rule("not_your_placement", seat=state.turn)
    square = geometry.parse(text, state.size)
    if square is None:
        raise rule("no_such_square", square=text.strip()[:20], last=geometry.last(state.size))
    if square == state.barn:
        raise rule("place_in_barn", square=square)
    other = state.pawn_at(square)
    if other is not None:
        raise rule("place_taken", seat=other, square=square)
    return put_pawn(state, actor, square, now, by_default=False)


def put_pawn(state: KesseRuegenState, seat: int, square: str, now: datetime, *, by_default: bool) -> list[Event]:
    state.pawns[seat] = square
    events = [public("placed", seat=seat, square=square, by_default=by_default)]
    nxt = state.next_seat(seat)
    if state.pawns[nxt] is None:
        state.turn = nxt
        events.append(public("turn", seat=nxt, step="place", all_placed=False))
        new_wait(state, now)
    else:
        first = state.first if state.playing(state.first) else state.next_seat(state.first)
        events += start_turn(state, first, now, all_placed=True)
    return events


def act(state: KesseRuegenState, actor: int, action: Any, now: datetime) -> list[Event]:
    if state.phase != "act" or actor != state.actor:
        raise rule("no_actions")
    at = state.pawns[actor]
    assert at is not None
    match action:
        case Plant():
            refuse(legal.why_not_plant(state, actor))
            state.tubers[at] = actor
            state.supply[actor] -= 1
            kind, data = "planted", {"seat": actor, "square": at}
        case Move():
            refuse(legal.why_not_move(state, actor, action.direction))
            target = geometry.neighbour(at, action.direction, state.size)
            assert target is not None
            state.pawns[actor] = target
            kind = "moved"
            data = {
                "seat": actor,
                "source": at,
                "target": target,
                "direction": action.direction,
                "barn": target == state.barn,
            }
        case Evict():
            refuse(legal.why_not_evict(state, actor))
            owner = state.tubers.pop(at)
            state.barn_tubers[owner] += 1
            kind, data = "evicted", {"seat": actor, "owner": owner, "square": at}
        case Reclaim():
            refuse(legal.why_not_reclaim(state, actor))
            state.barn_tubers[actor] -= 1
            state.supply[actor] += 1
            kind, data = "reclaimed", {"seat": actor}
        case _:
            raise rule("not_an_action")
    state.actions_left -= 1
    fields = state.fields_of(actor)
    if fields >= state.win_fields:
        return [public(kind, **data, left=0), win(state, actor, fields)]
    left = state.actions_left
    events = [public(kind, **data, left=left)]
    new_wait(state, now)
    events.extend(after_action(state, now))
    return events


def done(state: KesseRuegenState, actor: int, now: datetime) -> list[Event]:
    if state.phase != "act" or actor != state.actor:
        raise rule("nothing_to_finish")
    if legal.field_actions(state, actor):
        raise rule("must_take_actions", left=state.actions_left)
    return lose_actions(state, now, "no_action")


def win(state: KesseRuegenState, seat: int, fields: int) -> Event:
    state.phase = "over"
    state.winner = seat
    state.winners = [seat]
    state.actions_left = 0
    return public("won", seat=seat, fields=fields)
