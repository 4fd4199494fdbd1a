"""Shared set-up for the Casablanca engine tests: a game, a clock, and a table that plays actions in order."""

from datetime import UTC, datetime, timedelta
from typing import Any

from engine.casablanca.actions import Bribe, Contest, Hit, Move, NoObjection, Object, Timeout
from engine.casablanca.rules import Casablanca
from engine.casablanca.state import CasablancaState
from engine.events import Event

GAME = Casablanca()
T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

# Agent indexes of the default map, by colour.
GREEN, PURPLE, BLUE, WHITE, RED, BROWN, YELLOW, GREY = range(8)


def new_game(seats: int = 3, *, variant: str = "main", first: int | None = 0, seed: int = 7, **options: Any):
    if variant == "main" and first is not None:
        options["first_seat"] = first
    return GAME.setup(seats, GAME.parse_options({"variant": variant, **options}), seed, T0)


class Table:
    """A game being played: `do` applies an action (as a seat, or the clock for a Timeout) and keeps the events."""

    def __init__(self, state: CasablancaState) -> None:
        self.state = state
        self.now = T0
        self.events: list[Event] = []
        self.log: list[tuple[int | None, Any, datetime]] = []

    def do(self, seat: int | None, action: Any) -> list[Event]:
        self.now += timedelta(seconds=1)
        out = GAME.apply(self.state, seat, action, self.now)
        self.state = out.state
        self.events += out.events
        self.log.append((seat, action, self.now))
        return out.events

    def timeout(self) -> list[Event]:
        wait = GAME.waiting_on(self.state)[0]
        self.now = max(self.now, wait.until)
        out = GAME.apply(self.state, None, wait.timeout, self.now)
        self.state = out.state
        self.events += out.events
        self.log.append((None, wait.timeout, self.now))
        return out.events

    def bribe(self, seat: int, **amounts: int) -> list[Event]:
        return self.do(seat, Bribe(amounts=amounts))

    def move(self, seat: int, agent: str, to: str, suitcase: bool = False) -> list[Event]:
        return self.do(seat, Move(agent=agent, to=to, suitcase=suitcase))

    def hit(self, seat: int, agent: str, victim: str) -> list[Event]:
        return self.do(seat, Hit(agent=agent, victim=victim))

    def nobody_objects(self) -> list[Event]:
        """Every seat asked answers No objection (the window then closes by itself)."""
        out: list[Event] = []
        for s in list(self.state.awaited):
            if s not in self.state.answered:
                out += self.do(s, NoObjection())
        return out

    def objections(self, limits: dict[int, int | None]) -> list[Event]:
        """Each seat asked answers: a limit objects, None doesn't."""
        out: list[Event] = []
        for s in list(self.state.awaited):
            limit = limits.get(s)
            out += self.do(s, NoObjection() if limit is None else Object(limit=limit))
        return out

    def contest(self, limit: int) -> list[Event]:
        return self.do(self.state.turn, Contest(limit=limit))

    def texts(self, events: list[Event] | None = None, seat: int | None = None) -> list[str]:
        return [e.text for e in (self.events if events is None else events) if e.visible_to(seat)]

    def public_kinds(self, events: list[Event]) -> list[str]:
        return [e.kind for e in events if e.public]


def opened(seats: int = 3, **bribes_by_seat: dict[str, int]) -> Table:
    """A main game in which every seat, from seat 0, has made its first bribe (given per seat as s0=…, s1=…;
    anyone not given puts $100 on green, purple and blue)."""
    table = Table(new_game(seats))
    for s in range(seats):
        amounts = bribes_by_seat.get(f"s{s}", {"green": 100, "purple": 100, "blue": 100})
        table.do(s, Bribe(amounts=amounts))
    assert table.state.turn == 0
    return table


def clock_key(state: CasablancaState) -> str:
    waits = GAME.waiting_on(state)
    assert len(waits) == 1
    timeout = waits[0].timeout
    assert isinstance(timeout, Timeout)
    return timeout.key
