"""What a presentation is handed: the `Table` (a game as loaded: engine, record, seats, state and deadlines, with
the views and names computed once per state), and the lines every game's status shares (`waiting_lines`, Discord
`timestamp`s).
"""

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pydantic import BaseModel

from bot.awaiting import waiting_line
from bot.names import plain, shown
from engine.events import Wait
from engine.game import Game, Result
from engine.text import render
from storage.models import GameRecord, SeatRecord


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

    @property
    def names(self) -> list[str]:
        """Each seat's name as shown (computed once per table: a table's seats and state don't change)."""
        key = ("names", id(self.state))
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = self._names()
        return list(found)

    def _names(self) -> list[str]:
        count = self.game.seat_count(self.state) if self.state is not None else len(self.seats)
        names = [f"seat {n + 1}" for n in range(count)]
        for s in self.seats:
            if s.seat < len(names):
                names[s.seat] = shown(s.display_name) if s.display_name else names[s.seat]
                if s.autopilot and not s.bot:  # a computer player's name carries its 🤖 already
                    names[s.seat] += " (autopilot)"
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
        return plain(held) if held else f"seat {seat + 1}"

    def render(self, text: str) -> str:
        return render(text, self.names)

    def mention(self, seat: int) -> str:
        for s in self.seats:
            if s.seat == seat and s.player_id is not None and not s.autopilot:  # the autopilot needs no ping
                return f"<@{s.player_id}>"
        return self.names[seat] if seat < len(self.names) else f"seat {seat + 1}"

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
        return str(self.record.options.get("language") or "en")

    @property
    def title(self) -> str:
        return f"{self.game.title} #{self.record.id}"

    @property
    def result(self) -> Result | None:
        return self.game.result(self.state) if self.state is not None else None


def waiting_lines(table: Table, deadline: str = " — deadline ", *, untimed: tuple[str, ...] = ()) -> list[str]:
    """The status's "⏳" lines: whom the table waits for and for what, each awaited player named once
    (`bot.awaiting.waiting_line`), with the deadline unless a moderator paused the game (or the wait's kind is in
    `untimed`: a presentation that shows that deadline on a line of its own)."""
    # Several waits for the same thing by the same deadline (each duellist's fist) are one line naming them all.
    merged: dict[tuple[str, str, datetime], list[int]] = {}
    quiet: dict[tuple[str, str, datetime], list[int]] = {}
    for i, wait in enumerate(table.waits):
        key = (wait.what, wait.kind, table.deadline(i, wait))
        merged.setdefault(key, []).extend(wait.seats)
        quiet.setdefault(key, []).extend(s for s in table.moved.get(i, ()) if s not in quiet[key])
    lines = []
    for key, seats in merged.items():
        what, kind, due = key
        when = "" if table.record.status == "paused" or kind in untimed else f"{deadline}{moment(due)}"
        if when and quiet[key]:
            whose = ", ".join(table.names[s] for s in quiet[key] if s < len(table.names))
            when += f" (🌙 moved to the end of {whose}'s quiet hours)"
        lines.append(f"⏳ {waiting_line(what, seats, table.names, kind)}{when}")
    return lines


def timestamp(when: datetime, style: str = "R") -> str:
    """A Discord timestamp: every reader sees it in their own time zone ("in 3 hours", "Monday 14:00")."""
    return f"<t:{int(when.timestamp())}:{style}>"


def moment(when: datetime) -> str:
    """A deadline as every reader wants it: the date and time on their own clock, and how far off it is."""
    return f"{timestamp(when, 'f')} ({timestamp(when)})"
