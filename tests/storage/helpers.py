"""What the bot's game service does, reduced to the calls storage sees: start a game, commit an action with its
timers and outbox rows, undo as a moderator, and play random steps (with the occasional undo and note)."""

import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from engine.game import Game
from replay import replay_game
from storage import CommitResult, GameStore, NewLogEntry, NewOutbox, NewSeat, NewTimer, StaleVersion

T0 = datetime(2025, 3, 1, 18, 0, tzinfo=UTC)

Chooser = Callable[[Any, random.Random], tuple[int | None, Any] | None]
"""Picks the next (actor, action) for a state, or None when nothing can be played."""


def timers_for(game: Game[Any, Any], state: Any, version: int) -> list[NewTimer]:
    return [
        NewTimer(kind="deadline", due_at=w.until, payload={"action": w.timeout, "version": version, "seats": w.seats})
        for w in game.waiting_on(state)
    ]


async def start(
    store: GameStore,
    game: Game[Any, Any],
    *,
    seats: int = 3,
    seed: int = 7,
    options: dict[str, Any] | None = None,
    at: datetime = T0,
) -> int:
    record = await store.games.create(game.name, guild_id=10, channel_id=20, thread_id=30 + seed, options=options)
    state = game.setup(seats, game.parse_options(options), seed, at)
    result = await store.games.start(
        record.id,
        seed=seed,
        setup_at=at,
        seats=[NewSeat(seat=i, player_id=1000 + i, display_name=f"P{i}") for i in range(seats)],
        snapshot=game.dump_state(state),
        timers=timers_for(game, state, 0),
        outbox=[NewOutbox(kind="post", target={"thread_id": 30 + seed}, payload={"text": "The game begins."})],
    )
    assert result.version == 0
    return record.id


async def commit_action(
    store: GameStore,
    game: Game[Any, Any],
    game_id: int,
    version: int,
    state: Any,
    actor: int | None,
    action: Any,
    at: datetime,
) -> CommitResult:
    """Apply and commit one action as the bot would; StaleVersion propagates."""
    outcome = game.apply(state, actor, action, at)
    return await store.games.commit(
        game_id,
        version,
        NewLogEntry.for_action(actor, game.dump_action(action), at, outcome.events, user_id=actor),
        game.dump_state(outcome.state),
        status="finished" if game.result(outcome.state) is not None else None,
        timers=timers_for(game, outcome.state, version + 1),
        outbox=[
            NewOutbox(kind="post" if e.public else "dm", target={"seats": e.to}, payload={"text": e.text})
            for e in outcome.events
        ],
    )


async def commit_undo(
    store: GameStore, game: Game[Any, Any], game_id: int, version: int, back_to: int, at: datetime
) -> CommitResult:
    """A moderator's undo to right after entry `back_to`: the state comes from replaying the log."""
    old = await replay_game(store, game, game_id, upto=back_to)
    return await store.games.commit(
        game_id,
        version,
        NewLogEntry.for_undo(back_to, at, user_id=1, note="moderator undo"),
        game.dump_state(old),
        status="finished" if game.result(old) is not None else "active",
        timers=timers_for(game, old, version + 1),
    )


def uniform_chooser(game: Game[Any, Any], seats: int) -> Chooser:
    """Any legal action of any seat, and now and then a system action (a timeout)."""

    def choose(state: Any, rnd: random.Random) -> tuple[int | None, Any] | None:
        choices: list[tuple[int | None, Any]] = [(s, a) for s in range(seats) for a in game.legal_actions(state, s)]
        system = [(None, a) for a in game.legal_actions(state, None)]
        choices += [c for c in system if not choices or rnd.random() < 0.1]
        return rnd.choice(choices) if choices else None

    return choose


Clock = Callable[[Any, int | None, Any], datetime]
"""The time of the next step from (state, actor, action); action is None for an undo or a note."""


def deadline_clock(game: Game[Any, Any], rnd: random.Random, start_at: datetime = T0) -> Clock:
    """A clock that moves on a minute or two per step, and for a system action (a timeout) first to the deadline
    of what the game waits for (games refuse a timeout before it)."""
    now = [start_at]

    def clock(state: Any, actor: int | None, action: Any) -> datetime:
        if actor is None and action is not None:
            waits = game.waiting_on(state)
            if waits:
                now[0] = max(now[0], waits[0].until)
        now[0] += timedelta(seconds=rnd.randint(1, 120))
        return now[0]

    return clock


async def random_step(
    store: GameStore,
    game: Game[Any, Any],
    game_id: int,
    rnd: random.Random,
    *,
    undo_chance: float = 0.0,
    note_chance: float = 0.0,
    chooser: Chooser | None = None,
    clock: Clock | None = None,
) -> int | None:
    """One committed step (an action, or sometimes an undo or a note); None if the game is over. Returns the new
    version. Retries on StaleVersion, as the bot does."""
    if chooser is None:
        chooser = uniform_chooser(game, (await store.games.get(game_id)).seat_count or 0)
    if clock is None:
        clock = deadline_clock(game, rnd)
    while True:
        snap = await store.games.snapshot(game_id)
        state = game.load_state(snap.state)
        roll = rnd.random()
        try:
            if snap.version > 0 and roll < undo_chance:
                back_to = rnd.randrange(snap.version)
                when = clock(state, None, None)
                return (await commit_undo(store, game, game_id, snap.version, back_to, when)).version
            if roll < undo_chance + note_chance:
                entry = NewLogEntry.for_note("a note", clock(state, None, None), user_id=1)
                return (await store.games.commit(game_id, snap.version, entry, None)).version
            if game.result(state) is not None:
                return None
            choice = chooser(state, rnd)
            if choice is None:
                return None
            actor, action = choice
            when = clock(state, actor, action)
            return (await commit_action(store, game, game_id, snap.version, state, actor, action, when)).version
        except StaleVersion:
            continue
