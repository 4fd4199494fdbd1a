"""An id beyond SQLite's 64-bit INTEGER (only forged input has one) is "not found" in every call that takes an id,
never an `OverflowError` (issue 24, item 3): the store refuses it itself, whatever the caller checked before."""

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import pytest

from storage import GameNotFound, GameStore, MessageRef, NewLogEntry, NewSeat, NewTimer
from tests.storage.helpers import start
from tests.storage.toy_game import ToyDraw

HUGE = [2**63, 9999999999999999999, 99999999999999999999, -(2**63) - 1]
T = datetime(2026, 1, 1, tzinfo=UTC)


def calls(n: int) -> dict[str, Callable[[GameStore], Awaitable[Any]]]:
    return {
        "get_game": lambda s: s.games.get(n),
        "load_game": lambda s: s.games.load(n),
        "get_snapshot": lambda s: s.games.snapshot(n),
        "update_game": lambda s: s.games.update(n, status="abandoned"),
        "commit": lambda s: s.games.commit(n, 0, NewLogEntry.for_note("x", T), None),
        "seats": lambda s: s.seats.of_game(n),
        "set_seats": lambda s: s.seats.set_lobby(n, [NewSeat(seat=0, player_id=1, display_name="a")]),
        "update_seat": lambda s: s.seats.update(n, 0, missed=1),
        "seats_of_player": lambda s: s.seats.of_player(n),
        "log": lambda s: s.log.entries(n),
        "log_entry": lambda s: s.log.entry(n, 1),
        "add_timers": lambda s: s.timers.add(n, [NewTimer(kind="x", due_at=T)]),
        "timers": lambda s: s.timers.of_game(n),
        "delete_timer": lambda s: s.timers.delete(n),
        "delete_timers": lambda s: s.timers.clear(n),
        "outbox_item": lambda s: s.outbox.item(n),
        "mark_failed": lambda s: s.outbox.mark_failed(n, "x"),
        "message_ref": lambda s: s.refs.get(n),
        "message_refs": lambda s: s.refs.of_game(n),
        "find_message_ref": lambda s: s.refs.find(n, "status"),
        "delete_message_ref": lambda s: s.refs.delete(n),
        "find_game_by_thread": lambda s: s.games.by_thread(n),
        "list_games": lambda s: s.games.find(guild_id=n),
        "guild_settings": lambda s: s.settings.guild(n),
        "put_message_ref": lambda s: s.refs.put(
            MessageRef(message_id=n, channel_id=1, game_id=1, kind="status", created_at=T)
        ),
    }


@pytest.mark.parametrize("number", HUGE)
async def test_every_call_refuses_an_id_beyond_64_bits_as_not_found(store: GameStore, number: int) -> None:
    game_id = await start(store, ToyDraw())
    before = await store.games.get(game_id)
    for name, call in calls(number).items():
        try:
            await call(store)
        except GameNotFound:
            pass  # "not found": what every caller already answers clearly
        except Exception as exc:  # which error it is, is the point
            pytest.fail(f"{name}({number}) raised {type(exc).__name__}: {exc}")
    assert await store.games.get(game_id) == before
    assert await store.maintenance.check_integrity() == []
