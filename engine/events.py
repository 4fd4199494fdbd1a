"""What `apply` tells the world, and what a game is waiting for.

An `Event` says who may see it: `to=None` is public, otherwise only the listed seats. Hidden information leaves
the engine only in events addressed to its owner (and in `Game.view` for that seat). Its `text` is one short line
of narration with seat references (`engine.text`), ready for the table; `kind` and `data` are for renderers and
tests.

A `Wait` is one thing the game waits for: who, for what, since when and until when, and the system action that
the scheduler applies when the deadline passes.
"""

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue


class Event(BaseModel):
    model_config = ConfigDict(frozen=True)

    kind: str
    text: str = ""
    data: dict[str, JsonValue] = Field(default_factory=dict)
    to: tuple[int, ...] | None = None
    reveals: bool = False
    """True when the event makes public something that was hidden (a reveal cannot be undone honestly)."""

    @property
    def public(self) -> bool:
        return self.to is None

    def visible_to(self, seat: int | None) -> bool:
        """Whether `seat` (None: an onlooker) may see this event."""
        return self.to is None or (seat is not None and seat in self.to)


def public(kind: str, text: str = "", **data: JsonValue) -> Event:
    return Event(kind=kind, text=text, data=data)


def private(seats: int | tuple[int, ...], kind: str, text: str = "", **data: JsonValue) -> Event:
    to = (seats,) if isinstance(seats, int) else tuple(seats)
    return Event(kind=kind, text=text, data=data, to=to)


WaitKind = Literal["turn", "reaction"]


class Wait(BaseModel):
    """One thing the game waits for. `timeout` is the game's system action (a model, dumped to JSON)."""

    model_config = ConfigDict(frozen=True)

    seats: tuple[int, ...]
    what: str
    """What the awaited are to do: a code of the game's (the bot words it, `Presentation.wait_task`)."""
    about: dict[str, JsonValue] = Field(default_factory=dict)
    """The values the words of `what` need (e.g. the seat whose travel card is on the table)."""
    kind: WaitKind
    since: datetime
    until: datetime
    timeout: Any
    """The action applied with actor None at `until`; games make it refuse itself once stale."""
