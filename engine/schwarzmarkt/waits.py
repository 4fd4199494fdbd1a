"""What the game waits for, until when, and the default at each deadline.

Every wait has a key `"<wait_no>:<kind>:<seat>"` (kind: play, trade or event); `wait_no` is bumped whenever a new
wait begins, so a timer set for an older wait carries a stale key and its `Timeout` is refused.

| what        | who                         | deadline        | default                                        |
|-------------|-----------------------------|-----------------|------------------------------------------------|
| `play`      | the starter                 | `turn_deadline` | a black-market card drawn at random            |
| `trade`     | the player whose turn it is | `trade_hours`   | no trade; the marker moves 1                   |
| `last_call` | the player at the last call | `trade_hours`   | no trade (the marker stays)                    |
| `event`     | the event's player          | `turn_deadline` | a random choice from public facts (`defaults`) |

`what` is a code; an event's wait carries its question in `about` (`eventcards.asking`: the event, the step, the
chooser, the target and the amounts), which the presentation words (`wait_task`).

A trading turn is asked in the same words, with the same deadline and the same default for everyone, whether or not
they hold a wanted card: the timing of the game never tells the table anything about a hand.
"""

from typing import NamedTuple

from pydantic import JsonValue

from engine.events import Wait
from engine.schwarzmarkt.actions import Timeout
from engine.schwarzmarkt.eventcards import asking
from engine.schwarzmarkt.state import SchwarzmarktState


class Due(NamedTuple):
    key: str
    seat: int
    what: str
    """The wait's code: `play`, `trade`, `last_call` (a trading turn at the round's last space) or `event`."""
    about: dict[str, JsonValue]
    """The values its words need: for `event`, the event's question (`eventcards.asking`); else none."""


def pending(state: SchwarzmarktState) -> list[Due]:
    def make(kind: str, what: str, about: dict[str, JsonValue] | None = None) -> list[Due]:
        # The key keeps the wait's kind (play, trade, event), as timers already stored carry it.
        return [Due(f"{state.wait_no}:{kind}:{state.turn}", state.turn, what, about or {})]

    match state.phase:
        case "play":
            return make("play", "play")
        case "trade":
            return make("trade", "last_call" if state.last_call else "trade")
        case "event":
            return make("event", "event", asking(state))
    return []


def waiting_on(state: SchwarzmarktState) -> list[Wait]:
    out = []
    for due in pending(state):
        trading = due.what in ("trade", "last_call")
        span = state.options.trade_deadline if trading else None  # None: the table's turn deadline
        out.append(
            Wait(
                seats=(due.seat,),
                what=due.what,
                about=due.about,
                kind="turn",
                since=state.since,
                until=state.options.turn_until(state.since, span),
                timeout=Timeout(key=due.key),
            )
        )
    return out
