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

from typing import Any, NamedTuple

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
            return make("event", _asking_text(asking(state)))
    return []


NAMES = {
    "shortage": "Shortage",
    "espionage": "Espionage",
    "quick_deal": "Quick Deal",
    "forced_swap": "Forced Swap",
    "raid": "Raid",
    "new_goods": "New Goods Found",
    "limit": "Limit",
    "old_debt": "Old Debt",
    "spoiled_goods": "Spoiled Goods",
}


def _asking_text(about: dict[str, Any]) -> str:
    """The event's question in the wait's English, until the platform words waits itself (`wait_task`)."""
    name, step, target = NAMES[about["event"]], about["step"], f"{{seat:{about['target'] or 0}}}"
    match about["event"], step:
        case "espionage", _:
            return f"choose a player for {name}: two of their goods cards will be shown to everyone"
        case "forced_swap", "target":
            return f"choose a player for {name}"
        case "forced_swap", _:
            return f"choose 1 or 2 of your goods cards to give {target} ({name})"
        case "raid", "target":
            return f"choose a player for the {name}"
        case "raid", _:
            return f"name a kind of goods for the {name} on {target}"
        case "old_debt", _:
            return f"choose a player to take a goods card from ({name})"
        case "quick_deal", _:
            return f"choose one of your goods cards to trade for {about['quick_deal']} ({name})"
    return f"pay {about['cost']} and choose a card from the goods pile ({name})"


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
