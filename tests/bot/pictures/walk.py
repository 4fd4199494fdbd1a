"""Seeded random games for the picture tests and the benchmark: every state a game goes through, from set-up on.

KKK, Casablanca and Schwarzmarkt use their engines' own random players (weighted so that games progress); Kesse Rügen a
plain uniform choice among the legal moves of the seats awaited, with a deadline passing now and then. A kind here is a
game and its options: "casablanca_hq" is Casablanca's HQ variant.
"""

import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

from engine.registry import get as load_game

START = datetime(2026, 1, 1, tzinfo=UTC)
SEATS = {"kkk": 4, "kesse_ruegen": 3, "schwarzmarkt": 4, "casablanca": 5, "casablanca_hq": 3}
GAMES = {"casablanca_hq": "casablanca"}
"""The game of a kind that is a game with options."""
OPTIONS: dict[str, dict[str, Any]] = {"casablanca_hq": {"variant": "hq"}}


def game_of(kind: str) -> Any:
    return load_game(GAMES.get(kind, kind))


def game_kind(kind: str) -> str:
    """The registry's name of the game (and its presentation's)."""
    return GAMES.get(kind, kind)


def states(kind: str, seed: int, steps: int = 400) -> Iterator[Any]:
    """The states of one seeded game: set-up, then after each of up to `steps` actions."""
    game = game_of(kind)
    if kind == "kkk":
        yield from _kkk(game, seed, steps)
        return
    if game_kind(kind) == "casablanca":
        yield from _casablanca(game, kind, seed, steps)
        return
    rnd = random.Random(seed)
    now = START
    state = game.setup(SEATS[kind], game.parse_options(OPTIONS.get(kind, {})), seed, now)
    yield state
    for _ in range(steps):
        if game.result(state) is not None:
            return
        waits = game.waiting_on(state)
        moves = [(s, a) for w in waits for s in w.seats for a in game.legal_actions(state, s)]
        timeouts = game.legal_actions(state, None)
        if timeouts and (not moves or rnd.random() < 0.04):
            actor, action = None, rnd.choice(timeouts)
            now = max(now, min(w.until for w in waits)) if waits else now
        elif moves:
            actor, action = rnd.choice(moves)
        else:
            return
        now += timedelta(minutes=rnd.randint(1, 60))
        state = game.apply(state, actor, action, now).state
        yield state


def _kkk(game: Any, seed: int, steps: int) -> Iterator[Any]:
    from engine.kkk import randomplay

    seen: list[Any] = []
    played = randomplay.play(
        game, SEATS["kkk"], seed, max_actions=steps, on_step=lambda _s, _a, _x, out, _n: seen.append(out.state)
    )
    yield game.setup(SEATS["kkk"], played.state.options, seed, randomplay.START)
    yield from seen


def _casablanca(game: Any, kind: str, seed: int, steps: int) -> Iterator[Any]:
    from engine.casablanca import randomplay

    options = game.parse_options(OPTIONS.get(kind, {}))
    yield game.setup(SEATS[kind], options, seed, randomplay.START)
    seen: list[Any] = []
    randomplay.play(
        game,
        SEATS[kind],
        seed,
        options=options,
        max_actions=steps,
        on_step=lambda _s, _a, _x, out, _n: seen.append(out.state),
    )
    yield from seen
