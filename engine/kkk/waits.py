"""What the game waits for, until when, and the default applied when the deadline passes.

There is at most one wait at a time. Each has a key that names it; the engine stores the key with its since/until
(from the `now` of the action that started it: the engine has no clock) and a `Timeout(key)` applies the default
only while that wait is still current, so a late or duplicate timer is refused and changes nothing.

| wait (key)                         | deadline                            | default at the deadline             |
|------------------------------------|-------------------------------------|-------------------------------------|
| marker placement (`marker`)        | turn deadline                       | a random space                      |
| player to move (`turn:…`)          | turn deadline                       | roll, then draw 3                   |
| player who rolled (`rolled:…`)     | turn deadline                       | draw 3                              |
| Boss, nothing pending (`boss:…`)   | turn deadline, restarted every play | the deal fails                      |
| reaction window (`window:…`)       | `stop` (6 hours)                    | everyone still awaited passes       |
| last call (`call:…`)               | `last_call` (6 hours)               | everyone still awaited passes       |
| over 12 cards (`discard:…`)        | turn deadline                       | random cards discarded down to 12   |

The two kinds of reaction window have their own default lengths (`WINDOWS`); a table's `reaction_time`, if set,
replaces both (`GameOptions.window_length`). Both are 6 hours: a STOP window opens for every travel, recruitment and
Boss card — several per deal — and a last call ends every round, and nearly all of them are passed. 6 hours is more
than the longest gap of a player who looks in every few hours (so nobody who wanted to STOP misses the card), yet a
table with one silent player still gets through about four windows a day. A table online together never waits: a
window closes at the last pass. A player who doesn't want to be asked sets always-pass for the round.
"""

from datetime import datetime, timedelta

from engine import deadlines
from engine.deadlines import Current
from engine.errors import rule
from engine.events import Event, Wait
from engine.kkk import actions as A
from engine.kkk.cards import HAND_LIMIT, family_name
from engine.kkk.conclusion import timeout_fail
from engine.kkk.handlimit import timeout_discard
from engine.kkk.state import Deadline, Effect, KkkState
from engine.kkk.table import over_limit
from engine.kkk.turns import place_randomly, timeout_rolled, timeout_turn
from engine.kkk.windows import awaited, timeout_window
from engine.text import seat

WINDOWS = {"stop": timedelta(hours=6), "last_call": timedelta(hours=6)}
"""The default length of each kind of reaction window (see the module docstring for why)."""


def describe_effect(effect: Effect) -> str:
    """The wait's English words (until waits carry codes: see `Presentation.wait_task`)."""
    if effect.kind == "boss":
        return f"{seat(effect.by)}'s Boss card"
    if effect.kind == "travel":
        return f"{seat(effect.by)}'s travel card on {effect_target(effect)}"
    return f"{seat(effect.by)}'s recruitment of {effect_target(effect)}"


def effect_target(effect: Effect) -> str:
    assert effect.family is not None
    name = family_name(effect.family)
    if effect.target is None:
        return f"the {name} investor beside the board"
    return f"{seat(effect.target)}'s {name} {'clan card' if effect.on == 'clan' else 'investor'}"


def current(state: KkkState) -> Current | None:
    if state.phase == "over":
        return None
    if state.pending:
        return Current(
            f"window:{state.window}",
            f"STOP or pass on {describe_effect(state.pending[-1])}",
            "reaction",
            tuple(awaited(state)),
            "stop",
        )
    s = over_limit(state)
    if s is not None:
        return Current(f"discard:{s}:{state.turn_seq}", f"{seat(s)} to get down to {HAND_LIMIT} cards", "turn", (s,))
    if state.phase == "place_marker":
        return Current("marker", f"{seat(state.placer)} to place the dollar marker", "turn", (state.placer,))
    r = state.round
    if r is not None:
        if r.last_call is not None:
            return Current(
                f"call:{state.window}",
                f"the last call of {seat(r.boss)}: let it go or play a card",
                "reaction",
                tuple(awaited(state)),
                "last_call",
            )
        return Current(f"boss:{state.seq}", f"the Boss {seat(r.boss)} to close the deal (or fail)", "turn", (r.boss,))
    if state.phase == "turn":
        return Current(f"turn:{state.turn_seq}", f"{seat(state.turn)} to open the deal or roll", "turn", (state.turn,))
    return Current(f"rolled:{state.turn_seq}", f"{seat(state.turn)} to open the deal or draw 3", "turn", (state.turn,))


def refresh(state: KkkState, now: datetime) -> None:
    """After an accepted action: start the deadline of a new wait (an unchanged wait keeps its deadline)."""
    deadlines.refresh(state, current(state), now, Deadline, WINDOWS)


def waiting_on(state: KkkState) -> list[Wait]:
    return deadlines.waiting_on(current(state), state.deadline, A.Timeout)


def timeout(state: KkkState, action: A.Timeout, now: datetime) -> list[Event]:
    cur = current(state)
    if cur is None or state.deadline is None or cur.key != action.key or state.deadline.key != action.key:
        raise rule("stale_timer")
    if now < state.deadline.until:
        raise rule("deadline_not_passed")
    kind = cur.key.split(":", 1)[0]
    if kind in ("window", "call"):
        return timeout_window(state)
    if kind == "discard":
        return timeout_discard(state)
    if kind == "marker":
        return place_randomly(state)
    if kind == "boss":
        return timeout_fail(state)
    if kind == "turn":
        return timeout_turn(state)
    return timeout_rolled(state)
