"""What the game waits for, until when, and the default applied when the deadline passes.

There is at most one wait at a time; its key names it, and the state keeps the key with its since/until (from the
`now` of the action that began it: the engine has no clock). A `Timeout(key)` applies the default only while that
wait is current and due, so a late or duplicate timer is refused and changes nothing.

| wait (key)                       | who                             | deadline      | default                       |
|----------------------------------|---------------------------------|---------------|-------------------------------|
| HQ choice (`hq:<seat>`)          | the variant's next chooser      | turn deadline | an HQ drawn at random         |
| turn (`turn:<n>:<defeated>`)     | the player to move              | turn deadline | the turn passes (a first      |
|                                  |                                 |               | turn: $100 on 3 random agents)|
| objections (`window:<no>`)       | every other player, all at once | `objection`   | no objection                  |
| contest (`contest:<no>:<taken>`) | the active player               | `contest`     | contest, limit = whole bribe  |

The objection window is one wait for everyone asked, with one deadline: it lists those who haven't answered yet, and
closes early only when everyone has answered.

The two kinds of reaction window have their own default lengths (`WINDOWS`), for tables whose players look in every
few hours; a table's `reaction_time`, if set, replaces both (`GameOptions.window_length`):

- `objection`, 12 hours: the game's central decision, asked of everyone at once, and silence counts as "no
  objection" — a player who reads the thread in the morning and in the evening must not lose it overnight. 12 hours
  covers a night's sleep plus a working morning. It costs the table nothing when everyone answers: the window closes
  at the last answer.
- `contest`, 8 hours: one question to one player — the one who just announced, so usually still near — and its
  default (contest with the whole bribe) is the stronger answer, so missing it costs less; a working day's span.
"""

from datetime import datetime, timedelta

from pydantic import JsonValue

from engine import deadlines
from engine.casablanca.actions import Timeout
from engine.casablanca.state import CasablancaState, Deadline
from engine.deadlines import Current
from engine.events import Wait

WINDOWS = {"objection": timedelta(hours=12), "contest": timedelta(hours=8)}
"""The default length of each kind of reaction window (see the module docstring for why)."""


def current(state: CasablancaState) -> Current | None:
    """The wait now; its `what` is a code (`choose_hq`, `turn`, `objections`, `contest`), its values `about`."""
    ann = state.announcement
    match state.phase:
        case "hq":
            return Current(f"hq:{state.turn}", "choose_hq", "turn", (state.turn,))
        case "turn":
            key = f"turn:{state.turn_no}:{len(state.defeated)}"
            return Current(key, "turn", "turn", (state.turn,))
        case "objections":
            assert ann is not None
            waiting = tuple(s for s in state.awaited if s not in state.answered)
            return Current(f"window:{ann.no}", "objections", "reaction", waiting, "objection")
        case "contest":
            assert ann is not None
            # Each objector taken is a new question with its own deadline, also when the one before it left.
            key = f"contest:{ann.no}:{len(state.auctions)}:{state.objections[0].seat}"
            return Current(key, "contest", "reaction", (ann.seat,), "contest")
    return None


def about(state: CasablancaState) -> dict[str, JsonValue]:
    """The values the words of the current wait need: the turn's kind, or the announcement (and the objector)."""
    ann = state.announcement
    match state.phase:
        case "turn":
            first = not state.variant and not state.started[state.turn]
            return {"first": first, "objected": state.objected, "variant": state.variant}
        case "objections" | "contest" if ann is not None:
            said: dict[str, JsonValue] = {
                "seat": ann.seat,
                "what": ann.kind,
                "agent": ann.agent,
                "source": ann.source,
                "to": ann.to,
                "suitcase": ann.suitcase,
                "behind": ann.behind,
                "victim": ann.victim,
                "no": ann.no,
            }
            if state.phase == "contest":
                said["objector"] = state.objections[0].seat
            return said
    return {}


def refresh(state: CasablancaState, now: datetime) -> None:
    """After an accepted action: a new wait gets its deadline; an unchanged one keeps it."""
    deadlines.refresh(state, current(state), now, Deadline, WINDOWS)


def waiting_on(state: CasablancaState) -> list[Wait]:
    waits = deadlines.waiting_on(current(state), state.deadline, Timeout)
    values = about(state)
    return [w.model_copy(update={"about": values}) for w in waits] if values else waits
