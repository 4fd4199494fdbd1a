"""What every rule needs: starting a new wait, handing the black-market card to a starter, and putting cards under
the piles."""

from datetime import datetime

from pydantic import JsonValue

from engine.events import Event, public
from engine.schwarzmarkt.state import SchwarzmarktState


def new_wait(state: SchwarzmarktState, now: datetime) -> None:
    state.wait_no += 1
    state.since = now


def start_play(state: SchwarzmarktState, seat: int, now: datetime, **about: JsonValue) -> Event:
    """`seat` is the new starter: they must play one of their black-market cards (`about`: the event's other values,
    e.g. `round` when a game round begins, `dealer` at the deal)."""
    state.phase = "play"
    state.starter = state.turn = seat
    state.pending = None
    state.offer = None
    state.wanted = [0, 0, 0, 0, 0]
    state.marker = 1
    state.last_call = False
    new_wait(state, now)
    return public("starter", seat=seat, **about)


def discard(state: SchwarzmarktState, card: int) -> None:
    """A black-market card goes face down under the black-market pile."""
    state.black_pile.append(card)


def clear_table(state: SchwarzmarktState) -> None:
    """The offer and every face-up event go under the black-market pile (end of a trading or game round)."""
    if state.offer is not None:
        discard(state, state.offer)
        state.offer = None
    for card in state.in_force:
        discard(state, card)
    state.in_force = []
    state.spoiled_paid = False
    if state.pending is not None:
        discard(state, state.pending.card)
        state.pending = None
    state.wanted = [0, 0, 0, 0, 0]
    state.last_call = False
