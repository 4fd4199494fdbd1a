"""Who the table waits for, in words: the "⏳" line after an action, the status's and `/game help`'s waiting lines,
the reminder, and the DM a player gets.

A wait's `what` is the engine's text, in one of three shapes:

- the awaited seat as its subject: "{seat:2} to open the deal or roll", "the Boss {seat:1} to close the deal (or
  fail)", "{seat:0} to take their turn";
- words addressed to the awaited player, with no seat of theirs in it: "place your pawn on a free field";
- a task for several seats that names someone else: "STOP or pass on {seat:0}'s travel card".

The ping speaks to the player, once: "@anna, your turn: open the deal or roll" (not "@anna — anna to open…"); the
status and help speak about them, also once: "**anna**'s turn: open the deal or roll". Who is *mentioned* (and so
pinged) is decided by the caller: everyone awaited, except the player whose own action led to the wait (never ping
someone for the continuation of what they just did) — they are named, not mentioned.
"""

import re
from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING

from engine.text import render, seats_in

if TYPE_CHECKING:
    from bot.post import Task
    from engine.events import Wait

SUBJECT = re.compile(r"(?:the (?P<role>[A-Z][\w ]*?) )?\{seat:(?P<seat>\d+)\} to (?P<task>.+)", re.S)
NOTHING_MORE = {"take their turn", "take your turn", "move"}
"""Tasks that say no more than "your turn"."""


def subject_task(what: str, seats: Sequence[int]) -> tuple[str | None, str] | None:
    """(role, task) when `what` has the one awaited seat as its subject ("the Boss {seat:1} to close the deal" →
    ("Boss", "close the deal")); the task is "" when it says no more than "your turn"; None for other shapes."""
    m = SUBJECT.fullmatch(what)
    if m is None or len(seats) != 1 or int(m["seat"]) != seats[0]:
        return None
    task = m["task"]
    return m["role"], "" if task in NOTHING_MORE else task


def legacy_task(wait: "Wait", names: Sequence[str]) -> "Task":
    """The `Task` of a wait whose `what` is English text with seat references (the toy game's, and any game's
    until its presentation words its own codes)."""
    from bot.post import Task

    found = subject_task(wait.what, wait.seats)
    if found is not None:
        role, task = found
        return Task(render(task, names), role)
    return Task(render(wait.what, names), None, tuple(seats_in(wait.what)))


def _possessive(text: str, word: str) -> str:
    return re.sub(r"\b(their|your)\b", word, text)


def awaited(
    what: str,
    seats: Sequence[int],
    names: Sequence[str],
    mention: Callable[[int], str],
    ping: Collection[int],
    kind: str | None = "turn",
) -> str:
    """The prompt in the thread, spoken to the awaited: the seats in `ping` mentioned, the others by name. One seat:
    "@anna, your turn: open the deal or roll" (a turn) or "@anna: contest bert's objection or withdraw"; several:
    "@anna, @bert: STOP or pass on cleo's travel card"."""
    shown = [mention(i) if i in ping and i in seats else n for i, n in enumerate(names)]
    found = subject_task(what, seats)
    if found is not None:
        role, task = found
        who = shown[seats[0]] if seats[0] < len(shown) else f"seat {seats[0] + 1}"
        head = f"{who}, your turn" + (f" as the {role}" if role else "")
        if kind != "turn" and not role:
            head = who
        return f"{head}: {render(_possessive(task, 'your'), shown)}" if task else head
    named = set(seats_in(what))
    lead = ", ".join(shown[s] if s < len(shown) else f"seat {s + 1}" for s in seats if s not in named)
    body = render(what, shown)
    if lead and len(seats) == 1 and kind == "turn":
        return f"{lead}, your turn: {body}"
    return f"{lead}: {body}" if lead else body


def waiting_line(what: str, seats: Sequence[int], names: Sequence[str], kind: str | None = "turn") -> str:
    """What the table waits for, about the awaited (the status, `/game help`), naming each once in bold:
    "**anna**'s turn: open the deal or roll", "Waiting on **anna** to contest bert's objection or withdraw",
    "Waiting on **anna**, **bert**: STOP or pass on cleo's travel card"."""
    found = subject_task(what, seats)
    if found is not None:
        role, task = found
        name = names[seats[0]] if seats[0] < len(names) else f"seat {seats[0] + 1}"
        if kind == "turn" or role:
            head = f"**{name}**'s turn" + (f" (the {role})" if role else "")
            return f"{head}: {render(task, names)}" if task else head
        return f"Waiting on **{name}** to {render(task, names)}"
    who = ", ".join(f"**{names[s]}**" if s < len(names) else f"seat {s + 1}" for s in seats) or "—"
    body = render(what if seats_in(what) else _possessive(what, "their"), names)
    if len(seats) == 1 and kind == "turn":
        return f"{who}'s turn: {body}"
    return f"Waiting on {who}: {body}"


def for_the_player(what: str, seat: int) -> str:
    """`what` as said to the awaited player themselves, after "waiting for you": "{seat:3} to open the deal" reads
    "to open the deal", and any other reference to them is "you" (other seats' references stay, for rendering)."""
    own = f"{{seat:{seat}}}"
    found = subject_task(what, [seat])
    if found is not None:
        _role, task = found
        return f"to {_possessive(task, 'your')}" if task else "to take your turn"
    if what.startswith(own + " "):
        return what.removeprefix(own + " ")
    return f"— {what.replace(own, 'you')}"


def your_task(what: str, seat: int) -> str:
    """`what` for the awaited player's own eyes, without their name: "open the deal or roll" (`/game help`)."""
    found = subject_task(what, [seat])
    if found is not None:
        role, task = found
        task = _possessive(task, "your")
        return (f"as the {role}, {task}" if role else task) or "take your turn"
    return what.replace(f"{{seat:{seat}}}", "you")
