"""What the game waits for, until when, and the deadline default of each wait.

Every wait has a key `"<wait_no>:<what>:<seat>"`. The state's `wait_no` is bumped whenever a new wait begins
(a new placement, challenge, duel step, or each action taken), so a timer set for an older wait carries a
stale key and its `Timeout` is refused. The two secret choices wait side by side under the same `wait_no`:
when one player chooses, the other's wait (and its timer) stays as it was.

| what        | who                         | default at the deadline                  |
|-------------|-----------------------------|------------------------------------------|
| `place`     | the seat placing its pawn   | a random free field                      |
| `challenge` | the player to move (3–4)    | the turn passes clockwise                |
| `choose`    | each duellist not yet chosen| a hidden random 0–2 within the supply    |
| `guess`     | the challenger, then the challenged | the lowest total still free      |
| `act`       | the right guesser           | the remaining actions are lost           |

All deadlines are `since + options.turn_deadline`; `since` is when the wait began (for `act`, the last action).
"""

from typing import Any, NamedTuple

from engine.events import Wait
from engine.kesse_ruegen.actions import Timeout
from engine.kesse_ruegen.state import KesseRuegenState


class Pending(NamedTuple):
    key: str
    seat: int
    what: str
    """The wait's code: place, challenge, choose, guess or act (the presentation words it, `wait_task`)."""
    about: dict[str, Any]
    """The values its words need: `left`, the actions still to take (act)."""


def pending(state: KesseRuegenState) -> list[Pending]:
    """The current waits, without times."""

    def make(seat: int, what: str, **about: Any) -> Pending:
        return Pending(f"{state.wait_no}:{what}:{seat}", seat, what, about)

    duel = state.duel
    match state.phase:
        case "place":
            return [make(state.turn, "place")]
        case "challenge":
            return [make(state.turn, "challenge")]
        case "choose":
            assert duel is not None
            return [make(s, "choose") for s in duel.seats() if duel.choice(s) is None]
        case "guess":
            assert duel is not None
            return [make(duel.guesser(), "guess")]
        case "act":
            assert state.actor is not None
            return [make(state.actor, "act", left=state.actions_left)]
    return []


def waiting_on(state: KesseRuegenState) -> list[Wait]:
    until = state.options.turn_until(state.since)
    return [
        Wait(
            seats=(p.seat,),
            what=p.what,
            about=p.about,
            kind="turn",
            since=state.since,
            until=until,
            timeout=Timeout(key=p.key),
        )
        for p in pending(state)
    ]
