"""Reaction windows and last calls: who the game waits on, passing, always-pass, and closing the window.

A window is open while an effect is pending (the player of the newest card excepted, everyone may STOP it) or while
the Boss's last call runs (the Boss excepted, everyone may play a card). It closes when every awaited player has
passed, or at the reaction time's end (`waits`). The game never closes a window early because someone holds no STOP:
that would reveal a hand. A player may set "always pass" for the rest of the round (their choice; it reveals
nothing) and is then not awaited.
"""

from pydantic import JsonValue

from engine.errors import rule
from engine.events import Event, public
from engine.kkk import actions as A
from engine.kkk.conclusion import conclude
from engine.kkk.effects import resolve
from engine.kkk.state import KkkState
from engine.kkk.table import effect_data


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
        raise rule("nothing_to_pass")
    if actor == owner:
        if state.pending:
            raise rule("own_card_pass")
        raise rule("own_last_call_pass")
    if actor in state.passes or (state.round is not None and actor in state.round.always_pass):
        raise rule("already_passed", waiting=awaited(state))
    state.passes.append(actor)
    on = "card" if state.pending else "last_call"
    return [public("passed", seat=actor, window=state.window, on=on)]


def always_pass(state: KkkState, actor: int, action: A.AlwaysPass) -> list[Event]:
    r = state.round
    if r is None:
        raise rule("no_round_for_always_pass")
    if action.on:
        if actor in r.always_pass:
            raise rule("always_pass_already")
        r.always_pass.append(actor)
        return [public("always_pass", seat=actor)]
    if actor not in r.always_pass:
        raise rule("always_pass_not_set")
    r.always_pass.remove(actor)
    return [public("always_pass_off", seat=actor)]


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
        about: dict[str, JsonValue] = {"what": "window", "effect": effect_data(state.pending[-1])}
    else:
        about = {"what": "last_call"}
    state.passes += awaited(state)
    return [public("timeout", window=state.window, **about), *settle(state)]
