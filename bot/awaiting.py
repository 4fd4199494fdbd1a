"""Who the table waits for, in words: the "⏳" line after an action, the status's and `/game help`'s waiting lines,
the reminder, and the DM a player gets.

A wait's `what` is the game's code (its values in `about`); the game's presentation words it as a `Task`
(`Presentation.wait_task`: the task as an instruction to the awaited, the role they play in it, the seats it names),
and this module puts the task into the platform's own sentences — the only place a wait is worded:

- `prompt_words` (the thread, spoken to the awaited): "@anna, your turn: open the deal or roll", "@anna, your turn as
  the Boss: close the deal", "@anna, @bert: STOP or pass on cleo's travel card";
- `about_words` (the status, `/game help`, spoken about them): "**anna**'s turn: open the deal or roll", "Waiting on
  **anna**, **bert**: STOP or pass on cleo's travel card";
- `own_words` (a DM, `/mine`, the hand's prompt, without their name): "your turn: open the deal or roll".

Who is *mentioned* (and so pinged) is decided by the caller: everyone awaited, except the player whose own action
led to the wait (never ping someone for the continuation of what they just did) — they are named, not mentioned.

A wait stored in a payload (outbox rows, timers) keeps `what`, `about`, `seats`, `kind` and its deadline
(`wait_data`) and is worded at delivery, in the language spoken then (`stored_wait` rebuilds it; payloads of older
databases have no `about`). Two waits are for "the same thing" when their `what` and `about` are equal (`same_task`).

The default hook (`legacy_task`) reads the English texts with seat references of the toy game and of any game whose
presentation does not word its codes yet: "{seat:2} to open the deal or roll", "the Boss {seat:1} to close the deal",
"place your pawn on a free field", "STOP or pass on {seat:0}'s travel card".
"""

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from bot.i18n import current
from bot.i18n.platform import _
from engine.events import Wait
from engine.text import render, seats_in

if TYPE_CHECKING:
    from bot.post import Task
    from bot.table import Table

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


def legacy_task(wait: Wait, names: Sequence[str]) -> "Task":
    """The `Task` of a wait whose `what` is English text with seat references (the toy game's, and any game's
    until its presentation words its own codes): an instruction to the awaited ("play your card")."""
    from bot.post import Task

    if re.fullmatch(r"[a-z][a-z0-9_]*", wait.what):  # a game's code, with no presentation to word it: its words
        return Task(wait.what.replace("_", " "))
    found = subject_task(wait.what, wait.seats)
    if found is not None:
        role, task = found
        return Task(render(_possessive(task, "your"), names), role)
    return Task(render(wait.what, names), None, tuple(seats_in(wait.what)))


def _possessive(text: str, word: str) -> str:
    return re.sub(r"\b(their|your)\b", word, text)


# --- asking the game ---------------------------------------------------------------------------------------


def task_of(table: "Table", wait: Wait, names: Sequence[str]) -> "Task":
    """The game's words for what `wait` asks, `names` standing for the seats (`Presentation.wait_task`)."""
    return table.presentation.wait_task(table, wait, names)


def wait_data(wait: Wait, deadline: datetime | None = None) -> dict[str, Any]:
    """What a payload keeps of a wait to word it later (`stored_wait`)."""
    data: dict[str, Any] = {"seats": list(wait.seats), "what": wait.what, "about": dict(wait.about), "kind": wait.kind}
    if deadline is not None:
        data["deadline"] = deadline.isoformat()
    return data


def stored_wait(data: Mapping[str, Any], *, what: str = "what", kind: str = "kind") -> Wait:
    """The `Wait`-like value a payload keeps (`wait_data`, or a timer's `what`/`wait_kind`), to ask the game's words
    at delivery: seats, what, about ({} in payloads of older databases), kind and its deadline."""
    due = data.get("deadline")
    when = datetime.fromisoformat(due) if isinstance(due, str) else datetime.min
    return Wait.model_construct(
        seats=tuple(int(s) for s in data.get("seats", ())),
        what=str(data.get(what, "")),
        about=dict(data.get("about") or {}),
        kind=data.get(kind) or "turn",
        since=when,
        until=when,
        timeout=None,
    )


def same_task(a: Wait, b: Wait) -> bool:
    """Whether two waits ask the same thing (the same kind, `what` and `about`)."""
    return a.kind == b.kind and a.what == b.what and dict(a.about) == dict(b.about)


# --- the platform's sentences --------------------------------------------------------------------------------


def _about(text: str) -> str:
    """An instruction turned into words about the awaited ("play your card" → "play their card"): English only,
    the other languages' tasks are worded to read either way."""
    return _possessive(text, "their") if current() == "en" else text


def _seat(names: Sequence[str], s: int) -> str:
    return names[s] if 0 <= s < len(names) else _("seat %(n)d", n=s + 1)


def prompt_words(
    table: "Table",
    wait: Wait,
    names: Sequence[str],
    mention: Callable[[int], str],
    ping: Collection[int],
) -> str:
    """The prompt in the thread, spoken to the awaited: the seats in `ping` mentioned, the others by name. One seat:
    "@anna, your turn: open the deal or roll" (a turn) or "@anna: contest bert's objection or withdraw"; several:
    "@anna, @bert: STOP or pass on cleo's travel card"."""
    seats = list(wait.seats)
    shown = [mention(i) if i in ping and i in seats else n for i, n in enumerate(names)]
    task = task_of(table, wait, shown)
    lead = [s for s in seats if s not in task.named] or ([] if task.named else seats)
    who = ", ".join(_seat(shown, s) for s in lead)
    if who and len(seats) == 1 and (wait.kind == "turn" or task.role):
        if task.role:
            if task.task:
                return _("%(who)s, your turn as the %(role)s: %(task)s", who=who, role=task.role, task=task.task)
            return _("%(who)s, your turn as the %(role)s", who=who, role=task.role)
        if task.task:
            return _("%(who)s, your turn: %(task)s", who=who, task=task.task)
        return _("%(who)s, your turn", who=who)
    if who and task.task:
        return _("%(who)s: %(task)s", who=who, task=task.task)
    return who or task.task


def about_words(table: "Table", wait: Wait, names: Sequence[str]) -> str:
    """What the table waits for, about the awaited (the status, `/game help`), naming each once in bold:
    "**anna**'s turn: open the deal or roll", "**anna**'s turn (the Boss): close the deal", "Waiting on **anna**,
    **bert**: STOP or pass on cleo's travel card"."""
    seats = list(wait.seats)
    task = task_of(table, wait, names)
    lead = [s for s in seats if s not in task.named] or seats
    body = _about(task.task)
    if len(seats) == 1 and (wait.kind == "turn" or task.role):
        name = _seat(names, seats[0])
        if task.role:
            if body:
                return _("**%(name)s**'s turn (the %(role)s): %(task)s", name=name, role=task.role, task=body)
            return _("**%(name)s**'s turn (the %(role)s)", name=name, role=task.role)
        if body:
            return _("**%(name)s**'s turn: %(task)s", name=name, task=body)
        return _("**%(name)s**'s turn", name=name)
    who = ", ".join(f"**{_seat(names, s)}**" for s in lead) or "—"
    if body:
        return _("Waiting on %(who)s: %(task)s", who=who, task=body)
    return _("Waiting on %(who)s", who=who)


def own_words(table: "Table", wait: Wait, names: Sequence[str]) -> str:
    """What the table waits on a player for, said to them without their name (a DM, `/mine`, a reminder):
    "your turn: open the deal or roll", "your turn as the Boss: close the deal", "STOP or pass on anna's 5"."""
    task = task_of(table, wait, names)
    if task.role:
        if task.task:
            return _("your turn as the %(role)s: %(task)s", role=task.role, task=task.task)
        return _("your turn as the %(role)s", role=task.role)
    if wait.kind != "turn":
        return task.task or _("your turn")
    return _("your turn: %(task)s", task=task.task) if task.task else _("your turn")


def help_words(table: "Table", wait: Wait, names: Sequence[str]) -> str:
    """The task for the awaited player's own eyes after "The game waits for you:" (`/game help`)."""
    task = task_of(table, wait, names)
    if task.role:
        if task.task:
            return _("as the %(role)s, %(task)s", role=task.role, task=task.task)
        return _("as the %(role)s", role=task.role)
    return task.task or _("take your turn")
