"""A seeded random player over `legal_actions`, for the benchmark and fuzzing.

Each step it picks who acts (the game waits on one seat at a time), now and then lets the deadline pass instead
(a system timeout), and otherwise picks a kind of move first — trade, don't trade, play, choose — then one of that
kind, so a trade is as likely as the several ways of not trading and games end in a few hundred actions.
Deterministic for a given seed; it uses its own `random.Random`, never the game's generator.
"""

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from engine.schwarzmarkt.rules import Schwarzmarkt
from engine.schwarzmarkt.state import SchwarzmarktState

START = datetime(2026, 1, 1, tzinfo=UTC)
TIMEOUT_CHANCE = 0.05


@dataclass
class Played:
    state: SchwarzmarktState
    log: list[tuple[int | None, Any]] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return self.state.phase == "over"


def choose(game: Schwarzmarkt, state: SchwarzmarktState, chance: random.Random) -> tuple[int | None, Any]:
    timeouts = game.legal_actions(state, None)
    seat = state.turn
    moves = game.legal_actions(state, seat)
    if not moves or chance.random() < TIMEOUT_CHANCE:
        return None, chance.choice(timeouts)
    kinds: dict[str, list[Any]] = {}
    for m in moves:
        kinds.setdefault(f"{m.type}{bool(getattr(m, 'cards', ()))}", []).append(m)
    return seat, chance.choice(chance.choice(list(kinds.values())))


def play(game: Schwarzmarkt, seats: int, seed: int, max_actions: int = 5000) -> Played:
    """A whole random game (or `max_actions` of it)."""
    chance = random.Random(seed)
    now = START
    state = game.setup(seats, game.parse_options({}), seed, now)
    played = Played(state)
    for _ in range(max_actions):
        if state.phase == "over":
            break
        actor, action = choose(game, state, chance)
        now += timedelta(minutes=chance.randint(1, 90))
        state = game.apply(state, actor, action, now).state
        played.log.append((actor, action))
    played.state = state
    return played
