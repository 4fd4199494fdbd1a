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

from pydantic import JsonValue

from engine import deadlines
from engine.deadlines import Current
from engine.errors import rule
from engine.events import Event, Wait
from engine.kkk import actions as A
from engine.kkk.cards import HAND_LIMIT
from engine.kkk.conclusion import timeout_fail
from engine.kkk.handlimit import timeout_discard
from engine.kkk.state import Deadline, KkkState
from engine.kkk.table import effect_data, over_limit
from engine.kkk.turns import place_randomly, timeout_rolled, timeout_turn
from engine.kkk.windows import awaited, timeout_window

WINDOWS = {"stop": timedelta(hours=6), "last_call": timedelta(hours=6)}
"""The default length of each kind of reaction window (see the module docstring for why)."""


STOP_OR_PASS = "stop_or_pass"
"""`Wait.what` codes (the bot words them, `Presentation.wait_task`); `Wait.about` holds their values:
`stop_or_pass` (`effect`: the pending card, `engine.kkk.table.effect_data`), `discard` (`seat`, `limit`),
`place_marker` (`placer`), `last_call` (`boss`), `close_or_fail` (`boss`), `open_or_roll` and `open_or_draw`
(`seat`)."""


def current(state: KkkState) -> Current | None:
    if state.phase == "over":
        return None
    if state.pending:
        return Current(f"window:{state.window}", STOP_OR_PASS, "reaction", tuple(awaited(state)), "stop")
    s = over_limit(state)
    if s is not None:
        return Current(f"discard:{s}:{state.turn_seq}", "discard", "turn", (s,))
    if state.phase == "place_marker":
        return Current("marker", "place_marker", "turn", (state.placer,))
    r = state.round
    if r is not None:
        if r.last_call is not None:
            return Current(f"call:{state.window}", "last_call", "reaction", tuple(awaited(state)), "last_call")
        return Current(f"boss:{state.seq}", "close_or_fail", "turn", (r.boss,))
    if state.phase == "turn":
        return Current(f"turn:{state.turn_seq}", "open_or_roll", "turn", (state.turn,))
    return Current(f"rolled:{state.turn_seq}", "open_or_draw", "turn", (state.turn,))


def about(state: KkkState, what: str) -> dict[str, JsonValue]:
    """The values the words of the wait `what` need (see `STOP_OR_PASS`)."""
    if what == STOP_OR_PASS:
        return {"effect": effect_data(state.pending[-1])}
    if what == "discard":
        return {"seat": over_limit(state), "limit": HAND_LIMIT}
    if what == "place_marker":
        return {"placer": state.placer}
    if what in ("last_call", "close_or_fail"):
        assert state.round is not None
        return {"boss": state.round.boss}
    return {"seat": state.turn}


def refresh(state: KkkState, now: datetime) -> None:
    """After an accepted action: start the deadline of a new wait (an unchanged wait keeps its deadline)."""
    deadlines.refresh(state, current(state), now, Deadline, WINDOWS)


def waiting_on(state: KkkState) -> list[Wait]:
    waits = deadlines.waiting_on(current(state), state.deadline, A.Timeout)
    return [w.model_copy(update={"about": about(state, w.what)}) for w in waits]


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
