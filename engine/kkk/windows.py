"""Reaction windows and last calls: who the game waits on, passing, always-pass, and closing the window.

A window is open while an effect is pending (the player of the newest card excepted, everyone may STOP it) or while
the Boss's last call runs (the Boss excepted, everyone may play a card). It closes when every awaited player has
passed, or at the reaction time's end (`waits`). The game never closes a window early because someone holds no STOP:
that would reveal a hand. A player may set "always pass" for the rest of the round (their choice; it reveals
nothing) and is then not awaited.
"""

from engine.errors import RuleError
from engine.events import Event, public
from engine.kkk import actions as A
from engine.kkk.conclusion import conclude
from engine.kkk.effects import resolve
from engine.kkk.state import KkkState
from engine.kkk.table import describe_effect
from engine.text import seat


def window_owner(state: KkkState) -> int | None:
    """The player the window is about (they are not awaited); None when no window is open."""
    if state.pending:
        return state.pending[-1].by
    if state.round is not None and state.round.last_call is not None:
        return state.round.boss
    return None


def awaited(state: KkkState) -> list[int]:
    """The players whose pass the open window still waits for."""
    owner = window_owner(state)
    if owner is None:
        return []
    always = state.round.always_pass if state.round is not None else []
    return [s for s in range(state.seats) if s != owner and s not in state.passes and s not in always]


def pass_(state: KkkState, actor: int) -> list[Event]:
    owner = window_owner(state)
    if owner is None:
        raise RuleError("There's nothing to pass on right now.")
    if actor == owner:
        if state.pending:
            raise RuleError("It's your own card: the others decide whether to STOP it.")
        raise RuleError("It's your own last call: wait for the others, or call it off.")
    if actor in state.passes or (state.round is not None and actor in state.round.always_pass):
        waiting = ", ".join(seat(s) for s in awaited(state))
        raise RuleError(f"You've already passed; waiting for {waiting}.")
    state.passes.append(actor)
    what = "no STOP" if state.pending else "lets the last call go"
    return [public("passed", f"{seat(actor)}: {what}.", seat=actor, window=state.window)]


def always_pass(state: KkkState, actor: int, action: A.AlwaysPass) -> list[Event]:
    r = state.round
    if r is None:
        raise RuleError("Always-pass lasts for a negotiation round, and none is open.")
    if action.on:
        if actor in r.always_pass:
            raise RuleError("You already pass on everything for the rest of this round.")
        r.always_pass.append(actor)
        return [public("always_pass", f"{seat(actor)} passes on everything for the rest of this round.", seat=actor)]
    if actor not in r.always_pass:
        raise RuleError("You haven't set always-pass.")
    r.always_pass.remove(actor)
    return [public("always_pass_off", f"{seat(actor)} no longer passes automatically.", seat=actor)]


def settle(state: KkkState) -> list[Event]:
    """Close every window nobody is awaited in any more (after a pass, an always-pass, a timeout, or at once)."""
    events: list[Event] = []
    while state.phase != "over" and window_owner(state) is not None and not awaited(state):
        if state.pending:
            events += resolve(state)
        else:
            events += conclude(state)
    return events


def timeout_window(state: KkkState) -> list[Event]:
    """The reaction time ran out: everyone still awaited passes."""
    if state.pending:
        text = f"Time's up: nobody STOPped {describe_effect(state.pending[-1])}."
    else:
        text = "Time's up: the last call goes through."
    state.passes += awaited(state)
    return [public("timeout", text, window=state.window), *settle(state)]
