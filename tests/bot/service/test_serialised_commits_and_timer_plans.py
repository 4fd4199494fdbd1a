"""The service on its own (no Discord): serialised concurrent moves, the optimistic version check, timer plans."""

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot import timers as timing
from bot.service import GameService, Person, Refusal
from storage import GameStore, NewLogEntry, open_store
from tests.bot.toy_presentation import ToyPresentation
from tests.bot.toygame import Toy

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[GameStore]:
    s = await open_store(tmp_path / "service.sqlite3")
    yield s
    await s.close()


async def started(store: GameStore, clock: Clock, players: int = 3) -> tuple[GameService, list[Person]]:
    service = GameService(store, {"toy": Toy()}, {"toy": ToyPresentation()}, clock=clock, seed_source=lambda: 7)
    people = [Person(100 + i, f"p{i}") for i in range(players)]
    record = await service.lobby.create_lobby("toy", guild_id=1, channel_id=2, creator=people[0], options={})
    from bot.service import LobbySettings

    await service.lobby.attach_lobby_message(record.id, message_id=9, channel_id=2, settings=LobbySettings(5, False))
    await service.lobby.attach_thread(record.id, 3)
    for p in people[1:]:
        await service.lobby.join(record.id, p)
    await service.lobby.start(record.id, people[0], is_moderator=False)
    return service, people


async def test_two_moves_at_the_same_moment_are_serialised(store: GameStore) -> None:
    clock = Clock()
    service, people = await started(store, clock)
    toy = service.read.game("toy")
    state = toy.load_state((await store.games.snapshot(1)).state)
    card = state.hands[0][0]
    # Seat 0 plays; at the same moment seat 1 tries to pass on a window that only exists after the play.
    results = await asyncio.gather(
        service.play.act(1, people[0].user_id, {"type": "play", "card": card}),
        service.play.act(1, people[1].user_id, {"type": "pass"}),
        return_exceptions=True,
    )
    assert not isinstance(results[0], BaseException)
    # The lock ran them one after the other: the pass saw the play's window and was accepted.
    assert not isinstance(results[1], BaseException), results[1]
    state = toy.load_state((await store.games.snapshot(1)).state)
    assert state.window is not None and state.window.waiting == [2]
    assert (await store.games.get(1)).version == 2
    # The same two in the other order: the pass is refused with the game's reason, the play goes through.
    results = await asyncio.gather(
        service.play.act(1, people[1].user_id, {"type": "pass"}),
        service.play.act(1, people[2].user_id, {"type": "pass"}),
        return_exceptions=True,
    )
    assert isinstance(results[0], Refusal) and results[0].message == "You have nothing to react to right now."
    assert not isinstance(results[1], BaseException)


async def test_a_commit_by_another_process_is_detected_and_retried(store: GameStore) -> None:
    clock = Clock()
    service, people = await started(store, clock)
    real_commit = store.games.commit
    raced = []

    async def racing_commit(game_id, expected_version, entry, snapshot, **kwargs):  # type: ignore[no-untyped-def]
        if not raced:
            raced.append(True)  # another process commits first, between our load and our commit
            await real_commit(game_id, expected_version, NewLogEntry.for_note("elsewhere", clock()), None)
        return await real_commit(game_id, expected_version, entry, snapshot, **kwargs)

    store.games.commit = racing_commit  # type: ignore[method-assign]
    await service.play.act(1, people[0].user_id, {"type": "draw"})
    log = await store.log.entries(1)
    assert [e.kind for e in log] == ["note", "action"]
    state = service.read.game("toy").load_state((await store.games.snapshot(1)).state)
    assert len(state.hands[0]) == 4 and state.turn == 1


async def test_a_move_starts_from_the_state_the_last_commit_kept(store: GameStore) -> None:
    """The second move reads no state text (the first one's committed state is kept), and commits exactly what
    applying the move to the stored state gives."""
    clock = Clock()
    service, people = await started(store, clock)
    toy = service.read.game("toy")
    await service.play.act(1, people[0].user_id, {"type": "draw"})
    stored = (await store.games.snapshot(1)).state
    parsed: list[object] = []
    real_load = toy.load_state
    toy.load_state = lambda data: parsed.append(data) or real_load(data)  # type: ignore[method-assign]
    await service.play.act(1, people[1].user_id, {"type": "draw"})
    assert parsed == []
    expected = toy.apply(real_load(stored), 1, {"type": "draw"}, clock()).state
    assert (await store.games.snapshot(1)).state.rstrip() == toy.dump_state(expected)


async def test_a_kept_state_is_not_used_once_another_commit_changed_the_game(store: GameStore) -> None:
    """A commit the service did not make (another process, a moderator's tool writing the store) bumps the version:
    the next move parses the stored state instead of starting from the kept one."""
    clock = Clock()
    service, people = await started(store, clock)
    toy = service.read.game("toy")
    await service.play.act(1, people[0].user_id, {"type": "draw"})
    snap = await store.games.snapshot(1)
    changed = toy.load_state(snap.state)
    changed.hands[1] = []  # something the kept state does not have
    await store.games.commit(1, snap.version, NewLogEntry.for_note("elsewhere", clock()), toy.dump_state(changed))
    await service.play.act(1, people[1].user_id, {"type": "draw"})
    state = toy.load_state((await store.games.snapshot(1)).state)
    assert len(state.hands[1]) == 1  # drawn onto the empty hand the other commit left, not onto the kept one


def test_timer_plan_reminders_and_clocks() -> None:
    toy = Toy()
    state = toy.setup(3, toy.parse_options({}), 1, T0)
    (wait,) = toy.waiting_on(state)
    plan = timing.plan(toy, [wait], {}, T0, paused=False)
    assert [(t.kind, t.due_at - T0) for t in plan] == [
        ("deadline", timedelta(hours=24)),
        ("reminder", timedelta(hours=12)),
        ("reminder", timedelta(hours=23)),
    ]
    # Paused two hours in: one frozen clock with 22 hours left, and no reminder.
    clocks = timing.clocks_from([_record(t) for t in plan])
    frozen = timing.plan(toy, [wait], clocks, T0 + timedelta(hours=2), paused=True)
    assert [(t.kind, t.payload["remaining"]) for t in frozen] == [("frozen", 22 * 3600)]
    # Resumed a day later: the deadline is 22 hours from the resume; reminders follow the new deadline.
    resume_at = T0 + timedelta(hours=26)
    clocks = timing.resumed(toy, [wait], timing.clocks_from([_record(t) for t in frozen]), resume_at)
    after = timing.plan(toy, [wait], clocks, resume_at, paused=False)
    assert after[0].due_at == resume_at + timedelta(hours=22)
    # Halfway (since → new deadline) is T0+24h, already past at the resume: only the one-hour reminder is left.
    assert [t.due_at for t in after[1:]] == [resume_at + timedelta(hours=21)]
    # An extension moves the deadline; a short reaction window gets no reminder at all.
    more = timing.extended(toy, [wait], clocks, timedelta(hours=5), paused=False, now=resume_at)
    assert timing.plan(toy, [wait], more, resume_at, paused=False)[0].due_at == resume_at + timedelta(hours=27)
    window_state = toy.apply(state, 0, {"type": "play", "card": state.hands[0][0]}, T0).state
    assert [t.kind for t in timing.plan(toy, toy.waiting_on(window_state), {}, T0, paused=False)] == ["deadline"]


def _record(t):  # type: ignore[no-untyped-def]
    from storage import TimerRecord

    return TimerRecord(id=1, game_id=1, created_at=T0, **t.model_dump())


def test_a_wait_keeps_its_key_and_no_two_waits_share_one() -> None:
    """`wait_key` remembers the keys of the waits it saw last (by object): a wait computed again, or forgotten and
    asked for again, has the same key; different waits never get each other's."""
    toy = Toy()
    state = toy.setup(3, toy.parse_options({}), 1, T0)
    (wait,) = toy.waiting_on(state)
    others = [wait.model_copy(update={"since": T0 + timedelta(seconds=i)}) for i in range(timing.KEYS_KEPT + 10)]
    keys = [timing.wait_key(toy, w) for w in others]  # more than are kept: the first ones are forgotten
    assert len(set(keys)) == len(others)
    assert [timing.wait_key(toy, w) for w in reversed(others)] == keys[::-1]
    assert timing.wait_key(toy, toy.waiting_on(state)[0]) == timing.wait_key(toy, wait)
