"""What a presentation is handed: the `Table` (a game as loaded: engine, record, seats, state and deadlines, with
the views and names computed once per state), and the lines every game's status shares (`waiting_lines`, Discord
`timestamp`s).
"""

import importlib
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from bot.awaiting import about_words, same_task
from bot.i18n import current, speaking
from bot.i18n.platform import _
from bot.names import plain, shown
from engine.events import Wait
from engine.game import Game, Result
from engine.text import render
from storage.models import GameRecord, SeatRecord

if TYPE_CHECKING:
    from bot.presentation import Presentation


@dataclass
class Table:
    """Everything a presentation may look at: the engine, the game's record and seats, and (once started) its state.

    `waits` holds the engine's waits with the platform's effective deadlines (after pauses and extensions)."""

    game: Game  # type: ignore[type-arg]
    record: GameRecord
    seats: list[SeatRecord]
    state: BaseModel | None
    now: datetime
    deadlines: dict[int, datetime] = field(default_factory=dict)
    """Effective deadline per index into `waits`."""
    lobby_max: int | None = None
    memo: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)
    """What was computed from this table's state (keyed by the state object): waits, views and fingerprints,
    computed once per state and seat."""
    moved: dict[int, list[int]] = field(default_factory=dict)
    """The waits (index into `waits`) whose deadline an awaited player's quiet hours moved, with those seats."""
    words: "Presentation | None" = field(default=None, repr=False, compare=False)
    """The game's presentation, if the caller has it (else `presentation` finds it by the game's name)."""

    @property
    def presentation(self) -> "Presentation":
        """The game's presentation: the one this table was made with, else the game's package's (the generic one
        for a game without a package)."""
        if self.words is None:
            # Looked up by name, not imported: `bot.games` imports this module (through `bot.presentation`).
            self.words = importlib.import_module("bot.games").load_presentation(self.record.kind)
        return self.words

    @property
    def names(self) -> list[str]:
        """Each seat's name as shown (computed once per table: a table's seats and state don't change)."""
        key = ("names", id(self.state), current())
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = self._names()
        return list(found)

    def _names(self) -> list[str]:
        count = self.game.seat_count(self.state) if self.state is not None else len(self.seats)
        names = [_("seat %(n)d", n=n + 1) for n in range(count)]
        for s in self.seats:
            if s.seat < len(names):
                names[s.seat] = shown(s.display_name) if s.display_name else names[s.seat]
                if s.autopilot and not s.bot:  # a computer player's name carries its 🤖 already
                    names[s.seat] = _("%(name)s (autopilot)", name=names[s.seat])
        return names

    def view(self, seat: int | None) -> BaseModel:
        """`game.view(state, seat)` (None: the public view), computed once per table and seat. Callers must not
        change it."""
        assert self.state is not None
        key = ("view", seat, id(self.state))
        found = self.memo.get(key)
        if found is None:
            if seat is None:
                found = self.game.view(self.state, None)
            else:
                found = self.game.seat_view(self.state, seat, self.view(None))
            self.memo[key] = found
        return found

    def plain_name(self, seat: int) -> str:
        """The seat's name for text shown as typed (a footer, a title): see `bot.names`."""
        held = next((s.display_name for s in self.seats if s.seat == seat and s.display_name), None)
        return plain(held) if held else _("seat %(n)d", n=seat + 1)

    def render(self, text: str) -> str:
        return render(text, self.names)

    def mention(self, seat: int) -> str:
        for s in self.seats:
            if s.seat == seat and s.player_id is not None and not s.autopilot:  # the autopilot needs no ping
                return f"<@{s.player_id}>"
        return self.names[seat] if seat < len(self.names) else _("seat %(n)d", n=seat + 1)

    @property
    def waits(self) -> list[Wait]:
        key = ("waits", id(self.state))
        waits = self.memo.get(key)
        if waits is None:
            waits = self.memo[key] = self.game.waiting_on(self.state) if self.state is not None else []
        return waits

    def deadline(self, index: int, wait: Wait) -> datetime:
        return self.deadlines.get(index, wait.until)

    @property
    def language(self) -> str:
        """The table's language (`/game new language:`): what it shows publicly is said in it (`bot.i18n`)."""
        return language_of(self.record)

    @property
    def title(self) -> str:
        return f"{self.game.title} #{self.record.id}"

    @property
    def result(self) -> Result | None:
        return self.game.result(self.state) if self.state is not None else None


def language_of(record: GameRecord) -> str:
    """The language of a game's table (`/game new language:`, the game's `options["language"]`; English if none)."""
    return str(record.options.get("language") or "en")


def speaking_at(record: GameRecord) -> AbstractContextManager[None]:
    """`with speaking_at(record):` — word what the table thread shows in the table's language (`bot.i18n`)."""
    return speaking(language_of(record))


def waiting_lines(table: Table, deadline: str | None = None, *, untimed: tuple[str, ...] = ()) -> list[str]:
    """The status's "⏳" lines: whom the table waits for and for what, each awaited player named once
    (`bot.awaiting.about_words`), with the deadline unless a moderator paused the game (or the wait's kind is in
    `untimed`: a presentation that shows that deadline on a line of its own). `deadline`: what goes between the
    line and the deadline (default " — deadline ")."""
    # Several waits for the same thing by the same deadline (each duellist's fist) are one line naming them all.
    merged: list[tuple[Wait, datetime, list[int], list[int]]] = []
    for i, wait in enumerate(table.waits):
        due = table.deadline(i, wait)
        found = next((m for m in merged if m[1] == due and same_task(m[0], wait)), None)
        if found is None:
            found = (wait, due, [], [])
            merged.append(found)
        found[2].extend(s for s in wait.seats if s not in found[2])
        found[3].extend(s for s in table.moved.get(i, ()) if s not in found[3])
    lines = []
    for wait, due, seats, quiet in merged:
        shown = wait if list(wait.seats) == seats else wait.model_copy(update={"seats": tuple(seats)})
        words = about_words(table, shown, table.names)
        if table.record.status == "paused" or wait.kind in untimed:
            lines.append(f"⏳ {words}")
            continue
        if quiet:
            whose = ", ".join(table.names[s] for s in quiet if s < len(table.names))
            if deadline is None:
                line = _(
                    "%(waiting)s — deadline %(when)s (🌙 moved to the end of %(whose)s's quiet hours)",
                    waiting=words,
                    when=moment(due),
                    whose=whose,
                )
            else:
                line = _(
                    "%(waiting)s%(sep)s%(when)s (🌙 moved to the end of %(whose)s's quiet hours)",
                    waiting=words,
                    sep=deadline,
                    when=moment(due),
                    whose=whose,
                )
        elif deadline is None:
            line = _("%(waiting)s — deadline %(when)s", waiting=words, when=moment(due))
        else:
            line = f"{words}{deadline}{moment(due)}"
        lines.append(f"⏳ {line}")
    return lines


def timestamp(when: datetime, style: str = "R") -> str:
    """A Discord timestamp: every reader sees it in their own time zone ("in 3 hours", "Monday 14:00")."""
    return f"<t:{int(when.timestamp())}:{style}>"


def moment(when: datetime) -> str:
    """A deadline as every reader wants it: the date and time on their own clock, and how far off it is."""
    return f"{timestamp(when, 'f')} ({timestamp(when)})"
