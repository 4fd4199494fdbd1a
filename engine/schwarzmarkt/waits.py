"""What the game waits for, until when, and the default at each deadline.

Every wait has a key `"<wait_no>:<what>:<seat>"`; `wait_no` is bumped whenever a new wait begins, so a timer set for
an older wait carries a stale key and its `Timeout` is refused.

| what    | who                       | deadline               | default                                    |
|---------|---------------------------|------------------------|--------------------------------------------|
| `play`  | the starter               | `turn_deadline`        | a black-market card drawn at random        |
| `trade` | the player whose turn it is | `trade_hours`        | no trade; the marker moves 1 (0 at the last call) |
| `event` | the event's player        | `turn_deadline`        | a random choice from public facts (`defaults`) |

A trading turn is asked in the same words, with the same deadline and the same default for everyone, whether or not
they hold a wanted card: the timing of the game never tells the table anything about a hand.
"""

from typing import NamedTuple

from engine.events import Wait
from engine.schwarzmarkt.actions import Timeout
from engine.schwarzmarkt.eventcards import asking
from engine.schwarzmarkt.state import SchwarzmarktState


class Due(NamedTuple):
    key: str
    seat: int
    what: str
    """play, trade or event."""
    text: str


def pending(state: SchwarzmarktState) -> list[Due]:
    def make(what: str, text: str) -> list[Due]:
        return [Due(f"{state.wait_no}:{what}:{state.turn}", state.turn, what, text)]

    match state.phase:
        case "play":
            return make("play", "play a black-market card to start the trading round")
        case "trade":
            if state.last_call:
                return make("trade", "last call: trade wanted goods or not (the marker stays)")
            return make("trade", "trade wanted goods or not, and move the price marker")
        case "event":
            return make("event", asking(state))
    return []


def waiting_on(state: SchwarzmarktState) -> list[Wait]:
    out = []
    for due in pending(state):
        span = state.options.trade_deadline if due.what == "trade" else None  # None: the table's turn deadline
        out.append(
            Wait(
                seats=(due.seat,),
                what=due.text,
                kind="turn",
                since=state.since,
                until=state.options.turn_until(state.since, span),
                timeout=Timeout(key=due.key),
            )
        )
    return out
