"""Shared test helpers: a prepared table, a player that applies actions, and refusal checks."""

from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from engine.errors import RuleError
from engine.events import Event
from engine.kkk.cards import DECK_COUNTS, FAMILIES
from engine.kkk.options import KkkOptions
from engine.kkk.rules import KKK
from engine.kkk.state import KkkState
from engine.kkk.waits import refresh
from engine.rng import Rng

NOW = datetime(2025, 1, 1, tzinfo=UTC)
GAME = KKK()


def rng_for_face(face: int) -> Rng:
    """A generator whose next die roll is `face` (found by trying seeds: a test's set-up, not a result)."""
    for seed in range(1000):
        if Rng.from_seed(seed).randint(1, 6) == face:
            return Rng.from_seed(seed)
    raise AssertionError("no seed found")


def prepared(
    seats: int,
    investors: dict[str, int | None],
    hands: list[list[str]],
    *,
    deals: int = 0,
    marker: int = 1,
    turn: int = 0,
    done_spaces: list[int] | None = None,
    money: list[int] | None = None,
    options: KkkOptions | None = None,
) -> KkkState:
    """A table mid-game: given investors, hands, `deals` tiles already placed (on `done_spaces`, by default the
    first spaces other than the marker's), the marker, and `turn` to move. Every other card is in the draw pile."""
    state = GAME.setup(seats, options or KkkOptions(), 7, NOW)
    assert set(investors) == set(FAMILIES)
    state.investors = dict(investors)
    state.hands = [sorted(h) for h in hands]
    rest = DECK_COUNTS - Counter(c for h in hands for c in h)
    assert all(v >= 0 for v in rest.values())
    state.draw = sorted(rest.elements())
    state.rng.shuffle(state.draw)
    state.discard = []
    if done_spaces is None:
        done_spaces = [n for n in range(1, 17) if n != marker][:deals]
    assert len(done_spaces) == deals and marker not in done_spaces
    state.tiles = [None] * 16
    for i, n in enumerate(done_spaces):
        state.tiles[n - 1] = i + 1
    state.deals = deals
    state.marker = marker
    state.phase = "turn"
    state.turn = turn
    state.money = list(money) if money else [0] * seats
    state.paid_out = sum(state.money)
    state.deadline = None
    refresh(state, NOW)
    return state


def snapshot(state: KkkState) -> str:
    return GAME.dump_state(state)


class Table:
    """Applies actions to a state one by one, keeping the events; time moves a second per action."""

    def __init__(self, state: KkkState) -> None:
        self.state = state
        self.now = NOW
        self.events: list[Event] = []

    def __call__(self, actor: int | None, action: Any) -> list[Event]:
        self.now += timedelta(seconds=1)
        out = GAME.apply(self.state, actor, action, self.now)
        self.state = out.state
        self.events += out.events
        return out.events

    def refused(self, actor: int | None, action: Any, match: str) -> str:
        """Assert that `action` is refused with a fallback message `code(values…)` matching `match` (a regular
        expression) and changes nothing."""
        before = snapshot(self.state)
        with pytest.raises(RuleError, match=match) as info:
            GAME.apply(self.state, actor, action, self.now + timedelta(seconds=1))
        assert snapshot(self.state) == before
        # Stronger than apply's copy: the rule itself checks everything before it changes anything.
        work = GAME.copy_state(self.state)
        with pytest.raises(RuleError):
            GAME.step(work, actor, action, self.now + timedelta(seconds=1))
        assert snapshot(work) == before
        return info.value.message

    def timeout(self) -> list[Event]:
        """Let the current deadline pass."""
        [wait] = GAME.waiting_on(self.state)
        self.now = wait.until
        out = GAME.apply(self.state, None, wait.timeout, self.now)
        self.state = out.state
        self.events += out.events
        return out.events
